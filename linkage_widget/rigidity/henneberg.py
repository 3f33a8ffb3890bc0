r"""Henneberg moves: how every minimally rigid graph of the plane is built from one rod.

Two moves add a joint :math:`v` and keep a graph Laman (:mod:`.laman`; Henneberg 1911,
Laman 1970):

* a **0-extension** joins :math:`v` to two joints :math:`i, j` by two new rods
  (:math:`+1` joint, :math:`+2` rods: the count :math:`2n - 3` holds, and a set
  containing :math:`v` gains at most its two rods);
* a **1-extension** removes a rod :math:`ij` and joins :math:`v` to :math:`i`, :math:`j`
  and a third joint :math:`k` (:math:`+1` joint, :math:`+3 - 1` rods).

Conversely every Laman graph on :math:`n \ge 3` joints has a joint of degree 2 or 3
(the degrees sum to :math:`4n - 6 < 4n`): a degree-2 joint is removed (an inverse
0-extension); for a degree-3 joint :math:`v` with neighbours :math:`a, b, c`, at least one
of the rods :math:`ab, ac, bc` (not already present) leaves :math:`G - v` plus that rod
Laman (the inverse 1-extension; Laman's proof), which the pebble game checks. Repeated
to a single rod and read backwards, this is :func:`henneberg_sequence`.

On a placement the moves keep infinitesimal rigidity when the new joint is placed off
the line of its neighbours: for a 0-extension not on the line :math:`p_i p_j` (the two
new rods would be parallel, a first-order flex of :math:`v`), for a 1-extension not with
:math:`p_i, p_j, p_k` all on one line through it (Tay and Whiteley, 1985). The model-level
moves :func:`zero_extension` and :func:`one_extension` refuse those placements.

>>> prism = [(0, 1), (1, 2), (0, 2), (3, 4), (4, 5), (3, 5), (0, 3), (1, 4), (2, 5)]
>>> sequence = sequence_of_edges(6, prism)
>>> [step.kind for step in sequence.steps]
[0, 0, 0, 1]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import _checks
from ..model import Linkage
from .laman import laman_graph
from .pebble import generic_rank
from .tolerances import HENNEBERG_COLLINEAR

__all__ = [
    "HennebergStep",
    "HennebergSequence",
    "henneberg_sequence",
    "sequence_of_edges",
    "zero_extension",
    "one_extension",
]


@dataclass(frozen=True)
class HennebergStep:
    """One move: ``joint`` added, joined to its ``neighbours`` (two or three).

    ``kind`` is 0 or 1; ``removed`` the rod a 1-extension takes away (its two ends are
    ``neighbours[:2]``), ``None`` for a 0-extension.
    """

    kind: int
    joint: int
    neighbours: tuple[int, ...]
    removed: tuple[int, int] | None = None


@dataclass(frozen=True)
class HennebergSequence:
    """Steps that build a Laman graph from its ``first_rod``, in the input's joint labels.

    ``graphs()`` gives the rods after each step; the last is the input's rod set.
    """

    first_rod: tuple[int, int]
    steps: tuple[HennebergStep, ...]

    def graphs(self) -> list[list[tuple[int, int]]]:
        """The rods (sorted pairs) of the first rod's graph and after each step."""
        rods = {_pair(*self.first_rod)}
        out = [sorted(rods)]
        for step in self.steps:
            if step.removed is not None:
                rods.remove(_pair(*step.removed))
            rods |= {_pair(u, step.joint) for u in step.neighbours}
            out.append(sorted(rods))
        return out


def henneberg_sequence(linkage: Linkage) -> HennebergSequence:
    """The Henneberg steps that build the linkage's rod graph from one rod.

    Parameters
    ----------
    linkage : Linkage
        A planar linkage whose rods form a Laman graph (pins not read).

    Returns
    -------
    HennebergSequence
        Its joints are the linkage's; replayed, the steps give exactly its rods.

    Raises
    ------
    ValueError
        When no sequence exists: the graph is not Laman (over- or under-braced, the
        counts and an over-braced set of joints named), or a linkage not planar or with
        fixed angles, sliders or slots.
    """
    n, edges = laman_graph(linkage, "henneberg_sequence")
    if not edges:
        raise ValueError("henneberg_sequence starts from a rod; this linkage has none")
    return sequence_of_edges(n, edges)


def sequence_of_edges(n: int, edges: Sequence[tuple[int, int]]) -> HennebergSequence:
    """:func:`henneberg_sequence` of a Laman graph given by its edges (checked by the caller)."""
    rods = {_pair(int(u), int(v)) for u, v in edges}
    alive = {w for e in rods for w in e}
    backwards: list[HennebergStep] = []
    while len(alive) > 2:
        step = _inverse_step(n, rods, alive)
        alive.discard(step.joint)
        rods -= {_pair(u, step.joint) for u in step.neighbours}
        if step.removed is not None:
            rods.add(step.removed)
        backwards.append(step)
    (first,) = rods
    return HennebergSequence(first, tuple(reversed(backwards)))


