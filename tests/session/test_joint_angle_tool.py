"""The angle tool makes a fixed angle between joints without rods (issue 15, the 2007
page's "more motion possible"): apex, first arm's joint, second arm's joint."""

from __future__ import annotations

import numpy as np

from linkage_widget import Linkage
from linkage_widget.session import LinkageSession
from linkage_widget.session.tools import click_action
from linkage_widget.session.vocabulary import Selection


def click(s: LinkageSession, v: int) -> None:
    x, y = s.view.to_pixel(s.linkage.vertices[v])
    s.press(x, y)
    s.release(x, y)


def right_angle_session() -> LinkageSession:
    s = LinkageSession(Linkage([[0, 0], [100, 0], [0, 100], [100, 100]], pinned=[0]))
    s.tool = "angle"
    return s


def test_the_tool_turns_joint_clicks_into_arms() -> None:
    assert click_action("angle", ("vertex", 2), Selection(vertex=0), (0, 0)).kind == "angle_arm"
    assert click_action("angle", ("vertex", 2), Selection(vertex=0), (0, 0)).args == (0, 2)
    # the first click selects the apex; two rods still fix the angle between them
    assert click_action("angle", ("vertex", 0), Selection(), (0, 0)).kind == "select"
    assert click_action("angle", ("rod", 1), Selection(rod=0), (0, 0)).kind == "toggle_angle"


def test_three_clicks_fix_an_angle_without_rods_undoably() -> None:
    s = right_angle_session()
    click(s, 0)
    assert s.selected_vertex == 0
    click(s, 1)
    assert s.selected_vertex == 0 and "arm 0-1 chosen" in s._hint()
    assert s.linkage.n_angles == 0
    click(s, 2)
    assert s.linkage.angles.tolist() == [[0, 1, 2]] and s.linkage.n_rods == 0
    assert s._hint() == "angle at 0 between joints 1 and 2 fixed"
    # the joint at an arm's end slides along its arm; the angle holds
    s.selected_vertex = 1
    s.attractor = (180.0, 0.0)
    s.running = True
    s.advance(100)
    np.testing.assert_allclose(s.linkage.vertices[1], [180.0, 0.0], atol=1e-6)
    assert s.linkage.angle_values()[0] == np.pi / 2
    s.undo()  # the motion
    s.undo()  # the angle
    assert s.linkage.n_angles == 0


def test_the_same_clicks_free_it_and_a_new_apex_restarts() -> None:
    s = right_angle_session()
    for v in (0, 1, 2):
        click(s, v)
    assert s.linkage.n_angles == 1
    click(s, 0)  # deselect the apex
    for v in (0, 2, 1):  # the arms in the other order: the same angle
        click(s, v)
    assert s.linkage.n_angles == 0 and "freed" in s._hint()
    click(s, 0)  # deselect
    click(s, 3)  # a new apex: 3
    click(s, 1)  # arm 3-1
    click(s, 3)  # deselect 3 ...
    click(s, 0)  # ... apex 0 now: the pending arm 3-1 is not its arm
    click(s, 2)
    assert s.linkage.n_angles == 0 and "arm 0-2 chosen" in s._hint()


def test_coincident_joints_say_why_and_change_nothing() -> None:
    s = LinkageSession(Linkage([[0, 0], [100, 0], [0, 0.0]]))
    s.tool = "angle"
    before = s.linkage.copy()
    s.run_action("angle_arm", 0, 1)
    s.run_action("angle_arm", 0, 2)
    assert s.linkage == before and "joints 0 and 2 coincide" in s.error
    assert not s.history.can_undo
