"""``LinkageWidget``: the linkage on an ipycanvas canvas, with toolbar, sliders and readout.

The only module of the package that imports ipywidgets. It holds UI state
(selection, attractor, view, tool, tracks) and wires events to the model
(:class:`~linkage_widget.model.Linkage`), the motion
(:class:`~linkage_widget.motion.Simulator`), the analysis
(:func:`~linkage_widget.rigidity.analyze`) and the drawing
(:func:`~linkage_widget.draw.scene.build_scene` →
:func:`~linkage_widget.draw.canvas.draw_scene`).

Interaction map (the 2007 program's controls, DESIGN.md §4)

=============================  =================================================
mouse / key                    effect
=============================  =================================================
click empty space              add a vertex (it becomes selected)
click vertex / rod             select it; click again to deselect
drag a vertex                  the pointer pulls it; the mechanism follows
shift-drag a vertex            move it freely (an edit: rod lengths change)
drag empty space               pan;  wheel: zoom about the pointer
middle/alt-click vertex        add/remove a rod to the selected vertex
middle/alt-click rod           fix/unfix the angle with the selected (adjacent) rod
right/ctrl-click               place the attractor (pulls the selected vertex);
                               on the attractor: remove it; right-drag moves it
f / t / d / z / c              pin, track, delete, split rod, clear
s / l                          save / load the file named in the file box
v / i                          cycle view options / info panel on the canvas
p / r                          PNG picture / record a GIF (toggle)
space                          start/stop the motion
ctrl-z, ctrl-shift-z (ctrl-y)  undo, redo;  Home: fit;  Escape: deselect, stop
=============================  =================================================

The toolbar offers the same as tools (select/move, vertex, rod, angle, pin,
attractor, delete) for touch screens and for discoverability.

Animation runs as an asyncio task in the kernel's event loop, paced to at most
60 frames per second, one batched canvas message per frame; the kernel stays
responsive between frames. Without a running event loop (plain scripts,
tests) nothing animates by itself: :meth:`LinkageWidget.advance` runs frames
synchronously, and it is the same function the task calls.
"""

from __future__ import annotations

import asyncio
import base64
import html
import math
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from os import PathLike
from pathlib import Path
from typing import Any

import ipywidgets as W
import numpy as np
from ipycanvas import Canvas
from ipyevents import Event
from traitlets import Bool, Float, Int, TraitError, Tuple, Unicode, observe, validate

from ..draw.canvas import draw_scene
from ..draw import Scene, SceneState, build_scene, hit_test, overlay_insets
from ..draw.view import ViewTransform
from ..errors import LinkageFormatError
from ..io.sidecar import Extensions, read_extensions, write_extensions
from ..io.text2007 import parse_linkage_bytes, resolve_path
from ..model import Linkage
from ..rigidity import RigidityReport, analyze
from ..session.gestures import EventMerger, Gesture, Key
from ..session.history import History, Snapshot
from ..springs import Spring

__all__ = ["LinkageWidget", "TOOLS"]

#: Toolbar tools: what a plain click (or a touch) does.
TOOLS = ("select", "vertex", "rod", "angle", "pin", "attractor", "delete")
_TOOL_TIPS = {
    "select": "select/move: click adds or selects, drag moves a vertex or pans",
    "vertex": "add vertex: click adds a vertex",
    "rod": "rod: click two vertices (or empty space) to draw rods",
    "angle": "angle: click two adjacent rods to fix/unfix their angle",
    "pin": "pin: click a vertex to pin/unpin it",
    "attractor": "attractor: click to place/remove the attractor",
    "delete": "delete: click a vertex or rod to delete it",
}
#: What ``v`` cycles through: (name, show_velocities, show_stresses, show_pebbles).
VIEW_PRESETS = (
    ("velocity arrows", True, False, False),
    ("plain", False, False, False),
    ("self-stress colouring", False, True, False),
    ("pebble game: redundant rods", False, False, True),
)
DEFAULT_FILE = "saved_linkage.txt"
#: Step size per mode: kinematic, how far the pulled vertex moves per step (world units);
#: dynamic, the time step in seconds (1/60: one step per frame is real time).
DEFAULT_STEP = {"kinematic": 1.0, "dynamic": 1.0 / 60.0}
#: Step-size slider per mode: min, max, step, readout format, tooltip.
STEP_SLIDER = {
    "kinematic": (0.05, 20.0, 0.05, ".2f", "largest move of the pulled vertex per step"),
    "dynamic": (0.001, 0.05, 0.001, ".3f", "time step in seconds (1/60 = real time)"),
}
FRAME_S = 1.0 / 60.0  # at most 60 frames per second
MIN_YIELD_S = 0.002  # the frame loop always lets the kernel handle messages in between
SLEEP_OVERSHOOT_S = 0.0005  # asyncio.sleep wakes this much late (epoll's millisecond timeouts)
TRACK_CAP = 2000  # points kept per tracked vertex
INFO_PANEL_LINES = 4  # RigidityReport.summary_lines(): fit() keeps joints clear of them
DRAG_STEP_PX = 20.0  # while dragging, a kinematic step may move the vertex this far on screen
DRAG_SUBSTEPS = 10  # kinematic steps per frame while dragging (the pointer may be far) ...
FRAME_BUDGET_S = 0.008  # ... but no more stepping than this per frame ...
#: ... and none once the dragged vertex is this close to the pointer (pixels), until the
#: pointer moves: the last fraction of a pixel is invisible, and chasing it costs a step or
#: two per frame and a few more frames, whose halvings near the target also shrink the next
#: move's first step (motion's trust region).
DRAG_REACH_PX = 0.25
#: Re-analyse during a motion only up to this many coordinates (dense SVD ~ (2n)^3).
LIVE_ANALYSIS_MAX_2N = 400
LIVE_ANALYSIS_MAX_COST_S = 0.025  # ... and only if one analysis takes at most this
STILL_PX = 1e-3  # a frame moving less than this (pixels) changes nothing visible ...
STILL_FRAMES = 10  # ... and this many such frames in a row end an attractor motion
GIF_FPS = 25.0
GIF_MAX_FRAMES = 750  # 30 s at 25 fps
DOWNLOAD_MAX_BYTES = 8_000_000  # bigger files: no data-URI link (the browser would choke)
_ATTRACTOR_HIT_PX = 12.0

_EXECUTOR: ThreadPoolExecutor | None = None


def _executor() -> ThreadPoolExecutor:
    # One worker: analyses queue instead of competing with the animation for the CPU.
    global _EXECUTOR
    if _EXECUTOR is None:
        _EXECUTOR = ThreadPoolExecutor(max_workers=1, thread_name_prefix="linkage-analysis")
    return _EXECUTOR


