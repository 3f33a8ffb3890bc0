r"""The (2, 3) pebble game and its rigid clusters on arrays, compiled by numba when it imports.

The same game as :mod:`.pebble` (Jacobs and Hendrickson, 1997), with no Python object
in its loops. In the plane a vertex's two pebbles are each either free or cover one of
its out-edges, so

.. math:: \text{pebbles}(v) + \text{outdeg}(v) = 2

at every moment: the directed pebble graph fits in two slots a vertex (heads, ``-1``
an empty slot, which holds a free pebble). Reversing a path :math:`s \to x_1 \to \dots
\to y` rewrites one slot per vertex in place: every step is :math:`O(1)`, with no
list to grow or search. The searches are iterative depth-first searches with a *visit
stamp* (a vertex is seen when its stamp equals the search's number), so no array is
cleared between searches.

The accepted edges are the greedy basis of the generic rigidity matroid in the given
order, which does not depend on how pebbles were moved: the compiled game accepts
exactly the edges the pure-Python game does (tested on thousands of graphs).

Rigid clusters (Jacobs and Hendrickson's decomposition, :mod:`.rigid_clusters`): take
an accepted edge :math:`ab` not yet in a cluster and hold three pebbles on :math:`a, b`. A vertex
:math:`w` is rigid with :math:`ab` exactly when no fourth pebble reaches it; then every
vertex the failed search saw is rigid too (with :math:`a, b` they span a tight set:
:math:`2|X| - 3` edges, no edge leaving it), so one search decides many. The cluster
grows from :math:`a, b` along accepted edges; every edge with both ends in it (redundant
ones too) is labelled with it. Clusters are numbered by their first edge.

numba is an optional extra (``pip install linkage_widget[fast]``). It is imported on
the first call that asks for the compiled path, never at import time (it takes
~0.6 s); the kernels are compiled once and cached on disk (``cache=True``).
``LINKAGE_WIDGET_PURE_PEBBLE=1`` in the environment keeps every call on the
pure-Python game.
"""

from __future__ import annotations

import functools
import os

import numpy as np

from ._pebble_arrays import edge_arrays, incidence, numbered_by

__all__ = ["FastGame", "compiled_available", "use_compiled"]

#: Below this many edges the pure-Python game is used even when numba imports. Measured
#: (docs/benchmarks.md): Python plays ~10-17 µs an edge, the compiled game ~1-2 µs with
#: the list-to-array conversion; but the first compiled call of a process costs ~0.9 s
#: (numba's import, the cached kernels' load; minutes-old cache: no compile). At 20 000
#: edges Python takes ~0.3 s: a linkage of a few thousand joints never pays numba's
#: start, a lattice or a huge tiling pays it once and then runs 7-30x faster.
COMPILED_MIN_EDGES = 20_000

#: Vertices a game takes: the records are int32, and cluster numbers reach 2n - 3.
MAX_VERTICES = 2**30

#: Columns of the per-vertex record (int32: two vertices a 64-byte cache line): the two
#: out-slots (heads, ``-1`` empty), free pebbles, the visit stamp, the parent in the search, and
#: the cluster number the vertex was last found rigid or floppy with, and the last tight
#: set a failed search found it in (:func:`_try_edge`).
_OUT0, _OUT1, _PEB, _SEEN, _PARENT, _RIGID, _FLOPPY, _TIGHT = range(8)
#: Rows of the list array (indexed by position, not by vertex): the search's stack, the
#: vertices a search saw, the cluster's queue.
_STACK, _SAW, _QUEUE = range(3)
#: The records are int32 (32 bytes a vertex: at 10^6 sites and more the searches wait on
#: memory, so half the bytes is ~10% less time, and half the memory at 10^7 sites); the
#: stamps, which count searches, start again from 0 here, all marks cleared.
_STAMP_LIMIT = 2**31 - 1
#: The cluster number of a plain search: no vertex is marked with it (marks start at -1).
_NO_CLUSTER = -2


