r"""Global and universal rigidity: is this the only way to build the framework.

A bar framework :math:`(G, p)` in :math:`\mathbb{R}^d` is *globally rigid* when every
placement :math:`q` with the same rod lengths is congruent to :math:`p`, and
*universally rigid* when that holds for placements in every dimension.

The generic verdict (a property of the graph, true at almost every placement):

* in the plane, Jackson and Jordán (2005) with Connelly (2005): a graph is generically
  globally rigid exactly when it is :math:`K_1`, :math:`K_2`, :math:`K_3`, or has at
  least four vertices, is 3-connected (:mod:`.connectivity`) and *redundantly rigid*
  (rigid after removing any one rod: every rod in a circuit of the rigidity matroid,
  from one pebble game, :mod:`.circuits`). Exact: ``error_probability`` is 0.
* in any dimension, Gortler, Healy and Thurston (2010): with :math:`n \ge d + 2`
  vertices, exactly when a generic placement has a self-stress whose stress matrix has
  rank :math:`n - d - 1` (a random test modulo a prime, :mod:`.stress_matrix`, whose
  "no" may be wrong with probability at most ``error_probability``); :math:`K_n` with
  :math:`n \le d + 1` is globally rigid. In the plane both are computed in the tests and
  agree.

This placement. A generic verdict says nothing certain about a special placement. The
report says ``globally_rigid=True`` only with a certificate valid at *any* placement:
a self-stress whose stress matrix is positive semidefinite of rank :math:`n - d - 1`
with the rod directions on no conic at infinity (Connelly's super stability,
:mod:`.universal`), which makes the framework universally, hence globally, rigid; or a
complete graph. It says ``False`` only with ``other_placement``, a placement with the
same rod lengths (to :data:`~.tolerances.SAME_LENGTH_TOL`) that is not congruent: a fold
across a separating pair, or a solve (:mod:`.other_placement`). Otherwise ``None``:
undecided. Connelly's theorem (a stress of rank :math:`n - d - 1`, any signature, at an
infinitesimally rigid placement) gives global rigidity only when :math:`p` is *generic*,
which a float placement cannot be shown to be: the report then says so and stays
``None``.

What is read. Rods, cables and struts are all bars here (for global rigidity a cable is
held at its length; :func:`universal_rigidity` reads their signs). Pinned joints are one
ground body: bars are added between every two of them (their stresses are not reported
in ``stress``), so a fold never moves the ground. Placements are compared up to
congruence, as a bar framework's: when the pins do not span the space (two in the plane,
three in space) the mirror image of everything in their line or plane keeps them and is
physically another placement, which these verdicts count as the same. Fixed angles,
sliders and slots are refused (``ValueError``): these theorems are about bar frameworks.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np

from ..model import Linkage
from .circuits import basis_and_redundancy
from .connectivity import separating_pair
from .other_placement import fold, separate, solve_other
from .stress_matrix import MAX_DENSE_COLUMNS, generic_redundancy, generic_stress_rank
from .stress_matrix import stress_matrix as _omega
from .tolerances import CERTIFICATE_RTOL
from .universal import MAX_PSD_SEARCH, conic_at_infinity, psd_stress, random_self_stress

__all__ = [
    "GlobalRigidityReport",
    "UniversalRigidityReport",
    "global_rigidity",
    "universal_rigidity",
]

#: The random-start solve for another placement is tried up to this many joints.
SOLVE_MAX_JOINTS = 40


@dataclass(frozen=True, eq=False)
class GlobalRigidityReport:
    """What :func:`global_rigidity` found (see the module notes for the theorems).

    Attributes
    ----------
    generically_globally_rigid : bool
        The graph's verdict (pins read as one ground body).
    globally_rigid : bool or None
        This placement: True with a certificate, False with ``other_placement``, else None.
    other_placement : ndarray, shape (n, d), or None
        Same rod lengths, not congruent (pinned joints unmoved).
    stress : ndarray, shape (m,), or None
        The certifying stress over the rods (repeats get 0), largest |entry| 1.
    stress_rank : int or None
        Rank of ``stress``'s stress matrix, or of a random self-stress's at this
        placement when there is no certificate; None without a self-stress or when too large.
    three_connected, redundantly_rigid : bool
        The graph's properties (``redundantly_rigid`` in space from the random test).
    separating_pair : tuple of int or None
        Two joints whose removal disconnects the graph.
    error_probability : float
        Upper bound on the chance that ``generically_globally_rigid`` is wrong.
    explanation : str
        In words: the verdicts, which stress certifies, what stays undecided.
    """

    generically_globally_rigid: bool
    globally_rigid: bool | None
    other_placement: np.ndarray | None
    stress: np.ndarray | None
    stress_rank: int | None
    three_connected: bool
    redundantly_rigid: bool
    separating_pair: tuple[int, int] | None
    error_probability: float
    explanation: str

    def __str__(self) -> str:
        return self.explanation


@dataclass(frozen=True, eq=False)
class UniversalRigidityReport:
    """What :func:`universal_rigidity` found.

    Attributes
    ----------
    universally_rigid : bool or None
        True with a proper PSD stress of rank ``n - d - 1`` and no conic at infinity;
        False when the framework is not even globally rigid (another placement found);
        else None.
    stress : ndarray, shape (m,), or None
        The certificate (positive on cables, negative on struts), largest |entry| 1.
    explanation : str
    """

    universally_rigid: bool | None
    stress: np.ndarray | None
    explanation: str

    def __str__(self) -> str:
        return self.explanation


@dataclass(frozen=True)
class _Bars:
    """The bar framework read off a linkage: simple edges, their rods, pins as ground."""

    p: np.ndarray
    edges: np.ndarray  # (k, 2): the distinct rods, then bars between pins
    rod_of: np.ndarray  # (k,): the rod of each edge, -1 for a ground bar
    kinds: np.ndarray  # (k,) str
    pins: np.ndarray
    m: int


def _bars(linkage: Linkage) -> _Bars:
    """Check the linkage is a bar framework and read its graph (module notes)."""
    if not isinstance(linkage, Linkage):
        raise TypeError(f"expected a Linkage, got {type(linkage).__name__}")
    extra = [(len(linkage.angles), "fixed angles"), (len(linkage.sliders), "sliders"),
             (len(linkage.slots), "slots")]  # fmt: skip
    for count, name in extra:
        if count:
            raise ValueError(f"the linkage has {count} {name}: global rigidity here is for "
                             "bar (and cable/strut) frameworks")  # fmt: skip
    rods, kinds = np.asarray(linkage.rods, np.int64).reshape(-1, 2), linkage.rod_kinds
    ends = np.sort(rods, axis=1)
    # the first rod of each pair of joints, in rod order (vectorised: 10^4 joints)
    _, first = np.unique(ends, axis=0, return_index=True)
    first = np.sort(first)
    seen = set(map(tuple, ends[first].tolist()))
    pins = np.unique(linkage.pinned)
    ground = [(int(a), int(b)) for a, b in combinations(pins.tolist(), 2) if (a, b) not in seen]
    edges = np.concatenate([ends[first], np.array(ground, np.int64).reshape(-1, 2)])
    rod_of = np.concatenate([first, np.full(len(ground), -1)]).astype(np.int64)
    edge_kinds = np.concatenate([np.asarray(kinds)[first], ["rod"] * len(ground)]).astype("<U5")
    return _Bars(np.array(linkage.vertices, float), edges, rod_of, edge_kinds, pins, len(rods))


def _complete(n: int, edges: np.ndarray) -> bool:
    return len(edges) == n * (n - 1) // 2


@dataclass(frozen=True)
class _Generic:
    ggr: bool
    three: bool
    redundant: bool
    pair: tuple[int, int] | None
    error: float
    words: str
    rigid: bool = True


def _planar_generic(n: int, edges: np.ndarray) -> _Generic:
    """Jackson–Jordán, exact (module notes)."""
    pair = separating_pair(n, edges)
    three = n >= 4 and pair is None
    accepted, in_circuit = basis_and_redundancy(n, edges)  # one pebble game for both
    rigid = n <= 1 or int(accepted.sum()) == 2 * n - 3
    redundant = n == 1 or (n >= 4 and rigid and bool(in_circuit.all()))
    if n <= 3:
        ggr = _complete(n, edges)
        words = f"K{n}" if ggr else f"{n} joints, not all joined"
        return _Generic(ggr, False, redundant, pair, 0.0,
                        f"{words}: {'' if ggr else 'not '}generically globally rigid",
                        rigid)  # fmt: skip
    ggr = three and redundant
    why = [] if three else [f"not 3-connected (joints {pair[0]}, {pair[1]} separate it)"
                            if pair else "not 3-connected"]  # fmt: skip
    if not redundant:
        why.append("not redundantly rigid" if rigid else "not even rigid")
    words = ("3-connected and redundantly rigid: generically globally rigid (Jackson–Jordán)"
             if ggr else "generically not globally rigid: " + " and ".join(why))  # fmt: skip
    return _Generic(ggr, three, redundant, pair, 0.0, words, rigid)


def _space_generic(n: int, edges: np.ndarray, d: int, seed: int | None) -> _Generic:
    """Gortler–Healy–Thurston's random stress-matrix test (module notes)."""
    pair = separating_pair(n, edges)
    three = n >= 4 and pair is None
    if n <= d + 1:
        ggr = _complete(n, edges)
        return _Generic(ggr, three, False, pair, 0.0,
                        f"{n} joints in {d}-D: {'' if ggr else 'not '}complete, so "
                        f"{'' if ggr else 'not '}generically globally rigid")  # fmt: skip
    if d * n > MAX_DENSE_COLUMNS:
        raise ValueError(f"{n} joints in {d}-D: the random stress test is kept to "
                         f"{MAX_DENSE_COLUMNS // d} joints")  # fmt: skip
    rigid, in_circuit = generic_redundancy(n, edges, d, seed)
    rank, error = generic_stress_rank(n, edges, dim=d, seed=seed)
    ggr = rank == n - d - 1
    words = (f"a generic stress matrix of rank {rank} = n - d - 1: generically globally rigid "
             "(Gortler–Healy–Thurston)" if ggr else
             f"the largest generic stress-matrix rank found is {rank} < {n - d - 1} = "
             f"n - d - 1: generically not globally rigid (wrong with probability "
             f"<= {error:.1e})")  # fmt: skip
    return _Generic(ggr, three, rigid and bool(in_circuit.all()), pair, error, words)


