"""The 3-D view (issue 16): the camera, turning it by a drag, a joint pulled in the view plane.

Real sessions on H6's bundled 3-D examples; every expectation is a closed form computed
here, not read back from the code under test.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from traitlets import TraitError

from linkage_widget import Linkage
from linkage_widget.draw import Camera, ViewTransform, hit_test
from linkage_widget.draw.view3d import TRACKBALL_RADIUS, default_rotation
from linkage_widget.examples.space import octahedron
from linkage_widget.session import LinkageSession
from linkage_widget.session.space_view import ATTRACTOR_IN_SPACE, DYNAMIC_IN_SPACE, PLANAR_ONLY


def hit_keywords(s: Any) -> dict[str, Any]:
    """``hit_test``'s keywords for the session's view: the projected joints, their depths."""
    return s._viewer.hit_pixels(s.linkage.vertices, s.view)


def _ortho_pixels(R, centre, view, X):
    """Orthographic pixels by hand: (u, v) = rows 0, 1 of R (X - c), px = ox + s u, py = oy - s v"""
    c = (np.asarray(X) - centre) @ np.asarray(R).T
    return np.column_stack(
        [view.offset_x + view.scale * c[:, 0], view.offset_y - view.scale * c[:, 1]]
    )


def _rot_y(t):
    return np.array([[math.cos(t), 0, math.sin(t)], [0, 1, 0], [-math.sin(t), 0, math.cos(t)]])


def _bricard():
    return LinkageSession.load("bricard_line.txt")


def _flex(link):
    """The one flex ``(n, 3)`` of a 1-DOF linkage with pins: the rigidity matrix's kernel."""
    X, E = link.vertices, np.asarray(link.rods)
    n = len(X)
    A = np.zeros((len(E), 3 * n))
    for r, (i, j) in enumerate(E):
        A[r, 3 * i : 3 * i + 3] = X[i] - X[j]
        A[r, 3 * j : 3 * j + 3] = X[j] - X[i]
    keep = np.ones(3 * n, bool)
    for p in link.pinned:
        keep[3 * p : 3 * p + 3] = False
    _, sv, Vt = np.linalg.svd(A[:, keep])
    assert sv[-1] < 1e-9 * sv[0] and len(sv) == keep.sum()  # one flex
    f = np.zeros(3 * n)
    f[keep] = Vt[-1]
    return f.reshape(n, 3)


def _rod_errors(link, lengths):
    return np.abs(link.rod_lengths() - lengths) / lengths


# ------------------------------------------------------------------ camera
def test_camera_projects_and_unprojects_in_both_projections():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(20, 3))
    view = ViewTransform(80.0, 300.0, 200.0, 640, 480)
    for projection in ("orthographic", "perspective"):
        cam = Camera.looking_at(X, rotation=default_rotation(40, 10), projection=projection)
        P, depth = cam.to_pixel(X, view)
        back = np.array([cam.from_pixel(view, *p, w) for p, w in zip(P, depth, strict=True)])
        assert np.allclose(back, X, atol=1e-12)
    # on the centre's plane the two projections agree; in front the perspective is larger
    ortho = Camera.looking_at(X, rotation=np.eye(3))
    persp = ortho.with_projection("perspective")
    on_plane = ortho.centre + np.array([1.0, 2.0, 0.0])
    near = ortho.centre + np.array([1.0, 2.0, 0.5 * ortho.distance])
    assert np.allclose(ortho.image([on_plane])[0], persp.image([on_plane])[0])
    assert np.allclose(persp.image([near])[0], 2.0 * ortho.image([near])[0])  # D / (D - D/2)


def test_camera_refuses_bad_input_by_name():
    with pytest.raises(ValueError, match="orthonormal"):
        Camera(np.diag([1.0, 1.0, 2.0]), np.zeros(3))
    with pytest.raises(ValueError, match="determinant"):
        Camera(np.diag([1.0, 1.0, -1.0]), np.zeros(3))
    with pytest.raises(ValueError, match="centre"):
        Camera(np.eye(3), [0.0, np.nan, 0.0])
    with pytest.raises(ValueError, match="projection"):
        Camera(np.eye(3), np.zeros(3), projection="fisheye")


