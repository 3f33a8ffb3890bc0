r"""The synthesis tool: a curve drawn (or given), the linkages that trace it, one loaded.

With the toolbar's ``synthesis`` tool a drag on the canvas draws a *target curve*
(world points, the model's units and frame); when the pointer is released the curve is
resampled evenly by arc length and :func:`~linkage_widget.synthesis.path_synthesis`
finds the mechanisms whose coupler point traces it, best first. A curve can be given
from code too (``LinkageSession.synthesize(points, k=...)``). Choosing candidate
:math:`i` (``LinkageSession.choose_candidate(i)``, or a click on its thumbnail in the
widget) loads its linkage as **one undoable edit**: the motor on its crank
(``Motor(pivot, tip, speed)``, the convention of ``Simulator.add_motor``) turning, its
coupler joint tracked, so the path it traces is drawn beside the target curve, which
stays drawn (dashed) until the next curve. The action ``show_cognates`` puts the
loaded four-bar and its two Roberts–Chebyshev cognates
(:func:`~linkage_widget.synthesis.cognate_candidates`) in the candidates' place: three
four-bars, one coupler curve, each loaded with one click like a search's.

Bad input — too few points, a degenerate curve (all its points in one place), a
non-finite point, no mechanism that traces it, a 3-D linkage — raises ``ValueError``
with the reason; the session shows it as its error and nothing else changes: the
linkage, the target and the candidates shown stay as they were.

:class:`SynthesisTool` holds the stroke being drawn, the target and the candidates; it
holds no reference to the session (values in, values out): its handlers take it, the
:class:`~.outcome.Situation` and the action's arguments, and return an
:class:`~.outcome.Outcome` whose ``edit`` the session applies as one undo step.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from ..draw import INFO_PANEL_LINES, CandidateThumb, PanelPicture, candidate_sheet, sheet_cell
from ..elements import Motor
from ..io import Extensions
from ..model import Linkage
from ..synthesis import cognate_candidates, path_synthesis
from .analysis import running_loop
from .document import Document
from .outcome import Outcome, Situation
from .space_view import fitted_view

__all__ = [
    "MIN_POINTS",
    "STROKE_SAMPLES",
    "SynthesisTool",
    "resampled",
    "synthesis_handlers",
    "target_curve",
]

#: The fewest distinct points a target curve may have: the four-bar's nine design
#: parameters (two pivots, four lengths, the coupler point's two coordinates ... less
#: the similarity the search fits) need at least as many points as unknowns, and one more.
MIN_POINTS = 10
#: A drawn stroke is resampled to this many points, evenly spaced along its length.
STROKE_SAMPLES = 64
#: A stroke spanning fewer pixels than this is a click, not a curve.
MIN_STROKE_PX = 20.0
#: A curve smaller than this (relative to its distance from the origin) is one point.
DEGENERATE_RTOL = 1e-9
#: The loaded mechanism's crank speed (rad/s), signed to trace the curve the way it was drawn.
MOTOR_SPEED = 1.0


def target_curve(points: Any) -> np.ndarray:
    """``points`` checked as a target curve: ``(K, 2)`` finite, distinct, not one point.

    Consecutive repeats are dropped (a mouse at rest sends one point several times).
    Raises ``ValueError`` saying what is wrong (and where, for a non-finite point).
    """
    try:
        p = np.asarray(points, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"a target curve is (K, 2) points (x, y): {exc}") from None
    if p.ndim != 2 or p.shape[1] != 2:
        raise ValueError(f"a target curve is (K, 2) points (x, y); got shape {p.shape}")
    bad = np.flatnonzero(~np.isfinite(p).all(axis=1))
    if len(bad):
        raise ValueError(f"the target curve has a non-finite point (NaN or inf) at row {bad[0]}")
    p = _without_repeats(p)
    if len(p) < MIN_POINTS:
        raise ValueError(
            f"a target curve needs at least {MIN_POINTS} distinct points (a four-bar has "
            f"9 design unknowns); got {len(p)}: draw a longer curve or give more points"
        )
    size = float(np.ptp(p, axis=0).max())
    if size <= DEGENERATE_RTOL * max(float(np.abs(p).max()), 1.0):
        raise ValueError("the target curve is degenerate: all its points are in one place")
    return p


def _without_repeats(p: np.ndarray) -> np.ndarray:
    """``p (K, 2)`` without consecutive repeats (a mouse at rest sends one point several times)."""
    keep = np.ones(len(p), dtype=bool)
    keep[1:] = np.any(p[1:] != p[:-1], axis=1)
    return p[keep]


def resampled(points: np.ndarray, count: int = STROKE_SAMPLES) -> np.ndarray:
    r"""``count`` points evenly spaced along the polyline ``points`` ``(K, 2)`` by arc length.

    With :math:`s_j = \sum_{i<j} |p_{i+1} - p_i|` the arc length at point :math:`j`,
    the samples are the polyline at :math:`s = L\,t` for :math:`t` evenly in
    :math:`[0, 1]` (linear between the points). A mouse sends points unevenly (fast
    strokes sparse, slow ones dense); the search reads the curve's shape, not its pace.
    """
    p = _without_repeats(np.asarray(points, dtype=np.float64))  # no arc length between them
    s = np.concatenate([[0.0], np.cumsum(np.linalg.norm(np.diff(p, axis=0), axis=1))])
    at = np.linspace(0.0, s[-1], int(count))
    return np.column_stack([np.interp(at, s, p[:, 0]), np.interp(at, s, p[:, 1])])


def _crank_speed(candidate: Any) -> float:
    """The motor's speed: :data:`MOTOR_SPEED`, signed as the crank turns along the curve."""
    angles = np.asarray(getattr(candidate, "angles", ()), dtype=np.float64).ravel()
    turn = float(np.nansum(np.diff(np.unwrap(angles)))) if len(angles) > 1 else 0.0
    return -MOTOR_SPEED if turn < 0 else MOTOR_SPEED


