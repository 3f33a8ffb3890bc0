"""Exact arithmetic: the one converter from a placement's floats to exact rationals.

The exact routes (:func:`~linkage_widget.rigidity.groebner.exact_local_dimension`,
:func:`~linkage_widget.rigidity.second_order_solve.exact_second_order_rigid`) decide
questions at a placement whose coordinates are rationals. A float is a rational
itself, but of a huge denominator, and usually not the number the user meant: a file's
``0.1`` is read as the float nearest 1/10. :func:`rational_coordinates` recovers the
meant number by one rule:

* the shortest decimal that reads back as the float (Python's ``repr``), when it has
  at most :data:`MAX_DIGITS` significant digits (``0.1`` is 1/10, ``2.5e-3`` is 1/400:
  what a file or a keyboard gives);
* else the simplest fraction of denominator at most :data:`MAX_DENOMINATOR` whose float
  *is* the coordinate (``2 / 3`` is 2/3);
* else none: the placement has no exact form and the exact routes decline.

Both branches return a rational whose nearest float is the coordinate itself, so the
exact and the numerical analysis look at the same float placement: no joint is moved.
A rational that is merely close (an earlier rule accepted one within four units in the
last place) could undo a special position it does not have, or create one, and the exact
answer would then be about another placement. An irrational coordinate (a Penrose
tiling's, a rotation by an irrational angle) has seventeen significant digits and almost
never equals the float of a fraction of denominator at most 10^6, so it is refused.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

__all__ = ["MAX_DENOMINATOR", "MAX_DIGITS", "rational", "rational_coordinates", "slider_normals"]

#: Largest denominator tried when a coordinate is not a short decimal.
MAX_DENOMINATOR = 10**6
#: Coordinates with more significant digits than this are not taken as exact decimals.
MAX_DIGITS = 12


def rational(x: float) -> Fraction | None:
    """The exact rational ``x`` stands for (module rule), or ``None``.

    >>> rational(0.1), rational(2 / 3), rational(float("nan"))
    (Fraction(1, 10), Fraction(2, 3), None)
    >>> rational(float(np.pi)) is None  # 355/113 and 3126535/995207 are close, not equal
    True
    """
    x = float(x)
    if not np.isfinite(x):
        return None
    text = repr(x)
    mantissa = text.split("e")[0].replace("-", "").replace(".", "").lstrip("0")
    if len(mantissa) <= MAX_DIGITS:
        return Fraction(text)
    guess = Fraction(x).limit_denominator(MAX_DENOMINATOR)
    return guess if float(guess) == x else None


def rational_coordinates(positions: Any) -> list[Fraction] | None:
    """Every coordinate of ``positions`` (any shape, flattened in C order) as a rational.

    ``None`` if one of them has no exact form (:func:`rational`).

    >>> rational_coordinates([[0.1, 2.0], [1 / 3, -0.75]])
    [Fraction(1, 10), Fraction(2, 1), Fraction(1, 3), Fraction(-3, 4)]
    >>> rational_coordinates([[np.sqrt(2), 0.0]]) is None
    True
    """
    out = []
    for x in np.asarray(positions, dtype=float).reshape(-1):
        r = rational(float(x))
        if r is None:
            return None
        out.append(r)
    return out


def slider_normals(linkage: Any) -> list[tuple[Fraction, Fraction]] | None:
    r"""Each slider's unit normal :math:`n = (-u_y, u_x)` as rationals, by the same rule.

    ``None`` if one has no exact form: a line at an irrational angle (a direction
    ``(1, 1)`` is stored as :math:`(1, 1)/\sqrt 2`), and the exact routes decline.

    >>> from linkage_widget import Linkage
    >>> link = Linkage([[0, 0], [3, 4]], rods=[(0, 1)], sliders=[(1, (3, 4), (3, 4))])
    >>> slider_normals(link)
    [(Fraction(-4, 5), Fraction(3, 5))]
    """
    u = linkage.guides.slider_directions.reshape(-1, 2)
    flat = rational_coordinates(np.column_stack([-u[:, 1], u[:, 0]]))
    if flat is None:
        return None
    return list(zip(flat[0::2], flat[1::2], strict=True))
