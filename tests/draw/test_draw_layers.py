"""The layers and overlays on their own: plain inputs in, primitives out, stale input skipped."""

import numpy as np

from linkage_widget import Linkage, analyze
from linkage_widget.draw import (
    DEFAULT_THEME,
    SceneState,
    ViewTransform,
    build_scene,
    layers,
    overlay_insets,
)
from linkage_widget.draw.legend import legend_entries, legend_html
from linkage_widget.draw.primitives import Segments, Texts, per_item

T = DEFAULT_THEME
P = np.array([[10.0, 10.0], [110.0, 10.0], [60.0, 80.0]])


def test_layers_take_pixels_and_skip_stale_input():
    assert layers.rod_highlight(P, np.array([[0, 1]]), 5, T) == []
    assert layers.selection_ring(P, 3, T) == []
    assert layers.springs(P, [(0, 0), (0, 7), (1, 1)], T) == []
    assert layers.velocity_arrows(ViewTransform(), P, np.ones((1, 4, 2)), T) == []
    assert layers.velocity_arrows(ViewTransform(), P, np.full((1, 3, 2), np.nan), T) == []
    assert layers.pins(P, [-1, 3], T) == []
    assert layers.per_rod(np.ones(2), 3, float) is None
    assert layers.track_colors([2, 9, 2.5, 0], 3, T) == {2: T.track_colors[0], 0: T.track_colors[1]}


def test_vertices_layer_colours_tracked_vertices():
    (disks,) = layers.vertices(P, {2: "#123456"}, T)
    assert per_item(disks.fill, 3).tolist() == [T.vertex, T.vertex, "#123456"]
    assert all(type(c) is str for c in disks.fill)
    assert per_item(disks.radius, 3).tolist() == [T.vertex_radius] * 2 + [T.tracked_radius]
    (plain,) = layers.vertices(P, {}, T)
    assert plain.fill == T.vertex and plain.radius == T.vertex_radius


def test_rods_layer_pebble_and_stress_colourings():
    seg = P[[[0, 1], [1, 2]]]
    (pebbles,) = layers.rods(seg, None, np.array([False, True]), T)
    assert pebbles.color == (T.rod, T.redundant)
    stressed, dashed = layers.rods(seg, np.array([1.0, -2.0]), np.array([False, True]), T)
    assert stressed.color == (T.tension, T.compression)
    assert isinstance(dashed, Segments) and dashed.dash and len(dashed) == 1
    (not_finite,) = layers.rods(seg, np.array([np.inf, 1.0]), None, T)
    assert not_finite.color == T.rod


def test_nothing_covers_the_drawing_so_a_fit_uses_the_whole_canvas():
    # Issue 15: the readout, the hint and the legend left the canvas (HTML beside it).
    assert overlay_insets(5) == (0.0, 0.0) and overlay_insets(0) == (0.0, 0.0)
    link = Linkage([[0, 0], [2, 0], [1, 1]], rods=[(0, 1), (1, 2)], pinned=[0])
    state = SceneState(info_lines=["DOF 1"], hint="a hint", error="one\ntwo", show_stresses=True,
                       rod_stress=np.array([1.0, -1.0]))  # fmt: skip
    scene = build_scene(link, ViewTransform.fit(link.vertices, 400, 300), state)
    assert not [i for i in scene.items if isinstance(i, Texts)]
    assert (scene.hint, scene.error) == ("a hint", "one\ntwo")


def test_the_legend_names_every_colour_drawn_and_only_those():
    link = Linkage([[0, 0], [2, 0], [1, 1]], rods=[(0, 1), (1, 2), (2, 0)], pinned=[0])
    view = ViewTransform.fit(link.vertices, 400, 300)
    stressed = SceneState(show_stresses=True, rod_stress=np.array([1.0, -2.0, 0.0]))
    labels = [e.label for e in build_scene(link, view, stressed).legend]
    assert labels == ["rod in tension", "rod in compression", "rod without stress", "pinned joint"]
    tension_only = SceneState(show_stresses=True, rod_stress=np.array([1.0, 2.0, 3.0]))
    labels = [e.label for e in build_scene(link, view, tension_only).legend]
    assert labels == ["rod in tension", "pinned joint"]
    basis = np.zeros((2, 3, 2))
    basis[0, 1], basis[1, 2] = (0.0, 1.0), (1.0, 0.0)
    scene = build_scene(link, view, SceneState(velocity_basis=basis, selected_vertex=2))
    entries = {e.label: e for e in scene.legend}
    assert entries["velocity of way to move 1"].color == T.velocity_colors[0]
    assert entries["velocity of way to move 2"].mark == "arrow"
    assert entries["selected joint"].color == T.selected
    page = legend_html(scene.legend)
    assert page.count("<li style") == len(scene.legend) and T.velocity_colors[1] in page
    assert legend_entries([], T) == () and legend_html(()) == ""


# Issue 11: redundant_rods includes a rod between two pinned joints (rigidity.py); the
# drawing colours whatever it marks.
def test_a_rod_between_two_pinned_joints_is_drawn_redundant():
    link = Linkage([[0, 0], [2, 0], [1, 1]], rods=[(0, 1), (1, 2), (2, 0)], pinned=[0, 1])
    report = analyze(link)
    state = SceneState(show_pebbles=True, redundant_rods=report.redundant_rods)
    scene = build_scene(link, ViewTransform.fit(link.vertices, 300, 200), state)
    colors = per_item(scene.by_role("rods")[0].color, 3)
    assert colors.tolist() == [T.redundant, T.rod, T.rod]
