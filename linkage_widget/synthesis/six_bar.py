r"""Watt II and Stephenson III six-bars: the two path families beyond the four-bar.

A six-bar has six links and seven revolute joints; two of its links are *ternary* (three
joints). When the ternaries share a joint it is Watt's chain, when binaries keep them
apart Stephenson's. Path synthesis needs a layout whose every joint follows from the
crank angle by successive dyads (circle intersections, closed form and vectorised), so
the crank must sit on a ground pivot and start a chain of RRR dyads. The two used here
ground a ternary link and hang the second dyad from a point :math:`D` of a four-bar onto a
third ground pivot, with the tracer on that dyad's floating link (a link no four-bar has):

* **Watt II** (two four-bars *in series*): the first four-bar's rocker is the ternary
  :math:`C_0 B D`; its third joint :math:`D` drives the second four-bar.
* **Stephenson III** (a four-bar whose *coupler* drives a dyad): the coupler is the
  ternary :math:`A B D`.

They are the usual path generators of the two chains. Grounding a binary link (the Watt I
and Stephenson I inversions) is dyadic too but its last dyad joins two moving links; the
Stephenson chain with its ternary grounded and the crank on the binary that does not
touch the moving ternary needs a triad, no closed form by dyads. (The numbering of the
inversions varies between textbooks; here the names mean the layouts drawn.) Both share
one shape; only the link carrying :math:`D` differs::

    ground:  A0 ............ C0 ............ E0     pinned: the ternary ground link
             |                |               |
     crank 1 |              c |               | f
             A ----- b ------ B               E
                                              | e
             D -------------------------------+     the tracer P rigid with D and E

    Watt II:        D rigid with C0 and B  (the rocker is the ternary C0 B D)
    Stephenson III: D rigid with A and B   (the coupler is the ternary A B D)

Vertices (8: the seven joints and the tracer): 0 :math:`A_0`, 1 :math:`C_0`, 2 :math:`A`,
3 :math:`B`, 4 :math:`D`, 5 :math:`E_0`, 6 :math:`E`, 7 :math:`P`; pinned 0, 1, 5; the
motor turns 0 → 2 as in the four-bar's layout (:mod:`._four_bar`); the ternary links are
triangles of rods. In the normalised frame of :class:`~._family.PathFamily`
(:math:`A_0 = 0`, crank 1) the shape parameters are, in order,

.. math:: q = (g,\ b,\ c,\ d_u,\ d_v,\ e_x,\ e_y,\ e,\ f,\ p_u,\ p_v) \in \mathbb{R}^{11},

:math:`C_0 = (g, 0)` (the frame's turn is the fit's, so :math:`C_0` is on the x-axis),
:math:`E_0 = (e_x, e_y)`, the rods :math:`|AB| = b`, :math:`|BC_0| = c`,
:math:`|DE| = e`, :math:`|EE_0| = f`, and the points fixed to their links in the links'
own frames (:math:`J` the quarter turn, :math:`O X` the link :math:`C_0 B` or :math:`A B`):

.. math:: A = (\cos\theta, \sin\theta), \quad
          B = \operatorname{dyad}(A, C_0;\, b, c;\, \sigma_1), \quad
          D = O + d_u (X - O) + d_v J (X - O),

.. math:: E = \operatorname{dyad}(D, E_0;\, e, f;\, \sigma_2), \quad
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
#: The vertex of each point in the built linkage, and the motor, tracer and pinned joints.
A0, C0, A, B, D, E0, E, P = range(8)
MOTOR, TRACER, PINNED = (A0, A), P, (A0, C0, E0)
RODS = ((A0, A), (A, B), (B, C0), (D, E), (E, E0), (D, P), (E, P))
#: The two rods that hold D to its link (Watt II: the rocker; Stephenson III: the coupler).
D_RODS = {"watt": ((C0, D), (B, D)), "stephenson": ((A, D), (B, D))}
#: Shortest length (rod, pivot distance, triangle height) a design may have and longest
#: anything may be, in crank lengths: a shorter rod or flatter triangle is a degenerate
#: linkage (a zero rod, an infinitesimally flexible triangle), a longer one is no design.
TINY, HUGE = 1e-3, 1e3


def _turned(v: np.ndarray) -> np.ndarray:
    """The quarter turn :math:`J v` of vectors ``(..., 2)``."""
    return np.stack([-v[..., 1], v[..., 0]], axis=-1)


def _on_link(o: np.ndarray, x: np.ndarray, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    r"""The point :math:`o + u (x - o) + v J (x - o)` fixed to the link :math:`o x`.

    ``o`` ``(b, k or 1, 2)``, ``x`` ``(b, k, 2)``; ``u``, ``v`` ``(b,)``, one per design.
    """
    d = x - o
    return o + u[:, None, None] * d + v[:, None, None] * _turned(d)


def _dyad(a: np.ndarray, pivot: np.ndarray, near: np.ndarray, far: np.ndarray, sign: np.ndarray):
    """``rocker_pin`` over designs × angles: ``a`` ``(b, k, 2)``, the rest one per design.

    ``pivot`` ``(b, 2)``; ``near`` (from ``a``), ``far`` (from the pivot), ``sign`` ``(b,)``.
    Returns ``(b, k, 2)``, NaN where the design does not assemble at that angle.
    """
    n, k = a.shape[:2]

    def rows(x: np.ndarray) -> np.ndarray:
        return np.repeat(x, k, axis=0)  # each design's value on each of its k rows

    # rocker_pin takes one row per placement; its lengths and sign broadcast per row.
    out = rocker_pin(a.reshape(-1, 2), rows(pivot), rows(near), rows(far), rows(sign)[:, None])
    return out.reshape(n, k, 2)


def six_bar_joints(kind: str, q: np.ndarray, sigma: np.ndarray, theta: np.ndarray) -> np.ndarray:
    r"""Every vertex of designs ``q`` ``(b, 11)`` on branches ``sigma`` ``(b, 2)`` at ``theta``.

    ``kind`` is ``"watt"`` or ``"stephenson"`` (the link carrying :math:`D`, module doc).
    Returns ``(b, k, 8, 2)`` in the vertex order of the built linkage, in the normalised
    frame; NaN where a dyad fails (the circles miss).
    """
    q, sigma, theta = _designs(q, sigma, theta)
    n, k = len(q), len(theta)
    zero = np.zeros(n)
    a0, c0, e0 = (np.broadcast_to(np.stack(xy, -1)[:, None], (n, k, 2)) for xy in
                  ((zero, zero), (q[:, 0], zero), (q[:, 5], q[:, 6])))  # fmt: skip
    a, b, d, e, p = _moving(kind, q, sigma, theta)
    return np.stack([a0, c0, a, b, d, e0, e, p], axis=2)


def _designs(q: np.ndarray, sigma: np.ndarray, theta: np.ndarray) -> tuple[np.ndarray, ...]:
    """``q`` ``(b, 11)``, ``sigma`` ``(b, 2)`` and ``theta`` ``(k,)`` as float arrays."""
    return (
        np.atleast_2d(np.asarray(q, dtype=float)),
        np.atleast_2d(np.asarray(sigma, dtype=float)),
        np.atleast_1d(np.asarray(theta, dtype=float)),
    )


def _moving(kind: str, q: np.ndarray, sigma: np.ndarray, theta: np.ndarray) -> tuple:
    """The moving points :math:`A, B, D, E, P`, each ``(b, k, 2)``, dyad after dyad."""
    g, b, c, du, dv, ex, ey, e, f, pu, pv = q.T
    a = np.broadcast_to(np.stack([np.cos(theta), np.sin(theta)], -1), (len(q), len(theta), 2))
    with np.errstate(all="ignore"):  # a dyad on a pivot, or NaN carried on: NaN, no warning
        pin_b = _dyad(a, np.stack([g, np.zeros_like(g)], -1), b, c, sigma[:, 0])
        base = np.stack([g, np.zeros_like(g)], -1)[:, None] if kind == "watt" else a
        d = _on_link(base, pin_b, du, dv)
        pin_e = _dyad(d, np.stack([ex, ey], -1), e, f, sigma[:, 1])
        return a, pin_b, d, pin_e, _on_link(d, pin_e, pu, pv)


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
    if q.shape != (SIZE,) or not _bounds(q):
        raise ValueError(f"{kind} six-bar: shape parameters {q!r} are not a design")
    joints = six_bar_joints(kind, q[None], np.asarray(sigma, dtype=float)[None], [theta])[0, 0]
    if not np.isfinite(joints).all():
        raise ValueError(f"{kind} six-bar: does not assemble at crank angle {theta}")
    rods = RODS + D_RODS[kind]
    return Linkage(joints, rods=rods, pinned=PINNED), TRACER, MOTOR


def _bounds(q: np.ndarray) -> bool:
    """Whether ``q`` ``(11,)`` is a design: finite, rods and triangles not degenerate.

    Every rod at least :data:`TINY` crank lengths and every parameter at most :data:`HUGE`;
    the three ground pivots apart; :math:`D` and :math:`P` at least :data:`TINY` off the
    line of their links (a flat triangle of rods flexes infinitesimally).
    """
    q = np.asarray(q, dtype=float)
    if q.shape != (SIZE,) or not np.isfinite(q).all() or np.abs(q).max() > HUGE:
        return False
    g, b, c, du, dv, ex, ey, e, f, pu, pv = q
    pivots = (abs(g), np.hypot(ex, ey), np.hypot(ex - g, ey))
    return min(*pivots, b, c, e, f, abs(dv), abs(pv)) >= TINY


def _sample(kind: str, rng: np.random.Generator, count: int) -> tuple[np.ndarray, np.ndarray]:
    r"""``count`` random designs ``(count, 11)`` and branches ``(count, 2)``.

    The first loop is drawn mostly as a crank-rocker (its crank turns fully when
    :math:`|b - c| \le g - 1` and :math:`b + c \ge g + 1`, drawn a little past both); the
    second dyad's rods are drawn from the range of :math:`|D - E_0|` over a coarse turn, so
    most designs assemble over most of the turn and some only over part of it.
    """
    n = int(count)
    g = rng.uniform(1.5, 4.0, n)
    total = g + 1 + rng.uniform(-0.3, 3.0, n)
    diff = (g - 1) * rng.uniform(-1.15, 1.15, n)
    b, c = (total + diff) / 2, (total - diff) / 2
    du, dv = rng.uniform(-0.5, 1.5, n), _signed(rng, 0.15, 1.0, n)
    ex, ey = rng.uniform(-2.0, g + 3.0, n), rng.uniform(-3.0, 3.0, n)
    sigma = rng.choice([-1.0, 1.0], (n, 2))
    q = np.column_stack([g, b, c, du, dv, ex, ey, np.ones(n), np.ones(n), np.zeros(n), dv])
    coarse = six_bar_joints(kind, q, sigma, np.linspace(0, 2 * np.pi, 24, endpoint=False))
    with np.errstate(all="ignore"):  # a first loop that never assembles: all NaN
        reach = np.linalg.norm(coarse[:, :, D] - coarse[:, :, E0], axis=-1)
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


def _family(kind: str) -> PathFamily:
    return PathFamily(
        kind,
        SIZE,
        SIGNS,
        partial(_sample, kind),
        partial(_trace, kind),
        partial(_build, kind),
        _bounds,
    )


#: Watt II: two four-bars in series, :math:`D` on the first one's rocker (module doc).
WATT = _family("watt")
#: Stephenson III: a four-bar whose coupler drives a dyad, :math:`D` on the coupler.
STEPHENSON = _family("stephenson")
