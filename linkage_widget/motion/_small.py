r"""The kinematic step of a small linkage in one compiled call (numba, when it imports).

A drag of Peaucellier's six joints took ~0.6 ms a step on the general path, ~15 times
the arithmetic: the step's Python machinery (sparse patterns, SuperLU/banded solvers,
the projection's bookkeeping) is built for thousands of joints. Here the same step of
:class:`~._kinematic.KinematicStepper` — the drive, the halving loop, the Gauss-Newton
projection with its chord and Newton iterations (:func:`~._projection.project`), the
direction check — runs as one loop over dense arrays:

* :math:`C = \begin{pmatrix} A(p) & 0 \\ G & -I \end{pmatrix}` dense, the Schur
  complement :math:`S = C W^{-1} C^T + \varepsilon I` and its dense Cholesky factor
  (the general path: the same matrix, banded or sparse);
* the same formulas for the residuals and the Jacobian
  (:class:`~linkage_widget.constraints.ConstraintSet`, rods and pins), the same
  tolerances (:mod:`.tolerances`), in the same order, so the positions agree with
  the general path's to round-off and the statuses are the same (tested step by step);
* the memory a step hands to the next (the factorisation and the drive at the new
  point, the residuals of the last projection) kept by :class:`SmallLane`, keyed by
  the identity of the position array as :class:`~._setup.Memo` does; taken over from
  the general path's memos when it took the step before, and handed to them when it
  takes the next one, so either path goes on from what the other left;
* the branch watch reads the lane's Jacobians (:class:`~._singular.Measured`): the
  bordered determinant and the dip check without evaluating them again.

Measured (``benchmarks/bench_motion.py --small``): Peaucellier's step 0.59 → ~0.045 ms.
A lane step ends within 1e-12 (relative) of the general step from the same state, with
the same status. Near a dead point more: where the general path itself turns one ulp of
round-off in its factorisation into more than that (the Schur complement nearly
singular), within 100 times what that ulp does; after a step the halving cut short,
within 1e-10 (both stop their Newton iterations at a residual of 1e-12, which leaves
an ill-conditioned point that free; measured up to 7e-12). Whole drags agree as closely
until a dead point; past one they differ as the general path differs from itself with
one ulp changed (Peaucellier: 3e-13 → 1e-10 in three steps). tests/motion/test_small_lane.py.

The lane takes only what it can take exactly like the general path: a planar linkage of
rods and pins (no fixed angles, sliders, slots, cables or struts, motors or linear
motors), at most :data:`SMALL_MAX_COLUMNS` unknowns, kinematic mode, a pull whose step
moved or reached its target. Anything else — a blocked pull, a failed factorisation,
a target reached before the step, a pinned vertex pulled — returns ``None`` and the
general path takes the step from the same state (:meth:`SmallLane.step`).

numba is the optional ``fast`` extra; without it (or with
``LINKAGE_WIDGET_GENERAL_MOTION=1``) every step takes the general path. A first compile
takes 30-90 s: a child process runs it into numba's disk cache while the process that
asked keeps to the general path; later processes load the kernels from the cache (~1 s)
at their first step and take the lane throughout (:func:`lane_ready`).
The kernels (:mod:`._small_kernels`) are plain Python functions over arrays: the tests
run them uncompiled too.
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..constraints import as_flat
from ..model import Linkage
from . import _small_kernels as K
from ._linalg import ConstrainedFactor
from ._setup import Setup

if TYPE_CHECKING:
    from ._kinematic import KinematicStepper

__all__ = ["SMALL_MAX_COLUMNS", "SmallLane", "SmallPlan", "compiled_available"]

#: Unknowns (coordinates plus rod particles) up to which the lane takes a linkage: the
#: dense Schur complement costs O(rows² columns), the general path's sparse one O(rows).
SMALL_MAX_COLUMNS = 64


def compiled_available() -> bool:
    """Whether the lane runs compiled: numba imports and the environment allows it.

    Compiles the kernels now if they are not (a first compile takes tens of seconds; a
    load from numba's disk cache about one).
    """
    if os.environ.get("LINKAGE_WIDGET_GENERAL_MOTION", "") not in ("", "0"):
        return False
    return _compile()


@functools.cache
def _dispatchers() -> dict:
    """The kernels' numba dispatchers, not compiled yet (empty without a working numba)."""
    try:
        import numba

        return {name: numba.njit(cache=True, nogil=True)(K.PYTHON[name]) for name in K.KERNELS}
    except Exception:  # no numba, or one that cannot make cached kernels here
        return {}


def _compile() -> bool:
    """Replace each kernel by its numba dispatcher; ``False`` without a working numba."""
    with _LOCK:  # one compile, one swap of the kernels, whichever thread asks first
        if "ok" not in _COMPILED_OK:
            _COMPILED_OK["ok"] = _swap_in_compiled()
        return _COMPILED_OK["ok"]


def _swap_in_compiled() -> bool:
    if not _dispatchers():
        return False
    _COMPILED.update(_dispatchers())
    vars(K).update(_COMPILED)  # compiled calls resolve the kernels they call here
    try:  # a rod from a pin pulled sideways: every kernel once
        lane_check()
    except Exception:  # whatever numba raises here means: no compiled lane
        vars(K).update(K.PYTHON)
        return False
    return True


def _cached() -> bool:
    """Whether numba's disk cache holds every kernel for this source (a load, no compile)."""
    try:  # numba's cache index, stale or missing: empty
        return all(d._cache._cache_file._load_index() for d in _dispatchers().values())
    except Exception:  # another numba's internals: treated as not cached
        return False


def _compile_elsewhere() -> None:
    """Start a child process that compiles the kernels into numba's disk cache.

    Not a thread of this process: a compile holds the interpreter's lock for long
    stretches (the steps stalled up to 0.24 s beside it) and an interpreter that exits
    while numba compiles in a thread aborts (SIGABRT, measured). The child outlives a
    short script; the next process loads what it wrote.
    """
    if _CHILD:
        return
    root = str(Path(__file__).resolve().parents[2])  # where this linkage_widget imports from
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([root, os.environ.get("PYTHONPATH", "")])}
    code = "from linkage_widget.motion._small import compiled_available; compiled_available()"
    try:
        _CHILD.append(
            subprocess.Popen(
                [sys.executable, "-c", code],
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,  # a ctrl-c of the notebook's kernel leaves it be
            )
        )
    except OSError:  # no processes to spare: the general path, as without numba
        pass