def _generic(bars: _Bars, seed: int | None) -> _Generic:
    n, d = bars.p.shape
    if n >= max(d + 2, 4) and _complete(n, bars.edges):
        # K_n is (n - 1)-connected and rigid without any one rod: no search needed
        return _Generic(True, True, True, None, 0.0,
                        f"K{n}: complete, so generically globally rigid")  # fmt: skip
    return _planar_generic(n, bars.edges) if d == 2 else _space_generic(n, bars.edges, d, seed)


def generic_global_verdict(linkage: Linkage) -> bool | None:
    """Whether a planar linkage's graph is generically globally rigid; ``None``: not rigid.

    The graph alone (distinct rods, the pins as one body), no search at this placement:
    the verdict :func:`global_rigidity` reports as ``generically_globally_rigid``, for a
    readout that asks on every edit. Same refusals as :func:`global_rigidity`, and 3-D.
    """
    bars = _bars(linkage)
    n, d = bars.p.shape
    if d != 2:
        raise ValueError("generic_global_verdict is planar (in space: global_rigidity)")
    verdict = _generic(bars, None)
    return verdict.ggr if verdict.rigid else None


def _rods_stress(bars: _Bars, w: np.ndarray) -> np.ndarray:
    """A stress over the distinct edges as one over the linkage's rods (repeats 0)."""
    out = np.zeros(bars.m)
    keep = bars.rod_of >= 0
    out[bars.rod_of[keep]] = w[keep]
    return out


