"""build_scene and hit_test: assertions on the primitive stream (pixel coordinates, styles)."""

import dataclasses
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from linkage_widget import Linkage
from linkage_widget.draw import (
    DEFAULT_THEME,
    Scene,
    SceneState,
    ViewTransform,
    build_scene,
    hit_test,
)
from linkage_widget.draw.guide_layers import GUIDE_ROLES
from linkage_widget.draw.member_layers import MEMBER_ROLES
from linkage_widget.draw.primitives import (
    Arcs,
    Arrows,
    Disks,
    Polygons,
    Polylines,
    Rects,
    Segments,
    Texts,
    per_item,
)
from linkage_widget.draw.scene import ROLES

T = DEFAULT_THEME


@pytest.fixture
def peaucellier():
    return Linkage.load("peaucellier.txt")


@pytest.fixture
def triangle():
    """A triangle with a fixed angle at vertex 0 and vertex 1 pinned."""
    return Linkage(
        [[0.0, 0.0], [4.0, 0.0], [1.0, 3.0]],
        rods=[(0, 1), (1, 2), (2, 0)],
        angles=[(0, 1, 2)],
        pinned=[1],
    )


def view_for(link, w=600, h=400):
    return ViewTransform.fit(link.vertices, w, h)


def only(scene, role, cls=None):
    items = scene.by_role(role)
    assert len(items) == 1, (role, scene.roles())
    if cls is not None:
        assert isinstance(items[0], cls)
    return items[0]


# ------------------------------------------------------------------- rods
def test_one_segment_per_rod_at_the_right_pixels(peaucellier):
    view = view_for(peaucellier)
    scene = build_scene(peaucellier, view, SceneState())
    rods = only(scene, "rods", Segments)
    assert rods.points.shape == (peaucellier.n_rods, 2, 2)
    expected = view.to_pixel(peaucellier.vertices[peaucellier.rods])
    np.testing.assert_allclose(rods.points, expected)
    assert rods.color == T.rod and rods.width == T.rod_width
    assert (scene.width, scene.height, scene.background) == (600, 400, T.background)


def test_draw_order_follows_roles(peaucellier):
    state = SceneState(
        selected_vertex=2,
        selected_rod=1,
        attractor=(10.0, 10.0),
        attracted_vertex=5,
        tracked=[5],
        tracks={5: np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 1.0]])},
        velocity_basis=np.ones((1, 6, 2)) / np.sqrt(12),
        show_stresses=True,
        rod_stress=np.linspace(-1, 1, 7),
        show_pebbles=True,
        redundant_rods=np.arange(7) == 3,
        springs=[(0, 5)],
        loads=[(3, 0.0, -1.0)],
        reactions=[(0, 0.0, 1.0)],
        motors=[(0, 1, 1.0)],
        info_lines=["DOF 1"],
        hint="hint",
        error="oops",
        synthesis_curves=[np.array([[0.0, 1.0], [1.0, 2.0], [2.0, 2.0]])],
    )
    scene = build_scene(peaucellier, view_for(peaucellier), state)
    order = [ROLES.index(r) for r in scene.roles()]
    assert order == sorted(order)
    # peaucellier has no fixed angle; labels only with show_labels
    # nor a slider or a slot (tests/draw/test_draw_guides.py)
    # nor cables, struts or ghosts (tests/draw/test_member_layers.py)
    others = {"angles", "labels", *GUIDE_ROLES, *MEMBER_ROLES}
    assert set(scene.roles()) == set(ROLES) - others
    state.show_labels = True
    assert build_scene(peaucellier, view_for(peaucellier), state).roles()[-1] == "labels"


def test_stress_colouring_sign_and_size(peaucellier):
    stress = np.array([2.0, -1.0, 0.0, 0.5, -2.0, 1e-12, 1.0])
    scene = build_scene(
        peaucellier, view_for(peaucellier), SceneState(show_stresses=True, rod_stress=stress)
    )
    rods = only(scene, "rods", Segments)
    colors = per_item(rods.color, 7)
    width = per_item(rods.width, 7)
    alpha = per_item(rods.alpha, 7)
    assert colors[0] == colors[6] == colors[3] == T.tension
    assert colors[1] == colors[4] == T.compression
    assert colors[2] == colors[5] == T.unstressed  # zero and numerically zero
    assert width[0] == width[4] > width[6] > width[3] > width[2]
    assert alpha[0] == 1.0 and alpha[3] < alpha[6] < 1.0
    rows = [(e.color, e.label) for e in scene.legend if e.label.startswith("rod")]
    assert rows == [
        (T.tension, "rod in tension"),
        (T.compression, "rod in compression"),
        (T.unstressed, "rod without stress"),
    ]