def _find(start, a, b, V, lists, stamp, c):
    """Move a free pebble to ``start`` along a directed path avoiding ``a``, ``b``.

    Returns the number of vertices seen, or ``-(seen + 1)`` when a pebble was found. A probe of
    cluster ``c >= 0`` (:func:`_grow`) moves nothing: it asks whether ``start`` reaches a
    free pebble, and stops at a vertex marked floppy with ``c`` (one that does: nothing
    moves while a cluster grows, so the marks stay true); vertices marked rigid with
    ``c`` are not entered (no pebble is reachable from them).
    """
    stack, saw = lists[_STACK], lists[_SAW]
    V[a, _SEEN] = stamp
    V[b, _SEEN] = stamp
    V[start, _SEEN] = stamp
    V[start, _PARENT] = -1
    stack[0] = start
    top = 1
    count = 0
    while top > 0:
        top -= 1
        x = stack[top]
        for s in range(2):
            y = V[x, s]
            if y < 0 or V[y, _SEEN] == stamp or V[y, _RIGID] == c:
                continue
            V[y, _SEEN] = stamp
            V[y, _PARENT] = x
            saw[count] = y
            count += 1
            if V[y, _PEB] > 0 or V[y, _FLOPPY] == c:  # never for c = _NO_CLUSTER
                if c == _NO_CLUSTER:
                    _reverse(start, y, V)
                return -count - 1
            stack[top] = y
            top += 1
    return count


def _stamp(V, counter):
    """A new search's number: the visit stamp and tight-set label (:data:`_STAMP_LIMIT`)."""
    counter[2] += 1
    counter[0] += 1
    if counter[0] >= _STAMP_LIMIT:
        V[:, _SEEN] = -1
        V[:, _TIGHT] = -1  # tight marks only save searches: cleared, none is wrong
        counter[0] = 0
    return counter[0]


def _reverse(start, y, V):
    """Reverse the path ``start -> ... -> y``: ``y``'s free pebble ends on ``start``."""
    V[y, _PEB] -= 1
    head = -1  # the new head of the slot rewritten at y: its parent
    while y != start:
        x = V[y, _PARENT]
        for s in range(2):  # y: the slot that pointed to its successor (or an empty one)
            if V[y, s] == head:
                V[y, s] = x
                break
        head = y
        y = x
    for s in range(2):
        if V[start, s] == head:
            V[start, s] = -1
            break
    V[start, _PEB] += 1


def _try_edge(u, v, V, lists, counter):
    """Accept ``u-v`` if four pebbles can be gathered on its ends (the pure game's rule).

    A failed search with the other end holding two pebbles leaves a tight set
    :math:`X` (no free pebble but three on the ends, no edge leaving: :math:`2|X| - 3`
    edges, rigid); its vertices are marked with it. Adding edges never makes a rigid set
    flexible, so a later edge with both ends marked with one set is redundant at once, with
    no search: the same answer, without sweeping the region again.
    """
    if u == v or (V[u, _TIGHT] >= 0 and V[u, _TIGHT] == V[v, _TIGHT]):
        return False
    for end in (u, v):
        while V[end, _PEB] < 2:
            seen = _find(end, u, v, V, lists, _stamp(V, counter), _NO_CLUSTER)
            counter[1] += abs(seen)
            if seen >= 0:
                if V[u + v - end, _PEB] == 2:
                    _mark_tight(u, v, seen, V, lists, counter[0])
                return False
    V[u, _PEB] -= 1
    for s in range(2):
        if V[u, s] < 0:
            V[u, s] = v
            break
    return True


def _mark_tight(u, v, seen, V, lists, label):
    """Mark ``u``, ``v`` and the ``seen`` vertices a failed search saw with ``label``."""
    saw = lists[_SAW]
    V[u, _TIGHT] = label
    V[v, _TIGHT] = label
    for j in range(seen):
        V[saw[j], _TIGHT] = label


def _play(eu, ev, V, lists, counter, accepted):
    """Play the edges in order; ``accepted[k]`` is set for the independent ones."""
    for k in range(eu.shape[0]):
        accepted[k] = _try_edge(eu[k], ev[k], V, lists, counter)


def _hold_three(a, b, V, lists, counter):
    """Bring three pebbles to ``a`` and ``b`` (always possible on an edge's ends)."""
    while V[a, _PEB] + V[b, _PEB] < 3:
        moved = False
        for end in (a, b):
            if V[end, _PEB] < 2:
                if _find(end, a, b, V, lists, _stamp(V, counter), _NO_CLUSTER) < 0:
                    moved = True
        if not moved:
            return