def test_trackball_turns_by_the_closed_form_and_stays_orthonormal():
    view = ViewTransform(50.0, 320.0, 240.0, 640, 480)
    cam = Camera(default_rotation(), np.zeros(3), 3.0)
    r = TRACKBALL_RADIUS * 480
    for delta in (10.0, 60.0, -90.0):  # through the middle, on the ball (|p| <= r / sqrt 2)
        turned = cam.rotated_by_drag(view, 320.0, 240.0, 320.0 + delta, 240.0)
        expected = _rot_y(math.asin(delta / r)) @ cam.rotation  # about the screen's up axis
        assert np.allclose(turned.rotation, expected, atol=1e-12)
    R = cam
    rng = np.random.default_rng(0)
    for x0, y0, x1, y1 in rng.uniform(0, 640, size=(500, 4)):  # off the ball too
        R = R.rotated_by_drag(view, x0, y0 * 0.75, x1, y1 * 0.75)
    assert np.allclose(R.rotation @ R.rotation.T, np.eye(3), atol=1e-13)
    assert np.linalg.det(R.rotation) == pytest.approx(1.0, abs=1e-13)


# ----------------------------------------------------------------- session
def test_background_drag_turns_the_camera_and_the_projection_follows():
    s = _bricard()
    assert s.linkage.dim == 3 and s.projection == "orthographic"
    cam0 = s.camera
    X = s.linkage.vertices.copy()
    before = s.joint_pixels()[0]
    assert np.allclose(before, _ortho_pixels(cam0.rotation, cam0.centre, s.view, X))
    cx, cy = s.view.to_pixel([0.0, 0.0])  # the trackball's centre: the camera's centre
    assert hit_test(s.linkage, s.view, cx, cy - 200, **hit_keywords(s)) is None
    s.press(cx, cy - 200)
    s.drag(cx + 10, cy - 200)  # past the drag threshold (4 px)
    s.drag(cx + 40, cy - 200)
    s.release()
    cam = s.camera
    R = cam.rotation
    assert np.allclose(R @ R.T, np.eye(3), atol=1e-13) and np.linalg.det(R) > 0
    assert not np.allclose(R, cam0.rotation)
    # Each drag step: Bell's ball from the previous pointer to the new, S R (closed form)
    ball_r = TRACKBALL_RADIUS * min(s.view.width, s.view.height)

    def ball(x, y):
        a, b = (x - cx) / ball_r, (cy - y) / ball_r
        d2 = a * a + b * b
        p = np.array([a, b, math.sqrt(1 - d2) if d2 <= 0.5 else 0.5 / math.sqrt(d2)])
        return p / np.linalg.norm(p)

    expected = cam0.rotation
    for (x0, y0), (x1, y1) in [
        ((cx, cy - 200), (cx + 10, cy - 200)),
        ((cx + 10, cy - 200), (cx + 40, cy - 200)),
    ]:
        p0, p1 = ball(x0, y0), ball(x1, y1)
        k = np.cross(p0, p1)
        angle = math.atan2(np.linalg.norm(k), p0 @ p1)
        k = k / np.linalg.norm(k)
        K = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
        expected = (np.eye(3) + math.sin(angle) * K + (1 - math.cos(angle)) * K @ K) @ expected
    assert np.allclose(R, expected, atol=1e-12)
    after = s.joint_pixels()[0]
    assert np.allclose(after, _ortho_pixels(R, cam0.centre, s.view, X), atol=1e-9)
    assert np.abs(after - before).max() > 5.0  # the picture turned
    assert np.array_equal(s.linkage.vertices, X)  # the mechanism did not move
    drawn = s.scene().by_role("vertices")[0].centers  # painter-sorted: compare as sets
    assert np.allclose(np.sort(drawn, axis=0), np.sort(after, axis=0))


def test_shift_drag_on_the_background_pans_in_space_and_a_plain_drag_pans_in_the_plane():
    s = _bricard()
    R0, view0 = s.camera.rotation.copy(), s.view
    s.press(20, 20, shift=True)
    s.drag(60, 50)
    s.release()
    assert np.array_equal(s.camera.rotation, R0)
    assert (s.view.offset_x - view0.offset_x, s.view.offset_y - view0.offset_y) == (40.0, 30.0)
    flat = LinkageSession.load("four_bar.txt")
    assert flat.camera is None
    v0 = flat.view
    flat.press(5, 5)
    flat.drag(45, 35)
    flat.release()
    assert (flat.view.offset_x - v0.offset_x, flat.view.offset_y - v0.offset_y) == (40.0, 30.0)


