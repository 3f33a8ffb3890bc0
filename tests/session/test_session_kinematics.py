"""The session's kinematics view: the driven cycle once an edit, plots and arrows on request.

The oracle is :func:`kinematics` called here at the crank angle the session is at (not
the session's cached and interpolated cycle).
"""

from __future__ import annotations

import asyncio

import numpy as np
import pytest

from linkage_widget import Linkage, kinematics
from linkage_widget.draw.kinematic_layers import KINEMATIC_ROLES
from linkage_widget.draw.kinematic_plots import PLOT_ROLES
from linkage_widget.session import LinkageSession, kinematic_cycle

SIZE = (400, 320)


def four_bar(**kwargs) -> LinkageSession:
    """Crank 0-1 turning about joint 0, coupler joint 2 tracked, a motor at 2 rad/s."""
    link = Linkage([[0, 0], [1, 0], [3, 2], [4, 0]], rods=[(0, 1), (1, 2), (2, 3)], pinned=[0, 3])
    s = LinkageSession(link, tracked=(2, 1), **kwargs)
    s.add_motor(0, 1, 2.0)
    return s


def crank_angle(s: LinkageSession) -> float:
    d = s.linkage.vertices[1] - s.linkage.vertices[0]
    return float(np.arctan2(d[1], d[0]))


def test_the_arrows_come_with_show_plots_and_go_without():
    s = four_bar()
    assert not set(KINEMATIC_ROLES) & set(s.scene().roles())
    s.show_plots = True
    roles = s.scene().roles()
    assert "joint-velocities" in roles
    assert "instant-centres" not in roles and "tolerance-band" not in roles
    s.show_plots = False
    assert "joint-velocities" not in s.scene().roles()


def test_the_arrows_point_along_the_velocity_at_the_crank_angle_now():
    s = four_bar(show_plots=True)
    s.toggle_motors()
    s.advance(7)  # the crank has turned
    theta = crank_angle(s)
    assert abs(theta) > 0.05
    exact = kinematics(s.linkage, 0, 1, [theta]).velocities[0]  # (n, 2) per unit crank speed
    (arrows,) = s.scene().by_role("joint-velocities")
    for k, j in enumerate((2, 1)):
        px = arrows.tips[k] - arrows.tails[k]
        world = np.array([px[0], -px[1]])  # y up
        cos = world @ exact[j] / (np.hypot(*world) * np.hypot(*exact[j]))
        assert cos > 1 - 1e-9  # cubic Hermite between 3° samples: the same direction
    # the crank tip's speed |ω r| = 2 over the cycle's fastest tracked speed, 64 px a unit
    # (cubic Hermite between samples 3° apart)
    cycle = s.cycle.cycle(s.document, s.cycle.version)
    peak = np.nanmax(np.linalg.norm(cycle.velocities[:, [1, 2]], axis=2))
    assert np.hypot(*(arrows.tips[1] - arrows.tails[1])) == pytest.approx(
        64.0 * 2.0 / peak, rel=1e-6
    )


def test_the_plots_show_the_cycle_values_and_the_angle_now():
    s = four_bar(show_plots=True)
    s.draw()
    pic = s.cycle.picture(s.document, SIZE)
    assert {i.role for i in pic.items} == set(PLOT_ROLES)
    kin = kinematics(s.linkage, 0, 1, np.linspace(0.0, 2.0 * np.pi, kinematic_cycle.SAMPLES))
    got = s.cycle.cycle(s.document, s.cycle.version)
    np.testing.assert_allclose(got.velocities, kin.velocities, atol=1e-9)
    np.testing.assert_allclose(got.accelerations, kin.accelerations, atol=1e-8)
    (now_line,) = [i for i in pic.by_role("plot-now") if hasattr(i, "points")][:1]
    frame = pic.by_role("plot-frame")[0].rects[0]
    degrees = np.degrees(np.remainder(crank_angle(s), 2 * np.pi))
    assert now_line.points[0, 0, 0] == pytest.approx(frame[0] + frame[2] * degrees / 360.0)


def test_the_cycle_is_computed_once_an_edit_not_each_frame(monkeypatch):
    calls = []
    real = kinematic_cycle.kinematics

    def counted(*args, **kwargs):
        calls.append(args[1:3])
        return real(*args, **kwargs)

    monkeypatch.setattr(kinematic_cycle, "kinematics", counted)
    s = four_bar(show_plots=True)
    s.toggle_motors()
    s.advance(5)
    s.scene()
    assert calls == [(0, 1)]
    s.add_spring(1, 3)  # an edit
    s.scene()
    assert len(calls) == 2


def test_without_a_motor_or_a_tracked_joint_the_plots_say_why():
    link = Linkage([[0, 0], [1, 0], [3, 2], [4, 0]], rods=[(0, 1), (1, 2), (2, 3)], pinned=[0, 3])
    s = LinkageSession(link, show_plots=True)
    s.draw()
    (msg,) = s.cycle.picture(s.document, SIZE).items
    assert msg.role == "message" and "motor" in " ".join(msg.texts)
    s.add_motor(0, 1)
    s.draw()
    (msg,) = s.cycle.picture(s.document, SIZE).items
    assert "track" in " ".join(msg.texts)
    assert "joint-velocities" not in s.scene().roles()


