"""The JSON document (issue 15): round trip of everything, the schema, versions, bad input."""

import json

import numpy as np
import pytest

from linkage_widget import Linkage, LinkageFormatError
from linkage_widget.elements import Load, Motor, PathForce, PathFriction, Spring
from linkage_widget.io import Extensions, LinkageData
from linkage_widget.io.document_json import (
    FORMAT,
    VERSION,
    DocumentData,
    dumps_document,
    loads_document,
    read_document,
    write_document,
)

VIEW = {"scale": 37.25, "offset_x": 350.5, "offset_y": -12.0, "width": 700, "height": 500}


def full_document() -> DocumentData:
    link = Linkage.load("peaucellier.txt")
    link.add_angle(3, *link.neighbors(3)[:2].tolist())
    rng = np.random.default_rng(0)
    link.set_positions(link.vertices + 1e-3 * rng.normal(size=link.vertices.shape))
    r0 = link.rods[0].tolist()
    ext = Extensions(
        tracked=(5, 2),
        springs=(Spring(0, 3, stiffness=2.5, rest_length=0.7, damping=0.1),),
        mass_distribution=0.25,
        motors=(Motor(r0[0], r0[1], 1.5),),
        loads=(Load(4, 0.0, -1.0),),
        forces=(PathForce(2, 5, 3.0),),
        frictions=(PathFriction(2, 5, 1.0, 0.3),),
        table_friction=0.2,
    )
    data = LinkageData(link.vertices, link.pinned, link.rods, link.angles)
    return DocumentData(data, ext, dict(VIEW))


def same(a: DocumentData, b: DocumentData) -> None:
    for x, y in zip(a.linkage[:4], b.linkage[:4], strict=True):  # the arrays
        assert np.array_equal(x, y) and x.dtype == y.dtype
    assert (a.linkage.sliders, a.linkage.slots) == (b.linkage.sliders, b.linkage.slots)
    assert a.extensions == b.extensions
    assert a.view == b.view


def test_round_trip_keeps_everything_bit_for_bit(tmp_path):
    doc = full_document()
    text = dumps_document(doc)
    same(loads_document(text), doc)
    path = tmp_path / "linkage.json"
    write_document(doc, path)
    same(read_document(path), doc)
    same(loads_document(path.read_bytes()), doc)  # an upload's bytes


def test_schema_is_what_the_docstring_says():
    data = json.loads(dumps_document(full_document()))
    assert data["format"] == FORMAT and data["version"] == 1 and VERSION == 3  # 3: kinds
    assert set(data) == {"format", "version", "linkage", "extensions", "view"}
    assert set(data["linkage"]) == {"vertices", "rods", "angles", "pinned"}
    assert data["view"] == VIEW
    # the extensions object is exactly the JSON sibling's
    assert data["extensions"] == json.loads(full_document().extensions.to_json())


def test_minimal_document_reads_with_defaults():
    text = json.dumps({"format": FORMAT, "version": 1, "linkage": {"vertices": [[0, 0], [1, 1]]}})
    doc = loads_document(text)
    assert doc.linkage.vertices.tolist() == [[0, 0], [1, 1]]
    assert doc.linkage.rods.shape == (0, 2) and doc.linkage.angles.shape == (0, 3)
    assert doc.extensions == Extensions() and doc.view is None
    assert "extensions" not in json.loads(dumps_document(doc))


def test_newer_version_names_both_versions():
    data = json.loads(dumps_document(full_document()))
    data["version"] = VERSION + 1
    with pytest.raises(LinkageFormatError, match=rf"version {VERSION + 1}.*up to {VERSION}"):
        loads_document(json.dumps(data), source="new.json")


def _broken(path: list, value) -> str:
    data = json.loads(dumps_document(full_document()))
    node = data
    for key in path[:-1]:
        node = node[key]
    if value is KeyError:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return json.dumps(data)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "not valid JSON"),
        ("[1, 2]", "not a linkage_widget document"),
        ('{"format": "x", "version": 1}', "not a linkage_widget document"),
        (_broken(["version"], "1"), "'version' must be a positive integer"),
        (_broken(["linkage"], KeyError), "missing key 'linkage'"),
        (_broken(["linkage", "vertices", 0], [0, "a"]), r"\[x, y\] number pairs"),
        (_broken(["linkage", "vertices", 0], [0, 1, 2]), r"\[x, y\] number pairs"),
        (
            _broken(["linkage", "vertices", 0], [0, 12345.5]).replace("12345.5", "1e400"),
            "vertex 0 has a non-finite",  # JSON has no infinity, but 1e400 overflows to one
        ),
        (_broken(["linkage", "rods", 0], [0, 99]), r"rod 0 \(0, 99\): vertex index out of range"),
        (_broken(["linkage", "rods", 0], [0, 0.5]), "whole-number vertex indices"),
        (_broken(["linkage", "rods", 1], [0, 0]), "joins vertex 0 to itself"),
        (_broken(["linkage", "pinned"], [0, 0]), "pinned twice"),
        (_broken(["linkage", "angles", 0], [0, 1, 1]), "repeats a vertex"),
        (_broken(["view", "scale"], 0), "'view.scale' must be a finite positive"),
        (_broken(["view", "width"], 10.5), "'view.width' must be a whole number"),
        (_broken(["view", "height"], KeyError), "'view' lacks height"),
        (_broken(["extensions", "tracked"], [99]), r"\(extensions\)"),
        ('{"format": "linkage_widget document", "version": 1, "x": NaN}', "NaN is not a finite"),
    ],
)
def test_bad_document_says_what_and_where(text, message):
    with pytest.raises(LinkageFormatError, match=message) as info:
        loads_document(text, source="doc.json")
    assert "doc.json" in str(info.value)


def test_not_utf8_bytes():
    with pytest.raises(LinkageFormatError, match="byte 1 is not UTF-8"):
        loads_document(b"{\xff}", source="up.json")


def test_writing_refuses_non_finite_and_keeps_the_old_file(tmp_path):
    path = tmp_path / "d.json"
    write_document(full_document(), path)
    before = path.read_bytes()
    bad = DocumentData(full_document().linkage, view={**VIEW, "offset_x": float("nan")})
    with pytest.raises(ValueError, match="finite"):
        write_document(bad, path)
    assert path.read_bytes() == before
