"""Accelerations, constraint forces and motor torques against sympy.physics.mechanics.

These are quantities *at a state*: the simulator solves the acceleration-level
equations exactly there (:attr:`Simulator.accelerations`,
:attr:`Simulator.constraint_forces`, :attr:`Simulator.motor_torques`), so each test
evaluates the sympy reference of ``sympy_models`` at the simulator's own state and
asks for agreement to round-off (``1e-9`` relative; measured: 1e-11 or better), not
to a time-stepping error.
The references: KanesMethod equations of motion; rod tensions from Kane's auxiliary
speeds; pin reactions from the momentum balance :math:`R = \\sum_i m_i (a_i + g\\hat y)`
over every mass (the pinned joint's own share included, as the simulator documents:
"a hanging mass's pin pushes up"); the crank torque that keeps a four-bar turning at
constant speed from the same equations with :math:`\\ddot q_1 = 0`.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy_models as ref
from test_sympy_actuators import G, dynamic, run, torque_law

RTOL = 1e-9


def _angles(sim, chain):
    """Absolute angles then angular speeds of the rods ``chain`` at the simulator's state."""
    p, v = sim.positions, sim.velocities
    q, u = [], []
    for i, j in chain:
        d, dd = p[j] - p[i], v[j] - v[i]
        q.append(np.arctan2(d[1], d[0]))
        u.append((d[0] * dd[1] - d[1] * dd[0]) / (d @ d))
    return np.array([*q, *u])


def _close(a, b):
    scale = np.abs(b).max()
    return np.abs(np.asarray(a) - b).max() <= RTOL * scale


# ------------------------------------------------------------ accelerations
def test_accelerations_of_a_torque_driven_pendulum():
    # Released with speed, alpha = 0.6: at t = 0 both sides see the same state.
    length, angle0, speed0, m, alpha = 0.9, -0.3, 1.7, 1.5, 0.6
    tip = length * np.array([np.cos(angle0), np.sin(angle0)])
    sim = dynamic([[0, 0], tip], [(0, 1)], [0], alpha=alpha, total_mass=m, g=G)
    sim.add_torque(0, 1, torque_law)
    sim.set_velocity([[0, 0], speed0 * length * np.array([-np.sin(angle0), np.cos(angle0)])])
    want = ref.pendulum_with_torque(
        length, angle0, [0.0], speed0=speed0, alpha=alpha, total_mass=m, g=G, torque=torque_law
    )
    assert _close(sim.accelerations, want.accelerations[0])


@pytest.mark.parametrize("alpha", [0.0, 0.7])
def test_accelerations_of_the_damped_four_bar_in_motion(alpha):
    # The reference's state at t = 1 s (moving, spring and damper loaded) as a new linkage.
    sides, spring = (1.0, 2.2, 1.6, 2.0), dict(stiffness=6.0, rest_length=1.5, damping=0.8)
    want = ref.four_bar_spring_damper(
        2.0, [1.0], sides=sides, alpha=alpha, total_mass=2.0, g=G, **spring
    )
    sim = dynamic(
        want.positions[0], [(0, 1), (1, 2), (3, 2)], [0, 3], alpha=alpha, total_mass=2.0, g=G
    )
    sim.add_spring(1, 3, spring["stiffness"], spring["rest_length"], spring["damping"])
    sim.set_velocity(want.velocities[0])
    assert np.abs(sim.velocities - want.velocities[0]).max() < 1e-9  # already allowed
    assert _close(sim.accelerations, want.accelerations[0])


# ------------------------------------------------ rod tensions, pin reaction
def test_tensions_and_pin_reaction_of_a_two_link_with_elbow_torque():
    # Massless rods (alpha = 0): after 2 s of motion, the sympy tensions (auxiliary
    # speeds) and accelerations at the simulator's own state.
    lengths, m = (1.0, 0.7), 1.2
    p1 = np.array([np.cos(-0.3), np.sin(-0.3)])
    p2 = p1 + 0.7 * np.array([np.cos(0.4), np.sin(0.4)])
    sim = dynamic([[0, 0], p1, p2], [(0, 1), (1, 2)], [0], total_mass=m, g=G)
    sim.add_torque(1, 2, torque_law, reference=(0, 1))
    run(sim)
    state = _angles(sim, [(0, 1), (1, 2)])
    tensions, acc = ref.two_link_loads(
        [sim.time], [state], lengths, torque=torque_law, total_mass=m, g=G
    )
    forces = sim.constraint_forces
    assert _close(sim.accelerations, acc[0])
    assert _close(forces.rods, tensions[0])
    assert np.abs(tensions[0]).min() > 0.5  # both rods really loaded
    # Momentum balance over the three masses m/3 (the pinned one at rest).
    reaction = m / 3 * (acc[0].sum(axis=0) + [0.0, 3 * G])
    assert forces.pins.shape == (1, 2)
    assert _close(forces.pins[0], reaction)


# -------------------------------------------------------------- motor torque
@pytest.mark.parametrize("alpha", [0.0, 0.7])
def test_motor_torque_on_a_loaded_four_bar(alpha):
    # A motor turns the crank at w against gravity, the spring and the damper B-D:
    # the angle is exactly theta0 + w t, and the torque it exerts is the one sympy
    # needs for u1' = 0 at that state.
    sides, theta0, w, m = (1.0, 2.2, 1.6, 2.0), 2.0, 1.5, 2.0
    spring = dict(stiffness=6.0, rest_length=1.5, damping=0.8)
    place = ref.four_bar_place(theta0, *sides)
    sim = dynamic(place, [(0, 1), (1, 2), (3, 2)], [0, 3], alpha=alpha, total_mass=m, g=G)
    sim.add_spring(1, 3, spring["stiffness"], spring["rest_length"], spring["damping"])
    sim.add_motor(0, 1, w)
    torques = []
    for _ in range(4):
        run(sim, 0.5)
        theta = theta0 + w * sim.time
        tau, p, v, a = ref.four_bar_driven(
            theta, w, sides=sides, alpha=alpha, total_mass=m, g=G, **spring
        )
        assert np.abs(sim.positions - p).max() < 1e-9
        assert np.abs(sim.velocities - v).max() < 1e-8
        assert _close(sim.accelerations, a)
        assert sim.motor_torques[0] == pytest.approx(tau, rel=RTOL)
        torques.append(tau)
    assert np.ptp(torques) > 0.5  # the load really changes over the turn
