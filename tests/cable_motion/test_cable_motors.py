r"""A kinematic motor with a cable: it turns while it shortens the cable, stops where it is taut.

A crank of length 1 about the origin, its tip tied to the pinned point (3, 0) by a cable
of length 3.5 (taut at the start, angle :math:`\theta_0 = \arccos(-0.375)` by hand:
:math:`|(\cos\theta, \sin\theta) - (3, 0)|^2 = 10 - 6\cos\theta`). Turning clockwise
shortens the cable until :math:`\theta = 0`, then lengthens it back: taut again at
:math:`-\theta_0`, where the motor must stop. The motor's angle is checked against
:math:`\theta_0 + \omega t` at every step that moved.
"""

from __future__ import annotations

import numpy as np

from linkage_widget import Linkage
from linkage_widget.motion import Simulator

C = -0.375
THETA0 = float(np.arccos(C))


def _crank(speed: float, h: float) -> Simulator:
    link = Linkage(
        [[0.0, 0.0], [C, np.sqrt(1 - C * C)], [3.0, 0.0]],
        rods=[(0, 1)],
        cables=[(1, 2)],
        pinned=[0, 2],
    )
    sim = Simulator(link, mode="kinematic", step_size=h)
    sim.add_motor(0, 1, speed)
    return sim


def test_a_motor_lengthening_a_taut_cable_is_blocked() -> None:
    sim = _crank(1.0, 0.01)
    sim.step()
    assert sim.status == "blocked"
    assert np.linalg.norm(sim.positions[1] - [3.0, 0.0]) <= 3.5 * (1 + 1e-12)


def test_a_motor_shortening_a_taut_cable_turns_until_it_is_taut_again() -> None:
    # the taut cable once held as a rod: blocked at once both ways
    h = 0.01
    sim = _crank(-1.0, h)
    for _ in range(500):
        sim.step()
        p = sim.positions[1]
        assert np.linalg.norm(p - [3.0, 0.0]) <= 3.5 * (1 + 1e-12)
        if sim.status != "moved":
            break
        # a moved step lands on the motor's target (once it landed on the cable's limit)
        assert abs(np.arctan2(p[1], p[0]) - (THETA0 - sim.time)) <= 1e-10
    assert sim.status == "blocked"
    # stopped within a step of the angle where the cable is taut again
    angle = float(np.arctan2(sim.positions[1, 1], sim.positions[1, 0]))
    assert -THETA0 <= angle <= -THETA0 + 1.01 * h