def test_wheel_zooms_the_image_plane():
    s = _bricard()
    scale = s.view.scale
    s.wheel(320, 240, -100.0)
    assert s.view.scale > scale
    R = s.camera.rotation
    assert np.allclose(
        s.joint_pixels()[0], _ortho_pixels(R, s.camera.centre, s.view, s.linkage.vertices)
    )


def test_a_joint_drag_moves_it_in_the_view_plane_and_keeps_every_rod():
    s = _bricard()
    link = s.linkage
    lengths = link.rod_lengths().copy()
    free = [v for v in range(link.n_vertices) if not link.is_pinned(v)]
    P, depth = s.joint_pixels()
    v = max(free, key=lambda i: depth[i])  # the front free joint: nothing covers it
    assert hit_test(link, s.view, *P[v], **hit_keywords(s)) == (
        "vertex",
        v,
    )
    start, w0 = link.vertices[v].copy(), depth[v]
    x0, y0 = P[v]
    flex = _flex(link)  # pull along the flex as seen on the screen: the way it can go
    seen = s.camera.project_vectors(link.vertices, flex)[v] * [1.0, -1.0]  # pixel y down
    s.press(x0, y0)
    goal = np.array([x0, y0]) + 60.0 * seen / np.linalg.norm(seen)
    for k in range(1, 21):
        s.drag(*(np.array([x0, y0]) + (goal - [x0, y0]) * min(k / 10, 1.0)))
        s.advance(1)
        # the pulled target: the pointer on the plane w = w0 through the joint
        target = np.array(s._pointer.goal)
        assert s.camera.depth(target) == pytest.approx(w0, abs=1e-9)
    s.release()
    assert _rod_errors(link, lengths).max() < 1e-10
    moved = np.linalg.norm(link.vertices[v] - start)
    assert moved > 0.05 * lengths.max()  # it travelled (Bricard's octahedron flexes)
    now = s.joint_pixels()[0][v]
    assert np.linalg.norm(now - goal) < np.linalg.norm([x0, y0] - goal)  # toward the pointer
    for p in link.pinned:
        assert np.array_equal(link.vertices[p], s.linkage.vertices[p])


def test_the_drag_target_is_the_pointer_on_the_joints_plane():
    s = _bricard()
    s.projection = "perspective"
    P, depth = s.joint_pixels()
    v = int(np.argmax(depth))
    s.press(*P[v])
    s.drag(P[v][0] + 30, P[v][1] + 10)
    target = np.asarray(s._pointer.goal)
    pixel, w = s.camera.to_pixel([target], s.view)
    assert np.allclose(pixel[0], [P[v][0] + 30, P[v][1] + 10], atol=1e-9)
    assert w[0] == pytest.approx(depth[v], abs=1e-12)
    s.release()


def test_a_rigid_octahedron_does_not_move_under_a_pull():
    link = octahedron()
    for i in range(3):  # a triangle of it held: the rest is rigid (Cauchy)
        link.pin(i)
    s = LinkageSession(link)
    lengths = s.linkage.rod_lengths().copy()
    X = s.linkage.vertices.copy()
    P, depth = s.joint_pixels()
    v = 3
    s.press(*P[v])
    for k in range(1, 8):
        s.drag(P[v][0] + 8 * k, P[v][1])
        s.advance(1)
    s.release()
    assert _rod_errors(s.linkage, lengths).max() < 1e-10
    assert np.abs(s.linkage.vertices - X).max() < 1e-8 * lengths.max()


def test_painters_order_and_depth_cues():
    s = _bricard()
    scene = s.scene()
    rods = scene.by_role("rods")[0]
    X = s.linkage.vertices
    ends = np.asarray(s.linkage.rods)
    mid_depth = s.camera.rotation[2] @ ((X[ends].mean(axis=1)) - s.camera.centre).T
    order = np.argsort(mid_depth, kind="stable")  # far first
    pix = s.joint_pixels()[0]
    assert np.allclose(rods.points, pix[ends[order]])
    widths = np.asarray(rods.width)
    assert np.all(np.diff(widths) >= 0) and widths[-1] > 1.5 * widths[0]  # nearer thicker
    lum = [sum(int(c[i : i + 2], 16) for i in (1, 3, 5)) for c in rods.color]
    assert np.all(np.diff(lum) <= 0) and lum[-1] < lum[0]  # ... and darker
    joints = scene.by_role("vertices")[0]
    depth = s.joint_pixels()[1]
    assert np.allclose(joints.centers, pix[np.argsort(depth, kind="stable")])
    assert np.all(np.diff(np.asarray(joints.radius)) >= 0)


