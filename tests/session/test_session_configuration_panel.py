"""The configuration panel of a session, headless: public gestures and properties only.

The four-rod chain with pinned ends is built, scaled, turned and moved away from the
chart's frame, so every check also exercises the similarity. References: the chart's
own ``positions`` (the point must reproduce the linkage), the kinetic metric
``SphereChart.metric`` (the flick's kinetic energy), rod lengths (every animated placement
is a placement of the linkage), and the undo history.
"""

import math

import numpy as np
import pytest
from traitlets import TraitError

from linkage_widget import Linkage
from linkage_widget.configuration import SphereChart, geodesic_christoffel
from linkage_widget.draw.angle_charts import AnglePlot
from linkage_widget.draw.configuration_panel import SphereProjection
from linkage_widget.session import LinkageSession
from linkage_widget.session.configuration_panel import FLICK_GAIN

SCALE, TURN, SHIFT = 40.0, 0.6, np.array([100.0, -30.0])


def chain(L=3.0, phi=0.3, t=0.5):
    """The chart's chain at (phi, t), scaled, turned and moved; and the map to its frame."""
    link = SphereChart(L).linkage(phi, t)
    c, s = math.cos(TURN), math.sin(TURN)
    rot = np.array([[c, -s], [s, c]])
    link.set_positions(SHIFT + SCALE * link.vertices @ rot.T)
    return link, lambda p: (np.asarray(p) - SHIFT) @ rot / SCALE


class Recording(LinkageSession):
    """A session that keeps what its panel hook was given (the widget's hook, headless)."""

    def _show_panel(self, static, dynamic):
        self.shown = [*getattr(self, "shown", []), (static, dynamic)]


def lengths(p):
    return np.hypot(*(p[1:] - p[:-1]).T)


def test_panel_is_off_by_default_and_charts_the_chain():
    link, to_chart = chain()
    s = LinkageSession(link)
    assert s.show_configuration is False
    assert s.configuration_kind == "sphere" and s.configuration_message == ""
    phi, t = s.configuration_point
    assert (phi, t) == pytest.approx((0.3, 0.5), abs=1e-9)
    chart = SphereChart(3.0)
    assert np.allclose(chart.positions(phi, t), to_chart(s.linkage.vertices[1:4]), atol=1e-9)


def test_turning_it_on_for_a_linkage_without_chart_shows_a_message():
    five_rods = Linkage(
        [[0, 0], [1, 0.5], [2, 0.8], [3, 0.5], [4, 0.2], [4.5, 0]],
        rods=[(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)],
        pinned=[0, 5],
    )
    s = Recording(five_rods, show_configuration=True)
    assert s.configuration_kind == "none"
    assert s.configuration_message and "configuration" in s.configuration_message
    static, dynamic = s.shown[-1]
    (msg,) = static.by_role("message")
    assert " ".join(msg.texts).split() == s.configuration_message.split()
    assert not dynamic.items and s.configuration_point is None
    s.panel_press(100, 100)
    s.panel_drag(150, 120)
    s.panel_release()  # nothing happens, nothing raises
    assert s.error == "" and s.linkage == five_rods


def test_the_point_follows_a_drag_of_the_linkage_and_leaves_a_trail():
    link, to_chart = chain()
    s = Recording(link, show_configuration=True)
    before = s.configuration_point
    x, y = s.view.to_pixel(s.linkage.vertices[2])
    s.press(x, y)
    for k in range(1, 9):
        s.drag(x + 4 * k, y - 3 * k)
        s.advance()
    s.release()
    s.advance(5)
    after = s.configuration_point
    assert np.hypot(after[0] - before[0], after[1] - before[1]) > 0.05
    chart = SphereChart(3.0)
    assert np.allclose(chart.positions(*after), to_chart(s.linkage.vertices[1:4]), atol=1e-8)
    trail = s.configuration_trail
    assert len(trail) >= 5 and np.allclose(trail[-1], after)
    # frames that only moved the linkage redrew the dynamic layer, never the static one
    assert all(static is None for static, _ in s.shown[1:])
    (point,) = s.shown[-1][1].by_role("point")
    assert np.allclose(point.centers[0], s.configuration_point_px)


