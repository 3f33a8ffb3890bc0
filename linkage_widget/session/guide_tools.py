r"""The slider and slot tools: what their gestures make, as undoable edits of the document.

**Slider tool** (a joint that slides on a fixed line of the ground, the piston of a
slider-crank): press on a joint and drag along the line it should slide on, then
release; the line goes through the joint along the drag. A drag within
:data:`SNAP_DEG` of a multiple of 15° is that multiple, so a roughly horizontal drag
makes an exactly horizontal line. A click on a joint without a drag makes a horizontal
line, and a click on a joint that slides already takes its slider away; a drag from it
turns its line. A pinned joint cannot slide: the edit is refused and the error says so
(the model's words, :meth:`~linkage_widget.Linkage.add_slider`).

**Slot tool** (a pin in a slot: a joint held on the line of two others): click the two
joints of the slot's axis, then the joint that slides in it. The first joint stays
selected (a joint selected before the tool was chosen is the first); the same three
clicks on a slot take it away.

**Delete tool**: a click on a slider's track or block, or on a slotted bar, away from
any joint and rod, removes that slider or slot (the joints stay).

:class:`SlotTool` keeps the axis chosen; the edits here take the document and return
what the hint line says, raising ``ValueError`` for what the model refuses (the
session then undoes the edit and shows the error).

>>> slider_direction((1.0, 0.06))  # within 5 degrees of the axis: snapped
(1.0, 0.0)
>>> tool = SlotTool()
>>> tool.click(0, 1, 5).message
'slot axis 0-1 chosen; click the joint that slides on it · click 0 again: another axis'
>>> tool.click(0, 3, 5).slot
(0, 1, 3)
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from .document import Document

__all__ = [
    "SNAP_DEG",
    "SlotClick",
    "SlotTool",
    "aim_message",
    "delete_guide",
    "drag_direction",
    "set_slider",
    "slider_direction",
    "toggle_slider",
    "toggle_slot",
]

#: A drag this close (degrees) to a multiple of 15° makes a line at that multiple.
SNAP_DEG = 5.0


def drag_direction(linkage: Any, v: int, world: Any) -> tuple[float, float] | None:
    """From joint ``v`` to the ``world`` point dragged to: a slider's line (``None``: no drag)."""
    if not 0 <= v < linkage.n_vertices:
        return None
    d = np.asarray(world, dtype=np.float64)[:2] - linkage.vertices[v][:2]
    return None if not d.any() else slider_direction(d)


def slider_direction(d: Any) -> tuple[float, float]:
    """The unit direction of a drag ``d`` (world), snapped to 15° steps within :data:`SNAP_DEG`.

    Raises ``ValueError`` for a drag of no length.
    """
    dx, dy = (float(c) for c in d[:2])
    if math.hypot(dx, dy) == 0.0:
        raise ValueError("drag from the joint along the line it should slide on")
    angle = math.degrees(math.atan2(dy, dx))
    step = 15.0 * round(angle / 15.0)
    if abs(angle - step) <= SNAP_DEG:
        angle = step
    t = math.radians(angle)
    c, s = round(math.cos(t), 15), round(math.sin(t), 15)  # 0.0, not 6e-17, on an axis
    return (c + 0.0, s + 0.0)


def _along(d: tuple[float, float]) -> str:
    angle = math.degrees(math.atan2(d[1], d[0])) % 180.0
    return f"at {angle:.4g}° to the x axis"


def toggle_slider(v: int, doc: Document) -> str:
    """A click of the slider tool on joint ``v``: a horizontal slider, or its slider goes."""
    link = doc.linkage
    s = link.guides.slider_of(v)
    if s is not None:
        before = link.sliders
        link.remove_guide("slider", s)
        doc.follow_sliders(before)  # its linear motor and friction go with it
        return f"joint {v} no longer slides (slider {s} removed)"
    link.add_slider(v, (1.0, 0.0))
    return f"joint {v} slides on a horizontal line · drag from a joint to choose the line"


def set_slider(v: int, direction: tuple[float, float], doc: Document) -> str:
    """A drag of the slider tool from joint ``v``: it slides along ``direction`` (a new line)."""
    link = doc.linkage
    s = link.guides.slider_of(v)
    before = link.sliders
    if s is not None:  # turned: its line goes through the joint along the new direction
        link.remove_guide("slider", s)
    link.add_slider(v, direction)
    doc.follow_sliders(before)  # a linear motor on it stays, on the new line
    return f"joint {v} slides on the line {_along(direction)}"


def aim_message(v: int, direction: tuple[float, float]) -> str:
    """What the hint says while the slider tool's drag from ``v`` aims its line."""
    return f"slider on joint {v}: the line {_along(direction)} · release to place it"


def toggle_slot(a: int, b: int, c: int, doc: Document) -> str:
    """The slot tool's third click: joint ``c`` on the line ``a``-``b``, or that slot goes."""
    link = doc.linkage
    for t, (x, y, z) in enumerate(link.slots.tolist()):
        if z == c and {x, y} == {a, b}:
            link.remove_guide("slot", t)
            return f"slot {t} removed: joint {c} no longer on the line {a}-{b}"
    link.add_slot(a, b, c)
    return f"joint {c} slides on the line {a}-{b} (a pin in a slot)"


def delete_guide(kind: str, index: int, doc: Document) -> str:
    """The delete tool's click on slider or slot ``index`` (``kind``): it goes, the joints stay."""
    before = doc.linkage.sliders
    doc.linkage.remove_guide(kind, index)
    doc.follow_sliders(before)
    return f"{kind} {index} deleted"


class SlotClick(NamedTuple):
    """What a click of the slot tool means: a message to show, or a slot to toggle."""

    message: str  #: the hint after the axis was chosen ("" when ``slot`` is set)
    slot: tuple[int, int, int] | None  #: ``(a, b, c)`` to add or take away, or None


class SlotTool:
    """The slot tool's joint clicks: the axis ``a``-``b``, then ``c`` (module docstring)."""

    def __init__(self) -> None:
        self._axis: tuple[int, int] | None = None  #: the axis chosen, waiting for c

    def click(self, first: int, joint: int, n_vertices: int) -> SlotClick:
        """The selected ``first`` axis joint and a clicked ``joint``: the axis, or the slot.

        A click that cannot end the slot (another first joint, a joint of the axis, a
        joint gone since) chooses the axis anew.
        """
        axis = self._axis
        if axis is None or axis[0] != first or joint in axis or max(axis) >= n_vertices:
            self._axis = (first, joint)
            return SlotClick(
                f"slot axis {first}-{joint} chosen; click the joint that slides on it"
                f" · click {first} again: another axis",
                None,
            )
        self._axis = None
        return SlotClick("", (first, axis[1], joint))
