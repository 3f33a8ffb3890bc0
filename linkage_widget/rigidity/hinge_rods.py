r"""Reading a rod framework as a loop of revolute hinges with exact data, when it is one.

The exact route in space takes a :class:`~linkage_widget.rigidity.RevoluteLoop`. A rod
framework laid out like :meth:`RevoluteLoop.to_linkage` and
:func:`~linkage_widget.examples.space.bennett_linkage` — joints ``2i, 2i + 1`` on the
axis of hinge ``i``, rod ``(2i, 2i + 1)``, and the four rods between consecutive hinges
— is such a loop; :func:`loop_from_rods` recovers its Denavit–Hartenberg data from the
axes (common normals: lengths :math:`a_i`, offsets :math:`d_i`, twists
:math:`\alpha_i`, hinge angles :math:`\theta_i`).

Those numbers are floats made by ``sin`` and ``cos``. Each is replaced by the simplest
rational within :data:`SNAP` (relative) of it — lengths directly, angles through their
half-angle tangent, so that :math:`\cos^2 + \sin^2 = 1` stays exact — with denominator at
most ``max_denominator``; the result is accepted only if the loop then closes *exactly*.
This is a different rule from :mod:`~linkage_widget.rigidity.exact` (which keeps the
float itself): here the floats cannot be the mechanism meant (Bennett's condition
never holds in floating point), and the exact loop found is reported with the answer,
so what is certified is said: the loop with those rational data, within ``SNAP`` of the
rods.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..model import Linkage
from .revolute_loop import RevoluteLoop, exact_turn
from .tolerances import HINGE_SNAP as SNAP

__all__ = ["loop_from_rods"]


def _hinge_layout(linkage: Linkage) -> int | None:
    """The number of hinges when the rods are laid out as a hinge loop, else ``None``."""
    n2 = linkage.n_vertices
    if linkage.dim != 3 or n2 % 2 or n2 < 6 or linkage.angles.size:
        return None
    n = n2 // 2
    want = {(2 * i, 2 * i + 1) for i in range(n)}
    for i in range(n):
        j = (i + 1) % n
        want |= {tuple(sorted((2 * i + a, 2 * j + b))) for a in (0, 1) for b in (0, 1)}
    have = {tuple(sorted(map(int, r))) for r in linkage.rods}
    return n if have == want else None


def _common_normal(p: np.ndarray, u: np.ndarray, q: np.ndarray, v: np.ndarray) -> tuple:
    """Feet on the lines ``p + s u`` and ``q + t v`` and the unit normal from the first."""
    w = np.cross(u, v)
    if np.linalg.norm(w) < SNAP:
        raise ValueError("two consecutive hinge axes are parallel")
    w = w / np.linalg.norm(w)
    # solve p + s u + a w = q + t v for (s, t, a)
    s, t, a = np.linalg.solve(np.column_stack([u, -v, w]), q - p)
    if a < 0:
        w, a = -w, -a
    return p + s * u, q + t * v, w, a


def _snap(x: float, what: str, max_den: int) -> Fraction:
    r = Fraction(float(x)).limit_denominator(max_den)
    if abs(float(r) - x) > SNAP * max(1.0, abs(x)):
        raise ValueError(f"{what} = {x!r} is no rational of denominator <= {max_den}")
    return r


def _turn(c: float, s: float, what: str, max_den: int) -> tuple[Fraction, Fraction]:
    """Exact ``(cos, sin)`` through a rational half-angle tangent (180° itself when folded)."""
    if c < 0 and abs(s) < SNAP:
        return Fraction(-1), Fraction(0)
    t = _snap(s / (1 + c) if c > 0 else (1 - c) / s, f"tan of half {what}", max_den)
    return exact_turn(t, what)


def loop_from_rods(linkage: Linkage, *, max_denominator: int = 1000) -> RevoluteLoop:
    """The exact revolute loop the rods stand for (module notes).

    Raises
    ------
    ValueError
        When the rods are not laid out as a hinge loop, consecutive axes are parallel,
        a datum is no small rational, or the snapped loop does not close exactly.
    """
    n = _hinge_layout(linkage)
    if n is None:
        raise ValueError("the rods are not a loop of hinges (the layout of to_linkage)")
    p = np.asarray(linkage.vertices, dtype=float)
    origins, axes = p[0::2], p[1::2] - p[0::2]
    axes = axes / np.linalg.norm(axes, axis=1, keepdims=True)
    normals = [_common_normal(origins[i], axes[i], origins[(i + 1) % n], axes[(i + 1) % n])
               for i in range(n)]  # fmt: skip
    lengths, offsets, twists, angles = [], [], [], []
    for i in range(n):
        out_foot, _, x, a = normals[i]
        _, in_foot, x_in, _ = normals[i - 1]
        u, u_next = axes[i], axes[(i + 1) % n]
        lengths.append(_snap(a, f"length {i}", max_denominator))
        offsets.append(_snap(float((out_foot - in_foot) @ u), f"offset {i}", max_denominator))
        twists.append(_turn(u @ u_next, np.cross(u, u_next) @ x, f"twist {i}", max_denominator))
        angles.append(_turn(x_in @ x, np.cross(x_in, x) @ u, f"angle {i}", max_denominator))
    try:
        return RevoluteLoop.from_dh(lengths, twists, angles, offsets)
    except ValueError as err:
        raise ValueError(f"the rods' rational loop does not close exactly ({err})") from err
