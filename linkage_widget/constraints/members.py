r"""Cables and struts as rows: one-sided rod rows, and the rows that are let go.

A member's row is the rod row of :mod:`linkage_widget.constraints`,
:math:`g = (|p_i - p_j|^2 - L^2)/(2L)`. A cable asks only :math:`g \le 0` (it may shorten,
not lengthen), a strut only :math:`g \ge 0`. With the *side* :math:`s = +1` (cable),
:math:`-1` (strut), :math:`0` (rod), the member is beyond its limit by the relative amount

.. math:: r = s\,\big(|p_i - p_j|/L - 1\big) \qquad (r > 0: \text{too long a cable,
          too short a strut}),

and its strain counts as an error only there (a slack cable is not a residual).
A simulator holds a one-sided row either as an equality (*active*: the cable is taut)
or not at all (*slack*): a slack row is zeroed, residual and gradient, so the rows
keep their indices and the factorisation its pattern (a zero row adds only the
regulariser to the Schur complement, and its multiplier is zero).

>>> import numpy as np
>>> feasible_strain(np.array([0.1, -0.1, 0.1, -0.1]), np.array([1, 1, -1, -1])).tolist()
[0.1, 0.0, 0.0, -0.1]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._checks import row_norms

__all__ = ["feasible_strain", "member_sides", "overreach"]


def member_sides(kinds: Any) -> np.ndarray:
    """Side of each member from its kind names ``(m,)``: ``+1`` cable, ``-1`` strut, ``0`` rod."""
    kinds = np.asarray(kinds)
    return ((kinds == "cable").astype(np.int8) - (kinds == "strut")).astype(np.int8)


def feasible_strain(strain: np.ndarray, sides: np.ndarray) -> np.ndarray:
    """Rod strains ``(m,)`` with the allowed side of each cable and strut counted as 0."""
    return np.where(
        sides > 0, np.maximum(strain, 0.0), np.where(sides < 0, np.minimum(strain, 0.0), strain)
    )


def overreach(
    pts: np.ndarray, rods: np.ndarray, lengths: np.ndarray, sides: np.ndarray
) -> np.ndarray:
    r"""How far each member is beyond its limit, :math:`r = s(|p_i - p_j|/L - 1)`, ``(m,)``.

    Positive: a cable too long or a strut too short; rods (side 0) give 0.
    ``pts`` ``(n, d)``, ``rods`` ``(m, 2)``, ``lengths`` and ``sides`` ``(m,)``.
    """
    strain = row_norms(pts[rods[:, 0]] - pts[rods[:, 1]]) / lengths - 1.0
    return sides * strain
