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

from collections.abc import Callable
from typing import Any

import ipywidgets as W
from ipycanvas import Canvas, MultiCanvas
from ipyevents import Event

from ..session import EventMerger

__all__ = ["WATCHED_EVENTS", "connect", "make_canvas", "make_layered_canvas"]

#: ipyevents events of the canvas ("contextmenu" only to suppress the browser's menu).
WATCHED_EVENTS = ["mousedown", "mouseup", "contextmenu", "wheel", "keydown"]


def make_canvas(width: int, height: int) -> Canvas:
    """A ``width`` x ``height`` canvas shown at that CSS size (CSS class ``linkage-canvas``)."""
    # Fixed CSS size: a VBox would otherwise stretch the canvas (blurry, huge).
    canvas = Canvas(
        width=width,
        height=height,
        layout=W.Layout(width=f"{width}px", height="auto", max_width="100%"),
    )
    canvas.add_class("linkage-canvas")
    return canvas


def connect(
    canvas: Canvas | MultiCanvas, merger: EventMerger, on_ready: Callable[[], Any]
) -> Event:
    """Send the canvas's input to ``merger``; ``on_ready`` repaints when a view connects.

    Returns the ipyevents :class:`~ipyevents.Event` (default actions prevented:
    no context menu, no page scroll on the wheel).
    """
    m = merger
    canvas.on_mouse_move(m.canvas_move)
    canvas.on_mouse_down(m.canvas_down)
    canvas.on_mouse_up(m.canvas_up)
    canvas.on_mouse_out(m.canvas_out)
    canvas.on_key_down(m.canvas_key)
    canvas.on_touch_start(m.touch_start)
    canvas.on_touch_move(m.touch_move)
    canvas.on_touch_end(m.touch_end)
    canvas.on_touch_cancel(m.touch_end)
    canvas.on_client_ready(on_ready)
    events = Event(source=canvas, watched_events=WATCHED_EVENTS, prevent_default_action=True)
    events.on_dom_event(m.dom_event)
    return events


def make_layered_canvas(width: int, height: int, layers: int, css_class: str) -> MultiCanvas:
    """A ``width`` x ``height`` ipycanvas ``MultiCanvas`` of ``layers`` stacked canvases.

    Layers are drawn separately (a static one need not be sent again when only the top
    one changes); input arrives from the top layer, and :func:`connect` takes it like a
    canvas. CSS class ``css_class`` on the container.
    """
    canvas = MultiCanvas(
        layers,
        width=width,
        height=height,
        # fixed width, height from the aspect ratio: never squeezed out of shape
        layout=W.Layout(width=f"{width}px", height="auto", max_width="100%"),
    )
    canvas.add_class(css_class)
    return canvas
