"""The synthesis tool's candidates in the widget: thumbnails beside the canvas, a click loads one.

The view only. :class:`SynthesisView` (the widget's ``synthesis_view``) draws the sheet
the session's held :class:`~linkage_widget.session.synthesis_tool.SynthesisTool` makes
(``synthesis.sheet()``: the candidates as small multiples, best first) on an ipycanvas
``Canvas`` (CSS class ``linkage-synthesis-canvas``) beside the linkage canvas, through
the configuration panel's row (:meth:`.PanelView.place_beside`). It is shown while the
synthesis tool is chosen or there are candidates; a press on a thumbnail calls the
session's ``choose_candidate`` (one undo step). It redraws when the candidates or the
chosen one changed (checked at each drawing of the linkage: a number compared). It
touches the session through public names only: ``synthesis``, ``tool``,
``choose_candidate``, ``run_action`` (the *cognates* button: ``show_cognates``, the
four-bar's Roberts–Chebyshev cognates as the candidates), ``pixel_ratio``,
``request_draw``.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as W

from ..draw.canvas import draw_scene
from .events import make_canvas, resize_backing

__all__ = ["SYNTHESIS_CSS_CLASS", "SynthesisView"]

SYNTHESIS_CSS_CLASS = "linkage-synthesis-canvas"


class SynthesisView:
    """The thumbnails' canvas, its clicks and its place beside the linkage canvas.

    Parameters
    ----------
    host : LinkageWidget
        The widget: a session (its public names) with its ``panel_view`` built.

    Attributes
    ----------
    canvas : ipycanvas.Canvas
    title : ipywidgets.HTML
        What the sheet shows (how many candidates, for which curve).
    box : ipywidgets.Box
        What the panel's row lays out beside the linkage canvas (hidden while unused).
    """

    def __init__(self, host: Any) -> None:
        self._host = host
        self._drawn: tuple[Any, ...] | None = None  # (version, chosen, size) drawn
        empty = host.synthesis.sheet()
        self.size = empty.width, empty.height
        self.canvas = make_canvas(*self.size, float(host.pixel_ratio))
        self.canvas.add_class(SYNTHESIS_CSS_CLASS)
        self.canvas.on_mouse_down(self._pressed)
        self.title = W.HTML("<b>synthesis</b>: candidates")
        self.title.add_class("linkage-synthesis-title")
        self.cognates = W.Button(
            description="cognates",
            tooltip="the four-bar's two Roberts–Chebyshev cognates (its coupler point "
            "selected or tracked): three four-bars, one curve",
            layout=W.Layout(width="auto"),
        )
        self.cognates.add_class("linkage-synthesis-cognates")
        self.cognates.on_click(lambda _button: self._show_cognates())
        self.box = W.VBox(
            [W.HBox([self.title, self.cognates]), self.canvas],
            layout=W.Layout(margin="0 0 0 8px"),
        )
        self.box.add_class("linkage-synthesis-panel")
        self.box.layout.display = None if self._wanted() else "none"
        host.panel_view.place_beside(self.box)
        host.observe(lambda _change: self.show(), names="tool")

    def _wanted(self) -> bool:
        """Shown while the synthesis tool is chosen, or while there are candidates."""
        return self._host.tool == "synthesis" or bool(self._host.synthesis.candidates)

    def show(self, force: bool = False) -> None:
        """Lay the panel out (shown or hidden) and draw the sheet when it changed."""
        host = self._host
        display = None if self._wanted() else "none"
        if self.box.layout.display != display:
            self.box.layout.display = display
            host.panel_view.place_beside(self.box)
        if display is not None:
            return
        tool = host.synthesis
        count = len(tool.candidates)
        title = (
            "<b>synthesis</b>: searching ..."
            if tool.pending is not None
            else f"<b>synthesis</b>: {count} candidates, best first (click one to load it)"
            if count
            else "<b>synthesis</b>: drag a curve on the canvas"
        )
        if self.title.value != title:
            self.title.value = title
        now = (tool.version, tool.chosen)
        if now == self._drawn and not force:
            return
        sheet = tool.sheet()
        if (sheet.width, sheet.height) != self.size:  # more rows of candidates
            self.size = sheet.width, sheet.height
            resize_backing(self.canvas, *self.size, float(host.pixel_ratio))
        draw_scene(self.canvas, sheet, pixel_ratio=float(host.pixel_ratio))
        self._drawn = now

    def _show_cognates(self) -> None:
        """The button: the session's ``show_cognates`` action (its error shown if refused)."""
        self._host.run_action("show_cognates")
        self.show()

    def _pressed(self, x: float, y: float) -> None:
        """A press on the sheet (backing-store pixels): load the candidate under it."""
        k = float(self.canvas.width) / self.size[0] if self.size[0] else 1.0
        i = self._host.synthesis.pick(x / k, y / k)
        if i is not None:
            self._host.choose_candidate(i)
            self.show()

    def resize_backing(self, pixel_ratio: float) -> None:
        """A backing store of ``pixel_ratio`` (the CSS size stays); drawn again."""
        resize_backing(self.canvas, *self.size, pixel_ratio)
        self.show(force=True)
