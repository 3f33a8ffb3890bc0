"""Sliders and slots through the session's files and edits (issue 25, the widget's part).

Save and load, an upload with its sibling, a merge, the JSON document, deleting a joint,
undo and redo all keep the linkage's sliders and slots; the 2007 text stays loadable
without them; the load and save messages count them.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from linkage_widget import Linkage
from linkage_widget.errors import LinkageFormatError
from linkage_widget.io.document_json import dumps_document, loads_document
from linkage_widget.session import LinkageSession
from linkage_widget.session.document_file import dumps_session, load_document

WIDE = {"width": 1600, "height": 900}  # room for a long temporary path in the hint line


def hint(s: LinkageSession) -> str:
    return s.scene().hint


def slider_crank() -> Linkage:
    """A crank 0-1, a rod 1-2, the piston 2 on the x axis; a pin 4 in the slot 0-3."""
    return Linkage(
        [[0.0, 0.0], [1.0, 0.0], [4.0, 0.0], [0.0, 2.0], [0.0, 3.0]],
        rods=[(0, 1), (1, 2)],
        pinned=[0],
        sliders=[(2, (4.0, 0.0), (1.0, 0.0))],
        slots=[(0, 3, 4)],
    )


def test_a_save_keeps_the_sliders_in_the_sibling_and_a_load_brings_them_back(tmp_path: Path):
    s = LinkageSession(slider_crank())
    s.save(tmp_path / "sc.txt")
    side = json.loads((tmp_path / "sc.txt.json").read_text())
    assert side["linkage_widget_extensions"] == 3
    assert side["sliders"] == [{"joint": 2, "point": [4.0, 0.0], "direction": [1.0, 0.0]}]
    assert side["slots"] == [[0, 3, 4]]
    back = LinkageSession(**WIDE)
    assert back.load_file(tmp_path / "sc.txt")
    assert back.linkage == slider_crank()
    assert hint(back).endswith("0 fixed angles, 1 slider, 1 slot")  # the load counts them


def test_the_2007_text_stays_loadable_without_its_sibling(tmp_path: Path):
    LinkageSession(slider_crank()).save(tmp_path / "sc.txt")
    text = (tmp_path / "sc.txt").read_text()
    plain = Linkage.loads(text)  # what the 2007 program (and a text-only reader) sees
    assert plain.n_vertices == 5 and plain.n_rods == 2 and plain.sliders == ()
    assert np.array_equal(plain.vertices, slider_crank().vertices)


def test_the_save_message_counts_sliders_and_slots_and_is_unchanged_without(tmp_path: Path):
    s = LinkageSession(slider_crank(), **WIDE)
    s.save(tmp_path / "a.txt")
    assert hint(s).endswith("5 joints, 2 rods, 1 pin, 0 fixed angles, 1 slider, 1 slot")
    t = LinkageSession.load("four_bar.txt", **WIDE)
    t.save(tmp_path / "b.txt")
    assert hint(t).endswith("fixed angles")


def test_an_upload_with_its_sibling_builds_the_linkage_with_the_sliders(tmp_path: Path):
    LinkageSession(slider_crank()).save(tmp_path / "sc.txt")
    files = {n: (tmp_path / n).read_bytes() for n in ("sc.txt", "sc.txt.json")}
    s = LinkageSession.load("four_bar.txt")
    assert s.load_bytes(files), s.error
    assert s.linkage == slider_crank()
    assert s.undo() and s.linkage.sliders == ()  # one undo step, back to the four-bar


def test_an_upload_whose_slider_the_model_refuses_names_the_sibling_and_changes_nothing():
    text = slider_crank().dumps().encode()
    side = json.dumps(
        {
            "linkage_widget_extensions": 3,
            "sliders": [{"joint": 0, "point": [0.0, 0.0], "direction": [1.0, 0.0]}],
        }
    ).encode()
    s = LinkageSession.load("four_bar.txt")
    before = s.linkage.copy()
    assert not s.load_bytes({"p.txt": text, "p.txt.json": side})
    assert "p.txt.json" in s.error and "pinned" in s.error
    assert s.linkage == before


def test_a_merge_renumbers_the_merged_guides_and_moves_their_lines(tmp_path: Path):
    LinkageSession(slider_crank()).save(tmp_path / "sc.txt")
    s = LinkageSession(slider_crank(), **WIDE)
    added = s.merge_file(tmp_path / "sc.txt")
    link = s.linkage
    assert list(added) == [5, 6, 7, 8, 9]
    assert link.slots.tolist() == [[0, 3, 4], [5, 8, 9]]
    (j0, p0, d0), (j1, p1, d1) = link.sliders
    assert (j0, p0, d0) == (2, (4.0, 0.0), (1.0, 0.0))
    assert j1 == 7 and d1 == (1.0, 0.0)
    # the merged piston's line passes through the merged piston (its joints moved right)
    assert np.isclose(link.vertices[7, 1], p1[1]) and link.vertices[7, 0] > 4.0
    assert "0 fixed angles, 1 slider, 1 slot as joints 5-9" in hint(s)  # the file's counts
    assert s.undo() and s.linkage == slider_crank()


def test_deleting_the_piston_takes_its_slider_and_undo_brings_it_back():
    s = LinkageSession(slider_crank())
    s.tool = "delete"
    s.press(*s.view.to_pixel(s.linkage.vertices[2]))
    s.release()
    assert s.linkage.n_vertices == 4 and s.linkage.sliders == ()
    assert s.linkage.slots.tolist() == [[0, 2, 3]]  # renumbered past the deleted joint
    assert s.undo() and s.linkage == slider_crank()
    assert s.redo() and s.linkage.sliders == () and s.linkage.slots.tolist() == [[0, 2, 3]]


def test_the_json_document_holds_the_guides_under_the_linkage_as_version_2():
    s = LinkageSession(slider_crank())
    text = dumps_session(s)
    data = json.loads(text)
    assert data["version"] == 2
    assert data["linkage"]["slots"] == [[0, 3, 4]] and "extensions" not in data
    t = LinkageSession.load("four_bar.txt")
    assert load_document(t, text)
    assert t.linkage == slider_crank()


def test_a_document_without_guides_is_still_version_1_and_one_with_them_needs_2():
    plain = json.loads(dumps_session(LinkageSession.load("four_bar.txt")))
    assert plain["version"] == 1 and "sliders" not in plain["linkage"]
    data = json.loads(dumps_session(LinkageSession(slider_crank())))
    data["version"] = 1
    with pytest.raises(LinkageFormatError, match="needs version 2"):
        loads_document(json.dumps(data))


def test_a_document_whose_slider_is_off_its_line_is_refused_naming_it():
    data = json.loads(dumps_session(LinkageSession(slider_crank())))
    data["linkage"]["sliders"][0]["point"] = [4.0, 1.0]
    with pytest.raises(LinkageFormatError, match="slider 0 on joint 2.*off the line"):
        loads_document(json.dumps(data))


def test_a_document_round_trip_of_the_plain_data_keeps_the_guides():
    doc = loads_document(dumps_session(LinkageSession(slider_crank())))
    again = loads_document(dumps_document(doc))
    assert again.linkage.sliders == ((2, (4.0, 0.0), (1.0, 0.0)),)
    assert again.linkage.slots == ((0, 3, 4),)
    assert again.extensions.sliders == ()  # one home: the linkage's