def _grow(a, b, c, adj, labels, V, lists, counter):
    """Mark with ``c`` every vertex rigid with the edge ``ab``; returns how many.

    ``adj`` is :func:`incidence`'s ``(ptr, edge, to)``; the vertices are left in the
    queue row of ``lists``. ``labels``: ``-2`` a rejected edge (not followed), ``-1`` an
    accepted one in no cluster yet, else its cluster's number.

    An edge ``xw`` from the cluster already in an earlier cluster says ``w`` is not
    in this one with no search: an edge with both ends in a cluster is in it, and the
    clusters partition the edges.
    """
    adj_ptr, adj_edge, adj_to = adj
    queue, saw = lists[_QUEUE], lists[_SAW]
    V[a, _RIGID] = c
    V[b, _RIGID] = c
    queue[0] = a
    queue[1] = b
    size = 2
    head = 0
    while head < size:
        x = queue[head]
        head += 1
        for i in range(adj_ptr[x], adj_ptr[x + 1]):
            w = adj_to[i]
            if labels[adj_edge[i]] == -2 or V[w, _RIGID] == c or V[w, _FLOPPY] == c:
                continue
            if labels[adj_edge[i]] >= 0:
                V[w, _FLOPPY] = c
                continue
            seen = -1 if V[w, _PEB] > 0 else _find(w, a, b, V, lists, _stamp(V, counter), c)
            counter[1] += abs(seen)
            if seen < 0:
                V[w, _FLOPPY] = c
                # every vertex on the path found leads to the free pebble: floppy too
                if seen < -1:
                    y = saw[-seen - 2]
                    while y != w:
                        V[y, _FLOPPY] = c
                        y = V[y, _PARENT]
                continue
            V[w, _RIGID] = c
            queue[size] = w
            size += 1
            for j in range(seen):
                if V[saw[j], _RIGID] != c:
                    V[saw[j], _RIGID] = c
                    queue[size] = saw[j]
                    size += 1
    return size


def _clusters(starts, eu, ev, accepted, adj, V, lists, counter):
    """Label the clusters of the edges ``starts`` (in order) on every edge they hold."""
    labels = np.where(accepted, -1, -2)  # -2: rejected, in no cluster yet (see _grow)
    adj_ptr, adj_edge, adj_to = adj
    queue = lists[_QUEUE]
    c = 0
    for k in starts:
        if labels[k] != -1:
            continue
        a, b = eu[k], ev[k]
        _hold_three(a, b, V, lists, counter)
        size = _grow(a, b, c, adj, labels, V, lists, counter)
        for q in range(size):
            x = queue[q]
            for i in range(adj_ptr[x], adj_ptr[x + 1]):
                if V[adj_to[i], _RIGID] == c and labels[adj_edge[i]] < 0:
                    labels[adj_edge[i]] = c
        c += 1
    return np.maximum(labels, -1), c


def _reach_marked(u, v, label, V, lists):
    """Mark with ``label`` the vertices reachable from ``u``, ``v``; how many.

    They are left in the queue row of ``lists``.
    """
    stack, found = lists[_STACK], lists[_QUEUE]
    V[u, _TIGHT] = label
    V[v, _TIGHT] = label
    stack[0] = u
    stack[1] = v
    found[0] = u
    found[1] = v
    top = 2
    size = 2
    while top > 0:
        top -= 1
        x = stack[top]
        for s in range(2):
            y = V[x, s]
            if y >= 0 and V[y, _TIGHT] != label:
                V[y, _TIGHT] = label
                stack[top] = y
                top += 1
                found[size] = y
                size += 1
    return size