def world_of(s: LinkageSession, px: np.ndarray) -> np.ndarray:
    return np.asarray(s.view.to_world(px))


def test_the_instant_centres_of_a_four_bar_are_its_pins_and_kennedys_points():
    s = four_bar()
    s.toggle_motors()
    s.advance(3)
    assert "instant-centres" not in s.scene().roles()
    s.show_centres = True
    scene = s.scene()
    (labels,) = scene.by_role("instant-centre-labels")
    (rings,) = scene.by_role("instant-centres")
    at = dict(zip(labels.texts, world_of(s, rings.centers), strict=True))
    assert set(at) == {"I12", "I13", "I14", "I23", "I24", "I34"}
    p = s.linkage.vertices  # bodies: 1 ground, 2 crank 0-1, 3 coupler 1-2, 4 rocker 2-3
    np.testing.assert_allclose(at["I12"], p[0], atol=1e-12)  # the crank's still pivot
    # from the velocity interpolated between samples 3° apart (cubic Hermite: O(h⁴))
    scale = np.ptp(p, axis=0).max()
    for name, joint in (("I23", 1), ("I34", 2), ("I14", 3)):
        np.testing.assert_allclose(at[name], p[joint], atol=1e-6 * scale)

    def meet(a, b, c, d):  # where line ab meets line cd (Kennedy's construction)
        m = np.column_stack([b - a, c - d])
        t = np.linalg.solve(m, c - a)
        return a + t[0] * (b - a)

    # I13 on I12-I23 and I14-I34, I24 on I12-I14 and I23-I34 (far: to 1e-4 of the distance)
    for name, kennedy in (
        ("I13", meet(p[0], p[1], p[3], p[2])),
        ("I24", meet(p[0], p[3], p[1], p[2])),
    ):
        assert np.hypot(*(at[name] - kennedy)) < 1e-4 * max(np.hypot(*kennedy), scale)


def test_the_tolerance_band_is_the_first_order_band_of_one_percent_lengths():
    from linkage_widget.kinematics import tolerance_band

    s = four_bar()
    assert "tolerance-band" not in s.scene().roles()
    s.show_band = True
    roles = s.scene().roles()
    assert "tolerance-band" in roles and roles.index("tolerance-band") < roles.index("rods")
    over = s.cycle.overlay(s.document, s.cycle.version, {"show_band": True})
    kin = s.cycle.cycle(s.document, s.cycle.version)
    for (outer, inner), j in zip(over.bands, (2, 1), strict=True):
        band = tolerance_band(s.linkage, kin, j, 0.01 * s.linkage.rod_lengths())
        np.testing.assert_allclose(outer, band.outer)
        np.testing.assert_allclose(inner, band.inner)
    # the crank tip's path moves only with the crank's length: a band 2 % of r wide
    width = np.linalg.norm(over.bands[1][0] - over.bands[1][1], axis=1)
    np.testing.assert_allclose(width, 0.02 * 1.0, rtol=1e-6)


def test_with_an_event_loop_the_cycle_is_computed_in_a_thread():
    async def run() -> None:
        s = four_bar(show_plots=True)
        assert "joint-velocities" not in s.scene().roles()  # not yet: the thread computes
        job = s.cycle.pending
        assert job is not None
        (msg,) = s.cycle.picture(s.document, SIZE).items
        assert msg.texts == (kinematic_cycle.PENDING,)
        await job
        assert s.cycle.pending is None
        assert "joint-velocities" in s.scene().roles()
        assert s.cycle.pending is None  # kept: not computed again
        s.add_spring(1, 3)  # an edit: again in a thread, the old one never shown
        s.scene()
        assert s.cycle.pending is not None and s.cycle.pending is not job
        await s.cycle.pending

    asyncio.run(run())


def test_a_motor_between_two_links_or_two_motors_are_refused_in_words():
    link = Linkage([[0, 0], [1, 0], [3, 2], [4, 0]], rods=[(0, 1), (1, 2), (2, 3)], pinned=[0, 3])
    s = LinkageSession(link, tracked=(2,), show_plots=True)
    s.add_motor(1, 2, reference=(0, 1))
    s.draw()
    (msg,) = s.cycle.picture(s.document, SIZE).items
    assert "against the ground" in " ".join(msg.texts)
    s.add_motor(0, 1)
    s.draw()
    (msg,) = s.cycle.picture(s.document, SIZE).items
    assert "one motor" in " ".join(msg.texts)
    assert "joint-velocities" not in s.scene().roles()


def test_a_linear_motors_mechanism_is_not_plotted_against_a_crank_and_says_so():
    s = LinkageSession(Linkage.load("slider_crank.txt"), tracked=(2,), show_plots=True)
    s.add_linear_motor(0, speed=1.0)
    s.draw()
    (msg,) = s.cycle.picture(s.document, SIZE).items
    assert "slider_kinematics" in " ".join(msg.texts)