def test_stress_hidden_or_stale_is_ignored(peaucellier):
    view = view_for(peaucellier)
    off = build_scene(peaucellier, view, SceneState(show_stresses=False, rod_stress=np.ones(7)))
    stale = build_scene(peaucellier, view, SceneState(show_stresses=True, rod_stress=np.ones(3)))
    for scene in (off, stale):
        assert only(scene, "rods").color == T.rod
        assert [e.label for e in scene.legend if e.label.startswith("rod")] == ["rod"]


def test_pebble_colouring(peaucellier):
    red = np.zeros(7, dtype=bool)
    red[[2, 5]] = True
    scene = build_scene(
        peaucellier, view_for(peaucellier), SceneState(show_pebbles=True, redundant_rods=red)
    )
    colors = per_item(only(scene, "rods").color, 7)
    assert [i for i, c in enumerate(colors) if c == T.redundant] == [2, 5]
    assert set(colors[~red]) == {T.rod}
    assert [e.label for e in scene.legend][:2] == ["rod", "redundant rod"]
    # with stresses on too, the redundant rods get a dashed overlay instead
    scene = build_scene(
        peaucellier,
        view_for(peaucellier),
        SceneState(
            show_pebbles=True, redundant_rods=red, show_stresses=True, rod_stress=np.ones(7)
        ),
    )
    overlay = only(scene, "rods-redundant", Segments)
    assert len(overlay) == 2 and overlay.dash
    np.testing.assert_allclose(overlay.points, only(scene, "rods").points[red])


def test_selected_rod_highlight_is_under_the_rod(peaucellier):
    scene = build_scene(peaucellier, view_for(peaucellier), SceneState(selected_rod=3))
    hl = only(scene, "rod-highlight", Segments)
    np.testing.assert_allclose(hl.points[0], only(scene, "rods").points[3])
    assert hl.width > T.rod_width
    assert scene.roles().index("rod-highlight") < scene.roles().index("rods")


# --------------------------------------------------------------- vertices
def test_vertices_pins_and_pinned_style(triangle):
    view = view_for(triangle)
    scene = build_scene(triangle, view, SceneState())
    verts = only(scene, "vertices", Disks)
    np.testing.assert_allclose(verts.centers, view.to_pixel(triangle.vertices))
    assert verts.fill == T.vertex and verts.stroke == T.vertex_outline
    pins = scene.by_role("pins")
    tri = next(p for p in pins if isinstance(p, Polygons))
    assert tri.counts.tolist() == [3]
    apex = view.to_pixel(triangle.vertices[1])
    np.testing.assert_allclose(tri.points[0], apex)  # support triangle hangs from the vertex
    assert np.all(tri.points[1:, 1] > apex[1])  # … and opens downwards on screen
    assert any(isinstance(p, Segments) for p in pins)  # ground line
    assert scene.roles().index("pins") < scene.roles().index("vertices")


def test_hidden_vertices_keep_pins(triangle):
    scene = build_scene(triangle, view_for(triangle), SceneState(show_vertices=False))
    assert not scene.by_role("vertices")
    assert scene.by_role("pins")


def test_tracked_vertices_and_tracks(peaucellier):
    view = view_for(peaucellier)
    track5 = np.array([[128.0, 128.0], [130.0, 126.0], [132.0, 124.0]])
    track3 = np.array([[30.0, 197.0], [31.0, 196.0]])
    state = SceneState(tracked=[5, 3], tracks={5: track5, 3: track3, 4: np.zeros((1, 2))})
    scene = build_scene(peaucellier, view, state)
    verts = only(scene, "vertices", Disks)
    fill = per_item(verts.fill, 6)
    radius = per_item(verts.radius, 6)
    assert fill[5] == T.track_colors[0] and fill[3] == T.track_colors[1]
    assert fill[0] == T.vertex
    assert radius[5] == T.tracked_radius > radius[0]
    tracks = only(scene, "tracks", Polylines)
    assert tracks.counts.tolist() == [3, 2]  # a one-point track draws nothing
    np.testing.assert_allclose(tracks.split()[0], view.to_pixel(track5))
    np.testing.assert_allclose(tracks.split()[1], view.to_pixel(track3))
    assert per_item(tracks.color, 2).tolist() == [T.track_colors[0], T.track_colors[1]]


