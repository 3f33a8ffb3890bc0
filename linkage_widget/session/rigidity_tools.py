r"""The rod tool's kinds and the Henneberg tools: what their clicks make, as undoable edits.

**Rod kinds.** The rod tool draws members of the session's ``rod_kind`` (a rod, a
cable that may shorten but not lengthen, a strut that may lengthen but not shorten);
a click of the rod tool on a member of another kind makes it one of that kind, a click
on one of that kind selects it. Key ``b`` cycles the kind the tool draws, or, with a
rod selected, that rod's kind. Each change is one undo step.

**Henneberg moves** (they build exactly the Laman graphs from one rod):

* the *0-extension* tool: click two joints :math:`i, j`, then a place: a new joint
  there with the rods :math:`i` - new and :math:`j` - new;
* the *1-extension* tool: click a rod :math:`ij`, then a third joint :math:`k`, then a
  place: the rod goes, and a new joint there gets the rods to :math:`i`, :math:`j` and
  :math:`k`.

A click on a picked joint (or rod) again drops it. :class:`ExtensionTool` keeps the
picks; the edits (:func:`zero_extension`, :func:`one_extension`) take the document and
return what the hint line says, raising ``ValueError`` for a move the linkage refuses
(the session then puts the document back: nothing changes).

>>> tool = ExtensionTool()
>>> tool.click("0-extension", ("vertex", 0), 3).message
'0-extension: joint 0 picked; click the second joint'
>>> tool.click("0-extension", ("vertex", 2), 3).message
'0-extension: joints 0 and 2 picked; click a place for the new joint'
>>> tool.click("0-extension", None, 3).move
('zero', 0, 2)
"""

from __future__ import annotations

from functools import partial
from typing import Any, NamedTuple

from .. import rigidity
from .document import Document
from .member_kinds import next_kind
from .outcome import Outcome, Situation
from .vocabulary import EXTENSION_TOOLS

__all__ = [
    "EXTENSION_TOOLS",
    "ExtensionClick",
    "ExtensionTool",
    "cycle_kind",
    "extension_click",
    "extension_edit",
    "one_extension",
    "rod_click",
    "set_kind",
    "zero_extension",
]


# ------------------------------------------------------------------ kinds
def set_kind(r: int, kind: str, doc: Document) -> str:
    """Make rod ``r`` a ``kind`` (the model refuses an unknown kind or rod)."""
    link = doc.linkage
    if not 0 <= int(r) < link.n_rods:
        raise IndexError(f"rod {r} out of range (there are {link.n_rods} rods)")
    i, j = (int(v) for v in link.rods[r])
    link.set_rod_kind(int(r), kind)
    return f"rod {i}-{j} is a {kind} now"


def rod_click(now: Situation, r: int) -> Outcome:
    """The rod tool's click on rod ``r``: it becomes the tool's kind, or (already) selected."""
    kind = str(now.traits["rod_kind"])
    if 0 <= r < now.linkage.n_rods and now.linkage.rod_kinds[r] != kind:
        return Outcome(edit=partial(set_kind, r, kind))
    return Outcome({"selected_rod": None if now.selection.rod == r else r})


def cycle_kind(now: Situation) -> Outcome:
    """Key ``b``: the selected rod's kind, else the kind the rod tool draws, goes round."""
    r = now.selection.rod
    if r is None or not 0 <= r < now.linkage.n_rods:
        kind = next_kind(str(now.traits["rod_kind"]))
        return Outcome({"rod_kind": kind}, message=f"the rod tool draws {kind}s (b: next kind)")
    return Outcome(edit=partial(set_kind, r, next_kind(str(now.linkage.rod_kinds[r]))))


# -------------------------------------------------------------- Henneberg
def zero_extension(i: int, j: int, xy: Any, doc: Document) -> str:
    """0-extension: a new joint at world ``xy`` with rods to ``i`` and ``j``.

    The model's move (:func:`~linkage_widget.rigidity.zero_extension`: all or nothing,
    ``ValueError`` saying why); the document's kept pebble game is replayed when next asked.
    """
    v = rigidity.zero_extension(doc.linkage, i, j, xy)
    return f"0-extension: joint {v} added with rods to {i} and {j}"


def one_extension(r: int, k: int, xy: Any, doc: Document) -> str:
    """1-extension: rod ``r`` = ``ij`` goes; a new joint at ``xy`` gets rods to ``i, j, k``.

    :func:`~linkage_widget.rigidity.one_extension`; a motor on the rod goes with it.
    """
    v = rigidity.one_extension(doc.linkage, r, k, xy)
    i, j, k = (int(u) for u in doc.linkage.rods[-3:, 0])
    doc.drives = doc.drives.on_rods(doc.linkage.rods)
    return f"1-extension: rod {i}-{j} replaced by joint {v} with rods to {i}, {j} and {k}"


