"""Joint names kept with the linkage like tracked joints (issue 15: "joints have no letters").

The names come from the file's JSON sibling or the JSON document, are saved back,
are part of every undo step, follow deletions and merges; the ``joint_names`` trait
is their public face and ``show_labels`` writes them on the canvas.
"""

from __future__ import annotations

import json

import pytest
from traitlets import TraitError

from linkage_widget import Linkage
from linkage_widget.errors import LinkageFormatError
from linkage_widget.examples import example_path
from linkage_widget.io.sidecar import sibling_path
from linkage_widget.session import LinkageSession
from linkage_widget.session.document import Document
from linkage_widget.session.document_file import dumps_session, load_document, save_document
from linkage_widget.widget import LinkageWidget

NAMES = ("O", "Q", "A", "B", "D", "C")  # notebook 01: vertices 0..5 of the Peaucellier


@pytest.fixture
def named_file(tmp_path):
    """A copy of the Peaucellier with a sibling naming its joints (and tracking C)."""
    path = tmp_path / "peau.txt"
    path.write_text(example_path("peaucellier").read_text())
    sibling_path(path).write_text(
        json.dumps({"linkage_widget_extensions": 1, "tracked": [5], "names": list(NAMES)})
    )
    return path


def unnamed_peaucellier() -> LinkageSession:
    """The bundled Peaucellier without its sibling (the bundled one names O, Q, A, B, D, C)."""
    return LinkageSession(Linkage.load(example_path("peaucellier")))


def test_the_bundled_peaucellier_names_its_joints_as_notebook_01():
    s = LinkageSession.load("peaucellier.txt")
    assert s.joint_names == NAMES and not s.history.can_undo
    assert unnamed_peaucellier().joint_names == ()


def labels(s: LinkageSession) -> tuple[str, ...]:
    s.show_labels = True
    return s.scene().by_role("labels")[0].texts


def test_names_load_from_the_sibling_and_are_drawn(named_file):
    s = LinkageSession.load(named_file)
    assert s.joint_names == NAMES and s.document.names == NAMES and s.tracked == (5,)
    assert not s.history.can_undo  # a loaded file is the start, not an edit
    assert labels(s) == NAMES


def test_save_writes_the_names_and_a_reload_gets_them_back(named_file, tmp_path):
    s = LinkageSession.load(named_file)
    s.joint_names = ("O", "Q", "A", "B", "D", "out")
    out = s.save(tmp_path / "again.txt")
    assert json.loads(sibling_path(out).read_text())["names"] == ["O", "Q", "A", "B", "D", "out"]
    t = unnamed_peaucellier()
    assert t.joint_names == ()
    assert t.load_file(out)
    assert t.joint_names == ("O", "Q", "A", "B", "D", "out")
    t.undo()  # the load was one undo step: the names went with it
    assert t.joint_names == () and t.document.names == ()


def test_an_upload_with_its_sibling_brings_the_names(named_file):
    s = LinkageSession()
    files = {
        "peau.txt": named_file.read_bytes(),
        "peau.txt.json": sibling_path(named_file).read_bytes(),
    }
    assert s.load_bytes(files)
    assert s.joint_names == NAMES and labels(s) == NAMES


def test_names_round_trip_through_the_json_document(named_file, tmp_path):
    s = LinkageSession.load(named_file)
    text = dumps_session(s)
    assert json.loads(text)["extensions"]["names"] == list(NAMES)
    t = LinkageSession()
    assert load_document(t, text)
    assert t.joint_names == NAMES and t.linkage == s.linkage
    path = save_document(t, tmp_path / "doc.json")
    u = LinkageSession()
    assert load_document(u, path) and u.document.names == NAMES


def test_a_rename_is_one_undoable_edit():
    s = unnamed_peaucellier()
    s.joint_names = NAMES
    assert s.document.names == NAMES and len(s.history) == 1
    s.joint_names = ("O", "Q", "A", "B", "D", "C'")
    assert len(s.history) == 2
    assert s.undo() and s.joint_names == NAMES and labels(s) == NAMES
    assert s.undo() and s.joint_names == () and labels(s) == ("0", "1", "2", "3", "4", "5")
    assert s.redo() and s.joint_names == NAMES
    assert s.redo() and s.joint_names[-1] == "C'"
    s.joint_names = ("O", "Q", "A", "B", "D", "C'", "")  # a trailing unnamed entry: no edit
    assert len(s.history) == 2 and s.joint_names == ("O", "Q", "A", "B", "D", "C'")


