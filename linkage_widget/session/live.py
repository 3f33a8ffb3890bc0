r"""Rigidity analysis on every drawn frame of a drag: counts, the excited flex, a stress.

The full :func:`~linkage_widget.rigidity.analyze` (status, explanation, the whole
velocity basis, the mobility) runs on edits and on release (:mod:`.analysis`).
While a drag moves the joints, :class:`LiveAnalyst` keeps what the readout and
the drawing need current on every frame, at any size. This module is the policy
(which frame analyses, the frame budget, the readout); the maths of tracking the
counts along the drag is :mod:`linkage_widget.rigidity.rank_tracking`'s:

* **DOF and self-stress counts** from the sparse inertia count
  (:func:`~linkage_widget.rigidity.sparse_rank.sparse_rank_report`, milliseconds on a
  Penrose tiling) at a *reference placement* :math:`p_0`. On the next frames the
  counts are **reused without any factorisation** when two facts prove they
  cannot have changed. (1) The rank cannot rise: the count at :math:`p_0` equals
  the generic rank of the graph (the document's pebble game), and no placement
  has a larger rank. (2) It cannot fall: by Weyl's inequality every singular
  value moves by at most :math:`e = \|A(p) - A(p_0)\|_2 \le \|A(p) -
  A(p_0)\|_F`, which costs one evaluation of the Jacobian's entries in their
  fixed sparsity pattern
  (:meth:`~linkage_widget.constraints.ConstraintSet.jacobian_values`), and the
  counts stand while :math:`e\,(1 + \text{rtol})` is below half the gap from the
  threshold to the smallest singular value above it (``sigma_above``). A rigid
  motion of the whole placement changes no singular value
  (:math:`A(Rp + t) = L\,A(p)\,Q^T` with :math:`Q` = diag(R) on the joints and
  :math:`L` orthogonal: identity on the rod and angle rows, :math:`R` on a pin's
  two rows), so :math:`p_0` is first moved onto :math:`p` by the best rotation
  and translation (Procrustes, a 2 x 2 SVD) and :math:`e` measured from there:
  dragging a rigid body never recounts. While also :math:`e \le`
  :data:`~linkage_widget.rigidity.tolerances.ARROW_DRIFT` :math:`\sigma_{above}` (by
  Wedin's theorem the flex space
  turned by about that much at most) the arrows come from :math:`p_0`'s cached
  kernel, rotated by :math:`Q`. At a special
  placement (more flexes than the graph's: a grid's aligned rows, the Penrose
  files' rounded flex) fact (1) is not available: Weyl would have to keep the
  near-zero singular values below the threshold, which only a drift below
  ``rtol`` does, so there the count is made again on every frame — as it is
  after the joints moved far.
* **Counting again, cheaply.** A frame that Weyl's bound does not cover counts by
  Sylvester's inertia alone (:class:`~linkage_widget.rigidity.inertia.OrderedInertia`: one sparse
  factorisation, in the fill-reducing ordering of the structural pattern computed
  once per reference), or, up to
  :data:`~linkage_widget.rigidity.rank_tracking.DENSE_COUNT_MAX` rows or columns, by one
  dense SVD at the report's own threshold (a hundredth of the sparse route's time on
  a Peaucellier, a quarter of a new report's on penrose2t, whose special placement
  has no inertia probe and made a new report on every frame). The same count as the
  reference's means no singular placement was crossed (between singular placements
  the rank does not change): the reference's report, bases and gap stay. Only a
  different count (or no inertia) makes a new reference, with the full sparse report (Lanczos check,
  gap, bases). The readout says which: "reused", "inertia" or "recounted".
  The tolerance is ``analyze``'s (:data:`LIVE_RTOL`, scale-aware). The inertia
  of the squared matrix resolves relative thresholds only down to
  :data:`~linkage_widget.rigidity.tolerances.INERTIA_RTOL` (1e-7): below, it counts at
  1e-7, which gives the reference's count only when the reference saw no
  singular value up to 3e-7 above its threshold (else every frame recounts).
* **What is reused**: the :class:`~linkage_widget.constraints.ConstraintSet`
  (index arrays, sparsity pattern, rest lengths) and the pebble game per
  structure version; per reference placement the counts, the trivial-motion
  count, the report's lazily built bases and the augmented LU of its
  projection, and the inertia's ordering. Per frame: the Jacobian's values, a
  Procrustes fit and a norm, and at most one numerical factorisation.
* **The flex the drag excites** (not the whole basis): on frames that reuse
  the count (and with at most
  :data:`~linkage_widget.rigidity.rank_tracking.EXCITED_MAX_DOF` flexes), the pull at the
  dragged joint projected on :math:`\ker A`
  (:meth:`~linkage_widget.rigidity.sparse_rank.SparseRankReport.excited_motion`,
  :math:`KK^Tv` from the reference's kernel, built once). On frames that count
  again, or with more flexes, the frame's own step :math:`p - p_{prev}`: the
  simulator has just solved the constrained problem for this pull, so the step
  lies in :math:`\ker A` to second order in its length, at no cost (the kernel's
  refinement would be a second sparse factorisation). Its rigid-body part is
  removed (shown alone when nothing internal moves).
* **The stress colours** (only when shown): the rod part of the first
  self-stress, recomputed when the counts change or the Jacobian drifted by
  :data:`STRESS_DRIFT` of :math:`\sigma_{max}` since (a visual cue: the colours
  belong to a placement within about that much of the current one).
* **Redundant rods**: from the document's incremental pebble game (structure only).

Above :data:`LIVE_SYNC_MAX_JOINTS` joints, or when one live analysis costs more
than :data:`LIVE_FRAME_BUDGET_S`, it is throttled to every ``k`` frames and the
readout says "analysis k frames behind" on the frames between: it never
switches off.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..constraints import ConstraintSet
from ..model import Linkage
from ..rigidity import (
    RankReference,
    SparseRankReport,
    excited_flex,
    first_rod_stress,
)
from .motion_driver import Target

__all__ = [
    "LIVE_FRAME_BUDGET_S",
    "LIVE_RTOL",
    "LIVE_SYNC_MAX_JOINTS",
    "LiveAnalyst",
    "LiveState",
    "Motion",
    "STRESS_DRIFT",
    "pull",
]

#: The rank tolerance: analyze's default (scale-aware: round-off, or the data's rounding).
LIVE_RTOL = "auto"
#: Up to this many joints the live analysis runs on every drawn frame, whatever it costs.
LIVE_SYNC_MAX_JOINTS = 5000
#: Above it, the analysis runs every k frames, k = ceil(cost / budget).
LIVE_FRAME_BUDGET_S = 0.030
#: The stress colours are recomputed once the Jacobian drifted by this fraction of sigma_max.
STRESS_DRIFT = 0.01


@dataclass(frozen=True, eq=False)
class LiveState:
    r"""The live analysis of one drawn frame.

    Attributes
    ----------
    frame : int
        Index of the drawn frame whose placement was analysed.
    dof, trivial_dof, internal_dof, self_stresses : int
        Counts at that placement (``trivial_dof`` from the rigid motions the pins leave).
    excited : ndarray, shape (n, 2), or None
        Unit flex the current pull excites (``None`` without a drag or when rigid).
    rod_stress : ndarray, shape (m,), or None
        Rod part of the first self-stress, largest entry a tension (positive).
    reused : bool
        Counts reused from the reference placement (Weyl bound), no factorisation.
    drift : float
        :math:`\|A(p) - A(p_0)\|_F` relative to :math:`\sigma_{max}`.
    cost : float
        Seconds this frame's analysis took (the session's clock: what the frame waits).
    cpu : float
        CPU seconds of the process meanwhile (robust on a loaded machine).
    kind : str
        ``"reused"`` (Weyl bound, no factorisation), ``"inertia"`` (one factorisation
        in the kept ordering, or a dense SVD of a small matrix, found the reference's
        count) or ``"recounted"`` (a new
        reference: the full sparse report).
    method : str
        The sparse report's method, or "reused (Weyl bound ...)".
    """

    frame: int
    dof: int
    trivial_dof: int
    internal_dof: int
    self_stresses: int
    excited: np.ndarray | None
    rod_stress: np.ndarray | None
    reused: bool
    drift: float
    cost: float
    method: str
    cpu: float = 0.0
    kind: str = "recounted"

    def lines(self, behind: int) -> list[str]:
        """Readout lines; ``behind`` frames drawn since this analysis."""
        lag = (
            f"analysis {behind} frame{'s' * (behind != 1)} behind"
            if behind > 0
            else f"analysis live: frame {self.frame}"
        )
        how = self.kind
        return [
            f"DOF {self.dof} = {self.trivial_dof} trivial + {self.internal_dof} internal",
            f"self-stresses: {self.self_stresses}",
            f"{lag} ({how}, {1e3 * self.cost:.1f} ms)",
        ]


class LiveAnalyst:
    """Per-frame analysis during a drag (module docstring); one per session."""

    def __init__(self, clock: Callable[[], float] = time.perf_counter) -> None:
        self.clock = clock  # the session's: the cost and the frame budget read it only
        self.state: LiveState | None = None
        self.version = -1  # structure version of the kept symbolic data
        self.pos_version = -1  # the session's position version the state is of
        self.drawn = 0  # frames drawn so far (the session counts them)
        self.unmoved_through = -1  # the last drawn frame that showed the analysed placement
        self.recounts = 0  # full sparse reports made (tests: reuse must skip most)
        self.inertia_counts = 0  # follow-up counts by the inertia alone
        self._cs: ConstraintSet | None = None
        self._ref: RankReference | None = None
        self._next = 0  # throttled: first frame that may analyse again
        self._stress_kept: tuple[tuple[int, int], np.ndarray, np.ndarray | None] | None = None

    def follow(
        self, linkage: Linkage, at: tuple[int, int, int], motion: Motion, drawn: bool = False
    ) -> str:
        """Analyse the placement of the frame about to be drawn, when due; ``""`` or the error.

        ``at``: the structure and position versions and the graph's generic rank;
        ``drawn``: the frame is drawn already (the first of a drag).
        """
        version, pos_version, generic_rank = at
        frame = self.drawn + (0 if drawn else 1)
        if not self.due(frame, linkage.n_vertices):
            return ""
        try:
            self.analyse(linkage, version, frame, motion, generic_rank)
        except Exception as exc:  # noqa: BLE001 - the full analysis on release still runs
            return f"live analysis failed: {exc}"
        self.pos_version = pos_version
        return ""

    def now(self, version: int, report_pos: int, running: bool) -> LiveState | None:
        """The live state, unless the full report is newer (or as new and the motion stopped).

        ``report_pos``: the position version of the full report of structure ``version``
        (-1 without one).
        """
        if self.behind(version) is None:
            return None
        if report_pos > self.pos_version or (report_pos == self.pos_version and not running):
            return None
        return self.state

    def count_drawn(self, pos_version: int) -> None:
        """A frame is drawn at position version ``pos_version``."""
        self.drawn += 1
        if self.pos_version == pos_version:
            self.redrawn_unmoved()  # the live analysis still shows this placement

    def reset(self, version: int, linkage: Linkage) -> None:
        """Forget the placement; rebuild the symbolic data for structure ``version``."""
        if version != self.version or self._cs is None:
            self._cs = ConstraintSet.from_linkage(linkage)
            self.version = version
        self._ref, self.state, self._next, self._stress_kept = None, None, 0, None
        self.unmoved_through = -1

    def due(self, frame: int, n_vertices: int) -> bool:
        """Whether to analyse at ``frame`` (always up to the joint limit or within budget)."""
        return n_vertices <= LIVE_SYNC_MAX_JOINTS or frame >= self._next

    def behind(self, version: int) -> int | None:
        """Frames drawn at another placement since the live state's (``None``: no live state).

        A frame drawn while nothing moved (the pointer's hint changed, the motion waited)
        shows the analysed placement still: it is not behind (:meth:`redrawn_unmoved`).
        """
        if self.state is None or self.version != version:
            return None
        return max(0, self.drawn - max(self.state.frame, self.unmoved_through))

    def redrawn_unmoved(self) -> None:
        """The frame just drawn shows the live state's placement (the joints did not move)."""
        if self.state is not None:
            self.unmoved_through = self.drawn

    def analyse(
        self,
        linkage: Linkage,
        version: int,
        frame: int,
        motion: Motion | None = None,
        generic_rank: int | None = None,
    ) -> LiveState:
        """Analyse ``linkage`` for drawn ``frame``.

        ``motion`` says what the drag does and what is shown; ``generic_rank`` is the
        graph's generic rank (pins count 2 each), which lets the counts be reused
        (module notes).
        """
        t0 = (self.clock(), time.process_time())
        if version != self.version or self._cs is None:
            self.reset(version, linkage)
        assert self._cs is not None
        values = self._cs.jacobian_values(linkage.vertices)
        ref, drift, rot = self._ref, math.inf, np.eye(linkage.dim)
        if ref is not None:
            rot, drift = ref.drift(self._cs, linkage.vertices, values)
        reused = ref is not None and drift <= ref.budget
        kind = "reused" if reused else "inertia"
        # shown stress colours come from the reference's report: a new one once it drifted
        stale = ref is not None and motion is not None and motion.stresses
        stale = stale and drift > STRESS_DRIFT * max(ref.report.sigma_max, 0.0)
        if not reused and (stale or not self._same_count(linkage, ref)):
            ref = self._recount(linkage, values, generic_rank)
            drift, rot, kind = 0.0, np.eye(linkage.dim), "recounted"
        assert ref is not None
        motion = motion or Motion()
        stale = drift > ref.arrow_budget and drift > 0
        if (stale or kind == "recounted") and motion.step is not None:
            # A stale kernel, or a fresh one not built yet (its refinement is a second
            # factorisation): the frame's own step is the excited flex, at no cost.
            motion = Motion(None, motion.step, motion.arrows, motion.stresses)
        state = self._state(linkage, ref, frame, motion, (kind, drift, values, rot), t0)
        self.state = state
        if linkage.n_vertices > LIVE_SYNC_MAX_JOINTS:
            self._next = frame + max(1, math.ceil(state.cost / LIVE_FRAME_BUDGET_S))
        return state

    def _same_count(self, linkage: Linkage, ref: RankReference | None) -> bool:
        """Whether one follow-up count (inertia or a dense SVD) finds the reference's count."""
        if ref is None or self._cs is None:
            return False
        same = ref.same_count(self._cs, linkage)
        if same is None:
            return False  # no probe (a special placement): nothing computed here
        self.inertia_counts += 1
        return same

    def _recount(
        self, linkage: Linkage, values: np.ndarray, generic_rank: int | None
    ) -> RankReference:
        """A new reference placement: the sparse count there (bases stay lazy)."""
        self._ref = RankReference.count(linkage, values, generic_rank, LIVE_RTOL)
        self.recounts += 1
        return self._ref

    def _state(
        self,
        linkage: Linkage,
        ref: RankReference,
        frame: int,
        motion: Motion,
        how: tuple[str, float, np.ndarray, np.ndarray],
        t0: tuple[float, float],
    ) -> LiveState:
        kind, drift, values, rot = how
        r = ref.report
        trivial = min(ref.trivial, r.dof)
        excited = excited_flex(linkage, r, rot, motion.pull, motion.step) if motion.arrows else None
        stress = self._stress(linkage, r, values) if motion.stresses else None
        smax = r.sigma_max if r.sigma_max > 0 else 1.0
        method = {
            "reused": f"reused (Weyl bound, drift {drift / smax:.1e})",
            "inertia": "inertia in the kept ordering: the reference's count",
        }.get(kind, r.method)
        return LiveState(
            frame, r.dof, trivial, r.dof - trivial, r.self_stresses, excited, stress,
            kind == "reused", drift / smax, self.clock() - t0[0], method,
            time.process_time() - t0[1], kind,
        )  # fmt: skip

    def _stress(
        self, linkage: Linkage, report: SparseRankReport, values: np.ndarray
    ) -> np.ndarray | None:
        """The kept stress colours, recomputed when the counts changed or drifted."""
        kept = self._stress_kept
        smax = report.sigma_max if report.sigma_max > 0 else 1.0
        if kept is not None:
            counts, at, stress = kept
            same = counts == (report.dof, report.self_stresses) and len(at) == len(values)
            if same and np.linalg.norm(values - at) <= STRESS_DRIFT * smax:
                return stress
        stress = first_rod_stress(report, linkage.n_rods)
        self._stress_kept = ((report.dof, report.self_stresses), values, stress)
        return stress


def pull(vertices: np.ndarray, target: Target | None) -> np.ndarray | None:
    """The pull of ``target`` on its joint, shape (n, d), zero elsewhere; ``None`` without.

    ``vertices`` (n, d): the positions; in space the pull is (x, y, z).
    """
    if target is None:
        return None
    out = np.zeros_like(vertices)
    out[target.vertex] = np.asarray(target.point) - vertices[target.vertex]
    return out


@dataclass(frozen=True)
class Motion:
    """What the frame's drag does and what the drawing shows.

    Attributes
    ----------
    pull : ndarray, shape (n, 2), or None
        The pull on the dragged joint (target minus position), zero elsewhere.
    step : ndarray, shape (n, 2), or None
        The displacement the frame's step made.
    arrows, stresses : bool
        Whether the flex arrows and the stress colours are shown.
    """

    pull: np.ndarray | None = None
    step: np.ndarray | None = None
    arrows: bool = True
    stresses: bool = True
