"""The slider and slot tools driven by the pointer (issue 25: the widget's tools).

The slider tool: a drag from a joint along a line makes the joint slide on it (snapped
to 15° steps within 5°), a click a horizontal line or takes a slider away; the slot tool:
two clicks for the axis, a third for the joint in the slot; the delete tool removes a
slider by its track; each is one undo step; refused input says why, nothing changed.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from linkage_widget import Linkage
from linkage_widget.session import TOOLS, LinkageSession
from linkage_widget.session.tools import click_action, drag_kind, press_kind, release_action
from linkage_widget.session.vocabulary import Action, Selection


def crank_and_rod() -> Linkage:
    """A crank 0-1 about the pinned 0 and a rod 1-2: a slider-crank but for its slider."""
    return Linkage([[0.0, 0.0], [1.0, 0.0], [4.0, 0.0]], rods=[(0, 1), (1, 2)], pinned=[0])


def px(s: LinkageSession, world) -> tuple[float, float]:
    x, y = s.view.to_pixel(np.asarray(world, dtype=np.float64))
    return float(x), float(y)


def drag(s: LinkageSession, start, end, steps: int = 5) -> None:
    s.press(*start)
    for k in range(1, steps + 1):
        t = k / steps
        s.drag(start[0] + t * (end[0] - start[0]), start[1] + t * (end[1] - start[1]))
    s.release(*end)


def click(s: LinkageSession, at) -> None:
    s.press(*at)
    s.release()


def test_the_tools_are_on_the_toolbar_with_their_tips():
    assert "slider" in TOOLS and "slot" in TOOLS
    assert press_kind("primary", "slider") == "slider"
    assert drag_kind("slider", ("vertex", 2)) == "slider" and drag_kind("slider", None) == "pan"
    sel = Selection()
    assert release_action("slider", True, False, "slider", ("vertex", 2), sel, (5, 6)) == Action(
        "set_slider", (2, 5, 6)
    )
    assert click_action("slider", ("vertex", 2), sel, (0, 0)) == Action("toggle_slider", (2,))
    assert click_action("slot", ("vertex", 3), Selection(vertex=1), (0, 0)) == Action(
        "slot_pick", (1, 3)
    )
    assert click_action("delete", ("slider", 0), sel, (0, 0)) == Action(
        "delete_guide", ("slider", 0)
    )


def test_a_drag_from_the_piston_makes_it_slide_along_the_drag_snapped_and_undoable():
    s = LinkageSession(crank_and_rod())
    s.tool = "slider"
    piston = px(s, [4.0, 0.0])
    end = (piston[0] + 80.0, piston[1] - 80.0 * math.tan(math.radians(3.0)))  # 3° off level
    drag(s, piston, end)
    assert s.error == ""
    (slider,) = s.linkage.sliders
    assert slider.joint == 2 and slider.direction == (1.0, 0.0)  # snapped to the axis
    assert slider.point == (4.0, 0.0)
    assert "joint 2 slides" in s.scene().hint
    assert s.undo() and s.linkage.sliders == ()
    assert s.redo() and s.linkage.sliders == (slider,)


def test_a_drag_at_an_angle_off_the_snaps_keeps_its_angle():
    s = LinkageSession(crank_and_rod())
    s.tool = "slider"
    piston = px(s, [4.0, 0.0])
    angle = math.radians(37.0)  # 7° from 30 and 8° from 45: not snapped
    drag(s, piston, (piston[0] + 100 * math.cos(angle), piston[1] - 100 * math.sin(angle)))
    (slider,) = s.linkage.sliders
    assert math.degrees(math.atan2(slider.direction[1], slider.direction[0])) == pytest.approx(
        37.0, abs=0.5
    )


def test_a_click_makes_a_horizontal_slider_and_a_second_click_takes_it_away():
    s = LinkageSession(crank_and_rod())
    s.tool = "slider"
    click(s, px(s, [4.0, 0.0]))
    assert s.linkage.sliders == ((2, (4.0, 0.0), (1.0, 0.0)),)
    click(s, px(s, [4.0, 0.0]))
    assert s.linkage.sliders == () and "no longer slides" in s.scene().hint


def test_a_pinned_joint_is_refused_with_a_clear_error_and_nothing_changes():
    s = LinkageSession(crank_and_rod())
    s.tool = "slider"
    before = s.linkage.copy()
    click(s, px(s, [0.0, 0.0]))
    assert "joint 0" in s.error and "pinned" in s.error
    assert s.linkage == before
    assert not s.undo()  # nothing to undo: nothing was recorded


def test_the_slider_crank_built_by_the_pointer_keeps_its_piston_on_the_line():
    s = LinkageSession(crank_and_rod())
    s.tool = "slider"
    piston = px(s, [4.0, 0.0])
    drag(s, piston, (piston[0] + 60.0, piston[1]))
    s.add_motor(0, 1)
    s.toggle_motors()
    s.advance(20)
    p = s.linkage.vertices
    assert abs(p[2, 1]) < 1e-9  # on the line y = 0
    assert np.hypot(*(p[1] - p[0])) == pytest.approx(1.0, abs=1e-9)
    assert np.hypot(*(p[2] - p[1])) == pytest.approx(3.0, abs=1e-9)
    assert p[1, 1] != 0.0  # the crank turned


def test_the_slot_tool_takes_the_axis_then_the_pin_and_again_takes_the_slot_away():
    s = LinkageSession(Linkage([[0.0, 0.0], [0.0, 2.0], [0.0, 1.0], [1.0, 1.0]], rods=[(2, 3)]))
    s.tool = "slot"
    for v in (0, 1):
        click(s, px(s, s.linkage.vertices[v]))
    assert "slot axis 0-1 chosen" in s.scene().hint and s.linkage.slots.size == 0
    click(s, px(s, s.linkage.vertices[2]))
    assert s.linkage.slots.tolist() == [[0, 1, 2]] and s.error == ""
    assert s.selected_vertex is None
    for v in (0, 1, 2):
        click(s, px(s, s.linkage.vertices[v]))
    assert s.linkage.slots.size == 0 and "slot 0 removed" in s.scene().hint
    assert s.undo() and s.linkage.slots.tolist() == [[0, 1, 2]]
    for v in (0, 1, 3):  # joint 3 is off the line 0-1: refused, saying how far
        click(s, px(s, s.linkage.vertices[v]))
    assert "joint 3 is 1 off the line 0-1" in s.error
    assert s.linkage.slots.tolist() == [[0, 1, 2]]


def test_the_delete_tool_removes_a_slider_by_its_track_and_the_joint_stays():
    link = crank_and_rod()
    link.add_slider(2, (1.0, 0.0))
    s = LinkageSession(link)
    s.tool = "delete"
    x, y = px(s, [2.5, 0.0])
    click(s, (x, y + 9.0))  # on the lower rail, clear of the rod
    assert s.linkage.sliders == () and s.linkage.n_vertices == 3 and s.linkage.n_rods == 2
    assert s.undo() and len(s.linkage.sliders) == 1


def test_the_readout_counts_the_sliders_and_slots():
    link = crank_and_rod()
    s = LinkageSession(link)
    assert not any("slider" in line for line in s.readout())
    s.tool = "slider"
    click(s, px(s, [4.0, 0.0]))
    assert "sliders: 1 · slots: 0 (one constraint each)" in s.readout()
    assert "sliders: 1 · slots: 0 (one constraint each)" in s.readout_words().details
