r"""Motion of a linkage: the attractor-driven kinematic flow and constrained dynamics.

:class:`Simulator` owns a copy of the positions :math:`p \in \mathbb{R}^{2n}`
(stacked ``x0, y0, x1, y1, ...``) and moves them on the constraint manifold
:math:`g(p) = 0` of :class:`~linkage_widget.constraints.ConstraintSet`.

Kinematic mode (``step_size`` = how far the pulled vertex may move per step)
    The pulled vertex :math:`s` is drawn toward the target :math:`t` along the
    motion of least kinetic energy that the constraints allow,

    .. math:: v = \arg\min_v \tfrac12 v^T M v - f^T v
              \quad\text{s.t.}\quad A(p)\, v = 0, \qquad
              f = e_s \otimes \frac{t - p_s}{|t - p_s|},

    then a predictor step :math:`p + h v` and a projection back onto
    :math:`g = 0` by Gauss-Newton corrections in the :math:`M` metric,

    .. math:: \Delta p = -M^{-1} A^T (A M^{-1} A^T + \varepsilon I)^{-1} g(p),

    reusing the step's factorisation for chord iterations and switching to
    Newton (a fresh factorisation, then reused by the next step) when they
    crawl. The predictor moves the pulled vertex by ``step_size`` (or less: not
    past the target, and at most :data:`STEP_GROWTH` times the last move that
    trouble limited), halved until (1) the corrector converges, (2) it moves the
    predicted point by at most :data:`CORRECTOR_DEVIATION` of the step, so a
    step cannot land on another branch through a singular placement, (3) the
    squared distance to the target falls by at least :data:`DESCENT_RATIO` of
    its linear prediction, so the pulled vertex overshoots neither the target
    nor the closest point to it that the mechanism can reach, and (4) the drive
    direction at the new point does not reverse (:math:`v_{new}^T M v > 0`):
    a reversal means the step went through a fold of the pulled vertex's path,
    a dead point, to its far side. When no step of useful size passes, the
    status is ``"blocked"`` and the positions do not change at all: no jitter
    at a dead point.

Dynamic mode (``step_size`` = time step in seconds)
    :math:`M\ddot p = F(p, \dot p) - A(p)^T\lambda`, :math:`g(p) = 0`, integrated
    with RATTLE: a half kick, a drift whose constraint force
    :math:`M^{-1}A(p_n)^T\lambda` is found by SHAKE iterations, and a second
    half kick projected so that :math:`A(p_{n+1})\dot p_{n+1} = 0`. Without
    damping it is symplectic and time-reversible: the energy error stays
    bounded. Forces: gravity :math:`-g M e_y` (so :math:`g > 0` pulls toward
    :math:`-y`), the attractor as a spring and damper on the pulled vertex,
    global viscous damping :math:`-c\,M\dot p` and springs/dampers between
    vertex pairs (``LinearSpring`` / ``LinearDamper`` of
    ``sympy.physics.mechanics``). Damping forces enter the first half kick
    explicitly and the second implicitly, which keeps stiff dampers stable.
    A SHAKE iteration that stalls at a small residual (rounded data along an
    approximate flex) is finished by post-stabilisation: Newton steps along
    :math:`M^{-1}A(p_{n+1})^T`, accepted when they move the point by a small
    fraction of the step. A step whose SHAKE iteration still does not converge is
    split in halves, at most :data:`MAX_SUBSTEP_DEPTH` deep. At a singular
    placement (a chain stretched straight between pins) even the smallest
    sub-step may not converge: such a
    sub-step is taken only if it leaves the constraint error at most
    :data:`DATA_TOL` (or no larger than it was), else the positions stay; a
    step that could not move at all reports ``"blocked"``.

Linear algebra
    Every solve is the equality-constrained quadratic program above. The
    consistent mass matrix is not diagonal for :math:`\alpha > 0`, but it is
    diagonal in an enlarged set of unknowns: the vertex particles plus one
    particle at the middle of each rod, tied to the ends by linear constraints
    (:func:`~linkage_widget.mass.mass_particles`). Dampers between vertices
    become extra unknowns the same way. With a diagonal weight :math:`W` the
    program reduces to the sparse symmetric positive definite Schur complement
    :math:`S = C W^{-1} C^T + \varepsilon I`, whose sparsity pattern is fixed for
    a simulator, so its values are computed by one vectorised ``bincount`` and it
    is factorised by banded Cholesky (LAPACK ``pbtrf``, after a reverse
    Cuthill-McKee ordering) when the bandwidth is small — chains, ladders — or by
    SuperLU with a symmetric minimum-degree ordering otherwise. There is no
    dense matrix and no SVD anywhere on the per-step path.

Regularisation
    :math:`\varepsilon` (:data:`REGULARIZATION`, relative to a mass matrix
    normalised to a unit mean vertex mass and rows of unit norm) makes redundant
    constraints harmless (the Penrose files have hundreds) and treats a singular
    value below :math:`\sqrt{\varepsilon} \approx 3\cdot 10^{-7}` as a motion.
    That is the gap the rigidity analysis uses too (``RANK_RTOL = 1e-7`` in
    :mod:`linkage_widget.rigidity`): the 2007 Penrose "t" files flex only
    approximately, because their coordinates were rounded to six decimals
    (singular value near 1e-8), while the genuinely locked file's smallest
    singular value is 5e-6. Along such an approximate flex no placement satisfies
    every constraint. The Schur solve tells exactly which part of a residual
    no correction can remove, :math:`\varepsilon\lambda` with
    :math:`(S + \varepsilon I)\lambda = g`: each step holds that part of the
    residual it starts with and corrects the rest, so the error is what the
    data allows where the linkage is (at most :data:`DATA_TOL`), never a
    function of how many steps it took to get there, and the linkage is not
    pulled back along its flex.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp
from scipy.sparse.csgraph import reverse_cuthill_mckee
from scipy.sparse.linalg import splu

from ..constraints import ConstraintSet, as_flat
from ..mass import check_mass_parameters, mass_matrix, mass_particles
from ..model import Linkage

__all__ = ["MODES", "STATUSES", "Simulator", "Spring"]

MODES = ("kinematic", "dynamic")
STATUSES = ("idle", "moved", "reached target", "blocked")

# --------------------------------------------------------------- tolerances
# All of motion's numerical thresholds, in one place. "Relative" means
# ConstraintSet.relative_residuals: rod strain, angle in radians, pin offset
# over the typical rod length.

#: A projection has converged when the largest relative residual is at most this...
PROJECTION_TOL = 1e-12
#: ...but the corrector keeps iterating, refactorising if needed, down to round-off: near a
#: singular placement a 1e-12 residual would move a Peaucellier output off its line by ~1e-9.
#: Round-off is this many machine epsilons of the largest coordinate over the shortest rod.
ROUNDOFF_FACTOR = 4.0
#: When even Newton stops contracting, residuals up to this many round-offs are accepted:
#: the conditioning amplifies round-off (a 10 000-square braced ladder reaches ~5e-11).
CONDITIONED_ROUNDOFF = 100.0
#: The largest whole residual a step may leave (rounded data along an approximate flex
#: holds part of its residual; a flex that strays further is treated as blocked).
DATA_TOL = 1e-6
#: Along an approximate flex, the correctable residual may stay up to this fraction of the
#: held one (it is corrected at the next step, so the error cannot drift).
HELD_FRACTION = 0.1
#: Diagonal regularisation of the Schur complement (normalised units, see the module notes).
REGULARIZATION = 1e-13
#: A corrector may move the predicted point by at most this fraction of the step.
CORRECTOR_DEVIATION = 0.1
#: A corrector iteration that shrinks the residual less than this has stalled: refactorise
#: (or, in RATTLE, split the time step).
CHORD_CONTRACTION = 0.25
#: In kinematic mode a chord iteration that shrinks the residual less than this is slow:
#: switch to Newton (the Penrose "t" files' near-flex makes the chord crawl).
SLOW_CONTRACTION = 0.1
#: Chord iterations (reusing one factorisation) before switching to Newton: a banded
#: Cholesky costs about two solves, a SuperLU factorisation about ten (measured).
CHORD_ITERATIONS_BANDED = 2
CHORD_ITERATIONS_SPARSE = 8
#: Refactorisations allowed per projection before it counts as stalled.
MAX_REFACTORISATIONS = 2
#: Corrector iterations per projection.
MAX_CORRECTOR_ITERATIONS = 30
#: A kinematic step starts at most this many times the last accepted move of the pulled
#: vertex (a trust region): pushing against a dead point then costs few halvings per
#: step, and full speed returns within a few steps after it.
STEP_GROWTH = 4.0
#: Step halvings per kinematic step before the pulled vertex counts as blocked.
MAX_HALVINGS = 40
#: Accept a kinematic step when the squared distance to the target falls by at least
#: this fraction of its linear prediction (0.5 is exact for a straight path: no overshoot).
DESCENT_RATIO = 0.49
#: The target is reached within this many length scales.
TARGET_TOL = 1e-9
#: Blocked when the pulled vertex would move less than this times min(step_size, distance).
#: Near a dead point its move shrinks like the square of the distance to the singular
#: placement, so this also keeps the flow ~1e-3 (relative) away from that placement.
BLOCK_FRACTION = 1e-4
#: A pulled-vertex speed below this (normalised units: 1 for a free vertex) is rounding:
#: the vertex cannot move at all (pinned, or held rigid).
DRIVE_TOL = 1e-12
#: Use banded Cholesky when the reverse Cuthill-McKee bandwidth is at most this.
BANDED_MAX_BANDWIDTH = 48
#: A SHAKE iteration that stalls with the whole residual at most this is finished by
#: post-stabilisation (Newton steps from the new point, corrections along A(p_{n+1})^T
#: instead of A(p_n)^T) rather than by splitting the step.
POST_STABILIZE_TOL = 1e-6
#: A dynamic step whose SHAKE iteration fails is split in halves, at most this deep.
MAX_SUBSTEP_DEPTH = 8
#: Springs are explicit forces: a dynamic step is split so that h * omega stays below this
#: for the stiffest one (omega bounded with its vertices' own masses)...
SPRING_STEP = 0.5
#: ...into at most this many sub-steps (beyond, stiff springs may still go unstable).
MAX_SPRING_SUBSTEPS = 64
#: A mass distribution below this leaves the rod-middle particles out of the metric: their
#: share changes the motion by less than this, and near alpha = 0 (a subnormal alpha) the
#: inverse of their masses would overflow and turn the positions into NaN.
NEGLIGIBLE_ROD_MASS = 1e-12
#: A pinned joint lighter than this fraction of the mean vertex mass gets the mean as its
#: weight in the metric (it never moves; a tiny weight only spoils the conditioning).
LIGHT_PINNED = 1e-3

#: Default attractor spring stiffness (force per length) and damping (force per speed):
#: with the default total mass 1 about a 1 s period, damping ratio about 0.7.
ATTRACTOR_STIFFNESS = 40.0
ATTRACTOR_DAMPING = 9.0


@dataclass(frozen=True)
class Spring:
    r"""A spring and damper between vertices ``i`` and ``j``.

    With :math:`d = p_i - p_j`, :math:`\ell = |d|`, :math:`e = d/\ell`, the force on
    ``i`` is :math:`-k(\ell - \ell_0)\,e - c\,(e \cdot (v_i - v_j))\,e` (and the
    opposite on ``j``); potential energy :math:`\tfrac12 k (\ell - \ell_0)^2`.
    """

    i: int
    j: int
    stiffness: float
    rest_length: float
    damping: float = 0.0


# ------------------------------------------------------------ linear algebra
class _SchurPattern:
    r"""A fixed CSR pattern of :math:`C` and the fixed pattern of :math:`S = C W^{-1} C^T`.

    Every pair of non-zeros of :math:`C` sharing a column :math:`k` contributes
    :math:`C_{ak} C_{bk} / w_k` to :math:`S_{ab}`; the pairs are listed once, so
    the values of :math:`S` (lower triangle) cost one ``bincount`` per
    factorisation. Products with :math:`C` and :math:`C^T` are ``bincount`` s too.
    """

    def __init__(self, indptr: np.ndarray, indices: np.ndarray, n_rows: int, n_cols: int) -> None:
        nnz = len(indices)
        rows = np.repeat(np.arange(n_rows), np.diff(indptr))
        by_col = np.argsort(indices, kind="stable")
        col_sorted = indices[by_col]
        size = np.bincount(col_sorted, minlength=n_cols)
        start = np.concatenate([[0], np.cumsum(size)[:-1]])
        reps = size[col_sorted]
        a = np.repeat(np.arange(nnz), reps)
        offset = np.arange(len(a)) - np.repeat(np.cumsum(reps) - reps, reps)
        b = start[col_sorted[a]] + offset
        pa, pb = by_col[a], by_col[b]
        keep = rows[pa] >= rows[pb]
        pa, pb = pa[keep], pb[keep]
        key = rows[pa].astype(np.int64) * n_rows + rows[pb]
        uniq, target = np.unique(key, return_inverse=True)
        self.n_rows, self.n_cols = n_rows, n_cols
        self.rows, self.indices = rows, np.asarray(indices, dtype=np.int64)
        self.pa, self.pb, self.col, self.target = pa, pb, self.indices[pa], target.reshape(-1)
        self.si, self.sj = uniq // n_rows, uniq % n_rows  # lower triangle: si >= sj
        self.diag = np.flatnonzero(self.si == self.sj)
        self._solver: _BandedSolver | _SparseSolver | None = None
        self._w_key: np.ndarray | None = None
        self._w_col = np.zeros(0)

    @property
    def chord_iterations(self) -> int:
        """Chord iterations worth doing before a refactorisation pays off."""
        if self._solver is None:
            self._solver = self._choose_solver()
        return self._solver.chord_iterations

    def values(self, data: np.ndarray, w_inv: np.ndarray, eps: float) -> np.ndarray:
        r"""Lower-triangle values of :math:`S + \varepsilon I`, in the order of ``si, sj``."""
        if self._w_key is not w_inv:  # the same weights are reused step after step
            self._w_key, self._w_col = w_inv, w_inv[self.col]
        weights = data[self.pa] * data[self.pb] * self._w_col
        vals = np.bincount(self.target, weights=weights, minlength=len(self.si)).astype(np.float64)
        vals[self.diag] += eps
        return vals

    def matvec(self, data: np.ndarray, x: np.ndarray) -> np.ndarray:
        """:math:`C x`."""
        return np.bincount(self.rows, weights=data * x[self.indices], minlength=self.n_rows)

    def rmatvec(self, data: np.ndarray, y: np.ndarray) -> np.ndarray:
        """:math:`C^T y`."""
        return np.bincount(self.indices, weights=data * y[self.rows], minlength=self.n_cols)

    def factor(self, vals: np.ndarray) -> Any:
        """Factorise :math:`S` given its lower-triangle values (object with ``solve``)."""
        if self._solver is None:
            self._solver = self._choose_solver()
        return self._solver.factor(vals)

    def _choose_solver(self) -> _BandedSolver | _SparseSolver:
        # Reverse Cuthill-McKee once per pattern: chains and ladders have a tiny band,
        # where LAPACK's banded Cholesky beats any general sparse factorisation.
        n = self.n_rows
        off = self.si != self.sj
        rows = np.concatenate([self.si, self.sj[off]])
        cols = np.concatenate([self.sj, self.si[off]])
        pattern = sp.csr_array((np.ones(len(rows)), (rows, cols)), shape=(n, n))
        perm = reverse_cuthill_mckee(pattern, symmetric_mode=True).astype(np.int64)
        rank = np.empty(n, dtype=np.int64)
        rank[perm] = np.arange(n)
        ri, rj = rank[self.si], rank[self.sj]
        hi, lo = np.maximum(ri, rj), np.minimum(ri, rj)
        bandwidth = int(np.max(hi - lo)) if n else 0
        if bandwidth <= BANDED_MAX_BANDWIDTH:
            return _BandedSolver(n, bandwidth, perm, (hi - lo) * n + lo)
        return _SparseSolver(n, self.si, self.sj)


class _BandedSolver:
    """Banded Cholesky (LAPACK ``pbtrf``) of an SPD matrix in a fixed permuted band."""

    def __init__(self, n: int, bandwidth: int, perm: np.ndarray, flat: np.ndarray) -> None:
        self.n, self.bandwidth, self.perm, self.flat = n, bandwidth, perm, flat
        self.chord_iterations = CHORD_ITERATIONS_BANDED

    def factor(self, vals: np.ndarray) -> _BandedFactor:
        ab = np.zeros((self.bandwidth + 1, self.n))
        ab.reshape(-1)[self.flat] = vals  # lower storage: ab[i - j, j] = S[i, j]
        chol, info = sla.lapack.dpbtrf(ab, lower=1)
        if info != 0:
            raise np.linalg.LinAlgError(f"banded Cholesky failed (info={info})")
        return _BandedFactor(chol, self.perm)


class _BandedFactor:
    def __init__(self, chol: np.ndarray, perm: np.ndarray) -> None:
        self.chol, self.perm = chol, perm

    def solve(self, rhs: np.ndarray) -> np.ndarray:
        x, _ = sla.lapack.dpbtrs(self.chol, rhs[self.perm], lower=1)
        out = np.empty_like(x)
        out[self.perm] = x
        return out


class _SparseSolver:
    """SuperLU with diagonal pivots (S is SPD) and a symmetric minimum-degree ordering.

    The ordering depends only on the pattern, so it is computed by the first
    factorisation and reused: later matrices are handed over already permuted,
    with ``permc_spec="NATURAL"`` (about a fifth faster, and faster solves).
    """

    def __init__(self, n: int, si: np.ndarray, sj: np.ndarray) -> None:
        self.n, self.si, self.sj = n, si, sj
        self.chord_iterations = CHORD_ITERATIONS_SPARSE
        self.order: np.ndarray | None = None  # new index -> old index
        self._layout(np.arange(n))

    def _layout(self, rank: np.ndarray) -> None:
        """CSC layout of the symmetric matrix with rows/columns renumbered by ``rank``."""
        si, sj = rank[self.si], rank[self.sj]
        off = np.flatnonzero(si != sj)
        rows = np.concatenate([si, sj[off]])
        cols = np.concatenate([sj, si[off]])
        source = np.concatenate([np.arange(len(si)), off])
        # Learn once where each value lands in CSC order; later only the data changes.
        probe = sp.csc_array((source + 1.0, (rows, cols)), shape=(self.n, self.n))
        probe.sort_indices()
        self.indices, self.indptr = probe.indices, probe.indptr
        self.take = probe.data.astype(np.int64) - 1

    def factor(self, vals: np.ndarray) -> Any:
        mat = sp.csc_array((vals[self.take], self.indices, self.indptr), shape=(self.n, self.n))
        # S is SPD: no pivoting, so the symmetric fill-reducing order survives. Small
        # supernodes (relax = panel_size = 1) measured 10-30 % faster on our matrices.
        options = {"SymmetricMode": True}
        tuning = {"relax": 1, "panel_size": 1, "diag_pivot_thresh": 0.0}
        if self.order is None:
            lu = splu(mat, permc_spec="MMD_AT_PLUS_A", options=options, **tuning)
            self.order = np.asarray(lu.perm_c, dtype=np.int64)
            rank = np.empty(self.n, dtype=np.int64)
            rank[self.order] = np.arange(self.n)
            self.order, rank = rank, self.order  # SuperLU's perm_c maps new -> old inversely
            self._layout(rank)
            return lu
        lu = splu(mat, permc_spec="NATURAL", options=options, **tuning)
        return _PermutedFactor(lu, self.order)


class _PermutedFactor:
    """Solves :math:`S x = b` given a factorisation of :math:`S` with permuted rows and columns."""

    def __init__(self, lu: Any, order: np.ndarray) -> None:
        self.lu, self.order = lu, order

    def solve(self, rhs: np.ndarray) -> np.ndarray:
        out = np.empty_like(rhs)
        out[self.order] = self.lu.solve(rhs[self.order])
        return out


@dataclass(frozen=True)
class _Layout:
    """Which extra unknowns a metric has: rod middle particles, and dampers ``(i, j)``."""

    middles: bool
    dampers: tuple[tuple[int, int], ...] = ()


class _Factor:
    r"""A factorised equality-constrained quadratic program at one placement.

    ``minimize(f, b)`` returns the vertex part of
    :math:`\arg\min \tfrac12 x^T W x - f^T x` s.t. :math:`C x = b`, where
    :math:`C = \begin{pmatrix} A & 0 \\ G & -I \end{pmatrix}` ties the extra
    unknowns to the vertex velocities and :math:`W` is diagonal (stored divided
    by ``norm``):

    .. math:: (C W^{-1} C^T + \varepsilon I)\,\lambda = C W^{-1} f - b, \qquad
              x = W^{-1} (f - C^T \lambda).
    """

    def __init__(
        self,
        pattern: _SchurPattern,
        data: np.ndarray,
        w_inv: np.ndarray,
        norm: float,
        n_v: int,
        n_a: int,
    ) -> None:
        self.pattern, self.data, self.w_inv, self.norm = pattern, data, w_inv, norm
        self.n_v, self.n_a = n_v, n_a
        vals = pattern.values(data, w_inv, REGULARIZATION)
        try:
            self.lu = pattern.factor(vals) if pattern.n_rows else None
        except (np.linalg.LinAlgError, RuntimeError):
            # Very light rod middles (rods far shorter than the rest, mass in the rods)
            # under redundant constraints make entries of S so large that REGULARIZATION
            # drowns in their round-off and S is numerically indefinite: regularise
            # relative to the largest diagonal entry instead.
            vals[pattern.diag] += REGULARIZATION * float(np.max(vals[pattern.diag]))
            self.lu = pattern.factor(vals)

    def minimize(self, f: np.ndarray | None = None, b: np.ndarray | None = None) -> np.ndarray:
        """Vertex part of the minimiser, shape ``(2n,)``; ``f`` in true mass units."""
        ftil = np.zeros(len(self.w_inv))
        if f is not None:
            ftil[: self.n_v] = f / self.norm
        if self.lu is None:
            return (self.w_inv * ftil)[: self.n_v]
        rhs = self.pattern.matvec(self.data, self.w_inv * ftil)
        if b is not None:
            rhs[: self.n_a] -= b
        lam = self.lu.solve(rhs)
        x = self.w_inv * (ftil - self.pattern.rmatvec(self.data, lam))
        return x[: self.n_v]

    def correct(self, g: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        r"""Gauss-Newton correction for residuals ``g`` and the part of ``g`` it cannot remove.

        :math:`\Delta p = -W^{-1} C^T \lambda` with
        :math:`(S + \varepsilon I)\lambda = g`, so
        :math:`A \Delta p = -g + \varepsilon\lambda`: the returned
        :math:`\varepsilon\lambda` (shape ``(n_constraints,)``) is the residual left
        in the near-null directions that the regularisation treats as motions.
        """
        if self.lu is None:
            return np.zeros(self.n_v), np.zeros_like(g)
        rhs = np.zeros(self.pattern.n_rows)
        rhs[: self.n_a] = g
        lam = self.lu.solve(rhs)
        dp = -(self.w_inv * self.pattern.rmatvec(self.data, lam))[: self.n_v]
        return dp, REGULARIZATION * lam[: self.n_a]


class _Projection(NamedTuple):
    """Outcome of :meth:`Simulator._project`."""

    q: np.ndarray
    ok: bool
    fresh: _Factor | None


@dataclass
class _Mass:
    """Mass data for one (alpha, m): ``M``, ``M e_y``, particle masses, normalisation."""

    matrix: sp.csr_array
    weight: np.ndarray  # M e_y: gravity's generalised force is -g * weight
    vertex: np.ndarray
    middle: np.ndarray
    norm: float  # mean vertex particle mass: weights are divided by it
    metric: tuple[np.ndarray, _Layout] | None = None  # cached mass weights (see _mass_weights)


# ----------------------------------------------------------------- simulator
class Simulator:
    r"""Kinematic (attractor) and dynamic motion of a linkage on its constraints.

    The simulator works on **its own copy** of the positions: the linkage passed
    in is never modified. :attr:`positions` is the live state (read it every
    frame); :attr:`linkage` returns a new :class:`~linkage_widget.model.Linkage`
    at the current positions and :meth:`sync_to` writes them into an existing
    one. Constraint targets (rod lengths, angles, pins) are those of the linkage
    when the simulator is built; after editing the linkage, build a new
    simulator (construction is cheap, :math:`O(n + m)` and vectorised; the
    factorisation pattern is prepared on the first step).

    Parameters
    ----------
    linkage : Linkage
        The mechanism; its current positions define the constraint targets.
    mode : {"kinematic", "dynamic"}
        Attractor-driven least-kinetic-energy motion, or Newtonian dynamics.
    step_size : float
        Kinematic: how far the pulled vertex moves in one step (world units): the
        predictor moves it by at most this, the projection back onto the
        constraints changes that by a second-order amount. Dynamic: the time
        step in seconds (e.g. ``1/60``); a step is split automatically where
        a stiff spring or the attractor needs it for stability.
    mass_distribution : float
        :math:`\alpha \in [0, 1]`: 0 puts all mass in the hinges, 1 in the rods
        (see :mod:`linkage_widget.mass`).
    total_mass : float
        :math:`m > 0`.
    gravity : float
        :math:`g`, world units per second squared; positive pulls toward :math:`-y`.
        Dynamic mode only.
    damping : float
        Global viscous damping rate :math:`c \ge 0` (1/s): force :math:`-c M \dot p`.
        Mass-proportional, so it slows the motion without changing its path.
        Dynamic mode only.

    All parameters are attributes that may be set at any time (the widget's
    sliders do); they are validated and take effect on the next step. Setting
    :attr:`mode` resets the velocities to zero.

    Attributes
    ----------
    attractor_stiffness, attractor_damping : float
        Spring constant and damper of the attractor in dynamic mode (defaults
        :data:`ATTRACTOR_STIFFNESS`, :data:`ATTRACTOR_DAMPING`).

    Notes
    -----
    In kinematic mode :attr:`time` counts steps, :attr:`velocities` is the
    displacement of the last step, and only the attractor drives the motion
    (gravity, springs and damping are dynamic-mode forces).

    Examples
    --------
    >>> from linkage_widget import Linkage
    >>> sim = Simulator(Linkage.load("peaucellier.txt"), step_size=5.0)
    >>> sim.attract(5, (128.0, 200.0))        # pull the output up its line
    >>> sim.step(100)
    >>> sim.status
    'reached target'
    >>> bool(abs(sim.positions[5, 0] - 128.0) < 1e-9), sim.constraint_error() < 1e-12
    (True, True)
    """

    def __init__(
        self,
        linkage: Linkage,
        mode: str = "kinematic",
        step_size: float = 1.0,
        mass_distribution: float = 0.0,
        total_mass: float = 1.0,
        gravity: float = 0.0,
        damping: float = 0.0,
    ) -> None:
        if not isinstance(linkage, Linkage):
            raise TypeError(f"linkage must be a Linkage, got {type(linkage).__name__}")
        self._template = linkage.copy()
        self._cs = ConstraintSet.from_linkage(linkage)
        self._n = linkage.n_vertices
        self._pinned_mask = np.zeros(self._n, dtype=bool)
        self._pinned_mask[np.asarray(linkage.pinned, dtype=np.int64)] = True
        self._p = as_flat(linkage.vertices).copy()
        self._roundoff = _roundoff(self._p, self._cs)
        cs = self._cs
        pins = np.full(2 * len(cs.pinned), cs.length_scale)
        self._inv_row_scale = 1.0 / np.concatenate([cs.lengths, cs.angle_scales, pins])
        self._v = np.zeros(2 * self._n)
        self._time = 0.0
        self._status = "idle"
        self._attractor: tuple[int, np.ndarray] | None = None
        self._springs: list[Spring] = []
        # caches: mass (per alpha, m), Schur patterns (per extra-unknown layout),
        # the mass-metric factor at the current placement, and a blocked verdict
        self._mass_cache: tuple[tuple[float, float], Any] | None = None
        self._patterns: dict[_Layout, _SchurPattern] = {}
        self._extra_cache: dict[_Layout, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self._inverse_weights: tuple[np.ndarray | None, np.ndarray] = (None, np.zeros(0))
        self._factor_cache: tuple[np.ndarray, Any, _Factor] | None = None
        self._blocked_key: Any = None
        self._drive_cache: tuple[Any, np.ndarray] | None = None
        self._trust = np.inf  # the last accepted move of the pulled vertex
        self._residual_cache: tuple[np.ndarray, np.ndarray] | None = None
        self._version = 0  # bumped whenever the positions change
        self._mode = "kinematic"
        self.mode = mode
        self.step_size = step_size
        self.mass_distribution = mass_distribution
        self.total_mass = total_mass
        self.gravity = gravity
        self.damping = damping
        self.attractor_stiffness = ATTRACTOR_STIFFNESS
        self.attractor_damping = ATTRACTOR_DAMPING

    # ------------------------------------------------------------ parameters
    @property
    def mode(self) -> str:
        """``"kinematic"`` or ``"dynamic"``; setting it resets the velocities to zero."""
        return self._mode

    @mode.setter
    def mode(self, value: str) -> None:
        if value not in MODES:
            raise ValueError(f"mode must be one of {MODES}, got {value!r}")
        if value != self._mode:
            self._v = np.zeros(2 * self._n)
        self._mode = value

    @property
    def step_size(self) -> float:
        """Kinematic: largest move of the pulled vertex per step; dynamic: time step (s)."""
        return self._step_size

    @step_size.setter
    def step_size(self, value: float) -> None:
        self._step_size = _positive("step_size", value)

    @property
    def mass_distribution(self) -> float:
        r""":math:`\alpha \in [0, 1]`, hinge point masses (0) to uniform rods (1)."""
        return self._alpha

    @mass_distribution.setter
    def mass_distribution(self, value: float) -> None:
        self._alpha, _ = check_mass_parameters(value, 1.0)

    @property
    def total_mass(self) -> float:
        """Total mass :math:`m > 0`."""
        return self._total_mass

    @total_mass.setter
    def total_mass(self, value: float) -> None:
        _, self._total_mass = check_mass_parameters(0.0, value)

    @property
    def gravity(self) -> float:
        """Gravitational acceleration :math:`g` (toward :math:`-y` when positive)."""
        return self._gravity

    @gravity.setter
    def gravity(self, value: float) -> None:
        self._gravity = _finite("gravity", value)

    @property
    def damping(self) -> float:
        r"""Global viscous damping rate :math:`c \ge 0` (force :math:`-c M \dot p`)."""
        return self._damping

    @damping.setter
    def damping(self, value: float) -> None:
        self._damping = _non_negative("damping", value)

    @property
    def attractor_stiffness(self) -> float:
        """Spring constant of the attractor in dynamic mode (force per length)."""
        return self._k_att

    @attractor_stiffness.setter
    def attractor_stiffness(self, value: float) -> None:
        self._k_att = _non_negative("attractor_stiffness", value)

    @property
    def attractor_damping(self) -> float:
        """Damper of the attractor in dynamic mode (force per speed)."""
        return self._c_att

    @attractor_damping.setter
    def attractor_damping(self, value: float) -> None:
        self._c_att = _non_negative("attractor_damping", value)

    # ----------------------------------------------------------------- state
    @property
    def positions(self) -> np.ndarray:
        """Current positions, shape ``(n, 2)`` (a read-only view; each step makes a new array)."""
        view = self._p.reshape(-1, 2).view()
        view.flags.writeable = False
        return view

    @property
    def velocities(self) -> np.ndarray:
        """Current velocities, shape ``(n, 2)`` (kinematic mode: last step's displacement)."""
        view = self._v.reshape(-1, 2).view()
        view.flags.writeable = False
        return view

    @property
    def time(self) -> float:
        """Simulated time in seconds (dynamic mode); kinematic steps count one each."""
        return self._time

    @property
    def status(self) -> str:
        """Outcome of the last step: "idle", "moved", "reached target" or "blocked"."""
        return self._status

    @property
    def constraints(self) -> ConstraintSet:
        """The constraints being enforced (targets from the linkage at construction)."""
        return self._cs

    @property
    def linkage(self) -> Linkage:
        """A new :class:`Linkage` with the simulator's current positions."""
        out = self._template.copy()
        out.set_positions(self.positions)
        return out

    def sync_to(self, linkage: Linkage) -> None:
        """Write the current positions into ``linkage`` (same number of vertices)."""
        linkage.set_positions(self.positions)

    def constraint_error(self) -> float:
        """Largest relative constraint residual (rod strain, angle radians, pin offset)."""
        return self._cs.relative_error(self._p)

    # ------------------------------------------------------------- attractor
    @property
    def attractor(self) -> tuple[int, tuple[float, float]] | None:
        """``(vertex, (x, y))`` of the attractor, or ``None``."""
        if self._attractor is None:
            return None
        s, t = self._attractor
        return s, (float(t[0]), float(t[1]))

    def attract(self, vertex: int, target: Sequence[float]) -> None:
        """Pull ``vertex`` toward ``target = (x, y)`` from the next step on (replaces any other)."""
        s = self._vertex_index("vertex", vertex)
        t = np.asarray(target, dtype=np.float64)
        if t.shape != (2,) or not np.all(np.isfinite(t)):
            raise ValueError(f"target must be a finite (x, y) pair, got {target!r}")
        if self._attractor is None or self._attractor[0] != s:
            self._trust = np.inf
        self._attractor = (s, t.copy())

    def release(self) -> None:
        """Remove the attractor."""
        self._attractor = None

    # --------------------------------------------------------------- springs
    @property
    def springs(self) -> list[Spring]:
        """The springs/dampers between vertex pairs (a copy; use add/remove to change)."""
        return list(self._springs)

    def add_spring(
        self,
        i: int,
        j: int,
        stiffness: float,
        rest_length: float | None = None,
        damping: float = 0.0,
    ) -> int:
        """Add a spring and damper between ``i`` and ``j``; return its index.

        ``rest_length`` defaults to the current distance. Dynamic mode only.
        """
        i, j = self._vertex_index("i", i), self._vertex_index("j", j)
        if i == j:
            raise ValueError(f"a spring needs two distinct vertices, got i = j = {i}")
        k = _non_negative("stiffness", stiffness)
        c = _non_negative("damping", damping)
        if rest_length is None:
            d = self._p[2 * i : 2 * i + 2] - self._p[2 * j : 2 * j + 2]
            rest = float(np.hypot(d[0], d[1]))
        else:
            rest = _non_negative("rest_length", rest_length)
        self._springs.append(Spring(i, j, k, rest, c))
        return len(self._springs) - 1

    def remove_spring(self, index: int) -> None:
        """Remove the spring with index ``index`` (later ones shift down)."""
        index = int(index)
        if not 0 <= index < len(self._springs):
            count = len(self._springs)
            raise IndexError(f"spring {index} out of range (there are {count} springs)")
        del self._springs[index]

    # -------------------------------------------------------------- energies
    def kinetic_energy(self) -> float:
        r""":math:`T = \tfrac12 \dot p^T M \dot p`."""
        return 0.5 * float(self._v @ (self._mass().matrix @ self._v))

    def potential_energy(self) -> float:
        r"""Gravity :math:`g\,(M e_y)^T p`, springs, and the attractor spring (if attached)."""
        p = self._p
        energy = self._gravity * float(self._mass().weight @ p)
        if self._attractor is not None:
            s, t = self._attractor
            energy += 0.5 * self._k_att * float(np.sum((p[2 * s : 2 * s + 2] - t) ** 2))
        if self._springs:
            i, j, k, rest, _ = self._spring_arrays()
            d = p.reshape(-1, 2)[i] - p.reshape(-1, 2)[j]
            energy += 0.5 * float(np.sum(k * (np.hypot(d[:, 0], d[:, 1]) - rest) ** 2))
        return energy

    def set_velocity(self, velocity: Any) -> None:
        """Set the velocities (shape ``(n, 2)``), projected M-orthogonally onto the allowed motions.

        The result is the allowed velocity closest to ``velocity`` in the
        kinetic-energy norm, :math:`v - M^{-1}A^T(AM^{-1}A^T)^{-1}Av`.
        """
        v = np.asarray(velocity, dtype=np.float64)
        if v.shape not in ((self._n, 2), (2 * self._n,)):
            raise ValueError(f"velocity must have shape ({self._n}, 2), got {v.shape}")
        v = v.reshape(-1)
        if not np.all(np.isfinite(v)):
            raise ValueError("velocity must be finite")
        if self._n == 0:
            return
        self._v = self._mass_factor(self._p).minimize(self._mass().matrix @ v)

    # ------------------------------------------------------------------ step
    def step(self, n: int = 1) -> None:
        """Advance ``n`` steps; :attr:`status` reports the last one."""
        n = int(n)
        if n < 0:
            raise ValueError(f"n must be non-negative, got {n}")
        for _ in range(n):
            if self._n == 0:
                self._status = "idle"
            elif self._mode == "kinematic":
                self._status = self._kinematic_step()
            else:
                start = self._p
                substeps = self._spring_substeps()
                for _ in range(substeps):
                    self._dynamic_step(self._step_size / substeps, 0)
                self._status = "blocked" if self._p is start else "moved"
            self._time += 1.0 if self._mode == "kinematic" else self._step_size

    # ---------------------------------------------------------- kinematic
    def _kinematic_step(self) -> str:
        if self._attractor is None:
            self._v = np.zeros(2 * self._n)
            return "idle"
        s, t = self._attractor
        p = self._p
        sl = slice(2 * s, 2 * s + 2)
        d = t - p[sl]
        dist = float(np.hypot(d[0], d[1]))
        if dist <= TARGET_TOL * self._cs.length_scale:
            self._v = np.zeros(2 * self._n)
            return "reached target"
        key = (self._version, s, t[0], t[1], self._step_size, self._alpha, self._total_mass)
        if self._pinned_mask[s] or key == self._blocked_key:
            self._v = np.zeros(2 * self._n)
            return "blocked"
        status = self._pull(s, t, d, dist)
        if status == "blocked":
            self._blocked_key = key
            self._v = np.zeros(2 * self._n)
        return status

    def _pull(self, s: int, t: np.ndarray, d: np.ndarray, dist: float) -> str:
        p = self._p
        sl = slice(2 * s, 2 * s + 2)
        fac = self._mass_factor(p)
        key = (self._version, s, t[0], t[1], self._alpha, self._total_mass)
        if self._drive_cache is not None and self._drive_cache[0] == key:
            v = self._drive_cache[1]  # computed by the last step's direction check
        else:
            v = self._drive(fac, s, d / dist)
        vs = v[sl]
        speed = float(np.hypot(vs[0], vs[1]))
        rate = float(vs @ d) / dist  # -d/dh of |p_s - t| along v
        # v is M^-1-sized: speed * mean mass is dimensionless (1 for a free vertex)
        if not (speed * self._mass().norm > DRIVE_TOL and rate > 0.0):
            return "blocked"
        least_move = BLOCK_FRACTION * min(self._step_size, dist)
        h_free = min(self._step_size / speed, dist * rate / speed**2)  # step size, target
        h = min(h_free, STEP_GROWTH * max(self._trust, least_move) / speed)
        vmax = float(np.max(np.abs(v)))
        m_v = self._mass().matrix @ v
        held = self._held_residual(p, fac)
        reach = TARGET_TOL * self._cs.length_scale
        for _ in range(MAX_HALVINGS):
            if h * speed < least_move:
                self._trust = least_move
                break
            predicted = p + h * v
            q, ok, fresh = self._project(predicted, fac, held, allow_refactor=True)
            accept = ok and np.max(np.abs(q - predicted)) <= CORRECTOR_DEVIATION * h * vmax
            if accept:
                d1 = t - q[sl]
                dist1 = float(np.hypot(d1[0], d1[1]))
                # the squared distance falls as predicted: no overshoot along the path
                accept = 0.5 * (dist**2 - dist1**2) >= DESCENT_RATIO * h * dist * rate
            if accept:
                moved = float(np.hypot(*(q[sl] - p[sl])))
                if moved < least_move:
                    self._trust = least_move
                    break
                # remember the move only if trouble limited it (halving or the trust region)
                self._trust = np.inf if h >= h_free else h * speed
                if dist1 <= reach:
                    self._v = q - p
                    self._set_positions(q)
                    return "reached target"
                # The drive direction must not reverse: a reversal means the step went
                # through a fold of the pulled vertex's path (a dead point) to its far side.
                fac_q = fresh or self._factor(q, *self._mass_weights())
                v_q = self._drive(fac_q, s, d1 / dist1)
                if float(v_q @ m_v) > 0.0:
                    self._v = q - p
                    self._set_positions(q)
                    self._factor_cache = (q, (self._alpha, self._total_mass), fac_q)
                    key = (self._version, s, t[0], t[1], self._alpha, self._total_mass)
                    self._drive_cache = (key, v_q)
                    return "moved"
            h *= 0.5
        return "blocked"

    def _drive(self, fac: _Factor, s: int, direction: np.ndarray) -> np.ndarray:
        r"""Least-kinetic-energy velocity for a unit pull on ``s``, shape ``(2n,)``.

        :math:`v = \arg\min \tfrac12 v^T M v - f^T v` s.t. :math:`A v = 0`, with
        :math:`f = e_s \otimes` ``direction``.
        """
        f = np.zeros(2 * self._n)
        f[2 * s : 2 * s + 2] = direction
        return fac.minimize(f)

    def _held_residual(self, p: np.ndarray, fac: _Factor) -> np.ndarray:
        """The residual at ``p`` that no correction can remove (zero for exact data).

        Along an approximate flex (rounded data) part of the residual lies in the
        near-null directions of :math:`A^T`; projecting onto :math:`g = 0` would
        pull the linkage back along the flex. Instead that part is held (the best
        the data allows) and only the rest is corrected, so the error depends on
        where the linkage is, never on how many steps it took to get there.
        """
        # Recomputed at every step (not handed over from the last projection): the
        # near-null directions turn as the linkage moves, and a held part that has
        # become correctable must be corrected, or the error would drift.
        g = self._residuals(p)
        if self._error(g) <= 10.0 * self._roundoff:
            return np.zeros_like(g)
        return fac.correct(g)[1]

    def _project(
        self, q: np.ndarray, fac: _Factor, held: np.ndarray, *, allow_refactor: bool
    ) -> _Projection:
        """Gauss-Newton projection of ``q`` onto :math:`g = g_{held}`, corrections in range(M⁻¹Aᵀ).

        Iterates with the given factorisation until the correctable residual is at
        round-off (for exact data: the whole residual). When the iteration stops
        contracting it refactorises at the current point; without
        ``allow_refactor`` (RATTLE, whose corrections must stay in
        range(M⁻¹A(p_n)ᵀ)) only to polish below :data:`PROJECTION_TOL`, where the
        correction is too small to matter.

        Returns the best point, whether it is acceptable (correctable residual
        at most :data:`PROJECTION_TOL`, whole residual at most :data:`DATA_TOL`),
        and the factorisation made during the projection, if any (at most one
        small correction away from the point, close enough to serve as the next
        step's).
        """
        cs = self._cs
        floor = self._roundoff
        # With a held residual (rounded data) the split into correctable and held parts
        # moves a little with the placement; what is left of the correctable part is
        # corrected at the next step, so it only has to be small next to the held part.
        enough = max(PROJECTION_TOL, 10.0 * floor, HELD_FRACTION * self._error(held))
        best_q, best, best_g = q, np.inf, held
        previous = np.inf
        refactorisations = 0
        fresh: _Factor | None = None
        chord = 0  # iterations with the current factorisation
        conditioned = False  # stopped at the round-off floor of an ill-conditioned system
        for _ in range(MAX_CORRECTOR_ITERATIONS):
            g = cs.residuals(q) - held
            if self._error(g) <= floor:
                best_q, best, best_g = q, 0.0, g
                break
            dq, stuck = fac.correct(g)
            err = self._error(g - stuck)  # what corrections can still remove
            if not np.isfinite(err):
                break
            if err < best:
                best_q, best, best_g = q, err, g
            if err <= floor or (err <= enough and enough > max(PROJECTION_TOL, 10.0 * floor)):
                break
            stalled = err > CHORD_CONTRACTION * previous
            slow = allow_refactor and (
                chord >= fac.pattern.chord_iterations or err > SLOW_CONTRACTION * previous
            )
            if stalled or slow:
                if err <= 10.0 * floor:
                    break  # round-off stops further progress
                if stalled and refactorisations:
                    # Even iterating from a fresh factorisation no longer contracts:
                    # round-off amplified by the conditioning (long slender trusses).
                    conditioned = True
                    break
                may_refactor = allow_refactor or err <= PROJECTION_TOL
                if may_refactor and refactorisations < MAX_REFACTORISATIONS:
                    q = best_q
                    fac = fresh = self._factor(q, *self._mass_weights())
                    refactorisations += 1
                    previous, chord = np.inf, 0
                    continue
                if stalled:
                    break
            previous = err
            chord += 1
            q = q + dq
        if conditioned:
            enough = max(enough, CONDITIONED_ROUNDOFF * floor)
        residual = best_g + held
        ok = best <= enough and self._error(residual) <= DATA_TOL
        self._residual_cache = (best_q, residual)  # the next step starts here, perhaps
        return _Projection(best_q, ok, fresh)

    # ------------------------------------------------------------ dynamic
    def _dynamic_step(self, h: float, depth: int) -> None:
        """One RATTLE step of length ``h``; split in halves if SHAKE does not converge."""
        p, v = self._p, self._v
        mass = self._mass().matrix
        fac0 = self._mass_factor(p)
        force = self._conservative_force(p) + self._damping_force(p, v)
        # Position stage: p1 = p + h v + (h^2/2) M^-1 (F - A(p)^T lam) with g(p1) = 0.
        drift = fac0.minimize(0.5 * h * h * force)
        held = self._held_residual(p, fac0)
        p1, ok, _ = self._project(p + h * v + drift, fac0, held, allow_refactor=False)
        if not ok:
            p1, ok = self._post_stabilize(p, p1, held)
        if not ok and depth < MAX_SUBSTEP_DEPTH:
            self._dynamic_step(0.5 * h, depth + 1)
            self._dynamic_step(0.5 * h, depth + 1)
            return
        if not ok and not self._error(self._residuals(p1)) <= max(
            self._error(self._residuals(p)), DATA_TOL
        ):  # (written so that a NaN residual stays too)
            # Not even the smallest sub-step converges (a singular placement), and taking
            # it anyway would leave more than DATA_TOL: rods would break (a straight chain
            # of six between pins flew apart, 600% strain within a second). Stay; the
            # velocity stage still runs.
            p1 = p
        v_half = (p1 - p) / h
        if p1 is not p:
            self._set_positions(p1)
        # Velocity stage: (M + h/2 C) v1 = M v_half + h/2 F_c(p1) - A(p1)^T mu, A(p1) v1 = 0.
        rhs = mass @ v_half + 0.5 * h * self._conservative_force(p1)
        scale = 1.0 + 0.5 * h * self._damping
        if self._has_local_dampers():
            v1 = self._factor(p1, *self._damped_weights(h)).minimize(rhs)
        else:
            v1 = self._mass_factor(p1).minimize(rhs / scale)
        self._v = v1

    def _post_stabilize(
        self, p: np.ndarray, p1: np.ndarray, held: np.ndarray
    ) -> tuple[np.ndarray, bool]:
        """Finish a stalled SHAKE iteration at ``p1`` with Newton steps from ``p1`` itself.

        SHAKE corrects along :math:`M^{-1}A(p_n)^T` with ``p``'s factorisation. Along
        an approximate flex (rounded data, the Penrose "t" files) the near-null
        directions turn as the linkage moves, and from ``p``'s directions the last
        ~1e-8 of the residual cannot be reached: the iteration stalls, and splitting
        the step only shrinks that rest with the square of the move, at ten to twenty
        times the cost (penrose3t: 127 ms per frame, measured). A projection along
        :math:`M^{-1}A(p_{n+1})^T` (post-stabilisation, Ascher et al. 1995) removes it
        in one or two Newton steps. Its forces are still internal (no net force or
        torque), and its correction is of the size of the residual, so symplecticity
        is lost only at that level. It is used only for small residuals and small
        corrections (at most :data:`CORRECTOR_DEVIATION` of the move): a step
        through a singular placement, or onto another branch, is still split.
        Returns the point and whether it is acceptable.
        """
        if not self._error(self._residuals(p1)) <= POST_STABILIZE_TOL:
            return p1, False
        q, ok, _ = self._project(
            p1, self._factor(p1, *self._mass_weights()), held, allow_refactor=True
        )
        move = float(np.max(np.abs(p1 - p)))
        if ok and float(np.max(np.abs(q - p1))) <= CORRECTOR_DEVIATION * move:
            return q, True
        return p1, False

    def _spring_substeps(self) -> int:
        r"""Sub-steps that keep the explicit springs stable.

        :math:`h\,\omega \le` :data:`SPRING_STEP` with
        :math:`\omega^2 = k (1/m_i + 1/m_j)` (attractor: :math:`k / m_s`), where
        :math:`m` are the vertex particle masses: :math:`M \succeq
        \operatorname{diag}(m)`, and constraints only add inertia, so this
        bounds the true frequency from above.
        """
        mass = self._mass().vertex
        omega2 = 0.0
        if self._attractor is not None:
            omega2 = self._k_att / mass[self._attractor[0]]
        if self._springs:
            i, j, k, _, _ = self._spring_arrays()
            omega2 = max(omega2, float(np.max(k * (1.0 / mass[i] + 1.0 / mass[j]))))
        need = self._step_size * np.sqrt(omega2) / SPRING_STEP
        return int(min(MAX_SPRING_SUBSTEPS, max(1, np.ceil(need))))

    def _conservative_force(self, p: np.ndarray) -> np.ndarray:
        """Gravity, attractor spring and spring elements at ``p``, shape ``(2n,)``."""
        force = -self._gravity * self._mass().weight
        if self._attractor is not None and self._k_att:
            s, t = self._attractor
            force[2 * s : 2 * s + 2] -= self._k_att * (p[2 * s : 2 * s + 2] - t)
        if self._springs:
            i, j, k, rest, _ = self._spring_arrays()
            e, length = _unit(p, i, j)
            pull = (k * (length - rest))[:, None] * e
            force = force + _pair_force(self._n, i, j, -pull)
        return force

    def _damping_force(self, p: np.ndarray, v: np.ndarray) -> np.ndarray:
        """Global, attractor and element damping forces at ``(p, v)``, shape ``(2n,)``."""
        force = -self._damping * (self._mass().matrix @ v)
        if self._attractor is not None and self._c_att:
            s = self._attractor[0]
            force[2 * s : 2 * s + 2] -= self._c_att * v[2 * s : 2 * s + 2]
        if self._springs:
            i, j, _, _, c = self._spring_arrays()
            e, _ = _unit(p, i, j)
            vv = v.reshape(-1, 2)
            rate = np.sum(e * (vv[i] - vv[j]), axis=1)
            force = force + _pair_force(self._n, i, j, -(c * rate)[:, None] * e)
        return force

    def _has_local_dampers(self) -> bool:
        return (self._attractor is not None and self._c_att > 0.0) or any(
            sp_.damping > 0.0 for sp_ in self._springs
        )

    # ------------------------------------------------------- mass & metrics
    def _mass(self) -> _Mass:
        """Mass data for the current α and m (rebuilt only when they change)."""
        key = (self._alpha, self._total_mass)
        if self._mass_cache is None or self._mass_cache[0] != key:
            lengths = self._cs.lengths
            matrix = mass_matrix(self._template, self._alpha, self._total_mass, lengths=lengths)
            vertex, middle = mass_particles(
                self._template, self._alpha, self._total_mass, lengths=lengths
            )
            e_y = np.zeros(2 * self._n)
            e_y[1::2] = 1.0
            norm = float(np.mean(vertex)) if self._n else 1.0
            self._mass_cache = (key, _Mass(matrix, matrix @ e_y, vertex, middle, norm))
            self._factor_cache = None
        return self._mass_cache[1]

    def _mass_weights(self) -> tuple[np.ndarray, _Layout]:
        """Normalised diagonal weights of the mass metric: vertex particles, then rod middles."""
        mass = self._mass()
        if mass.metric is None:
            mass.metric = self._compute_mass_weights()
        return mass.metric

    def _compute_mass_weights(self) -> tuple[np.ndarray, _Layout]:
        mass = self._mass()
        vertex = np.repeat(mass.vertex, 2)
        # A pinned joint never moves, so its weight changes no motion; a nearly massless
        # one (its only rod short, all mass in the rods) would only make S ill-conditioned.
        light = np.repeat(self._pinned_mask, 2) & (vertex < LIGHT_PINNED * mass.norm)
        vertex[light] = mass.norm
        if self._alpha > NEGLIGIBLE_ROD_MASS and len(self._cs.rods):
            # x rows of all middles, then y rows (see _extra_rows)
            return np.concatenate([vertex, mass.middle, mass.middle]) / mass.norm, _Layout(True)
        return vertex / mass.norm, _Layout(False)

    def _damped_weights(self, h: float) -> tuple[np.ndarray, _Layout]:
        r"""Weights of :math:`M + \tfrac h2 C` for the velocity stage of a damped step."""
        weights, layout = self._mass_weights()
        norm = self._mass().norm
        weights = weights * (1.0 + 0.5 * h * self._damping)
        if self._attractor is not None and self._c_att:
            s = self._attractor[0]
            weights[2 * s : 2 * s + 2] += 0.5 * h * self._c_att / norm
        damped = [spr for spr in self._springs if spr.damping > 0.0]
        if damped:
            layout = _Layout(layout.middles, tuple((spr.i, spr.j) for spr in damped))
            c = np.array([spr.damping for spr in damped])
            weights = np.concatenate([weights, 0.5 * h * c / norm])
        return weights, layout

    def _extra_rows(
        self, p: np.ndarray, layout: _Layout
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        r"""CSR ``(indptr, indices, data)`` of the rows :math:`G v - x_{extra} = 0`.

        Middle particle of rod (i, j): :math:`(v_i + v_j)/2` (x rows, then y rows).
        Damper (i, j): :math:`e \cdot (v_i - v_j)`. Each row ends with the -1 of its
        own extra unknown, whose column (after the ``2n`` vertex columns) is larger
        than any vertex column, so the indices stay sorted.
        """
        if not layout.dampers and layout in self._extra_cache:
            return self._extra_cache[layout]
        n_v = 2 * self._n
        blocks_idx: list[np.ndarray] = []
        blocks_val: list[np.ndarray] = []
        if layout.middles:
            rods = np.sort(self._cs.rods, axis=1)
            for comp in (0, 1):
                blocks_idx.append(2 * rods + comp)
                blocks_val.append(np.full((len(rods), 2), 0.5))
        if layout.dampers:
            pairs = np.array(layout.dampers, dtype=np.int64).reshape(-1, 2)
            e, _ = _unit(p, pairs[:, 0], pairs[:, 1])
            lo, hi = np.minimum(pairs[:, 0], pairs[:, 1]), np.maximum(pairs[:, 0], pairs[:, 1])
            # the value at the lower-numbered vertex comes first in the row
            first = np.where((pairs[:, 0] < pairs[:, 1])[:, None], e, -e)
            blocks_idx.append(np.column_stack([2 * lo, 2 * lo + 1, 2 * hi, 2 * hi + 1]))
            blocks_val.append(np.column_stack([first, -first]))
        if not blocks_idx:
            out = np.zeros(1, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0)
            self._extra_cache[layout] = out
            return out
        indices, data, widths = [], [], []
        first_extra = n_v
        for idx, val in zip(blocks_idx, blocks_val, strict=True):
            extra = np.arange(first_extra, first_extra + len(idx))[:, None]
            first_extra += len(idx)
            indices.append(np.hstack([idx, extra]).reshape(-1))
            data.append(np.hstack([val, -np.ones((len(val), 1))]).reshape(-1))
            widths.append(np.full(len(idx), idx.shape[1] + 1))
        indptr = np.concatenate([[0], np.cumsum(np.concatenate(widths))]).astype(np.int64)
        out = indptr, np.concatenate(indices).astype(np.int64), np.concatenate(data)
        if not layout.dampers:
            self._extra_cache[layout] = out
        return out

    # ------------------------------------------------------------ factors
    def _mass_factor(self, p: np.ndarray) -> _Factor:
        """The mass-metric factor at ``p``, cached while ``p`` and the mass stay the same."""
        key = (self._alpha, self._total_mass)
        cache = self._factor_cache
        if cache is not None and cache[0] is p and cache[1] == key:
            return cache[2]
        fac = self._factor(p, *self._mass_weights())
        self._factor_cache = (p, key, fac)
        return fac

    def _factor(self, p: np.ndarray, weights: np.ndarray, layout: _Layout) -> _Factor:
        """Assemble :math:`C` at ``p`` and factorise its Schur complement for ``weights``."""
        a_mat = self._cs.jacobian(p)  # fixed CSR layout: only the data changes with p
        n_a, n_v = a_mat.shape
        g_indptr, g_indices, g_data = self._extra_rows(p, layout)
        data = np.concatenate([a_mat.data, g_data])
        pattern = self._patterns.get(layout)
        if pattern is None:
            indptr = np.concatenate([a_mat.indptr, a_mat.indptr[-1] + g_indptr[1:]])
            indices = np.concatenate([a_mat.indices, g_indices])
            shape = (n_a + len(g_indptr) - 1, len(weights))
            pattern = self._patterns[layout] = _SchurPattern(indptr, indices, *shape)
        if self._inverse_weights[0] is not weights:  # the mass weights repeat every step
            self._inverse_weights = (weights, 1.0 / weights)
        return _Factor(pattern, data, self._inverse_weights[1], self._mass().norm, n_v, n_a)

    # ------------------------------------------------------------- helpers
    def _residuals(self, p: np.ndarray) -> np.ndarray:
        """:math:`g(p)`, reusing the last projection's evaluation when ``p`` is its point."""
        cache = self._residual_cache
        if cache is not None and cache[0] is p:
            return cache[1]
        return self._cs.residuals(p)

    def _error(self, g: np.ndarray) -> float:
        """Largest relative residual from the scaled residuals ``g`` (to first order in g).

        Equal to :meth:`ConstraintSet.relative_error` up to a factor 1 + O(g), and it
        needs no second evaluation of the constraints.
        """
        return float(np.max(np.abs(g) * self._inv_row_scale)) if g.size else 0.0

    def _set_positions(self, p: np.ndarray) -> None:
        self._p = p
        self._version += 1
        self._factor_cache = None
        # Round-off follows the coordinates: a linkage falling for minutes under gravity
        # ends up far from the origin, where the floor measured at construction is below
        # what float64 can reach, and every RATTLE step would split MAX_SUBSTEP_DEPTH deep.
        self._roundoff = _roundoff(p, self._cs)

    def _spring_arrays(self) -> tuple[np.ndarray, ...]:
        s = self._springs
        return (
            np.array([x.i for x in s], dtype=np.int64),
            np.array([x.j for x in s], dtype=np.int64),
            np.array([x.stiffness for x in s]),
            np.array([x.rest_length for x in s]),
            np.array([x.damping for x in s]),
        )

    def _vertex_index(self, name: str, value: Any) -> int:
        try:
            i = int(value)
        except (TypeError, ValueError):
            raise TypeError(f"{name} must be a vertex index, got {value!r}") from None
        if i != value or not 0 <= i < self._n:
            raise IndexError(f"{name} = {value!r} is not a vertex (there are {self._n} vertices)")
        return i

    def __repr__(self) -> str:
        return (
            f"Simulator({self._n} vertices, mode={self._mode!r}, step_size={self._step_size}, "
            f"status={self._status!r})"
        )


def _roundoff(p: np.ndarray, cs: ConstraintSet) -> float:
    """Smallest relative residual worth iterating for: a few ulps of |p| over the shortest rod."""
    big = max(float(np.max(np.abs(p))) if p.size else 0.0, cs.length_scale)
    short = float(np.min(cs.lengths)) if len(cs.lengths) else cs.length_scale
    return ROUNDOFF_FACTOR * float(np.finfo(float).eps) * big / short


def _unit(p: np.ndarray, i: np.ndarray, j: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Unit vectors from ``j`` to ``i`` and distances, shapes ``(k, 2)`` and ``(k,)``."""
    pts = p.reshape(-1, 2)
    d = pts[i] - pts[j]
    length = np.hypot(d[:, 0], d[:, 1])
    with np.errstate(invalid="ignore", divide="ignore"):
        e = np.where(length[:, None] > 0, d / length[:, None], 0.0)
    return e, length


def _pair_force(n: int, i: np.ndarray, j: np.ndarray, on_i: np.ndarray) -> np.ndarray:
    """Stack forces ``on_i`` (shape ``(k, 2)``) on ``i`` and their opposites on ``j``."""
    out = np.zeros((n, 2))
    np.add.at(out, i, on_i)
    np.add.at(out, j, -on_i)
    return out.reshape(-1)


def _positive(name: str, value: Any) -> float:
    x = _finite(name, value)
    if not x > 0.0:
        raise ValueError(f"{name} must be positive, got {x}")
    return x


def _non_negative(name: str, value: Any) -> float:
    x = _finite(name, value)
    if x < 0.0:
        raise ValueError(f"{name} must be non-negative, got {x}")
    return x


def _finite(name: str, value: Any) -> float:
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a number, got {value!r}") from None
    if not np.isfinite(x):
        raise ValueError(f"{name} must be finite, got {x}")
    return x
