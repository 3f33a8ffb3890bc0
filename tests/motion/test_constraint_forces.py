"""Constraint forces and accelerations on closed forms (issue 12).

Signs: rod tension positive; a pin's reaction is the force the pin exerts on its joint;
a fixed angle's torque is the one it exerts on its second arm (counter-clockwise).
Masses: with ``mass_distribution = 0`` every joint carries ``total_mass / n``.
"""

from __future__ import annotations

import numpy as np
import pytest

from linkage_widget import Linkage
from linkage_widget.motion import Simulator

G = 9.81


def test_a_swinging_pendulum_rod_carries_m_g_cos_phi_plus_m_v2_over_l():
    ell, m = 2.0, 1.0
    link = Linkage([[0, 0], [0, -ell]], rods=[(0, 1)], pinned=[0])
    sim = Simulator(link, mode="dynamic", step_size=1e-3, gravity=G, total_mass=2 * m)
    sim.set_velocity([[0, 0], [3.0, 0]])
    for _ in range(20):
        sim.step(37)
        p, v = sim.positions[1], sim.velocities[1]
        cos_phi = -p[1] / np.linalg.norm(p)
        want = m * G * cos_phi + m * (v @ v) / ell
        assert sim.constraint_forces.rods[0] == pytest.approx(want, rel=1e-9)
        # the rod pulls the pin joint toward the bob (T p/|p|); the pin balances that
        # and the pin joint's own weight
        reaction = sim.constraint_forces.pins[0]
        pull = sim.constraint_forces.rods[0] * p / np.linalg.norm(p)
        assert reaction == pytest.approx(-pull + [0.0, m * G], abs=1e-9)


def test_a_mass_hanging_from_two_rods_in_a_v():
    # Apex mass m hanging from two pins at +-a, depth d: T = m g / (2 cos(phi)).
    a, d, m = 1.0, 2.0, 1.0
    link = Linkage([[-a, 0], [a, 0], [0, -d]], rods=[(0, 2), (1, 2)], pinned=[0, 1])
    sim = Simulator(link, mode="dynamic", step_size=1e-3, gravity=G, total_mass=3 * m)
    sim.step(10)
    cos_phi = d / np.hypot(a, d)
    assert sim.constraint_forces.rods == pytest.approx([m * G / (2 * cos_phi)] * 2, rel=1e-12)
    assert np.abs(sim.accelerations).max() < 1e-9
    assert np.abs(sim.positions[2] - [0, -d]).max() < 1e-12


def test_a_pinned_point_mass_reaction_is_minus_its_weight():
    sim = Simulator(Linkage([[1.0, 2.0]], pinned=[0]), mode="dynamic", gravity=G, total_mass=3.0)
    sim.step()
    assert sim.constraint_forces.pins.reshape(-1) == pytest.approx([0.0, 3.0 * G], rel=1e-12)
    assert sim.accelerations.reshape(-1) == pytest.approx([0.0, 0.0], abs=1e-12)


def test_a_fixed_angle_holds_a_cantilever_with_torque_m_g_l():
    # Joints 0 and 1 pinned, joint 2 of mass m at distance l from 1 along +x, kept there
    # by the fixed angle at 1 between the arms to 0 and to 2: the angle's torque on the
    # arm 1->2 is +m g l (counter-clockwise, holding it up), the rod's tension is zero.
    ell, m = 1.5, 1.0
    link = Linkage(
        [[0, 0], [1, 0], [1 + ell, 0]], rods=[(0, 1), (1, 2)], pinned=[0, 1], angles=[(1, 0, 2)]
    )
    sim = Simulator(link, mode="dynamic", step_size=1e-3, gravity=G, total_mass=3 * m)
    sim.step()
    forces = sim.constraint_forces
    assert forces.angles == pytest.approx([m * G * ell], rel=1e-10)
    assert forces.rods[1] == pytest.approx(0.0, abs=1e-9)


def test_a_pendulum_released_from_horizontal_falls_with_g():
    link = Linkage([[0, 0], [1, 0]], rods=[(0, 1)], pinned=[0])
    sim = Simulator(link, mode="dynamic", step_size=1e-3, gravity=G)
    assert sim.accelerations.reshape(-1) == pytest.approx([0, 0, 0, -G], abs=1e-12)
    assert sim.constraint_forces.rods == pytest.approx([0.0], abs=1e-12)


def test_without_motors_the_motor_torques_are_empty_and_kinematic_mode_is_static():
    link = Linkage([[0, 0], [0, -1]], rods=[(0, 1)], pinned=[0])
    sim = Simulator(link, gravity=G, total_mass=2.0)
    assert sim.motor_torques.shape == (0,)
    assert sim.constraint_forces.rods == pytest.approx([G], rel=1e-12)  # hangs: m g
    assert sim.constraint_forces.pins.shape == (1, 2)


def test_constraint_forces_follow_a_change_of_the_forces_at_the_same_state():
    # A hanging point mass m at depth l: the rod carries m g (+ a spring's pull, + the
    # attractor's). Changing a parameter at the same state must change the answer (the
    # memo of the state's forces must not return the forces of the old parameters).
    link = Linkage([[0, 0], [0, -2]], rods=[(0, 1)], pinned=[0])
    sim = Simulator(link, mode="dynamic", step_size=1e-3, gravity=G, total_mass=2.0)
    assert sim.constraint_forces.rods == pytest.approx([G], rel=1e-12)
    sim.gravity = 2 * G
    assert sim.constraint_forces.rods == pytest.approx([2 * G], rel=1e-12)
    sim.total_mass = 4.0
    assert sim.constraint_forces.rods == pytest.approx([4 * G], rel=1e-12)
    assert sim.accelerations == pytest.approx(np.zeros((2, 2)), abs=1e-10)
    k = sim.add_spring(0, 1, 10.0, rest_length=1.0)  # stretched by 1: pulls 10 up
    assert sim.constraint_forces.rods == pytest.approx([4 * G - 10.0], rel=1e-12)
    sim.remove_spring(k)
    assert sim.constraint_forces.rods == pytest.approx([4 * G], rel=1e-12)
    sim.attract(1, (0.0, -3.0))  # the attractor pulls down by its stiffness times 1
    pull = sim.attractor_stiffness
    assert sim.constraint_forces.rods == pytest.approx([4 * G + pull], rel=1e-12)
    sim.release()
    assert sim.constraint_forces.rods == pytest.approx([4 * G], rel=1e-12)
