r"""The four-bar every synthesis returns: its layout as a Linkage, its position in closed form.

The layout is the bundled ``four_bar.txt``'s: vertex 0 the crank's ground pivot
:math:`A_0`, vertex 1 the rocker's ground pivot :math:`B_0` (both pinned), vertex 2 the
crank pin :math:`A`, vertex 3 the rocker pin :math:`B`, rods 0–2, 2–3, 3–1; the motor
turns the rod 0 → 2 (``kinematics(linkage, 0, 2, angles)``). A coupler point :math:`P`,
when there is one, is vertex 4, held to the coupler by the rods 2–4 and 3–4.

Given the crank pin :math:`A`, the rocker pin is where the circles of radius :math:`b`
about :math:`A` and :math:`c` about :math:`B_0` meet:

.. math:: B = A + \frac{b^2 - c^2 + r^2}{2 r^2}\,(B_0 - A)
              + \sigma\,\frac{h}{r}\,J (B_0 - A), \qquad
          h = \sqrt{b^2 - \Big(\frac{b^2 - c^2 + r^2}{2r}\Big)^2},

with :math:`r = |B_0 - A|`, :math:`J` the quarter turn and :math:`\sigma = \pm 1` the
assembly branch (the sign of the turn :math:`A \to B_0 \to B`), NaN where the circles
miss each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..model import Linkage

__all__ = ["FourBar", "branch_sign", "four_bar", "rocker_pin"]

#: The crank the motor turns: ``kinematics(four_bar.linkage, *MOTOR, angles)``.
MOTOR = (0, 2)


@dataclass(frozen=True, eq=False)
class FourBar:
    r"""A four-bar a synthesis built, in the layout of ``four_bar.txt``.

    Attributes
    ----------
    linkage : Linkage
        Vertices :math:`A_0, B_0, A, B` (and the coupler point :math:`P`), ``(4 or 5, 2)``;
        0 and 1 pinned; rods 0–2, 2–3, 3–1 (and 2–4, 3–4).
    motor : tuple of int
        ``(0, 2)``: the crank, pivot then tip, as ``kinematics`` and ``add_motor`` take it.
    coupler : int or None
        The tracing joint (4), or None when the four-bar has no coupler point.
    lengths : ndarray, shape (4,)
        Ground :math:`d = |B_0 - A_0|`, crank :math:`a`, coupler :math:`b`, rocker :math:`c`.
    """

    linkage: Linkage
    motor: tuple[int, int]
    coupler: int | None
    lengths: np.ndarray


def four_bar(
    a0: np.ndarray, b0: np.ndarray, a: np.ndarray, b: np.ndarray, p: np.ndarray | None = None
) -> FourBar:
    """The :class:`FourBar` with pivots ``a0``, ``b0``, pins ``a``, ``b`` and coupler point ``p``.

    Raises ``ValueError`` when two of the points coincide (a rod of zero length), which
    :class:`Linkage` itself refuses.
    """
    points = [a0, b0, a, b] + ([] if p is None else [p])
    rods = [(0, 2), (2, 3), (3, 1)] + ([] if p is None else [(2, 4), (3, 4)])
    linkage = Linkage(np.array(points, dtype=float), rods=rods, pinned=[0, 1])
    lengths = np.array([np.linalg.norm(np.subtract(b0, a0))] + list(linkage.rod_lengths()[:3]))
    return FourBar(linkage, MOTOR, None if p is None else 4, lengths)


def _cross(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    return u[..., 0] * v[..., 1] - u[..., 1] * v[..., 0]


def branch_sign(a: np.ndarray, b0: np.ndarray, b: np.ndarray) -> np.ndarray:
    r"""The assembly branch :math:`\sigma = \operatorname{sign}((B_0 - A) \times (B - A))`."""
    return np.sign(_cross(np.subtract(b0, a), np.subtract(b, a)))


def rocker_pin(a: np.ndarray, b0: Any, b: Any, c: Any, sigma: Any) -> np.ndarray:
    r"""The rocker pin :math:`B` for crank pins ``a`` ``(..., 2)`` on branch ``sigma`` (module doc).

    ``b0`` ``(..., 2)`` and the lengths and signs (scalars or arrays of ``a``'s leading
    shape) broadcast against ``a``, so one call places many designs at many angles; a
    single pin ``(2,)`` is taken as ``(1, 2)``. Returns ``a``'s shape, NaN rows where the
    four-bar does not assemble.
    """
    a = np.asarray(a, dtype=float)
    a = a[None] if a.ndim == 1 else a
    e = np.asarray(b0, dtype=float) - a
    r2 = np.einsum("...i,...i->...", e, e)
    with np.errstate(divide="ignore", invalid="ignore"):  # a pin on B0: NaN, not a warning
        along = (b * b - c * c + r2) / (2 * r2)
        h2 = b * b / r2 - along * along  # (h / r)^2
        across = np.where(h2 >= 0, np.sqrt(np.maximum(h2, 0.0)), np.nan)
    turned = np.stack([-e[..., 1], e[..., 0]], axis=-1)
    return a + along[..., None] * e + (sigma * across)[..., None] * turned
