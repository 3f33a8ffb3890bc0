"""Checks shared by the motion and widget robustness tests (tests/motion, tests/widget).

The tolerances are the simulator's own (``linkage_widget.motion``), so the tests
assert what the simulator documents, not a looser number of their own.
"""

import numpy as np

from linkage_widget import Linkage
from linkage_widget.motion import (
    CONDITIONED_ROUNDOFF,
    PROJECTION_TOL,
    ROUNDOFF_FACTOR,
    Simulator,
)

EPS = float(np.finfo(float).eps)


def exact_tolerance(sim: Simulator) -> float:
    """The constraint error an exact linkage may show: PROJECTION_TOL or the round-off floor.

    motion.tolerances: round-off is ROUNDOFF_FACTOR ulps of the largest coordinate over the
    shortest rod or fixed-angle arm, accepted up to CONDITIONED_ROUNDOFF times when the
    conditioning amplifies it.
    """
    cs = sim.constraints
    big = max(float(np.abs(sim.positions).max(initial=0.0)), cs.length_scale)
    short = cs.shortest_length(sim.positions)
    return max(PROJECTION_TOL, CONDITIONED_ROUNDOFF * ROUNDOFF_FACTOR * EPS * big / short)


def run_until_settled(sim: Simulator, max_steps: int = 5000) -> int:
    for k in range(max_steps):
        sim.step()
        if sim.status in ("blocked", "reached target"):
            return k + 1
    raise AssertionError(f"still {sim.status!r} after {max_steps} steps")


def assert_frozen(sim: Simulator, steps: int = 200) -> None:
    """No jitter: further steps leave the positions bit for bit as they are."""
    before = sim.positions.copy()
    for _ in range(steps):
        sim.step()
        assert sim.status == "blocked"
        assert np.array_equal(sim.positions, before)


def off_manifold(mode: str) -> Simulator:
    """A triangle whose simulator is then put on one line: its three rods cannot all hold.

    There is no public way to put a simulator off its constraints (its targets are
    measured where it is built); ``_assign`` is the one place that assigns the state.
    """
    tri = Linkage([[0.0, 0.0], [1.0, 0.0], [0.5, 0.8]], rods=[(0, 1), (1, 2), (0, 2)], pinned=[0])
    sim = Simulator(tri, mode=mode, step_size=0.1 if mode == "kinematic" else 1 / 60)
    sim._assign(sim._state()._replace(p=np.array([0.0, 0.0, 2.0, 0.0, 1.0, 0.0])))
    return sim
