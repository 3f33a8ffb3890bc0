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
* a second-order test for placements that are infinitesimally flexible but
  rigid (``"rigid but infinitesimally flexible"``): the framework is
  *prestress stable* — hence rigid (Connelly and Whiteley, 1996) — if some
  self-stress :math:`\omega` makes the stress energy

  .. math:: q_\omega(u) = \omega^T g''(p)[u, u]

  positive definite on the internal flexes :math:`u`. For one flex or one
  stress the search is exact; for several it maximises the least eigenvalue
  over stress combinations numerically. The test is sufficient, not
  necessary: a placement rigid only at third or higher order (rare, and never
  robust to perturbation) is reported ``"flexible"``.

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
from typing import Any

import numpy as np
import scipy.linalg as sla
from threadpoolctl import threadpool_limits

from . import _checks
from .constraints import ConstraintSet, as_points
from .model import Linkage
from .pebble import pinned_pebble_game

__all__ = [
    "RANK_RTOL",
    "SECOND_ORDER_RTOL",
    "RigidityReport",
    "analyze",
    "trivial_motions",
    "generic_analysis",
]

#: Relative tolerance of the numerical rank (singular values / largest).
RANK_RTOL = 1e-7
#: Matrices with more entries than this are decomposed with one BLAS thread (see _spectrum).
SINGLE_THREAD_SIZE = 40_000
#: A dimensionless stress energy below this counts as zero in the second-order test.
SECOND_ORDER_RTOL = 1e-6

STATUSES = ("flexible", "infinitesimally rigid", "rigid but infinitesimally flexible")


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
        ``"flexible"``, ``"infinitesimally rigid"`` or
        ``"rigid but infinitesimally flexible"``.
    explanation : str
        One or two sentences saying why, in words for students.
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
    status: str = "flexible"
    explanation: str = ""

    def summary_lines(self) -> list[str]:
        """Short lines for a readout (the widget's info panel)."""
        gen = "generically rigid" if self.generically_rigid else "generically flexible"
        return [
            f"DOF {self.dof} = {self.trivial_dof} trivial + {self.internal_dof} internal",
            f"status: {self.status}",
            f"self-stresses: {self.self_stresses}",
            f"Maxwell count 2n-c-t: {self.maxwell_count}  (graph: {gen})",
        ]

    def __str__(self) -> str:
        return "\n".join([*self.summary_lines(), self.explanation])


def trivial_motions(positions: Any, pinned: Any = ()) -> np.ndarray:
    r"""Orthonormal basis of the rigid-body motions that keep the pins still.

    Translations :math:`(1, 0)`, :math:`(0, 1)` and the rotation
    :math:`(-(y - \bar y), x - \bar x)`, restricted to the combinations that
    vanish at every pinned vertex.

    Parameters
    ----------
    positions : array_like, shape (n, 2)
    pinned : array_like of int

    Returns
    -------
    ndarray, shape (2n, t)
        ``t`` is 3 without pins (2 for a single point), 1 with one pin, 0 with
        two pins at distinct places.

    Examples
    --------
    >>> trivial_motions([[0, 0], [1, 0]]).shape
    (4, 3)
    >>> trivial_motions([[0, 0], [1, 0]], pinned=[0]).shape
    (4, 1)
    >>> trivial_motions([[0, 0]]).shape
    (2, 2)
    """
    p = as_points(positions)
    n = len(p)
    if n == 0:
        return np.zeros((0, 0))
    c = p.mean(axis=0)
    radius = float(np.sqrt(((p - c) ** 2).sum(axis=1).mean()))
    rot = np.column_stack([-(p[:, 1] - c[1]), p[:, 0] - c[0]]) / (radius if radius > 0 else 1.0)
    basis = np.column_stack([np.tile([1.0, 0.0], n), np.tile([0.0, 1.0], n), rot.reshape(-1)])
    pins = np.asarray(pinned, dtype=np.int64).reshape(-1)
    if pins.size:
        at_pins = basis.reshape(n, 2, 3)[pins].reshape(-1, 3)
        basis = basis @ sla.null_space(at_pins, rcond=1e-10)
    if basis.shape[1] == 0:
        return np.zeros((2 * n, 0))
    return sla.orth(basis, rcond=1e-10)


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


