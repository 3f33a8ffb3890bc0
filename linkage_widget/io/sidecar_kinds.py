"""Cables and struts in the files: the ``cables`` and ``struts`` entries, read and written.

The 2007 text holds bars only; a member's kind (:mod:`linkage_widget.rod_kinds`) is kept in
the JSON sibling (version 4, :mod:`.sidecar`) and in the JSON document's linkage object
(version 3, :mod:`.document_json`), as lists of joint pairs::

    "cables": [[0, 1], [1, 2], [2, 3], [3, 0]],
    "struts": [[0, 2], [1, 3]]

Why pairs and not rod indices: a pair says which member it is to a reader of the file (as
``rod_masses`` does), and it survives a hand edit of the 2007 file that reorders its rod
lines; and it is unambiguous, as no two rods join the same joints
(:mod:`linkage_widget._linkage_checks`). A pair names a rod of the file in either
orientation. A pair that names no rod, or one marked already (listed twice, or both a
cable and a strut), is refused, naming the key and the entry; nothing is built.

>>> rods = [(0, 1), (1, 2), (2, 0)]
>>> kinds_of_rods(rods, cables=[(1, 0)], struts=[(2, 0)])
('cable', 'rod', 'strut')
>>> pairs_of_kinds(rods, ("cable", "rod", "strut"))
(((0, 1),), ((2, 0),))
>>> kinds_of_rods(rods, cables=[(0, 1)], struts=[(1, 0)])
Traceback (most recent call last):
...
ValueError: struts: [1, 0] names rod 0-1, marked a cable or strut already
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from .sidecar_entries import entry_index, entry_list

__all__ = ["KIND_KEYS", "kinds_json", "kinds_of_rods", "pairs_of_kinds", "read_kind_pairs"]

#: The keys, in the order they are read and written.
KIND_KEYS = ("cables", "struts")

Pairs = tuple[tuple[int, int], ...]


def read_kind_pairs(
    data: dict[str, Any], n: int, rods: Sequence[Sequence[int]] | None = None
) -> tuple[Pairs, Pairs]:
    """The ``cables`` and ``struts`` entries as joint pairs, checked (``ValueError`` naming one).

    Each entry is a list of two joint indices of ``n``; with ``rods`` (``(m, 2)``), the pairs
    must name rods of the file (:func:`kinds_of_rods`).
    """
    out = []
    for key in KIND_KEYS:
        pairs = []
        for x in entry_list(data, key):
            if not isinstance(x, list) or len(x) != 2:
                raise ValueError(f"{key}: expected a rod's two joints [i, j], got {x!r}")
            pairs.append(tuple(entry_index(v, n, key) for v in x))
        out.append(tuple(pairs))
    cables, struts = out
    if rods is not None:
        kinds_of_rods(rods, cables, struts)
    return cables, struts


def kinds_of_rods(
    rods: Sequence[Sequence[int]], cables: Sequence[Sequence[int]], struts: Sequence[Sequence[int]]
) -> tuple[str, ...]:
    """The kind of each rod (``()`` when all are rods) from the pairs; ``ValueError`` naming one."""
    free: dict[tuple[int, int], list[int]] = defaultdict(list)
    for r, (i, j) in enumerate(rods):
        free[_key(i, j)].append(r)
    kinds = ["rod"] * len(rods)
    for key, kind, pairs in (("cables", "cable", cables), ("struts", "strut", struts)):
        for i, j in pairs:
            left = free.get(_key(i, j))
            if not left:
                raise ValueError(f"{key}: [{i}, {j}] {_why(rods, i, j)}")
            kinds[left.pop(0)] = kind
    return tuple(kinds) if cables or struts else ()


def pairs_of_kinds(rods: Sequence[Sequence[int]], kinds: Sequence[str]) -> tuple[Pairs, Pairs]:
    """The ``cables`` and ``struts`` pairs of rods with ``kinds`` (each rod as the file has it)."""
    cables = tuple((int(rods[r][0]), int(rods[r][1])) for r, k in enumerate(kinds) if k == "cable")
    struts = tuple((int(rods[r][0]), int(rods[r][1])) for r, k in enumerate(kinds) if k == "strut")
    return cables, struts


def kinds_json(cables: Pairs, struts: Pairs) -> dict[str, Any]:
    """The keys that have something to say (none when every member is a rod)."""
    out: dict[str, Any] = {}
    for key, pairs in zip(KIND_KEYS, (cables, struts), strict=True):
        if pairs:
            out[key] = [[int(i), int(j)] for i, j in pairs]
    return out


def _key(i: int, j: int) -> tuple[int, int]:
    return (int(min(i, j)), int(max(i, j)))


def _why(rods: Sequence[Sequence[int]], i: int, j: int) -> str:
    """Why the pair ``(i, j)`` marks no rod: none joins them, or it is marked already."""
    if not any(_key(a, b) == _key(i, j) for a, b in rods):
        return f"is not a rod (no rod joins {i} and {j})"
    return f"names rod {min(i, j)}-{max(i, j)}, marked a cable or strut already"
