r"""Rods, cables and struts: the kind of each member, as the model holds it.

A **rod** (a bar) keeps its length. A **cable** may shorten but not lengthen; a **strut**
may lengthen but not shorten. A linkage with cables or struts is a *tensegrity*
framework: its underlying bar framework has a bar for every member, and the members'
kinds add the inequalities

.. math::

    |p_i - p_j| \le L_{ij} \ \text{(cable)}, \qquad |p_i - p_j| \ge L_{ij} \ \text{(strut)}.

All members live in :attr:`~linkage_widget.Linkage.rods` (so every analysis of the bar
framework reads them, and the 2007 text format, which has bars only, holds them as bars);
:class:`RodKinds` is the table beside them that says which member is which. It follows
the model's edits (a removed rod takes its kind along; a split member's halves keep
it) and refuses an unknown kind, naming it, without changing.

>>> kinds = RodKinds.build(2, cables=1, struts=1)
>>> kinds.names().tolist()
['rod', 'rod', 'cable', 'strut']
>>> kinds.set(0, "strut")
>>> kinds.indices("strut").tolist()
[0, 3]
>>> kinds.set(1, "rope")
Traceback (most recent call last):
...
ValueError: rod 1: unknown kind 'rope' (a member is a 'rod', a 'cable' or a 'strut')
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["KINDS", "RodKinds"]

#: The member kinds, in the order of their codes (``0`` rod, ``1`` cable, ``2`` strut).
KINDS = ("rod", "cable", "strut")


def kind_code(kind: Any, where: str) -> int:
    """The code of a kind name; ``ValueError`` naming ``where`` for an unknown one."""
    if isinstance(kind, str) and kind in KINDS:
        return KINDS.index(kind)
    raise ValueError(
        f"{where}: unknown kind {kind!r} (a member is a 'rod', a 'cable' or a 'strut')"
    )


class RodKinds:
    """The kind of each of a linkage's ``m`` members (see the module docstring)."""

    def __init__(self, n_rods: int = 0) -> None:
        self._codes = np.zeros(int(n_rods), np.int8)

    @classmethod
    def build(cls, rods: int, cables: int = 0, struts: int = 0) -> RodKinds:
        """``rods`` plain rods, then ``cables`` cables, then ``struts`` struts."""
        out = cls()
        out._codes = np.repeat(np.arange(3, dtype=np.int8), [rods, cables, struts])
        return out

    @classmethod
    def from_names(cls, names: Any, n_rods: int) -> RodKinds:
        """The kinds ``names`` (one per rod, or none: all rods); ``ValueError`` naming one."""
        names = list(names) or ["rod"] * n_rods
        if len(names) != n_rods:
            raise ValueError(f"{len(names)} rod kinds for {n_rods} rods")
        out = cls()
        out._codes = np.array([kind_code(k, f"rod {r}") for r, k in enumerate(names)], np.int8)
        return out

    # ------------------------------------------------------------------ data
    @property
    def codes(self) -> np.ndarray:
        """Code of each member, ``(m,)`` int8: ``0`` rod, ``1`` cable, ``2`` strut (a copy)."""
        return self._codes.copy()

    @property
    def n_rods(self) -> int:
        """Number of members ``m``."""
        return len(self._codes)

    def names(self) -> np.ndarray:
        """Kind of each member as a string array ``(m,)``: ``'rod'``, ``'cable'``, ``'strut'``."""
        return np.asarray(KINDS)[self._codes] if self.n_rods else np.zeros(0, "<U5")

    def kind(self, r: int) -> str:
        """The kind of member ``r``."""
        return KINDS[int(self._codes[r])]

    def indices(self, kind: str) -> np.ndarray:
        """Indices of the members of one kind, ascending, ``(c,)`` int64."""
        return np.flatnonzero(self._codes == kind_code(kind, "kind")).astype(np.int64)

    def is_plain(self) -> bool:
        """Whether every member is a rod (a bar framework: no inequality)."""
        return not np.any(self._codes)

    # --------------------------------------------------------------- editing
    def set(self, r: int, kind: str) -> None:
        """Make member ``r`` a ``kind`` (checked first; nothing changes on error)."""
        self._codes[r] = kind_code(kind, f"rod {r}")

    def add_rod(self, kind: str = "rod") -> None:
        """A new member of ``kind`` at the end."""
        self._codes = np.append(self._codes, np.int8(kind_code(kind, f"rod {self.n_rods}")))

    def remove_rod(self, r: int) -> None:
        """Drop member ``r``; the later ones move up."""
        self._codes = np.delete(self._codes, r)

    def remove_vertex(self, rods_kept: Any) -> None:
        """Keep the members ``rods_kept`` (a boolean mask ``(m,)``) marks."""
        self._codes = self._codes[np.asarray(rods_kept, dtype=bool)]

    def split_rod(self, r: int) -> None:
        """Member ``r`` was split: its second half (appended) is of the same kind."""
        self._codes = np.append(self._codes, self._codes[r])

    def put(self, other: RodKinds, rods_from: int = 0) -> None:
        """Write ``other``'s kinds over members ``rods_from, rods_from + 1, ...``."""
        self._codes[rods_from : rods_from + other.n_rods] = other._codes

    def clear(self) -> None:
        """No members."""
        self._codes = np.zeros(0, np.int8)

    def copy(self) -> RodKinds:
        """An independent copy."""
        out = RodKinds()
        out._codes = self._codes.copy()
        return out

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RodKinds):
            return NotImplemented
        return np.array_equal(self._codes, other._codes)

    __hash__ = None  # mutable

    def __repr__(self) -> str:
        counts = np.bincount(self._codes, minlength=3)
        return f"RodKinds({counts[0]} rods, {counts[1]} cables, {counts[2]} struts)"
