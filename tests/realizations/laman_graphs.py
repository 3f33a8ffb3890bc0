"""Random Laman graphs for the realization tests, built by seeded random Henneberg steps.

A 0-extension (a new joint on two rods) or a 1-extension (a rod ``(i, j)`` removed, a new
joint joined to ``i``, ``j`` and a third joint ``k``) keeps a graph Laman (Henneberg
1911; Laman 1970), so every graph drawn here is Laman by construction, independently of
the pebble game the code under test uses.
"""

import random


def random_laman(n: int, seed: int, *, one_extensions: float = 0.7) -> list[tuple[int, int]]:
    """A Laman graph on ``n >= 2`` joints; ``one_extensions`` is the chance of a 1-step."""
    rng = random.Random(seed)
    edges = [(0, 1)]
    for v in range(2, n):
        if v >= 3 and rng.random() < one_extensions:
            i, j = edges.pop(rng.randrange(len(edges)))
            k = rng.choice([w for w in range(v) if w not in (i, j)])
            edges += [(i, v), (j, v), (k, v)]
        else:
            i, j = rng.sample(range(v), 2)
            edges += [(i, v), (j, v)]
    return edges
