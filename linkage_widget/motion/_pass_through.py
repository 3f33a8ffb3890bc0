r"""Which singular placements the motion passes through on its own.

The watch (:mod:`~linkage_widget.motion._singular`) finds every placement where the
constraint Jacobian loses rank along a step. Not each of them is a choice:

* the rank drop may not be a bifurcation at all: the tangent cone is the single line
  the motion arrived on (the configuration curve is smooth there);
* the branches crossing there other than the one the motion arrived on may all be
  *welded* ones: along them two joints that meet at the placement move together, as
  if pinned to each other (Peaucellier's rhombus folded flat with the output :math:`Q`
  on the crank end :math:`P`, on the circle of inversion: the other branch carries
  :math:`Q` round with :math:`P`, rods lying on rods). No mechanism can turn onto such
  a branch (its two pins would have to be one), so the motion stays on the branch it
  came along, as notebook 01's inversor does through its whole stroke.

The motion goes on in both cases when it arrived *along* a line of the cone (the
chord of the arriving step nearer to it than to any other line, :data:`ARRIVAL_COS`)
that is not welded itself. Everywhere else (a flat parallelogram: the parallelogram and the crossed
antiparallelogram are both motions a real linkage makes; an arrival between lines; a
cone that contains a plane) the motion stops and offers the branches.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ._projection import held_residual, project
from ._setup import Setup
from .tolerances import CREEP_HALVINGS

__all__ = [
    "ARRIVAL_COS",
    "COINCIDENT_RTOL",
    "PULL_RATE",
    "WELD_TOL",
    "creep_onward",
    "landed_on",
    "pass_line",
    "projected",
    "welded",
]

#: The motion arrived along (or left along) a branch line when the chord of its step makes
#: a smaller angle with that line than with any other, and :math:`|\cos|` is at least this.
#: A chord is not a tangent: over a long step (a drag's steps are many pixels) it turns
#: from the tangent by about :math:`\kappa h / 2` (30 degrees for the inversor's rhombus
#: arriving at its flat placement in one step of 6 units), as much as the angle between
#: two branch lines; the line it is nearest to is the one it came along.
ARRIVAL_COS = 0.5
#: A pull blocked next to a singular placement goes on through it along the line it arrived
#: on only when the pulled joint moves toward its target along that unit line at least this
#: fast. At a fold of the pulled joint's own path (Peaucellier's crank end, where only the
#: joints 3 and 4 move along the line) it does not move at all: there the pull is blocked.
PULL_RATE = 0.05
#: Two joints meet at a placement when they are within this many length scales: the
#: located placement is within ~1e-12 relative of the singular one, and joints that only
#: pass near each other are farther apart than this by far.
COINCIDENT_RTOL = 1e-6
#: Two joints move together along a unit branch direction when their velocities differ
#: by at most this (the directions are computed within ~1e-5 of the singular placement's).
WELD_TOL = 1e-3


def welded(line: np.ndarray, positions: np.ndarray, scale: float) -> bool:
    """Whether two joints that meet at ``positions`` move together along ``line``.

    ``line`` and ``positions`` are ``(n, dim)``; ``scale`` is the linkage's length scale.
    A pinned joint's velocity is zero: a joint that meets it and stays is welded to it.
    """
    gap = np.linalg.norm(positions[:, None, :] - positions[None, :, :], axis=-1)
    i, j = np.nonzero(np.triu(gap <= COINCIDENT_RTOL * scale, k=1))
    if not i.size:
        return False
    apart = np.linalg.norm(line[i] - line[j], axis=-1)
    return bool(np.any(apart <= WELD_TOL))


def _cosines(lines: np.ndarray, v: np.ndarray) -> np.ndarray:
    r""":math:`|\cos|` between each unit line ``(k, n, dim)`` and the vector ``v``."""
    size = float(np.linalg.norm(v))
    if size == 0.0 or not len(lines):
        return np.zeros(len(lines))
    return np.abs(lines.reshape(len(lines), -1) @ v) / size


def pass_line(lines: np.ndarray, at: np.ndarray, arriving: np.ndarray, scale: float) -> int | None:
    """The branch line the motion goes on along through ``at``, or ``None``: a choice.

    Parameters
    ----------
    lines : ndarray, shape (k, n, dim)
        Unit directions of the branch lines through the singular placement.
    at : ndarray, shape (n * dim,)
        The singular placement.
    arriving : ndarray, shape (n * dim,)
        The chord the motion arrived along (the placement minus where the step began).
    scale : float
        The linkage's length scale.

    Returns
    -------
    int or None
        The line the motion arrived along, when it is not welded and every other line
        is (see the module); ``None`` where the motion must stop and offer the lines.
    """
    cos = _cosines(lines, arriving)
    if not cos.size:
        return None
    k = _nearest(cos)
    if k is None:
        return None
    positions = at.reshape(lines.shape[1], lines.shape[2])
    if welded(lines[k], positions, scale):
        return None
    others = (welded(line, positions, scale) for i, line in enumerate(lines) if i != k)
    return k if all(others) else None


def landed_on(lines: np.ndarray, k: int, at: np.ndarray, q: np.ndarray) -> bool:
    """Whether the step from the singular placement ``at`` to ``q`` keeps to line ``k``.

    The chord ``q - at`` makes a smaller angle with line ``k`` than with any other line,
    within :data:`ARRIVAL_COS` (a step that turned onto another branch does not).
    """
    return _nearest(_cosines(lines, q - at)) == k


def _nearest(cos: np.ndarray) -> int | None:
    """The line strictly nearest to a chord (largest ``cos``), if within :data:`ARRIVAL_COS`."""
    if not cos.size:
        return None
    k = int(np.argmax(cos))
    if cos[k] < ARRIVAL_COS or np.count_nonzero(cos >= cos[k]) > 1:
        return None
    return k


def projected(setup: Setup, at: np.ndarray, guess: np.ndarray) -> np.ndarray | None:
    """``guess`` (near the singular placement ``at``) projected onto ``setup``'s rows.

    Factorised at ``guess``: at ``at`` the Jacobian has lost rank, and corrections made
    with it run off along the stress (a flat parallelogram's branches could not be
    followed: the projection stalled at a residual of 1e-6, issue 22).
    """
    fac = setup.factor(guess)
    floor = setup.roundoff(at)
    held = held_residual(setup, at, fac, floor)
    onward, ok, _ = project(setup, guess, fac, held, floor, allow_refactor=True)
    return onward if ok else None


def creep_onward(
    setup: Setup,
    p: np.ndarray,
    q: np.ndarray,
    d: np.ndarray,
    attractor: tuple[int, np.ndarray],
    step: float,
    kept: Callable[[np.ndarray], bool],
) -> np.ndarray | None:
    """Where a pull blocked at ``p``, just before the singular placement ``q``, goes on.

    Along the unit line ``d`` (in the sense the motion arrived) past ``q``: by ``step``,
    halved until the result keeps to the line (``kept``) and the pulled joint ends
    nearer its target than at ``p`` (a target at ``q`` itself is not passed back and
    forth). ``None`` when the pulled joint does not move toward its target along ``d``
    (:data:`PULL_RATE`) or no halving does.
    """
    i, target = attractor
    dim = len(target)

    def gap(x: np.ndarray) -> float:
        return float(np.linalg.norm(x[i * dim : (i + 1) * dim] - target))

    toward = (target - q[i * dim : (i + 1) * dim]) / max(gap(q), np.finfo(float).tiny)
    if float(d[i * dim : (i + 1) * dim] @ toward) < PULL_RATE:
        return None  # the pulled joint does not go on toward its target along it
    before = gap(p)
    for _ in range(CREEP_HALVINGS):
        onward = projected(setup, q, q + step * d)
        if onward is not None and kept(onward) and gap(onward) < before:
            return onward
        step *= 0.5
    return None
