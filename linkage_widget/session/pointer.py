"""The session's pointer: presses, drags, releases and wheel turns, and the drag they make.

Part of :class:`~linkage_widget.session.LinkageSession` (a mixin over its
state): a gesture comes from the :class:`~.gestures.EventMerger` (the widget's
two event streams) or from the public :meth:`PointerMixin.press` /
:meth:`~PointerMixin.drag` / :meth:`~PointerMixin.release` of a script, by the
same path. What a press, click, drag or wheel turn means is decided in
:mod:`.tools` (pure) through :class:`Pointer` (a controller the session holds: a
gesture and values in, an :class:`~.tools.Action` out), and carried out through the
action table of :mod:`.actions`; the mixin keeps the state of the drag under way: the
pulled vertex and the pointer's world position (the motion's target), or a free
(shift-) drag, which edits a position.

Touch (:mod:`.touch`): one finger is the left button (a tap a click; a joint within
:data:`~.touch.TOUCH_HIT_PX`, a rod within :data:`~.touch.TOUCH_ROD_PX` is touched), two
fingers pan and pinch-zoom the one view transform about their centroid
(:meth:`PointerMixin.touch` feeds fingers from a script).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..draw import hit_test
from .gestures import EventMerger, Gesture
from .tools import (
    Action,
    Selection,
    attract_action,
    drag_action,
    link_action,
    press_kind,
    release_action,
    zoom_factor,
)
from .touch import TOUCH_HIT_PX, TOUCH_ROD_PX, PinchStep
from .vocabulary import Hit

__all__ = ["Pointer", "PointerMixin"]


class Pointer:
    """What a press, a drag and a release mean, as :class:`~.tools.Action` s (a controller).

    It takes the gesture and the values it needs (the tool, what was hit, the
    selection) and returns the action; the session carries it out. What the press
    meant is kept in the gesture's own ``data`` (``action``, ``hit``, ``placed``,
    ``pulled``) for its drag and release. The one state here: a pull began since the
    last frame that moved (:meth:`take_pull_start`).
    """

    def __init__(self) -> None:
        self.pull_started = False  # a pull began: its first frame draws, then analyses

    def hit_radii(self, g: Gesture) -> dict[str, float]:
        """``hit_test``'s radii: a fingertip is wide, what lies within its reach is touched."""
        if not g.touch:
            return {}
        return {"vertex_radius_px": TOUCH_HIT_PX, "rod_tolerance_px": TOUCH_ROD_PX}

    def press(
        self,
        g: Gesture,
        tool: str,
        hit: Hit,
        attractor_px: tuple[float, float] | None,
        selection: Selection,
    ) -> Action | None:
        """The action a press does at once (an attractor placed, a rod linked), else None.

        ``attractor_px``: the attractor's pixel (``None``: there is none).
        """
        kind = press_kind(g.action, tool)
        assert g.data is not None
        g.data.update(action=kind, hit=hit)
        if kind == "attract":
            action = attract_action((g.x, g.y), attractor_px, selection)
            g.data["placed"] = action.kind == "place_attractor"
            return action
        if kind == "link":
            return link_action(hit, selection)
        return None

    def drag(self, g: Gesture, dx: float, dy: float) -> Action:
        """The action of the pointer dragged by ``(dx, dy)`` to ``(g.last_x, g.last_y)``."""
        assert g.data is not None
        xy = (g.last_x, g.last_y)
        action = drag_action(
            g.data["action"], g.data["hit"], bool(g.data.get("placed")), xy, (dx, dy), g.shift
        )
        if action.kind == "drag_vertex":
            if not g.data.get("pulled") and not g.shift:
                self.pull_started = True
            g.data["pulled"] = True  # its release ends the drag
        return action

    def release(self, g: Gesture, xy: tuple[float, float], tool: str, sel: Selection) -> Action:
        """The action of the release at pixel ``xy``: a click's, or the end of a drag."""
        assert g.data is not None
        pulled = bool(g.data.get("pulled"))
        if g.cancelled:  # a second finger came: no click; a pulled joint is let go
            return Action("end_drag" if pulled else "none")
        return release_action(
            g.data.get("action", ""),
            g.dragged,
            pulled,
            tool,
            g.data.get("hit"),
            sel,
            xy if g.dragged else (g.x, g.y),  # a drag ends where the pointer is
        )

    def take_pull_start(self) -> bool:
        """Whether a pull began since the last frame that moved (and forget it)."""
        started, self.pull_started = self.pull_started, False
        return started


