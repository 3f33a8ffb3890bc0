"""The session's pointer: presses, drags, releases and wheel turns, and the drag they make.

Part of :class:`~linkage_widget.session.LinkageSession` (a mixin over its
state): a gesture comes from the :class:`~.gestures.EventMerger` (the widget's
two event streams) or from the public :meth:`PointerMixin.press` /
:meth:`~PointerMixin.drag` / :meth:`~PointerMixin.release` of a script, by the
same path. What a press, click or drag means is decided in :mod:`.tools`; this
module keeps the state of the drag under way: the pulled vertex and the
pointer's world position (the motion's target), or a free (shift-) drag,
which edits a position.
"""

from __future__ import annotations

import math

import numpy as np

from ..draw import hit_test
from .gestures import Gesture
from .tools import click_action, drag_kind, link_action, press_kind

__all__ = ["ATTRACTOR_HIT_PX", "PointerMixin"]

ATTRACTOR_HIT_PX = 12.0  # a right-click this close to the attractor removes it


class PointerMixin:
    """Gestures of the :class:`~linkage_widget.session.LinkageSession` (module docstring)."""

    def _init_pointer(self) -> None:
        self._drag_vertex: int | None = None
        self._drag_target: np.ndarray | None = None
        self._free_drag = False  # shift-drag: editing a position, not moving the mechanism

    # ------------------------------------------------------------ public
    def press(
        self,
        x: float,
        y: float,
        button: int = 0,
        *,
        alt: bool = False,
        ctrl: bool = False,
        shift: bool = False,
    ) -> None:
        """Press ``button`` (0 left, 1 middle, 2 right) at pixel ``(x, y)``, with modifiers."""
        g = Gesture(float(x), float(y), int(button), bool(alt), bool(ctrl), bool(shift))
        self._merger.press(g)

    def drag(self, x: float, y: float) -> None:
        """Move the pressed pointer to pixel ``(x, y)`` (a drag past a few pixels)."""
        self._merger.move(x, y)

    def release(self, x: float | None = None, y: float | None = None) -> None:
        """Release the pointer (at ``(x, y)``, default: where it is): a click or a drag's end."""
        self._merger.release(x, y)

    def wheel(self, x: float, y: float, delta_y: float) -> None:
        """Turn the wheel by ``delta_y`` pixels at ``(x, y)``: zoom about that point."""
        self._on_wheel(float(x), float(y), float(delta_y))

    # ------------------------------------------------------------ handlers
    def _on_press(self, g: Gesture) -> None:
        if self._drag_vertex is not None or self._free_drag:
            self._end_drag()  # its release never came (e.g. it happened outside the page)
        self._message = ""
        kind = press_kind(g.action, self.tool)
        hit = hit_test(self.linkage, self._view, g.x, g.y)
        assert g.data is not None
        g.data.update(action=kind, hit=hit)
        if kind == "attract":
            self._guarded(lambda: self._attract_press(g))
        elif kind == "link":
            self._guarded(lambda: self._apply(link_action(hit, self._selection())))
        self._request_draw()

    def _on_drag(self, g: Gesture, dx: float, dy: float) -> None:
        assert g.data is not None
        what = drag_kind(g.data["action"], g.data["hit"])
        if what == "attractor":
            if self.attractor is not None and g.data.get("placed"):
                self.attractor = tuple(self._view.to_world([g.last_x, g.last_y]).tolist())
        elif what == "vertex":
            g.data["moved_vertex"] = True
            self._drag_to(g, g.data["hit"][1])
        elif what == "pan":
            self._view = self._view.panned(dx, dy)
            self._dirty = True
            self._pointer_input()

    def _on_release(self, g: Gesture, x: float, y: float) -> None:
        assert g.data is not None
        if g.data.get("moved_vertex"):
            self._end_drag()
            return
        if g.data.get("action") == "primary" and not g.dragged:
            action = click_action(self.tool, g.data["hit"], self._selection(), (g.x, g.y))
            self._guarded(lambda: self._apply(action))
        self._request_draw()

    def _on_wheel(self, x: float, y: float, delta_y: float) -> None:
        factor = math.exp(-float(np.clip(delta_y, -500.0, 500.0)) * 0.002)
        self._view = self._view.zoomed(x, y, factor)
        self._dirty = True
        self._pointer_input()

    def _attract_press(self, g: Gesture) -> None:
        """Right/ctrl-click: remove the attractor when on it, else place it here."""
        if self.attractor is not None:
            ax, ay = self._view.to_pixel(self.attractor)
            if math.hypot(ax - g.x, ay - g.y) <= ATTRACTOR_HIT_PX:
                self.attractor = None
                self._message = "attractor removed"
                return
        self.attractor = tuple(self._view.to_world([g.x, g.y]).tolist())
        assert g.data is not None
        g.data["placed"] = True
        if self.selected_vertex is None:
            self._message = "attractor placed: select a vertex for it to pull"

    # --------------------------------------------------------------- drags
    def _drag_to(self, g: Gesture, v: int) -> None:
        """Dragging vertex ``v``: the pointer is its attractor (shift: move it freely)."""
        target = self._view.to_world([g.last_x, g.last_y])
        if g.shift or self._free_drag:
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
        if self.mode == "kinematic" and self.attractor is None:
            self.running = False
        self._refresh_analysis()
        self._request_draw()
