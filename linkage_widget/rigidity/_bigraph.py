r"""The Laman number of a graph by the bigraph recursion (Capco et al., 2018).

Isotropic coordinates. Write a placement :math:`p` of a graph in :math:`\mathbb{C}^2` as
:math:`x_v = p_{v,1} + i p_{v,2}`, :math:`y_v = p_{v,1} - i p_{v,2}`; a rod
:math:`e = uv` of length :math:`\lambda_e` reads :math:`(x_u - x_v)(y_u - y_v) = \lambda_e^2`.
The edge differences :math:`x_e = x_u - x_v` are the placements of the graph on a line
(one linear space, cut out by the cycles of the graph), the :math:`y_e` another. A
*bigraph* lets the two sides have different graphs on one edge set :math:`E`:
:math:`x \in X_G`, :math:`y \in X_H`, :math:`x_e y_e = \lambda_e^2`. Its solutions
modulo the rotations :math:`(x, y) \mapsto (t x, t^{-1} y)` and the translations are
finite for generic :math:`\lambda` when it is *pseudo-Laman*,

.. math:: r(G) + r(H) = |E| + 1,

(:math:`r` the rank of the graphic matroid: vertices met minus components) and without
loops; their number :math:`L(G, H)` is found by degenerating the lengths. Fix an edge
:math:`e_0`; every split :math:`E = M \cup N`, :math:`M \cap N = \{e_0\}` contributes

.. math:: L(G, H) = \sum_{M, N} L(G/M, H - M) \; L(G - N, H/N),

over the splits where both factors are loop-free pseudo-Laman bigraphs on :math:`E - M`
and :math:`E - N`; a bigraph with one edge counts 1, one with a loop 0 (Capco,
Gallet, Grasegger, Koutschan, Lubbes and Schicho, *The number of realizations of a Laman
graph*, SIAM J. Appl. Algebra Geometry 2 (2018), Theorem 3.9 and Algorithm 1). The
Laman number of a graph :math:`G` is :math:`L(G, G)`: the complex placements modulo
rotations and translations (a mirror image counted apart), 2 for a triangle, 24 for the
3-prism.

The sum is searched edge by edge: a split is abandoned as soon as an edge of
:math:`E - M` joins two vertices that :math:`M` contracts on the left (a loop of
:math:`G/M`), or an edge of :math:`E - N` two that :math:`N` contracts on the right.
Counts are kept by the bigraph relabelled in order of appearance, its edges sorted and
relabelled again (the count does not depend on the order of the edges, and one
sub-bigraph reached along several splits then has one entry; a mirror bigraph, the sides
swapped, counts the same and shares it too).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

__all__ = ["laman_number", "peel_degree_two"]

#: A bigraph: one ``((a, b), (c, d))`` per edge, left endpoints then right ones.
Bigraph = tuple[tuple[tuple[int, int], tuple[int, int]], ...]


def laman_number(edges: Sequence[tuple[int, int]]) -> int:
    """The Laman number of a Laman graph: complex placements modulo direct isometries.

    Parameters
    ----------
    edges : sequence of (u, v)
        The edges of a Laman graph (``2n - 3`` independent edges), vertices any ints.

    Returns
    -------
    int
        :math:`L(G, G)`, even for three or more vertices (mirror images apart).

    Examples
    --------
    >>> laman_number([(0, 1), (1, 2), (0, 2)])
    2
    >>> prism = [(0, 1), (1, 2), (0, 2), (3, 4), (4, 5), (3, 5), (0, 3), (1, 4), (2, 5)]
    >>> laman_number(prism)
    24
    """
    edges, doubled = peel_degree_two([(int(u), int(v)) for u, v in edges])
    if len(edges) <= 1:
        return 2**doubled
    return 2**doubled * _count(_canonical(tuple((e, e) for e in edges)))


def peel_degree_two(edges: list[tuple[int, int]]) -> tuple[list[tuple[int, int]], int]:
    """Remove joints of degree 2 while more than one edge is left; how many went.

    A joint on two rods is placed in two ways over any placement of the rest (the
    two circles meet twice): each such joint doubles the count (a 0-extension).
    """
    removed = 0
    while len(edges) > 1:
        degree: dict[int, int] = {}
        for u, v in edges:
            degree[u] = degree.get(u, 0) + 1
            degree[v] = degree.get(v, 0) + 1
        two = next((w for w, d in degree.items() if d == 2), None)
        if two is None:
            break
        edges = [e for e in edges if two not in e]
        removed += 1
    return edges, removed


def _canonical(bigraph: Bigraph) -> Bigraph:
    """The bigraph relabelled by first appearance, the smaller of it and its mirror."""
    return min(_sorted(bigraph), _sorted(tuple((r, s) for s, r in bigraph)))


def _sorted(bigraph: Bigraph) -> Bigraph:
    """Relabelled, edges sorted, relabelled again: one order for many orderings."""
    return _relabel(tuple(sorted(_relabel(bigraph))))


def _relabel(bigraph: Bigraph) -> Bigraph:
    left: dict[int, int] = {}
    right: dict[int, int] = {}
    for (a, b), (c, d) in bigraph:
        for side, x in ((left, a), (left, b), (right, c), (right, d)):
            if x not in side:
                side[x] = len(side)
    return tuple(((left[a], left[b]), (right[c], right[d])) for (a, b), (c, d) in bigraph)


@lru_cache(maxsize=200_000)
def _count(bigraph: Bigraph) -> int:
    """:math:`L(G, H)` of a canonical bigraph."""
    if any(a == b or c == d for (a, b), (c, d) in bigraph):
        return 0
    if len(bigraph) <= 1:
        return 1
    return sum(
        left * _count(_canonical(n_side))
        for m_side, n_side in _splits(bigraph)
        if (left := _count(_canonical(m_side)))
    )


def _splits(bigraph: Bigraph) -> list[tuple[Bigraph, Bigraph]]:
    """The two factors :math:`(G/M, H - M)` and :math:`(G - N, H/N)` of each live split."""
    (a, b), (c, d) = bigraph[0]
    n_left = 1 + max(max(s) for s, _ in bigraph)
    n_right = 1 + max(max(r) for _, r in bigraph)
    m_labels = _merged(list(range(n_left)), a, b)
    n_labels = _merged(list(range(n_right)), c, d)
    found: list[tuple[Bigraph, Bigraph]] = []
    _search(bigraph, 1, m_labels, n_labels, [], [], found)
    return found


def _search(  # noqa: PLR0913 (the state of one depth-first search, passed down)
    bigraph: Bigraph,
    t: int,
    m_labels: list[int],
    n_labels: list[int],
    in_m: list[int],
    in_n: list[int],
    found: list[tuple[Bigraph, Bigraph]],
) -> None:
    """Put edge ``t`` in ``M`` or ``N`` and go on, while no factor has a loop."""
    if t == len(bigraph):
        _keep_if_laman(bigraph, m_labels, n_labels, in_m, in_n, found)
        return
    (a, b), (c, d) = bigraph[t]
    # in M: contracted on the left of the first factor, an edge of the second
    if n_labels[c] != n_labels[d]:
        labels = _merged(m_labels, a, b)
        if labels is m_labels or all(labels[bigraph[f][0][0]] != labels[bigraph[f][0][1]]
                                     for f in in_n):  # fmt: skip
            _search(bigraph, t + 1, labels, n_labels, [*in_m, t], in_n, found)
    # in N: an edge of the first factor, contracted on the right of the second
    if m_labels[a] != m_labels[b]:
        labels = _merged(n_labels, c, d)
        if labels is n_labels or all(labels[bigraph[f][1][0]] != labels[bigraph[f][1][1]]
                                     for f in in_m):  # fmt: skip
            _search(bigraph, t + 1, m_labels, labels, in_m, [*in_n, t], found)


def _merged(labels: list[int], u: int, v: int) -> list[int]:
    """Component labels with ``u``'s and ``v``'s joined (the same list if already one)."""
    old, new = labels[u], labels[v]
    if old == new:
        return labels
    return [new if x == old else x for x in labels]


def _keep_if_laman(  # noqa: PLR0913 (the leaf of _search: its whole state)
    bigraph: Bigraph,
    m_labels: list[int],
    n_labels: list[int],
    in_m: list[int],
    in_n: list[int],
    found: list[tuple[Bigraph, Bigraph]],
) -> None:
    """Append the split's two factors when both are pseudo-Laman."""
    first = tuple(
        ((m_labels[a], m_labels[b]), (c, d)) for (a, b), (c, d) in (bigraph[f] for f in in_n)
    )
    second = tuple(
        ((a, b), (n_labels[c], n_labels[d])) for (a, b), (c, d) in (bigraph[f] for f in in_m)
    )
    if all(_pseudo_laman(side) for side in (first, second) if len(side) > 1):
        found.append((first, second))


def _pseudo_laman(bigraph: Bigraph) -> bool:
    """:math:`r(G) + r(H) = |E| + 1`."""
    return _rank([s for s, _ in bigraph]) + _rank([r for _, r in bigraph]) == len(bigraph) + 1


def _rank(edges: list[tuple[int, int]]) -> int:
    """Rank of the graphic matroid: a spanning forest's size."""
    parent: dict[int, int] = {}

    def root(x: int) -> int:
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    rank = 0
    for u, v in edges:
        ru, rv = root(u), root(v)
        if ru != rv:
            parent[ru] = rv
            rank += 1
    return rank
