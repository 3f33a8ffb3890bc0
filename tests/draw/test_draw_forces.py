"""Rod forces, load and reaction arrows, motor marks and their legend (draw/forces.py)."""

import numpy as np
import pytest

from linkage_widget import Linkage
from linkage_widget.draw import DEFAULT_THEME, SceneState, ViewTransform, build_scene, scene_to_svg
from linkage_widget.draw.forces import force_arrows, motors
from linkage_widget.draw.primitives import per_item
from linkage_widget.draw.raster import scene_to_image

T = DEFAULT_THEME
NEW_ROLES = {"motors", "loads", "reactions"}


@pytest.fixture
def truss():
    # a pinned triangle: 0 and 1 pinned, load on 2
    return Linkage([[0, 0], [4, 0], [2, 2]], rods=[(0, 1), (1, 2), (0, 2)], pinned=[0, 1])


def view_for(link):
    return ViewTransform.fit(link.vertices, 400, 300)


def cross(a, b):
    return a[0] * b[1] - a[1] * b[0]


def legend_labels(scene, marks=("arrow", "curve")):
    """The legend's words for rod colours and force/motor marks (issue 15: HTML, not drawn)."""
    return [e.label for e in scene.legend if e.label.startswith("rod in") or e.mark in marks]


def test_nothing_new_is_drawn_without_drives(truss):
    scene = build_scene(truss, view_for(truss), SceneState(hint="h"))
    assert not NEW_ROLES & set(scene.roles())
    assert legend_labels(scene) == []
    assert per_item(scene.by_role("rods")[0].color, 3).tolist() == [T.rod] * 3


def test_rod_forces_colour_by_sign_and_replace_the_stress_colouring(truss):
    state = SceneState(
        rod_forces=np.array([2.0, -1.0, 0.0]), show_stresses=True, rod_stress=np.ones(3)
    )
    scene = build_scene(truss, view_for(truss), state)
    (rods,) = scene.by_role("rods")
    assert list(per_item(rods.color, 3)) == [T.tension, T.compression, T.unstressed]
    w = per_item(rods.width, 3)
    assert w[0] > w[1] > 0  # width grows with |force|
    assert legend_labels(scene) == ["rod in tension", "rod in compression"]


def test_stale_rod_forces_are_ignored(truss):
    scene = build_scene(truss, view_for(truss), SceneState(rod_forces=np.ones(5)))
    assert per_item(scene.by_role("rods")[0].color, 3).tolist() == [T.rod] * 3


def test_load_and_reaction_arrows_share_one_scale(truss):
    view = view_for(truss)
    P = view.to_pixel(truss.vertices)
    items = force_arrows(view, P, [(2, 0.0, -2.0)], [(0, 0.0, 1.0), (1, 0.5, 1.0)], T)
    loads, reactions = items
    assert (loads.role, reactions.role) == ("loads", "reactions")
    np.testing.assert_allclose(loads.tails, P[[2]])
    np.testing.assert_allclose(loads.tips - loads.tails, [[0.0, T.force_arrow_px]])  # down
    tips = reactions.tips - reactions.tails
    np.testing.assert_allclose(tips[0], [0.0, -T.force_arrow_px / 2])  # half the load, up
    np.testing.assert_allclose(np.hypot(*tips[1]), T.force_arrow_px * np.hypot(0.5, 1) / 2)
    assert loads.color == T.load and reactions.color == T.reaction


def test_tiny_arrows_keep_a_visible_length_and_bad_forces_are_skipped(truss):
    view = view_for(truss)
    P = view.to_pixel(truss.vertices)
    items = force_arrows(
        view, P, [(2, 0.0, -1.0), (9, 1.0, 0.0), (1, np.nan, 0.0)], [(0, 1e-6, 0.0)], T
    )
    assert [len(a) for a in items] == [1, 1]
    tip = items[1].tips[0] - items[1].tails[0]
    assert np.hypot(*tip) == pytest.approx(T.force_arrow_min_px)
    assert force_arrows(view, P, [(2, 0.0, 0.0)], [], T) == []


def test_scene_draws_arrows_motors_and_their_legend(truss):
    state = SceneState(
        loads=[(2, 0.0, -1.0)], reactions=[(0, 0.0, 0.5)], motors=[(0, 2, 1.0)],
        motors_running=True,
    )  # fmt: skip
    scene = build_scene(truss, view_for(truss), state)
    assert NEW_ROLES <= set(scene.roles())
    assert legend_labels(scene) == ["motor", "load on a joint", "reaction at a pin"]
    svg = scene_to_svg(scene)
    assert all(f'<g class="{role}"' in svg for role in NEW_ROLES)
    assert scene_to_image(scene).size == (400, 300)


def test_motor_mark_turns_the_way_the_motor_turns(truss):
    P = np.array([[100.0, 100.0], [160.0, 100.0]])
    ccw_arc, ccw_head = motors(P, [(0, 1, 2.0)], True, T)
    _, cw_head = motors(P, [(0, 1, -2.0)], False, T)
    # pixel y is down, so a turn that looks counter-clockwise has a negative pixel cross product
    assert ccw_arc.start[0] == pytest.approx(np.pi / 4)
    d_ccw = ccw_head.tips[0] - ccw_head.tails[0]
    d_cw = cw_head.tips[0] - cw_head.tails[0]
    centre_to_head = ccw_head.tips[0] - P[0]
    assert cross(centre_to_head, d_ccw) < 0
    assert cross(cw_head.tips[0] - P[0], d_cw) > 0
    assert (ccw_head.alpha, cw_head.alpha) == (1.0, 0.45)
    assert motors(P, [(0, 7, 1.0)], True, T) == []


@pytest.mark.parametrize("size", [5e-324, 2.2e-308, 1e-200, 1e200, 1.7e308])
def test_force_arrows_of_any_finite_size(truss, size):
    view = view_for(truss)
    P = view.to_pixel(truss.vertices)
    (loads, reactions) = force_arrows(view, P, [(2, 0.0, -size)], [(0, size, 0.0)], T)
    np.testing.assert_allclose(loads.tips - loads.tails, [[0.0, T.force_arrow_px]])
    np.testing.assert_allclose(reactions.tips - reactions.tails, [[T.force_arrow_px, 0.0]])


def test_a_reaction_vanishingly_small_beside_its_load_keeps_its_direction(truss):
    view = view_for(truss)
    P = view.to_pixel(truss.vertices)
    _, reactions = force_arrows(view, P, [(2, 0.0, 1.0)], [(0, 2.2e-308, 0.0)], T)
    np.testing.assert_allclose(
        reactions.tips - reactions.tails, [[T.force_arrow_min_px, 0.0]], atol=1e-12
    )


def test_the_key_never_covers_a_joint(truss):
    # Issue 15: the key is HTML beside the canvas, so a joint in any corner stays visible.
    view = ViewTransform(scale=10.0, width=400, height=300)
    link = Linkage([[2, -28], [38, -2], [20, -20]], rods=[(0, 1), (1, 2)], pinned=[0])
    assert view.to_pixel(link.vertices[1]).tolist() == [380.0, 20.0]  # where the key was
    scene = build_scene(link, view, SceneState(loads=[(2, 0.0, -1.0)], show_info=True))
    assert "legend" not in scene.roles() and not scene.by_role("info")
    assert [e.label for e in scene.legend if e.mark == "arrow"] == ["load on a joint"]
