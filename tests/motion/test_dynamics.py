"""Dynamic mode against independent solutions; energy, damping, springs, constraints.

The references share no code with the simulator: each mechanism is written in
its own generalised coordinates (angles), its kinetic energy comes from point
masses and uniform bars (a bar of mass mu has T = mu/6 (|v_i|^2 + v_i.v_j + |v_j|^2),
i.e. inertia mu L^2/12 about its centre), and the Euler-Lagrange equations are
integrated by ``scipy.integrate.solve_ivp`` at ``rtol = 1e-10``. Masses follow
DESIGN.md: (1 - alpha) m / n per vertex, rod density alpha m / sum L.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.integrate import solve_ivp

from linkage_widget import Linkage
from linkage_widget.constraints import ConstraintSet
from linkage_widget.mass import mass_matrix
from linkage_widget.motion import Simulator

G = 9.81


def _integrate(rhs, y0, t_end):
    sol = solve_ivp(rhs, (0.0, t_end), y0, rtol=1e-10, atol=1e-12, method="DOP853")
    assert sol.success
    return sol.y[:, -1]


# ------------------------------------------------------------ double pendulum
def _double_pendulum(l1, l2, th):
    """Pivot 0 pinned at the origin, hinges 1 and 2 at angles ``th`` from the downward vertical."""
    p1 = l1 * np.array([np.sin(th[0]), -np.cos(th[0])])
    p2 = p1 + l2 * np.array([np.sin(th[1]), -np.cos(th[1])])
    return Linkage([[0.0, 0.0], p1, p2], rods=[(0, 1), (1, 2)], pinned=[0])


def _double_pendulum_angles(l1, l2, point, bar, th0, t_end, g=G):
    r"""Reference angles at ``t_end`` (released at rest from ``th0``).

    Point masses ``point = (m1, m2)`` at the hinges, uniform bars ``bar = (mu1, mu2)``:
    T = a/2 th1'^2 + b/2 th2'^2 + c cos(th1 - th2) th1' th2' with
    a = (mu1/3 + m1 + m2 + mu2) l1^2, b = (mu2/3 + m2) l2^2, c = (mu2/2 + m2) l1 l2;
    V = -g [(mu1/2 + m1 + m2 + mu2) l1 cos th1 + (mu2/2 + m2) l2 cos th2].
    """
    (m1, m2), (mu1, mu2) = point, bar
    a = (mu1 / 3 + m1 + m2 + mu2) * l1**2
    b = (mu2 / 3 + m2) * l2**2
    c = (mu2 / 2 + m2) * l1 * l2
    k1 = g * (mu1 / 2 + m1 + m2 + mu2) * l1
    k2 = g * (mu2 / 2 + m2) * l2

    def rhs(_t, y):
        t1, t2, w1, w2 = y
        cd, sd = np.cos(t1 - t2), np.sin(t1 - t2)
        mat = np.array([[a, c * cd], [c * cd, b]])
        f = np.array([-c * sd * w2**2 - k1 * np.sin(t1), c * sd * w1**2 - k2 * np.sin(t2)])
        return [w1, w2, *np.linalg.solve(mat, f)]

    return _integrate(rhs, [*th0, 0.0, 0.0], t_end)[:2]


@pytest.mark.parametrize("alpha", [0.0, 1.0, 0.5])
def test_double_pendulum_matches_reduced_coordinates(alpha):
    l1, l2, m, th0 = 1.0, 0.7, 3.0, (1.2, -0.4)
    sim = Simulator(
        _double_pendulum(l1, l2, th0),
        mode="dynamic",
        step_size=1e-3,
        mass_distribution=alpha,
        total_mass=m,
        gravity=G,
    )
    sim.step(1000)
    assert sim.time == pytest.approx(1.0)
    point = ((1 - alpha) * m / 3,) * 2  # the pinned pivot's share never moves
    bar = (alpha * m * l1 / (l1 + l2), alpha * m * l2 / (l1 + l2))
    ref = _double_pendulum_angles(l1, l2, point, bar, th0, 1.0)
    expected = _double_pendulum(l1, l2, ref).vertices
    assert np.abs(sim.positions - expected).max() < 1e-4
    assert sim.constraint_error() < 1e-12


def test_mass_distribution_changes_the_dynamics():
    # alpha = 1 makes the rods compound pendulums: the same release swings differently.
    link = _double_pendulum(1.0, 0.7, (1.2, -0.4))
    out = []
    for alpha in (0.0, 1.0):
        sim = Simulator(link, mode="dynamic", step_size=2e-3, mass_distribution=alpha, gravity=G)
        sim.step(500)
        out.append(sim.positions.copy())
    assert np.abs(out[0] - out[1]).max() > 0.1


# --------------------------------------------------------------------- four-bar
def _four_bar_place(theta, a=1.0, b=2.2, c=1.6, d=2.0):
    """A=(0,0) and D=(d,0) pinned; crank AB = a at angle theta, coupler BC = b, rocker DC = c.

    Only analytic operations, so it also takes a complex ``theta`` (complex-step derivative).
    """
    pb = a * np.array([np.cos(theta), np.sin(theta)])
    e = np.array([d, 0.0]) - pb
    dist = np.sqrt(e[0] ** 2 + e[1] ** 2)
    along = (b * b - c * c + dist * dist) / (2 * dist)
    h = np.sqrt(b * b - along * along)
    pc = pb + along * e / dist + h * np.array([-e[1], e[0]]) / dist  # upper assembly
    return np.array([np.zeros(2) * pb[0] ** 0, pb, pc, np.array([d, 0.0]) + 0 * pb])


FOUR_BAR_RODS = [(0, 1), (1, 2), (3, 2)]


def _four_bar_theta(masses, bars, theta0, t_end, g=G):
    """Crank angle at ``t_end`` from T = I(th) th'^2 / 2 and V(th):

    th'' = -(I'(th) th'^2 / 2 + V'(th)) / I(th).
    """

    def velocities(theta):  # dp/dtheta by complex step
        return np.imag(_four_bar_place(theta + 1e-30j)) / 1e-30

    def inertia(theta):
        j = velocities(theta)
        t = float(np.sum(masses * np.sum(j * j, axis=1)))
        for (i, k), mu in zip(FOUR_BAR_RODS, bars, strict=True):
            t += mu / 3 * (j[i] @ j[i] + j[i] @ j[k] + j[k] @ j[k])
        return t

    def dpotential(theta):
        j = velocities(theta)
        dv = float(masses @ j[:, 1])
        for (i, k), mu in zip(FOUR_BAR_RODS, bars, strict=True):
            dv += mu * (j[i, 1] + j[k, 1]) / 2
        return g * dv

    def rhs(_t, y):
        th, w = y
        eps = 1e-6
        di = (inertia(th + eps) - inertia(th - eps)) / (2 * eps)
        return [w, -(0.5 * di * w**2 + dpotential(th)) / inertia(th)]

    return _integrate(rhs, [theta0, 0.0], t_end)[0]


@pytest.mark.parametrize("alpha", [0.0, 0.7])
def test_four_bar_under_gravity_matches_reduced_coordinates(alpha):
    theta0, m = 2.0, 2.0
    place = np.real(_four_bar_place(theta0))
    link = Linkage(place, rods=FOUR_BAR_RODS, pinned=[0, 3])
    sim = Simulator(
        link, mode="dynamic", step_size=1e-3, mass_distribution=alpha, total_mass=m, gravity=G
    )
    sim.step(1000)
    lengths = link.rod_lengths()
    masses = np.full(4, (1 - alpha) * m / 4)
    bars = alpha * m * lengths / lengths.sum()
    theta = _four_bar_theta(masses, bars, theta0, 1.0)
    assert abs(theta - theta0) > 0.3  # it really swung
    assert np.abs(sim.positions - np.real(_four_bar_place(theta))).max() < 1e-4
    assert sim.constraint_error() < 1e-12


# --------------------------------------------------------------------- energy
def _energy(sim):
    return sim.kinetic_energy() + sim.potential_energy()


@pytest.mark.slow
@pytest.mark.parametrize("alpha", [0.0, 1.0])
def test_energy_is_conserved_without_damping(alpha):
    sim = Simulator(
        _double_pendulum(1.0, 0.7, (1.2, -0.4)),
        mode="dynamic",
        step_size=1e-3,
        mass_distribution=alpha,
        gravity=G,
    )
    e0 = _energy(sim)
    scale = sim.total_mass * G * 1.7  # the energy range the pendulum can explore
    drift = []
    for _ in range(100):
        sim.step(100)
        drift.append(_energy(sim) - e0)
    drift = np.abs(drift)
    assert sim.time == pytest.approx(10.0)
    assert drift.max() < 1e-4 * scale
    # bounded, not growing: the last thousand steps are no worse than the first ones
    assert drift[-10:].max() < 3 * drift[:50].max() + 1e-9 * scale
    assert sim.constraint_error() < 1e-12


def test_energy_conserved_with_spring_and_attractor():
    # Springs and the attractor spring are conservative: energy (with their potentials) holds.
    link = Linkage(
        [[0, 0], [1, 0], [2, 0.5], [1.5, 1.5]], rods=[(0, 1), (1, 2), (2, 3)], pinned=[0]
    )
    sim = Simulator(link, mode="dynamic", step_size=1e-3, mass_distribution=0.5, gravity=2.0)
    sim.add_spring(0, 3, stiffness=20.0, rest_length=1.0)
    sim.attract(2, (2.5, -0.5))
    sim.attractor_damping = 0.0
    e0 = _energy(sim)
    sim.step(3000)
    assert abs(_energy(sim) - e0) < 1e-3 * abs(e0)
    assert sim.constraint_error() < 1e-12


def test_damping_dissipates_energy():
    sim = Simulator(
        _double_pendulum(1.0, 0.7, (1.2, -0.4)),
        mode="dynamic",
        step_size=2e-3,
        gravity=G,
        damping=0.5,
    )
    energies = []
    for _ in range(50):
        sim.step(10)
        energies.append(_energy(sim))
    assert np.all(np.diff(energies) < 0)


# ------------------------------------------------- forces against closed forms
def test_global_damping_is_mass_proportional():
    # A free body: v(t) = v0 exp(-c t) whatever the masses, and the path is a straight line.
    link = Linkage([[0, 0], [1, 0], [0.5, 1]], rods=[(0, 1), (1, 2), (0, 2)])
    c, t_end = 0.8, 2.0
    sim = Simulator(link, mode="dynamic", step_size=1e-3, mass_distribution=0.4, damping=c)
    sim.set_velocity(np.tile([1.0, 0.5], (3, 1)))
    sim.step(2000)
    assert np.allclose(sim.velocities, np.tile([1.0, 0.5], (3, 1)) * np.exp(-c * t_end), rtol=1e-5)
    shift = (1.0 - np.exp(-c * t_end)) / c * np.array([1.0, 0.5])
    assert np.allclose(sim.positions, link.vertices + shift, atol=1e-5)


@pytest.mark.parametrize("damping", [0.0, 0.6])
def test_spring_damper_is_a_linear_oscillator(damping):
    # Vertex 0 pinned, vertex 1 free on the x axis (no rod): m x'' = -k (x - L0) - c x'.
    link = Linkage([[0.0, 0.0], [1.5, 0.0]], pinned=[0])
    k, rest, m1 = 5.0, 1.0, 0.5  # total mass 1 on two vertices
    sim = Simulator(link, mode="dynamic", step_size=5e-4)
    index = sim.add_spring(0, 1, stiffness=k, rest_length=rest, damping=damping)
    assert sim.springs[index].rest_length == rest
    sim.step(2000)

    def rhs(_t, y):
        return [y[1], (-k * (y[0] - rest) - damping * y[1]) / m1]

    x = _integrate(rhs, [1.5, 0.0], 1.0)
    assert sim.positions[1] == pytest.approx([x[0], 0.0], abs=1e-5)
    assert sim.velocities[1, 0] == pytest.approx(x[1], abs=1e-4)


def test_attractor_is_a_spring_and_damper():
    link = Linkage([[0.0, 0.0], [2.0, 1.0]], pinned=[0])
    sim = Simulator(link, mode="dynamic", step_size=5e-4)
    sim.attractor_stiffness, sim.attractor_damping = 6.0, 1.5
    sim.attract(1, (1.0, 1.0))
    sim.step(2000)
    m1 = 0.5
    x = _integrate(lambda _t, y: [y[1], (-6.0 * (y[0] - 1.0) - 1.5 * y[1]) / m1], [2.0, 0.0], 1.0)
    assert sim.positions[1] == pytest.approx([x[0], 1.0], abs=1e-5)


def test_stiff_spring_at_frame_rate_is_substepped():
    # Two light vertices (1/202 of the mass each) on a stiff spring: omega ~ 450 rad/s,
    # far beyond what an explicit step of 1/60 s survives; the simulator splits the step.
    link = Linkage(
        [[0, 0], [1, 0]] + [[5 + i, 5] for i in range(200)],
        rods=[(2 + i, 3 + i) for i in range(199)],
    )
    sim = Simulator(link, mode="dynamic", step_size=1 / 60)
    sim.add_spring(0, 1, 1000.0, rest_length=2.0)
    e0 = _energy(sim)
    sim.step(60)
    gap = sim.positions[1, 0] - sim.positions[0, 0]
    assert 0.9 < gap < 3.1  # oscillates between 1 and 3
    assert abs(_energy(sim) - e0) < 0.05 * e0


def test_gravity_pulls_down():
    link = Linkage([[0.0, 0.0], [1.0, 0.0]])
    sim = Simulator(link, mode="dynamic", step_size=1e-3, gravity=3.0)
    sim.step(1000)
    assert np.allclose(sim.positions, link.vertices + [0.0, -1.5], atol=1e-9)


def test_springs_are_managed():
    link = Linkage([[0.0, 0.0], [3.0, 4.0], [1.0, 1.0]])
    sim = Simulator(link, mode="dynamic")
    assert sim.add_spring(0, 1, 2.0) == 0
    assert sim.springs[0].rest_length == pytest.approx(5.0)
    sim.add_spring(1, 2, 1.0, rest_length=0.5, damping=0.1)
    sim.remove_spring(0)
    assert [(s.i, s.j) for s in sim.springs] == [(1, 2)]
    with pytest.raises(ValueError, match="distinct"):
        sim.add_spring(1, 1, 1.0)
    with pytest.raises(ValueError, match="stiffness"):
        sim.add_spring(0, 1, -1.0)
    with pytest.raises(IndexError, match="spring 5"):
        sim.remove_spring(5)


# --------------------------------------------------- constraints in dynamics
@pytest.mark.parametrize("alpha", [0.0, 1.0])
def test_gravity_driven_peaucellier_keeps_its_output_on_the_line(alpha):
    # Attia's Peaucellier: O(0,0) and E(2,0) pinned, crank OA, long arms EB = ED = 4,
    # rhombus ABCD: C moves on the line x = 6 (A on the circle through E, inverted in E).
    pts = {"O": (0, 0), "A": (-2, 0), "B": (2, 4), "C": (6, 0), "D": (2, -4), "E": (2, 0)}
    idx = {k: i for i, k in enumerate(pts)}
    rods = [(idx[a], idx[b]) for a, b in ("OA", "AB", "BC", "CD", "DE", "BE", "AD")]
    link = Linkage(list(pts.values()), rods=rods, pinned=[idx["O"], idx["E"]])
    sim = Simulator(link, step_size=0.05, mass_distribution=alpha)
    # The symmetric placement is balanced: first turn the crank (kinematically) off it.
    sim.attract(idx["A"], (-2 * np.cos(0.5), 2 * np.sin(0.5)))
    sim.step(100)
    assert sim.status == "reached target"
    sim.release()
    sim.mode, sim.step_size, sim.gravity = "dynamic", 2e-3, G
    assert not sim.velocities.any()
    c = idx["C"]
    worst, ys = 0.0, []
    for _ in range(1500):
        sim.step()
        worst = max(worst, abs(sim.positions[c, 0] - 6.0))
        ys.append(sim.positions[c, 1])
    assert np.ptp(ys) > 1.0  # it really swings along its line
    assert worst / 6.0 < 1e-9
    assert sim.constraint_error() < 1e-12


def test_set_velocity_is_the_mass_orthogonal_projection():
    link = Linkage(
        [[0, 0], [1, 0], [2, 0.5], [1.5, 1.5], [0.2, 1.2]],
        rods=[(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)],
        pinned=[0],
    )
    for alpha in (0.0, 1.0):
        sim = Simulator(link, mode="dynamic", mass_distribution=alpha)
        rng = np.random.default_rng(3)
        wanted = rng.normal(size=(5, 2))
        sim.set_velocity(wanted)
        v = sim.velocities.reshape(-1)
        a = ConstraintSet.from_linkage(link).jacobian(link.vertices).toarray()
        assert np.abs(a @ v).max() < 1e-10  # allowed
        # the rejected part is M-orthogonal to every allowed motion (dense nullspace here)
        _, s, vt = np.linalg.svd(a)
        basis = vt[np.sum(s > 1e-10) :].T
        m = mass_matrix(link, alpha).toarray()
        assert np.abs(basis.T @ m @ (wanted.reshape(-1) - v)).max() < 1e-10
