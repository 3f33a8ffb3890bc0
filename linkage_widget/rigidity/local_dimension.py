r"""Real mobility: the local dimension of the configuration set through a placement.

Counting (Maxwell) and ranks (the internal flexes ``d`` of
:mod:`linkage_widget.rigidity`) only bound it: mobility is the dimension of the
set :math:`\{q : g(q) = 0\}` near the placement :math:`p`, rigid motions
removed. :func:`mobility` decides it by the first test that applies:

1. ``d = 0``: infinitesimally rigid, dimension 0 (certified).
2. No self-stress beyond those of rods between pinned joints (implied by the
   pins): :math:`A` has full row rank once those are dropped, and by the
   implicit function theorem the set is a manifold of dimension ``d`` near
   :math:`p` (certified, ``"implicit-function"``).
3. Second-order rigid (:func:`~linkage_widget.rigidity.second_order.decide_second_order`):
   dimension 0 (certified when prestress stable or decided exactly).
4. Exact (``"sympy-groebner"``), for small linkages with short-decimal
   coordinates: :func:`~linkage_widget.rigidity.groebner.exact_local_dimension` gives the
   complex local dimension :math:`D`, an upper bound. :math:`D = 0` proves
   rigidity; otherwise the sampling below runs too, and the dimension is
   certified when it attains :math:`D` (a real motion of that dimension exists).
5. Numerical sampling (``"numerical-sampling"``, not certified): placements
   :math:`p + hVc` a step :math:`h` (1 % of the rod length) along random flexes
   are projected back onto the constraints by Levenberg-Marquardt (minimum-norm
   Gauss-Newton; singular values below ``rtol`` are damped, not inverted, so
   coordinates rounded to a few decimals do not block a motion; dense normal
   equations, sparse LU for large linkages), the rigid motions fixed by the slice
   :math:`T^T (q - p) = 0`. If every projection falls back to :math:`p`, no motion
   is found, which proves nothing: ``"undecided"`` (as ``analyze`` says). Else the
   landing directions, clustered up to sign, are the branch lines (the nearest
   lines of :func:`~linkage_widget.rigidity.second_order.tangent_cone` when it has them). A
   branch's dimension is at most the number of flexes where it landed; when that is
   more than one, a second round of samples from there tells how many extend to
   motions (the rank of the landing displacements).

The dimension never exceeds ``d``: the independent rows of :math:`A(p)` define a
manifold of dimension ``d`` (plus trivial) containing the set near :math:`p`.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from .. import _checks
from ..constraints import ConstraintSet, as_flat
from ..model import Linkage
from .groebner import exact_local_dimension, method_error
from .hinge_rods import SNAP, loop_from_rods
from .loop_mobility import loop_mobility
from .mobility_report import MobilityReport, _report
from .revolute_loop import RevoluteLoop
from .rigid_motions import ground_sliders, linkage_trivial_motions
from .second_order import (
    Infinitesimal,
    decide_second_order,
    ground_rows,
    infinitesimal,
    require_linkage,
    stress_energy_forms,
)
from .second_order_solve import cone_lines
from .tolerances import (
    COLLAPSE,
    CONE_SAME_LINE,
    IN_BRANCH,
    LANDED_TOL,
    RANK_FRACTION,
    RANK_RTOL,
    SAME_LINE,
    SETTLED,
)

__all__ = ["MobilityReport", "ground_rows", "mobility", "numerical_mobility"]

#: Sampling step, relative to the constraints' length scale (median rod).
STEP = 1e-2
#: The exact Gröbner route is asked up to this many unknowns (free coordinates less the
#: trivial motions): three parallel cranks and a five-bar have 6.
EXACT_MAX_UNKNOWNS = 6
#: Projections use dense normal equations up to this many coordinates 2n.
DENSE_MAX_2N = 400
METHODS = ("auto", "numerical", "exact")


def mobility(
    linkage: Linkage | RevoluteLoop,
    *,
    method: str = "auto",
    rtol: float = RANK_RTOL,
    seed: int = 0,
) -> MobilityReport:
    """Local dimension of the configuration set through the current placement.

    Parameters
    ----------
    linkage : Linkage or RevoluteLoop
        A loop of revolute hinges with exact data is decided exactly in space
        (:func:`~linkage_widget.rigidity.loop_mobility.loop_mobility`) unless
        ``method="numerical"`` asks for its rods (:meth:`RevoluteLoop.to_linkage`).
    method : {"auto", "numerical", "exact"}
        ``"auto"``: the tests of the module notes in order. ``"numerical"``: skip
        the exact Gröbner route. ``"exact"``: ``"undecided"`` where neither the
        first-order, second-order nor Gröbner route applies (no uncertified
        answer); a 3-D rod linkage has no Gröbner route (its floating coordinates
        are not the mechanism meant): give its :class:`RevoluteLoop`.
    rtol : float
        Relative tolerance of the numerical rank.
    seed : int
        Random sample directions.

    Returns
    -------
    MobilityReport

    Examples
    --------
    >>> crank = Linkage([[0, 0], [0, 1], [2, 1.5], [2, 0]],
    ...                 rods=[(0, 1), (1, 2), (2, 3)], pinned=[0, 3])
    >>> mobility(crank).status
    'moves (certified, dimension 1)'
    >>> line = Linkage([[0, 0], [1, 0], [2, 0]], rods=[(0, 1), (1, 2)], pinned=[0, 2])
    >>> mobility(line).status
    'rigid although infinitesimally flexible'
    """
    if (error := method_error(method, METHODS, linkage)) is not None:
        raise error
    if isinstance(linkage, RevoluteLoop):
        if method != "numerical":
            return loop_mobility(linkage, seed=seed)
        linkage = linkage.to_linkage()
    rtol = _checks.positive(rtol, "rtol")
    cs = ConstraintSet.from_linkage(require_linkage(linkage, "mobility"))
    p = as_flat(linkage.vertices)
    inf = infinitesimal(
        cs.jacobian(p), linkage.vertices, linkage.pinned, rtol=rtol, sliders=ground_sliders(linkage)
    )
    return mobility_from(linkage, cs, inf, method=method, rtol=rtol, seed=seed)


def mobility_from(
    linkage: Linkage,
    cs: ConstraintSet,
    inf: Infinitesimal,
    *,
    method: str = "auto",
    rtol: float = RANK_RTOL,
    seed: int = 0,
) -> MobilityReport:
    """:func:`mobility` from first-order data computed already (``analyze`` has them)."""
    n, d, dim = linkage.n_vertices, inf.n_flexes, linkage.dim
    none = np.zeros((0, n, dim))
    if d == 0:
        return _report(0, 0, none, True, "infinitesimal-rigidity", 0, _NO_FLEX)
    flexes = inf.flexes.T.reshape(d, n, dim)
    if inf.n_stresses - ground_rows(linkage) <= 0:
        return _report(d, 1, flexes, True, "implicit-function", d, _regular_text(d))
    rigid, how = decide_second_order(linkage, cs, inf)
    if rigid:
        certified = how in ("prestress stable", "exact")
        return _report(0, 0, none, certified, "second-order", d, _second_order_text(d, how))
    early, exact = _exact_route(linkage, inf, method, flexes)
    if early is not None:
        return early
    dimension, directions = numerical_mobility(linkage, cs, inf, rtol=rtol, seed=seed)
    branches = len(directions) if dimension else 0
    text = _numerical_text(dimension, branches, d)
    if exact is not None and exact == dimension:
        text = _exact_text(dimension, branches)
        return _report(dimension, branches, directions, True, "sympy-groebner", d, text)
    if method == "exact":
        return _report(None, 0, none, False, "sympy-groebner", d, _undecided(dim))
    if exact is not None:
        text += f" The exact computation bounds it by {exact} (its complex dimension)."
    if not dimension:  # no motion found proves nothing: "undecided", as analyze says
        dimension, directions = None, none
    return _report(dimension, branches, directions, False, "numerical-sampling", d, text)


def _exact_route(
    linkage: Linkage, inf: Infinitesimal, method: str, flexes: np.ndarray
) -> tuple[MobilityReport | None, int | None]:
    """The exact routes: a report that settles it, or none and the complex bound (or none)."""
    n, d, dim = linkage.n_vertices, inf.n_flexes, linkage.dim
    none = np.zeros((0, n, dim))
    if dim == 3 and method != "numerical" and (loop := _as_exact_loop(linkage, d, flexes)):
        if loop.dimension is not None or method == "exact":
            return loop, None
    # <= EXACT_MAX_UNKNOWNS (a 9-unknown prism took 130 s); planar: in space a RevoluteLoop
    unknowns = dim * (n - len(linkage.pinned)) - inf.trivial.shape[1]
    small = method != "numerical" and unknowns <= EXACT_MAX_UNKNOWNS and dim == 2
    exact = exact_local_dimension(linkage) if small else None
    if exact == 0:
        return _report(0, 0, none, True, "sympy-groebner", d, _EXACT_RIGID), 0
    if exact is None and method == "exact":  # no sampling
        return _report(None, 0, none, False, "sympy-groebner", d, _undecided(dim)), None
    return None, exact


def _as_exact_loop(linkage: Linkage, d: int, flexes: np.ndarray) -> MobilityReport | None:
    """The certified answer of the exact hinge loop the rods stand for, if they are one."""
    try:
        loop = loop_from_rods(linkage)
    except ValueError:
        return None
    r = loop_mobility(loop)
    data = ", ".join(
        f"a{i} = {link[0][3]}, cos α{i} = {link[1][1]}, θ{i} = ({c}, {s})"
        for i, (link, (c, s)) in enumerate(zip(loop.links, loop.angles, strict=True))
    )
    text = f"Read as the exact loop of hinges within {SNAP:g} of the rods ({data}). {r.explanation}"
    directions = flexes if r.dimension == d else np.zeros((0, *flexes.shape[1:]))
    branches = 1 if r.dimension else 0
    return _report(r.dimension, branches, directions, r.certified, r.method, d, text)


_NO_FLEX = "No internal motion, not even infinitesimally."


def _undecided(dim: int) -> str:
    why = (
        "too many unknowns, or coordinates that are not short decimals"
        if dim == 2
        else "in space it takes a loop of hinges with exact data, a RevoluteLoop, or rods "
        "laid out as one whose data are small rationals"
    )
    return (
        "Some infinitesimal flex is not blocked at second order, and the exact computation "
        f"does not apply ({why}): whether the linkage moves is not decided here."
    )


_EXACT_RIGID = (
    "The exact computation (Gröbner bases) finds the placement isolated, even among "
    "complex solutions of the constraints: rigid, although it flexes infinitesimally."
)


def _exact_text(dimension: int, branches: int) -> str:
    lines = f" on {branches} branches that cross here" if branches > 1 else ""
    return (
        f"The exact computation (Gröbner bases) bounds the dimension by {dimension}, and "
        f"nearby placements{lines} found by projecting steps along the flexes attain it: it "
        f"moves with {dimension} degree{'s' * (dimension != 1)} of freedom, although "
        "counting and ranks alone cannot tell."
    )


def _regular_text(d: int) -> str:
    return (
        "The constraints are independent (no self-stress), so by the implicit function "
        f"theorem the nearby placements form a smooth family with {d} internal degree"
        f"{'s' * (d != 1)} of freedom."
    )


def _second_order_text(d: int, how: str) -> str:
    proof = {
        "prestress stable": "a self-stress whose energy grows along every flex",
        "exact": "an exact solution of the second-order equations",
    }.get(how, "the second-order equations, solved numerically")
    return (
        f"There {'are' if d != 1 else 'is'} {d} infinitesimal flex{'es' * (d != 1)}, but no "
        f"flex extends to second order ({proof}): the placement is rigid."
    )


def _numerical_text(dimension: int, branches: int, d: int) -> str:
    if dimension == 0:
        return (
            f"Every placement a small step along the {d} infinitesimal flex"
            f"{'es' * (d != 1)} projects back onto this one: no motion found, but that "
            "proves nothing (undecided)."
        )
    lines = f" on {branches} branches that cross here" if branches > 1 else ""
    return (
        "Placements a small step along the flexes project onto nearby solutions"
        f"{lines}: they form a family of dimension {dimension} (found numerically, not "
        "proved; counting and ranks alone cannot tell)."
    )


# -------------------------------------------------------------- numerical sampling
class _Projector:
    r"""Levenberg-Marquardt projection onto :math:`g(q) = 0,\ T^T (q - p) = 0`.

    Dense normal equations up to :data:`DENSE_MAX_2N` coordinates, sparse LU beyond.
    """

    def __init__(self, cs: ConstraintSet, p: np.ndarray, gauge: np.ndarray, mu: float) -> None:
        self.cs, self.p, self.mu, self.gauge = cs, p, mu, gauge.T
        self.dense = len(p) <= DENSE_MAX_2N

    def _step(self, q: np.ndarray) -> np.ndarray:
        g = np.concatenate([self.cs.residuals(q), self.gauge @ (q - self.p)])
        if self.dense:
            jac = np.vstack([self.cs.jacobian(q).toarray(), self.gauge])
            normal = jac.T @ jac + self.mu * np.eye(len(q))
            return -np.linalg.solve(normal, jac.T @ g)
        # Dense gauge rows make J^T J dense: factor the SPD A^T A + mu I alone (symmetric
        # ordering, no pivoting) and add the rank-t gauge by Woodbury (penrose4t: 10x faster).
        jac = self.cs.jacobian(q).tocsc()
        normal = (jac.T @ jac + self.mu * sp.identity(len(q), format="csc")).tocsc()
        lu = spla.splu(normal, permc_spec="MMD_AT_PLUS_A", diag_pivot_thresh=0.0,
                       options={"SymmetricMode": True})  # fmt: skip
        gt, c = self.gauge.T, len(g) - len(self.gauge)  # gt: (2n, t)
        y = lu.solve(jac.T @ g[:c] + gt @ g[c:])
        if not gt.shape[1]:
            return -y
        z = lu.solve(gt)
        cap = np.eye(gt.shape[1]) + self.gauge @ z
        return -(y - z @ np.linalg.solve(cap, self.gauge @ y))

    def project(self, q0: np.ndarray, origin: np.ndarray, h: float) -> np.ndarray | None:
        """The landing point from ``q0``; ``None`` if it collapsed onto ``origin`` or failed."""
        q = q0.copy()
        for _ in range(80):
            dq = self._step(q)
            q = q + dq
            if np.linalg.norm(q - origin) < COLLAPSE * h:
                return None
            # Landed: at round-off, or at the floor of rounded data (a residual the damped
            # near-flexes hold) where the steps only creep along the flex.
            small = np.linalg.norm(dq) <= SETTLED * h
            if small and self.cs.relative_error(q) <= LANDED_TOL:
                return q
        return None


def _unit_samples(d: int, rng: np.random.Generator) -> np.ndarray:
    """Sample directions ``(K, d)``: both senses of the flex for ``d = 1``, else random."""
    if d == 1:
        return np.array([[1.0], [-1.0]])
    c = rng.standard_normal((3 * d + 4, d))
    return c / np.linalg.norm(c, axis=1, keepdims=True)


def _landings(
    proj: _Projector,
    origin: np.ndarray,
    basis: np.ndarray,
    h: float,
    rng: np.random.Generator,
    first: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """Landing points ``(k, 2n)`` of steps ``h`` along random unit combinations of ``basis``.

    Returns the landings and the sample directions ``(K, d)``; collapsed samples are
    left out of the landings. ``first``: stop at the first landing.
    """
    samples = _unit_samples(basis.shape[1], rng)
    landed = []
    for c in samples:
        q = proj.project(origin + h * (basis @ c), origin, h)
        if q is not None:
            landed.append(q)
            if first:
                break
    return np.array(landed).reshape(len(landed), len(origin)), samples


def _clusters(dirs: np.ndarray) -> list[list[int]]:
    """Indices of the unit directions ``(k, 2n)`` grouped into lines (up to sign)."""
    groups: list[list[int]] = []
    for i, u in enumerate(dirs):
        for grp in groups:
            if abs(float(u @ dirs[grp[0]])) >= SAME_LINE:
                grp.append(i)
                break
        else:
            groups.append([i])
    return groups


def numerical_mobility(
    linkage: Linkage,
    cs: ConstraintSet,
    inf: Infinitesimal,
    *,
    rtol: float,
    seed: int = 0,
    any_motion: bool = False,
) -> tuple[int, np.ndarray]:
    """The numerical sampling of the module notes: dimension and one direction per branch.

    With ``any_motion`` it stops at the first landing away from the placement and
    returns dimension 1 (at least) with that secant: whether it moves, not how much.

    Returns
    -------
    dimension : int
    directions : ndarray, shape (branches, n, dim)
    """
    n, d, dim = linkage.n_vertices, inf.n_flexes, linkage.dim
    p = as_flat(linkage.vertices)
    h = STEP * cs.length_scale
    sv0 = float(inf.singular_values[0]) if inf.singular_values.size else 1.0
    triv = linkage_trivial_motions(linkage, p.reshape(-1, dim))
    proj = _Projector(cs, p, triv, (rtol * sv0) ** 2)
    rng = np.random.default_rng(seed)
    landed, _ = _landings(proj, p, inf.flexes, h, rng, first=any_motion)
    if any_motion and len(landed):
        u = (landed[0] - p) / np.linalg.norm(landed[0] - p)
        return 1, u.reshape(1, n, dim)
    if not len(landed):
        return 0, np.zeros((0, n, dim))
    dirs = (landed - p) / np.linalg.norm(landed - p, axis=1, keepdims=True)
    groups = sorted(_clusters(dirs), key=len, reverse=True)
    kept: list[tuple[int, int, np.ndarray | None]] = []  # (group, dimension, tangent basis)
    for g, grp in enumerate(groups):
        u = dirs[grp[0]]
        if any(t is not None and np.linalg.norm(u - t @ (t.T @ u)) < IN_BRANCH for _, _, t in kept):
            continue  # a line inside a branch of higher dimension found already
        q = landed[max(grp, key=lambda i: np.linalg.norm(landed[i] - p))]
        k, tangent = _branch_dimension(proj, cs, linkage, q, h, rtol, rng) if d > 1 else (1, None)
        kept.append((g, k, tangent))
    secants = np.array([dirs[groups[g][0]] for g, _, _ in kept])
    directions = _refined(linkage, cs, inf, secants)
    return max(k for _, k, _ in kept), directions.reshape(-1, n, dim)


def _branch_dimension(
    proj: _Projector,
    cs: ConstraintSet,
    linkage: Linkage,
    q: np.ndarray,
    h: float,
    rtol: float,
    rng: np.random.Generator,
) -> tuple[int, np.ndarray | None]:
    """Dimension of the branch through the landing ``q`` and its tangent basis ``(2n, k)``.

    At most the internal flexes at ``q``; when there are several, the rank of the
    landing displacements of a second round of samples from ``q`` says how many
    extend to motions (a flex that does not collapses back onto the branch).
    """
    at_q = infinitesimal(
        cs.jacobian(q), q.reshape(-1, linkage.dim), linkage.pinned, rtol=rtol,
        sliders=ground_sliders(linkage),
    )  # fmt: skip
    k = at_q.n_flexes
    if k <= 1:
        return max(k, 1), None
    landed, _ = _landings(proj, q, at_q.flexes, h, rng)
    if not len(landed):
        return 1, None
    _, sv, vt = np.linalg.svd((landed - q) / h, full_matrices=False)
    rank = int(np.sum(sv > RANK_FRACTION * sv[0]))
    return min(rank, k), vt[:rank].T


def _refined(
    linkage: Linkage, cs: ConstraintSet, inf: Infinitesimal, secants: np.ndarray
) -> np.ndarray:
    """Secant directions ``(k, 2n)`` replaced by the tangent-cone line each is closest to."""
    if inf.n_flexes < 2 or not len(secants):
        return secants if inf.n_flexes != 1 else inf.flexes.T[:1].copy()
    forms = stress_energy_forms(cs, linkage.vertices, inf.flexes, inf.stresses)
    lines, continuum = cone_lines(forms)
    if continuum or not len(lines):
        return secants
    cone = (inf.flexes @ lines.T).T  # (k', 2n), unit
    out = secants.copy()
    for i, u in enumerate(secants):
        cos = np.abs(cone @ u)
        if cos.max() > CONE_SAME_LINE:
            out[i] = cone[int(np.argmax(cos))]
    return out
