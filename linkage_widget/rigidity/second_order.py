r"""Infinitesimal and second-order analysis: flexes, self-stresses, stress energies, tangent cone.

Notation: :math:`A(p)` is the scaled rigidity matrix of
:mod:`linkage_widget.constraints` (``c`` rows, ``dn`` columns, ``d = dim``), :math:`g''(p)[u, v]`
the bilinear second derivative of the constraints. The internal flexes are an
orthonormal basis :math:`V` (``(dn, d')``) of :math:`\ker A` orthogonal to the
trivial (rigid-body) motions the pins leave; the self-stresses a basis
:math:`W` (``(s, c)``) of :math:`\ker A^T`.

Second order. A path :math:`p(t) = p + t u + \tfrac12 t^2 u' + \dots` keeps
:math:`g = 0` to second order exactly when :math:`A u = 0` and
:math:`A u' = -g''[u, u]`; the second equation is solvable exactly when
:math:`g''[u, u] \perp \ker A^T`. With :math:`u = V c` this is the system of
homogeneous quadratics (the *stress energies*)

.. math:: Q_j(c) = c^T H_j c = 0, \qquad H_j = \ell\, V^T (w_j^T g'') V,
          \quad j = 1 \dots s,

(:func:`stress_energy_forms`, dimensionless through the length scale
:math:`\ell`). Trivial motions never enter: the stress energy of a self-stress
vanishes on them, since the constraints are invariant under rigid motions.

* *second-order rigid* (:func:`second_order_rigid`): :math:`c = 0` is the only
  real solution. It implies rigidity (Connelly and Whiteley, 1996).
* *prestress stable* (:func:`prestress_stable`): some combination
  :math:`\sum_j \omega_j H_j` is positive definite. It implies second-order
  rigidity; the converse fails when :math:`d, s \ge 2`.
* *tangent cone* (:func:`tangent_cone`): the real solution lines of
  :math:`Q = 0`. Every branch of the configuration set through :math:`p` is
  tangent to one of them. At a flat parallelogram (:math:`d = 2`, :math:`s = 1`)
  :math:`Q` is one indefinite binary quadratic form: two lines, the parallelogram
  branch and the crossed one.

The exact decision for small problems, with rational arithmetic, is
:mod:`linkage_widget.rigidity.second_order_solve`; the rest is numerical and says where it
is not sure (``None``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from weakref import WeakKeyDictionary

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp
from threadpoolctl import threadpool_limits

from .. import _checks
from ..constraints import ConstraintSet, as_flat
from ..model import Linkage
from .rigid_motions import ground_sliders, trivial_motions
from .second_order_solve import cone_lines, exact_second_order_rigid
from .tolerances import ORTHONORMAL_CUT, RANK_RTOL, SECOND_ORDER_RTOL

__all__ = [
    "Infinitesimal",
    "TangentCone",
    "decide_second_order",
    "ground_rows",
    "infinitesimal",
    "prestress_stable",
    "require_linkage",
    "second_order_rigid",
    "stress_energy_forms",
    "tangent_cone",
]

#: Matrices with more entries than this are decomposed with one BLAS thread (see spectrum).
SINGLE_THREAD_SIZE = 40_000
#: Extra second derivative of extra rows: ``(u, v) -> (r,)``.
ExtraSecond = Callable[[np.ndarray, np.ndarray], np.ndarray]


def require_linkage(linkage: Any, where: str) -> Linkage:
    """``linkage`` itself, or a TypeError naming ``where`` when it is no :class:`Linkage`."""
    if not isinstance(linkage, Linkage):
        raise TypeError(f"{where}: linkage must be a Linkage, got {type(linkage).__name__}")
    return linkage


def spectrum(a: np.ndarray, rtol: float) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
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
    # NumPy's gesdd (the same LAPACK, bit for bit, without SciPy's checks: a quarter of a
    # 6-joint analysis) on small matrices; SciPy's wrapper above them, as it always was
    svd = np.linalg.svd if a.size <= SINGLE_THREAD_SIZE else sla.svd
    u, sv, vt = svd(a, full_matrices=cols > c)
    rank = int(np.sum(sv > rtol * sv[0])) if sv.size else 0
    kernel = vt[rank:].T
    if c > cols:
        q, _ = sla.qr(u[:, :rank], mode="full")
        left = q[:, rank:]
    else:
        left = u[:, rank:]
    return rank, sv, kernel, left.T


@dataclass(frozen=True, eq=False)
class Infinitesimal:
    r"""The first-order data of a placement (see :func:`infinitesimal`).

    Attributes
    ----------
    rank : int
        Numerical rank of :math:`A` (with the extra rows).
    singular_values : ndarray, shape (min(c, 2n),)
    trivial : ndarray, shape (2n, t)
        Orthonormal rigid-body motions inside :math:`\ker A`.
    flexes : ndarray, shape (2n, d)
        Orthonormal internal flexes, orthogonal to ``trivial``.
    stresses : ndarray, shape (s, c)
        Orthonormal self-stresses (coefficients of the scaled rows).
    """

    rank: int
    singular_values: np.ndarray = field(repr=False)
    trivial: np.ndarray = field(repr=False)
    flexes: np.ndarray = field(repr=False)
    stresses: np.ndarray = field(repr=False)

    @property
    def n_flexes(self) -> int:
        """``d``, the number of internal flexes."""
        return int(self.flexes.shape[1])

    @property
    def n_stresses(self) -> int:
        """``s``, the number of self-stresses."""
        return int(self.stresses.shape[0])


def infinitesimal(
    a: Any, positions: Any, pinned: Any = (), *, rtol: float = RANK_RTOL, sliders: Any = None
) -> Infinitesimal:
    r"""Split :math:`\ker A` into trivial motions and internal flexes; find the self-stresses.

    The trivial part is :math:`\ker A \cap \operatorname{span}(T)` with :math:`T`
    from :func:`trivial_motions` (the rigid motions the pins and sliders leave): the
    combinations :math:`T c` with :math:`\|A T c\| \le` ``rtol`` :math:`\sigma_{\max}`,
    so that extra rows (a motor on a pinned crank) that forbid a rigid motion are
    honoured. The flexes are the rest of the kernel, orthogonal to them.

    Parameters
    ----------
    a : array_like or sparse, shape (c, dn)
    positions : array_like, shape (n, d)
        ``(n, 3)`` for a spatial linkage (flat positions are read as planar).
    pinned : array_like of int
    rtol : float
        Relative tolerance of the rank.
    sliders : (joints, normals), optional, keyword-only
        The sliders' ground rows (:func:`~linkage_widget.rigidity.rigid_motions.ground_sliders`).

    Returns
    -------
    Infinitesimal
    """
    a = a.toarray() if sp.issparse(a) else np.asarray(a, dtype=np.float64)
    rank, sv, kernel, stresses = spectrum(a, rtol)
    n2, dof = a.shape[1], kernel.shape[1]
    if n2 == 0 or dof == 0:
        return Infinitesimal(rank, sv, np.zeros((n2, 0)), np.zeros((n2, 0)), stresses)
    triv = trivial_motions(positions, pinned, sliders=sliders)
    if triv.shape[1] and sv.size:
        # the rigid motions the rows annihilate (all of them unless drive rows forbid some);
        # T orthonormal times the orthogonal vt: the columns stay orthonormal
        _, s_t, vt = np.linalg.svd(a @ triv)
        moved = np.zeros(triv.shape[1], bool)
        moved[: s_t.size] = s_t > rtol * sv[0]
        triv = triv @ vt[~moved].T
    rest = kernel - triv @ (triv.T @ kernel)
    u, s_rest, _ = np.linalg.svd(rest, full_matrices=False)
    flex = u[:, : max(0, min(dof - triv.shape[1], int(np.sum(s_rest > ORTHONORMAL_CUT))))]
    return Infinitesimal(rank, sv, triv, flex, stresses)


def ground_rows(linkage: Linkage) -> int:
    """Rods, angles and slots whose joints are all pinned: implied by the pins.

    Each carries one self-stress at every placement (with the pins' reactions).
    """
    pinned = np.zeros(linkage.n_vertices, bool)
    pinned[linkage.pinned] = True
    rods = int(np.all(pinned[linkage.rods], axis=1).sum()) if linkage.n_rods else 0
    angles = int(np.all(pinned[linkage.angles], axis=1).sum()) if linkage.n_angles else 0
    slots = linkage.guides.slots
    return rods + angles + (int(np.all(pinned[slots], axis=1).sum()) if len(slots) else 0)


def stress_energy_forms(
    cs: ConstraintSet,
    p: Any,
    flexes: np.ndarray,
    stresses: np.ndarray,
    extra_second: ExtraSecond | None = None,
) -> np.ndarray:
    r"""Dimensionless forms :math:`H_j[a, b] = \ell\, w_j^T g''(p)[u_a, u_b]`.

    Parameters
    ----------
    cs : ConstraintSet
        Its rows are the first ``cs.n_constraints`` columns of ``stresses``.
    p : array_like, shape (n, 2) or (2n,)
    flexes : ndarray, shape (2n, d)
    stresses : ndarray, shape (s, c + r)
        ``r`` extra rows after those of ``cs`` (see :func:`tangent_cone`).
    extra_second : callable or None
        ``(u, v) -> (r,)``, the second derivative of the extra rows; ``None``
        means zero (rows linear in the positions).

    Returns
    -------
    ndarray, shape (s, d, d)
        Symmetric; :math:`\ell` is ``cs.length_scale``.
    """
    d, c = flexes.shape[1], cs.n_constraints
    r = stresses.shape[1] - c if stresses.ndim == 2 and stresses.size else 0
    second = np.zeros((d, d, c + r))
    for a in range(d):
        for b in range(a, d):
            row = cs.second_derivative(p, flexes[:, a], flexes[:, b])
            if r and extra_second is not None:
                row = np.concatenate([row, extra_second(flexes[:, a], flexes[:, b])])
            else:
                row = np.concatenate([row, np.zeros(r)])
            second[a, b] = second[b, a] = row
    return cs.length_scale * np.einsum("sc,abc->sab", stresses.reshape(-1, c + r), second)


def prestress_stable(forms: np.ndarray, tol: float = SECOND_ORDER_RTOL) -> bool:
    r"""Whether some combination of the symmetric forms ``(s, d, d)`` is positive definite.

    Exact for one flex or one stress. For several of both,
    :math:`f(c) = \lambda_{\min}(\sum_j c_j H_j)` is concave (a minimum of linear
    functions :math:`v^T(\sum_j c_j H_j)v`), so its maximum over the unit ball is a
    convex problem: SLSQP with the supergradient :math:`(v^T H_j v)_j` from the three
    best of the :math:`\pm e_j` and 8 random starts (Nelder-Mead from all of them
    took 14 s on a 10 x 10 braced grid, 6 flexes and 17 stresses). ``True`` is
    certified by evaluating :math:`f` at the point found; ``False`` means only that no
    such combination was found.
    """
    s, d, _ = forms.shape
    if d == 0:
        return True
    if s == 0:
        return False
    if d == 1:
        return bool(np.abs(forms[:, 0, 0]).max() > tol)
    if s == 1:
        eig = np.linalg.eigvalsh(forms[0])
        return bool(eig[0] > tol or eig[-1] < -tol)
    return _best_min_eigenvalue(forms) > tol


def _best_min_eigenvalue(forms: np.ndarray) -> float:
    """The largest least eigenvalue of ``sum_j c_j forms[j]`` found over the unit ball."""
    from scipy.optimize import minimize

    s = forms.shape[0]
    flat = forms.reshape(s, -1)

    def neg_min(c: np.ndarray) -> tuple[float, np.ndarray]:
        w, v = np.linalg.eigh((c @ flat).reshape(forms.shape[1:]))
        return -float(w[0]), -np.einsum("i,sij,j->s", v[:, 0], forms, v[:, 0])

    rng = np.random.default_rng(0)
    starts = np.vstack([np.eye(s), -np.eye(s), rng.standard_normal((8, s))])
    starts /= np.linalg.norm(starts, axis=1, keepdims=True)
    values = np.array([-neg_min(c)[0] for c in starts])
    best = float(values.max())
    ball = {"type": "ineq", "fun": lambda c: 1.0 - c @ c, "jac": lambda c: -2.0 * c}
    for c0 in starts[np.argsort(values)[::-1][:3]]:
        res = minimize(neg_min, c0, jac=True, method="SLSQP", constraints=[ball],
                       options={"maxiter": 200})  # fmt: skip
        c = res.x / max(np.linalg.norm(res.x), 1e-300)
        best = max(best, -neg_min(c)[0])
    return best


@dataclass(frozen=True, eq=False)
class TangentCone:
    """Result of :func:`tangent_cone`.

    Attributes
    ----------
    directions : ndarray, shape (k, n, dim)
        One unit (Euclidean) internal direction per branch line (sign arbitrary).
        Where the flexes are not cut down to lines (no self-stress, or all stress
        energies zero: a regular point of a ``d``-dimensional set) an orthonormal
        basis of the flexes, with ``singular`` false.
    singular : bool
        More infinitesimal flexes than the branches' dimension: the rank dropped.
    n_flexes, n_stresses : int
    flexes : ndarray, shape (d, n, dim)
        The orthonormal internal flexes the lines are combinations of.
    """

    directions: np.ndarray = field(repr=False)
    singular: bool
    n_flexes: int
    n_stresses: int
    flexes: np.ndarray = field(repr=False, default_factory=lambda: np.zeros((0, 0, 2)))


def tangent_cone(
    linkage: Linkage,
    *,
    positions: Any = None,
    extra_rows: Any = None,
    extra_second: ExtraSecond | None = None,
    constraints: ConstraintSet | None = None,
    rtol: float = RANK_RTOL,
    flex_rtol: float | None = None,
) -> TangentCone:
    r"""The lines of second-order flexes through a placement: the branch directions.

    Parameters
    ----------
    linkage : Linkage
        Supplies the pins (and the constraints, unless ``constraints`` is given).
    positions : array_like, shape (n, 2), optional
        Where to evaluate (default: the linkage's vertices). The targets stay
        those of ``linkage`` (or ``constraints``).
    extra_rows : array_like or sparse, shape (r, 2n), optional
        Extra constraint Jacobian rows (motor or drive rows) appended to :math:`A`.
    extra_second : callable, optional
        ``(u, v) -> (r,)``: their second derivative. ``None``: zero, exact for rows
        linear in the positions (pins, holds). A motor row is an angle, not
        linear: pass its second derivative, or instead give ``constraints`` built
        with :meth:`~linkage_widget.constraints.ConstraintSet.with_drives`, whose
        own second derivative covers every drive row.
    constraints : ConstraintSet, optional
        Use these rows (drives included) instead of ``linkage``'s.
    rtol : float
        Relative tolerance of the rank.
    flex_rtol : float, optional
        Count singular values up to ``flex_rtol`` times the largest as flexes
        (and their left vectors as stresses), so that a placement within about
        ``flex_rtol`` (relative) of a singular one is treated as that one. The
        lines then move by about that much.

    Returns
    -------
    TangentCone

    Examples
    --------
    >>> flat = Linkage([[0, 0], [2, 0], [3, 0], [1, 0]], rods=[(0, 3), (1, 2), (3, 2)],
    ...                pinned=[0, 1])
    >>> cone = tangent_cone(flat)
    >>> cone.singular, len(cone.directions), cone.n_flexes, cone.n_stresses
    (True, 2, 2, 1)
    """
    tol = max(_checks.positive(rtol, "rtol"), flex_rtol or 0.0)
    cs = constraints or ConstraintSet.from_linkage(require_linkage(linkage, "tangent_cone"))
    p = as_flat(linkage.vertices if positions is None else positions)
    a = cs.jacobian(p).toarray()
    if extra_rows is not None:
        extra = extra_rows.toarray() if sp.issparse(extra_rows) else np.asarray(extra_rows, float)
        a = np.vstack([a, extra.reshape(-1, a.shape[1])])
    n, dim = linkage.n_vertices, linkage.dim
    slides = ground_sliders(linkage)
    inf = infinitesimal(a, p.reshape(n, dim), linkage.pinned, rtol=tol, sliders=slides)
    d = inf.n_flexes
    forms = stress_energy_forms(cs, p, inf.flexes, inf.stresses, extra_second)
    lines, continuum = cone_lines(forms, max(SECOND_ORDER_RTOL, tol))
    flat_cone = continuum and len(lines) == d and np.allclose(lines, np.eye(d))
    singular = d > 0 and not flat_cone and (d > 1 or len(lines) == 0)
    directions = (inf.flexes @ lines.T).T.reshape(-1, n, dim) if d else np.zeros((0, n, dim))
    return TangentCone(
        directions=directions,
        singular=bool(singular),
        n_flexes=d,
        n_stresses=inf.n_stresses,
        flexes=inf.flexes.T.reshape(d, n, dim),
    )


def second_order_rigid(linkage: Linkage, *, rtol: float = RANK_RTOL) -> bool | None:
    r"""Whether the only second-order flex at the placement is zero.

    ``True`` (second-order rigid, hence rigid) or ``False`` (a nonzero real
    solution of :math:`Q_j(c) = 0` exists), ``None`` when undecided. Order of the
    tests: no flex (``True``); no stress (``False``); prestress stability
    (``True``); a real solution line found numerically within
    :data:`SECOND_ORDER_RTOL` (:func:`~linkage_widget.rigidity.second_order_solve.cone_lines`:
    closed form for one or two flexes, multi-start Gauss-Newton for more) gives
    ``False``; else the exact rational decision of
    :func:`~linkage_widget.rigidity.second_order_solve.exact_second_order_rigid` for
    small linkages with rational coordinates; else ``True`` for at most two
    flexes (the closed form found every line) and ``None`` for more.

    Examples
    --------
    >>> line = Linkage([[0, 0], [1, 0], [2, 0]], rods=[(0, 1), (1, 2)], pinned=[0, 2])
    >>> second_order_rigid(line)
    True
    """
    rtol = _checks.positive(rtol, "rtol")
    cs = ConstraintSet.from_linkage(require_linkage(linkage, "second_order_rigid"))
    p = as_flat(linkage.vertices)
    inf = infinitesimal(
        cs.jacobian(p), linkage.vertices, linkage.pinned, rtol=rtol, sliders=ground_sliders(linkage)
    )
    return decide_second_order(linkage, cs, inf)[0]


def decide_second_order(
    linkage: Linkage, cs: ConstraintSet, inf: Infinitesimal
) -> tuple[bool | None, str]:
    """:func:`second_order_rigid` from its first-order data, with how it was decided.

    Returns
    -------
    rigid : bool or None
    how : str
        ``"no flex"``, ``"no self-stress"``, ``"prestress stable"``, ``"exact"``
        (rational arithmetic) or ``"numerical"``.
    """
    if inf.n_flexes == 0:
        return True, "no flex"
    if inf.n_stresses == 0:
        return False, "no self-stress"
    if inf in _DECIDED:  # analyze and mobility ask about the same first-order data
        return _DECIDED[inf]
    _DECIDED[inf] = answer = _decide(linkage, cs, inf)
    return answer


#: Decisions by first-order data (each Infinitesimal belongs to one placement).
_DECIDED: WeakKeyDictionary[Infinitesimal, tuple[bool | None, str]] = WeakKeyDictionary()


def _decide(linkage: Linkage, cs: ConstraintSet, inf: Infinitesimal) -> tuple[bool | None, str]:
    forms = stress_energy_forms(cs, linkage.vertices, inf.flexes, inf.stresses)
    if prestress_stable(forms):
        return True, "prestress stable"
    # Numerical lines first: with coordinates rounded to a few decimals the exact rational
    # placement is rigid at second order by a stress energy of 1e-9, which the tolerances
    # everywhere else (rank, motion) read as zero; a flex within tolerance is a flex.
    lines, _ = cone_lines(forms, first=True)
    if len(lines):
        return False, "numerical"
    exact = exact_second_order_rigid(linkage, rank=inf.rank)
    if exact is not None:
        return exact, "exact"
    return (True, "numerical") if inf.n_flexes <= 2 else (None, "numerical")
