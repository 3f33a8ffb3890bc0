"""Stiff springs in dynamic mode: bounded energy, or a refused step (issue 22, items 1 and 5).

A dynamic step is split so that :math:`h\\,\\omega_{max} \\le` ``STIFF_STEP`` for the
highest frequency of the *constrained* linkage (the spring acting through the chain,
the rods' tension), at most ``MAX_SPRING_SUBSTEPS`` times; a conservative step that
changed the energy by more than ``ENERGY_STEP`` is taken again with twice the
sub-steps. Beyond that cap the step is refused: status ``"refused"``, the state as it
was, the reason in ``blocked_reason``.

The bound stated (and asserted by the property test): with springs, undamped and
without gravity, the total energy stays within ``ENERGY_BOUND`` = 5 % of its start
over ``STEPS`` steps, or the step is refused with a message.
"""

from __future__ import annotations

import math
import time
from typing import NamedTuple

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from linkage_widget import Linkage, Simulator
from linkage_widget.motion._stiffness import stiffest_frequency

ENERGY_BOUND = 0.05
STEPS = 20

CHAIN = [
    [0.6759, 0.4256],
    [1.8802, 0.1942],
    [3.3442, 0.8807],
    [4.0812, 1.5206],
    [4.6437, 1.7706],
    [5.5778, 2.3316],
    [6.813, 3.2387],
    [7.2638, 2.6766],
    [7.1653, 3.3358],
    [7.622, 3.1749],
    [8.1074, 3.2843],
    [9.6527, 2.8568],
    [10.8917, 3.7549],
    [12.5217, 3.1205],
]


def chain(stiffness: float, step_size: float = 1 / 60) -> Simulator:
    """The issue's chain of 13 rods between two pins, pulled by a spring 9-12."""
    link = Linkage(CHAIN, rods=[(i, i + 1) for i in range(13)], pinned=[0, 13])
    sim = Simulator(link, mode="dynamic", step_size=step_size)
    sim.add_spring(9, 12, stiffness, rest_length=2.27)
    return sim


def energy(sim: Simulator) -> float:
    return sim.kinetic_energy() + sim.potential_energy()


def state(sim: Simulator) -> tuple[np.ndarray, np.ndarray, float]:
    return sim.positions.copy(), sim.velocities.copy(), sim.time


def assert_refused_and_kept(sim: Simulator, before: tuple[np.ndarray, np.ndarray, float]) -> None:
    """A refused step: the status, a reason, and the state exactly as it was."""
    assert sim.status == "refused"
    assert sim.blocked_reason, "a refused step says why"
    p, v, t = before
    assert np.array_equal(sim.positions, p) and np.array_equal(sim.velocities, v)
    assert sim.time == t


# ------------------------------------------------------------------ item 1
def test_the_issue_chain_with_a_stiff_spring_keeps_its_energy_or_refuses():
    # Before: 1.68, 3.77, 22.1, 2.01 times the energy after each 30 steps.
    sim = chain(1e4)
    e0 = energy(sim)
    for _ in range(120):
        before = state(sim)
        sim.step()
        if sim.status == "refused":
            assert_refused_and_kept(sim, before)
            assert "time step" in str(sim.blocked_reason)
            break
        assert sim.status == "moved"
        assert abs(energy(sim) / e0 - 1.0) <= ENERGY_BOUND
    assert sim.status == "refused"  # it straightens and stiffens beyond 64 sub-steps at 1/60 s


def test_the_issue_chain_with_a_soft_spring_keeps_its_energy():
    # k = 100 at 1/60 s: a 7 % gain in 120 steps before (SHAKE failed on a third of the
    # steps, whose halving let the energy drift); now the count follows the chain's tension.
    sim = chain(100.0)
    e0 = energy(sim)
    worst = 0.0
    for _ in range(4):
        sim.step(30)
        assert sim.status == "moved"
        worst = max(worst, abs(energy(sim) / e0 - 1.0))
    assert worst <= 0.03


