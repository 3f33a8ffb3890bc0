r"""A linkage built of dyads on a crank, placed in closed form in every assembly mode.

Many bundled linkages (four-bar, Jansen's leg, Peaucellier's inversor, Roberts' linkage)
are a *crank* (a free joint on one rod to a pinned joint) followed by *dyads*: a joint
with exactly two rods to joints already placed. Given the crank angle :math:`\theta`,
a dyad's joint is an intersection of two circles, in one of two assembly modes (the
sign of the cross product); a chain of :math:`k` dyads has :math:`2^k` mode vectors,
and each is defined (every dyad's circles meet) on arcs of the crank circle. Every
component of the configuration curve is a union of such arcs (a component changes mode
only where a dyad straightens, at an arc's end), so a placement at the middle of every
arc is a seed on every component (:mod:`._dyad_seeds`): the random seeding of
:mod:`._curve_trace` can miss a component (it missed one of Jansen's 24), this cannot,
down to arcs shorter than the sampling of :math:`\theta`
(:data:`._dyad_seeds.CRANK_SAMPLES`).

A linkage with fixed angles, with a joint tied by three or more rods when placed, or
with a rod the chain does not use (redundant, e.g. three parallel cranks) is not such a
chain: :func:`dyad_chain` returns None and the random seeding is used.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..model import Linkage

__all__ = [
    "MAX_DYADS",
    "DyadChain",
    "circle_meet",
    "circle_pair",
    "depends_on",
    "dyad_chain",
    "place",
]

#: More dyads than this (2^k mode vectors) and the random seeding is used instead.
MAX_DYADS = 10


@dataclass(frozen=True)
class DyadChain:
    """A crank ``pivot -> crank`` (pivot pinned), then the dyads in placing order.

    ``dyads[i] = (v, a, b, la, lb)``: joint ``v`` at distance ``la`` from ``a`` and ``lb``
    from ``b``, both placed before it.
    """

    pivot: int
    crank: int
    radius: float
    dyads: tuple[tuple[int, int, int, float, float], ...]


def _neighbours(rods: np.ndarray, lengths: np.ndarray) -> dict[int, dict[int, tuple[int, float]]]:
    """``nb[u][w] = (rod index, length)`` for every rod ``u-w``."""
    nb: dict[int, dict[int, tuple[int, float]]] = {}
    for r, ((i, j), length) in enumerate(zip(rods.tolist(), lengths.tolist(), strict=True)):
        nb.setdefault(i, {})[j] = (r, length)
        nb.setdefault(j, {})[i] = (r, length)
    return nb


def _chain_from(nb, free: set[int], pinned: set[int], pivot: int, crank: int) -> DyadChain | None:
    """The chain with crank ``pivot -> crank``, or None when it does not place every joint."""
    placed, used = pinned | {crank}, {nb[crank][pivot][0]}
    dyads: list[tuple[int, int, int, float, float]] = []
    todo = sorted(free - {crank})
    while todo:
        for v in todo:
            tied = [w for w in sorted(nb.get(v, {})) if w in placed]
            if len(tied) == 2:
                break
        else:
            return None  # no joint with exactly two rods to placed joints
        a, b = tied
        used |= {nb[v][a][0], nb[v][b][0]}
        dyads.append((v, a, b, nb[v][a][1], nb[v][b][1]))
        placed.add(v)
        todo.remove(v)
    rods_between_pins = {r for u in pinned for w, (r, _) in nb.get(u, {}).items() if w in pinned}
    if len(used | rods_between_pins) != sum(len(x) for x in nb.values()) // 2:
        return None  # a rod the chain does not use: redundant, not a chain of dyads
    return DyadChain(pivot, crank, nb[crank][pivot][1], tuple(dyads))


def dyad_chain(linkage: Linkage) -> DyadChain | None:
    """The linkage as a crank and dyads (module docstring), or None when it is not one."""
    if linkage.dim != 2 or len(linkage.angles) or not linkage.n_rods:
        return None
    nb = _neighbours(np.asarray(linkage.rods), linkage.rod_lengths())
    pinned = {int(v) for v in linkage.pinned}
    free = set(range(linkage.n_vertices)) - pinned
    for pivot in sorted(pinned):
        for crank in sorted(w for w in nb.get(pivot, {}) if w in free):
            chain = _chain_from(nb, free, pinned, pivot, crank)
            if chain is not None:
                return chain if len(chain.dyads) <= MAX_DYADS else None
    return None


def depends_on(chain: DyadChain) -> dict[int, set[int]]:
    """For each joint placed by a dyad, the dyads (indices) whose mode moves it."""
    deps: dict[int, set[int]] = {}
    for k, (v, a, b, _, _) in enumerate(chain.dyads):
        deps[v] = {k} | deps.get(a, set()) | deps.get(b, set())
    return deps


def place(
    chain: DyadChain, vertices: np.ndarray, theta: np.ndarray, modes: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Placements ``(M, S, n, 2)`` at crank angles ``theta (S,)`` in ``modes (M, k)`` (±1).

    Also whether each is assembled ``(M, S)`` (every dyad's two circles meet).
    """
    m, s = len(modes), len(theta)
    p = np.broadcast_to(vertices, (m, s) + vertices.shape).copy()
    p[:, :, chain.crank] = vertices[chain.pivot] + chain.radius * np.stack(
        [np.cos(theta), np.sin(theta)], axis=-1
    )
    ok = np.ones((m, s), bool)
    for k, (v, a, b, la, lb) in enumerate(chain.dyads):
        p[:, :, v], meets = circle_meet(p[:, :, a], p[:, :, b], la, lb, modes[:, k, None])
        ok &= meets
    return p, ok


