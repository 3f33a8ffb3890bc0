"""A session saved as one JSON document and loaded back (issue 15): everything, undoable."""

import json

import numpy as np
import pytest

from linkage_widget import Linkage, LinkageFormatError
from linkage_widget.draw.view import ViewTransform
from linkage_widget.elements import Load, Motor, PathForce, Spring
from linkage_widget.io import Extensions, LinkageData
from linkage_widget.io.document_json import DocumentData, dumps_document
from linkage_widget.session import LinkageSession
from linkage_widget.session.document_file import (
    dumps_session,
    load_document,
    load_upload,
    save_document,
    session_document,
)


def rich_text() -> str:
    link = Linkage.load("peaucellier.txt")
    r0 = link.rods[0].tolist()
    ext = Extensions(
        tracked=(5,),
        springs=(Spring(0, 3, stiffness=2.5, rest_length=0.7),),
        mass_distribution=0.5,
        motors=(Motor(r0[0], r0[1], -1.25),),
        loads=(Load(4, 0.5, -1.0),),
        forces=(PathForce(2, 5, 3.0),),
        table_friction=0.1,
    )
    view = {"scale": 41.5, "offset_x": 300.25, "offset_y": 200.0, "width": 640, "height": 480}
    data = LinkageData(link.vertices, link.pinned, link.rods, link.angles)
    return dumps_document(DocumentData(data, ext, view))


def test_session_round_trip_keeps_linkage_extensions_and_view(tmp_path):
    s = LinkageSession()
    assert load_document(s, rich_text()) is True
    assert dumps_session(s) == rich_text()  # every field went in, and comes out the same
    assert s.view == ViewTransform(41.5, 300.25, 200.0, 640, 480)
    path = save_document(s, tmp_path / "lesson.json")
    t = LinkageSession(Linkage([[0, 0], [1, 0]], rods=[(0, 1)]))
    assert load_document(t, path)
    assert dumps_session(t) == dumps_session(s)
    assert session_document(t).view == session_document(s).view
    assert t.linkage == s.linkage and t.tracked == (5,) and t.mass_distribution == 0.5
    assert t.undo() and t.linkage == Linkage([[0, 0], [1, 0]], rods=[(0, 1)])


def test_upload_bytes_and_a_differently_sized_canvas():
    s = LinkageSession(width=800, height=600)
    assert load_document(s, rich_text().encode(), name="up.json")
    assert s.linkage == Linkage.load("peaucellier.txt")
    # the saved view, kept centred on the new canvas size (the view setter's rule)
    assert s.view == ViewTransform(41.5, 300.25, 200.0, 640, 480).resized(800, 600)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d.update(version=4), "version 4.*up to 3"),
        (lambda d: d["linkage"]["rods"].append([0, 99]), "out of range"),
        (lambda d: d["extensions"].update(tracked=[42]), "extensions"),
        # a later wheel() raised on these (issue 22, item 9)
        (lambda d: d["view"].update(scale=5e-324), r"bad.json: 'view': scale must be in"),
        (lambda d: d["view"].update(scale=1e9), r"'view': scale must be in \[0.0001, 1e\+06\]"),
    ],
)
def test_bad_document_changes_nothing_and_says_why(edit, message):
    s = LinkageSession.load("chebyshev.txt")
    s.view = ViewTransform(10.0, 5.0, 6.0, 640, 480)
    before, view = s.linkage.copy(), s.view
    data = json.loads(rich_text())
    edit(data)
    with pytest.raises(LinkageFormatError, match=message):
        load_document(s, json.dumps(data), name="bad.json")
    assert s.linkage == before and s.view == view
    assert "could not load bad.json" in s.error


def test_a_bad_view_scale_is_refused_before_anything_changes():
    s = LinkageSession.load("chebyshev.txt")
    before, view, undo = s.document.snapshot(), s.view, len(s.history)
    data = json.loads(rich_text())
    data["view"]["scale"] = 5e-324
    assert load_upload(s, {"tiny.json": json.dumps(data).encode()}) is False
    assert s.error.startswith("could not load tiny.json: 'view': scale must be in")
    assert s.document.snapshot() == before and s.view == view and len(s.history) == undo
    s.wheel(100, 100, -120)  # and the view goes on working
    s.wheel(100, 100, 120)


@pytest.mark.parametrize("key", ["offset_x", "offset_y"])
def test_a_view_far_from_its_origin_zooms_and_pans_without_overflow(key):
    data = json.loads(rich_text())
    data["view"][key] = -1.7e308
    s = LinkageSession()
    assert load_document(s, json.dumps(data))
    for delta in (-120, -120, 120):  # was: ValueError "offset_x must be a finite number"
        s.wheel(100, 100, delta)
    s.press(5, 5)
    s.drag(-400, -400)
    s.release()
    assert s.error == "" and np.isfinite([s.view.offset_x, s.view.offset_y]).all()
    s.fit()
    assert abs(s.view.offset_x) < 1e6
