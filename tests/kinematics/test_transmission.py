"""Transmission angle (law of cosines) and mechanical advantage (statics vs virtual work)."""

from __future__ import annotations

import numpy as np
import pytest
from kinematic_cases import A, L, R, S, four_bar, slider_crank

from linkage_widget import Linkage, static_forces
from linkage_widget.kinematics import (
    MechanismError,
    kinematics,
    mechanical_advantage,
    transmission_angle,
)

ANGLES = np.linspace(0.0, 2 * np.pi, 73)


def test_four_bar_transmission_angle_is_the_law_of_cosines():
    k = kinematics(four_bar(), 0, 1, ANGLES)
    t = transmission_angle(k, (1, 2), (2, 3))
    # |BD|^2 = R^2 + A^2 - 2 R A cos(theta) and the triangle B C D: cos(mu) by its sides
    bd2 = R**2 + A**2 - 2 * R * A * np.cos(ANGLES)
    mu = np.arccos((L**2 + S**2 - bd2) / (2 * L * S))
    assert np.abs(t.angles - mu).max() < 1e-12
    # the worst angle is at a crank angle of 0 or pi (|BD| extreme): here 0 (BD = A - R)
    worst = np.arccos((L**2 + S**2 - (A - R) ** 2) / (2 * L * S))
    worst = min(worst, np.pi - worst, np.pi - np.arccos((L**2 + S**2 - (A + R) ** 2) / (2 * L * S)))
    assert t.minimum == pytest.approx(worst, abs=1e-12)
    assert t.at in (0, 36, 72)


def test_transmission_rods_must_share_a_joint():
    k = kinematics(four_bar(), 0, 1, [0.3])
    with pytest.raises(ValueError, match="sharing exactly one joint"):
        transmission_angle(k, (0, 1), (2, 3))


def test_mechanical_advantage_from_statics_is_the_velocity_ratio():
    link = four_bar()
    k = kinematics(link, 0, 1, ANGLES[:-1])
    ma = mechanical_advantage(link, k, (3, 2))
    # virtual work: T_in w_in = T_out w_out, so MA = 1 / (rocker's angular velocity per crank)
    d = k.positions[:, 2] - k.positions[:, 3]
    dv = k.velocities[:, 2] - k.velocities[:, 3]
    omega_out = (d[:, 0] * dv[:, 1] - d[:, 1] * dv[:, 0]) / (d * d).sum(axis=1)
    assert np.isfinite(ma).all()
    assert np.allclose(ma * omega_out, 1.0, rtol=0, atol=1e-8)
    assert (ma > 0).any() and (ma < 0).any()  # the rocker rocks: it turns both ways


def _rocker_speed(k, pivot: int, tip: int) -> np.ndarray:
    """The angular velocity of rod ``pivot``-``tip`` per unit crank speed, from the velocities."""
    d = k.positions[:, tip] - k.positions[:, pivot]
    dv = k.velocities[:, tip] - k.velocities[:, pivot]
    return (d[:, 0] * dv[:, 1] - d[:, 1] * dv[:, 0]) / (d * d).sum(axis=1)


def test_mechanical_advantage_with_the_crank_named_tip_first():
    # the motor on 1->0: the crank turns about its pinned end 0 all the same, and the
    # input torque about it is the same; virtual work still gives MA = 1 / omega_out
    link = four_bar()
    k = kinematics(link, 1, 0, ANGLES[:-1])
    ma = mechanical_advantage(link, k, (3, 2))
    assert np.isfinite(ma).all()
    assert np.allclose(ma * _rocker_speed(k, 3, 2), 1.0, rtol=0, atol=1e-8)


def test_mechanical_advantage_needs_a_crank_with_a_pinned_end():
    # the coupler 1-2 as the driven rod: neither end pinned, no ground to hold it against
    link = four_bar()
    coupler = link.vertices[2] - link.vertices[1]
    k = kinematics(link, 1, 2, [np.arctan2(coupler[1], coupler[0])])
    with pytest.raises(ValueError, match="crank 1-2 has no pinned end"):
        mechanical_advantage(link, k, (3, 2))


def test_mechanical_advantage_takes_the_output_rod_either_way_round():
    # (2, 3) names the rocker's free end first; it still turns about its pinned end 3
    link = four_bar()
    k = kinematics(link, 0, 1, ANGLES[:-1])
    ma = mechanical_advantage(link, k, (2, 3))
    assert np.isfinite(ma).all()
    assert np.allclose(ma * _rocker_speed(k, 3, 2), 1.0, rtol=0, atol=1e-8)
    with pytest.raises(ValueError, match="output rod 1-2 must have exactly one pinned end"):
        mechanical_advantage(link, k, (1, 2))