class SynthesisTool:
    """The stroke being drawn, the target curve and its candidates (module docstring).

    Parameters
    ----------
    search : callable, optional
        ``search(points, *, kind, k) -> candidates`` (default
        :func:`~linkage_widget.synthesis.path_synthesis`); tests may give another.

    Attributes
    ----------
    target : ndarray, shape (K, 2), or None
        The last curve searched (world), drawn dashed until the next one.
    candidates : list
        Its candidates, best first (each with ``linkage``, ``coupler``, ``motor``,
        ``error``, ``curve``, ``grashof`` ...).
    chosen : int or None
        The candidate last loaded.
    version : int
        Bumped whenever the candidates change (a view redraws its thumbnails).
    """

    def __init__(self, search: Callable[..., Any] | None = None) -> None:
        self.search = search if search is not None else path_synthesis
        self.stroke: list[np.ndarray] = []  # world points of the stroke being drawn
        self._stroke_px: list[tuple[float, float]] = []
        self.target: np.ndarray | None = None
        self.candidates: list[Any] = []
        self.chosen: int | None = None
        self.version = 0
        self.kind = "four-bar"
        self.k = 5
        self.pending: asyncio.Future[Any] | None = None  # a search running in a thread
        self._pending_ask: tuple[np.ndarray, str, int] = (np.zeros((0, 2)), self.kind, self.k)

    # ---------------------------------------------------------------- stroke
    def begin(self, world: Any, px: tuple[float, float]) -> None:
        """A stroke starts at world point ``world`` (pixel ``px``)."""
        self.stroke, self._stroke_px = [np.asarray(world, np.float64)[:2]], [px]

    def extend(self, world: Any, px: tuple[float, float]) -> None:
        """The stroke goes on to ``world`` (pixel ``px``); nothing when none is drawn."""
        if self.stroke:
            self.stroke.append(np.asarray(world, np.float64)[:2])
            self._stroke_px.append(px)

    def finish(self) -> np.ndarray:
        """The stroke ends: its curve, resampled by arc length; the stroke is forgotten.

        Raises ``ValueError`` when it is too short to be a curve (a click).
        """
        stroke, px = self.stroke, np.asarray(self._stroke_px, dtype=np.float64).reshape(-1, 2)
        self.drop_stroke()
        if len(px) < 2 or float(np.ptp(px, axis=0).max()) < MIN_STROKE_PX:
            raise ValueError(
                "the stroke is too short to be a curve: with the synthesis tool, drag the"
                " pointer along the path the linkage should trace"
            )
        # resampled first: a fast stroke sends few points, yet its path is a curve
        return target_curve(resampled(np.array(stroke)))

    def drop_stroke(self) -> None:
        """Forget the stroke being drawn (a release, or a gesture cancelled)."""
        self.stroke, self._stroke_px = [], []

    # ---------------------------------------------------------------- search
    def _asked(self, points: Any, kind: str | None, k: int | None) -> tuple[np.ndarray, str, int]:
        """The search asked for: the checked target, the kind and the count."""
        target = target_curve(points)
        if k is not None and (isinstance(k, bool) or not isinstance(k, (int, np.integer))):
            raise ValueError(f"the number of candidates k must be a whole number, got {k!r}")
        return target, self.kind if kind is None else str(kind), self.k if k is None else int(k)

    def run(self, points: Any, kind: str | None = None, k: int | None = None) -> str:
        """Search linkages tracing ``points`` ``(K, 2)``; keep them; what to say.

        Nothing changes when it raises ``ValueError`` (bad points, nothing found).
        """
        target, kind, k = self._asked(points, kind, k)
        said = self._keep(target, kind, k, list(self.search(target, kind=kind, k=k)))
        self.pending = None  # a stroke's search still running is superseded
        return said

    def start(self, points: Any, loop: asyncio.AbstractEventLoop) -> asyncio.Future[Any]:
        """Search in a worker thread of ``loop`` (the kernel stays responsive); the job.

        Bad points raise ``ValueError`` at once. The job's end (its callbacks run in the
        loop's thread) is applied by :meth:`take`; a newer search replaces it.
        """
        target, kind, k = self._asked(points, None, None)
        job = loop.run_in_executor(None, partial(self.search, target, kind=kind, k=k))
        self.pending, self._pending_ask = job, (target, kind, k)
        return job

    def take(self, job: Any) -> str | None:
        """Apply the end of search ``job`` (:meth:`start`): what to say; ``None``: stale.

        Raises what the search raised, or ``ValueError`` when it found nothing.
        """
        if job is not self.pending:
            return None  # a newer stroke's search replaced it
        self.pending = None
        return self._keep(*self._pending_ask, list(job.result()))

    def _keep(self, target: np.ndarray, kind: str, k: int, found: list[Any]) -> str:
        """Keep what a search ``found`` for ``target`` (nothing changed when it is empty)."""
        if not found:
            raise ValueError(f"no {kind} found that traces this curve: try a simpler curve")
        self.target, self.candidates, self.chosen = target, found, None
        self.kind, self.k, self.version = kind, k, self.version + 1
        best, note = found[0], getattr(found[0], "note", "")  # note: why a fit is poor
        return (
            f"{len(found)} {kind} candidates (best RMS error {best.error:.3g}"
            f"{'; ' + note if note else ''}): click one (or choose_candidate(i)) to load it"
        )

    def keep_cognates(self, found: list[Any]) -> str:
        """Show the three cognates ``found`` (:func:`.cognate_candidates`) as the candidates.

        The target is the original's coupler curve; the kind and count of the next
        search stay as they were.
        """
        self.target, self.candidates, self.chosen = np.asarray(found[0].curve), found, None
        self.version, self.pending = self.version + 1, None  # a search running is superseded
        rocking = [i + 1 for i, c in enumerate(found) if not c.traverses]
        also = f" ({', '.join(map(str, rocking))}: no crank turns fully)" if rocking else ""
        return (
            "the linkage and its two Roberts–Chebyshev cognates: three four-bars, one "
            f"coupler curve{also}; click one to load it"
        )

    def candidate(self, i: int) -> Any:
        """Candidate ``i``; ``IndexError`` saying how many there are."""
        if not self.candidates:
            raise IndexError("no candidates: draw a curve with the synthesis tool first")
        if not 0 <= int(i) < len(self.candidates):
            n = len(self.candidates)
            raise IndexError(f"no candidate {i}: there are {n} (0 to {n - 1})")
        return self.candidates[int(i)]

    def curves(self) -> tuple[np.ndarray, ...]:
        """What the canvas draws: the target curve, then the stroke being drawn (world)."""
        shown = [] if self.target is None else [self.target]
        if len(self.stroke) > 1:
            shown.append(np.array(self.stroke))
        return tuple(shown)

    def sheet(self, message: str = "") -> PanelPicture:
        """The candidates as thumbnails, the chosen one outlined (:func:`.candidate_sheet`)."""
        thumbs = [
            CandidateThumb(
                c.linkage.vertices,
                c.linkage.rods,
                c.linkage.pinned.tolist(),
                int(c.coupler),
                np.asarray(c.curve),
                float(c.error),
                getattr(c, "grashof", None),
                getattr(c, "note", ""),
            )  # fmt: skip
            for c in self.candidates
        ]
        return candidate_sheet(thumbs, self.target, self.chosen, message)

    def pick(self, x: float, y: float) -> int | None:
        """The candidate whose thumbnail is under pixel ``(x, y)`` of :meth:`sheet`, or None."""
        return sheet_cell(x, y, len(self.candidates))

    def clear(self) -> None:
        """Forget the target, the candidates and a search running (the linkage stays)."""
        self.drop_stroke()
        self.target, self.candidates, self.chosen, self.pending = None, [], None, None
        self.version += 1


