r"""The report of :func:`linkage_widget.rigidity.analyze`, with bases computed on first access.

The counts (rank, DOF, self-stresses, statuses) are plain fields. The bases are
properties backed by a private source, filled the first time they are read:

* the dense path (:class:`DenseSource`) has them all from its SVD;
* the sparse path (:class:`SparseSource`) draws them from
  :class:`~linkage_widget.rigidity.sparse_rank.SparseRankReport`'s lazy projections, only as far
  as they are shown: ``velocity_basis`` holds the trivial motions and the first
  :data:`SHOWN` internal flexes, ``stresses`` the first :data:`SHOWN` self-stresses.
  :meth:`RigidityReport.flexes` and :meth:`RigidityReport.stress_basis` give more
  (``flexes(report.internal_dof)`` is a basis of all of them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from .mobility_report import MobilityReport
from .second_order import Infinitesimal
from .tolerances import MARGIN_MIN

__all__ = [
    "SHOWN",
    "STATUSES",
    "DenseSource",
    "RigidityReport",
    "SparseSource",
    "explain",
    "near_note",
]

#: Flexes and self-stresses a large linkage's report computes unless asked for more.
SHOWN = 50

STATUSES = (
    "flexible",
    "infinitesimally rigid",
    "rigid but infinitesimally flexible",
    "undecided",
)


class DenseSource:
    """Bases of the dense path: everything is known from the SVD."""

    def __init__(self, inf: Infinitesimal) -> None:
        self.inf = inf

    def trivial(self) -> np.ndarray:
        """Orthonormal trivial motions, (2n, t)."""
        return self.inf.trivial

    def flexes(self, k: int) -> np.ndarray:
        """The first ``k`` internal flexes, (2n, k)."""
        return self.inf.flexes[:, :k]

    def stresses(self, k: int) -> np.ndarray:
        """The first ``k`` self-stresses, (k, c)."""
        return self.inf.stresses[:k]

    def singular_values(self) -> np.ndarray:
        """All singular values, descending."""
        return self.inf.singular_values

    def excited(self, v: np.ndarray) -> np.ndarray:
        r"""The part of ``v`` (2n,) in :math:`\ker A`."""
        k = np.column_stack([self.inf.trivial, self.inf.flexes])
        return k @ (k.T @ v)


class SparseSource:
    """Bases of the sparse path, from a :class:`~.sparse_rank.SparseRankReport`."""

    def __init__(self, rep: Any, trivial: np.ndarray) -> None:
        self.rep, self._trivial = rep, trivial

    def trivial(self) -> np.ndarray:
        """Orthonormal trivial motions, (2n, t)."""
        return self._trivial

    def flexes(self, k: int) -> np.ndarray:
        """The first ``k`` internal flexes, (2n, k): kernel vectors without their rigid part."""
        t = self._trivial.shape[1]
        return self.rep.flexes(min(k + t, self.rep.dof))[:, :k]

    def stresses(self, k: int) -> np.ndarray:
        """The first ``k`` self-stresses, (k, c)."""
        return self.rep.stresses(k)

    def excited(self, v: np.ndarray) -> np.ndarray:
        r"""The part of ``v`` (2n,) in :math:`\ker A` (no basis beyond the shown flexes)."""
        return self.rep.excited_motion(v)

    def stress_part(self, r: np.ndarray) -> np.ndarray:
        r"""The part of ``r`` (c,) in :math:`\ker A^T`, without a stress basis (one projection)."""
        return self.rep._lazy.project(r.reshape(-1, 1), onto_motions=False, orthonormal=False)[:, 0]

    def singular_values(self) -> np.ndarray:
        r""":math:`\sigma_{\max}` and the singular values seen near the threshold, descending."""
        rep = self.rep
        seen = [s for s in (rep.sigma_above, rep.sigma_below) if s is not None]
        return rep.sigma_max * np.array([1.0, *seen]) if rep.sigma_max else np.zeros(0)


@dataclass(frozen=True, eq=False)
class RigidityReport:
    r"""Result of :func:`~linkage_widget.rigidity.analyze`. All counts are plain ``int``.

    Attributes
    ----------
    n_vertices, n_constraints : int
        :math:`n` and :math:`c` (rods + fixed angles + ``dim`` per pin + sliders + slots).
    rank : int
        Numerical rank of :math:`A(p)`.
    dof : int
        :math:`\dim\ker A = dn - \text{rank}` (``d = dim``).
    trivial_dof, internal_dof : int
        Rigid-body motions left by the pins and sliders (the rank of their span: at most
        3 in the plane, 6 in space, fewer at a degenerate placement; with sliders only a
        slide along their lines when these are parallel, so a slider-crank and an
        elliptic trammel have 0), and ``dof - trivial_dof``.
    self_stresses : int
        :math:`\dim\ker A^T = c - \text{rank}`.
    maxwell_count : int
        :math:`dn - c - t` (Calladine's rule); equals ``internal_dof - self_stresses``.
    generic_rank, generic_internal_dof : int
        Rank and internal DOF of a generic placement of the same graph (see
        ``generic_method``).
    generically_rigid : bool
    redundant_rods : ndarray of bool, shape (m,)
        Rods found redundant for a generic placement, given the rods before them.
    generic_method : str
        How the generic answer was found: ``"pebble game (2, 3)"`` in the plane (exact,
        Laman's theorem; ``"... with sliders"``: slider-pinning, a slider one pebble, by
        Streinu–Theran and Katoh–Tanigawa, its direction taken generic); with a slot, or
        in space, with no combinatorial characterisation known,
        ``"random placement: rank mod P, T trials, P(wrong) <= b"`` (the exact rank modulo
        a prime at ``T`` random integer placements, wrong with probability at most ``b``
        by the Schwartz–Zippel lemma; :mod:`linkage_widget.rigidity.modular_rank`),
        ``"random placement: rank mod P, reaches its upper bound (exact)"`` (the rank of
        the first trial equals the rows or :math:`dn - t`: certain) or, above
        :data:`~linkage_widget.rigidity.modular_rank.MAX_COLUMNS` coordinates,
        ``"random placement: floating-point rank (sparse inertia), 1 trial; no error
        bound"`` (which rods are redundant is then not located).
    dim : int
        2 (planar) or 3 (spatial).
    row_kinds : ndarray of str, shape (n_constraints,)
        The kind of each row (``"rod"``, ``"angle"``, ``"pin"``, ``"slider"``, ``"slot"``),
        as :meth:`~linkage_widget.constraints.ConstraintSet.row_kinds`: which entries of
        a self-stress (``stresses``) are whose.
    status : str
        One of :data:`STATUSES` (see :mod:`linkage_widget.rigidity`).
    explanation : str
        One or two sentences saying why, in words for students.
    mobility : MobilityReport or None
        The local dimension, when ``analyze`` was asked for it.
    method : str
        ``"dense-svd"``, ``"sparse-inertia: ..."`` (the sparse route and how it
        counted) or ``"sparse-inertia-fallback to dense: <reason>"``.
    tolerance : float
        The relative rank tolerance used.
    gap : float
        Ratio of the smallest singular value counted nonzero to the largest counted
        zero (``inf`` when either side is empty or was not seen).

    Bases (properties, computed on first access)
    --------------------------------------------
    velocity_basis : ndarray, shape (t + k, n, dim)
        Orthonormal vectors of :math:`\ker A`: the trivial motions, then internal
        flexes orthogonal to them; all ``internal_dof`` of them on the dense path,
        the first ``min(internal_dof, SHOWN)`` on the sparse one.
    stresses : ndarray, shape (k, n_constraints)
        Orthonormal self-stresses as coefficients of the scaled rows (rods first;
        the classical force density is ``stresses[:, r] / lengths[r]``): all of
        them on the dense path, the first ``SHOWN`` on the sparse one.
    rod_stress : ndarray, shape (m,), or None
        Rod part of the first self-stress, largest entry a tension (positive).
    singular_values : ndarray
        Descending. The dense path: all of them; the sparse path:
        :math:`\sigma_{\max}` and those seen on each side of the threshold.
    """

    n_vertices: int
    n_constraints: int
    rank: int
    dof: int
    trivial_dof: int
    internal_dof: int
    self_stresses: int
    maxwell_count: int = 0
    generic_rank: int = 0
    generic_internal_dof: int = 0
    generically_rigid: bool = False
    redundant_rods: np.ndarray = field(default_factory=lambda: np.zeros(0, bool), repr=False)
    status: str = "undecided"
    explanation: str = ""
    mobility: MobilityReport | None = field(default=None, repr=False)
    method: str = "dense-svd"
    tolerance: float = 0.0
    gap: float = float("inf")
    generic_method: str = "pebble game (2, 3)"
    dim: int = 2
    row_kinds: np.ndarray = field(default_factory=lambda: np.zeros(0, str), repr=False)
    _source: Any = field(default=None, repr=False)

    def flexes(self, k: int | None = None) -> np.ndarray:
        """The first ``k`` (default all) orthonormal internal flexes, shape (k', n, dim)."""
        k = self.internal_dof if k is None else min(int(k), self.internal_dof)
        if self._source is None or k <= 0:
            return np.zeros((0, self.n_vertices, self.dim))
        return self._source.flexes(k).T.reshape(k, self.n_vertices, self.dim)

    def stress_basis(self, k: int | None = None) -> np.ndarray:
        """The first ``k`` (default all) orthonormal self-stresses, shape (k', n_constraints)."""
        k = self.self_stresses if k is None else min(int(k), self.self_stresses)
        if self._source is None or k <= 0:
            return np.zeros((0, self.n_constraints))
        return self._source.stresses(k)

    def excited_motion(self, velocity: Any) -> np.ndarray:
        r"""The part of a drag ``velocity`` (n, dim) in :math:`\ker A`: the motion it excites.

        Orthogonal projection onto the infinitesimal motions (trivial and internal), from
        the dense kernel or, on the sparse route, without computing all the flexes.
        """
        v, shape = np.asarray(velocity, dtype=float), (self.n_vertices, self.dim)
        if v.size != self.dim * self.n_vertices:
            raise ValueError(f"velocity must have shape {shape}, got {v.shape}")
        if self._source is None or self.dof == 0:
            return np.zeros(shape)
        return np.asarray(self._source.excited(v.reshape(-1))).reshape(shape)

    @cached_property
    def velocity_basis(self) -> np.ndarray:  # noqa: D102 (documented in the class)
        if self._source is None:
            return np.zeros((0, self.n_vertices, self.dim))
        t = self._source.trivial()
        triv = t.T.reshape(t.shape[1], self.n_vertices, self.dim)
        return np.concatenate([triv, self.flexes(self.internal_dof if self._dense else SHOWN)])

    @cached_property
    def stresses(self) -> np.ndarray:  # noqa: D102
        return self.stress_basis(None if self._dense else SHOWN)

    @cached_property
    def rod_stress(self) -> np.ndarray | None:  # noqa: D102
        m = len(self.redundant_rods)
        first = self.stress_basis(1)
        if not len(first) or not m or not np.abs(first[0, :m]).max() > 0:
            return None
        return first[0, :m] * np.sign(first[0, np.argmax(np.abs(first[0, :m]))])

    @cached_property
    def singular_values(self) -> np.ndarray:  # noqa: D102
        return np.zeros(0) if self._source is None else self._source.singular_values()

    @property
    def _dense(self) -> bool:
        return isinstance(self._source, DenseSource)

    def summary_lines(self) -> list[str]:
        """Short lines for a readout (the widget's info panel).

        With :attr:`mobility`, a last line states the real mobility in the words of
        :attr:`MobilityReport.status` ("moves (certified, dimension 1)", "rigid although
        infinitesimally flexible", "undecided", ...), never "flexible" for a placement
        that does not move.
        """
        gen = "generically rigid" if self.generically_rigid else "generically flexible"
        lines = [
            f"DOF {self.dof} = {self.trivial_dof} trivial + {self.internal_dof} internal",
            f"status: {self.status}",
            f"self-stresses: {self.self_stresses}",
            f"Maxwell count {self.dim}n-c-t: {self.maxwell_count}  (graph: {gen})",
        ]
        m = self.mobility
        if m is not None:
            crossing = f"; {m.branches} branches cross here" if m.branches > 1 else ""
            lines.append(f"motion: {m.status}{crossing}")
        return lines

    def __str__(self) -> str:
        return "\n".join([*self.summary_lines(), self.explanation])


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


def explain(
    internal: int, maxwell: int, s: int, generic_s: int, status: str, how: str
) -> list[str]:
    """The explanation's sentences (the caller adds the generic-rigidity remark).

    ``how`` completes the "flexible" sentence; for ``"undecided"`` a ``how`` starting
    with a capital replaces the generic sentence (the reason is known: a near-singular
    spectrum, or a linkage too large for the second-order test).
    """
    es = "es" * (internal != 1)
    if status == STATUSES[3] and how[:1].isupper():
        parts = [how]
    elif status in _FIRST_SENTENCE:
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


def near_note(below: float | None, above: float | None, tol: float) -> tuple[float, str]:
    """The gap ``above / below`` and, within :data:`MARGIN_MIN` of ``tol``, why undecided."""
    gap = above / below if below and above else float("inf")
    margin = min(above / tol if above else np.inf, tol / below if below else np.inf)
    if margin >= MARGIN_MIN:
        return gap, ""
    seen = ", ".join(
        f"{name} {v:.2g}" for name, v in (("smallest nonzero", above), ("largest zero", below)) if v
    )
    return gap, (
        f"Near-singular, undecided: a singular value lies within a factor {MARGIN_MIN:g} of "
        f"the rank threshold {tol:.2g} ({seen}, relative to the largest), so the counts may "
        "be off by one."
    )
