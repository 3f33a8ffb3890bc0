"""A mass on a cable (and on a strut) under gravity: free flight, an impact, a pendulum.

The references share no code with the simulator: the free flight is the closed-form
parabola, the moment the member becomes taut its root (``scipy.optimize.brentq``), the
impact keeps the velocity across the member (perfectly inelastic: the velocity along it is
lost) and the swing after it is the pendulum ODE in the angle, integrated by
``scipy.integrate.solve_ivp``. A cable may never be longer than its length, a strut never
shorter, by more than round-off, over the whole run.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.integrate import solve_ivp
from scipy.optimize import brentq

from linkage_widget import Linkage
from linkage_widget.motion import Simulator

G, L, H = 9.81, 1.0, 1e-3
ROUNDOFF = 1e-12  # relative: what a cable may be longer (a strut shorter) than its length


def _run(sim: Simulator, steps: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Times ``(k,)``, bob positions ``(k, 2)`` and energies ``(k,)`` after each step."""
    t, p, e = [], [], []
    for _ in range(steps):
        sim.step()
        t.append(sim.time)
        p.append(sim.positions[1].copy())
        e.append(sim.kinetic_energy() + sim.potential_energy())
    return np.array(t), np.array(p), np.array(e)


def _flight(p0: np.ndarray, v0: np.ndarray, t: np.ndarray) -> np.ndarray:
    """Closed-form free flight from ``p0`` with ``v0`` at times ``t``: ``(k, 2)``."""
    t = np.asarray(t)[:, None]
    return p0 + v0 * t + 0.5 * np.array([0.0, -G]) * t**2


def _taut_time(p0: np.ndarray, v0: np.ndarray) -> float:
    """When the free flight from ``p0`` (at distance L from the pin) is back at distance L."""

    def gap(t: float) -> float:
        return float(np.hypot(*_flight(p0, v0, [t])[0]) - L)

    grid = np.linspace(1e-6, 3.0, 3001)  # the first sign change after the start
    k = int(np.argmax(np.sign([gap(x) for x in grid]) != np.sign(gap(grid[0]))))
    return brentq(gap, grid[k - 1], grid[k], xtol=1e-15)


def _swing(theta0: float, omega0: float, t: np.ndarray, sign: float) -> np.ndarray:
    r"""Pendulum angles: :math:`\ddot\theta = -\text{sign}\,(g/L)\sin\theta` at times ``t``."""
    sol = solve_ivp(
        lambda _, y: [y[1], -sign * G / L * np.sin(y[0])],
        (0.0, float(t[-1])),
        [theta0, omega0],
        t_eval=t,
        rtol=1e-11,
        atol=1e-12,
        method="DOP853",
    )
    assert sol.success
    return sol.y


