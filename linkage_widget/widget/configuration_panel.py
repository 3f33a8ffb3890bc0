"""The configuration-space panel in the widget: a second canvas beside the linkage's.

The view only. :class:`PanelWidgetMixin` (a base of
:class:`~linkage_widget.widget.LinkageWidget`, before the session) puts a two-layer
ipycanvas ``MultiCanvas`` (CSS class ``linkage-configuration-canvas``) beside the linkage
canvas, shown while :attr:`~linkage_widget.session.LinkageSession.show_configuration` is
on (the toolbar's "configuration space" toggle, in :mod:`.controls`; while it is off the
linkage canvas stays a child of the widget on its own), and routes its
input to the session's panel gestures through the same
:class:`~linkage_widget.session.EventMerger` as the main canvas (:mod:`.events`).

Drawing: the session's ``_show_panel(static, dynamic)`` hook gives the cached layer only
when it changed; the bottom canvas layer is redrawn then, the top one every frame. The
frame's linkage and panel commands go out in one batched message
(:func:`~linkage_widget.draw.canvas.held_canvas` around the whole draw).
"""

from __future__ import annotations

from typing import Any

import ipywidgets as W
from ipycanvas import MultiCanvas

from ..draw.canvas import draw_scene, held_canvas
from ..draw.configuration_panel import PanelPicture
from .events import connect, make_layered_canvas, resize_backing

__all__ = ["PANEL_CSS_CLASS", "PanelView", "PanelWidgetMixin"]

PANEL_CSS_CLASS = "linkage-configuration-canvas"


class PanelView:
    """The panel's canvas, its input and its container.

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

    def __init__(self, session: Any) -> None:
        w, h = session.panel_size
        self._session = session
        ratio = float(getattr(session, "pixel_ratio", 1.0))  # crisp on hi-DPI, as the linkage
        self.canvas: MultiCanvas = make_layered_canvas(w, h, 2, PANEL_CSS_CLASS, ratio)
        self.dom_events = connect(
            self.canvas, session._panel_merger, on_ready=lambda: session._draw_panel(force=True)
        )
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
        self.set_visible(session.show_configuration)

    def set_visible(self, visible: bool) -> None:
        """Show or hide the panel."""
        self.box.layout.display = None if visible else "none"

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
        a, b = self.choosers["a"].value, self.choosers["b"].value
        session = self._session
        session._guarded(lambda: setattr(session, "configuration_coordinates", (a, b)))

    def show(self, static: PanelPicture | None, dynamic: PanelPicture) -> None:
        """Draw the layers: ``static`` only when given (it changed), ``dynamic`` always."""
        ratio = self.pixel_ratio
        with held_canvas(self.canvas[1]):
            if static is not None:
                draw_scene(self.canvas[0], static, pixel_ratio=ratio)
            draw_scene(self.canvas[1], dynamic, pixel_ratio=ratio)

    @property
    def pixel_ratio(self) -> float:
        """Device pixels per CSS pixel of the panel's backing stores."""
        return float(self.canvas.width) / float(self._session.panel_size[0])

    def resize_backing(self, pixel_ratio: float) -> None:
        """Backing stores of ``pixel_ratio`` (the CSS size stays); the caller redraws."""
        resize_backing(self.canvas, *self._session.panel_size, pixel_ratio)


class PanelWidgetMixin:
    """The widget's side of the panel (module docstring); needs the session before it."""

    def _build_panel_view(self) -> None:
        """Make the panel (after the widget's children are laid out)."""
        self.panel_view = PanelView(self)
        # too narrow for both: the panel goes below the canvas instead of squeezing them
        self._panel_row = W.HBox(
            [], layout=W.Layout(flex_flow="row wrap", align_items="flex-start")
        )
        self._place_panel(self.show_configuration)  # type: ignore[attr-defined]
        self.observe(self._on_panel_toggle, names="show_configuration")  # type: ignore[attr-defined]
        if self.show_configuration:  # type: ignore[attr-defined]
            self._draw_panel(force=True)  # type: ignore[attr-defined]  # drawn before the view

    def _on_panel_toggle(self, change: Any) -> None:
        self._place_panel(bool(change["new"]))

    def _place_panel(self, visible: bool) -> None:
        """The canvas alone in its row while the panel is off, beside the panel while on."""
        canvas, row = self.canvas, self._panel_row  # type: ignore[attr-defined]
        self.panel_view.set_visible(visible)
        old, new = (canvas, row) if visible else (row, canvas)
        row.children = (canvas, self.panel_view.box) if visible else ()
        children = self.children  # type: ignore[has-type]
        self.children = tuple(new if c is old else c for c in children)

    def _show_panel(self, static: PanelPicture | None, dynamic: PanelPicture) -> None:
        view = getattr(self, "panel_view", None)
        if view is None:
            return
        view.show(static, dynamic)
        if static is not None:  # the chart changed: the choosers show its angles
            model = self.configuration_chart  # type: ignore[attr-defined]
            view.sync_choices(model.choices, tuple(c.label for c in model.coords))

    def _draw(self) -> None:
        """The linkage and the panel of a frame in one canvas message."""
        view = getattr(self, "panel_view", None)
        if view is None or not self.show_configuration:  # type: ignore[attr-defined]
            super()._draw()  # type: ignore[misc]
            return
        with held_canvas(view.canvas[1]):
            super()._draw()  # type: ignore[misc]

    # ------------------------------------------------------------ testing
    def feed_panel_event(self, content: dict[str, Any]) -> None:
        """Handle an ipycanvas message of the panel canvas (``{"event": "mouse_down", ...}``)."""
        self.panel_view.canvas[1]._handle_frontend_event(None, content, [])

    def feed_panel_dom_event(self, content: dict[str, Any]) -> None:
        """Handle an ipyevents message of the panel canvas (``{"type": "mousedown", ...}``)."""
        self.panel_view.dom_events._handle_mouse_msg(None, content, [])