def test_selection_and_attractor(peaucellier):
    view = view_for(peaucellier)
    target = (150.0, 20.0)
    state = SceneState(selected_vertex=2, attractor=target, attracted_vertex=5)
    scene = build_scene(peaucellier, view, state)
    ring = only(scene, "selected-vertex", Disks)
    np.testing.assert_allclose(ring.centers[0], view.to_pixel(peaucellier.vertices[2]))
    assert ring.fill is None and ring.stroke == T.selected
    attracted = only(scene, "attracted-vertex", Disks)
    np.testing.assert_allclose(attracted.centers[0], view.to_pixel(peaucellier.vertices[5]))
    link = only(scene, "attractor-link", Segments)
    np.testing.assert_allclose(link.points[0], view.to_pixel([peaucellier.vertices[5], target]))
    assert link.dash
    cross = next(i for i in scene.by_role("attractor") if isinstance(i, Segments))
    np.testing.assert_allclose(cross.points.mean(axis=(0, 1)), view.to_pixel(target))
    # attractor without a vertex: crosshair but no link
    scene = build_scene(peaucellier, view, SceneState(attractor=target))
    assert scene.by_role("attractor") and not scene.by_role("attractor-link")


def test_invalid_indices_are_ignored(peaucellier):
    state = SceneState(
        selected_vertex=99, selected_rod=-1, attracted_vertex=6, tracked=[7, 2.5], springs=[(0, 9)]
    )
    scene = build_scene(peaucellier, view_for(peaucellier), state)
    for role in ("selected-vertex", "rod-highlight", "attracted-vertex", "springs"):
        assert not scene.by_role(role)
    assert only(scene, "vertices").fill == T.vertex


# --------------------------------------------------------------- velocities
def test_velocity_arrows_count_scale_and_shades(triangle):
    view = view_for(triangle)
    rng = np.random.default_rng(1)
    d, n = 3, triangle.n_vertices
    basis = np.linalg.qr(rng.normal(size=(2 * n, d)))[0].T.reshape(d, n, 2)
    scene = build_scene(triangle, view, SceneState(velocity_basis=basis))
    arrows = only(scene, "velocities", Arrows)
    assert len(arrows) == d * n
    vectors = arrows.tips - arrows.tails
    length = np.hypot(*vectors.T)
    assert length.max() == pytest.approx(T.velocity_arrow_px)
    # tails at the vertices, directions = basis vectors with y flipped, common scale
    tails = np.repeat(view.to_pixel(triangle.vertices)[None], d, axis=0).reshape(-1, 2)
    np.testing.assert_allclose(arrows.tails, tails)
    expected = basis.reshape(-1, 2) * [1, -1]
    k = T.velocity_arrow_px / np.hypot(*expected.T).max()
    np.testing.assert_allclose(vectors, expected * k, atol=1e-9)
    # one shade of green per basis vector
    colors = per_item(arrows.color, d * n).reshape(d, n)
    assert all(len(set(row)) == 1 for row in colors)
    assert len({row[0] for row in colors}) == d
    assert set(colors.ravel()) <= set(T.velocity_colors)


def test_velocity_arrows_skip_zero_vectors_and_can_be_hidden(triangle):
    basis = np.zeros((2, 3, 2))
    basis[0, 0] = [1.0, 0.0]
    basis[0, 2] = [0.0, 1.0]
    basis[1, 2] = [0.0, -0.5]
    view = view_for(triangle)
    arrows = only(build_scene(triangle, view, SceneState(velocity_basis=basis)), "velocities")
    assert len(arrows) == 3  # the zero rows (e.g. a pinned vertex) draw nothing
    # the head is a triangle whose tip is the arrow tip and whose base is on the shaft's end
    np.testing.assert_allclose(arrows.heads[:, 0], arrows.tips)
    np.testing.assert_allclose(arrows.heads[:, 1:].mean(axis=1), arrows.shafts[:, 1])
    hidden = build_scene(triangle, view, SceneState(velocity_basis=basis, show_velocities=False))
    assert not hidden.by_role("velocities")
    stale = build_scene(triangle, view, SceneState(velocity_basis=np.ones((1, 5, 2))))
    assert not stale.by_role("velocities")


