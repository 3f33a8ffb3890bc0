"""A 3-D linkage's scene (issue 16): every world-space input through the camera, depth cues."""

from __future__ import annotations

import numpy as np

from linkage_widget import Linkage
from linkage_widget.draw import Camera, SceneState, ViewTransform, build_scene, scene_to_svg
from linkage_widget.draw.space_scene import depth_share, mix
from linkage_widget.draw.view3d import default_rotation

TETRA = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
RODS = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]


def _hand(cam, view, X):
    """Orthographic pixels by hand."""
    c = (np.asarray(X, float) - cam.centre) @ cam.rotation.T
    return np.column_stack(
        [view.offset_x + view.scale * c[:, 0], view.offset_y - view.scale * c[:, 1]]
    )


def test_every_world_input_is_projected_and_planar_ones_dropped():
    link = Linkage(TETRA, rods=RODS, pinned=[0])
    cam = Camera.looking_at(TETRA, rotation=default_rotation(20, 30))
    view = ViewTransform(100.0, 200.0, 200.0, 400, 400)
    basis = np.zeros((1, 4, 3))
    basis[0, 3] = [0.0, 0.0, 1.0]
    track = np.array([[0.0, 0.0, 1.0], [0.1, 0.0, 1.0], [0.2, 0.1, 0.9]])
    state = SceneState(
        camera=cam,
        tracked=(3,),
        tracks={3: track},
        velocity_basis=basis,
        attractor=(0.5, 0.5, 0.5),
        loads=((1, 0.0, -1.0),),
    )
    scene = build_scene(link, view, state)
    P = _hand(cam, view, TETRA)
    assert np.allclose(np.sort(scene.by_role("vertices")[0].centers, axis=0), np.sort(P, axis=0))
    assert np.allclose(scene.by_role("tracks")[0].points, _hand(cam, view, track))
    arrow = scene.by_role("velocities")[0]
    assert np.allclose(arrow.shafts[0, 0], P[3])
    seen = (cam.rotation @ [0.0, 0.0, 1.0])[:2] * [1.0, -1.0]  # the flex as seen (y down)
    shaft = arrow.shafts[0, 1] - arrow.shafts[0, 0]
    assert abs(shaft @ seen) / (np.linalg.norm(shaft) * np.linalg.norm(seen)) > 0.999
    cross = scene.by_role("attractor")
    assert cross and "loads" not in scene.roles()
    assert len(scene.by_role("rods")[0]) == 6
    assert scene_to_svg(scene).count("<") > 20


def test_without_a_camera_the_default_one_is_used():
    link = Linkage(TETRA, rods=RODS)
    view = ViewTransform(100.0, 200.0, 200.0, 400, 400)
    cam = Camera.looking_at(TETRA)
    a = build_scene(link, view).by_role("rods")[0].points
    b = build_scene(link, view, SceneState(camera=cam)).by_role("rods")[0].points
    assert np.array_equal(a, b)


def test_depth_helpers():
    assert depth_share(np.array([3.0, 3.0])).tolist() == [1.0, 1.0]
    assert mix("#000000", "#ffffff", np.array([0.0, 0.5, 1.0])) == ("#000000", "#808080", "#ffffff")


def test_a_planar_scene_keeps_index_order_and_widths():
    link = Linkage([[0, 0], [2, 0], [1, 1]], rods=[(0, 1), (1, 2), (2, 0)])
    view = ViewTransform.fit(link.vertices, 300, 200)
    rods = build_scene(link, view).by_role("rods")[0]
    assert np.array_equal(
        rods.points, view.to_pixel(link.vertices)[np.array([(0, 1), (1, 2), (2, 0)])]
    )
    assert np.ndim(rods.width) == 0  # one width, as before issue 16