def _pair(u: int, v: int) -> tuple[int, int]:
    return (u, v) if u < v else (v, u)


def _inverse_step(n: int, rods: set[tuple[int, int]], alive: set[int]) -> HennebergStep:
    """A joint of degree 2 to remove, else one of degree 3 with a rod that keeps Laman."""
    around: dict[int, list[int]] = {v: [] for v in alive}
    for u, v in rods:
        around[u].append(v)
        around[v].append(u)
    for v in sorted(alive, key=lambda w: len(around[w])):
        near = sorted(around[v])
        if len(near) == 2:
            return HennebergStep(0, v, tuple(near))
        for i, j, k in ((near[0], near[1], near[2]), (near[0], near[2], near[1]),
                        (near[1], near[2], near[0])):  # fmt: skip
            rest = [e for e in rods if v not in e]
            if (i, j) not in rods and generic_rank(n, [*rest, (i, j)]) == len(rest) + 1:
                return HennebergStep(1, v, (i, j, k), (i, j))
    raise AssertionError("a Laman graph always has a removable joint (Laman 1970)")


def zero_extension(linkage: Linkage, i: int, j: int, xy: Any) -> int:
    """Add a joint at ``xy`` with rods to joints ``i`` and ``j`` (in place); its index.

    Raises ``ValueError`` (the linkage unchanged) for a linkage not planar, ``i == j``,
    a joint out of range, ``xy`` not a finite point, on joint ``i`` or ``j``, or on
    the line through them (the two rods parallel: :data:`~.tolerances.HENNEBERG_COLLINEAR`).
    """
    i, j = _joints(linkage, (i, j), "zero_extension")
    point = _new_point(linkage, (i, j), xy, "zero_extension")
    return _apply(linkage, point, (i, j), None)


def one_extension(linkage: Linkage, rod: int, k: int, xy: Any) -> int:
    """Remove ``rod`` ``(i, j)`` and add a joint at ``xy`` with rods to ``i``, ``j``, ``k``.

    In place; returns the new joint's index (the three new rods are the last ones).
    Raises ``ValueError`` (the linkage unchanged) for a linkage not planar, a rod or
    joint out of range, ``k`` an end of the rod, ``xy`` not a finite point, on one of
    the three joints, or on one line with all three (three parallel rods).
    """
    r = _checks.item_index(rod, linkage.n_rods, "one_extension's rod", "rods")
    i, j = (int(w) for w in linkage.rods[r])
    i, j, k = _joints(linkage, (i, j, k), "one_extension")
    point = _new_point(linkage, (i, j, k), xy, "one_extension")
    return _apply(linkage, point, (i, j, k), r)


def _joints(linkage: Linkage, joints: tuple[int, ...], what: str) -> tuple[int, ...]:
    if linkage.dim != 2:
        raise ValueError(f"{what} edits planar linkages; this linkage is {linkage.dim}-D")
    out = tuple(_checks.vertex_index(w, linkage.n_vertices, f"{what}'s joint") for w in joints)
    if len(set(out)) != len(out):
        raise ValueError(f"{what} needs distinct joints, got {list(out)}")
    return out


def _new_point(linkage: Linkage, joints: tuple[int, ...], xy: Any, what: str) -> np.ndarray:
    """``xy`` checked: finite, on no neighbour, not on one line with all of them."""
    point = _checks.finite_point(xy, f"{what}'s new joint", 2)
    arms = linkage.vertices[list(joints)] - point
    lengths = np.linalg.norm(arms, axis=1)
    if np.any(lengths == 0):
        on = joints[int(np.argmin(lengths))]
        raise ValueError(f"{what}'s new joint at {point.tolist()} is on joint {on}")
    units = arms / lengths[:, None]
    sines = np.abs(units[0, 0] * units[1:, 1] - units[0, 1] * units[1:, 0])
    if np.all(sines <= HENNEBERG_COLLINEAR):
        raise ValueError(
            f"{what}'s new joint at {point.tolist()} is on one line with joints "
            f"{list(joints)}: its rods would be parallel (a first-order flex)"
        )
    return point


def _apply(linkage: Linkage, point: np.ndarray, joints: tuple[int, ...], rod: int | None) -> int:
    """Remove ``rod`` (if any), add the joint and its rods; all or nothing."""
    before = linkage.copy()
    try:
        if rod is not None:
            linkage.remove_rod(rod)
        v = linkage.add_vertex(point)
        for u in joints:
            linkage.add_rod(u, v)
    except Exception:
        linkage.replace_with(before)
        raise
    return v
