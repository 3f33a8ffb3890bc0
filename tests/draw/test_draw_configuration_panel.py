"""The configuration panel's pixels: projections, shading, charts, and what each layer holds.

References are independent of the module: rotations are checked by orthogonality and by
the closed-form projection of known points, Lambert shading against the light direction,
the torus chart's shaded area against a count of the reachable cells.
"""

import math

import numpy as np
import pytest

from linkage_widget.draw import save_png, scene_to_svg
from linkage_widget.draw.angle_charts import (
    AnglePlot,
    chart_dynamic,
    curve_static,
    surface_static,
    wrapped_segments,
)
from linkage_widget.draw.configuration_panel import (
    DEFAULT_PANEL_THEME,
    SphereProjection,
    message_items,
    panel_picture,
    sphere_dynamic,
    sphere_static,
)

RNG = np.random.default_rng(7)


def embed(phi, t):
    c = np.cos(phi)
    return np.stack(np.broadcast_arrays(c * np.cos(t), c * np.sin(t), np.sin(phi)), axis=-1)


def unit_vectors(k):
    v = RNG.normal(size=(k, 3))
    return v / np.linalg.norm(v, axis=1, keepdims=True)


# ------------------------------------------------------------------ sphere projection
def test_projection_of_the_view_axes():
    proj = SphereProjection.fit(300, 200, rotation=np.eye(3), margin=0.0)
    assert proj.center == (150.0, 100.0) and proj.radius == 100.0
    px, depth = proj.project(np.eye(3))
    # x right, y up (pixel y down), z toward the viewer
    assert px.tolist() == [[250.0, 100.0], [150.0, 0.0], [150.0, 100.0]]
    assert depth.tolist() == [0.0, 0.0, 1.0]


def test_unproject_inverts_project_on_the_visible_side():
    proj = SphereProjection.fit(400, 400)
    q = unit_vectors(200)
    px, depth = proj.project(q)
    for point, pixel, d in zip(q, px, depth, strict=True):
        back = proj.unproject(*pixel)
        assert back is not None
        if d > 1e-3:
            assert np.allclose(back, point, atol=1e-9)
        else:  # the back point under the same pixel is its mirror through the view plane
            assert np.isclose(np.linalg.norm(back), 1.0)
    assert proj.unproject(0.0, 0.0) is None  # a corner is off the disc


def test_rotation_by_a_drag_stays_a_rotation_and_turns_one_radian_per_radius():
    proj = SphereProjection.fit(400, 400, rotation=np.eye(3))
    turned = proj.rotated(proj.radius, 0.0)  # one radius to the right
    r = turned.rotation
    assert np.allclose(r @ r.T, np.eye(3), atol=1e-12) and np.isclose(np.linalg.det(r), 1.0)
    # the point facing the viewer moves right by sin(1) radii
    px, _ = turned.project([0.0, 0.0, 1.0])
    assert np.allclose(px, [200 + proj.radius * math.sin(1.0), 200.0])
    for _ in range(50):
        proj = proj.rotated(*RNG.normal(scale=30.0, size=2))
    assert np.allclose(proj.rotation @ proj.rotation.T, np.eye(3), atol=1e-10)


def test_tangent_projects_back_onto_the_drag():
    proj = SphereProjection.fit(400, 400)
    for q in unit_vectors(100):
        if proj.project(q)[1] < 0.3:
            continue  # near the rim the lift is clamped
        dx, dy = RNG.normal(scale=40.0, size=2)
        w = proj.tangent(q, dx, dy)
        assert abs(w @ q) < 1e-12
        # the linear part of the projection maps w back to the drag
        view = proj.rotation @ w
        assert np.allclose([proj.radius * view[0], -proj.radius * view[1]], [dx, dy])


@pytest.mark.parametrize("phi,t", [(0.0, 0.0), (0.7, -2.0), (-1.2, 2.9)])
def test_facing_turns_the_point_to_the_viewer_pole_up(phi, t):
    q = embed(phi, t)
    proj = SphereProjection.facing(300, 300, q, tilt=0.0)
    px, depth = proj.project(q)
    assert np.allclose(px, [150.0, 150.0]) and np.isclose(depth, 1.0)
    north = proj.rotation @ [0.0, 0.0, 1.0]
    assert abs(north[0]) < 1e-12 and north[1] >= -1e-12  # the pole axis stays upright
    tilted = SphereProjection.facing(300, 300, q)
    assert np.isclose(tilted.project(q)[1], math.cos(0.45))


# ------------------------------------------------------------------ sphere layers
def sphere_grid():
    t = np.linspace(-math.pi, math.pi, 49)
    lats = embed(np.radians([-60, -30, 30, 60])[:, None], t)
    phi = np.linspace(-math.pi / 2, math.pi / 2, 25)
    lons = embed(phi, np.radians(np.arange(-180, 180, 30))[:, None])
    return np.concatenate([lats[:, ::2], lons])