def _cover(order, eu, ev, accepted, adj, V, lists, counter, covered):
    """Mark ``covered`` the edges of the fundamental circuits of the rejected ``order``.

    The game must be over (every edge played) and the tight marks cleared. For a
    rejected edge ``uv`` whose ends no circuit's vertex set read before holds: hold three
    pebbles on ``u, v``; the vertices reachable from them are its circuit's vertex set (the
    least tight set on ``u, v``, :mod:`.circuits`), and every accepted edge inside it is
    in that circuit. An edge with both ends in a set read before has its circuit inside
    that set (least tight sets nest), whose edges are covered already; a vertex keeps
    the last set it was found in. Once every accepted edge is covered the rest are
    rejected edges (each in its own circuit): no more reading. The marks stay valid
    tight sets for later play (fresh stamps).
    """
    adj_ptr, adj_edge, adj_to = adj
    found = lists[_QUEUE]
    open_at = np.zeros(V.shape[0], np.int64)  # accepted edges at a vertex not yet covered
    for k in np.flatnonzero(accepted):
        open_at[eu[k]] += 1
        open_at[ev[k]] += 1
    left = int(accepted.sum())
    covered[order] = True
    for k in order:
        u, v = eu[k], ev[k]
        if left == 0 or u == v or (V[u, _TIGHT] >= 0 and V[u, _TIGHT] == V[v, _TIGHT]):
            continue
        _hold_three(u, v, V, lists, counter)
        label = _stamp(V, counter)
        size = _reach_marked(u, v, label, V, lists)
        counter[1] += size
        for x in found[:size]:
            for i in range(adj_ptr[x], adj_ptr[x + 1]) if open_at[x] else range(0):
                e = adj_edge[i]
                if accepted[e] and not covered[e] and V[adj_to[i], _TIGHT] == label:
                    covered[e] = True
                    open_at[eu[e]] -= 1
                    open_at[ev[e]] -= 1
                    left -= 1


_KERNELS = (
    "_stamp", "_reverse", "_find", "_mark_tight", "_try_edge", "_play", "_hold_three", "_grow",
    "_clusters", "_reach_marked", "_cover",
)  # fmt: skip
#: The kernels as Python functions (what numba compiles; a failed compile puts them back).
_PYTHON = {name: globals()[name] for name in _KERNELS}


def compiled_available() -> bool:
    """Whether numba imports here (the ``fast`` extra) and the environment allows it."""
    if os.environ.get("LINKAGE_WIDGET_PURE_PEBBLE", "") not in ("", "0"):
        return False
    return _compile()


@functools.cache
def _compile() -> bool:
    """Replace each kernel by its numba dispatcher; ``False`` without a working numba.

    A triangle is played and decomposed once, so a numba that imports but cannot compile
    (a numpy it does not support) leaves the pure-Python game in charge, not an error.
    """
    try:
        import numba
    except ImportError:
        return False
    for name in _KERNELS:
        globals()[name] = numba.njit(cache=True, nogil=True)(_PYTHON[name])
    try:
        eu, ev = np.array([0, 1, 0]), np.array([1, 2, 2])
        state = np.full((3, 8), -1, np.int32)
        state[:, _PEB] = 2
        lists, counter = np.zeros((3, 3), np.int32), np.zeros(3, np.int64)
        accepted = np.zeros(3, bool)
        _play(eu, ev, state, lists, counter, accepted)
        _clusters(np.arange(3), eu, ev, accepted, incidence(3, eu, ev), state, lists, counter)
        state[:, _TIGHT] = -1
        _cover(np.zeros(0, np.int64), eu, ev, accepted, incidence(3, eu, ev), state, lists,
               counter, np.zeros(3, bool))  # fmt: skip
    except Exception:  # whatever numba raises here means: no compiled path
        globals().update(_PYTHON)
        return False
    return True


def use_compiled(compiled: bool | None, m: int) -> bool:
    """Whether a call with ``m`` edges takes the compiled path.

    ``compiled=None`` decides by size (:data:`COMPILED_MIN_EDGES`) and availability;
    ``False`` forces the pure-Python game; ``True`` asks for the compiled one, an error
    when numba is not installed.
    """
    if compiled is None:
        return m >= COMPILED_MIN_EDGES and compiled_available()
    if compiled and not compiled_available():
        raise ImportError(
            "compiled=True: the compiled pebble game needs numba "
            "(pip install linkage_widget[fast]) and LINKAGE_WIDGET_PURE_PEBBLE unset"
        )
    return bool(compiled)


