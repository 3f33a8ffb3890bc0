r"""Batch kinematics: one crank-driven linkage at many crank angles and many rod lengths.

:func:`crank_batch` evaluates the mechanism of :func:`~linkage_widget.kinematics.kinematics`
for ``b`` designs (rows of rod lengths) at ``k`` crank angles at once, vectorised over both:

* when the linkage decomposes into the crank and dyads (:mod:`._dyadic`: four-bars,
  slider-cranks, Watt's and Stephenson's six-bars, Peaucellier's and Hart's inversors, Jansen's
  leg), in closed form, each dyad on the side it has in the linkage's own placement;
* otherwise (a triad, fixed angles, slots, redundant rods) :func:`~.driven.kinematics`
  runs its continuation design by design, not here.

**The branch.** The linkage's own placement fixes the branch: its crank angle
:math:`\theta_*` and each dyad's side. Along a branch a dyad changes side only where it is
straight, where the crank angle turns back (a limit of the drive), so continuation in
:math:`\theta` keeps every side; and it reaches exactly the arc of the crank circle that
contains :math:`\theta_*` and on which every dyad assembles on its side. A sample is on the
branch when it lies on that arc, found on the sample angles and a grid of
:data:`GRID` angles (closer than the continuation's largest step,
:data:`~linkage_widget.kinematics._trace.MAX_STEP`): the samples
:func:`~linkage_widget.kinematics._trace.trace` reaches, from :math:`\theta_*`, the short
way or the long way round. A design that does not assemble at :math:`\theta_*` (or whose
rods between pins do not fit the pins) has no branch: every sample is invalid.
"""

from __future__ import annotations

import numpy as np

from ..constraints import GuideRows
from ..model import Linkage
from ._dyadic import Step, modes_at, solve
from ._dyadic_fast import compiled_ready, solve_designs

__all__ = ["GRID", "crank_batch", "ground_fits", "guide_rows"]

#: Angles of the crank circle checked for assembly between samples: 2π/128 ≈ 0.049 rad,
#: closer than the continuation's largest step (0.05 rad), so a gap it cannot cross
#: (where a dyad does not assemble) is seen.
GRID = 128
#: Placements (designs × grid angles) solved at once: arrays of this many stay in cache.
CHUNK = 1 << 14
#: A rod between two pins fits them when its design length is within this of their distance.
GROUND_RTOL = 1e-12


def ground_fits(linkage: Linkage, lengths: np.ndarray) -> np.ndarray:
    """Designs ``(b,)`` whose rods between pinned joints have the pins' distance."""
    pinned = set(linkage.pinned.tolist())
    ground = [r for r, (i, j) in enumerate(linkage.rods.tolist()) if {i, j} <= pinned]
    if not ground:
        return np.ones(len(lengths), bool)
    have = linkage.rod_lengths()[ground]
    return (np.abs(lengths[:, ground] - have) <= GROUND_RTOL * have).all(axis=1)


def guide_rows(linkage: Linkage) -> GuideRows:
    """The slider rows of ``linkage`` (:mod:`~linkage_widget.constraints.guide_rows`)."""
    g = linkage.guides
    if g.is_empty():
        return GuideRows.none()
    p = linkage.vertices
    return GuideRows.build(p, g.slider_joints, g.slider_points, g.slider_directions, g.slots)


def crank_batch(
    linkage: Linkage,
    steps: tuple[Step, ...],
    theta: float,
    values: np.ndarray,
    lengths: np.ndarray,
) -> tuple[np.ndarray, ...]:
    r"""Positions, velocities, accelerations ``(b, k, n, 2)`` and valid ``(b, k)``.

    Parameters
    ----------
    linkage : Linkage
        Checked by the caller: planar, driven by a crank, at crank angle ``theta``.
    steps : tuple of Step
        Its :func:`~._dyadic.dyadic_order` for that crank, no dyad straight at the
        linkage's placement.
    values : ndarray, shape (k,)
        Crank angles.
    lengths : ndarray, shape (b, m)
        Rod lengths, one row per design, in the linkage's rod order.

    Returns
    -------
    tuple of ndarray
        As :func:`~linkage_widget.kinematics.kinematics`: positions NaN off the branch,
        velocities and accelerations NaN where not valid (off the branch or at a dead
        point, a dyad straight to within ``RANK_RTOL``).
    """
    guides = guide_rows(linkage)
    modes = modes_at(steps, linkage.vertices, guides)
    grid, where = _grid(theta, values)
    b, k, n = len(lengths), len(values), linkage.n_vertices
    fits = ground_fits(linkage, lengths)
    if compiled_ready(b * len(grid)):  # one compiled loop a design; NumPy walks the rest
        *out, valid, walk = solve_designs(steps, modes, linkage.vertices, grid, where, lengths,
                                          fits, guides)  # fmt: skip
        todo = np.flatnonzero(walk)
    else:
        out = [np.empty((b, k, n, 2)) for _ in range(3)]
        valid = np.empty((b, k), bool)
        todo = np.arange(b)
    step = max(1, CHUNK // len(grid))
    for lo in range(0, len(todo), step):  # designs a chunk at a time: its arrays stay in cache
        part = todo[lo : lo + step]
        with np.errstate(divide="ignore", invalid="ignore"):
            got = solve(steps, modes, linkage.vertices, grid, int(where[0]), where[1:],
                        lengths[part], guides)  # fmt: skip
        reached = got[3] & fits[part, None]
        valid[part] = reached & got[4]
        for arr, res, keep in zip(out, got[:3], (reached, valid[part], valid[part]), strict=True):
            arr[part] = np.where(keep[:, :, None, None], res.transpose(2, 3, 0, 1), np.nan)
    return out[0], out[1], out[2], valid


def _grid(theta: float, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""The sorted cyclic grid: the start, the samples, and angles filling wider gaps.

    Returns the grid ``(g,)`` in :math:`[0, 2\pi)` and where the start and each sample
    are on it ``(1 + k,)``.
    """
    angles = _fold(np.concatenate([[theta], values]))
    known = np.unique(angles)
    gaps = np.diff(np.append(known, known[0] + 2 * np.pi))
    parts = np.ceil(gaps / (2 * np.pi / GRID)).astype(np.int64)
    wide = np.flatnonzero(parts > 1).tolist()
    fill = [known[i] + gaps[i] * np.arange(1, parts[i]) / parts[i] for i in wide]
    grid = np.unique(_fold(np.concatenate([known, *fill])))
    return grid, np.searchsorted(grid, angles)


def _fold(angles: np.ndarray) -> np.ndarray:
    r"""Angles in :math:`[0, 2\pi)`: ``np.mod`` gives :math:`2\pi` itself for ``-1e-17``."""
    out = np.mod(angles, 2 * np.pi)
    out[out >= 2 * np.pi] = 0.0
    return out
