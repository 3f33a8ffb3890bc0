"""Touch (tap, one-finger drag, two-finger pan and pinch) and the keyboard map, headless.

The pinch math of ``session/touch.py`` on its own, the event merger's finger rules, and a
real session driven through :meth:`LinkageSession.touch` and :meth:`LinkageSession.key`
exactly as the widget's ipycanvas callbacks drive it.
"""

import itertools
import math

import numpy as np
import pytest

from linkage_widget.session import LinkageSession
from linkage_widget.session.gestures import EventMerger
from linkage_widget.session.keymap import SHIFTED_KEYS, SIMPLE_KEYS, TOGGLE_KEYS, key_action
from linkage_widget.session.touch import (
    MIN_SPREAD_PX,
    TOUCH_DRAG_PX,
    TOUCH_HIT_PX,
    TOUCH_ROD_PX,
    pinch_of,
    pinch_step,
)
from linkage_widget.session.vocabulary import TOOLS, Selection, next_tool, tool_line


# ------------------------------------------------------------------ pinch math
def test_pinch_of_ignores_the_order_of_the_fingers():
    pts = [(10.0, 20.0), (50.0, 80.0), (90.0, 15.0)]
    got = {pinch_of(list(p)) for p in itertools.permutations(pts)}
    assert len({(round(g.x, 12), round(g.y, 12), round(g.spread, 12)) for g in got}) == 1
    p = pinch_of(pts)
    assert (p.x, p.y, p.fingers) == (50.0, 115.0 / 3, 3)
    assert p.spread == pytest.approx(np.mean([math.dist(q, (p.x, p.y)) for q in pts]))


def test_pinch_step_maps_both_fingers_onto_their_new_places():
    """The similarity x -> c' + f (x - c) carries each old finger to its new place."""
    a = [(100.0, 100.0), (160.0, 140.0)]
    b = [(70.0, 90.0), (250.0, 210.0)]  # same direction, spread x3, centre moved
    s = pinch_step(pinch_of(a), pinch_of(b))
    assert s.factor == pytest.approx(3.0)
    for old, new in zip(a, b, strict=True):
        x = s.x + s.dx + s.factor * (old[0] - s.x)
        y = s.y + s.dy + s.factor * (old[1] - s.y)
        assert (x, y) == pytest.approx(new)


def test_pinch_step_none_when_a_finger_comes_or_goes_and_no_zoom_on_one_spot():
    two = pinch_of([(0.0, 0.0), (30.0, 0.0)])
    assert pinch_step(two, pinch_of([(0.0, 0.0), (30.0, 0.0), (15.0, 9.0)])) is None
    near = pinch_of([(10.0, 10.0), (10.0 + MIN_SPREAD_PX, 10.0)])  # spread 2 px < 4 px
    far = pinch_of([(0.0, 10.0), (40.0, 10.0)])
    assert pinch_step(near, far).factor == 1.0
    together = pinch_of([(20.0, 10.0), (20.0, 10.0)])
    assert pinch_step(far, together).factor == 1.0  # never a zero zoom
    with pytest.raises(ValueError, match="at least one finger"):
        pinch_of([])


# ------------------------------------------------------------------ the merger
@pytest.fixture
def rec():
    log = []
    m = EventMerger(
        400,
        300,
        on_press=lambda g: log.append(("press", g.x, g.y, g.touch)),
        on_drag=lambda g, dx, dy: log.append(("drag", g.last_x, g.last_y)),
        on_release=lambda g, x, y: log.append(("release", g.dragged, g.cancelled)),
        on_pinch=lambda s: log.append(("pinch", *s)),
    )
    return m, log


def test_a_tap_may_wander_a_fingertip(rec):
    m, log = rec
    m.touch_start([(50.0, 50.0)])
    m.touch_move([(50.0 + TOUCH_DRAG_PX * 0.9, 50.0)])  # beyond the mouse's 4 px
    m.touch_end([])
    assert log == [("press", 50.0, 50.0, True), ("release", False, False)]