class FastGame:
    """A compiled pebble game kept between calls: play edges in batches, then decompose.

    The state is arrays only: a record of 8 int32 a vertex (its out-slots, pebbles
    and search marks, half a cache line) and three position-indexed lists; :meth:`copy`
    is a snapshot (for bisection over an edge order). Needs numba.

    >>> game = FastGame(4)
    >>> game.play([(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]).tolist()
    [True, True, True, True, True, False]
    """

    def __init__(self, n: int) -> None:
        if not compiled_available():
            raise ImportError("FastGame needs numba (pip install linkage_widget[fast])")
        self.n = int(n)
        if not 0 <= self.n < MAX_VERTICES:
            raise ValueError(f"FastGame takes 0 to {MAX_VERTICES - 1} vertices, got {self.n}")
        self.state = np.full((self.n, 8), -1, np.int32)
        self.state[:, _PEB] = 2
        self.lists = np.zeros((3, self.n), np.int32)
        self.counter = np.zeros(3, np.int64)  # the visit stamp, vertices seen, searches
        self.eu = np.zeros(0, np.int64)
        self.ev = np.zeros(0, np.int64)
        self.accepted = np.zeros(0, bool)

    @property
    def pebbles(self) -> np.ndarray:
        """Free pebbles of each vertex, shape (n,) (a view)."""
        return self.state[:, _PEB]

    @property
    def out(self) -> np.ndarray:
        """The heads of each vertex's out-edges, ``-1`` for a free pebble, (n, 2) (a view)."""
        return self.state[:, :2]

    def copy(self) -> FastGame:
        """An independent snapshot of the game."""
        new = object.__new__(FastGame)
        new.n = self.n
        for name in ("state", "lists", "counter", "eu", "ev", "accepted"):
            setattr(new, name, getattr(self, name).copy())
        return new

    def play(self, edges) -> np.ndarray:
        """Play ``edges`` after those played before; their acceptance, shape (k,)."""
        eu, ev = edge_arrays(self.n, edges)
        accepted = np.zeros(eu.shape[0], bool)
        _play(eu, ev, self.state, self.lists, self.counter, accepted)
        self.eu = np.concatenate([self.eu, eu])
        self.ev = np.concatenate([self.ev, ev])
        self.accepted = np.concatenate([self.accepted, accepted])
        return accepted

    def clusters(
        self, starts: np.ndarray | None = None, *, as_given: bool = False
    ) -> tuple[np.ndarray, int]:
        """Rigid cluster of every edge played, shape (m,), and how many clusters.

        ``starts`` (edge indices) limits the decomposition to the clusters of those
        edges, numbered in their order; the other edges keep ``-1``. A redundant edge
        starts nothing (it lies in the cluster of an accepted edge of its circuit, found
        from that edge); ``IndexError`` for an index out of ``0..m-1``. ``as_given``
        grows the clusters in the starts' order rather than by least vertex (for a
        caller whose order is local already: the same answer, another speed).
        """
        m = len(self.eu)
        starts = np.arange(m) if starts is None else np.asarray(starts, np.int64).reshape(-1)
        bad = np.flatnonzero((starts < 0) | (starts >= m))
        if bad.size:  # the kernels do no bounds checks: a wrong index would read anywhere
            raise IndexError(f"start {int(starts[bad[0]])}: edges are numbered 0..{m - 1}")
        adj = incidence(self.n, self.eu, self.ev)
        self.state[:, _RIGID] = -1
        self.state[:, _FLOPPY] = -1
        # Grown in the order of their edges' least vertex: on a graph numbered by position
        # (a lattice) each cluster's three pebbles are then found near the last cluster's;
        # in the given order (random for a percolation run) every cluster pulled them from
        # across the sample (10^6 sites: 181 s against 10 s). The clusters do not depend
        # on the order; their numbers are put back to the given one below.
        local = starts if as_given else starts[np.lexsort((
            np.maximum(self.eu, self.ev)[starts], np.minimum(self.eu, self.ev)[starts]
        ))]  # fmt: skip
        labels, count = _clusters(
            local, self.eu, self.ev, self.accepted, adj, self.state, self.lists, self.counter
        )
        return numbered_by(labels, starts[self.accepted[starts]], int(count)), int(count)

    def redundant(self, seed: int = 0) -> np.ndarray:
        """Whether each edge played lies in a circuit of the matroid, shape (m,).

        The rejected edges' circuits are read in a random order drawn from ``seed``
        (any order gives the same answer, only the work differs; see
        :func:`~.circuits.basis_and_redundancy`).
        """
        order = np.random.default_rng(seed).permutation(np.flatnonzero(~self.accepted))
        self.state[:, _TIGHT] = -1  # the play's marks: tight, but their edges not covered
        covered = np.zeros(len(self.eu), bool)
        adj = incidence(self.n, self.eu, self.ev)
        _cover(
            order.astype(np.int64), self.eu, self.ev, self.accepted, adj,
            self.state, self.lists, self.counter, covered,
        )  # fmt: skip
        return covered
