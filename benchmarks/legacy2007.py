"""The 2007 program's motion step, re-implemented from its description (for benchmarks only).

Harold Cooper's "Mechanical Linkages in Python" (2007) moved a linkage like this,
every frame:

1. build the rigidity matrix ``R`` (dense): a rod ``(i, j)`` gives the row
   ``2 (p_i - p_j)`` in ``i``'s columns and ``2 (p_j - p_i)`` in ``j``'s; a pinned
   vertex two unit rows; a fixed angle ``(i, j, k)`` the gradient of the dot
   product ``a . b`` with ``a = p_j - p_i``, ``b = p_k - p_i`` (``b`` in ``j``'s
   columns, ``a`` in ``k``'s, ``-(a + b)`` in ``i``'s);
2. a dense SVD ``R = U S V^T``; the rows of ``V^T`` whose singular value is
   (numerically) zero span the infinitesimal motions;
3. project the desired motion (the attracted vertex toward its target) onto
   that null space;
4. an Euler step along the projection: ``step_size`` times it, clamped so
   that no vertex moves more than ``max_step``.

There is no projection back onto the constraints, so rod lengths drift (by
1.6 % in 5000 steps in the original), and the SVD costs ``O(n^3)``. This module
is not part of the package: it exists to measure against.
"""

from __future__ import annotations

import numpy as np

from linkage_widget import Linkage

#: Singular values at most this times the largest count as zero (as the rigidity analysis).
RANK_RTOL = 1e-7


def rigidity_matrix_2007(
    p: np.ndarray, rods: np.ndarray, angles: np.ndarray, pinned: np.ndarray
) -> np.ndarray:
    """The dense 2007 rigidity matrix at positions ``p`` (shape ``(n, 2)``)."""
    n = len(p)
    m, k, q = len(rods), len(angles), len(pinned)
    mat = np.zeros((m + k + 2 * q, 2 * n))
    d = 2.0 * (p[rods[:, 0]] - p[rods[:, 1]])
    r = np.arange(m)
    for c in (0, 1):
        mat[r, 2 * rods[:, 0] + c] = d[:, c]
        mat[r, 2 * rods[:, 1] + c] = -d[:, c]
    a = p[angles[:, 1]] - p[angles[:, 0]]
    b = p[angles[:, 2]] - p[angles[:, 0]]
    r = m + np.arange(k)
    for c in (0, 1):
        mat[r, 2 * angles[:, 1] + c] += b[:, c]
        mat[r, 2 * angles[:, 2] + c] += a[:, c]
        mat[r, 2 * angles[:, 0] + c] -= a[:, c] + b[:, c]
    r = m + k + 2 * np.arange(q)
    mat[r, 2 * pinned] = 1.0
    mat[r + 1, 2 * pinned + 1] = 1.0
    return mat


class Legacy2007:
    """The 2007 step: dense SVD null space, projected pull, clamped Euler step."""

    def __init__(self, linkage: Linkage, step_size: float = 1.0, max_step: float = 1.0) -> None:
        self.p = np.array(linkage.vertices, dtype=np.float64)
        self.rods = np.asarray(linkage.rods, dtype=np.int64).reshape(-1, 2)
        self.angles = np.asarray(linkage.angles, dtype=np.int64).reshape(-1, 3)
        self.pinned = np.asarray(linkage.pinned, dtype=np.int64)
        self.step_size, self.max_step = step_size, max_step
        self.target: tuple[int, np.ndarray] | None = None

    def attract(self, vertex: int, target) -> None:
        self.target = (int(vertex), np.asarray(target, dtype=np.float64))

    def step(self) -> None:
        if self.target is None:
            return
        s, t = self.target
        mat = rigidity_matrix_2007(self.p, self.rods, self.angles, self.pinned)
        _, sv, vt = np.linalg.svd(mat)  # full V: the null space needs all of it
        rank = int(np.sum(sv > RANK_RTOL * sv[0])) if sv.size else 0
        null = vt[rank:]
        desired = np.zeros(2 * len(self.p))
        desired[2 * s : 2 * s + 2] = t - self.p[s]
        motion = (null.T @ (null @ desired)).reshape(-1, 2) * self.step_size
        biggest = float(np.max(np.hypot(motion[:, 0], motion[:, 1]))) if motion.size else 0.0
        if biggest > self.max_step:
            motion *= self.max_step / biggest
        self.p = self.p + motion
