r"""Certified mobility of a loop of revolute hinges in space (exact data, sympy).

For a :class:`~linkage_widget.rigidity.RevoluteLoop` with closure polynomials
:math:`g` in the unknowns :math:`x = (c_0, s_0, \dots)` (cosines and sines of the
hinge angles) and its exact placement :math:`p`:

1. :math:`k = \dim\ker J_g(p)`, by an exact rank, bounds the local dimension:
   :math:`\dim_p V \le \dim T_p V \le k`. If :math:`k = 0`, :math:`p` is an isolated
   point of :math:`V` (certified 0: a generic 6R loop).
2. Else the cut-and-saturate test of :mod:`~linkage_widget.rigidity.groebner`
   gives the largest dimension :math:`D \le k` of a complex component through
   :math:`p`. :math:`D = 0` proves the placement rigid. With a symmetry
   (:attr:`RevoluteLoop.symmetry`, :math:`\theta_j = \pm\theta_i`) the test runs first
   on :math:`V \cap S`, fewer unknowns: :math:`\dim_p (V \cap S) \le \dim_p V \le k`,
   so reaching :math:`k` there settles it (Bricard's line-symmetric 6R), whatever the
   symmetry; falling short, the full test runs (up to :data:`MAX_LOOP_HINGES` hinges).
3. :math:`D = k`: the dimension of :math:`V` at :math:`p` equals that of its tangent
   space, so :math:`p` is a smooth point of the (reduced) variety, which is defined
   over :math:`\mathbb{Q}`; near a smooth real point the real solutions form a real
   manifold of the same dimension (implicit function theorem on real generators of
   its ideal). The real mobility is :math:`D`, certified, and :math:`\ker J_g(p)` is its
   tangent space (Bennett's linkage: :math:`k = D = 1`).
4. :math:`0 < D < k`: a singular point (branches cross, or a cusp); the complex bound
   :math:`D` is reported, the real dimension is left undecided.

Cost (sympy 1.14, one core, measured on a loaded machine): Bennett's loop (8
unknowns) 0.5 s; a generic 6R (12 unknowns, :math:`k = 0`) under 1 s, no Gröbner basis
needed; Bricard's line-symmetric 6R inside its symmetry (6 unknowns) about 8 s; the same
without the symmetry did not finish in 300 s.
"""

from __future__ import annotations

import numpy as np

from .groebner import complex_local_dimension, jacobian_at, tangent_dimension
from .mobility_report import MobilityReport, _report
from .revolute_loop import RevoluteLoop

__all__ = ["MAX_LOOP_HINGES", "loop_mobility"]

#: Above this many hinges the full Gröbner step declines ("undecided"): a 6R loop's did not
#: finish in 300 s. The exact rank of step 1, and the step inside a symmetry, run at any size.
MAX_LOOP_HINGES = 5


