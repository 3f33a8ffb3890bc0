"""Masses per joint and rod against independent oracles.

* Attia's equivalent particles of a non-uniform rod (sympy, exact): they reproduce the
  rod's mass, centre of mass and moment of inertia, and the mass-matrix block is the
  integral of the density.
* A compound pendulum's small-oscillation period against :math:`2\\pi\\sqrt{I_O/(m g d)}`.
* Energy conserved with per-element masses; joint masses are the diagonal of seed 002's
  kinetic metric.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from linkage_widget import Linkage, Simulator
from linkage_widget.constraints import rigidity_matrix
from linkage_widget.mass import equivalent_particles, mass_matrix, rod_block, rod_particles

S = sp.symbols("s")


def _moments(density: sp.Expr, length: sp.Expr) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    """Mass, centre (distance from the first end) and inertia about the centre, by integration."""
    mass = sp.integrate(density, (S, 0, length))
    centre = sp.integrate(S * density, (S, 0, length)) / mass
    inertia = sp.integrate((S - centre) ** 2 * density, (S, 0, length))
    return sp.nsimplify(mass), sp.nsimplify(centre), sp.nsimplify(inertia)


DENSITIES = {
    "linear": (1 + 3 * S, sp.Integer(2)),
    "quadratic": (S**2, sp.Integer(1)),
    "heavy first half": (sp.Piecewise((5, S < sp.Rational(1, 2)), (1, True)), sp.Integer(1)),
}


@pytest.mark.parametrize("name", DENSITIES)
def test_equivalent_particles_reproduce_mass_centre_and_inertia_exactly(name: str) -> None:
    density, length = DENSITIES[name]
    mass, centre, inertia = _moments(density, length)
    m1, m2, m3 = rod_particles(length, mass, centre / length, inertia)
    places = (0, length / 2, length)
    assert sp.simplify(m1 + m2 + m3 - mass) == 0
    assert sp.simplify(m2 * places[1] + m3 * places[2] - mass * centre) == 0
    second = sum(m * (x - centre) ** 2 for m, x in zip((m1, m2, m3), places, strict=True))
    assert sp.simplify(second - inertia) == 0


@pytest.mark.parametrize("name", DENSITIES)
def test_the_block_is_the_integral_of_the_density(name: str) -> None:
    """T = 1/2 int rho |(1-u) v_i + u v_j|^2 ds: the block is int rho [(1-u)^2, u(1-u); ., u^2]."""
    density, length = DENSITIES[name]
    mass, centre, inertia = _moments(density, length)
    u = S / length
    exact = [sp.integrate(density * w, (S, 0, length)) for w in ((1 - u) ** 2, u * (1 - u), u**2)]
    block = rod_block(length, mass, centre / length, inertia)
    assert [sp.simplify(b - e) for b, e in zip(block, exact, strict=True)] == [0, 0, 0]
    # and the float mass matrix of a linkage holding that rod, joints of mass 1 and 2
    # (a joint left with no mass at all would get the floor mass that keeps M definite)
    link = Linkage([[0.0, 0.0], [float(length), 0.0]], rods=[(0, 1)])
    link.masses.set_joint(0, 1.0)
    link.masses.set_joint(1, 2.0)
    link.masses.set_rod(0, float(mass), float(centre / length), float(inertia))
    m = mass_matrix(link).toarray()
    want = np.array([[exact[0] + 1, exact[1]], [exact[1], exact[2] + 2]], dtype=float)
    np.testing.assert_allclose(m[::2, ::2], want, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(m[1::2, 1::2], want, rtol=1e-12, atol=1e-14)
    assert not m[::2, 1::2].any()


def test_a_uniform_rod_of_its_own_is_the_distributions_rod() -> None:
    """Own mass mu, middle, default inertia: the same matrix as alpha = 1 puts there."""
    link = Linkage([[0, 0], [2, 0], [2, 1]], rods=[(0, 1), (1, 2)])
    shared = mass_matrix(link, 1.0, 3.0).toarray()  # rods of 2 and 1: masses 2 and 1
    own = link.copy()
    for i in range(3):
        own.masses.set_joint(i, 0.0)
    own.masses.set_rod(0, 2.0)
    own.masses.set_rod(1, 1.0)
    np.testing.assert_allclose(mass_matrix(own, 0.0, 3.0).toarray(), shared, rtol=1e-15)


def test_joint_masses_are_seed_002s_kinetic_metric() -> None:
    """Massless rods, point masses m_k at the hinges: M = diag(m_k) (x) I (seed 002)."""
    chain = Linkage([[0, 0], [1, 0], [2, 0], [3, 0]], rods=[(0, 1), (1, 2), (2, 3)], pinned=[0, 3])
    masses = [1.0, 2.0, 0.5, 3.0]
    for i, m in enumerate(masses):
        chain.masses.set_joint(i, m)
    for r in range(3):
        chain.masses.set_rod(r, 0.0)
    np.testing.assert_array_equal(mass_matrix(chain).toarray(), np.diag(np.repeat(masses, 2)))
    sim = Simulator(chain, mode="dynamic", step_size=0.01)
    v = np.array([[0, 0], [0, 1.0], [0, -2.0], [0, 0]])
    sim.set_velocity(v)
    kept = sim.velocities
    want = 0.5 * sum(m * (k @ k) for m, k in zip(masses, kept, strict=True))
    assert sim.kinetic_energy() == pytest.approx(want)


def test_particles_of_a_rod_heavy_at_one_end_stay_positive() -> None:
    """A point mass a quarter along: Attia's m3 < 0; the solver's particles are all >= 0."""
    link = Linkage([[0, 0], [1, 0]], rods=[(0, 1)])
    link.masses.set_joint(0, 0.0)
    link.masses.set_joint(1, 0.0)
    link.masses.set_rod(0, 1.0, 0.25, 0.0)
    assert rod_particles(1.0, 1.0, 0.25, 0.0)[2] < 0
    parts = equivalent_particles(link)
    assert np.all(parts.vertex >= 0) and np.all(parts.middle > 0)
    assert parts.own.tolist() == [True]


def _period(
    centre: float, inertia: float | None, mass: float = 2.0, g: float = 9.81, dim: int = 2
) -> float:
    """Mean period of a rod swinging about its pinned first end, from the zero crossings."""
    theta = 0.01
    tip = [np.sin(theta), -np.cos(theta)] if dim == 2 else [np.sin(theta), 0.0, -np.cos(theta)]
    link = Linkage([[0.0] * dim, tip], rods=[(0, 1)], pinned=[0])  # in space, z is up
    link.masses.set_joint(0, 0.0)
    link.masses.set_joint(1, 0.0)
    link.masses.set_rod(0, mass, centre, inertia)
    sim = Simulator(link, mode="dynamic", step_size=4e-3, gravity=g)
    xs, ts = [], []
    for _ in range(1100):
        sim.step()
        xs.append(sim.positions[1, 0])
        ts.append(sim.time)
    x, t = np.array(xs), np.array(ts)
    k = np.flatnonzero((x[:-1] > 0) & (x[1:] <= 0))
    crossings = t[k] + (t[k + 1] - t[k]) * x[k] / (x[k] - x[k + 1])
    return float(np.mean(np.diff(crossings)))


@pytest.mark.parametrize(
    ("centre", "inertia", "dim"),
    [(0.5, None, 2), (0.8, 0.01, 2), (0.3, 0.05, 2), (1.0, 0.0, 2), (0.8, 0.01, 3)],
)
def test_compound_pendulum_period_against_the_closed_form(centre, inertia, dim) -> None:
    mass, g, length = 2.0, 9.81, 1.0
    i_c = mass * length**2 / 12 if inertia is None else inertia
    d = centre * length
    closed = 2 * np.pi * np.sqrt((i_c + mass * d**2) / (mass * g * d))
    # amplitude 0.01 rad lengthens the period by theta^2/16 = 6e-6: far inside the tolerance
    assert _period(centre, inertia, dim=dim) == pytest.approx(closed, rel=1e-4)


def test_energy_is_conserved_with_per_element_masses() -> None:
    four_bar = Linkage([[0, 0], [0, 1], [2, 1.5], [2.5, 0]], rods=[(0, 1), (1, 2), (2, 3)])
    four_bar.pin(0)
    four_bar.pin(3)
    four_bar.masses.set_joint(1, 0.3)
    four_bar.masses.set_rod(0, 1.0, 0.9, 0.02)
    four_bar.masses.set_rod(1, 2.0, 0.2)
    sim = Simulator(four_bar, mode="dynamic", step_size=2e-3, gravity=9.81, mass_distribution=0.5)
    sim.set_velocity([[0, 0], [1.0, 0], [0, 0], [0, 0]])
    start = sim.kinetic_energy() + sim.potential_energy()
    energies = []
    for _ in range(50):
        sim.step(10)
        energies.append(sim.kinetic_energy() + sim.potential_energy())
    assert sim.kinetic_energy() > 0.01
    assert max(abs(e - start) for e in energies) < 1e-4 * (abs(start) + sim.kinetic_energy())


def _least_energy_velocity(linkage: Linkage, s: int, target) -> np.ndarray:
    """argmin 1/2 v^T M v with A v = 0 and a pull on joint s: the dense KKT system, shape (n, 2)."""
    n = linkage.n_vertices
    a = rigidity_matrix(linkage).toarray()
    m = mass_matrix(linkage).toarray()
    f = np.zeros(2 * n)
    f[2 * s : 2 * s + 2] = np.asarray(target) - linkage.vertices[s]
    kkt = np.block([[m, a.T], [a, np.zeros((len(a), len(a)))]])
    v = np.linalg.solve(kkt, np.r_[f, np.zeros(len(a))])[: 2 * n].reshape(n, 2)
    return v / np.linalg.norm(v)


def test_the_kinematic_pull_takes_the_least_energy_way_of_the_own_masses() -> None:
    chain = Linkage(
        [[0, 0], [40, -15], [100, 35], [125, 110]], rods=[(0, 1), (1, 2), (2, 3)], pinned=[0]
    )
    shared = _least_energy_velocity(chain, 3, (135.0, 55.0))
    chain.masses.set_joint(1, 5.0)
    chain.masses.set_rod(1, 3.0, 0.9, 10.0)
    own = _least_energy_velocity(chain, 3, (135.0, 55.0))
    assert np.linalg.norm(own - shared) > 0.5  # the masses change the way it goes
    sim = Simulator(chain, step_size=0.01)
    sim.attract(3, (135.0, 55.0))
    sim.step()
    moved = sim.positions - chain.vertices
    assert np.linalg.norm(moved / np.linalg.norm(moved) - own) < 1e-3
