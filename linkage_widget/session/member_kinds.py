"""Cables and struts through the session: the rod tool's kind, merges, uploads, the counts.

The model holds each member's kind (:mod:`linkage_widget.rod_kinds`: a rod keeps its
length, a cable may shorten but not lengthen, a strut may lengthen but not shorten);
what the session adds here, as values in and values out:

* the kind the rod tool draws (the session's ``rod_kind`` trait; key ``b`` cycles it,
  or the selected rod's kind: :func:`next_kind`);
* the sibling's ``cables`` and ``struts`` (:mod:`linkage_widget.io.sidecar_kinds`: rods by
  their joints) written by a save (:func:`kind_pairs`) and taken by an upload
  (:func:`with_kinds`);
* a merge's kinds (:func:`merged_kinds`: the file's members after the current ones,
  as :meth:`~linkage_widget.element_masses.ElementMasses.put` places the masses), and an
  upload rebuilt with its sibling's guides keeps them (:func:`kept_kinds`);
* the readout's line on them and the counts a load or save says (:func:`kind_lines`,
  :func:`kind_counts`: only when there are any, so a bar framework reads as it did).

>>> from linkage_widget import Linkage
>>> link = Linkage([[0, 0], [1, 0], [0, 1]], rods=[(0, 1)], cables=[(1, 2)], struts=[(0, 2)])
>>> kind_lines(link), kind_counts(link)
(['cables: 1 · struts: 1 (a cable may shorten, a strut lengthen)'], [(1, 'cable'), (1, 'strut')])
>>> next_kind("rod"), next_kind("strut")
('cable', 'rod')
"""

from __future__ import annotations

from ..io import Extensions
from ..io.sidecar_kinds import kinds_of_rods, pairs_of_kinds
from ..model import Linkage
from ..rod_kinds import KINDS

__all__ = [
    "KINDS",
    "kept_kinds",
    "kind_counts",
    "kind_lines",
    "kind_pairs",
    "merged_kinds",
    "next_kind",
    "with_kinds",
]


def next_kind(kind: str) -> str:
    """The kind after ``kind`` in :data:`~linkage_widget.rod_kinds.KINDS`, cyclic (key ``b``)."""
    return KINDS[(KINDS.index(kind) + 1) % len(KINDS)]


def kind_counts(linkage: Linkage) -> list[tuple[int, str]]:
    """``[(cables, "cable"), (struts, "strut")]`` when there are any, else ``[]``."""
    kinds = linkage.rod_kinds
    if not (kinds != "rod").any():
        return []
    return [(int((kinds == "cable").sum()), "cable"), (int((kinds == "strut").sum()), "strut")]


def kind_lines(linkage: Linkage) -> list[str]:
    """The readout's line on the cables and struts; ``[]``: a bar framework."""
    counts = kind_counts(linkage)
    if not counts:
        return []
    (c, _), (s, _) = counts
    return [f"cables: {c} · struts: {s} (a cable may shorten, a strut lengthen)"]


def merged_kinds(union: Linkage, mine: Linkage, other: Linkage) -> None:
    """Give ``union`` (``mine``'s members, then ``other``'s) the kinds of both, in place."""
    m = mine.n_rods
    for offset, part in ((0, mine), (m, other)):
        for r, kind in enumerate(part.rod_kinds.tolist()):
            if kind != "rod":
                union.set_rod_kind(offset + r, kind)


def kept_kinds(rebuilt: Linkage, source: Linkage) -> Linkage:
    """``rebuilt`` (``source``'s members in the same order) with ``source``'s kinds; returned."""
    merged_kinds(rebuilt, source, Linkage())
    return rebuilt


def kind_pairs(linkage: Linkage) -> tuple[tuple[tuple[int, int], ...], ...]:
    """The ``(cables, struts)`` of ``linkage`` by their joints, as its sibling holds them."""
    return pairs_of_kinds(linkage.rods.tolist(), linkage.rod_kinds.tolist())


def with_kinds(linkage: Linkage, ext: Extensions) -> Linkage:
    """``linkage`` (its rods read from the 2007 text) with the kinds of its sibling ``ext``."""
    for r, kind in enumerate(kinds_of_rods(linkage.rods.tolist(), ext.cables, ext.struts)):
        if kind != "rod":
            linkage.set_rod_kind(r, kind)
    return linkage
