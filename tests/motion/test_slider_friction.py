"""Friction along a slider (issue 25), pressed by the force its guide carries."""

from __future__ import annotations

import numpy as np
import pytest

from linkage_widget import Linkage, SliderFriction
from linkage_widget.motion import Simulator

G = 9.81


def incline(alpha: float) -> Linkage:
    """One joint on the line through the origin at angle alpha (a block on an incline)."""
    return Linkage([[0.0, 0.0]], sliders=[(0, (0.0, 0.0), (np.cos(alpha), np.sin(alpha)))])


def along(sim: Simulator, alpha: float) -> float:
    return float(sim.positions[0] @ [np.cos(alpha), np.sin(alpha)])


@pytest.mark.parametrize("w0", [-0.5, 0.0])
def test_a_block_slides_down_an_incline_at_g_sin_minus_mu_cos(w0):
    """The closed form: s(t) = w0 t - a t^2 / 2 with a = g (sin(alpha) - mu cos(alpha))."""
    alpha, mu, h = 0.6, 0.3, 0.01
    sim = Simulator(incline(alpha), mode="dynamic", step_size=h, gravity=G, total_mass=2.0)
    sim.set_velocity([[w0 * np.cos(alpha), w0 * np.sin(alpha)]])
    sim.add(SliderFriction(0, mu))
    sim.step(100)
    a = G * (np.sin(alpha) - mu * np.cos(alpha))
    t = sim.time
    assert t == pytest.approx(1.0)
    # constant force: the Verlet steps are exact, up to round-off
    assert along(sim, alpha) == pytest.approx(w0 * t - 0.5 * a * t**2, rel=1e-10)
    assert abs(sim.positions[0] @ [-np.sin(alpha), np.cos(alpha)]) <= 1e-12


def test_a_block_on_a_shallow_incline_stays_where_static_friction_holds_it():
    alpha = 0.2  # tan(alpha) = 0.203 < mu_s
    sim = Simulator(incline(alpha), mode="dynamic", step_size=0.01, gravity=G)
    sim.add(SliderFriction(0, 0.15, mu_s=0.25))
    sim.step(200)
    assert np.abs(sim.positions[0]).max() <= 1e-12
    # held by friction, not by a linear motor: the motors' forces say none (review)
    assert sim.linear_motors == () and sim.constraint_forces.pushes.shape == (0,)


def test_viscous_friction_along_a_slide_has_the_exponential_approach():
    """mu = 0, sigma > 0: w' = -g sin(alpha) - (sigma / m) w, from rest."""
    alpha, sigma, m, h = 0.5, 1.5, 2.0, 1e-3
    sim = Simulator(incline(alpha), mode="dynamic", step_size=h, gravity=G, total_mass=m)
    sim.add(SliderFriction(0, 0.0, sigma=sigma))
    sim.step(1000)
    k, w_inf = sigma / m, -m * G * np.sin(alpha) / sigma
    t = sim.time
    s = w_inf * (t - (1.0 - np.exp(-k * t)) / k)
    assert along(sim, alpha) == pytest.approx(s, rel=1e-5)  # second order in h


def slider_crank(theta=0.7, offset=0.3) -> Linkage:
    a = np.array([np.cos(theta), np.sin(theta)])
    bx = a[0] + np.sqrt(9.0 - (a[1] - offset) ** 2)
    pts = [[0.0, 0.0], a, [bx, offset]]
    return Linkage(pts, rods=[(0, 1), (1, 2)], pinned=[0], sliders=[(2, (0.0, offset), (1, 0))])


def test_a_driven_piston_rubs_with_mu_times_its_side_thrust():
    """Power balance of a slider-crank turned by a motor against piston friction.

    dE/dt = tau omega - mu |N| |w|, N the guide's force (it changes through the turn) and
    w the piston's speed, through a reversal of the piston (where the motor keeps it
    going: no stick).
    """
    h, omega, mu = 2e-3, 3.0, 0.3
    sim = Simulator(slider_crank(), mode="dynamic", step_size=h, gravity=G)
    sim.mass_distribution, sim.total_mass = 0.5, 3.0
    sim.add_motor(0, 1, omega)
    sim.add(SliderFriction(0, mu))
    energies, power, speeds = [], [], []
    for _ in range(500):
        sim.step()
        assert sim.status == "moved"
        energies.append(sim.kinetic_energy() + sim.potential_energy())
        cf, w = sim.constraint_forces, float(sim.velocities[2, 0])
        power.append(cf.motors[0] * omega - mu * abs(cf.sliders[0]) * abs(w))
        speeds.append(w)
    flips = np.flatnonzero(np.diff(np.sign(speeds)))
    assert len(flips) == 1  # the piston turned back once
    keep = np.ones(len(power), bool)
    keep[:3] = keep[-3:] = False
    keep[flips[0] - 3 : flips[0] + 4] = False  # the friction force jumps there
    balance = np.gradient(np.array(energies), h) - np.array(power)
    assert np.abs(balance[keep]).max() <= 1e-4 * np.abs(power).max()  # 1.8e-5 measured


@pytest.mark.parametrize("h", [0.01, 0.005])
def test_a_block_thrown_up_a_shallow_incline_stops_at_the_coulomb_distance_and_sticks(h):
    """Up at w0, decelerated by g (sin a + mu cos a); then held: tan a < mu_s."""
    alpha, mu, w0 = 0.2, 0.3, 2.0
    u = np.array([np.cos(alpha), np.sin(alpha)])
    sim = Simulator(incline(alpha), mode="dynamic", step_size=h, gravity=G)
    sim.set_velocity([w0 * u])
    sim.add(SliderFriction(0, mu))
    sim.step(round(1.0 / h))
    stop = w0**2 / (2 * G * (np.sin(alpha) + mu * np.cos(alpha)))
    assert along(sim, alpha) == pytest.approx(stop, abs=0.05 * h * w0)  # well within a step
    held = sim.positions.copy()
    sim.step(round(1.0 / h))
    assert np.abs(sim.positions - held).max() <= 1e-12  # no creep down the slope
    assert np.abs(sim.velocities).max() <= 1e-12


def test_a_block_thrown_up_a_steep_incline_stops_and_slides_back_down():
    """tan a > mu_s: the hold is released the way gravity pulls, at g (sin a - mu cos a)."""
    alpha, mu, w0, h = 0.6, 0.3, 2.0, 2e-3
    sim = Simulator(incline(alpha), mode="dynamic", step_size=h, gravity=G)
    sim.set_velocity([w0 * np.array([np.cos(alpha), np.sin(alpha)])])
    sim.add(SliderFriction(0, mu))
    up = G * (np.sin(alpha) + mu * np.cos(alpha))
    rise = w0 / up  # the time it takes to stop
    sim.step(round(1.0 / h))
    down = G * (np.sin(alpha) - mu * np.cos(alpha))
    t = sim.time - rise
    want = w0**2 / (2 * up) - 0.5 * down * t**2
    # first order: the hold lets go one step after the stop (2.3e-3 and 3.1e-3 measured)
    assert along(sim, alpha) == pytest.approx(want, abs=5e-3)
    w = float(sim.velocities[0] @ [np.cos(alpha), np.sin(alpha)])
    assert w == pytest.approx(-down * t, abs=1e-2)