def _load(candidate: Any, speed: float, said: str, doc: Document) -> str:
    """The edit: the candidate's linkage, its motor, its coupler tracked (one undo step)."""
    linkage: Linkage = candidate.linkage.copy()
    pivot, tip = (int(v) for v in candidate.motor)
    ext = Extensions(tracked=(int(candidate.coupler),), motors=(Motor(pivot, tip, speed),))
    doc.replace(linkage, ext)
    return said


def _planar(now: Situation) -> None:
    if now.linkage.dim != 2:
        raise ValueError("the synthesis tool draws planar curves: load a planar linkage first")


def stroke_begin(tool: SynthesisTool, now: Situation, x: float, y: float) -> Outcome:
    """The synthesis tool's press at pixel ``(x, y)``: a target curve starts there."""
    _planar(now)
    tool.begin(now.world(x, y), (x, y))
    return Outcome(message="drawing a target curve: release to find linkages tracing it")


def stroke_to(tool: SynthesisTool, now: Situation, x: float, y: float) -> Outcome:
    """The stroke goes on to pixel ``(x, y)`` (drawn with the next frame)."""
    tool.extend(now.world(x, y), (x, y))
    return Outcome(finish="draw")


def stroke_end(
    tool: SynthesisTool, run: Callable[..., object], now: Situation, x: float, y: float
) -> Outcome:
    """The stroke ends at pixel ``(x, y)``: the search runs on its curve.

    With a running event loop (the widget) in a worker thread: the search takes seconds,
    and the kernel stays responsive meanwhile; its end is carried out by
    ``run("synthesis_found", job)`` in the loop's thread. Without one (a script, a test):
    now.
    """
    _planar(now)  # said at the press already: said again, not "too short"
    tool.extend(now.world(x, y), (x, y))
    points, loop = tool.finish(), running_loop()
    if loop is None:
        return synthesize(tool, now, points)
    job = tool.start(points, loop)
    job.add_done_callback(lambda done: run("synthesis_found", done))
    said = "searching for linkages that trace the curve (a few seconds) ..."
    return Outcome(traits={"error": ""}, message=said, finish="draw")


