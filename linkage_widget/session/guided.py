"""Sliders and slots through the session's files: uploads, merges and the counts said.

The model holds its sliders and slots (:mod:`linkage_widget.guides`) and
:meth:`~linkage_widget.Linkage.load` reads them from the JSON sibling; what the
session adds here, as values in and values out:

* an upload's linkage built with its sibling's guides (:func:`with_guides`: the 2007
  text cannot hold them, the sibling uploaded beside it does);
* a merge's guides, the merged joints renumbered and its fixed lines shifted with them
  (:func:`merged_guides`);
* the readout's line on them (:func:`guide_lines`);
* the counts a load or save says (:func:`counts_text`: sliders and slots counted when
  there are any, so the messages of a linkage without them read as they always did).

>>> from linkage_widget import Linkage
>>> link = Linkage([[0, 0], [1, 0], [2, 0]], rods=[(0, 1), (1, 2)], sliders=[(2, (2, 0), (1, 0))])
>>> counts_text(link)
'3 joints, 2 rods, 0 pins, 0 fixed angles, 1 slider, 0 slots'
>>> merged_guides(link, link, 3, np.array([10.0, 0.0]))
([(2, (2.0, 0.0), (1.0, 0.0)), (5, (12.0, 0.0), (1.0, 0.0))], [])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import LinkageFormatError
from ..io import Extensions
from ..model import Linkage
from .member_kinds import kept_kinds, kind_counts, kind_lines, with_kinds
from .rigidity_lines import rigidity_lines

__all__ = ["counts_text", "guide_lines", "merged_guides", "model_lines", "with_guides"]


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def counts_text(linkage: Linkage) -> str:
    """What a load or save message says about ``linkage``: its counts.

    Sliders and slots are counted when there are any (a linkage without them reads as
    it always did).

    >>> counts_text(Linkage([[0, 0], [1, 0]], rods=[(0, 1)], pinned=[0]))
    '2 joints, 1 rod, 1 pin, 0 fixed angles'
    """
    counts = [
        (linkage.n_vertices, "joint"),
        (linkage.n_rods, "rod"),
        (len(linkage.pinned), "pin"),
        (linkage.n_angles, "fixed angle"),
    ]
    g = linkage.guides
    if not g.is_empty():
        counts += [(g.n_sliders, "slider"), (g.n_slots, "slot")]
    counts += kind_counts(linkage)  # cables and struts, when there are any
    return ", ".join(_plural(count, noun) for count, noun in counts)


def guide_lines(linkage: Linkage) -> list[str]:
    """The readout's line on the sliders and slots (one constraint each); ``[]``: none.

    >>> guide_lines(Linkage([[0, 0], [1, 0]], sliders=[(1, (1, 0), (1, 0))]))
    ['sliders: 1 · slots: 0 (one constraint each)']
    """
    g = linkage.guides
    if g.is_empty():
        return []
    return [f"sliders: {g.n_sliders} · slots: {g.n_slots} (one constraint each)"]


def model_lines(linkage: Linkage, moving: bool = False) -> list[str]:
    """The readout's lines on the sliders and slots, the cables and struts, global rigidity.

    ``moving``: the joints are moving (a drag's live analysis is shown), so the lines
    that depend on the placement are not recomputed (:func:`.rigidity_lines.rigidity_lines`).
    """
    return guide_lines(linkage) + kind_lines(linkage) + rigidity_lines(linkage, moving)


def with_guides(linkage: Linkage, ext: Extensions, source: str) -> Linkage:
    """``linkage`` (read from the 2007 text) with the sliders, slots and kinds of its ``ext``.

    Raises
    ------
    LinkageFormatError
        A slider or slot the model refuses (a pinned joint, a joint off its line ...),
        naming the sibling ``source``; ``linkage`` is not changed.
    """
    if not (ext.sliders or ext.slots):
        return with_kinds(linkage, ext)  # the cables and struts the sibling names
    try:
        rebuilt = Linkage(
            linkage.vertices, linkage.rods, linkage.angles, linkage.pinned,
            sliders=ext.sliders, slots=ext.slots,
        )  # fmt: skip
        return with_kinds(kept_kinds(rebuilt, linkage), ext)
    except ValueError as exc:
        raise LinkageFormatError(str(exc), source) from exc


def merged_guides(
    mine: Linkage, other: Linkage, n: int, shift: np.ndarray
) -> tuple[list[tuple[int, tuple, tuple]], list[Any]]:
    """The sliders and slots of ``mine`` and of ``other`` merged after it.

    ``other``'s joint ``i`` becomes ``n + i`` and its fixed lines move by ``shift``
    (shape ``(2,)``), as its joints do; directions stay.
    """
    sliders = [(int(j), tuple(p), tuple(d)) for j, p, d in mine.sliders]
    for j, p, d in other.sliders:
        point = tuple(float(v) for v in np.asarray(p) + shift[:2])
        sliders.append((int(j) + n, point, tuple(d)))
    slots = [*mine.slots.tolist(), *(other.slots + n).tolist()]
    return sliders, slots
