r"""Fundamental circuits of the planar rigidity matroid, and redundant rigidity, by one pebble game.

A graph is *redundantly rigid* when it stays rigid after the removal of any one edge:
it is rigid and every edge lies in a circuit of the generic rigidity matroid (no edge is
a coloop). The union of all circuits is the union of the *fundamental* circuits of any
basis: so one pebble game (:mod:`.pebble`), which picks a basis, decides it, with no
game replayed per edge (:func:`basis_and_redundancy`, which reads only the circuits it
needs; :func:`fundamental_circuits` lists every one).

The fundamental circuit of a rejected edge :math:`uv` (Lee and Streinu, 2008). When the
game fails to gather four pebbles on :math:`u, v` (and has brought all it can, three,
to them), let :math:`V'` be the vertices
reachable from :math:`u` or :math:`v` along the directed (accepted) edges. Every vertex of
:math:`V'` but :math:`u, v` holds no pebble and no edge leaves :math:`V'`, so
:math:`V'` spans :math:`2|V'| - 3` accepted edges: it is *tight*. It is also the least
tight set holding :math:`u, v`: a tight set :math:`T \ni u, v` has
:math:`\text{pebbles}(T) + \text{out}(T) = 3`, the three pebbles are on :math:`u, v`, so
no edge leaves :math:`T` and :math:`V' \subseteq T`. The circuit :math:`C` of
:math:`uv` minus :math:`uv` is tight on its vertices, so :math:`V' \subseteq V(C)`;
conversely :math:`C \setminus uv` lies among the accepted edges of :math:`V'` (they are
independent and :math:`uv` depends on them), and counting,

.. math:: C = \{uv\} \cup \{\text{accepted edges with both ends in } V'\}.

No later edge inside :math:`V'` can be accepted (it is tight), so the circuit is the same
in the final basis. Listing them costs the size of the circuits, which can be long: on a
braced grid whose rods come in row order some span the whole grid (about ``n`` per
rejected rod, see docs/benchmarks.md); :func:`basis_and_redundancy` skips most of them.

>>> k4 = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
>>> bool(redundant_edges(4, k4).all())      # K4: one circuit, every edge in it
True
>>> bool(redundant_edges(4, k4[:5]).any())   # K4 minus an edge: minimally rigid
False
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from .pebble import _Game
from .pebble_fast import FastGame, compiled_available, edge_arrays

#: From this many edges :func:`basis_and_redundancy` plays and reads compiled (numba),
#: lower than :data:`~.pebble_fast.COMPILED_MIN_EDGES`: on a rigid graph the pure game's
#: failed searches sweep whole tight regions (a braced grid of 2 500 joints, 9 702 edges:
#: 2.6 s in Python, 0.03 s compiled after numba's start-up of ~0.7 s, once a process).
COMPILED_MIN_EDGES = 2_000

__all__ = ["basis_and_redundancy", "fundamental_circuits", "redundant_edges", "redundantly_rigid"]


def _reach(game: _Game, u: int, v: int) -> set[int]:
    """Vertices reachable from ``u`` or ``v`` along the directed accepted edges."""
    seen = {u, v}
    stack = [u, v]
    while stack:
        x = stack.pop()
        for y in game.out[x]:
            if y not in seen:
                seen.add(y)
                stack.append(y)
    return seen


def _gather(game: _Game, u: int, v: int) -> None:
    """After a rejection, bring every pebble the game can to ``u`` and ``v``.

    ``try_edge`` stops at the first end that cannot get two; the other may still reach
    free pebbles, and then the reach set would not be tight.
    """
    moved = True
    while moved:
        moved = False
        for a in (u, v):
            while game.pebbles[a] < 2 and game._find_pebble(a, (u, v)):
                moved = True


def _incident(n: int, edges: list[tuple[int, int]]) -> list[list[int]]:
    """For each vertex, the indices of the edges at it."""
    at: list[list[int]] = [[] for _ in range(n)]
    for k, (u, v) in enumerate(edges):
        at[u].append(k)
        at[v].append(k)
    return at


def fundamental_circuits(
    n: int, edges: Iterable[Sequence[int]]
) -> tuple[np.ndarray, list[np.ndarray]]:
    """The pebble game's basis and the fundamental circuit of every rejected edge.

    Parameters
    ----------
    n : int
        Number of vertices.
    edges : iterable of (u, v)
        Edges of a graph (no loops); a repeated edge is a circuit of two.

    Returns
    -------
    accepted : ndarray of bool, shape (m,)
        The basis the game picks (as :func:`~.pebble.pebble_game` returns it).
    circuits : list of ndarray of int
        For each rejected edge, in order, the edge indices of its fundamental circuit
        (the rejected edge first).

    Examples
    --------
    >>> accepted, circuits = fundamental_circuits(4, [(0, 1), (1, 2), (0, 2), (2, 3), (0, 1)])
    >>> accepted.tolist(), [c.tolist() for c in circuits]
    ([True, True, True, True, False], [[4, 0]])
    """
    edge_list = [(int(u), int(v)) for u, v in edges]
    game = _Game(n)
    accepted = np.zeros(len(edge_list), bool)
    at = _incident(n, edge_list)
    circuits = []
    for k, (u, v) in enumerate(edge_list):
        if u == v:
            raise ValueError(f"edge {k} is a loop at vertex {u}")
        if game.try_edge(u, v):
            accepted[k] = True
            continue
        _gather(game, u, v)
        span = _reach(game, u, v)
        inside = {e for x in span for e in at[x] if accepted[e] and e < k}
        inside = {e for e in inside if edge_list[e][0] in span and edge_list[e][1] in span}
        circuits.append(np.array([k, *sorted(inside)], np.int64))
    return accepted, circuits


def basis_and_redundancy(n: int, edges: Iterable[Sequence[int]]) -> tuple[np.ndarray, np.ndarray]:
    r"""The pebble game's basis, and whether each edge lies in a circuit: one game for both.

    The union of the fundamental circuits, read after the game (the circuit of a
    rejected edge is the same in the final basis) in a seeded random order of the
    rejected edges, skipping an edge whose ends lie in one circuit's vertex set read
    before: least tight sets nest, so its circuit lies inside that set, whose basis
    edges are already covered. Once every basis edge is covered nothing is left to read.
    On the braced grid of 10 000 joints that is about 9 000 circuits and
    :math:`4 \cdot 10^6` vertex visits in random order, against :math:`2.6 \cdot 10^7`
    reading every circuit (docs/benchmarks.md). The order changes only the work, never
    the answer. From :data:`COMPILED_MIN_EDGES` edges, with numba, the game and the
    reading are compiled (:meth:`~.pebble_fast.FastGame.redundant`).

    Parameters
    ----------
    n : int
        Number of vertices.
    edges : iterable of (u, v)
        Edges (no loops; a repeated edge and its first copy are a circuit of two).

    Returns
    -------
    accepted : ndarray of bool, shape (m,)
        The basis the game picks, as :func:`~.pebble.pebble_game` returns it.
    in_circuit : ndarray of bool, shape (m,)
        ``True`` where the edge is not a coloop (:func:`redundant_edges`).
    """
    eu, ev = edge_arrays(n, edges if isinstance(edges, np.ndarray) else list(edges))
    loops = np.flatnonzero(eu == ev)
    if loops.size:
        raise ValueError(f"edge {int(loops[0])} is a loop at vertex {int(eu[loops[0]])}")
    if len(eu) >= COMPILED_MIN_EDGES and compiled_available():
        game = FastGame(n)
        accepted = game.play(np.column_stack([eu, ev]))
        return accepted, game.redundant(seed=0)
    edge_list = list(zip(eu.tolist(), ev.tolist(), strict=True))
    pure = _Game(n)
    accepted = np.array([pure.try_edge(u, v) for u, v in edge_list], dtype=bool)
    order = np.random.default_rng(0).permutation(np.flatnonzero(~accepted))
    covered = ~accepted
    at: list[list[int]] = [[] for _ in range(n)]  # the basis edges at each vertex
    for k in np.flatnonzero(accepted).tolist():
        at[edge_list[k][0]].append(k)
        at[edge_list[k][1]].append(k)
    left = int(accepted.sum())  # basis edges not yet in a circuit read
    region = [-1] * n
    for r, k in enumerate(order.tolist()):
        u, v = edge_list[k]
        if left == 0:
            break
        if region[u] >= 0 and region[u] == region[v]:
            continue
        _gather(pure, u, v)
        span = _reach(pure, u, v)
        for x in span:
            region[x] = r
        for x in span:
            for e in at[x]:
                a, b = edge_list[e]
                if not covered[e] and region[a] == r and region[b] == r:
                    covered[e] = True
                    left -= 1
    return accepted, covered


def redundant_edges(n: int, edges: Iterable[Sequence[int]]) -> np.ndarray:
    """Whether each edge lies in a circuit of the generic planar rigidity matroid.

    The union of the fundamental circuits of one pebble game's basis (any basis gives
    the same set), read as :func:`basis_and_redundancy` says: long circuits are read once.

    Returns
    -------
    ndarray of bool, shape (m,)
        ``True`` where removing the edge keeps the generic rank (it is not a coloop).
    """
    return basis_and_redundancy(n, edges)[1]


def redundantly_rigid(n: int, edges: Iterable[Sequence[int]]) -> bool:
    """Whether the graph is generically rigid in the plane after removing any one edge.

    A graph on one vertex counts as redundantly rigid (nothing to remove). On two or
    three vertices a simple graph never is (the edge, or a triangle's edge, is a
    coloop); a repeated edge is a circuit of two, so a doubled edge is.

    >>> redundantly_rigid(4, [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)])
    True
    """
    accepted, covered = basis_and_redundancy(n, edges)  # checks every vertex, whatever n
    if n <= 1:
        return True
    return int(accepted.sum()) == 2 * n - 3 and bool(covered.all())