def _running_loop() -> asyncio.AbstractEventLoop | None:
    """The kernel's running event loop, or ``None`` (scripts, tests: run synchronously)."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


class _Tracks:
    """Ring buffer of the paths of tracked vertices: ``(cap, k, 2)`` world points.

    All tracked vertices get a point per frame, so one array holds them all and
    appending is one vectorised copy.
    """

    def __init__(self, vertices: tuple[int, ...], cap: int = TRACK_CAP) -> None:
        self.vertices = tuple(vertices)
        self.cap = int(cap)
        self._buf = np.empty((self.cap, len(self.vertices), 2))
        self._start = 0
        self._len = 0

    def append(self, positions: np.ndarray) -> None:
        """Add the current positions (``(n, 2)``) of the tracked vertices."""
        if not self.vertices:
            return
        pts = positions[list(self.vertices)]
        if self._len and np.array_equal(self._buf[(self._start + self._len - 1) % self.cap], pts):
            return  # nothing moved: no duplicate points
        self._buf[(self._start + self._len) % self.cap] = pts
        if self._len < self.cap:
            self._len += 1
        else:
            self._start = (self._start + 1) % self.cap

    def as_dict(self) -> dict[int, np.ndarray]:
        """``{vertex: (k, 2) world polyline}``, oldest point first."""
        if not self._len:
            return {}
        idx = (self._start + np.arange(self._len)) % self.cap
        pts = self._buf[idx]
        return {v: pts[:, c] for c, v in enumerate(self.vertices)}


class LinkageWidget(W.VBox):
    """A planar linkage you can draw, analyse and move with the mouse.

    Parameters
    ----------
    linkage : Linkage, optional
        The model to show and edit (used, not copied). Default: empty.
    width, height : int
        Canvas size in pixels.
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

    Notes
    -----
    The widget never calls ``display()``; make it the last expression of a
    cell. See the module docstring for the mouse and key map.

    Examples
    --------
    >>> w = LinkageWidget.load("peaucellier.txt")
    >>> w.analysis.dof, w.linkage.n_vertices
    (1, 6)
    """

    # ------------------------------------------------------------------ traits
    step_size = Float(
        1.0, help="Kinematic: largest move of the pulled vertex per step; dynamic: time step (s)."
    )
    mass_distribution = Float(0.0, help="0: all mass at the joints ... 1: all in the rods.")
    mode = Unicode("kinematic", help='"kinematic" (follow the pointer) or "dynamic" (physics).')
    gravity = Float(0.0, help="Gravitational acceleration (dynamic mode), world units / s^2.")
    selected_vertex = Int(None, allow_none=True, help="Selected vertex index, or None.")
    selected_rod = Int(None, allow_none=True, help="Selected rod index, or None.")
    attractor = Tuple(
        Float(), Float(), default_value=None, allow_none=True, help="Attractor (world x, y)."
    )
    running = Bool(False, help="Whether the motion is running.")
    show_velocities = Bool(True, help="Draw the velocity basis (infinitesimal motions).")
    show_vertices = Bool(True, help="Draw the joints.")
    show_angles = Bool(True, help="Draw arcs at fixed angles.")
    show_info = Bool(False, help="Draw the analysis readout on the canvas.")
    show_stresses = Bool(False, help="Colour rods by the first self-stress.")
    show_pebbles = Bool(False, help="Colour redundant rods (pebble game).")
    tracked = Tuple(help="Tracked vertices: their paths are drawn.")
    error = Unicode("", help="Last error, shown in the readout and on the canvas.")
    tool = Unicode("select", help="Toolbar tool: what a plain click does.")
    recording = Bool(False, help="Whether frames are being recorded for a GIF.")

    _OWN_TRAITS = (
        "step_size mass_distribution mode gravity selected_vertex selected_rod attractor "
        "running show_velocities show_vertices show_angles show_info show_stresses "
        "show_pebbles tracked error tool recording"
    ).split()

    def __init__(
        self, linkage: Linkage | None = None, *, width: int = 640, height: int = 480, **kwargs: Any
    ) -> None:
        traits = {k: kwargs.pop(k) for k in list(kwargs) if k in self._OWN_TRAITS}
        self._ready = False  # observers do nothing until the widget is built
        super().__init__(**kwargs)
        self._linkage = linkage if linkage is not None else Linkage()
        self._init_state(int(width), int(height))
        self._build_canvas()
        self._build_controls()
        self.add_class("linkage-widget")
        self._ready = True
        # mode first: it decides what step_size means
        for name in sorted(traits, key=lambda k: k != "mode"):
            setattr(self, name, traits[name])
        self._refresh_analysis(sync=self._linkage.n_vertices <= 60)
        self._update_controls()
        self._draw()

    def _init_state(self, width: int, height: int) -> None:
        self._view = self._fitted_view(width, height)
        self._history: History[Snapshot] = History()
        self._springs: tuple[Spring, ...] = ()
        self._sim: Any = None
        self._sim_ref: Linkage | None = None  # the model as the simulator last saw it
        self._sim_target: tuple[int, float, float] | None = None
        self._settled = False  # the kinematic motion reached its target / is blocked
        self._still_frames = 0  # consecutive frames that moved less than STILL_PX
        self._status = "idle"
        self._motion_before: Snapshot | None = None  # undo point of the running motion
        self._drag_vertex: int | None = None
        self._drag_target: np.ndarray | None = None
        self._free_drag = False  # shift-drag: editing a position, not moving the mechanism
        self._tracks = _Tracks(())
        self._analysis: RigidityReport | None = None
        self._analysis_version = -1  # structure version the analysis belongs to
        self._analysis_pos_version = -1
        self._analysis_cost = 0.0
        self._analysis_time = -math.inf
        self._analysis_busy = False
        self._analysis_pending = False
        self._version = 0  # bumped by every edit (structure, pins, rest lengths)
        self._pos_version = 0  # bumped whenever positions change
        self._task: asyncio.Task[None] | None = None
        self._last_frame_at = -math.inf
        self._dirty = False
        self._message = ""
        self._preset = 0
        self._frames: list[Scene] = []
        self._last_gif_frame = -math.inf
        self._downloads: dict[str, str] = {}
        self._clock: Callable[[], float] = time.perf_counter
        self._step_memory = dict(DEFAULT_STEP)
        self.frame_times: list[float] = []  # perf_counter of each drawn frame (last 600)
        self.error_log: deque[str] = deque(maxlen=20)  # every error shown, newest last

    # =========================================================== construction
    @classmethod
    def load(cls, path: str | PathLike[str], **kwargs: Any) -> LinkageWidget:
        """A widget showing the linkage file ``path`` (or a bundled example by bare name).

        Reads the JSON sibling ``<path>.json`` (tracked vertices, springs, mass
        distribution) when there is one.

        Raises
        ------
        LinkageFormatError, FileNotFoundError
            When the file cannot be read.
        """
        linkage, ext = _read_linkage_file(path)
        widget = cls(linkage, **kwargs)
        widget._apply_extensions(ext)
        widget._history.clear()
        widget._update_controls()
        return widget

    def _build_canvas(self) -> None:
        w, h = self._view.width, self._view.height
        # Fixed CSS size: a VBox would otherwise stretch the canvas (blurry, huge).
        self.canvas = Canvas(
            width=w, height=h, layout=W.Layout(width=f"{w}px", height="auto", max_width="100%")
        )
        self.canvas.add_class("linkage-canvas")
        self._merger = EventMerger(
            w,
            h,
            on_press=self._on_press,
            on_drag=self._on_drag,
            on_release=self._on_release,
            on_wheel=self._on_wheel,
            on_key=self._on_key,
        )
        m = self._merger
        self.canvas.on_mouse_move(m.canvas_move)
        self.canvas.on_mouse_down(m.canvas_down)
        self.canvas.on_mouse_up(m.canvas_up)
        self.canvas.on_mouse_out(m.canvas_out)
        self.canvas.on_key_down(m.canvas_key)
        self.canvas.on_touch_start(m.touch_start)
        self.canvas.on_touch_move(m.touch_move)
        self.canvas.on_touch_end(m.touch_end)
        self.canvas.on_touch_cancel(m.touch_end)
        self.canvas.on_client_ready(self._draw)
        self._dom_events = Event(
            source=self.canvas,
            watched_events=["mousedown", "mouseup", "contextmenu", "wheel", "keydown"],
            prevent_default_action=True,
        )
        self._dom_events.on_dom_event(m.dom_event)

    def _build_controls(self) -> None:
        narrow = {"width": "auto"}
        self._tool_buttons = W.ToggleButtons(
            options=[(t, t) for t in TOOLS],
            tooltips=[_TOOL_TIPS[t] for t in TOOLS],
            value=self.tool,
            style={"button_width": "82px"},
        )
        W.link((self, "tool"), (self._tool_buttons, "value"))

        def button(label: str, tip: str, action: Callable[[], Any]) -> W.Button:
            b = W.Button(description=label, tooltip=tip, layout=W.Layout(**narrow))
            b.on_click(lambda _b: self._guarded(action))
            return b

        self._undo_button = button("↶ undo", "undo (ctrl-z)", self.undo)
        self._redo_button = button("↷ redo", "redo (ctrl-shift-z)", self.redo)
        self._play_button = button("▶ play", "start/stop the motion (space)", self._toggle_running)
        self._record_button = button("● record", "record a GIF (r)", self._toggle_recording)
        actions = W.HBox(
            [
                self._undo_button,
                self._redo_button,
                button("fit", "fit the linkage to the view (Home)", self.fit),
                self._play_button,
                self._record_button,
                button("SVG", "export an SVG picture", self._export_svg),
                button("PNG", "export a PNG picture (p)", self._export_png),
            ]
        )
        self._file_box = W.Text(
            value=DEFAULT_FILE, description="file", layout=W.Layout(width="260px")
        )
        self._upload = W.FileUpload(
            accept=".txt,.json", multiple=True, description="upload", layout=W.Layout(**narrow)
        )
        self._upload.observe(self._on_upload, names="value")
        self._downloads_html = W.HTML()
        files = W.HBox(
            [
                self._file_box,
                button("save", "save to the file named on the left (s)", self._save_to_box),
                button("load", "load the file named on the left (l)", self._load_from_box),
                self._upload,
                self._downloads_html,
            ]
        )
        lo, hi, step, fmt, tip = STEP_SLIDER[self.mode]
        self._step_slider = W.FloatSlider(
            value=self.step_size,
            min=lo,
            max=hi,
            step=step,
            readout_format=fmt,
            description="step size",
            tooltip=tip,
            style={"description_width": "initial"},
        )
        self._mass_slider = W.FloatSlider(
            value=self.mass_distribution,
            min=0.0,
            max=1.0,
            step=0.01,
            description="mass distribution",
            style={"description_width": "initial"},
        )
        self._gravity_slider = W.FloatSlider(
            value=self.gravity,
            min=0.0,
            max=1000.0,
            step=10.0,
            description="gravity",
            style={"description_width": "initial"},
        )
        self._step_slider.add_class("linkage-step-size")
        self._mass_slider.add_class("linkage-mass-distribution")
        self._gravity_slider.add_class("linkage-gravity")
        for slider, name in (
            (self._step_slider, "step_size"),
            (self._mass_slider, "mass_distribution"),
            (self._gravity_slider, "gravity"),
        ):
            _link_slider(self, name, slider)
        self._mode_buttons = W.ToggleButtons(
            options=["kinematic", "dynamic"],
            value=self.mode,
            style={"button_width": "92px"},
            tooltips=["follow the pointer/attractor", "physics: masses, gravity, inertia"],
        )
        W.link((self, "mode"), (self._mode_buttons, "value"))
        checks = []
        for name, label in (
            ("show_velocities", "velocities"),
            ("show_vertices", "vertices"),
            ("show_angles", "angles"),
            ("show_info", "info"),
            ("show_stresses", "stresses"),
            ("show_pebbles", "pebble game"),
        ):
            box = W.Checkbox(
                value=getattr(self, name),
                description=label,
                indent=False,
                layout=W.Layout(width="auto", margin="0 12px 0 0"),
            )
            W.link((self, name), (box, "value"))
            checks.append(box)
        self._readout = W.HTML()
        self._readout.add_class("linkage-readout")
        help_html = W.HTML(_HELP_HTML)
        self.children = [
            self._tool_buttons,
            actions,
            self.canvas,
            W.HBox([self._step_slider, self._mass_slider]),
            W.HBox([self._gravity_slider, self._mode_buttons]),
            W.HBox(checks),
            self._readout,
            files,
            help_html,
        ]

    # ============================================================= properties
    @property
    def linkage(self) -> Linkage:
        """The model (see the class docstring)."""
        return self._linkage

    @linkage.setter
    def linkage(self, new: Linkage) -> None:
        if not isinstance(new, Linkage):
            raise TraitError(f"linkage must be a Linkage, got {type(new).__name__}")
        keep = Extensions(mass_distribution=self.mass_distribution)
        self._edit(lambda: self._replace_model(new.copy(), keep), "new linkage")
        self.fit()

    @property
    def view(self) -> ViewTransform:
        """The current world -> pixel transform (settable)."""
        return self._view

    @view.setter
    def view(self, new: ViewTransform) -> None:
        if (new.width, new.height) != (self._view.width, self._view.height):
            new = new.resized(self._view.width, self._view.height)
        self._view = new
        self._request_draw()

    @property
    def analysis(self) -> RigidityReport:
        """The rigidity analysis of the current linkage (computed now if out of date)."""
        if self._analysis is None or self._analysis_version != self._version:
            self._refresh_analysis(sync=True)
        assert self._analysis is not None
        return self._analysis

    @property
    def history(self) -> History[Snapshot]:
        """Undo/redo stacks."""
        return self._history

    @property
    def springs(self) -> tuple[Spring, ...]:
        """Springs between vertices (dynamic mode)."""
        return self._springs

    @property
    def status(self) -> str:
        """The simulator's last status (``"idle"``, ``"moved"``, ``"reached target"``, ...)."""
        return self._status

    @property
    def simulator(self) -> Any:
        """The :class:`~linkage_widget.motion.Simulator` in use (rebuilt after edits)."""
        return self._simulator()

    # ============================================================ validation
    @validate("step_size")
    def _validate_step_size(self, proposal: Any) -> float:
        v = float(proposal["value"])
        if not (math.isfinite(v) and v > 0):
            raise TraitError(f"step_size must be a positive finite number, got {v!r}")
        return v

    @validate("mass_distribution")
    def _validate_mass_distribution(self, proposal: Any) -> float:
        v = float(proposal["value"])
        if not 0.0 <= v <= 1.0:
            raise TraitError(f"mass_distribution must be in [0, 1], got {v!r}")
        return v

    @validate("gravity")
    def _validate_gravity(self, proposal: Any) -> float:
        v = float(proposal["value"])
        if not math.isfinite(v):
            raise TraitError(f"gravity must be finite, got {v!r}")
        return v

    @validate("mode")
    def _validate_mode(self, proposal: Any) -> str:
        v = proposal["value"]
        if v not in ("kinematic", "dynamic"):
            raise TraitError(f'mode must be "kinematic" or "dynamic", got {v!r}')
        return v

    @validate("tool")
    def _validate_tool(self, proposal: Any) -> str:
        v = proposal["value"]
        if v not in TOOLS:
            raise TraitError(f"tool must be one of {', '.join(TOOLS)}; got {v!r}")
        return v

    @validate("selected_vertex")
    def _validate_selected_vertex(self, proposal: Any) -> int | None:
        return self._check_index(proposal["value"], self._linkage.n_vertices, "selected_vertex")

    @validate("selected_rod")
    def _validate_selected_rod(self, proposal: Any) -> int | None:
        return self._check_index(proposal["value"], self._linkage.n_rods, "selected_rod")

    @staticmethod
    def _check_index(v: Any, n: int, name: str) -> int | None:
        if v is None:
            return None
        if not 0 <= int(v) < n:
            raise TraitError(f"{name} must be None or in range({n}), got {v!r}")
        return int(v)

    @validate("attractor")
    def _validate_attractor(self, proposal: Any) -> tuple[float, float] | None:
        v = proposal["value"]
        if v is None:
            return None
        x, y = (float(c) for c in v)
        if not (math.isfinite(x) and math.isfinite(y)):
            raise TraitError(f"attractor must be None or finite (x, y), got {v!r}")
        return (x, y)

    @validate("tracked")
    def _validate_tracked(self, proposal: Any) -> tuple[int, ...]:
        n = self._linkage.n_vertices
        out: list[int] = []
        for v in proposal["value"]:
            if isinstance(v, bool) or not isinstance(v, int | np.integer) or not 0 <= v < n:
                raise TraitError(f"tracked must hold vertex indices in range({n}), got {v!r}")
            if int(v) in out:
                raise TraitError(f"tracked lists vertex {int(v)} twice")
            out.append(int(v))
        return tuple(out)

    # ============================================================= observers
    @observe("step_size", "mass_distribution", "gravity")
    def _on_parameter_change(self, change: Any) -> None:
        # Effective at the next step of the running motion: no rebuild, no restart.
        if self._sim is not None:
            setattr(self._sim, change["name"], change["new"])
        self._unsettle()

    @observe("mode")
    def _on_mode_change(self, change: Any) -> None:
        if not self._ready:
            return
        self._commit_motion()
        self._switch_step_size(change["old"], change["new"])
        self._invalidate_simulator()
        self._message = f"{change['new']} mode"
        self._request_draw()

    def _switch_step_size(self, old: str, new: str) -> None:
        """Each mode keeps its own step size: a distance (kinematic) or a time step (dynamic)."""
        self._step_memory[old] = self.step_size
        lo, hi, step, fmt, tip = STEP_SLIDER[new]
        s = self._step_slider
        # widen first so that neither the old nor the new value is ever clamped
        s.min, s.max = min(s.min, lo), max(s.max, hi)
        self.step_size = self._step_memory[new]
        s.min, s.max = min(lo, self.step_size), max(hi, self.step_size)
        s.step, s.readout_format, s.tooltip = step, fmt, tip

    @observe("selected_vertex")
    def _on_selected_vertex_change(self, change: Any) -> None:
        if change["new"] is not None:
            self.selected_rod = None  # one selection at a time: keys act on it
        self._unsettle()  # the attractor now pulls another vertex
        if self._ready and self.attractor is not None and change["new"] is not None:
            self.running = True
        self._request_draw()

    @observe("selected_rod")
    def _on_selected_rod_change(self, change: Any) -> None:
        if change["new"] is not None:
            self.selected_vertex = None
        self._request_draw()

    @observe("attractor")
    def _on_attractor_change(self, change: Any) -> None:
        self._unsettle()
        if not self._ready:
            return
        if change["new"] is not None and self.selected_vertex is not None:
            self.running = True
        elif change["new"] is None and self.mode == "kinematic" and self._drag_vertex is None:
            self.running = False
        self._request_draw()

    @observe("running")
    def _on_running_change(self, change: Any) -> None:
        if not self._ready:
            return
        if change["new"]:
            self._unsettle()
            self._ensure_animation()
        else:
            self._commit_motion()
            if self._analysis_pos_version != self._pos_version:
                self._refresh_analysis()  # big linkages are not re-analysed while moving
            self._request_draw()
        self._update_controls()

    @observe("tracked")
    def _on_tracked_change(self, change: Any) -> None:
        self._tracks = _Tracks(change["new"])
        self._tracks.append(self._linkage.vertices)
        self._request_draw()

    @observe(
        "show_velocities",
        "show_vertices",
        "show_angles",
        "show_info",
        "show_stresses",
        "show_pebbles",
        "tool",
    )
    def _on_view_option_change(self, change: Any) -> None:
        self._request_draw()

    @observe("error")
    def _on_error_change(self, change: Any) -> None:
        if change["new"]:
            self.error_log.append(change["new"])
        if self._ready:
            self._update_readout()
            self._request_draw()

    @observe("recording")
    def _on_recording_change(self, change: Any) -> None:
        if not self._ready:
            return
        if change["new"]:
            self._frames = []
            self._last_gif_frame = -math.inf
            self._record_frame(self.scene())
        self._update_controls()

    # ============================================================ public API
    def refresh(self) -> None:
        """Take in changes made to :attr:`linkage` from code (redo analysis, redraw)."""
        self._after_edit()

    def fit(self) -> None:
        """Zoom and pan so that the whole linkage fills the canvas."""
        self._view = self._fitted_view(self._view.width, self._view.height)
        self._request_draw()

    def _fitted_view(self, width: int, height: int) -> ViewTransform:
        """Fit the linkage clear of the info panel (when shown) and the hint line."""
        # show_info is not set yet while __init__ fits the first view: it defaults to on
        shown = getattr(self, "show_info", True)
        top, bottom = overlay_insets(INFO_PANEL_LINES if shown else 0)
        return ViewTransform.fit(
            self._linkage.vertices, width, height, margin=0.1, top=top, bottom=bottom
        )

    def undo(self) -> bool:
        """Go back one edit (or motion); return whether there was one."""
        return self._travel(self._history.undo, "undone")

    def redo(self) -> bool:
        """Redo the last undone edit; return whether there was one."""
        return self._travel(self._history.redo, "redone")

    def save(self, path: str | PathLike[str] | None = None) -> Path:
        """Save the linkage atomically in the 2007 format, plus ``<path>.json`` extensions.

        The JSON sibling (tracked vertices, springs, mass distribution) is
        written only when there are any; otherwise a stale one is removed.
        Returns the path written. Raises ``OSError`` when it cannot write.
        """
        target = Path(path if path is not None else self._file_box.value or DEFAULT_FILE)
        self._linkage.save(target)
        write_extensions(target, self._extensions())
        self._offer_download(target, "text/plain")
        return target

    def load_file(self, path: str | PathLike[str]) -> bool:
        """Load a linkage file into this widget (undoable); return whether it worked.

        On any error (format, missing file) the current linkage stays as it
        was and :attr:`error` says what went wrong.
        """
        try:
            linkage, ext = _read_linkage_file(path)
        except (LinkageFormatError, OSError, ValueError) as exc:
            self.error = f"could not load {path}: {exc}"
            return False
        self._edit(lambda: self._replace_model(linkage, ext), f"loaded {path}")
        self.fit()
        return True

    def add_spring(
        self,
        i: int,
        j: int,
        stiffness: float = 1.0,
        rest_length: float | None = None,
        damping: float = 0.0,
    ) -> None:
        """Attach a spring (and damper) between vertices ``i`` and ``j`` (dynamic mode)."""
        n = self._linkage.n_vertices
        for v in (i, j):
            if not 0 <= int(v) < n:
                raise IndexError(f"vertex {v} out of range (there are {n} vertices)")
        if rest_length is None:  # fixed now: a rebuilt simulator must not reset it
            rest_length = float(np.hypot(*(self._linkage.vertices[i] - self._linkage.vertices[j])))
        spring = Spring(int(i), int(j), float(stiffness), rest_length, float(damping))
        self._edit(lambda: self._set_springs((*self._springs, spring)), f"spring {i}-{j}")

    def scene(self) -> Scene:
        """The current picture as backend-neutral primitives."""
        return build_scene(self._linkage, self._view, self._scene_state())

    def to_svg(self) -> str:
        """The current view as an SVG document."""
        from ..draw.svg import scene_to_svg

        return scene_to_svg(self.scene())

    def to_png(self, path: str | PathLike[str]) -> Path:
        """Save the current view as a PNG picture; return the path."""
        from ..draw.raster import save_png

        save_png(self.scene(), path)
        return Path(path)

    def save_gif(self, path: str | PathLike[str], fps: float = GIF_FPS) -> Path:
        """Write the frames recorded so far (see :attr:`recording`) as an animated GIF."""
        from ..draw.raster import save_gif

        if not self._frames:
            raise ValueError("nothing recorded: set recording = True (key r) and move something")
        save_gif(self._frames, path, fps)
        return Path(path)

    def advance(self, frames: int = 1) -> str:
        """Run ``frames`` animation frames now (what the asyncio task does each frame).

        Each frame steps the motion (when :attr:`running`), records tracks and
        draws once. Returns the simulator status of the last frame.
        """
        for _ in range(int(frames)):
            self._frame()
        return self._status

    # ================================================================ events
    def _on_press(self, g: Gesture) -> None:
        if self._drag_vertex is not None or self._free_drag:
            self._end_drag()  # its release never came (e.g. it happened outside the page)
        self._message = ""
        action = g.action
        if action == "primary" and self.tool == "attractor":
            action = "attract"
        g.data["action"] = action
        g.data["hit"] = hit_test(self._linkage, self._view, g.x, g.y)
        if action == "attract":
            self._guarded(lambda: self._attract_press(g))
        elif action == "link":
            self._guarded(lambda: self._link_press(g.data["hit"]))
        self._request_draw()

    def _on_drag(self, g: Gesture, dx: float, dy: float) -> None:
        action, hit = g.data["action"], g.data["hit"]
        if action == "attract":
            if self.attractor is not None and g.data.get("placed"):
                self.attractor = tuple(self._view.to_world([g.last_x, g.last_y]).tolist())
        elif action == "primary" and hit is not None and hit[0] == "vertex":
            g.data["moved_vertex"] = True
            self._drag_to(g, hit[1])
        elif action == "primary":
            self._view = self._view.panned(dx, dy)
            self._dirty = True
            self._frame_if_due()

    def _on_release(self, g: Gesture, x: float, y: float) -> None:
        if g.data.get("moved_vertex"):
            self._end_drag()
            return
        if g.data.get("action") == "primary" and not g.dragged:
            self._guarded(lambda: self._click(g.x, g.y, g.data["hit"]))
        self._request_draw()

    def _on_wheel(self, x: float, y: float, delta_y: float) -> None:
        factor = math.exp(-float(np.clip(delta_y, -500.0, 500.0)) * 0.002)
        self._view = self._view.zoomed(x, y, factor)
        self._dirty = True
        self._frame_if_due()

    def _on_key(self, key: Key) -> None:
        self._message = ""
        handler = _KEYMAP.get(key.combo)
        if handler is not None:
            self._guarded(lambda: handler(self))
        self._request_draw()

    def _guarded(self, action: Callable[[], Any]) -> None:
        """Run a UI action; show expected failures instead of losing them in the log."""
        try:
            action()
        except (ValueError, IndexError, OSError, TraitError) as exc:
            self.error = str(exc)

    # --------------------------------------------------------------- clicks
    def _click(self, x: float, y: float, hit: tuple[str, int] | None) -> None:
        """A plain click (no drag), as the current tool means it."""
        {
            "select": self._click_select,
            "vertex": self._click_vertex_tool,
            "rod": self._click_rod_tool,
            "angle": self._click_angle_tool,
            "pin": self._click_pin_tool,
            "delete": self._click_delete_tool,
        }[self.tool](x, y, hit)

    def _click_select(self, x: float, y: float, hit: tuple[str, int] | None) -> None:
        if hit is None:
            self._add_vertex_at(x, y)
        else:
            self._toggle_selection(hit)

    def _click_vertex_tool(self, x: float, y: float, hit: tuple[str, int] | None) -> None:
        if hit is not None and hit[0] == "vertex":
            self._toggle_selection(hit)
        else:
            self._add_vertex_at(x, y)

    def _click_rod_tool(self, x: float, y: float, hit: tuple[str, int] | None) -> None:
        s = self.selected_vertex
        if hit is None:  # a new vertex, joined to the selected one: draw polygons quickly
            v = self._add_vertex_at(x, y)
            if s is not None:
                self._toggle_rod(s, v)
                self.selected_vertex = v
        elif hit[0] == "vertex" and s is not None and s != hit[1]:
            self._toggle_rod(s, hit[1])
            self.selected_vertex = hit[1]
        else:
            self._toggle_selection(hit)

    def _click_angle_tool(self, x: float, y: float, hit: tuple[str, int] | None) -> None:
        if hit is not None and hit[0] == "rod" and self.selected_rod not in (None, hit[1]):
            self._toggle_angle(self.selected_rod, hit[1])
        elif hit is not None:
            self._toggle_selection(hit)

    def _click_pin_tool(self, x: float, y: float, hit: tuple[str, int] | None) -> None:
        if hit is not None and hit[0] == "vertex":
            self._toggle_pin(hit[1])

    def _click_delete_tool(self, x: float, y: float, hit: tuple[str, int] | None) -> None:
        if hit is not None and hit[0] == "vertex":
            self._delete_vertex(hit[1])
        elif hit is not None:
            self._delete_rod(hit[1])

    def _toggle_selection(self, hit: tuple[str, int]) -> None:
        kind, i = hit
        if kind == "vertex":
            self.selected_vertex = None if self.selected_vertex == i else i
        else:
            self.selected_rod = None if self.selected_rod == i else i

    def _link_press(self, hit: tuple[str, int] | None) -> None:
        """Middle/alt-click: rod to the selected vertex, or angle with the selected rod."""
        if hit is None:
            self._message = "alt-click a vertex (rod to the selected vertex) or a rod (angle)"
        elif hit[0] == "vertex":
            s = self.selected_vertex
            if s is None or s == hit[1]:
                self.selected_vertex = hit[1]
                self._message = f"vertex {hit[1]} selected: alt-click another vertex for a rod"
            else:
                self._toggle_rod(s, hit[1])
        else:
            q = self.selected_rod
            if q is None or q == hit[1]:
                self.selected_rod = hit[1]
                self._message = f"rod {hit[1]} selected: alt-click an adjacent rod to fix the angle"
            else:
                self._toggle_angle(q, hit[1])

    def _attract_press(self, g: Gesture) -> None:
        """Right/ctrl-click: remove the attractor when on it, else place it here."""
        if self.attractor is not None:
            ax, ay = self._view.to_pixel(self.attractor)
            if math.hypot(ax - g.x, ay - g.y) <= _ATTRACTOR_HIT_PX:
                self.attractor = None
                self._message = "attractor removed"
                return
        self.attractor = tuple(self._view.to_world([g.x, g.y]).tolist())
        g.data["placed"] = True
        if self.selected_vertex is None:
            self._message = "attractor placed: select a vertex for it to pull"

    # ---------------------------------------------------------------- drags
    def _drag_to(self, g: Gesture, v: int) -> None:
        """Dragging vertex ``v``: the pointer is its attractor (shift: move it freely)."""
        target = self._view.to_world([g.last_x, g.last_y])
        if g.shift or self._free_drag:
            self._free_move(v, target)
            return
        if self._drag_vertex is None:
            self._drag_vertex = v
            self.selected_vertex = v
            if self._linkage.is_pinned(v):
                self._message = f"vertex {v} is pinned: f unpins it, shift-drag moves it"
            self.running = True
        self._drag_target = target
        self._unsettle()
        self._frame_if_due()

    def _free_move(self, v: int, target: np.ndarray) -> None:
        if not self._free_drag:
            self._commit_motion()
            self._history.record(self._snapshot())
            self._free_drag = True
            self.selected_vertex = v
        try:
            self._linkage.move_vertex(v, target)
        except ValueError:
            return  # onto a neighbour: skip this position, keep dragging
        self._pos_version += 1
        self._invalidate_simulator()
        self._request_draw()

    def _end_drag(self) -> None:
        if self._free_drag:
            self._free_drag = False
            self._after_edit()
            return
        self._drag_vertex = None
        self._drag_target = None
        if self.mode == "kinematic" and self.attractor is None:
            self.running = False
        self._refresh_analysis()
        self._request_draw()

    # =============================================================== keys
    def _key_pin(self) -> None:
        v = self._require_vertex("pin")
        self._toggle_pin(v)

    def _key_track(self) -> None:
        v = self._require_vertex("track")
        on = v not in self.tracked
        new = (*self.tracked, v) if on else tuple(t for t in self.tracked if t != v)
        self._edit(
            lambda: setattr(self, "tracked", new),
            f"tracking vertex {v}" if on else f"vertex {v} no longer tracked",
        )

    def _key_delete(self) -> None:
        if self.selected_vertex is not None:
            self._delete_vertex(self.selected_vertex)
        elif self.selected_rod is not None:
            self._delete_rod(self.selected_rod)
        else:
            self._message = "select a vertex or rod to delete"

    def _key_split(self) -> None:
        r = self.selected_rod
        if r is None:
            self._message = "select a rod to split (z)"
            return
        self._edit(lambda: self._split(r), f"rod {r} split")

    def _key_clear(self) -> None:
        self._edit(self._clear, "cleared (ctrl-z to undo)")

    def _key_view(self) -> None:
        self._preset = (self._preset + 1) % len(VIEW_PRESETS)
        name, vel, stress, pebbles = VIEW_PRESETS[self._preset]
        with self.hold_trait_notifications():
            self.show_velocities, self.show_stresses, self.show_pebbles = vel, stress, pebbles
        self._message = f"view: {name} (v for the next)"

    def _key_info(self) -> None:
        self.show_info = not self.show_info

    def _key_escape(self) -> None:
        self.running = False
        self.selected_vertex = None
        self.selected_rod = None

    def _require_vertex(self, what: str) -> int:
        if self.selected_vertex is None:
            raise ValueError(f"select a vertex first to {what} it")
        return self.selected_vertex

    # ============================================================== editing
    def _snapshot(self) -> Snapshot:
        return Snapshot(self._linkage.copy(), tuple(self.tracked), self._springs)

    def _edit(self, change: Callable[[], Any], message: str = "") -> bool:
        """Apply one undoable edit; on failure restore the state and show the error."""
        self._commit_motion()
        before = self._snapshot()
        try:
            with self.hold_trait_notifications():
                change()
        except (ValueError, IndexError, TraitError) as exc:
            self._restore(before)
            self.error = str(exc)
            return False
        if self._snapshot() != before:
            self._history.record(before)
        self.error = ""
        self._message = message
        self._after_edit()
        return True

    def _after_edit(self) -> None:
        """Everything that follows a change of the model: selection, motion, analysis, drawing."""
        n, m = self._linkage.n_vertices, self._linkage.n_rods
        if self.selected_vertex is not None and self.selected_vertex >= n:
            self.selected_vertex = None
        if self.selected_rod is not None and self.selected_rod >= m:
            self.selected_rod = None
        self._version += 1
        self._pos_version += 1
        self._invalidate_simulator()
        self._refresh_analysis()
        self._update_controls()
        self._request_draw()

    def _restore(self, s: Snapshot) -> None:
        self._linkage.replace_with(s.linkage)
        with self.hold_trait_notifications():
            self.selected_vertex = None
            self.selected_rod = None
            self._springs = s.springs
            self.tracked = s.tracked
        self._tracks = _Tracks(self.tracked)
        self._tracks.append(self._linkage.vertices)

    def _travel(self, step: Callable[[Snapshot], Snapshot | None], verb: str) -> bool:
        self._commit_motion()
        self.running = False
        target = step(self._snapshot())
        if target is None:
            self._message = f"nothing to be {verb}"
            self._request_draw()
            return False
        self._restore(target)
        self.error = ""
        self._message = verb
        self._after_edit()
        return True

    def _add_vertex_at(self, x: float, y: float) -> int:
        xy = self._view.to_world([x, y])
        box: list[int] = []
        self._edit(lambda: box.append(self._linkage.add_vertex(xy)))
        v = box[0]
        self.selected_vertex = v
        self._message = f"vertex {v} added"
        return v

    def _toggle_rod(self, i: int, j: int) -> None:
        r = self._linkage.find_rod(i, j)
        if r is None:
            self._edit(lambda: self._linkage.add_rod(i, j), f"rod {i}-{j} added")
        else:
            self._edit(lambda: self._linkage.remove_rod(r), f"rod {i}-{j} removed")

    def _toggle_angle(self, r1: int, r2: int) -> None:
        a, b = (tuple(int(v) for v in self._linkage.rods[r]) for r in (r1, r2))
        shared = set(a) & set(b)
        if len(shared) != 1:
            raise ValueError(f"rods {r1} and {r2} do not share a vertex: no angle between them")
        (apex,) = shared
        j, k = (a[0] if a[1] == apex else a[1]), (b[0] if b[1] == apex else b[1])
        found = self._linkage.find_angle(apex, j, k)
        if found is None:
            self._edit(lambda: self._linkage.add_angle(apex, j, k), f"angle at {apex} fixed")
        else:
            self._edit(lambda: self._linkage.remove_angle(found), f"angle at {apex} freed")

    def _toggle_pin(self, v: int) -> None:
        box: list[bool] = []
        self._edit(lambda: box.append(self._linkage.toggle_pin(v)))
        self._message = f"vertex {v} {'pinned' if box and box[0] else 'unpinned'}"

    def _delete_vertex(self, v: int) -> None:
        def change() -> None:
            self.selected_vertex = None
            self._linkage.remove_vertex(v)
            self.tracked = tuple(t - (t > v) for t in self.tracked if t != v)
            self._springs = tuple(s for s in (sp.renumbered(v) for sp in self._springs) if s)
            self.attractor = None  # it pulled the selected vertex; nothing is selected now

        self._edit(change, f"vertex {v} deleted")

    def _delete_rod(self, r: int) -> None:
        i, j = (int(v) for v in self._linkage.rods[r])

        def change() -> None:
            self.selected_rod = None
            self._linkage.remove_rod(r)

        self._edit(change, f"rod {i}-{j} deleted")

    def _split(self, r: int) -> None:
        mid = self._linkage.split_rod(r)
        self.selected_vertex = mid

    def _clear(self) -> None:
        self.selected_vertex = None
        self.selected_rod = None
        self.attractor = None
        self.tracked = ()
        self._springs = ()
        self._linkage.clear()

    def _set_springs(self, springs: tuple[Spring, ...]) -> None:
        self._springs = springs

    def _replace_model(self, linkage: Linkage, ext: Extensions) -> None:
        self.selected_vertex = None
        self.selected_rod = None
        self.attractor = None
        self.tracked = ()
        self._linkage.replace_with(linkage)
        self._apply_extensions(ext)

    def _apply_extensions(self, ext: Extensions) -> None:
        self.tracked = ext.tracked
        self._springs = ext.springs
        self.mass_distribution = ext.mass_distribution
        self._invalidate_simulator()

    def _extensions(self) -> Extensions:
        return Extensions(tuple(self.tracked), self._springs, float(self.mass_distribution))

    # ================================================================ motion
    def _simulator(self) -> Any:
        """The simulator for the current model; rebuilt after any edit (also from code)."""
        if self._sim is None or self._sim_ref is None or self._sim_ref != self._linkage:
            from ..motion import Simulator

            sim = Simulator(
                self._linkage,
                mode=self.mode,
                step_size=self.step_size,
                mass_distribution=self.mass_distribution,
                gravity=self.gravity,
            )
            for s in self._springs:
                sim.add_spring(s.i, s.j, s.stiffness, rest_length=s.rest_length, damping=s.damping)
            self._sim = sim
            self._sim_ref = self._linkage.copy()
            self._sim_target = None
        return self._sim

    def _invalidate_simulator(self) -> None:
        self._sim = None
        self._sim_ref = None
        self._unsettle()

    def _target(self) -> tuple[int, float, float] | None:
        """(vertex, x, y) the motion pulls toward: the drag pointer, else the attractor."""
        if self._drag_vertex is not None and self._drag_target is not None:
            x, y = self._drag_target
            return (self._drag_vertex, float(x), float(y))
        if self.attractor is not None and self.selected_vertex is not None:
            return (self.selected_vertex, *self.attractor)
        return None

    def _step_motion(self) -> bool:
        """One frame of motion; return whether the positions changed."""
        target = self._target()
        if self.mode == "kinematic" and (target is None or self._settled):
            if target is None:
                self._status = "idle"
            return False
        if self._motion_before is None:
            self._motion_before = self._snapshot()
        sim = self._simulator()
        if target != self._sim_target:
            if target is None:
                sim.release()
            else:
                sim.attract(target[0], target[1:])
            self._sim_target = target
        self._run_steps(sim)
        P = np.asarray(sim.positions, dtype=np.float64)
        shift_px = float(np.abs(P - self._linkage.vertices).max(initial=0.0)) * self._view.scale
        self._note_stillness(shift_px)
        if shift_px == 0.0:
            return False
        self._linkage.set_positions(P)
        self._sim_ref.set_positions(P)  # type: ignore[union-attr]
        self._pos_version += 1
        self._tracks.append(P)
        return True

    def _run_steps(self, sim: Any) -> None:
        """Step the simulator: several kinematic steps per frame while dragging."""
        if self.mode == "dynamic":
            sim.step(1)
            self._status = str(sim.status)
            return
        dragging = self._drag_vertex is not None
        # A drag must keep up with the pointer: steps of up to DRAG_STEP_PX on screen (the
        # projection keeps them exact); the attractor moves at step_size per frame.
        step = max(self.step_size, DRAG_STEP_PX / self._view.scale) if dragging else self.step_size
        if sim.step_size != step:
            sim.step_size = step
        t0 = time.perf_counter()
        for _ in range(DRAG_SUBSTEPS if dragging else 1):
            sim.step(1)
            self._status = str(sim.status)
            if self._status != "moved" or time.perf_counter() - t0 > FRAME_BUDGET_S:
                break
            if dragging and self._drag_gap_px(sim) <= DRAG_REACH_PX:
                self._settled = True  # until the pointer moves again
                break
        if self._status in ("reached target", "blocked"):
            self._settled = True

    def _drag_gap_px(self, sim: Any) -> float:
        """Screen distance from the dragged vertex to the pointer's world position."""
        if self._drag_target is None:
            return math.inf
        v, (x, y) = self._drag_vertex, self._drag_target
        p = sim.positions[v]
        return float(np.hypot(p[0] - x, p[1] - y)) * self._view.scale

    def _unsettle(self) -> None:
        """Something changed (target, parameters, model): the motion may go on."""
        self._settled = False
        self._still_frames = 0

    def _note_stillness(self, shift_px: float) -> None:
        """Settle a kinematic motion that creeps by less than STILL_PX for STILL_FRAMES frames.

        Approaching the closest reachable point, the steps shrink geometrically
        and the simulator may keep reporting "moved": nothing visible happens,
        so stop spending the CPU on it.
        """
        if self.mode != "kinematic":
            return
        self._still_frames = self._still_frames + 1 if shift_px < STILL_PX else 0
        if self._still_frames >= STILL_FRAMES and self._drag_vertex is None:
            self._settled = True

    def _commit_motion(self) -> None:
        """Make the motion so far one undo step (called when it stops or before an edit)."""
        before, self._motion_before = self._motion_before, None
        if before is not None and self._snapshot() != before:
            self._history.record(before)
            self._update_controls()

    def _frame(self) -> bool:
        """One animation frame: step, track, analyse (throttled), draw; return whether busy."""
        self._last_frame_at = time.perf_counter()
        moved = False
        if self.running:
            try:
                moved = self._step_motion()
            except Exception as exc:  # noqa: BLE001 - a failed step must not kill the loop
                self.error = f"motion stopped: {exc}"
                self.running = False
            self._stop_if_done()
        if moved:
            self._dirty = True
            if self._live_analysis():
                self._refresh_analysis(live=True)
        if self._dirty:
            self._draw()
        return bool(self.running)

    def _live_analysis(self) -> bool:
        """Whether to re-analyse during motion: small and cheap enough (else on release).

        The analysis is a dense SVD, ~(2n)^3: on two cores a 100 ms analysis in the
        background thread visibly slows the frames, even though it is off the loop.
        """
        return (
            2 * self._linkage.n_vertices <= LIVE_ANALYSIS_MAX_2N
            and self._analysis_cost <= LIVE_ANALYSIS_MAX_COST_S
        )

    def _stop_if_done(self) -> None:
        """Kinematic motion toward the attractor ends when reached or blocked."""
        if (
            self.running
            and self.mode == "kinematic"
            and self._drag_vertex is None
            and (self._settled or self._target() is None)
        ):
            self.running = False

    def _toggle_running(self) -> None:
        if not self.running and self.mode == "kinematic" and self._target() is None:
            self._message = "right-click to place an attractor (or drag a vertex) to move"
            self._request_draw()
            return
        self.running = not self.running

    # ========================================================== animation loop
    def _ensure_animation(self) -> None:
        """Start the frame task if an event loop runs and the task is not running."""
        loop = _running_loop()
        if loop is None:
            return  # synchronous use: advance() runs frames
        if self._task is None or self._task.done():
            self._task = loop.create_task(self._animate())

    async def _animate(self) -> None:
        """Frames at most every FRAME_S until nothing moves and nothing is left to draw.

        Pacing counts from the last frame, which pointer input may have run out of
        band (:meth:`_frame_if_due`); every iteration yields to the event loop so
        that incoming events are handled even when frames take longer than FRAME_S.
        """
        while True:
            # epoll rounds timeouts up to whole milliseconds: without the allowance every
            # frame came ~1 ms late (56 instead of 60 fps, measured).
            due = self._last_frame_at + FRAME_S - time.perf_counter() - SLEEP_OVERSHOOT_S
            await asyncio.sleep(max(MIN_YIELD_S, due))
            if time.perf_counter() - self._last_frame_at < FRAME_S - MIN_YIELD_S:
                continue  # a frame ran out of band meanwhile
            busy = self._frame()
            if not busy and not self._dirty:
                return

    def _frame_if_due(self) -> None:
        """Pointer input: run a frame at once if none ran within FRAME_S, else at the next tick.

        Waiting for the paced loop would add up to a frame (~8 ms on average) of
        latency to every drag; running now keeps the rate at most 1/FRAME_S.
        """
        if _running_loop() is None:
            if self._dirty:
                self._draw()  # synchronous use: draw now; motion waits for advance()
            return
        last_draw = self.frame_times[-1] if self.frame_times else -math.inf
        # Idle ticks of the loop send nothing: only the last *drawn* frame limits the rate.
        if time.perf_counter() - last_draw >= FRAME_S:
            self._frame()
        self._ensure_animation()

    def _request_draw(self) -> None:
        """Draw soon: in the next frame when animating, at once otherwise."""
        if not getattr(self, "_ready", False):
            return
        self._dirty = True
        if _running_loop() is not None:
            self._ensure_animation()
        else:
            self._draw()

    # =============================================================== drawing
    def _scene_state(self) -> SceneState:
        r = self._analysis
        fresh = r is not None and self._analysis_version == self._version
        # A stale velocity basis would point the wrong way once the linkage moved far.
        live = self._live_analysis() or self._analysis_pos_version == self._pos_version
        target = self._target()
        return SceneState(
            selected_vertex=self.selected_vertex,
            selected_rod=self.selected_rod,
            attractor=self.attractor,
            attracted_vertex=target[0] if target and self.attractor is not None else None,
            tracked=tuple(self.tracked),
            tracks=self._tracks.as_dict(),
            velocity_basis=_shown_motions(r) if fresh and live else None,
            show_velocities=self.show_velocities,
            show_vertices=self.show_vertices,
            show_angles=self.show_angles,
            show_info=self.show_info,
            show_stresses=self.show_stresses,
            show_pebbles=self.show_pebbles,
            rod_stress=r.rod_stress if fresh else None,  # type: ignore[union-attr]
            redundant_rods=r.redundant_rods if fresh else None,  # type: ignore[union-attr]
            springs=tuple((s.i, s.j) for s in self._springs),
            info_lines=tuple(r.summary_lines()) if fresh else ("analysing ...",),  # type: ignore[union-attr]
            hint=_fit_hint(self._hint(), self._view.width),
            error=self.error,
        )

    def _draw(self) -> None:
        """Draw the current scene now: one batched canvas message."""
        self._dirty = False
        scene = self.scene()
        draw_scene(self.canvas, scene)
        now = time.perf_counter()
        self.frame_times.append(now)
        del self.frame_times[:-600]
        if self.recording:
            self._record_frame(scene)

    def _hint(self) -> str:
        if self._message:
            return self._message
        if self._drag_vertex is not None and self._status == "blocked":
            return f"vertex {self._drag_vertex} cannot move that way (the linkage blocks it)"
        if self._drag_vertex is not None:
            return f"dragging vertex {self._drag_vertex}: the mechanism follows the pointer"
        if self.attractor is not None and self.selected_vertex is not None:
            return (
                f"the attractor pulls vertex {self.selected_vertex} · right-click it to remove"
                " · space: start/stop"
            )
        if self.running and self.mode == "dynamic":
            return "dynamic: space stops; right-click places the attractor"
        if self.selected_vertex is not None:
            v = self.selected_vertex
            return f"vertex {v}: alt-click a vertex for a rod · f pin · t track · d delete"
        if self.selected_rod is not None:
            return f"rod {self.selected_rod}: alt-click an adjacent rod: angle · z split · d delete"
        if self.tool != "select":
            return _TOOL_TIPS[self.tool]
        if self._linkage.n_vertices == 0:
            return "click to add vertices; alt-click joins the selected vertex to another"
        return "click: add/select · drag: move/pan · wheel: zoom · right-click: attractor"

    # ============================================================== analysis
    def _refresh_analysis(self, *, sync: bool | None = None, live: bool = False) -> None:
        """Analyse the current linkage: now when small or without a loop, else in a thread.

        ``live`` (during motion) re-analyses at most every ``max(0.1 s, 5 x cost)``
        so that the analysis takes at most ~1/6 of the time.
        """
        now = time.perf_counter()
        if live and now - self._analysis_time < max(0.1, 5.0 * self._analysis_cost):
            return
        loop = _running_loop()
        if sync or loop is None:
            self._store_analysis(*_timed_analyze(self._linkage), self._version, self._pos_version)
            return
        if self._analysis_busy:
            self._analysis_time = -math.inf if not live else self._analysis_time
            self._analysis_pending = True
            return
        self._analysis_busy = True
        self._analysis_pending = False
        version, pos_version = self._version, self._pos_version
        fut = loop.run_in_executor(_executor(), _timed_analyze, self._linkage.copy())
        fut.add_done_callback(lambda f: self._analysis_done(f, version, pos_version))
        self._analysis_time = now

    def _analysis_done(self, fut: Any, version: int, pos_version: int) -> None:
        self._analysis_busy = False
        try:
            report, cost = fut.result()
        except Exception as exc:  # noqa: BLE001 - show it; the widget keeps working
            self.error = f"analysis failed: {exc}"
            return
        if version == self._version:
            self._store_analysis(report, cost, version, pos_version)
            self._request_draw()
        if self._analysis_pending or version != self._version:
            self._refresh_analysis()

    def _store_analysis(
        self, report: RigidityReport, cost: float, version: int, pos_version: int
    ) -> None:
        self._analysis = report
        self._analysis_version = version
        self._analysis_pos_version = pos_version
        self._analysis_cost = cost
        self._analysis_time = time.perf_counter()
        if getattr(self, "_ready", False):
            self._update_readout()

    def _update_readout(self) -> None:
        r = self._analysis
        if r is None or self._analysis_version != self._version:
            body = "<i>analysing ...</i>"
        else:
            lines = "<br>".join(html.escape(line) for line in r.summary_lines())
            body = f"{lines}<br><span style='color:#455a64'>{html.escape(r.explanation)}</span>"
        err = (
            f"<div style='color:#c62828;font-weight:bold'>{html.escape(self.error)}</div>"
            if self.error
            else ""
        )
        text = f"<div style='font-family:monospace;line-height:1.35'>{body}{err}</div>"
        if self._readout.value != text:  # unchanged text: no message to the browser
            self._readout.value = text

    def _update_controls(self) -> None:
        if not getattr(self, "_ready", False):
            return
        self._undo_button.disabled = not self._history.can_undo
        self._redo_button.disabled = not self._history.can_redo
        self._play_button.description = "■ stop" if self.running else "▶ play"
        self._record_button.description = "■ stop rec" if self.recording else "● record"
        self._update_readout()

    # ================================================================= files
    def _save_to_box(self) -> None:
        path = self.save()
        self.error = ""
        self._message = f"saved {path}"
        self._request_draw()

    def _load_from_box(self) -> None:
        name = self._file_box.value or DEFAULT_FILE
        if self.load_file(name):
            self._message = f"loaded {name}"

    def _on_upload(self, change: Any) -> None:
        files = list(change["new"])
        if not files:
            return
        data = {f["name"]: bytes(f["content"]) for f in files}
        main = [name for name in data if not name.endswith(".json")]
        self._upload.value = ()  # so the same file can be uploaded again
        if not main:
            self.error = "upload a linkage text file (with its .json sibling if you have one)"
            return
        name = main[0]
        try:
            # the same decoding as a file loaded by name: binary or non-UTF-8 data is an error
            linkage = parse_linkage_bytes(data[name], source=name)
            side = data.get(name + ".json")
            ext = (
                Extensions.from_bytes(side, n_vertices=linkage.n_vertices, source=name + ".json")
                if side is not None
                else Extensions()
            )
        except (LinkageFormatError, ValueError) as exc:
            self.error = f"could not load {name}: {exc}"
            return
        self._edit(lambda: self._replace_model(linkage, ext), f"loaded {name} (upload)")
        self.fit()

    def _offer_download(self, path: Path, mime: str) -> None:
        """Show a download link (data URI) for a file just written, for Binder users."""
        data = path.read_bytes()
        if len(data) > DOWNLOAD_MAX_BYTES:
            return
        uri = f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"
        name = html.escape(path.name, quote=True)
        self._downloads[path.name] = (
            f"<a download='{name}' href='{uri}' target='_blank' "
            f"style='margin-right:1em'>⬇ {html.escape(path.name)}</a>"
        )
        self._downloads = dict(list(self._downloads.items())[-4:])
        self._downloads_html.value = "".join(self._downloads.values())

    def _export_path(self, suffix: str) -> Path:
        return Path(self._file_box.value or DEFAULT_FILE).with_suffix(suffix)

    def _export_png(self) -> None:
        path = self.to_png(self._export_path(".png"))
        self._offer_download(path, "image/png")
        self._message = f"picture saved: {path}"

    def _export_svg(self) -> None:
        from ..io.text2007 import atomic_write_text

        path = self._export_path(".svg")
        atomic_write_text(path, self.to_svg())
        self._offer_download(path, "image/svg+xml")
        self._message = f"SVG saved: {path}"

    # ============================================================= recording
    def _record_frame(self, scene: Scene) -> None:
        now = self._clock()
        if now - self._last_gif_frame < 1.0 / GIF_FPS or len(self._frames) >= GIF_MAX_FRAMES:
            return
        self._last_gif_frame = now
        self._frames.append(scene)

    def _toggle_recording(self) -> None:
        if not self.recording:
            self.recording = True
            self._message = "recording: move something, then r (or the button) to save the GIF"
            return
        self.recording = False
        path = self.save_gif(self._export_path(".gif"))
        self._offer_download(path, "image/gif")
        self._message = f"GIF saved: {path} ({len(self._frames)} frames)"


