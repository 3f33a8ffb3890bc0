"""Building by mouse says what it does (issue 22, item 16).

- Alt-clicks (or middle-clicks) on joints in turn draw a path, as a polyline tool does:
  with joint 0 selected, alt-clicking 1, 2, 3, 0 makes the quadrilateral 0-1-2-3-0 (it
  made the star 0-1, 0-2, 0-3 before), and the hint line says which rod was added and
  that the next alt-click goes on from the clicked joint.
- The angle tool takes a selected joint as the apex: the hint line says so before the
  first arm is clicked, and again when it is.
"""

from __future__ import annotations

from linkage_widget import Linkage
from linkage_widget.session import LinkageSession

SQUARE = [[0.0, 0.0], [100.0, 0.0], [100.0, 100.0], [0.0, 100.0]]


def click(s: LinkageSession, v: int, button: int = 0, **mods: bool) -> None:
    x, y = (float(c) for c in s.view.to_pixel(s.linkage.vertices[v]))
    s.press(x, y, button, **mods)
    s.release(x, y)


def rods(s: LinkageSession) -> set[tuple[int, int]]:
    return {(min(a, b), max(a, b)) for a, b in s.linkage.rods.tolist()}


def corners() -> LinkageSession:
    return LinkageSession(Linkage(SQUARE, pinned=[0]))


def test_alt_clicks_in_turn_make_the_quadrilateral_not_a_star() -> None:
    s = corners()
    click(s, 0)
    assert s.selected_vertex == 0
    for v in (1, 2, 3, 0):
        click(s, v, alt=True)
    assert rods(s) == {(0, 1), (1, 2), (2, 3), (0, 3)}
    assert s.selected_vertex == 0  # the path closed where it began


def test_middle_clicks_draw_the_same_path() -> None:
    s = corners()
    click(s, 0)
    for v in (1, 2, 3):
        click(s, v, button=1)
    assert rods(s) == {(0, 1), (1, 2), (2, 3)}
    assert s.selected_vertex == 3


def test_the_hint_line_says_which_rod_and_how_to_go_on() -> None:
    s = corners()
    click(s, 0)
    assert "alt-click" in s._hint()  # the selected joint's hint says what alt-click does
    click(s, 1, alt=True)
    hint = s._hint()
    assert "rod 0-1 added" in hint
    assert "joint 1 selected" in hint and "alt-click the next joint" in hint
    click(s, 2, alt=True)
    assert "rod 1-2 added" in s._hint()


def test_each_rod_is_one_undo_step_and_a_second_alt_click_removes_it() -> None:
    s = corners()
    click(s, 0)
    for v in (1, 2):
        click(s, v, alt=True)
    assert s.undo() and rods(s) == {(0, 1)}
    # alt-clicking back along a rod that exists removes it (a toggle, as before)
    s.selected_vertex = 1
    click(s, 0, alt=True)
    assert rods(s) == set() and "rod 1-0 removed" in s._hint()
    assert s.selected_vertex == 0


def test_the_angle_tool_names_the_selected_joint_as_the_apex() -> None:
    s = corners()
    click(s, 2)  # selected with the select tool, before the angle tool is chosen
    s.key("]")  # select -> vertex
    s.key("]")  # vertex -> rod
    s.key("]")  # rod -> angle
    assert s.tool == "angle"
    assert "apex: joint 2 (selected)" in s._hint()
    click(s, 1)  # the first arm: 2-1, the apex is the selected joint 2
    hint = s._hint()
    assert "apex: joint 2" in hint and "arm 2-1 chosen" in hint
    click(s, 3)
    assert s.linkage.angles.tolist() == [[2, 1, 3]]


def test_the_angle_tool_without_a_selection_asks_for_the_apex() -> None:
    s = corners()
    s.tool = "angle"
    assert "apex" in s._hint()
    click(s, 0)
    assert "apex: joint 0 (selected)" in s._hint()