def test_mechanical_advantage_needs_an_output_rod():
    link = four_bar()
    with pytest.raises(ValueError, match="no output rod 0-2"):
        mechanical_advantage(link, kinematics(link, 0, 1, [0.3]), (0, 2))


def test_slider_crank_transmission_angle_is_ninety_less_the_rod_angle():
    link = slider_crank()  # r = 1, l = 3, in line
    k = kinematics(link, 0, 1, ANGLES)
    t = transmission_angle(k, (1, 2), link.sliders[0])
    phi = np.arcsin(np.sin(ANGLES) / 3.0)  # the rod's angle to the slide
    # the normal's side is a convention: the angle to it, folded, is 90° less |phi|
    folded = np.minimum(t.angles, np.pi - t.angles)
    assert np.abs(folded - (np.pi / 2 - np.abs(phi))).max() < 1e-12
    assert t.minimum == pytest.approx(np.pi / 2 - np.arcsin(1.0 / 3.0), abs=1e-12)
    assert t.at in (18, 54)  # crank at 90° or 270°
    with pytest.raises(ValueError, match="slider's joint 2"):
        transmission_angle(k, (0, 1), link.sliders[0])


def _statics_has_sliders() -> bool:
    """Whether ``static_forces`` carries loads with slider rows (the ``rigid`` part's item)."""
    try:
        static_forces(slider_crank(), {2: (1.0, 0.0)})
    except ValueError:
        return False
    return True


@pytest.mark.skipif(not _statics_has_sliders(), reason="static_forces does not take sliders yet")
def test_slider_crank_force_over_torque_is_one_over_the_piston_speed():
    link = slider_crank(offset=0.3)
    k = kinematics(link, 0, 1, ANGLES[:-1])
    ma = mechanical_advantage(link, k, link.sliders[0])
    dx = k.velocities[:, 2, 0]  # piston speed per unit crank speed
    away = np.abs(dx) > 0.05  # off the dead centres, where the input needs no torque
    assert np.allclose(ma[away] * dx[away], 1.0, rtol=0, atol=1e-8)
    assert np.abs(ma[~away]).min() > 10.0


@pytest.mark.skipif(not _statics_has_sliders(), reason="static_forces does not take sliders yet")
def test_mechanical_advantage_is_nan_at_a_dead_centre():
    # in line, crank at 0 and pi: the piston stops (x' = -r sin(theta) - ... = 0), the
    # input torque is zero up to rounding, and 1/rounding is no advantage
    link = slider_crank()
    ma = mechanical_advantage(link, kinematics(link, 0, 1, [0.0, np.pi, 0.5]), link.sliders[0])
    assert np.isnan(ma[:2]).all()
    x_dot = -np.sin(0.5) - np.sin(0.5) * np.cos(0.5) / np.sqrt(9.0 - np.sin(0.5) ** 2)
    assert ma[2] == pytest.approx(1.0 / x_dot, rel=1e-9)


def test_coupler_and_rocker_in_line_lock_a_crank_drive_not_a_rocker_drive():
    # crank 2, coupler 2, rocker 3, ground 4 (not Grashof), drawn where coupler and
    # rocker line up (mu = pi): |BD| = 5, so cos(theta) = (4 + 16 - 25) / 16
    theta = np.arccos(-5.0 / 16.0)
    b, d = 2.0 * np.array([np.cos(theta), np.sin(theta)]), np.array([4.0, 0.0])
    c = b + 2.0 * (d - b) / 5.0
    link = Linkage([[0, 0], b, c, d], rods=[(0, 1), (1, 2), (2, 3)], pinned=[0, 3])
    with pytest.raises(MechanismError, match="dead point"):
        kinematics(link, 0, 1, [theta])  # the crank cannot drive it on
    rocker = c - d
    k = kinematics(link, 3, 2, [np.arctan2(rocker[1], rocker[0])])
    assert transmission_angle(k, (1, 2), (2, 3)).angles[0] == pytest.approx(np.pi, abs=1e-7)
    assert k.valid.all()  # the rocker drives through it, the crank standing still
    assert np.abs(k.velocities[0, 1]).max() < 1e-12
    assert np.abs(k.velocities[0, 2]).max() > 0.5
