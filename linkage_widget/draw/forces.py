r"""Pictures of the force elements: motors, load and reaction arrows.

Like :mod:`~linkage_widget.draw.layers`, one function per layer, taking pixels,
plain arrays and the :class:`~linkage_widget.draw.theme.Theme`, returning its
primitives (empty when there is nothing to show, so a drawing without drives is
unchanged). Rod forces are drawn by :func:`~linkage_widget.draw.layers.rods`
(tension and compression colours, width by size), as a self-stress is.

Force arrows share one scale: the largest of all loads and reactions is
:attr:`Theme.force_arrow_px` long, so that arrows compare across joints and a
reaction is visibly as big as the load it balances.

Examples
--------
>>> import numpy as np
>>> from linkage_widget.draw.theme import DEFAULT_THEME
>>> from linkage_widget.draw.view import ViewTransform
>>> view = ViewTransform(scale=10.0)
>>> P = view.to_pixel(np.array([[0.0, 0.0], [2.0, 0.0]]))
>>> arrows = force_arrows(view, P, [(1, 0.0, -5.0)], [(0, 0.0, 5.0)], DEFAULT_THEME)
>>> [a.role for a in arrows], arrows[0].tips.round(1).tolist()
(['loads', 'reactions'], [[20.0, 64.0]])
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .layers import valid_index
from .primitives import Arcs, Arrows, Primitive
from .theme import Theme
from .view import ViewTransform

__all__ = ["force_arrows", "linear_motors", "motors"]

#: A force on a joint: ``(vertex, fx, fy)`` in world axes (y up).
JointForce = tuple[int, float, float]


def _valid(forces: Sequence[JointForce], n: int) -> tuple[np.ndarray, np.ndarray]:
    """Vertices and world vectors ``(k, 2)`` of the finite, non-zero forces on existing joints."""
    rows = [(int(v), float(fx), float(fy)) for v, fx, fy in forces if valid_index(v, n)]
    arr = np.array(rows, dtype=np.float64).reshape(-1, 3)
    keep = np.all(np.isfinite(arr), axis=1) & np.any(arr[:, 1:] != 0.0, axis=1)
    return arr[keep, 0].astype(np.intp), arr[keep, 1:]


def force_arrows(
    view: ViewTransform,
    P: np.ndarray,
    loads: Sequence[JointForce],
    reactions: Sequence[JointForce],
    theme: Theme,
) -> list[Primitive]:
    """Arrows of the loads (role ``loads``) and of the support reactions (``reactions``).

    Parameters
    ----------
    view : ViewTransform
        Turns world force directions into pixel directions (y flips).
    P : ndarray, shape (n, 2)
        Joints in pixels: each arrow's tail is its joint.
    loads, reactions : sequence of (vertex, fx, fy)
        Forces in world axes; zero, non-finite or stale (vertex out of range) ones
        are skipped.
    theme : Theme

    Notes
    -----
    One scale for both (the biggest force is ``force_arrow_px`` long); arrows shorter than
    :attr:`Theme.force_arrow_min_px` are lengthened to it so a small reaction next
    to a big one stays visible (its direction is what matters there).
    """
    n = len(P)
    (lv, lf), (rv, rf) = _valid(loads, n), _valid(reactions, n)
    biggest = float(np.max(np.hypot(*np.concatenate([lf, rf]).T), initial=0.0))
    if not (0.0 < biggest < np.inf):
        return []
    items: list[Primitive] = []
    for which, F, color, role in (
        (lv, lf, theme.load, "loads"),
        (rv, rf, theme.reaction, "reactions"),
    ):
        # relative to the biggest first: tiny or huge forces neither underflow nor overflow
        V = view.vector_to_pixel(F / biggest) / view.length_to_pixel(1.0) * theme.force_arrow_px
        big = np.max(np.abs(V), axis=1)
        keep = big > 0
        which, V, big = which[keep], V[keep], big[keep]
        if len(which) == 0:
            continue
        U = V / big[:, None]  # each arrow's direction, scaled so no division can overflow
        U /= np.hypot(U[:, 0], U[:, 1])[:, None]
        V = U * np.maximum(np.hypot(V[:, 0], V[:, 1]), theme.force_arrow_min_px)[:, None]
        items.append(
            Arrows.from_vectors(P[which], V, color=color, width=theme.force_width, role=role)
        )
    return items


def motors(
    P: np.ndarray, driven: Sequence[tuple[int, int, float]], running: bool, theme: Theme
) -> list[Primitive]:
    r"""A curved arrow round each motor's pivot, turning the way the motor turns.

    Parameters
    ----------
    P : ndarray, shape (n, 2)
        Joints in pixels.
    driven : sequence of (pivot, tip, speed)
        Motors; ``speed`` in rad/s, counter-clockwise (world) positive.
    running : bool
        Whether the motors run: solid when running, faded when stopped.
    theme : Theme

    Notes
    -----
    The arc spans 270° of radius :attr:`Theme.motor_radius` starting at the rod's
    direction; on screen (y down) a counter-clockwise world turn is a decreasing
    pixel angle, so the head sits at the arc's start for :math:`\omega > 0` and at
    its end for :math:`\omega < 0`.
    """
    n = len(P)
    rows = [
        (int(p), int(t), float(w)) for p, t, w in driven if valid_index(p, n) and valid_index(t, n)
    ]
    if not rows:
        return []
    piv = np.array([r[0] for r in rows])
    tip = np.array([r[1] for r in rows])
    ccw = np.array([r[2] >= 0 for r in rows])
    d = P[tip] - P[piv]
    a0 = np.arctan2(d[:, 1], d[:, 0]) + 0.25 * np.pi  # leave the rod itself clear
    sweep = 1.5 * np.pi
    r = theme.motor_radius
    alpha = 1.0 if running else 0.45
    head_at = np.where(ccw, a0, a0 + sweep)  # where the turn ends on screen
    tangent = np.where(ccw, -1.0, 1.0)[:, None] * np.column_stack(
        [-np.sin(head_at), np.cos(head_at)]
    )
    ends = P[piv] + r * np.column_stack([np.cos(head_at), np.sin(head_at)])
    return [
        Arcs(P[piv], r, a0, a0 + sweep, theme.motor, theme.motor_width, alpha, role="motors"),
        Arrows.from_vectors(
            ends - 8.0 * tangent, 8.0 * tangent, head_length=8.0, head_width=8.0,
            color=theme.motor, width=theme.motor_width, alpha=alpha, role="motors",
        ),
    ]  # fmt: skip


def linear_motors(
    P: np.ndarray, driven: Sequence[tuple[int, float, float, float]], running: bool, theme: Theme
) -> list[Primitive]:
    """A straight arrow along each linear motor's track, from its block the way it pushes.

    Parameters
    ----------
    P : ndarray, shape (n, 2)
        Joints in pixels.
    driven : sequence of (joint, ux, uy, speed)
        The slider's joint, its line's direction in pixels (any length) and the motor's
        speed (positive along the direction).
    running : bool
        Solid when running, faded when stopped.
    theme : Theme
    """
    rows = [(int(j), ux, uy, w) for j, ux, uy, w in driven if valid_index(j, len(P))]
    rows = [r for r in rows if np.hypot(r[1], r[2]) > 0]
    if not rows:
        return []
    u = np.array([(r[1], r[2]) for r in rows], dtype=np.float64)
    u *= (np.sign([r[3] or 1.0 for r in rows]) / np.hypot(u[:, 0], u[:, 1]))[:, None]
    start = P[[r[0] for r in rows]] + theme.motor_radius * u  # clear of the block
    return [
        Arrows.from_vectors(
            start, 1.5 * theme.motor_radius * u, head_length=8.0, head_width=8.0,
            color=theme.motor, width=theme.motor_width, alpha=1.0 if running else 0.45,
            role="motors",
        )
    ]  # fmt: skip
