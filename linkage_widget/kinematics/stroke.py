r"""The stroke of a joint over a crank turn: its dead centres and the quick-return ratio.

A joint's travel along a unit direction :math:`u`, :math:`s(\theta) = u\cdot p_j(\theta)`,
reaches its extremes (the *dead centres* of a piston or a ram) where
:math:`s'(\theta) = u\cdot p_j' = 0`. Between two samples where :math:`s'` changes sign
the root is found on the cubic Hermite interpolant of :math:`s'` built from
:math:`s'` and :math:`s'' = u\cdot p_j''` at both ends (error :math:`O(h^4)` in the
sample spacing :math:`h`), and :math:`s` there on the quintic Hermite interpolant of
:math:`s, s', s''` (error :math:`O(h^6)`).

With the crank turning at a constant speed, the time of each stroke is the crank angle
it takes: the *quick-return ratio* is the larger of the two angles between the dead
centres over the smaller (1 for an in-line slider-crank; 2 for a Whitworth mechanism
whose crank is twice the distance between its pivots).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .driven import Kinematics

__all__ = ["Stroke", "stroke"]


@dataclass(frozen=True)
class Stroke:
    r"""The dead centres of a joint's travel over one crank turn.

    Attributes
    ----------
    angles : (float, float)
        Crank angles (radians, in the span of the samples, or past the last sample in
        the gap that closes the turn when the samples stop short of it) of the smallest
        and the largest travel.
    travel : (float, float)
        The smallest and the largest :math:`s = u\cdot p_j`.
    forward : float
        Crank angle from the smallest travel to the largest, turning the way the
        samples go (in :math:`(0, 2\pi)`); the return takes :math:`2\pi` less it.
    """

    angles: tuple[float, float]
    travel: tuple[float, float]
    forward: float

    @property
    def length(self) -> float:
        """The stroke: the largest travel less the smallest."""
        return self.travel[1] - self.travel[0]

    @property
    def ratio(self) -> float:
        """The quick-return ratio: the slower stroke's crank angle over the faster's."""
        back = 2.0 * np.pi - self.forward
        return max(self.forward, back) / min(self.forward, back)


def _hermite(y0: float, y1: float, d0: float, d1: float, h: float, t: float) -> float:
    """The cubic through ``y0, y1`` with slopes ``d0, d1`` over a step ``h``, at ``t`` in [0, 1]."""
    t2, t3 = t * t, t * t * t
    return (
        (2 * t3 - 3 * t2 + 1) * y0
        + (t3 - 2 * t2 + t) * h * d0
        + (-2 * t3 + 3 * t2) * y1
        + (t3 - t2) * h * d1
    )


def _quintic(
    y: tuple[float, float], d: tuple[float, float], dd: tuple[float, float], h: float, t: float
) -> float:
    """The quintic with values ``y``, slopes ``d`` and second derivatives ``dd`` at both ends."""
    t3, t4, t5 = t**3, t**4, t**5
    return (
        (1 - 10 * t3 + 15 * t4 - 6 * t5) * y[0]
        + (t - 6 * t3 + 8 * t4 - 3 * t5) * h * d[0]
        + 0.5 * (t * t - 3 * t3 + 3 * t4 - t5) * h * h * dd[0]
        + 0.5 * (t3 - 2 * t4 + t5) * h * h * dd[1]
        + (-4 * t3 + 7 * t4 - 3 * t5) * h * d[1]
        + (10 * t3 - 15 * t4 + 6 * t5) * y[1]
    )


def _root(f0: float, f1: float, d0: float, d1: float, h: float) -> float:
    """The fraction ``t`` in [0, 1] where the Hermite cubic of ``f`` crosses 0 (bisection)."""
    lo, hi = 0.0, 1.0
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if np.sign(_hermite(f0, f1, d0, d1, h, mid)) == np.sign(f0):
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def stroke(k: Kinematics, joint: int, direction: Any = (1.0, 0.0)) -> Stroke:
    r"""The dead centres of ``joint``'s travel along ``direction`` over the crank turn ``k``.

    ``k`` must hold one full turn, valid throughout (e.g. ``np.linspace(0, 2 * np.pi,
    361)``, or without the end point): the sign changes of :math:`s'` are looked for
    between consecutive samples, and from the last to the first when they do not
    close the turn.

    Examples
    --------
    >>> from linkage_widget import Linkage
    >>> from linkage_widget.kinematics import kinematics
    >>> crank = Linkage([[0, 0], [1, 0], [4, 0]], rods=[(0, 1), (1, 2)], pinned=[0],
    ...                 sliders=[(2, (0, 0), (1, 0))])
    >>> s = stroke(kinematics(crank, 0, 1, np.linspace(0, 2 * np.pi, 73)), 2)
    >>> round(s.length, 12), round(s.ratio, 12)     # twice the crank; in line: no quick return
    (2.0, 1.0)
    """
    theta = k.angles
    if not k.valid.all() or np.ptp(theta) < 2 * np.pi - 2 * np.abs(np.diff(theta)).max():
        raise ValueError("stroke: the samples must cover one full crank turn, all valid")
    u = np.asarray(direction, dtype=np.float64).reshape(2)
    u = u / np.hypot(*u)
    s, ds, dds = (arr[:, joint] @ u for arr in (k.positions, k.velocities, k.accelerations))
    turn = 2 * np.pi * np.sign(theta[-1] - theta[0])
    if abs(theta[-1] - theta[0]) < 2 * np.pi - 1e-9 * np.abs(np.diff(theta)).max():
        # the samples stop short of the turn (endpoint=False): a dead centre may lie in
        # the gap from the last one to the first one a turn on, where all is as at the first
        theta = np.append(theta, theta[0] + turn)
        s, ds, dds = (np.append(a, a[0]) for a in (s, ds, dds))
    found = []
    for i in np.flatnonzero(np.sign(ds[:-1]) != np.sign(ds[1:])):
        h = theta[i + 1] - theta[i]
        t = _root(ds[i], ds[i + 1], dds[i], dds[i + 1], h)
        ends = slice(i, i + 2)
        found.append((theta[i] + t * h, _quintic(s[ends], ds[ends], dds[ends], h, t)))
    if len(found) < 2:
        raise ValueError(f"stroke: joint {joint} does not go to and fro along {u.tolist()}")
    low = min(found, key=lambda f: f[1])
    high = max(found, key=lambda f: f[1])
    forward = float(np.remainder((high[0] - low[0]) * np.sign(turn), 2 * np.pi))
    return Stroke((float(low[0]), float(high[0])), (float(low[1]), float(high[1])), forward)