def extension_edit(move: tuple[Any, ...], xy: Any) -> Any:
    """The edit of ``move`` (``("zero", i, j)`` or ``("one", rod, k)``) at world ``xy``."""
    kind, a, b = move
    return partial(zero_extension if kind == "zero" else one_extension, a, b, xy)


class ExtensionClick(NamedTuple):
    """What a click of a Henneberg tool says, and the move it completes (else ``None``)."""

    message: str
    move: tuple[Any, ...] | None = None
    selected: tuple[str, int | None] | None = None  # what the selection shows now


class ExtensionTool:
    """The picks of the Henneberg tools so far (module docstring)."""

    def __init__(self) -> None:
        self.tool = ""
        self.joints: tuple[int, ...] = ()
        self.rod: int | None = None
        self._ends: tuple[int, int] | None = None  # the picked rod's joints, when known

    def click(self, tool: str, hit: Any, n: int, rods: Any = None) -> ExtensionClick:
        """A click of ``tool`` on ``hit`` (``None``: a place) in a linkage of ``n`` joints.

        ``rods`` ``(m, 2)``, the linkage's rods now: a picked rod that is gone or is
        another rod now (an undo, a deletion) is forgotten, as a picked joint past ``n``.
        """
        ends = None if rods is None else [tuple(int(u) for u in r) for r in rods]
        stale = (
            self.rod is not None
            and ends is not None
            and (self.rod >= len(ends) or (self._ends is not None and ends[self.rod] != self._ends))
        )
        if tool != self.tool or any(v >= n for v in self.joints) or stale:
            self.tool, self.joints, self.rod = tool, (), None
        said = self._zero(hit) if tool == "0-extension" else self._one(hit)
        self._ends = None if self.rod is None or ends is None else ends[self.rod]
        return said

    def _zero(self, hit: Any) -> ExtensionClick:
        if hit is None:
            if len(self.joints) < 2:
                return ExtensionClick("0-extension: click two joints first, then a place")
            move, self.joints = ("zero", *self.joints), ()
            return ExtensionClick("", move, ("vertex", None))
        if hit[0] != "vertex":
            return ExtensionClick("0-extension: click two joints, then a place for the new joint")
        v = int(hit[1])
        picked = [u for u in self.joints if u != v]
        self.joints = tuple(picked if len(picked) < len(self.joints) else [*picked, v][-2:])
        if len(self.joints) == 2:
            a, b = self.joints
            said = f"0-extension: joints {a} and {b} picked; click a place for the new joint"
        elif self.joints:
            said = f"0-extension: joint {self.joints[0]} picked; click the second joint"
        else:
            said = "0-extension: click two joints, then a place for the new joint"
        return ExtensionClick(said, None, ("vertex", self.joints[-1] if self.joints else None))

    def _one(self, hit: Any) -> ExtensionClick:
        if hit is not None and hit[0] == "rod":
            r = int(hit[1])
            self.rod, self.joints = (None if self.rod == r else r), ()
            said = "1-extension: click a rod"
            if self.rod is not None:
                said = f"1-extension: rod {r} picked; click a third joint"
            return ExtensionClick(said, None, ("rod", self.rod))
        if self.rod is None:
            return ExtensionClick("1-extension: click a rod, a third joint, then a place")
        if hit is None:
            if not self.joints:
                return ExtensionClick(f"1-extension: rod {self.rod} picked; click a third joint")
            move, self.rod, self.joints = ("one", self.rod, self.joints[0]), None, ()
            return ExtensionClick("", move, ("vertex", None))
        if hit[0] != "vertex":
            return ExtensionClick("1-extension: click a joint (not an end of the rod)")
        self.joints = (int(hit[1]),)
        said = f"1-extension: rod {self.rod} and joint {hit[1]} picked; click a place"
        return ExtensionClick(said, None, ("vertex", self.joints[0]))


def extension_click(tool: ExtensionTool, now: Situation, which: str, hit: Any, x: float,
                    y: float) -> Outcome:  # fmt: skip
    """A click of Henneberg tool ``which`` at pixel ``(x, y)`` on ``hit``: a pick or the move."""
    said = tool.click(which, hit, now.linkage.n_vertices, now.linkage.rods)
    traits = {}
    if said.selected is not None:
        kind, index = said.selected
        traits = {"selected_rod" if kind == "rod" else "selected_vertex": index}
    if said.move is None:
        return Outcome(traits, message=said.message)
    return Outcome(traits, edit=extension_edit(said.move, now.world(x, y)))
