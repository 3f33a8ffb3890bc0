r"""NAC-colourings of a linkage's graph: which graphs have flexible placements.

A **NAC-colouring** (Grasegger, Legerský and Schicho, "Graphs with flexible labelings",
Discrete Comput. Geom. 62, 2019) is a colouring :math:`\delta: E \to
\{\text{red}, \text{blue}\}` of the rods that uses both colours and on every cycle is
either one colour or has at least two red and two blue rods. Their theorem: a
connected graph has a *flexible* placement (rod lengths at which it moves,
adjacent joints apart) iff it has a NAC-colouring, and a colouring gives such a
motion explicitly (:func:`~linkage_widget.rigidity.nac_motion.nac_motion`). So a
generically rigid graph (a Laman graph such as the 3-prism, or :math:`K_{3,3}`) may
still flex at special lengths, and :math:`K_4` or any graph made of triangles never
does.

The graph is the rods' (cables and struts are rods here); joints without rods,
pins, fixed angles and guides are not part of it.

How it is computed (:mod:`.nac_search`): a cycle lies in one block (2-connected
piece), so each block is coloured alone and the colourings multiply; in a block
the rods of a triangle share a colour, and so does a rod with any class that joins
its ends (the *triangle-extended classes*), so the search runs over classes, not
rods; each choice is checked at once by the condition "no rod has its ends joined
both by a red path and by a blue path" (which is the cycle condition), and forces
the classes it decides. It is quick (well under a second, see
``benchmarks/bench_nac.py`` and docs/benchmarks.md) while the answer is short:
graphs up to a few hundred rods with up to a few thousand colourings. The number
of colourings can grow exponentially (a tree with :math:`m` rods has
:math:`2^{m-1} - 1`), hence the two caps, :data:`NAC_MAX_COLOURINGS` and
:data:`NAC_MAX_STEPS`, past which a :class:`ValueError` says what was found.

>>> from linkage_widget import Linkage
>>> square = Linkage([[0, 0], [1, 0], [1, 1], [0, 1]], rods=[(0, 1), (1, 2), (2, 3), (3, 0)])
>>> [c.tolist() for c in nac_colourings(square)]
[[False, False, True, True], [False, True, False, True], [False, True, True, False]]
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from .nac_search import Search, SearchLimit, blocks, mono_classes
from .second_order import require_linkage

__all__ = [
    "NAC_MAX_COLOURINGS",
    "NAC_MAX_STEPS",
    "has_nac_colouring",
    "is_nac_colouring",
    "nac_colourings",
    "nac_conflict",
]

#: colourings :func:`nac_colourings` returns at most (up to swapping the colours)
NAC_MAX_COLOURINGS = 10_000
#: choices the search may try (each costs tens of microseconds on a small graph)
NAC_MAX_STEPS = 200_000


class _Block:
    """One block: its rods (global indices), its own vertex numbering and classes."""

    def __init__(self, rods: np.ndarray, index: np.ndarray) -> None:
        self.index = index
        verts, local = np.unique(rods[index], return_inverse=True)
        self.n = len(verts)
        self.edges = local.reshape(-1, 2)
        self.edge_class = mono_classes(self.n, self.edges)
        self.k = int(self.edge_class.max()) + 1

    def search(self, max_steps: int) -> Search:
        return Search(self.n, self.edges, self.edge_class, max_steps)

    def describe(self) -> str:
        return f"a block of {len(self.index)} rods in {self.k} triangle-extended classes"


def _rods(linkage: Any, where: str) -> np.ndarray:
    return np.asarray(require_linkage(linkage, where).rods, dtype=np.int64).reshape(-1, 2)


def _blocks(linkage: Any, where: str) -> list[_Block]:
    rods = _rods(linkage, where)
    if len(rods) == 0:
        return []
    block = blocks(int(rods.max()) + 1, rods)
    # ordered by their first rod: the block of rod 0 comes first
    firsts = sorted({int(np.flatnonzero(block == b)[0]): b for b in set(block.tolist())}.items())
    return [_Block(rods, np.flatnonzero(block == b)) for _, b in firsts]


def _cap(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
        raise ValueError(f"nac_colourings: {name} must be a positive integer, got {value!r}")
    return int(value)


def _block_colourings(block: _Block, steps: int, cap: int) -> tuple[list[np.ndarray], int]:
    """The block's colourings and the steps the search took.

    Each is bool per rod of the block, its first class blue; the one-colour one included.
    """
    search = block.search(steps)
    found: list[np.ndarray] = []
    try:
        for colour in search.colourings():
            found.append(colour[block.edge_class])
            if len(found) > cap:
                raise ValueError(
                    f"nac_colourings: more than max_colourings={cap} colourings of "
                    f"{block.describe()}; raise max_colourings to list them all"
                )
    except SearchLimit as limit:
        raise ValueError(
            "nac_colourings: the search stopped at max_steps (all blocks together; "
            f"{limit.steps} steps in this one) with {limit.found} colourings of "
            f"{block.describe()} found; raise max_steps (the search is exponential in "
            "the number of classes at worst)"
        ) from None
    return found, search.steps


def _combine(m: int, parts: list[tuple[_Block, list[np.ndarray]]]) -> list[np.ndarray]:
    # the first block (holding rod 0) as found, every other one also swapped; the
    # all-blue product is the one colouring of one colour left out
    result: list[np.ndarray] = [np.zeros(m, dtype=bool)]
    for number, (block, colourings) in enumerate(parts):
        options = colourings if number == 0 else colourings + [~c for c in colourings]
        grown = []
        for partial in result:
            for option in options:
                full = partial.copy()
                full[block.index] = option
                grown.append(full)
        result = grown
    return sorted((c for c in result if c.any()), key=lambda c: c.tobytes())


def nac_colourings(
    linkage: Any,
    *,
    max_colourings: int = NAC_MAX_COLOURINGS,
    max_steps: int = NAC_MAX_STEPS,
) -> list[np.ndarray]:
    r"""Every NAC-colouring of the linkage's rods, one per pair of swapped colourings.

    Parameters
    ----------
    linkage : Linkage
        Its rods (cables and struts included) are the graph's edges.
    max_colourings : int, optional
        More colourings than this raise (default :data:`NAC_MAX_COLOURINGS`).
    max_steps : int, optional
        Search choices allowed in all (default :data:`NAC_MAX_STEPS`).

    Returns
    -------
    list of (m,) bool ndarray
        ``True`` = red. Each is normalised so that rod 0 is blue (``False``); its swap
        is the same colouring up to the names of the colours and is not listed. In
        lexicographic order of the rods' colours (blue before red). Empty
        when there is none (fewer than two rods, or every cycle condition forces one
        colour, as on :math:`K_4`).

    Raises
    ------
    ValueError
        Past either cap, saying how many colourings there are (or were found) and in
        which block.
    TypeError
        When ``linkage`` is no :class:`~linkage_widget.Linkage`.
    """
    cap, steps = _cap(max_colourings, "max_colourings"), _cap(max_steps, "max_steps")
    parts, total = [], 1
    for number, block in enumerate(_blocks(linkage, "nac_colourings")):
        colourings, used = _block_colourings(block, steps, cap)
        steps = max(steps - used, 1)
        parts.append((block, colourings))
        total *= len(colourings) * (1 if number == 0 else 2)
    if total - 1 > cap:
        raise ValueError(
            f"nac_colourings: the graph has {total - 1} NAC-colourings (up to swapping "
            f"the colours), more than max_colourings={cap}: {len(parts)} blocks, each "
            f"coloured alone, multiply; raise max_colourings to list them all"
        )
    return _combine(len(_rods(linkage, "nac_colourings")), parts) if parts else []


def has_nac_colouring(linkage: Any, *, max_steps: int = NAC_MAX_STEPS) -> bool:
    """Whether the linkage's graph has a NAC-colouring: the search stops at the first.

    Two blocks with rods always have one (one block red, the rest blue); a block
    that is one triangle-extended class has none. ``ValueError`` past ``max_steps``.
    """
    steps = _cap(max_steps, "max_steps")
    found = _blocks(linkage, "has_nac_colouring")
    if len(found) != 1:
        return len(found) > 1
    block = found[0]
    if block.k == 1:
        return False
    try:
        return any(c.any() for c in block.search(steps).colourings(red_first=True))
    except SearchLimit as limit:
        raise ValueError(
            f"has_nac_colouring: undecided after max_steps={limit.steps} steps on "
            f"{block.describe()}; raise max_steps"
        ) from None


def _components(n: int, rods: np.ndarray) -> np.ndarray:
    """Each joint's connected component in the graph of ``rods``, ``(n,)`` int."""
    graph = coo_matrix((np.ones(len(rods)), (rods[:, 0], rods[:, 1])), shape=(n, n))
    return connected_components(graph, directed=False)[1]


