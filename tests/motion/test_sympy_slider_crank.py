"""The slider-crank under gravity against its Lagrangian in sympy (issue 25's oracle).

A free slider-crank swinging under gravity and one turned by a constant crank torque,
2 s each, with 50 % of the mass in the rods: the simulator's crank angle against
``sympy_slider_crank`` (LagrangesMethod on the crank angle, solve_ivp at 1e-12). RATTLE
is second order and symmetric, so its error is :math:`c h^2 + O(h^4)`: at two steps the
error ratio is 4 (checked) and the Richardson value :math:`(4\\theta_{h/2} - \\theta_h)/3`
agrees with the Lagrangian to 1e-6 relative (measured: 3e-9 free, 1e-7 driven); each run to
1e-4, as the other sympy oracles.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy_slider_crank as ref
from scipy.integrate import solve_ivp

from linkage_widget import Linkage
from linkage_widget.motion import Simulator
from linkage_widget.motion.symbolic import to_sympy_mechanics

R, L, E, ALPHA, MASS, G = 1.0, 3.0, 0.3, 0.5, 2.0, 9.81
THETA0, SAMPLES = 0.7, 50  # every 0.04 s: the angle unwraps
TIMES = np.linspace(0.0, 2.0, SAMPLES + 1)


def simulated_angles(h: float, torque: float) -> np.ndarray:
    pts = ref.slider_crank_points(THETA0, R, L, E)
    link = Linkage(pts, rods=[(0, 1), (1, 2)], pinned=[0], sliders=[(2, (0.0, E), (1, 0))])
    sim = Simulator(
        link, mode="dynamic", step_size=h, gravity=G, mass_distribution=ALPHA, total_mass=MASS
    )
    if torque:
        sim.add_torque(0, 1, torque)
    out, worst = [THETA0], 0.0
    for _ in range(SAMPLES):
        sim.step(round(TIMES[1] / h))
        a = sim.positions[1]
        out.append(np.arctan2(a[1], a[0]))
        worst = max(worst, abs(sim.positions[2, 1] - E))
    assert sim.time == pytest.approx(TIMES[-1])
    assert worst <= 1e-12  # the piston on its line all along
    return np.unwrap(out)


@pytest.mark.parametrize("torque", [0.0, 8.0])
def test_the_slider_crank_under_gravity_follows_its_lagrangian(torque):
    want = ref.crank_angles(
        THETA0, 0.0, TIMES, r=R, rod=L, e=E, alpha=ALPHA, total_mass=MASS, g=G, tau=torque
    )
    assert np.ptp(want) > 2.0  # it really swung (or turned)
    scale = np.abs(want).max()
    coarse, fine = simulated_angles(4e-3, torque), simulated_angles(2e-3, torque)
    err_coarse, err_fine = coarse - want, fine - want
    assert np.abs(err_fine).max() <= 1e-4 * scale
    ratio = np.abs(err_coarse).max() / np.abs(err_fine).max()
    assert 3.5 < ratio < 4.5  # second order
    richardson = (4.0 * fine - coarse) / 3.0
    assert np.abs(richardson - want).max() <= 1e-6 * scale


def test_to_sympy_mechanics_holds_the_slider_and_agrees_with_the_lagrangian():
    """The export's slider row, integrated in point coordinates, against the crank angle."""
    pts = ref.slider_crank_points(THETA0, R, L, E)
    link = Linkage(pts, rods=[(0, 1), (1, 2)], pinned=[0], sliders=[(2, (0.0, E), (1, 0))])
    system = to_sympy_mechanics(link, mass_distribution=ALPHA, total_mass=MASS, gravity=G)
    assert len(system.constraints) == 3  # two rods and the slider
    y0 = system.state(link.vertices, np.zeros((3, 2)))
    sol = solve_ivp(system.rhs(), (0.0, 1.0), y0, method="DOP853", rtol=1e-11, atol=1e-13)
    assert sol.success
    got = system.positions(sol.y[:, -1], link.vertices)
    assert abs(got[2, 1] - E) <= 1e-8  # the piston on its line (index-1 drift)
    want = ref.crank_angles(
        THETA0, 0.0, [0.0, 1.0], r=R, rod=L, e=E, alpha=ALPHA, total_mass=MASS, g=G
    )
    assert np.arctan2(got[1, 1], got[1, 0]) == pytest.approx(want[-1], abs=1e-7)
