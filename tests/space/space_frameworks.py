"""Small 3-D frameworks the space tests share: the cube, the octahedron, the double banana."""

import itertools

import numpy as np

from linkage_widget import Linkage


def cube() -> Linkage:
    pts = np.array(list(itertools.product([0.0, 1.0], repeat=3)))
    rods = [
        (i, j) for i, j in itertools.combinations(range(8), 2) if np.abs(pts[i] - pts[j]).sum() == 1
    ]
    return Linkage(pts, rods=rods)


def octahedron() -> Linkage:
    pts = np.vstack([np.eye(3), -np.eye(3)])
    rods = [(i, j) for i, j in itertools.combinations(range(6), 2) if j != i + 3]
    return Linkage(pts, rods=rods)


def double_banana() -> Linkage:
    """Two triangular bipyramids sharing their poles 0 and 1 (8 joints, 18 rods)."""
    poles = [[0.0, 0.0, -2.0], [0.0, 0.0, 2.0]]
    ring = []
    for centre, phase in ((1.5, 0.1), (-1.5, 0.7)):
        for k in range(3):
            t = phase + 2 * np.pi * k / 3
            ring.append([centre + 0.6 * np.cos(t), 0.6 * np.sin(t), 0.3 * k - 0.2])
    rods = []
    for first in (2, 5):
        tri = [first, first + 1, first + 2]
        rods += [(a, b) for a, b in itertools.combinations(tri, 2)]
        rods += [(p, v) for p in (0, 1) for v in tri]
    return Linkage(poles + ring, rods=rods)
