"""Pinned joints do not set the spring sub-step count (issue 14).

A spring from a pinned anchor that has no rod, with all the mass on the rods
(``mass_distribution=1``), gave the anchor the placeholder floor mass
(``MASS_FLOOR * m / n``), and the stability bound :math:`h\\omega \\le 1/2` with
:math:`\\omega^2 = k(1/m_i + 1/m_j)` then asked for the 64 sub-step maximum. A
pinned joint never moves: it is the wall the spring pulls against.
"""

from __future__ import annotations

import time

import numpy as np
import pytest

from linkage_widget import Linkage
from linkage_widget.mass import MASS_FLOOR, mass_particles
from linkage_widget.motion import Simulator
from linkage_widget.motion.tolerances import MAX_SPRING_SUBSTEPS, SPRING_STEP

K, MASS, STRETCH, REST = 40.0, 1.0, 0.1, 1.0
H = 1.0 / 60.0  # one widget frame


def spring_on_a_rod(anchor_has_rod: bool) -> Simulator:
    """Anchor 0 pinned at the origin; rod 1-2 on the x axis, pulled by a spring 0-1.

    With ``anchor_has_rod`` the anchor also carries a rod to a second pinned joint 3
    (the "rod-mass neighbour" case: its mass is no placeholder). All mass is on the
    rods; ``MASS`` is the mass of rod 1-2 in both cases.
    """
    pts = [[0.0, 0.0], [REST + STRETCH, 0.0], [REST + STRETCH + 1.0, 0.0]]
    rods, pinned, total = [(1, 2)], [0], MASS
    if anchor_has_rod:
        pts.append([0.0, -1.0])
        rods, pinned, total = [(1, 2), (0, 3)], [0, 3], 2.0 * MASS  # equal rod lengths
    link = Linkage(pts, rods=rods, pinned=pinned)
    sim = Simulator(link, mode="dynamic", step_size=H, mass_distribution=1.0, total_mass=total)
    sim.add_spring(0, 1, K, REST)
    return sim


def substeps(sim: Simulator) -> int:
    """The sub-steps one dynamic step of ``sim`` is split into."""
    inputs = sim._inputs()
    setup = sim._stepping.setup(inputs)
    p = np.asarray(sim.positions, dtype=float).reshape(-1)
    return inputs.forces(sim._dim).substeps(setup.metric, sim.step_size, p, setup.pinned)


def test_the_anchor_of_the_bare_case_has_only_the_floor_mass():
    # The premise: without its own rod the pinned anchor is a placeholder mass.
    sim = spring_on_a_rod(anchor_has_rod=False)
    vertex, _ = mass_particles(sim._stepping.base.linkage, 1.0, MASS)
    assert vertex[0] == pytest.approx(MASS_FLOOR * MASS / 3)


def test_a_pinned_anchor_does_not_set_the_step_count():
    bare, neighbour = spring_on_a_rod(False), spring_on_a_rod(True)
    n_bare, n_neighbour = substeps(bare), substeps(neighbour)
    assert n_bare == n_neighbour
    assert n_bare < MAX_SPRING_SUBSTEPS
    # The count the free end's own mass asks for: omega^2 = k / m_1 (end particle mu/6).
    m1 = MASS / 6.0
    assert n_bare == max(1, int(np.ceil(H * np.sqrt(K / m1) / SPRING_STEP)))


def test_the_cost_per_frame_matches_the_rod_mass_neighbour_case():
    # Cost measured as work, not time: both run the same number of sub-steps per frame,
    # and the bare case is no longer ~64/8 times slower (a loose timing sanity check).
    bare, neighbour = spring_on_a_rod(False), spring_on_a_rod(True)
    costs = []
    for sim in (bare, neighbour):
        sim.step(5)  # warm the factorisations
        t0 = time.process_time()
        sim.step(30)
        costs.append(time.process_time() - t0)
    assert costs[0] < 4.0 * costs[1] + 0.05


def test_the_mass_on_the_spring_follows_the_closed_form():
    # Rod 1-2 moves rigidly along x (by symmetry nothing turns it): a mass MASS on a spring
    # k, x(t) = REST + STRETCH cos(omega t), period 2 pi sqrt(m / k).
    sim = spring_on_a_rod(anchor_has_rod=False)
    omega = np.sqrt(K / MASS)
    period = 2.0 * np.pi / omega
    n = int(round(period / H))
    xs = []
    for _ in range(n):
        sim.step()
        xs.append(sim.positions[1, 0])
    t = H * np.arange(1, n + 1)
    assert np.array(xs) == pytest.approx(
        REST + STRETCH * np.cos(omega * t), abs=5e-3 * STRETCH
    )  # Verlet phase error
    assert sim.positions[:, 1] == pytest.approx(0.0, abs=1e-12)
    assert sim.positions[2, 0] - sim.positions[1, 0] == pytest.approx(1.0, abs=1e-9)
    # one full period later (to the nearest frame) it is back near the start
    assert abs(xs[-1] - (REST + STRETCH)) < 0.05 * STRETCH