# ------------------------------------------------------------------ angles
def test_angle_arc_at_the_apex_between_the_arms(triangle):
    view = view_for(triangle)
    scene = build_scene(triangle, view, SceneState())
    wedge, arcs = scene.by_role("angles")
    assert isinstance(wedge, Polygons) and isinstance(arcs, Arcs)
    assert len(arcs) == len(wedge) == triangle.n_angles == 1
    P = view.to_pixel(triangle.vertices)
    np.testing.assert_allclose(arcs.centers[0], P[0])
    interior = abs(triangle.angle_values()[0])
    assert arcs.end[0] - arcs.start[0] == pytest.approx(interior)
    # the arc spans from the direction of one arm to the other (pixel frame)
    arm_dirs = sorted(np.mod(np.arctan2(*(P[[1, 2]] - P[0])[:, ::-1].T), 2 * np.pi))
    ends = sorted(np.mod([arcs.start[0], arcs.end[0]], 2 * np.pi))
    np.testing.assert_allclose(ends, arm_dirs, atol=1e-12)
    assert 4.0 <= arcs.radius[0] <= T.angle_radius
    # the wedge: apex, then points on the arc from start to end
    np.testing.assert_allclose(wedge.points[0], P[0])
    rim = wedge.points[1:] - P[0]
    np.testing.assert_allclose(np.hypot(*rim.T), arcs.radius[0])
    np.testing.assert_allclose(
        np.arctan2(rim[[0, -1], 1], rim[[0, -1], 0]) % (2 * np.pi),
        np.array([arcs.start[0], arcs.end[0]]) % (2 * np.pi),
        atol=1e-9,
    )
    assert wedge.alpha < 1
    assert not build_scene(triangle, view, SceneState(show_angles=False)).by_role("angles")


@pytest.mark.parametrize("deg", [10.0, 90.0, 179.0, 180.0, 181.0, 270.0, 350.0])
def test_angle_arc_takes_the_short_way(deg):
    t = np.deg2rad(deg)
    link = Linkage(
        [[0, 0], [1, 0], [np.cos(t), np.sin(t)]], rods=[(0, 1), (0, 2)], angles=[(0, 1, 2)]
    )
    arcs = build_scene(link, view_for(link), SceneState()).by_role("angles")[-1]
    sweep = arcs.end[0] - arcs.start[0]
    assert 0 <= sweep <= np.pi + 1e-12
    assert sweep == pytest.approx(min(deg, 360 - deg) * np.pi / 180)


# ---------------------------------------------------------- springs, texts
def test_springs_are_zigzags_between_the_vertices(peaucellier):
    view = view_for(peaucellier)
    scene = build_scene(peaucellier, view, SceneState(springs=[(0, 5), (3, 4)]))
    springs = only(scene, "springs", Polylines)
    assert len(springs) == 2
    P = view.to_pixel(peaucellier.vertices)
    for line, (i, j) in zip(springs.split(), [(0, 5), (3, 4)], strict=True):
        np.testing.assert_allclose(line[0], P[i])
        np.testing.assert_allclose(line[-1], P[j])
        # teeth alternate sides of the axis
        axis = (P[j] - P[i]) / np.linalg.norm(P[j] - P[i])
        rel = line[2:-2] - P[i]
        side = axis[0] * rel[:, 1] - axis[1] * rel[:, 0]
        assert np.all(np.sign(side[:-1]) == -np.sign(side[1:]))


def test_info_hint_and_error_travel_with_the_scene_not_over_it(triangle):
    # Issue 15: no text over the drawing; the view shows the hint and the error beside it.
    view = view_for(triangle, 500, 300)
    state = SceneState(info_lines=["DOF 0", "rigid"], hint="click to add", error="bad\nworse")
    scene = build_scene(triangle, view, state)
    assert not {"info", "hint", "error", "legend"} & set(scene.roles())
    assert not [i for i in scene.items if isinstance(i, Texts | Rects)]
    assert (scene.hint, scene.error) == ("click to add", "bad\nworse")


def test_empty_linkage_draws_background_only():
    link = Linkage()
    view = ViewTransform.fit(link.vertices, 300, 200)
    scene = build_scene(link, view, SceneState(hint="click to add a vertex"))
    assert scene.roles() == [] and scene.hint == "click to add a vertex"
    assert build_scene(link, view).items == []
    # everything optional at once, still nothing
    scene = build_scene(
        link,
        view,
        SceneState(
            selected_vertex=0,
            velocity_basis=np.zeros((0, 0, 2)),
            tracked=[0],
            show_stresses=True,
            rod_stress=np.zeros(0),
            show_labels=True,
            hint="h",
        ),
    )
    assert scene.roles() == [] and scene.legend == ()


