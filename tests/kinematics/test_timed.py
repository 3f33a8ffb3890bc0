"""Several drives at once over time: a five-bar with two motors against its closed form."""

from __future__ import annotations

import numpy as np
import pytest
import sympy
from kinematic_cases import slider_crank

from linkage_widget import Linkage
from linkage_widget.kinematics import kinematics, timed_kinematics

W1, W2 = 1.0, -0.6  # the two cranks' speeds (rad per unit time)


def five_bar() -> Linkage:
    """Pivots 0 = (0, 0) and 2 = (3, 0); cranks 0-1 and 2-3 (1); rods 1-4 and 3-4 (2.5)."""
    a, b = np.array([0.0, 1.0]), np.array([3.0, 1.0])
    mid, half = 0.5 * (a + b), 0.5 * np.linalg.norm(b - a)
    c = mid + np.array([0.0, np.sqrt(2.5**2 - half**2)])
    return Linkage([[0, 0], a, [3, 0], b, c], rods=[(0, 1), (2, 3), (1, 4), (3, 4)], pinned=[0, 2])


def closed_form():
    """Joint 4 in time: the upper crossing of the circles of 2.5 about the crank tips."""
    t = sympy.symbols("t")
    ax, ay = sympy.cos(sympy.pi / 2 + W1 * t), sympy.sin(sympy.pi / 2 + W1 * t)
    bx, by = 3 + sympy.cos(sympy.pi / 2 + W2 * t), sympy.sin(sympy.pi / 2 + W2 * t)
    ex, ey = bx - ax, by - ay
    dist = sympy.sqrt(ex**2 + ey**2)
    h = sympy.sqrt(2.5**2 - dist**2 / 4)
    c = [ax + ex / 2 - h * ey / dist, ay + ey / 2 + h * ex / dist]
    return [sympy.lambdify(t, [sympy.diff(ci, t, n) for ci in c]) for n in range(3)]


def test_a_five_bar_driven_by_two_motors_is_its_closed_form():
    times = np.linspace(0.0, 3.0, 31)
    k = timed_kinematics(five_bar(), times, motors=[(0, 1, W1), (2, 3, W2)])
    assert k.valid.all() and k.tip == -1
    for got, oracle in zip(
        (k.positions, k.velocities, k.accelerations), closed_form(), strict=True
    ):
        want = np.array([oracle(t) for t in times])
        assert np.abs(got[:, 4] - want).max() <= 1e-9 * np.abs(want).max()


def test_one_motor_on_a_five_bar_leaves_it_free():
    with pytest.raises(ValueError, match="1 free degree of freedom"):
        timed_kinematics(five_bar(), [0.0, 1.0], motors=[(0, 1, W1)])


def test_a_timed_motor_is_the_crank_at_its_speed():
    link = slider_crank(theta=0.5)
    times = np.linspace(0.0, 2.0, 11)
    timed = timed_kinematics(link, times, motors=[(0, 1, 1.5)])
    crank = kinematics(link, 0, 1, 0.5 + 1.5 * times)
    assert np.allclose(timed.positions, crank.positions, atol=1e-12)
    v, a = crank.at_speed(1.5)
    assert np.allclose(timed.velocities, v, atol=1e-10)
    assert np.allclose(timed.accelerations, a, atol=1e-8)


def test_a_push_and_a_motor_together():
    # a crank 0-1 and a piston 2 not joined: each drive moves its own joint, together
    # they fix the placement (either alone leaves the other joint free)
    link = Linkage(
        [[0, 0], [1, 0], [3, 0]], rods=[(0, 1)], pinned=[0], sliders=[(2, (0, 0), (1, 0))]
    )
    k = timed_kinematics(link, [0.0, 1.0], motors=[(0, 1, 0.5)], pushes=[(0, 2.0)])
    assert k.valid.all()
    assert np.allclose(k.positions[1, 1], [np.cos(0.5), np.sin(0.5)], atol=1e-12)
    assert np.allclose(k.positions[1, 2], [5.0, 0.0], atol=1e-12)
    assert np.allclose(k.velocities[1, 2], [2.0, 0.0], atol=1e-12)
    with pytest.raises(ValueError, match="free degree"):
        timed_kinematics(link, [0.0], pushes=[(0, 2.0)])


def test_nothing_to_drive_is_refused():
    with pytest.raises(ValueError, match="at least one motor or push"):
        timed_kinematics(five_bar(), [0.0])
