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

On a placement. A 0-extension keeps the framework's internal degrees of freedom (its
flexes beyond the rigid motions) exactly when the new joint :math:`p_v` is off the line
:math:`p_i p_j`: the new joint's two columns of the rigidity matrix meet only its two
new rows, :math:`p_v - p_i` and :math:`p_v - p_j`, independent unless parallel; on that
line :math:`v` has a first-order flex. A 1-extension keeps them for :math:`p_v` in
general position (Tay and Whiteley, 1985), but not everywhere off the line of
:math:`p_i, p_j, p_k`: a flex :math:`u` of the framework without the rod :math:`ij`
extends to :math:`v` when the three conditions
:math:`(p_v - p_w) \cdot (u_v - u_w) = 0`, :math:`w \in \{i, j, k\}`, are consistent,

.. math:: \det \begin{pmatrix} p_v - p_w & (p_v - p_w) \cdot u_w \end{pmatrix}_{w = i, j, k} = 0,

a conic in :math:`p_v` through :math:`p_i, p_j, p_k` (the cubic terms cancel). For the
triangle :math:`0, 1, 2` with the rod :math:`01` removed it is the pair of lines
:math:`p_0 p_2` and :math:`p_1 p_2`. The model-level moves :func:`zero_extension` and
:func:`one_extension` refuse these special positions: the first by the line test, the
second by comparing the internal degrees of freedom of :func:`~.analysis.analyze`
before and after the move (rolled back when they grew).

>>> prism = [(0, 1), (1, 2), (0, 2), (3, 4), (4, 5), (3, 5), (0, 3), (1, 4), (2, 5)]
>>> sequence = sequence_of_edges(6, prism)
>>> [step.kind for step in sequence.steps]
[0, 0, 0, 1]
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import _checks
from ..model import Linkage
from .analysis import analyze
from .laman import laman_graph, require_laman
from .pebble import PebbleGame
from .tolerances import HENNEBERG_COLLINEAR, HENNEBERG_SAME_JOINT

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
    return _sequence(n, edges)


def sequence_of_edges(n: int, edges: Sequence[tuple[int, int]]) -> HennebergSequence:
    """:func:`henneberg_sequence` of a graph on joints ``0..n-1`` given by its edges.

    Raises
    ------
    ValueError
        An edge's joint out of range, or the graph not Laman with at least one edge
        (:func:`~.laman.require_laman` says why).
    """
    pairs = [(int(u), int(v)) for u, v in edges]
    for k, (u, v) in enumerate(pairs):
        if not (0 <= u < n and 0 <= v < n):
            raise ValueError(
                f"sequence_of_edges: edge {k} ({u}, {v}) has a joint out of range 0..{n - 1}"
            )
    if not pairs:
        raise ValueError("sequence_of_edges starts from an edge; none given")
    require_laman(n, pairs, "sequence_of_edges")
    return _sequence(n, pairs)


def _sequence(n: int, edges: Sequence[tuple[int, int]]) -> HennebergSequence:
    """The steps of a Laman graph (checked by the caller), found backwards.

    One pebble game follows the graph as joints are removed (:class:`~.pebble.PebbleGame`:
    dropping an edge and trying one are a few pebble searches each), so a step costs
    :math:`O(n + m)`, not a new game per candidate rod.
    """
    rods = {_pair(u, v) for u, v in edges}
    around: dict[int, set[int]] = {w: set() for e in rods for w in e}
    for u, v in rods:
        around[u].add(v)
        around[v].add(u)
    game = PebbleGame(n, sorted(rods))
    backwards: list[HennebergStep] = []
    while len(around) > 2:
        step = _inverse_step(game, rods, around)
        for u in step.neighbours:
            rods.remove(_pair(u, step.joint))
            around[u].discard(step.joint)
        del around[step.joint]
        if step.removed is not None:
            rods.add(step.removed)
            i, j = step.removed
            around[i].add(j)
            around[j].add(i)
        backwards.append(step)
    (first,) = rods
    return HennebergSequence(first, tuple(reversed(backwards)))


def _pair(u: int, v: int) -> tuple[int, int]:
    return (u, v) if u < v else (v, u)


def _inverse_step(
    game: PebbleGame, rods: set[tuple[int, int]], around: dict[int, set[int]]
) -> HennebergStep:
    """A joint of degree 2 to remove, else one of degree 3 with a rod that keeps Laman.

    ``game`` is left playing the graph after the step (the joint's rods dropped, the
    new rod added).
    """
    for v in _least_degree_first(around):
        near = sorted(around[v])
        if len(near) > 3:
            break
        for u in near:
            game.remove_edge(game.edges.index(_pair(u, v)))
        if len(near) == 2:
            return HennebergStep(0, v, tuple(near))
        for i, j, k in ((near[0], near[1], near[2]), (near[0], near[2], near[1]),
                        (near[1], near[2], near[0])):  # fmt: skip
            # G - v has 2(n - 1) - 4 independent rods: ij keeps it Laman when accepted
            if (i, j) not in rods:
                if game.add_edge(i, j):
                    return HennebergStep(1, v, (i, j, k), (i, j))
                game.remove_edge(len(game.edges) - 1)
        for u in near:  # none did (never, by Laman's lemma): put v back
            game.add_edge(*_pair(u, v))
    raise AssertionError("a Laman graph always has a removable joint (Laman 1970)")