def found(tool: SynthesisTool, now: Situation, job: Any) -> Outcome:
    """A search in a thread ended: its candidates kept and said (a stale one: nothing).

    Its refusal, or any failure, is the session's error: raised here it would be lost in
    the event loop's log.
    """
    try:
        said = tool.take(job)
    except ValueError as exc:
        return Outcome(traits={"error": str(exc)}, finish="draw")
    except asyncio.CancelledError:  # the loop shut down under it: nothing to show
        return Outcome()
    except Exception as exc:  # noqa: BLE001 - a bug of the search, shown rather than lost
        return Outcome(traits={"error": f"path synthesis failed: {exc!r}"}, finish="draw")
    if said is None:
        return Outcome()
    return Outcome(traits={"error": ""}, message=said, finish="draw")


def synthesize(
    tool: SynthesisTool, now: Situation, points: Any, kind: str | None = None, k: int | None = None
) -> Outcome:
    """Search linkages tracing ``points`` (world, ``(K, 2)``): the candidates kept, said."""
    _planar(now)
    said = tool.run(points, kind, k)
    return Outcome(traits={"error": ""}, message=said, finish="draw")


def choose(tool: SynthesisTool, now: Situation, i: int) -> Outcome:
    """Load candidate ``i``: one undo step; its motor runs, its coupler is tracked."""
    _planar(now)
    c = tool.candidate(i)
    grashof, note = getattr(c, "grashof", ""), getattr(c, "note", "")
    said = (
        f"candidate {int(i) + 1} loaded (RMS {c.error:.3g}{', ' + grashof if grashof else ''}):"
        f" the motor turns joint {c.motor[1]} about {c.motor[0]}, joint {c.coupler} tracked"
        f" (ctrl-z: back){'; ' + note if note else ''}"
    )
    tool.chosen = int(i)
    curve = np.asarray(c.curve, dtype=np.float64).reshape(-1, 2)
    shown = [c.linkage.vertices, curve[np.isfinite(curve).all(axis=1)]]  # its whole path:
    if tool.target is not None:  # a view that holds it need not follow it round
        shown.append(tool.target)
    info = INFO_PANEL_LINES if now.traits.get("show_info") else 0
    view = fitted_view(np.vstack(shown), now.view.width, now.view.height, info)
    lets_go = {"selected_vertex": None, "selected_rod": None, "attractor": None}
    # tracked () then the coupler: its path starts afresh (another candidate's had that index)
    return Outcome(
        edit=partial(_load, c, _crank_speed(c), said),
        traits={**lets_go, "tracked": (), "error": "", "motors_running": True, "running": True},
        then=Outcome(traits={"tracked": (int(c.coupler),)}),
        view=view,
    )


