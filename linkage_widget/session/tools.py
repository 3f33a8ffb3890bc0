"""What a click, a press, a drag or a key means: pure decisions, returned as :class:`Action` s.

The functions here read the situation (the tool, what is under the pointer, the
selection, the pointer's pixels) and return what to do; they change nothing and never call back into
the session. :class:`~linkage_widget.session.LinkageSession` carries actions out
(through the action table of :mod:`.actions`), so that the meaning of every input is in one place
and testable without a session. The words they share (:class:`Action`,
:class:`Selection`, the tools) live in :mod:`.vocabulary`, the key map in :mod:`.keymap`
and the pinch in :mod:`.touch`; this module re-exports the first two, so
``from linkage_widget.session.tools import key_action`` keeps working.

Interaction map (the 2007 program's controls, DESIGN.md §4)

=============================  =================================================
mouse / key                    effect
=============================  =================================================
click empty space              add a vertex (it becomes selected)
click vertex / rod             select it; click again to deselect
drag a vertex                  the pointer pulls it; the mechanism follows
shift-drag a vertex            move it freely (an edit: rod lengths change)
drag empty space               pan;  wheel: zoom about the pointer
middle/alt-click vertex        add/remove a rod from the selected vertex; the
                               clicked one becomes selected (alt-clicks in turn
                               draw a path: 0, then 1 2 3 0 make 0-1-2-3-0)
middle/alt-click rod           fix/unfix the angle with the selected (adjacent) rod
right/ctrl-click               place the attractor (pulls the selected vertex);
                               on the attractor: remove it; right-drag moves it
f / t / d / z / c              pin, track, delete, split rod, clear
b                              rod, cable, strut: the selected rod's kind, else the
                               kind the rod tool draws (a click on a rod: that kind)
0-/1-extension tools           Henneberg moves (:mod:`.rigidity_tools`)
u / U                          other placements as ghosts / jump to the next one
o / n                          motors start/stop / reverse the motors
[ / ]                          previous / next toolbar tool
k / g                          kinematic <-> dynamic / configuration space on/off
a / j / # / F                  angles / joints / joint labels / forces shown on/off
m                              presentation mode (full window, large type); m or Esc leaves
spring tool                    click two vertices: a spring between them
motor tool                     click a rod: a motor on it (pivot: the pinned end,
                               else the end nearer the click); a sliding joint or
                               its track: a linear motor (:mod:`.slide_drives`)
load tool                      click a vertex: a downward load (again: remove it);
                               drag from a vertex: a load along the drag
slider tool                    drag from a joint along a line: the joint slides on
                               it (a click: a horizontal line; on a sliding joint:
                               its slider goes); :mod:`.guide_tools`
slot tool                      click two joints (the slot's axis), then the joint
                               that slides on their line (again: the slot goes)
delete tool                    click a vertex, a rod, a slider's track or a slot
synthesis tool                 drag a curve: the linkages tracing it (.synthesis_tool)
s / l                          save / load the file named in the file box
v / i                          cycle view options / info panel on the canvas; a
                               3-D linkage: v turns it to the next of 8 views (six
                               along the axes, isometric, the opening one), V
                               cycles what is shown
p / r                          PNG picture / record a GIF (toggle)
P / T                          SVG picture / tracks as CSV
space                          start/stop the motion
1 .. 9, click an arrow         at a singular placement: go on along that way
ctrl-z, ctrl-shift-z (ctrl-y)  undo, redo;  Home: fit;  Escape: deselect, stop
one finger (touch, pen)        as the mouse: tap clicks, drag drags
two fingers                    pan and pinch-zoom (see :mod:`.touch`)
=============================  =================================================

Examples
--------
>>> click_action("select", None, Selection(), (10.0, 20.0))
Action(kind='add_vertex', args=(10.0, 20.0), message='')
>>> click_action("rod", ("vertex", 4), Selection(vertex=1), (0.0, 0.0))
Action(kind='toggle_rod', args=(1, 4, 4), message='')
>>> key_action("f", Selection())
Action(kind='error', args=(), message='select a vertex first to pin it')
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import NamedTuple

from .keymap import (
    EXAMPLE_KEYS,
    MAC_OPTION_DIGITS,
    SHIFTED_KEYS,
    SIMPLE_KEYS,
    TOGGLE_KEYS,
    example_key,
    key_action,
)
from .vocabulary import (
    ATTRACTOR_HIT_PX,
    EXTENSION_TOOLS,
    TOOL_TIPS,
    TOOLS,
    VIEW_PRESETS,
    Action,
    Hit,
    Point,
    Selection,
    next_tool,
    toggled,
    tool_line,
)

__all__ = [
    "ATTRACTOR_HIT_PX",
    "DYNAMIC_SPACE_HINT",
    "EXAMPLE_KEYS",
    "EXPORT_DIR",
    "MAC_OPTION_DIGITS",
    "SHIFTED_KEYS",
    "SIMPLE_KEYS",
    "SPACE_HINT",
    "TOGGLE_KEYS",
    "TOOLS",
    "TOOL_TIPS",
    "VIEW_PRESETS",
    "Action",
    "HintState",
    "Selection",
    "angle_apex_hint",
    "attract_action",
    "blocked_hint",
    "branch_message",
    "click_action",
    "drag_action",
    "example_key",
    "drag_kind",
    "export_path",
    "fit_hint",
    "hint_text",
    "key_action",
    "link_action",
    "press_kind",
    "release_action",
    "tool_line",
    "next_tool",
    "zoom_factor",
]


def press_kind(gesture_action: str, tool: str) -> str:
    """What a press does: ``"primary"``, ``"link"``, ``"attract"``, ``"load"``, ``"slider"`` ...

    The attractor, load, slider and synthesis tools make a plain press theirs.
    """
    if gesture_action == "primary" and tool in ("attractor", "load", "slider", "synthesis"):
        return "attract" if tool == "attractor" else tool
    return gesture_action


def drag_kind(press: str, hit: Hit) -> str:
    """What a drag does: ``"attractor"``, ``"vertex"``, ``"load"``, ``"slider"``, ``"pan"``, ``""``.

    The attractor moves, a vertex is pulled, the load or the slider's line of the
    vertex pressed is aimed.
    """
    if press == "attract":
        return "attractor"
    if press == "synthesis":
        return "stroke"
    if press in ("load", "slider"):
        return press if hit is not None and hit[0] == "vertex" else "pan"
    if press == "primary":
        return "vertex" if hit is not None and hit[0] == "vertex" else "pan"
    return ""


def attract_action(xy: Point, attractor_px: Point | None, sel: Selection) -> Action:
    """Right/ctrl-click at pixel ``xy``: remove the attractor when on it, else place it there."""
    if attractor_px is not None:
        if math.hypot(attractor_px[0] - xy[0], attractor_px[1] - xy[1]) <= ATTRACTOR_HIT_PX:
            return Action("remove_attractor", (), "attractor removed")
    msg = "attractor placed: select a vertex for it to pull" if sel.vertex is None else ""
    return Action("place_attractor", tuple(xy), msg)


def drag_action(press: str, hit: Hit, placed: bool, xy: Point, delta: Point, shift: bool) -> Action:
    """The pointer of a press moved to pixel ``xy`` (by ``delta``): what that does.

    ``placed``: the press placed the attractor (a right-drag then moves it);
    ``shift``: a vertex moves freely (an edit) instead of pulling the mechanism.
    """
    what = drag_kind(press, hit)
    if what == "attractor" and placed:
        return Action("move_attractor", tuple(xy))
    if what == "vertex":
        return Action("drag_vertex", (hit[1], *xy, shift))
    if what == "stroke":  # the synthesis tool draws its target curve
        return Action("stroke_to", tuple(xy))
    if what in ("load", "slider"):
        return Action(f"aim_{what}", (hit[1], *xy))
    if what == "pan":
        return Action("pan", tuple(delta))
    return Action("none")


def release_action(
    press: str, dragged: bool, pulled: bool, tool: str, hit: Hit, sel: Selection, xy: Point
) -> Action:
    """The end of a press at pixel ``xy``: the end of a vertex drag (``pulled``), or a click."""
    if pulled:
        return Action("end_drag")
    if press == "synthesis":
        return Action("stroke_end", tuple(xy))
    if press in ("primary", "load", "slider") and not dragged:
        return click_action(tool, hit, sel, xy)
    if press in ("load", "slider") and drag_kind(press, hit) == press:
        return Action(f"set_{press}", (hit[1], *xy))
    return Action("none")


def zoom_factor(delta_y: float) -> float:
    """Zoom per wheel turn of ``delta_y`` pixels (down: out), at most e per 500 px.

    >>> round(zoom_factor(-100.0), 3), zoom_factor(1e9) == zoom_factor(500.0)
    (1.221, True)
    """
    return math.exp(-min(max(float(delta_y), -500.0), 500.0) * 0.002)


def click_action(tool: str, hit: Hit, sel: Selection, xy: tuple[float, float]) -> Action:
    """A plain click (no drag) at pixel ``xy``, where ``hit`` is, as ``tool`` means it.

    ``add_vertex`` adds a vertex at ``xy``; its args are ``(x, y)``, and for
    the rod tool ``(x, y, link_from)``: the selected vertex to join it to.
    """
    vertex_hit = hit is not None and hit[0] == "vertex"
    if tool in ("select", "vertex"):
        if hit is None or (tool == "vertex" and not vertex_hit):
            return Action("add_vertex", tuple(xy))
        return toggled(hit, sel)
    if tool == "rod":
        return _rod_tool(hit, sel, xy)
    if tool == "angle":
        return _angle_tool(hit, sel)
    if tool in ("pin", "delete"):
        return _pin_or_delete(tool, hit)
    if tool in ("slider", "slot", *EXTENSION_TOOLS):
        return _pick_tool(tool, hit, sel, xy)
    if tool in ("spring", "motor", "load"):
        return _drive_tool(tool, hit, sel, xy)
    return Action("none")


def _pick_tool(tool: str, hit: Hit, sel: Selection, xy: tuple[float, float]) -> Action:
    """The tools that pick joints in turn: slider, slot, the Henneberg moves (.rigidity_tools)."""
    if tool in EXTENSION_TOOLS:  # the session's ExtensionTool keeps the picks
        return Action("extension_click", (tool, hit, *xy))
    return _guide_tool(tool, hit, sel)


def _angle_tool(hit: Hit, sel: Selection) -> Action:
    """Two adjacent rods, or three joints (apex, arm, arm: no rods needed), fix an angle."""
    if hit is None:
        return Action("none")
    if hit[0] == "rod" and sel.rod not in (None, hit[1]):
        return Action("toggle_angle", (sel.rod, hit[1]))
    if hit[0] == "vertex" and sel.vertex not in (None, hit[1]):
        return Action("angle_arm", (sel.vertex, hit[1]))  # the session keeps the first arm
    return toggled(hit, sel)


def _pin_or_delete(tool: str, hit: Hit) -> Action:
    if hit is None or (tool == "pin" and hit[0] != "vertex"):
        return Action("none")
    if tool == "pin":
        return Action("toggle_pin", (hit[1],))
    if hit[0] in ("slider", "slot"):  # its track or bar, away from joints and rods
        return Action("delete_guide", hit)
    return Action("delete_vertex" if hit[0] == "vertex" else "delete_rod", (hit[1],))


def _guide_tool(tool: str, hit: Hit, sel: Selection) -> Action:
    """The slider tool's click on a joint, the slot tool's axis and sliding joint."""
    if hit is None or hit[0] != "vertex":
        return Action("none")
    v = hit[1]
    if tool == "slider":
        return Action("toggle_slider", (v,))
    if sel.vertex == v:
        return Action("select", ("vertex", None))
    if sel.vertex is None:
        msg = f"joint {v} selected: click the other joint of the slot's axis"
        return Action("select", ("vertex", v), msg)
    return Action("slot_pick", (sel.vertex, v))  # the session's slot tool keeps the axis


def _drive_tool(tool: str, hit: Hit, sel: Selection, xy: tuple[float, float]) -> Action:
    """The spring, motor and load tools (the session picks a motor's pivot, see drives)."""
    if hit is None:
        return Action("none")
    kind, i = hit
    if tool == "motor":
        if kind == "rod":
            return Action("motor_at", (i, *xy))
        if kind == "slider":  # its track or block: a linear motor on it
            return Action("linear_motor_at", (i,))
        return Action("motor_joint", (i,)) if kind == "vertex" else toggled(hit, sel)
    if tool == "load":
        return Action("toggle_load", (i,)) if kind == "vertex" else toggled(hit, sel)
    if kind == "vertex" and sel.vertex is not None and sel.vertex != i:
        return Action("spring_between", (sel.vertex, i))
    msg = f"vertex {i} selected: click another vertex for a spring" if kind == "vertex" else ""
    return Action("select", (kind, None if kind == "vertex" and sel.vertex == i else i), msg)


def _rod_tool(hit: Hit, sel: Selection, xy: tuple[float, float]) -> Action:
    s = sel.vertex
    if hit is None:  # a new vertex, joined to the selected one: draw polygons quickly
        return Action("add_vertex", (*xy, s) if s is not None else tuple(xy))
    if hit[0] == "vertex" and s is not None and s != hit[1]:
        return Action("toggle_rod", (s, hit[1], hit[1]))
    if hit[0] == "rod":  # made the kind the tool draws, or (that kind already) selected
        return Action("rod_click", (hit[1],))
    return toggled(hit, sel)


def link_action(hit: Hit, sel: Selection) -> Action:
    """Middle/alt-click: a rod from the selected vertex, or an angle with the selected rod.

    A rod from the selected vertex to the one clicked (removed when it exists), and the
    clicked vertex becomes selected, so alt-clicks in turn draw a path, as a polyline
    tool does (``link_rod``: the session says which rod and how to go on).

    >>> link_action(("vertex", 1), Selection(vertex=0))
    Action(kind='link_rod', args=(0, 1), message='')
    """
    if hit is None:
        return Action(
            "message", (), "alt-click a vertex (rod from the selected vertex) or a rod (angle)"
        )
    kind, i = hit
    if kind == "vertex":
        if sel.vertex is None or sel.vertex == i:
            msg = f"vertex {i} selected: alt-click the next vertex for a rod"
            return Action("select", ("vertex", i), msg)
        return Action("link_rod", (sel.vertex, i))
    if sel.rod is None or sel.rod == i:
        msg = f"rod {i} selected: alt-click an adjacent rod to fix the angle"
        return Action("select", ("rod", i), msg)
    return Action("toggle_angle", (sel.rod, i))


class HintState(NamedTuple):
    """What the hint line depends on."""

    message: str
    drag_vertex: int | None
    status: str
    attractor: bool
    selection: Selection
    running: bool
    mode: str
    tool: str
    n_vertices: int
    motors: int = 0
    motors_running: bool = False
    branches: int = 0  # branch lines offered at a singular stop
    reason: str = ""  # why the motion is blocked, when the simulator says (a motor's fold)
    space: bool = False  # a 3-D linkage: its idle and dynamic hints say how space works


#: The idle hint of a 3-D linkage (in place of the planar "drag: move/pan ... attractor").
SPACE_HINT = (
    "drag empty space: turn (shift: pan) · drag a joint: move it · e: perspective · wheel: zoom"
)

#: The hint of a running 3-D linkage in dynamic mode (no right-click attractor in space).
DYNAMIC_SPACE_HINT = "dynamic: gravity along -z · space stops · drag a joint to pull it"


def branch_message(lines: int) -> str:
    """The hint at a singular stop with ``lines`` branch lines (``2 * lines`` ways on).

    >>> branch_message(2)
    'singular placement: 2 ways on — pick an arrow or press 1-4'
    """
    if lines == 0:
        return "singular placement: no way on found here (drag back, or space to stop)"
    ways = "1 way" if lines == 1 else f"{lines} ways"
    return f"singular placement: {ways} on — pick an arrow or press 1-{2 * lines}"


def hint_text(s: HintState) -> str:
    """The hint line under the canvas: the last message, else what the user can do now."""
    sel = s.selection
    if s.message:
        return s.message
    if s.status == "singular":
        return branch_message(s.branches)
    if s.status == "blocked" and (blocked := blocked_hint(s)):
        return blocked
    if s.drag_vertex is not None:
        return f"dragging vertex {s.drag_vertex}: the mechanism follows the pointer"
    if s.attractor and sel.vertex is not None:
        return (
            f"the attractor pulls vertex {sel.vertex} · right-click it to remove"
            " · space: start/stop"
        )
    if s.motors_running and s.running:
        return "motors turning: o stops · n reverses · space pauses"
    if s.running and s.mode == "dynamic":
        return (
            DYNAMIC_SPACE_HINT
            if s.space
            else "dynamic: space stops; right-click places the attractor"
        )
    return _idle_hint(s)


def angle_apex_hint(apex: int) -> str:
    """The angle tool's hint while joint ``apex`` is selected: it is the apex of the angle.

    >>> angle_apex_hint(2)
    "apex: joint 2 (selected); click the two arms' joints · click 2 again: another apex"
    """
    return (
        f"apex: joint {apex} (selected); click the two arms' joints"
        f" · click {apex} again: another apex"
    )


def blocked_hint(s: HintState) -> str:
    """``"blocked: <why>"`` while a motion is stopped short of its target, else ``""``.

    >>> blocked_hint(HintState("", 1, "blocked", False, Selection(1), False, "kinematic",
    ...                        "select", 3))
    'blocked: vertex 1 cannot get closer to the pointer (its rods and pins hold it)'
    """
    if s.reason:
        return f"blocked: {s.reason}"
    if s.drag_vertex is not None:
        return (
            f"blocked: vertex {s.drag_vertex} cannot get closer to the pointer"
            " (its rods and pins hold it)"
        )
    if s.attractor and s.selection.vertex is not None:
        return (
            f"blocked: vertex {s.selection.vertex} cannot get closer to the attractor"
            " (its rods and pins hold it) · right-click the attractor to remove it"
        )
    if s.motors_running and s.running:
        return "blocked: the motors cannot turn further (the linkage locks them) · n reverses"
    return ""


def _idle_hint(s: HintState) -> str:
    sel = s.selection
    if sel.vertex is not None and s.tool in ("angle", "slot"):  # the apex; the axis's first
        slot = f"slot axis from joint {sel.vertex} (selected): click the other axis joint"
        return slot if s.tool == "slot" else angle_apex_hint(sel.vertex)
    if sel.vertex is not None:
        v = sel.vertex
        return f"vertex {v}: alt-click the next vertex for a rod {v}-… · f pin · t track · d delete"
    if sel.rod is not None:
        return f"rod {sel.rod}: alt-click an adjacent rod: angle · z split · d delete"
    if s.tool != "select":
        return TOOL_TIPS[s.tool]
    if s.motors:
        return f"{s.motors} motor{'s' * (s.motors > 1)}: o starts them · n reverses"
    if s.n_vertices == 0:
        return "click to add vertices; alt-click vertices in turn to join them by rods"
    if s.space:
        return SPACE_HINT
    return "click: add/select · drag: move/pan · wheel: zoom · right-click: attractor"


#: Exports (PNG, SVG, GIF, tracks CSV) go into this folder beside the linkage file named in
#: the file box; for a bare name (the default) that is the kernel's working directory, the
#: notebook's folder. The session creates it on the first export.
EXPORT_DIR = "exports"


def export_path(file_name: str, suffix: str) -> Path:
    """The absolute path of an export: ``<folder of file_name>/exports/<stem><suffix>``.

    ``~`` is the home folder (never a folder named ``~``).

    >>> export_path("/course/peaucellier.txt", ".png").as_posix()
    '/course/exports/peaucellier.png'
    >>> export_path("~/a.txt", ".svg") == Path.home() / "exports" / "a.svg"
    True
    """
    path = Path(file_name).expanduser()
    return (path.parent / EXPORT_DIR / path.with_suffix(suffix).name).absolute()


def fit_hint(text: str, width: int, char_px: float = 7.8) -> str:
    """Drop trailing `` · `` parts of a hint that would not fit a canvas ``width`` px wide.

    ``char_px`` is the average width of a character of the 14 px hint font.

    >>> fit_hint("click: add · drag: move · wheel: zoom", 200)
    'click: add · drag: move'
    """
    room = int((width - 20) / char_px)
    while len(text) > room and " · " in text:
        text = text.rsplit(" · ", 1)[0]
    return text