def circle_meet(pa: np.ndarray, pb: np.ndarray, la: Any, lb: Any, mode: Any) -> tuple:
    r"""The dyad's joint: at distance ``la`` from ``pa`` and ``lb`` from ``pb``, on side ``mode``.

    With :math:`d = p_b - p_a`, the joint is :math:`p_a + \lambda d + \mu J d`
    (:math:`J` the quarter turn), :math:`\lambda = (|d|^2 + l_a^2 - l_b^2) / (2|d|^2)`
    the foot along :math:`d` and :math:`\mu = \pm\sqrt{l_a^2/|d|^2 - \lambda^2}` the
    height, its sign the assembly mode (the sign of :math:`d \times (p - p_a)`).
    ``pa``, ``pb`` ``(..., 2)``; ``la``, ``lb``, ``mode`` broadcast with ``(...)``.
    Returns the joint ``(..., 2)`` and where the circles meet ``(...)`` (their centres
    apart and :math:`\mu` real); elsewhere the joint is on the line of the centres.
    """
    foot, up, ok = circle_pair(np.moveaxis(pa, -1, 0), np.moveaxis(pb, -1, 0), la, lb)
    return np.moveaxis(foot + np.asarray(mode) * up, 0, -1), ok


def circle_pair(pa: np.ndarray, pb: np.ndarray, la: Any, lb: Any) -> tuple:
    r"""Both joints of :func:`circle_meet`, as a foot and an offset, coordinates first.

    ``pa``, ``pb`` ``(2, ...)`` (x then y, each contiguous in the batched callers).
    Returns the foot :math:`p_a + \lambda d` and the offset :math:`|\mu| J d`, each
    ``(2, ...)`` (the joints are foot ± offset), and where the circles meet ``(...)``.
    """
    dx, dy = pb[0] - pa[0], pb[1] - pa[1]
    dd = dx * dx + dy * dy
    ok = dd > 1e-24 * (la + lb) ** 2  # coinciding centres: no (or a circle of) joints
    dd = np.where(ok, dd, 1.0)
    along = (dd + la * la - lb * lb) / (2.0 * dd)  # foot of the joint on a->b, in |d|
    h2 = la * la / dd - along * along  # its height off a->b, squared, in |d|^2
    ok &= h2 >= 0.0
    up = np.sqrt(np.maximum(h2, 0.0))
    foot = np.stack([pa[0] + along * dx, pa[1] + along * dy])
    return foot, np.stack([-up * dy, up * dx]), ok
