"""The malformed-file corpus: each file loads correctly or raises LinkageFormatError with its line.

`tests/io/corpus/manifest.json` says, per file, either ``{"ok": [n, m, k, q]}`` (vertices, rods,
angles, pins) or ``{"error": line-or-null, "match": regex}``.
"""

import json
import time
from pathlib import Path

import pytest

from linkage_widget import Linkage, LinkageFormatError

CORPUS = Path(__file__).parent / "corpus"
MANIFEST = json.loads((CORPUS / "manifest.json").read_text())


def test_manifest_covers_every_file():
    assert sorted(MANIFEST) == sorted(p.name for p in CORPUS.glob("*.txt"))


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_corpus_file(name):
    path = CORPUS / name
    expect = MANIFEST[name]
    if "ok" in expect:
        link = Linkage.load(path)
        counts = [link.n_vertices, link.n_rods, link.n_angles, len(link.pinned)]
        assert counts == expect["ok"]
        assert Linkage.loads(link.dumps()) == link
    else:
        with pytest.raises(LinkageFormatError, match=expect["match"]) as info:
            Linkage.load(path)
        assert info.value.source == str(path)
        assert info.value.line == expect["error"]
        where = f"line {expect['error']}" if expect["error"] else str(path)
        assert where in str(info.value)


def _big_file(tmp_path, n_lines):
    n = n_lines // 2
    lines = ["v"] + [f"{i}.5 {i % 97}.25" for i in range(n)] + ["e"]
    lines += [f"{i} {i + 1}" for i in range(n_lines - n - 2)]
    path = tmp_path / "big.txt"
    path.write_text("\n".join(lines) + "\n")
    return path, n


def test_a_million_line_file_loads(tmp_path):
    path, n = _big_file(tmp_path, 10**6)
    t0 = time.perf_counter()
    link = Linkage.load(path)
    elapsed = time.perf_counter() - t0
    assert link.n_vertices == n and link.n_rods == 10**6 - n - 2
    print(f"\n10^6-line file parsed and validated in {elapsed:.1f} s")


def test_a_million_line_file_with_an_error_at_the_end(tmp_path):
    path, n = _big_file(tmp_path, 10**6)
    with path.open("a") as fh:
        fh.write(f"0 {n + 5}\n")
    with pytest.raises(LinkageFormatError, match=f"vertex {n + 5} does not exist") as info:
        Linkage.load(path)
    assert info.value.line == 10**6 + 1
