"""Joint names in the JSON sibling (key ``"names"``) and in the JSON document (issue 15).

A named file is still version 1 (older readers look up only the keys they know);
a file without names is written byte for byte as before; a bad ``names`` value is
refused naming the file and the key, and nothing is returned.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from linkage_widget.errors import LinkageFormatError
from linkage_widget.io import LinkageData
from linkage_widget.io.document_json import DocumentData, dumps_document, loads_document
from linkage_widget.io.sidecar import (
    Extensions,
    read_extensions,
    sibling_path,
    trimmed_names,
    write_extensions,
)

PEAUCELLIER_NAMES = ("O", "Q", "A", "B", "D", "C")


def test_names_round_trip_through_the_sibling_file(tmp_path):
    path = tmp_path / "p.txt"
    ext = Extensions(tracked=(5,), names=PEAUCELLIER_NAMES)
    write_extensions(path, ext)
    data = json.loads(sibling_path(path).read_text())
    assert data == {
        "linkage_widget_extensions": 1,
        "tracked": [5],
        "names": list(PEAUCELLIER_NAMES),
    }
    back = read_extensions(path, n_vertices=6)
    assert back == ext and back.names == PEAUCELLIER_NAMES


def test_names_alone_make_a_sibling_and_unnamed_entries_stay_empty_strings(tmp_path):
    path = tmp_path / "p.txt"
    ext = Extensions(names=("O", "", "A"))
    assert not ext.is_empty() and not ext.has_drives()
    write_extensions(path, ext)
    assert json.loads(sibling_path(path).read_text())["names"] == ["O", "", "A"]
    assert read_extensions(path, n_vertices=3).names == ("O", "", "A")


def test_a_file_without_names_is_written_byte_for_byte_as_before(tmp_path):
    # the exact text of a version-1 sibling before names existed
    before = (
        '{\n "linkage_widget_extensions": 1,\n "tracked": [\n  5\n ],\n'
        ' "mass_distribution": 0.25\n}\n'
    )
    assert Extensions(tracked=(5,), mass_distribution=0.25).to_json() == before
    # only empty names: nothing to keep, no key, no sibling
    unnamed = Extensions(names=("", "", ""))
    assert unnamed.names == () and unnamed.is_empty() and unnamed == Extensions()
    path = tmp_path / "p.txt"
    sibling_path(path).write_text("stale")
    write_extensions(path, unnamed)
    assert not sibling_path(path).exists()


def test_trailing_unnamed_entries_are_not_kept():
    assert trimmed_names(("O", "", "A", "", "")) == ("O", "", "A")
    assert Extensions(names=("O", "")) == Extensions(names=("O",))
    assert json.loads(Extensions(names=("O", "", "")).to_json())["names"] == ["O"]


def test_names_need_no_version_bump_unknown_keys_are_ignored():
    """Why no bump: the parser reads only the keys it knows, as every earlier one did."""
    text = Extensions(names=("O",)).to_json()
    assert json.loads(text)["linkage_widget_extensions"] == 1
    # a reader that does not know a key skips it: the same holds for "names" in old code
    later = '{"linkage_widget_extensions": 1, "tracked": [0], "some_later_key": [1, 2]}'
    assert Extensions.from_json(later, n_vertices=2) == Extensions(tracked=(0,))


@pytest.mark.parametrize(
    ("names", "match"),
    [
        ('["O", 3]', r"names: entry 1 is 3, not a string"),
        ('["O", null]', r"names: entry 1 is None, not a string"),
        ('"OQ"', r"names: expected a list"),
        ('["a", "b", "c", "d"]', r"names: 4 names for 3 vertices"),
    ],
)
def test_bad_names_are_refused_naming_the_file_and_the_key(tmp_path, names, match):
    path = tmp_path / "three.txt"
    side = sibling_path(path)
    side.write_text('{"linkage_widget_extensions": 1, "names": ' + names + "}")
    with pytest.raises(LinkageFormatError, match=match) as info:
        read_extensions(path, n_vertices=3)
    assert str(side) in str(info.value)


def _document(ext: Extensions) -> DocumentData:
    data = LinkageData(
        np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]),
        np.array([0]),
        np.array([[0, 1], [1, 2]]),
        np.zeros((0, 3), np.int64),
    )
    return DocumentData(data, ext)


def test_names_round_trip_through_the_json_document():
    text = dumps_document(_document(Extensions(names=("O", "", "A"))))
    assert json.loads(text)["extensions"]["names"] == ["O", "", "A"]
    assert loads_document(text).extensions.names == ("O", "", "A")
    plain = json.loads(dumps_document(_document(Extensions())))
    assert "extensions" not in plain  # no names, no extensions object: as before


def test_bad_names_in_a_json_document_name_the_document_and_the_key():
    data = json.loads(dumps_document(_document(Extensions(names=("O",)))))
    data["extensions"]["names"] = ["O", "Q", "A", "B"]
    with pytest.raises(LinkageFormatError, match=r"names: 4 names for 3 vertices") as info:
        loads_document(json.dumps(data), source="course.json")
    assert "course.json (extensions)" in str(info.value)
