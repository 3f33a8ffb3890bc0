"""Cables and struts through the session's files (issue 26): save/load, upload, JSON document.

Each path once dropped the members' kinds: the sibling a session writes, an upload of the
linkage with its sibling (rebuilt with sliders), and the session's JSON document.
"""

import json

import numpy as np

from linkage_widget import Linkage
from linkage_widget.io import sibling_path
from linkage_widget.session import LinkageSession
from linkage_widget.session.document_file import dumps_session, load_document


def tense(slider: bool = False) -> Linkage:
    """A square of cables with a strut across, one rod and (optionally) a slider."""
    pts = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]
    link = Linkage(pts, rods=[(0, 1)], cables=[(1, 2), (2, 3), (3, 0)], struts=[(0, 2)])
    if slider:  # a guided joint: the upload rebuilds the linkage with its sliders
        link = Linkage(
            pts, rods=[(0, 1)], cables=[(1, 2), (2, 3), (3, 0)], struts=[(0, 2)],
            sliders=[(1, (0.0, 0.0), (1.0, 0.0))],
        )  # fmt: skip
    return link


KINDS = ["rod", "cable", "cable", "cable", "strut"]


def test_a_session_save_writes_the_kinds_and_loads_them_back(tmp_path):
    s = LinkageSession(tense())
    s.tracked = (2,)
    path = s.save(tmp_path / "t.txt")
    side = json.loads(sibling_path(path).read_text())
    assert side["cables"] == [[1, 2], [2, 3], [3, 0]] and side["struts"] == [[0, 2]]
    back = LinkageSession.load(path)
    assert back.linkage.rod_kinds.tolist() == KINDS and back.tracked == (2,)


def test_a_session_save_of_a_bar_framework_keeps_no_stale_kinds(tmp_path):
    path = LinkageSession(tense()).save(tmp_path / "t.txt")
    bars = Linkage(tense().vertices, rods=tense().rods)  # the same rods, all bars
    LinkageSession(bars).save(path)
    assert not sibling_path(path).exists()  # nothing left to say
    assert Linkage.load(path).rod_kinds.tolist() == ["rod"] * 5


def test_an_upload_with_its_sibling_keeps_the_kinds_with_and_without_sliders(tmp_path):
    for slider in (False, True):
        path = LinkageSession(tense(slider)).save(tmp_path / f"u{slider}.txt")
        files = {path.name: path.read_bytes(), path.name + ".json": sibling_path(path).read_bytes()}
        s = LinkageSession(Linkage([[0.0, 0.0], [1.0, 0.0]], rods=[(0, 1)]))
        assert s.load_bytes(files), s.error
        assert s.linkage.rod_kinds.tolist() == KINDS
        assert len(s.linkage.sliders) == int(slider)


def test_the_json_document_round_trip_keeps_the_kinds():
    text = dumps_session(LinkageSession(tense(True)))
    doc = json.loads(text)
    assert doc["linkage"]["cables"] == [[1, 2], [2, 3], [3, 0]]
    assert doc["linkage"]["struts"] == [[0, 2]]
    s = LinkageSession(Linkage([[0.0, 0.0], [1.0, 0.0]], rods=[(0, 1)]))
    assert load_document(s, text)
    assert s.linkage.rod_kinds.tolist() == KINDS
    np.testing.assert_array_equal(s.linkage.rods, tense().rods)
    assert json.loads(dumps_session(s))["linkage"] == doc["linkage"]  # a fixed point