def loop_mobility(loop: RevoluteLoop, *, seed: int = 0) -> MobilityReport:
    """The certified local dimension of a revolute loop at its placement (module notes).

    Parameters
    ----------
    loop : RevoluteLoop
    seed : int, keyword-only
        Seed of the random hyperplanes of the Gröbner test.

    Returns
    -------
    MobilityReport
        ``branch_directions`` of shape ``(k, n, 1)``: hinge-angle rates.

    Examples
    --------
    >>> bennett = RevoluteLoop.from_dh([3, 4, 3, 4], [(4/5, 3/5), (3/5, 4/5)] * 2,
    ...                                [1, 5, -1, -5])
    >>> report = loop_mobility(bennett)
    >>> report.dimension, report.certified, report.method
    (1, True, 'sympy-groebner')
    """
    polys, point = loop.closure_system()
    n, none = loop.n, np.zeros((0, loop.n, 1))
    k = tangent_dimension(polys, point)
    if k == 0:
        return _report(0, 0, none, True, "infinitesimal-rigidity", 0, _ISOLATED)
    d = _dimension_within_symmetry(polys, point, loop, k, seed) if loop.symmetry else 0
    if d < k and n > MAX_LOOP_HINGES:
        inside = " and none of that dimension inside its symmetry" if loop.symmetry else ""
        text = (
            f"The loop has {k} infinitesimal motion{'s' * (k != 1)}{inside}; {n} hinges are "
            "too many for the full Gröbner step (give a symmetry the motion keeps)."
        )
        return _report(None, 0, none, False, "sympy-groebner", k, text)
    if d < k:
        gens = list(polys[0].ring.symbols)
        exprs, at = [p.as_expr() for p in polys], dict(zip(gens, point, strict=True))
        d = complex_local_dimension(exprs, gens, at, upper=k, seed=seed)
    if d == 0:
        return _report(0, 0, none, True, "sympy-groebner", k, _rigid_text(k))
    if d < k:
        text = (
            f"The placement is singular: {k} infinitesimal motions, but the components "
            f"through it have complex dimension at most {d}; the real mobility is not "
            "decided here."
        )
        return _report(None, 0, none, False, "sympy-groebner", k, text)
    rates = _angle_rates(polys, point, loop)
    return _report(d, 1, rates.reshape(d, n, 1), True, "sympy-groebner", k, _moves_text(d))


def _dimension_within_symmetry(
    polys: list, point: tuple, loop: RevoluteLoop, k: int, seed: int
) -> int:
    r"""The local dimension of :math:`V \cap S`, :math:`S` the loop's symmetry: a lower bound.

    :math:`\theta_j = \pm\theta_i` is :math:`c_j = c_i, s_j = \pm s_i`, substituted, so
    the Gröbner basis has the unknowns of the free hinges only.
    """
    import sympy as sp

    gens = list(polys[0].ring.symbols)
    at = dict(zip(gens, point, strict=True))
    sub = {}
    for i, j, sign in loop.symmetry:
        sub[gens[2 * j]], sub[gens[2 * j + 1]] = gens[2 * i], sign * gens[2 * i + 1]
    exprs = sorted({sp.expand(p.as_expr().subs(sub)) for p in polys} - {0}, key=str)
    free = [g for g in gens if g not in sub]
    return complex_local_dimension(exprs, free, {g: at[g] for g in free}, upper=k, seed=seed)


def _angle_rates(polys: list, point: tuple, loop: RevoluteLoop) -> np.ndarray:
    r"""An orthonormal basis ``(k, n)`` of the hinge-angle rates of :math:`\ker J`.

    :math:`\dot\theta_i = c_i \dot s_i - s_i \dot c_i` (the circle keeps
    :math:`c_i \dot c_i + s_i \dot s_i = 0`).
    """
    kernel = jacobian_at(polys, point).nullspace().to_Matrix()  # (k, 2n) rows
    v = np.array(kernel.tolist(), dtype=float).reshape(-1, 2 * loop.n)
    cs = np.array([[float(c), float(s)] for c, s in loop.angles])
    rates = v[:, 1::2] * cs[:, 0] - v[:, 0::2] * cs[:, 1]
    q, _ = np.linalg.qr(rates.T)
    return q.T


_ISOLATED = (
    "The closure equations have an invertible Jacobian at this placement (exact rank): "
    "it is an isolated solution, so the loop cannot move."
)


def _rigid_text(k: int) -> str:
    return (
        f"The loop has {k} infinitesimal motion{'s' * (k != 1)}, but the exact computation "
        "(Gröbner bases) finds the placement isolated, even among complex solutions: rigid."
    )


def _moves_text(d: int) -> str:
    return (
        f"The exact computation (Gröbner bases) finds a component of dimension {d} through "
        f"the placement, as large as its tangent space: a smooth point, so the loop moves "
        f"with {d} degree{'s' * (d != 1)} of freedom, proved — although counting (6 "
        "equations per loop) says otherwise."
    )
