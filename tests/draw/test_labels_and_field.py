"""Joint labels beside their joints, the velocity field thinned on dense linkages, hi-DPI sizes."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from linkage_widget import Linkage
from linkage_widget.draw import (
    DEFAULT_THEME,
    SceneState,
    ViewTransform,
    build_scene,
    layers,
    scene_to_image,
    scene_to_svg,
)
from linkage_widget.draw.labels import CANDIDATES, joint_labels, label_texts
from linkage_widget.draw.view import backing_size, css_from_device, device_matrix

T = DEFAULT_THEME


def _off_rod(P, rod_ends, pos):
    """Distance of each label centre from the nearest rod (pixels)."""
    a, b = P[rod_ends[:, 0]], P[rod_ends[:, 1]]
    d = b - a
    rel = pos[:, None, :] - a[None]  # (labels, rods, 2)
    t = np.clip((rel * d[None]).sum(axis=2) / (d * d).sum(axis=1), 0, 1)
    near = a[None] + t[..., None] * d[None]
    return np.linalg.norm(pos[:, None, :] - near, axis=2).min(axis=1)


def test_labels_name_joints_from_names_else_indices():
    assert label_texts(4, ("O", "Q")) == ("O", "Q", "2", "3")
    assert label_texts(2, ("A", "B", "C")) == ("A", "B")


def test_a_label_sits_beside_its_joint_and_away_from_every_rod_at_it():
    link = Linkage.load("peaucellier.txt")
    view = ViewTransform.fit(link.vertices, 640, 480)
    P = view.to_pixel(link.vertices)
    rods = np.asarray(link.rods)
    (item,) = joint_labels(P, rods, ("O", "Q", "A", "B", "D", "C"), T, link.pinned)
    assert item.texts == ("O", "Q", "A", "B", "D", "C") and item.halo == T.label_halo
    reach = np.linalg.norm(item.positions - P, axis=1)
    assert np.all(reach > T.vertex_radius + T.label_gap)  # clear of the joint disk
    assert np.all(reach < 3 * T.label_size)  # but beside it
    # the centre of every label is clear of every rod by more than half a glyph
    assert np.all(_off_rod(P, rods, item.positions) > 0.5 * T.label_size)
    # a pinned joint's label is not under it (where the support triangle hangs)
    for v in link.pinned:
        assert item.positions[v, 1] <= P[v, 1] + 1e-9


def test_a_free_joint_gets_the_up_right_place_and_a_rod_up_right_pushes_it_away():
    P = np.array([[100.0, 100.0]])
    (alone,) = joint_labels(P, np.zeros((0, 2), int), (), T)
    d = alone.positions[0] - P[0]
    assert d[0] > 0 and d[1] < 0  # up and to the right (pixel y down)
    P2 = np.array([[100.0, 100.0], [150.0, 50.0]])  # a rod up-right
    (two,) = joint_labels(P2, np.array([[0, 1]]), (), T)
    u = (two.positions[0] - P2[0]) / np.linalg.norm(two.positions[0] - P2[0])
    assert u @ np.array([1.0, -1.0]) / np.sqrt(2) < -0.9  # the opposite way: down-left
    assert len(CANDIDATES) == 8


def test_labels_appear_in_svg_and_png_only_when_asked():
    link = Linkage.load("four_bar.txt")
    view = ViewTransform.fit(link.vertices, 320, 240)
    plain = build_scene(link, view, SceneState())
    labelled = build_scene(link, view, SceneState(show_labels=True, joint_names=["A"]))
    assert "labels" not in plain.roles()
    svg = scene_to_svg(labelled)
    assert '<g class="labels"' in svg and ">A</text>" in svg and ">1</text>" in svg
    a = np.asarray(scene_to_image(plain), dtype=int)
    b = np.asarray(scene_to_image(labelled), dtype=int)
    assert (np.abs(a - b).sum(axis=2) > 200).sum() > 50  # black glyphs where there were none


def _grid(k):
    xs, ys = np.meshgrid(np.arange(k, dtype=float), np.arange(k, dtype=float))
    return np.column_stack([xs.ravel(), ys.ravel()])


def test_the_velocity_field_is_thinned_on_a_dense_linkage_to_one_arrow_per_cell():
    P = _grid(20) * 10.0 + 20.0  # 400 joints 10 px apart
    view = ViewTransform(scale=1.0)
    basis = np.zeros((1, 400, 2))
    basis[0, :, 0] = np.linspace(1.0, 2.0, 400)  # every joint moves, later ones faster
    (arrows,) = layers.velocity_arrows(view, P, basis, T)
    s = T.velocity_spacing_px
    cells = np.floor(arrows.tails / s).astype(int)
    assert len({tuple(c) for c in cells}) == len(arrows)  # one per cell
    assert len(arrows) == len({tuple(c) for c in np.floor(P / s).astype(int)})
    # each kept tail is the fastest joint of its cell
    speeds = dict(zip(map(tuple, P.tolist()), basis[0, :, 0], strict=True))
    for tail, cell in zip(arrows.tails.tolist(), cells.tolist(), strict=True):
        same = [p for p in speeds if tuple(np.floor(np.array(p) / s).astype(int)) == tuple(cell)]
        assert speeds[tuple(tail)] == max(speeds[p] for p in same)


def test_a_small_linkage_keeps_every_arrow():
    P = _grid(3) * 10.0  # 9 joints, close together but few
    basis = np.ones((1, 9, 2))
    (arrows,) = layers.velocity_arrows(ViewTransform(scale=1.0), P, basis, T)
    assert len(arrows) == 9


def test_at_most_max_velocity_ways_colours_are_drawn():
    P = _grid(3) * 80.0
    basis = np.random.default_rng(1).normal(size=(7, 9, 2))
    (arrows,) = layers.velocity_arrows(ViewTransform(scale=1.0), P, basis, T)
    assert set(arrows.color) == set(T.velocity_colors[: T.max_velocity_ways])
    wide = dataclasses.replace(T, max_velocity_ways=5)
    (arrows,) = layers.velocity_arrows(ViewTransform(scale=1.0), P, basis, wide)
    assert len(set(arrows.color)) == 5


@pytest.mark.parametrize("ratio", [1.0, 1.5, 2.0])
def test_device_pixels_round_trip(ratio):
    w, h = backing_size(640, 480, ratio)
    assert (w, h) == (round(640 * ratio), round(480 * ratio))
    a, b, c, d, e, f = device_matrix(ratio)
    x, y = a * 123.25 + c * 45.5 + e, b * 123.25 + d * 45.5 + f  # draw a CSS point
    assert css_from_device(x, y, ratio) == pytest.approx((123.25, 45.5))  # and read it back


def test_png_at_the_pixel_ratio_is_the_same_picture_sharper():
    link = Linkage.load("peaucellier.txt")
    view = ViewTransform.fit(link.vertices, 200, 150)
    one = scene_to_image(build_scene(link, view, SceneState()))
    two = scene_to_image(build_scene(link, view, SceneState()), pixel_ratio=2.0)
    assert one.size == (200, 150) and two.size == (400, 300)
    # box-reduced to the CSS size, the 2x picture matches the 1x one closely
    small = np.asarray(two.reduce(2), dtype=float)
    assert np.abs(small - np.asarray(one, dtype=float)).mean() < 6.0
    with pytest.raises(ValueError, match="pixel_ratio"):
        scene_to_image(build_scene(link, view), pixel_ratio=0.0)


def test_a_dense_linkage_shows_one_way_to_move_and_the_legend_says_so():
    k = 7  # 49 joints, more than velocity_thin_above
    xy = _grid(k)
    rods = [(i * k + j, i * k + j + 1) for i in range(k) for j in range(k - 1)]
    link = Linkage(xy, rods=rods, pinned=[0])
    basis = np.random.default_rng(2).normal(size=(3, k * k, 2))
    basis[:, 0] = 0.0  # the pin does not move
    view = ViewTransform.fit(link.vertices, 640, 480)
    scene = build_scene(link, view, SceneState(velocity_basis=basis))
    (arrows,) = scene.by_role("velocities")
    assert set(arrows.color) == {T.velocity_colors[0]}
    labels = [e.label for e in scene.legend]
    assert "velocity of way to move 1" in labels and "(arrows of 1 of 3 ways shown)" in labels