def _stress_rank(omega: np.ndarray) -> int:
    vals = np.linalg.eigvalsh(omega)
    return int((np.abs(vals) > CERTIFICATE_RTOL * max(np.abs(vals).max(initial=0.0), 1e-300)).sum())


def _random_stress_rank(bars: _Bars, seed: int | None) -> tuple[int | None, bool]:
    """Rank of a random self-stress's matrix at this placement; and infinitesimal rigidity."""
    n, d = bars.p.shape
    w, rank_r = random_self_stress(bars.p, bars.edges, np.random.default_rng(seed))
    rigid = rank_r == d * n - d * (d + 1) // 2
    return (None if w is None else _stress_rank(_omega(n, bars.edges, w))), rigid


def _certificate(bars: _Bars, kinds: np.ndarray, seed: int | None) -> tuple[np.ndarray | None, str]:
    """Connelly's super-stability certificate at this placement (module notes), or why not."""
    n, d = bars.p.shape
    if n > MAX_PSD_SEARCH:
        return None, f"{n} joints: the stress certificate is searched up to {MAX_PSD_SEARCH}"
    w, why = psd_stress(bars.p, bars.edges, kinds, seed=seed)
    if w is None:
        return None, why
    # a cable or strut the stress leaves unloaded may go slack: only bars and loaded
    # members hold their directions (Connelly's condition for tensegrities)
    held = (kinds == "rod") | (w != 0.0)
    if conic_at_infinity(bars.p, bars.edges[held]):
        return None, ("a PSD stress of rank n - d - 1 exists but the rods and loaded "
                      "members lie on a conic at infinity")  # fmt: skip
    return w, why


