r"""Laman graphs: the minimally rigid graphs of the plane, and why a graph is not one.

A graph on :math:`n \ge 2` vertices is *Laman* (generically minimally rigid in the plane)
when it has :math:`|E| = 2n - 3` edges and every set :math:`X` of at least two vertices
spans :math:`|E(X)| \le 2|X| - 3` of them (Laman, 1970; Pollaczek-Geiringer, 1927). The
pebble game (:mod:`.pebble`) decides it: the graph is Laman exactly when every edge is
accepted and there are :math:`2n - 3` of them. When an edge is refused, the vertices the
failed pebble search reached (with the edge's ends) are a set :math:`X` whose accepted
edges already number :math:`2|X| - 3`; with the refused one it spans
:math:`|E(X)| \ge 2|X| - 2`, the witness named in the error.

>>> print(laman_violation(4, [(0, 1), (1, 2), (2, 3)]))  # doctest: +NORMALIZE_WHITESPACE
under-braced: 3 rods < 2n - 3 = 5 for n = 4 joints; it keeps 2 degrees of freedom
beyond the rigid motions
>>> laman_violation(3, [(0, 1), (1, 2), (0, 2)]) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence

from ..model import Linkage
from .pebble import _Game, generic_rank

__all__ = ["laman_violation", "require_laman", "overbraced_set", "laman_graph"]


def laman_violation(n: int, edges: Sequence[tuple[int, int]]) -> str | None:
    """Why the graph is not Laman (``None`` if it is).

    Parameters
    ----------
    n : int
        Number of vertices (joints).
    edges : sequence of (u, v)
        The edges (rods).

    Returns
    -------
    str or None
        The reason: over-braced (too many rods, with a set :math:`X` spanning
        :math:`|E(X)| > 2|X| - 3`), under-braced (too few, with the degrees of freedom
        left), or dependent rods (the right number but a set over-braced, so some other
        part flexes).
    """
    m, need = len(edges), 2 * n - 3
    if n == 1 and m == 0:
        return None
    if n < 2:
        return f"a Laman graph has at least one joint, this one has {n}"
    game = _Game(n)
    refused = next((e for e in edges if not game.try_edge(int(e[0]), int(e[1]))), None)
    rank = generic_rank(n, edges)
    where = "" if refused is None else _witness(game, edges, refused)
    if m > need:
        return f"over-braced: {m} rods > 2n - 3 = {need} for n = {n} joints{where}"
    if m < need:
        return (
            f"under-braced: {m} rods < 2n - 3 = {need} for n = {n} joints; it keeps "
            f"{need - rank} degrees of freedom beyond the rigid motions{where}"
        )
    if refused is not None:
        return (
            f"dependent rods: {m} = 2n - 3 rods, but{where[1:]}, so the generic rank is "
            f"{rank} < {need} and the rest is under-braced"
        )
    return None


def require_laman(n: int, edges: Sequence[tuple[int, int]], what: str) -> None:
    """Raise ``ValueError`` naming ``what`` needs a Laman graph, and why this is none."""
    reason = laman_violation(n, edges)
    if reason is not None:
        raise ValueError(f"{what} needs a minimally rigid (Laman) graph: {reason}")


def overbraced_set(n: int, edges: Sequence[tuple[int, int]]) -> list[int] | None:
    """A vertex set :math:`X` with :math:`|E(X)| > 2|X| - 3`, or ``None`` if none exists."""
    game = _Game(n)
    refused = next((e for e in edges if not game.try_edge(int(e[0]), int(e[1]))), None)
    return None if refused is None else _reached(game, refused)


def _reached(game: _Game, edge: tuple[int, int]) -> list[int]:
    """The vertices a failed search for ``edge`` reached: the over-braced set."""
    seen = {int(edge[0]), int(edge[1])}
    stack = list(seen)
    while stack:
        for y in game.out[stack.pop()]:
            if y not in seen:
                seen.add(y)
                stack.append(y)
    return sorted(seen)


def _witness(game: _Game, edges: Sequence[tuple[int, int]], refused: tuple[int, int]) -> str:
    """``', joints X carry k rods > 2|X| - 3 = ...'`` for the set the game found."""
    group = _reached(game, refused)
    inside = set(group)
    k = sum(1 for u, v in edges if int(u) in inside and int(v) in inside)
    return f", joints {group} carry {k} rods > 2|X| - 3 = {2 * len(group) - 3}"


def laman_graph(linkage: Linkage, what: str) -> tuple[int, list[tuple[int, int]]]:
    """The joints and rods of a planar linkage with rods only, checked to be Laman.

    ``what`` names the caller in the errors (planar only; no fixed angles, sliders or
    slots; :func:`require_laman`).
    """
    if linkage.dim != 2:
        raise ValueError(f"{what} reads planar linkages; this linkage is {linkage.dim}-D")
    extras = {
        "fixed angles": linkage.n_angles,
        "sliders": len(linkage.sliders),
        "slots": len(linkage.slots),
    }
    for name, count in extras.items():
        if count:
            raise ValueError(f"{what} reads rods only; this linkage has {count} {name}")
    edges = [(int(i), int(j)) for i, j in linkage.rods]
    require_laman(linkage.n_vertices, edges, what)
    return linkage.n_vertices, edges