# ==================================================================== helpers
def _fit_hint(text: str, width: int, char_px: float = 7.8) -> str:
    """Drop trailing `` · `` parts of a hint that would not fit a canvas ``width`` px wide.

    ``char_px`` is the average width of a character of the 14 px hint font.
    """
    room = int((width - 20) / char_px)
    while len(text) > room and " · " in text:
        text = text.rsplit(" · ", 1)[0]
    return text


def _shown_motions(report: RigidityReport | None) -> np.ndarray | None:
    """The velocity arrows worth drawing: the internal flexes, or the rigid motions if none.

    The basis lists the trivial (rigid-body) motions first. Next to a flex they
    only add a sea of parallel arrows that hides it.
    """
    if report is None:
        return None
    basis = report.velocity_basis
    return basis[report.trivial_dof :] if report.internal_dof > 0 else basis


def _timed_analyze(linkage: Linkage) -> tuple[RigidityReport, float]:
    """The analysis and its compute time in seconds (in the worker thread: no queueing)."""
    t0 = time.perf_counter()
    report = analyze(linkage)
    return report, time.perf_counter() - t0


def _read_linkage_file(path: str | PathLike[str]) -> tuple[Linkage, Extensions]:
    """The linkage in ``path`` and its JSON extensions (empty when there is no sibling)."""
    linkage = Linkage.load(path)
    ext = read_extensions(resolve_path(path), linkage.n_vertices)
    return linkage, ext


