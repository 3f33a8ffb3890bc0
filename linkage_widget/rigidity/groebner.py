r"""Exact local dimension of a linkage's configuration set, by Gröbner bases (sympy).

Mobility is the dimension of the component of the configuration variety that
passes through the current placement, not a count and not a rank (the theme of
the Bennett and Bricard papers that use Gröbner bases to prove that an
overconstrained linkage moves). This module decides it exactly for small
linkages whose coordinates are short decimals.

The variety
-----------
The unknowns are the coordinates of the unpinned joints; pinned joints are
constants. Every rod :math:`ij` gives
:math:`|x_i - x_j|^2 - |p_i - p_j|^2`, every fixed angle :math:`(i, j, k)`
(at :math:`i`, :math:`a = x_j - x_i`, :math:`b = x_k - x_i`) gives
:math:`(a \times b)(a_0 \cdot b_0) - (a \cdot b)(a_0 \times b_0)`, where
:math:`p` and :math:`a_0, b_0` are the current placement made rational. The
lengths are taken from that rational placement, so :math:`p` lies exactly on
the variety :math:`V`. The trivial motions that the pins leave are removed by
fixing a joint and putting a second joint on its current ray from the first
(a rotation and two translations; only a discrete reflection is left).

The local dimension
-------------------
Let :math:`D` be the largest dimension of a component of :math:`V` through
:math:`p`. Cut :math:`V` with :math:`d` random hyperplanes :math:`H_1, \dots,
H_d` through :math:`p`: a component of dimension :math:`e \ge d` through
:math:`p` leaves components of dimension :math:`e - d` through :math:`p`. With
one more random linear form :math:`f` vanishing at :math:`p`,

.. math:: V(J : f^\infty) = \overline{V(J) \setminus V(f)}, \qquad
          J = I + (H_1, \dots, H_d),

keeps exactly the components of :math:`V(J)` not inside the hyperplane
:math:`f = 0` — every positive-dimensional one through :math:`p`, but not the
isolated point :math:`p`. So :math:`p \in V(J : f^\infty)` if and only if
:math:`d < D`, and :math:`D` is the least :math:`d` for which the test fails.
The saturation is one Gröbner basis of :math:`J + (1 - t f)` in an elimination
order (:math:`t` first, then degree reverse lexicographic), keeping the
elements free of :math:`t`. Components away from :math:`p` (a folded
placement, the mirror image) never enter: this is how the component through
the placement is chosen without a primary decomposition.

Complex and real
----------------
Gröbner bases see complex points, so :math:`D` is the *complex* local
dimension, an upper bound of the real one. :math:`D = 0` therefore proves
that the placement is rigid (isolated even among complex placements); a real
motion of dimension :math:`D` found numerically (:mod:`linkage_widget.rigidity.local_dimension`)
proves that the bound is attained.

Cost (sympy 1.14, one core): a flat parallelogram 0.1 s, three parallel cranks
0.5 s, a five-bar 2.4 s, the collinear :math:`K_{3,3}` (9 unknowns) 4.5 s.
The cost grows quickly with the number of unknowns, hence ``max_variables``.
"""

from __future__ import annotations

import functools
import itertools
import random
from fractions import Fraction
from typing import Any

import numpy as np

from ..model import Linkage
from .exact import rational_coordinates, slider_normals

__all__ = [
    "MAX_VARIABLES",
    "complex_local_dimension",
    "eliminate_first",
    "exact_local_dimension",
    "hilbert_dimension",
    "jacobian_at",
    "method_error",
    "rod_system",
    "tangent_dimension",
]

#: Above this many unknowns :func:`exact_local_dimension` declines (returns ``None``).
MAX_VARIABLES = 10


def method_error(method: Any, methods: tuple[str, ...], linkage: Any) -> Exception | None:
    """Why ``mobility(linkage, method=method)`` cannot run, or ``None`` (an unknown method)."""
    if method not in methods:
        return ValueError(f"method must be one of {methods}, got {method!r}")
    return None