def nac_conflict(linkage: Any, colouring: Any) -> int | None:
    """A rod whose ends a path of the other colour joins (a bad cycle), or None.

    ``colouring`` is ``(m,)`` bool, True = red. None means every cycle is one colour
    or has two rods of each (both colours need not be used: see
    :func:`is_nac_colouring`).
    """
    rods = _rods(linkage, "nac_conflict")
    red = _colouring(colouring, len(rods), "nac_conflict")
    n = linkage.n_vertices
    red_part, blue_part = _components(n, rods[red]), _components(n, rods[~red])
    u, v = rods[:, 0], rods[:, 1]
    bad = (red_part[u] == red_part[v]) & (blue_part[u] == blue_part[v])
    return int(np.argmax(bad)) if bad.any() else None


def is_nac_colouring(linkage: Any, colouring: Any) -> bool:
    """Whether ``colouring`` (``(m,)`` bool, True = red) is a NAC-colouring.

    Both colours used, and no rod's ends joined by a path of the other colour.
    """
    red = _colouring(colouring, len(_rods(linkage, "is_nac_colouring")), "is_nac_colouring")
    return bool(red.any() and not red.all()) and nac_conflict(linkage, red) is None


def _colouring(colouring: Any, m: int, where: str) -> np.ndarray:
    """``colouring`` as ``(m,)`` bool; a ValueError naming ``where`` otherwise."""
    values = np.asarray(colouring)
    if values.shape != (m,):
        raise ValueError(
            f"{where}: colouring must have shape ({m},), one per rod, got {values.shape}"
        )
    if values.dtype != bool and not np.isin(values, (0, 1)).all():
        raise ValueError(f"{where}: colouring must be booleans (True = red) or 0/1")
    return values.astype(bool)
