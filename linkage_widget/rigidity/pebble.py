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

Sliders (a joint held on a ground line, one row :math:`n \cdot v_j = 0`) are
*slider-pinning* (Streinu and Theran, 2010; Katoh and Tanigawa, 2013, whose theorem
for given directions reads the same with generic ones): a slider is one constraint,
one pebble of its joint, where a pin is two. Infinitesimally a slider is a bar from
its joint to a point of the ground on its normal, so each slider is played as an edge
to a ground vertex of its own, tied to the ground triangle by two edges (a Henneberg
step: the ground stays one rigid body). A separate point for each matters: bars from
three joints to one ground point would be concurrent, a special position. By Laman's
theorem on this graph the accepted sliders and edges count
:math:`|E(X)| + |L(X)| \le 2|X|` and :math:`|E(X)| \le 2|X| - 3` (``L`` the sliders):
the slider-pinning count of those theorems, with the directions generic (parallel
sliders are a special placement, as collinear joints are).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from .pebble_fast import FastGame, edge_arrays, use_compiled

__all__ = [
    "pebble_game",
    "generic_rank",
    "pinned_pebble_game",
    "PebbleGame",
    "pebble_game_with_witness",
]


class _Game:
    def __init__(self, n: int) -> None:
        self.pebbles = [2] * n
        self.out: list[list[int]] = [[] for _ in range(n)]
        #: Pebble searches made so far (how much work an edit cost).
        self.searches = 0

    def _find_pebble(self, start: int, blocked: tuple[int, int]) -> bool:
        """Move one free pebble to ``start`` along a directed path avoiding ``blocked``."""
        self.searches += 1
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

    def reached(self, u: int, v: int) -> list[int]:
        """The vertices a pebble search from ``u`` and ``v`` reaches, sorted.

        Right after ``u-v`` was refused they span :math:`2|X| - 3` accepted edges: with
        the refused one, an over-braced set.
        """
        seen = {u, v}
        stack = list(seen)
        while stack:
            for y in self.out[stack.pop()]:
                if y not in seen:
                    seen.add(y)
                    stack.append(y)
        return sorted(seen)

    def drop_edge(self, u: int, v: int) -> None:
        """Remove the accepted edge ``u-v``: its covering pebble returns to its tail."""
        tail, head = (u, v) if v in self.out[u] else (v, u)
        self.out[tail].remove(head)
        self.pebbles[tail] += 1


