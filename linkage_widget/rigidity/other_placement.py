r"""Another placement with the same rod lengths: a fold across a separating pair, or a solve.

Two placements :math:`p, q` of a bar framework are *equivalent* when every rod has the
same length, and *congruent* when every pair of joints is at the same distance. A
framework that has an equivalent, non-congruent placement is not globally rigid; this
module finds one, and :func:`same_lengths` / :func:`congruent` check it.

The fold. When :math:`\{a, b\}` separates the graph, a component :math:`C` of
:math:`G - \{a, b\}` meets the rest only at :math:`a` and :math:`b`. An isometry fixing
:math:`p_a` and :math:`p_b` keeps the lengths of :math:`C`'s rods and of its rods to
:math:`a, b`: in the plane the reflection in the line :math:`p_a p_b`,

.. math:: q_i = p_a + 2 (u \cdot (p_i - p_a)) u - (p_i - p_a), \qquad
          u = (p_b - p_a)/|p_b - p_a| \quad (i \in C),

in space the half turn about that line, the same formula. Applied to :math:`C` alone it
may still give a congruent placement: when :math:`C` or the rest lies on the line, and
in space when the rest lies in a plane through the line and :math:`C` in the
perpendicular one (the half turn of :math:`C` is then the mirror in the rest's plane).
So in space a quarter turn and a turn by one radian about the line are tried too; and
when :math:`C` has no rod to :math:`b` (a cut vertex :math:`a` widened to a pair) it is
turned about :math:`p_a` alone, which keeps its rods whatever the rest's shape. Every
candidate is checked with :func:`congruent`.

A disconnected graph: one component (without pins) is moved away (:func:`separate`).

The solve. Otherwise (a 3-connected graph that is not redundantly rigid, say) random
starts of a least-squares solve of :math:`|q_i - q_j|^2 = L_{ij}^2` (scipy's
``least_squares``, pinned joints held) are kept when they land within
:data:`~.tolerances.SAME_LENGTH_TOL` and are not congruent. Finding none proves nothing.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import least_squares

from .connectivity import _adjacency, components_without
from .tolerances import CONGRUENT_TOL, SAME_LENGTH_TOL

__all__ = ["congruent", "fold", "same_lengths", "separate", "solve_other"]

#: Random starts of the solve.
SOLVE_STARTS = 16


def _lengths(p: np.ndarray, edges: np.ndarray) -> np.ndarray:
    return np.linalg.norm(p[edges[:, 0]] - p[edges[:, 1]], axis=1)


def same_lengths(
    p: np.ndarray, q: np.ndarray, edges: np.ndarray, tol: float = SAME_LENGTH_TOL
) -> bool:
    """Whether every rod has the same length in ``p`` and ``q`` (relative to the longest)."""
    lp, lq = _lengths(p, edges), _lengths(q, edges)
    scale = max(float(lp.max(initial=0.0)), 1.0)
    return bool(np.all(np.abs(lp - lq) <= tol * scale))


def congruent(p: np.ndarray, q: np.ndarray, tol: float = CONGRUENT_TOL) -> bool:
    """Whether all pairwise distances agree: ``p`` and ``q`` differ by an isometry."""
    dp = np.linalg.norm(p[:, None] - p[None], axis=2)
    dq = np.linalg.norm(q[:, None] - q[None], axis=2)
    scale = max(float(dp.max(initial=0.0)), 1.0)
    return bool(np.abs(dp - dq).max(initial=0.0) <= tol * scale)


def _turned(p: np.ndarray, a: int, b: int, part: list[int]) -> np.ndarray:
    """``p`` with ``part`` reflected in the line :math:`p_a p_b` (a half turn in space)."""
    u = p[b] - p[a]
    u = u / np.linalg.norm(u)
    q = p.copy()
    rel = p[part] - p[a]
    q[part] = p[a] + 2.0 * np.outer(rel @ u, u) - rel
    return q


def _rotated(p: np.ndarray, centre: int, axis: np.ndarray | None, angle: float,
             part: list[int]) -> np.ndarray:  # fmt: skip
    r"""``p`` with ``part`` turned by ``angle`` about :math:`p_c` (in space about ``axis``).

    Rodrigues' formula :math:`R = I + \sin\theta\, [u]_\times + (1 - \cos\theta)[u]_\times^2`.
    """
    c, s = np.cos(angle), np.sin(angle)
    if p.shape[1] == 2:
        turn = np.array([[c, -s], [s, c]])
    else:
        u = axis / np.linalg.norm(axis)
        cross = np.array([[0.0, -u[2], u[1]], [u[2], 0.0, -u[0]], [-u[1], u[0], 0.0]])
        turn = np.eye(3) + s * cross + (1.0 - c) * cross @ cross
    q = p.copy()
    q[part] = p[centre] + (p[part] - p[centre]) @ turn.T
    return q


def _folds(p: np.ndarray, adj: list[list[int]], a: int, b: int, part: list[int]):
    """The candidate placements for one side ``part`` of the pair (module notes)."""
    yield _turned(p, a, b, part)
    if p.shape[1] == 3:
        for angle in (np.pi / 2, 1.0):
            yield _rotated(p, a, p[b] - p[a], angle, part)
    for centre, other in ((a, b), (b, a)):
        if not any(other in adj[v] for v in part):
            skew = np.array([1.0, np.sqrt(2.0), np.sqrt(3.0)])
            for angle in (np.pi / 2, 1.0):
                yield _rotated(p, centre, skew, angle, part)


def fold(
    p: np.ndarray, edges: np.ndarray, pair: tuple[int, int], fixed: np.ndarray
) -> np.ndarray | None:
    """Fold one side of the separating ``pair`` over the line through it.

    Parameters
    ----------
    p : ndarray, shape (n, d)
        The placement.
    edges : ndarray of int, shape (m, 2)
        The rods.
    pair : (a, b)
        A separating pair of the graph.
    fixed : ndarray of int
        Pinned joints: a component holding one is not moved.

    Returns
    -------
    ndarray, shape (n, d), or None
        The folded (or turned, module notes) placement, or ``None`` when every candidate
        is congruent to ``p`` (or every side holds a pin, or :math:`p_a = p_b`).
    """
    a, b = pair
    if np.linalg.norm(p[b] - p[a]) == 0.0:
        return None
    adj = _adjacency(len(p), edges)
    pinned = set(int(v) for v in fixed)
    for part in components_without(adj, (a, b)):
        if pinned & set(part):
            continue
        for q in _folds(p, adj, a, b, part):
            if not congruent(p, q):
                return q
    return None


def separate(p: np.ndarray, edges: np.ndarray, fixed: np.ndarray) -> np.ndarray | None:
    """Move a component that holds no pin away from the rest (a disconnected graph), or None.

    A translation by more than the placement's extent keeps its rods and changes its
    distances to the other joints, yet may give a mirror image of ``p`` (two parallel
    rods shifted along an axis): each candidate is checked with :func:`congruent`, and
    the shift is tried along every axis and a skew direction.
    """
    parts = components_without(_adjacency(len(p), edges), ())
    pinned = set(int(v) for v in fixed)
    free = [part for part in parts if not pinned & set(part)]
    if len(parts) < 2 or not free:
        return None
    d = p.shape[1]
    reach = 1.0 + float(np.ptp(p, axis=0).max())
    # a skew direction no symmetry of a small example is likely to share
    skew = np.sqrt(np.arange(2, d + 2, dtype=float))
    for direction in [*np.eye(d), skew / np.linalg.norm(skew)]:
        q = p.copy()
        q[free[0]] += reach * direction
        if not congruent(p, q):
            return q
    return None


def _residual(
    x: np.ndarray, q: np.ndarray, free: np.ndarray, edges: np.ndarray, target: np.ndarray
):
    q = q.copy()
    q[free] = x.reshape(len(free), -1)
    diff = q[edges[:, 0]] - q[edges[:, 1]]
    return (diff * diff).sum(axis=1) - target


def _jacobian(
    x: np.ndarray, q: np.ndarray, free: np.ndarray, edges: np.ndarray, target: np.ndarray
) -> np.ndarray:
    """The residual's derivative: :math:`2(q_i - q_j)` in ``i``'s columns, minus in ``j``'s."""
    q = q.copy()
    d = q.shape[1]
    q[free] = x.reshape(len(free), d)
    column = np.full(len(q), -1)
    column[free] = np.arange(len(free))
    jac = np.zeros((len(edges), len(free) * d))
    diff = 2.0 * (q[edges[:, 0]] - q[edges[:, 1]])
    for end, sign in ((0, 1.0), (1, -1.0)):
        col = column[edges[:, end]]
        rows = np.flatnonzero(col >= 0)
        for a in range(d):
            jac[rows, d * col[rows] + a] = sign * diff[rows, a]
    return jac


def solve_other(
    p: np.ndarray, edges: np.ndarray, fixed: np.ndarray, seed: int | None = 0
) -> np.ndarray | None:
    """A non-congruent placement with the same rod lengths, by random-start solves, or None.

    ``fixed`` joints (the pins) keep their place; the others start uniformly in the box of
    ``p`` (grown by the longest rod) and are solved by scipy's ``least_squares``.
    """
    n, d = p.shape
    free = np.setdiff1d(np.arange(n), np.asarray(fixed, np.int64))
    if not free.size or not len(edges):
        return None
    target = _lengths(p, edges) ** 2
    reach = float(np.sqrt(target.max()))
    low, high = p.min(axis=0) - reach, p.max(axis=0) + reach
    rng = np.random.default_rng(seed)
    for _ in range(SOLVE_STARTS):
        x0 = rng.uniform(low, high, size=(len(free), d)).ravel()
        fit = least_squares(
            _residual,
            x0,
            jac=_jacobian,
            args=(p, free, edges, target),
            xtol=1e-15,
            ftol=1e-15,
            gtol=1e-15,
        )
        q = p.copy()
        q[free] = fit.x.reshape(len(free), d)
        if same_lengths(p, q, edges) and not congruent(p, q):
            return q
    return None
