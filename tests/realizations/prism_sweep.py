"""The real placements of a 3-prism counted by a sweep: an oracle independent of Newton.

Joints 0 and 1 stay (the first rod); joint 2 is one of the two apexes of its triangle.
Joint 3 turns on its rod about joint 0 (angle t); joint 4 is one of the two meets of
the circles about joints 1 and 3 (where they meet); joint 5 one of the two apexes of
the triangle on 3-4. The last rod, 2-5, closes exactly at the roots of
``|p5 - p2|^2 - l25^2`` over t, counted as sign changes on a fine grid on every branch.
"""

import numpy as np

PRISM = [(0, 1), (1, 2), (0, 2), (3, 4), (4, 5), (3, 5), (0, 3), (1, 4), (2, 5)]


def _apexes(a, b, ra, rb):
    """The two points at distances ra from a and rb from b (rows: the grid), or NaN."""
    d = b - a
    dist2 = np.sum(d * d, axis=-1)
    along = (ra**2 - rb**2 + dist2) / (2 * dist2)
    h2 = ra**2 / dist2 - along**2
    h = np.sqrt(np.where(h2 >= 0, h2, np.nan))
    base = a + along[..., None] * d
    normal = np.stack([-d[..., 1], d[..., 0]], axis=-1)
    return base + h[..., None] * normal, base - h[..., None] * normal


def prism_real_count(p, samples=400_000):
    """How many real placements the 3-prism's lengths at ``p`` allow, rod 0-1 held."""
    length = {e: float(np.linalg.norm(p[e[0]] - p[e[1]])) for e in PRISM}
    t = np.linspace(0, 2 * np.pi, samples, endpoint=False)
    p3 = p[0] + length[(0, 3)] * np.stack([np.cos(t), np.sin(t)], axis=1)
    p1 = np.broadcast_to(p[1], p3.shape)
    count = 0
    for p2 in _apexes(p[0][None], p[1][None], length[(0, 2)], length[(1, 2)]):
        for p4 in _apexes(p1, p3, length[(1, 4)], length[(3, 4)]):
            for p5 in _apexes(p3, p4, length[(3, 5)], length[(4, 5)]):
                f = np.sum((p5 - p2) ** 2, axis=1) - length[(2, 5)] ** 2
                g = np.append(f, f[0])  # closed loop in t
                valid = np.isfinite(g[:-1]) & np.isfinite(g[1:])
                count += int(np.sum(valid & (np.sign(g[:-1]) != np.sign(g[1:]))))
    return count
