r"""Chains of cables thrown about under gravity: no cable ever longer than its length.

The references are independent of the simulator: each cable's length is measured from
the joints' positions, and the energy is :math:`\tfrac12 \sum_i m_i |v_i|^2 + \sum_i m_i g y_i`
with the joint masses :math:`m_i = m / n` (``mass_distribution=0``: all the mass in the
hinges, shared equally, :mod:`linkage_widget.mass`).
"""

from __future__ import annotations

import numpy as np

from linkage_widget import Linkage
from linkage_widget.motion import Simulator

G, H = 9.81, 1 / 60
ROUNDOFF = 1e-12  # relative: what a cable may be longer than its length


def _overreach(sim: Simulator, link: Linkage, lengths: np.ndarray) -> float:
    """The largest relative excess of a cable over its length in the current placement."""
    p = sim.positions
    rods = np.asarray(link.rods)
    return float(np.max(np.linalg.norm(p[rods[:, 0]] - p[rods[:, 1]], axis=1) / lengths - 1.0))


def _chain(n: int, spacing: float) -> tuple[Linkage, np.ndarray]:
    """A hanging chain of ``n`` cables pinned at the top, with its cable lengths."""
    pts = [[0.0, -spacing * k] for k in range(n + 1)]
    link = Linkage(pts, cables=[(k, k + 1) for k in range(n)], pinned=[0])
    return link, np.full(n, spacing)


def _worst(link: Linkage, lengths: np.ndarray, v: np.ndarray, steps: int) -> float:
    sim = Simulator(link, mode="dynamic", step_size=H, gravity=G)
    sim.set_velocity(v)
    worst = -np.inf
    for _ in range(steps):
        sim.step()
        worst = max(worst, _overreach(sim, link, lengths))
    return worst


def test_two_cable_chain_thrown_up_never_stretches() -> None:
    # a cached slack set must not be changed in place by a later step: the lower cable
    # was once never held again and stretched to 2.37 times its length
    link, lengths = _chain(2, 1.0)
    assert _worst(link, lengths, np.array([[0, 0], [2, 5], [-3, 8.0]]), 40) <= ROUNDOFF


def test_six_cable_rope_thrown_about_never_stretches() -> None:
    link, lengths = _chain(6, 0.5)
    v = np.array([[0.0, 0.0]] + [[(-1) ** k * 3.0, 5.0 + k] for k in range(1, 7)])
    assert _worst(link, lengths, v, 120) <= ROUNDOFF


def _energy(sim: Simulator, masses: np.ndarray) -> float:
    r""":math:`\tfrac12 \sum m_i |v_i|^2 + \sum m_i g y_i`, from the positions and velocities."""
    v, p = sim.velocities, sim.positions
    return float(0.5 * masses @ np.sum(v**2, axis=1) + G * masses @ p[:, 1])


def _energies(
    link: Linkage, lengths: np.ndarray, v: np.ndarray, steps: int
) -> tuple[np.ndarray, np.ndarray, float]:
    """Energies ``(steps + 1,)``, which steps were impacts ``(steps,)``, the start's kinetic one.

    An impact step starts with a cable slack (shorter by more than 1e-9 of its length)
    and ends with it taut.
    """
    sim = Simulator(link, mode="dynamic", step_size=H, gravity=G)  # total mass 1, in the hinges
    sim.set_velocity(v)
    rods = np.asarray(link.rods)
    masses = np.full(len(sim.positions), 1.0 / len(sim.positions))

    def slack() -> np.ndarray:
        p = sim.positions
        return np.linalg.norm(p[rods[:, 0]] - p[rods[:, 1]], axis=1) < lengths * (1 - 1e-9)

    kinetic = 0.5 * float(masses @ np.sum(sim.velocities**2, axis=1))
    energies, impacts = [_energy(sim, masses)], []
    for _ in range(steps):
        was = slack()
        sim.step()
        impacts.append(bool((was & ~slack()).any()))
        energies.append(_energy(sim, masses))
    return np.array(energies), np.array(impacts), kinetic


def _check_energy(e: np.ndarray, impacts: np.ndarray, kinetic: float) -> None:
    rise = np.diff(e)
    assert impacts.any()
    # an inelastic impact: the energy only falls (to round-off) across the step
    assert np.max(rise[impacts]) <= 1e-9 * kinetic
    # elsewhere RATTLE's own error with h * omega up to about 0.7 (fast swings): a few %
    assert np.max(rise) <= 0.05 * kinetic
    assert e[-1] < e[0]


def test_a_cable_going_taut_inside_a_step_adds_no_energy() -> None:
    # the retaken step once ran RATTLE from the start with the cable held while it was
    # far slack: the energy rose by 4.6 times the kinetic energy in one step
    link, lengths = _chain(2, 0.5)
    v = np.array([[0, 0], [-9.865, 2.468], [10.192, -4.004]])
    _check_energy(*_energies(link, lengths, v, 60))


def test_a_rope_jerked_taut_adds_no_energy() -> None:
    link, lengths = _chain(6, 0.5)
    v = np.random.default_rng(4).normal(scale=5.0, size=(7, 2))
    v[0] = 0.0
    _check_energy(*_energies(link, lengths, v, 120))