def test_a_drag_away_from_the_point_turns_the_sphere_only():
    link, _ = chain()
    s = Recording(link, show_configuration=True)
    r0, p0, n = s.panel_rotation, s.linkage.vertices.copy(), len(s.shown)
    s.panel_press(20, 200)
    s.panel_drag(80, 230)
    s.panel_release()
    r1 = s.panel_rotation
    assert not np.allclose(r0, r1)
    assert np.allclose(r1 @ r1.T, np.eye(3)) and np.isclose(np.linalg.det(r1), 1.0)
    assert np.array_equal(s.linkage.vertices, p0) and not s.running
    assert any(static is not None for static, _ in s.shown[n:])  # the sphere was redrawn


def _lift(v, wx, wy):
    """The tangent vector at the view point v whose screen image is (wx, wy)."""
    w = np.array([wx, wy, -(wx * v[0] + wy * v[1]) / v[2]])
    return w - (w @ v) * v


def flick(s, dx, dy):
    """Flick the point by (dx, dy) pixels; return the expected chart rates (phidot, tdot).

    The expectation is computed here, not by the session: the arrow lifted to the tangent
    plane of the sphere as drawn, times FLICK_GAIN, in the basis of the analytic partial
    derivatives of (cos phi cos t, cos phi sin t, sin phi).
    """
    x, y = s.configuration_point_px
    s.panel_press(x + 2, y - 1)  # within reach of the point
    s.panel_drag(x + dx / 2, y + dy / 2)
    s.panel_release(x + dx, y + dy)
    phi, t = s.configuration_point
    q = np.array([math.cos(phi) * math.cos(t), math.cos(phi) * math.sin(t), math.sin(phi)])
    proj = SphereProjection.fit(*s.panel_size, s.panel_rotation)
    w = proj.rotation.T @ _lift(proj.rotation @ q, dx / proj.radius, -dy / proj.radius)
    e_phi = [-math.sin(phi) * math.cos(t), -math.sin(phi) * math.sin(t), math.cos(phi)]
    e_t = [-math.cos(phi) * math.sin(t), math.cos(phi) * math.cos(t), 0.0]
    return np.linalg.lstsq(np.column_stack([e_phi, e_t]), FLICK_GAIN * w, rcond=None)[0]


def test_a_flick_starts_the_geodesic_with_the_arrow_as_velocity():
    link, to_chart = chain(phi=0.2, t=-0.4)
    s = LinkageSession(link, show_configuration=True, gravity=50.0)
    rates = flick(s, 40.0, -25.0)
    assert (s.mode, s.gravity, s.running) == ("dynamic", 0.0, True)
    phi, t = s.configuration_point
    g = SphereChart(3.0).metric(phi, t)
    # the simulator's unit total mass is 1/5 per joint; velocities scale with SCALE
    expected = 0.5 * rates @ g @ rates * SCALE**2 / 5.0
    energy = s.simulator.kinetic_energy()
    assert energy == pytest.approx(expected, rel=1e-6)
    start = np.array(s.configuration_point)
    s.advance(1)
    moved = np.array(s.configuration_point) - start
    assert moved @ rates / (np.linalg.norm(moved) * np.linalg.norm(rates)) > 0.99
    s.advance(90)
    assert s.simulator.kinetic_energy() == pytest.approx(energy, rel=1e-5)
    p = to_chart(s.linkage.vertices)
    assert np.allclose(lengths(p), 1.0, atol=1e-8)
    assert len(s.configuration_trail) > 60


