import os
from pathlib import Path

import numpy as np
import pytest
from conftest import REFERENCE_DIR, reference_linkage
from hypothesis import given, settings
from hypothesis import strategies as st

from linkage_widget import Linkage, LinkageFormatError
from linkage_widget.model import MAX_ROD_LENGTH, MIN_ROD_LENGTH

REFERENCE_FILES = sorted(p.name for p in REFERENCE_DIR.glob("*.txt")) or ["peaucellier.txt"]


def parse_2007_like(text):
    """Read a file as the 2007 program did: sections by first letter, numbers split on spaces."""
    data = {"v": [], "f": [], "e": [], "a": []}
    section = None
    for line in text.splitlines():
        if line and line[0] in data:
            section = line[0]
        elif line.strip():
            data[section].append([float(x) for x in line.split()])
    return data


@pytest.mark.parametrize("name", REFERENCE_FILES)
def test_reference_files_load_and_round_trip_exactly(name):
    path = reference_linkage(name)
    text = path.read_text()
    link = Linkage.load(path)
    old = parse_2007_like(text)
    np.testing.assert_array_equal(link.vertices, np.array(old["v"]).reshape(-1, 2))
    assert link.rods.tolist() == [[int(i), int(j)] for i, j in old["e"]]
    assert link.pinned.tolist() == [int(v) for (v,) in old["f"]]
    assert link.angles.tolist() == [[int(x) for x in a] for a in old["a"]]
    again = Linkage.loads(link.dumps())
    assert again == link
    # what we write, the 2007 reader reads back to the same numbers
    assert parse_2007_like(link.dumps()) == old


def test_saved_floats_are_exact(tmp_path):
    pts = np.array([[0.1, 1 / 3], [1e-300, -2.5e17], [np.pi, -0.0]])
    link = Linkage(pts, rods=[(0, 1)])
    link.save(tmp_path / "x.txt")
    back = Linkage.load(tmp_path / "x.txt")
    assert back.vertices.tobytes() == link.vertices.tobytes()


def test_whitespace_crlf_bom_comments():
    text = "\ufeffv\r\n  0 0\t\r\n\r\n3 4   # a comment\r\nf\r\ne\r\n0\t1\r\na\r\n"
    link = Linkage.loads(text)
    assert link.rod_lengths().tolist() == [5.0]


def test_long_header_words_and_any_section_order():
    link = Linkage.loads("edges\nvertices\n0 0\n1 0\nedges\n0 1\nfixed\n1\n")
    assert link.rods.tolist() == [[0, 1]] and link.pinned.tolist() == [1]


def test_a_header_is_one_word_alone_on_its_line():
    # issue 11: "abc 1" used to start the angle section and drop the "1" silently
    with pytest.raises(LinkageFormatError, match="malformed section header") as info:
        Linkage.loads("v\n0 0\nabc 1\n", source="t.txt")
    assert (info.value.source, info.value.line) == ("t.txt", 3)
    # a one-word header may be longer, and a comment may follow it
    link = Linkage.loads("vertices  # joints\n0 0\n1 0\nedges\t# rods\n0 1\n")
    assert link.rods.tolist() == [[0, 1]]
    # a line that starts with a number Python reads stays data (and is refused as such)
    with pytest.raises(LinkageFormatError, match="not finite") as info:
        Linkage.loads("v\n0 0\ninf 1\n")
    assert info.value.line == 3


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("v\n0 0\n1 x\n", 3, "not a number"),
        ("v\n0 0\n1 nan\n", 3, "not finite"),
        ("v\n0 0\n1 2 3\n", 3, "needs 2 fields"),
        ("v\n0 0\ne\n0\n", 4, "needs 2 fields"),
        ("v\n0 0\n1 1\ne\n0 2\n", 5, "does not exist"),
        ("v\n0 0\n1 1\ne\n0 -1\n", 5, "does not exist"),
        ("v\n0 0\n1 1\ne\n0 99999999999999999999\n", 5, "vertex 99999999999999999999 does"),
        ("v\n0 0\nf\n0\n-99999999999999999999\n", 5, "does not exist"),
        ("v\n0 0\n1 1\ne\n0 1\na\n9 0 1\n", 7, r"angle \(9, 0, 1\): vertex 9 does not"),
        ("v\n0 0\n1 1\ne\n0 1\n1 0\n0 0\n", 6, "repeats the rod on line 5"),
        # the first error in the file is the one reported
        ("v\n0 0\n0 0\n5 5\ne\n0 1\n0 9\n", 6, "zero length"),
        ("v\n0 0\n1 1\ne\n0 9\n0 0\n", 5, "does not exist"),
        ("v\n0 0\n1 1\ne\n1 1\n0 1\n9 0\n", 5, "to itself"),
        ("v\n0 0\n1 1\ne\n1 1\n", 5, "to itself"),
        ("v\n0 0\n1 1\ne\n0 1\n1 0\n", 6, "repeats the rod on line 5"),
        ("v\n0 0\n0 0\ne\n0 1\n", 5, "zero length"),
        ("v\n-1e308 0\n1e308 0\ne\n0 1\n", 5, "overflows"),
        ("v\n0 0\n1 1\n0 0\ne\n0 1\na\n0 1 2\n", 8, "joints 0 and 2 coincide"),
        ("v\n0 0\nf\n0.5\n", 4, "not a vertex index"),
        ("v\n0 0\nf\n0\n0\n", 5, "pinned already"),
        ("v\n0 0\nx\n", 3, "unknown section"),
        ("v\n0 0\nxyz 1\n", 3, "unknown section 'xyz'"),
        ("v\n0 0\nabc 1\n", 3, "malformed section header 'abc 1'"),
        ("v 3\n0 0\n", 1, "malformed section header 'v 3'"),
        ("v\n0 0\n1 0\ne 0 1\n", 4, "malformed section header 'e 0 1'"),
        ("v\n0 0\n1 0\ne1 0\n", 4, "malformed section header 'e1 0'"),
        ("v\n0 0\nvertices 2\n", 3, "malformed section header"),
        ("0 0\nv\n", 1, "before the first section"),
    ],
)
def test_errors_name_the_line(text, line, words):
    with pytest.raises(LinkageFormatError, match=words) as info:
        Linkage.loads(text, source="bad.txt")
    assert info.value.line == line
    assert str(info.value).startswith(f"bad.txt, line {line}:")


