"""Path friction through zero length is second order, like the rest of RATTLE (issue 24, item 10).

A block (mass 1) on the x axis, pulled by a spring of stiffness 8 and rest length 0
towards an anchor at the origin, slides from x = 1 through the anchor (the pathway's
length passes through zero, its unit vector flips) and sticks where its velocity
first vanishes. With kinetic friction :math:`\\mu_k N` and viscous friction
:math:`\\sigma \\dot x` the motion until then is the damped oscillator

.. math:: \\ddot x + \\sigma \\dot x + k x = \\mu_k N

(friction opposes the leftward motion), so with :math:`x_c = \\mu_k N / k` and
:math:`\\omega_d = \\sqrt{k - \\sigma^2/4}` it stops at

.. math:: x_* = x_c - (1 - x_c)\\,e^{-\\sigma\\pi/(2\\omega_d)}

after half a damped period, and the static limit :math:`\\mu_s N` holds it there.
Before the fix the friction force kept its sign along the pathway for the whole step
in which the block crossed the anchor, pushing *with* the motion for the rest of that
step: an :math:`O(h)` error (3.8e-4 at h = 1e-3 for notebook 06's k = 8 block).
"""

from __future__ import annotations

import math

import pytest

from linkage_widget import Linkage
from linkage_widget.motion import Simulator

N, K = 9.81, 8.0


def rest_position(h: float, mu_k: float, sigma: float) -> float:
    """Where the block comes to rest (it is stuck well before 1.3 s)."""
    block = Linkage([[0.0, 0.0], [1.0, 0.0]], rods=[], pinned=[0])
    sim = Simulator(block, mode="dynamic", step_size=h, gravity=0.0, total_mass=2.0)
    sim.add_friction(0, 1, normal_force=N, mu_k=mu_k, mu_s=0.6, sigma=sigma)
    sim.add_spring(0, 1, stiffness=K, rest_length=0.0)
    sim.step(round(1.3 / h))
    assert abs(sim.velocities[1, 0]) < 1e-12 and sim.positions[1, 1] == 0.0  # stuck
    return float(sim.positions[1, 0])


def exact_rest(mu_k: float, sigma: float) -> float:
    """:math:`x_*` of the module docstring."""
    xc = mu_k * N / K
    return xc - (1.0 - xc) * math.exp(-sigma * math.pi / (2.0 * math.sqrt(K - sigma**2 / 4)))


def test_the_rest_position_through_zero_length_converges_at_second_order():
    # mu_k = 0.3, sigma = 0.2: at rest at x = -0.1978, through the anchor
    want = exact_rest(0.3, 0.2)
    assert want < -0.1
    errors = [abs(rest_position(h, 0.3, 0.2) - want) for h in (1.6e-2, 8e-3)]
    # measured: 2.75e-5, 6.72e-6 (ratio 4.09), then 1.68e-6, 4.19e-7 at 4 and 2 ms
    assert 3.5 < errors[0] / errors[1] < 4.5
    assert errors[1] < 1e-5


def test_notebook_06_block_rests_at_minus_0_019():
    # without viscous friction the turning point of Verlet's oscillation is exact
    # (its modified energy has the same turning points), so only the stop's timing
    # within a step could err, and it is placed to third order: 1.3e-10 at h = 8 ms
    assert exact_rest(0.4, 0.0) == pytest.approx(-0.019, abs=1e-15)
    assert rest_position(8e-3, 0.4, 0.0) == pytest.approx(-0.019, abs=1e-8)
