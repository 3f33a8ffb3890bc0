"""Sliders drawn as a track with a block, slots as a slotted bar (draw/guide_layers.py)."""

from __future__ import annotations

import numpy as np
import pytest

from linkage_widget import Linkage
from linkage_widget.draw import DEFAULT_THEME, ViewTransform, build_scene, scene_to_svg
from linkage_widget.draw.guide_layers import GUIDE_ROLES
from linkage_widget.draw.html_page import linkage_data
from linkage_widget.draw.raster import scene_to_image
from linkage_widget.draw.scene import ROLES

T = DEFAULT_THEME
R, L = 1.0, 3.0  # crank and connecting rod


def slider_crank(theta: float = 0.5) -> Linkage:
    """Crank 0-1 about the pinned 0, rod 1-2, piston 2 on the x axis; a pin 4 in slot 0-3."""
    x = R * np.cos(theta) + np.sqrt(L**2 - (R * np.sin(theta)) ** 2)
    return Linkage(
        [[0.0, 0.0], [R * np.cos(theta), R * np.sin(theta)], [x, 0.0], [-1.0, 2.0], [-0.5, 1.0]],
        rods=[(0, 1), (1, 2), (3, 4)],
        pinned=[0],
        sliders=[(2, (x, 0.0), (1.0, 0.0))],
        slots=[(0, 3, 4)],
    )


@pytest.fixture
def view():
    return ViewTransform(40.0, 200.0, 300.0, 600, 400)


def test_the_guides_are_drawn_in_their_places_of_the_draw_order(view):
    scene = build_scene(slider_crank(), view)
    roles = scene.roles()
    assert set(GUIDE_ROLES) <= set(roles)
    order = [ROLES.index(r) for r in roles]
    assert order == sorted(order)  # tracks under the rods, the block over them, joints on top
    assert roles.index("slider-blocks") < roles.index("vertices")
    svg = scene_to_svg(scene)
    assert all(f'<g class="{role}"' in svg for role in GUIDE_ROLES)
    labels = [e.label for e in scene.legend]
    assert "slider: a joint on a fixed line" in labels
    assert "slot: a joint on the line of two others" in labels


def test_the_block_sits_at_the_piston_and_the_rails_run_along_its_line(view):
    link = slider_crank()
    scene = build_scene(link, view)
    (block,) = scene.by_role("slider-blocks")
    piston = view.to_pixel(link.vertices[2])
    assert np.allclose(block.points.mean(axis=0), piston)
    rails = scene.by_role("sliders")[0].points  # (2, 2, 2): two segments
    line_y = view.to_pixel([0.0, 0.0])[1]
    assert np.allclose(rails[:, :, 1].mean(axis=1).mean(), line_y)  # centred on y = 0
    assert np.allclose(rails[:, 0, 1], rails[:, 1, 1])  # horizontal, as the line
    gap = abs(rails[0, 0, 1] - rails[1, 0, 1]) / 2
    half_block = np.ptp(block.points[:, 1]) / 2
    assert gap > half_block  # the block fits between the rails


def test_the_track_covers_the_whole_stroke_and_stays_put_while_the_piston_moves(view):
    link = slider_crank(0.5)
    rails = build_scene(link, view).by_role("sliders")[0].points.copy()
    stroke = view.to_pixel(np.array([[L - R, 0.0], [L + R, 0.0]]))[:, 0]  # closed form
    assert rails[:, :, 0].min() <= stroke.min() and rails[:, :, 0].max() >= stroke.max()
    moved = slider_crank(2.5)  # the crank turned: the piston moves, its line does not
    link.set_positions(moved.vertices)
    scene = build_scene(link, view)
    assert np.allclose(scene.by_role("sliders")[0].points, rails, rtol=0, atol=1e-9)
    (block,) = scene.by_role("slider-blocks")
    assert np.allclose(block.points.mean(axis=0), view.to_pixel(moved.vertices[2]))


def test_the_slotted_bar_holds_the_axis_joints_and_the_pin(view):
    link = slider_crank()
    bar, cut = build_scene(link, view).by_role("slots")
    lo, hi = cut.points.min(axis=0), cut.points.max(axis=0)
    for j in (0, 3, 4):  # the bar along 0-3 (vertical here) and the pin 4 in it
        p = view.to_pixel(link.vertices[j])
        assert np.all(lo - 1e-9 <= p) and np.all(p <= hi + 1e-9)
    assert np.all(bar.points.min(axis=0) < lo) and np.all(bar.points.max(axis=0) > hi)


def test_the_picture_shows_the_track_in_pixels(view):
    """The raster (PNG) draws the hatching where the scene says: dark pixels below the line."""
    image = np.asarray(scene_to_image(build_scene(slider_crank(), view)))
    x, y = (int(round(c)) for c in view.to_pixel([1.5, 0.0]))  # on the track, between joints
    column = image[y - 12 : y + 17, x, :3].astype(int).sum(axis=1)  # the rod passes 15 px above
    dark = np.flatnonzero(column < 400) - 12  # rows below (+) and above (-) the line
    assert (dark < -5).any() and (dark > 5).any()  # a rail each side of the line
    band = image[y + 12 : y + 16, x - 10 : x + 10, :3].astype(int).sum(axis=2)
    assert (band < 500).sum() >= 4  # and the ground's hatch marks outside the lower one
    empty = image[y - 12 : y + 17, 5, :3].astype(int).sum(axis=1)  # beyond the track's end
    assert (empty < 400).sum() == 0


def test_a_linkage_without_guides_draws_none_and_the_page_data_holds_them():
    plain = Linkage([[0, 0], [1, 0]], rods=[(0, 1)])
    scene = build_scene(plain, ViewTransform.fit(plain.vertices, 300, 200))
    assert not set(GUIDE_ROLES) & set(scene.roles())
    assert "sliders" not in linkage_data(plain)
    data = linkage_data(slider_crank())
    assert data["sliders"][0][0] == 2 and data["sliders"][0][2] == [1.0, 0.0]
    assert data["slots"] == [[0, 3, 4]]