def inside(points, polygon):
    """Crossing-number test: which of ``points`` (k, 2) lie inside ``polygon`` (m, 2)."""
    a, b = polygon, np.roll(polygon, -1, axis=0)
    x, y = points[:, 0, None], points[:, 1, None]
    straddle = (a[:, 1] > y) != (b[:, 1] > y)
    with np.errstate(divide="ignore", invalid="ignore"):
        cross_x = a[:, 0] + (y - a[:, 1]) * (b[:, 0] - a[:, 0]) / (b[:, 1] - a[:, 1])
    return ((straddle & (x < cross_x)).sum(axis=1) % 2) == 1


def test_sphere_static_shading_is_lambert_toward_the_light():
    theme = DEFAULT_PANEL_THEME
    proj = SphereProjection.fit(360, 360)
    items = sphere_static(proj, sphere_grid(), labels=("sphere",))
    (shade,) = [i for i in items if i.role == "sphere"]
    caps = shade.split()
    assert len(caps) == theme.shades
    for cap in caps:  # every cap lies on the disc
        assert np.hypot(*(cap - proj.center).T).max() <= proj.radius + 1e-6
    # the colour drawn last over a pixel is the Lambert level of the sphere's normal there
    light = np.asarray(theme.light) / np.linalg.norm(theme.light)
    pix = np.asarray(proj.center) + proj.radius * RNG.uniform(-1, 1, size=(4000, 2))
    vx, vy = (pix[:, 0] - proj.center[0]) / proj.radius, (proj.center[1] - pix[:, 1]) / proj.radius
    on_disc = vx**2 + vy**2 < 0.98
    pix, vx, vy = pix[on_disc], vx[on_disc], vy[on_disc]
    lambert = vx * light[0] + vy * light[1] + np.sqrt(1 - vx**2 - vy**2) * light[2]
    expected = np.floor(np.clip(lambert, 0, None) * theme.shades).astype(int)
    top = np.full(len(pix), -1)
    for k, cap in enumerate(caps):
        top[inside(pix, cap)] = k
    clear = np.abs(lambert * theme.shades - np.rint(lambert * theme.shades)) > 0.05
    clear &= lambert > 0.01  # the unlit side is the rim disk's colour (no cap)
    assert np.array_equal(top[clear], np.minimum(expected[clear], theme.shades - 1))
    assert np.all(top[lambert < -0.01] == -1)
    # brighter caps are lighter, and the shading does not depend on the rotation
    brightness = [sum(int(c[i : i + 2], 16) for i in (1, 3, 5)) for c in shade.fill]
    assert brightness == sorted(brightness)
    turned = sphere_static(proj.rotated(50, -20), sphere_grid())
    (shade2,) = [i for i in turned if i.role == "sphere"]
    assert shade2.fill == shade.fill and np.array_equal(shade2.points, shade.points)


def test_sphere_grid_lines_only_on_the_visible_side():
    proj = SphereProjection.fit(360, 360)
    grid = sphere_grid()
    (lines,) = [i for i in sphere_static(proj, grid) if i.role == "grid"]
    depth = grid @ proj.rotation[2]  # view z of every sample
    expected = int(((depth[:, :-1] > 0) & (depth[:, 1:] > 0)).sum())
    assert len(lines) == expected > 0
    for a in lines.points.reshape(-1, 2):
        q = proj.unproject(*a)
        assert q is not None  # on the disc


def test_sphere_dynamic_point_trail_and_flick():
    proj = SphereProjection.fit(360, 360, rotation=np.eye(3))
    trail = embed(0.2, np.linspace(-0.5, 0.5, 30))
    front = embed(0.2, 0.3)
    items = sphere_dynamic(proj, front, trail, np.array([[10.0, 10.0], [60.0, 30.0]]))
    roles = [i.role for i in items]
    assert roles == ["trail", "point", "flick"]
    point = items[1]
    assert np.allclose(point.centers[0], proj.project(front)[0]) and point.fill is not None
    (arrow,) = [i for i in items if i.role == "flick"]
    assert np.allclose(arrow.tips[0], [60.0, 30.0])
    hidden = np.array([0.0, 0.0, -1.0])  # behind the sphere: drawn hollow
    back = sphere_dynamic(proj, hidden, np.zeros((0, 3)))
    assert [i.role for i in back] == ["point"] and back[0].fill is None


