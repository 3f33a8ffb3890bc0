r"""Newton continuation of a driven mechanism along its drive, with the first two derivatives.

A :class:`Drive` is a :class:`~linkage_widget.constraints.ConstraintSet` moved by one
value :math:`s`, the drive rows' time (:class:`~linkage_widget.constraints.DriveRows`):
the crank angle of a motor row or the travel of a push row, run at unit speed from phase
0, or the time itself for several drives at their speeds. The constraint system is then
:math:`g(p, s) = 0` with :math:`\partial g/\partial s = -b`
(:meth:`~linkage_widget.constraints.ConstraintSet.velocity_target`: :math:`\ell\omega`
on a motor row, :math:`v` on a push row, 0 elsewhere), and differentiating twice in
:math:`s` gives the velocity and acceleration *per unit drive speed*

.. math:: A\,p' = b, \qquad A\,p'' = -g_{pp}(p)[p', p']

(no :math:`\partial^2 g/\partial s^2` or :math:`\partial A/\partial s` terms: the drive
rows are affine in :math:`s`). Both are solved from one SVD of :math:`A` (least squares
where rows are redundant, exact when the system is consistent); a sample is *valid* when
the placement assembles and :math:`\sigma_{\min}/\sigma_{\max} > ` ``RANK_RTOL`` (the
rigidity's rank rule): below it the Jacobian has lost rank, a dead point.

The positions are followed from sample to sample by a second-order predictor
:math:`p + h p' + \tfrac12 h^2 p''` and a Gauss-Newton corrector, in sub-steps of at most
:data:`MAX_STEP` (in units of the drive's scale), halved when the corrector fails or moves
more than half the predicted step (the sign of a jump to another branch).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..constraints import ConstraintSet, as_flat
from ..rigidity import RANK_RTOL

#: Largest sub-step of the continuation, relative to the drive's scale (radians for a
#: crank): 0.05 rad keeps the predictor's error (third order) near 1e-5 of a length, well
#: inside the corrector's basin.
MAX_STEP = 0.05
#: Smallest sub-step tried before a sample is called unreachable (relative, as above).
MIN_STEP = 1e-6
#: The corrector's goal: the largest relative residual (rod strain, radians).
CONVERGED = 1e-13
#: Corrector iterations per sub-step before it is halved.
ITERATIONS = 12


@dataclass(frozen=True)
class Sample:
    """One placement of the drive with its derivatives: ``p, v, a`` flat ``(2n,)``."""

    p: np.ndarray
    v: np.ndarray
    a: np.ndarray
    regular: bool


@dataclass(frozen=True, eq=False)
class Drive:
    r"""The constraints moved by one drive value ``s`` (see the module docstring).

    Attributes
    ----------
    cs : ConstraintSet
        With the drive rows: a motor or a push at unit speed, or several at their speeds.
    rate : ndarray, shape (rows,)
        :math:`b = -\partial g/\partial s`.
    scale : float
        The unit of a step of ``s``: 1 (radians) for a crank, the length scale for a push.
    period : float or None
        :math:`2\pi` for a crank (the way round either way), None for a push.
    """

    cs: ConstraintSet
    rate: np.ndarray
    scale: float
    period: float | None

    def at(self, s: float) -> ConstraintSet:
        """The constraints at drive value ``s`` (the drive rows' time)."""
        return self.cs.at_time(s)


def derivatives(cs: ConstraintSet, p: np.ndarray, b: np.ndarray) -> Sample:
    r"""Velocity and acceleration per unit drive speed at ``p`` (flat), and the rank check."""
    a_mat = cs.jacobian(p).toarray()
    u, s, vt = np.linalg.svd(a_mat, full_matrices=False)
    keep = s > RANK_RTOL * s[0] if s.size else s > 0
    regular = bool(keep.all()) and len(s) == a_mat.shape[1]

    def solve(rhs: np.ndarray) -> np.ndarray:
        return vt[keep].T @ ((u[:, keep].T @ rhs) / s[keep])

    v = solve(b)
    acc = solve(-cs.second_derivative(p, v, v))
    return Sample(p, v, acc, regular)


def correct(cs: ConstraintSet, p: np.ndarray) -> tuple[np.ndarray, bool]:
    """Gauss-Newton on :math:`g(p) = 0` from ``p``, to round-off.

    Quadratic convergence: once a step is below ``1e-7`` of the length scale what is left
    is below round-off, so that step is the last. After a step below ``1e-4`` of it the
    Jacobian is kept (a chord step: it changed by that much, so the next error is that
    fraction of the last, already near round-off), saving one evaluation per sample.
    """
    scales = cs.row_scales()
    before, jac = np.inf, None
    for _ in range(ITERATIONS):
        g = cs.residuals(p)
        size = float(np.abs(g / scales).max())
        if size > 2.0 * before:  # diverging: beyond a limit of the drive, or a bad guess
            return p, False
        before = size
        jac = cs.jacobian(p).toarray() if jac is None else jac
        step = np.linalg.lstsq(jac, -g, rcond=None)[0]
        if np.abs(step).max() >= 1e-4 * cs.length_scale:
            jac = None
        p = p + step
        if not np.isfinite(p).all():
            return p, False
        if np.abs(step).max() < 1e-7 * cs.length_scale and np.abs(g / scales).max() < 1e-6:
            return p, bool(np.abs(cs.residuals(p) / scales).max() < CONVERGED)
    return p, bool(np.abs(cs.residuals(p) / scales).max() < CONVERGED)


def _substep(drive: Drive, start: Sample, s0: float, h: float) -> Sample | None:
    """The placement at drive value ``s0 + h`` from ``start`` (at ``s0``), or None."""
    guess = start.p + h * start.v + 0.5 * h * h * start.a
    cs = drive.at(s0 + h)
    p, ok = correct(cs, guess)
    moved = np.linalg.norm(guess - start.p)
    if not ok or np.linalg.norm(p - guess) > 0.5 * moved + 1e-9 * cs.length_scale:
        return None
    return derivatives(cs, p, drive.rate)


def follow(drive: Drive, start: Sample, s0: float, s1: float) -> tuple[Sample | None, float]:
    """Continue ``start`` (at drive value ``s0``) to ``s1`` on its branch.

    Returns the sample at ``s1`` (None when it cannot be reached) and the drive value
    reached. ``MAX_STEP`` and ``MIN_STEP`` are relative to the drive's scale: radians
    for a crank, ``length_scale`` for a pushed slider.
    """
    scale = drive.scale
    total = s1 - s0
    n = max(1, int(np.ceil(abs(total) / (MAX_STEP * scale))))
    h, s, here = total / n, s0, start
    while abs(s1 - s) > 1e-15 * max(1.0, abs(s1)):
        h = np.copysign(min(abs(h), abs(s1 - s)), total)
        nxt = _substep(drive, here, s, h)
        if nxt is None:
            h = 0.5 * h
            if abs(h) < MIN_STEP * scale:
                return None, s
            continue
        s, here = s + h, nxt
        h = np.copysign(min(2.0 * abs(h), MAX_STEP * scale), total)
    return here, s1


def trace(drive: Drive, p0: np.ndarray, s_start: float, values: np.ndarray) -> list[Sample | None]:
    r"""Samples at drive ``values`` on the branch through ``p0`` (at drive value ``s_start``).

    A sample that cannot be reached is ``None`` and the next is followed from the last one
    reached; with a ``period`` (:math:`2\pi` for a crank) the other way round is tried
    too, so a rocking crank comes back into its range from the other side. Where a way
    was blocked (a limit of the drive) is remembered until a sample is reached again, so
    the samples beyond it are not tried again.
    """
    here = derivatives(drive.at(s_start), as_flat(p0), drive.rate)
    s_here, out = s_start, []
    walls: dict[float, float] = {}  # direction (+1, -1) -> the drive value it stopped at
    for target in values:
        got = None
        for s1 in _routes(s_here, float(target), drive.period):
            way = float(np.sign(s1 - s_here))
            if way in walls and (s1 - walls[way]) * way >= 0.0:
                continue
            got, reached = follow(drive, here, s_here, s1)
            if got is not None:
                break
            walls[way] = reached
        if got is not None:  # a motor row wraps its angle: the value asked is the same place
            here, s_here, walls = got, float(target), {}
        out.append(got)
    return out


def _routes(s0: float, s1: float, period: float | None) -> list[float]:
    """Drive values to follow to from ``s0`` that mean ``s1``: the short way, then the long."""
    if period is None:
        return [s1]
    d = float(np.remainder(s1 - s0 + 0.5 * period, period) - 0.5 * period)
    return [s0 + d, s0 + d - np.copysign(period, d)] if d != 0.0 else [s0]
