r"""The (2, 3) pebble game: generic rigidity of a graph in the plane.

Jacobs and Hendrickson (1997). Every vertex starts with two pebbles; an edge
is *independent* (accepted) when four pebbles can be gathered on its two
endpoints, and is then covered by one of them and directed away from it.
Pebbles are moved by reversing directed paths. By Laman's theorem the accepted
edges are a basis of the generic rigidity matroid, so

.. math:: \operatorname{rank}_{\text{generic}} = \#\text{accepted edges},

and a graph on :math:`n \ge 2` vertices is generically rigid exactly when that
rank is :math:`2n - 3`. The game runs in :math:`O(n\,m)` time at worst; on
linkages the searches stay local and it is much faster.

Pins (:func:`pinned_pebble_game`) hold vertices in place. They are played as
ground: a rigid triangle of three extra vertices, and two edges from each
pinned vertex to it, *before* any other edge. A pinned vertex has then spent
both its pebbles (its freedoms), all pinned vertices and the ground form one
rigid body, and an edge that only braces that body — a rod between two pins —
is found redundant, as the self-stress it carries says it is.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

__all__ = ["pebble_game", "generic_rank", "pinned_pebble_game"]


class _Game:
    def __init__(self, n: int) -> None:
        self.pebbles = [2] * n
        self.out: list[list[int]] = [[] for _ in range(n)]

    def _find_pebble(self, start: int, blocked: tuple[int, int]) -> bool:
        """Move one free pebble to ``start`` along a directed path avoiding ``blocked``."""
        parent = {start: -1, blocked[0]: -2, blocked[1]: -2}
        parent[start] = -1
        stack = [start]
        while stack:
            x = stack.pop()
            for y in self.out[x]:
                if y in parent:
                    continue
                parent[y] = x
                if self.pebbles[y] > 0:
                    # reverse the path y <- ... <- start: the pebble travels back to start
                    self.pebbles[y] -= 1
                    while parent[y] >= 0:
                        x = parent[y]
                        self.out[x].remove(y)
                        self.out[y].append(x)
                        y = x
                    self.pebbles[start] += 1
                    return True
                stack.append(y)
        return False

    def try_edge(self, u: int, v: int) -> bool:
        """Accept ``u-v`` if four pebbles can be gathered on its ends."""
        if u == v:
            return False
        while self.pebbles[u] < 2:
            if not self._find_pebble(u, (u, v)):
                return False
        while self.pebbles[v] < 2:
            if not self._find_pebble(v, (u, v)):
                return False
        self.pebbles[u] -= 1
        self.out[u].append(v)
        return True


def pebble_game(n: int, edges: Iterable[Sequence[int]]) -> np.ndarray:
    """Which edges are generically independent, in the given order.

    Parameters
    ----------
    n : int
        Number of vertices.
    edges : iterable of (u, v)
        Edges (repeats allowed: a repeat is always dependent).

    Returns
    -------
    ndarray of bool, shape (m,)
        ``True`` for accepted (independent) edges; the others are redundant
        given the edges before them.

    Examples
    --------
    >>> k4 = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    >>> pebble_game(4, k4).tolist()          # 2*4 - 3 = 5 independent, one redundant
    [True, True, True, True, True, False]
    """
    game = _Game(n)
    return np.array([game.try_edge(int(u), int(v)) for u, v in edges], dtype=bool)


def generic_rank(n: int, edges: Iterable[Sequence[int]]) -> int:
    """Rank of the generic rigidity matroid of the graph (number of independent edges).

    >>> generic_rank(3, [(0, 1), (1, 2), (0, 2)])
    3
    """
    return int(pebble_game(n, edges).sum())


def pinned_pebble_game(
    n: int, edges: Iterable[Sequence[int]], pinned: Iterable[int] = ()
) -> tuple[np.ndarray, int]:
    """Which edges are generically independent when the ``pinned`` vertices are held in place.

    Each pin is two constraints (the vertex's x and y); pins come first, so
    they are always independent and redundancy falls on the edges.

    Parameters
    ----------
    n : int
        Number of vertices.
    edges : iterable of (u, v)
        Edges, in the order redundancy is decided.
    pinned : iterable of int
        Distinct pinned vertices.

    Returns
    -------
    accepted : ndarray of bool, shape (m,)
        ``True`` for the edges independent of the pins and the edges before them.
    rank : int
        Generic rank of all the constraints: ``2 * len(pinned) + accepted.sum()``.

    Examples
    --------
    >>> accepted, rank = pinned_pebble_game(2, [(0, 1)], pinned=[0, 1])
    >>> accepted.tolist(), rank             # a rod between two pins is redundant
    ([False], 4)
    >>> pinned_pebble_game(3, [(0, 1), (1, 2)], pinned=[0, 2])[0].tolist()
    [True, True]
    """
    pins = [int(v) for v in pinned]
    edge_list = [(int(u), int(v)) for u, v in edges]
    if not pins:
        accepted = pebble_game(n, edge_list)
        return accepted, int(accepted.sum())
    g0, g1, g2 = n, n + 1, n + 2  # the ground triangle
    ground = [(g0, g1), (g1, g2), (g0, g2)]
    ground += [(v, g) for v in pins for g in (g0, g1)]
    game = _Game(n + 3)
    for u, v in ground:
        # The ground triangle and two edges per pinned vertex: a Henneberg construction,
        # independent by Laman's theorem unless a vertex is pinned twice.
        if not game.try_edge(u, v):
            raise ValueError(f"vertex {u} is pinned twice")
    accepted = np.array([game.try_edge(u, v) for u, v in edge_list], dtype=bool)
    return accepted, 2 * len(pins) + int(accepted.sum())