def _link_slider(obj: LinkageWidget, name: str, slider: W.FloatSlider) -> None:
    """Kernel-side two-way link of ``slider.value`` and the trait ``name``.

    Unlike ``ipywidgets.link``, a trait value beyond the slider's range widens
    the range instead of being clamped back into the trait by the slider.
    """

    def to_slider(change: Any) -> None:
        v = change["new"]
        if v > slider.max:
            slider.max = v
        if v < slider.min:
            slider.min = v
        if slider.value != v:
            slider.value = v

    def to_trait(change: Any) -> None:
        if getattr(obj, name) != change["new"]:
            setattr(obj, name, change["new"])

    obj.observe(to_slider, names=name)
    slider.observe(to_trait, names="value")


_KEYMAP: dict[str, Callable[[LinkageWidget], Any]] = {
    "f": LinkageWidget._key_pin,
    "t": LinkageWidget._key_track,
    "d": LinkageWidget._key_delete,
    "delete": LinkageWidget._key_delete,
    "backspace": LinkageWidget._key_delete,
    "z": LinkageWidget._key_split,
    "c": LinkageWidget._key_clear,
    "s": LinkageWidget._save_to_box,
    "l": LinkageWidget._load_from_box,
    "v": LinkageWidget._key_view,
    "i": LinkageWidget._key_info,
    "p": LinkageWidget._export_png,
    "r": LinkageWidget._toggle_recording,
    "space": LinkageWidget._toggle_running,
    "ctrl+z": LinkageWidget.undo,
    "ctrl+shift+z": LinkageWidget.redo,
    "ctrl+y": LinkageWidget.redo,
    "home": LinkageWidget.fit,
    "escape": LinkageWidget._key_escape,
}

_HELP_HTML = """
<details><summary>mouse and keys</summary>
<table style="font-size:90%">
<tr><td>click empty space</td><td>add a vertex</td></tr>
<tr><td>click vertex / rod</td><td>select (again: deselect)</td></tr>
<tr><td>drag a vertex</td><td>move the mechanism (shift-drag: move the vertex freely)</td></tr>
<tr><td>drag empty space / wheel</td><td>pan / zoom</td></tr>
<tr><td>middle- or alt-click</td><td>vertex: rod to the selected vertex;
rod: fix the angle with the selected rod</td></tr>
<tr><td>right- or ctrl-click</td>
<td>place / remove the attractor (pulls the selected vertex)</td></tr>
<tr><td>f t d z c</td><td>pin, track, delete, split rod, clear</td></tr>
<tr><td>s l</td><td>save / load the file named in the file box</td></tr>
<tr><td>v i p r</td><td>view options, info, PNG picture, record GIF</td></tr>
<tr><td>space, Esc</td><td>start/stop the motion; deselect</td></tr>
<tr><td>ctrl-z, ctrl-shift-z</td><td>undo, redo (Home: fit)</td></tr>
</table></details>
"""