# ------------------------------------------------------------- primitives
def test_primitives_validate_shapes():
    with pytest.raises(ValueError):
        Segments(np.zeros((3, 2)))
    with pytest.raises(ValueError):
        Polylines(np.zeros((3, 2)), [2, 2])
    with pytest.raises(ValueError):
        Polygons(np.zeros((4, 2)), [2, 2])
    with pytest.raises(ValueError):
        Texts(("a", "b"), [[0, 0]])
    with pytest.raises(ValueError):
        Texts(("a",), [[0, 0]], align="middle")
    assert len(Segments(np.empty(0))) == 0
    s = Scene(10, 10)
    s.add(Disks(np.empty((0, 2))))
    assert s.items == []
    with pytest.raises(ValueError):
        per_item((1.0, 2.0), 3)
    assert Texts(("a",), [[0, 0]], size=12, bold=True).css_font == "bold 12px sans-serif"


# ------------------------------------------------------------ hit testing
def test_hit_test_vertex_rod_none(triangle):
    view = view_for(triangle)
    P = view.to_pixel(triangle.vertices)
    assert hit_test(triangle, view, *P[2]) == ("vertex", 2)
    assert hit_test(triangle, view, *(P[2] + [-5.0, -5.0])) == ("vertex", 2)  # 7.1 px
    assert hit_test(triangle, view, *(P[2] + [0.0, -10.0])) is None  # above the apex: no rod
    mid = (P[0] + P[1]) / 2
    assert hit_test(triangle, view, *(mid + [0.0, 4.0])) == ("rod", 0)
    assert hit_test(triangle, view, *(mid + [0.0, 30.0])) is None
    # beyond the end of a segment is not on the rod even if on its line
    end = P[1] + (P[1] - P[0]) / np.linalg.norm(P[1] - P[0]) * 20
    assert hit_test(triangle, view, *end) is None
    assert hit_test(triangle, view, *(mid + [0.0, 20.0]), rod_tolerance_px=25) == ("rod", 0)


def test_hit_test_vertex_wins_and_nearest_wins():
    link = Linkage([[0, 0], [10, 0], [10.5, 0]], rods=[(0, 1)])
    view = ViewTransform(10.0, 0.0, 100.0, 300, 200)  # vertices at x = 0, 100, 105 px
    assert hit_test(link, view, 97.0, 100.0) == ("vertex", 1)  # on rod 0, but vertex 1 is close
    assert hit_test(link, view, 103.0, 100.0) == ("vertex", 2)
    assert hit_test(link, view, 50.0, 103.0) == ("rod", 0)
    assert hit_test(Linkage(), view, 0.0, 0.0) is None


def test_drawing_modules_do_not_import_widget_libraries():
    code = (
        "import sys; import linkage_widget.draw.view, linkage_widget.draw.scene, "
        "linkage_widget.draw.svg, linkage_widget.draw.raster, linkage_widget.draw.layers, "
        "linkage_widget.draw.overlays, linkage_widget.draw.hit; "
        "bad = [m for m in ('ipywidgets', 'ipycanvas', 'ipyevents') if m in sys.modules]; "
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).parents[2])


def test_velocity_arrows_capped_with_a_note(triangle):
    basis = np.ones((3, 3, 2))
    view = view_for(triangle)
    theme = dataclasses.replace(T, max_velocity_arrows=5)
    scene = build_scene(triangle, view, SceneState(velocity_basis=basis), theme=theme)
    (arrows,) = scene.by_role("velocities")
    assert len(arrows) == 3  # only the first basis vector fits under 5 arrows
    # the note is in the legend (beside the canvas), not over the drawing
    assert [e.label for e in scene.legend if e.label.startswith(("veloc", "(arr"))] == [
        "velocity of way to move 1",
        "(arrows of 1 of 3 ways shown)",
    ]
    full = build_scene(triangle, view, SceneState(velocity_basis=basis))
    assert [len(i) for i in full.by_role("velocities")] == [9]


def test_primitives_are_frozen_copies():
    pts = np.zeros((1, 2, 2))
    widths = np.array([3.0])
    seg = Segments(pts, width=widths)
    pts[:] = 7.0
    widths[:] = 9.0
    assert np.all(seg.points == 0.0) and seg.width[0] == 3.0
    with pytest.raises(ValueError):
        seg.points[0, 0, 0] = 1.0
    with pytest.raises(dataclasses.FrozenInstanceError):
        seg.color = "#ffffff"