def test_deleting_a_joint_drops_its_name_and_shifts_the_later_ones():
    s = unnamed_peaucellier()
    s.joint_names = NAMES
    s.selected_vertex = 2
    s.key("Delete")
    assert s.linkage.n_vertices == 5
    assert s.joint_names == ("O", "Q", "B", "D", "C") == s.document.names
    assert labels(s) == ("O", "Q", "B", "D", "C")
    assert s.undo() and s.joint_names == NAMES and s.linkage.n_vertices == 6
    s.selected_vertex = 5  # the last one: its name goes, nothing shifts
    s.key("Delete")
    assert s.joint_names == NAMES[:5]


def test_a_new_joint_is_unnamed_and_labelled_by_its_index():
    s = unnamed_peaucellier()
    s.joint_names = NAMES
    s.press(3, 3)
    s.release()  # a click on the empty corner adds a joint
    assert s.linkage.n_vertices == 7
    assert s.joint_names == NAMES and labels(s) == (*NAMES, "6")
    s.joint_names = (*NAMES, "P")
    assert labels(s)[-1] == "P"


def test_merging_a_named_file_appends_its_names_after_the_current_ones(named_file):
    s = LinkageSession(Linkage([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]], rods=[(0, 1), (1, 2)]))
    s.joint_names = ("a",)
    added = s.merge_file(named_file)
    assert added == range(3, 9)
    assert s.joint_names == ("a", "", "", *NAMES)  # joint 3 + i of the merged is its i-th name
    assert s.undo() and s.joint_names == ("a",)


def test_a_bad_names_key_names_the_file_and_changes_nothing(named_file):
    s = unnamed_peaucellier()
    s.joint_names = ("x",)
    before, undo_steps = s.linkage.copy(), len(s.history)
    side = sibling_path(named_file)
    side.write_text('{"linkage_widget_extensions": 1, "names": ["O", 7]}')
    with pytest.raises(LinkageFormatError, match="names") as info:
        s.load_file(named_file)
    assert str(side) in str(info.value) and str(side) in s.error and "names" in s.error
    assert s.linkage == before and s.joint_names == ("x",) and len(s.history) == undo_steps


def test_too_many_names_are_refused_and_nothing_changes():
    s = LinkageSession.load("four_bar.txt")
    n = s.linkage.n_vertices
    s.joint_names = ("a",)
    with pytest.raises(TraitError, match=f"{n + 1} joint names for {n} joints"):
        s.joint_names = tuple("abcdefghij"[: n + 1])
    assert s.joint_names == ("a",) == s.document.names and len(s.history) == 1


def test_names_given_to_the_constructor_are_the_start_not_an_edit():
    link = Linkage([[0.0, 0.0], [1.0, 0.0]], rods=[(0, 1)])
    s = LinkageSession(link, joint_names=("P", "R"))
    assert s.document.names == ("P", "R") and not s.history.can_undo
    assert json.loads(s.document.extensions(0.0).to_json())["names"] == ["P", "R"]


def test_a_widget_with_show_labels_draws_the_names(named_file):
    w = LinkageWidget.load(named_file, show_labels=True)
    assert w.scene().by_role("labels")[0].texts == NAMES
    w.joint_names = ("O", "Q", "A", "B", "D", "out")
    assert w.scene().by_role("labels")[0].texts[-1] == "out"
    assert ">out</text>" in w.to_svg()


def test_snapshots_differ_by_their_names_alone():
    doc = Document(Linkage([[0.0, 0.0], [1.0, 0.0]], rods=[(0, 1)]))
    before = doc.snapshot()
    doc.names = ("P",)
    after = doc.snapshot()
    assert after != before and after.names == ("P",)
    doc.restore(before)
    assert doc.names == () and doc.snapshot() == before
