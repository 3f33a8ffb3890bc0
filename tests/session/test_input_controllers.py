"""The session's input controllers take values and return values (issue 23)."""

from __future__ import annotations

import numpy as np
import pytest

from linkage_widget import Linkage
from linkage_widget.session.actions import Actions
from linkage_widget.session.branching import BranchChoice
from linkage_widget.session.gestures import Gesture
from linkage_widget.session.keyboard import Keyboard, KeyChange
from linkage_widget.session.motion_driver import Target
from linkage_widget.session.outcome import Outcome, Situation
from linkage_widget.session.pointer import Pointer
from linkage_widget.session.space_view import PlaneView
from linkage_widget.session.tools import Selection


def test_the_keyboard_returns_what_changes() -> None:
    k = Keyboard()
    now = {"presentation": False, "tool": "select", "mode": "dynamic", "show_forces": True}
    assert k.change("toggle_presentation", now).traits == {"presentation": True}
    assert k.change("leave_or_escape", now) == KeyChange({}, None, escape=True)
    shown = {**now, "presentation": True}
    assert k.change("leave_or_escape", shown) == KeyChange(
        {"presentation": False}, "presentation mode off"
    )
    assert k.change("toggle_mode", now).traits == {"mode": "kinematic"}
    assert k.change("toggle_forces", now) == KeyChange({"show_forces": False}, "forces hidden")
    assert k.change("next_tool", now).traits["tool"] != "select"
    with pytest.raises(KeyError):
        k.change("save", now)


def test_a_pull_starts_once_per_drag_and_not_for_a_free_move() -> None:
    p = Pointer()
    g = Gesture(10.0, 10.0)
    assert p.press(g, "select", ("vertex", 0), None, Selection()) is None
    g.last_x, g.last_y = 20.0, 10.0
    assert p.drag(g, 10.0, 0.0).kind == "drag_vertex"
    assert p.take_pull_start() and not p.take_pull_start()
    p.drag(g, 1.0, 0.0)
    assert not p.take_pull_start()  # the same pull
    free = Gesture(10.0, 10.0, shift=True)
    p.press(free, "select", ("vertex", 0), None, Selection())
    p.drag(free, 5.0, 0.0)
    assert not p.take_pull_start()


def test_a_cancelled_gesture_lets_a_pulled_joint_go_and_clicks_nothing() -> None:
    p = Pointer()
    g = Gesture(10.0, 10.0)
    p.press(g, "select", ("vertex", 0), None, Selection())
    g.cancelled = True
    assert p.release(g, (10.0, 10.0), "select", Selection()).kind == "none"
    p.drag(g, 3.0, 0.0)
    assert p.release(g, (13.0, 10.0), "select", Selection()).kind == "end_drag"


class _Stopped:
    singular = True

    def branches(self) -> np.ndarray:
        return np.zeros((2, 4, 2))


def test_the_ways_on_at_a_singular_stop() -> None:
    b = BranchChoice()
    assert b.directions("moved", _Stopped(), 4) is None
    assert b.directions("singular", None, 4) is None
    assert b.directions("singular", _Stopped(), 5) is None  # another linkage's
    lines = b.directions("singular", _Stopped(), 4)
    assert lines is not None and len(lines) == 2
    assert b.way(lines, 1) == (0, 1) and b.way(lines, 4) == (1, -1)
    assert b.way(None, 1) is None
    with pytest.raises(ValueError, match="4 ways"):
        b.way(lines, 5)


def _situation(**traits: object) -> Situation:
    now = {"selected_vertex": None, "selected_rod": None, "attractor": None, "mode": "kinematic"}
    linkage = Linkage(np.array([[0.0, 0.0], [1.0, 0.0]]), [(0, 1)])
    world = lambda x, y, depth=0.0: (x / 10.0, y / 10.0)  # noqa: E731 - a stand-in view
    return Situation({**now, **traits}, linkage, None, PlaneView(), world, None, True, False)


def test_the_pointer_holds_the_drag_and_returns_what_it_changes() -> None:
    p = Pointer()
    first = p.drag_vertex(_situation(), 1, 20.0, 30.0, False)
    assert first == Outcome({"selected_vertex": 1, "running": True}, pulled=True)
    assert p.target() == Target(1, 2.0, 3.0) and p.holding
    assert p.drag_vertex(_situation(), 1, 40.0, 30.0, False) == Outcome(pulled=True)
    assert p.target() == Target(1, 4.0, 3.0)
    assert p.end_drag(_situation()) == Outcome({"running": False}, finish="analysis")
    assert p.target() is None and not p.holding
    free = p.drag_vertex(_situation(), 0, 10.0, 0.0, True)
    assert free.undo_point and free.move == (0, (1.0, 0.0)) and p.target() is None
    assert not p.drag_vertex(_situation(), 0, 20.0, 0.0, False).undo_point  # still free
    assert p.end_drag(_situation()) == Outcome(finish="edit")


def test_the_actions_return_outcomes_and_change_nothing() -> None:
    act, now = Actions(), _situation(selected_vertex=0)
    split = act.split(now, 0)
    assert split.traits == {"selected_vertex": 2} and split.edit is not None
    added = act.add_vertex(now, 10.0, 20.0, 0)
    assert added.traits == {"selected_vertex": 2} and added.then is not None
    assert added.then.traits == {"selected_vertex": 2}
    assert act.pick_branch(now, 1).message  # no branch offered: says how to get one
    assert now.linkage.n_vertices == 2  # nothing was edited: the session applies edits
