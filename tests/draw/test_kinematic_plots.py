"""The kinematics plots and canvas layers: their values, and the layers when asked for.

The oracle of the piston's curves is the slider-crank in closed form,
:math:`x = r\\cos\\theta + \\sqrt{l^2 - r^2\\sin^2\\theta}` and its derivatives by
hand; of the coupler point's, the cycle :func:`kinematics` returns (the plot shows it).
"""

from __future__ import annotations

import numpy as np
import pytest

from linkage_widget import Linkage, kinematics
from linkage_widget.draw import (
    KinematicOverlay,
    SceneState,
    ViewTransform,
    build_scene,
    cycle_value,
    kinematic_plot,
    plot_series,
    scene_to_svg,
)
from linkage_widget.draw.kinematic_layers import KINEMATIC_ROLES, band_polygon
from linkage_widget.draw.kinematic_plots import PLOT_ROLES

ANGLES = np.linspace(0.0, 2.0 * np.pi, 73)


def four_bar() -> Linkage:
    return Linkage([[0, 0], [1, 0], [3, 2], [4, 0]], rods=[(0, 1), (1, 2), (2, 3)], pinned=[0, 3])


def slider_crank(r: float = 1.0, rod: float = 3.0) -> Linkage:
    """Crank 0-1 from the origin, rod 1-2, the piston 2 on the x-axis."""
    return Linkage(
        [[0, 0], [r, 0], [r + rod, 0]], rods=[(0, 1), (1, 2)], pinned=[0],
        sliders=[(2, (0.0, 0.0), (1.0, 0.0))],
    )  # fmt: skip


def piston(theta: np.ndarray, r: float = 1.0, rod: float = 3.0) -> tuple[np.ndarray, np.ndarray]:
    """dx/dθ and d²x/dθ² of x = r cos θ + sqrt(l² - r² sin² θ), by hand."""
    s, c = np.sin(theta), np.cos(theta)
    q = np.sqrt(rod**2 - r**2 * s**2)
    dx = -r * s - r**2 * s * c / q
    ddx = -r * c - r**2 * (c**2 - s**2) / q - r**4 * s**2 * c**2 / q**3
    return dx, ddx


def test_the_piston_is_plotted_along_its_slide_signed_as_the_closed_form():
    k = kinematics(slider_crank(), 0, 1, ANGLES)
    (s,) = plot_series(k.velocities, k.accelerations, k.valid, (2,), {2: (2.0, 0.0)})
    dx, ddx = piston(ANGLES)
    assert s.along and s.label == "joint 2 along its slide"
    np.testing.assert_allclose(s.velocity, dx, atol=1e-9)
    np.testing.assert_allclose(s.acceleration, ddx, atol=1e-8)
    assert s.velocity.min() < 0 < s.velocity.max()  # signed: the piston comes back


def test_a_coupler_joint_is_plotted_as_its_speed_and_acceleration_size():
    k = kinematics(four_bar(), 0, 1, ANGLES)
    crank, coupler = plot_series(k.velocities, k.accelerations, k.valid, (1, 2, 9), {})
    np.testing.assert_allclose(crank.velocity, 1.0, atol=1e-9)  # |p'| of the crank tip is r
    np.testing.assert_allclose(crank.acceleration, 1.0, atol=1e-9)  # centripetal r
    np.testing.assert_allclose(coupler.velocity, np.linalg.norm(k.velocities[:, 2], axis=1))
    np.testing.assert_allclose(coupler.acceleration, np.linalg.norm(k.accelerations[:, 2], axis=1))
    assert not coupler.along and coupler.joint == 2  # joint 9 does not exist: skipped


def test_invalid_samples_are_gaps():
    k = kinematics(four_bar(), 0, 1, ANGLES)
    valid = k.valid.copy()
    valid[10:20] = False
    (s,) = plot_series(k.velocities, k.accelerations, valid, (2,), {})
    assert np.isnan(s.velocity[10:20]).all() and np.isfinite(s.velocity[:10]).all()
    pic = kinematic_plot(ANGLES, [s], None, (400, 300), ("#0072b2",))
    (curve,) = pic.by_role("plot-velocity")
    assert len(curve) == len(ANGLES) - 1 - 11  # the 11 segments touching a gap are left out


def test_cycle_value_interpolates_periodically():
    values = np.sin(ANGLES)
    assert cycle_value(ANGLES, values, ANGLES[7]) == pytest.approx(values[7])
    assert cycle_value(ANGLES, values, ANGLES[7] + 4 * np.pi) == pytest.approx(values[7])
    mid = 0.5 * (ANGLES[3] + ANGLES[4])
    assert cycle_value(ANGLES, values, mid) == pytest.approx(0.5 * (values[3] + values[4]))
    open_turn = np.linspace(0.0, 2.0 * np.pi, 4, endpoint=False)  # the last to the first
    assert cycle_value(open_turn, np.array([0.0, 1.0, 2.0, 3.0]), 1.75 * np.pi) == 1.5


def test_with_slopes_cycle_value_is_the_cubic_hermite_one():
    x = np.linspace(0.3, 2.7, 50)
    linear = np.array([cycle_value(ANGLES, np.sin(ANGLES), t) for t in x])
    cubic = np.array([cycle_value(ANGLES, np.sin(ANGLES), t, np.cos(ANGLES)) for t in x])
    h = ANGLES[1] - ANGLES[0]
    assert np.abs(linear - np.sin(x)).max() > h**2 / 16  # O(h²) without slopes
    assert np.abs(cubic - np.sin(x)).max() < h**4 / 300  # O(h⁴): at most h⁴ max|f⁗| / 384
    assert cycle_value(ANGLES, np.sin(ANGLES), ANGLES[5], np.cos(ANGLES)) == np.sin(ANGLES[5])


