r"""Rank, degrees of freedom and self-stresses of the sparse rigidity matrix, without a dense SVD.

:func:`sparse_rank_report` counts what :func:`linkage_widget.rigidity.analyze`
counts — the numerical rank of the scaled rigidity matrix :math:`A` (``c`` rows,
:math:`N = 2n` columns), ``dof = N - rank`` and ``self_stresses = c - rank`` —
with the same rule (a singular value is zero when it is at most
:math:`\tau = \text{rtol}\cdot\sigma_{\max}`), in time and memory that grow
nearly linearly with the linkage, and computes bases of the flexes and stresses
lazily, only as far as they are asked for.

Method
------
1. **Which side.** The smaller of :math:`M = AA^T` (``c x c``, kernel = the
   self-stresses) and :math:`M = A^TA` (``N x N``, kernel = the motions) has the
   smaller kernel (``c - rank`` against ``N - rank``), so the count is made there.
2. **Count: Sylvester's inertia.** The number of eigenvalues of :math:`M` below
   :math:`\tau^2` — the number of singular values of :math:`A` at most
   :math:`\tau` on that side — is the number of negative pivots of
   :math:`M - \tau^2 I = L D L^T` (Sylvester). SciPy has no sparse :math:`LDL^T`,
   but SuperLU in *symmetric mode* (a symmetric ordering, ``diag_pivot_thresh=0``)
   computes :math:`P(M - \tau^2 I)P^T = LU` with :math:`U = DL^T`: the signs of
   ``diag(U)`` are the inertia (checked: row and column permutations equal).
   No pivoting is safe for a tiny shift of a positive semi-definite matrix: a
   small pivot divides round-off :math:`\varepsilon\|M\|` by :math:`\tau^2 =
   10^{-14}\|M\|`, a growth of about :math:`10^{-2}`. Below ``rtol = 1e-7`` the
   squared matrix is round-off, so the inertia counts at ``max(rtol, 1e-7)``
   (:data:`INERTIA_RTOL`) and the Ritz values of step 3 resolve below.
3. **Check and gap: shift-invert Lanczos plus Ritz values on A.** The same
   factor is the shift-invert operator of ARPACK (``eigsh``), which returns the
   ``count + 6`` eigenvectors of :math:`M` nearest :math:`\tau^2`. Their Ritz
   values on :math:`A` itself (the singular values of the thin product
   :math:`AV`), *not* on :math:`M`, resolve singular values down to round-off,
   where :math:`M` only resolves :math:`\sqrt{\varepsilon}\,\sigma_{\max}
   \approx 10^{-8}\sigma_{\max}`. They must give the same count; they also give
   the singular values on both sides of the threshold (``sigma_below``,
   ``sigma_above``, ``gap``), and when one lies within a factor
   :data:`MARGIN_MIN` of it the report says ``"near-singular, undecided"``.
   Beyond :data:`MAX_PAIRS` the count is the inertia's alone, with a second
   inertia at :math:`(3\tau)^2` for the gap above.
4. **Bases.** Kernel vectors from Lanczos on a normal matrix are accurate only to
   :math:`\varepsilon\sigma_{\max}^2/\sigma_{\text{gap}}^2` (``5e-5`` on the
   locked Penrose file, whose smallest genuine singular value is ``1.5e-6``).
   Each vector is therefore projected onto the kernel once more with the
   regularised *augmented* system
   :math:`\begin{pmatrix} I & A^T \\ A & -\delta I\end{pmatrix}`, whose LU
   (partial pivoting) is backward stable on :math:`A` itself, not on
   :math:`A^TA`; with :math:`\delta = \sigma_{\text{below}}\sigma_{\text{above}}`
   the projection damps the non-kernel part by the gap. The flexes (the
   motions' side when the count was made on the stresses' side) are computed
   only when asked, and only the first ``n_flexes``.

Tolerance
---------
``rtol`` (default :data:`~linkage_widget.rigidity.RANK_RTOL` = 1e-7) keeps the dense
rule: the Penrose "t" files (coordinates rounded to six decimals) flex with a singular
value near 1e-9; the locked variant's smallest genuine one is 1.5e-6.
``rtol="auto"`` (:func:`scale_aware_rtol`) is the larger of the round-off floor
:math:`10\max(c, N)\,\varepsilon` and, for decimals rounded at a quantum :math:`q`
finer than :data:`~.tolerances.EXACT_QUANTUM` of the shortest rod (computed data, ``%.6f``),
:math:`10\,(q/2)/(\ell_{\min}\sigma_{\max})`. Integers and few decimals are exact
data: a Laman framework at integer coordinates with smallest singular value 1.2e-8
is then infinitesimally rigid, as PyRigi's exact rank says (1e-7 calls it flexible).

Measurements (``benchmarks/bench_analysis.py``: CPU ms, one BLAS thread, best of 3,
one process; "2007": a dense SVD of the 2007 matrix; "dense": ``analyze``'s dense path;
counts agree with it wherever it ran; analyze itself: docs/benchmarks.md):

==================  ======  ========  ========  ======  =======
case                joints  2007 SVD  dense     counts  + bases
==================  ======  ========  ========  ======  =======
penrose3t              211        35        44     7.7     17
penrose4t              571       511       707     8.3     36
ladder                2000    25 369    23 210     8.0     32
ladder               20000         -         -      73    561
grid 22 x 22           484       251       311     5.6     28
grid 141 x 141       19881         -         -     114  4 887
==================  ======  ========  ========  ======  =======

("+ bases": with the first 50 kernel vectors and stresses; grids: every 7th square
braced. At rtol 1e-7 the ladders' bending modes come within a factor 3 of the threshold
from 10 000 joints: "near-singular, undecided"; "auto" decides them.)

SuiteSparseQR was measured and not taken: ``pyspqr`` factors penrose4t in 2.1 ms, but
SPQR's rank (Heath's heuristic) is 1142, and ``|R_ii| > 1e-7 max |R_ii|`` gives 1139
where the SVD says 1138: the rounded flex (1.8e-9) does not show on R's diagonal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla
from threadpoolctl import ThreadpoolController

from ..constraints import ConstraintSet, as_points
from ..model import Linkage
from .rank_scale import scale_aware_rtol, sigma_max_estimate
from .sparse_bases import Bases, projection_plan
from .tolerances import (
    INERTIA_RTOL,
    LANCZOS_TOL,
    MARGIN_MIN,
    RANK_RTOL,
    RETRY_SHIFT,
)

__all__ = [
    "SparseRankReport",
    "counted_report",
    "scale_aware_rtol",
    "sigma_max_estimate",
    "sparse_rank_report",
]

#: Eigenpairs computed beyond the count, to see the singular values above the threshold.
EXTRA_PAIRS = 6
#: Most eigenpairs asked of Lanczos; above, the count is the inertia's alone.
MAX_PAIRS = 64
#: Largest smaller side of A for which a failed inertia falls back to a dense SVD.
DENSE_FALLBACK_MAX = 3000
#: Below this many rows of M, a dense eigensolver of M is cheaper than ARPACK.
SMALL_SIDE = 64

STATUSES = ("decided", "near-singular, undecided")


_CONTROLLER: list[ThreadpoolController] = []


def _one_blas_thread() -> Any:
    """Context manager limiting BLAS to one thread (the controller is built once: ~8 ms)."""
    if not _CONTROLLER:
        _CONTROLLER.append(ThreadpoolController())
    return _CONTROLLER[0].limit(limits=1, user_api="blas")


class _NotDiagonal(RuntimeError):
    """SuperLU left the diagonal: its pivots are no inertia."""


@dataclass(frozen=True, eq=False)
class SparseRankReport:
    r"""Result of :func:`sparse_rank_report`. Counts are plain ``int``.

    Attributes
    ----------
    n_vertices, n_constraints : int
    rank, dof, self_stresses : int
        Numerical rank of :math:`A`, :math:`N - \text{rank}` and
        :math:`c - \text{rank}` at the tolerance ``tolerance``.
    tolerance : float
        The relative tolerance used (``rtol``, or the scale-aware one).
    sigma_max : float
        :math:`\sigma_{\max}(A)` (power iteration, relative accuracy ~1e-4).
    sigma_below, sigma_above : float or None
        Relative singular values nearest the threshold, at or below it and above
        it (``None``: none seen on that side).
    gap : float
        ``sigma_above / sigma_below`` (``inf`` when either is missing).
    status : str
        ``"decided"`` or ``"near-singular, undecided"`` (a singular value lies
        within :data:`MARGIN_MIN` of the threshold).
    method : str
        How the counts were obtained, with any fallback.
    """

    n_vertices: int
    n_constraints: int
    rank: int
    dof: int
    self_stresses: int
    tolerance: float
    sigma_max: float
    sigma_below: float | None
    sigma_above: float | None
    gap: float
    status: str
    method: str
    _lazy: Bases = field(repr=False)

    @property
    def decided(self) -> bool:
        """Whether the rank is decided (no singular value near the threshold)."""
        return self.status == STATUSES[0]

    def kernel(self, k: int | None = None) -> np.ndarray:
        r"""Orthonormal vectors of :math:`\ker A`, shape (N, k'): the first ``k`` of them.

        ``k`` defaults to the report's ``n_flexes``; ``k' = min(k, dof)``, so
        ``kernel(report.dof)`` is a basis of the whole kernel.
        """
        k = min(self._lazy.n_flexes if k is None else int(k), self.dof)
        with _one_blas_thread():
            return self._lazy.kernel(k)

    def flexes(self, k: int | None = None) -> np.ndarray:
        """Internal flexes: the first ``k`` kernel vectors orthogonal to trivial motions, (N, d)."""
        return self._lazy.flexes(self.kernel(k))

    def stresses(self, k: int | None = None) -> np.ndarray:
        r"""Orthonormal self-stresses, vectors of :math:`\ker A^T`, shape (k', c): the first ``k``.

        ``k`` defaults to ``n_flexes``; ``stresses(report.self_stresses)`` is a basis.
        Coefficients of the scaled rows, as ``RigidityReport.stresses``.
        """
        k = min(self._lazy.n_flexes if k is None else int(k), self.self_stresses)
        with _one_blas_thread():
            return self._lazy.stresses(k)

    def excited_motion(self, velocity: Any) -> np.ndarray:
        r"""The part of ``velocity`` (N,) or (n, 2) in :math:`\ker A`: what a drag excites.

        :math:`KK^Tv` when the kernel basis :math:`K` has at most ``n_flexes`` vectors;
        else the augmented-system filter (no basis; relative error ~ ``passes / gap``).
        """
        v = np.asarray(velocity, dtype=float)
        if self.dof <= self._lazy.n_flexes:
            k = self.kernel(self.dof)
            return (k @ (k.T @ v.reshape(-1))).reshape(v.shape)
        with _one_blas_thread():
            out = self._lazy.project(v.reshape(-1, 1), onto_motions=True, orthonormal=False)
        return out.reshape(v.shape)


def _inertia(m: sp.csc_array, theta: float) -> tuple[int, Any]:
    """Negative eigenvalues of ``m - theta I`` (symmetric) and the SuperLU factor."""
    shifted = (m - theta * sp.identity(m.shape[0], format="csc")).tocsc()
    lu = spla.splu(
        shifted,
        permc_spec="MMD_AT_PLUS_A",
        diag_pivot_thresh=0.0,
        options={"SymmetricMode": True},
    )
    if not np.array_equal(lu.perm_r, lu.perm_c):
        raise _NotDiagonal("SuperLU pivoted off the diagonal")
    return int(np.count_nonzero(lu.U.diagonal() < 0)), lu


def _nearest_pairs(m: sp.csc_array, lu: Any, theta: float, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The ``k`` eigenpairs of symmetric ``m`` nearest ``theta`` (ascending), via ``lu``."""
    size = m.shape[0]
    if size <= SMALL_SIDE or k >= size - 1:
        w, v = np.linalg.eigh(m.toarray())
        order = np.argsort(np.abs(w - theta))[:k]
        order = order[np.argsort(w[order])]
        return w[order], v[:, order]
    op = spla.LinearOperator((size, size), matvec=lu.solve, dtype=float)
    v0 = np.random.default_rng(1).standard_normal(size)
    w, v = spla.eigsh(m, k=k, sigma=theta, OPinv=op, which="LM", v0=v0, tol=LANCZOS_TOL)
    order = np.argsort(w)
    return w[order], v[:, order]


def _ritz(a: sp.csr_array, stress_side: bool, vecs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Singular values of ``A V`` (or ``A^T W``), ascending, and the vectors rotated to them."""
    if vecs.shape[1] == 0:
        return np.zeros(0), vecs
    q, _ = np.linalg.qr(vecs)
    prod = (a.T @ q) if stress_side else (a @ q)
    _, s, vt = np.linalg.svd(prod, full_matrices=False)
    return s[::-1], q @ vt[::-1].T


@dataclass
class _Counted:
    """The count on one side, its Ritz values (relative) and vectors."""

    count: int
    ritz: np.ndarray
    vectors: np.ndarray | None
    method: str
    #: Set when no Ritz values were computed and a second inertia saw values near tau.
    undecided: bool = False


def _count_side(a: sp.csr_array, stress_side: bool, smax: float, rtol: float) -> _Counted:
    """Count singular values at most ``rtol * smax`` on the chosen side.

    The inertia counts those at most ``probe = max(rtol, INERTIA_RTOL)`` (below that the
    squared matrix is round-off); Ritz values on ``A`` of that many Lanczos vectors
    check that count and resolve the ones at most ``rtol``.
    """
    m = ((a @ a.T) if stress_side else (a.T @ a)).tocsc()
    probe = max(rtol, INERTIA_RTOL)
    theta = (probe * smax) ** 2
    count, lu = _inertia(m, theta)
    method = "sparse: SuperLU inertia of " + ("AA^T" if stress_side else "A^TA")
    if count + EXTRA_PAIRS > MAX_PAIRS:
        note = f" ({count} > {MAX_PAIRS - EXTRA_PAIRS}: no Ritz values)"
        return _inertia_only(m, theta, count, method + note, resolved=probe == rtol)
    size = m.shape[0]
    k = min(count + EXTRA_PAIRS, size)
    try:
        while True:
            _, vecs = _nearest_pairs(m, lu, theta, k)
            ritz, vecs = _ritz(a, stress_side, vecs)
            seen = int(np.count_nonzero(ritz <= probe * smax))
            if seen >= count or k >= min(size, 2 * MAX_PAIRS):
                break
            k = min(2 * k, size)
    except spla.ArpackNoConvergence:
        note = " (Lanczos did not converge)"
        return _inertia_only(m, theta, count, method + note, resolved=probe == rtol)
    method += f" - ({probe:.0e} sigma_max)^2 I, Lanczos + Ritz values on A"
    if seen != count:
        # The squared matrix misjudges only singular values within round-off of the probe.
        method += f" (inertia {count}, Ritz values {seen}: Ritz values kept)"
    found = int(np.count_nonzero(ritz <= rtol * smax))
    return _Counted(found, ritz / smax, vecs, method, undecided=seen != count)


def _inertia_only(
    m: sp.csc_array, theta: float, count: int, method: str, resolved: bool
) -> _Counted:
    r"""The inertia's count alone, and a second inertia just above tau to see the gap there.

    Reliable from above only: the squared round-off is far below :math:`(3\tau)^2`;
    undecided too when the tolerance is below what the inertia resolves.
    """
    upper, _ = _inertia(m, theta * MARGIN_MIN**2)
    undecided = upper != count or not resolved
    return _Counted(count, np.zeros(0), None, method + ", inertia only", undecided=undecided)


def _count_or_none(a: sp.csr_array, stress_side: bool, smax: float, tol: float) -> _Counted | None:
    """:func:`_count_side`, retried with the threshold moved by 1e-6 if SuperLU fails."""
    for factor in (1.0, 1.0 + RETRY_SHIFT):
        try:
            return _count_side(a, stress_side, smax * factor, tol)
        except (_NotDiagonal, RuntimeError):
            # RuntimeError: an exactly zero pivot, tau^2 hit an eigenvalue of M to the bit.
            continue
    return None


def _empty_report(linkage: Linkage, cs: ConstraintSet, tol: float) -> SparseRankReport:
    """No rows or no columns: everything is kernel."""
    c, cols = cs.shape
    bases = Bases(linkage, sp.csr_array(cs.shape), True, np.eye(c))
    bases.kernel_cache = np.eye(cols)
    bases.refined = {"kernel", "stress"}
    return SparseRankReport(
        linkage.n_vertices, c, 0, cols, c, tol, 0.0, None, None, np.inf, STATUSES[0], "empty", bases
    )


def sparse_rank_report(
    linkage: Linkage,
    *,
    rtol: float | str = RANK_RTOL,
    n_flexes: int = 50,
    positions: Any = None,
) -> SparseRankReport:
    """Rank, DOF and self-stress count of ``linkage``'s rigidity matrix, from sparse factors.

    Parameters
    ----------
    linkage : Linkage
    rtol : float or "auto", keyword-only
        Relative rank tolerance (default the dense path's
        :data:`~linkage_widget.rigidity.RANK_RTOL`); ``"auto"``:
        :func:`scale_aware_rtol`.
    n_flexes : int, keyword-only
        How many kernel vectors :meth:`SparseRankReport.kernel` computes by default.
    positions : array_like, shape (n, dim), optional
        Placement to analyse (default the linkage's own).

    Returns
    -------
    SparseRankReport

    Examples
    --------
    >>> square = Linkage([[0, 0], [1, 0], [1, 1], [0, 1]],
    ...                  rods=[(0, 1), (1, 2), (2, 3), (3, 0)])
    >>> r = sparse_rank_report(square)
    >>> r.rank, r.dof, r.self_stresses, r.status
    (4, 4, 0, 'decided')
    """
    # One BLAS thread: the dense work here is thin (N x k), and threads collapse when the
    # cores are shared (see second_order.spectrum).
    with _one_blas_thread():
        return _report(linkage, rtol, n_flexes, positions)


def _report(linkage: Linkage, rtol: float | str, n_flexes: int, positions: Any) -> SparseRankReport:
    """The body of :func:`sparse_rank_report`."""
    cs = ConstraintSet.from_linkage(linkage)
    p = as_points(linkage.vertices if positions is None else positions, linkage.dim)
    a = cs.jacobian(p).tocsr()
    smax = sigma_max_estimate(a) if min(a.shape) else 0.0
    if rtol == "auto":
        tol = scale_aware_rtol(linkage, smax, constraints=cs)
    else:
        tol = float(rtol)
    if not tol > 0:
        raise ValueError(f"rtol must be positive or 'auto', got {rtol!r}")
    return _counted(linkage, cs, a, smax, tol, n_flexes)


def counted_report(
    linkage: Linkage, cs: ConstraintSet, a: sp.csr_array, smax: float, tol: float, n_flexes: int
) -> SparseRankReport:
    r"""The counts of the rigidity matrix ``a`` (c, N) of ``cs``, given its ``smax`` and ``tol``.

    :func:`sparse_rank_report` once the matrix, :math:`\sigma_{\max}` and the tolerance
    are known (:func:`~linkage_widget.rigidity.analyze` has them: not built twice).
    """
    with _one_blas_thread():
        return _counted(linkage, cs, a, smax, tol, n_flexes)


def _counted(
    linkage: Linkage, cs: ConstraintSet, a: sp.csr_array, smax: float, tol: float, n_flexes: int
) -> SparseRankReport:
    """The body of :func:`counted_report`."""
    c, cols = a.shape
    if smax == 0.0:
        return _empty_report(linkage, cs, tol)
    stress_side = c <= cols
    counted = _count_or_none(a, stress_side, smax, tol)
    if counted is None:
        if min(c, cols) > DENSE_FALLBACK_MAX:
            raise RuntimeError(
                f"sparse rank: SuperLU gave no inertia for this {c} x {cols} rigidity matrix, "
                "which is too large for the dense fallback"
            )
        return _dense_fallback(linkage, a, tol, smax)
    rank = (c if stress_side else cols) - counted.count
    below, above = _around(counted, tol)
    gap = above / below if below and above else np.inf
    margin = min(above / tol if above else np.inf, tol / below if below else np.inf)
    status = STATUSES[0] if margin >= MARGIN_MIN and not counted.undecided else STATUSES[1]
    vecs = None if counted.vectors is None else counted.vectors[:, : counted.count]
    bases = Bases(linkage, a, stress_side, vecs)
    delta, bases.passes = projection_plan(below, above, tol)
    bases.n_flexes, bases.delta = n_flexes, delta * smax**2
    return SparseRankReport(
        linkage.n_vertices, c, rank, cols - rank, c - rank, tol, smax,
        below, above, float(gap), status, counted.method, bases,
    )  # fmt: skip


def _around(counted: _Counted, tol: float) -> tuple[float | None, float | None]:
    """Relative singular values nearest the threshold on each side (``None``: none seen)."""
    r = counted.ritz
    low, high = r[r <= tol], r[r > tol]
    below = float(low.max()) if low.size and low.max() > 0 else None
    return below, (float(high.min()) if high.size else None)


def _dense_fallback(linkage: Linkage, a: sp.csr_array, tol: float, smax: float) -> SparseRankReport:
    """Dense SVD when the sparse inertia is not available (said in ``method``)."""
    u, s, vt = np.linalg.svd(a.toarray(), full_matrices=True)
    c, cols = a.shape
    rank = int(np.count_nonzero(s > tol * s[0]))
    rel = s / s[0]
    below = float(rel[rank]) if rank < len(rel) else None
    above = float(rel[rank - 1]) if rank else None
    bases = Bases(linkage, a, True, u[:, rank:])
    bases.kernel_cache = vt[rank:].T
    bases.refined = {"kernel", "stress"}  # the SVD's bases need no projection
    gap = above / below if below and above else np.inf
    return SparseRankReport(
        linkage.n_vertices, c, rank, cols - rank, c - rank, tol, smax, below, above,
        float(gap), STATUSES[0], "dense-svd (fallback: SuperLU left the diagonal)", bases,
    )  # fmt: skip