def exact_local_dimension(
    linkage: Linkage, *, max_variables: int = MAX_VARIABLES, seed: int = 0
) -> int | None:
    r"""Complex local dimension of the configuration set at the current placement.

    Trivial motions (those the pins leave) are removed, so a mechanism that moves
    with one internal degree of freedom gives 1 and a rigid placement 0.

    Parameters
    ----------
    linkage : Linkage
    max_variables : int, keyword-only
        Decline (return ``None``) when more unknowns remain after pins and the
        trivial-motion gauge; the Gröbner basis grows quickly with their number.
    seed : int, keyword-only
        Seed of the random hyperplanes (any seed gives the same answer except on a
        set of measure zero).

    Raises
    ------
    NotImplementedError
        For a 3-D linkage.

    Returns
    -------
    int or None
        :math:`D`, an upper bound of the real local dimension and equal to it when
        a real motion of that dimension exists; ``None`` when the linkage is too
        large or its coordinates are not short rationals.

    Examples
    --------
    >>> four_bar = Linkage([[0, 0], [0.6, 0.8], [3.6, 2.4], [4, 0]],
    ...                    rods=[(0, 1), (1, 2), (2, 3)], pinned=[0, 3])
    >>> exact_local_dimension(four_bar)
    1
    >>> line = Linkage([[0, 0], [1, 0], [2, 0]], rods=[(0, 1), (1, 2)], pinned=[0, 2])
    >>> exact_local_dimension(line)
    0
    """
    if linkage.dim != 2:
        raise NotImplementedError(
            "exact_local_dimension (the Gröbner route of mobility) is planar: its gauge "
            "fixes the three motions of the plane; a 3-D linkage is not implemented "
            "(mobility(method='auto' or 'numerical') samples it instead)"
        )
    flat = rational_coordinates(linkage.vertices)
    if flat is None or slider_normals(linkage) is None:
        return None
    placement = list(zip(flat[0::2], flat[1::2], strict=True))
    system = _polynomial_system(linkage, placement)
    if system is None:
        return 0
    polys, gens, point = system
    if len(gens) > max_variables:
        return None
    return complex_local_dimension(polys, gens, point, upper=len(gens), seed=seed)


def jacobian_at(polys: list[Any], point: tuple[Any, ...]) -> Any:
    """The exact Jacobian ``(len(polys), ngens)`` of ring polys at ``point``: a DomainMatrix."""
    from sympy.polys.matrices import DomainMatrix

    ring = polys[0].ring
    rows = [[p.diff(x)(*point) if p.degree(x) > 0 else ring.domain.zero for x in ring.gens]
            for p in polys]  # fmt: skip
    return DomainMatrix(rows, (len(rows), ring.ngens), ring.domain)


def rod_system(linkage: Linkage) -> tuple[list[Any], list[Any], dict[Any, Any]]:
    """The polynomials, unknowns and exact placement of :func:`exact_local_dimension`.

    Raises
    ------
    ValueError
        For a 3-D linkage, coordinates with no exact form, or nothing left to move.
    """
    if linkage.dim != 2:
        raise ValueError("rod_system: the rods' exact system is planar (in space: RevoluteLoop)")
    flat = rational_coordinates(linkage.vertices)
    if flat is None:
        raise ValueError("rod_system: a coordinate has no exact rational form (exact.rational)")
    if slider_normals(linkage) is None:
        raise ValueError("rod_system: a slider's line has no exact rational direction")
    system = _polynomial_system(linkage, list(zip(flat[0::2], flat[1::2], strict=True)))
    if system is None:
        raise ValueError("rod_system: every joint is pinned or gauged: no unknowns")
    return system


def tangent_dimension(polys: list[Any], point: tuple[Any, ...]) -> int:
    r"""Dimension of the kernel of the Jacobian of ``polys`` at ``point``, exactly.

    ``polys``: sympy ring polynomials (``PolyElement``), ``point`` in their domain. An
    upper bound of the local dimension: every polynomial of the ideal vanishes on the
    variety, so its differential vanishes on the Zariski tangent space,
    :math:`\dim_p V \le \dim T_p V \le \dim \ker J(p)`.
    """
    return polys[0].ring.ngens - jacobian_at(polys, point).rank()