@pytest.mark.parametrize("alpha", [0.0, 0.5])
def test_the_point_follows_the_christoffel_geodesic_of_the_mass_model(alpha):
    link, _ = chain(phi=0.2, t=-0.4)
    s = LinkageSession(link, show_configuration=True, mass_distribution=alpha)
    rates = flick(s, 40.0, -25.0)
    start = s.configuration_point
    seen = []
    for _ in range(60):  # one second at the dynamic step 1/60 s
        s.advance()
        seen.append(s.configuration_point)
    chart = SphereChart(3.0)
    ref = geodesic_christoffel(chart, start, rates, 1.0, mass_distribution=alpha, samples=61)
    assert np.abs(np.array(seen) - ref.coordinates[1:]).max() < 1e-4
    # the mass distribution changes the metric, hence the path
    other = geodesic_christoffel(chart, start, rates, 1.0, mass_distribution=0.5 - alpha)
    assert np.abs(other.coordinates[-1] - ref.coordinates[-1]).max() > 1e-3


def test_a_short_flick_is_not_a_velocity():
    link, _ = chain()
    s = LinkageSession(link, show_configuration=True)
    x, y = s.configuration_point_px
    s.panel_press(x, y)
    s.panel_release(x + 2, y)
    assert s.mode == "kinematic" and not s.running


def test_a_click_on_the_sphere_moves_the_linkage_there_along_a_motion():
    link, to_chart = chain()
    s = LinkageSession(link, show_configuration=True)
    start = s.linkage.vertices.copy()
    proj = SphereProjection.fit(*s.panel_size, s.panel_rotation)
    px, py = proj.project(np.array([0.0, 0.0, 0.0]) + _front_point(proj))[0]
    s.panel_press(px, py)
    s.panel_release(px, py)
    assert s.panel_animating
    target = proj.unproject(px, py)
    frames, previous = 0, s.configuration_point
    while s.panel_animating and frames < 200:
        s.advance()
        frames += 1
        p = to_chart(s.linkage.vertices)
        assert np.allclose(lengths(p), 1.0, atol=1e-9)
        now = s.configuration_point
        assert math.dist(now, previous) < 0.3  # no jump
        previous = now
    assert not s.panel_animating and frames > 3
    phi, t = s.configuration_point
    reached = np.array([math.cos(phi) * math.cos(t), math.cos(phi) * math.sin(t), math.sin(phi)])
    assert np.allclose(reached, target, atol=1e-9)
    assert s.undo() and np.allclose(s.linkage.vertices, start)


def _front_point(proj):
    """A visible body point away from the current view centre."""
    v = np.array([-0.5, 0.4, math.sqrt(1 - 0.41)])
    return proj.rotation.T @ v


def test_editing_the_linkage_recharts_it():
    link, _ = chain()
    s = LinkageSession(link, show_configuration=True)
    assert s.configuration_kind == "sphere"
    x, y = s.view.to_pixel(s.linkage.vertices[4])
    s.press(x, y)
    s.release(x, y)  # select the end ...
    s.key("f")  # ... and unpin it: not the pinned chain any more
    assert s.configuration_kind == "none" and "pin at least two" in s.configuration_message
    s.undo()
    assert s.configuration_kind == "sphere"


# ------------------------------------------------------------------ curve and surface
def four_bar():
    return LinkageSession.load("four_bar.txt", show_configuration=True)


def crank_and_rocker(p):
    """The four-bar's two default angles, computed here: directions of rods 0→2 and 1→3."""
    d02, d13 = p[2] - p[0], p[3] - p[1]
    return math.atan2(d02[1], d02[0]), math.atan2(d13[1], d13[0])


def test_a_four_bar_is_charted_as_a_curve_in_crank_and_rocker_angles():
    s = four_bar()
    assert s.configuration_kind == "curve"
    labels = [c.label for c in s.configuration_chart.coords]
    assert labels == ["direction of rod 0→2", "direction of rod 1→3"]
    assert s.configuration_point == pytest.approx(crank_and_rocker(s.linkage.vertices))
    (point,) = s.panel_layers()[1].by_role("point")
    assert np.allclose(point.centers[0], s.configuration_point_px)
    static = s.panel_layers()[0]
    assert static.by_role("branch-0") and static.by_role("branch-1")


