"""The words of the input: the toolbar's tools, an :class:`Action`, a :class:`Selection`.

Shared by :mod:`.tools` (what a click or a drag means) and :mod:`.keymap` (what a key
means); both return :class:`Action` s that the session carries out (:mod:`.actions`).

>>> next_tool("select", -1), tool_line("pin")
('synthesis', 'tool: pin ([ ] other tool) · click a vertex to pin/unpin it')
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = [
    "ATTRACTOR_HIT_PX",
    "EXTENSION_TOOLS",
    "TOOLS",
    "TOOL_TIPS",
    "VIEW_PRESETS",
    "Action",
    "Hit",
    "Point",
    "Selection",
    "next_tool",
    "tool_line",
    "toggled",
]

#: Toolbar tools: what a plain click (or a touch) does.
TOOLS = (
    "select",
    "vertex",
    "rod",
    "angle",
    "pin",
    "slider",
    "slot",
    "attractor",
    "delete",
    "spring",
    "motor",
    "load",
    "0-extension",
    "1-extension",
    "synthesis",
)
#: The Henneberg tools (:mod:`.rigidity_tools`): they build the Laman graphs.
EXTENSION_TOOLS = ("0-extension", "1-extension")
TOOL_TIPS = {
    "select": "select/move: click adds or selects, drag moves a vertex or pans",
    "vertex": "add vertex: click adds a vertex",
    "rod": "rod: click two vertices (or empty space) to draw rods",
    "angle": "angle: click two adjacent rods, or three joints (apex first, no rods needed), "
    "to fix/unfix an angle",
    "pin": "pin: click a vertex to pin/unpin it",
    "slider": "slider: drag from a joint along the line it should slide on (a click: a "
    "horizontal line; on a sliding joint: no more sliding)",
    "slot": "slot: click the two joints of the slot's axis, then the joint that slides on it",
    "attractor": "attractor: click to place/remove the attractor",
    "delete": "delete: click a vertex, a rod, a slider's track or a slot to delete it",
    "spring": "spring: click two vertices to join them with a spring",
    "motor": "motor: click a rod (or a sliding joint) to drive it (o starts/stops, n reverses)",
    "load": "load: click a vertex for a downward load (again: remove), drag to aim it",
    "0-extension": "0-extension: click two joints, then a place: a new joint with two rods",
    "1-extension": "1-extension: click a rod, a third joint, then a place: the rod goes, "
    "a new joint with three rods",
    "synthesis": "synthesis: drag a curve; linkages that trace it are found, click one to load it",
}
#: What ``v`` cycles through: (name, show_velocities, show_stresses, show_pebbles).
VIEW_PRESETS = (
    ("velocity arrows", True, False, False),
    ("plain", False, False, False),
    ("self-stress colouring", False, True, False),
    ("pebble game: redundant rods", False, False, True),
)

Hit = tuple[str, int] | None
Point = tuple[float, float]
ATTRACTOR_HIT_PX = 12.0  # a right-click this close to the attractor (pixels) removes it


class Action(NamedTuple):
    """One thing to do: ``kind`` names its handler in the action table, ``args`` its arguments.

    ``message`` is shown in the hint line afterwards (kind ``"message"``: only
    that; kind ``"error"``: shown as an error instead).
    """

    kind: str
    args: tuple = ()
    message: str = ""


class Selection(NamedTuple):
    """The selected vertex and rod (at most one of them is set)."""

    vertex: int | None = None
    rod: int | None = None


def toggled(hit: tuple[str, int], sel: Selection) -> Action:
    """Select what was hit, or deselect it when it was selected already."""
    kind, i = hit
    current = sel.vertex if kind == "vertex" else sel.rod
    return Action("select", (kind, None if current == i else i))


def next_tool(tool: str, step: int) -> str:
    """The toolbar tool ``step`` places after ``tool`` (keys ``]`` +1 and ``[`` -1), cyclic.

    >>> next_tool("select", -1), next_tool("synthesis", 1)
    ('synthesis', 'select')
    """
    return TOOLS[(TOOLS.index(tool) + int(step)) % len(TOOLS)]


def tool_line(tool: str, hint: str = "") -> str:
    """The line under the toolbar: the current tool, its keys, then the hint.

    ``hint`` is the session's hint line (the last message, or what to do now); without
    one, or when it is only the tool's own tip, what a click of the tool does.

    >>> tool_line("rod")
    'tool: rod ([ ] other tool) · click two vertices (or empty space) to draw rods'
    >>> tool_line("select", "dragging vertex 5: the mechanism follows the pointer")
    'tool: select ([ ] other tool) · dragging vertex 5: the mechanism follows the pointer'
    """
    if not hint or hint == TOOL_TIPS[tool]:
        hint = TOOL_TIPS[tool].split(": ", 1)[1]
    return f"tool: {tool} ([ ] other tool) · {hint}"
