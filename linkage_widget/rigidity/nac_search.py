r"""The graph work behind NAC-colourings: blocks, mono classes and the search.

Pure graph code on vertex indices and an ``(m, 2)`` edge array; :mod:`.nac` is the
face that reads a linkage and states the results.

The test every step relies on (Grasegger, Legerský and Schicho 2019, the lemma behind
their definition): a red/blue colouring :math:`\delta` has a cycle with exactly one
edge of some colour iff some edge has its endpoints joined by a path of the other
colour. So :math:`\delta` meets the cycle condition iff

.. math:: \text{no edge } uv \text{ has } u \sim_{\text{red}} v
          \text{ and } u \sim_{\text{blue}} v ,

:math:`\sim_c` being "joined by a path of colour :math:`c`" (the edge's own colour
joins its endpoints, so the other one must not). The search keeps the two relations
as component labels and checks this for all edges at once after each step.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator

import numpy as np

__all__ = ["blocks", "mono_classes", "SearchLimit", "Search"]


def _adjacency(n: int, edges: np.ndarray) -> list[list[tuple[int, int]]]:
    adj: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for e, (u, v) in enumerate(edges.tolist()):
        adj[u].append((v, e))
        adj[v].append((u, e))
    return adj


def blocks(n: int, edges: np.ndarray) -> np.ndarray:
    """The block (2-connected component, or bridge) of every edge, ``(m,)`` int.

    Hopcroft–Tarjan with an explicit stack (no recursion limit). Every cycle lies in
    one block, so the cycle condition is a condition on each block alone.
    """
    adj = _adjacency(n, edges)
    disc, low = [-1] * n, [0] * n
    block = np.full(len(edges), -1, dtype=np.int64)
    pending: list[int] = []
    clock = count = 0
    for root in range(n):
        if disc[root] >= 0:
            continue
        disc[root] = low[root] = clock
        clock += 1
        stack = [(root, -1, iter(adj[root]))]
        while stack:
            v, parent_edge, neighbours = stack[-1]
            for w, e in neighbours:
                if e == parent_edge:
                    continue
                if disc[w] < 0:
                    pending.append(e)
                    disc[w] = low[w] = clock
                    clock += 1
                    stack.append((w, e, iter(adj[w])))
                    break
                if disc[w] < disc[v]:  # a back edge to an ancestor, seen from below once
                    pending.append(e)
                    low[v] = min(low[v], disc[w])
            else:
                stack.pop()
                if stack:
                    u = stack[-1][0]
                    low[u] = min(low[u], low[v])
                    if low[v] >= disc[u]:  # u separates v's subtree: a block ends
                        while (f := pending.pop()) != parent_edge:
                            block[f] = count
                        block[parent_edge] = count
                        count += 1
    return block


class _EdgeUnion:
    """Union–find over edges (path halving), for the classes."""

    def __init__(self, m: int) -> None:
        self.parent = list(range(m))

    def find(self, e: int) -> int:
        parent = self.parent
        while parent[e] != e:
            parent[e] = parent[parent[e]]
            e = parent[e]
        return e

    def union(self, e: int, f: int) -> bool:
        a, b = self.find(e), self.find(f)
        if a != b:
            self.parent[max(a, b)] = min(a, b)
        return a != b


def _triangle_unions(n: int, edges: np.ndarray, union: _EdgeUnion) -> None:
    # the two other edges of every triangle on an edge join its class
    index = [dict() for _ in range(n)]
    for e, (u, v) in enumerate(edges.tolist()):
        index[u][v] = e
        index[v][u] = e
    for e, (u, v) in enumerate(edges.tolist()):
        small, large = (u, v) if len(index[u]) <= len(index[v]) else (v, u)
        for w, f in index[small].items():
            g = index[large].get(w)
            if g is not None:
                union.union(e, f)
                union.union(e, g)


def _extension_pass(n: int, edges: np.ndarray, union: _EdgeUnion) -> bool:
    # an edge whose two ends lie on one class closes a cycle with a path of that class:
    # one colour with it (else that cycle has one edge of its colour)
    classes_at: list[set[int]] = [set() for _ in range(n)]
    pairs = edges.tolist()
    for e, (u, v) in enumerate(pairs):
        c = union.find(e)
        classes_at[u].add(c)
        classes_at[v].add(c)
    merged = False
    for e, (u, v) in enumerate(pairs):
        for c in classes_at[u] & classes_at[v]:
            merged |= union.union(e, c)
    return merged


def mono_classes(n: int, edges: np.ndarray) -> np.ndarray:
    """The triangle-extended class of every edge, ``(m,)`` int, numbered from 0 in order.

    Two edges of a triangle have one colour in every NAC-colouring (a triangle with two
    colours has one edge of one of them); so have an edge and a class holding a path
    between its ends. Classes are closed under both rules (PyRigi's "triangle-extended
    classes"); every NAC-colouring is constant on each.
    """
    union = _EdgeUnion(len(edges))
    _triangle_unions(n, edges, union)
    while _extension_pass(n, edges, union):
        pass
    roots = np.array([union.find(e) for e in range(len(edges))], dtype=np.int64)
    return np.unique(roots, return_inverse=True)[1].reshape(-1)


class SearchLimit(Exception):
    """The search took more steps than it was allowed (caught by :mod:`.nac`)."""

    def __init__(self, steps: int, found: int) -> None:
        super().__init__(steps, found)
        self.steps, self.found = steps, found


def _class_order(edges: np.ndarray, edge_class: np.ndarray, k: int) -> list[int]:
    # classes touching the vertices already covered first: cycles close early, so a
    # wrong choice is found near the top of the tree, not deep below it
    classes_at: dict[int, set[int]] = {}
    verts: list[set[int]] = [set() for _ in range(k)]
    for (u, v), c in zip(edges.tolist(), edge_class.tolist(), strict=True):
        verts[c].update((u, v))
        classes_at.setdefault(u, set()).add(c)
        classes_at.setdefault(v, set()).add(c)
    score, order, done = [0] * k, [], [False] * k
    heap, covered = [(0, 0)], set()
    while heap:
        _, c = heapq.heappop(heap)
        if done[c]:
            continue
        done[c] = True
        order.append(c)
        for x in verts[c] - covered:
            covered.add(x)
            for d in classes_at[x]:
                if not done[d]:
                    score[d] += 1
                    heapq.heappush(heap, (-score[d], d))
        if not heap and len(order) < k:  # a block is connected; kept for safety
            heapq.heappush(heap, (0, done.index(False)))
    return order


class Search:
    """Depth-first search over the colourings of one block's classes (red 1, blue 0).

    The state is, per colour, a component label of every vertex (joined by a path of
    that colour) with each label's members, and the colour of every class (-1 while
    free). Labels merge smaller into larger, and only the rods at moved vertices can
    change the condition of the module docstring, so only they are checked: a rod of
    the other colour whose ends are now joined is a conflict, a free one must take
    this colour (its class is forced). Every change goes on a trail, so going back is
    undoing it.

    Parameters
    ----------
    n : int
        Vertices ``0..n-1``.
    edges : (m, 2) int array
        The block's edges.
    edge_class : (m,) int array
        Each edge's class, ``0..k-1`` (:func:`mono_classes`).
    max_steps : int
        Choices tried before :class:`SearchLimit` is raised.
    """

    def __init__(self, n: int, edges: np.ndarray, edge_class: np.ndarray, max_steps: int) -> None:
        k = int(edge_class.max()) + 1
        self.ends, self.cls = edges.tolist(), edge_class.tolist()
        self.class_edges: list[list[int]] = [[] for _ in range(k)]
        self.incident: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        for e, ((u, v), c) in enumerate(zip(self.ends, self.cls, strict=True)):
            self.class_edges[c].append(e)
            self.incident[u].append((v, e))
            self.incident[v].append((u, e))
        self.label = [list(range(n)), list(range(n))]
        self.members = [[[x] for x in range(n)], [[x] for x in range(n)]]
        self.colour = [-1] * k
        self.order = _class_order(edges, edge_class, k)
        self.trail: list[tuple[int, int, int]] = []
        self.max_steps, self.steps, self.found = max_steps, 0, 0

    def _join(self, colour: int, a: int, b: int, forced: list[tuple[int, int]]) -> bool:
        lab, mem = self.label[colour], self.members[colour]
        small, large = lab[a], lab[b]
        if small == large:
            return True
        if len(mem[small]) > len(mem[large]):
            small, large = large, small
        moved = mem[small]
        for x in moved:
            lab[x] = large
        mem[large].extend(moved)
        self.trail.append((colour, small, large))
        other = self.label[1 - colour]
        for x in moved:
            for y, e in self.incident[x]:
                if lab[y] != large or self.colour[self.cls[e]] == colour:
                    continue
                if self.colour[self.cls[e]] >= 0 or other[x] == other[y]:
                    return False
                forced.append((self.cls[e], colour))
        return True

    def _assign(self, c: int, colour: int, forced: list[tuple[int, int]]) -> bool:
        self.colour[c] = colour
        self.trail.append((-1, c, 0))
        other = self.label[1 - colour]
        for e in self.class_edges[c]:
            u, v = self.ends[e]
            if other[u] == other[v]:
                return False
        return all(self._join(colour, *self.ends[e], forced) for e in self.class_edges[c])

    def _undo(self, mark: int) -> None:
        while len(self.trail) > mark:
            colour, small, large = self.trail.pop()
            if colour < 0:
                self.colour[small] = -1
                continue
            lab, mem = self.label[colour], self.members[colour]
            moved = mem[small]
            del mem[large][len(mem[large]) - len(moved) :]
            for x in moved:
                lab[x] = small

    def _try(self, c: int, colour: int) -> bool:
        """Colour class ``c`` and all it forces; False on a conflict (undo is the caller's)."""
        self.steps += 1
        if self.steps > self.max_steps:
            raise SearchLimit(self.steps - 1, self.found)
        forced = [(c, colour)]
        while forced:
            d, want = forced.pop()
            if self.colour[d] == want:
                continue
            if self.colour[d] >= 0 or not self._assign(d, want, forced):
                return False
        return True

    def _next_free(self, start: int) -> int | None:
        """The position in ``order`` of the first free class from ``start`` on."""
        for i in range(start, len(self.order)):
            if self.colour[self.order[i]] < 0:
                return i
        return None

    def colourings(self, *, red_first: bool = False) -> Iterator[np.ndarray]:
        """Each colouring of the classes, bool ``(k,)`` (True red), the first class blue."""
        self._try(self.order[0], 0)  # nothing can be forced both ways yet
        first = self._next_free(1)
        choices = [0, 1] if red_first else [1, 0]  # popped from the end
        stack = [(len(self.trail), first, list(choices))] if first is not None else []
        if first is None:
            self.found += 1
            yield np.array(self.colour, dtype=bool)
        while stack:
            mark, at, todo = stack[-1]
            self._undo(mark)
            if not todo:
                stack.pop()
                continue
            if not self._try(self.order[at], todo.pop()):
                continue
            nxt = self._next_free(at + 1)
            if nxt is None:
                self.found += 1
                yield np.array(self.colour, dtype=bool)
            else:
                stack.append((len(self.trail), nxt, list(choices)))