def test_the_estimate_is_the_frequency_of_the_constrained_linkage():
    # The largest generalised eigenvalue of (N^T K N, N^T M N) on the constraints'
    # tangent space (dense, for the check), K the spring's and the rods' tension's
    # stiffness; the particle bound k (1/m_i + 1/m_j) says nothing of the second.
    import scipy.linalg as sla

    sim = chain(1e4)
    sim.step(2)
    inputs = sim._inputs()
    setup, forces, p = sim._stepping.setup(inputs), inputs.forces(sim._dim), sim._p
    cs = setup.constraints
    b = -cs.second_derivative(p, sim._v, sim._v)
    force = forces.conservative(setup.metric, p)
    _, lam = setup.mass_factor(p).solve(force, b)
    n, t = len(p), 1e-6
    stiffness = np.zeros((n, n))
    for i in range(n):
        e = np.zeros(n)
        e[i] = t
        spring = forces.conservative(setup.metric, p + e) - forces.conservative(setup.metric, p - e)
        rods = (cs.jacobian(p + e) - cs.jacobian(p - e)).T @ lam
        stiffness[:, i] = (rods - spring) / (2 * t)
    basis = sla.null_space(cs.jacobian(p).toarray())
    k = basis.T @ (0.5 * (stiffness + stiffness.T)) @ basis
    m = basis.T @ setup.metric.matrix.toarray() @ basis
    exact = math.sqrt(sla.eigh(k, m, eigvals_only=True)[-1])
    estimate = stiffest_frequency(setup, forces, p, sim._v)
    assert estimate == pytest.approx(exact, rel=1e-3)
    spring_alone = math.sqrt(1e4 * (1 / setup.metric.vertex[9] + 1 / setup.metric.vertex[12]))
    assert exact > 1.5 * spring_alone  # the rods' tension: what the old bound missed


def assert_bound_or_refused(sim: Simulator, steps: int = STEPS) -> None:
    """The property: the energy within ``ENERGY_BOUND`` of its start, or a refused step."""
    e0 = energy(sim)
    assert e0 > 0.0
    for _ in range(steps):
        before = state(sim)
        sim.step()
        if sim.status == "refused":
            assert_refused_and_kept(sim, before)
            return
        assert sim.status in ("moved", "idle")
        assert abs(energy(sim) - e0) <= ENERGY_BOUND * e0, sim.status


# ------------------------------------------------------------------ item 5
def test_a_spring_far_too_stiff_for_the_step_is_refused_at_once():
    # Before: 1e8 ran 64 sub-steps split 8 deep (30 s of CPU for one step) and the joint
    # flew off, status "moved".
    sim = chain(1e8)
    before = state(sim)
    t0 = time.process_time()
    sim.step(5)
    assert time.process_time() - t0 < 5.0
    assert_refused_and_kept(sim, before)
    assert "sub-steps" in str(sim.blocked_reason)


def test_the_attractor_with_a_time_step_of_30_s_is_refused():
    # Before: NaN positions, status "moved".
    sim = Simulator(Linkage.load("peaucellier.txt"), mode="dynamic", step_size=30.0)
    sim.attract(5, (150.0, 200.0))
    before = state(sim)
    sim.step(3)
    assert_refused_and_kept(sim, before)
    assert np.all(np.isfinite(sim.positions))


def test_a_step_that_overflows_is_refused_not_moved():
    # gravity 1e300 on a pendulum: the velocities overflow to inf within a step.
    link = Linkage([[0.0, 0.0], [1.0, 0.0]], rods=[(0, 1)], pinned=[0])
    sim = Simulator(link, mode="dynamic", step_size=1e10, gravity=1e300)
    before = state(sim)
    sim.step()
    assert_refused_and_kept(sim, before)
    assert "non-finite" in str(sim.blocked_reason)


def test_a_motion_frozen_by_float_resolution_is_not_reported_as_moved():
    # At an offset of 1e10 one ulp is 2e-6: steps of 1e-4 s never change a coordinate.
    off = 1e10
    pts = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], float) + off
    link = Linkage(pts, rods=[(0, 1), (1, 2), (2, 3)], pinned=[0, 3])
    sim = Simulator(link, mode="dynamic", step_size=1e-4)
    sim.attract(1, (off + 1.5, off + 0.5))
    before = state(sim)
    sim.step(5)
    assert sim.status != "moved"
    assert_refused_and_kept(sim, before)
    assert "float64" in str(sim.blocked_reason)


