"""The widget against bad files and failing saves: nothing lost, the error shown with its line.

Every malformed file of ``tests/corpus`` goes in through each way a student can load
one: ``load_file`` (the API), the *load* button and the ``l`` key (the file box), and
the FileUpload widget (bytes from the browser). The widget must keep its linkage and
its undo history exactly, and show the file and line in ``error``, the readout and on
the canvas. Saves that cannot be written (no such folder, a failing rename) must say
so and leave the old file as it was.
"""

from __future__ import annotations

import html
import json
import os
import sys
from pathlib import Path

import pytest

from linkage_widget import Linkage, LinkageFormatError
from linkage_widget.widget import LinkageWidget

sys.path.insert(0, str(Path(__file__).parents[1]))  # tests/: conftest and shared helpers
from conftest import CORPUS_DIR as CORPUS  # noqa: E402  (tests/io/corpus)
from test_widget import click, key, px, upload, uploaded  # noqa: E402  (event helpers)

MANIFEST = json.loads((CORPUS / "manifest.json").read_text())
BAD = sorted(name for name, expect in MANIFEST.items() if "error" in expect)
GOOD = sorted(name for name, expect in MANIFEST.items() if "ok" in expect)
PATHS = ["load_file", "button", "key", "upload"]


def _button(w: LinkageWidget, label: str):
    found = [
        b for b in _walk(w) if getattr(b, "description", None) == label and hasattr(b, "click")
    ]
    assert len(found) == 1, f"one {label!r} button expected, found {len(found)}"
    return found[0]


def _walk(widget):
    for child in getattr(widget, "children", ()):
        yield child
        yield from _walk(child)


def load_via(w: LinkageWidget, how: str, path: Path) -> str:
    """Load ``path`` the way ``how`` names; return the source name errors should carry."""
    if how == "load_file":
        try:
            w.load_file(path)
        except (OSError, ValueError):  # from code a bad file raises; w.error says it too
            pass
        return str(path)
    if how == "upload":
        data = path.read_bytes()
        upload(w, {**uploaded(path.name, ""), "content": memoryview(data), "size": len(data)})
        return path.name
    w.controls.file_box.value = str(path)
    if how == "button":
        _button(w, "load").click()
    else:
        key(w, "l")
    return str(path)


@pytest.fixture
def edited():
    """Peaucellier after two edits and one undo: undo and redo both have something.

    Returns the widget and its three states: loaded, after the first edit (vertex 2
    pinned), after the second (a vertex added, undone again).
    """
    w = LinkageWidget.load("peaucellier.txt")
    states = [w.linkage.copy()]
    click(w, *px(w, 2))
    key(w, "f")
    states.append(w.linkage.copy())
    click(w, 20.0, 20.0)
    states.append(w.linkage.copy())
    assert w.undo()
    assert w.linkage == states[1] and w.history.can_undo and w.history.can_redo
    return w, states


def assert_history_intact(w: LinkageWidget, states: list[Linkage]) -> None:
    assert w.linkage == states[1]
    assert w.redo() and w.linkage == states[2]
    assert w.undo() and w.linkage == states[1]
    assert w.undo() and w.linkage == states[0]
    assert not w.history.can_undo


# ---------------------------------------------------------------- bad files
@pytest.mark.parametrize("how", PATHS)
@pytest.mark.parametrize("name", BAD)
def test_bad_file_keeps_linkage_and_history_and_shows_the_line(edited, name, how):
    w, states = edited
    before = w.linkage.copy()
    undo_depth = len(w.history)
    source = load_via(w, how, CORPUS / name)
    assert w.linkage == before
    assert len(w.history) == undo_depth
    line = MANIFEST[name]["error"]
    assert w.error.startswith(f"could not load {name if how == 'upload' else source}")
    assert source in w.error
    if line is not None:
        assert f"{source}, line {line}:" in w.error
    assert html.escape(w.error) in w.controls.readout.value  # the readout under the canvas
    assert w.scene().error == w.error  # and beside the canvas, under it
    assert_history_intact(w, states)


@pytest.mark.parametrize("how", PATHS)
@pytest.mark.parametrize("name", GOOD)
def test_good_corpus_file_loads_undoably_and_clears_the_error(edited, name, how):
    w, states = edited
    with pytest.raises(LinkageFormatError):
        w.load_file(CORPUS / "nan.txt")
    assert w.error
    load_via(w, how, CORPUS / name)
    assert w.error == ""
    assert w.linkage == Linkage.load(CORPUS / name)
    assert w.undo() and w.linkage == states[1]


