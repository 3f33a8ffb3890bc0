r"""Rigidity analysis of a linkage at its current placement.

Everything here derives from the scaled rigidity matrix :math:`A(p)` of
:mod:`linkage_widget.constraints` (``c`` rows, ``dn`` columns; ``d = dim`` is 2 in the
plane, 3 in space):

* infinitesimal motions :math:`\ker A` — their dimension is ``dof``, the
  number the 2007 program showed;
* trivial motions: the rigid-body motions the pins and sliders leave, always in
  :math:`\ker A` (:mod:`linkage_widget.rigidity.rigid_motions`): in the plane 3 without pins,
  2 for a lone point, 1 with one pin, 0 with two distinct pins; with sliders only the
  motions carrying their lines onto themselves (a slide along parallel lines: a free rod
  on one slider 1, a slider-crank or an elliptic trammel 0); in space
  :math:`d(d+1)/2 = 6` without pins, 5 for collinear joints (a rod), 3 for a lone
  point — the rank of their span, computed, never assumed;
  ``internal_dof = dof - trivial_dof`` counts the flexes;
* self-stresses :math:`\omega \in \ker A^T`: constraint forces in
  equilibrium with no load; their number is ``c - rank``;
* Calladine's extended Maxwell rule, an identity of linear algebra:
  :math:`dn - c - t = \text{internal\_dof} - \text{self\_stresses}` (``t`` is
  ``trivial_dof``; the left side is ``maxwell_count``); when it differs from
  ``internal_dof``, self-stresses are the reason, from an over-braced graph (the
  pebble game finds redundant constraints) or a special placement;
* generic rigidity of the graph: in the plane from the (2, 3) pebble game when every
  fixed angle has both its rods (else as in space)
  (:mod:`linkage_widget.rigidity.pebble`); a fixed angle at ``i`` between rods to ``j``
  and ``k`` is generically a rod ``j-k``, and pins tie their vertices to a
  rigid ground triangle by two rods each, played first, so that a rod
  between two pinned joints is found redundant. In space no count decides it (the
  double banana): the exact rank modulo a prime at random placements
  (:mod:`linkage_widget.rigidity.modular_rank`, with its Schwartz–Zippel error bound), the
  same rows in the same order; the report's ``generic_method`` says which;
* the status, decided by tests that are sure of what they say:

  - ``"infinitesimally rigid"``: no internal flex;
  - ``"flexible"``: no self-stress (apart from those of rods between pinned
    joints): :math:`A` has full row rank, and by the implicit function theorem
    the placements nearby form a smooth family of dimension ``internal_dof``; or
    nearby placements found by :func:`~linkage_widget.rigidity.local_dimension.mobility`'s
    numerical sampling, for at most :data:`MOBILITY_MAX_2N` coordinates or a
    single flex (up to :data:`SINGLE_FLEX_MAX_2N` coordinates);
  - ``"rigid but infinitesimally flexible"``: some flex, none extends to second
    order (:mod:`linkage_widget.rigidity.second_order`: prestress stability or an exact or
    closed-form solution of the second-order equations): rigid, yet singular;
  - ``"undecided"``: self-stresses and flexes no test settles (rigid only at a
    higher order, a sampling too slow for an interactive analysis, more than
    :data:`SECOND_ORDER_MAX_FLEXES` flexes or, with several flexes, more than
    :data:`SECOND_ORDER_MAX_STRESSES` self-stresses, whose second-order test would take
    seconds: a 22 x 22 grid with every 7th square braced, 18 flexes and 41 stresses,
    took 31 s before these limits and the convex prestress search, 0.07 s now), or a
    near-singular spectrum: a singular value within a factor
    :data:`~linkage_widget.rigidity.tolerances.MARGIN_MIN` of the rank threshold, which
    the explanation states with the gap rather than guessing the rank.

Two routes, the same counts
---------------------------
Up to :data:`SPARSE_MIN_ENTRIES` entries ``2n * c`` a dense SVD (a few ms) gives
everything (``method="dense-svd"``; the reference path, and ``method="dense"``
forces it). Above, :func:`~linkage_widget.rigidity.sparse_rank.sparse_rank_report` counts
the rank from the inertia of the smaller normal matrix (sparse LDLᵀ by SuperLU,
checked by Lanczos and Ritz values on :math:`A`: penrose4t in ~10 ms against
~1 s) and the report's bases are computed on first access, only as far as they
are shown (:mod:`linkage_widget.rigidity.report`). ``method`` says which, and
any fallback to a dense SVD with its reason.

Tolerance
---------
A singular value counts as zero when it is at most ``tolerance`` times the largest.
Until issue 14 this was a fixed ``1e-7`` (:data:`RANK_RTOL`), chosen between two gaps
in the 2007 program's own files: the Penrose "t" tilings flex only approximately,
their coordinates rounded to six decimals (the flex shows as a singular value near
1e-9), while the locked variant's smallest genuine one is 1.5e-6. A fixed value
misjudges exact data: a 12-joint Laman framework at integer coordinates has a
genuine smallest singular value 1.2e-8 (PyRigi's exact rank: infinitesimally
rigid) and random Laman placements of 1 700 joints have some below 1e-7. The
default is now ``rtol="auto"``
(:func:`~linkage_widget.rigidity.sparse_rank.scale_aware_rtol`): the round-off floor
:math:`10\max(c, 2n)\varepsilon` for exact or floating data, and for coordinates
rounded at a decimal quantum :math:`q` (the "t" files: :math:`q = 10^{-6}`) ten
times the singular value that rounding can fake, :math:`5q/(\ell_{\min}
\sigma_{\max})` — about 4e-8 on the Penrose files, between their two gaps, so
every reference file and bundled example keeps its verdict. Pass ``rtol=1e-7``
for the 2007 rule.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import _checks
from ..constraints import ConstraintSet, as_flat
from ..model import Linkage
from .local_dimension import mobility_from, numerical_mobility
from .modular_rank import MAX_COLUMNS, TRIALS, error_bound, random_generic_rank
from .pebble import pinned_pebble_game
from .report import SHOWN, STATUSES, DenseSource, RigidityReport, SparseSource, explain, near_note
from .rigid_motions import ground_sliders, linkage_trivial_motions, trivial_motions
from .second_order import (
    Infinitesimal,
    decide_second_order,
    ground_rows,
    infinitesimal,
    require_linkage,
)
from .slot_placement import project_on_slots, slot_order
from .sparse_rank import counted_report, scale_aware_rtol, sigma_max_estimate, sparse_rank_report
from .tolerances import RANK_RTOL, SECOND_ORDER_RTOL

__all__ = [
    "METHODS",
    "MOBILITY_MAX_2N",
    "SECOND_ORDER_MAX_FLEXES",
    "SECOND_ORDER_MAX_STRESSES",
    "SINGLE_FLEX_MAX_2N",
    "SPARSE_MIN_ENTRIES",
    "analyze",
    "pebble_game_applies",
    "generic_analysis",
]

#: The numerical mobility test runs for linkages up to this many coordinates 2n ...
MOBILITY_MAX_2N = 200
#: ... and, with a single flex (two projections on the sparse Jacobian), up to this many.
SINGLE_FLEX_MAX_2N = 20_000
#: Above this many entries 2n * c of the rigidity matrix, the sparse route counts.
SPARSE_MIN_ENTRIES = 40_000
#: The second-order test runs with at most this many flexes (one flex: any number of
#: stresses, the stress energies are numbers) ...
SECOND_ORDER_MAX_FLEXES = 20
#: ... and, with several flexes, at most this many self-stresses.
SECOND_ORDER_MAX_STRESSES = 100
METHODS = ("auto", "dense", "sparse")
Lazy = Callable[[], float]


def generic_analysis(linkage: Linkage) -> tuple[int, np.ndarray]:
    """Generic rank of the constraints and the rods the pebble game finds redundant.

    The pins go first (see :func:`~linkage_widget.rigidity.pebble.pinned_pebble_game`:
    they are always independent, and a rod between two pinned joints is then
    redundant), then the rods (so redundancy is reported on rods when it can
    be), then a rod ``j-k`` for each fixed angle ``(i, j, k)``. The number of
    redundant rods and angles is ``n_constraints - generic_rank``, the number
    of self-stresses of a generic placement.

    Returns
    -------
    generic_rank : int
    redundant_rods : ndarray of bool, shape (m,)

    Examples
    --------
    >>> k4 = Linkage([[0, 0], [2, 0], [0, 2], [1, 1.5]],
    ...              rods=[(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)])
    >>> rank, redundant = generic_analysis(k4)
    >>> rank, int(redundant.sum())
    (5, 1)
    >>> between_pins = Linkage([[0, 0], [1, 0]], rods=[(0, 1)], pinned=[0, 1])
    >>> generic_analysis(between_pins)[1].tolist()
    [True]
    """
    rank, redundant, _ = _generic(linkage)
    return rank, redundant


def _generic(linkage: Linkage) -> tuple[int, np.ndarray, str]:
    """:func:`generic_analysis` with the method used, cached by graph."""
    g = linkage.guides
    key = (
        linkage.n_vertices,
        linkage.dim,
        *(x.tobytes() for x in (linkage.rods, linkage.angles, linkage.pinned)),
        *(x.tobytes() for x in (g.slider_joints, g.slots)),
    )
    entry = _GENERIC.get(key)
    if entry is None:
        if pebble_game_applies(linkage):
            edges = [*linkage.rods.tolist(), *linkage.angles[:, 1:].tolist()]
            pins, slides = linkage.pinned.tolist(), g.slider_joints.tolist()
            accepted, rank = pinned_pebble_game(linkage.n_vertices, edges, pins, slides)
            how = "pebble game (2, 3)" + (" with sliders" if slides else "")
        else:
            rank, accepted, how = _generic_random(linkage)
        if len(_GENERIC) >= GENERIC_CACHE_SIZE:
            _GENERIC.clear()  # simple and thread-safe: the session's worker analyses too
        _GENERIC[key] = entry = (rank, ~accepted[: linkage.n_rods], how)
    return entry[0], entry[1].copy(), entry[2]


def pebble_game_applies(linkage: Linkage) -> bool:
    """Whether the planar pebble game decides generic rigidity of ``linkage``.

    In the plane, with every fixed angle held by both its rods (then it is generically
    a rod ``j-k``) and no slot; sliders are played as slider-pinning
    (:func:`~linkage_widget.rigidity.pebble.pinned_pebble_game`). In space, with an angle
    lacking a rod, or with a slot (one row on three joints, which no pebble game counts),
    generic rigidity is the rank at random placements instead (:func:`generic_analysis`
    picks).
    """
    if linkage.dim != 2 or linkage.guides.n_slots:
        return False
    if not len(linkage.angles):
        return True
    # every arm (apex, j) and (apex, k) among the rods, as unordered pairs: i * n + j, i < j
    n = linkage.n_vertices

    def keys(pairs: np.ndarray) -> np.ndarray:
        return pairs.min(axis=1) * n + pairs.max(axis=1)

    arms = linkage.angles[:, [0, 1, 0, 2]].reshape(-1, 2)
    return bool(np.isin(keys(arms), keys(linkage.rods)).all()) if len(linkage.rods) else False


def _generic_random(linkage: Linkage) -> tuple[int, np.ndarray, str]:
    """Generic rank at random placements: in space, with an angle or a slot the pebble game lacks.

    Exact modulo a prime up to :data:`~linkage_widget.rigidity.modular_rank.MAX_COLUMNS`
    coordinates, the floating rank of one random placement above.
    """
    n, d, pins = linkage.n_vertices, linkage.dim, linkage.pinned.tolist()
    rods, angles = linkage.rods.tolist(), linkage.angles.tolist()
    slides, slots = linkage.guides.slider_joints.tolist(), linkage.guides.slots.tolist()
    why = "" if d == 3 else " (an angle without its rods: no pebble game)"
    if slots:
        why = " (a slot: one row on three joints, no pebble game)"
    if d * n <= MAX_COLUMNS and slot_order(slots) is not None:
        # no more than the rows, nor than dn less the trivial motions of a generic placement
        rows = d * len(pins) + len(slides) + len(rods) + len(angles) + len(slots)
        upper = min(rows, d * n - _generic_trivial_dof(linkage))
        rank, accepted = random_generic_rank(
            n, rods, pins, angles=angles, dim=d, upper=upper, sliders=slides, slots=slots
        )
        if rank >= upper:
            return (
                rank,
                accepted,
                f"random placement: rank mod P, reaches its upper bound (exact){why}",
            )
        bound = error_bound(rank + 4 * len(angles))
        how = f"random placement: rank mod P, {TRIALS} trials, P(wrong) <= {bound:.1e}{why}"
        return rank, accepted, how
    # Too large for the dense exact elimination (or slots with no exact placement): the
    # floating rank at one random placement (which rods are redundant is not located).
    rng = np.random.default_rng(0)  # slots waiting for each other: projected onto them
    p = (
        project_on_slots(rng.standard_normal((n, d)), slots)
        if slots
        else rng.standard_normal((n, d))
    )
    ways = rng.standard_normal((len(slides), 2))
    rand = Linkage(
        p, rods=rods, angles=angles, pinned=pins, slots=slots,
        sliders=[(j, p[j], u) for j, u in zip(slides, ways, strict=True)],
    )  # fmt: skip
    rank = sparse_rank_report(rand, rtol="auto").rank
    how = f"random placement: floating-point rank (sparse inertia), 1 trial; no error bound{why}"
    return rank, np.ones(len(rods) + len(angles) + len(slots), bool), how


#: The pebble game (and a generic placement's trivial motions) depend on the graph only,
#: not on the placement: a drag (or a repeated analysis) reuses them. Entries kept before
#: the cache starts afresh.
GENERIC_CACHE_SIZE = 8
_GENERIC: dict[tuple[Any, ...], Any] = {}


def _generic_trivial_dof(linkage: Linkage) -> int:
    """Trivial motions of a generic placement: computed at a random one.

    Random joints, and random slider normals too: the generic count takes the sliders'
    directions generic (parallel sliders are a special placement, as collinear joints are).
    """
    n, d, joints = linkage.n_vertices, linkage.dim, linkage.guides.slider_joints
    key = ("trivial", n, d, linkage.pinned.tobytes(), joints.tobytes())  # kept as the graph's
    t = _GENERIC.get(key)  # get, not "in": another thread may clear the cache meanwhile
    if t is None:
        rng = np.random.default_rng(0)
        normals = rng.standard_normal((len(joints), d))
        p = rng.standard_normal((n, d))
        t = trivial_motions(p, linkage.pinned, d, sliders=(joints, normals)).shape[1]
        if len(_GENERIC) >= GENERIC_CACHE_SIZE:
            _GENERIC.clear()
        _GENERIC[key] = t
    return t


@dataclass
class _Counts:
    """What either route found: counts, bases source, method, gap and the near-singular note."""

    rank: int
    trivial: int
    source: Any
    method: str
    tolerance: float
    gap: float
    near: str  # empty when the rank is decided, else the sentence saying why not


def _dense_counts(linkage: Linkage, a: Any, p: np.ndarray, tol: float) -> _Counts:
    """The dense SVD route (the reference)."""
    inf = infinitesimal(
        a, p.reshape(-1, linkage.dim), linkage.pinned, rtol=tol, sliders=ground_sliders(linkage)
    )
    rel = inf.singular_values / inf.singular_values[0] if inf.singular_values.size else np.zeros(0)
    low, high = rel[rel <= tol], rel[rel > tol]
    below = float(low.max()) if low.size and low.max() > 0 else None
    gap, near = near_note(below, float(high.min()) if high.size else None, tol)
    return _Counts(inf.rank, inf.trivial.shape[1], DenseSource(inf), "dense-svd", tol, gap, near)


def _sparse_counts(linkage: Linkage, cs: ConstraintSet, a: Any, smax: float, tol: float) -> _Counts:
    """The sparse inertia route on ``analyze``'s matrix and ``smax``; bases only on demand."""
    rep = counted_report(linkage, cs, a, smax, tol, SHOWN)
    if rep.method.startswith("dense-svd"):
        reason = rep.method.partition("fallback: ")[2].rstrip(")") or "sparse route failed"
        method = f"sparse-inertia-fallback to dense: {reason}"
    else:
        method = f"sparse-inertia: {rep.method.removeprefix('sparse: ')}"
    gap, near = near_note(rep.sigma_below, rep.sigma_above, tol)
    if not near and not rep.decided:
        near = (
            "Near-singular, undecided: the sparse count and its check disagree near the rank "
            f"threshold {tol:.2g} ({method})."
        )
    triv = linkage_trivial_motions(linkage)
    return _Counts(rep.rank, triv.shape[1], SparseSource(rep, triv), method, tol, gap, near)