def _least_degree_first(around: dict[int, set[int]]) -> Iterator[int]:
    """The joints by degree then label: the first in :math:`O(n)`, the rest sorted later.

    Laman's lemma makes the first one do, so the sort is never reached in practice.
    """

    def order(w: int) -> tuple[int, int]:
        return len(around[w]), w

    first = min(around, key=order)
    yield first
    yield from (w for w in sorted(around, key=order) if w != first)


def zero_extension(linkage: Linkage, i: int, j: int, xy: Any) -> int:
    r"""Add a joint at ``xy`` with rods to joints ``i`` and ``j`` (in place).

    Parameters
    ----------
    linkage : Linkage
        A planar linkage, edited in place.
    i, j : int
        Two distinct joints; the new rods are ``(i, v)`` and ``(j, v)``, the last two.
    xy : (x, y)
        The new joint :math:`p_v`.

    Returns
    -------
    int
        The new joint's index :math:`v` (the last one).

    Raises
    ------
    ValueError
        The linkage unchanged: not planar, ``i == j``, a joint out of range, ``xy`` not
        a finite point, on an existing joint (named), or on the line :math:`p_i p_j`
        (the two rods parallel: a first-order flex of :math:`v`, sine of their angle
        below :data:`~.tolerances.HENNEBERG_COLLINEAR`). Off that line the move keeps
        the internal degrees of freedom (module notes).
    """
    i, j = _joints(linkage, (i, j), "zero_extension")
    point = _new_point(linkage, (i, j), xy, "zero_extension")
    return _apply(linkage, point, (i, j), None)


def one_extension(linkage: Linkage, rod: int, k: int, xy: Any) -> int:
    r"""Remove ``rod`` :math:`(i, j)` and add a joint at ``xy`` with rods to ``i``, ``j``, ``k``.

    Parameters
    ----------
    linkage : Linkage
        A planar linkage, edited in place.
    rod : int
        The rod :math:`ij` removed.
    k : int
        The third joint, not an end of the rod.
    xy : (x, y)
        The new joint :math:`p_v`.

    Returns
    -------
    int
        The new joint's index :math:`v`; the three new rods ``(i, v)``, ``(j, v)``,
        ``(k, v)`` are the last ones. A cable or a strut removed leaves its kind to the
        two rods that replace it, ``(i, v)`` and ``(j, v)`` (the path :math:`i v j` then
        may shorten, resp. lengthen, as the rod did); ``(k, v)`` is a plain rod. The
        removed rod's own mass (``linkage.masses``) goes with it, as in ``remove_rod``.

    Raises
    ------
    ValueError
        The linkage unchanged: not planar, a rod or joint out of range, ``k`` an end of
        the rod, ``xy`` not a finite point, on an existing joint (named), on one line
        with all three (three parallel rods), or at any other special position where
        the new framework has more internal degrees of freedom (flexes beyond the rigid
        motions, counted by :func:`~.analysis.analyze`) than the old one: the conic of
        the module notes, where a flex of the framework without the rod survives.
    """
    r = _checks.item_index(rod, linkage.n_rods, "one_extension's rod", "rods")
    i, j = (int(w) for w in linkage.rods[r])
    i, j, k = _joints(linkage, (i, j, k), "one_extension")
    point = _new_point(linkage, (i, j, k), xy, "one_extension")
    flexes = analyze(linkage).internal_dof
    before = linkage.copy()
    v = _apply(linkage, point, (i, j, k), r)
    after = analyze(linkage).internal_dof
    if after > flexes:
        linkage.replace_with(before)
        raise ValueError(
            f"one_extension's new joint at {point.tolist()} is a special position: the "
            f"framework would have {after} internal degrees of freedom, {flexes} before "
            f"(on the conic through joints {[i, j, k]} where a flex of the framework "
            f"without rod {r} ({i}, {j}) survives)"
        )
    return v


def _joints(linkage: Linkage, joints: tuple[int, ...], what: str) -> tuple[int, ...]:
    if linkage.dim != 2:
        raise ValueError(f"{what} edits planar linkages; this linkage is {linkage.dim}-D")
    out = tuple(_checks.vertex_index(w, linkage.n_vertices, f"{what}'s joint") for w in joints)
    if len(set(out)) != len(out):
        raise ValueError(f"{what} needs distinct joints, got {list(out)}")
    return out


def _new_point(linkage: Linkage, joints: tuple[int, ...], xy: Any, what: str) -> np.ndarray:
    """``xy`` checked: finite, on no joint, not on one line with all the ``joints``."""
    point = _checks.finite_point(xy, f"{what}'s new joint", 2)
    arms = linkage.vertices[list(joints)] - point
    lengths = np.linalg.norm(arms, axis=1)
    gaps = np.linalg.norm(linkage.vertices - point, axis=1)
    if len(gaps) and gaps.min() <= HENNEBERG_SAME_JOINT * max(1.0, float(np.abs(point).max())):
        on = int(np.argmin(gaps))
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
    """Remove ``rod`` (if any), add the joint and its rods; all or nothing.

    The removed rod's kind goes to the rods to its two ends (``joints[:2]``).
    """
    before = linkage.copy()
    kind = "rod" if rod is None else str(linkage.rod_kinds[rod])
    try:
        if rod is not None:
            linkage.remove_rod(rod)
        v = linkage.add_vertex(point)
        for t, u in enumerate(joints):
            linkage.add_rod(u, v, kind=kind if t < 2 else "rod")
    except Exception:
        linkage.replace_with(before)
        raise
    return v
