r"""Singular placements on the way: a cheap watch along the steps, and their location.

A placement is *singular* when the rank of the constraint Jacobian :math:`A(p)`
(motor rows included) drops below its rank nearby: a self-stress appears and with it
one more infinitesimal flex (a flat parallelogram, Peaucellier's flat rhombus). Two
branches of the configuration set may cross there, and the motion has to choose.

The watch
    At a reference placement :math:`p_0` the singular value decomposition of
    :math:`A(p_0)` (shape :math:`(m, N)`, rank :math:`r`) gives the stresses
    :math:`U_0` (:math:`m \times s`, left null space) and the flexes :math:`W_0`
    (:math:`N \times d`, null space). The bordered matrix

    .. math:: B(p) = \begin{pmatrix} A(p) & U_0 \\ W_0^T & 0 \end{pmatrix},
              \qquad (m + d) \times (N + s) \text{ square},

    is regular near :math:`p_0`, and :math:`\det B(p)` changes sign where the path
    crosses a placement at which the rank of :math:`A` drops by one transversally
    (the test function of bifurcation detection in numerical continuation,
    Allgower & Georg, *Numerical Continuation Methods*, ch. 8). Each step then costs
    one dense ``slogdet`` of :math:`B(q)`; the borders are renewed (one SVD) when
    :math:`|\det B|` has changed by more than a factor :data:`REFRESH_FACTOR` or
    after :data:`REFRESH_STEPS` steps, so that they stay a good basis. Linkages with
    more than :data:`~linkage_widget.motion.tolerances.SINGULAR_WATCH_MAX_COLUMNS`
    coordinates are not watched (a dense determinant per step would cost more
    than the step).

    A rank drop by two at once (Peaucellier's rhombus flat with two joints
    together: two self-stresses) leaves the sign alone, :math:`\det B \sim s^2`: a
    local minimum of :math:`|\det B|` over three placements where the smallest singular
    value is small for the length of the steps (:data:`DIP_FACTOR`) is searched too.

The location
    A sign change between :math:`p` and :math:`q` is located by bisection on the
    path :math:`r(\tau) = \Pi(p + \tau (q - p))`, :math:`\Pi` the projection onto the
    constraints, to :math:`2^{-40}` of the step; the placement on the near side is
    kept, and accepted as singular only when the rank of :math:`A` there has
    dropped (smallest singular value at most
    :data:`~linkage_widget.motion.tolerances.SINGULAR_RTOL` of the largest). A dip is
    located by golden-section search of :math:`|\det B|` over the two steps around it.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import NamedTuple, Protocol

import numpy as np

from ..rigidity import RANK_RTOL
from ._projection import held_residual, project
from ._setup import Setup
from .tolerances import (
    CREEP_HALVINGS,
    LOCATE_ITERATIONS,
    SINGULAR_RTOL,
    SINGULAR_WATCH_MAX_COLUMNS,
)

__all__ = [
    "Crossing",
    "Measured",
    "SingularWatch",
    "creep",
    "locate",
    "locate_dip",
    "rank_dropped",
    "smallest_ratio",
]

#: Renew the borders when |det B| changed by more than this factor since they were made...
REFRESH_FACTOR = 8.0
#: ... or after this many steps.
REFRESH_STEPS = 32
_LOG_REFRESH = float(np.log(REFRESH_FACTOR))
#: A local minimum of |det B| is looked into when the smallest singular value there is at
#: most this many times the relative length of the two steps around it.
DIP_FACTOR = 4.0


class _Borders(NamedTuple):
    shape: tuple[int, int]
    u: np.ndarray  # (m, s) stresses at the reference placement
    w: np.ndarray  # (N, d) flexes at the reference placement
    sign: float
    logabs: float
    rank: int
    template: np.ndarray  # B with A = 0, raveled
    flat: np.ndarray  # where A's non-zeros (COO order) go in the raveled B
    flat_csr: np.ndarray  # the same in CSR order

    def det(self, setup: Setup, q: np.ndarray) -> tuple[float, float]:
        """``slogdet`` of :math:`B(q)` (A's non-zeros scattered into the template)."""
        # The step's factorisation at q holds A's non-zeros (CSR order) first: reuse them;
        # else evaluate them in their fixed COO pattern (no sparse matrix, a third the cost).
        fac = setup.memo.factor(q, setup.metric)
        if fac is not None:
            vals, flat = fac.data[: len(self.flat_csr)], self.flat_csr
        else:
            vals, flat = setup.constraints.jacobian_values(q), self.flat
        b = self.template + np.bincount(flat, weights=vals, minlength=self.template.size)
        sign, logabs = np.linalg.slogdet(b.reshape(self.w.shape[1] + self.shape[0], -1))
        return float(sign), float(logabs)


def _dense(setup: Setup, p: np.ndarray) -> np.ndarray:
    """:math:`A(p)` as a dense ``(m, N)`` array."""
    return setup.constraints.jacobian(p).toarray()


def _bordered(a: np.ndarray, u: np.ndarray, w: np.ndarray) -> np.ndarray:
    """:math:`B = [[A, U], [W^T, 0]]`, square ``(m + d, N + s)`` (``np.block``'s, without it)."""
    m, n = a.shape
    b = np.zeros((m + w.shape[1], n + u.shape[1]))
    b[:m, :n], b[:m, n:], b[m:, :n] = a, u, w.T
    return b


def _make_borders(setup: Setup, q: np.ndarray, a: np.ndarray | None = None) -> _Borders:
    """Stresses and flexes of :math:`A(q)` (rank relative to :data:`RANK_RTOL`), borders.

    ``a``: :math:`A(q)` dense when the caller has it (the small-linkage lane), else built.
    """
    cs = setup.constraints
    if a is None:
        a = cs.jacobian(q).toarray()
    u, s, vt = np.linalg.svd(a, full_matrices=True)
    top = float(s[0]) if s.size else 0.0
    r = int(np.count_nonzero(s > RANK_RTOL * top)) if top > 0 else 0
    uu, ww = u[:, r:], vt[r:].T
    b = _bordered(a, uu, ww)
    sign, logabs = np.linalg.slogdet(b)
    b[: a.shape[0], : a.shape[1]] = 0.0  # the template: B with A = 0
    width = b.shape[1]
    flat = cs._rows * width + cs._cols  # the Jacobian's fixed COO pattern
    # and its CSR pattern (the order of the non-zeros in a factorisation's data)
    rows = np.repeat(np.arange(a.shape[0]), np.diff(cs._indptr))
    flat_csr = rows * width + cs._indices
    return _Borders(a.shape, uu, ww, float(sign), float(logabs), r, b.ravel(), flat, flat_csr)


class Measured(Protocol):
    """The Jacobians of a step as the small-linkage lane has them (``._small``)."""

    def det(self, borders: _Borders, *, at_end: bool) -> tuple[float, float]:
        """``slogdet`` of :math:`B` at the step's end (or start), as :meth:`_Borders.det` has it."""

    def jacobian(self, x: np.ndarray) -> np.ndarray:
        """:math:`A(x)` dense, shape ``(m, N)`` (the same values as ``jacobian(x).toarray()``)."""


def smallest_ratio(a: np.ndarray, rank: int | None = None) -> float:
    r"""The ``rank``-th singular value of ``a`` over the largest (``rank`` default: all)."""
    s = np.linalg.svd(a, compute_uv=False)
    if not s.size or s[0] == 0.0:
        return 0.0
    k = min(a.shape) if rank is None else rank
    return float(s[k - 1] / s[0]) if k > 0 else 1.0


def rank_dropped(setup: Setup, p: np.ndarray, rank: int) -> bool:
    """Whether the numerical rank of :math:`A(p)` is below ``rank`` (:data:`SINGULAR_RTOL`)."""
    return smallest_ratio(_dense(setup, p), rank) <= SINGULAR_RTOL


class Crossing(NamedTuple):
    r"""What the watch found along the last step(s).

    ``kind`` is ``"sign"`` (a sign change of :math:`\det B` in the last step: a rank drop
    by one) or ``"dip"`` (:math:`|\det B|` smallest at the placement before, and the
    Jacobian nearly rank-deficient there: a rank drop by two, which leaves the sign
    alone, between ``start`` and the new placement). ``start``, ``t_start``: where the
    search begins (the last placement, or the one before it for a dip) and its time.
    """

    kind: str
    borders: _Borders
    start: np.ndarray
    t_start: float


class _Seen(NamedTuple):
    p: np.ndarray
    t: float
    logabs: float  # log |det B(p)| with the borders in use


class SingularWatch:
    """The bordered-determinant watch along a simulator's steps (see the module)."""

    def __init__(self) -> None:
        self.enabled = True  # Simulator.stop_at_singular
        self._borders: _Borders | None = None
        self._age = 0
        self._seen: list[_Seen] = []  # the last two placements, measured with the borders
        self._shape: tuple[object, tuple[int, int]] = (None, (0, 0))  # constraints, their shape

    def _shape_of(self, setup: Setup) -> tuple[int, int]:
        """The shape of ``setup``'s Jacobian (kept for its constraints: a step asks twice)."""
        cs = setup.constraints
        if self._shape[0] is not cs:  # a constraint set is frozen: its shape stays
            self._shape = (cs, cs.shape)
        return self._shape[1]

    def reset(self) -> None:
        """Forget the reference placement (a jump, a new row set, a branch followed)."""
        self._borders, self._seen = None, []

    def watches(self, setup: Setup) -> bool:
        """Whether the watch is on and the linkage small enough to be watched."""
        return self.enabled and 0 < self._shape_of(setup)[1] <= SINGULAR_WATCH_MAX_COLUMNS

    def crossed(
        self,
        setup: Setup,
        p: np.ndarray,
        t0: float,
        q: np.ndarray,
        t1: float,
        measured: Measured | None = None,
    ) -> Crossing | None:
        """What the step from ``(p, t0)`` to ``(q, t1)`` crossed, or ``None``.

        Without a crossing the borders may be renewed at ``q`` (then measured at ``p``
        too, so that a dip right at ``q`` is still seen by the next step). ``measured``:
        the step's Jacobians from the small-linkage lane (the same values, no evaluation).
        """
        ref = self._borders
        if ref is None or ref.shape != self._shape_of(setup):
            self._renew(setup, p, t0, q, t1, measured)
            return None
        sign, logabs = ref.det(setup, q) if measured is None else measured.det(ref, at_end=True)
        if sign != ref.sign:
            return Crossing("sign", ref, p, t0)
        seen = self._seen[-2:]
        if len(seen) == 2 and seen[1].p is p and seen[1].logabs < min(seen[0].logabs, logabs):
            dense = None if measured is None else measured.jacobian
            if _near_rank_drop(setup, p, ref.rank, q, seen[0].p, dense):
                return Crossing("dip", ref, seen[0].p, seen[0].t)
        self._seen = [*seen[-1:], _Seen(q, t1, logabs)]
        self._age += 1
        if abs(logabs - ref.logabs) > _LOG_REFRESH or self._age >= REFRESH_STEPS:
            self._renew(setup, p, t0, q, t1, measured)
        return None

    def _renew(
        self,
        setup: Setup,
        p: np.ndarray,
        t0: float,
        q: np.ndarray,
        t1: float,
        measured: Measured | None = None,
    ) -> None:
        if measured is None:
            ref = _make_borders(setup, q)
            before = ref.det(setup, p)[1]
        else:
            ref = _make_borders(setup, q, measured.jacobian(q))
            before = measured.det(ref, at_end=False)[1]
        self._borders, self._age = ref, 0
        self._seen = [_Seen(p, t0, before), _Seen(q, t1, ref.logabs)]


def _near_rank_drop(
    setup: Setup,
    p: np.ndarray,
    rank: int,
    q: np.ndarray,
    before: np.ndarray,
    dense: Callable[[np.ndarray], np.ndarray] | None = None,
) -> bool:
    r"""Whether :math:`A(p)` nearly loses rank, as a transversal rank drop within a step makes it.

    Within a distance :math:`\delta` of a rank drop the smallest singular value is
    :math:`c\,\delta`, a V along the path: at ``p`` it is at most :data:`DIP_FACTOR`
    times the relative length of the two steps around it, and, the drop lying nearer
    ``p`` than its neighbours, below half the mean of theirs (a smooth minimum, or a
    singular value that stays small, as along the approximate flexes of rounded data,
    is not a drop). A cheap filter (three SVDs at a local minimum of :math:`|\det B|`)
    before the costly search. ``dense(x)``: :math:`A(x)` dense (default: evaluated).
    """
    span = float(np.max(np.abs(q - before))) / setup.constraints.length_scale
    if dense is None:  # the small-linkage lane has the same matrices at hand
        dense = partial(_dense, setup)
    here = smallest_ratio(dense(p), rank)
    if here > DIP_FACTOR * span:
        return False
    around = smallest_ratio(dense(before), rank) + smallest_ratio(dense(q), rank)
    return here < 0.25 * around


def locate(
    setup_at: Callable[[float], Setup],
    p: np.ndarray,
    q: np.ndarray,
    borders: _Borders,
) -> tuple[np.ndarray, float] | None:
    r"""The singular placement between ``p`` and ``q`` and its fraction :math:`\tau` of the step.

    ``setup_at(tau)`` is the setup at that fraction of the step (motor targets move
    with time). Returns ``None`` when the sign change was not a rank drop (the
    borders had turned too far), or a projection failed.
    """
    base = setup_at(0.0)
    fac = base.factor(p)
    floor = base.roundoff(p)
    held = held_residual(base, p, fac, floor)
    lo, near = 0.0, p
    hi = 1.0
    for _ in range(LOCATE_ITERATIONS):
        mid = 0.5 * (lo + hi)
        setup = setup_at(mid)
        r, ok, _ = project(setup, p + mid * (q - p), fac, held, floor, allow_refactor=True)
        if not ok:
            return None
        sign, _ = borders.det(setup, r)
        if sign == borders.sign:
            lo, near = mid, r
        else:
            hi = mid
    if not rank_dropped(setup_at(lo), near, borders.rank):
        return None
    return near, lo


def locate_dip(
    setup_at: Callable[[float], Setup], p: np.ndarray, q: np.ndarray, borders: _Borders
) -> tuple[np.ndarray, float] | None:
    r"""The rank-two drop between ``p`` and ``q``: smallest :math:`|\det B|` on the path.

    Golden-section search on :math:`r(\tau) = \Pi(p + \tau (q - p))`; ``None`` unless the
    rank has dropped there. Returns the placement and its :math:`\tau`.
    """
    base = setup_at(0.0)
    fac = base.factor(p)
    floor = base.roundoff(p)
    held = held_residual(base, p, fac, floor)

    def at(tau: float) -> tuple[np.ndarray, float, float] | None:
        setup = setup_at(tau)
        r, ok, _ = project(setup, p + tau * (q - p), fac, held, floor, allow_refactor=True)
        return (r, tau, borders.det(setup, r)[1]) if ok else None

    best = _golden(at, 0.0, 1.0)
    if best is None or not rank_dropped(setup_at(best[1]), best[0], borders.rank):
        return None
    return best[0], best[1]


def creep(setup: Setup, p: np.ndarray, direction: np.ndarray, longest: float) -> np.ndarray | None:
    r"""The singular placement just beyond a blocked ``p`` along the flex ``direction``, or None.

    A pulled vertex is blocked where its path folds; when the fold is a singular
    placement (Peaucellier's flat rhombus: the inversor's input at its nearest to
    the centre) the configuration curve goes on through it. Creep along it: from
    ``p`` by :math:`\delta_k = 2^{-k}` ``longest`` (k = 10, ..., 0, ``direction`` a
    unit flex that continues the motion), projected back. A sign change of the
    watch is located by :func:`locate`; a rank drop by two (the flat rhombus: two
    self-stresses at once) leaves the sign alone, and :math:`|\det B|` dips to zero
    instead: its smallest value over the :math:`\delta_k` is refined by golden-section
    search. Either way the result counts only where the rank has dropped.
    """
    borders = _make_borders(setup, p)
    floor = setup.roundoff(p)

    def at(delta: float) -> tuple[np.ndarray, float, float] | None:
        # factorised at the guess: p is next to the singular placement, and corrections
        # made with its nearly rank-deficient Jacobian run off along the stress
        guess = p + delta * direction
        fac = setup.factor(guess)
        held = held_residual(setup, p, fac, floor)
        q, ok, _ = project(setup, guess, fac, held, floor, allow_refactor=True)
        return (q, *borders.det(setup, q)) if ok else None

    deltas = longest * 2.0 ** -np.arange(CREEP_HALVINGS, -1, -1.0)
    logs: list[float] = []
    for delta in deltas:
        point = at(float(delta))
        if point is None:
            break
        if point[1] != borders.sign:
            found = locate(lambda _: setup, p, point[0], borders)
            return None if found is None else found[0]
        logs.append(point[2])
    k = int(np.argmin(logs)) if logs else 0
    if not 0 < k < len(logs) - 1:
        return _here(setup, p, borders.rank, at(float(deltas[-1])))
    best = _golden(at, float(deltas[k - 1]), float(deltas[k + 1]))
    return best[0] if best is not None and rank_dropped(setup, best[0], borders.rank) else None


def _here(
    setup: Setup, p: np.ndarray, rank: int, far: tuple[np.ndarray, float, float] | None
) -> np.ndarray | None:
    """``p`` itself (a copy) when it is the singular placement, else ``None``.

    A pull can stop within round-off of a singular placement (a target set right on
    it): the borders made there already count the lost rank, and no sign change or dip
    is left to find. It is one when the rank there is below the rank a step away.
    """
    if far is None:
        return None
    full = np.linalg.matrix_rank(_dense(setup, far[0]), tol=None)
    if rank >= full or not rank_dropped(setup, p, int(full)):
        return None
    return p.copy()


def _golden(
    at: Callable[[float], tuple[np.ndarray, float, float] | None], lo: float, hi: float
) -> tuple[np.ndarray, float, float] | None:
    """Golden-section search of the smallest ``at(x)[2]`` (``log|det B|``) on ``[lo, hi]``.

    ``at(x)`` returns ``(placement, anything, value)`` or ``None``; so does this, for the best.
    """
    ratio = 0.5 * (np.sqrt(5.0) - 1.0)
    a, b = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
    fa, fb = at(a), at(b)
    for _ in range(LOCATE_ITERATIONS + 20):
        if fa is None or fb is None:
            return None
        if fa[2] < fb[2]:
            hi, b, fb = b, a, fa
            a = hi - ratio * (hi - lo)
            fa = at(a)
        else:
            lo, a, fa = a, b, fb
            b = lo + ratio * (hi - lo)
            fb = at(b)
    return min((x for x in (fa, fb) if x is not None), key=lambda x: x[2], default=None)
