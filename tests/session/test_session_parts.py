"""The session's helpers alone: tools decide, the document edits, the driver steps.

None of them holds a session or calls back into one: they take values and return
actions, messages, or what a frame did.
"""

import numpy as np
import pytest

from linkage_widget.draw import ViewTransform
from linkage_widget.elements import Spring
from linkage_widget.model import Linkage
from linkage_widget.session import motion_driver
from linkage_widget.session.document import Document, parse_upload, upload_name
from linkage_widget.session.motion_driver import (
    DRAG_STEP_PX,
    Driver,
    FrameAsk,
    SimulatorSpec,
    Target,
)
from linkage_widget.session.recording import Recorder
from linkage_widget.session.tools import (
    ATTRACTOR_HIT_PX,
    TOOLS,
    Action,
    HintState,
    Selection,
    attract_action,
    click_action,
    drag_action,
    drag_kind,
    fit_hint,
    hint_text,
    key_action,
    link_action,
    press_kind,
    release_action,
)

NOTHING = Selection()


# ------------------------------------------------------------------- tools
@pytest.mark.parametrize("tool", TOOLS)
def test_every_tool_answers_every_hit(tool):
    for hit in (None, ("vertex", 0), ("rod", 1)):
        for sel in (NOTHING, Selection(vertex=2), Selection(rod=3)):
            assert isinstance(click_action(tool, hit, sel, (5.0, 6.0)), Action)


def test_click_actions():
    assert click_action("select", ("vertex", 2), Selection(vertex=2), (0, 0)) == Action(
        "select", ("vertex", None)
    )
    assert click_action("vertex", ("rod", 1), NOTHING, (3.0, 4.0)) == Action(
        "add_vertex", (3.0, 4.0)
    )
    assert click_action("rod", None, Selection(vertex=1), (3.0, 4.0)).args == (3.0, 4.0, 1)
    assert click_action("angle", ("rod", 2), Selection(rod=1), (0, 0)) == Action(
        "toggle_angle", (1, 2)
    )
    assert click_action("pin", ("rod", 2), NOTHING, (0, 0)).kind == "none"
    assert click_action("delete", ("rod", 2), NOTHING, (0, 0)) == Action("delete_rod", (2,))


def test_press_drag_and_link():
    assert press_kind("primary", "attractor") == "attract"
    assert press_kind("link", "attractor") == "link"
    assert drag_kind("primary", ("vertex", 1)) == "vertex"
    assert drag_kind("primary", ("rod", 1)) == "pan"
    assert drag_kind("link", None) == ""
    # a rod from the selected vertex, which moves to the clicked one (issue 22: a path)
    assert link_action(("vertex", 4), Selection(vertex=1)) == Action("link_rod", (1, 4))
    assert link_action(("rod", 4), NOTHING).kind == "select"
    assert link_action(None, NOTHING).kind == "message"


def test_pointer_actions():
    near = (10.0 + ATTRACTOR_HIT_PX / 2, 10.0)
    assert attract_action(near, (10.0, 10.0), NOTHING).kind == "remove_attractor"
    placed = attract_action((50.0, 10.0), (10.0, 10.0), Selection(vertex=1))
    assert placed == Action("place_attractor", (50.0, 10.0))
    assert "select a vertex" in attract_action((1.0, 2.0), None, NOTHING).message
    vertex = ("vertex", 3)
    assert drag_action("primary", vertex, False, (5.0, 6.0), (1.0, 1.0), True) == Action(
        "drag_vertex", (3, 5.0, 6.0, True)
    )
    assert drag_action("primary", None, False, (5.0, 6.0), (1.0, 2.0), False).args == (1.0, 2.0)
    assert drag_action("attract", None, False, (5.0, 6.0), (1.0, 2.0), False).kind == "none"
    assert drag_action("attract", None, True, (5.0, 6.0), (1.0, 2.0), False).kind == (
        "move_attractor"
    )
    assert release_action("primary", True, True, "select", vertex, NOTHING, (0, 0)).kind == (
        "end_drag"
    )
    assert release_action("primary", True, False, "select", None, NOTHING, (0, 0)).kind == "none"
    assert release_action("link", False, False, "select", None, NOTHING, (0, 0)).kind == "none"
    assert release_action("primary", False, False, "pin", vertex, NOTHING, (0, 0)) == Action(
        "toggle_pin", (3,)
    )


def test_keys():
    assert key_action("ctrl+shift+z", NOTHING) == Action("redo")
    assert key_action("t", Selection(vertex=3)) == Action("toggle_track", (3,))
    assert key_action("backspace", Selection(rod=2)) == Action("delete_rod", (2,))
    assert key_action("z", NOTHING).kind == "message"
    assert key_action("q", NOTHING) is None


def test_hints():
    state = HintState("", None, "idle", False, NOTHING, False, "kinematic", "select", 0)
    assert hint_text(state).startswith("click to add vertices")
    blocked = hint_text(state._replace(drag_vertex=3, status="blocked"))
    assert blocked.startswith("blocked: vertex 3 cannot")
    assert hint_text(state._replace(tool="pin")).startswith("pin:")
    assert hint_text(state._replace(message="hello")) == "hello"
    assert fit_hint("a · b · c", 20) == "a"