def test_a_linkage_at_rest_is_idle_not_moved():
    sim = Simulator(Linkage.load("four_bar.txt"), mode="dynamic", step_size=1 / 60)
    sim.step(3)
    assert sim.status == "idle" and not sim.velocities.any()


# ------------------------------------------------------------ the property
class Chain(NamedTuple):
    """A chain with a spring across it, as plain numbers (so a counterexample can be pinned)."""

    points: list[list[float]]
    pinned: list[int]
    step_size: float
    mass_distribution: float
    total_mass: float
    spring: tuple[int, int, float, float]  # i, j, stiffness, rest length

    def simulator(self) -> Simulator:
        rods = [(i, i + 1) for i in range(len(self.points) - 1)]
        link = Linkage(np.array(self.points), rods=rods, pinned=self.pinned)
        sim = Simulator(
            link,
            mode="dynamic",
            step_size=self.step_size,
            mass_distribution=self.mass_distribution,
            total_mass=self.total_mass,
        )
        i, j, k, rest = self.spring
        sim.add_spring(i, j, k, rest_length=rest)
        return sim


@st.composite
def spring_chains(draw: st.DrawFn) -> Chain:
    """A chain of 2-4 rods, pinned at one or both ends, with a stretched spring across it.

    A third of the chains are nearly straight (angles within 0.06 rad): the spring
    then pulls or pushes the chain through its straight placement, where the tension
    over the vanishing angle makes the frequency peak within a step.
    """
    rods = draw(st.integers(2, 4))
    bend = draw(st.sampled_from([1.0, 1.0, 0.05]))
    angles = [bend * a for a in draw(st.lists(st.floats(-1.2, 1.2), min_size=rods, max_size=rods))]
    lengths = draw(st.lists(st.floats(0.5, 2.0), min_size=rods, max_size=rods))
    pts = [np.zeros(2)]
    for a, length in zip(np.cumsum(angles), lengths, strict=True):
        pts.append(pts[-1] + length * np.array([math.cos(a), math.sin(a)]))
    both = draw(st.booleans())
    step_size = 10 ** draw(st.floats(-4.0, math.log10(1 / 30)))
    mass_distribution = draw(st.floats(0.0, 1.0))
    total_mass = 10 ** draw(st.floats(-1.0, 1.0))
    i = draw(st.integers(0, rods - 2))
    j = draw(st.integers(i + 2, rods))
    gap = float(np.linalg.norm(pts[i] - pts[j]))
    stretch = draw(st.sampled_from([0.6, 0.8, 1.25, 1.5]))
    spring = (i, j, 10 ** draw(st.floats(-3.0, 8.0)), gap * stretch)
    pinned = [0, rods] if both and rods >= 3 else [0]
    points = [p.tolist() for p in pts]
    return Chain(points, pinned, step_size, mass_distribution, total_mass, spring)


# derandomize: the same 12 chains on every run, so CI never meets a new counterexample
# and spends minutes shrinking it. The examples are counterexamples from before the
# energy check (when this test was a strict xfail): a chain pushed through its straight
# placement drifted 9 % in 20 steps (+5.6 % in one step: h * omega_max about 1 at both
# ends, 3.8 in the middle, 4 sub-steps planned where 8 were needed); a nearly straight
# zigzag folded by a spring of 1e5 lost 19.7 %.
@example(
    Chain(
        [[0.0, 0.0], [0.759, 0.1217], [2.7338, 0.4383], [3.9896, -0.5156], [4.6724, -0.2668]],
        [0, 4],
        0.01,
        0.969,
        0.168,
        (2, 4, 511.87, 2.5786),
    )
)
@example(
    Chain(
        [[0.0, 0.0], [1.0, 0.05], [2.0, 0.0], [3.0, 0.05], [4.0, 0.0]],
        [0],
        0.003,
        1.0,
        1.0,
        (0, 4, 1e5, 2.4),
    )
)
@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    phases=(Phase.explicit, Phase.generate),  # no shrinking: minutes in CI
    suppress_health_check=[HealthCheck.too_slow],
)
@given(spring_chains())
def test_energy_stays_within_the_bound_or_the_step_is_refused(case: Chain):
    assert_bound_or_refused(case.simulator())
