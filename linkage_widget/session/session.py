"""``LinkageSession``: a linkage being drawn, analysed and moved, without a browser.

Every trait, validator and policy of the widget lives here; nothing imports a
widget library. A teacher's script or a test drives a session through public
methods only: :meth:`~LinkageSession.press`, :meth:`~LinkageSession.drag`,
:meth:`~LinkageSession.release`, :meth:`~LinkageSession.wheel` and
:meth:`~LinkageSession.key` are the gestures (see :mod:`.tools` for what they
mean), :meth:`~LinkageSession.advance` runs animation frames,
:meth:`~LinkageSession.undo`, :meth:`~LinkageSession.save`,
:meth:`~LinkageSession.to_png` ... do what their names say.

The session delegates to helpers that never call back into it: :mod:`.tools`
turns input into :class:`~.tools.Action` s, :class:`~.document.Document` edits the
model index-safely, :class:`~.motion_driver.Driver` runs the simulator and says what
a frame did, :class:`~.analysis.Analyst` keeps the analysis, :mod:`.recording`
the tracks and GIF frames. Only the session assigns its own state.

The view (:class:`~linkage_widget.widget.LinkageWidget`) overrides a few hooks,
no-ops here: ``_schedule_draw`` (a draw was requested), ``_pointer_input`` (a
pointer moved: a frame soon), ``_start_animation`` (the motion started),
``_controls_changed`` (buttons and readout), ``_show`` (put a scene on screen),
``_offer_file`` (a file was written: offer it for download), ``_show_panel`` (put
the configuration panel's layers on screen) and ``_batch_drawing`` (one message for
a frame's drawing).

Examples
--------
>>> s = LinkageSession.load("peaucellier.txt")
>>> x, y = s.view.to_pixel(s.linkage.vertices[2])
>>> s.press(x, y); s.release(x, y); s.key("f")
>>> s.linkage.is_pinned(2), s.undo(), s.linkage.is_pinned(2)
(True, True, False)
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager, nullcontext, suppress
from os import PathLike
from pathlib import Path
from typing import Any, Self

import numpy as np
from traitlets import TraitError

from .. import _checks
from ..configuration import ConfigurationChart, chart_point, coordinate_choices
from ..draw import (
    Camera,
    PanelPicture,
    Scene,
    SceneState,
    ViewTransform,
    build_scene,
    overlay_insets,
    panel_picture,
    save_gif,
    save_png,
    scene_to_svg,
)
from ..elements import Spring
from ..errors import LinkageFormatError
from ..io import Extensions, atomic_write_pair, sibling_path
from ..model import Linkage
from ..motion import Simulator
from ..rigidity import RigidityReport
from . import merge
from .actions import ActionsMixin, action_table
from .analysis import Analyst, running_loop
from .branching import BranchChoice
from .configuration_panel import ConfigurationPanel, PanelIntent, chart_message
from .document import (
    DEFAULT_FILE,
    Document,
    load_failure,
    parse_upload,
    read_linkage_file,
    upload_name,
)
from .driven import DrivenMixin
from .drives import Drives
from .export import EXPORT_FORMATS, save_png_frames
from .export_session import Exporter, checked_format, export_target, loop_notifier, recorded
from .gestures import EventMerger, Gesture, Key
from .history import History, Snapshot
from .joint_angle import AngleTool, toggle_joint_angle
from .keep_in_view import MARGIN_PX, ViewKeeper, inside
from .keyboard import Keyboard
from .live import LiveAnalyst, LiveState, Motion, pull
from .motion_driver import DEFAULT_STEP, Driver, FrameAsk, SimulatorSpec, Target
from .pointer import Pointer, PointerMixin
from .recording import GIF_FPS, Recorder, Tracks
from .shown import SCENE_TRAITS, ShownAnalysis, scene_state, shown_analysis
from .space_view import DYNAMIC_IN_SPACE, PlaneView, SpaceView
from .tools import Action, HintState, Selection, export_path, fit_hint, hint_text
from .traits import SessionTraits
from .words import Readout, held_rods

__all__ = ["DEFAULT_FILE", "INFO_PANEL_LINES", "LinkageSession"]

INFO_PANEL_LINES = 5  # RigidityReport.summary_lines() (with "motion:"): fit() keeps joints clear


class LinkageSession(
    DrivenMixin,
    ActionsMixin,
    PointerMixin,
    SessionTraits,
):
    """A planar linkage you can draw, analyse and move: the state and policy, no view.

    Parameters
    ----------
    linkage : Linkage, optional
        The model to edit (used, not copied). Default: empty.
    width, height : int
        Size of the (virtual) canvas in pixels: gestures come in its pixels.
    clock : callable() -> float, optional
        Seconds for the policy (frame budgets, throttles, double clicks): a fake in tests.
    **kwargs
        Initial trait values (``step_size=2.0``, ``tracked=(5,)``, ...); the
        rest goes to the next class (the widget's ``VBox``).

    Attributes
    ----------
    linkage : Linkage
        The model; editing keeps this object (undo restores into it). After
        changing it from code, call :meth:`refresh`.
    driver : Driver
        The simulator's keeper (``driver.simulator`` is ``None`` until a motion
        needs one).
    recorder : Recorder
        GIF frames while :attr:`recording` (``recorder.clock`` is settable).
    frame_times : list of float
        :attr:`clock` time of each drawn frame (the last 600).
    error_log : deque of str
        Every error shown, newest last (the last 20).
    """

    def __init__(
        self, linkage: Linkage | None = None, *, width: int = 640, height: int = 480, **kwargs: Any
    ) -> None:
        traits = {k: kwargs.pop(k) for k in list(kwargs) if k in self._OWN_TRAITS}
        self._ready = False  # observers do nothing until the session is set up
        self._camera: Camera | None = None  # a 3-D linkage's (made when first asked for)
        self.clock: Callable[[], float] = kwargs.pop("clock", time.perf_counter)  # policy's time
        super().__init__(**kwargs)
        self.document = Document(linkage if linkage is not None else Linkage(), self.joint_names)
        self._init_state(int(width), int(height))
        self._ready = True
        for name in sorted(traits, key=lambda k: k != "mode"):  # mode decides what step_size is
            setattr(self, name, traits[name])
        self._refresh_analysis(sync=self.linkage.n_vertices <= 60)
        self._controls_changed()
        self._request_draw()

    def _init_state(self, width: int, height: int) -> None:
        self._plane_view = PlaneView()  # a planar linkage's view (.space_view); fits use it
        self._view = self._fitted_view(width, height)
        self._history: History[Snapshot] = History()
        self.driver = Driver(self.clock)
        self._analyst = Analyst(self.clock)
        self._version = 0  # bumped by every edit (structure, pins, rest lengths)
        self._pos_version = 0  # bumped whenever positions change
        self._status = "idle"
        self._motion_before: Snapshot | None = None  # undo point of the running motion
        self._tracks = Tracks(())
        self._dirty = False
        self._message = ""
        self._preset = 0
        self._step_memory = dict(DEFAULT_STEP)
        self.recorder: Recorder[Scene] = Recorder(clock=self.clock)
        self.frame_times: list[float] = []
        self.error_log: deque[str] = deque(maxlen=20)
        self._pointer, self._branching, self._keyboard = Pointer(), BranchChoice(), Keyboard()
        self._actions = action_table(self)  # kind -> handler, once (.actions)
        self._init_pointer(EventMerger(width, height, clock=self.clock))
        self._live_analyst = LiveAnalyst(self.clock)  # the analysis of each drawn frame of a drag
        self._init_driven()
        self.panel = ConfigurationPanel(self._view.height)
        self.panel_input = self._panel_input()
        self._init_edit()
        self._plane_depth = 0.0  # in space: the depth of the pulled joint's plane

    @classmethod
    def load(cls, path: str | PathLike[str], **kwargs: Any) -> Self:
        """A session showing the linkage file ``path`` (or a bundled example by bare name).

        Reads the JSON sibling ``<path>.json`` (tracked vertices, springs, mass
        distribution, motors, loads, forces, friction) when there is one.

        Raises
        ------
        LinkageFormatError, FileNotFoundError
            When the file cannot be read.
        """
        linkage, ext = read_linkage_file(path)
        session = cls(linkage, **kwargs)
        session._apply_extensions(ext)
        session._history.clear()
        session._controls_changed()
        return session

    # ================================================================ hooks
    def _schedule_draw(self) -> None:
        """A draw was requested (``_dirty`` is set): headless, the next frame draws."""

    def _pointer_input(self) -> None:
        """Pointer input changed the view or the target: the view runs a frame soon."""

    def _start_animation(self) -> None:
        """The motion started: the view starts its frame loop (headless: :meth:`advance`)."""

    def _controls_changed(self) -> None:
        """History, running, recording, analysis or error changed: the view updates controls."""

    def _show(self, scene: Scene) -> None:
        """Put ``scene`` on the screen (headless: nothing)."""

    def _offer_file(self, path: Path, mime: str) -> None:
        """A file was written: the view offers it for download."""

    # =========================================================== properties
    @property
    def linkage(self) -> Linkage:
        """The model (see the class docstring)."""
        return self.document.linkage

    @linkage.setter
    def linkage(self, new: Linkage) -> None:
        if not isinstance(new, Linkage):
            raise TraitError(f"linkage must be a Linkage, got {type(new).__name__}")
        keep = Extensions(
            mass_distribution=self.mass_distribution, table_friction=self.table_friction
        )
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
        if not self._analyst.fresh(self._version):
            self._refresh_analysis(sync=True)
        assert self._analyst.report is not None
        return self._analyst.report

    @property
    def history(self) -> History[Snapshot]:
        """Undo/redo stacks."""
        return self._history

    @property
    def springs(self) -> tuple[Spring, ...]:
        """Springs between vertices (dynamic mode)."""
        return self.document.springs

    @property
    def status(self) -> str:
        """The simulator's last status (``"idle"``, ``"moved"``, ``"reached target"``, ...)."""
        return self._status

    @property
    def simulator(self) -> Simulator:
        """The :class:`~linkage_widget.motion.Simulator` in use (rebuilt after edits)."""
        return self.driver.current(self._setup())

    # =========================================================== public API
    def refresh(self) -> None:
        """Take in changes made to :attr:`linkage` from code (redo analysis, redraw)."""
        self._after_edit()

    def fit(self) -> None:
        """Zoom and pan so that the whole linkage fills the canvas."""
        if self.linkage.dim == 3 and self._camera is not None:  # about the joints' centre again
            rotation = self._camera.rotation
            self._camera = Camera.looking_at(self.linkage.vertices, rotation, self.projection)
        self._view = self._fitted_view(self._view.width, self._view.height)
        self._request_draw()

    def _fitted_view(self, width: int, height: int) -> ViewTransform:
        """Fit the linkage clear of the info panel (when shown) and the hint line."""
        top, bottom = overlay_insets(INFO_PANEL_LINES if self.show_info else 0)
        return ViewTransform.fit(
            self._viewer.fit_points(self.linkage.vertices),
            width,
            height,
            margin=0.1,
            top=top,
            bottom=bottom,
        )

    def undo(self) -> bool:
        """Go back one edit (or motion); return whether there was one."""
        return self._travel(self._history.undo, "undone")

    def redo(self) -> bool:
        """Redo the last undone edit; return whether there was one."""
        return self._travel(self._history.redo, "redone")

    def save(self, path: str | PathLike[str] | None = None) -> Path:
        """Save the linkage atomically in the 2007 format, plus ``<path>.json`` extensions.

        ``path`` defaults to :attr:`file_name` (``~`` is the home folder; a link is written
        through). The JSON sibling (tracked vertices, springs, mass distribution, motors,
        loads, path forces and friction, table friction) is written only when there are
        any; otherwise a stale one is removed. Both files change or neither
        (:func:`~linkage_widget.io.atomic_write_pair`). Returns the path written.
        Raises ``OSError`` when it cannot write.
        """
        target = Path(path if path is not None else self.file_name or DEFAULT_FILE).expanduser()
        ext = self.document.extensions(self.mass_distribution, self.table_friction)
        json = None if ext.is_empty() else ext.to_json()
        atomic_write_pair(target, self.linkage.dumps(), sibling_path(target), json)
        self._offer_file(target, "text/plain")
        return target

    def load_file(self, path: str | PathLike[str]) -> bool:
        """Load a linkage file and its JSON sibling (undoable); return True.

        Raises ``FileNotFoundError`` (an ``OSError``) or ``LinkageFormatError`` (file, line)
        with the linkage unchanged and :attr:`error` set; the load button and key show it.
        """
        try:
            linkage, ext = read_linkage_file(path)
        except (LinkageFormatError, OSError, ValueError) as exc:
            self.error = load_failure(path, exc)
            raise
        self._edit(lambda: self._replace_model(linkage, ext), self._loaded(path, linkage))
        self.fit()
        return True

    def load_bytes(self, files: Mapping[str, bytes]) -> bool:
        """Load uploaded files, ``{name: bytes}``: a linkage and its ``.json`` sibling (undoable).

        Returns whether it worked; on an error the linkage stays and
        :attr:`error` says what went wrong (file and line).
        """
        name = upload_name(files)
        if name is None:
            self.error = "upload a linkage text file (with its .json sibling if you have one)"
            return False
        try:
            linkage, ext = parse_upload(name, files)
        except ValueError as exc:  # LinkageFormatError included
            self.error = load_failure(name, exc)
            return False
        self._edit(lambda: self._replace_model(linkage, ext), self._loaded(name, linkage))
        self.fit()
        return True

    def add_spring(
        self,
        i: int,
        j: int,
        stiffness: float = 1.0,
        rest_length: float | None = None,
        damping: float = 0.0,
        *,
        nonlinear_stiffness: float = 0.0,
    ) -> None:
        """Attach a spring (Duffing: ``nonlinear_stiffness``) and damper between ``i`` and ``j``."""
        spring = self.document.spring(i, j, stiffness, rest_length, damping, nonlinear_stiffness)
        springs = (*self.document.springs, spring)
        self._edit(lambda: setattr(self.document, "springs", springs), f"spring {i}-{j}")

    def scene(self) -> Scene:
        """The current picture as backend-neutral primitives."""
        return build_scene(self.linkage, self._view, self._scene_state())

    def to_svg(self) -> str:
        """The current view as an SVG document."""
        return scene_to_svg(self.scene())

    def to_png(self, path: str | PathLike[str]) -> Path:
        """Save the current view as a PNG picture; return the path."""
        save_png(self.scene(), path)
        return Path(path)

    def advance(self, frames: int = 1) -> str:
        """Run ``frames`` animation frames now (what the widget's frame loop does each frame).

        Each frame steps the motion (when :attr:`running`), records tracks and
        draws once. Returns the simulator status of the last frame.
        """
        for _ in range(int(frames)):
            self._frame()
        return self._status

    def key(self, key: str, *, ctrl: bool = False, shift: bool = False, alt: bool = False) -> None:
        """Press the key ``key`` (a DOM key name: ``"f"``, ``" "``, ``"Escape"``, ``"z"`` ...)."""
        self._on_key(Key(str(key), ctrl, shift, alt))

    # =============================================================== editing
    def _selection(self) -> Selection:
        return Selection(self.selected_vertex, self.selected_rod)

    def _on_key(self, key: Key) -> None:
        self._message = ""
        from_key = self._key_action(key)
        if from_key is not None:
            self._guarded(lambda: self._apply(from_key))
        self._request_draw()

    def _guarded(self, action: Callable[[], Any]) -> None:
        """Run a UI action; show expected failures instead of losing them in the log."""
        try:
            action()
        except (ValueError, IndexError, OSError, TraitError) as exc:
            self.error = str(exc)

    def _edit(self, change: Callable[[], str | None], message: str = "") -> bool:
        """Apply one undoable edit; on failure restore the state and show the error.

        ``change`` edits the document (and the selection); what it returns is
        the message shown, else ``message``.
        """
        self._commit_motion()
        before = self.document.snapshot()
        try:
            with self.hold_trait_notifications():
                said = change()
                self._follow_document()  # tracked joints and joint names
        except (ValueError, IndexError, TraitError) as exc:
            self._restore(before)
            self.error = str(exc)
            return False
        if self.document.snapshot() != before:
            self._history.record(before)
        self.error = ""
        self._message = said or message
        self._after_edit()
        return True

    def _after_edit(self) -> None:
        """Everything that follows a change of the model: selection, motion, analysis, drawing."""
        n, m = self.linkage.n_vertices, self.linkage.n_rods
        if self.selected_vertex is not None and self.selected_vertex >= n:
            self.selected_vertex = None
        if self.selected_rod is not None and self.selected_rod >= m:
            self.selected_rod = None
        self._version += 1
        self._pos_version += 1
        self.driver.invalidate()
        self._refresh_analysis()
        self._controls_changed()
        self._request_draw()

    def _restore(self, s: Snapshot) -> None:
        self.document.restore(s)
        with self.hold_trait_notifications():
            self.selected_vertex = None
            self.selected_rod = None
            self._follow_document()
        self._restart_tracks()

    def _restart_tracks(self) -> None:
        self._tracks = Tracks(self.tracked)
        self._tracks.append(self.linkage.vertices)

    def _travel(self, step: Callable[[Snapshot], Snapshot | None], verb: str) -> bool:
        self._commit_motion()
        self.running = False
        target = step(self.document.snapshot())
        if target is None:
            self._message = f"nothing to be {verb}"
            self._request_draw()
            return False
        self._restore(target)
        self.error = ""
        self._message = verb
        self._after_edit()
        return True

    def _replace_model(self, linkage: Linkage, ext: Extensions) -> None:
        self.selected_vertex = None
        self.selected_rod = None
        self.attractor = None
        self.document.replace(linkage, ext)
        self._apply_extensions(ext)

    def _apply_extensions(self, ext: Extensions) -> None:
        self.document.springs = ext.springs
        self.document.drives = Drives.of(ext)
        self._follow_file(ext)  # tracked joints and joint names
        self.mass_distribution = ext.mass_distribution
        self.table_friction = ext.table_friction
        self.motors_running = False
        self.driver.invalidate()

    def _commit_motion(self) -> None:
        """Make the motion so far one undo step (called when it stops or before an edit)."""
        before, self._motion_before = self._motion_before, None
        if before is not None and self.document.snapshot() != before:
            self._history.record(before)
            self._controls_changed()

    # ================================================================= files
    def _export(self, suffix: str, mime: str, write: Callable[[Path], Any]) -> Path:
        path = export_path(self.file_name or DEFAULT_FILE, suffix)  # exports/ beside the file
        path.parent.mkdir(parents=True, exist_ok=True)
        write(path)
        self._offer_file(path, mime)
        return path

    # --- input
    def _apply(self, action: Action) -> None:
        """Carry out ``action`` (from :mod:`.tools`) by the action table, then its message."""
        if action.kind == "error":
            raise ValueError(action.message)
        self._actions[action.kind](*action.args)
        if action.message:
            self._message = action.message

    # --- panel: the configuration-space panel (ConfigurationPanel, .configuration_panel)
    def _show_panel(self, static: PanelPicture | None, dynamic: PanelPicture) -> None:
        """Put the panel on the screen; ``static`` None: unchanged (headless: nothing)."""

    def _batch_drawing(self) -> AbstractContextManager[Any]:
        """A frame's drawing inside goes out in one message (headless: nothing to batch)."""
        return nullcontext()

    @property
    def panel_size(self) -> tuple[int, int]:
        """The panel's width and height in pixels."""
        return self.panel.size

    @property
    def configuration_kind(self) -> str:
        """What the panel charts: ``"sphere"``, ``"curve"``, ``"surface"`` or ``"none"``.

        ``"pending"`` while a widget computes the chart in a thread (never headless).
        """
        return self._panel_chart().kind

    @property
    def configuration_choices(self) -> tuple[str, ...]:
        """Labels of the angles a curve or surface may be charted in (see the trait)."""
        return coordinate_choices(self.linkage)

    @property
    def configuration_chart(self) -> ConfigurationChart:
        """What the panel charts now: kind, message, coordinates, the curve or surface."""
        return self._panel_chart()

    @property
    def configuration_message(self) -> str:
        """Why the linkage has no chart (kind ``"none"``), else ``""``."""
        return self._panel_chart().message

    @property
    def configuration_point(self) -> tuple[float, float] | None:
        """The current configuration's coordinates: sphere ``(phi, t)``, else the two angles.

        None without a chart.
        """
        return chart_point(self._panel_chart(), self.linkage.vertices)

    @property
    def configuration_point_px(self) -> tuple[float, float] | None:
        """Where the panel draws the current configuration (panel pixels); None: no chart."""
        return self.panel.point_px(self._panel_chart(), self.linkage.vertices)

    @property
    def configuration_trail(self) -> np.ndarray:
        """The trail's coordinates, oldest first, shape ``(k, 2)`` (updated when drawn)."""
        return self.panel.trail

    @property
    def panel_rotation(self) -> np.ndarray:
        """The sphere's rotation ``(3, 3)`` (body to view frame; a copy)."""
        return self.panel.projection.rotation.copy()

    @property
    def panel_animating(self) -> bool:
        """Whether a move started on the panel is still being animated."""
        return self.panel.animating

    def panel_press(self, x: float, y: float) -> None:
        """Press the pointer at panel pixel ``(x, y)``."""
        self.panel_input.press(Gesture(float(x), float(y)))

    def panel_drag(self, x: float, y: float) -> None:
        """Move the pressed pointer to panel pixel ``(x, y)``."""
        self.panel_input.move(x, y)

    def panel_release(self, x: float | None = None, y: float | None = None) -> None:
        """Release the pointer (at ``(x, y)``, default: where it is): a click or a drag's end."""
        self.panel_input.release(x, y)

    def panel_layers(self) -> tuple[PanelPicture, PanelPicture]:
        """The panel's two layers now: ``(static, dynamic)`` (the dynamic one transparent)."""
        return self.panel.layers(self._panel_chart(), self.linkage.vertices)

    def panel_scene(self) -> PanelPicture:
        """The whole panel as one picture (both layers), e.g. for ``save_png``."""
        static, dynamic = self.panel_layers()
        return panel_picture(*self.panel.size, static.items, dynamic.items)

    def _panel_shown(self, shown: bool) -> None:
        """``show_configuration`` changed: chart the linkage when shown, say what it charts."""
        if shown:
            chart = self._panel_chart()
            self._message = chart_message(chart)
            self.panel.face(chart, self.linkage.vertices)
            self._draw_panel(force=True)
        self._controls_changed()
        self._request_draw()

    def _mode_switched(self, old: str, new: str) -> None:
        """``mode`` changed: each mode keeps its own step size (a distance or a time step)."""
        self._commit_motion()
        self._step_memory[old] = self.step_size
        self.step_size = self._step_memory[new]
        self.driver.invalidate()
        space = new == "dynamic" and self.linkage.dim == 3  # gravity along -z there
        self._message = f"{new} mode" + (f": {DYNAMIC_IN_SPACE}" if space else "")
        self._controls_changed()
        self._request_draw()

    def redraw_panel(self) -> None:
        """Send both layers of the panel to the view again (a view that lost them asks)."""
        self._draw_panel(force=True)

    def _panel_input(self) -> EventMerger:
        return EventMerger(
            *self.panel.size,
            on_press=self._on_panel_press,
            on_drag=self._on_panel_drag,
            on_release=self._on_panel_release,
            on_key=self._on_key,
        )

    def _panel_key(self) -> tuple[int, tuple[str, ...]]:
        return (self._version, tuple(self.configuration_coordinates or ()))

    def _panel_chart(self) -> ConfigurationChart:
        """The chart of the linkage as edited now (in a thread when a loop runs)."""
        key = self._panel_key()
        chart, job = self.panel.chart(key, self.linkage, running_loop())
        if job is not None:
            job.add_done_callback(lambda f: self._panel_chart_done(key, f))
        return chart

    def _panel_chart_done(self, key: Any, job: Any) -> None:
        chart = self.panel.finish(key, job, self._panel_key())
        if chart is not None and self.show_configuration:
            self._message = chart_message(chart)
            self.panel.face(chart, self.linkage.vertices)
            self._draw_panel()
            self._request_draw()

    def _draw_panel(self, force: bool = False) -> None:
        """Show the panel: the static layer when it changed (or ``force``), the dynamic one."""
        chart = self._panel_chart()
        self._show_panel(*self.panel.frame(chart, self.linkage.vertices, self._pos_version, force))

    def _panel_frame(self) -> None:
        """Put the linkage at the next placement of a move started on the panel, if any."""
        placement = self.panel.next_placement()
        if placement is None:
            return
        self.linkage.set_positions(placement)
        self._pos_version += 1
        self._tracks.append(placement)
        self._dirty = True
        if self._analyst.live(self.linkage.n_vertices):
            self._refresh_analysis(live=True)
        if not self.panel.animating:
            self._commit_motion()
            if self._analyst.pos_version != self._pos_version:
                self._refresh_analysis()

    def _on_panel_press(self, g: Gesture) -> None:
        chart = self._panel_chart()
        self.panel.press(chart, self.linkage.vertices, g.x, g.y, self.show_configuration)

    def _on_panel_drag(self, g: Gesture, dx: float, dy: float) -> None:
        if self.panel.drag(g.last_x, g.last_y, dx, dy):
            self._draw_panel()

    def _on_panel_release(self, g: Gesture, x: float, y: float) -> None:
        gripped = self.panel.gripped

        def act() -> None:
            chart = self._panel_chart()
            self._apply_panel(self.panel.release(chart, self.linkage.vertices, x, y, g.dragged))

        self._guarded(act)
        if gripped:
            self._draw_panel()
        self._request_draw()

    def _apply_panel(self, intent: PanelIntent) -> None:
        """Carry out what a gesture on the panel asks for."""
        if intent.flick is not None:
            self._start_geodesic(*intent.flick, intent.message)
        elif intent.path is not None:
            self._start_panel_path(intent.path, intent.message)
        elif intent.message:
            self._message = intent.message

    def _start_panel_path(self, placements: np.ndarray, message: str) -> None:
        """Animate the linkage through ``placements`` ``(k, n, 2)``, one undo step."""
        self.running = False  # commits a motion under way
        self.attractor = None
        self._commit_motion()
        self._motion_before = self.document.snapshot()
        self.panel.animate(placements)
        self._message = message
        self._start_animation()
        self._request_draw()

    def _start_geodesic(self, placement: np.ndarray, velocity: np.ndarray, message: str) -> None:
        """Dynamic mode without gravity, the linkage at ``placement`` moving at ``velocity``."""
        self.running = False
        self.attractor = None
        self.mode = "dynamic"
        self.gravity = 0.0
        self._motion_before = self.document.snapshot()
        self.linkage.set_positions(placement)
        self._pos_version += 1
        self.simulator.set_velocity(velocity)
        self.running = True
        self._message = message

    # --- view: the plane or space (.space_view), chosen by the linkage's dimension
    @property
    def camera(self) -> Camera | None:
        """The camera on a 3-D linkage (``None`` for a planar one); settable."""
        if self.linkage.dim != 3:
            return None
        if self._camera is None:
            self._camera = Camera.looking_at(self.linkage.vertices, projection=self.projection)
        elif self._camera.projection != self.projection:  # the trait changed since
            self._camera = self._camera.with_projection(self.projection)
        return self._camera

    @camera.setter
    def camera(self, new: Camera) -> None:
        if not isinstance(new, Camera):
            raise TraitError(f"camera must be a Camera, got {type(new).__name__}")
        self._camera = new
        if new.projection != self.projection:
            self.projection = new.projection
        self._request_draw()

    @property
    def _viewer(self) -> PlaneView | SpaceView:
        """The view of the linkage: :class:`.SpaceView` through the camera in 3-D."""
        camera = self.camera
        return self._plane_view if camera is None else SpaceView(camera)

    def mode_refusal(self) -> str:
        """Why dynamic mode cannot be chosen now, or ``""``: always ``""`` (it works in space).

        Kept as the widget's hook: its mode toggle is off, with this as the tooltip, while
        the text is not empty.
        """
        return ""

    def joint_pixels(self) -> tuple[Any, Any]:
        """Every joint's pixel ``(n, 2)`` and, in 3-D, its depth ``(n,)`` (larger: nearer)."""
        return self._viewer.joint_pixels(self.linkage.vertices, self._view)

    def _hit_pixels(self) -> dict[str, Any]:
        """``hit_test``'s keywords: the projected joints and their depths (only in 3-D)."""
        return self._viewer.hit_pixels(self.linkage.vertices, self._view)

    def _pointer_world(self, x: float, y: float, vertex: int | None = None) -> Any:
        """The world point under pixel ``(x, y)``: in space on the plane through ``vertex``.

        The plane is parallel to the screen at the joint's depth when its drag began
        (the centre's plane without a joint), so a drag moves the target in the view plane.
        """
        viewer = self._viewer
        if vertex is not None and self._drag_vertex is None and not self._free_drag:
            self._plane_depth = viewer.depth(self.linkage.vertices[vertex])  # the drag begins
        depth = 0.0 if vertex is None else self._plane_depth
        return viewer.world_point(self._view, x, y, depth)

    def _refuse(self, why: str) -> None:
        """Refuse an action the view does not allow (``why``, else nothing to refuse)."""
        if why:
            raise ValueError(why)

    def _do_rotate_view(self, x0: float, y0: float, x1: float, y1: float) -> None:
        """Turn the camera as the background was dragged from ``(x0, y0)`` to ``(x1, y1)``."""
        cam = self.camera
        if cam is None:
            return
        self._camera = cam.rotated_by_drag(self._view, x0, y0, x1, y1)
        self._dirty = True
        self._pointer_input()

    def _do_toggle_projection(self) -> None:
        """Key e: perspective <-> orthographic (a 3-D linkage's)."""
        if self.camera is None:
            self._message = "e switches the projection of a 3-D linkage"
            return
        self.projection = "perspective" if self.projection == "orthographic" else "orthographic"
        self._message = f"{self.projection} projection (e switches)"

    # --- edit: the session's face of .merge (max_step), .joint_angle, .joint_names,
    # .keep_in_view and .export_session (their traits and observers are in .traits)
    def _init_edit(self) -> None:
        """The controllers of this block (called by ``_init_state``)."""
        self._max_step = merge.DEFAULT_MAX_STEP
        self._view_keeper = ViewKeeper(self.linkage.vertices)
        self._angle_tool = AngleTool()
        self._exporter = Exporter()

    @property
    def max_step(self) -> float:
        """The largest kinematic ``step_size`` (world units; the 2007 ``max-step``)."""
        return self._max_step

    @max_step.setter
    def max_step(self, value: float) -> None:
        self._max_step = _checks.positive(value, "max_step")
        self._on_step_bound(None)
        self._controls_changed()  # the slider's upper end

    def step_slider_range(self, mode: str) -> tuple[float, float, float]:
        """``(min, max, step)`` of the step-size slider of ``mode``, up to :attr:`max_step`."""
        return merge.step_slider_range(mode, self._max_step)

    def merge_file(self, path: str | PathLike[str]) -> range:
        """Add the linkage of file ``path`` (and its JSON sibling) to this one, undoably.

        File joint ``i`` becomes ``n + i`` (``n`` the current count), placed to the right of
        the drawing with its tracked joints, springs and names, not its drives (:mod:`.merge`).
        Returns the indices of the merged joints. Raises ``FileNotFoundError`` or
        ``LinkageFormatError`` (unreadable) and ``ValueError`` (one linkage planar, the other
        3-D), the linkage unchanged and :attr:`error` saying why.
        """
        try:
            plan = merge.plan_merge(path, self.linkage)
        except (LinkageFormatError, OSError, ValueError) as exc:
            self.error = merge.merge_failure(path, exc)
            raise
        note: list[str] = []
        add = self.document.merge
        if not self._edit(lambda: note.append(add(plan.linkage, plan.ext, plan.offset))):
            raise ValueError(self.error)
        self.fit()
        self._message = merge.merged_message(path, plan, note[0])
        return plan.added

    def _do_merge(self) -> None:
        with suppress(OSError, ValueError):  # merge_file has put the message into self.error
            self.merge_file(self.file_name or DEFAULT_FILE)

    def _file_message(self, verb: str, name: Any, linkage: Linkage | None = None) -> str:
        return merge.file_message(verb, name, self.linkage if linkage is None else linkage)

    def _loaded(self, name: Any, linkage: Linkage) -> str:
        return merge.file_message("loaded", name, linkage)

    def _do_angle_arm(self, apex: int, joint: int) -> None:
        """The angle tool's click on ``joint``, ``apex`` selected (:mod:`.joint_angle`)."""
        said, angle = self._angle_tool.click(apex, joint, self.linkage.n_vertices)
        if angle is None:
            self._message = said
        else:
            self._edit(lambda: toggle_joint_angle(self.linkage, *angle))

    def _follow_document(self) -> None:
        """Set the traits that mirror the document (tracked joints, joint names) from it."""
        self.tracked = self.document.tracked
        if tuple(self.joint_names) != self.document.names:
            self.joint_names = self.document.names

    def _follow_file(self, ext: Extensions) -> None:
        """Take the tracked joints and joint names of a loaded file's extensions."""
        self.document.names, self.document.tracked = ext.names, ext.tracked
        self._follow_document()

    def _keep_mechanism_in_view(self) -> None:
        """Before a draw: show again the joints a move took out of view (:mod:`.keep_in_view`).

        Not during a drag, a pan or a pinch (judged when it ends, against the places
        before it), nor in space, where the user turns the view.
        """
        gesture = self._merger.gesture is not None or self._merger.pinch is not None
        if gesture or self._drag_vertex is not None or self.camera is not None:
            return
        view = self._view_keeper.judge(self.linkage.vertices, self._view, self.keep_in_view)
        if view is not None:
            self._view = view

    def _joints_in_view(self, margin: float = MARGIN_PX) -> np.ndarray:
        """Which joints the current view shows clear of the edge; ``(n,)`` bool."""
        return inside(self._view, self.linkage.vertices, margin)

    def save_gif(self, path: str | PathLike[str], fps: float = GIF_FPS) -> Path:
        """Write the frames recorded so far (see :attr:`recording`) as an animated GIF."""
        save_gif(recorded(self.recorder.frames), path, fps)
        return Path(path)

    def save_png_frames(self, path: str | PathLike[str]) -> Path:
        """Write the frames recorded so far as ``frame_0001.png`` ... in a ZIP archive."""
        save_png_frames(recorded(self.recorder.frames), path)
        return Path(path)

    def export_recording(
        self,
        format: str | None = None,
        path: str | PathLike[str] | None = None,
        fps: float = GIF_FPS,
        *,
        separate_process: bool = True,
    ) -> Path:
        """Start exporting the recorded frames in the background; return the file's path at once.

        ``format`` ``"gif"`` or ``"png"`` (numbered frames zipped; default :attr:`record_format`);
        ``path`` default ``exports/<file name>.gif`` (``.zip``) beside the linkage file;
        ``separate_process``: rasterise and encode in a spawned process (the kernel's frame
        loop keeps its rate; a second to start), else in the job's thread. Raises
        ``ValueError`` (nothing recorded, unknown format) or ``RuntimeError`` (an export
        runs: :meth:`cancel_export` or :meth:`wait_export` first).
        """
        fmt = checked_format(self.record_format if format is None else format, self.exporting)
        frames = recorded(self.recorder.frames)
        suffix = EXPORT_FORMATS[fmt][0]
        target = Path(path) if path is not None else export_target(self.file_name, suffix)
        self.recording_progress = 0.0
        self.exporting = True
        notify = loop_notifier(self._export_tick)
        self._exporter.start(fmt, frames, target, fps, separate_process, notify)
        self._controls_changed()
        return target

    def cancel_export(self) -> bool:
        """Stop the running export (no file is written; the recording is kept).

        Returns whether an export was running. Its end (``"cancelled"``) is applied by
        the event loop, or by :meth:`wait_export`.
        """
        return self._exporter.cancel(self.exporting)

    def wait_export(self, timeout: float | None = None) -> str:
        """Wait for the export to end (at most ``timeout`` s) and apply its end; its state.

        ``"done"``, ``"cancelled"`` or ``"failed"`` (the error is then in :attr:`error`);
        ``"running"`` after a timeout, ``"idle"`` when there was none.
        """
        self._exporter.wait(timeout)
        self._export_tick()
        return self._exporter.state

    def _do_cancel_export(self) -> None:
        if self.cancel_export():
            self._message = "cancelling the export ..."

    def _save_recording(self) -> None:
        """``r`` stopped a recording: export it (in the background when a loop runs)."""
        looping = running_loop() is not None
        path = self.export_recording(separate_process=looping)
        if not looping:
            self.wait_export()  # a script or test: the file is there when r returns
            return
        self._message = f"saving {len(self.recorder.frames)} frames to {path} ... (✕ cancels)"

    def _export_tick(self) -> None:
        """In the session's thread: show the job's progress, and its end once it ended."""
        if not self.exporting or self._exporter.job is None:
            return
        self.recording_progress = self._exporter.progress  # the view's bar is linked to it
        end = self._exporter.end()
        if end is None:
            return
        self.exporting = False
        if end.state == "done":
            self._offer_file(end.path, end.mime)
        elif end.state == "cancelled":
            self.recorder.resume_next()
        if end.error:
            self.error = end.error
        else:
            self._message = end.message
        self._controls_changed()
        self._request_draw()

    # --- frames: a frame's motion (Driver.motion says what it did and ends), the analysis
    # shown (Analyst, LiveAnalyst, .shown), the drawing and the hint
    def _motors_on(self) -> bool:
        """Whether motors drive the motion: switched on, and there are some."""
        return bool(self.motors_running and self.document.drives.motors)

    def _target(self) -> Target | None:
        """What the motion pulls toward: the drag pointer, else the attractor."""
        drag = (self._drag_vertex, self._drag_target)
        return Target.pulling(drag, self.selected_vertex, self.attractor)

    def _setup(self) -> SimulatorSpec:
        """What the simulator is built from: the model and the motion traits."""
        mu = self._viewer.table_friction(self.table_friction)  # planar: none in space
        motion = (self.mode, self.step_size, self.mass_distribution, self.gravity)
        drives = (self.document.drives, self._motors_on(), mu, self.max_step)
        return SimulatorSpec(self.linkage, self.document.springs, *motion, *drives)

    def _frame(self) -> bool:
        """One animation frame: step, track, analyse (throttled), draw; return whether busy."""
        self._panel_frame()  # the next placement of a move started on the panel, if any
        step = self._step_motion() if self.running else None
        # The first frame of a drag draws before it analyses: the joint follows the
        # pointer one analysis sooner (the first one of a drag is the slow one).
        first = step is not None and self._pointer.take_pull_start()
        if step is not None and not first:
            self._live_frame(step)
        if self._dirty or step is not None:
            self._draw()
        if first:
            self._live_frame(step, drawn=True)
        # After the draw: the full analysis runs in a worker thread, whose Python parts
        # would take the GIL from this frame's drawing in 5 ms slices.
        if step is not None and self._analyst.live(self.linkage.n_vertices):
            self._refresh_analysis(live=True)
        return bool(self.running or self.panel.animating)

    def _step_motion(self) -> np.ndarray | None:
        """Apply a frame of motion (:meth:`.Driver.motion`); what it moved, (n, d), or None."""
        mu = float(self.table_friction)
        note = self._viewer.friction_note(mu, self.mode)  # in space: the slider does nothing
        ask = FrameAsk(self._target(), self._drag_vertex is not None, self._status, note, mu)
        done = self.driver.motion(self._setup(), ask, self._view)
        if done.begun and self._motion_before is None:
            self._motion_before = self.document.snapshot()
        self._status = done.status
        if done.positions is not None:
            self.linkage.set_positions(done.positions)
            self._pos_version += 1
            self._tracks.append(done.positions)
        for name, value in done.ends:  # what the frame ends, in order (.motion_driver)
            setattr(self, name, value)
        self._message = done.message or self._message
        return done.step

    def _live_frame(self, step: np.ndarray, drawn: bool = False) -> None:
        """Analyse the placement of the frame about to be drawn (``drawn``: drawn already)."""
        shows = (self.show_velocities, self.show_stresses)
        motion = Motion(pull(self.linkage.vertices, self._target()), step, *shows)
        at = (self._version, self._pos_version, self.document.generic()[0])
        self.error = self._live_analyst.follow(self.linkage, at, motion, drawn) or self.error

    def _request_draw(self) -> None:
        """Draw soon: in the next frame when animating, at once otherwise (the view decides)."""
        if self._ready:
            self._dirty = True
            self._schedule_draw()

    def _draw(self) -> None:
        """Draw the scene now (:meth:`_show`, the panel with it); keep it when recording."""
        self._keep_mechanism_in_view()  # the view follows a move that took joints out of it
        self._dirty = False
        self._live_analyst.count_drawn(self._pos_version)
        scene = self.scene()
        with self._batch_drawing():
            self._show(scene)
            if self.show_configuration:
                self._draw_panel()
        self.frame_times.append(self.clock())
        del self.frame_times[:-600]
        if self.recording:
            self.recorder.offer(scene)

    def _scene_state(self) -> SceneState:
        rod_forces, reactions, _ = self._force_view()
        traits = {name: getattr(self, name) for name in SCENE_TRAITS}
        return scene_state(
            traits, self._shown(), self.document, self._target(),
            (rod_forces, self._shown_loads(), reactions), tracks=self._tracks.as_dict(),
            motors_running=self._motors_on(), branches=self._branch_directions(),
            hint=fit_hint(self._hint(), self._view.width),
        )  # fmt: skip

    def _hint(self) -> str:
        """The hint line (:func:`.hint_text`): the last message, else what one can do now."""
        lines = self._branch_directions()  # the ways on at a singular stop (.branching)
        return hint_text(HintState(
            self._message, self._drag_vertex, self._status, self.attractor is not None,
            self._selection(), self.running, self.mode, self.tool, self.linkage.n_vertices,
            len(self.document.drives.motors), self._motors_on(), 0 if lines is None else len(lines),
            self.driver.blocked_reason(self._status), self._viewer.space,
        ))  # fmt: skip

    def _refresh_analysis(self, *, sync: bool | None = None, live: bool = False) -> None:
        """Analyse the current linkage: now when small or without a loop, else in a thread."""
        at = (self._version, self._pos_version)
        if self._analyst.refresh(self.linkage, at, sync, live, self._analysis_done) and self._ready:
            self._controls_changed()

    def _analysis_done(self, fut: Any, at: tuple[int, int]) -> None:
        """The worker thread's analysis of versions ``at`` ended: show it, or why it failed."""
        error, again = self._analyst.finish(fut, at, self._version)  # kept if still current
        if error:
            self.error = error
        elif at[0] == self._version:
            self._controls_changed()
            self._request_draw()
        if again:
            self._refresh_analysis()

    def _shown(self) -> ShownAnalysis:
        """The analysis shown: the live one while newer than the full report (.shown)."""
        at, n = (self._version, self._pos_version), self.linkage.n_vertices
        return shown_analysis(self._analyst, self._live_analyst, at, self.running, n)

    @property
    def live_analysis(self) -> LiveState | None:
        """The live analysis of the drag (``None`` when the full analysis is current)."""
        return self._shown().live

    def readout(self) -> list[str]:
        """The readout's technical lines, live while dragging: :meth:`.ShownAnalysis.lines`."""
        return self._shown().lines()

    def readout_words(self) -> Readout:
        """The readout in plain words, then the technical lines: :meth:`.ShownAnalysis.words`."""
        return self._shown().words(held_rods(self.linkage.rods, self.linkage.pinned))
