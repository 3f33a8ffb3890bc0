"""``LinkageWidget``: a :class:`~linkage_widget.session.LinkageSession` on an ipycanvas canvas.

The view only: it builds the canvas (:mod:`.events`) and the controls
(:mod:`.controls`, placed by :mod:`.layout`: the control sets and presentation mode's
CSS), paces the animation (:mod:`.loop`), offers written files
for download (:mod:`.files`), and overrides the session's hooks to draw, to
start the frame loop and to update the controls. Every trait, validator and
policy, and the meaning of every click, touch and key, is the session's (see
:mod:`linkage_widget.session.tools` for the mouse and key map,
:mod:`linkage_widget.session.touch` for the fingers); the widget holds no numbers
about motion.

Besides the session's API, the view's public surface is :attr:`~LinkageWidget.canvas`,
:attr:`~LinkageWidget.dom_events` (the ipyevents source),
:attr:`~LinkageWidget.controls` (every control by name),
:attr:`~LinkageWidget.panel_view` (the configuration panel's canvas and choosers,
:mod:`.configuration_panel`) and four methods that feed a frontend message in as the
browser would send it, :meth:`~LinkageWidget.feed_canvas_event`,
:meth:`~LinkageWidget.feed_dom_event` and the panel's
:meth:`~LinkageWidget.feed_panel_event`, :meth:`~LinkageWidget.feed_panel_dom_event`
(for tests and demos without a browser).
"""

from __future__ import annotations

import time
import traceback
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any

import ipywidgets as W
from traitlets import validate

from ..draw import MAX_PIXEL_RATIO, PanelPicture, legend_html
from ..draw.canvas import draw_scene
from ..model import Linkage
from ..session import LinkageSession, load_upload, running_loop
from .configuration_panel import PanelView
from .controls import Controls, ControlsState
from .events import connect, make_canvas, resize_backing
from .export_bar import ExportBar
from .files import Downloads, uploaded_files
from .kinematic_plots import PlotView
from .layout import PRESENTATION_CLASS, check_control_set
from .loop import FrameLoop
from .one_thread import MessageThread, open_widget_ids, widgets_since
from .readout import readout_html
from .synthesis_panel import SynthesisView

__all__ = ["MIN_PIXEL_RATIO", "READOUT_S", "LinkageWidget"]

READOUT_S = 0.25  # while moving, the readout (forces, joint motion) refreshes this often
MIN_PIXEL_RATIO = 0.5  # the smallest ratio pixel_ratio accepts


