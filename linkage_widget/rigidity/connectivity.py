r"""Vertex 3-connectivity of a graph, with a separating pair when it fails.

A graph on :math:`n \ge 4` vertices is *3-connected* when no set of at most two vertices
disconnects it (a graph on three or fewer vertices is not, by the usual convention;
global rigidity treats :math:`K_2` and :math:`K_3` apart). A *separating pair*
:math:`\{a, b\}` is two vertices whose removal leaves at least two components.

How it is found, in time and memory :math:`O(n + m)`. Parallel edges and loops are
dropped first: they never join two components, so the simple graph has the same
separating sets (this stands for Gutwenger and Mutzel's first step, splitting multiple
edges off as bonds). One depth-first search from vertex 0 numbers the vertices
:math:`1, \dots, n` in preorder, makes the palm tree (tree arcs :math:`v \to w`, fronds
:math:`v \hookrightarrow u` to ancestors) and finds a cut vertex if there is one. Write
:math:`D(w)` for the subtree of :math:`w`, :math:`\operatorname{ND}(w) = |D(w)|`, and
:math:`\operatorname{lowpt}_1(w) < \operatorname{lowpt}_2(w)` for the two lowest of
:math:`w` and the heads of fronds out of :math:`D(w)`. If the graph is connected, has no
cut vertex and no vertex of degree two or less, a pair :math:`a < b` separates it iff it
is of one of two types (Hopcroft and Tarjan, *Dividing a graph into triconnected
components*, SIAM J. Comput. 2 (1973), Lemma 13):

* *type 1*: a tree arc :math:`b \to w` with

  .. math:: \operatorname{lowpt}_1(w) = a < b \le \operatorname{lowpt}_2(w),
     \qquad \operatorname{ND}(w) + 2 < n:

  every frond out of :math:`D(w)` lands on :math:`a` or :math:`b`, and a vertex is left
  outside :math:`D(w) \cup \{a, b\}` (Gutwenger and Mutzel test ":math:`b`'s parent is
  not the root, or :math:`b` has an arc left", which implies it before any split);
* *type 2*: :math:`a \to r \to^* b`, :math:`r \ne b`, :math:`a` not the root,
  :math:`b` reached from :math:`r` by first children, every frond
  :math:`x \hookrightarrow y` with :math:`r \le x < b` has :math:`y \ge a`, and every
  frond :math:`x \hookrightarrow y` with :math:`a < y < b` from :math:`D(w)`,
  :math:`b \to w`, has :math:`\operatorname{lowpt}_1(w) \ge a`.

Both are read in the numbering of a second search along arcs sorted (a counting sort,
linear) by

.. math:: \varphi(v \to w) = 3 \operatorname{lowpt}_1(w) + 2\,[\operatorname{lowpt}_2(w)
   \ge v], \qquad \varphi(v \hookrightarrow u) = 3u + 1,

which numbers :math:`w` as :math:`\mathrm{count} - \operatorname{ND}(w) + 1` (:math:`D(w)`
gets :math:`w, \dots, w + \operatorname{ND}(w) - 1`, the first child visited the highest
numbers). The path search (Gutwenger and Mutzel, *A linear time implementation of
SPQR-trees*, Graph Drawing 2000, LNCS 1984 (2001), who corrected Hopcroft and Tarjan's
version) walks the same order keeping the stack TSTACK of triples :math:`(h, a, b)`:
candidate pairs whose stretch between :math:`a` and :math:`b` has highest vertex
:math:`h`. A triple is pushed when a path starts, merged with those it bypasses when a
path reaches below their :math:`a`, dropped when a frond into the current vertex comes
from above :math:`h` (:math:`\mathrm{high}(v)`, the first frond into :math:`v` the
second search met) or when its path is done. A triple with :math:`a = v` when the search
comes back to :math:`v` is a type-2 pair (unless :math:`b` is :math:`a`'s child, which
only their later edits of the graph can make). The first pair found is returned: no
split component is built, so none of those edits (virtual edges, bonds, the edge stack
ESTACK) is needed; the pair is checked by one search of :math:`G - \{a, b\}` on the way
out. Every search is iterative: a depth of :math:`10^5` meets no recursion limit.

When the graph is disconnected or has a cut vertex :math:`c`, the pair returned is
:math:`c` (or a vertex) and one more vertex taken from a component of two or more
vertices (or from one of at least three components), so that it still separates; a
vertex of degree at most two is cut off by its neighbours.

>>> separating_pair(4, [(0, 1), (1, 2), (2, 3), (3, 0)])   # the 4-cycle: opposite corners
(1, 3)
>>> separating_pair(4, [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import accumulate

import numpy as np

__all__ = ["components_without", "is_three_connected", "separating_pair"]

_EOS = (0, -1, 0)  # TSTACK's end-of-stack mark: a = -1 is below every vertex


def _adjacency(n: int, edges: Iterable[Sequence[int]]) -> list[list[int]]:
    """Sorted neighbour lists of the simple graph (repeats and loops dropped).

    ``ValueError`` naming the first edge whose vertex is not an integer in ``0..n-1``.
    """
    rows = edges if isinstance(edges, np.ndarray) else list(edges)
    e = np.asarray(rows) if len(rows) else np.zeros((0, 2), np.int64)
    ok = e.ndim == 2 and e.shape[1] == 2 and e.dtype.kind in "iu"
    bad = np.flatnonzero(((e < 0) | (e >= n)).any(axis=1)) if ok else np.arange(len(rows))
    if bad.size:  # the first bad one, read as given (a float, a string, -1, n)
        for k in bad.tolist():
            u, v = rows[k]
            if not all(isinstance(x, (int, np.integer)) and 0 <= x < n for x in (u, v)):
                raise ValueError(
                    f"edge {k} = ({u!r}, {v!r}): a vertex is not an integer in 0..{n - 1}"
                )
    e = e.astype(np.int64).reshape(-1, 2)
    e = e[e[:, 0] != e[:, 1]]
    arcs = np.unique(np.concatenate([e, e[:, ::-1]]), axis=0)  # sorted by (tail, head)
    cuts = np.searchsorted(arcs[:, 0], np.arange(1, n))
    return [part.tolist() for part in np.split(arcs[:, 1], cuts)]


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


@dataclass
class _PalmTree:
    """The first depth-first search from vertex 0: the palm tree and its low points.

    ``num[v]`` is the preorder number in ``1..n`` (0: not reached; ``order`` lists the
    vertices by it), ``children[v]`` the heads of the tree arcs out of ``v``,
    ``fronds[v]`` the ancestors it has a frond to; ``low1``/``low2``/``nd`` as in the
    module (low points as preorder numbers); ``cut`` a cut vertex (or -1).
    """

    num: list[int]
    parent: list[int]
    order: list[int]
    children: list[list[int]]
    fronds: list[list[int]]
    low1: list[int]
    low2: list[int]
    nd: list[int]
    cut: int


def _palm_tree(adj: list[list[int]]) -> _PalmTree:
    """Depth-first search from vertex 0 (iterative), then the low points bottom-up."""
    n = len(adj)
    num, parent = [0] * n, [-1] * n
    children: list[list[int]] = [[] for _ in range(n)]
    fronds: list[list[int]] = [[] for _ in range(n)]
    num[0], order = 1, [0]
    stack = [(0, iter(adj[0]))]
    while stack:
        v, nbrs = stack[-1]
        nv, pv = num[v], parent[v]
        for y in nbrs:
            if not num[y]:
                order.append(y)
                num[y], parent[y] = len(order), v
                children[v].append(y)
                stack.append((y, iter(adj[y])))
                break
            if num[y] < nv and y != pv:
                fronds[v].append(y)
        else:
            stack.pop()
    palm = _PalmTree(num, parent, order, children, fronds, [0] * n, [0] * n, [1] * n, -1)
    _low_points(palm)
    return palm


def _low_points(palm: _PalmTree) -> None:
    r"""Fill ``low1``, ``low2``, ``nd`` and ``cut``, children before parents.

    :math:`\operatorname{lowpt}_{1,2}(v)` are the two least distinct numbers among
    :math:`v`, its fronds' heads and its children's low points; a non-root :math:`v` with
    a child :math:`c`, :math:`\operatorname{lowpt}_1(c) \ge v`, cuts :math:`D(c)` off,
    and the root cuts when it has two children.
    """
    num, low1, low2, nd = palm.num, palm.low1, palm.low2, palm.nd
    palm.cut = 0 if len(palm.children[0]) > 1 else -1
    for v in reversed(palm.order):
        a = b = num[v]
        for y in palm.fronds[v]:
            u = num[y]
            if u < a:
                a, b = u, a
            elif a < u < b:
                b = u
        for c in palm.children[v]:
            nd[v] += nd[c]
            for u in (low1[c], low2[c]):
                if u < a:
                    a, b = u, a
                elif a < u < b:
                    b = u
            if low1[c] >= num[v] and v != 0:
                palm.cut = v
        low1[v], low2[v] = a, b


def _ordered_arcs(palm: _PalmTree) -> list[list[int]]:
    r"""Each vertex's outgoing arcs (their heads), sorted by :math:`\varphi`.

    A counting sort over the keys :math:`0 \dots 3n + 2`: linear, and on flat lists of
    integers (one list per key would cost more than the sort).
    """
    num, low1, low2 = palm.num, palm.low1, palm.low2
    tails, heads, keys = [], [], []
    for v in palm.order:
        nv = num[v]
        for w in palm.children[v]:
            tails.append(v)
            heads.append(w)
            keys.append(3 * low1[w] + (2 if low2[w] >= nv else 0))
        for u in palm.fronds[v]:
            tails.append(v)
            heads.append(u)
            keys.append(3 * num[u] + 1)
    start = [0] * (3 * len(num) + 4)
    for k in keys:
        start[k + 1] += 1
    start = list(accumulate(start))
    ranked = [0] * len(keys)
    for i, k in enumerate(keys):
        ranked[start[k]] = i
        start[k] += 1
    out: list[list[int]] = [[] for _ in num]
    for i in ranked:
        out[tails[i]].append(heads[i])
    return out


@dataclass
class _Numbers:
    """The second search's numbering (new numbers ``1..n``, the root is 1).

    ``newnum[v]`` and ``node_at[k]`` translate vertices and new numbers; ``low1``/``low2``
    are the low points in new numbers (they are ancestors: the order is kept);
    ``high[v]`` is the new number of the first frond's tail into ``v`` (0 if none).
    """

    newnum: list[int]
    node_at: list[int]
    parent: list[int]
    nd: list[int]
    low1: list[int]
    low2: list[int]
    high: list[int]


def _number_paths(out: list[list[int]], palm: _PalmTree) -> _Numbers:
    """The second search, in the order of ``out``: new numbers and high points."""
    n = len(out)
    parent, nd = palm.parent, palm.nd
    newnum, high = [0] * n, [0] * n
    count = n
    newnum[0] = 1
    stack = [(0, iter(out[0]))]
    while stack:
        v, arcs = stack[-1]
        for w in arcs:
            if parent[w] == v:
                newnum[w] = count - nd[w] + 1  # D(w) gets the top nd(w) numbers left
                stack.append((w, iter(out[w])))
                break
            if not high[w]:
                high[w] = newnum[v]
        else:
            stack.pop()
            count -= 1  # the subtree of v is numbered: its next sibling goes below it
    node_at, by_old = [0] * (n + 1), [0] * (n + 1)
    for v, k in enumerate(newnum):
        node_at[k] = v
        by_old[palm.num[v]] = k
    low1 = [by_old[k] for k in palm.low1]
    low2 = [by_old[k] for k in palm.low2]
    return _Numbers(newnum, node_at, parent, nd, low1, low2, high)


def _open_path(tstack: list[tuple[int, int, int]], h: int, a: int, b: int) -> None:
    """A path starts down to ``a``: merge the triples it bypasses (theirs above ``a``)."""
    while tstack[-1][1] > a:
        h_top, _, b = tstack.pop()
        h = max(h, h_top)
    tstack.append((h, a, b))


def _pair_on_return(
    tstack: list[tuple[int, int, int]], v: int, w: int, numbers: _Numbers
) -> tuple[int, int] | None:
    r"""The checks on the way back over the tree arc ``v -> w``, as vertices.

    A type-2 pair: a triple with :math:`a = v` whose :math:`b` is not :math:`a`'s child;
    then a type-1 pair :math:`\operatorname{lowpt}_1(w) < v \le
    \operatorname{lowpt}_2(w)` with something outside :math:`D(w)` and the pair.
    """
    vnum, node_at, parent = numbers.newnum[v], numbers.node_at, numbers.parent
    while vnum != 1 and tstack[-1][1] == vnum:
        _, a, b = tstack[-1]
        if parent[node_at[b]] != node_at[a]:
            return node_at[a], node_at[b]
        tstack.pop()  # b is a's child: G&M drop it (met only after splits they make)
    low1 = numbers.low1[w]
    if low1 < vnum <= numbers.low2[w] and numbers.nd[w] + 2 < len(parent):
        return node_at[low1], v
    return None


def _path_search(out: list[list[int]], numbers: _Numbers) -> tuple[int, int] | None:
    """Hopcroft–Tarjan's path search (Gutwenger–Mutzel's form) up to the first pair."""
    newnum, parent, nd, low1 = numbers.newnum, numbers.parent, numbers.nd, numbers.low1
    tstack = [_EOS]
    starts_path = [False] * len(out)  # the tree arc into w starts a path
    new_path = True
    stack = [(0, iter(out[0]))]
    while stack:
        v, arcs = stack[-1]
        vnum = newnum[v]
        for w in arcs:
            starts, new_path = new_path, False
            if parent[w] == v:
                if starts:
                    _open_path(tstack, newnum[w] + nd[w] - 1, low1[w], vnum)
                    tstack.append(_EOS)
                starts_path[w] = starts
                stack.append((w, iter(out[w])))
                break
            if starts:
                _open_path(tstack, vnum, newnum[w], vnum)
            new_path = True  # a frond ends the path: the next arc starts one
        else:
            stack.pop()
            if not stack:
                return None
            pair = _after_child(tstack, parent[v], v, numbers, starts_path[v])
            if pair is not None:
                return pair
    return None


def _after_child(
    tstack: list[tuple[int, int, int]], v: int, w: int, numbers: _Numbers, starts: bool
) -> tuple[int, int] | None:
    """Back over ``v -> w``: look for a pair, then drop the triples that cannot be one."""
    pair = _pair_on_return(tstack, v, w, numbers)
    if pair is not None:
        return (pair[0], pair[1]) if pair[0] < pair[1] else (pair[1], pair[0])
    if starts:  # the path that began with v -> w is done: drop its triples
        while tstack.pop() is not _EOS:
            pass
    vnum, high = numbers.newnum[v], numbers.high[v]
    while tstack[-1] is not _EOS and tstack[-1][2] != vnum and high > tstack[-1][0]:
        tstack.pop()  # a frond into v comes from above h: the stretch is not cut off
    return None


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

    Time and memory :math:`O(n + m)` (see the module: Hopcroft–Tarjan's path search as
    Gutwenger and Mutzel lay it out); no recursion.

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

    Raises
    ------
    RuntimeError
        If the pair the path search found does not separate (a bug, never expected).
    """
    adj = _adjacency(n, edges)  # checks every vertex, whatever n
    if n < 4:
        return None
    palm = _palm_tree(adj)
    if len(palm.order) < n:
        return _widen(adj, [])
    if palm.cut >= 0:
        return _widen(adj, [palm.cut])
    low_degree = min(range(n), key=lambda v: len(adj[v]))
    if len(adj[low_degree]) <= 2:  # its neighbours cut it off
        return _widen(adj, adj[low_degree])
    out = _ordered_arcs(palm)
    pair = _path_search(out, _number_paths(out, palm))
    if pair is not None and len(components_without(adj, pair)) < 2:
        raise RuntimeError(f"separating_pair: {pair} was found but does not separate (a bug)")
    return pair


def is_three_connected(n: int, edges: Iterable[Sequence[int]]) -> bool:
    """Whether the graph has at least four vertices and no separating set of two or fewer.

    >>> is_three_connected(3, [(0, 1), (1, 2), (0, 2)])   # K3: too few vertices
    False
    """
    return n >= 4 and separating_pair(n, edges) is None