def test_the_front_joint_wins_the_hit():
    link = octahedron()
    s = LinkageSession(link)
    s.camera = Camera(np.eye(3), s.camera.centre, s.camera.distance)  # looking down z
    X = s.linkage.vertices
    P, depth = s.joint_pixels()
    pairs = [(i, j) for i in range(6) for j in range(i + 1, 6) if np.allclose(P[i], P[j])]
    assert pairs, "opposite vertices of the octahedron line up along the view"
    i, j = pairs[0]
    front = i if depth[i] > depth[j] else j
    assert hit_keywords(s) and hit_test(s.linkage, s.view, *P[i], **hit_keywords(s)) == (
        "vertex",
        front,
    )
    assert X.shape == (6, 3)


def test_velocity_arrows_are_the_projected_flex():
    s = _bricard()
    s.show_velocities = True
    arrows = s.scene().by_role("velocities")
    assert arrows, "Bricard's octahedron has a flex: its arrows are drawn"
    start = np.vstack([a.shafts[:, 0] for a in arrows])
    joints = s.joint_pixels()[0]
    # every arrow starts on a (projected) joint
    d = np.linalg.norm(start[:, None, :] - joints[None], axis=2).min(axis=1)
    assert d.max() < 1e-6


def test_dynamic_mode_is_allowed_in_space_and_the_attractor_refused_with_a_reason():
    s = _bricard()
    assert s.mode_refusal() == ""
    s.mode = "dynamic"
    assert s.mode == "dynamic" and s.error == ""
    assert s.scene().hint.startswith("dynamic mode: in space gravity points along -z")
    assert "-z" in DYNAMIC_IN_SPACE
    s.key("k")
    assert s.mode == "kinematic"
    s.key("k")
    assert s.mode == "dynamic"
    s.press(30, 30, button=2)
    s.release(30, 30)
    assert s.attractor is None and s.error == ATTRACTOR_IN_SPACE
    flat = LinkageSession.load("four_bar.txt")
    assert flat.mode_refusal() == ""
    flat.mode = "dynamic"
    assert flat.mode == "dynamic"


def test_projection_trait():
    s = _bricard()
    with pytest.raises(TraitError, match="projection"):
        s.projection = "fisheye"
    R = s.camera.rotation.copy()
    s.projection = "perspective"
    assert s.camera.projection == "perspective" and np.array_equal(s.camera.rotation, R)
    persp = s.joint_pixels()[0]
    s.projection = "orthographic"
    assert not np.allclose(persp, s.joint_pixels()[0])


def test_tracks_and_exports_in_space(tmp_path):
    s = _bricard()
    free = [v for v in range(s.linkage.n_vertices) if not s.linkage.is_pinned(v)]
    s.tracked = (free[0],)
    s.recording = True
    P = s.joint_pixels()[0]
    v = free[-1]
    seen = s.camera.project_vectors(s.linkage.vertices, _flex(s.linkage))[v] * [1.0, -1.0]
    seen /= np.linalg.norm(seen)
    s.press(*P[v])
    for k in range(1, 10):
        s.drag(*(P[v] + 8 * k * seen))
        s.advance(1)
    s.release()
    s.advance(1)
    s.recording = False
    track = s.scene().by_role("tracks")
    assert track and len(track[0].points) >= 3
    svg = s.to_svg()
    assert svg.count("<line") + svg.count("<path") >= 12
    png = s.to_png(tmp_path / "space.png")
    assert png.stat().st_size > 1000
    gif = s.save_gif(tmp_path / "space.gif")
    assert gif.read_bytes()[:6] == b"GIF89a"


def test_planar_scene_has_no_camera_and_unchanged_pixels():
    flat = LinkageSession.load("peaucellier.txt")
    assert flat.camera is None
    P = flat.view.to_pixel(flat.linkage.vertices)
    assert np.array_equal(flat.joint_pixels()[0], P)
    drawn = flat.scene().by_role("vertices")[0].centers
    assert np.array_equal(drawn, P)  # index order: no depth sort in the plane
    link = Linkage([[0, 0], [1, 0]], rods=[(0, 1)])
    view = ViewTransform(10.0, 0.0, 100.0, 300, 200)
    assert hit_test(link, view, 1.0, 99.0) == ("vertex", 0)