def _stress_energy_forms(
    cs: ConstraintSet, p: np.ndarray, flexes: np.ndarray, stresses: np.ndarray
) -> np.ndarray:
    r"""Dimensionless forms :math:`H_k[a, b] = \ell\,\omega_k^T g''(p)[u_a, u_b]`, (s, d, d)."""
    d = flexes.shape[1]
    second = np.empty((d, d, cs.n_constraints))
    for a in range(d):
        for b in range(a, d):
            second[a, b] = second[b, a] = cs.second_derivative(p, flexes[:, a], flexes[:, b])
    return cs.length_scale * np.einsum("sc,abc->sab", stresses, second)


def _prestress_stable(forms: np.ndarray) -> bool:
    """Whether some combination of the symmetric forms is positive definite."""
    s, d, _ = forms.shape
    if d == 0:
        return True
    if s == 0:
        return False
    if d == 1:
        return bool(np.abs(forms[:, 0, 0]).max() > SECOND_ORDER_RTOL)
    if s == 1:
        eig = np.linalg.eigvalsh(forms[0])
        return bool(eig[0] > SECOND_ORDER_RTOL or eig[-1] < -SECOND_ORDER_RTOL)
    from scipy.optimize import minimize

    def neg_min_eig(c: np.ndarray) -> float:
        c = c / max(np.linalg.norm(c), 1e-300)
        return -float(np.linalg.eigvalsh(np.tensordot(c, forms, axes=1))[0])

    rng = np.random.default_rng(0)
    starts = [np.eye(s)[k] * sign for k in range(s) for sign in (1, -1)]
    starts += list(rng.standard_normal((8, s)))
    for c0 in starts:
        if -neg_min_eig(c0) > SECOND_ORDER_RTOL:
            return True
        res = minimize(neg_min_eig, c0, method="Nelder-Mead", options={"maxiter": 400 * s})
        if -res.fun > SECOND_ORDER_RTOL:
            return True
    return False


def _explain(
    internal: int, maxwell: int, s: int, generic_s: int, status: str, generically_rigid: bool
) -> str:
    parts = []
    if status == "infinitesimally rigid":
        parts.append("No internal motion, not even infinitesimally.")
    elif status == "rigid but infinitesimally flexible":
        parts.append(
            "An infinitesimal flex exists, but a self-stress resists it at second order: "
            "this placement is rigid, yet singular (e.g. collinear joints)."
        )
    else:
        parts.append(f"{internal} independent internal motion{'s' * (internal != 1)}.")
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
    if generically_rigid and internal > 0:
        parts.append("A generic placement of the same graph would be rigid.")
    return " ".join(parts)


def _spectrum(a: np.ndarray, rtol: float) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """Rank, singular values, kernel basis ``(2n, dof)`` and left-kernel basis ``(s, c)``.

    A thin SVD gives the right singular vectors; when there are more rows than
    columns the left kernel is completed by a Householder QR of the range
    basis, several times cheaper than a full SVD of a tall matrix.
    """
    c, cols = a.shape
    if c == 0:
        return 0, np.zeros(0), np.eye(cols), np.zeros((0, 0))
    if a.size > SINGLE_THREAD_SIZE:
        # Multithreaded BLAS collapses when the cores are shared (Binder, or the widget's
        # analysis thread beside its animation): penrose4t took 18-37 s with two threads
        # under load against 2.3 s with one.
        with threadpool_limits(limits=1, user_api="blas"):
            return _spectrum_dense(a, rtol)
    return _spectrum_dense(a, rtol)


