"""The ways on at a singular placement (draw/branches.py): numbered arrows, dashed previews."""

import numpy as np
import pytest

from linkage_widget import Linkage
from linkage_widget.draw import DEFAULT_THEME, SceneState, ViewTransform, build_scene, scene_to_svg
from linkage_widget.draw.branches import BRANCH_ROLES, branch_handles, pick_handle
from linkage_widget.draw.primitives import Arrows, Segments, Texts, per_item
from linkage_widget.draw.raster import scene_to_image
from linkage_widget.draw.scene import ROLES

T = DEFAULT_THEME


@pytest.fixture
def flat():
    """A flat parallelogram: 0 and 3 pinned, crank tip 1, rocker tip 2."""
    return Linkage(
        [[0.0, 0.0], [1.0, 0.0], [3.0, 0.0], [2.0, 0.0]],
        rods=[(0, 1), (1, 2), (2, 3)],
        pinned=[0, 3],
    )


def closed_form_branches():
    # parallelogram: both tips move alike; antiparallelogram: rocker tip -3x the crank's
    d = np.zeros((2, 4, 2))
    d[0, 1, 1], d[0, 2, 1] = 1.0, 1.0
    d[1, 1, 1], d[1, 2, 1] = 1.0, -3.0
    return d / np.linalg.norm(d.reshape(2, -1), axis=1)[:, None, None]


def view_for(link):
    return ViewTransform.fit(link.vertices, 600, 400)


def test_four_numbered_arrows_with_previews_between_reactions_and_attractor(flat):
    view = view_for(flat)
    state = SceneState(branches=closed_form_branches(), attractor=(1.0, -1.0), hint="h")
    scene = build_scene(flat, view, state)
    roles = scene.roles()
    assert [r for r in roles if r in BRANCH_ROLES] == list(BRANCH_ROLES)
    assert roles.index("branch-labels") < roles.index("attractor")
    assert roles.index("velocities" if "velocities" in roles else "vertices") < roles.index(
        "branch-previews"
    )
    (arrows,) = scene.by_role("branches")
    (labels,) = scene.by_role("branch-labels")
    (previews,) = scene.by_role("branch-previews")
    assert isinstance(arrows, Arrows) and isinstance(labels, Texts)
    assert isinstance(previews, Segments)
    assert labels.texts == ("1", "2", "3", "4")
    P = view.to_pixel(flat.vertices)
    # line 0 moves joints 1 and 2 alike: its arrows start at joint 1 (the first that moves
    # most); line 1 moves joint 2 most: its arrows start at joint 2
    np.testing.assert_allclose(arrows.tails, P[[1, 1, 2, 2]])
    v = arrows.tips - arrows.tails
    up = np.array([0.0, -1.0])  # world +y is up the screen
    np.testing.assert_allclose(v / np.hypot(*v.T)[:, None], [up, -up, -up, up], atol=1e-12)
    np.testing.assert_allclose(np.hypot(*v.T), T.branch_arrow_px)
    # each way's preview: the three rods moved along it, dashed, in its line's colour
    assert len(previews) == 4 * flat.n_rods and previews.dash
    colors = per_item(arrows.color, 4).tolist()
    assert colors == [T.branch_colors[0]] * 2 + [T.branch_colors[1]] * 2
    svg = scene_to_svg(scene)
    assert all(f'<g class="{role}"' in svg for role in BRANCH_ROLES)


def test_the_arrows_are_in_the_picture(flat):
    view = view_for(flat)
    scene = build_scene(flat, view, SceneState(branches=closed_form_branches()))
    image = np.asarray(scene_to_image(scene, supersample=1)).astype(int)
    (arrows,) = scene.by_role("branches")
    for k, color in enumerate(per_item(arrows.color, 4)):
        rgb = np.array([int(color[i : i + 2], 16) for i in (1, 3, 5)])
        # a few pixels before the head, on the shaft
        a, b = arrows.shafts[k]
        x, y = np.round(a + 0.8 * (b - a)).astype(int)
        patch = image[y - 1 : y + 2, x - 1 : x + 2].reshape(-1, 3)
        assert np.min(np.abs(patch - rgb).sum(axis=1)) <= 30, (k, color)
    # without branches, those pixels are background (no arrow drawn)
    plain = np.asarray(scene_to_image(build_scene(flat, view, SceneState()), supersample=1))
    x, y = np.round(arrows.tips[0]).astype(int)
    assert np.all(plain[y, x] == 255)


def test_stale_or_empty_branches_draw_nothing(flat):
    view = view_for(flat)
    for branches in (None, np.zeros((0, 4, 2)), np.ones((1, 3, 2)), np.full((1, 4, 2), np.nan)):
        scene = build_scene(flat, view, SceneState(branches=branches))
        assert not set(BRANCH_ROLES) & set(scene.roles())
    assert set(BRANCH_ROLES).isdisjoint(ROLES)  # drawn only at a singular stop


def test_pick_handle_finds_the_arrow_tip_or_label_under_the_pointer(flat):
    view = view_for(flat)
    handles = branch_handles(view, flat.vertices, closed_form_branches(), T)
    assert handles is not None
    for i, tip in enumerate(handles.tips):
        assert pick_handle(handles, *(tip + 3.0), 16.0) == i
    label = handles.tips[2] + T.branch_label_gap * np.array([0.0, 1.0])  # line 1 + points down
    assert pick_handle(handles, *label, 16.0) == 2
    far = view.to_pixel(flat.vertices[0])
    assert pick_handle(handles, *far, 16.0) is None
    assert pick_handle(None, 0.0, 0.0, 16.0) is None
