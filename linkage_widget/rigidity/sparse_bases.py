r"""Lazily computed bases of the motions and self-stresses for :mod:`.sparse_rank`.

The kernel projection works on the rigidity matrix :math:`A` itself, never on
:math:`A^TA`: with :math:`B = A` (motions) or :math:`A^T` (self-stresses), the
regularised augmented system

.. math:: \begin{pmatrix} I & B^T \\ B & -\delta I\end{pmatrix}
          \begin{pmatrix} r \\ y\end{pmatrix} = \begin{pmatrix} v \\ 0\end{pmatrix}
          \quad\Longrightarrow\quad r = (I + B^TB/\delta)^{-1} v

multiplies each singular direction of :math:`v` by :math:`\delta/(\delta + \sigma^2)`:
about 1 on the kernel, tiny above the rank threshold. Its sparse LU (partial
pivoting) is backward stable on :math:`A`, so the bases reach the accuracy of a
dense SVD (principal angles ~1e-14 on the Penrose files) where Lanczos vectors of
:math:`A^TA` reach only :math:`\varepsilon\sigma_{\max}^2/\sigma_{\text{gap}}^2`.
A basis of the side not counted is drawn as random vectors projected onto the
kernel (a randomised range finder), so only the vectors asked for are computed.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from ..model import Linkage
from .rigid_motions import linkage_trivial_motions
from .tolerances import DELTA_FLOOR, ORTHONORMAL_CUT, PROJECTION_RESIDUAL

__all__ = ["Bases", "projection_plan"]

#: Most solves per kernel projection.
MAX_PASSES = 12
#: Extra random vectors when a basis is drawn by projection (randomised range finder).
OVERSAMPLE = 5


def projection_plan(below: float | None, above: float | None, tol: float) -> tuple[float, int]:
    r"""Regularisation :math:`\delta/\sigma_{\max}^2` of the kernel projection and its passes.

    One pass multiplies a singular direction by :math:`\delta/(\delta + \sigma^2)`:
    about 1 below the threshold, at most :math:`\rho = \delta/(\delta +
    \sigma_{\text{above}}^2)` above it. :math:`\delta` is the geometric mean of the gap,
    but at least :data:`DELTA_FLOOR` (else the augmented matrix's Schur complement
    :math:`-\delta I - AA^T` is exactly singular in floating point along the other
    kernel); the passes bring :math:`\rho^{\text{passes}}` below :data:`PROJECTION_RESIDUAL`.
    """
    lo = below if below else 1e-3 * tol
    hi = above if above else 1e3 * tol
    delta = max(lo * hi, DELTA_FLOOR)
    rho = delta / (delta + hi * hi)
    passes = int(
        np.clip(np.ceil(np.log(PROJECTION_RESIDUAL) / np.log(min(rho, 0.5))), 2, MAX_PASSES)
    )
    return delta, passes


class Bases:
    """Lazily computed, cached bases of the motions and the self-stresses."""

    def __init__(self, linkage: Linkage, a: sp.csr_array, stress_side: bool, vecs: Any) -> None:
        self.linkage, self.a, self.stress_side = linkage, a, stress_side
        self.side_vectors = vecs
        self.kernel_cache: np.ndarray | None = None if stress_side else vecs
        self.stress_cache: np.ndarray | None = vecs if stress_side else None
        self.n_flexes, self.delta, self.passes = 50, 0.0, 2
        self.refined: set[str] = set()
        self._lu: dict[bool, Any] = {}

    def project(self, vecs: np.ndarray, onto_motions: bool, orthonormal: bool = True) -> np.ndarray:
        r"""Project columns onto :math:`\ker A` (or :math:`\ker A^T`) with the augmented system.

        With :math:`B = A` (motions) or :math:`A^T` (stresses), solving
        :math:`\begin{pmatrix} I & B^T \\ B & -\delta I\end{pmatrix}
        \begin{pmatrix} r \\ y\end{pmatrix} = \begin{pmatrix} v \\ 0\end{pmatrix}`
        gives :math:`r = (I + B^TB/\delta)^{-1} v`; ``passes`` times.
        """
        if vecs.shape[1] == 0:
            return vecs
        lu = self._augmented_lu(onto_motions)
        cols = vecs.shape[0]
        rhs = np.vstack([vecs, np.zeros((lu.shape[0] - cols, vecs.shape[1]))])
        for _ in range(self.passes):
            rhs[:cols] = lu.solve(rhs)[:cols]
        return np.linalg.qr(rhs[:cols])[0] if orthonormal else rhs[:cols]

    def _augmented_lu(self, onto_motions: bool) -> Any:
        """SuperLU of the augmented matrix of :meth:`_project`, built once per side."""
        if onto_motions in self._lu:
            return self._lu[onto_motions]
        b = self.a if onto_motions else self.a.T
        rows, cols = b.shape
        delta = max(self.delta, DELTA_FLOOR)  # rows are dimensionless: sigma_max is O(1)
        for _ in range(4):
            aug = sp.block_array(
                [[sp.identity(cols), b.T], [b, -delta * sp.identity(rows)]], format="csc"
            )
            try:
                self._lu[onto_motions] = spla.splu(aug)
                return self._lu[onto_motions]
            except RuntimeError:  # exactly singular in floating point: regularise more
                delta *= 100.0
        raise RuntimeError(f"the augmented system stays singular up to delta = {delta:.3g}")

    def kernel(self, k: int) -> np.ndarray:
        """First ``k`` kernel vectors (all of them when ``k`` is the DOF)."""
        if self.kernel_cache is None or self.kernel_cache.shape[1] < k:
            self.kernel_cache = self._other_side(k, onto_motions=True)
        elif "kernel" not in self.refined:
            self.kernel_cache = self.project(self.kernel_cache, onto_motions=True)
        self.refined.add("kernel")
        return self.kernel_cache[:, :k]

    def stresses(self, s: int) -> np.ndarray:
        """The first ``s`` self-stresses, rows."""
        if self.stress_cache is None or self.stress_cache.shape[1] < s:
            self.stress_cache = self._other_side(s, onto_motions=False)
        elif "stress" not in self.refined:
            self.stress_cache = self.project(self.stress_cache, onto_motions=False)
        self.refined.add("stress")
        return self.stress_cache[:, :s].T

    def _other_side(self, k: int, onto_motions: bool) -> np.ndarray:
        """``k`` kernel vectors: random vectors projected onto the kernel, then their range."""
        dim = self.a.shape[1] if onto_motions else self.a.shape[0]
        if k == 0:
            return np.zeros((dim, 0))
        z = np.random.default_rng(2).standard_normal((dim, min(k + OVERSAMPLE, dim)))
        z = self.project(z, onto_motions, orthonormal=False)
        u, _, _ = np.linalg.svd(z, full_matrices=False)
        self.refined.add("kernel" if onto_motions else "stress")
        return self.project(u[:, :k], onto_motions)

    def flexes(self, kernel: np.ndarray) -> np.ndarray:
        """The part of ``kernel`` orthogonal to the trivial motions, orthonormal."""
        if kernel.shape[1] == 0:
            return kernel
        triv = linkage_trivial_motions(self.linkage)
        rest = kernel - triv @ (triv.T @ kernel)
        u, s, _ = np.linalg.svd(rest, full_matrices=False)
        return u[:, s > ORTHONORMAL_CUT]
