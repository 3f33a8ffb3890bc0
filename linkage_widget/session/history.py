"""Undo/redo of editing steps, as bounded stacks of snapshots.

The widget records a snapshot of everything an edit can change (the model,
the tracked vertices, the joint names, the springs) *before* each edit; undo hands back the
most recent snapshot and keeps the current state for redo. Snapshots are whole
copies rather than inverse operations: a linkage is small (a few kB even for
hundreds of vertices), so copying is cheap, and a copy cannot get an inverse
wrong.

Examples
--------
>>> h = History(limit=2)
>>> h.record("a"); h.record("b"); h.record("c")   # "a" falls off the bottom
>>> h.undo("d"), h.undo("c"), h.undo("b")
('c', 'b', None)
>>> h.redo("b"), h.redo("c"), h.redo("d")
('c', 'd', None)
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, TypeVar

from .drives import Drives

if TYPE_CHECKING:  # pragma: no cover
    from ..elements import Spring
    from ..model import Linkage

__all__ = ["History", "Snapshot"]

T = TypeVar("T")


class History(Generic[T]):
    """Bounded undo and redo stacks of snapshots.

    Parameters
    ----------
    limit : int
        Most snapshots kept for undo (>= 1); the oldest are dropped first,
        so memory stays bounded in a long session.

    Notes
    -----
    Snapshots are treated as immutable values: the caller passes copies and
    must not change them afterwards.
    """

    def __init__(self, limit: int = 200) -> None:
        if int(limit) < 1:
            raise ValueError(f"limit must be >= 1, got {limit!r}")
        self.limit = int(limit)
        self._undo: deque[T] = deque(maxlen=self.limit)
        self._redo: deque[T] = deque(maxlen=self.limit)

    def record(self, before: T) -> None:
        """Remember the state ``before`` an edit; a new edit forgets the redo stack."""
        self._undo.append(before)
        self._redo.clear()

    def undo(self, current: T) -> T | None:
        """The state to go back to (``None`` if there is none); ``current`` becomes redoable."""
        if not self._undo:
            return None
        self._redo.append(current)
        return self._undo.pop()

    def redo(self, current: T) -> T | None:
        """The state an undo left (``None`` if there is none); ``current`` becomes undoable."""
        if not self._redo:
            return None
        self._undo.append(current)
        return self._redo.pop()

    @property
    def can_undo(self) -> bool:
        """Whether :meth:`undo` has something to return."""
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        """Whether :meth:`redo` has something to return."""
        return bool(self._redo)

    def clear(self) -> None:
        """Forget everything."""
        self._undo.clear()
        self._redo.clear()

    def __len__(self) -> int:
        return len(self._undo)


@dataclass(frozen=True, eq=False)
class Snapshot:
    """What one edit of the widget can change: the model and the widget's extensions.

    Attributes
    ----------
    linkage : Linkage
        A private copy (vertices, rods, angles, pins).
    tracked : tuple of int
        Tracked vertices.
    springs : tuple of Spring
        Springs between vertices (they live outside the 2007 model).
    drives : Drives
        Motors, loads, path forces and friction (also outside the model).
    names : tuple of str
        Joint names by index (``""``: unnamed; no trailing ``""``).
    """

    linkage: Linkage
    tracked: tuple[int, ...] = ()
    springs: tuple[Spring, ...] = field(default=())
    drives: Drives = field(default=Drives())
    names: tuple[str, ...] = ()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Snapshot):
            return NotImplemented
        return (
            self.linkage == other.linkage
            and self.tracked == other.tracked
            and self.springs == other.springs
            and self.drives == other.drives
            and self.names == other.names
        )

    __hash__ = None  # holds a mutable Linkage
