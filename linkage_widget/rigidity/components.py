r"""The components of a configuration variety, over the rationals, by splitting on factors.

A linkage's closure ideal :math:`I` is seldom prime: its variety :math:`V(I)` is a
union of irreducible components, some physical (an assembly mode, a motion), some
spurious (introduced by the equations). sympy has no primary decomposition; this
module does what it can do honestly for small ideals.

Splitting
---------
If a polynomial of :math:`I` factors, :math:`f = f_1^{e_1} \cdots f_r^{e_r}`, then

.. math:: V(I) = V(I + (f_1)) \cup \dots \cup V(I + (f_r)) .

:func:`variety_components` computes a reduced Gröbner basis (degree reverse
lexicographic), factors each element over :math:`\mathbb{Q}`, splits on the first
that factors, and recurses until every element of every basis is irreducible (a
radical-minded version of the factorizing Gröbner algorithm). Pieces whose variety lies
in another's (:math:`V(P_a) \subseteq V(P_b)` iff :math:`P_b \subseteq \sqrt{P_a}`,
tested by Rabinowitsch's trick: :math:`1 \in P_a + (1 - t g)` for each :math:`g` of
:math:`P_b`) are dropped. What is left covers :math:`V(I)` exactly, and no piece is
inside another.

Irreducibility, tested not assumed
----------------------------------
Irreducible generators do not make a prime ideal (:math:`(x^2 - 2, y^2 - 2)` contains
:math:`(x - y)(x + y)`). Each piece of dimension :math:`e` is therefore cut by
:math:`e` random rational hyperplanes, leaving :math:`N` points (the standard
monomials of the cut, counted); the *eliminant* is the minimal polynomial of a random
linear form on them. If it is irreducible over :math:`\mathbb{Q}` of degree
:math:`N`, the cut is a maximal ideal (:math:`\mathbb{Q}[x]/\text{cut} \cong
\mathbb{Q}[z]/(h)`, a field): its points are one Galois orbit. Every component over
:math:`\mathbb{Q}` of dimension :math:`e` meets the cut in a Galois-stable set, so the
:math:`e`-dimensional part of the piece is irreducible over :math:`\mathbb{Q}`:
``irreducible=True``. Exact arithmetic throughout; the one assumption is that the cut
meets every :math:`e`-dimensional component (all cuts but a closed set of them do,
and a transversal cut is checked: dimension 0). Otherwise (an unlucky cut, Hilbert's thin set, or a
piece that does split) ``irreducible=None``: not decided.

Limits
------
Over :math:`\mathbb{Q}`, not :math:`\mathbb{C}`: a component irreducible over the
rationals may split over an extension (the two complex lines of :math:`x^2 + y^2`). A
piece of dimension :math:`e` may carry embedded lower-dimensional points, which the
cut does not see. A piece whose generators are irreducible but which is not prime is
reported, not split. The cost is that of the Gröbner bases: seconds for the four-bar
and Bennett's loop, hopeless for a 6R loop in sympy.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from typing import Any

from ..model import Linkage
from .groebner import eliminate_first, hilbert_dimension, rod_system
from .revolute_loop import RevoluteLoop

__all__ = ["VarietyComponent", "closure_ideal", "variety_components"]

#: Splitting stops below this depth (each level adds one factor): a guard, never reached
#: by the examples.
MAX_DEPTH = 12
#: Random cuts tried by the irreducibility test before it says "not decided".
CUTS = 3


def closure_ideal(source: Linkage | RevoluteLoop) -> tuple[list[Any], list[Any], dict[Any, Any]]:
    """Polynomials, unknowns and exact placement of a linkage's configuration variety.

    A planar :class:`~linkage_widget.Linkage` with exact coordinates: its rods and
    fixed angles, pins as constants (the system of
    :func:`~linkage_widget.rigidity.exact_local_dimension`, the trivial motions fixed
    when the pins leave some). A :class:`~linkage_widget.rigidity.RevoluteLoop`: its
    closure in the cosines and sines of the hinge angles.

    Raises
    ------
    ValueError
        A 3-D rod linkage, or coordinates with no exact form.
    """
    if isinstance(source, RevoluteLoop):
        polys, point = source.closure_system()
        gens = list(polys[0].ring.symbols)
        return [p.as_expr() for p in polys], gens, dict(zip(gens, point, strict=True))
    return rod_system(source)


@dataclass(frozen=True)
class VarietyComponent:
    r"""One piece of :func:`variety_components`.

    Attributes
    ----------
    basis : tuple of sympy expressions
        Its reduced Gröbner basis (degree reverse lexicographic in ``gens``).
    gens : tuple of sympy symbols
    dimension : int
        Krull dimension (of its largest part).
    irreducible : bool or None
        ``True`` when proved irreducible over :math:`\mathbb{Q}` (module notes),
        ``None`` when not decided.
    eliminant : sympy expression
        The minimal polynomial of a random linear form on a generic cut, in the
        symbol ``z``: irreducible over :math:`\mathbb{Q}` when ``irreducible``.
    """

    basis: tuple[Any, ...]
    gens: tuple[Any, ...]
    dimension: int
    irreducible: bool | None
    eliminant: Any

    def contains(self, point: dict[Any, Any]) -> bool:
        """Whether the exact ``point`` (a dict gen → rational) lies on this piece."""
        return all(g.subs(point) == 0 for g in self.basis)

    def residual(self, point: dict[Any, Any]) -> float:
        """The largest ``|g(point)|`` over the basis, in floats: for sampled points."""
        return max(abs(complex(g.subs(point))) for g in self.basis)


def variety_components(
    polys: list[Any], gens: list[Any], *, seed: int = 0
) -> tuple[VarietyComponent, ...]:
    r"""The pieces of :math:`V(\text{polys})` over :math:`\mathbb{Q}` (module notes).

    Parameters
    ----------
    polys : list of sympy expressions with rational coefficients
    gens : list of sympy symbols
    seed : int, keyword-only
        Seed of the random cuts of the irreducibility test.

    Returns
    -------
    tuple of VarietyComponent
        Largest dimension first; none of them inside another; together their
        varieties are :math:`V(\text{polys})` (empty tuple when it is empty).

    Examples
    --------
    >>> import sympy as sp
    >>> x, y = sp.symbols("x y")
    >>> parts = variety_components([x * y, x * (x - 1)], [x, y])
    >>> [(str(p.basis), p.dimension) for p in parts]
    [('(x,)', 1), ('(x - 1, y)', 0)]
    """
    pieces = _split(list(polys), list(gens), 0)
    kept = _maximal(pieces, list(gens))
    rng = random.Random(seed)
    out = [_component(basis, list(gens), rng) for basis in kept]
    return tuple(sorted(out, key=lambda c: (-c.dimension, str(c.basis))))


def _groebner(polys: list[Any], gens: list[Any]) -> list[Any]:
    import sympy as sp

    return list(sp.groebner(polys, *gens, order="grevlex").exprs)


def _split(polys: list[Any], gens: list[Any], depth: int) -> list[list[Any]]:
    """Reduced bases whose elements are all irreducible, covering ``V(polys)``."""
    import sympy as sp

    basis = _groebner(polys, gens)
    if basis == [1]:
        return []
    for g in basis:
        _, factors = sp.factor_list(g, *gens)
        if (len(factors) > 1 or factors[0][1] > 1) and depth < MAX_DEPTH:
            return [piece for f, _ in factors for piece in _split([*basis, f], gens, depth + 1)]
    return [basis]


def _inside(a: list[Any], b: list[Any], gens: list[Any]) -> bool:
    r""":math:`V(a) \subseteq V(b)`: each generator of ``b`` vanishes on ``V(a)``."""
    import sympy as sp

    t = sp.Dummy("t")
    return all(sp.groebner([*a, 1 - t * g], t, *gens, order="grevlex").exprs == [1] for g in b)


def _maximal(pieces: list[list[Any]], gens: list[Any]) -> list[list[Any]]:
    """The pieces none of whose varieties lies inside another's (one of equal ones)."""
    unique: list[list[Any]] = []
    for p in pieces:
        if p not in unique:
            unique.append(p)
    kept = []
    for i, a in enumerate(unique):
        # drop a when inside another piece; of two equal varieties keep the first
        if not any(
            j != i and _inside(a, b, gens) and (j < i or not _inside(b, a, gens))
            for j, b in enumerate(unique)
        ):
            kept.append(a)
    return kept