def test_second_finger_cancels_without_a_click_then_pinches(rec):
    m, log = rec
    m.touch_start([(100.0, 100.0)])
    m.touch_start([(100.0, 100.0), (140.0, 100.0)])
    assert log == [("press", 100.0, 100.0, True), ("release", False, True)]
    log.clear()
    m.touch_move([(90.0, 100.0), (150.0, 100.0)])  # spread 20 -> 30 about x = 120
    m.touch_move([(100.0, 120.0), (160.0, 120.0)])  # both 10 right, 20 down: a pan
    assert log == [
        ("pinch", 120.0, 100.0, 0.0, 0.0, 1.5),
        ("pinch", 120.0, 100.0, 10.0, 20.0, 1.0),
    ]
    log.clear()
    m.touch_end([(100.0, 120.0)])  # one finger left over: it does nothing
    m.touch_move([(300.0, 200.0)])
    m.touch_end([])
    assert log == [] and m.gesture is None and m.pinch is None
    m.touch_start([(10.0, 10.0)])  # all lifted: the next finger presses again
    assert log == [("press", 10.0, 10.0, True)]


def test_fingers_arriving_together_pinch_and_the_zoom_telescopes(rec):
    m, log = rec
    m.touch_start([(200.0, 150.0), (220.0, 150.0)])
    spreads = [10.0, 13.0, 17.0, 25.0, 40.0]
    for s in spreads[1:]:
        m.touch_move([(210.0 - s, 150.0), (210.0 + s, 150.0)])
    m.touch_end([])
    factors = [entry[-1] for entry in log]
    assert [e[0] for e in log] == ["pinch"] * 4
    assert math.prod(factors) == pytest.approx(spreads[-1] / spreads[0], rel=1e-12)


# ------------------------------------------------------------------ a session
@pytest.fixture
def peau():
    return LinkageSession.load("peaucellier.txt")


def px(s, v):
    return tuple(s.view.to_pixel(s.linkage.vertices[v]))


def test_tap_adds_a_joint_where_the_finger_is(peau):
    n = peau.linkage.n_vertices
    peau.touch("start", [(40.0, 40.0)])
    peau.touch("end", [])
    assert peau.linkage.n_vertices == n + 1
    assert peau.view.to_pixel(peau.linkage.vertices[n]) == pytest.approx([40.0, 40.0])
    assert peau.selected_vertex == n


def test_tap_within_a_fingertip_selects_the_joint(peau):
    x, y = px(peau, 3)
    off = (8.0 + TOUCH_HIT_PX) / 2  # beyond the mouse's 8 px grab radius, within a finger's
    peau.touch("start", [(x + off, y)])
    peau.touch("end", [])
    assert peau.selected_vertex == 3
    assert peau.linkage.n_vertices == 6


def test_tap_beside_a_rod_selects_it(peau):
    a, b = peau.linkage.rods[3]
    mid = 0.5 * (peau.linkage.vertices[a] + peau.linkage.vertices[b])
    x, y = peau.view.to_pixel(mid)
    d = peau.linkage.vertices[b] - peau.linkage.vertices[a]
    n = np.array([-d[1], d[0]]) / np.hypot(*d)  # the rod's normal (pixels flip y: any side)
    off = (5.0 + TOUCH_ROD_PX) / 2  # beyond the mouse's 5 px, within a finger's reach
    peau.touch("start", [(x + off * n[0], y - off * n[1])])
    peau.touch("end", [])
    assert peau.selected_rod == 3 and peau.linkage.n_vertices == 6


def test_one_finger_drag_pulls_the_mechanism(peau):
    before = peau.linkage.vertices.copy()
    lengths = peau.linkage.rod_lengths()
    x, y = px(peau, 5)
    peau.touch("start", [(x, y)])
    for k in range(1, 11):
        peau.touch("move", [(x + k, y - 6 * k)])
        peau.advance(2)
    peau.touch("end", [])
    v = peau.linkage.vertices
    assert v[5, 1] > before[5, 1] + 1.0  # up its line
    assert v[5, 0] == pytest.approx(before[5, 0], abs=1e-6)
    assert np.allclose(peau.linkage.rod_lengths(), lengths, rtol=1e-9)
    assert not peau.running  # the drag ended with the finger