# ------------------------------------------------------------------ angle charts
def test_angle_plot_round_trip_and_corners():
    plot = AnglePlot.fit(360, 360)
    ab = RNG.uniform(-math.pi, math.pi, size=(50, 2))
    assert np.allclose(plot.to_angles(plot.to_pixel(ab)), ab)
    corners = plot.to_pixel([[-math.pi, -math.pi], [math.pi, math.pi]])
    assert np.allclose(corners, [[plot.x0, plot.y0 + plot.size], [plot.x0 + plot.size, plot.y0]])
    assert plot.inside(*plot.to_pixel([0.0, 0.0])) and not plot.inside(0.0, 0.0)


def test_wrapped_segments_never_cross_the_chart():
    a = np.linspace(0, 4 * math.pi, 400)
    ab = np.stack([a, 0.5 * a], axis=1)
    seg = wrapped_segments(ab)
    assert np.all(np.abs(seg[:, 1] - seg[:, 0]) < math.pi)
    assert np.all(np.abs(seg) <= math.pi + 1e-12)
    assert len(seg) == 399 - 3  # a crosses the seam at pi and 3 pi, b = a/2 at a = 2 pi
    square = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=float)
    assert len(wrapped_segments(square, closed=True)) == 4


def test_curve_static_branches_and_singular_points():
    plot = AnglePlot.fit(300, 300)
    a = np.linspace(-math.pi, math.pi, 100, endpoint=False)
    branches = [(np.stack([a, np.sin(a)], 1), True), (np.stack([a, -np.sin(a)], 1), True)]
    singular = np.array([[0.0, 0.0], [math.pi, 0.0]])
    items = curve_static(plot, branches, singular, ("crank", "rocker"), ("curve",))
    roles = [i.role for i in items]
    assert "branch-0" in roles and "branch-1" in roles
    b0 = items[roles.index("branch-0")]
    assert b0.color != items[roles.index("branch-1")].color
    (sing,) = [i for i in items if i.role == "singular"]
    assert np.allclose(sing.centers, plot.to_pixel(singular))
    names = [t for i in items if i.role == "axis-labels" for t in i.texts]
    assert any("crank" in t for t in names) and any("rocker" in t for t in names)


def test_surface_static_shades_exactly_the_reachable_cells():
    n = 40
    a = -math.pi + (np.arange(n) + 0.5) * 2 * math.pi / n
    reachable = RNG.random((n, n)) < 0.6
    plot = AnglePlot.fit(300, 300)
    items = surface_static(plot, a, a, reachable, [np.stack([a, np.cos(a)], 1)], ("a", "b"))
    (rects,) = [i for i in items if i.role == "reachable"]
    cell = (plot.size / n) ** 2
    assert np.isclose(np.prod(rects.rects[:, 2:], axis=1).sum(), reachable.sum() * cell)
    # every reachable cell centre lies in one rectangle, no unreachable one does
    centers = plot.to_pixel(np.stack(np.meshgrid(a, a, indexing="ij"), -1))
    x, y, w, h = rects.rects.T
    inside = (
        (centers[..., 0, None] > x) & (centers[..., 0, None] < x + w)
        & (centers[..., 1, None] > y) & (centers[..., 1, None] < y + h)
    )  # fmt: skip
    assert np.array_equal(inside.sum(-1), reachable.astype(int))
    assert any(i.role == "boundary" for i in items)


def test_chart_dynamic_point_and_trail():
    plot = AnglePlot.fit(300, 300)
    trail = np.stack([np.linspace(2.5, 3.8, 20), np.zeros(20)], 1)  # crosses the seam
    items = chart_dynamic(plot, np.array([3.8, 0.0]), trail)
    (point,) = [i for i in items if i.role == "point"]
    assert np.allclose(point.centers[0], plot.to_pixel([3.8 - 2 * math.pi, 0.0]))
    (line,) = [i for i in items if i.role == "trail"]
    assert len(line) == 18


def test_message_wraps_every_word():
    text = "the configuration space panel charts linkages with 1 or 2 internal degrees of freedom"
    (msg,) = message_items(200, 200, text)
    assert " ".join(msg.texts).split() == text.split()
    assert len(msg.texts) > 1 and np.all(msg.positions[:, 0] == 100.0)


def test_layers_render_as_svg_and_png(tmp_path):
    proj = SphereProjection.fit(240, 240)
    static = sphere_static(proj, sphere_grid(), labels=("sphere",))
    dynamic = sphere_dynamic(proj, embed(0.1, 0.2), embed(0.1, np.linspace(0, 0.2, 5)))
    picture = panel_picture(240, 240, static, dynamic)
    assert picture.by_role("point") and all(len(i) for i in picture.items)
    svg = scene_to_svg(picture)
    assert svg.startswith("<svg") and 'class="sphere"' in svg
    path = tmp_path / "panel.png"
    save_png(picture, path)
    assert path.stat().st_size > 1000
