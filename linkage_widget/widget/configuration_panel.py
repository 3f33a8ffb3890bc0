"""The configuration-space panel in the widget: a second canvas beside the linkage's.

The view only. :class:`PanelView` (the widget's ``panel_view``) puts a two-layer ipycanvas
``MultiCanvas`` (CSS class ``linkage-configuration-canvas``) beside the linkage canvas,
shown while :attr:`~linkage_widget.session.LinkageSession.show_configuration` is on (the
toolbar's "configuration space" toggle, in :mod:`.controls`; while it is off the linkage
canvas stays a child of the widget on its own), and sends its input to the session's
``panel_input`` (an :class:`~linkage_widget.session.EventMerger`, as the main canvas's
input, :mod:`.events`). It touches the session through public names only:
``panel_size``, ``panel_input``, ``redraw_panel``, ``show_configuration``,
``configuration_coordinates``, ``configuration_chart``, ``error``.

Drawing: the session's ``_show_panel(static, dynamic)`` hook (the widget passes it to
:meth:`PanelView.show`) gives the cached layer only when it changed; the bottom canvas
layer is redrawn then, the top one every frame. The frame's linkage and panel commands go
out in one batched message (the session's ``_batch_drawing`` hook:
:meth:`PanelView.batch`).
"""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
from typing import Any

import ipywidgets as W
from ipycanvas import MultiCanvas
from traitlets import TraitError

from ..draw import PanelPicture
from ..draw.canvas import draw_scene, held_canvas
from .events import connect, make_layered_canvas, resize_backing

__all__ = ["PANEL_CSS_CLASS", "PanelView"]

PANEL_CSS_CLASS = "linkage-configuration-canvas"


class PanelView:
    """The panel's canvas, its input, its choosers and its place beside the linkage canvas.

    Parameters
    ----------
    host : LinkageWidget
        The widget: a session (its public names) and the box whose children hold its
        ``canvas``.

    Attributes
    ----------
    canvas : ipycanvas.MultiCanvas
        Layer 0 static (sphere, curve, chart), layer 1 dynamic (point, trail, arrow).
    dom_events : ipyevents.Event
    choosers : dict of str to ipywidgets.Dropdown
        ``"a"`` and ``"b"``: the two angles of a curve or torus chart (hidden otherwise).
    box : ipywidgets.Box
        What the widget lays out beside the linkage canvas (hidden while the panel is off).
    """

    def __init__(self, host: Any) -> None:
        w, h = host.panel_size
        self._host = host
        ratio = float(host.pixel_ratio)  # crisp on hi-DPI, as the linkage
        self.canvas: MultiCanvas = make_layered_canvas(w, h, 2, PANEL_CSS_CLASS, ratio)
        self.dom_events = connect(self.canvas, host.panel_input, on_ready=host.redraw_panel)
        self.choosers = {
            name: W.Dropdown(description=text, layout=W.Layout(width=f"{w // 2 - 4}px"))
            for name, text in (("a", "→"), ("b", "↑"))
        }
        self._syncing = False
        for chooser in self.choosers.values():
            chooser.style.description_width = "18px"
            chooser.observe(self._on_choice, names="value")
        self._choosers_row = W.HBox(list(self.choosers.values()))
        self._choosers_row.layout.display = "none"
        self.box = W.VBox(
            [self.canvas, self._choosers_row], layout=W.Layout(margin="0 0 0 8px", flex="0 0 auto")
        )
        # too narrow for both: the panel goes below the canvas instead of squeezing them
        self._row = W.HBox([], layout=W.Layout(flex_flow="row wrap", align_items="flex-start"))
        self._beside: list[W.Box] = [self.box]  # the panel, then what else asks (the plots)
        self._place(host.show_configuration)
        host.observe(lambda change: self._place(bool(change["new"])), names="show_configuration")

    def _place(self, visible: bool) -> None:
        """The canvas alone in its row while nothing is beside it, else beside what is shown."""
        host, canvas, row = self._host, self._host.canvas, self._row
        self.box.layout.display = None if visible else "none"
        shown = tuple(box for box in self._beside if box.layout.display != "none")
        old, new = (canvas, row) if shown else (row, canvas)
        row.children = (canvas, *shown) if shown else ()
        host.children = tuple(new if c is old else c for c in host.children)

    def place_beside(self, box: W.Box) -> None:
        """Lay ``box`` out beside the canvas too, while shown (``box.layout.display``)."""
        if box not in self._beside:
            self._beside.append(box)
        self._place(bool(self._host.show_configuration))

    def sync_choices(self, labels: tuple[str, ...], chosen: tuple[str, ...]) -> None:
        """Offer ``labels`` in both choosers with ``chosen`` selected (hidden when empty)."""
        self._syncing = True
        try:
            for chooser, value in zip(self.choosers.values(), chosen, strict=False):
                if tuple(chooser.options) != labels:
                    chooser.options = labels
                chooser.value = value
        finally:
            self._syncing = False
        self._choosers_row.layout.display = None if chosen else "none"

    def _on_choice(self, change: Any) -> None:
        if self._syncing:
            return
        host = self._host
        try:
            host.configuration_coordinates = (self.choosers["a"].value, self.choosers["b"].value)
        except (ValueError, IndexError, OSError, TraitError) as exc:
            host.error = str(exc)  # shown, as the session shows a refused action

    def show(self, static: PanelPicture | None, dynamic: PanelPicture) -> None:
        """Draw the layers: ``static`` only when given (it changed), ``dynamic`` always."""
        ratio = self.pixel_ratio
        with held_canvas(self.canvas[1]):
            if static is not None:
                draw_scene(self.canvas[0], static, pixel_ratio=ratio)
            draw_scene(self.canvas[1], dynamic, pixel_ratio=ratio)
        if static is not None:  # the chart changed: the choosers show its angles
            chart = self._host.configuration_chart
            self.sync_choices(chart.choices, tuple(c.label for c in chart.coords))

    def batch(self) -> AbstractContextManager[Any]:
        """A context in which the linkage's and the panel's drawing go out as one message."""
        if not self._host.show_configuration:
            return nullcontext()
        return held_canvas(self.canvas[1])

    @property
    def pixel_ratio(self) -> float:
        """Device pixels per CSS pixel of the panel's backing stores."""
        return float(self.canvas.width) / float(self._host.panel_size[0])

    def resize_backing(self, pixel_ratio: float) -> None:
        """Backing stores of ``pixel_ratio`` (the CSS size stays); the caller redraws."""
        resize_backing(self.canvas, *self._host.panel_size, pixel_ratio)

    def feed_event(self, content: dict[str, Any]) -> None:
        """Handle an ipycanvas message of the panel canvas (``{"event": "mouse_down", ...}``)."""
        self.canvas[1]._handle_frontend_event(None, content, [])

    def feed_dom_event(self, content: dict[str, Any]) -> None:
        """Handle an ipyevents message of the panel canvas (``{"type": "mousedown", ...}``)."""
        self.dom_events._handle_mouse_msg(None, content, [])