def test_dragging_the_crank_moves_the_point_along_the_curve():
    s = four_bar()
    x, y = s.view.to_pixel(s.linkage.vertices[2])
    s.press(x, y)
    for k in range(1, 11):
        s.drag(x - 6 * k, y + 2 * k)
        s.advance()
    s.release()
    s.advance(3)
    trail = s.configuration_trail
    assert len(trail) >= 8
    assert trail[-1] == pytest.approx(crank_and_rocker(s.linkage.vertices))
    # every trail point lies on the traced curve (within its sampling)
    curve = np.concatenate([b.angles for b in s.configuration_chart.curve.branches])
    gap = np.angle(np.exp(1j * (trail[:, None, :] - curve[None])))
    assert np.sqrt((gap**2).sum(-1)).min(axis=1).max() < 0.05


def click_angles(s, angles):
    x, y = AnglePlot.fit(*s.panel_size).to_pixel(angles)
    s.panel_press(x, y)
    s.panel_release(x, y)


def test_a_click_on_the_curve_moves_the_linkage_there_through_the_motion():
    s = four_bar()
    rest = s.linkage.rod_lengths().copy()
    start = s.linkage.vertices.copy()
    here, _ = s.configuration_chart.curve.locate(s.linkage.vertices)
    target = s.configuration_chart.curve.branches[here].angles[60]
    click_angles(s, target)
    assert s.panel_animating
    frames, previous = 0, s.linkage.vertices.copy()
    while s.panel_animating and frames < 200:
        s.advance()
        frames += 1
        now = s.linkage.vertices
        assert np.allclose(s.linkage.rod_lengths(), rest, rtol=1e-6)
        assert np.abs(now - previous).max() < 0.1 * rest.max()  # no jump
        previous = now.copy()
    assert 3 < frames <= 91
    assert np.abs(np.angle(np.exp(1j * (np.array(s.configuration_point) - target)))).max() < 0.02
    assert s.undo() and np.allclose(s.linkage.vertices, start)


def test_a_click_on_the_other_assembly_mode_does_not_teleport():
    s = four_bar()
    start = s.linkage.vertices.copy()
    here, _ = s.configuration_chart.curve.locate(s.linkage.vertices)
    other = s.configuration_chart.curve.branches[1 - here].angles[10]
    click_angles(s, other)
    assert not s.panel_animating
    s.advance(5)
    assert np.array_equal(s.linkage.vertices, start)
    texts = [s.scene().hint]
    assert any("cannot be reached" in t for t in texts), texts


def parallelogram():
    """A pinned parallelogram four-bar, not a rhombus: two motions crossing where it is flat."""
    link = Linkage(
        [[0, 0], [3, 0], [0.6, 0.8], [3.6, 0.8]], rods=[(0, 2), (2, 3), (3, 1)], pinned=[0, 1]
    )
    return LinkageSession(link, show_configuration=True)


def test_a_parallelogram_reaches_its_other_motion_through_the_flat_placement():
    s = parallelogram()
    curve = s.configuration_chart.curve
    assert len(curve.branches) == 2 and len(curve.singular_angles) == 2
    assert s.panel_layers()[0].by_role("singular")
    rest = s.linkage.rod_lengths().copy()
    here, _ = curve.locate(s.linkage.vertices)
    other = curve.branches[1 - here]
    # a point of the other motion away from the flat placements
    far = np.angle(np.exp(1j * (other.angles[:, None] - curve.singular_angles[None])))
    target = other.angles[np.argmax(np.sqrt((far**2).sum(-1)).min(axis=1))]
    click_angles(s, target)
    assert s.panel_animating
    flat_seen = False
    while s.panel_animating:
        s.advance()
        assert np.allclose(s.linkage.rod_lengths(), rest, rtol=1e-6)
        flat_seen |= abs(s.linkage.vertices[2, 1]) < 1e-6  # the crank lies on the ground line
    assert flat_seen  # the motion changed branch only at the singular placement
    now, _ = curve.locate(s.linkage.vertices)
    assert now == 1 - here


