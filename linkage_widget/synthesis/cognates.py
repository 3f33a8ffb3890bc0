r"""Roberts–Chebyshev cognates: three four-bars that trace one coupler curve.

Write the plane as :math:`\mathbb{C}`. A four-bar with ground pivots :math:`O_A, O_B`,
crank pin :math:`A`, rocker pin :math:`B` and coupler point :math:`P` has the link
vectors :math:`a = A - O_A`, :math:`b = B - A`, :math:`c = B - O_B`, the ground
:math:`g = O_B - O_A` (so :math:`a + b - c = g` in every placement) and the coupler's
shape :math:`z = (P - A)/(B - A)`, a constant. Then

.. math:: P = O_A + a + z\,b = O_A + z\,b + a = O_B + (z - 1)\,b + c,

and reading the sums in another order gives two more four-bars through the same
:math:`P` (Roberts 1875, Chebyshev 1878). With the third pivot
:math:`O_C = O_A + z\,g` (the ground triangle :math:`O_A O_B O_C` is similar to the
coupler triangle :math:`A B P`):

* cognate 1: crank :math:`O_A \to A_1 = O_A + z b`, coupler :math:`A_1 \to P = A_1 + a`
  and :math:`C_1 = A_1 + z a`, rocker :math:`O_C \to C_1` (:math:`C_1 - O_C = z\,c`);
* cognate 2: crank :math:`O_B \to B_2 = O_B + (z - 1) b`, coupler :math:`B_2 \to P =
  B_2 + c` and :math:`C_2 = B_2 + (1 - z) c`, rocker :math:`O_C \to C_2`
  (:math:`C_2 - O_C = (1 - z)\,a`).

Each link of a cognate is a link of the original scaled and turned by a constant, so it
turns with it: cognate 1's crank turns with the original's coupler (its angle plus
:math:`\arg z`), cognate 2's rocker with the original's crank (plus
:math:`\arg(1 - z)`). The identity :math:`a + b - c = g` makes the loops close.
"""

from __future__ import annotations

import numpy as np

from .. import _checks
from ..model import Linkage
from ._four_bar import FourBar, four_bar

__all__ = ["cognates"]


def _c(v: np.ndarray) -> complex:
    """A point of the plane as a complex number."""
    return complex(v[0], v[1])


def _xy(w: complex) -> np.ndarray:
    """A complex number as a point ``(2,)``."""
    return np.array([w.real, w.imag])


def _structure(linkage: Linkage, coupler: int, pivot: int | None) -> tuple[int, ...]:
    """``O_A, O_B, A, B, P``: the four-bar with a coupler point that ``linkage`` is."""
    if not isinstance(linkage, Linkage):
        raise TypeError(f"cognates: linkage must be a Linkage, got {type(linkage).__name__}")
    not_one = (
        "cognates: the linkage must be a planar four-bar with a coupler point (two pinned "
        "pivots, each with one rod to its pin, the pins joined, and the coupler point "
        "joined to both pins by rods; five joints, five rods)"
    )
    if linkage.dim != 2 or linkage.n_angles or linkage.sliders or len(linkage.slots):
        raise ValueError(not_one + ": no fixed angles, sliders or slots, in the plane")
    p = _checks.vertex_index(coupler, linkage.n_vertices, "cognates coupler")
    pins = [int(v) for v in linkage.pinned]
    if len(pins) != 2 or linkage.n_vertices != 5 or linkage.n_rods != 5:
        raise ValueError(not_one)
    if pivot is not None:
        first = _checks.vertex_index(pivot, linkage.n_vertices, "cognates pivot")
        if first not in pins:
            raise ValueError(f"cognates: pivot {first} is not one of the pinned joints {pins}")
        pins = [first] + [v for v in pins if v != first]
    ends = []
    for pivot in pins:
        moving = [int(v) for v in linkage.neighbors(pivot) if int(v) not in pins]
        if len(moving) != 1:
            raise ValueError(not_one + f": pivot {pivot} has {len(moving)} rods to moving joints")
        ends.append(moving[0])
    a, b = ends
    if p in (a, b):
        raise ValueError(
            f"cognates: the coupler point {p} is a pin; it traces a circle and its cognates "
            "degenerate: take a point of the coupler off its pins"
        )
    needed = {frozenset((a, b)), frozenset((a, p)), frozenset((b, p))}
    if a == b or p in pins or not needed <= {frozenset(r) for r in linkage.rods.tolist()}:
        raise ValueError(not_one)
    return pins[0], pins[1], a, b, p


def cognates(
    linkage: Linkage, coupler: int, *, pivot: int | None = None
) -> tuple[FourBar, FourBar, FourBar]:
    r"""The three Roberts–Chebyshev four-bars tracing the coupler curve of ``coupler``.

    Parameters
    ----------
    linkage : Linkage
        A planar four-bar with a coupler point: two pinned pivots, each joined by one rod
        to its pin, the pins joined, and the coupler point joined to both pins.
    coupler : int
        The coupler point's joint.
    pivot : int, optional
        The crank's pivot :math:`O_A` (a pinned joint; default the first in
        ``linkage.pinned``).

    Returns
    -------
    tuple of FourBar
        The original (in the layout of ``four_bar.txt``, ``pivot`` its crank's) and its
        two cognates (module doc), each with the coupler point at vertex 4, drawn in
        the placement that puts it where the linkage has it.

    Raises
    ------
    ValueError
        The linkage is not such a four-bar (saying what is missing), or the coupler point
        is one of the pins (its curve a circle, the cognates degenerate).

    Examples
    --------
    >>> from linkage_widget import Linkage
    >>> link = Linkage([[0, 0], [4, 0], [0, 2], [3, 3], [2, 4]],
    ...                rods=[(0, 2), (1, 3), (2, 3), (2, 4), (3, 4)], pinned=[0, 1])
    >>> original, first, second = cognates(link, 4)
    >>> first.linkage.vertices[1].round(12).tolist()  # O_C = O_A + z g
    [3.2, 1.6]
    """
    oa, ob, a, b, p = (linkage.vertices[i] for i in _structure(linkage, coupler, pivot))
    z = (_c(p) - _c(a)) / (_c(b) - _c(a))
    ga, gb = _c(oa), _c(ob)
    va, vb, vc = _c(a) - ga, _c(b) - _c(a), _c(b) - gb
    oc = ga + z * (gb - ga)
    a1, b2 = ga + z * vb, gb + (z - 1) * vb
    return (
        four_bar(oa, ob, a, b, p),
        four_bar(oa, _xy(oc), _xy(a1), _xy(a1 + z * va), p),
        four_bar(ob, _xy(oc), _xy(b2), _xy(b2 + (1 - z) * vc), p),
    )