def _spectrum_dense(a: np.ndarray, rtol: float) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    c, cols = a.shape
    u, sv, vt = sla.svd(a, full_matrices=cols > c, lapack_driver="gesdd")
    rank = int(np.sum(sv > rtol * sv[0]))
    kernel = vt[rank:].T
    if c > cols:
        q, _ = sla.qr(u[:, :rank], mode="full")
        left = q[:, rank:]
    else:
        left = u[:, rank:]
    return rank, sv, kernel, left.T


def analyze(linkage: Linkage, *, rtol: float = RANK_RTOL) -> RigidityReport:
    """Analyse the rigidity of ``linkage`` at its current placement.

    Parameters
    ----------
    linkage : Linkage
    rtol : float, keyword-only
        Relative tolerance of the numerical rank (default :data:`RANK_RTOL`).

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
    p = linkage.vertices.reshape(-1).copy()
    n, c = linkage.n_vertices, cs.n_constraints

    rank, sv, kernel, stresses = _spectrum(cs.jacobian(p).toarray(), rtol)
    dof, n_stress = 2 * n - rank, c - rank
    t, flex, velocity_basis = _split_motions(linkage, kernel)
    internal = dof - t

    generic_rank, redundant = generic_analysis(linkage)
    generic_internal = 2 * n - generic_rank - _generic_trivial_dof(n, len(linkage.pinned))
    status = _status(cs, p, flex, stresses)
    maxwell = 2 * n - c - t
    return RigidityReport(
        n_vertices=n,
        n_constraints=c,
        rank=rank,
        dof=dof,
        trivial_dof=t,
        internal_dof=internal,
        self_stresses=n_stress,
        stresses=stresses,
        rod_stress=_first_rod_stress(stresses, linkage.n_rods),
        maxwell_count=maxwell,
        generic_rank=generic_rank,
        generic_internal_dof=generic_internal,
        generically_rigid=generic_internal == 0,
        redundant_rods=redundant,
        velocity_basis=velocity_basis,
        singular_values=sv,
        status=status,
        explanation=_explain(
            internal, maxwell, n_stress, c - generic_rank, status, generic_internal == 0
        ),
    )


def _split_motions(linkage: Linkage, kernel: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    r"""Split :math:`\ker A` (basis ``(2n, dof)``) into trivial motions and internal flexes.

    Returns
    -------
    trivial_dof : int
    flexes : ndarray, shape (2n, internal_dof)
        Orthonormal, orthogonal to the trivial motions.
    velocity_basis : ndarray, shape (dof, n, 2)
        The trivial motions, then the flexes.
    """
    n, dof = linkage.n_vertices, kernel.shape[1]
    if n == 0:
        return 0, np.zeros((0, 0)), np.zeros((dof, 0, 2))
    triv = trivial_motions(linkage.vertices, linkage.pinned)
    t = min(triv.shape[1], dof)
    internal = dof - t
    flex = np.zeros((2 * n, 0))
    if internal > 0:
        left, _, _ = np.linalg.svd(kernel - triv @ (triv.T @ kernel), full_matrices=False)
        flex = left[:, :internal]
    basis = np.column_stack([triv[:, :t], flex])
    return t, flex, basis.T.reshape(dof, n, 2)


def _first_rod_stress(stresses: np.ndarray, m: int) -> np.ndarray | None:
    """The rod part of the first self-stress, its largest entry a tension; ``None`` if none."""
    if not len(stresses) or not m:
        return None
    first = stresses[0, :m]
    if not np.abs(first).max() > 0:
        return None
    return first * np.sign(first[np.argmax(np.abs(first))])


def _status(cs: ConstraintSet, p: np.ndarray, flexes: np.ndarray, stresses: np.ndarray) -> str:
    """One of :data:`STATUSES`, from the internal flexes ``(2n, d)`` and stresses ``(s, c)``."""
    if flexes.shape[1] == 0:
        return STATUSES[1]
    if len(stresses) == 0:
        # A has full row rank: the constraint set is a manifold of dimension dof near p.
        return STATUSES[0]
    forms = _stress_energy_forms(cs, p, flexes, stresses)
    return STATUSES[2] if _prestress_stable(forms) else STATUSES[0]