def test_the_chart_angles_can_be_chosen_and_are_checked():
    s = four_bar()
    choices = s.configuration_choices
    assert "angle at 2 (0, 3)" in choices
    s.configuration_coordinates = ("direction of rod 0→2", "angle at 2 (0, 3)")
    assert [c.label for c in s.configuration_chart.coords] == list(s.configuration_coordinates)
    p = s.linkage.vertices
    a, b = p[0] - p[2], p[3] - p[2]
    expected = math.atan2(a[0] * b[1] - a[1] * b[0], a @ b)
    assert s.configuration_point[1] == pytest.approx(expected)
    with pytest.raises(TraitError, match="not an angle of this linkage"):
        s.configuration_coordinates = ("direction of rod 0→2", "angle at 9 (1, 2)")
    with pytest.raises(TraitError, match="two different"):
        s.configuration_coordinates = ("direction of rod 0→2", "direction of rod 0→2")
    s.configuration_coordinates = None
    assert s.configuration_chart.coords[1].label == "direction of rod 1→3"


def five_bar():
    link = Linkage(
        [[0, 0], [-0.5, 2], [1.5, 3], [3.5, 2], [3, 0]],
        rods=[(0, 1), (1, 2), (2, 3), (3, 4)],
        pinned=[0, 4],
    )
    return LinkageSession(link, show_configuration=True)


def test_a_five_bar_is_a_torus_chart_with_the_point_in_the_reachable_region():
    s = five_bar()
    assert s.configuration_kind == "surface"
    surf = s.configuration_chart.surface
    p = s.linkage.vertices
    expected = [math.atan2(*(p[1] - p[0])[::-1]), math.atan2(*(p[3] - p[4])[::-1])]
    assert s.configuration_point == pytest.approx(expected)
    i = np.argmin(np.abs(np.angle(np.exp(1j * (surf.a - expected[0])))))
    j = np.argmin(np.abs(np.angle(np.exp(1j * (surf.b - expected[1])))))
    assert surf.reachable[i, j]
    static = s.panel_layers()[0]
    assert static.by_role("reachable") and static.by_role("boundary")
    x, y = s.configuration_point_px
    s.panel_press(x + 30, y)
    s.panel_release(x + 30, y)  # a 2-DOF chart has no path: nothing moves
    assert not s.panel_animating and np.array_equal(s.linkage.vertices, p)


def test_a_rigid_linkage_says_it_cannot_move():
    triangle = Linkage([[0, 0], [2, 0], [1, 1.5]], rods=[(0, 1), (1, 2), (2, 0)], pinned=[0, 1])
    s = LinkageSession(triangle, show_configuration=True)
    assert s.configuration_kind == "none"
    assert "cannot move" in s.configuration_message


def test_with_an_event_loop_jansen_is_charted_off_the_frame_loop():
    """The chart is computed in a thread: the toggle returns at once, the panel says
    "computing", the loop goes on, and the chart that arrives has all 24 branches."""
    import asyncio
    import time

    def panel_text(session):
        return " ".join(t for item in session.panel_scene().by_role("message") for t in item.texts)

    async def run():
        s = Recording.load("jansen")
        t0 = time.thread_time()  # this thread's CPU: the chart's work is the worker's
        s.show_configuration = True
        assert time.thread_time() - t0 < 0.5  # not the chart's second or more
        assert s.configuration_kind == "pending"
        assert "computing the configuration space" in panel_text(s)
        ticks, t0 = 0, time.perf_counter()
        while s.configuration_kind == "pending" and time.perf_counter() - t0 < 120:
            await asyncio.sleep(0.01)
            ticks += 1
        assert ticks > 3  # the event loop ran while the thread charted
        assert s.configuration_kind == "curve"
        assert len(s.configuration_chart.curve.branches) == 24
        assert s.shown[-1][0] is not None  # the chart's static layer was sent when it came
        roles = {item.role for item in s.shown[-1][0].items}
        assert {f"branch-{i}" for i in range(24)} <= roles
        s.show_configuration = False
        await asyncio.sleep(0.1)

    asyncio.run(run())
