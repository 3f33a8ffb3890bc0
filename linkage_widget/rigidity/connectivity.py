r"""Vertex 3-connectivity of a graph, with a separating pair when it fails.

A graph on :math:`n \ge 4` vertices is *3-connected* when no set of at most two vertices
disconnects it (a graph on three or fewer vertices is not, by the usual convention;
global rigidity treats :math:`K_2` and :math:`K_3` apart). A *separating pair*
:math:`\{a, b\}` is two vertices whose removal leaves at least two components.

How it is found. :math:`G` is 3-connected exactly when it is connected, has no cut
vertex, and for every vertex :math:`a` the graph :math:`G - a` has no cut vertex: then
:math:`\{a, b\}` with :math:`b` a cut vertex of :math:`G - a` separates. Cut vertices
are Tarjan's articulation points (one depth-first search, low points, :math:`O(n + m)`),
so the whole test is :math:`O(n (n + m))` — quadratic, not the linear time of
Hopcroft and Tarjan's triconnected components, which we leave undone: this one is short
enough to prove by reading, and is checked against removing every pair (and networkx)
in the tests. A vertex of degree at most two ends it at once (its neighbours separate
it), and so does the first pair found.

When the graph is disconnected or has a cut vertex :math:`c`, the pair returned is
:math:`c` (or a vertex) and one more vertex taken from a component of two or more
vertices (or from one of at least three components), so that it still separates.

>>> separating_pair(4, [(0, 1), (1, 2), (2, 3), (3, 0)])   # the 4-cycle: opposite corners
(1, 3)
>>> separating_pair(4, [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

__all__ = ["components_without", "is_three_connected", "separating_pair"]


def _adjacency(n: int, edges: Iterable[Sequence[int]]) -> list[list[int]]:
    """Neighbour lists of the simple graph (repeats and loops dropped)."""
    sets: list[set[int]] = [set() for _ in range(n)]
    for u, v in edges:
        u, v = int(u), int(v)
        if u != v:
            sets[u].add(v)
            sets[v].add(u)
    return [sorted(s) for s in sets]


def components_without(adj: list[list[int]], removed: Iterable[int]) -> list[list[int]]:
    """Connected components of the graph with the ``removed`` vertices taken out."""
    seen = [False] * len(adj)
    for r in removed:
        seen[r] = True
    parts = []
    for s in range(len(adj)):
        if seen[s]:
            continue
        seen[s] = True
        part, stack = [s], [s]
        while stack:
            for y in adj[stack.pop()]:
                if not seen[y]:
                    seen[y] = True
                    part.append(y)
                    stack.append(y)
        parts.append(part)
    return parts


def _cut_vertex(adj: list[list[int]], skip: int) -> int:
    """An articulation point of the graph minus ``skip`` (assumed connected), or -1.

    Iterative Tarjan: ``low[x]`` is the least discovery time reached from the subtree of
    ``x`` by one back edge; a non-root ``x`` with a child ``c``, ``low[c] >= disc[x]``,
    cuts ``c``'s subtree off; the root cuts when it has two children.
    """
    n = len(adj)
    root = 0 if skip != 0 else 1
    disc = [-1] * n
    low = [0] * n
    if 0 <= skip < n:
        disc[skip] = -2  # never entered
    disc[root] = low[root] = 0
    clock, root_children = 1, 0
    stack = [(root, -1, 0)]
    while stack:
        x, parent, k = stack[-1]
        if k < len(adj[x]):
            stack[-1] = (x, parent, k + 1)
            y = adj[x][k]
            if disc[y] == -1:
                disc[y] = low[y] = clock
                clock += 1
                stack.append((y, x, 0))
            elif disc[y] >= 0 and y != parent:
                low[x] = min(low[x], disc[y])
            continue
        stack.pop()
        if parent < 0:
            continue
        low[parent] = min(low[parent], low[x])
        if parent == root:
            root_children += 1
            if root_children >= 2:
                return root
        elif low[x] >= disc[parent]:
            return parent
    return -1


def _widen(adj: list[list[int]], cut: list[int]) -> tuple[int, int]:
    """Add vertices to a separating set of size 0 or 1 until it has two and still separates."""
    cut = list(cut)
    while len(cut) < 2:
        parts = components_without(adj, cut)
        big = [p for p in parts if len(p) >= 2]
        # a vertex of a component of two or more leaves it non-empty; failing that, the
        # singletons are at least three (n >= 4)
        cut.append(big[0][0] if big else parts[0][0])
    a, b = sorted(cut)
    return a, b


def separating_pair(n: int, edges: Iterable[Sequence[int]]) -> tuple[int, int] | None:
    r"""Two vertices whose removal disconnects the graph, or ``None`` when it is 3-connected.

    Parameters
    ----------
    n : int
        Number of vertices (``n >= 4`` for a pair to exist: with three or fewer, ``None``).
    edges : iterable of (u, v)
        Edges; repeats and loops are ignored.

    Returns
    -------
    tuple of int or None
        ``(a, b)`` with ``a < b`` and :math:`G - \{a, b\}` disconnected; ``None`` when no
        such pair exists.
    """
    if n < 4:
        return None
    adj = _adjacency(n, edges)
    if len(components_without(adj, ())) > 1:
        return _widen(adj, [])
    cut = _cut_vertex(adj, -1)
    if cut >= 0:
        return _widen(adj, [cut])
    low_degree = min(range(n), key=lambda v: len(adj[v]))
    if len(adj[low_degree]) <= 2:  # its neighbours cut it off
        return _widen(adj, adj[low_degree])
    for a in range(n):
        b = _cut_vertex(adj, a)
        if b >= 0:
            return (min(a, b), max(a, b))
    return None


def is_three_connected(n: int, edges: Iterable[Sequence[int]]) -> bool:
    """Whether the graph has at least four vertices and no separating set of two or fewer.

    >>> is_three_connected(3, [(0, 1), (1, 2), (0, 2)])   # K3: too few vertices
    False
    """
    return n >= 4 and separating_pair(n, edges) is None
