"""The sympy.physics.mechanics reference models checked on their own, before any comparison.

Each reference of ``sympy_models`` (KanesMethod with the seed-004 force elements) is held
to what is known without it: closed forms (small-angle period, free fall, a constant
relative force, the Coulomb stopping distance and the friction oscillator's linear
decay), energy conservation where nothing dissipates, the work-energy balance where
something does, and a hand-written equation of motion. No ``linkage_widget`` here.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy_models as ref
from scipy.integrate import simpson, solve_ivp

G = 9.81


def _hand(rhs, y0, times):
    sol = solve_ivp(rhs, (0, times[-1]), y0, method="DOP853", rtol=1e-11, atol=1e-13, t_eval=times)
    assert sol.success
    return sol.y.T


def torque_law(t, angle, speed, lib=np):
    return 0.8 * lib.cos(2.0 * t) - 0.3 * speed + 0.5 * lib.sin(angle)


def constant_torque(t, angle, speed, lib=np):
    return 0.7 + 0 * t


# ----------------------------------------------------------------- pendulum
@pytest.mark.parametrize("alpha", [0.0, 0.6])
def test_small_angle_pendulum_is_harmonic(alpha):
    # Hanging at -pi/2 and displaced by eps: theta = -pi/2 + eps cos(w t), with
    # w^2 = g (m1 + mu/2) L / ((m1 + mu/3) L^2); the error is O(eps^3).
    length, eps, m = 1.3, 1e-4, 2.0
    times = np.linspace(0, 2, 9)
    out = ref.pendulum_with_torque(length, -np.pi / 2 + eps, times, alpha=alpha, total_mass=m)
    m1, (mu,) = ref.vertex_masses(2, [length], alpha, m)
    w = np.sqrt(G * (m1 + mu / 2) / ((m1 + mu / 3) * length))
    assert out.state[:, 0] + np.pi / 2 == pytest.approx(eps * np.cos(w * times), abs=1e-10)
    assert np.ptp(out.energy) < 1e-12


@pytest.mark.parametrize("law", [constant_torque, torque_law])
def test_pendulum_torque_is_the_hand_equation(law):
    # (m1 + mu/3) L^2 th'' = -(m1 + mu/2) g L cos th + tau(t, th, th')
    length, alpha, m, th0 = 0.9, 0.4, 1.5, -0.3
    times = np.linspace(0, 2, 21)
    out = ref.pendulum_with_torque(length, th0, times, alpha=alpha, total_mass=m, torque=law)
    m1, (mu,) = ref.vertex_masses(2, [length], alpha, m)
    inertia, weight = (m1 + mu / 3) * length**2, (m1 + mu / 2) * G * length

    def rhs(t, y):
        return [y[1], (-weight * np.cos(y[0]) + law(t, y[0], y[1])) / inertia]

    assert out.state == pytest.approx(_hand(rhs, [th0, 0.0], times), abs=1e-9)
    if law is constant_torque:  # work of a constant torque: tau (theta - theta0)
        work = 0.7 * (out.state[:, 0] - th0)
        assert out.energy - out.energy[0] == pytest.approx(work, abs=1e-9)
    assert np.ptp(out.state[:, 0]) > 0.3  # it really moved


def test_two_link_reaction_torque_cancels():
    # A torque between the links is internal: with no gravity the total angular
    # momentum about the pivot stays zero (it starts at rest) while the links turn.
    out = ref.two_link_with_torque(
        (1.0, 0.7), (-0.3, 0.4), np.linspace(0, 2, 11), torque=torque_law, alpha=0.0, g=0.0
    )
    p, v = out.positions, out.velocities
    m1, _ = ref.vertex_masses(3, [1.0, 0.7], 0.0, 1.0)
    cross = p[..., 0] * v[..., 1] - p[..., 1] * v[..., 0]
    ang = m1 * cross[:, 1:].sum(axis=1)
    assert np.abs(ang).max() < 1e-10
    assert np.ptp(out.state[:, 1] - out.state[:, 0]) > 0.3


# ------------------------------------------------------------------- Duffing
def test_duffing_on_a_line_is_the_duffing_oscillator():
    k, beta, rest, m = 4.0, 30.0, 1.0, 1.0
    times = np.linspace(0, 2, 9)
    out = ref.duffing_mass(
        (1.4, 0.0),
        times,
        stiffness=k,
        nonlinear_stiffness=beta,
        rest_length=rest,
        velocity0=(0.2, 0.0),
        damping=0.3,
        total_mass=m,
    )

    def rhs(_t, y):
        x = y[0] - rest
        return [y[1], (-k * x - beta * x**3 - 0.3 * y[1]) / (m / 2)]

    hand = _hand(rhs, [1.4, 0.2], times)
    assert out.positions[:, 1, 0] == pytest.approx(hand[:, 0], abs=1e-9)
    assert np.abs(out.positions[:, 1, 1]).max() == 0.0


def test_duffing_orbit_conserves_energy_with_the_quartic_term():
    out = ref.duffing_mass(
        (1.5, 0.0),
        np.linspace(0, 2, 41),
        stiffness=5.0,
        nonlinear_stiffness=20.0,
        rest_length=1.0,
        velocity0=(0.0, 1.0),
        g=2.0,
    )
    assert np.ptp(out.energy) < 1e-10 * np.abs(out.energy).max()
    assert np.ptp(out.positions[:, 1, 1]) > 0.3  # a planar orbit, not a line


# ------------------------------------------------------------- ForceActuator
def test_constant_force_between_free_points_closed_form():
    # Equal masses m/2: the centre falls freely, the separation s'' = 2 F / (m/2) along
    # the fixed line when the relative velocity starts along it.
    f, m, g = 0.6, 1.0, 1.5
    times = np.linspace(0, 2, 5)
    p0 = np.array([[0.0, 0.0], [0.8, 0.6]])
    v0 = np.array([[0.1, 0.0], [0.1 + 0.4, 0.3]])  # relative velocity (0.4, 0.3) || p1 - p0
    out = ref.force_between_free_points(
        p0, v0, times, force=lambda *a, lib=np: f, total_mass=m, g=g
    )
    centre = out.positions.mean(axis=1)
    expected = p0.mean(0) + np.outer(times, v0.mean(0)) - np.outer(times**2 / 2, [0, g])
    assert centre == pytest.approx(expected, abs=1e-10)
    sep = np.linalg.norm(out.positions[:, 1] - out.positions[:, 0], axis=1)
    assert sep == pytest.approx(1.0 + 0.5 * times + 2 * f / m * times**2, abs=1e-10)


def force_law(length, rate, lib=np):
    return 0.5 - 0.4 * rate - 0.3 * (length - 1.2)


def test_force_actuator_on_pendulum_is_the_hand_equation():
    # Tip at L e(th), anchor a: the expansile force f pushes the tip along (tip - a)/|tip - a|;
    # its moment about the pivot is (tip x f e).
    length, anchor, th0, m = 1.0, np.array([1.5, 1.0]), -0.5, 1.2
    times = np.linspace(0, 2, 5)
    out = ref.force_on_pendulum(length, th0, anchor, times, force=force_law, total_mass=m)
    m1 = m / 3

    def rhs(_t, y):
        e = np.array([np.cos(y[0]), np.sin(y[0])])
        tip, vel = length * e, length * y[1] * np.array([-e[1], e[0]])
        d = tip - anchor
        ell = np.linalg.norm(d)
        f = force_law(ell, d @ vel / ell) * d / ell
        moment = tip[0] * f[1] - tip[1] * f[0] - m1 * G * tip[0]
        return [y[1], moment / (m1 * length**2)]

    assert out.state == pytest.approx(_hand(rhs, [th0, 0.0], times), abs=1e-9)


# ------------------------------------------------------------------- four-bar
SIDES = (1.0, 2.2, 1.6, 2.0)


@pytest.mark.parametrize("alpha", [0.0, 0.7])
def test_four_bar_without_damping_conserves_energy_and_closes(alpha):
    times = np.linspace(0, 2, 41)
    out = ref.four_bar_spring_damper(
        2.0,
        times,
        sides=SIDES,
        stiffness=6.0,
        rest_length=1.5,
        damping=0.0,
        alpha=alpha,
        total_mass=2.0,
    )
    assert np.ptp(out.energy) < 1e-9
    assert np.abs(ref.four_bar_closure(out, SIDES)).max() < 1e-9
    lengths = np.linalg.norm(np.diff(out.positions[:, [0, 1, 2]], axis=1), axis=2)
    assert lengths == pytest.approx(np.tile(SIDES[:2], (41, 1)), abs=1e-9)
    assert np.ptp(out.state[:, 0]) > 0.3


def test_four_bar_damper_dissipates_its_work():
    # dE/dt = -c (dl/dt)^2 for the damper B-D: E(t) - E(0) = -c int_0^t ldot^2.
    c = 0.8
    times = np.linspace(0, 2, 2001)
    out = ref.four_bar_spring_damper(
        2.0,
        times,
        sides=SIDES,
        stiffness=6.0,
        rest_length=1.5,
        damping=c,
        alpha=0.3,
        total_mass=2.0,
    )
    rate = ref.four_bar_extension_speed(out, SIDES)
    lost = c * simpson(rate**2, x=times)
    assert out.energy[-1] - out.energy[0] == pytest.approx(-lost, rel=1e-7)
    assert lost > 0.1


# ------------------------------------------------------------------- friction
def test_block_stops_at_the_coulomb_distance_and_stays():
    v0, mu, m, x0 = 2.0, 0.4, 1.0, 1.0
    times = np.linspace(0, 2, 21)
    out = ref.block_with_friction(x0, v0, times, normal_force=m / 2 * G, mu_k=mu, total_mass=m)
    (stop,) = out.events
    assert stop == pytest.approx(v0 / (mu * G), rel=1e-10)
    assert out.positions[-1, 1, 0] == pytest.approx(x0 + v0**2 / (2 * mu * G), rel=1e-10)
    after = times > stop
    assert np.all(out.velocities[after, 1] == 0) and np.ptp(out.positions[after, 1, 0]) == 0


def test_block_with_viscous_friction_closed_form():
    # m v' = -mu N - sigma v: stops at t* = (m/sigma) ln(1 + sigma v0/(mu N)) after
    # (m/sigma)(v0 - (mu N/sigma) ln(1 + sigma v0/(mu N))).
    v0, mu, m, sigma, x0 = 3.0, 0.3, 1.0, 0.4, 2.0
    nf, mb = m / 2 * G, m / 2
    out = ref.block_with_friction(
        x0, -v0, [0.0, 2.0], normal_force=nf, mu_k=mu, sigma=sigma, total_mass=m
    )
    log = np.log1p(sigma * v0 / (mu * nf))
    assert out.events[0] == pytest.approx(mb / sigma * log, rel=1e-10)
    distance = mb / sigma * (v0 - mu * nf / sigma * log)
    assert out.positions[-1, 1, 0] == pytest.approx(x0 - distance, rel=1e-10)


def test_friction_oscillator_decays_linearly_and_sticks():
    # m x'' = -k (x - L0) - mu N sign(x'): each half period pi sqrt(m/k) the amplitude
    # about L0 drops by 2 mu N / k; it sticks at the first rest with k |x - L0| <= mu_s N.
    k, rest, mu, m, x0 = 10.0, 1.0, 0.2, 1.0, 1.5
    nf, mb = m / 2 * G, m / 2
    out = ref.block_with_friction(
        x0,
        0.0,
        np.linspace(0, 3, 31),
        normal_force=nf,
        mu_k=mu,
        stiffness=k,
        rest_length=rest,
        total_mass=m,
    )
    amp, rests, drop = x0 - rest, [], 2 * mu * nf / k
    while k * abs(amp) > mu * nf:
        amp = -np.sign(amp) * (abs(amp) - drop)
        rests.append(rest + amp)
    half = np.pi * np.sqrt(mb / k)
    assert out.events == pytest.approx(half * np.arange(1, len(rests) + 1), rel=1e-9)
    assert out.positions[-1, 1, 0] == pytest.approx(rests[-1], rel=1e-10)
    assert len(rests) == 3


def test_block_below_the_static_limit_never_starts():
    k, rest, nf = 10.0, 1.0, 2.0
    stretch = 0.99 * 0.5 * nf / k  # just below mu_s N with mu_s = 0.5 > mu_k = 0.2
    out = ref.block_with_friction(
        rest + stretch,
        0.0,
        [0.0, 2.0],
        normal_force=nf,
        mu_k=0.2,
        mu_s=0.5,
        v_s=0.1,
        stiffness=k,
        rest_length=rest,
    )
    assert out.positions[-1, 1, 0] == rest + stretch and out.events == ()


# ------------------------------------------------- constraint forces, motor torque
def _angles(positions, velocities, chain):
    """Absolute angles and rates of the rods along ``chain`` (vertex pairs)."""
    q, u = [], []
    for i, j in chain:
        d, dd = positions[j] - positions[i], velocities[j] - velocities[i]
        q.append(np.arctan2(d[1], d[0]))
        u.append((d[0] * dd[1] - d[1] * dd[0]) / (d @ d))
    return [*q, *u]


@pytest.mark.parametrize("law", [lambda t, a, w, lib=np: 0 * t, torque_law], ids=["free", "torque"])
def test_two_link_tensions_are_newtons_law_on_the_joints(law):
    # Massless rods: joint 2 feels gravity, the pull -T2 e2 of rod 1-2 and the elbow
    # couple's force, perpendicular to rod 1-2; joint 1 also the pull -T1 e1 and +T2 e2
    # and the couples' forces. Without torque both rods are two-force members, so
    # Newton at joint 1 alone fixes T1 and T2.
    lengths, m = (1.0, 0.7), 1.2
    out = ref.two_link_with_torque(
        (1.0, 0.7), (-0.3, 0.4), [0.0, 1.0, 2.0], torque=law, alpha=0.0, total_mass=m
    )
    tensions, acc = ref.two_link_loads(out.times, out.state, lengths, torque=law, total_mass=m)
    assert acc == pytest.approx(out.accelerations, abs=1e-12)
    mv, weight = m / 3, np.array([0.0, -m / 3 * G])
    for p, a, (t1, t2) in zip(out.positions, acc, tensions, strict=True):
        e1, e2 = (p[1] - p[0]) / lengths[0], (p[2] - p[1]) / lengths[1]
        assert t2 == pytest.approx(-(mv * a[2] - weight) @ e2, rel=1e-10)
        if law is not torque_law:
            assert mv * a[1] - weight == pytest.approx(-t1 * e1 + t2 * e2, abs=1e-10)
    assert np.ptp(tensions) > 1.0


def test_motor_torque_pays_for_the_energy_and_the_damper():
    # Point masses (alpha = 0), crank at constant speed w: tau w = dT/dt + dV/dt + c ldot^2,
    # with dT/dt = sum m a.v and dV/dt = sum m g v_y + k (l - L0) ldot.
    sides, w, m, k, rest, c = (1.0, 2.2, 1.6, 2.0), 1.5, 2.0, 6.0, 1.5, 0.8
    for theta in np.linspace(0.0, 2 * np.pi, 7):
        tau, p, v, a = ref.four_bar_driven(
            theta, w, sides=sides, stiffness=k, rest_length=rest, damping=c, total_mass=m
        )
        mv = m / 4
        d = p[1] - p[3]
        ell = np.linalg.norm(d)
        rate = d @ (v[1] - v[3]) / ell
        power = mv * np.sum(a * v) + mv * G * v[:, 1].sum() + k * (ell - rest) * rate
        assert tau * w == pytest.approx(power + c * rate**2, rel=1e-10, abs=1e-12)
        assert np.linalg.norm(p[2] - p[1]) == pytest.approx(sides[1], rel=1e-12)
        assert _angles(p, v, [(0, 1)])[1] == pytest.approx(w, rel=1e-12)