def _cheap_other(bars: _Bars, pair: tuple[int, int] | None) -> tuple[np.ndarray | None, str]:
    """Another placement by moving a component away or a fold (no search), or (None, "")."""
    q = separate(bars.p, bars.edges, bars.pins)
    if q is not None:
        return q, "moving a component away"
    q = fold(bars.p, bars.edges, pair, bars.pins) if pair is not None else None
    if q is not None:
        return q, f"folding across joints {pair[0]}, {pair[1]}"
    return None, ""


def _other(
    bars: _Bars, pair: tuple[int, int] | None, ggr: bool, seed: int | None
) -> tuple[np.ndarray | None, str]:
    """A non-congruent placement with the same lengths, and how it was found (or None, "")."""
    q, how = _cheap_other(bars, pair)
    if q is not None:
        return q, how
    if not ggr and len(bars.p) <= SOLVE_MAX_JOINTS:
        q = solve_other(bars.p, bars.edges, bars.pins, seed=0 if seed is None else seed)
    return q, "solving for the rod lengths from random starts"


def _placement_words(
    certified: bool, q: np.ndarray | None, how: str, rank: int | None,
    rigid: bool, n: int, d: int, why: str,
) -> str:  # fmt: skip
    """The sentence about this placement."""
    if certified:
        return (f"this placement: universally, hence globally, rigid, certified by a PSD "
                f"self-stress of rank {n - d - 1} = n - d - 1 (Connelly): {why}")  # fmt: skip
    if q is not None:
        return f"this placement: not globally rigid: {how} gives another with the same lengths"
    words = f"this placement: undecided ({why})"
    if rank == n - d - 1 and rigid:
        words += (f"; a self-stress of rank {rank} = n - d - 1 at an infinitesimally rigid "
                  "placement: globally rigid if the placement is generic (Connelly), "
                  "which is not certified")  # fmt: skip
    return words