def test_the_plot_marks_the_current_angle_on_every_curve():
    k = kinematics(four_bar(), 0, 1, ANGLES)
    series = plot_series(k.velocities, k.accelerations, k.valid, (1, 2), {})
    pic = kinematic_plot(k.angles, series, 0.5 * np.pi, (400, 320), ("#0072b2", "#009e73"))
    assert {item.role for item in pic.items} == set(PLOT_ROLES)
    line, dots = pic.by_role("plot-now")[:2]
    frame = pic.by_role("plot-frame")[0].rects[0]
    x = line.points[0, 0, 0]
    assert x == pytest.approx(frame[0] + frame[2] / 4)  # 90° of 360°
    assert len(dots) == 2 and np.allclose(dots.centers[:, 0], x)
    # the dot of the crank tip (|p'| = 1) sits on its curve
    (top,) = [s for s in pic.by_role("plot-velocity") if s.color == "#0072b2"]
    assert dots.centers[0, 1] == pytest.approx(top.points[0, 0, 1])
    empty = kinematic_plot(k.angles, [], None, (400, 320), ("#000000",), "track a joint")
    assert [i.role for i in empty.items] == ["message"]


def test_the_canvas_layers_come_with_their_toggles_and_go_without():
    link = four_bar()
    view = ViewTransform.fit(link.vertices, 400, 300)
    over = KinematicOverlay(
        joints=(2,), velocities=np.array([[0.3, 0.4]]), colors=("#0072b2",),
        centres=np.array([[0.0, 0.0], [1.0, 0.0], [np.inf, np.inf]]),
        centre_labels=("I12", "I23", "I34"),
        bands=((link.vertices[[1, 2, 3]] + 0.1, link.vertices[[1, 2, 3]] - 0.1),),
        band_colors=("#0072b2",),
    )  # fmt: skip
    off = build_scene(link, view, SceneState(kinematic=over))
    assert not set(KINEMATIC_ROLES) & set(off.roles())
    on = build_scene(
        link, view, SceneState(kinematic=over, show_plots=True, show_centres=True, show_band=True)
    )
    assert set(KINEMATIC_ROLES) <= set(on.roles())
    roles = on.roles()
    assert roles.index("tolerance-band") < roles.index("rods") < roles.index("joint-velocities")
    (labels,) = on.by_role("instant-centre-labels")
    assert labels.texts == ("I12", "I23")  # the one at infinity is not drawn
    (arrow,) = on.by_role("joint-velocities")
    vec = arrow.tips[0] - arrow.tails[0]
    assert np.hypot(*vec) == pytest.approx(0.5 * 64.0)  # |v| 0.5 of the cycle's fastest
    assert vec[0] > 0 and vec[1] < 0  # up and right in the world: y down in pixels
    svg = scene_to_svg(on)
    assert all(f'<g class="{role}"' in svg for role in KINEMATIC_ROLES)


def test_a_band_round_a_closed_path_leaves_its_hole():
    t = np.linspace(0, 2 * np.pi, 41)  # a closed path's samples end where they start
    ring = np.c_[np.cos(t), np.sin(t)]
    poly = band_polygon(1.1 * ring, 0.9 * ring)

    def winding(p: np.ndarray) -> float:
        a = np.arctan2(*(poly - p).T[::-1])
        d = np.diff(np.append(a, a[0]))
        return float(np.sum((d + np.pi) % (2 * np.pi) - np.pi) / (2 * np.pi))

    assert winding(np.zeros(2)) == pytest.approx(0.0)  # inside the inner edge: not filled
    for p in ([0.0, 1.0], [-1.0, 0.05], [0.99, -0.05]):  # on the band, either side of 0°
        assert abs(winding(np.array(p))) == pytest.approx(1.0)  # filled


def test_the_legend_names_what_the_kinematics_draws():
    link = four_bar()
    view = ViewTransform.fit(link.vertices, 400, 300)
    over = KinematicOverlay(
        joints=(2,), velocities=np.array([[0.3, 0.4]]), colors=("#0072b2",),
        centres=np.array([[0.0, 0.0]]), centre_labels=("I12",),
        bands=((link.vertices[[1, 2]] + 0.1, link.vertices[[1, 2]] - 0.1),),
        band_colors=("#0072b2",),
    )  # fmt: skip
    state = SceneState(kinematic=over, show_plots=True, show_centres=True, show_band=True)
    labels = [e.label for e in build_scene(link, view, state).legend]
    assert "tolerance band of the path (first order)" in labels
    assert "velocity of a tracked joint at the motor's speed" in labels
    assert "instant centre Iij of bodies i, j (1: the ground)" in labels
    plain = [e.label for e in build_scene(link, view, SceneState(kinematic=over)).legend]
    assert not any("instant" in label or "band" in label for label in plain)


def test_a_signed_curve_gets_its_zero_tick_on_the_zero_line():
    k = kinematics(slider_crank(), 0, 1, ANGLES)
    series = plot_series(k.velocities, k.accelerations, k.valid, (2,), {2: (1.0, 0.0)})
    pic = kinematic_plot(k.angles, series, None, (400, 320), ("#0072b2",))
    value_ticks = [t for t in pic.by_role("plot-ticks") if t.align == "right"]
    zeros = pic.by_role("plot-zero")
    for ticks, zero in zip(value_ticks, zeros, strict=True):
        assert ticks.texts[2] == "0" and ticks.positions[2, 1] == zero.points[0, 0, 1]
    top, bottom = (float(t.texts[0]) for t in value_ticks), (float(t.texts[1]) for t in value_ticks)
    dx, ddx = piston(ANGLES)
    assert next(top) >= dx.max() and next(bottom) <= dx.min()  # the range holds the curve