class LinkageWidget(LinkageSession, W.VBox):
    """A planar linkage you can draw, analyse and move with the mouse, a finger or a pen.

    Parameters
    ----------
    linkage : Linkage, optional
        The model to show and edit (used, not copied). Default: empty.
    width, height : int
        Canvas size in pixels.
    controls : {"full", "compact", "none"}
        Which controls the widget shows (:mod:`~linkage_widget.widget.layout`):
        ``"full"`` (default) the toolbar, tool line, canvas, readout, sliders, check
        boxes, file row and help; ``"compact"`` for a small example: the toolbar with
        the tool chooser, undo, redo, play, fit and presentation, the tool line, the
        canvas and the readout; ``"none"`` the canvas alone (keys, mouse and touch still
        work). Fixed when the widget is made.
    **kwargs
        Initial trait values (``step_size=2.0``, ``tracked=(5,)``, ...) and
        ``VBox`` keywords.

    Attributes
    ----------
    linkage : Linkage
        The model; editing through the widget keeps this object (undo
        restores into it). After changing it from code, call :meth:`refresh`.
    canvas : ipycanvas.Canvas
        The drawing surface (CSS class ``linkage-canvas``).
    dom_events : ipyevents.Event
        The canvas's ipyevents source (buttons, modifiers, wheel, keys).
    controls : Controls
        The controls by name: ``controls.buttons["undo"]``,
        ``controls.sliders["step_size"]``, ``controls.file_box``,
        ``controls.readout`` ... (all built, whichever set is shown).
    panel_view : PanelView
        The configuration panel beside the canvas (shown while
        ``show_configuration`` is on).
    plot_view : PlotView
        The kinematics plots beside the canvas (shown while ``show_plots`` is on).
    synthesis_view : SynthesisView
        The synthesis tool's candidates as thumbnails beside the canvas (a click loads one).
    control_set : str
        The ``controls`` choice the widget was made with.
    message_thread : MessageThread
        The thread (and event loop) that handles every frontend message of the
        widget's controls (:mod:`~linkage_widget.widget.one_thread`).
    pixel_ratio : float
        Device pixels per CSS pixel the canvas draws at. It follows the browser's
        ``window.devicePixelRatio`` (reported when the widget is shown, and again when
        it changes: another screen, the browser's zoom) until it is set, in the
        constructor or later: then the value set wins. Before the browser reports
        (and where the frontend runs no handler in an HTML widget) it is 2.
    follow_device_ratio : bool
        Whether :attr:`pixel_ratio` follows the browser (True until it is set; set it
        back to True to follow again from the next report).
    device_pixel_ratio : float or None
        The browser's last reported ``window.devicePixelRatio`` (None: none yet).
    presentation : bool
        Presentation mode (key ``m``; ``m`` again or Esc leaves): the widget covers the
        browser window (CSS ``position: fixed``, not the browser's Fullscreen API, which
        the kernel cannot reach: press F11 for a projector), larger type, the sliders,
        check boxes, file row and help collapsed.

    Notes
    -----
    The widget never calls ``display()``; make it the last expression of a
    cell.

    Examples
    --------
    >>> w = LinkageWidget.load("peaucellier.txt")
    >>> w.analysis.dof, w.linkage.n_vertices
    (1, 6)
    """

    def __init__(
        self,
        linkage: Linkage | None = None,
        *,
        width: int = 640,
        height: int = 480,
        controls: str = "full",
        **kwargs: Any,
    ) -> None:
        self.control_set = check_control_set(controls)  # before anything is built
        self.follow_device_ratio = True  # until pixel_ratio is set (here or later)
        self.device_pixel_ratio: float | None = None
        existing = open_widget_ids()
        self._built = False  # the hooks do nothing until the view is built
        self.panel_view: PanelView | None = None  # built after the canvas
        self._readout_time = float("-inf")  # when a moving frame last refreshed the readout
        super().__init__(linkage, width=width, height=height, **kwargs)
        # at the session's pixel_ratio (device pixels per CSS pixel) when it has one
        self.canvas = make_canvas(int(width), int(height), getattr(self, "pixel_ratio", 1.0))
        self.dom_events = connect(
            self.canvas, self.canvas_input, on_ready=self.draw, on_device_ratio=self._device_ratio
        )
        self.controls = Controls(self, self._run)
        self.controls.upload.observe(self._on_upload, names="value")
        self._downloads = Downloads()
        self._loop = FrameLoop(
            frame=lambda: self.frame(),
            dirty=lambda: self.dirty,
            on_error=self._frame_failed,
            drawn_at=lambda: self.frame_times[-1] if self.frame_times else float("-inf"),
        )
        self.children = self.controls.rows(self.canvas, self.control_set)
        self.export_bar = ExportBar(self, self._run)  # under the canvas while exporting
        self._build_views_beside(int(height))
        if self.show_configuration:
            self.redraw_panel()  # drawn before the view
        self.add_class("linkage-widget")
        self.observe(self._show_presentation, names="presentation")
        if self.has_trait("pixel_ratio"):
            self.observe(self._resize_backing, names="pixel_ratio")
        # the info box (key i) opens the readout's technical lines
        self.observe(lambda _change: self._controls_changed(), names="show_info")
        self._show_presentation()
        # every frontend message on this thread, one at a time (:mod:`.one_thread`)
        self.message_thread = MessageThread()
        self.message_thread.adopt(widgets_since(existing))
        self._built = True
        self._controls_changed()
        self.request_draw()

    def _build_views_beside(self, height: int) -> None:
        """The views beside the canvas, in their order in its row."""
        self.panel_view = PanelView(self)  # the configuration-space panel
        self.plot_view = PlotView(self, height)  # the kinematics plots
        self.synthesis_view = SynthesisView(self)  # the synthesis tool's thumbnails

    # ------------------------------------------------------------ testing
    def feed_canvas_event(self, content: dict[str, Any]) -> None:
        """Handle an ipycanvas message as the frontend sends it: ``{"event": "mouse_down"}``."""
        self.canvas._handle_frontend_event(None, content, [])

    def feed_dom_event(self, content: dict[str, Any]) -> None:
        """Handle an ipyevents message as the frontend sends it (``{"type": "mousedown", ...}``)."""
        self.dom_events._handle_mouse_msg(None, content, [])

    def feed_panel_event(self, content: dict[str, Any]) -> None:
        """Handle an ipycanvas message of the panel canvas (``{"event": "mouse_down", ...}``)."""
        assert self.panel_view is not None
        self.panel_view.feed_event(content)

    def feed_panel_dom_event(self, content: dict[str, Any]) -> None:
        """Handle an ipyevents message of the panel canvas (``{"type": "mousedown", ...}``)."""
        assert self.panel_view is not None
        self.panel_view.feed_dom_event(content)

    # -------------------------------------------------------------- hooks
    def _schedule_draw(self) -> None:
        if not self._built:
            return
        if running_loop() is not None:
            self._loop.ensure()
        else:
            self.draw()

    def _pointer_input(self) -> None:
        if not self._built:
            return
        if running_loop() is None:
            if self.dirty:
                self.draw()  # synchronous use: draw now; motion waits for advance()
            return
        self._loop.frame_if_due()

    def _start_animation(self) -> None:
        if self._built:
            self._loop.ensure()

    def _show(self, scene: Any) -> None:
        if self._built:
            draw_scene(self.canvas, scene)
            self.plot_view.show()  # the crank angle now marked on the plots
            self.synthesis_view.show()  # the candidates, when they or the chosen one changed
            # the hint goes in the tool line, beside the drawing (None: a scene without one)
            self.controls.show_status(hint=getattr(scene, "hint", None))
            bg = getattr(scene, "background", "#ffffff")  # a strut's core, as drawn
            self.controls.show_legend(legend_html(getattr(scene, "legend", ()), background=bg))
            now = time.perf_counter()
            if self.running and now - self._readout_time >= READOUT_S:
                self._readout_time = now  # forces and the joint's motion change as it moves
                self._controls_changed()

    def _controls_changed(self) -> None:
        if not self._built:
            return
        words = self.readout_words()  # plain words first, the numbers a click away
        self.controls.update(
            ControlsState(
                self.history.can_undo,
                self.history.can_redo,
                self.running,
                self.recording,
                self.motors_driving,
                self.mode,
                self.step_size,
                readout_html(words, self.error, self.drive_lines(), details_open=self.show_info),
                self.mode_refusal(),
            )
        )

    def _offer_file(self, path: Path, mime: str) -> None:
        if self._built and self._downloads.add(path, mime):
            self.controls.show_downloads(self._downloads.html())

    def _show_panel(self, static: PanelPicture | None, dynamic: PanelPicture) -> None:
        if self.panel_view is not None:
            self.panel_view.show(static, dynamic)

    def _batch_drawing(self) -> AbstractContextManager[Any]:
        """The linkage and the panel of a frame in one canvas message."""
        return nullcontext() if self.panel_view is None else self.panel_view.batch()

    # ------------------------------------------------------------ pixel ratio
    _ratio_from_browser = False  # True while the browser's ratio is being applied

    @validate("pixel_ratio")
    def _validate_pixel_ratio(self, proposal: Any) -> float:
        """A ratio set by the user (or in the constructor) wins over the browser's."""
        r = super()._validate_pixel_ratio(proposal)
        if not self._ratio_from_browser:
            self.follow_device_ratio = False
        return r

    def _device_ratio(self, ratio: float) -> None:
        """The browser reported ``window.devicePixelRatio``: draw at it, unless the user chose."""
        self.device_pixel_ratio = float(ratio)
        if not self.follow_device_ratio:
            return
        self._ratio_from_browser = True
        try:  # within the ratios drawn at (a page zoomed to 25 % reports 0.25)
            self.pixel_ratio = min(max(float(ratio), MIN_PIXEL_RATIO), MAX_PIXEL_RATIO)
        finally:
            self._ratio_from_browser = False

    # ------------------------------------------------------------ controls
    def _resize_backing(self, _change: Any = None) -> None:
        """A new pixel ratio: the canvas's backing store follows, its CSS size stays."""
        resize_backing(self.canvas, self.view.width, self.view.height, self.pixel_ratio)
        if self.panel_view is not None:
            self.panel_view.resize_backing(self.pixel_ratio)
        self.plot_view.resize_backing(self.pixel_ratio)
        self.synthesis_view.resize_backing(self.pixel_ratio)
        if self.show_configuration:
            self.redraw_panel()
        self.request_draw()

    def _show_presentation(self, _change: Any = None) -> None:
        """Presentation mode on or off: the CSS class of :mod:`.layout` does the rest."""
        if self.presentation:
            self.add_class(PRESENTATION_CLASS)
        else:
            self.remove_class(PRESENTATION_CLASS)

    def _frame_failed(self, exc: Exception) -> None:
        """A paced frame raised: the animation stops; say so on the widget, trace to the log."""
        traceback.print_exception(exc)
        self.error = f"the animation stopped: {type(exc).__name__}: {exc}"

    def _run(self, kind: str) -> None:
        """A button: carry out the action ``kind`` (errors shown, not raised)."""
        self.run_action(kind)

    def _on_upload(self, change: Any) -> None:
        files = uploaded_files(change["new"])
        if not files:
            return
        self.controls.upload.value = ()  # so the same file can be uploaded again
        load_upload(self, files)  # a JSON document, or a linkage file and its sibling
