"""The 3-D Linkage and its files (issue 16): dim, editing, errors, the 2007 format in space."""

import json
from pathlib import Path

import numpy as np
import pytest

from linkage_widget import Linkage, LinkageFormatError
from linkage_widget.io import document_json
from linkage_widget.io.bundled import resolve_path

TETRA_TEXT = (
    "v\n0.0 0.0 0.0\n1.5 0.0 0.0\n0.0 1.0 0.0\n0.0 0.0 0.1\nf\n0\ne\n0 1\n0 2\n0 3\n1 2\n"
    "1 3\n2 3\na\n0 1 2\n"
)
BUNDLED = ["four_bar", "watt", "chebyshev", "hoeken", "roberts", "peaucellier", "hart", "jansen"]


def test_dim_and_shapes():
    link = Linkage([[0, 0, 0], [1, 2, 3]], rods=[(0, 1)])
    assert link.dim == 3 and link.vertices.shape == (2, 3)
    assert link.rod_lengths().tolist() == [np.sqrt(14)]
    assert repr(link) == "Linkage(3-D, 2 vertices, 1 rods, 0 fixed angles, 0 pinned)"
    assert Linkage().dim == 2 and Linkage(dim=3).dim == 3
    assert Linkage(dim=3).copy().dim == 3
    assert Linkage(dim=3) != Linkage()  # an empty plane is not an empty space
    assert repr(Linkage([[0, 0]])) == "Linkage(1 vertices, 0 rods, 0 fixed angles, 0 pinned)"


def test_editing_in_space():
    link = Linkage(dim=3)
    assert link.add_vertex(0, 0, 0) == 0
    assert link.add_vertex((1, 2, 2)) == 1
    assert link.add_rod(0, 1) == 0
    assert link.rod_lengths().tolist() == [3.0]
    link.move_vertex(1, (0, 0, 4))
    assert link.rod_lengths().tolist() == [4.0]
    mid = link.split_rod(0)
    assert link.vertices[mid].tolist() == [0.0, 0.0, 2.0]
    copy = link.copy()
    assert copy == link and copy.dim == 3
    link.clear()
    assert link.dim == 3 and link.vertices.shape == (0, 3)


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda k: k.add_vertex(1, 2), r"this linkage is 3-D\) must be a finite \(x, y, z\)"),
        (lambda k: k.add_vertex(1, 2, float("nan")), r"\(x, y, z\) triple"),
        (lambda k: k.move_vertex(0, (1, 2)), r"position must be a finite \(x, y, z\) triple"),
        (lambda k: k.move_vertex(1, (0, 0, 0)), "zero length"),
        (lambda k: k.set_positions([[0, 0], [1, 1]]), r"shape \(2, 3\)"),
        (lambda k: k.set_positions([[0, 0, 0], [1, np.inf, 0]]), r"position 1 .* \(y = inf\)"),
    ],
)
def test_bad_input_names_what_and_changes_nothing(call, words):
    link = Linkage([[0, 0, 0], [1, 0, 0]], rods=[(0, 1)])
    before = link.copy()
    with pytest.raises(ValueError, match=words):
        call(link)
    assert link == before


@pytest.mark.parametrize(
    ("vertices", "dim", "words"),
    [
        ([[0, 0, 0], [1, np.nan, 0]], None, r"vertex 1 has a non-finite coordinate \(y = nan\)"),
        ([[0, 0, 0, 0]], None, r"\(n, 2\) for a planar linkage or \(n, 3\) for a spatial one"),
        ([[0, 0]], 3, "dim=3 but the vertices have 2 coordinates"),
        ((), 4, "dim must be 2"),
    ],
)
def test_bad_construction(vertices, dim, words):
    with pytest.raises(ValueError, match=words):
        Linkage(vertices, dim=dim)


def test_text_round_trip_in_space(tmp_path):
    link = Linkage.loads(TETRA_TEXT)
    assert (link.dim, link.n_vertices, link.n_rods, link.n_angles) == (3, 4, 6, 1)
    assert link.dumps() == TETRA_TEXT
    path = tmp_path / "tetra.txt"
    link.save(path)
    assert path.read_text() == TETRA_TEXT
    assert Linkage.load(path) == link
    odd = Linkage([[0.1, 1 / 3, -2e-300], [1e17, np.pi, 5.0]], rods=[(0, 1)])
    back = Linkage.loads(odd.dumps())
    assert back == odd and back.vertices.tobytes() == odd.vertices.tobytes()  # bit for bit


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("v\n0 0 0\n1 0\n", 3, "a 3-D file's vertex line needs 3 fields, got 2: '1 0'"),
        ("v\n0 0\n# 3-D?\n1 0 1\n", 4, "a 2-D file's vertex line needs 2 fields, got 3"),
        ("v\n0 0 0\ne\n0 1\nv\n1 1\n", 6, r"the first vertex, on line 2, has 3 coordinates"),
        ("v\n0 0 0 0\n", 2, r"needs 2 fields \(x y\) or 3 \(x y z\), got 4"),
        ("v\n0 0 0\n1 nan 0\n", 3, "coordinate 'nan' is not finite"),
        ("v\n0 0 0\n0 0 0\ne\n0 1\n", 5, "zero length"),
    ],
)
def test_text_errors_name_the_file_and_line(text, line, words):
    with pytest.raises(LinkageFormatError, match=words) as info:
        Linkage.loads(text, source="space.txt")
    assert info.value.line == line
    assert str(info.value).startswith(f"space.txt, line {line}: ")


def test_a_file_without_vertices_is_planar():
    assert Linkage.loads("v\nf\ne\na\n").dim == 2


@pytest.mark.parametrize("name", BUNDLED)
def test_planar_files_are_unchanged_byte_for_byte(name):
    text = Path(resolve_path(f"{name}.txt")).read_text()
    link = Linkage.loads(text)
    assert link.dim == 2
    again = Linkage.loads(link.dumps())
    assert again.dumps() == link.dumps() and again == link
    assert "\n".join(link.dumps().splitlines()[1 : link.n_vertices + 1]).count(" ") == (
        link.n_vertices
    )  # two numbers per vertex line


def test_json_document_in_space():
    link = Linkage.loads(TETRA_TEXT)
    doc = document_json.DocumentData(link._to_data(), document_json.Extensions(), None)
    text = document_json.dumps_document(doc)
    assert json.loads(text)["linkage"]["dim"] == 3
    back = document_json.loads_document(text)
    assert back.linkage.vertices.tolist() == link.vertices.tolist()
    assert Linkage._from_data(back.linkage, "<doc>") == link
    empty = document_json.DocumentData(Linkage(dim=3)._to_data(), document_json.Extensions())
    assert document_json.loads_document(document_json.dumps_document(empty)).linkage.dim == 3
    planar = document_json.dumps_document(
        document_json.DocumentData(Linkage([[0, 0], [1, 1]])._to_data(), document_json.Extensions())
    )
    assert '"dim"' not in planar  # a planar document is written as before
    mixed = text.replace("[\n    0.0,\n    0.0,\n    0.0\n   ]", "[\n 0.0,\n 0.0\n]", 1)
    assert mixed != text
    with pytest.raises(LinkageFormatError, match=r"\[x, y, z\] triples \(3-D\), all alike"):
        document_json.loads_document(mixed, source="doc.json")