def global_rigidity(linkage: Linkage, *, seed: int | None = None) -> GlobalRigidityReport:
    """Whether the framework's graph, and this placement, are globally rigid.

    Parameters
    ----------
    linkage : Linkage
        A bar framework (rods, cables, struts, pins) in 2-D or 3-D.
    seed : int or None, keyword-only
        Seed of the random tests (the generic stress test in space, the stress search).
        None (the default, as in :func:`universal_rigidity`): fresh
        randomness; an int repeats a run.

    Returns
    -------
    GlobalRigidityReport
        See the module notes for what each verdict rests on.

    Raises
    ------
    ValueError
        With fixed angles, sliders or slots; in space, with more joints than the random
        stress test's dense route takes (``MAX_DENSE_COLUMNS // 3``, 300), unless the
        graph is complete.

    Examples
    --------
    >>> from linkage_widget import Linkage
    >>> k4 = Linkage([[0, 0], [4, 0], [1, 3], [1.3, 1.1]],
    ...              rods=[(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)])
    >>> report = global_rigidity(k4, seed=0)
    >>> report.generically_globally_rigid, report.globally_rigid
    (True, True)
    """
    bars = _bars(linkage)
    gen = _generic(bars, seed)
    n, d = bars.p.shape
    complete = _complete(n, bars.edges)  # every distance a rod length, at any placement
    # the cheap fold or separation first: the stress search is the costly part
    q, how = _cheap_other(bars, gen.pair)
    w, why = ((None, "") if n <= d + 1 or q is not None
              else _certificate(bars, np.full(len(bars.edges), "rod"), seed))  # fmt: skip
    if w is None and complete:
        return GlobalRigidityReport(
            gen.ggr, True, None, None, None, gen.three, gen.redundant, gen.pair, gen.error,
            f"{gen.words}; this placement: every two joints are joined, so globally rigid",
        )  # fmt: skip
    if w is None and q is None:
        q, how = _other(bars, gen.pair, gen.ggr, seed)
    rank, rigid = (None, False) if n > MAX_PSD_SEARCH else _random_stress_rank(bars, seed)
    if w is not None:
        rank = _stress_rank(_omega(n, bars.edges, w))
    words = _placement_words(w is not None, q, how, rank, rigid, n, d, why)
    return GlobalRigidityReport(
        gen.ggr, True if w is not None else (False if q is not None else None), q,
        None if w is None else _rods_stress(bars, w), rank, gen.three, gen.redundant,
        gen.pair, gen.error, f"{gen.words}; {words}",
    )  # fmt: skip


def universal_rigidity(linkage: Linkage, *, seed: int | None = None) -> UniversalRigidityReport:
    """Whether this placement is universally rigid: unique in every dimension.

    A tensegrity's cables may shorten and struts lengthen: the certificate is then a
    *proper* stress (positive on cables, negative on struts; Connelly's theorem for
    tensegrities). See :mod:`.universal` for the sufficient condition checked.

    ``seed`` (keyword-only) seeds the stress search's random starts, as in
    :func:`global_rigidity` (both default to None: fresh randomness; a verdict is always
    checked, so only whether a certificate or another placement is found may vary; pass
    an int to repeat a run).

    Examples
    --------
    >>> from linkage_widget import Linkage
    >>> square = Linkage([[0, 0], [1, 0], [1, 1], [0, 1]],
    ...                  cables=[(0, 1), (1, 2), (2, 3), (3, 0)], struts=[(0, 2), (1, 3)])
    >>> report = universal_rigidity(square)
    >>> report.universally_rigid, report.stress.round(9).tolist()
    (True, [1.0, 1.0, 1.0, 1.0, -1.0, -1.0])
    """
    bars = _bars(linkage)
    n, d = bars.p.shape
    complete = _complete(n, bars.edges) and not (bars.kinds != "rod").any()
    w, why = (None, "") if complete and n <= d + 1 else _certificate(bars, bars.kinds, seed)
    if w is None and complete:
        return UniversalRigidityReport(True, None, "every two joints are joined by a bar")
    if w is not None:
        return UniversalRigidityReport(
            True, _rods_stress(bars, w),
            f"universally rigid: {why} and no conic at infinity (Connelly's super stability)",
        )  # fmt: skip
    # the solve only where the graph's generic verdict leaves room for another placement
    gen = _generic(bars, seed) if n <= SOLVE_MAX_JOINTS else None
    pair = separating_pair(n, bars.edges) if gen is None else gen.pair
    q, _ = _other(bars, pair, gen is None or gen.ggr, seed)
    if q is not None:
        return UniversalRigidityReport(False, None, "not universally rigid: another placement "
                                       "in the same dimension has the same lengths")  # fmt: skip
    return UniversalRigidityReport(None, None, f"undecided: {why}")