def complex_local_dimension(
    polys: list[Any], gens: list[Any], point: dict[Any, Any], *, upper: int, seed: int = 0
) -> int:
    r"""The largest dimension :math:`D \le` ``upper`` of a component of ``V(polys)`` at ``point``.

    The cut-and-saturate test of the module notes for :math:`d = 0, 1, \dots`: the
    least :math:`d` whose test fails is :math:`D`; ``upper`` (a known bound, such as
    :func:`tangent_dimension`) stops the search before the costliest bases.
    """
    rng = random.Random(seed)
    for d in range(upper):
        cuts = [_random_form(gens, point, rng) for _ in range(d)]
        if not _on_positive_dimensional_part(
            polys + cuts, _random_form(gens, point, rng), gens, point
        ):
            return d
    return upper


def _polynomial_system(
    linkage: Linkage, placement: list[tuple[Fraction, Fraction]]
) -> tuple[list[Any], list[Any], dict[Any, Any]] | None:
    """Polynomials, unknowns and the exact point; ``None`` when nothing can move."""
    import sympy as sp

    n = linkage.n_vertices
    pinned = {int(i) for i in linkage.pinned}
    P = [
        (sp.Rational(x.numerator, x.denominator), sp.Rational(y.numerator, y.denominator))
        for x, y in placement
    ]
    X: dict[int, tuple[Any, Any]] = {}
    gens, point = [], {}
    gauge = _gauge(linkage, pinned)
    for i in range(n):
        if i in pinned or (gauge and i == gauge[0]):
            X[i] = P[i]
            continue
        xi, yi = sp.symbols(f"x{i} y{i}")
        X[i] = (xi, yi)
        gens += [xi, yi]
        point[xi], point[yi] = P[i]
    if not gens:
        return None
    polys = [_rod(X[i], X[j], P[i], P[j]) for i, j in linkage.rods]
    polys += [_angle(X, P, i, j, k) for i, j, k in linkage.angles]
    polys += _guide_polys(linkage, X, P)
    if gauge:
        a, b = gauge
        dx, dy = P[b][0] - P[a][0], P[b][1] - P[a][1]
        polys.append((X[b][0] - P[a][0]) * dy - (X[b][1] - P[a][1]) * dx)
    return [sp.expand(q) for q in polys if sp.expand(q) != 0], gens, point


def _guide_polys(linkage: Linkage, X: dict[int, Any], P: list[Any]) -> list[Any]:
    r"""Sliders :math:`n \cdot (X_j - P_j)` and slots :math:`e \times w - e_0 \times w_0`.

    With sliders on parallel lines and no pin, the slide along them is the one trivial
    motion left; a joint of the first slider is held in its line's direction too.
    """
    import sympy as sp

    g = linkage.guides
    normals = [(sp.Rational(a), sp.Rational(b)) for a, b in slider_normals(linkage) or []]
    out = []
    for j, n in zip(g.slider_joints.tolist(), normals, strict=True):
        out.append(n[0] * (X[j][0] - P[j][0]) + n[1] * (X[j][1] - P[j][1]))
    for a, b, c in g.slots.tolist():
        e, w = [(X[v][0] - X[a][0], X[v][1] - X[a][1]) for v in (b, c)]
        e0, w0 = [(P[v][0] - P[a][0], P[v][1] - P[a][1]) for v in (b, c)]
        out.append(e[0] * w[1] - e[1] * w[0] - (e0[0] * w0[1] - e0[1] * w0[0]))
    parallel = all(n[0] * normals[0][1] - n[1] * normals[0][0] == 0 for n in normals)
    if normals and parallel and not len(linkage.pinned):
        j, (nx, ny) = int(g.slider_joints[0]), normals[0]
        out.append(ny * (X[j][0] - P[j][0]) - nx * (X[j][1] - P[j][1]))
    return out


def _gauge(linkage: Linkage, pinned: set[int]) -> tuple[int, int] | None:
    """``(a, b)``: fix joint ``a`` (if unpinned) and put ``b`` on its ray; ``None`` if pins do.

    Sliders leave no turn (their lines would tilt): they gauge themselves (the slide
    along parallel lines is held in :func:`_guide_polys`), so ``None`` with any slider.
    """
    if linkage.guides.n_sliders:
        return None
    p = linkage.vertices
    if len(pinned) >= 2 and np.ptp(p[sorted(pinned)], axis=0).max() > 0:
        return None
    anchor = min(pinned) if pinned else (int(linkage.rods[0][0]) if linkage.n_rods else 0)
    far = np.flatnonzero(np.abs(p - p[anchor]).max(axis=1) > 0)
    if not len(far):
        return None
    return anchor, int(far[0])