def test_missing_file_and_folder(edited, tmp_path):
    w, states = edited
    before = w.linkage.copy()
    for path in (tmp_path / "nothing.txt", tmp_path, tmp_path / "no" / "such.txt"):
        w.controls.file_box.value = str(path)
        key(w, "l")
        assert w.linkage == before
        assert str(path) in w.error
    assert_history_intact(w, states)


@pytest.mark.parametrize(
    "sibling, match",
    [
        ("{not json", "not valid JSON"),
        ('{"linkage_widget_extensions": 99}', "not a linkage_widget extensions file"),
        ('{"linkage_widget_extensions": 1, "tracked": [7]}', "tracked: 7 is not a vertex"),
        ('{"linkage_widget_extensions": 1, "mass_distribution": NaN}', "mass_distribution"),
        ('{"linkage_widget_extensions": 1, "springs": [{"i": 0, "j": 0}]}', "distinct"),
        ("\udcff", "line 1: byte 0 is not UTF-8"),
    ],
)
def test_bad_json_sibling_keeps_everything(edited, tmp_path, sibling, match):
    w, states = edited
    good = tmp_path / "two.txt"
    good.write_text("v\n0 0\n10 0\ne\n0 1\n")
    side = tmp_path / "two.txt.json"
    side.write_bytes(sibling.encode("utf-8", "surrogateescape"))
    before = w.linkage.copy()
    with pytest.raises(LinkageFormatError):
        w.load_file(good)
    assert w.linkage == before and match in w.error and "two.txt.json" in w.error
    upload(
        w,
        uploaded("two.txt", good.read_text()),
        {**uploaded("two.txt.json", ""), "content": memoryview(side.read_bytes())},
    )
    assert w.linkage == before and match in w.error
    assert_history_intact(w, states)


def test_upload_of_only_a_json_file_is_explained(edited):
    w, states = edited
    upload(w, uploaded("x.txt.json", '{"linkage_widget_extensions": 1}'))
    assert "upload a linkage text file" in w.error
    assert_history_intact(w, states)


# -------------------------------------------------------------------- saves
def test_save_into_a_missing_folder_says_so(edited, tmp_path):
    w, states = edited
    target = tmp_path / "no_such_folder" / "mine.txt"
    w.controls.file_box.value = str(target)
    for do in (lambda: key(w, "s"), lambda: _button(w, "save").click()):
        w.error = ""
        do()
        assert "cannot save" in w.error and str(target) in w.error
        assert "No such file or directory" in w.error
        assert html.escape(w.error) in w.controls.readout.value
    assert not target.parent.exists()
    assert_history_intact(w, states)


@pytest.mark.parametrize("fail_on", [".txt", ".json"])
def test_failing_rename_leaves_the_old_files_intact(edited, tmp_path, monkeypatch, fail_on):
    w, states = edited
    w.tracked = (5,)
    target = tmp_path / "mine.txt"
    w.save(target)
    old_txt = target.read_bytes()
    old_json = (tmp_path / "mine.txt.json").read_bytes()
    w.tracked = (5, 3)
    w.linkage.move_vertex(0, (1.5, 2.5))
    w.refresh()
    real_replace = os.replace

    def failing_replace(src, dst):
        if str(dst).endswith(fail_on):
            raise PermissionError(13, "Permission denied")
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", failing_replace)
    w.controls.file_box.value = str(target)
    key(w, "s")
    assert "cannot save" in w.error and "Permission denied" in w.error
    assert html.escape(w.error) in w.controls.readout.value
    assert (tmp_path / "mine.txt.json").read_bytes() == old_json
    assert target.read_bytes() == old_txt  # both or neither (issue 22, item 6)
    # no temporary left (the page is the first save's)
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["mine.txt", "mine.txt.html", "mine.txt.json"]
    monkeypatch.setattr(os, "replace", real_replace)
    key(w, "s")  # the fault has gone: the next save works and clears the error
    assert w.error == ""
    again = LinkageWidget.load(target)
    assert again.linkage == w.linkage and again.tracked == (5, 3)


def test_save_where_a_file_stands_for_the_folder(edited, tmp_path):
    # Unwritable even for root: the "folder" is a file.
    w, states = edited
    blocker = tmp_path / "notes.txt"
    blocker.write_text("my notes\n")
    w.controls.file_box.value = str(blocker / "mine.txt")
    key(w, "s")
    assert "cannot save" in w.error and "Not a directory" in w.error
    assert blocker.read_text() == "my notes\n"
    assert_history_intact(w, states)
