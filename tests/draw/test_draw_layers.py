"""The layers and overlays on their own: plain inputs in, primitives out, stale input skipped."""

import numpy as np
import pytest

from linkage_widget import Linkage, analyze
from linkage_widget.draw import (
    DEFAULT_THEME,
    SceneState,
    ViewTransform,
    build_scene,
    layers,
    overlay_insets,
)
from linkage_widget.draw.overlays import error_and_hint, info_panel, legend
from linkage_widget.draw.primitives import Rects, Segments, Texts, per_item

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


def test_overlay_insets_cover_the_info_panel_and_the_hint():
    lines = ["DOF 1", "self-stresses: 0", "rigid"]
    top, bottom = overlay_insets(len(lines))
    panel = next(i for i in info_panel(lines, T) if isinstance(i, Rects))
    _, y, _, h = panel.rects[0]
    assert y + h < top <= y + h + 8  # just below the panel
    (hint,) = error_and_hint(300, "", "a hint", T)
    assert hint.positions[0, 1] == 300 - 10.0  # its baseline; the text is above it
    assert bottom >= T.hint_size + 10.0
    assert overlay_insets(0)[0] == 0.0


def test_error_lines_sit_above_the_hint_and_the_legend_top_right():
    error_panel, error, hint = error_and_hint(400, "one\ntwo", "hint", T)
    assert isinstance(error_panel, Rects) and error.texts == ("one", "two")
    assert error.positions[:, 1].max() < hint.positions[0, 1]
    assert legend(500, False, False, T) == []
    panel, *_, texts = legend(500, True, True, T)
    x, _, w, _ = panel.rects[0]
    assert x + w == pytest.approx(500 - 10.0)
    assert isinstance(texts, Texts) and texts.texts == ("tension", "compression", "redundant")


# Issue 11: redundant_rods includes a rod between two pinned joints (rigidity.py); the
# drawing colours whatever it marks.
def test_a_rod_between_two_pinned_joints_is_drawn_redundant():
    link = Linkage([[0, 0], [2, 0], [1, 1]], rods=[(0, 1), (1, 2), (2, 0)], pinned=[0, 1])
    report = analyze(link)
    state = SceneState(show_pebbles=True, redundant_rods=report.redundant_rods)
    scene = build_scene(link, ViewTransform.fit(link.vertices, 300, 200), state)
    colors = per_item(scene.by_role("rods")[0].color, 3)
    assert colors.tolist() == [T.redundant, T.rod, T.rod]
