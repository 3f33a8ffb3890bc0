"""The session's pointer: what presses, drags and releases mean, and the drag under way.

:class:`Pointer` is a controller the :class:`~linkage_widget.session.LinkageSession`
holds (it holds no session): a gesture comes from the :class:`~.gestures.EventMerger`
(the widget's two event streams, or the session's public :meth:`press`, :meth:`drag`,
:meth:`release` of a script, by the same path); the pointer turns it into
:class:`~.tools.Action` s (what they mean is decided in :mod:`.tools`, pure), which the
session carries out through its action table (:mod:`.actions`). The pointer keeps the
state of the drag under way: the pulled vertex and the pointer's world position (the
motion's :meth:`Pointer.target`), or a free (shift-) drag, which edits a position; its
``drag_vertex`` and ``end_drag`` handlers return an :class:`~.outcome.Outcome` for the
session to apply.

Touch (:mod:`.touch`): one finger is the left button (a tap a click; a joint within
:data:`~.touch.TOUCH_HIT_PX`, a rod within :data:`~.touch.TOUCH_ROD_PX` is touched), two
fingers pan and pinch-zoom the one view transform about their centroid
(:func:`feed_touch` feeds fingers from a script).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..draw import guide_hit, hit_test
from .branching import BranchChoice
from .gestures import EventMerger, Gesture
from .motion_driver import Target
from .outcome import Outcome, Situation
from .tools import (
    Action,
    Selection,
    attract_action,
    drag_action,
    link_action,
    press_kind,
    release_action,
)
from .touch import TOUCH_HIT_PX, TOUCH_ROD_PX
from .vocabulary import Hit

__all__ = ["Pointer", "feed_touch"]

#: ``note(kind, x, y, detail)``: what the pointer made of an event, for the merger's log
Note = Callable[[str, float, float, str], None]


class Pointer:
    """What a press, a drag and a release mean, as :class:`~.tools.Action` s (a controller).

    It takes the gesture and the values it needs (the tool, what was hit, the
    selection) and returns the actions; the session carries them out. What the press
    meant is kept in the gesture's own ``data`` (``action``, ``hit``, ``placed``,
    ``pulled``) for its drag and release. Its state: the drag under way (:attr:`vertex`
    pulled toward :attr:`goal`, or a :attr:`free` move) and whether a pull began since
    the last frame that moved (:meth:`take_pull_start`).
    """

    def __init__(self, branching: BranchChoice | None = None, note: Note | None = None) -> None:
        self.branching = branching or BranchChoice()
        self.note: Note = note or (lambda kind, x, y, detail: None)
        self.pull_started = False  # a pull began: its first frame draws, then analyses
        self.vertex: int | None = None  # the vertex the pointer pulls
        self.goal: Any = None  # world (x, y), in space (x, y, z), of the pointer pulling it
        self.free = False  # shift-drag: editing a position, not moving the mechanism
        self.depth = 0.0  # in space: the depth of the dragged joint's plane, kept while held

    @property
    def holding(self) -> bool:
        """Whether a drag of a vertex (a pull or a free move) is under way."""
        return self.vertex is not None or self.free

    def target(self) -> Target | None:
        """What the pull pulls toward: the pulled vertex and the pointer's world point."""
        if self.vertex is None or self.goal is None:
            return None
        return Target(self.vertex, *(float(c) for c in self.goal))

    def hit_radii(self, g: Gesture) -> dict[str, float]:
        """``hit_test``'s radii: a fingertip is wide, what lies within its reach is touched."""
        if not g.touch:
            return {}
        return {"vertex_radius_px": TOUCH_HIT_PX, "rod_tolerance_px": TOUCH_ROD_PX}

    def pressed(self, g: Gesture, now: Situation) -> list[Action]:
        """The actions of the press ``g``: a branch arrow's way, else :meth:`press`'s.

        A drag whose release never came (it happened outside the page) ends first.
        """
        way = self.branching.pressed(
            g.button, (g.x, g.y), now.view, now.linkage.vertices, now.branches
        )
        assert g.data is not None
        if way is not None:
            g.data.update(action="branch", hit=None)  # its drag and release do nothing
            return [Action("pick_branch", (way,))]
        actions = [Action("end_drag")] if self.holding else []
        pixels = now.viewer.hit_pixels(now.linkage.vertices, now.view)
        hit = hit_test(now.linkage, now.view, g.x, g.y, **self.hit_radii(g), **pixels)
        if hit is None and now.tool == "delete":  # a slider's track, a slotted bar
            hit = guide_hit(now.linkage, now.view, g.x, g.y)
        there = None if now.attractor is None else tuple(now.view.to_pixel(now.attractor))
        action = self.press(g, now.tool, hit, there, now.selection)
        self.note("press", g.x, g.y, f"{g.data['action']} hit={hit} tool={now.tool}")
        return actions if action is None else [*actions, action]

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
        if kind == "synthesis":  # a target curve starts (.synthesis_tool)
            return Action("stroke_begin", (g.x, g.y))
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
            if g.data.get("action") == "synthesis":  # nor a target curve: its stroke is dropped
                return Action("stroke_cancel")
            return Action("end_drag" if pulled else "none")
        action = release_action(
            g.data.get("action", ""),
            g.dragged,
            pulled,
            tool,
            g.data.get("hit"),
            sel,
            xy if g.dragged else (g.x, g.y),  # a drag ends where the pointer is
        )
        self.note("release", *xy, f"{action.kind}{action.args} dragged={g.dragged}")
        return action

    def take_pull_start(self) -> bool:
        """Whether a pull began since the last frame that moved (and forget it)."""
        started, self.pull_started = self.pull_started, False
        return started

    # ------------------------------------------------- handlers of the action table
    def drag_vertex(self, now: Situation, v: int, x: float, y: float, shift: bool) -> Outcome:
        """Drag vertex ``v`` to pixel ``(x, y)``: it pulls the mechanism (shift: moves freely)."""
        if not self.holding:  # the drag begins: in space, the plane through v stays its plane
            self.depth = now.viewer.depth(now.linkage.vertices[v])
        goal = now.world(x, y, self.depth)  # (.space_view)
        if shift or self.free:
            begins, self.free = not self.free, True
            select = {"selected_vertex": v} if begins else {}
            return Outcome(traits=select, undo_point=begins, move=(v, goal))
        traits: dict[str, Any] = {}
        message = None
        if self.vertex is None:
            self.vertex = v
            traits = {"selected_vertex": v, "running": True}
            if now.linkage.is_pinned(v):
                message = f"vertex {v} is pinned: f unpins it, shift-drag moves it"
        self.goal = goal
        return Outcome(traits=traits, message=message, pulled=True)

    def end_drag(self, now: Situation) -> Outcome:
        """Let the dragged vertex go: a free move is one edit, a pull stops pulling."""
        if self.free:
            self.free = False
            return Outcome(finish="edit")
        self.vertex = self.goal = None
        stops = now.mode == "kinematic" and now.attractor is None and not now.motors_on
        return Outcome(traits={"running": False} if stops else {}, finish="analysis")


def feed_touch(merger: EventMerger, event: str, touches: Sequence[tuple[float, float]]) -> None:
    """Fingers on the canvas, as ipycanvas reports them (for scripts and tests).

    Parameters
    ----------
    merger : EventMerger
        The canvas's gestures.
    event : {"start", "move", "end"}
        A finger came down, the fingers moved, a finger lifted.
    touches : sequence of (x, y)
        Pixel positions of every finger down after the event (``[]``: all lifted).
    """
    handlers = {"start": merger.touch_start, "move": merger.touch_move, "end": merger.touch_end}
    if event not in handlers:
        raise ValueError(f"touch event must be one of start, move, end; got {event!r}")
    handlers[event]([(float(x), float(y)) for x, y in touches])
