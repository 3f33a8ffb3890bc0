r"""The Laman number on the sphere by the quadrograph recursion (Gallet, Grasegger, Schicho).

On the sphere :math:`x^2 + y^2 + z^2 = 1` a placement modulo the rotations is counted
the way :mod:`._bigraph` counts planar ones, but the degenerations split the vertices
instead of the edges. A *quadrograph* has a vertex set :math:`N` and one 4-tuple of
vertices per edge; a graph :math:`G` on :math:`n` vertices gives the vertices
:math:`v` and :math:`v'` (its two sides) and the tuple :math:`(u, v, u', v')` per edge
:math:`uv`. For the first tuple :math:`(a, b, c, d)`, every vertex set
:math:`I \ni a, b` avoiding :math:`c, d` such that

* no other tuple meets :math:`I` in exactly two vertices, and
* :math:`|I|` exceeds by exactly two the number of tuples meeting it in three or four,

splits the count in two factors, glued at a new vertex :math:`w`: on :math:`I + w` the
tuples inside :math:`I`, and those with three vertices in it (the fourth becomes
:math:`w`); on :math:`J + w`, :math:`J = N - I`, the tuples with one vertex in
:math:`I` (which becomes :math:`w`) and those outside it. The count is the sum over
:math:`I` of the products; a quadrograph on 3 or 4 vertices counts 1, on 2 vertices 0
(M. Gallet, G. Grasegger, J. Schicho, *Counting realizations of Laman graphs on the
sphere*, Electron. J. Combin. 27 (2020)). A joint of degree 2 doubles the count, as in
the plane. Mirror images count apart (the ``lnumber`` package's ``lnumbers``).

>>> prism = [(0, 1), (1, 2), (0, 2), (3, 4), (4, 5), (3, 5), (0, 3), (1, 4), (2, 5)]
>>> sphere_laman_number(prism)
32
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from ._bigraph import peel_degree_two

__all__ = ["sphere_laman_number"]

Quadrograph = tuple[int, tuple[tuple[int, ...], ...]]


def sphere_laman_number(edges: Sequence[tuple[int, int]]) -> int:
    """Complex placements of a Laman graph on the sphere modulo rotations, mirrors apart.

    Parameters
    ----------
    edges : sequence of (u, v)
        The edges of a Laman graph.

    Returns
    -------
    int
    """
    edges, doubled = peel_degree_two([(int(u), int(v)) for u, v in edges])
    if len(edges) <= 1:
        return 2**doubled
    joints = sorted({w for e in edges for w in e})
    side = {v: k for k, v in enumerate(joints)}
    n = len(joints)
    quads = tuple((side[u], side[v], side[u] + n, side[v] + n) for u, v in edges)
    return 2**doubled * _count(_canonical(2 * n, quads))


def _canonical(size: int, quads: Sequence[tuple[int, ...]]) -> Quadrograph:
    """Relabel by first appearance (vertices in no tuple keep the last labels)."""
    label: dict[int, int] = {}
    out = tuple(tuple(label.setdefault(x, len(label)) for x in q) for q in quads)
    return size, out


@lru_cache(maxsize=100_000)
def _count(quadrograph: Quadrograph) -> int:
    size, quads = quadrograph
    if size in (3, 4):
        return 1
    if size <= 2 or not quads:
        return 0
    first, rest = quads[0], quads[1:]
    masks = [sum(1 << x for x in set(q)) for q in rest]
    free = [x for x in range(size) if x not in first]
    total = 0
    for pick in range(1 << len(free)):
        inside = (1 << first[0]) | (1 << first[1])
        inside |= sum(1 << x for k, x in enumerate(free) if pick >> k & 1)
        meets = [(m & inside).bit_count() for m in masks]
        if 2 in meets or inside.bit_count() - sum(c >= 3 for c in meets) != 2:
            continue
        total += _split(size, rest, meets, inside)
    return total


def _split(size: int, rest: Sequence[tuple[int, ...]], meets: list[int], inside: int) -> int:
    """The product of the two factors of one vertex set ``I`` (a bitmask)."""
    glue = size  # the new vertex, on both sides
    near = [
        tuple(x if inside >> x & 1 else glue for x in q)
        for q, c in zip(rest, meets, strict=True)
        if c >= 3
    ]
    first = _count(_canonical(inside.bit_count() + 1, near))
    if not first:
        return 0
    far = [
        tuple(glue if inside >> x & 1 else x for x in q)
        for q, c in zip(rest, meets, strict=True)
        if c <= 1
    ]
    return first * _count(_canonical(size - inside.bit_count() + 1, far))
