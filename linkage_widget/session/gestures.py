"""Merge the canvas's two event streams into presses, drags, releases, wheel turns and keys.

A canvas in the widget reports input twice (``../shared/browser-testing.md`` §4):

- ipycanvas: ``mouse_down/move/up/out`` with exact positions in canvas pixels
  but no button and no modifiers; ``key_down`` only while the canvas has focus;
  touch events.
- ipyevents: ``mousedown``, ``mouseup``, ``wheel``, ``keydown`` with buttons and
  modifiers, but positions only in rounded CSS pixels.

Both fire for one click, in no guaranteed order. The rules here, chosen so the
order never matters:

- A press starts only from ipyevents ``mousedown`` (the only stream that knows
  the button). Its position is the exact ipycanvas position when one of them
  is within a pixel or two of the rounded CSS estimate: the last ``mouse_down``
  (if it came first) or the last ``mouse_move`` (the pointer got there by
  moving). An ipycanvas ``mouse_down`` arriving just *after* refines the press
  position of a press that has not become a drag.
- Moves come only from ipycanvas (exact, and ipyevents would double the
  traffic). A press becomes a drag on the first move more than
  :data:`DRAG_THRESHOLD` pixels away; moves of the held button that overtook the
  ipyevents ``mousedown`` count at the press (the drag starts then, not a move later).
- The first release of either stream ends the gesture; the second finds no
  gesture and is ignored. ``mouse_out`` ends it too: outside the canvas no
  release would ever arrive.
- Keys come from both streams (ipyevents while the pointer is over the canvas,
  ipycanvas while it has focus); the same key from the other stream within
  :data:`KEY_ECHO_S` is an echo and dropped.
- Touch (ipycanvas only: it cancels the browser's emulated mouse events; see
  :mod:`.touch` for what each library delivers): one finger is a left-button press,
  drag and release, a tap a click (a finger may wander :data:`~.touch.TOUCH_DRAG_PX`).
  A second finger cancels the one-finger gesture (no click, a pulled joint is let go)
  and starts a pinch: two or more fingers pan and zoom (``on_pinch``) until the last
  finger lifts; a finger left over after a pinch does nothing.

Examples
--------
>>> log = []
>>> m = EventMerger(400, 300, on_press=lambda g: log.append(("press", g.x, g.y, g.action)),
...                 on_release=lambda g, x, y: log.append(("release", g.dragged)))
>>> m.canvas_move(100.4, 50.2)
>>> m.dom_event({"type": "mousedown", "button": 0, "altKey": True, "relativeX": 100,
...              "relativeY": 50, "boundingRectWidth": 400, "boundingRectHeight": 300})
>>> m.canvas_down(100.4, 50.2); m.canvas_up(100.4, 50.2)
>>> m.dom_event({"type": "mouseup", "button": 0})
>>> log
[('press', 100.4, 50.2, 'link'), ('release', False)]
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .touch import TOUCH_DRAG_PX, Pinch, PinchStep, pinch_of, pinch_step

__all__ = ["DRAG_THRESHOLD", "KEY_ECHO_S", "EventMerger", "Gesture", "Key"]

#: Pixels the pointer may wander before a press counts as a drag (a hand shakes).
DRAG_THRESHOLD = 4.0
#: Seconds within which the same key from the other stream is the same keystroke.
KEY_ECHO_S = 0.15
#: Seconds within which an ipycanvas mouse_down belongs to an ipyevents mousedown.
PRESS_ECHO_S = 0.3
#: Keys that only modify others; they arrive as key events of their own.
MODIFIER_KEYS = frozenset({"Shift", "Control", "Alt", "Meta", "AltGraph", "CapsLock", "OS"})


@dataclass
class Gesture:
    """One press, from button down to button up.

    Attributes
    ----------
    x, y : float
        Press position in canvas pixels.
    button : int
        0 left (and touch), 1 middle, 2 right.
    alt, ctrl, shift, meta : bool
        Modifier keys held at the press.
    touch : bool
        Whether it came from a touch screen.
    cancelled : bool
        Ended by a second finger (the start of a pinch), not by a release: no click.
    last_x, last_y : float
        Latest pointer position.
    dragged : bool
        Whether the pointer has moved beyond :data:`DRAG_THRESHOLD`.
    t0 : float
        Clock time of the press.
    data : dict
        Free slot for the consumer (e.g. what was under the press).
    """

    x: float
    y: float
    button: int = 0
    alt: bool = False
    ctrl: bool = False
    shift: bool = False
    meta: bool = False
    touch: bool = False
    cancelled: bool = False
    last_x: float = 0.0
    last_y: float = 0.0
    dragged: bool = False
    t0: float = 0.0
    data: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        self.last_x, self.last_y = self.x, self.y
        if self.data is None:
            self.data = {}

    @property
    def action(self) -> str:
        """What the 2007 program made of the button: ``"primary"``, ``"link"`` or ``"attract"``.

        Right or ctrl-click places the attractor; middle or alt-click links (rod
        between vertices, fixed angle between rods).
        """
        if self.button == 2 or (self.button == 0 and self.ctrl):
            return "attract"
        if self.button == 1 or (self.button == 0 and self.alt):
            return "link"
        return "primary"


@dataclass(frozen=True)
class Key:
    """One keystroke.

    Attributes
    ----------
    key : str
        The DOM ``key`` (``"f"``, ``"Z"``, ``" "``, ``"Delete"`` …).
    ctrl, shift, alt, meta : bool
    """

    key: str
    ctrl: bool = False
    shift: bool = False
    alt: bool = False
    meta: bool = False

    @property
    def combo(self) -> str:
        """Normalised name: ``"f"``, ``"space"``, ``"ctrl+z"``, ``"ctrl+shift+z"``.

        Ctrl and Cmd (meta) count the same, so macOS users get Cmd-Z. Shift is
        only named together with ctrl: a capital letter means the same key.
        """
        name = "space" if self.key == " " else self.key.lower()
        if self.ctrl or self.meta:
            return f"ctrl+{'shift+' if self.shift else ''}{name}"
        return name


def _flag(event: dict[str, Any], name: str) -> bool:
    return bool(event.get(name, False))


class EventMerger:
    """Merges the ipycanvas and ipyevents streams of one canvas (see the module docstring).

    Parameters
    ----------
    width, height : int
        Canvas size in pixels (to scale ipyevents' CSS positions).
    on_press : callable(Gesture), optional
    on_drag : callable(Gesture, dx, dy), optional
        After the gesture's ``last_x/last_y`` moved by ``(dx, dy)`` pixels; the
        first call carries the whole way from the press.
    on_release : callable(Gesture, x, y), optional
        ``gesture.dragged`` tells a click from the end of a drag.
    on_wheel : callable(x, y, delta_y), optional
        ``delta_y`` in pixels, positive when scrolling down (zoom out).
    on_key : callable(Key), optional
    on_pinch : callable(PinchStep), optional
        Two or more fingers moved: zoom by ``step.factor`` about pixel
        ``(step.x, step.y)``, then pan by ``(step.dx, step.dy)`` pixels.
    clock : callable() -> float, optional
        Time source (tests pass a fake one).
    """

    def __init__(
        self,
        width: int,
        height: int,
        *,
        on_press: Callable[[Gesture], None] | None = None,
        on_drag: Callable[[Gesture, float, float], None] | None = None,
        on_release: Callable[[Gesture, float, float], None] | None = None,
        on_wheel: Callable[[float, float, float], None] | None = None,
        on_key: Callable[[Key], None] | None = None,
        on_pinch: Callable[[PinchStep], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.width, self.height = int(width), int(height)
        self.on_press = on_press or (lambda g: None)
        self.on_drag = on_drag or (lambda g, dx, dy: None)
        self.on_release = on_release or (lambda g, x, y: None)
        self.on_wheel = on_wheel or (lambda x, y, d: None)
        self.on_key = on_key or (lambda k: None)
        self.on_pinch = on_pinch or (lambda step: None)
        #: The fingers of a pinch under way (None: no pinch; a pinch lasts until all lift).
        self.pinch: Pinch | None = None
        self.clock = clock
        self.gesture: Gesture | None = None
        self.pointer: tuple[float, float] | None = None
        self._canvas_down: tuple[float, float, float] | None = None  # x, y, time
        self._canvas_held = False  # ipycanvas saw the button go down and not up yet
        self._last_key: tuple[str, str, float] | None = None  # stream, key, time
        #: The last raw events (time, stream, kind, x, y, detail), for debugging in the field.
        self.log: deque[tuple[float, str, str, float, float, str]] = deque(maxlen=64)

    # ------------------------------------------------------------ ipycanvas
    def canvas_move(self, x: float, y: float) -> None:
        """Handle an ipycanvas ``mouse_move`` (canvas pixels)."""
        self.pointer = (float(x), float(y))
        if self.gesture is not None:  # moves between gestures would flood the log
            self._note("canvas", "move", x, y)
        g = self.gesture
        if g is not None and not g.touch:
            self._move(g, float(x), float(y))

    def canvas_down(self, x: float, y: float) -> None:
        """Handle an ipycanvas ``mouse_down``: an exact position for the ipyevents press."""
        x, y = float(x), float(y)
        now = self.clock()
        self._note("canvas", "down", x, y)
        self.pointer = (x, y)
        self._canvas_down = (x, y, now)
        self._canvas_held = True
        g = self.gesture
        # Arrived after its ipyevents twin: refine a press that is not a drag yet.
        if (
            g is not None
            and not g.dragged
            and not g.touch
            and now - g.t0 <= PRESS_ECHO_S
            and math.hypot(x - g.x, y - g.y) <= self._tolerance()
        ):
            g.x, g.y, g.last_x, g.last_y = x, y, x, y

    def canvas_up(self, x: float, y: float) -> None:
        """Handle an ipycanvas ``mouse_up``."""
        self._note("canvas", "up", x, y)
        self.pointer = (float(x), float(y))
        self._canvas_held = False
        if self.gesture is not None and not self.gesture.touch:
            self._release(float(x), float(y))

    def canvas_out(self, x: float, y: float) -> None:
        """Handle ``mouse_out``: the release would happen outside, unseen; end now."""
        self._note("canvas", "out", x, y)
        self.pointer = None
        self._canvas_held = False
        if self.gesture is not None and not self.gesture.touch:
            self._release(self.gesture.last_x, self.gesture.last_y)

    def canvas_key(self, key: str, shift: bool, ctrl: bool, meta: bool) -> None:
        """Handle an ipycanvas ``key_down`` (no alt flag there)."""
        self._key("canvas", Key(str(key), bool(ctrl), bool(shift), False, bool(meta)))

    def touch_start(self, touches: Sequence[tuple[float, float]]) -> None:
        """Handle ``touch_start`` (``touches``: every finger down): a press, or a pinch."""
        g = self.gesture
        if len(touches) >= 2:
            if g is not None and g.touch:
                self._cancel()
            if g is None or g.touch:
                self.pinch = pinch_of(touches)  # a new finger: a new baseline
            return
        if g is None and self.pinch is None and len(touches) == 1:
            ((x, y),) = touches
            self._note("touch", "start", x, y)
            self._press(Gesture(float(x), float(y), touch=True, t0=self.clock()))

    def touch_move(self, touches: Sequence[tuple[float, float]]) -> None:
        """Handle an ipycanvas ``touch_move``: a one-finger drag, or the pinch's pan and zoom."""
        if self.pinch is not None:
            if len(touches) >= 2:
                now = pinch_of(touches)
                step = pinch_step(self.pinch, now)
                self.pinch = now
                if step is not None:
                    self.on_pinch(step)
            return
        g = self.gesture
        if g is not None and g.touch and len(touches) >= 1:
            x, y = touches[0]
            self._move(g, float(x), float(y))

    def touch_end(self, touches: Sequence[tuple[float, float]]) -> None:
        """Handle ``touch_end`` / ``touch_cancel`` (``touches``: fingers still down)."""
        if self.pinch is not None:
            # the fingers left over keep the pinch (as a baseline, or ignored) until all lift
            self.pinch = pinch_of(touches) if touches else None
            return
        g = self.gesture
        if g is not None and g.touch and len(touches) == 0:
            self._release(g.last_x, g.last_y)

    # ------------------------------------------------------------ from code
    def press(self, g: Gesture) -> None:
        """Start gesture ``g`` from code (a script, a test); a gesture under way ends first."""
        if self.gesture is not None:
            self._release(self.gesture.last_x, self.gesture.last_y)
        self._press(g)

    def move(self, x: float, y: float) -> None:
        """The pointer of the gesture under way moved to ``(x, y)`` (nothing without one)."""
        self.pointer = (float(x), float(y))
        if self.gesture is not None:
            self._move(self.gesture, float(x), float(y))

    def release(self, x: float | None = None, y: float | None = None) -> None:
        """End the gesture under way at ``(x, y)`` (default: where the pointer is)."""
        g = self.gesture
        if g is not None:
            self._release(g.last_x if x is None else float(x), g.last_y if y is None else float(y))

    # ------------------------------------------------------------- ipyevents
    def dom_event(self, event: dict[str, Any]) -> None:
        """An ipyevents event dict (``mousedown``, ``mouseup``, ``wheel``, ``keydown`` …)."""
        kind = event.get("type")
        mods = "".join(m[0] for m in ("alt", "ctrl", "shift", "meta") if _flag(event, m + "Key"))
        self._note(
            "dom",
            str(kind),
            *self._estimate(event),
            f"button={event.get('button')} key={event.get('key')} mods={mods}",
        )
        if kind == "mousedown":
            self._dom_down(event)
        elif kind == "mouseup":
            if self.gesture is not None and not self.gesture.touch:
                x, y = self._exact(*self._estimate(event))
                self._release(x, y)
        elif kind == "wheel":
            x, y = self._exact(*self._estimate(event))
            self.on_wheel(x, y, self._wheel_pixels(event))
        elif kind == "keydown":
            key = Key(
                str(event.get("key", "")),
                _flag(event, "ctrlKey"),
                _flag(event, "shiftKey"),
                _flag(event, "altKey"),
                _flag(event, "metaKey"),
            )
            self._key("dom", key)
        # "contextmenu" is watched only so that ipyevents suppresses the browser menu.

    def note(self, kind: str, x: float, y: float, detail: str = "") -> None:
        """Add what the consumer made of an event to :attr:`log` (stream ``"session"``)."""
        self._note("session", kind, x, y, detail)

    # -------------------------------------------------------------- helpers
    def _note(self, stream: str, kind: str, x: float, y: float, detail: str = "") -> None:
        self.log.append((self.clock(), stream, kind, float(x), float(y), detail))

    def _tolerance(self) -> float:
        """Canvas pixels within which a rounded CSS position matches an exact one."""
        return 2.5

    def _estimate(self, event: dict[str, Any]) -> tuple[float, float]:
        """The rounded CSS position of an ipyevents event, in canvas pixels."""
        w = float(event.get("boundingRectWidth") or self.width)
        h = float(event.get("boundingRectHeight") or self.height)
        x = float(event.get("relativeX", 0.0)) * self.width / w
        y = float(event.get("relativeY", 0.0)) * self.height / h
        return x, y

    def _exact(self, x: float, y: float) -> tuple[float, float]:
        """The exact ipycanvas position for an estimate, when one matches."""
        now = self.clock()
        tol = self._tolerance()
        down = self._canvas_down
        if down is not None and now - down[2] <= PRESS_ECHO_S:
            if math.hypot(down[0] - x, down[1] - y) <= tol:
                return down[0], down[1]
        if self.pointer is not None and math.hypot(self.pointer[0] - x, self.pointer[1] - y) <= tol:
            return self.pointer
        return x, y

    def _dom_down(self, event: dict[str, Any]) -> None:
        if self.gesture is not None:
            return  # a second button during a gesture: keep the first gesture
        x, y = self._exact(*self._estimate(event))
        g = Gesture(
            x,
            y,
            int(event.get("button", 0) or 0),
            _flag(event, "altKey"),
            _flag(event, "ctrlKey"),
            _flag(event, "shiftKey"),
            _flag(event, "metaKey"),
            t0=self.clock(),
        )
        self._press(g)
        self._catch_up(g)

    def _catch_up(self, g: Gesture) -> None:
        """Moves of the held button that came before the press: the drag starts at once.

        ipycanvas' moves may overtake ipyevents' ``mousedown`` (two comms, two threads):
        the pointer may already be past :data:`DRAG_THRESHOLD` when the press starts.
        Waiting for the next move would start the drag a move late (or never, when the
        pointer stopped there).
        """
        down, p = self._canvas_down, self.pointer
        if not self._canvas_held or down is None or p is None or self.gesture is not g:
            return
        if self.clock() - down[2] <= PRESS_ECHO_S and (p[0], p[1]) != (g.x, g.y):
            self._move(g, p[0], p[1])

    def _press(self, g: Gesture) -> None:
        self.gesture = g
        self.on_press(g)

    def _move(self, g: Gesture, x: float, y: float) -> None:
        threshold = TOUCH_DRAG_PX if g.touch else DRAG_THRESHOLD
        if not g.dragged and math.hypot(x - g.x, y - g.y) <= threshold:
            return
        g.dragged = True
        dx, dy = x - g.last_x, y - g.last_y
        g.last_x, g.last_y = x, y
        self.on_drag(g, dx, dy)

    def _release(self, x: float, y: float) -> None:
        g = self.gesture
        if g is None:
            return
        # The two streams are not ordered: the last mouse_move may arrive after the
        # ipyevents mouseup. The release position stands in for it.
        if (x, y) != (g.last_x, g.last_y):
            self._move(g, x, y)
        self.gesture = None
        self.on_release(g, x, y)

    def _cancel(self) -> None:
        """End the gesture under way without a click (a second finger came down)."""
        g = self.gesture
        if g is not None:
            self.gesture = None
            g.cancelled = True
            self.on_release(g, g.last_x, g.last_y)

    def _key(self, stream: str, key: Key) -> None:
        if key.key in MODIFIER_KEYS or not key.key:
            return
        now = self.clock()
        last = self._last_key
        if last is not None and last[0] != stream and last[1] == key.key:
            if now - last[2] <= KEY_ECHO_S:
                self._last_key = None
                return
        self._last_key = (stream, key.key, now)
        self.on_key(key)

    def _wheel_pixels(self, event: dict[str, Any]) -> float:
        """``deltaY`` in pixels (``deltaMode`` 1 counts lines, 2 pages)."""
        dy = float(event.get("deltaY", 0.0) or 0.0)
        mode = int(event.get("deltaMode", 0) or 0)
        return dy * (16.0 if mode == 1 else self.height if mode == 2 else 1.0)