def test_second_finger_lets_a_pulled_joint_go(peau):
    x, y = px(peau, 5)
    peau.touch("start", [(x, y)])
    peau.touch("move", [(x, y - 30)])
    assert peau._pointer.vertex == 5
    peau.touch("start", [(x, y - 30), (x + 80, y - 30)])
    assert peau._pointer.vertex is None and peau.linkage.n_vertices == 6


def test_pinch_zooms_about_the_centroid_and_pans_with_it(peau):
    s0 = peau.view.scale
    c = (300.0, 200.0)
    world = peau.view.to_world(c)
    peau.touch("start", [(270.0, 200.0), (330.0, 200.0)])  # spread 30
    peau.touch("move", [(250.0, 210.0), (370.0, 210.0)])  # spread 60, centre (310, 210)
    peau.touch("end", [(250.0, 210.0)])
    peau.touch("end", [])
    assert peau.view.scale == pytest.approx(2.0 * s0, rel=1e-12)
    assert peau.view.to_pixel(world) == pytest.approx([310.0, 210.0], abs=1e-9)
    assert peau.linkage.n_vertices == 6 and peau.selected_vertex is None


def test_touch_rejects_an_unknown_event(peau):
    with pytest.raises(ValueError, match="start, move, end"):
        peau.touch("tap", [(1.0, 1.0)])


# ------------------------------------------------------------------ keys
def test_m_toggles_presentation_and_esc_leaves_it_first(peau):
    peau.selected_vertex = 2
    peau.key("m")
    assert peau.presentation
    peau.key("Escape")
    assert not peau.presentation and peau.selected_vertex == 2  # Esc only left the mode
    peau.key("m")
    peau.key("m")
    assert not peau.presentation
    peau.key("Escape")
    assert peau.selected_vertex is None  # outside presentation: deselects as before


def test_o_starts_the_motors_not_m(peau):
    peau.add_motor(1, 2, 1.0)  # the crank: rod 1-2 about the pinned joint 1
    peau.key("m")
    assert not peau.motors_running and peau.presentation
    peau.key("o")
    assert peau.motors_running and peau.running
    peau.key("o")
    assert not peau.motors_running


def test_tool_and_mode_and_shown_parts_by_key(peau):
    peau.key("]")
    assert peau.tool == TOOLS[1]
    peau.key("[")
    peau.key("[")
    assert peau.tool == TOOLS[-1]
    peau.key("k")
    assert peau.mode == "dynamic"
    peau.key("k")
    assert peau.mode == "kinematic"
    shown = [("a", "show_angles"), ("j", "show_vertices"), ("#", "show_labels")]
    for k, name in [*shown, ("g", "show_configuration")]:
        was = getattr(peau, name)
        peau.key(k)
        assert getattr(peau, name) is (not was)
    was = peau.show_forces
    peau.key("F", shift=True)
    assert peau.show_forces is (not was)
    assert peau.error == ""  # F is not f: no "select a vertex first to pin it"


def test_capital_p_and_t_export_svg_and_tracks(peau, tmp_path):
    peau.file_name = str(tmp_path / "peau.txt")
    peau.tracked = (5,)
    peau.advance(1)
    peau.key("P", shift=True)
    peau.key("T", shift=True)
    assert (tmp_path / "exports" / "peau.svg").read_text().startswith("<svg")
    assert (tmp_path / "exports" / "peau.csv").exists()


def test_every_key_names_an_action_the_session_has(peau):
    kinds = set(SIMPLE_KEYS.values()) | set(SHIFTED_KEYS.values()) | {"toggle_trait"}
    missing = [k for k in kinds if not callable(peau._actions.get(k))]  # the action table
    assert missing == []
    assert all(peau.has_trait(name) for name in TOGGLE_KEYS.values())
    assert key_action("a", Selection()).args == ("show_angles",)


def test_tool_line_and_next_tool():
    assert [next_tool(t, 1) for t in TOOLS] == [*TOOLS[1:], TOOLS[0]]
    assert tool_line("pin") == "tool: pin ([ ] other tool) · click a vertex to pin/unpin it"
    assert tool_line("rod", "rod: click two vertices (or empty space) to draw rods").endswith(
        "· click two vertices (or empty space) to draw rods"
    )
