"""Fuzz suite over every reader (issue 22): the 2007 text, its JSON sidecar, the JSON
document, and the networkx/PyRigi exchange.

Inputs: deterministic byte, line and JSON-value mutations (``random.Random`` with fixed
seeds, so CI sees the same inputs every run) of the bundled example files, of a sidecar and
a document holding every key, and of the 2007 program's files in
``../shared/reference-linkages`` (through the ``reference_dir`` fixture: skipped where that
folder is absent, a failure under CI); plus hypothesis-generated JSON values and graphs
(derandomised, ``deadline=None``, a few hundred examples each).

What must hold for every input:

* a reader either returns, or raises :class:`~linkage_widget.LinkageFormatError` (the
  exchange readers: ``ValueError``, as io/exchange.py documents) — never a RecursionError,
  OverflowError, IndexError, a bare numpy error or a warning;
* the message is bounded (:data:`BOUND` characters), whatever the input's size;
* a refused upload leaves a session holding a linkage unchanged (same vertices, rods,
  pins), with :attr:`~linkage_widget.session.LinkageSession.error` set and bounded.

Each test gathers every failing input and reports how many of how many failed, with the
first few; the whole module runs in well under a minute.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import linkage_widget
from linkage_widget import Linkage, LinkageFormatError
from linkage_widget.elements import Load, Motor, PathForce, PathFriction, Spring
from linkage_widget.io import Extensions
from linkage_widget.io.document_json import loads_document
from linkage_widget.session import LinkageSession, load_upload
from linkage_widget.session.document_file import dumps_session

EXAMPLES = Path(linkage_widget.__file__).parent / "examples"
#: Longest exception message a refusal may give (source name included).
BOUND = 600
#: Longest session error ("could not load <name>, line n: ..." on top of the message).
SESSION_BOUND = 700
FUZZ = settings(
    max_examples=250,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

#: Tokens spliced into texts: what breaks parsers (numbers beyond float, int64 and Python's
#: digit limit, non-finite words, NUL, invalid UTF-8, a BOM, CR, deep nesting, long runs).
NASTY = [
    b"\x00", b"\xff\xfe", b"\xc3", b"\xef\xbb\xbf", b"\r", b"\t", b" ", b"#", b"\n\n",
    b"nan", b"inf", b"-inf", b"1e999", b"-1", b"0.5", b"1e-320", b"9" * 25, b"1" * 5000,
    b"1" + b"0" * 400, b"v", b"f", b"e", b"a", b"v 3", b"e 0 1", b"abc", b"vertices",
    b"\xc3\xa9", b"\xe2\x80\xae", b"x" * 100_000, b"[" * 3000, b"{" * 3000, b'"', b"}", b"]",
    b":", b",", b"null", b"true", b"-0", b"0x10", b"1_000",
]  # fmt: skip
NASTY_LINES = [
    "e", "0 0", "a", "0 1 2", "f", "999", "v 3", "1 2 3", "1 2 3 4", "e\n0 0", "e\n0 1\n1 0",
    "a\n0 1 1", "f\n0\n0", "nan 1", "inf 0", "0 " * 50_000, "e\n0 " + "9" * 5000,
    "v\n" + "0 0\n" * 3, "v\n1e308 -1e308\ne\n0 1",
]  # fmt: skip
#: JSON values put in place of a value of a sidecar or document (placeholders in ``@@``
#: are spliced in as raw text: json.dumps cannot write them).
NASTY_VALUES: list[object] = [
    None, True, False, 0, -1, 1.5, -1e308, 1e308, 2**63, -(2**63) - 1, 10**30, "", "x",
    "x" * 100_000, [], {}, [0], [[0, 1]], [[0, 0, 0, 0]], {"i": 0}, [None], ["@@DEEP@@"],
    "@@DEEP@@", "@@DIGITS@@", "@@BIGINT@@", "@@NAN@@", "@@INF@@", [1e308, -1e308],
]  # fmt: skip
RAW = {
    '"@@DEEP@@"': "[" * 3000 + "]" * 3000,
    '"@@DIGITS@@"': "1" * 5000,
    '"@@BIGINT@@"': "1" + "0" * 400,
    '"@@NAN@@"': "NaN",
    '"@@INF@@"': "-Infinity",
}


# ------------------------------------------------------------------ mutations
def byte_mutant(data: bytes, rng: random.Random) -> bytes:
    """One byte-level change: flip, delete, insert a nasty token, truncate or repeat a span."""
    n = len(data)
    at, span = rng.randrange(n + 1), rng.randrange(1, 16)
    kind = rng.randrange(5)
    if kind == 0 and n:
        at = min(at, n - 1)
        return data[:at] + bytes([rng.randrange(256)]) + data[at + 1 :]
    if kind == 1:
        return data[:at] + data[at + span :]
    if kind == 2:
        return data[:at] + rng.choice(NASTY) + data[at:]
    if kind == 3:
        return data[:at]
    return data[:at] + data[at : at + span] * rng.randrange(2, 50) + data[at:]


def line_mutant(data: bytes, rng: random.Random) -> bytes:
    """One line-level change: delete, repeat, swap lines, replace a field, add a nasty line."""
    lines = data.decode("utf-8", "replace").split("\n")
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    kind = rng.randrange(5)
    if kind == 0:
        del lines[i]
    elif kind == 1:
        lines.insert(i, lines[i])
    elif kind == 2:
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == 3:
        fields = lines[i].split() or [""]
        fields[rng.randrange(len(fields))] = rng.choice(NASTY).decode("utf-8", "replace")
        lines[i] = " ".join(fields)
    else:
        lines.insert(i, rng.choice(NASTY_LINES))
    return "\n".join(lines).encode("utf-8", "surrogatepass")


def _paths(value: object, path: tuple = ()) -> Iterator[tuple]:
    """Every path (keys and indices) to a value inside a JSON value."""
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*path, k))
    elif isinstance(value, list):
        for k, v in enumerate(value):
            yield from _paths(v, (*path, k))


def _dumps(value: object) -> bytes:
    text = json.dumps(value)
    for token, raw in RAW.items():
        text = text.replace(token, raw)
    return text.encode()


def json_mutant(data: bytes, rng: random.Random) -> bytes:
    """One JSON-value change: a value replaced by a nasty one, a key removed or added."""
    try:
        value = json.loads(data)
    except (ValueError, RecursionError):  # an earlier change broke the JSON: bytes, then
        return byte_mutant(data, rng)
    paths = list(_paths(value))[1:]
    if not paths:  # a bare value: replace it
        return _dumps(rng.choice(NASTY_VALUES))
    path = rng.choice(paths)
    parent = value
    for k in path[:-1]:
        parent = parent[k]
    kind = rng.randrange(4)
    if kind == 0 and isinstance(parent, dict):
        del parent[path[-1]]
    elif kind == 1 and isinstance(parent, dict):
        parent[rng.choice(["extra", "view", "dim", "names", "loads", "motors"])] = rng.choice(
            NASTY_VALUES
        )
    else:
        parent[path[-1]] = rng.choice(NASTY_VALUES)
    return _dumps(value)


def mutants(seeds: dict[str, bytes], operators: list, count: int, seed: int) -> list[tuple]:
    """``count`` mutants of each seed, ``(seed name, bytes)``, the same every run."""
    rng = random.Random(seed)
    out = []
    for name, data in seeds.items():
        for _ in range(count):
            mutant = data
            for _ in range(rng.choice((1, 1, 2, 3))):  # one change, now and then a few
                mutant = rng.choice(operators)(mutant, rng)
            out.append((name, mutant))
    return out


# ------------------------------------------------------------------ seeds
@cache
def text_seeds() -> dict[str, bytes]:
    files = sorted(EXAMPLES.glob("*.txt")) + sorted((EXAMPLES / "space_files").glob("*.txt"))
    return {p.name: p.read_bytes() for p in files}


def full_extensions() -> Extensions:
    """Every sidecar key, for peaucellier (6 joints, rod 0-3 among its rods)."""
    return Extensions(
        tracked=(5, 2),
        springs=(Spring(0, 3, stiffness=2.5, rest_length=0.7, damping=0.1),),
        mass_distribution=0.25,
        motors=(Motor(0, 3, 1.5, None),),
        loads=(Load(4, 0.0, -1.0),),
        forces=(PathForce(2, 5, 3.0),),
        frictions=(PathFriction(2, 5, 1.0, 0.3),),
        table_friction=0.2,
        names=("O", "Q", "A"),
    )


@cache
def sidecar_seeds() -> dict[str, bytes]:
    link = Linkage.load("peaucellier.txt")
    assert link.rods.tolist()[0] == [0, 3]  # the motor turns an existing rod
    return {
        "peaucellier.txt.json": (EXAMPLES / "peaucellier.txt.json").read_bytes(),
        "full.txt.json": full_extensions().to_json().encode(),
    }


@cache
def document_seeds() -> dict[str, bytes]:
    out = {}
    for name in ("four_bar.txt", "peaucellier.txt", "space_files/cube.txt"):
        s = LinkageSession.load(str(EXAMPLES / name))
        out[name] = dumps_session(s).encode()
    full = LinkageSession.load("peaucellier.txt")
    full.load_bytes(
        {"p.txt": full.linkage.dumps().encode(), "p.txt.json": sidecar_seeds()["full.txt.json"]}
    )
    out["full document"] = dumps_session(full).encode()
    return out


# ------------------------------------------------------------------ checks
def refusal(read: Callable[[], object]) -> tuple[str | None, bool]:
    """Run a reader: ``(problem or None, whether it refused)``."""
    try:
        read()
    except LinkageFormatError as exc:
        if len(str(exc)) > BOUND:
            return f"a message of {len(str(exc))} characters", True
        return None, True
    except Exception as exc:  # noqa: BLE001 - what escapes is the finding
        return f"{type(exc).__name__}: {str(exc)[:100]}", True
    return None, False


class Holder:
    """A session holding a linkage; an upload that is refused must leave it as it was."""

    def __init__(self) -> None:
        self.session = LinkageSession.load("four_bar.txt")
        self.before = self.state()

    def state(self) -> tuple:
        link = self.session.linkage
        return link.vertices.tobytes(), link.rods.tobytes(), link.pinned.tobytes()

    def problem(self, files: dict[str, bytes]) -> str | None:
        s = self.session
        s.error = ""
        try:
            ok = load_upload(s, files)
        except Exception as exc:  # noqa: BLE001
            return f"the upload raised {type(exc).__name__}: {str(exc)[:100]}"
        if ok:
            return "the reader refused it, the upload took it"
        if self.state() != self.before:
            return "the refused upload changed the linkage"
        if not s.error or len(s.error) > SESSION_BOUND:
            return f"session.error of {len(s.error)} characters"
        return None


@cache
def holder_session() -> Holder:
    """One holder for the module: a refused upload changes nothing, so it can be shared."""
    return Holder()


def check(inputs: list[tuple], read: Callable, upload: Callable) -> None:
    """Every input refused properly (or read), and every refusal leaves the session as it was."""
    holder, problems = holder_session(), []
    for name, data in inputs:
        problem, refused = refusal(lambda data=data: read(data))
        if problem is None and refused:
            problem = holder.problem(upload(data))
        if problem is not None:
            problems.append(f"{name} {data[:60]!r}... ({len(data)} bytes): {problem}")
    assert not problems, f"{len(problems)} of {len(inputs)} inputs: " + "\n".join(problems[:8])


def read_2007(data: bytes) -> object:
    return Linkage.from_bytes(data, source="fuzz.txt")


def upload_2007(data: bytes) -> dict[str, bytes]:
    return {"fuzz.txt": data}


PEAUCELLIER = (EXAMPLES / "peaucellier.txt").read_bytes()


def read_sidecar(data: bytes) -> object:
    link = Linkage.from_bytes(PEAUCELLIER)
    return Extensions.from_bytes(data, n_vertices=6, source="fuzz.txt.json", rods=link.rods)


def upload_sidecar(data: bytes) -> dict[str, bytes]:
    return {"fuzz.txt": PEAUCELLIER, "fuzz.txt.json": data}


def read_document(data: bytes) -> object:
    return loads_document(data, source="fuzz.json")


def upload_document(data: bytes) -> dict[str, bytes]:
    return {"fuzz.json": data}


# ------------------------------------------------------------------ the 2007 reader
def test_mutated_example_files():
    inputs = mutants(text_seeds(), [byte_mutant, line_mutant], 30, seed=2201)
    check(inputs, read_2007, upload_2007)


def test_mutated_reference_files(reference_dir):
    seeds = {p.name: p.read_bytes() for p in sorted(reference_dir.glob("*.txt"))}
    assert seeds, f"no .txt files in {reference_dir}"
    check(mutants(seeds, [byte_mutant, line_mutant], 30, seed=2202), read_2007, upload_2007)


# ------------------------------------------------------------------ the sidecar
def test_mutated_sidecars():
    inputs = mutants(sidecar_seeds(), [json_mutant, json_mutant, byte_mutant], 200, seed=2203)
    check(inputs, read_sidecar, upload_sidecar)


# ------------------------------------------------------------------ the document
def test_mutated_documents():
    inputs = mutants(document_seeds(), [json_mutant, json_mutant, byte_mutant], 120, seed=2204)
    check(inputs, read_document, upload_document)


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**400), 10**400)
    | st.floats()
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


@FUZZ
@given(data=st.data(), value=JSON_VALUES)
def test_any_json_value_anywhere_in_a_sidecar_or_document(data, value):
    kind = data.draw(st.sampled_from(["sidecar", "document"]))
    seeds = sidecar_seeds() if kind == "sidecar" else document_seeds()
    tree = json.loads(data.draw(st.sampled_from(sorted(seeds.values()))))
    path = data.draw(st.sampled_from(list(_paths(tree))[1:]))
    parent = tree
    for k in path[:-1]:
        parent = parent[k]
    parent[path[-1]] = value
    text = json.dumps(tree).encode()  # NaN and Infinity too: a reader must refuse them
    read, upload = (
        (read_sidecar, upload_sidecar) if kind == "sidecar" else (read_document, upload_document)
    )
    problem, refused = refusal(lambda: read(text))
    assert problem is None, problem
    if refused:
        assert holder_session().problem(upload(text)) is None


# ------------------------------------------------------------------ the exchange readers
LABELS = st.one_of(st.integers(-3, 6), st.sampled_from(["a", "b", "c"]))
COORD = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-(10**400), 10**400),
    st.sampled_from(["x", None, [1], 1e200]),
)
POSITION = st.one_of(
    st.lists(COORD, min_size=0, max_size=4),
    st.tuples(COORD, COORD),
    st.none(),
    st.sampled_from(["ab", 5, {"x": 1}, np.array([1.0, 2.0]), [[0.0, 1.0]]]),
)
FLAG = st.one_of(st.booleans(), st.none(), st.sampled_from([0, 1, "yes", np.array([1, 0])]))


@st.composite
def graphs(draw):
    g = nx.Graph()
    for v in draw(st.lists(LABELS, max_size=6, unique=True)):
        attrs = {"pos": draw(POSITION)} if draw(st.booleans()) else {}
        if draw(st.booleans()):
            attrs["pinned"] = draw(FLAG)
        g.add_node(v, **attrs)
    g.add_edges_from(draw(st.lists(st.tuples(LABELS, LABELS), max_size=6)))
    if draw(st.booleans()):
        g.graph["angles"] = draw(
            st.one_of(
                st.lists(st.lists(LABELS, min_size=2, max_size=4), max_size=3),
                st.sampled_from([5, None, "abc", [[["a"], "b", "c"]]]),
            )
        )
    positions = draw(
        st.one_of(
            st.none(),
            st.dictionaries(LABELS, POSITION, max_size=6),
            st.lists(st.lists(COORD, min_size=2, max_size=3), max_size=6),
        )
    )
    return g, positions


@FUZZ
@given(case=graphs())
def test_from_networkx_refuses_with_a_value_error(case):
    g, positions = case
    before = nx.to_dict_of_dicts(g)
    try:
        link = Linkage.from_networkx(g, positions)
    except ValueError as exc:  # documented (io/exchange.py, "Errors")
        assert len(str(exc)) <= BOUND
    else:
        assert link.n_vertices == g.number_of_nodes()
    assert nx.to_dict_of_dicts(g) == before


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # sympy, on PyRigi's side
@settings(FUZZ, max_examples=60)
@given(
    points=st.lists(st.tuples(COORD, COORD), min_size=2, max_size=4),
    edges=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=1, max_size=4),
)
def test_from_pyrigi_refuses_with_a_value_error(points, edges):
    pyrigi = pytest.importorskip("pyrigi", reason="pyrigi is a test dependency")
    n = len(points)
    edges = [(i % n, j % n) for i, j in edges if i % n != j % n]
    try:  # what PyRigi itself refuses is not ours to test
        framework = pyrigi.Framework(pyrigi.Graph(edges), dict(enumerate(points)))
    except Exception:  # noqa: BLE001
        return
    try:
        Linkage.from_pyrigi(framework)
    except ValueError as exc:
        assert len(str(exc)) <= BOUND
