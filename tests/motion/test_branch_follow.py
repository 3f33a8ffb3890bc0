"""Every branch offered at a singular stop can be followed (issue 22, item 2).

A flat parallelogram driven by a motor (crank 1.2, coupler 1.8) stopped there with two
branch lines, the parallelogram and the antiparallelogram (crossed), and each of the four
ways failed: the projection off the singular placement reused the Jacobian factorised
there, which has lost rank, and stalled at a residual of 1e-6.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from linkage_widget import Linkage, Simulator


def motor_parallelogram() -> Simulator:
    """Issue 22's item 2: crank 1.2, coupler 1.8, a motor, run into the flat placement."""
    a = [1.2 * math.cos(0.5), 1.2 * math.sin(0.5)]
    link = Linkage(
        [[0, 0], a, [1.8 + a[0], a[1]], [1.8, 0]], rods=[(0, 1), (1, 2), (2, 3)], pinned=[0, 3]
    )
    sim = Simulator(link, mode="kinematic", step_size=0.05)
    sim.add_motor(0, 1, 3.0)
    for _ in range(200):
        sim.step()
        if sim.status == "singular":
            return sim
    raise AssertionError("the motor never reached the flat placement")


def motor_error(sim: Simulator) -> float:
    """How far each motor is from its rheonomic angle phase + speed t (radians)."""
    targets = [m.phase + m.speed * sim.time for m in sim.motors]
    return float(np.max(np.abs(sim.motor_angles - targets)))


@pytest.mark.parametrize("sense", [1, -1])
@pytest.mark.parametrize("line", [0, 1])
def test_every_branch_offered_at_a_motored_flat_parallelogram_can_be_followed(line, sense):
    sim = motor_parallelogram()
    lines = sim.branches()
    assert len(lines) == 2  # the parallelogram and the antiparallelogram (crossed)
    at = sim.positions.copy()
    d = sense * lines[line].reshape(-1)
    sim.follow_branch(line, sense)
    assert sim.status == "moved"
    moved = (sim.positions - at).reshape(-1)
    assert moved @ d > 0.99 * np.linalg.norm(moved) > 0  # off the placement, along it
    assert sim.constraint_error() < 1e-12 and motor_error(sim) < 1e-12
    p = sim.positions
    crossed = abs(p[1, 1] - p[2, 1]) > 1e-3  # the coupler no longer parallel to the ground
    for _ in range(20):
        sim.step()
        assert sim.status == "moved"
    q = sim.positions
    assert (abs(q[1, 1] - q[2, 1]) > 1e-3) == crossed  # it kept to the branch it took
    assert sim.constraint_error() < 1e-12 and motor_error(sim) < 1e-12
    # and the two lines are the two branches
    assert crossed == (abs(lines[line, 1, 1] - lines[line, 2, 1]) > 1e-3)
