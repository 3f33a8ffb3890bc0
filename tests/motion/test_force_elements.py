"""Torque and force actuators and the Duffing spring against closed forms (issue 12)."""

from __future__ import annotations

import numpy as np
import pytest

from linkage_widget import Linkage
from linkage_widget.motion import Simulator


def free_pair(x1: float = 1.0, h: float = 1e-3, total_mass: float = 2.0) -> Simulator:
    """A pinned point at the origin and a free point on the x axis, m = 1 each."""
    link = Linkage([[0.0, 0.0], [x1, 0.0]], rods=[], pinned=[0])
    return Simulator(link, mode="dynamic", step_size=h, total_mass=total_mass)


def test_a_constant_force_actuator_pushes_the_ends_apart():
    sim = free_pair()
    sim.add_force(0, 1, 3.0)  # expansile: pushes 1 away from 0 along +x
    sim.step(1000)
    assert sim.positions[1] == pytest.approx([1.0 + 0.5 * 3.0 * sim.time**2, 0.0], abs=1e-10)


def test_a_force_callable_sees_length_and_extension_velocity():
    # f = -k (l - 1) - c l' is a damped linear spring written as a ForceActuator: it must
    # follow the same trajectory as add_spring's LinearSpring + LinearDamper.
    k, c = 20.0, 0.7
    sim = free_pair(1.5)
    sim.add_force(0, 1, lambda length, rate: -k * (length - 1.0) - c * rate)
    spring = free_pair(1.5)
    spring.add_spring(0, 1, k, 1.0, c)
    sim.step(2000)
    spring.step(2000)
    assert sim.positions == pytest.approx(spring.positions, abs=2e-6)


def test_a_constant_torque_spins_a_rod_up_uniformly():
    # No gravity: theta'' = T / (m l^2) for a tip mass m on a massless rod of length l.
    m, ell, torque = 1.0, 2.0, 0.5
    link = Linkage([[0, 0], [ell, 0]], rods=[(0, 1)], pinned=[0])
    sim = Simulator(link, mode="dynamic", step_size=1e-3, total_mass=2 * m)
    sim.add_torque(0, 1, torque)
    sim.step(2000)
    want = 0.5 * torque / (m * ell**2) * sim.time**2
    p = sim.positions[1]
    assert np.arctan2(p[1], p[0]) == pytest.approx(want, abs=1e-8)
    assert sim.constraint_error() < 1e-12


def test_a_torque_callable_gets_time_angle_and_angular_speed():
    seen = []

    def torque(t, angle, speed):
        seen.append((t, angle, speed))
        return 0.0

    link = Linkage([[0, 0], [0, 1]], rods=[(0, 1)], pinned=[0])
    sim = Simulator(link, mode="dynamic", step_size=0.01)
    sim.set_velocity([[0, 0], [-2.0, 0]])  # counter-clockwise at 2 rad/s
    sim.add_torque(0, 1, torque)
    sim.step()
    t, angle, speed = seen[0]  # the first half kick: the state at the start of the step
    assert (t, angle, speed) == pytest.approx((0.0, np.pi / 2, 2.0), rel=1e-12)
    t, angle, speed = seen[-1]  # the second: at the end (angle is wrapped to (-pi, pi])
    assert t == pytest.approx(0.01) and angle == pytest.approx(np.pi / 2 + 0.02, rel=1e-6)


def test_a_torque_between_links_has_no_net_moment_about_the_pin():
    # Internal torque on a free-floating two-rod chain: angular momentum stays zero.
    link = Linkage([[0, 0], [1, 0], [1, 1]], rods=[(0, 1), (1, 2)])
    sim = Simulator(link, mode="dynamic", step_size=1e-3)
    sim.add_torque(1, 2, 0.3, reference=(1, 0))
    sim.step(500)
    p, v = sim.positions, sim.velocities
    momentum = np.sum(p[:, 0] * v[:, 1] - p[:, 1] * v[:, 0])
    assert abs(momentum) < 1e-10
    assert np.abs(v).max() > 0.01


def test_a_duffing_spring_keeps_its_energy_and_counts_the_quartic_term():
    k, beta = 4.0, 30.0
    sim = free_pair(1.6)
    sim.add_spring(0, 1, k, 1.0, nonlinear_stiffness=beta)
    x = 0.6
    assert sim.potential_energy() == pytest.approx(0.5 * k * x**2 + 0.25 * beta * x**4)
    energy0 = sim.potential_energy()
    energies = []
    for _ in range(200):
        sim.step(10)
        energies.append(sim.kinetic_energy() + sim.potential_energy())
    assert np.max(np.abs(np.array(energies) - energy0)) < 1e-3 * energy0


def test_adding_and_removing_elements_leaves_the_old_path_bit_for_bit():
    link = Linkage.load("four_bar.txt")
    plain = Simulator(link, mode="dynamic", step_size=0.01, gravity=300.0)
    edited = Simulator(link, mode="dynamic", step_size=0.01, gravity=300.0)
    edited.add_force(2, 3, 5.0)
    edited.add_torque(0, 2, 1.0)
    edited.remove_actuator(1)
    edited.remove_actuator(0)
    plain.step(40)
    edited.step(40)
    assert np.array_equal(plain.positions, edited.positions)


def test_a_callable_returning_nan_mid_run_raises_and_leaves_the_state():
    sim = free_pair()
    sim.add_force(0, 1, lambda length, rate: np.nan if length > 1.2 else 10.0)
    last = None
    with pytest.raises(ValueError, match="force actuator 0-1"):
        for _ in range(1000):
            last = (sim.positions.copy(), sim.velocities.copy(), sim.time)
            sim.step()
    p, v, t = last
    assert np.array_equal(sim.positions, p) and np.array_equal(sim.velocities, v)
    assert sim.time == t


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda s: s.add_force(0, 5, 1.0), IndexError, "force j"),
        (lambda s: s.add_force(1, 1, 1.0), ValueError, "distinct"),
        (lambda s: s.add_force(0, 1, float("inf")), ValueError, "force"),
        (lambda s: s.add_force(0, 1, lambda a, b: "x"), TypeError, "not a number"),
        (lambda s: s.add_torque(0, 1, 1.0), ValueError, "no rod 0-1"),
        (lambda s: s.add_spring(0, 1, 1.0, nonlinear_stiffness=np.nan), ValueError, "nonlinear"),
    ],
)
def test_bad_elements_are_refused_and_change_nothing(call, error, match):
    sim = free_pair()
    with pytest.raises(error, match=match):
        call(sim)
    assert sim.actuators == () and sim.springs == []