#: The numba dispatchers, once compiled, and whether that worked.
_COMPILED: dict = {}
_COMPILED_OK: dict[str, bool] = {}
#: Whether the lane takes steps: decided at its first use (:func:`lane_ready`).
_READY: dict[str, bool] = {}
_LOCK = threading.RLock()
#: The child process compiling the kernels, once started.
_CHILD: list[subprocess.Popen] = []


def lane_ready() -> bool:
    """Whether the lane takes steps (compiled kernels), decided once for the process.

    At the first call: with the kernels in numba's disk cache they are loaded then
    (about a second) and the lane takes the small linkages' steps for the whole process;
    without them a child process compiles them into the cache (tens of seconds, once per
    installation) and this process keeps to the general path. Either way no simulation
    switches paths midway (the two agree to round-off, not bit for bit). Without numba,
    or with ``LINKAGE_WIDGET_GENERAL_MOTION=1``, never.
    """
    with _LOCK:
        ready = _READY.get("on")
        if ready is None:
            allowed = os.environ.get("LINKAGE_WIDGET_GENERAL_MOTION", "") in ("", "0")
            ready = False
            if allowed and _dispatchers():
                if _cached():
                    ready = _compile()
                else:
                    _compile_elsewhere()
            _READY["on"] = ready
    return ready