class PointerMixin:
    """Gestures of the :class:`~linkage_widget.session.LinkageSession` (module docstring)."""

    def _init_pointer(self, merger: EventMerger) -> None:
        """Take the gestures of ``merger`` (the widget's two event streams, or a script's)."""
        self._drag_vertex: int | None = None
        self._drag_target: Any = None  # world (x, y) of the pointer pulling _drag_vertex
        self._free_drag = False  # shift-drag: editing a position, not moving the mechanism
        merger.on_press, merger.on_drag, merger.on_release = (
            self._on_press,
            self._on_drag,
            self._on_release,
        )
        merger.on_wheel, merger.on_key, merger.on_pinch = (
            self._on_wheel,
            self._on_key,
            self._on_pinch,
        )
        self._merger = merger

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

    def touch(self, event: str, touches: Sequence[tuple[float, float]]) -> None:
        """Fingers on the canvas, as ipycanvas reports them (for scripts and tests).

        Parameters
        ----------
        event : {"start", "move", "end"}
            A finger came down, the fingers moved, a finger lifted.
        touches : sequence of (x, y)
            Pixel positions of every finger down after the event (``[]``: all lifted).
        """
        m = self._merger
        handlers = {"start": m.touch_start, "move": m.touch_move, "end": m.touch_end}
        if event not in handlers:
            raise ValueError(f"touch event must be one of start, move, end; got {event!r}")
        handlers[event]([(float(x), float(y)) for x, y in touches])

    # ------------------------------------------------------------ handlers
    def _on_press(self, g: Gesture) -> None:
        if self._on_branch_arrow(g):
            return
        if self._drag_vertex is not None or self._free_drag:
            self._end_drag()  # its release never came (e.g. it happened outside the page)
        self._message = ""
        hit = hit_test(
            self.linkage, self._view, g.x, g.y, **self._pointer.hit_radii(g), **self._hit_pixels()
        )
        there = None if self.attractor is None else tuple(self._view.to_pixel(self.attractor))
        action = self._pointer.press(g, self.tool, hit, there, self._selection())
        assert g.data is not None
        self._merger.note("press", g.x, g.y, f"{g.data['action']} hit={hit} tool={self.tool}")
        if action is not None:
            self._guarded(lambda: self._apply(action))
        self._request_draw()

    def _on_drag(self, g: Gesture, dx: float, dy: float) -> None:
        # in space a plain background drag turns the camera (.space_view), else the pointer's
        action = self._viewer.drag_action(g, dx, dy) or self._pointer.drag(g, dx, dy)
        # a refused drag (a load aimed on a 3-D linkage) says why, as a press or release does
        self._guarded(lambda: self._apply(action))

    def _on_branch_arrow(self, g: Gesture) -> bool:
        """A press on a branch arrow picks that way (:mod:`.branching`); whether it was one."""
        way = self._branching.pressed(
            g.button, (g.x, g.y), self._view, self.linkage.vertices, self._branch_directions()
        )
        if way is None:
            return False
        assert g.data is not None
        g.data.update(action="branch", hit=None)  # its drag and release do nothing
        self._message = ""
        self._guarded(lambda: self._do_pick_branch(way))
        self._request_draw()
        return True

    def _on_release(self, g: Gesture, x: float, y: float) -> None:
        action = self._pointer.release(g, (x, y), self.tool, self._selection())
        if g.cancelled:  # a second finger came: no click; a pulled joint is let go
            if action.kind == "end_drag":
                self._end_drag()
            return
        self._merger.note("release", x, y, f"{action.kind}{action.args} dragged={g.dragged}")
        if action.kind == "end_drag":
            self._end_drag()  # it draws
            return
        self._guarded(lambda: self._apply(action))
        self._request_draw()

    def _do_link_rod(self, i: int, j: int) -> None:
        """Middle/alt-click on ``j`` with ``i`` selected: rod ``i``-``j`` on or off, ``j`` selected.

        The next alt-click goes on from ``j`` (a path, as a polyline tool draws); the
        hint line says which rod and how to go on.
        """
        self._do_toggle_rod(i, j, j)
        if self.error:
            return  # the edit was refused; its reason is shown
        if self.linkage.find_rod(i, j) is not None:
            self._message = (
                f"rod {i}-{j} added; joint {j} selected: alt-click the next joint to go on"
            )
        else:
            self._message = f"{self._message}; joint {j} selected"

    def _on_wheel(self, x: float, y: float, delta_y: float) -> None:
        self._apply(Action("zoom", (x, y, zoom_factor(delta_y))))

    def _on_pinch(self, step: PinchStep) -> None:
        self._apply(Action("pinch", tuple(step)))

    def _do_pinch(self, x: float, y: float, dx: float, dy: float, factor: float) -> None:
        """Zoom by ``factor`` about pixel ``(x, y)``, then pan by ``(dx, dy)`` (:mod:`.touch`)."""
        self._view = self._view.zoomed(x, y, factor).panned(dx, dy)
        self._dirty = True
        self._pointer_input()
