"""Cables and struts in the files: the JSON sibling (version 4) and document (version 3)."""

import json

import numpy as np
import pytest

from linkage_widget import Linkage, LinkageFormatError
from linkage_widget.io import Extensions
from linkage_widget.io.document_json import DocumentData, dumps_document, loads_document

SQUARE = [[0, 0], [1, 0], [1, 1], [0, 1]]


def braced() -> Linkage:
    return Linkage(SQUARE, rods=[(0, 1)], cables=[(1, 2), (3, 2), (3, 0)], struts=[(0, 2), (1, 3)])


def sibling(path):
    return json.loads(path.with_name(path.name + ".json").read_text())


def test_save_load_round_trip_keeps_the_kinds(tmp_path):
    link = braced()
    path = tmp_path / "x.txt"
    link.save(path)
    side = sibling(path)
    assert side["linkage_widget_extensions"] == 4
    assert side["cables"] == [[1, 2], [3, 2], [3, 0]] and side["struts"] == [[0, 2], [1, 3]]
    back = Linkage.load(path)
    assert back == link
    assert back.rod_kinds.tolist() == ["rod", "cable", "cable", "cable", "strut", "strut"]
    # the 2007 text holds bars only: read alone it is the bar framework
    bars = Linkage.loads(path.read_text())
    assert np.array_equal(bars.rods, link.rods) and set(bars.rod_kinds) == {"rod"}


def test_a_bar_framework_writes_no_sibling_and_clearing_the_kinds_removes_it(tmp_path):
    path = tmp_path / "plain.txt"
    Linkage(SQUARE, rods=[(0, 1), (1, 2)]).save(path)
    assert not (tmp_path / "plain.txt.json").exists()
    link = braced()
    link.save(path)
    assert (tmp_path / "plain.txt.json").exists()
    for r in range(link.n_rods):
        link.set_rod_kind(r, "rod")
    link.save(path)
    assert not (tmp_path / "plain.txt.json").exists()
    assert set(Linkage.load(path).rod_kinds) == {"rod"}


def test_saving_keeps_the_siblings_other_keys(tmp_path):
    path = tmp_path / "x.txt"
    link = braced()
    link.save(path)
    side = sibling(path)
    side["tracked"] = [2]
    path.with_name("x.txt.json").write_text(json.dumps(side))
    link.set_rod_kind(0, "cable")
    link.save(path)
    side = sibling(path)
    assert side["tracked"] == [2] and side["cables"][0] == [0, 1]
    assert Linkage.load(path) == link


def test_an_older_sibling_still_loads():
    # slider_crank.txt.json is a version-3 sibling (sliders): read as before, all rods
    link = Linkage.load("slider_crank.txt")
    assert link.sliders and set(link.rod_kinds) == {"rod"}


def write_pair(tmp_path, side):
    path = tmp_path / "bad.txt"
    Linkage(SQUARE, rods=[(0, 1), (1, 2), (2, 3), (3, 0)]).save(path)
    path.with_name("bad.txt.json").write_text(json.dumps(side))
    return path


@pytest.mark.parametrize(
    ("side", "message"),
    [
        ({"cables": [[0, 2]]}, r"cables: \[0, 2\] is not a rod"),
        ({"cables": [[0, 1]], "struts": [[1, 0]]}, r"struts: \[1, 0\] names rod 0-1, marked"),
        ({"cables": [[0, 1], [0, 1]]}, r"cables: \[0, 1\] names rod 0-1, marked"),
        ({"cables": [[0, 1, 2]]}, r"cables: expected a rod's two joints"),
        ({"struts": [{"i": 0, "j": 1}]}, r"struts: expected a rod's two joints"),
        ({"cables": [[0, 9]]}, r"cables: 9 is not a vertex index"),
        ({"cables": "0-1"}, r"cables: expected a list"),
    ],
)
def test_bad_entries_name_the_sibling_and_the_entry(tmp_path, side, message):
    path = write_pair(tmp_path, {"linkage_widget_extensions": 4, **side})
    with pytest.raises(LinkageFormatError, match=message) as info:
        Linkage.load(path)
    assert "bad.txt.json" in str(info.value)


def test_kinds_need_version_4(tmp_path):
    path = write_pair(tmp_path, {"linkage_widget_extensions": 3, "cables": [[0, 1]]})
    with pytest.raises(LinkageFormatError, match=r"bad.txt.json: cables: needs version 4"):
        Linkage.load(path)


def test_versions_written_by_what_the_sibling_holds():
    assert json.loads(Extensions(tracked=(1,)).to_json())["linkage_widget_extensions"] == 1
    with_kinds = Extensions(cables=((0, 1),))
    assert json.loads(with_kinds.to_json())["linkage_widget_extensions"] == 4
    assert Extensions.from_json(with_kinds.to_json(), n_vertices=2) == with_kinds


def test_document_round_trip_keeps_the_kinds():
    link = braced()
    text = dumps_document(DocumentData(link._to_data()))
    data = json.loads(text)
    assert data["version"] == 3 and data["linkage"]["struts"] == [[0, 2], [1, 3]]
    back = loads_document(text)
    assert back.linkage.kinds == tuple(link.rod_kinds.tolist())
    assert Linkage._from_data(back.linkage, "doc") == link
    plain = json.loads(dumps_document(DocumentData(Linkage(SQUARE, rods=[(0, 1)])._to_data())))
    assert plain["version"] == 1 and "cables" not in plain["linkage"]


def test_document_bad_kinds_are_refused():
    data = json.loads(dumps_document(DocumentData(braced()._to_data())))
    data["linkage"]["cables"].append([2, 1])  # rod 1-2 marked twice
    with pytest.raises(LinkageFormatError, match=r"'linkage': cables: \[2, 1\] names rod 1-2"):
        loads_document(json.dumps(data), source="doc.json")
    data = json.loads(dumps_document(DocumentData(braced()._to_data())))
    data["version"] = 2
    with pytest.raises(LinkageFormatError, match="'linkage.cables' needs version 3"):
        loads_document(json.dumps(data))


def test_document_kinds_given_in_its_extensions_go_to_the_linkage():
    link = braced()
    data = json.loads(dumps_document(DocumentData(link._to_data())))
    data["extensions"] = {
        "linkage_widget_extensions": 4,
        "cables": data["linkage"].pop("cables"),
        "struts": data["linkage"].pop("struts"),
    }
    back = loads_document(json.dumps(data))
    assert back.linkage.kinds == tuple(link.rod_kinds.tolist())
    assert not (back.extensions.cables or back.extensions.struts)
