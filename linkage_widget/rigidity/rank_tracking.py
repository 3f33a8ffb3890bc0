r"""Rank tracking along a moving placement: when a count may be reused, and a cheap recount.

The maths of the live analysis of a drag (the policy — which frame analyses, the frame
budget, the readout — is :mod:`linkage_widget.session.live`'s). A :class:`RankReference`
is a placement :math:`p_0` counted by the full sparse report
(:func:`~linkage_widget.rigidity.sparse_rank.sparse_rank_report`); at a later placement
:math:`p` its counts stand without any factorisation when two facts prove they cannot
have changed:

1. The rank cannot rise: the count at :math:`p_0` equals the generic rank of the graph,
   and no placement has a larger rank.
2. It cannot fall: by Weyl's inequality every singular value moves by at most
   :math:`e = \|A(p) - A(p_0)\|_2 \le \|A(p) - A(p_0)\|_F`, one evaluation of the
   Jacobian's entries in their fixed sparsity pattern, and the counts stand while
   :math:`e\,(1 + \text{rtol})` is below half the gap from the threshold to the smallest
   singular value above it (:attr:`RankReference.budget`).

A rigid motion of the whole placement changes no singular value (:math:`A(Rp + t) =
L\,A(p)\,Q^T` with :math:`Q` = diag(R) on the joints and :math:`L` orthogonal), so
:math:`p_0` is first moved onto :math:`p` by the best rotation and translation
(:func:`procrustes`) and :math:`e` measured from there (:meth:`RankReference.drift`).
While also :math:`e \le` :data:`~linkage_widget.rigidity.tolerances.ARROW_DRIFT`
:math:`\sigma_{above}` (Wedin) the flexes come from :math:`p_0`'s kernel, rotated by
:math:`Q` (:func:`excited_flex`). At a special placement (more flexes than the graph's)
fact 1 is not available and only a drift below the threshold keeps the counts.

A drift that Weyl's bound does not cover is counted once more cheaply
(:meth:`RankReference.same_count`): by Sylvester's inertia in the kept ordering
(:class:`~linkage_widget.rigidity.inertia.OrderedInertia`), or up to
:data:`DENSE_COUNT_MAX` rows or columns by one dense SVD (:func:`dense_count`). The
same count as the reference's means no singular placement was crossed; only a different
one makes a new reference.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp
from threadpoolctl import ThreadpoolController

from ..constraints import ConstraintSet
from ..model import Linkage
from .inertia import OrderedInertia
from .rigid_motions import linkage_trivial_motions
from .sparse_rank import SparseRankReport, sigma_max_estimate, sparse_rank_report
from .tolerances import ARROW_DRIFT, INERTIA_RTOL, MARGIN_MIN

__all__ = [
    "DENSE_COUNT_MAX",
    "EXCITED_MAX_DOF",
    "RankReference",
    "dense_count",
    "excited_flex",
    "first_rod_stress",
    "procrustes",
]

#: Up to this many rows or columns (either) a follow-up count is a dense SVD at the
#: report's own threshold: 1.3 ms (one BLAS thread) for penrose2t's 169 x 162, against
#: 4.6 ms for a new sparse report, which a special placement needed on every frame.
DENSE_COUNT_MAX = 200
#: Up to this many flexes the excited flex is the projected pull (the kernel is cached).
EXCITED_MAX_DOF = 50


class RankReference:
    """A counted placement: the sparse report and the Jacobian values it was made at.

    Parameters
    ----------
    report : SparseRankReport
        The full sparse report at the placement.
    values : ndarray
        The Jacobian's entries there (:meth:`ConstraintSet.jacobian_values`).
    trivial : int
        Number of trivial motions the pins leave there.
    generic_rank : int
        The graph's generic rank (pins count ``d`` each).
    positions : ndarray, shape (n, d)
        The placement (copied).
    """

    def __init__(
        self,
        report: SparseRankReport,
        values: np.ndarray,
        trivial: int,
        generic_rank: int,
        positions: np.ndarray,
    ) -> None:
        self.report, self.values, self.trivial = report, values, trivial
        smax, tol = report.sigma_max, report.tolerance
        tau = tol * smax
        above = None if report.sigma_above is None else report.sigma_above * smax
        # The rank cannot rise above the generic rank; at a special placement only a
        # drift below the threshold keeps the near-zero singular values below it.
        room = [] if report.rank >= generic_rank else [tau]
        if above is not None:
            room += [above - tau]
        # No singular value seen above (inertia only): nothing certifies reuse.
        ok = above is not None and report.decided
        self.budget = 0.5 * min(room) / (1.0 + tol) if ok else 0.0
        # The inertia resolves relative thresholds down to INERTIA_RTOL only: it counts at
        # the probe, which gives the reference's count when no singular value lies between.
        probe = max(tol, INERTIA_RTOL)
        rel_above = report.sigma_above
        clear = probe == tol or (rel_above is not None and rel_above >= MARGIN_MIN * probe)
        self.probe: float | None = probe if report.decided and clear else None
        self.arrow_budget = ARROW_DRIFT * above if ok and above is not None else 0.0
        self.positions = np.array(positions, dtype=float)
        self.inertia = OrderedInertia(report.n_constraints <= 2 * report.n_vertices)

    @classmethod
    def count(
        cls, linkage: Linkage, values: np.ndarray, generic_rank: int | None, rtol: float | str
    ) -> RankReference:
        """A new reference at ``linkage``'s placement: the sparse count there (bases lazy).

        ``generic_rank`` ``None``: unknown, so the rank may rise (no reuse by fact 1).
        """
        # No copy of the linkage (validating a copy costs more than the count): the
        # reference reads only the kernel and stresses of the report later.
        report = sparse_rank_report(linkage, rtol=rtol, n_flexes=50)
        trivial = linkage_trivial_motions(linkage).shape[1]
        generic = report.rank + 1 if generic_rank is None else generic_rank
        return cls(report, values, trivial, generic, linkage.vertices)

    def drift(
        self, cs: ConstraintSet, positions: np.ndarray, values: np.ndarray
    ) -> tuple[np.ndarray, float]:
        r"""The rotation onto ``positions`` and :math:`\|A(p) - A(Rp_0 + t)\|_F` (inf: no fit)."""
        d = positions.shape[1]
        if self.positions.shape != positions.shape:
            return np.eye(d), float("inf")
        rot, moved = procrustes(self.positions, positions)
        return rot, float(np.linalg.norm(values - cs.jacobian_values(moved)))

    def same_count(self, cs: ConstraintSet, linkage: Linkage) -> bool | None:
        """Whether one follow-up count finds the reference's count; ``None``: none possible.

        A dense SVD up to :data:`DENSE_COUNT_MAX` rows or columns (at the report's own
        threshold), else the inertia at the probe; no probe (a special placement) and
        too large for the SVD: ``None``, nothing was computed.
        """
        r = self.report
        dense = max(r.n_constraints, 2 * linkage.n_vertices) <= DENSE_COUNT_MAX
        if self.probe is None and not dense:
            return None
        a = cs.jacobian(linkage.vertices)
        if dense:
            with _one_blas_thread():  # threads cost ten times the CPU here (measured)
                counted = dense_count(a, r.tolerance, self.inertia.stress_side)
        else:
            smax = sigma_max_estimate(a)
            probe = self.probe or 0.0
            counted = self.inertia.count(a, probe * smax) if smax > 0 else None
        return counted == (r.self_stresses if self.inertia.stress_side else r.dof)


_BLAS: list[ThreadpoolController] = []  # built once, when first needed (~8 ms)


def _one_blas_thread() -> Any:
    """Context manager limiting BLAS to one thread."""
    if not _BLAS:
        _BLAS.append(ThreadpoolController())
    return _BLAS[0].limit(limits=1, user_api="blas")


def dense_count(a: sp.csr_array, rtol: float, stress_side: bool) -> int | None:
    r"""Singular values of ``a`` (c, N) at most ``rtol`` :math:`\sigma_{max}` on one side.

    The count :class:`~linkage_widget.rigidity.inertia.OrderedInertia` makes, from a dense
    SVD: on a small matrix one LAPACK call (tens of microseconds for a Peaucellier's
    11 x 12) costs a hundredth of a sparse factorisation and a power iteration, and its
    :math:`\sigma_{max}` is exact. ``stress_side``: count on :math:`AA^T` (``c`` values),
    else on :math:`A^TA` (``N``). ``None`` for a zero matrix.

    >>> a = sp.csr_array(np.array([[1.0, 0.0, 0.0], [0.0, 2.0, 0.0]]))
    >>> dense_count(a, 1e-7, stress_side=False), dense_count(a, 1e-7, stress_side=True)
    (1, 0)
    """
    sv = np.linalg.svd(a.toarray(), compute_uv=False)
    if not sv.size or sv[0] <= 0:
        return None
    rank = int(np.count_nonzero(sv > rtol * sv[0]))
    return (a.shape[0] if stress_side else a.shape[1]) - rank


def procrustes(p0: np.ndarray, p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The rotation ``R`` (d, d) and ``R p0 + t`` (n, d) nearest ``p`` (least squares, Kabsch)."""
    c0, c = p0.mean(axis=0), p.mean(axis=0)
    u, _, vt = np.linalg.svd((p - c).T @ (p0 - c0))
    rot = u @ np.diag([1.0] * (p.shape[1] - 1) + [np.sign(np.linalg.det(u @ vt))]) @ vt
    return rot, (p0 - c0) @ rot.T + c


