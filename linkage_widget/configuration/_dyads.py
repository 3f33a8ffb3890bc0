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

import numpy as np

from ..model import Linkage

__all__ = ["MAX_DYADS", "DyadChain", "depends_on", "dyad_chain", "place"]

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
        d = p[:, :, b] - p[:, :, a]
        dd = (d * d).sum(-1)
        ok &= dd > 1e-24 * (la + lb) ** 2  # coinciding centres: no (or a circle of) joints
        dd = np.where(ok, dd, 1.0)
        along = (dd + la * la - lb * lb) / (2.0 * dd)  # foot of the joint on a->b, in |d|
        h2 = la * la / dd - along * along  # its height off a->b, squared, in |d|^2
        ok &= h2 >= 0.0
        up = np.sqrt(np.maximum(h2, 0.0)) * modes[:, k, None]
        perp = np.stack([-d[..., 1], d[..., 0]], axis=-1)
        p[:, :, v] = p[:, :, a] + along[..., None] * d + up[..., None] * perp
    return p, ok
