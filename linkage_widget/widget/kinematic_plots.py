"""The kinematics plots in the widget: a canvas beside the linkage's while ``show_plots`` is on.

The view only. :class:`PlotView` (the widget's ``plot_view``) draws the picture the
session's held :class:`~linkage_widget.session.kinematic_cycle.KinematicCycle` makes
(``cycle.picture``: the tracked joints' velocity and acceleration against the motor's crank
angle, the angle now marked) on an ipycanvas ``Canvas`` (CSS class
``linkage-plots-canvas``), after each drawing of the linkage, so the mark follows the
crank as it turns. The configuration panel's row (:meth:`.PanelView.place_beside`) lays it
out beside the linkage canvas. It touches the session through public names only:
``cycle``, ``document``, ``show_plots``, ``pixel_ratio``, ``request_draw``.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as W

from ..draw.canvas import draw_scene
from .events import make_canvas, resize_backing

__all__ = ["PLOTS_CSS_CLASS", "PlotView"]

PLOTS_CSS_CLASS = "linkage-plots-canvas"
#: The plots' width in CSS pixels (their height is the linkage canvas's).
PLOTS_WIDTH = 420


class PlotView:
    """The plots' canvas and its place beside the linkage canvas.

    Parameters
    ----------
    host : LinkageWidget
        The widget: a session (its public names) with its ``panel_view`` built.
    height : int
        The linkage canvas's height (the plots take it too).

    Attributes
    ----------
    canvas : ipycanvas.Canvas
    box : ipywidgets.Box
        What the panel's row lays out beside the linkage canvas (hidden while off).
    size : (int, int)
        The plots' width and height in CSS pixels.
    """

    def __init__(self, host: Any, height: int) -> None:
        self._host = host
        self.size = (PLOTS_WIDTH, int(height))
        self._waiting: Any = None  # the cycle job whose end redraws
        self.canvas = make_canvas(*self.size, float(host.pixel_ratio))
        self.canvas.add_class(PLOTS_CSS_CLASS)
        self.box = W.VBox([self.canvas], layout=W.Layout(margin="0 0 0 8px", flex="0 0 auto"))
        self.box.layout.display = None if host.show_plots else "none"
        host.panel_view.place_beside(self.box)  # drawn with the linkage's first drawing
        host.observe(self._place, names="show_plots")

    def _place(self, change: Any) -> None:
        """``show_plots`` changed: the plots shown (and drawn) beside the canvas, or hidden."""
        self.box.layout.display = None if change["new"] else "none"
        self._host.panel_view.place_beside(self.box)
        self.show()

    def show(self) -> None:
        """Draw the plots now (nothing while they are off); again when a cycle computed ends."""
        host = self._host
        if not host.show_plots:
            return
        picture = host.cycle.picture(host.document, self.size)
        draw_scene(self.canvas, picture, pixel_ratio=float(host.pixel_ratio))
        job = host.cycle.pending  # the cycle computed in a thread: draw when it is done
        if job is not None and job is not self._waiting:
            self._waiting = job
            job.add_done_callback(lambda _job: host.request_draw())

    def resize_backing(self, pixel_ratio: float) -> None:
        """A backing store of ``pixel_ratio`` (the CSS size stays); the caller redraws."""
        resize_backing(self.canvas, *self.size, pixel_ratio)
