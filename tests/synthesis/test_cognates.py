"""Roberts–Chebyshev cognates: three four-bars, one coupler curve, traced by kinematics.

Oracles: the package's ``kinematics`` traces every cognate on its own (Newton
continuation on its rods); the curves are compared point for point at corresponding
input angles (each cognate link turns with a link of the original, by a constant angle)
and as point sets, each traced sample's distance to the original's curve minimised over
the original's crank angle with the four-bar's closed form written out here; Roberts'
law (the ground triangle similar to the coupler triangle) by hand.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import brentq

from linkage_widget import FourBar, Linkage, cognates, kinematics

Z = 0.6 + 0.8j  # the coupler's shape: P = A + Z (B - A)


def _pins(oa, ob, a, b, c, theta):
    """Crank and rocker pins of a four-bar at crank angle theta (one branch), by hand."""
    pa = oa + a * np.array([np.cos(theta), np.sin(theta)])
    e = ob - pa
    r = np.linalg.norm(e)
    along = (b * b - c * c + r * r) / (2 * r)
    pb = pa + along * e / r + np.sqrt(b * b - along * along) * np.array([-e[1], e[0]]) / r
    return pa, pb


def _coupler(pa, pb):
    w = complex(*pa) + Z * complex(*(pb - pa))
    return np.array([w.real, w.imag])


def _four_bar(ground, a, b, c, theta=0.3):
    oa, ob = np.zeros(2), np.array([ground, 0.0])
    pa, pb = _pins(oa, ob, a, b, c, theta)
    link = Linkage(
        [ob, pa, oa, _coupler(pa, pb), pb],  # shuffled: the function must find the parts
        rods=[(2, 1), (0, 4), (1, 4), (1, 3), (4, 3)],
        pinned=[2, 0],
    )
    return link, (oa, ob, a, b, c)


DRAG_LINK = (1.0, 3.0, 3.5, 3.2)  # ground shortest: every link turns fully
CRANK_ROCKER = (3.0, 1.0, 3.5, 3.2)  # crank shortest


def _angle(v):
    return np.unwrap(np.arctan2(v[:, 1], v[:, 0]))


def _trace(fb: FourBar, motor, angles):
    k = kinematics(fb.linkage, *motor, angles)
    assert k.valid.all()
    return k


def _distance_to_curve(points, dims, dense_theta, dense_points):
    """Each point's distance to the original's coupler curve, minimised over its crank angle.

    The foot of the perpendicular: (C(t) - q) . C'(t) = 0 solved by brentq near the
    nearest dense sample (C' by a central difference, which moves the root by far less
    than the distance when the point is on the curve).
    """
    step = dense_theta[1] - dense_theta[0]

    def curve(t):
        return _coupler(*_pins(*dims, t))

    def slope(t, q):
        return (curve(t) - q) @ (curve(t + 1e-6) - curve(t - 1e-6))

    out = []
    for q in points:
        t0 = dense_theta[np.argmin(np.linalg.norm(dense_points - q, axis=1))]
        t = brentq(slope, t0 - step, t0 + step, args=(q,), xtol=1e-15)
        out.append(np.linalg.norm(curve(t) - q))
    return np.array(out)


def test_the_three_share_the_coupler_point_and_roberts_third_pivot():
    link, (oa, ob, *_) = _four_bar(*DRAG_LINK)
    original, first, second = cognates(link, 3)
    np.testing.assert_allclose(original.linkage.vertices[[0, 1]], [oa, ob], atol=1e-15)
    swapped = cognates(link, 3, pivot=0)[0]  # the other pivot as the crank's
    np.testing.assert_allclose(swapped.linkage.vertices[[0, 1]], [ob, oa], atol=1e-15)
    for fb in (original, first, second):
        assert fb.coupler == 4 and fb.motor == (0, 2)
        np.testing.assert_allclose(fb.linkage.vertices[4], link.vertices[3], atol=1e-12)
    oc = first.linkage.vertices[1]
    np.testing.assert_allclose(second.linkage.vertices[1], oc, atol=1e-12)
    # Roberts: O_A O_B O_C similar to A B P, the same turn
    v = original.linkage.vertices
    want = complex(*(v[4] - v[2])) / complex(*(v[3] - v[2]))
    assert complex(*(oc - oa)) / complex(*(ob - oa)) == pytest.approx(want, abs=1e-12)


def test_drag_link_cognates_trace_the_same_curve_point_for_point_and_as_sets():
    link, dims = _four_bar(*DRAG_LINK)
    original, first, second = cognates(link, 3)
    theta = 0.3 + np.linspace(0, 2 * np.pi, 61)
    k0 = _trace(original, (0, 2), theta)
    curve = k0.positions[:, 4]
    coupler_angle = _angle(k0.positions[:, 3] - k0.positions[:, 2])
    # cognate 1's crank turns with the original's coupler (+ arg z), cognate 2's with it too
    k1 = _trace(first, (0, 2), coupler_angle + np.angle(Z))
    k2 = _trace(second, (0, 2), coupler_angle + np.angle(Z - 1))
    np.testing.assert_allclose(k1.positions[:, 4], curve, atol=1e-9)
    np.testing.assert_allclose(k2.positions[:, 4], curve, atol=1e-9)
    # every rod keeps its length along the way
    for k, fb in ((k1, first), (k2, second)):
        ends = k.positions[:, fb.linkage.rods]
        lengths = np.linalg.norm(ends[:, :, 0] - ends[:, :, 1], axis=2)
        assert np.ptp(lengths, axis=0).max() < 1e-9
    # as point sets: each cognate driven a uniform full turn of its own crank
    dense_theta = 0.3 + np.linspace(0, 2 * np.pi, 3601)
    dense = np.array([_coupler(*_pins(*dims, t)) for t in dense_theta])
    for fb in (first, second):
        start = np.arctan2(*(fb.linkage.vertices[2] - fb.linkage.vertices[0])[::-1])
        own = _trace(fb, (0, 2), start + np.linspace(0, 2 * np.pi, 31)).positions[:, 4]
        assert _distance_to_curve(own, dims, dense_theta, dense).max() < 1e-9
    # the other way (the original's curve covered by each cognate's) is the point-for-point
    # check above: every original sample is a cognate's point


def test_crank_rocker_cognates():
    link, dims = _four_bar(*CRANK_ROCKER)
    original, first, second = cognates(link, 3)
    theta = 0.3 + np.linspace(0, 2 * np.pi, 91)
    k0 = _trace(original, (0, 2), theta)
    # cognate 2's rocker O_C -> C_2 turns with the original's crank: a crank too
    k2 = _trace(second, (1, 3), theta + np.angle(1 - Z))
    np.testing.assert_allclose(k2.positions[:, 4], k0.positions[:, 4], atol=1e-9)
    # cognate 1 is a double rocker: its crank follows the original's coupler where it can
    coupler_angle = _angle(k0.positions[:, 3] - k0.positions[:, 2])
    way = np.sign(np.diff(coupler_angle))
    assert not np.all(way == way[0])  # it swings
    part = np.arange(0, np.argmax(way != way[0]) - 1)  # the drawn placement's swing
    assert len(part) > 10
    k1 = _trace(first, (0, 2), coupler_angle[part] + np.angle(Z))
    np.testing.assert_allclose(k1.positions[:, 4], k0.positions[part, 4], atol=1e-9)


def test_bad_input_says_what():
    link, _ = _four_bar(*DRAG_LINK)
    with pytest.raises(ValueError, match="coupler point 1 is a pin"):
        cognates(link, 1)
    with pytest.raises(ValueError, match="cognates coupler"):
        cognates(link, 9)
    with pytest.raises(ValueError, match="planar four-bar with a coupler point"):
        cognates(Linkage.load("peaucellier.txt"), 3)
    flat = Linkage.load("four_bar.txt")
    with pytest.raises(ValueError, match="planar four-bar with a coupler point"):
        cognates(flat, 3)
    with pytest.raises(ValueError, match="pivot 1 is not one of the pinned joints"):
        cognates(link, 3, pivot=1)
    with pytest.raises(TypeError, match="must be a Linkage"):
        cognates("four_bar.txt", 3)