def _tolerance(linkage: Linkage, cs: ConstraintSet, smax: Lazy, rtol: float | str) -> float:
    """``rtol`` itself or the scale-aware one of ``"auto"`` (``smax()`` if rounding needs it)."""
    if isinstance(rtol, str):
        if rtol != "auto":
            raise ValueError(f"rtol must be a positive number or 'auto', got {rtol!r}")
        scaled = min(cs.shape) > 0  # no rows or no columns: sigma_max is 0
        return scale_aware_rtol(linkage, smax, constraints=cs) if scaled else RANK_RTOL
    return _checks.positive(rtol, "rtol")


def analyze(
    linkage: Linkage,
    *,
    rtol: float | str = "auto",
    with_mobility: bool = False,
    method: str = "auto",
) -> RigidityReport:
    """Analyse the rigidity of ``linkage`` at its current placement.

    Parameters
    ----------
    linkage : Linkage
    rtol : float or "auto", keyword-only
        Relative tolerance of the numerical rank: ``"auto"`` (default, scale-aware,
        see the module notes) or a number (``RANK_RTOL`` = 1e-7 is the 2007 rule).
    with_mobility : bool, keyword-only
        Also compute :func:`~linkage_widget.rigidity.local_dimension.mobility` (the report's
        ``mobility``, and a ``motion:`` line in its summary); meant for small
        linkages (``None`` beyond the second-order limits).
    method : {"auto", "dense", "sparse"}, keyword-only
        ``"auto"``: dense SVD up to :data:`SPARSE_MIN_ENTRIES` entries, sparse above.

    Returns
    -------
    RigidityReport

    Examples
    --------
    >>> tri = Linkage([[0, 0], [4, 0], [0, 3]], rods=[(0, 1), (1, 2), (0, 2)])
    >>> r = analyze(tri)
    >>> r.dof, r.trivial_dof, r.internal_dof, r.status, r.method
    (3, 3, 0, 'infinitesimally rigid', 'dense-svd')
    >>> line = Linkage([[0, 0], [1, 0], [2, 0]], rods=[(0, 1), (1, 2)], pinned=[0, 2])
    >>> analyze(line).status
    'rigid but infinitesimally flexible'
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    cs = ConstraintSet.from_linkage(require_linkage(linkage, "analyze"))
    p = as_flat(linkage.vertices).copy()
    n, c = linkage.n_vertices, cs.n_constraints
    sparse = method == "sparse" or (method == "auto" and linkage.dim * n * c > SPARSE_MIN_ENTRIES)
    # the sparse matrix when the sparse route or the tolerance of rounded data needs it: a
    # small linkage's dense SVD takes the dense array straight from the pattern
    jac = functools.cache(lambda: cs.jacobian(p).tocsr())
    smax = functools.cache(lambda: sigma_max_estimate(jac()) if min(cs.shape) else 0.0)
    tol = _tolerance(linkage, cs, smax, rtol)  # smax at most once
    if sparse and n:
        return _report(linkage, cs, _sparse_counts(linkage, cs, jac(), smax(), tol), with_mobility)
    counts = _dense_counts(linkage, cs.jacobian_dense(p), p, tol)
    return _report(linkage, cs, counts, with_mobility)


def _report(linkage: Linkage, cs: ConstraintSet, k: _Counts, with_mobility: bool) -> RigidityReport:
    """The report from the counts: pebble game, status, explanation, mobility."""
    n, c, dn = linkage.n_vertices, cs.n_constraints, linkage.dim * linkage.n_vertices
    dof, n_stress = dn - k.rank, c - k.rank
    internal = dof - k.trivial
    generic_rank, redundant, generic_method = _generic(linkage)
    generic_internal = dn - generic_rank - _generic_trivial_dof(linkage)
    # First-order data (bases) only if the status or the mobility needs them: a flexible
    # ladder of 20 000 joints is decided by its counts (0.4 s of projections saved).
    first = functools.cache(lambda: _first_order(linkage, k, internal, n_stress, with_mobility))
    status, how = _status(linkage, cs, k, first, internal, n_stress)
    maxwell = dn - c - k.trivial
    text = explain(internal, maxwell, n_stress, c - generic_rank, status, how)
    if generic_internal == 0 and internal > 0:
        text.append("A generic placement of the same graph would be rigid.")
    if k.trivial and linkage.guides.n_sliders:
        text.append("Its sliders' lines are parallel: it can slide along them as one body.")
    inf = first() if with_mobility else None
    mob = mobility_from(linkage, cs, inf, rtol=max(k.tolerance, RANK_RTOL)) if inf else None
    return RigidityReport(
        n_vertices=n, n_constraints=c, rank=k.rank, dof=dof, trivial_dof=k.trivial,
        internal_dof=internal, self_stresses=n_stress, maxwell_count=maxwell,
        generic_rank=generic_rank, generic_internal_dof=generic_internal,
        generically_rigid=generic_internal == 0, redundant_rods=redundant, status=status,
        explanation=" ".join(text), mobility=mob, method=k.method, tolerance=k.tolerance,
        gap=k.gap, generic_method=generic_method, dim=linkage.dim, row_kinds=cs.row_kinds(),
        _source=k.source,
    )  # fmt: skip


def _first_order(
    linkage: Linkage, k: _Counts, d: int, s: int, stresses: bool
) -> Infinitesimal | None:
    """The first-order data when the second-order test is within its limits, else None.

    On the sparse route with one flex and ``stresses`` false the stresses are left out
    (:func:`_one_flex_rigid` needs none): penrose4t's 141 would cost 190 ms.
    """
    if d > SECOND_ORDER_MAX_FLEXES or (d > 1 and s > SECOND_ORDER_MAX_STRESSES):
        return None
    if isinstance(k.source, DenseSource):
        return k.source.inf
    src, c = k.source, k.source.rep.n_constraints
    w = src.stresses(s) if stresses or d != 1 else np.zeros((0, c))
    return Infinitesimal(k.rank, src.singular_values(), src.trivial(), src.flexes(d), w)


def _one_flex_rigid(linkage: Linkage, cs: ConstraintSet, k: _Counts, inf: Infinitesimal) -> bool:
    r"""Second-order rigidity with one flex :math:`u`, on the sparse route.

    Rigid exactly when some stress energy :math:`w^T g''[u, u]` is nonzero, i.e. when
    :math:`g''[u, u]` has a part in :math:`\ker A^T` (one projection, no stress basis;
    its norm is the largest stress energy over unit stresses).
    """
    u = inf.flexes[:, 0]
    part = k.source.stress_part(cs.second_derivative(linkage.vertices, u, u))
    return bool(cs.length_scale * np.linalg.norm(part) > SECOND_ORDER_RTOL)


def _status(
    linkage: Linkage,
    cs: ConstraintSet,
    k: _Counts,
    first: Callable[[], Infinitesimal | None],
    d: int,
    s: int,
) -> tuple[str, str]:
    """One of :data:`STATUSES`, and for ``"flexible"`` how the motion was established."""
    if k.near:
        return STATUSES[3], k.near
    if d == 0:
        return STATUSES[1], ""
    if s - ground_rows(linkage) <= 0:
        # A has full row rank (once the rows the pins imply are dropped): the constraint
        # set is a manifold of dimension internal_dof near p.
        return STATUSES[0], ""
    inf = first()
    if inf is None:
        return STATUSES[3], (
            f"Undecided: {d} infinitesimal flexes and {s} self-stresses are beyond the "
            f"interactive second-order test (at most {SECOND_ORDER_MAX_FLEXES} flexes, and "
            f"{SECOND_ORDER_MAX_STRESSES} self-stresses when there are several flexes)."
        )
    if inf.n_stresses == 0:  # the sparse route left them out: one flex
        rigid: bool | None = _one_flex_rigid(linkage, cs, k, inf)
    else:
        rigid = decide_second_order(linkage, cs, inf)[0]
    if rigid:
        return STATUSES[2], ""
    n2 = linkage.dim * linkage.n_vertices
    if n2 <= MOBILITY_MAX_2N or (d == 1 and n2 <= SINGLE_FLEX_MAX_2N):
        # The damping is a regularisation, not the rank rule: rounded data needs 1e-7.
        rtol = max(k.tolerance, RANK_RTOL)
        dimension, _ = numerical_mobility(linkage, cs, inf, rtol=rtol, any_motion=True)
        if dimension:
            return STATUSES[0], (
                ": a real motion, found by projecting steps along the flexes back onto the "
                "constraints"
            )
    return STATUSES[3], ""
