r"""Watt I and Stephenson III six-bars: the two path families beyond the four-bar.

A six-bar has six links and seven revolute joints; two of its links are *ternary* (three
joints). When the ternaries share a joint it is Watt's chain, when binaries keep them
apart Stephenson's. Path synthesis needs a layout whose every joint follows from the
crank angle by successive dyads (circle intersections, closed form, vectorised), so the
crank sits on a ground pivot and starts a chain of RRR dyads; and it needs the tracer on
a link whose curve no four-bar draws. Both layouts here are a four-bar
:math:`A_0 A B C_0` (crank :math:`A_0 A`, coupler :math:`A B`, rocker :math:`B C_0`)
with a second dyad :math:`D - E - F` hung on it, the tracer :math:`P` rigid with
:math:`D` and :math:`E`:

* **Watt I** (a binary link grounded, :math:`A_0 C_0`): :math:`D` on the crank (the
  ternary :math:`A_0 A D`), :math:`F` on the coupler (the ternary :math:`A B F`); the two
  ternaries share the joint :math:`A`.
* **Stephenson III** (the ternary ground :math:`A_0 C_0 E_0`): :math:`D` on the coupler
  (the ternary :math:`A B D`), :math:`F = E_0` a third ground pivot.

Why not the others. Watt II (its ternary grounded, two four-bars in series) is dyadic too,
but its tracer rides a second four-bar driven by the first one's rocker alone, so its
path is that second four-bar's coupler curve (only the timing is new), and with a
rocking first loop an arc of it traced back and forth. Stephenson I (a binary between the
ternaries grounded) is dyadic too, its last dyad joining the crank and the rocker;
Stephenson III, a coupler curve reshaped by a dyad to ground, is the classic path
generator of the chain. The Stephenson chain with its ternary grounded and the crank on
the binary that does not touch the moving ternary needs a triad, no dyads. (The numbering
of the inversions varies between textbooks; here the names mean these layouts.) The
links, each a rod or a triangle of rods::

                        Watt I                      Stephenson III
    ground (pinned)     A0 C0      (binary)         A0 C0 E0   (ternary)
    crank (the motor)   A0 A D     (ternary)        A0 A
    coupler             A B F      (ternary)        A B D      (ternary)
    rocker              B C0                        B C0
    second dyad         D E, E F                    D E, E F   (F = E0)
    the tracer's link   D E P                       D E P

Vertices (8: the seven joints and the tracer): 0 :math:`A_0`, 1 :math:`C_0`, 2 :math:`A`,
3 :math:`B`, 4 :math:`D`, 5 :math:`F` (:math:`E_0`), 6 :math:`E`, 7 :math:`P`; pinned
0, 1 (and 5 for Stephenson); the motor turns 0 → 2 as in the four-bar's layout
(:mod:`._four_bar`); a ternary link is a triangle of rods. In the normalised frame of
:class:`~._family.PathFamily` (:math:`A_0 = 0`, crank 1) the shape parameters are, in
order,

.. math:: q = (g,\ b,\ c,\ d_u,\ d_v,\ f_x,\ f_y,\ e,\ f,\ p_u,\ p_v) \in \mathbb{R}^{11},

:math:`C_0 = (g, 0)` (the frame's turn is the fit's, so :math:`C_0` is on the x-axis),
the rods :math:`|AB| = b`, :math:`|BC_0| = c`, :math:`|DE| = e`, :math:`|EF| = f`, and
points fixed to their links in the links' own frames (:math:`J` the quarter turn,
:math:`O \to X` the link :math:`A_0 \to A` for Watt's :math:`D`, :math:`A \to B` for
Stephenson's :math:`D` and Watt's :math:`F`):

.. math:: A = (\cos\theta, \sin\theta), \quad
          B = \operatorname{dyad}(A, C_0;\, b, c;\, \sigma_1), \quad
          D = O + d_u (X - O) + d_v J (X - O),

.. math:: F = A + f_x (B - A) + f_y J (B - A) \ \text{(Watt)}, \quad
          F = E_0 = (f_x, f_y) \ \text{(Stephenson)},

.. math:: E = \operatorname{dyad}(D, F;\, e, f;\, \sigma_2), \quad
          P = D + p_u (E - D) + p_v J (E - D),

with :math:`\operatorname{dyad}` the four-bar's circle intersection
(:func:`~._four_bar.rocker_pin`) and :math:`\sigma_1, \sigma_2 = \pm 1` its branches.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from ..model import Linkage
from ._family import PathFamily
from ._four_bar import rocker_pin

__all__ = ["STEPHENSON", "WATT", "six_bar_joints"]

SIZE, SIGNS = 11, 2
#: The vertex of each point in the built linkage, and the motor and tracer.
A0, C0, A, B, D, F, E, P = range(8)
MOTOR, TRACER = (A0, A), P
#: Pinned vertices and rods, by kind: the four-bar, the second dyad, the tracer's two
#: rods, and the triangles that make D (and Watt's F) one with their links.
PINNED = {"watt": (A0, C0), "stephenson": (A0, C0, F)}
_COMMON = ((A0, A), (A, B), (B, C0), (D, E), (E, F), (D, P), (E, P))
RODS = {
    "watt": _COMMON + ((A0, D), (A, D), (A, F), (B, F)),
    "stephenson": _COMMON + ((A, D), (B, D)),
}
#: Shortest length (rod, pivot distance, triangle height) a design may have and longest
#: (rods, and how far a point sits from its link's first joint), in crank lengths: a
#: shorter rod or flatter triangle is degenerate (a zero rod, an infinitesimally flexible
#: triangle); longer rods tend to sliders, which these families are not (the four-bar's
#: bounds, :mod:`._four_bar_path`).
TINY, LONGEST = 1e-2, 25.0


def _turned(v: np.ndarray) -> np.ndarray:
    """The quarter turn :math:`J v` of vectors ``(..., 2)``."""
    return np.stack([-v[..., 1], v[..., 0]], axis=-1)


def _on_link(o: np.ndarray, x: np.ndarray, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    r"""The point :math:`o + u (x - o) + v J (x - o)` fixed to the link :math:`o x`.

    ``o`` and ``x`` ``(b, k or 1, 2)``; ``u``, ``v`` ``(b,)``, one per design.
    """
    d = x - o
    return o + u[:, None, None] * d + v[:, None, None] * _turned(d)


def _dyad(a: np.ndarray, other: np.ndarray, near: np.ndarray, far: np.ndarray, sign: np.ndarray):
    """``rocker_pin`` over designs × angles: ``a`` and ``other`` ``(b, k or 1, 2)``.

    ``near`` (the rod from ``a``), ``far`` (from ``other``), ``sign`` ``(b,)``, one per
    design. Returns ``(b, k, 2)``, NaN where the design does not assemble at that angle.
    """
    return rocker_pin(a, other, near[:, None], far[:, None], sign[:, None])


def six_bar_joints(kind: str, q: np.ndarray, sigma: np.ndarray, theta: np.ndarray) -> np.ndarray:
    r"""Every vertex of designs ``q`` ``(b, 11)`` on branches ``sigma`` ``(b, 2)`` at ``theta``.

    ``kind`` is ``"watt"`` or ``"stephenson"`` (module doc). Returns ``(b, k, 8, 2)`` in
    the vertex order of the built linkage, in the normalised frame; NaN where a dyad
    fails (the circles miss).
    """
    q, sigma, theta = _designs(q, sigma, theta)
    shape = (len(q), len(theta), 2)
    a0 = np.zeros(shape)
    c0 = np.broadcast_to(_point(q[:, 0], 0.0), shape)
    a, b, d, anchor, e, p = (np.broadcast_to(x, shape) for x in _moving(kind, q, sigma, theta))
    return np.stack([a0, c0, a, b, d, anchor, e, p], axis=2)


def _designs(q: np.ndarray, sigma: np.ndarray, theta: np.ndarray) -> tuple[np.ndarray, ...]:
    """``q`` ``(b, 11)``, ``sigma`` ``(b, 2)`` and ``theta`` ``(k,)`` as float arrays."""
    return (
        np.atleast_2d(np.asarray(q, dtype=float)),
        np.atleast_2d(np.asarray(sigma, dtype=float)),
        np.atleast_1d(np.asarray(theta, dtype=float)),
    )


def _point(x: np.ndarray, y: np.ndarray | float) -> np.ndarray:
    """One fixed point per design, ``(b, 1, 2)``."""
    return np.stack(np.broadcast_arrays(x, y), -1)[:, None]


def _moving(kind: str, q: np.ndarray, sigma: np.ndarray, theta: np.ndarray) -> tuple:
    """:math:`A, B, D, F, E, P` ``(b, k, 2)`` (a pivot :math:`F` ``(b, 1, 2)``), dyad by dyad."""
    g, b, c, du, dv, fx, fy, e, f, pu, pv = q.T
    a = np.broadcast_to(np.stack([np.cos(theta), np.sin(theta)], -1), (len(q), len(theta), 2))
    with np.errstate(all="ignore"):  # a dyad on a pivot, or NaN carried on: NaN, no warning
        pin_b = _dyad(a, _point(g, 0.0), b, c, sigma[:, 0])
        if kind == "watt":  # D on the crank, F on the coupler
            d, anchor = _on_link(np.zeros((1, 1, 2)), a, du, dv), _on_link(a, pin_b, fx, fy)
        else:  # D on the coupler, F the third ground pivot
            d, anchor = _on_link(a, pin_b, du, dv), _point(fx, fy)
        pin_e = _dyad(d, anchor, e, f, sigma[:, 1])
        return a, pin_b, d, anchor, pin_e, _on_link(d, pin_e, pu, pv)


def _trace(kind: str, q: np.ndarray, sigma: np.ndarray, theta: np.ndarray) -> np.ndarray:
    """The tracer :math:`P` ``(b, k, 2)`` (the family's ``trace``)."""
    return _moving(kind, *_designs(q, sigma, theta))[-1]


def _build(
    kind: str, q: np.ndarray, sigma: np.ndarray, theta: float
) -> tuple[Linkage, int, tuple[int, int]]:
    """The design as a :class:`Linkage` at crank angle ``theta`` (the family's ``build``).

    Raises ``ValueError`` when the design is degenerate (:func:`_bounds`) or does not
    assemble at ``theta`` on the branches ``sigma``.
    """
    q = np.asarray(q, dtype=float)
    if not _bounds(kind, q):
        raise ValueError(f"{kind} six-bar: shape parameters {q!r} are not a design")
    joints = six_bar_joints(kind, q[None], np.asarray(sigma, dtype=float)[None], [theta])[0, 0]
    if not np.isfinite(joints).all():
        raise ValueError(f"{kind} six-bar: does not assemble at crank angle {theta}")
    return Linkage(joints, rods=RODS[kind], pinned=PINNED[kind]), TRACER, MOTOR


def _bounds(kind: str, q: np.ndarray) -> bool:
    """Whether ``q`` ``(11,)`` is a design: finite, rods and triangles not degenerate.

    Rods between :data:`TINY` and :data:`LONGEST` crank lengths, the ground pivots
    :data:`TINY` apart and within :data:`LONGEST` of :math:`A_0`; :math:`D`, :math:`P`
    (and Watt's :math:`F`) at least :data:`TINY` off the line of their links (a flat
    triangle of rods flexes infinitesimally) and within :data:`LONGEST` of its first joint.
    """
    q = np.asarray(q, dtype=float)
    if q.shape != (SIZE,) or not np.isfinite(q).all():
        return False
    g, b, c, du, dv, fx, fy, e, f, pu, pv = q
    rods = [g, b, c, e, f]
    # each point's (u, v) in its link's frame and the link's length (Stephenson's F is fixed)
    points = [(du, dv, 1.0 if kind == "watt" else b), (pu, pv, e)]
    if kind == "watt":
        points.append((fx, fy, b))
        pivots = []
    else:
        pivots = [np.hypot(fx, fy), np.hypot(fx - g, fy)]
    heights = [abs(v) * size for _, v, size in points]
    reach = [np.hypot(u, v) * size for u, v, size in points] + pivots[:1]
    return bool(min(rods + pivots + heights) >= TINY and max(rods + reach) <= LONGEST)


def _sample(kind: str, rng: np.random.Generator, count: int) -> tuple[np.ndarray, np.ndarray]:
    r"""``count`` random designs ``(count, 11)`` and branches ``(count, 2)``.

    The first loop is drawn mostly as a crank-rocker (its crank turns fully when
    :math:`|b - c| \le g - 1` and :math:`b + c \ge g + 1`, drawn a little past both); the
    second dyad's rods from the range of :math:`|D - F|` over a coarse turn, so most
    designs assemble over most of the turn and some only over part of it.
    """
    n = int(count)
    g = rng.uniform(1.5, 4.0, n)
    total = g + 1 + rng.uniform(-0.3, 3.0, n)
    diff = (g - 1) * rng.uniform(-1.15, 1.15, n)
    b, c = (total + diff) / 2, (total - diff) / 2
    if kind == "watt":  # D near the crank (in crank lengths), F near the coupler
        du, dv = rng.uniform(-1.0, 1.5, n), _signed(rng, 0.15, 1.2, n)
        fx, fy = rng.uniform(-0.5, 1.5, n), _signed(rng, 0.15, 1.0, n)
    else:  # D near the coupler, E0 among the pivots
        du, dv = rng.uniform(-0.5, 1.5, n), _signed(rng, 0.15, 1.0, n)
        fx, fy = rng.uniform(-2.0, g + 3.0, n), rng.uniform(-3.0, 3.0, n)
    sigma = rng.choice([-1.0, 1.0], (n, 2))
    q = np.column_stack([g, b, c, du, dv, fx, fy, np.ones(n), np.ones(n), np.zeros(n), dv])
    coarse = six_bar_joints(kind, q, sigma, np.linspace(0, 2 * np.pi, 24, endpoint=False))
    with np.errstate(all="ignore"):  # a first loop that never assembles: all NaN
        reach = np.linalg.norm(coarse[:, :, D] - coarse[:, :, F], axis=-1)
        near, far = np.nanmin(reach, axis=1), np.nanmax(reach, axis=1)
    near, far = np.nan_to_num(near, nan=1.0), np.nan_to_num(far, nan=2.0)
    total = far * rng.uniform(1.02, 1.6, n)
    diff = np.clip(near * rng.uniform(-1.1, 1.1, n), -0.9 * total, 0.9 * total)
    q[:, 7], q[:, 8] = (total + diff) / 2, (total - diff) / 2
    q[:, 9], q[:, 10] = rng.uniform(-0.5, 1.5, n), _signed(rng, 0.15, 1.0, n)
    return q, sigma


def _signed(rng: np.random.Generator, low: float, high: float, n: int) -> np.ndarray:
    """``n`` values of size in ``[low, high)`` and random sign (a triangle's height)."""
    return rng.uniform(low, high, n) * rng.choice([-1.0, 1.0], n)


def _describe(kind: str, q: np.ndarray, sigma: np.ndarray, theta: np.ndarray) -> tuple:
    r"""No Grashof class (a four-bar's), the transmission angles' range (degrees) over ``theta``.

    The transmission angle of each dyad is the angle at its middle joint, :math:`\mu` at
    :math:`B` between :math:`BA` and :math:`BC_0` and at :math:`E` between :math:`ED`
    and :math:`EF`; the range is over both, where the design assembles (None if nowhere).
    """
    j = six_bar_joints(kind, q, sigma, theta)[0]
    mu = [_angle_at(j[:, B], j[:, A], j[:, C0]), _angle_at(j[:, E], j[:, D], j[:, F])]
    mu = np.concatenate(mu)
    mu = mu[np.isfinite(mu)]
    return None, ((float(mu.min()), float(mu.max())) if len(mu) else None)


def _angle_at(v: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The angle ``(k,)`` in degrees at ``v`` between ``v -> x`` and ``v -> y``."""
    s, t = x - v, y - v
    cross = s[:, 0] * t[:, 1] - s[:, 1] * t[:, 0]
    return np.degrees(np.abs(np.arctan2(cross, np.einsum("ij,ij->i", s, t))))


def _family(kind: str) -> PathFamily:
    return PathFamily(
        name=kind,
        size=SIZE,
        signs=SIGNS,
        sample=partial(_sample, kind),
        trace=partial(_trace, kind),
        build=partial(_build, kind),
        bounds=partial(_bounds, kind),
        describe=partial(_describe, kind),
    )


#: Watt I: :math:`D` on the crank, the second dyad to :math:`F` on the coupler (module doc).
WATT = _family("watt")
#: Stephenson III: a four-bar whose coupler point :math:`D` drives a dyad to a third pivot.
STEPHENSON = _family("stephenson")