def test_hanging_cable_falls_free_until_taut_then_swings() -> None:
    # The bob hangs at the cable's length and is thrown up and sideways: the cable may
    # shorten, so it goes slack; the bob flies a parabola until the cable is taut again.
    p0, v0 = np.array([0.0, -L]), np.array([0.6, 2.0])
    link = Linkage([[0.0, 0.0], p0], cables=[(0, 1)], pinned=[0])
    sim = Simulator(link, mode="dynamic", step_size=H, gravity=G)
    sim.set_velocity([[0.0, 0.0], v0])
    assert np.array_equal(sim.velocities[1], v0)  # shortening the cable is allowed
    t, p, energy = _run(sim, 1500)
    # never longer than the cable, over the whole run
    assert np.max(np.hypot(p[:, 0], p[:, 1]) / L - 1.0) <= ROUNDOFF
    t_star = _taut_time(p0, v0)
    flying = t < t_star - H
    assert flying.sum() > 300  # a long free flight
    assert np.max(np.abs(p[flying] - _flight(p0, v0, t[flying]))) < 1e-10
    # the impact: the velocity along the cable is lost (inelastic), the rest swings on
    q = _flight(p0, v0, [t_star])[0]
    vq = v0 + np.array([0.0, -G]) * t_star
    theta0 = np.arctan2(q[0], -q[1])
    along = np.array([np.cos(theta0), np.sin(theta0)])  # d/dtheta of (L sin, -L cos) / L
    omega0 = float(vq @ along) / L
    after = t > t_star + H
    theta, omega = _swing(theta0, omega0, t[after] - t_star, +1.0)
    assert np.max(np.abs(theta)) < 0.5 * np.pi  # below the pin: the cable stays taut
    reference = L * np.column_stack([np.sin(theta), -np.cos(theta)])
    # the impact happens at the end of the step that reaches it: an error of order H
    assert np.max(np.abs(p[after] - reference)) < 20 * H
    # not exact (the impact lands at a step's end, not at t*), but within one step's travel
    err = float(np.max(np.hypot(*(p[after] - reference).T)))
    assert 1e-3 * H < err < float(np.hypot(*vq)) * H
    np.testing.assert_allclose(np.hypot(p[after, 0], p[after, 1]), L, rtol=ROUNDOFF)
    # energy: kept in flight, lost once at the impact (the radial kinetic energy), then kept
    mass = 0.5  # total mass 1 shared by the two joints (alpha = 0)
    radial = float(vq @ (q / L))
    lost = 0.5 * mass * radial**2
    assert np.ptp(energy[flying]) < 1e-9
    assert np.ptp(energy[after]) < 1e-4 * abs(energy[-1])
    assert energy[0] - energy[-1] == pytest.approx(lost, rel=0.05)


def test_strut_holds_a_mass_above_until_it_flies_off() -> None:
    # Inverted: the bob stands on a strut (which may lengthen, not shorten), is thrown up
    # and sideways, lands back on it, rolls over on it and leaves it when the strut's
    # push would have to become a pull.
    p0, v0 = np.array([0.0, L]), np.array([0.5, 1.0])
    link = Linkage([[0.0, 0.0], p0], struts=[(0, 1)], pinned=[0])
    sim = Simulator(link, mode="dynamic", step_size=H, gravity=G)
    sim.set_velocity([[0.0, 0.0], v0])
    assert np.array_equal(sim.velocities[1], v0)  # lengthening the strut is allowed
    t, p, _ = _run(sim, 1800)
    dist = np.hypot(p[:, 0], p[:, 1])
    assert np.min(dist / L - 1.0) >= -ROUNDOFF  # never shorter than the strut
    t_star = _taut_time(p0, v0)
    flying = t < t_star - H
    assert np.max(np.abs(p[flying] - _flight(p0, v0, t[flying]))) < 1e-10
    q = _flight(p0, v0, [t_star])[0]
    vq = v0 + np.array([0.0, -G]) * t_star
    theta0 = np.arctan2(q[0], q[1])  # from the upward vertical: (L sin, L cos)
    omega0 = float(vq @ np.array([np.cos(theta0), -np.sin(theta0)])) / L
    after = t > t_star + H
    theta, omega = _swing(theta0, omega0, t[after] - t_star, -1.0)
    # the strut pushes while N = m (g cos(theta) - L omega^2) > 0; compare well before 0
    push = G * np.cos(theta) - L * omega**2
    holding = np.cumprod(push > 0.2 * G).astype(bool)  # until the push first falls
    assert holding.sum() > 100
    reference = L * np.column_stack([np.sin(theta), np.cos(theta)])
    assert np.max(np.abs(p[after][holding] - reference[holding])) < 20 * H
    # it leaves the strut where the push would turn into a pull (to within a few steps)
    t_release = (t[after] - t_star)[np.argmax(push <= 0.0)] + t_star
    assert (push <= 0.0).any()
    left = t[(t > t_star) & (dist > L * (1.0 + 1e-6))][0]
    assert abs(left - t_release) < 0.05
    assert dist[-1] > 1.5 * L  # and flies off