# ---------------------------------------------------------------- document
def test_document_edits_are_index_safe():
    doc = Document(Linkage([[0, 0], [10, 0], [0, 10], [10, 10]], rods=[(0, 1), (1, 3)]))
    doc.springs = (Spring(0, 3), Spring(1, 2))
    doc.tracked = (3, 1)
    before = doc.snapshot()
    assert doc.delete_vertex(1) == "vertex 1 deleted"
    assert doc.tracked == (2,) and doc.springs == (Spring(0, 2),)
    assert doc.toggle_rod(0, 2) == "rod 0-2 added" and doc.toggle_rod(2, 0) == "rod 2-0 removed"
    with pytest.raises(ValueError, match="do not share a vertex"):
        Document(Linkage([[0, 0], [1, 0], [2, 0], [3, 0]], rods=[(0, 1), (2, 3)])).toggle_angle(
            0, 1
        )
    doc.restore(before)
    assert doc.snapshot() == before
    with pytest.raises(IndexError):
        doc.spring(0, 9, 1.0, None, 0.0)
    assert doc.spring(0, 3, 1.0, None, 0.0).rest_length == pytest.approx(np.hypot(10, 10))


def test_uploads():
    files = {"a.txt.json": b'{"linkage_widget_extensions": 1, "tracked": [1]}',
             "a.txt": b"v\n0 0\n1 0\n"}  # fmt: skip
    assert upload_name(files) == "a.txt" and upload_name({"x.json": b""}) is None
    linkage, ext = parse_upload("a.txt", files)
    assert linkage.n_vertices == 2 and ext.tracked == (1,)


# ------------------------------------------------------------------ driver
def _setup(link, mode="kinematic", step=1.0):
    return SimulatorSpec(link, (), mode, step, 0.0, 0.0)


def test_driver_drag_steps_and_settles(monkeypatch):
    # The policy under test is how far a frame's steps go, not the time budget: a loaded
    # machine spent the 8 ms on the first step (the simulator's first factorisation).
    monkeypatch.setattr(motion_driver, "FRAME_BUDGET_S", 10.0)
    link = Linkage([[0.0, 0.0], [100.0, 0.0]], rods=[(0, 1)], pinned=[0])
    d = Driver()
    assert d.idle("kinematic", None) and not d.idle("dynamic", None)
    target = Target(1, 0.0, 100.0)
    step = d.frame(_setup(link), target, dragging=True, view=ViewTransform(scale=1.0))
    assert step.positions is not None and step.status == "moved"
    # several steps of up to DRAG_STEP_PX (scale 1: world units) in one frame
    assert np.linalg.norm(step.positions[1] - [100.0, 0.0]) > DRAG_STEP_PX
    assert d.simulator is not None and d.simulator.step_size == DRAG_STEP_PX
    link.set_positions(step.positions)
    for _ in range(50):
        if d.settled:
            break
        step = d.frame(_setup(link), target, dragging=True, view=ViewTransform(scale=1.0))
        if step.positions is not None:
            link.set_positions(step.positions)
    assert d.settled and np.allclose(link.vertices[1], [0.0, 100.0], atol=0.25)
    sim = d.simulator
    d.set_parameter("gravity", 5.0)
    assert d.simulator is sim and sim.gravity == 5.0 and not d.settled
    d.invalidate()
    assert d.simulator is None


def test_driver_rebuilds_after_an_edit():
    link = Linkage([[0.0, 0.0], [1.0, 0.0]], rods=[(0, 1)])
    d = Driver()
    sim = d.current(_setup(link))
    assert d.current(_setup(link)) is sim
    link.add_vertex((5.0, 5.0))
    assert d.current(_setup(link)) is not sim


def test_driver_says_what_a_frame_ends():
    link = Linkage([[0.0, 0.0], [100.0, 0.0]], rods=[(0, 1)], pinned=[0])
    d, view, target = Driver(), ViewTransform(scale=1.0), Target(1, 0.0, 100.0)
    idle = d.motion(_setup(link), FrameAsk(None, False, "moved"), view)
    assert idle.status == "idle" and not idle.begun and idle.positions is None
    assert idle.ends == (("running", False),)  # kinematic, nothing pulls: the motion ends
    note = FrameAsk(None, False, "idle", "table friction is planar", 0.5)
    assert d.motion(_setup(link), note, view).message == "table friction is planar"
    assert d.motion(_setup(link), note, view).message == ""  # said once per value
    d.settled = True  # reached: an attractor's motion ends and the attractor goes (2007)
    done = d.motion(_setup(link), FrameAsk(target, False, "reached target"), view)
    assert done.status == "reached target"
    assert done.ends == (("attractor", None), ("running", False))
    assert d.motion(_setup(link), FrameAsk(target, True, "reached target"), view).ends == ()


def test_a_failed_frame_ends_the_motion_and_says_why(monkeypatch):
    def fail(*args):
        raise RuntimeError("no step")

    d = Driver()
    monkeypatch.setattr(d, "frame", fail)
    link = Linkage([[0.0, 0.0], [100.0, 0.0]], rods=[(0, 1)], pinned=[0])
    ask = FrameAsk(Target(1, 0.0, 100.0), False, "moved")
    done = d.motion(_setup(link), ask, ViewTransform(scale=1.0))
    assert done.positions is None and done.status == "moved"
    assert done.ends == (("error", "motion stopped: no step"), ("running", False))


def test_recorder_keeps_the_rate_and_the_limit():
    t = [0.0]
    r = Recorder(clock=lambda: t[0], fps=10.0, limit=3)
    kept = []
    for k in range(10):
        t[0] = k * 0.05
        kept.append(r.offer(k))
    assert r.frames == [0, 2, 4] and kept.count(True) == 3