@pytest.mark.parametrize("projection", ["orthographic", "perspective"])
def test_a_fit_keeps_every_turn_in_view(projection):
    s = _bricard()
    s.projection = projection
    s.fit()
    rng = np.random.default_rng(7)
    for x0, y0, x1, y1 in rng.uniform(0, 480, size=(40, 4)):
        s.camera = s.camera.rotated_by_drag(s.view, x0, y0, x1, y1)
        P = s.joint_pixels()[0]
        assert np.all((P >= 0) & (P <= [s.view.width, s.view.height]))


def test_key_e_switches_the_projection_of_a_3d_linkage_only():
    s = _bricard()
    s.key("e")
    assert s.projection == "perspective" and s.camera.projection == "perspective"
    s.key("e")
    assert s.projection == "orthographic"
    flat = LinkageSession.load("four_bar.txt")
    flat.key("e")
    assert flat.projection == "orthographic" and flat.camera is None


@pytest.mark.parametrize("tool", ["motor", "load"])
def test_planar_tools_are_refused_in_space_and_change_nothing(tool):
    s = _bricard()
    before = s.document.snapshot()
    P = s.joint_pixels()[0]
    s.tool = tool
    mid = P[1]
    if tool == "motor":  # on a rod with a free end
        ends = np.asarray(s.linkage.rods)
        r = next(
            k
            for k, (i, j) in enumerate(ends)
            if not (s.linkage.is_pinned(i) and s.linkage.is_pinned(j))
        )
        mid = P[ends[r]].mean(axis=0)
    s.press(*mid)
    s.release(*mid)
    s.advance(2)
    assert s.error == PLANAR_ONLY.format(what=f"{tool}s"), s.error
    assert s.document.snapshot() == before
    s.to_svg()  # and the drawing goes on
    s.key("o")
    assert "planar" in s.error


def test_a_load_dragged_on_a_3d_linkage_is_refused_with_a_message():
    s = _bricard()
    before, view = s.document.snapshot(), s.view
    s.tool = "load"
    P = s.joint_pixels()[0]
    s.press(*P[1])
    for k in range(1, 6):  # was: ValueError out of drag()
        s.drag(P[1][0] + 12 * k, P[1][1] + 8 * k)
    assert s.error == PLANAR_ONLY.format(what="loads")
    s.release()
    s.advance(2)
    assert s.error == PLANAR_ONLY.format(what="loads")
    assert s.document.snapshot() == before and s.view == view
    s.to_svg()


def test_a_3d_file_loaded_in_dynamic_mode_stays_in_dynamic_mode():
    s = LinkageSession.load("four_bar.txt", mode="dynamic")
    s.running = True
    s.load_file("bricard_line.txt")
    s.advance(2)
    assert s.mode == "dynamic" and s.linkage.dim == 3 and s.error == ""
    s.undo()  # back to the planar four-bar, still dynamic
    s.advance(2)
    assert s.mode == "dynamic" and s.linkage.dim == 2 and s.error == ""


def test_the_idle_hint_of_a_3d_linkage_says_how_to_turn_it():
    from linkage_widget.session.tools import SPACE_HINT

    s = _bricard()
    shown = s.scene().hint  # as much as fits the canvas (fit_hint drops trailing parts)
    assert SPACE_HINT.startswith(shown) and shown.startswith("drag empty space: turn")
    assert LinkageSession.load("four_bar.txt").scene().hint.startswith("click: add/select")


def test_one_finger_turns_and_two_fingers_pinch_zoom_in_space():
    s = _bricard()
    R0, scale = s.camera.rotation.copy(), s.view.scale
    cx, cy = (float(c) for c in s.view.to_pixel([0.0, 0.0]))
    s.touch("start", [(cx, 30.0)])
    for k in range(1, 6):
        s.touch("move", [(cx + 12.0 * k, 30.0)])
    s.touch("end", [])
    assert not np.allclose(s.camera.rotation, R0)  # a finger on the background turns
    R1 = s.camera.rotation.copy()
    s.touch("start", [(200.0, 200.0)])
    s.touch("start", [(200.0, 200.0), (300.0, 200.0)])
    s.touch("move", [(180.0, 200.0), (320.0, 200.0)])
    s.touch("end", [])
    assert s.view.scale == pytest.approx(1.4 * scale)  # pinch: 140 px apart from 100
    assert np.array_equal(s.camera.rotation, R1)  # ... and no turn
