r"""The Roberts–Chebyshev cognates as path-synthesis candidates: three four-bars, one curve.

:func:`~.cognates.cognates` builds the three four-bars; here each becomes a
:class:`~.path.PathCandidate` on the original's coupler curve, so that the widget's
synthesis tool shows them as it shows a search's designs (thumbnails, one click to load
one) and a notebook compares their Grashof classes and transmission angles.

The target is the original's coupler curve: ``samples`` points over a crank turn from
its placement when the crank turns fully (a closed target), else over the arc of crank
angles around it where the four-bar assembles (an open one). Each cognate's crank angle
at those points follows from the construction: both cognates' cranks turn with the
original's coupler :math:`b = B - A`,

.. math:: \theta_1 = \arg(z\,b), \qquad \theta_2 = \arg\big((z - 1)\,b\big), \qquad
          z = \frac{P - A}{B - A},

so no search is needed: every candidate's error is the round-off of the construction.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..model import Linkage
from ._four_bar import FourBar, branch_sign, four_bar
from ._four_bar_path import FOUR_BAR, pins
from ._path_search import target_of
from .cognates import cognates
from .path import PathCandidate, candidate_of

__all__ = ["cognate_candidates"]

#: Crank angles tried when the crank does not turn fully, to find its arc.
_ARC_GRID = 721


def _c(points: np.ndarray) -> np.ndarray:
    return points[..., 0] + 1j * points[..., 1]


def _frame(fb: FourBar) -> tuple:
    """The four-bar's normalised shape ``q (5,)``, branch ``(1,)``, map ``w, t`` and crank angle.

    World points are :math:`t + w z` of normalised ones :math:`z` (the crank's pivot at
    0, the crank of length 1, the rocker's pivot on the positive x-axis).
    """
    a0, b0, a, b, p = _c(fb.linkage.vertices[:5])
    crank = abs(a - a0)
    w = crank * (b0 - a0) / abs(b0 - a0)
    an, bn, pn = (a - a0) / w, (b - a0) / w, (p - a0) / w
    d = abs(b0 - a0) / crank
    e = (bn - an) / abs(bn - an)
    uv = (pn - an) / e
    q = np.array([d, abs(bn - an), abs(bn - d), uv.real, uv.imag])
    xy = np.array([[an.real, an.imag], [d, 0.0], [bn.real, bn.imag]])
    sigma = branch_sign(xy[0], xy[1], xy[2]).reshape(1)
    return q, sigma, w, a0, float(np.angle(an))


def _swept(q: np.ndarray, sigma: np.ndarray, now: float, samples: int) -> tuple[np.ndarray, bool]:
    """Crank angles of the target: a turn from ``now`` when it turns fully, else its arc."""
    turn = now + np.linspace(0.0, 2 * np.pi, samples, endpoint=False)
    if np.isfinite(FOUR_BAR.trace(q[None], sigma[None], turn)).all():
        return turn, True
    grid = now + np.linspace(-np.pi, np.pi, _ARC_GRID)
    ok = np.isfinite(FOUR_BAR.trace(q[None], sigma[None], grid)[0]).all(axis=1)
    middle = _ARC_GRID // 2
    gaps = np.flatnonzero(~ok)
    lo = grid[gaps[gaps < middle].max(initial=-1) + 1]
    hi = grid[gaps[gaps > middle].min(initial=_ARC_GRID) - 1]
    return np.linspace(lo, hi, samples), False


def cognate_candidates(
    linkage: Linkage, coupler: int, *, pivot: int | None = None, samples: int = 72
) -> list[PathCandidate]:
    r"""The linkage and its two cognates as :class:`~.path.PathCandidate` on its coupler curve.

    Parameters
    ----------
    linkage, coupler, pivot
        As :func:`~.cognates.cognates`: a four-bar with a coupler point, the point's
        joint, the crank's pivot.
    samples : int
        Points of the coupler curve the candidates are measured on (at least 10).

    Returns
    -------
    list of PathCandidate
        The original (its crank ``pivot``'s), cognate 1 and cognate 2, each placed where
        it puts the coupler point where the linkage has it, with ``angles`` its crank's
        angles at the curve's points, ``error`` the RMS distance from them (round-off),
        its Grashof class, transmission range, and whether its crank runs through the
        curve in order (``traverses``: a cognate whose crank only rocks does not).

    Examples
    --------
    >>> link = Linkage([[0, 0], [4, 0], [0, 2], [3, 3], [2, 4]],
    ...                rods=[(0, 2), (1, 3), (2, 3), (2, 4), (3, 4)], pinned=[0, 1])
    >>> [c.error < 1e-9 for c in cognate_candidates(link, 4)]
    [True, True, True]
    """
    if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or samples < 10:
        raise ValueError(f"cognate_candidates: samples must be a whole number >= 10: {samples!r}")
    original = cognates(linkage, coupler, pivot=pivot)[0]
    q0, s0, w0, t0, now = _frame(original)
    theta, closed = _swept(q0, s0, now, int(samples))
    pin_a, pin_b, *_ = pins(q0[None], s0[None], theta)
    a = t0 + w0 * _c(pin_a[0])  # the original's pins, world, at each point of the curve
    b = t0 + w0 * _c(pin_b[0])
    oa, ob, _, _, p0 = _c(original.linkage.vertices[:5])
    curve = t0 + w0 * _c(FOUR_BAR.trace(q0[None], s0[None], theta)[0])
    z = (p0 - a[0]) / (b[0] - a[0])
    oc = oa + z * (ob - oa)
    a1, b2 = oa + z * (b - a), ob + (z - 1) * (b - a)
    motions = [  # each four-bar's pivots and pins along the motion (cognates' module doc)
        (oa, ob, a, b),
        (oa, oc, a1, a1 + z * (a - oa)),
        (ob, oc, b2, b2 + (1 - z) * (b - ob)),
    ]
    target = target_of(np.column_stack([curve.real, curve.imag]), closed, None, FOUR_BAR)
    return [_candidate(*_driven(*m), curve, target) for m in motions]


def _driven(g1: complex, g2: complex, m1: np.ndarray, m2: np.ndarray) -> tuple:
    """The four-bar's two readings (either pivot the crank's); one whose crank turns, if any.

    Returns pivots, pins along the motion and the crank's angles (world, unwrapped).
    """
    first = np.unwrap(np.angle(m1 - g1))
    if not _turns_one_way(first):
        other = np.unwrap(np.angle(m2 - g2))
        if _turns_one_way(other):
            return g2, g1, m2, m1, other
    return g1, g2, m1, m2, first


def _turns_one_way(angles: np.ndarray) -> bool:
    steps = np.diff(angles)
    return bool((steps >= 0).all() or (steps <= 0).all())


def _candidate(g1, g2, m1, m2, angles, curve, target) -> PathCandidate:
    """One four-bar along the motion as a candidate on ``curve`` (its crank ``g1 → m1``)."""
    xy = [np.array([w.real, w.imag]) for w in (g1, g2, m1[0], m2[0], curve[0])]
    q, sigma, w, t, _ = _frame(four_bar(*xy))
    local = angles - np.angle(w)
    along = branch_sign(
        *(np.column_stack([v.real, v.imag]) for v in (m1, np.full_like(m1, g2), m2))
    )
    traced = t + w * _c(FOUR_BAR.trace(q[None], sigma[None], local)[0])
    # the construction is exact; a crank that only rocks changes branch at its turns,
    # where one sign cannot follow: those points are not the design's error
    same = along == sigma[0]
    error = float(np.sqrt(np.mean(np.abs(traced[same] - curve[same]) ** 2))) if same.any() else 0.0
    centre = complex(*target.centre)
    fit = (q, sigma, w / target.size, (t - centre) / target.size, local, error / target.size)
    made = candidate_of(FOUR_BAR, fit, target)
    if same.all():
        return made
    note = (
        "neither pivot's link turns fully in this cognate: its crank rocks and changes "
        "branch at each turn, so a motor on it traces only an arc of the curve"
    )
    return replace(made, traverses=False, note=note)
