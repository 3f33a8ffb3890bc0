r"""Follow-up counts of a drag: Sylvester's inertia with a fill-reducing ordering kept.

Between two placements of one linkage the rigidity matrix keeps its sparsity
pattern, so :math:`M = A^TA` (or :math:`AA^T`) does too. The first count orders
the structural pattern of :math:`M` once (SuperLU's minimum degree, symmetric
mode: the same ordering on rows and columns); every count permutes
:math:`M - \theta I` symmetrically with that ordering and factors it in the
natural order without pivoting off the diagonal, so that only the numbers are
factored again. The count is the number of negative pivots (Sylvester's law of inertia:
:math:`P(M - \theta I)P^T = LDL^T` has as many negative entries in :math:`D` as
:math:`M` has eigenvalues below :math:`\theta`, i.e. singular values of
:math:`A` below :math:`\sqrt\theta`), as in
:mod:`linkage_widget.rigidity.sparse_rank`, whose full report (with the Lanczos check
and the gap) makes the reference placement; this is only the count.

A factorisation that pivots off the diagonal or meets an exact zero pivot
gives no inertia: :meth:`OrderedInertia.count` then returns ``None`` and the
caller makes a full report.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

__all__ = ["OrderedInertia"]


class OrderedInertia:
    """Inertia counts on one side of ``A`` with the ordering of the first count.

    Parameters
    ----------
    stress_side : bool
        Count on :math:`AA^T` (``c x c``: its kernel is the self-stresses) when true,
        else on :math:`A^TA` (``2n x 2n``: the motions).

    Examples
    --------
    >>> a = sp.csr_array(np.array([[1.0, 0.0, 0.0], [0.0, 2.0, 0.0]]))
    >>> OrderedInertia(stress_side=False).count(a, 1e-7 * 2.0)   # one zero column
    1
    """

    def __init__(self, stress_side: bool) -> None:
        self.stress_side = stress_side
        self.order: np.ndarray | None = None  # symmetric permutation, from the first count

    def count(self, a: sp.csr_array, tau: float) -> int | None:
        r"""Singular values of ``a`` (c, N) at most ``tau`` on this side; ``None``: no inertia."""
        if self.order is None:
            self.order = self._ordering(a, tau)
            if self.order is None:
                return None
        m = ((a @ a.T) if self.stress_side else (a.T @ a)).tocoo()
        try:
            lu = _splu(self._permuted_shift(m, tau**2), "NATURAL")
        except RuntimeError:  # an exactly singular pivot: no inertia from this factor
            return None
        if lu is None:
            return None
        return int(np.count_nonzero(lu.U.diagonal() < 0))

    def _permuted_shift(self, m: sp.coo_array, theta: float) -> sp.csc_array:
        r"""CSC of :math:`P(M - \theta I)P^T` in the kept order, straight from ``m``'s entries.

        The same matrix as subtracting a sparse identity and indexing ``[o][:, o]``
        (each diagonal entry :math:`m_{ii} - \theta`, summed in that order), at a third
        of the cost: one conversion instead of three new matrices.
        """
        n = m.shape[0]
        assert self.order is not None
        rank = np.empty(n, dtype=np.int64)
        rank[self.order] = np.arange(n)
        diag = np.arange(n)
        rows = rank[np.concatenate([m.row, diag])]
        cols = rank[np.concatenate([m.col, diag])]
        data = np.concatenate([m.data, np.full(n, -theta)])
        return sp.csc_array((data, (rows, cols)), shape=(n, n))

    def _ordering(self, a: sp.csr_array, tau: float) -> np.ndarray | None:
        """Minimum-degree order of the *structural* pattern of ``M`` (every stored entry).

        Computed on :math:`|A|^T|A|` with unit entries: a rod parallel to an axis has a
        zero entry at one placement and not at the next, and an order computed on the
        numerical pattern of an aligned grid fills several times more once it moves.
        """
        ones = sp.csr_array((np.ones(a.nnz), a.indices, a.indptr), shape=a.shape)
        m = (ones @ ones.T) if self.stress_side else (ones.T @ ones)
        shifted = (m + sp.identity(m.shape[0], format="csr")).tocsc()  # positive: no zero pivot
        try:
            lu = _splu(shifted, "MMD_AT_PLUS_A")
        except RuntimeError:
            return None
        # A Pc = A[:, argsort(perm_c)]: keep that order for rows and columns.
        return None if lu is None else np.argsort(lu.perm_c)


def _splu(m: sp.csc_array, ordering: str) -> Any:
    """SuperLU in symmetric mode; ``None`` when it pivoted off the diagonal."""
    lu = spla.splu(m, permc_spec=ordering, diag_pivot_thresh=0.0, options={"SymmetricMode": True})
    return lu if np.array_equal(lu.perm_r, lu.perm_c) else None
