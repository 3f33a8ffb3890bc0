r"""Rigidity analysis of a linkage at its current placement.

Everything here derives from the scaled rigidity matrix :math:`A(p)` of
:mod:`linkage_widget.constraints` (``c`` rows, ``2n`` columns):

* infinitesimal motions :math:`\ker A` — their dimension is ``dof``, the
  number the 2007 program showed;
* trivial motions: the rigid-body motions the pins leave (3 without pins,
  2 for a lone point, 1 with one pin, 0 with two distinct pins), always in
  :math:`\ker A`; ``internal_dof = dof - trivial_dof`` counts the flexes;
* self-stresses :math:`\omega \in \ker A^T`: constraint forces in
  equilibrium with no load; their number is ``c - rank``;
* Calladine's extended Maxwell rule, an identity of linear algebra:

  .. math:: 2n - c - t = \text{internal\_dof} - \text{self\_stresses}

  where :math:`t` is ``trivial_dof``. The left side (``maxwell_count``) is
  what counting predicts; when it differs from ``internal_dof``, self-stresses
  are the reason, either because the graph is over-braced (the pebble game
  finds redundant constraints) or because the placement is special (more
  stresses than the graph generically has);
* generic rigidity of the graph from the (2, 3) pebble game
  (:mod:`linkage_widget.pebble`); a fixed angle at ``i`` between rods to ``j``
  and ``k`` is generically a rod ``j-k``, and pins tie their vertices to a
  rigid ground triangle by two rods each, played first, so that a rod
  between two pinned joints is found redundant;
* the status, decided by tests that are sure of what they say:

  - ``"infinitesimally rigid"``: no internal flex;
  - ``"flexible"``: no self-stress (apart from those of rods between pinned
    joints, which the pins imply): then :math:`A` has full row rank, and by the
    implicit function theorem the placements nearby form a smooth family of
    dimension ``internal_dof``; or, with self-stresses, nearby placements found
    by :func:`~linkage_widget.local_dimension.mobility`'s numerical sampling
    (projecting steps along the flexes back onto the constraints) for linkages
    of at most :data:`MOBILITY_MAX_2N` coordinates or with a single flex;
  - ``"rigid but infinitesimally flexible"``: some flex exists, but none
    extends to second order (:mod:`linkage_widget.second_order`: prestress
    stability — some self-stress :math:`\omega` makes the stress energy
    :math:`\omega^T g''(p)[u, u]` positive definite on the flexes, Connelly and
    Whiteley 1996 — or an exact or closed-form solution of the second-order
    equations). Either way the placement is rigid;
  - ``"undecided"``: self-stresses, flexes that no test above settles. A
    placement rigid only at third or higher order lands here, as do large
    linkages whose sampling would be too slow for an interactive analysis.

Numerical rank: a singular value counts as zero when it is at most
``rtol`` times the largest (default :data:`RANK_RTOL` = 1e-7). The rows are
dimensionless, so this does not depend on the size of the linkage. The value
is chosen between two measured gaps in the 2007 program's own files: the
Penrose "t" tilings flex only approximately, because their coordinates were
rounded to six decimals (their flex shows as a singular value near 1e-9),
while the locked variant's smallest genuine singular value is 1.5e-6.

The analysis uses a dense SVD: :math:`O(n^3)`, about a second for the
571-vertex ``penrose4t``. Motion never needs it (see
:mod:`linkage_widget.motion`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import _checks
from .constraints import ConstraintSet, as_flat
from .local_dimension import MobilityReport, mobility_from, numerical_mobility
from .model import Linkage
from .pebble import pinned_pebble_game
from .second_order import (
    RANK_RTOL,
    SECOND_ORDER_RTOL,
    Infinitesimal,
    decide_second_order,
    ground_rows,
    infinitesimal,
    trivial_motions,
)

__all__ = [
    "MOBILITY_MAX_2N",
    "RANK_RTOL",
    "SECOND_ORDER_RTOL",
    "STATUSES",
    "RigidityReport",
    "analyze",
    "trivial_motions",
    "generic_analysis",
]

#: The numerical mobility test runs for linkages up to this many coordinates 2n (and for
#: any size when there is a single flex: two projections on the sparse Jacobian).
MOBILITY_MAX_2N = 200

STATUSES = (
    "flexible",
    "infinitesimally rigid",
    "rigid but infinitesimally flexible",
    "undecided",
)


@dataclass(frozen=True, eq=False)
class RigidityReport:
    r"""Result of :func:`analyze`. All counts are plain ``int``.

    Attributes
    ----------
    n_vertices, n_constraints : int
        :math:`n` and :math:`c` (rods + fixed angles + 2 per pin).
    rank : int
        Numerical rank of :math:`A(p)`.
    dof : int
        :math:`\dim\ker A = 2n - \text{rank}`.
    trivial_dof, internal_dof : int
        Rigid-body motions left by the pins, and ``dof - trivial_dof``.
    self_stresses : int
        :math:`\dim\ker A^T = c - \text{rank}`.
    stresses : ndarray, shape (self_stresses, n_constraints)
        Orthonormal basis of the self-stresses, as coefficients of the scaled
        rows (rods first): for a rod it is the tension force; the classical
        force density is ``stresses[:, r] / lengths[r]``.
    rod_stress : ndarray, shape (m,), or None
        The rod part of the first self-stress, sign fixed so the largest
        entry is a tension (positive); ``None`` without self-stresses.
    maxwell_count : int
        :math:`2n - c - t`; equals ``internal_dof - self_stresses``.
    generic_rank : int
        Rank of the constraints for a generic placement of the same graph.
    generic_internal_dof : int
        ``internal_dof`` of a generic placement.
    generically_rigid : bool
        Whether a generic placement of the graph is rigid (pebble game).
    redundant_rods : ndarray of bool, shape (m,)
        Rods the pebble game finds redundant, given the rods before them.
    velocity_basis : ndarray, shape (dof, n, 2)
        Orthonormal basis of :math:`\ker A`: first the trivial motions, then
        internal flexes orthogonal to them.
    singular_values : ndarray
        Singular values of :math:`A(p)`, descending.
    status : str
        ``"flexible"``, ``"infinitesimally rigid"``,
        ``"rigid but infinitesimally flexible"`` or ``"undecided"`` (see the
        module notes: ``"flexible"`` only when a motion is certain or found).
    explanation : str
        One or two sentences saying why, in words for students.
    mobility : MobilityReport or None
        The local dimension (:func:`~linkage_widget.local_dimension.mobility`),
        when ``analyze`` was asked for it.
    """

    n_vertices: int
    n_constraints: int
    rank: int
    dof: int
    trivial_dof: int
    internal_dof: int
    self_stresses: int
    stresses: np.ndarray = field(repr=False)
    rod_stress: np.ndarray | None = field(repr=False)
    maxwell_count: int = 0
    generic_rank: int = 0
    generic_internal_dof: int = 0
    generically_rigid: bool = False
    redundant_rods: np.ndarray = field(default_factory=lambda: np.zeros(0, bool), repr=False)
    velocity_basis: np.ndarray = field(default_factory=lambda: np.zeros((0, 0, 2)), repr=False)
    singular_values: np.ndarray = field(default_factory=lambda: np.zeros(0), repr=False)
    status: str = "undecided"
    explanation: str = ""
    mobility: MobilityReport | None = field(default=None, repr=False)

    def summary_lines(self) -> list[str]:
        """Short lines for a readout (the widget's info panel)."""
        gen = "generically rigid" if self.generically_rigid else "generically flexible"
        return [
            f"DOF {self.dof} = {self.trivial_dof} trivial + {self.internal_dof} internal",
            f"status: {self.status}",
            f"self-stresses: {self.self_stresses}",
            f"Maxwell count 2n-c-t: {self.maxwell_count}  (graph: {gen})",
        ] + ([f"motion: {self.mobility.plain()}"] if self.mobility is not None else [])

    def __str__(self) -> str:
        return "\n".join([*self.summary_lines(), self.explanation])


def generic_analysis(linkage: Linkage) -> tuple[int, np.ndarray]:
    """Generic rank of the constraints and the rods the pebble game finds redundant.

    The pins go first (see :func:`~linkage_widget.pebble.pinned_pebble_game`:
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
    edges = [*linkage.rods.tolist(), *linkage.angles[:, 1:].tolist()]
    accepted, rank = pinned_pebble_game(linkage.n_vertices, edges, linkage.pinned.tolist())
    return rank, ~accepted[: linkage.n_rods]


def _generic_trivial_dof(n: int, n_pins: int) -> int:
    if n == 0:
        return 0
    if n == 1:
        return 0 if n_pins else 2
    return (3, 1)[n_pins] if n_pins < 2 else 0


_FIRST_SENTENCE = {
    "infinitesimally rigid": "No internal motion, not even infinitesimally.",
    "rigid but infinitesimally flexible": (
        "An infinitesimal flex exists, but no flex extends to second order (a self-stress "
        "resists it): this placement is rigid, yet singular (e.g. collinear joints)."
    ),
    "undecided": (
        "{internal} infinitesimal flex{es} and self-stresses: neither the second-order test "
        "nor a search for nearby placements settles whether this placement moves (it may be "
        "rigid only at a higher order). mobility() says more."
    ),
}


def _explain(
    internal: int, maxwell: int, s: int, generic_s: int, status: str, how: str
) -> list[str]:
    """The explanation's sentences (the caller adds the generic-rigidity remark)."""
    es = "es" * (internal != 1)
    if status in _FIRST_SENTENCE:
        parts = [_FIRST_SENTENCE[status].format(internal=internal, es=es)]
    else:
        parts = [f"{internal} independent internal motion{'s' * (internal != 1)}{how}."]
    if maxwell != internal:
        special = s - generic_s
        why = []
        if generic_s > 0:
            why.append(f"{generic_s} redundant constraint{'s' * (generic_s != 1)} in the graph")
        if special > 0:
            why.append(
                f"{special} extra self-stress{'es' * (special != 1)} from the special position "
                "of the joints"
            )
        parts.append(
            f"Counting predicts {maxwell}, not {internal}, because of "
            + " and ".join(why or [f"{s} self-stresses"])
            + "."
        )
    return parts


def analyze(
    linkage: Linkage, *, rtol: float = RANK_RTOL, with_mobility: bool = False
) -> RigidityReport:
    """Analyse the rigidity of ``linkage`` at its current placement.

    Parameters
    ----------
    linkage : Linkage
    rtol : float, keyword-only
        Relative tolerance of the numerical rank (default :data:`RANK_RTOL`).
    with_mobility : bool, keyword-only
        Also compute :func:`~linkage_widget.local_dimension.mobility` (the
        report's ``mobility``, and a ``motion:`` line in its summary). It may
        run an exact Gröbner computation: meant for small linkages.

    Returns
    -------
    RigidityReport

    Examples
    --------
    >>> tri = Linkage([[0, 0], [4, 0], [0, 3]], rods=[(0, 1), (1, 2), (0, 2)])
    >>> r = analyze(tri)
    >>> r.dof, r.trivial_dof, r.internal_dof, r.status
    (3, 3, 0, 'infinitesimally rigid')
    >>> line = Linkage([[0, 0], [1, 0], [2, 0]], rods=[(0, 1), (1, 2)], pinned=[0, 2])
    >>> analyze(line).status
    'rigid but infinitesimally flexible'
    """
    rtol = _checks.positive(rtol, "rtol")
    cs = ConstraintSet.from_linkage(linkage)
    p = as_flat(linkage.vertices).copy()
    n, c = linkage.n_vertices, cs.n_constraints

    inf = infinitesimal(cs.jacobian(p), p, linkage.pinned, rtol=rtol)
    rank, t, internal = inf.rank, inf.trivial.shape[1], inf.n_flexes
    dof, n_stress = 2 * n - rank, c - rank
    velocity_basis = np.column_stack([inf.trivial, inf.flexes]).T.reshape(dof, n, 2)

    generic_rank, redundant = generic_analysis(linkage)
    generic_internal = 2 * n - generic_rank - _generic_trivial_dof(n, len(linkage.pinned))
    status, how = _status(linkage, cs, inf, rtol)
    maxwell = 2 * n - c - t
    text = _explain(internal, maxwell, n_stress, c - generic_rank, status, how)
    if generic_internal == 0 and internal > 0:
        text.append("A generic placement of the same graph would be rigid.")
    return RigidityReport(
        n_vertices=n,
        n_constraints=c,
        rank=rank,
        dof=dof,
        trivial_dof=t,
        internal_dof=internal,
        self_stresses=n_stress,
        stresses=inf.stresses,
        rod_stress=_first_rod_stress(inf.stresses, linkage.n_rods),
        maxwell_count=maxwell,
        generic_rank=generic_rank,
        generic_internal_dof=generic_internal,
        generically_rigid=generic_internal == 0,
        redundant_rods=redundant,
        velocity_basis=velocity_basis,
        singular_values=inf.singular_values,
        status=status,
        explanation=" ".join(text),
        mobility=mobility_from(linkage, cs, inf, rtol=rtol) if with_mobility else None,
    )


def _status(
    linkage: Linkage, cs: ConstraintSet, inf: Infinitesimal, rtol: float
) -> tuple[str, str]:
    """One of :data:`STATUSES`, and for ``"flexible"`` how the motion was established."""
    if inf.n_flexes == 0:
        return STATUSES[1], ""
    if inf.n_stresses - ground_rows(linkage) <= 0:
        # A has full row rank (once the rows the pins imply are dropped): the constraint
        # set is a manifold of dimension internal_dof near p.
        return STATUSES[0], ""
    rigid, _ = decide_second_order(linkage, cs, inf)
    if rigid:
        return STATUSES[2], ""
    if 2 * linkage.n_vertices <= MOBILITY_MAX_2N or inf.n_flexes == 1:
        dimension, _ = numerical_mobility(linkage, cs, inf, rtol=rtol, any_motion=True)
        if dimension:
            return STATUSES[0], (
                ": a real motion, found by projecting steps along the flexes back onto the "
                "constraints"
            )
    return STATUSES[3], ""


def _first_rod_stress(stresses: np.ndarray, m: int) -> np.ndarray | None:
    """The rod part of the first self-stress, its largest entry a tension; ``None`` if none."""
    if not len(stresses) or not m:
        return None
    first = stresses[0, :m]
    if not np.abs(first).max() > 0:
        return None
    return first * np.sign(first[np.argmax(np.abs(first))])
