"""A corrupt upload (issue 15): binary bytes, a wrong encoding, a truncated JSON document or
sibling, a bad line — the widget says what and where (file, line), and nothing is lost:
the linkage, its view and the undo history stay as they were."""

from __future__ import annotations

import datetime
import re

import pytest

from linkage_widget import Linkage, LinkageWidget
from linkage_widget.examples import example_path
from linkage_widget.session.document_file import dumps_session

PEAU = example_path("peaucellier").read_bytes()


def upload(w: LinkageWidget, files: dict[str, bytes]) -> None:
    """What the browser's FileUpload sends (ipywidgets 8's value): the widget's own path."""
    now = datetime.datetime.now(datetime.UTC)
    w.controls.upload.value = tuple(
        {
            "name": name,
            "type": "",
            "size": len(data),
            "content": memoryview(data),
            "last_modified": now,
        }
        for name, data in files.items()
    )


def edited_widget() -> LinkageWidget:
    """The four-bar with one edit to undo (a pin), so an intact history can be checked."""
    w = LinkageWidget.load("four_bar.txt")
    w.selected_vertex = 3
    w.key("f")
    assert w.linkage.is_pinned(3) and w.history.can_undo
    return w


def document_bytes() -> bytes:
    return dumps_session(LinkageWidget.load("watt.txt")).encode()


CASES = {
    "binary": ({"photo.txt": bytes(range(256)) * 4}, r"photo\.txt: contains NUL bytes"),
    "utf-16": ({"u.txt": PEAU.decode().encode("utf-16")}, r"u\.txt: contains NUL bytes"),
    "latin-1": (
        {"l.txt": b"v\n0 0\n1 0\ne\n0 1\n# caf\xe9\n"},
        r"l\.txt, line 6: byte \d+ is not UTF-8 text",
    ),
    "bad line": ({"g.txt": b"v\n0 0\n1 zz\n"}, r"g\.txt, line 3: coordinate 'zz' is not a number"),
    "truncated sibling": (
        {"p.txt": PEAU, "p.txt.json": b'{"version": 2, "tracked": [1'},
        r"p\.txt\.json, line 1: not valid JSON: .* ends early",
    ),
    "truncated document": (
        {"mine.json": document_bytes()[:200]},
        r"mine\.json, line \d+: not valid JSON: .*ends early",
    ),
    "document in latin-1": (
        {"mine.json": document_bytes().replace(b'"linkage"', b'"l\xefnkage"')},
        r"mine\.json, line \d+: byte \d+ is not UTF-8 text",
    ),
    "binary document": ({"mine.json": b"\x89PNG\r\n\x1a\n\x00\x00"}, r"mine\.json: contains NUL"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_corrupt_upload_says_file_and_line_and_loses_nothing(case: str) -> None:
    files, message = CASES[case]
    w = edited_widget()
    before, view = w.linkage.copy(), w.view
    upload(w, files)
    assert w.error.startswith(f"could not load {next(iter(files))}")
    assert re.search(message, w.error), w.error
    assert "could not load" in w.controls.readout.value  # shown on the widget
    assert w.linkage == before and w.view == view
    assert w.controls.upload.value == ()  # ready for the corrected file
    w.undo()  # the history is intact: the pin made before the upload comes off
    assert not w.linkage.is_pinned(3)
    assert w.linkage == Linkage.load("four_bar.txt")


def test_a_good_document_upload_loads_it_undoably() -> None:
    w = edited_widget()
    pinned = w.linkage.copy()
    upload(w, {"mine.json": document_bytes()})
    assert w.error == "" and w.linkage == Linkage.load("watt.txt")
    w.undo()
    assert w.linkage == pinned
