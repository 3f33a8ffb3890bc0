"""Geodesics of the four-rod chain three ways: Christoffel symbols, normal acceleration, RATTLE.

The Simulator's RATTLE is second order: at a 2.5 ms step its coordinates are ~1e-4 off, so
the comparison uses its Richardson extrapolation over the step and its half (fourth order,
the scheme being time-symmetric); the test also shows the h^2 convergence that justifies it.
"""

from __future__ import annotations

import numpy as np
import pytest

from linkage_widget.configuration import ConfigurationError, SphereChart
from linkage_widget.configuration.geodesics import (
    christoffel_symbols,
    geodesic_christoffel,
    geodesic_embedded,
    geodesic_simulated,
)

# (L, start (phi, t), velocity, mass distribution); every path stays off the poles
STATES = [
    (3.0, (0.3, 0.5), (0.8, -1.1), 0.0),
    (2.5, (-0.6, 2.0), (-0.4, 1.5), 0.0),
    (3.5, (0.2, -2.9), (0.3, 1.5), 0.0),
    (3.5, (0.9, -2.5), (0.2, 0.7), 0.5),
    (3.0, (0.0, np.pi / 2), (1.0, 0.0), 0.5),
]


@pytest.mark.parametrize(("L", "start", "velocity", "alpha"), STATES)
def test_three_routes_agree_over_three_seconds(L, start, velocity, alpha):
    chart = SphereChart(L)
    kw = {"mass_distribution": alpha, "samples": 31}
    intrinsic = geodesic_christoffel(chart, start, velocity, 3.0, **kw)
    embedded = geodesic_embedded(chart, start, velocity, 3.0, **kw)
    simulated = geodesic_simulated(chart, start, velocity, 3.0, step=2.5e-3, richardson=True, **kw)
    assert np.abs(intrinsic.coordinates[:, 0]).max() < 1.2  # off the poles
    assert intrinsic.distance(embedded) < 1e-9
    assert simulated.distance(intrinsic) < 1e-6
    assert np.abs(simulated.velocities - intrinsic.velocities).max() < 1e-6
    assert np.abs(embedded.velocities - intrinsic.velocities).max() < 1e-9
    for route in (intrinsic, embedded):
        assert np.ptp(route.energy) < 1e-8 * route.energy[0], route.route
    # all three start with the same kinetic energy (the simulator's own 1/2 v^T M v)
    assert np.isclose(simulated.energy[0], intrinsic.energy[0], rtol=1e-12)


def test_the_simulator_converges_at_second_order_and_richardson_removes_it():
    chart = SphereChart(3.0)
    start, velocity = (0.3, 0.5), (0.8, -1.1)
    ref = geodesic_embedded(chart, start, velocity, 1.5, samples=16)
    errors = [
        geodesic_simulated(chart, start, velocity, 1.5, samples=16, step=h).distance(ref)
        for h in (1e-2, 5e-3)
    ]
    assert 3.5 < errors[0] / errors[1] < 4.5  # h^2
    rich = geodesic_simulated(chart, start, velocity, 1.5, samples=16, step=1e-2, richardson=True)
    assert rich.distance(ref) < errors[1] / 100


def test_the_simulators_energy_error_is_bounded_and_second_order():
    chart = SphereChart(3.0)
    start, velocity = (0.3, 0.5), (0.8, -1.1)
    spread = []
    for h in (4e-3, 2e-3):
        run = geodesic_simulated(chart, start, velocity, 3.0, samples=31, step=h)
        spread.append(np.abs(run.energy / run.energy[0] - 1.0).max())
    # RATTLE is symplectic: the energy oscillates by O(h^2) and does not drift
    assert 3.8 < spread[0] / spread[1] < 4.2
    assert spread[1] < 4e-6


@pytest.mark.slow
def test_the_simulators_kinetic_energy_is_constant_to_1e_8_at_a_small_step():
    chart = SphereChart(3.0)
    run = geodesic_simulated(chart, (0.3, 0.5), (0.8, -1.1), 1.0, samples=11, step=5e-5)
    assert np.abs(run.energy / run.energy[0] - 1.0).max() < 1e-8


def test_christoffel_symbols_of_the_round_sphere():
    # latitude/longitude on the unit sphere: G = diag(1, cos^2 phi)
    def round_metric(phi, t):
        g = np.zeros(np.shape(phi) + (2, 2))
        g[..., 0, 0] = 1.0
        g[..., 1, 1] = np.cos(phi) ** 2
        return g

    phi = 0.7
    gamma = christoffel_symbols(round_metric, (phi, 0.2))
    expect = np.zeros((2, 2, 2))
    expect[0, 1, 1] = np.sin(phi) * np.cos(phi)
    expect[1, 0, 1] = expect[1, 1, 0] = -np.tan(phi)
    assert np.allclose(gamma, expect, atol=1e-11)
    # and its geodesic from the equator northward is the meridian at unit speed
    route = geodesic_christoffel(SphereChart(3.0), (0.0, 0.3), (1.0, 0.0), 1.2, metric=round_metric)
    assert np.allclose(route.coordinates[:, 0], route.times, atol=1e-10)
    assert np.allclose(route.coordinates[:, 1], 0.3, atol=1e-10)


def test_bad_input_is_refused_clearly():
    chart = SphereChart(3.0)
    with pytest.raises(ConfigurationError, match="pole"):
        geodesic_embedded(chart, (np.pi / 2, 0.0), (1.0, 0.0), 1.0)
    with pytest.raises(ConfigurationError, match="duration"):
        geodesic_embedded(chart, (0.0, 0.0), (1.0, 0.0), -1.0)
    with pytest.raises(ConfigurationError, match="finite start"):
        geodesic_christoffel(chart, (0.0, np.nan), (1.0, 0.0), 1.0)
    with pytest.raises(ConfigurationError, match="multiples of the step"):
        geodesic_simulated(chart, (0.0, 0.0), (1.0, 0.0), 1.0, samples=7, step=1e-2)
    with pytest.raises(TypeError, match="SphereChart"):
        geodesic_embedded("chart", (0.0, 0.0), (1.0, 0.0), 1.0)