def _component(basis: list[Any], gens: list[Any], rng: random.Random) -> VarietyComponent:
    import sympy as sp

    dim, z = hilbert_dimension(basis, gens), sp.Symbol("z")
    eliminant = sp.Integer(0)
    for _ in range(CUTS):  # a cut in Hilbert's thin set may split an irreducible piece
        cuts = [sum(rng.randint(-9, 9) * g for g in gens) - rng.randint(-9, 9) for _ in range(dim)]
        cut = _groebner([*basis, *cuts], gens)
        if hilbert_dimension(cut, gens) != 0:
            continue  # the cut was not transversal
        eliminant = _eliminant(cut, gens, z, sum(rng.randint(1, 9) * g for g in gens))
        _, factors = sp.factor_list(eliminant, z)
        one = len(factors) == 1 and factors[0][1] == 1
        if one and sp.degree(eliminant, z) == _standard_monomials(cut, gens):
            return VarietyComponent(tuple(basis), tuple(gens), dim, True, eliminant)
    return VarietyComponent(tuple(basis), tuple(gens), dim, None, eliminant)


def _eliminant(cut: list[Any], gens: list[Any], z: Any, form: Any) -> Any:
    r"""The generator of :math:`(\text{cut} + (z - \ell)) \cap \mathbb{Q}[z]`."""
    import sympy as sp

    basis = sp.groebner([*cut, z - form], *gens, z, order=eliminate_first(len(gens)))
    free = [g for g in basis.exprs if not (g.free_symbols & set(gens))]
    return sp.Poly(free[0], z).monic().as_expr() if free else sp.Integer(0)


def _standard_monomials(basis: list[Any], gens: list[Any]) -> int | None:
    """The number of monomials no leading monomial divides (``None`` if infinite)."""
    import sympy as sp

    leads = [sp.Poly(sp.LM(g, *gens, order="grevlex"), *gens).monoms()[0] for g in basis]
    bounds = []
    for i in range(len(gens)):
        pure = [m[i] for m in leads if all(e == 0 for k, e in enumerate(m) if k != i)]
        if not pure:
            return None
        bounds.append(min(pure))
    box = itertools.product(*(range(b) for b in bounds))
    return sum(1 for m in box if not any(all(a >= b for a, b in zip(m, lead, strict=True))
                                         for lead in leads))  # fmt: skip
