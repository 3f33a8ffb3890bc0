r"""Independent rigidity oracles for the 3-D examples: plain numpy, no package analysis.

- :func:`rigidity_matrix` (``(m, 3n)``) and :func:`trivial_basis` (the six rigid
  motions at a placement, orthonormal columns of ``(3n, 6)``); from them
  :func:`counts` gives the internal degrees of freedom :math:`3n - 6 - \operatorname{rank} R`
  and the self-stresses :math:`m - \operatorname{rank} R` (a numerical rank, relative
  tolerance :data:`RANK_RTOL`).
- :func:`project` is Newton's method with the minimum-norm step
  :math:`\delta = -J_k^+ r` on the squared rod lengths (:math:`J_k`: the Jacobian
  truncated to the rank :math:`k` of :math:`R` at the start, so that self-stresses
  do not throw the step off), until every rod length is within ``rtol`` of its
  target (relative).
- :func:`continue_flex` follows a one-dimensional flex: the tangent is the unit
  null vector of :math:`R(p)` orthogonal to the rigid motions (oriented like the
  previous one), a step of length ``h`` along it, then :func:`project` back onto
  the rod lengths. Every accepted point is checked to ``rtol``.
- :func:`aligned_displacement` removes the best rigid motion (Kabsch) before
  measuring how far the joints went.
"""

from __future__ import annotations

import numpy as np

#: Singular values at most this times the largest count as zero.
RANK_RTOL = 1e-8


def rigidity_matrix(p: np.ndarray, rods: np.ndarray) -> np.ndarray:
    """Rows (p_i - p_j) in joint i's columns, (p_j - p_i) in joint j's; shape (m, 3n)."""
    n = len(p)
    r = np.zeros((len(rods), n, 3))
    d = p[rods[:, 0]] - p[rods[:, 1]]
    r[np.arange(len(rods)), rods[:, 0]] = d
    r[np.arange(len(rods)), rods[:, 1]] = -d
    return r.reshape(len(rods), 3 * n)


def trivial_basis(p: np.ndarray) -> np.ndarray:
    """Orthonormal basis (3n, 6) of the infinitesimal rigid motions v_i = t + w x p_i."""
    n = len(p)
    cols = [np.tile(e, n) for e in np.eye(3)]
    cols += [np.cross(e, p).ravel() for e in np.eye(3)]
    q, _ = np.linalg.qr(np.column_stack(cols))
    return q


def rank(a: np.ndarray) -> int:
    s = np.linalg.svd(a, compute_uv=False)
    return int(np.sum(s > RANK_RTOL * s[0])) if s.size else 0


def counts(p: np.ndarray, rods: np.ndarray) -> tuple[int, int]:
    """(internal degrees of freedom, self-stresses) at the placement p."""
    r = rank(rigidity_matrix(p, rods))
    return 3 * len(p) - 6 - r, len(rods) - r


def nontrivial_flexes(p: np.ndarray, rods: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Nontrivial infinitesimal flexes and the singular values they come from.

    R is restricted to the orthogonal complement of the rigid motions (an orthonormal
    basis C, 3n - 6 columns); the flexes are C times the null vectors of R C.
    Returns (flexes (3n, k) orthonormal columns, singular values of R C ascending,
    padded with zeros to 3n - 6).
    """
    n3 = 3 * len(p)
    full, _ = np.linalg.qr(np.c_[trivial_basis(p), np.eye(n3)])
    comp = full[:, 6:n3]
    _, s, vt = np.linalg.svd(rigidity_matrix(p, rods) @ comp, full_matrices=True)
    s_all = np.zeros(n3 - 6)
    s_all[: len(s)] = s
    null = s_all <= RANK_RTOL * max(float(s_all.max()), 1e-300)
    return comp @ vt[null].T, np.sort(s_all)


def rod_lengths(p: np.ndarray, rods: np.ndarray) -> np.ndarray:
    return np.linalg.norm(p[rods[:, 0]] - p[rods[:, 1]], axis=1)


def _truncated_solve(a: np.ndarray, b: np.ndarray, keep: int) -> np.ndarray:
    """Minimum-norm least-squares solution of a x = b from the ``keep`` largest singular values."""
    u, s, vt = np.linalg.svd(a, full_matrices=False)
    return vt[:keep].T @ ((u[:, :keep].T @ b) / s[:keep])


def project(
    p: np.ndarray,
    rods: np.ndarray,
    lengths: np.ndarray,
    rtol: float = 1e-13,
    max_iter: int = 60,
    keep: int | None = None,
) -> tuple[np.ndarray, bool]:
    """Newton with minimum-norm steps onto |p_i - p_j| = lengths; (placement, converged).

    With self-stresses the rod equations are dependent on the solution set, and
    near it the Jacobian has tiny singular values along the stresses: inverting
    them throws the step off (the residual there is second order, divided by a
    first-order singular value). ``keep`` (default: the rank of R at ``p``, which
    should then lie on the solution set or be the point to return to) keeps
    only that many singular values — Newton on an independent set of equations,
    as for any overconstrained system.
    """
    q = p.copy()
    keep = rank(rigidity_matrix(p, rods)) if keep is None else keep
    for _ in range(max_iter):
        err = np.abs(rod_lengths(q, rods) - lengths) / lengths
        if err.max() <= rtol:
            return q, True
        d = q[rods[:, 0]] - q[rods[:, 1]]
        residual = np.sum(d * d, axis=1) - lengths**2
        q = q + _truncated_solve(2.0 * rigidity_matrix(q, rods), -residual, keep).reshape(q.shape)
    return q, False


def continue_flex(
    p: np.ndarray, rods: np.ndarray, h: float, steps: int, rtol: float = 1e-12
) -> list[np.ndarray]:
    """Follow the one-dimensional flex of p for ``steps`` tangent-plus-Newton steps of length h.

    Asserts at each step that there is exactly one nontrivial flex direction and
    that the projection reached every rod length to ``rtol`` (relative).
    """
    lengths = rod_lengths(p, rods)
    path, previous = [p.copy()], None
    for _ in range(steps):
        flexes, _ = nontrivial_flexes(path[-1], rods)
        assert flexes.shape[1] == 1, f"expected one flex direction, found {flexes.shape[1]}"
        v = flexes[:, 0]
        if previous is not None and v @ previous < 0:
            v = -v
        keep = rank(rigidity_matrix(path[-1], rods))  # on the solution set, not off it
        q, ok = project(path[-1] + h * v.reshape(p.shape), rods, lengths, keep=keep)
        assert ok, "Newton projection back onto the rod lengths failed"
        assert np.max(np.abs(rod_lengths(q, rods) - lengths) / lengths) <= rtol
        path.append(q)
        previous = v
    return path


def aligned_displacement(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """|q_i - (R p_i + t)| per joint after the best rigid motion (rotations only, Kabsch)."""
    pc, qc = p - p.mean(axis=0), q - q.mean(axis=0)
    u, _, vt = np.linalg.svd(pc.T @ qc)
    d = np.sign(np.linalg.det(u @ vt))
    rot = u @ np.diag([1.0, 1.0, d]) @ vt
    return np.linalg.norm(pc @ rot - qc, axis=1)