def pebble_game(
    n: int, edges: Iterable[Sequence[int]], *, compiled: bool | None = None
) -> np.ndarray:
    """Which edges are generically independent, in the given order.

    Parameters
    ----------
    n : int
        Number of vertices.
    edges : iterable of (u, v)
        Edges (repeats allowed: a repeat is always dependent), ends in ``0..n-1``.
    compiled : bool or None
        ``None`` (default): the compiled game (:mod:`.pebble_fast`, numba) from
        :data:`~.pebble_fast.COMPILED_MIN_EDGES` edges on when numba imports, else this
        module's. ``False`` forces pure Python, ``True`` the compiled game. Both accept
        the same edges.

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
    pairs = [(int(u), int(v)) for u, v in edges]
    edge_arrays(n, pairs)  # a vertex out of range: a clear error on either path
    if use_compiled(compiled, len(pairs)):
        return FastGame(n).play(pairs)
    game = _Game(n)
    return np.array([game.try_edge(u, v) for u, v in pairs], dtype=bool)


def pebble_game_with_witness(
    n: int, edges: Iterable[Sequence[int]]
) -> tuple[np.ndarray, list[int] | None]:
    r""":func:`pebble_game`, and the over-braced set the first refused edge shows.

    Returns
    -------
    accepted : ndarray of bool, shape (m,)
        As :func:`pebble_game`.
    witness : list of int or None
        The vertices :math:`X` the first refused edge's failed search reached (with its
        ends): with the edges played up to it, :math:`|E(X)| \ge 2|X| - 2`. ``None``
        when every edge is accepted.

    >>> k4 = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    >>> pebble_game_with_witness(4, k4)[1]
    [0, 1, 2, 3]
    """
    game = _Game(n)
    accepted, witness = [], None
    for u, v in edges:
        ok = game.try_edge(int(u), int(v))
        if not ok and witness is None:
            witness = game.reached(int(u), int(v))
        accepted.append(ok)
    return np.array(accepted, dtype=bool), witness


def generic_rank(n: int, edges: Iterable[Sequence[int]]) -> int:
    """Rank of the generic rigidity matroid of the graph (number of independent edges).

    >>> generic_rank(3, [(0, 1), (1, 2), (0, 2)])
    3
    """
    return int(pebble_game(n, edges).sum())


def pinned_pebble_game(
    n: int,
    edges: Iterable[Sequence[int]],
    pinned: Iterable[int] = (),
    sliders: Iterable[int] = (),
) -> tuple[np.ndarray, int]:
    """Which edges are generically independent when the ``pinned`` vertices are held in place.

    Each pin is two constraints (the vertex's x and y), each slider one (the joint on a
    ground line of generic direction); pins and sliders come first, so they are
    independent and redundancy falls on the edges.

    Parameters
    ----------
    n : int
        Number of vertices.
    edges : iterable of (u, v)
        Edges, in the order redundancy is decided.
    pinned : iterable of int
        Distinct pinned vertices.
    sliders : iterable of int
        The joint of each slider (a joint with two sliders is generically pinned; a third
        is redundant).

    Returns
    -------
    accepted : ndarray of bool, shape (m,)
        ``True`` for the edges independent of the pins, sliders and the edges before them.
    rank : int
        Generic rank of all the constraints: ``2 * len(pinned)`` + the independent sliders
        + ``accepted.sum()``.

    Examples
    --------
    >>> accepted, rank = pinned_pebble_game(2, [(0, 1)], pinned=[0, 1])
    >>> accepted.tolist(), rank             # a rod between two pins is redundant
    ([False], 4)
    >>> pinned_pebble_game(3, [(0, 1), (1, 2)], pinned=[0, 2])[0].tolist()
    [True, True]
    >>> triangle = [(0, 1), (1, 2), (0, 2)]
    >>> pinned_pebble_game(3, triangle, sliders=[0, 1, 2])[1]   # 3 + 3 = 2 * 3: held
    6
    """
    pins = [int(v) for v in pinned]
    slides = [int(v) for v in sliders]
    edge_list = [(int(u), int(v)) for u, v in edges]
    if not pins and not slides:
        accepted = pebble_game(n, edge_list)
        return accepted, int(accepted.sum())
    g0, g1, g2 = n, n + 1, n + 2  # the ground triangle, then one ground point per slider
    ground = [(g0, g1), (g1, g2), (g0, g2)]
    ground += [(v, g) for v in pins for g in (g0, g1)]
    ground += [(n + 3 + s, g) for s in range(len(slides)) for g in (g0, g1)]
    game = _Game(n + 3 + len(slides))
    for u, v in ground:
        # The ground triangle, its slider points and two edges per pinned vertex: a
        # Henneberg construction, independent by Laman's theorem unless a vertex is
        # pinned twice.
        if not game.try_edge(u, v):
            raise ValueError(f"vertex {u} is pinned twice")
    held = sum(game.try_edge(v, n + 3 + s) for s, v in enumerate(slides))
    accepted = np.array([game.try_edge(u, v) for u, v in edge_list], dtype=bool)
    return accepted, 2 * len(pins) + held + int(accepted.sum())


class PebbleGame:
    """The pinned (2, 3) pebble game kept between edits: an edit is a few pebble searches.

    Pins and edges only: a linkage with sliders or slots is counted by
    :func:`~linkage_widget.rigidity.generic_analysis` (cached by graph) instead.

    The state is the game after playing the pins (as ground, first) and then the
    edges in insertion order, exactly as :func:`pinned_pebble_game` would play them
    from scratch, and it stays so under every edit (tested against the full game):

    * :meth:`add_edge` plays one more edge: at most four pebble searches;
    * :meth:`remove_edge` of an accepted edge returns its pebble and retries the
      rejected edges after it, in order, until one is accepted. This gives the
      full game's answer: accepted edges stay independent without the removed
      one, and the first later edge independent of them is the one the full game
      would take (greedy bases of a matroid); the rank drops by at most one, so
      at most one edge changes;
    * :meth:`add_pin` plays the pin's two ground edges; when both are accepted,
      pins-first and pin-last give the same accepted edges. Otherwise the pin
      conflicts with edges already accepted and the game is replayed (one full
      game, as a new one);
    * :meth:`remove_pin` drops the pin's ground edges and retries the rejected
      edges in order.

    Internally vertex ``v`` is ``v + 3``; 0, 1, 2 are the ground triangle.

    Examples
    --------
    >>> game = PebbleGame(4)
    >>> [game.add_edge(i, j) for i, j in [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]]
    [True, True, True, True, True, False]
    >>> game.remove_edge(0)                 # (0, 1) goes; the redundant (2, 3) is now needed
    >>> game.accepted.tolist(), game.rank
    ([True, True, True, True, True], 5)
    >>> game.add_pin(0); game.add_pin(1)    # a rod between two pins would be redundant
    True
    True
    """

    def __init__(
        self, n: int = 0, edges: Iterable[Sequence[int]] = (), pinned: Iterable[int] = ()
    ) -> None:
        self._replay(n, [(int(u), int(v)) for u, v in edges], [int(p) for p in pinned])

    def _replay(self, n: int, edges: list[tuple[int, int]], pins: list[int]) -> None:
        """Play a new game: ground triangle, pins, then the edges in order."""
        if len(set(pins)) != len(pins):
            raise ValueError(f"a vertex is pinned twice in {pins}")
        self.n, self.pins, self.edges = n, [], []
        self._accepted: list[bool] = []
        self._game = _Game(n + 3)
        for u, v in ((0, 1), (1, 2), (0, 2)):
            self._game.try_edge(u, v)
        for p in pins:
            self._check(p)
            self._play_pin(p)
        for u, v in edges:
            self.add_edge(u, v)

    def _check(self, v: int) -> int:
        if not 0 <= v < self.n:
            raise IndexError(f"vertex {v} out of range 0..{self.n - 1}")
        return v + 3

    def _play_pin(self, v: int) -> bool:
        x = v + 3
        first = self._game.try_edge(x, 0)
        second = first and self._game.try_edge(x, 1)
        if second:
            self.pins.append(v)
            return True
        if first:
            self._game.drop_edge(x, 0)
        return False

    @property
    def accepted(self) -> np.ndarray:
        """Whether each edge (in :attr:`edges` order) is independent, shape (m,)."""
        return np.array(self._accepted, dtype=bool)

    @property
    def rank(self) -> int:
        """Generic rank of pins and edges: ``2 * len(pins) + accepted.sum()``."""
        return 2 * len(self.pins) + sum(self._accepted)

    @property
    def searches(self) -> int:
        """Pebble searches made since the last (re)play: the work the edits cost."""
        return self._game.searches

    def add_vertex(self) -> int:
        """A new vertex with two free pebbles; returns its index."""
        self._game.pebbles.append(2)
        self._game.out.append([])
        self.n += 1
        return self.n - 1

    def add_edge(self, u: int, v: int) -> bool:
        """Play edge ``u-v`` after the others; ``True`` if it is independent."""
        ok = self._game.try_edge(self._check(int(u)), self._check(int(v)))
        self.edges.append((int(u), int(v)))
        self._accepted.append(ok)
        return ok

    def remove_edge(self, index: int) -> None:
        """Remove edge number ``index`` (in :attr:`edges`); later edges move up by one."""
        u, v = self.edges.pop(index)
        if self._accepted.pop(index):
            self._game.drop_edge(u + 3, v + 3)
            self._retry(index, 1)

    def _retry(self, start: int, wanted: int) -> None:
        """Retry rejected edges from ``start`` on, in order, until ``wanted`` are accepted."""
        for k in range(start, len(self.edges)):
            if wanted == 0:
                return
            if not self._accepted[k]:
                u, v = self.edges[k]
                if self._game.try_edge(u + 3, v + 3):
                    self._accepted[k] = True
                    wanted -= 1

    def add_pin(self, v: int) -> bool:
        """Pin ``v`` (played as if first, like :func:`pinned_pebble_game`); always ``True``."""
        self._check(int(v))
        if int(v) in self.pins:
            raise ValueError(f"vertex {v} is pinned twice")
        if not self._play_pin(int(v)):
            self._replay(self.n, self.edges, [*self.pins, int(v)])
        return True

    def remove_pin(self, v: int) -> None:
        """Unpin ``v``; rejected edges that it made redundant are retried in order."""
        self.pins.remove(int(v))
        self._game.drop_edge(int(v) + 3, 0)
        self._game.drop_edge(int(v) + 3, 1)
        self._retry(0, 2)