def excited_flex(
    linkage: Linkage,
    report: SparseRankReport,
    rot: np.ndarray,
    pull: np.ndarray | None,
    step: np.ndarray | None,
) -> np.ndarray | None:
    r"""Unit internal part of the excited flex (rigid part if none); ``None`` if it is 0.

    From the ``pull`` (target minus position at the dragged joint) projected on the
    reference's kernel when there are at most :data:`EXCITED_MAX_DOF` flexes, else from
    the frame's ``step``. The report's kernel is that of :math:`A(p_0)`; at
    :math:`Rp_0 + t` it is :math:`Q\ker A(p_0)`, so the pull is turned back by :math:`R^T`
    and the result by ``R``.
    """
    if report.dof == 0:
        return None
    d = linkage.dim  # 2 in the plane, 3 in space
    if pull is not None and np.any(pull) and report.dof <= EXCITED_MAX_DOF:
        back = np.asarray(pull, dtype=float).reshape(-1, d) @ rot  # rows: R^T v_i
        moved = (report.excited_motion(back.reshape(-1)).reshape(-1, d) @ rot.T).reshape(-1)
    elif step is not None:
        moved = np.asarray(step, dtype=float).reshape(-1)
    else:
        return None
    triv = linkage_trivial_motions(linkage)
    internal = moved - triv @ (triv.T @ moved)
    norm_all = float(np.linalg.norm(moved))
    if norm_all <= 1e-300:
        return None
    # The rigid drift of a free body hides the flex: show it alone only if nothing bends
    # (within the reused kernel's accuracy, ARROW_DRIFT: below, "internal" is its error).
    use = internal if np.linalg.norm(internal) > 2.0 * ARROW_DRIFT * norm_all else moved
    return (use / np.linalg.norm(use)).reshape(-1, d)


def first_rod_stress(report: SparseRankReport, m: int) -> np.ndarray | None:
    """Rod part of the first stress, largest entry positive; ``None`` without stresses."""
    if report.self_stresses == 0 or m == 0:
        return None
    rod = report.stresses(1)[0, :m]
    if not np.any(rod):
        return None
    k = int(np.argmax(np.abs(rod)))
    return rod * np.sign(rod[k])