def use_kernels(kind: str) -> None:
    """``"compiled"`` (numba), ``"python"`` (the same kernels uncompiled) or ``"off"``.

    For the tests, which compare the lane both ways with the general path; ``"off"``
    sends every step to the general path. ``"compiled"`` without numba is ``"off"``.
    """
    if kind not in ("compiled", "python", "off"):
        raise ValueError(f"kind must be 'compiled', 'python' or 'off', got {kind!r}")
    if kind == "python":
        vars(K).update(K.PYTHON)
        _READY["on"] = True
    elif kind == "compiled" and _compile():
        vars(K).update(_COMPILED)
        _READY["on"] = True
    else:
        vars(K).update(K.PYTHON)
        _READY["on"] = False


def lane_check() -> None:
    """One pull of a rod hinged at a pin (compiles every kernel on first use)."""
    setup = Setup.build(Linkage([[0.0, 0.0], [1.0, 0.0]], rods=[(0, 1)], pinned=[0]), 0.0, 1.0)
    plan = SmallPlan.of(setup)
    if plan is None:
        raise RuntimeError("the lane's check linkage has no plan")
    p = np.array([0.0, 0.0, 1.0, 0.0])
    code, q, _, state = K._pull(
        p, (1, 0.0, 1.0, 0.1, np.inf), 0, plan.blank, plan.ints, plan.floats
    )
    c = K._views(state, plan.ints)[0]
    K._bordered_logdet(np.eye(6), c, 3, 4)
    K._pin_exactly(q.copy(), np.zeros(4), plan.ints, plan.floats)
    K._jacobian(q, plan.ints, plan.floats)


# ----------------------------------------------------------------------- the plan
@dataclass(frozen=True, eq=False)
class SmallPlan:
    """The dense arrays of one :class:`~._setup.Setup` that the kernels read.

    Packed in two arrays, ``ints`` (chord iterations, sizes, rods, pins) and ``floats``
    (norm, length scale, shortest rod, lengths, anchors, inverse row scales, inverse
    weights, extra rows, mass matrix): a compiled call types each argument, and two
    arrays cost a fifth of eight. ``arrays``: their views (:func:`_unpack`).
    """

    ints: np.ndarray
    floats: np.ndarray
    arrays: tuple
    pinned: list[bool]  # per joint
    blank: np.ndarray  # a step state with nothing in it (bits 0)

    @classmethod
    def of(cls, setup: Setup) -> SmallPlan | None:
        """The plan of ``setup``, or ``None`` when its rows are not the lane's (see the module)."""
        cs, metric = setup.constraints, setup.metric
        small = (
            cs.dim == 2
            and len(cs.angles) == 0
            and cs.guides.n_rows == 0
            and cs.drives.n_rows == 0
            and cs.slack is None
            and not np.any(cs.sides)
            and not metric.layout.dampers
            and 0 < cs.n_constraints
            and 0 < len(metric.weights) <= SMALL_MAX_COLUMNS
        )
        if not small:
            return None
        indptr, indices, data = setup.factoriser.extra_rows(
            as_flat(setup.linkage.vertices), metric.layout
        )
        n_cols = len(metric.weights)
        extra = np.zeros((len(indptr) - 1, n_cols))
        rows = np.repeat(np.arange(len(indptr) - 1), np.diff(indptr))
        extra[rows, indices] = data
        # the chord iterations of the solver the general path chose for this pattern
        chords = setup.factor(as_flat(setup.linkage.vertices)).pattern.chord_iterations
        shortest = float(cs.lengths.min()) if len(cs.lengths) else cs.length_scale
        pins = np.asarray(cs.pinned, dtype=np.int64)
        m, k, n_v, n_extra = len(cs.rods), len(pins), cs.dim * cs.n_vertices, extra.shape[0]
        n_rows = m + 2 * k + n_extra
        sizes = [chords, m, k, n_v, n_rows, n_cols, n_extra]
        ints = np.concatenate([sizes, np.asarray(cs.rods, np.int64).ravel(), pins])
        parts = [[metric.norm, cs.length_scale, shortest], cs.lengths, cs.anchors.ravel()]
        parts += [setup.inv_row_scale, 1.0 / metric.weights, extra.ravel()]
        parts += [metric.matrix.toarray().ravel()]
        floats = np.concatenate([np.asarray(x, np.float64) for x in parts])
        ints = ints.astype(np.int64)
        arrays = K.PYTHON["_unpack"](ints, floats)
        blank = np.zeros(n_rows * n_cols + n_rows * n_rows + n_v + m + 2 * k)
        return cls(ints, floats, arrays, setup.pinned.tolist(), blank)


