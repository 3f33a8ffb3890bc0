"""The rigidity analysis of a session: now or in a worker thread, throttled, versioned.

An :class:`Analyst` keeps the last :class:`~linkage_widget.rigidity.RigidityReport`
and the versions of the model it belongs to: ``version`` counts edits of the
structure (rods, pins, ...), ``pos_version`` changes of positions. Small
linkages, and sessions without a running event loop (scripts, tests), are
analysed at once; big ones in one background thread, so that the animation
keeps its frame rate (:meth:`Analyst.refresh`). When the thread is done, the
session's callback hands the future back to :meth:`Analyst.finish`, which keeps the
report if it is still of the current structure and says whether to analyse again
(the session shows the report, or the error).

For linkages of at most :data:`READOUT_MOBILITY_MAX_JOINTS` joints the report
carries the mobility too (:func:`~linkage_widget.rigidity.local_dimension.mobility`: does
the placement really move, and how many ways), which the readout states in plain
words on its ``motion:`` line; it is computed with the analysis, never per frame.

This full analysis (status, explanation, whole velocity basis, mobility) runs
during a motion only for linkages of at most :data:`LIVE_ANALYSIS_MAX_2N`
coordinates whose analysis took at most :data:`LIVE_ANALYSIS_MAX_COST_S`, and at
most every ``max(0.1 s, 5 x cost)``; otherwise when the motion stops. What the
readout and the drawing need on every frame of a drag — the DOF and stress
counts, the flex the drag excites, the stress colours — is kept live at any size
by :mod:`.live` (sparse counts, reused between recounts), and the redundant rods
come from the document's incremental pebble game.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import numpy as np

from ..model import Linkage
from ..rigidity import RigidityReport, analyze

__all__ = [
    "LIVE_ANALYSIS_MAX_2N",
    "LIVE_ANALYSIS_MAX_COST_S",
    "READOUT_MOBILITY_MAX_JOINTS",
    "Analyst",
    "running_loop",
    "shown_motions",
    "timed_analyze",
]

#: Re-analyse during a motion only up to this many coordinates (dense SVD ~ (2n)^3).
LIVE_ANALYSIS_MAX_2N = 400
LIVE_ANALYSIS_MAX_COST_S = 0.025  # ... and only if one analysis takes at most this
#: The readout states the mobility (does it really move?) up to this many joints.
READOUT_MOBILITY_MAX_JOINTS = 30

_EXECUTOR: ThreadPoolExecutor | None = None


def _executor() -> ThreadPoolExecutor:
    # One worker: analyses queue instead of competing with the animation for the CPU.
    global _EXECUTOR
    if _EXECUTOR is None:
        _EXECUTOR = ThreadPoolExecutor(max_workers=1, thread_name_prefix="linkage-analysis")
    return _EXECUTOR


def running_loop() -> asyncio.AbstractEventLoop | None:
    """The kernel's running event loop, or ``None`` (scripts, tests: run synchronously)."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def timed_analyze(
    linkage: Linkage, clock: Callable[[], float] = time.perf_counter
) -> tuple[RigidityReport, float]:
    """The analysis and its compute time in seconds of ``clock`` (in the worker thread).

    Up to :data:`READOUT_MOBILITY_MAX_JOINTS` joints it includes the mobility (the
    readout's "motion:" line): once per analysis, never per frame.
    """
    t0 = clock()
    report = analyze(linkage, with_mobility=linkage.n_vertices <= READOUT_MOBILITY_MAX_JOINTS)
    return report, clock() - t0


def shown_motions(report: RigidityReport | None) -> np.ndarray | None:
    """The velocity arrows worth drawing: the internal flexes, or the rigid motions if none.

    The basis lists the trivial (rigid-body) motions first. Next to a flex they
    only add a sea of parallel arrows that hides it.
    """
    if report is None:
        return None
    basis = report.velocity_basis
    return basis[report.trivial_dof :] if report.internal_dof > 0 else basis


class Analyst:
    """The last analysis of a session, the versions it belongs to, and the thread's state."""

    def __init__(self, clock: Callable[[], float] = time.perf_counter) -> None:
        self.clock = clock  # the session's: its throttle reads time only through it
        self.report: RigidityReport | None = None
        self.version = -1  # structure version the report belongs to
        self.pos_version = -1  # position version it belongs to
        self.cost = 0.0  # seconds the last analysis took
        self._time = -math.inf  # when the last one was stored or started
        self.busy = False  # an analysis runs in the thread
        self.pending = False  # another one was asked for meanwhile

    def fresh(self, version: int) -> bool:
        """Whether the report belongs to structure ``version``."""
        return self.report is not None and self.version == version

    def live(self, n_vertices: int) -> bool:
        """Whether to re-analyse during motion: small and cheap enough (else on release)."""
        return 2 * n_vertices <= LIVE_ANALYSIS_MAX_2N and self.cost <= LIVE_ANALYSIS_MAX_COST_S

    def throttled(self) -> bool:
        """Whether a live re-analysis now would come too soon after the last one."""
        return self.clock() - self._time < max(0.1, 5.0 * self.cost)

    def store(self, report: RigidityReport, cost: float, version: int, pos_version: int) -> None:
        """Keep ``report`` (of the model at ``version``/``pos_version``), computed in ``cost`` s."""
        self.report = report
        self.version = version
        self.pos_version = pos_version
        self.cost = cost
        self._time = self.clock()

    def refresh(
        self,
        linkage: Linkage,
        at: tuple[int, int],
        sync: bool | None,
        live: bool,
        done: Callable[[asyncio.Future[Any], tuple[int, int]], object],
    ) -> bool:
        """Analyse ``linkage`` (of versions ``at``); return whether it was analysed and stored now.

        Now when ``sync`` or without a running loop; else in the worker thread, and
        ``done(future, at)`` is called on the loop when it ends (the caller passes the
        future to :meth:`finish`). ``live``: a re-analysis during motion, skipped while
        :meth:`throttled`.
        """
        if live and self.throttled():
            return False
        loop = running_loop()
        if sync or loop is None:
            self.store(*timed_analyze(linkage, self.clock), *at)
            return True
        fut = self.start(loop, linkage, live)
        if fut is not None:
            fut.add_done_callback(lambda f: done(f, at))
        return False

    def start(
        self, loop: asyncio.AbstractEventLoop, linkage: Linkage, live: bool
    ) -> asyncio.Future[Any] | None:
        """Analyse a copy of ``linkage`` in the worker thread; ``None`` if one runs already.

        When one runs, the request is remembered (:attr:`pending`): the caller
        starts another when the running one is done.
        """
        if self.busy:
            if not live:
                self._time = -math.inf
            self.pending = True
            return None
        self.busy = True
        self.pending = False
        self._time = self.clock()
        return loop.run_in_executor(_executor(), timed_analyze, linkage.copy(), self.clock)

    def finish(
        self, fut: Future[Any] | asyncio.Future[Any], at: tuple[int, int], version: int
    ) -> tuple[str, bool]:
        """Take the result of a finished :meth:`start` of versions ``at``; ``(error, again)``.

        The report is stored when its structure version is still ``version``, the
        current one. ``error``: why the analysis failed (``""``: it did not); ``again``:
        analyse anew (asked for meanwhile, or the structure changed).
        """
        self.busy = False
        try:
            report, cost = fut.result()
        except Exception as exc:  # noqa: BLE001 - the session shows it and keeps working
            return f"analysis failed: {exc}", False
        if at[0] == version:
            self.store(report, cost, *at)
        return "", self.pending or at[0] != version
