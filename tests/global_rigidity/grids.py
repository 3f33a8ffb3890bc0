"""Grid graphs the global-rigidity tests share (square cells, optionally both diagonals)."""

from __future__ import annotations


def grid(a: int, b: int, *, braced: bool = False) -> tuple[int, list[tuple[int, int]]]:
    """An ``a x b`` grid of joints (row-major), each cell braced by both diagonals if asked.

    Returns ``(n, edges)``, the rods in row order (the order that makes the pebble game's
    fundamental circuits long).
    """
    edges = []
    for i in range(a):
        for j in range(b):
            v = i * b + j
            edges += [(v, v + 1)] if j + 1 < b else []
            edges += [(v, v + b)] if i + 1 < a else []
            if braced and i + 1 < a and j + 1 < b:
                edges += [(v, v + b + 1), (v + 1, v + b)]
    return a * b, edges