# ----------------------------------------------------------------------- the lane
class SmallLane:
    """The compiled kinematic step of a :class:`~.Stepping` and the memory it hands on."""

    def __init__(self) -> None:
        self._plan: tuple[Setup | None, SmallPlan | None] = (None, None)
        # (p, plan, bits, c, chol, key, v, g): what the last step left at p (see _pull)
        self._memo: tuple | None = None
        self.taken = 0  # steps taken on the lane (the tests see which path a step took)

    def plan(self, setup: Setup) -> SmallPlan | None:
        """The plan of ``setup`` (built once per setup: a new mass makes a new setup)."""
        if self._plan[0] is not setup:
            self._plan = (setup, SmallPlan.of(setup))
        return self._plan[1]

    def step(
        self,
        setup: Setup,
        stepper: KinematicStepper,
        p: np.ndarray,
        attractor: tuple[int, np.ndarray],
        step_size: float,
    ) -> tuple[np.ndarray, str, _Measured] | None:
        """One kinematic step from ``p``: ``(q, status, measured)``, or ``None`` (the general path).

        ``measured``: the step's Jacobians for the branch watch, those the general path
        would read. Only a step that moved or reached its target is taken here;
        ``stepper``'s trust region is read and updated.
        """
        plan = self.plan(setup) if lane_ready() else None
        s, t = attractor
        # the stepper's own early answers (a pinned joint, a blocked verdict; the kernel
        # sends a target reached before the step back)
        if plan is None or plan.pinned[s] or stepper.blocked_for(setup, p, s, t, step_size):
            return None
        tx, ty = float(t[0]), float(t[1])
        memo = self._memo
        if memo is not None and memo[0] is p and memo[1] is plan:
            bits, state = memo[2], memo[4]
            if memo[3] != (s, tx, ty):
                bits &= ~2
        else:  # a step of the general path came before: what it left at p
            bits, state = self._adopt(setup, stepper, plan, p, s, t)
        pull = (s, tx, ty, step_size, stepper.trust)
        code, q, trust, state = K._pull(p, pull, bits, state, plan.ints, plan.floats)
        if code == K.BLOCKED or code == K.GENERAL:
            self._hand_over(setup, stepper, plan, p)
            return None
        # An accepted landing moved the pulled joint by BLOCK_FRACTION of the step at least
        # and left a finite residual: the step is honest ("moved" and finite) as it is.
        stepper.trust = trust
        self.taken += 1
        c = K._views(state, plan.ints)[0]
        if code == K.MOVED:
            self._memo = (q, plan, 7, (s, tx, ty), state)
            # the general path's memo holds the factorisation at q; p's Jacobian is evaluated
            return q, "moved", _Measured(plan, p, q, None, c)
        # reached: the residuals at q remembered, the factorisation of the pull's start kept
        self._memo = (q, plan, 4, None, state)
        return q, "reached target", _Measured(plan, p, q, c, None)

    @staticmethod
    def _adopt(
        setup: Setup, stepper: KinematicStepper, plan: SmallPlan, p: np.ndarray, s: int, t: Any
    ) -> tuple[int, np.ndarray]:
        """``(bits, state)`` of :func:`_pull` from the general path's memos at ``p``.

        The factorisation it would reuse there (made one correction away from ``p``), its
        drive and residuals: the lane goes on from exactly what the general path would.
        """
        bits, state = 0, plan.blank
        fac = setup.memo.factor(p, setup.metric)
        residuals = setup.memo.residuals(p)
        if fac is None and residuals is None:
            return bits, state
        state = plan.blank.copy()
        c, chol, v, g = K.PYTHON["_views"](state, plan.ints)
        if fac is not None:
            pattern = fac.pattern
            c[pattern.rows, pattern.indices] = fac.data
            factor, ok = K._factor(c, plan.arrays[6])
            if ok:
                bits, chol[:] = bits | 1, factor
                drive = stepper.remembered_drive(setup, p, s, t)
                if drive is not None:
                    bits, v[:] = bits | 2, drive
        if residuals is not None:
            bits, g[:] = bits | 4, residuals
        return bits, state

    def _hand_over(
        self, setup: Setup, stepper: KinematicStepper, plan: SmallPlan, p: np.ndarray
    ) -> None:
        """Leave the lane's memory at ``p`` in the general path's memos (it takes this step)."""
        memo = self._memo
        if memo is None or memo[0] is not p or memo[1] is not plan:
            return
        bits = memo[2]
        c, _, v, g = K.PYTHON["_views"](memo[4], plan.ints)
        if bits & 1:
            made = setup.factor(p)  # the pattern and weights; the values are the lane's
            pattern = made.pattern
            data = c[pattern.rows, pattern.indices]
            fac = ConstrainedFactor(pattern, data, made.w_inv, made.norm, made.n_v, made.n_a)
            setup.memo.remember_factor(p, setup.metric, fac)
            if bits & 2:
                s, tx, ty = memo[3]
                stepper.remember_drive(setup, p, s, np.array([tx, ty]), v.copy())
        if bits & 4:
            setup.memo.remember_residuals(p, g.copy())

    def pin(self, plan_setup: Setup, p: np.ndarray, v: np.ndarray) -> None:
        """Put the pinned joints at their anchors in ``p`` and at rest in ``v`` (in place)."""
        plan = self.plan(plan_setup)
        if plan is None:  # only the lane's own steps come here, whose setup has a plan
            raise RuntimeError("pin: this linkage is not on the small-linkage lane")
        K._pin_exactly(p, v, plan.ints, plan.floats)


