"""Carrying out :class:`~.tools.Action` s: what each key, click and button does to a session.

Part of :class:`~linkage_widget.session.LinkageSession` (a mixin over its
state). :mod:`.tools` decides *what* to do from the input; each ``_do_<kind>``
here does it, through the session's undoable :meth:`_edit` when it changes the
document (whose index-safe edits are in :class:`~.document.Document`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from ..examples import example_path
from ..io import atomic_write
from .actuation import Actuation
from .branching import NO_BRANCH
from .document import DEFAULT_FILE
from .gestures import Key
from .tools import EXAMPLE_KEYS, SHIFTED_KEYS, VIEW_PRESETS, Action, example_key, key_action

__all__ = ["ActionsMixin", "Handler", "action_table"]

#: What carries out an action kind: called with the :class:`~.tools.Action`'s ``args``.
Handler = Callable[..., None]


class ActionsMixin:
    """The ``_do_<kind>`` of every action kind of :mod:`.tools` (module docstring)."""

    def _key_action(self, key: Key) -> Action | None:
        plain = not (key.ctrl or key.meta)
        if key.shift and plain and key.key in SHIFTED_KEYS:
            return Action(SHIFTED_KEYS[key.key])  # the combo does not name shift alone
        number = example_key(key.key, key.alt and plain)
        if number is not None:  # nor alt
            return Action("load_example", (number,))
        return key_action(key.combo, self._selection())

    # ------------------------------------------------------------ selection
    def _do_none(self) -> None:
        pass

    def _do_message(self) -> None:
        pass  # the action's message is all there is to it

    def _do_select(self, kind: str, index: int | None) -> None:
        if kind == "vertex":
            self.selected_vertex = index
        else:
            self.selected_rod = index

    def _do_escape(self) -> None:
        self.running = False
        self.selected_vertex = None
        self.selected_rod = None

    # ---------------------------------------------------------------- edits
    def _do_add_vertex(self, x: float, y: float, link_from: int | None = None) -> None:
        xy = self._pointer_world(x, y)  # in space: on the plane through the camera's centre
        added: list[int] = []
        self._edit(lambda: added.append(self.document.add_vertex(xy)))
        if not added:
            return
        v = added[0]
        self.selected_vertex = v
        self._message = f"vertex {v} added"
        if link_from is not None:  # the rod tool: join it to the vertex selected before
            self._do_toggle_rod(link_from, v, v)

    def _do_toggle_rod(self, i: int, j: int, select: int | None) -> None:
        self._edit(lambda: self.document.toggle_rod(i, j))
        if select is not None:
            self.selected_vertex = select

    def _do_toggle_angle(self, r1: int, r2: int) -> None:
        self._edit(lambda: self.document.toggle_angle(r1, r2))

    def _do_toggle_pin(self, v: int) -> None:
        self._edit(lambda: self.document.toggle_pin(v))

    def _do_toggle_track(self, v: int) -> None:
        self._edit(lambda: self.document.toggle_track(v))

    def _do_spring_between(self, i: int, j: int) -> None:
        self.add_spring(i, j)
        self.selected_vertex = j

    def _do_delete_vertex(self, v: int) -> None:
        def change() -> str:
            self.selected_vertex = None
            self.attractor = None  # it pulled the selected vertex; nothing is selected now
            return self.document.delete_vertex(v)

        self._edit(change)

    def _do_delete_rod(self, r: int) -> None:
        def change() -> str:
            self.selected_rod = None
            return self.document.delete_rod(r)

        self._edit(change)

    def _do_split(self, r: int) -> None:
        def change() -> str:
            self.selected_vertex = self.document.split_rod(r)
            return f"rod {r} split"

        self._edit(change)

    def _do_clear(self) -> None:
        def change() -> str:
            self.selected_vertex = None
            self.selected_rod = None
            self.attractor = None
            self.document.clear()
            return "cleared (ctrl-z to undo)"

        self._edit(change)

    def _do_undo(self) -> None:
        self.undo()

    def _do_redo(self) -> None:
        self.redo()

    # -------------------------------------------------------------- pointer
    def _do_place_attractor(self, x: float, y: float) -> None:
        self._refuse(self._viewer.attractor_refusal())  # in space: no attractor
        self.attractor = tuple(self._view.to_world([x, y]).tolist())

    def _do_remove_attractor(self) -> None:
        self.attractor = None

    def _do_move_attractor(self, x: float, y: float) -> None:
        if self.attractor is not None:
            self._do_place_attractor(x, y)

    def _do_drag_vertex(self, v: int, x: float, y: float, shift: bool) -> None:
        """Drag vertex ``v`` to pixel ``(x, y)``: it pulls the mechanism (shift: moves freely)."""
        target = self._pointer_world(x, y, v)  # in space: the plane through v (.space_view)
        if shift or self._free_drag:
            self._free_move(v, target)
            return
        if self._drag_vertex is None:
            self._drag_vertex = v
            self.selected_vertex = v
            if self.linkage.is_pinned(v):
                self._message = f"vertex {v} is pinned: f unpins it, shift-drag moves it"
            self.running = True
        self._drag_target = target
        self.driver.unsettle()
        self._pointer_input()

    def _free_move(self, v: int, target: np.ndarray) -> None:
        if not self._free_drag:
            self._commit_motion()
            self._history.record(self.document.snapshot())
            self._free_drag = True
            self.selected_vertex = v
        try:
            self.linkage.move_vertex(v, target)
        except ValueError:
            return  # onto a neighbour: skip this position, keep dragging
        self._pos_version += 1
        self.driver.invalidate()
        self._request_draw()

    def _end_drag(self) -> None:
        if self._free_drag:
            self._free_drag = False
            self._after_edit()
            return
        self._drag_vertex = None
        self._drag_target = None
        if self.mode == "kinematic" and self.attractor is None and not self._motors_on():
            self.running = False
        self._refresh_analysis()
        self._request_draw()

    def _branch_directions(self) -> np.ndarray | None:
        """The branch lines offered at a singular stop, else ``None`` (:mod:`.branching`)."""
        sim = self.driver.simulator
        return self._branching.directions(self._status, sim, self.linkage.n_vertices)

    def _do_pick_branch(self, way: int) -> None:
        """Follow way ``way`` of a singular stop (1-based, :meth:`.BranchChoice.way`)."""
        picked = self._branching.way(self._branch_directions(), way)
        if picked is None:
            self._message = NO_BRANCH
            return
        positions = self.driver.follow_branch(*picked)
        self.linkage.set_positions(positions)
        self._pos_version += 1
        self._tracks.append(positions)
        self._status = "moved"
        self._message = f"branch {way}: the motion goes on along it"
        self.running = True
        self._start_animation()

    def _do_end_drag(self) -> None:
        self._end_drag()

    def _do_pan(self, dx: float, dy: float) -> None:
        self._view = self._view.panned(dx, dy)
        self._dirty = True
        self._pointer_input()

    def _do_zoom(self, x: float, y: float, factor: float) -> None:
        self._view = self._view.zoomed(x, y, factor)
        self._dirty = True
        self._pointer_input()

    # ----------------------------------------------------------------- view
    def _do_fit(self) -> None:
        self.fit()

    def _do_view_preset(self) -> None:
        self._preset = (self._preset + 1) % len(VIEW_PRESETS)
        name, vel, stress, pebbles = VIEW_PRESETS[self._preset]
        with self.hold_trait_notifications():
            self.show_velocities, self.show_stresses, self.show_pebbles = vel, stress, pebbles
        self._message = f"view: {name} (v for the next)"

    def _do_key(self, kind: str, *args: Any) -> None:
        """A keyboard-only action (:class:`.keyboard.Keyboard`): its traits, then its message."""
        change = self._keyboard.change(kind, self.trait_values(), *args)
        for name, value in change.traits.items():
            setattr(self, name, value)
        if change.message is not None:
            self._message = change.message
        if change.escape:
            self._do_escape()

    def _do_toggle_info(self) -> None:
        self.show_info = not self.show_info

    # --------------------------------------------------------------- motion
    def _do_toggle_running(self) -> None:
        idle = self._target() is None and not self._motors_on()
        if not self.running and self.mode == "kinematic" and idle:
            self._message = "right-click to place an attractor (or drag a vertex) to move"
            self._request_draw()
            return
        self.running = not self.running

    # ---------------------------------------------------------------- files
    def _do_save(self) -> None:
        path = self.save()
        self.error = ""
        self._message = self._file_message("saved", path)
        self._request_draw()

    def _do_load(self) -> None:
        name = self.file_name or DEFAULT_FILE
        try:
            self.load_file(name)  # its message gives the counts
        except (OSError, ValueError):  # load_file has put the message into self.error
            return

    def _do_load_example(self, number: int) -> None:
        """Load bundled example ``number`` (1-based, :data:`~.tools.EXAMPLE_KEYS`), undoably."""
        name = f"{EXAMPLE_KEYS[number - 1]}.txt"
        self.load_file(example_path(name))  # the bundled file, whatever the folder holds
        self._message = f"example {number}: {self._loaded(name, self.linkage)} (ctrl-z: back)"

    def _do_export_png(self) -> None:
        path = self._export(".png", "image/png", self.to_png)
        self._message = f"picture saved: {path}"

    def _do_export_svg(self) -> None:
        path = self._export(".svg", "image/svg+xml", lambda p: atomic_write(p, self.to_svg()))
        self._message = f"SVG saved: {path}"

    def _do_export_tracks(self) -> None:
        if not self.tracked:
            self._message = "track a vertex first (t), move, then export its locus"
            return
        path = self._export(".csv", "text/csv", self.save_tracks_csv)
        self._message = f"tracks saved: {path}"

    def _do_toggle_recording(self) -> None:
        if not self.recording:
            self.recording = True
            self._message = "recording: move something, then r (or the button) to save the GIF"
            return
        self.recording = False
        self._save_recording()  # export_session: in the background when a loop runs


def action_table(on: Any) -> dict[str, Handler]:
    """Every action kind and the handler that carries it out: ``{kind: on._do_<kind>}``.

    Built once per session (``on``), explicitly: a kind missing here is a ``KeyError``
    where it is applied, never a method found by its name. Each handler is ``on``'s bound
    method, looked up now.
    """
    return {**_edit_handlers(on), **_view_handlers(on), **_motion_and_file_handlers(on)}


def _edit_handlers(on: Any) -> dict[str, Handler]:
    """Selection, messages and the edits of the document."""
    return {
        "none": on._do_none,
        "message": on._do_message,
        "select": on._do_select,
        "escape": on._do_escape,
        "leave_or_escape": partial(on._do_key, "leave_or_escape"),
        "add_vertex": on._do_add_vertex,
        "toggle_rod": on._do_toggle_rod,
        "link_rod": on._do_link_rod,
        "toggle_angle": on._do_toggle_angle,
        "angle_arm": on._do_angle_arm,
        "toggle_pin": on._do_toggle_pin,
        "toggle_track": on._do_toggle_track,
        "delete_vertex": on._do_delete_vertex,
        "delete_rod": on._do_delete_rod,
        "split": on._do_split,
        "clear": on._do_clear,
        "undo": on._do_undo,
        "redo": on._do_redo,
    }


def _view_handlers(on: Any) -> dict[str, Handler]:
    """The pointer, the view and what it shows."""
    return {
        "place_attractor": on._do_place_attractor,
        "remove_attractor": on._do_remove_attractor,
        "move_attractor": on._do_move_attractor,
        "drag_vertex": on._do_drag_vertex,
        "end_drag": on._do_end_drag,
        "pan": on._do_pan,
        "zoom": on._do_zoom,
        "pinch": on._do_pinch,
        "rotate_view": on._do_rotate_view,
        "toggle_projection": on._do_toggle_projection,
        "fit": on._do_fit,
        "view_preset": on._do_view_preset,
        "toggle_info": on._do_toggle_info,
        "toggle_trait": partial(on._do_key, "toggle_trait"),
        "toggle_forces": partial(on._do_key, "toggle_forces"),
        "toggle_presentation": partial(on._do_key, "toggle_presentation"),
        "next_tool": partial(on._do_key, "next_tool"),
        "previous_tool": partial(on._do_key, "previous_tool"),
        "toggle_mode": partial(on._do_key, "toggle_mode"),
    }


def _motion_and_file_handlers(on: Any) -> dict[str, Handler]:
    """Motion, motors and loads, files and exports."""
    return {
        "toggle_running": on._do_toggle_running,
        "pick_branch": on._do_pick_branch,
        "toggle_motors": partial(on._actuate, Actuation.key_toggle_motors),
        "reverse_motors": partial(on._actuate, Actuation.reverse_motors),
        "motor_at": partial(on._actuate, Actuation.motor_at),
        "spring_between": on._do_spring_between,
        "toggle_load": partial(on._actuate, Actuation.toggle_load),
        "aim_load": partial(on._actuate, Actuation.aim_load),
        "set_load": partial(on._actuate, Actuation.set_load),
        "save": on._do_save,
        "load": on._do_load,
        "load_example": on._do_load_example,
        "merge": on._do_merge,
        "export_png": on._do_export_png,
        "export_svg": on._do_export_svg,
        "export_tracks": on._do_export_tracks,
        "toggle_recording": on._do_toggle_recording,
        "cancel_export": on._do_cancel_export,
    }
