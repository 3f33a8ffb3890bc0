"""Design sensitivity against central finite differences; the tolerance band against Monte Carlo.

The oracle re-solves the perturbed mechanism from scratch with
``scipy.optimize.least_squares`` on the constraint residuals (lengths and anchors
changed in the rows), not with the implicit function theorem under test.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from kinematic_cases import four_bar
from scipy.optimize import least_squares

from linkage_widget import Linkage
from linkage_widget.kinematics import kinematics, sensitivity, tolerance_band
from linkage_widget.kinematics.driven import motor_set

ANGLES = np.radians(np.arange(10.0, 360.0, 60.0))


def coupler_point_linkage() -> Linkage:
    """A four-bar whose coupler is a triangle 1-2-4: joint 4 draws the coupler curve."""
    base = four_bar()
    p = base.vertices
    apex = 0.5 * (p[1] + p[2]) + np.array([-1.0, 1.5])
    return Linkage(
        [*p, apex],
        rods=[*base.rods.tolist(), (1, 4), (2, 4)],
        pinned=[0, 3],
    )


def resolve(link, angle, guess, lengths=None, anchors=None):
    """The placement at crank angle ``angle`` with the rows' lengths or anchors replaced."""
    cs = motor_set(link, 0, 1).at_time(angle)
    cs = dataclasses.replace(
        cs,
        lengths=cs.lengths if lengths is None else lengths,
        anchors=cs.anchors if anchors is None else anchors,
    )
    sol = least_squares(
        cs.residuals,
        guess.reshape(-1),
        jac=lambda x: cs.jacobian(x).toarray(),
        method="lm",
        xtol=1e-15,
        ftol=1e-15,
    )
    assert np.abs(cs.residuals(sol.x)).max() < 1e-12
    return sol.x.reshape(-1, 2)


def test_length_and_pin_sensitivities_are_central_differences():
    link = coupler_point_linkage()
    k = kinematics(link, 0, 1, ANGLES)
    s = sensitivity(link, k, 4)
    cs = motor_set(link, 0, 1)
    h = 1e-5
    for i, angle in enumerate(ANGLES):
        guess = k.positions[i]
        for r in range(link.n_rods):
            up, down = cs.lengths.copy(), cs.lengths.copy()
            up[r] += h
            down[r] -= h
            fd = (
                resolve(link, angle, guess, lengths=up) - resolve(link, angle, guess, lengths=down)
            )[4] / (2 * h)
            assert np.allclose(s.lengths[i, r], fd, rtol=0, atol=1e-7), (i, r)
        for q in range(2):
            for c in range(2):
                up, down = cs.anchors.copy(), cs.anchors.copy()
                up[q, c] += h
                down[q, c] -= h
                fd = (
                    resolve(link, angle, guess, anchors=up)
                    - resolve(link, angle, guess, anchors=down)
                )[4] / (2 * h)
                assert np.allclose(s.pins[i, q, c], fd, rtol=0, atol=1e-7), (i, q, c)


def test_the_tolerance_band_holds_monte_carlo_to_first_order():
    link = coupler_point_linkage()
    k = kinematics(link, 0, 1, ANGLES)
    delta = 1e-3 * np.array([1.0, 2.0, 1.0, 1.5, 0.5])
    band = tolerance_band(link, k, 4, delta)
    nominal = motor_set(link, 0, 1).lengths
    rng = np.random.default_rng(7)
    corners = np.array(np.meshgrid(*[[-1.0, 1.0]] * 5)).reshape(5, -1).T
    for i in range(0, len(ANGLES), 2):
        w = band.half_width[i]
        # random lengths inside the box: all inside the band (up to second order, ~delta^2)
        for eps in rng.uniform(-1.0, 1.0, size=(20, 5)):
            p = resolve(link, ANGLES[i], k.positions[i], lengths=nominal + eps * delta)[4]
            assert abs((p - band.path[i]) @ band.normals[i]) <= w + 1e-5
        # the box's corners: the widest of them reaches the band's edge
        across = [
            (
                resolve(link, ANGLES[i], k.positions[i], lengths=nominal + e * delta)[4]
                - band.path[i]
            )
            @ band.normals[i]
            for e in corners
        ]
        assert max(np.abs(across)) == pytest.approx(w, abs=1e-5)
    assert np.allclose(band.outer - band.inner, 2 * band.half_width[:, None] * band.normals)


def test_bad_tolerances_are_refused():
    link = four_bar()
    k = kinematics(link, 0, 1, [0.2])
    with pytest.raises(ValueError, match="rod tolerances must be finite and >= 0"):
        tolerance_band(link, k, 2, [-1.0, 0.0, 0.0])
    with pytest.raises(ValueError, match=r"one or one each \(3\)"):
        tolerance_band(link, k, 2, [0.1, 0.1])
    with pytest.raises(ValueError, match="pin tolerances"):
        tolerance_band(link, k, 2, 0.1, pins=[0.1, 0.1, 0.1])


def test_pin_tolerances_widen_the_band_by_their_corners():
    link = coupler_point_linkage()
    k = kinematics(link, 0, 1, ANGLES[:2])
    band = tolerance_band(link, k, 4, 0.0, pins=[1e-3, 2e-3])
    anchors = motor_set(link, 0, 1).anchors
    corners = np.array(np.meshgrid(*[[-1.0, 1.0]] * 4)).reshape(4, -1).T
    for i in range(2):
        across = [
            (
                resolve(
                    link,
                    ANGLES[i],
                    k.positions[i],
                    anchors=anchors + e.reshape(2, 2) * [[1e-3], [2e-3]],
                )[4]
                - band.path[i]
            )
            @ band.normals[i]
            for e in corners
        ]
        assert max(np.abs(across)) == pytest.approx(band.half_width[i], abs=2e-5)
