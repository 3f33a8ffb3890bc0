r"""Rigid clusters of a graph in the plane, from one pebble game.

A *rigid cluster* (rigid component) is a maximal vertex set whose induced subgraph is
generically rigid; in the plane two clusters share at most one vertex (a hinge), so
every edge lies in exactly one, and the clusters partition the edges. A redundant edge
:math:`uv` lies in the cluster holding both its ends (they are mutually rigid).

The decomposition is Jacobs and Hendrickson's (1997): after the game, take an accepted
edge :math:`ab` with no cluster yet and hold three pebbles on its ends. A vertex
:math:`w` is rigid with :math:`ab` exactly when no fourth pebble can be brought to it;
the vertices such a failed search sees are rigid too, since with :math:`a, b` they hold
no free pebble and no edge leaves them,

.. math:: |E(X)| = 2|X| - \text{pebbles}(X) = 2|X| - 3 ,

so one search decides many. The cluster grows from :math:`ab` along accepted edges
(a rigid graph is connected). The work is near linear on lattices.

:func:`rigid_clusters` takes the compiled path of :mod:`.pebble_fast` on large graphs
(numba, the ``fast`` extra) and this module's pure-Python one otherwise; both give the
same labels: clusters are numbered in the order of their first edge, a canonical order.

>>> two_triangles = [(0, 1), (1, 2), (0, 2), (2, 3), (3, 4), (2, 4)]   # a hinge at 2
>>> rigid_clusters(5, two_triangles).tolist()
[0, 0, 0, 1, 1, 1]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from .pebble import _Game
from .pebble_fast import FastGame, edge_arrays, use_compiled

__all__ = ["PureGame", "rigid_clusters"]


def rigid_clusters(
    n: int, edges: Iterable[Sequence[int]], *, compiled: bool | None = None
) -> np.ndarray:
    """The rigid cluster of every edge, after a pebble game in the given order.

    Parameters
    ----------
    n : int
        Number of vertices.
    edges : iterable of (u, v)
        Edges, ends in ``0..n-1`` (repeats allowed).
    compiled : bool or None
        As in :func:`~.pebble.pebble_game`: ``None`` picks by size and availability.

    Returns
    -------
    ndarray of int, shape (m,)
        ``labels[k]`` is the number of edge ``k``'s rigid cluster, numbered ``0, 1, ...``
        in the order of each cluster's first edge; ``-1`` for a loop ``(v, v)``.
    """
    pairs = [(int(u), int(v)) for u, v in edges]
    edge_arrays(n, pairs)
    if use_compiled(compiled, len(pairs)):
        game = FastGame(n)
        game.play(pairs)
        return game.clusters()[0]
    return _pure_clusters(n, pairs)


def _pure_clusters(n: int, pairs: list[tuple[int, int]]) -> np.ndarray:
    """The decomposition on :class:`~.pebble._Game` (the reference for the compiled one)."""
    game = PureGame(n)
    game.play(pairs)
    return game.clusters()[0]


class PureGame:
    """:class:`~.pebble_fast.FastGame`'s interface on the pure-Python game (no numba)."""

    def __init__(self, n: int) -> None:
        self.n = int(n)
        self.game = _Game(self.n)
        self.pairs: list[tuple[int, int]] = []
        self.accepted: list[bool] = []

    def copy(self) -> PureGame:
        """An independent snapshot of the game."""
        new = PureGame(self.n)
        new.game.pebbles = list(self.game.pebbles)
        new.game.out = [list(o) for o in self.game.out]
        new.pairs, new.accepted = list(self.pairs), list(self.accepted)
        return new

    def play(self, edges: Iterable[Sequence[int]]) -> np.ndarray:
        """Play ``edges`` after those played before; their acceptance, shape (k,)."""
        pairs = [(int(u), int(v)) for u, v in edges]
        edge_arrays(self.n, pairs)
        accepted = [self.game.try_edge(u, v) for u, v in pairs]
        self.pairs += pairs
        self.accepted += accepted
        return np.array(accepted, dtype=bool)

    def clusters(
        self, starts: Sequence[int] | None = None, *, as_given: bool = False
    ) -> tuple[np.ndarray, int]:
        """Rigid cluster of every edge played, shape (m,), and how many clusters.

        ``starts`` limits it to the clusters of those edges, as in the compiled game;
        they are always grown in the order given (``as_given``: the compiled game's
        interface).
        """
        pairs, accepted = self.pairs, self.accepted
        at: list[list[int]] = [[] for _ in range(self.n)]
        for k, (u, v) in enumerate(pairs):
            if u != v:
                at[u].append(k)
                at[v].append(k)
        labels = np.full(len(pairs), -1, np.int64)
        count = 0
        for k in range(len(pairs)) if starts is None else [int(k) for k in starts]:
            if labels[k] >= 0 or not accepted[k]:
                continue
            a, b = pairs[k]
            _hold_three(self.game, a, b)
            cluster = _grow(self.game, a, b, pairs, at, accepted)
            for e in {e for x in cluster for e in at[x]}:
                if pairs[e][0] in cluster and pairs[e][1] in cluster:
                    labels[e] = count
            count += 1
        return labels, count


def _hold_three(game: _Game, a: int, b: int) -> None:
    """Bring three pebbles to ``a`` and ``b`` (an edge's ends can always hold three)."""
    while game.pebbles[a] + game.pebbles[b] < 3:
        moved = False
        for end in (a, b):
            if game.pebbles[end] < 2 and game._find_pebble(end, (a, b)):
                moved = True
        if not moved:
            return


def _grow(
    game: _Game, a: int, b: int, pairs: list[tuple[int, int]], at: list[list[int]], accepted
) -> set[int]:
    """The vertices rigid with the edge ``ab`` (three pebbles held on it)."""
    rigid, floppy = {a, b}, set()
    queue = [a, b]
    while queue:
        x = queue.pop()
        for e in at[x]:
            w = pairs[e][0] + pairs[e][1] - x
            if not accepted[e] or w in rigid or w in floppy:
                continue
            saw = _no_pebble_from(game, w, a, b, rigid)
            if saw is None:
                floppy.add(w)
                continue
            rigid.update(saw)
            queue.extend(saw)
    return rigid


def _no_pebble_from(game: _Game, w: int, a: int, b: int, rigid: set[int]) -> list[int] | None:
    """The vertices a search from ``w`` sees when none holds a free pebble, else ``None``.

    ``a``, ``b`` (holding the three pebbles) and vertices known rigid are not entered.
    """
    if game.pebbles[w] > 0:
        return None
    seen = {w, a, b}
    saw, stack = [w], [w]
    while stack:
        for y in game.out[stack.pop()]:
            if y in seen or y in rigid:
                continue
            if game.pebbles[y] > 0:
                return None
            seen.add(y)
            saw.append(y)
            stack.append(y)
    return saw
