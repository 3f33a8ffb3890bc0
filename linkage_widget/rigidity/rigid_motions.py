r"""The trivial (rigid-body) motions of a placement, in the plane and in space.

Every constraint of :mod:`linkage_widget.constraints` (rod lengths, angles) is
invariant under the Euclidean motions, so their velocities lie in :math:`\ker A` at
every placement. In :math:`\mathbb{R}^d` these are the translations and the
rotations :math:`v_i = \Omega (p_i - \bar p)` with :math:`\Omega` skew:
:math:`d(d+1)/2` of them, 3 in the plane and 6 in space. At a degenerate placement
fewer are independent — a single point has ``d``, points on one line (a rod) have
:math:`2d - 1` (5 in space: the spin about the line moves nothing) — so the basis is
the *rank* of their span, computed, never assumed; pins then keep only the
combinations that vanish at every pinned vertex.

Sliders (a joint on a ground line, :mod:`linkage_widget.guides`) keep the motions that
carry each slider's *line* onto itself: the trivial motions are the symmetries of the
ground, the rigid motions of the whole that keep every constraint exactly, at every
time, not only to first order. A velocity field :math:`v(x) = t + \omega J (x - \bar p)`
keeps the line through :math:`P` along :math:`u` (normal :math:`n = J u`) when
:math:`n \cdot v(P + s u) = n \cdot v(P) + s\,\omega = 0` for every :math:`s`: no
turning, :math:`\omega = 0`, and no normal drift, :math:`n \cdot t = 0`. So a free rod
on one slider keeps one trivial motion, the slide along the line; sliders on
crossing lines (an elliptic trammel) or a pin and a slider (a slider-crank) keep none,
and their motions are internal flexes. (The weaker condition :math:`n \cdot v_j = 0` at
the joint alone would call a turn about a point of the normal trivial: at a dead point
-- a rod from a pin ending square on a slider -- that turn is no motion at all.) Slots
(a joint on the line of two others) are invariant under every Euclidean motion, like
rods, and keep them all.

Split from :mod:`linkage_widget.rigidity.second_order` (which re-exports
:func:`trivial_motions`) when it grew 3-D.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..constraints import as_points
from .tolerances import TRIVIAL_RCOND

__all__ = ["ground_sliders", "linkage_trivial_motions", "trivial_dimension", "trivial_motions"]

#: Sliders as the ground rows they are: joints ``(s,)`` and unit normals ``(s, 2)``.
Sliders = tuple[np.ndarray, np.ndarray]


def _rotations(q: np.ndarray) -> np.ndarray:
    r"""Rotation velocities of centred points ``q`` ``(n, d)``: ``(n, d, d(d-1)/2)``.

    In 2-D the one rotation :math:`(-y, x)`; in 3-D :math:`e_a \times q` for the three
    axes :math:`a` (about x: :math:`(0, -z, y)`, about y: :math:`(z, 0, -x)`, about z:
    :math:`(-y, x, 0)`).
    """
    if q.shape[1] == 2:
        return np.column_stack([-q[:, 1], q[:, 0]])[:, :, None]
    zero = np.zeros(len(q))
    x, y, z = q.T
    about = [(zero, -z, y), (z, zero, -x), (-y, x, zero)]
    return np.stack([np.column_stack(v) for v in about], axis=2)


def ground_sliders(linkage: Any) -> Sliders:
    r"""The sliders of ``linkage`` as ground rows: joints ``(s,)``, unit normals ``(s, 2)``.

    :math:`n = (-u_y, u_x)` for the line's unit direction :math:`u`, as in
    :mod:`linkage_widget.constraints.guide_rows`. A 3-D linkage has none: ``(0,)``, ``(0, 2)``.
    """
    g = linkage.guides
    u = g.slider_directions.reshape(-1, 2)
    return g.slider_joints, np.column_stack([-u[:, 1], u[:, 0]])


def linkage_trivial_motions(linkage: Any, positions: Any = None) -> np.ndarray:
    """:func:`trivial_motions` of ``linkage`` at ``positions`` (default its own): pins and sliders.

    >>> from linkage_widget import Linkage
    >>> crank = Linkage([[0, 0], [1, 1], [3.5, 0]], rods=[(0, 1), (1, 2)], pinned=[0],
    ...                 sliders=[(2, (0, 0), (1, 0))])
    >>> linkage_trivial_motions(crank).shape       # a slider-crank: no rigid motion left
    (6, 0)
    """
    p = linkage.vertices if positions is None else positions
    return trivial_motions(p, linkage.pinned, linkage.dim, sliders=ground_sliders(linkage))


def trivial_motions(
    positions: Any, pinned: Any = (), dim: int | None = None, *, sliders: Sliders | None = None
) -> np.ndarray:
    r"""Orthonormal basis of the rigid-body motions that keep the pins still and the sliders on.

    Translations (:math:`(1, 0)`, :math:`(0, 1)`, and :math:`(0, 0, 1)` in space) and
    the rotations about the centroid :math:`\bar p` (one in the plane,
    :math:`(-(y - \bar y), x - \bar x)`; three in space), scaled by the placement's
    radius, restricted to the combinations that vanish at every pinned vertex and carry
    every slider's line onto itself (no turning, no normal drift: see the module notes).

    Parameters
    ----------
    positions : array_like, shape (n, d) or (d n,)
        ``d`` is 2 or 3: the number of columns, or ``dim`` for flat positions.
    pinned : array_like of int
    dim : int, optional
        The dimension of flat positions (default 2); with ``(n, d)`` positions it must
        agree with ``d`` or be ``None``.
    sliders : (joints, normals), optional, keyword-only
        Joints ``(s,)`` held on ground lines with unit normals ``(s, 2)``
        (:func:`ground_sliders`). Planar.

    Returns
    -------
    ndarray, shape (d n, t)
        In the plane ``t`` is 3 without pins (2 for a single point), 1 with one pin,
        0 with two pins at distinct places; in space 6 without pins (5 for collinear
        points, 3 for a single point), 3 with one pin, 1 with two, 0 with three pins
        not on a line.

    Examples
    --------
    >>> trivial_motions([[0, 0], [1, 0]]).shape
    (4, 3)
    >>> trivial_motions([[0, 0], [1, 0]], pinned=[0]).shape
    (4, 1)
    >>> trivial_motions([[0, 0]]).shape
    (2, 2)
    >>> trivial_motions([[0, 0, 0], [1, 0, 0]]).shape   # a rod in space: 5
    (6, 5)
    >>> trivial_motions([[0, 0, 0], [1, 0, 0], [0, 1, 0]], pinned=[0, 1]).shape
    (9, 1)
    >>> trivial_motions([[0, 0], [3, 4]], sliders=([0], [[0.0, 1.0]])).shape  # a slide
    (4, 1)
    """
    shaped = np.ndim(positions) == 2
    d = np.shape(positions)[1] if shaped else (dim or 2)
    if shaped and dim is not None and dim != d:
        raise ValueError(f"dim={dim} but the positions have {d} coordinates each")
    p = as_points(positions, d)
    n = len(p)
    if n == 0:
        return np.zeros((0, 0))
    c = p.mean(axis=0)
    radius = float(np.sqrt(((p - c) ** 2).sum(axis=1).mean()))
    scale = radius if radius > 0 else 1.0
    pins = np.asarray(pinned, dtype=np.int64).reshape(-1)
    if len(pins) and (sliders is None or not len(sliders[0])):
        # the pins' rows alone (a pinned linkage mostly keeps no motion: then the basis of
        # every joint is never built); the same numbers as the rows of the whole basis
        held = _motion_columns(p[pins], c, scale)
        keep = _null_space(held, rcond=TRIVIAL_RCOND)
        if keep.shape[1] == 0:
            return np.zeros((d * n, 0))
        basis = _motion_columns(p, c, scale) @ keep
    else:
        basis = _motion_columns(p, c, scale)
        held = _ground_rows(basis.reshape(n, d, -1), d, pins, sliders)
        if held.size:
            basis = basis @ _null_space(held, rcond=TRIVIAL_RCOND)
    if basis.shape[1] == 0:
        return np.zeros((d * n, 0))
    return _orth(basis, rcond=TRIVIAL_RCOND)


def _motion_columns(q: np.ndarray, centre: np.ndarray, scale: float) -> np.ndarray:
    """The velocities at points ``q`` ``(r, d)`` of the shifts and rotations: ``(r d, d + k)``.

    Columns: the ``d`` shifts, then the ``k`` rotations about ``centre`` divided by
    ``scale``; rows: coordinates ``x0, y0 (, z0), x1, ...``.
    """
    r, d = q.shape
    rot = _rotations(q - centre) / scale
    return np.concatenate([np.tile(np.eye(d), (r, 1)), rot.reshape(r * d, -1)], axis=1)


def _ground_rows(at: np.ndarray, d: int, pinned: Any, sliders: Sliders | None) -> np.ndarray:
    """What pins and sliders ask of the motions ``at`` ``(n, d, g)``: rows on their ``g`` columns.

    A pin: its ``d`` velocity components vanish. A slider: no velocity along its normal
    at its joint, and no turning (the columns after the ``d`` shifts are the rotations).
    """
    pins = np.asarray(pinned, dtype=np.int64).reshape(-1)
    rows = [at[pins].reshape(-1, at.shape[2])]
    if sliders is not None and len(sliders[0]):
        joints = np.asarray(sliders[0], dtype=np.int64).reshape(-1)
        normals = np.asarray(sliders[1], dtype=np.float64).reshape(len(joints), -1)
        if d != 2 or normals.shape[1] != 2:
            raise ValueError(f"sliders are planar: normals {normals.shape} for {d}-D")
        rows.append(np.einsum("sd,sdg->sg", normals, at[joints]))
        rows.append(np.eye(at.shape[2])[d:])
    return np.concatenate(rows)


def _null_space(a: np.ndarray, rcond: float) -> np.ndarray:
    """``scipy.linalg.null_space``: right singular vectors at most ``rcond`` times the largest.

    NumPy's SVD without SciPy's wrapper, as :func:`_orth` (a few columns, every frame).
    """
    _, s, vt = np.linalg.svd(a, full_matrices=True)
    rank = int(np.count_nonzero(s > rcond * s.max())) if s.size else 0
    return vt[rank:].T


def _orth(a: np.ndarray, rcond: float) -> np.ndarray:
    """``scipy.linalg.orth``: the left singular vectors above ``rcond`` times the largest.

    NumPy's SVD, without SciPy's wrapper (input checks, driver choice): a tenth of
    the time on a few columns, and this runs on every frame of a drag.
    """
    u, s, _ = np.linalg.svd(a, full_matrices=False)
    rank = int(np.count_nonzero(s > rcond * s[0])) if s.size and s[0] > 0 else 0
    return u[:, :rank]


def trivial_dimension(dim: int) -> int:
    """:math:`d(d+1)/2`: the Euclidean motions of a placement in general position (3 or 6).

    >>> trivial_dimension(2), trivial_dimension(3)
    (3, 6)
    """
    return dim * (dim + 1) // 2
