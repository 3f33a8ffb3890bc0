"""Carrying out :class:`~.tools.Action` s: what each key, click and button does to a session.

:mod:`.tools` decides *what* to do from the input; :class:`Actions` (a controller the
session holds, holding no session) says what that changes: each handler takes the
:class:`~.outcome.Situation` (the values it reads) and the action's arguments and returns
an :class:`~.outcome.Outcome` (traits to set, an undoable edit of the :class:`~.document.Document`,
a message, a new view, a vertex moved ...), which the session applies in one place
(``LinkageSession._carry_out``). The :func:`action_table` names every kind's handler
explicitly: the controller's, the :class:`~.pointer.Pointer`'s (the drag), or the
session's own services (undo, files, exports, motors, recording).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from ..draw import CAMERA_VIEWS, camera_view
from ..examples import example_path
from ..io import atomic_write
from ..model import Linkage
from . import guide_tools, nac_view, rigidity_tools, rigidity_views, slide_drives, synthesis_tool
from .actuation import Actuation
from .branching import NO_BRANCH, BranchChoice
from .document import DEFAULT_FILE, Document
from .gestures import Key
from .joint_angle import AngleTool, angle_arm
from .keyboard import Keyboard
from .merge import file_message
from .outcome import NOTHING, Outcome, Situation
from .pointer import Pointer
from .tools import EXAMPLE_KEYS, SHIFTED_KEYS, VIEW_PRESETS, Action, example_key, key_action
from .vocabulary import Selection

__all__ = ["ESCAPE", "Actions", "Handler", "Services", "action_table", "key_to_action"]

#: What carries out an action kind: called with the :class:`~.tools.Action`'s ``args``;
#: an :class:`Outcome` it returns is applied by the session.
Handler = Callable[..., object]

#: What Esc changes: the motion stops, nothing is selected
ESCAPE = {"running": False, "selected_vertex": None, "selected_rod": None}


def key_to_action(key: Key, selection: Selection) -> Action | None:
    """The action of ``key`` (``None``: the key means nothing here)."""
    plain = not (key.ctrl or key.meta)
    if key.shift and plain and key.key in SHIFTED_KEYS:
        return Action(SHIFTED_KEYS[key.key])  # the combo does not name shift alone
    number = example_key(key.key, key.alt and plain)
    if number is not None:  # nor alt
        return Action("load_example", (number,))
    return key_action(key.combo, selection)


def _rod_linked(i: int, j: int, doc: Document) -> str:
    said = doc.toggle_rod(i, j)
    if doc.linkage.find_rod(i, j) is not None:
        return f"rod {i}-{j} added; joint {j} selected: alt-click the next joint to go on"
    return f"{said}; joint {j} selected"


def _cleared(doc: Document) -> str:
    doc.clear()
    return "cleared (ctrl-z to undo)"


def _split(r: int, doc: Document) -> str:
    doc.split_rod(r)
    return f"rod {r} split"


class Actions:
    """The handlers of the action kinds that change the session's own state (module docstring).

    Each takes the :class:`Situation` and the action's arguments and returns an
    :class:`Outcome`. Its state: the view preset shown (``v`` cycles them in the plane,
    ``V`` in space) and the camera view of a 3-D linkage (``v`` cycles the eight).
    """

    def __init__(self, branching: BranchChoice | None = None) -> None:
        self.keyboard = Keyboard()
        self.branching = branching or BranchChoice()
        self.preset = 0
        self.camera_view = len(CAMERA_VIEWS) - 1  # the opening view: v goes to the front
        self.slot_tool = guide_tools.SlotTool()  # the slot's axis, chosen by two clicks
        self.extension_tool = rigidity_tools.ExtensionTool()  # the Henneberg tools' picks
        self.angle_tool = AngleTool()  # the angle tool's first arm (.joint_angle)
        self.ghosts = rigidity_views.Ghosts()  # other placements shown (.ghosts)
        self.nac = nac_view.NACView()  # the NAC-colouring shown and its flex
        self.synthesis = synthesis_tool.SynthesisTool()  # a target curve and its linkages

    # ------------------------------------------------------------ selection
    def none(self, now: Situation) -> Outcome:
        """Nothing (kind ``"message"`` too: the action's message is all there is to it)."""
        return NOTHING

    def select(self, now: Situation, kind: str, index: int | None) -> Outcome:
        """Select vertex or rod ``index`` (``None``: deselect)."""
        return Outcome({"selected_vertex" if kind == "vertex" else "selected_rod": index})

    def escape(self, now: Situation) -> Outcome:
        """Stop the motion and deselect."""
        return Outcome(ESCAPE)

    def key(self, now: Situation, kind: str, *args: Any) -> Outcome:
        """A keyboard-only action (:class:`.keyboard.Keyboard`): its traits, then its message."""
        change = self.keyboard.change(kind, now.traits, *args)
        traits = {**change.traits, **(ESCAPE if change.escape else {})}
        return Outcome(traits=traits, message=change.message)

    # ---------------------------------------------------------------- edits
    def add_vertex(
        self, now: Situation, x: float, y: float, link_from: int | None = None
    ) -> Outcome:
        """Add a vertex at pixel ``(x, y)``, selected (the rod tool: linked to ``link_from``)."""
        xy = now.world(x, y)  # in space: on the plane through the camera's centre
        v = now.linkage.n_vertices  # the added vertex's index
        then = None if link_from is None else self.toggle_rod(now, link_from, v, v)
        return Outcome(
            {"selected_vertex": v}, lambda doc: f"vertex {doc.add_vertex(xy)} added", then=then
        )

    def toggle_rod(self, now: Situation, i: int, j: int, select: int | None) -> Outcome:
        """Rod ``i``-``j`` on or off; then ``select`` is the selected vertex."""
        traits = {} if select is None else {"selected_vertex": select}
        kind = now.traits.get("rod_kind", "rod")  # a rod, a cable or a strut (.rigidity_tools)
        return Outcome(traits=traits, edit=lambda doc: doc.toggle_rod(i, j, kind))

    def link_rod(self, now: Situation, i: int, j: int) -> Outcome:
        """Middle/alt-click on ``j`` with ``i`` selected: rod ``i``-``j`` on or off, ``j`` selected.

        The next alt-click goes on from ``j`` (a path, as a polyline tool draws); the
        hint line says which rod and how to go on.
        """
        return Outcome(traits={"selected_vertex": j}, edit=partial(_rod_linked, i, j))

    def toggle_angle(self, now: Situation, r1: int, r2: int) -> Outcome:
        """The fixed angle between rods ``r1`` and ``r2`` on or off."""
        return Outcome(edit=lambda doc: doc.toggle_angle(r1, r2))

    def toggle_pin(self, now: Situation, v: int) -> Outcome:
        """Pin or unpin vertex ``v``."""
        return Outcome(edit=lambda doc: doc.toggle_pin(v))

    def toggle_track(self, now: Situation, v: int) -> Outcome:
        """Track vertex ``v``'s path or stop tracking it."""
        return Outcome(edit=lambda doc: doc.toggle_track(v))

    def delete_vertex(self, now: Situation, v: int) -> Outcome:
        """Delete vertex ``v``; the attractor (it pulled the selected vertex) goes too."""
        traits = {"selected_vertex": None, "attractor": None}
        return Outcome(traits=traits, edit=lambda doc: doc.delete_vertex(v))

    def delete_rod(self, now: Situation, r: int) -> Outcome:
        """Delete rod ``r``."""
        return Outcome(traits={"selected_rod": None}, edit=lambda doc: doc.delete_rod(r))

    def split(self, now: Situation, r: int) -> Outcome:
        """Split rod ``r`` at its middle; the new vertex is selected."""
        new = {"selected_vertex": now.linkage.n_vertices}
        return Outcome(traits=new, edit=partial(_split, r))

    # ------------------------------------------------ sliders and slots (.guide_tools)
    def toggle_slider(self, now: Situation, v: int) -> Outcome:
        """The slider tool's click on joint ``v``: a horizontal slider, or its slider goes."""
        return Outcome(edit=partial(guide_tools.toggle_slider, v))

    def aim_slider(self, now: Situation, v: int, x: float, y: float) -> Outcome:
        """The slider tool's drag from ``v`` to pixel ``(x, y)``: the hint names the line."""
        direction = guide_tools.drag_direction(now.linkage, v, now.world(x, y))
        if direction is None:
            return NOTHING
        return Outcome(message=guide_tools.aim_message(v, direction))

    def set_slider(self, now: Situation, v: int, x: float, y: float) -> Outcome:
        """The end of the slider tool's drag: joint ``v`` slides along the drag."""
        direction = guide_tools.drag_direction(now.linkage, v, now.world(x, y))
        if direction is None:
            raise ValueError("drag from the joint along the line it should slide on")
        return Outcome(edit=partial(guide_tools.set_slider, v, direction))

    def slot_pick(self, now: Situation, first: int, joint: int) -> Outcome:
        """The slot tool's click on ``joint``, ``first`` selected: the axis, or the slot."""
        said, slot = self.slot_tool.click(first, joint, now.linkage.n_vertices)
        if slot is None:
            return Outcome(message=said)
        return Outcome({"selected_vertex": None}, edit=partial(guide_tools.toggle_slot, *slot))

    def delete_guide(self, now: Situation, kind: str, index: int) -> Outcome:
        """Delete slider or slot ``index`` (``kind``); its joints stay."""
        return Outcome(edit=partial(guide_tools.delete_guide, kind, index))

    def clear(self, now: Situation) -> Outcome:
        """Delete everything (undoably)."""
        traits = {"selected_vertex": None, "selected_rod": None, "attractor": None}
        return Outcome(traits=traits, edit=_cleared)

    # -------------------------------------------------------------- pointer
    def place_attractor(self, now: Situation, x: float, y: float) -> Outcome:
        """Put the attractor at pixel ``(x, y)`` (refused in space)."""
        why = now.viewer.attractor_refusal()
        if why:
            raise ValueError(why)
        return Outcome({"attractor": tuple(now.view.to_world([x, y]).tolist())})

    def remove_attractor(self, now: Situation) -> Outcome:
        """Take the attractor away."""
        return Outcome({"attractor": None})

    def move_attractor(self, now: Situation, x: float, y: float) -> Outcome:
        """Move the attractor, if there is one, to pixel ``(x, y)``."""
        return NOTHING if now.attractor is None else self.place_attractor(now, x, y)

    def pick_branch(self, now: Situation, way: int) -> Outcome:
        """Follow way ``way`` of a singular stop (1-based, :meth:`.BranchChoice.way`)."""
        picked = self.branching.way(now.branches, way)
        if picked is None:
            return Outcome(message=NO_BRANCH)
        said = f"branch {way}: the motion goes on along it"
        return Outcome(branch=picked, traits={"running": True}, message=said, finish="animate")

    def pan(self, now: Situation, dx: float, dy: float) -> Outcome:
        """Pan the view by ``(dx, dy)`` pixels."""
        return Outcome(view=now.view.panned(dx, dy))

    def zoom(self, now: Situation, x: float, y: float, factor: float) -> Outcome:
        """Zoom by ``factor`` about pixel ``(x, y)``."""
        return Outcome(view=now.view.zoomed(x, y, factor))

    def pinch(self, now: Situation, x: float, y: float, dx: float, dy: float, f: float) -> Outcome:
        """Zoom by ``f`` about pixel ``(x, y)``, then pan by ``(dx, dy)`` (:mod:`.touch`)."""
        return Outcome(view=now.view.zoomed(x, y, f).panned(dx, dy))

    # ----------------------------------------------------------------- view
    def view_preset(self, now: Situation) -> Outcome:
        """Key v: in space the next of the eight camera views, in the plane of the presets.

        The views are :data:`~linkage_widget.draw.view3d.CAMERA_VIEWS` (six along the axes,
        the isometric, the opening oblique); the presets :data:`~.tools.VIEW_PRESETS`,
        which ``V`` (:meth:`display_preset`) cycles in space.
        """
        if not now.viewer.space:
            return self.display_preset(now)
        self.camera_view = (self.camera_view + 1) % len(CAMERA_VIEWS)
        name, rotation = camera_view(self.camera_view)
        k, count = self.camera_view + 1, len(CAMERA_VIEWS)
        return Outcome(turn=rotation, message=f"view {k}/{count}: {name} (v next; V what is shown)")

    def display_preset(self, now: Situation) -> Outcome:
        """The next of :data:`~.tools.VIEW_PRESETS` (what the picture shows)."""
        self.preset = (self.preset + 1) % len(VIEW_PRESETS)
        name, vel, stress, pebbles = VIEW_PRESETS[self.preset]
        shown = {"show_velocities": vel, "show_stresses": stress, "show_pebbles": pebbles}
        return Outcome(traits=shown, message=f"view: {name} (v for the next)")

    def rotate_view(self, now: Situation, x0: float, y0: float, x1: float, y1: float) -> Outcome:
        """Turn the camera as the background was dragged from ``(x0, y0)`` to ``(x1, y1)``."""
        camera = getattr(now.viewer, "camera", None)  # a SpaceView's; none in the plane
        if camera is None:
            return NOTHING
        return Outcome(turn=camera.rotated_by_drag(now.view, x0, y0, x1, y1).rotation)

    def toggle_projection(self, now: Situation) -> Outcome:
        """Key e: perspective <-> orthographic (a 3-D linkage's; in the plane, what e is for)."""
        projection, said = now.viewer.toggled(now.traits["projection"])
        return Outcome({"projection": projection}, message=said)

    def toggle_info(self, now: Situation) -> Outcome:
        """Show or hide the info panel."""
        return Outcome({"show_info": not now.traits["show_info"]})

    def toggle_running(self, now: Situation) -> Outcome:
        """Start or stop the motion (nothing to move: say how to)."""
        if not now.traits["running"] and now.mode == "kinematic" and now.idle:
            said = "right-click to place an attractor (or drag a vertex) to move"
            return Outcome(message=said, finish="draw")
        return Outcome({"running": not now.traits["running"]})

    def toggle_recording(self, now: Situation, save: Callable[[], object]) -> Outcome:
        """Start recording, or stop and ``save`` the recording (in the background in a loop)."""
        if not now.traits["recording"]:
            said = "recording: move something, then r (or the button) to save the GIF"
            return Outcome({"recording": True}, message=said)
        return Outcome({"recording": False}, after=save)


# ------------------------------------------------------- the session's services
@dataclass(frozen=True)
class Services:
    """What the action table calls of its session: callables the session hands over.

    The table reads the session through these and nothing else (it is never given the
    session): the situation of the moment, undoable actuation, files and exports.
    """

    situation: Callable[[], Situation]  #: the values the handlers read, now
    linkage: Callable[[], Linkage]  #: the model now (after a load: the new one)
    actuate: Callable[..., object]  #: ``(Actuation method, *args)``, applied undoably
    export: Callable[[str, str, Callable[[Path], Any]], Path]  #: ``(suffix, mime, write)``
    save: Callable[[], Path]
    load_file: Callable[[Any], bool]
    add_spring: Callable[[int, int], None]
    to_png: Callable[[Path], Path]
    to_svg: Callable[[], str]
    save_tracks_csv: Callable[[Path], Path]
    undo: Callable[[], bool]
    redo: Callable[[], bool]
    fit: Callable[[], None]
    merge_file: Callable[[Any], object]
    save_recording: Callable[[], None]
    cancel_export: Callable[[], bool]  #: cancel a running export; whether one ran
    animate: Callable[[Any], None]  #: a PanelIntent's placements, one a frame, one undo step
    run: Callable[..., None]  #: ``(kind, *args)``: an action carried out later (a search's end)


def _save(on: Services, now: Situation) -> Outcome:
    on.save()  # its message says where, and what was left out
    return Outcome({"error": ""}, finish="draw")


def _load(on: Services, now: Situation) -> Outcome:
    with suppress(OSError, ValueError):  # load_file has put the message into error
        on.load_file(now.traits["file_name"] or DEFAULT_FILE)  # its message gives the counts
    return NOTHING


def _load_example(on: Services, now: Situation, number: int) -> Outcome:
    """Load bundled example ``number`` (1-based, :data:`~.tools.EXAMPLE_KEYS`), undoably."""
    name = f"{EXAMPLE_KEYS[number - 1]}.txt"
    on.load_file(example_path(name))  # the bundled file, whatever the folder holds
    loaded = file_message("loaded", name, on.linkage())
    return Outcome(message=f"example {number}: {loaded} (ctrl-z: back)")


def _merge(on: Services, now: Situation) -> Outcome:
    """Merge the file named in the file box (``L``); a failure's message is in ``error``."""
    with suppress(OSError, ValueError):
        on.merge_file(now.traits["file_name"] or DEFAULT_FILE)
    return NOTHING


def _cancel_export(on: Services, now: Situation) -> Outcome:
    """Cancel a running export, saying so."""
    return Outcome(message="cancelling the export ...") if on.cancel_export() else NOTHING


def _export_png(on: Services, now: Situation) -> Outcome:
    path = on.export(".png", "image/png", on.to_png)
    return Outcome(message=f"picture saved: {path}")


def _export_svg(on: Services, now: Situation) -> Outcome:
    path = on.export(".svg", "image/svg+xml", lambda p: atomic_write(p, on.to_svg()))
    return Outcome(message=f"SVG saved: {path}")


def _motor_joint(on: Services, now: Situation, v: int) -> Outcome:
    """The motor tool on joint ``v``: a linear motor on its slider, else (de)select it."""
    s = now.linkage.guides.slider_of(v) if now.linkage.dim == 2 else None
    if s is None:
        return Outcome({"selected_vertex": None if now.selection.vertex == v else v})
    on.actuate(slide_drives.linear_motor_at, s)
    return NOTHING


def _spring_between(on: Services, now: Situation, i: int, j: int) -> Outcome:
    on.add_spring(i, j)  # its message says what was added
    return Outcome({"selected_vertex": j})


def _export_tracks(on: Services, now: Situation) -> Outcome:
    if not now.traits["tracked"]:
        return Outcome(message="track a vertex first (t), move, then export its locus")
    path = on.export(".csv", "text/csv", on.save_tracks_csv)
    return Outcome(message=f"tracks saved: {path}")


def _given(now: Callable[[], Situation], handler: Callable[..., Outcome]) -> Handler:
    """``handler`` called with the session's situation at the time, then the action's args."""
    return lambda *args: handler(now(), *args)


def _key(now: Callable[[], Situation], act: Actions, kind: str) -> Handler:
    """The handler of a keyboard-only ``kind`` (:class:`.keyboard.Keyboard` decides)."""
    return lambda *args: act.key(now(), kind, *args)


def action_table(on: Services, act: Actions, pointer: Pointer) -> dict[str, Handler]:
    """Every action kind and its handler, explicitly (``on``: what the session hands over).

    Built once per session: a kind missing here is a ``KeyError`` where it is applied,
    never a method found by its name.
    """
    now = on.situation
    return {
        **_edit_handlers(now, act),
        **_view_handlers(now, act, pointer, on),
        **_motion_and_file_handlers(now, act, on),
    }


def _edit_handlers(now: Callable[[], Situation], act: Actions) -> dict[str, Handler]:
    """Selection, messages and the edits of the document."""
    return {
        "none": _given(now, act.none),
        "message": _given(now, act.none),
        "select": _given(now, act.select),
        "escape": _given(now, act.escape),
        "leave_or_escape": _key(now, act, "leave_or_escape"),
        "add_vertex": _given(now, act.add_vertex),
        "toggle_rod": _given(now, act.toggle_rod),
        "link_rod": _given(now, act.link_rod),
        "toggle_angle": _given(now, act.toggle_angle),
        "toggle_pin": _given(now, act.toggle_pin),
        "toggle_track": _given(now, act.toggle_track),
        "delete_vertex": _given(now, act.delete_vertex),
        "delete_rod": _given(now, act.delete_rod),
        "split": _given(now, act.split),
        "toggle_slider": _given(now, act.toggle_slider),
        "aim_slider": _given(now, act.aim_slider),
        "set_slider": _given(now, act.set_slider),
        "slot_pick": _given(now, act.slot_pick),
        "delete_guide": _given(now, act.delete_guide),
        "clear": _given(now, act.clear),
        "rod_click": _given(now, rigidity_tools.rod_click),
        "cycle_kind": _given(now, rigidity_tools.cycle_kind),
        "extension_click": _given(now, partial(rigidity_tools.extension_click, act.extension_tool)),
        **{k: _given(now, partial(f, act.ghosts)) for k, f in rigidity_views.GHOST_ACTIONS.items()},
    }


def _view_handlers(
    now: Callable[[], Situation], act: Actions, pointer: Pointer, on: Services
) -> dict[str, Handler]:
    """The pointer, the view and what it shows."""
    return {
        "place_attractor": _given(now, act.place_attractor),
        "remove_attractor": _given(now, act.remove_attractor),
        "move_attractor": _given(now, act.move_attractor),
        "drag_vertex": _given(now, pointer.drag_vertex),
        "end_drag": _given(now, pointer.end_drag),
        "pan": _given(now, act.pan),
        "zoom": _given(now, act.zoom),
        "pinch": _given(now, act.pinch),
        "rotate_view": _given(now, act.rotate_view),
        "toggle_projection": _given(now, act.toggle_projection),
        "angle_arm": _given(now, partial(angle_arm, act.angle_tool)),
        "fit": on.fit,
        "view_preset": _given(now, act.view_preset),
        "display_preset": _given(now, act.display_preset),
        "toggle_info": _given(now, act.toggle_info),
        "toggle_trait": _key(now, act, "toggle_trait"),
        "toggle_forces": _key(now, act, "toggle_forces"),
        "toggle_presentation": _key(now, act, "toggle_presentation"),
        "next_tool": _key(now, act, "next_tool"),
        "synthesis_tool": _key(now, act, "synthesis_tool"),
        "previous_tool": _key(now, act, "previous_tool"),
        "toggle_mode": _key(now, act, "toggle_mode"),
    }


def _motion_and_file_handlers(
    now: Callable[[], Situation], act: Actions, on: Services
) -> dict[str, Handler]:
    """Motion, motors and loads, undo, files and exports (the session's services)."""
    return {
        "toggle_running": _given(now, act.toggle_running),
        "pick_branch": _given(now, act.pick_branch),
        "toggle_motors": partial(on.actuate, Actuation.key_toggle_motors),
        "reverse_motors": partial(on.actuate, Actuation.reverse_motors),
        "motor_at": partial(on.actuate, Actuation.motor_at),
        "linear_motor_at": partial(on.actuate, slide_drives.linear_motor_at),
        "motor_joint": _given(now, partial(_motor_joint, on)),
        "spring_between": _given(now, partial(_spring_between, on)),
        "toggle_load": partial(on.actuate, Actuation.toggle_load),
        "aim_load": partial(on.actuate, Actuation.aim_load),
        "set_load": partial(on.actuate, Actuation.set_load),
        "undo": on.undo,
        "redo": on.redo,
        "save": _given(now, partial(_save, on)),
        "load": _given(now, partial(_load, on)),
        "load_example": _given(now, partial(_load_example, on)),
        "merge": _given(now, partial(_merge, on)),
        "export_png": _given(now, partial(_export_png, on)),
        "export_svg": _given(now, partial(_export_svg, on)),
        "export_tracks": _given(now, partial(_export_tracks, on)),
        "toggle_recording": _given(now, partial(act.toggle_recording, save=on.save_recording)),
        "cancel_export": _given(now, partial(_cancel_export, on)),
        **nac_view.nac_handlers(now, act.nac, on.animate),
        **synthesis_tool.synthesis_handlers(now, act.synthesis, on.run),
    }
