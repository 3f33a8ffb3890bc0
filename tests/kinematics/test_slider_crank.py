"""The slider-crank against its closed form, over a full turn."""

from __future__ import annotations

import numpy as np
import pytest
import sympy
from kinematic_cases import piston, slider_crank

from linkage_widget.kinematics import kinematics, slider_kinematics

ANGLES = np.linspace(0.0, 2 * np.pi, 361)


@pytest.mark.parametrize("offset", [0.0, 0.4])
def test_piston_position_velocity_acceleration_are_the_closed_form(offset):
    # x = r cos θ + sqrt(l² - r² sin² θ) in line (the offset e: (r sin θ - e)² under the root)
    k = kinematics(slider_crank(offset=offset), 0, 1, ANGLES)
    assert k.valid.all()
    for got, want in zip(
        (k.positions, k.velocities, k.accelerations), piston(offset=offset), strict=True
    ):
        exact = want(ANGLES) * np.ones_like(ANGLES)
        assert np.abs(got[:, 2, 0] - exact).max() <= 1e-9 * np.abs(exact).max()
        assert np.abs(got[:, 2, 1] - (offset if got is k.positions else 0.0)).max() <= 1e-12


def test_pushing_the_piston_turns_the_crank_by_the_law_of_cosines():
    # in line, r = 1, l = 3: with the piston at s, cos θ = (s² + r² − l²) / (2 s r), θ > 0
    link = slider_crank(theta=1.0)  # drawn off the dead centre, where a push is undecided
    travels = np.linspace(3.9, 2.1, 37)  # from near the top dead centre to near the bottom
    k = slider_kinematics(link, 0, travels)
    assert k.valid.all() and k.slider == 0 and k.tip == -1
    t = sympy.symbols("s")
    theta = sympy.acos((t**2 + 1 - 9) / (2 * t))
    for order, got in enumerate((k.positions, k.velocities, k.accelerations)):
        want = sympy.lambdify(
            t, [sympy.diff(sympy.cos(theta), t, order), sympy.diff(sympy.sin(theta), t, order)]
        )
        exact = np.array([want(s) for s in travels])
        assert np.abs(got[:, 1] - exact).max() <= 1e-9 * np.abs(exact).max()
    assert np.allclose(k.positions[:, 2, 0], travels, atol=1e-12)
    assert np.allclose(k.velocities[:, 2], [1.0, 0.0], atol=1e-12)


def test_a_pushed_piston_stops_at_the_dead_centre():
    # beyond l + r = 4 the linkage does not assemble: crank and rod in line at s = 4
    k = slider_kinematics(slider_crank(theta=1.0), 0, [3.5, 3.9, 4.1, 4.5])
    assert k.valid.tolist() == [True, True, False, False]


def test_a_pushed_slider_must_exist():
    with pytest.raises(ValueError, match="slider 1 out of range"):
        slider_kinematics(slider_crank(), 1, [3.0])


def test_a_push_from_the_dead_centre_is_refused():
    with pytest.raises(ValueError, match="dead point of this drive"):
        slider_kinematics(slider_crank(), 0, [3.0])


def test_at_speed_is_the_piston_differentiated_in_time():
    # the crank at θ(t) = θ0 + ω t + α t²/2: sympy differentiates x(θ(t)) in t at t = 0
    w, alpha = 2.5, -0.7
    t, th0 = sympy.symbols("t theta0")
    x = sympy.cos(th0 + w * t + alpha * t**2 / 2) + sympy.sqrt(
        9 - sympy.sin(th0 + w * t + alpha * t**2 / 2) ** 2
    )
    rates = [sympy.lambdify(th0, sympy.diff(x, t, n).subs(t, 0)) for n in (1, 2)]
    k = kinematics(slider_crank(), 0, 1, ANGLES[::10])
    v, a = k.at_speed(w, alpha)
    assert np.allclose(v[:, 2, 0], rates[0](ANGLES[::10]), rtol=0, atol=1e-9)
    assert np.allclose(a[:, 2, 0], rates[1](ANGLES[::10]), rtol=0, atol=1e-8)