@pytest.mark.parametrize("text", ["", "   \n\n", "f\ne\n"])
def test_empty_or_headerless_files_are_errors(text):
    with pytest.raises(LinkageFormatError, match="not a linkage file"):
        Linkage.loads(text)


def test_only_headers_is_an_empty_linkage():
    assert Linkage.loads("v\nf\ne\na\n") == Linkage()


def test_binary_garbage_is_an_error(tmp_path):
    path = tmp_path / "garbage.txt"
    path.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(LinkageFormatError, match=str(path)):
        Linkage.load(path)


def test_bundled_example_by_bare_name_from_any_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    link = Linkage.load("peaucellier.txt")
    assert link.n_vertices == 6 and link.vertices[5, 0] == 128.0
    assert Linkage.load("peaucellier") == link
    with pytest.raises(FileNotFoundError, match="bundled"):
        Linkage.load("no_such_linkage.txt")


def test_a_local_file_wins_over_the_bundled_example(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("peaucellier.txt").write_text("v\n1 2\nf\ne\na\n")
    assert Linkage.load("peaucellier.txt").n_vertices == 1


def test_save_is_atomic_when_the_rename_fails(tmp_path, monkeypatch):
    path = tmp_path / "keep.txt"
    Linkage([[1, 2]]).save(path)
    before = path.read_bytes()

    def failing_replace(src, dst):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(OSError, match="cannot save"):
        Linkage([[3, 4], [5, 6]]).save(path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.txt"]  # no temp file left


def test_save_to_unwritable_place_is_a_clear_error(tmp_path):
    with pytest.raises(OSError, match="cannot save"):
        Linkage([[1, 2]]).save(tmp_path / "no" / "such" / "dir" / "x.txt")


def test_format_always_writes_four_headers():
    assert Linkage().dumps() == "v\nf\ne\na\n"


finite = st.floats(allow_nan=False, allow_infinity=False, width=64)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(finite, finite), min_size=0, max_size=10, unique=True), st.data())
def test_loads_dumps_round_trip(points, data):
    n = len(points)
    link_ok = Linkage(np.array(points, float).reshape(-1, 2))
    with np.errstate(over="ignore"):
        pairs = [
            (i, j)
            for i in range(n)
            for j in range(i + 1, n)
            if MIN_ROD_LENGTH
            <= np.hypot(*(link_ok.vertices[i] - link_ok.vertices[j]))
            <= MAX_ROD_LENGTH
        ]
    rods = data.draw(st.lists(st.sampled_from(pairs), unique=True) if pairs else st.just([]))
    pins = data.draw(st.lists(st.integers(0, n - 1), unique=True) if n else st.just([]))
    link = Linkage(np.array(points, float).reshape(-1, 2), rods=rods, pinned=pins)
    assert Linkage.loads(link.dumps()) == link


def test_write_linkage_keeps_permissions(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("old")
    path.chmod(0o640)
    Linkage([[0, 0]]).save(path)
    assert (path.stat().st_mode & 0o777) == 0o640