def _rod(xi: Any, xj: Any, pi: Any, pj: Any) -> Any:
    return (xi[0] - xj[0]) ** 2 + (xi[1] - xj[1]) ** 2 - (pi[0] - pj[0]) ** 2 - (pi[1] - pj[1]) ** 2


def _angle(X: dict[int, Any], P: list[Any], i: int, j: int, k: int) -> Any:
    def cross_dot(u: Any, v: Any) -> tuple[Any, Any]:
        return u[0] * v[1] - u[1] * v[0], u[0] * v[0] + u[1] * v[1]

    a = (X[j][0] - X[i][0], X[j][1] - X[i][1])
    b = (X[k][0] - X[i][0], X[k][1] - X[i][1])
    a0 = (P[j][0] - P[i][0], P[j][1] - P[i][1])
    b0 = (P[k][0] - P[i][0], P[k][1] - P[i][1])
    c, d = cross_dot(a, b)
    c0, d0 = cross_dot(a0, b0)
    return c * d0 - d * c0


def _random_form(gens: list[Any], point: dict[Any, Any], rng: random.Random) -> Any:
    """A random linear form with small integer coefficients that vanishes at ``point``."""
    return sum(rng.choice([-1, 1]) * rng.randint(1, 9) * (g - point[g]) for g in gens)


def _on_positive_dimensional_part(polys: list[Any], f: Any, gens: list[Any], point: dict) -> bool:
    r"""Whether ``point`` lies in :math:`V(J : f^\infty)`, :math:`J` = ``(polys)``."""
    import sympy as sp

    t = sp.Dummy("t")
    basis = sp.groebner([*polys, 1 - t * f], t, *gens, order=_elimination_order())
    return all(g.subs(point) == 0 for g in basis.exprs if t not in g.free_symbols)


def _elimination_order() -> Any:
    """Eliminate the first variable (:func:`eliminate_first` of 1)."""
    return eliminate_first(1)


@functools.cache
def eliminate_first(m: int) -> Any:
    """A block order: the first ``m`` variables by degree reverse lexicographic, then the rest.

    Any monomial holding one of the first ``m`` variables is above every monomial free
    of them, so a Gröbner basis in this order contains one of the elimination ideal.
    Built on first use so that importing this module does not import sympy.
    """
    from sympy.polys.orderings import MonomialOrder

    def revlex(block: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(reversed([-e for e in block]))

    class EliminateFirst(MonomialOrder):
        alias = f"eliminate_first_{m}"
        is_global = True
        is_default = False

        def __call__(self, monomial: tuple[int, ...]) -> tuple[Any, ...]:
            head, rest = monomial[:m], monomial[m:]
            if m == 1:  # the order of issue 13's saturation, unchanged
                return (head[0], sum(rest), revlex(rest))
            return (sum(head), revlex(head), sum(rest), revlex(rest))

        def __eq__(self, other: object) -> bool:
            return isinstance(other, EliminateFirst) and other.alias == self.alias

        def __hash__(self) -> int:  # sympy's own product order is unhashable, hence this class
            return hash(self.alias)

    return EliminateFirst()


def hilbert_dimension(basis: list[Any], gens: list[Any]) -> int:
    """Krull dimension of the ideal of a degree-reverse-lexicographic Gröbner ``basis``.

    The largest set of variables none of whose monomials is a leading monomial of the
    basis (a maximal independent set); ``-1`` for the unit ideal.
    """
    import sympy as sp

    if list(basis) == [1]:
        return -1
    leads = [sp.LM(g, *gens, order="grevlex").free_symbols for g in basis]
    for k in range(len(gens), -1, -1):
        for subset in itertools.combinations(gens, k):
            if not any(lead <= set(subset) for lead in leads):
                return k
    return 0
