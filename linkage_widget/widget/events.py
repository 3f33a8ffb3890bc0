"""The canvas and its input: ipycanvas and ipyevents messages into the session's gestures.

A canvas reports input twice (ipycanvas: exact positions, no buttons;
ipyevents: buttons and modifiers, rounded positions); the session's
:class:`~linkage_widget.session.gestures.EventMerger` merges both streams into
presses, drags, releases, wheel turns and keys. This module only creates the
canvas and connects its callbacks to the merger.

Touch and pen: ipycanvas' ``touch_start/move/end/cancel`` (every finger's exact
position, no identifiers; it prevents the browser's own scrolling, zooming and
emulated mouse events) go to the merger, which makes one finger a mouse press and
two a pan and pinch-zoom (:mod:`linkage_widget.session.touch`). ipyevents' touch
events are not watched: its 2.0.4 frontend repeats the last finger for every entry
of a touch list. A pen arrives as mouse events in both libraries.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as W
from ipycanvas import Canvas, MultiCanvas
from ipyevents import Event

from ..draw.view import backing_size
from ..session import EventMerger
from .layout import RATIO_KEY_PREFIX

__all__ = [
    "WATCHED_EVENTS",
    "connect",
    "device_ratio",
    "make_canvas",
    "make_layered_canvas",
    "resize_backing",
]

#: ipyevents events of the canvas ("contextmenu" only to suppress the browser's menu).
WATCHED_EVENTS = ["mousedown", "mouseup", "contextmenu", "wheel", "keydown"]


def _backed(width: int, height: int, pixel_ratio: float) -> dict[str, Any]:
    """Keyword arguments of a canvas shown at ``width`` x ``height`` CSS pixels.

    Its backing store has ``pixel_ratio`` device pixels per CSS pixel
    (:func:`~linkage_widget.draw.backing_size`): crisp on a hi-DPI screen. The CSS
    width is fixed and the height follows the aspect ratio: a VBox would otherwise
    stretch the canvas (blurry, huge) or squeeze it out of shape.
    """
    bw, bh = backing_size(int(width), int(height), pixel_ratio)
    layout = W.Layout(width=f"{int(width)}px", height="auto", max_width="100%")
    return {"width": bw, "height": bh, "layout": layout}


def resize_backing(canvas: Canvas | MultiCanvas, width: int, height: int, ratio: float) -> None:
    """Give ``canvas`` (shown at ``width`` x ``height`` CSS pixels) a backing store of ``ratio``."""
    bw, bh = backing_size(int(width), int(height), ratio)
    with canvas.hold_sync():
        canvas.width, canvas.height = bw, bh


def make_canvas(width: int, height: int, pixel_ratio: float = 1.0) -> Canvas:
    """A ``width`` x ``height`` canvas shown at that CSS size (CSS class ``linkage-canvas``).

    Its backing store has ``pixel_ratio`` device pixels per CSS pixel: crisp on a
    hi-DPI screen.
    """
    canvas = Canvas(**_backed(width, height, pixel_ratio))
    canvas.add_class("linkage-canvas")
    return canvas


def _scaled(touches: Sequence[tuple[float, float]], k: float) -> list[tuple[float, float]]:
    return [(x / k, y / k) for x, y in touches]


def device_ratio(key: str) -> float | None:
    """The ratio a :data:`~.layout.RATIO_KEY_PREFIX` key reports (NaN: unreadable), else None.

    >>> device_ratio("linkage-device-pixel-ratio:1.25"), device_ratio("f")
    (1.25, None)
    """
    if not key.startswith(RATIO_KEY_PREFIX):
        return None
    try:
        r = float(key[len(RATIO_KEY_PREFIX) :])
    except ValueError:
        return math.nan
    return r if math.isfinite(r) and r > 0 else math.nan


def connect(
    canvas: Canvas | MultiCanvas,
    merger: EventMerger,
    on_ready: Callable[[], Any],
    on_device_ratio: Callable[[float], Any] | None = None,
) -> Event:
    """Send the canvas's input to ``merger``; ``on_ready`` repaints when a view connects.

    ipycanvas reports positions in backing-store pixels; they reach the merger in the
    merger's (CSS) pixels, divided by ``canvas.width / merger.width`` (the pixel ratio,
    read at each event, so a canvas resized for another ratio needs no new wiring).
    The browser's device pixel ratio arrives as a key (:data:`~.layout.RATIO_PROBE`),
    on either stream: it goes to ``on_device_ratio``, never to the merger.
    Returns the ipyevents :class:`~ipyevents.Event` (default actions prevented:
    no context menu, no page scroll on the wheel).
    """
    m = merger

    def ratio_key(key: str) -> bool:
        r = device_ratio(str(key))
        if r is not None and not math.isnan(r) and on_device_ratio is not None:
            on_device_ratio(r)
        return r is not None

    def key_down(key: str, shift: bool, ctrl: bool, meta: bool) -> None:
        if not ratio_key(key):
            m.canvas_key(key, shift, ctrl, meta)

    def dom_event(event: dict[str, Any]) -> None:
        if event.get("type") == "keydown" and ratio_key(str(event.get("key", ""))):
            return
        m.dom_event(event)

    def k() -> float:
        return float(canvas.width) / float(m.width) if m.width else 1.0

    canvas.on_mouse_move(lambda x, y: m.canvas_move(x / k(), y / k()))
    canvas.on_mouse_down(lambda x, y: m.canvas_down(x / k(), y / k()))
    canvas.on_mouse_up(lambda x, y: m.canvas_up(x / k(), y / k()))
    canvas.on_mouse_out(lambda x, y: m.canvas_out(x / k(), y / k()))
    canvas.on_key_down(key_down)
    canvas.on_touch_start(lambda t: m.touch_start(_scaled(t, k())))
    canvas.on_touch_move(lambda t: m.touch_move(_scaled(t, k())))
    canvas.on_touch_end(lambda t: m.touch_end(_scaled(t, k())))
    canvas.on_touch_cancel(lambda t: m.touch_end(_scaled(t, k())))
    canvas.on_client_ready(on_ready)
    events = Event(source=canvas, watched_events=WATCHED_EVENTS, prevent_default_action=True)
    events.on_dom_event(dom_event)
    return events


def make_layered_canvas(
    width: int, height: int, layers: int, css_class: str, pixel_ratio: float = 1.0
) -> MultiCanvas:
    """A ``width`` x ``height`` ipycanvas ``MultiCanvas`` of ``layers`` stacked canvases.

    Layers are drawn separately (a static one need not be sent again when only the top
    one changes); input arrives from the top layer, and :func:`connect` takes it like a
    canvas. CSS class ``css_class`` on the container. The backing stores have
    ``pixel_ratio`` device pixels per CSS pixel, as :func:`make_canvas`'s.
    """
    canvas = MultiCanvas(layers, **_backed(width, height, pixel_ratio))
    canvas.add_class(css_class)
    return canvas
