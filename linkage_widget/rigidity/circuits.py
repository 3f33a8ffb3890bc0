r"""Fundamental circuits of the planar rigidity matroid, and redundant rigidity, by one pebble game.

A graph is *redundantly rigid* when it stays rigid after the removal of any one edge:
it is rigid and every edge lies in a circuit of the generic rigidity matroid (no edge is
a coloop). The union of all circuits is the union of the *fundamental* circuits of any
basis: so one pebble game (:mod:`.pebble`), which picks a basis, decides it, with no
game replayed per edge.

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
in the final basis. The work is the size of the circuits, which can be long: on a braced
grid whose rods come in row order some span the whole grid (about ``n`` per rejected rod,
see docs/benchmarks.md).

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

__all__ = ["fundamental_circuits", "redundant_edges", "redundantly_rigid"]


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


def redundant_edges(n: int, edges: Iterable[Sequence[int]]) -> np.ndarray:
    """Whether each edge lies in a circuit of the generic planar rigidity matroid.

    Returns
    -------
    ndarray of bool, shape (m,)
        ``True`` where removing the edge keeps the generic rank (it is not a coloop).
    """
    edge_list = [(int(u), int(v)) for u, v in edges]
    _, circuits = fundamental_circuits(n, edge_list)
    covered = np.zeros(len(edge_list), bool)
    for circuit in circuits:
        covered[circuit] = True
    return covered


def redundantly_rigid(n: int, edges: Iterable[Sequence[int]]) -> bool:
    """Whether the graph is generically rigid in the plane after removing any one edge.

    A graph on one vertex counts as redundantly rigid (nothing to remove); on two or
    three vertices no graph is (the edge, or a triangle's edge, is a coloop).

    >>> redundantly_rigid(4, [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)])
    True
    """
    edge_list = [(int(u), int(v)) for u, v in edges]
    if n <= 1:
        return True
    accepted, circuits = fundamental_circuits(n, edge_list)
    if int(accepted.sum()) < 2 * n - 3:
        return False
    covered = np.zeros(len(edge_list), bool)
    for circuit in circuits:
        covered[circuit] = True
    return bool(covered.all())