class _Measured:
    """A lane step's Jacobians as the branch watch reads them (:class:`._singular.Measured`).

    ``start``, ``end``: :math:`C` of the factorisation the general path's memo holds at
    the step's start or end, ``None`` where it evaluates the Jacobian there instead.
    """

    __slots__ = ("end", "p", "plan", "q", "start")

    def __init__(self, plan: SmallPlan, p: np.ndarray, q: np.ndarray, start: Any, end: Any) -> None:
        self.plan, self.p, self.q, self.start, self.end = plan, p, q, start, end

    def det(self, borders: Any, *, at_end: bool) -> tuple[float, float]:
        """``slogdet`` of the bordered matrix at the end ``q`` (or the start ``p``)."""
        c = self.end if at_end else self.start
        plan = self.plan
        if c is None:
            c = K._jacobian(self.q if at_end else self.p, plan.ints, plan.floats)
        n_a = len(plan.arrays[5])
        template = borders.template.reshape(n_a + borders.w.shape[1], -1)
        sign, logabs = K._bordered_logdet(template, c, n_a, len(self.p))
        return float(sign), float(logabs)

    def jacobian(self, x: np.ndarray) -> np.ndarray:
        """:math:`A(x)`, dense ``(rows, dn)``."""
        plan = self.plan
        return K._jacobian(x, plan.ints, plan.floats)[: len(plan.arrays[5]), : len(x)]