def show_cognates(tool: SynthesisTool, now: Situation) -> Outcome:
    """The linkage's cognates as candidates: its coupler point selected, or else tracked."""
    _planar(now)
    coupler = now.traits["selected_vertex"]
    tracked = now.traits["tracked"]
    if coupler is None and tracked:
        coupler = tracked[0]
    if coupler is None:
        raise ValueError(
            "cognates: select the four-bar's coupler point (or track it) first: the "
            "cognates are the other four-bars that trace its curve"
        )
    said = tool.keep_cognates(cognate_candidates(now.linkage, int(coupler)))
    return Outcome(traits={"error": ""}, message=said, finish="draw")


def synthesis_handlers(
    now: Callable[[], Situation], tool: SynthesisTool, run: Callable[..., object]
) -> dict[str, Callable[..., object]]:
    """The synthesis tool's action kinds and their handlers (for :func:`.actions.action_table`).

    ``run(kind, *args)``: the session's ``run_action``, for a search's end.
    """
    return {
        "stroke_begin": lambda x, y: stroke_begin(tool, now(), x, y),
        "stroke_to": lambda x, y: stroke_to(tool, now(), x, y),
        "stroke_end": lambda x, y: stroke_end(tool, run, now(), x, y),
        "stroke_cancel": lambda: (tool.drop_stroke(), Outcome(message="", finish="draw"))[1],
        "synthesis_found": lambda job: found(tool, now(), job),
        "synthesize": lambda points, kind=None, k=None: synthesize(tool, now(), points, kind, k),
        "choose_candidate": lambda i: choose(tool, now(), i),
        "show_cognates": lambda: show_cognates(tool, now()),
    }
