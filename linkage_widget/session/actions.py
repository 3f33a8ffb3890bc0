"""Carrying out :class:`~.tools.Action` s: what each key, click and button does to a session.

Part of :class:`~linkage_widget.session.LinkageSession` (a mixin over its
state). :mod:`.tools` decides *what* to do from the input; each ``_do_<kind>``
here does it, through the session's undoable :meth:`_edit` when it changes the
document (whose index-safe edits are in :class:`~.document.Document`).
"""

from __future__ import annotations

import numpy as np

from ..examples import example_path
from ..io import atomic_write
from .document import DEFAULT_FILE
from .gestures import Key
from .tools import EXAMPLE_KEYS, SHIFTED_KEYS, VIEW_PRESETS, Action, example_key, key_action

__all__ = ["ActionsMixin"]


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
        self.attractor = tuple(self._view.to_world([x, y]).tolist())

    def _do_remove_attractor(self) -> None:
        self.attractor = None

    def _do_move_attractor(self, x: float, y: float) -> None:
        if self.attractor is not None:
            self._do_place_attractor(x, y)

    def _do_drag_vertex(self, v: int, x: float, y: float, shift: bool) -> None:
        """Drag vertex ``v`` to pixel ``(x, y)``: it pulls the mechanism (shift: moves freely)."""
        target = self._pointer_world(x, y, v)  # in space: the plane through v (space_view)
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

    def _do_toggle_recording(self) -> None:
        if not self.recording:
            self.recording = True
            self._message = "recording: move something, then r (or the button) to save the GIF"
            return
        self.recording = False
        self._save_recording()  # export_session: in the background when a loop runs
