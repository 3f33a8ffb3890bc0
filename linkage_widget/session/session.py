"""``LinkageSession``: a linkage being drawn, analysed and moved, without a browser.

Every trait, validator and policy of the widget lives here; nothing imports a
widget library. A teacher's script or a test drives a session through public
methods only: :meth:`~LinkageSession.press`, :meth:`~LinkageSession.drag`,
:meth:`~LinkageSession.release`, :meth:`~LinkageSession.wheel` and
:meth:`~LinkageSession.key` are the gestures (see :mod:`.tools` for what they
mean), :meth:`~LinkageSession.advance` runs animation frames,
:meth:`~LinkageSession.undo`, :meth:`~LinkageSession.save`,
:meth:`~LinkageSession.to_png` ... do what their names say.

The session holds objects that never call back into it (docs/architecture.md lists
them): each takes values and returns values, which the session applies; only the
session assigns its own state. The view (:class:`~linkage_widget.widget.LinkageWidget`)
overrides the no-op hooks of the ``# === hooks`` block (and ``_show_panel``,
``_batch_drawing``): what to do when a draw, a frame or a file is due.

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
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext, suppress
from functools import partial
from os import PathLike
from pathlib import Path
from typing import Any, Self

import numpy as np
from traitlets import TraitError

from .. import _checks
from ..configuration import ConfigurationChart, chart_point, coordinate_choices
from ..draw import (
    INFO_PANEL_LINES,
    Camera,
    PanelPicture,
    Scene,
    SceneState,
    ViewTransform,
    build_scene,
    save_png,
    scene_to_svg,
)
from ..elements import LinearMotor, Motor, Spring
from ..errors import LinkageFormatError
from ..io import Extensions
from ..model import Linkage
from ..motion import Simulator
from ..rigidity import RigidityReport, StaticsReport
from . import merge, slide_drives
from .actions import Actions, Services, action_table, key_to_action
from .actuation import Actuated, Actuation, Stage
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
from .export_session import Exporter, checked_format, written_now
from .gestures import EventMerger, Gesture, Key
from .guided import model_lines
from .history import History, Snapshot
from .keep_in_view import MARGIN_PX, ViewKeeper, inside
from .kinematic_cycle import KinematicCycle
from .live import LiveAnalyst, LiveState, Motion, pull
from .motion_driver import Driver, FrameAsk, SimulatorSpec, Target
from .outcome import Outcome, Situation
from .pointer import Pointer, feed_touch
from .recording import GIF_FPS, Recorder, Tracks
from .rigidity_tools import extension_edit
from .shown import SCENE_TRAITS, ShownAnalysis, scene_state, shown_analysis
from .space_view import DYNAMIC_IN_SPACE, PlaneView, SpaceView, current_camera, fitted_view
from .tools import Action, HintState, Selection, export_path, fit_hint, hint_text, zoom_factor
from .traits import SessionTraits
from .words import Readout, held_rods

__all__ = ["DEFAULT_FILE", "INFO_PANEL_LINES", "LinkageSession"]


class LinkageSession(SessionTraits):
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
    synthesis : SynthesisTool
        The synthesis tool's target curve and candidates (:mod:`.synthesis_tool`).
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
        self.request_draw()

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
        self.recorder: Recorder[Scene] = Recorder(clock=self.clock)
        self.frame_times: list[float] = []
        self.error_log: deque[str] = deque(maxlen=20)
        self._branching = BranchChoice()
        self.canvas_input = self._canvas_input(width, height)  # the canvas's gestures
        self._pointer = Pointer(self._branching, self.canvas_input.note)
        act = Actions(self._branching)  # holds the tools' picks and the ghosts
        self._actions = action_table(self._services(), act, self._pointer)
        self.ghosts, self.nac, self.synthesis = act.ghosts, act.nac, act.synthesis  # held by act
        self._live_analyst = LiveAnalyst(self.clock)  # the analysis of each drawn frame of a drag
        self._actuation = Actuation(self.clock)  # motors, loads, forces; the statics memo
        self.panel = ConfigurationPanel(self._view.height)
        self.panel_input = self._panel_input()
        self._max_step = merge.DEFAULT_MAX_STEP  # the 2007 max-step (.merge)
        self._view_keeper = ViewKeeper(self.linkage.vertices)
        self._exporter = Exporter()
        self.cycle = KinematicCycle()  # the driven cycle the plots and arrows show

    @classmethod
    def load(cls, path: str | PathLike[str], **kwargs: Any) -> Self:
        """A session showing the linkage file ``path`` (or a bundled example by bare name).

        With its JSON sibling ``<path>.json``, if any; raises like :meth:`load_file`.
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
        m, f = self.mass_distribution, self.table_friction  # kept: the session's, not the file's
        keep = Extensions(mass_distribution=m, table_friction=f)
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
        self.request_draw()

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
        self.request_draw()

    def _fitted_view(self, width: int, height: int) -> ViewTransform:
        """Fit the linkage clear of the info panel (when shown) and the hint line."""
        info = INFO_PANEL_LINES if self.show_info else 0
        return fitted_view(self._viewer.fit_points(self.linkage.vertices), width, height, info)

    def undo(self) -> bool:
        """Go back one edit (or motion); return whether there was one."""
        return self._travel(self._history.undo, "undone")

    def redo(self) -> bool:
        """Redo the last undone edit; return whether there was one."""
        return self._travel(self._history.redo, "redone")

    def save(self, path: str | PathLike[str] | None = None) -> Path:
        """Save the linkage (default :attr:`file_name`), its JSON sibling and web page; the path.

        Atomic, ``OSError`` if it cannot write (:meth:`.Document.save`; :attr:`save_page`).
        """
        name = path if path is not None else self.file_name or DEFAULT_FILE
        page, masses = self.to_svg() if self.save_page else None, self.mass_distribution
        target, left_out = self.document.save(name, masses, self.table_friction, page)
        said = merge.file_message("saved", target, self.linkage)
        self._message = f"{said}; {left_out}" if left_out else said
        self._offer_file(target, "text/plain")
        return target

    def load_file(self, path: str | PathLike[str]) -> bool:
        """Load a linkage file and its JSON sibling (undoable); return True.

        Raises ``OSError`` or ``LinkageFormatError`` (file, line), :attr:`error` set.
        """
        return self._load(path, lambda: read_linkage_file(path))

    def load_bytes(self, files: Mapping[str, bytes]) -> bool:
        """Load uploaded files, ``{name: bytes}``: a linkage and its ``.json`` sibling (undoable).

        Returns whether it worked; else :attr:`error` says what went wrong (file and line).
        """
        if (name := upload_name(files)) is None:
            self.error = "upload a linkage text file (with its .json sibling if you have one)"
            return False
        with suppress(ValueError):  # LinkageFormatError included: error says it
            return self._load(name, lambda: parse_upload(name, files))
        return False

    def _load(self, name: Any, read: Callable[[], tuple[Linkage, Extensions]]) -> bool:
        """Replace the model by what ``read`` returns, one undo step; its error shown."""
        try:
            linkage, ext = read()
        except (LinkageFormatError, OSError, ValueError) as exc:
            self.error = load_failure(name, exc)
            raise
        said = merge.file_message("loaded", name, linkage)  # its counts, sliders too
        self._edit(lambda: self._replace_model(linkage, ext), said)
        self.synthesis.clear()  # another linkage: the curve drawn for this one goes
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

    def set_joint_mass(self, i: int, mass: float | None) -> None:
        """Joint ``i``'s own point mass (``None``: its share again); undoable; bad: ValueError."""
        self.linkage.masses.copy().set_joint(i, mass)  # refused here, before anything changes
        self._edit(lambda: self.linkage.masses.set_joint(i, mass), f"joint {i}: mass {mass}")

    def set_rod_mass(
        self, r: int, mass: float | None, centre: float = 0.5, inertia: float | None = None
    ) -> None:
        """Rod ``r``'s own mass, centre and inertia (:class:`~linkage_widget.RodMass`); undoable."""
        self.linkage.masses.copy().set_rod(r, mass, centre, inertia)  # refused before any change
        self._edit(lambda: self.linkage.masses.set_rod(r, mass, centre, inertia), f"rod {r} mass")

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
        """Run ``frames`` animation frames now (the widget's frame loop); the last one's status."""
        for _ in range(int(frames)):
            self.frame()
        return self._status

    def key(self, key: str, *, ctrl: bool = False, shift: bool = False, alt: bool = False) -> None:
        """Press the key ``key`` (a DOM key name: ``"f"``, ``" "``, ``"Escape"``, ``"z"`` ...)."""
        self._on_key(Key(str(key), ctrl, shift, alt))

    # =============================================================== editing
    def _selection(self) -> Selection:
        return Selection(self.selected_vertex, self.selected_rod)

    def _on_key(self, key: Key) -> None:
        self._message = ""
        from_key = key_to_action(key, self._selection())
        if from_key is not None:
            self._guarded(lambda: self._apply(from_key))
        self.request_draw()

    def _guarded(self, action: Callable[[], Any]) -> None:
        """Run a UI action; show expected failures instead of losing them in the log."""
        try:
            action()
        except (ValueError, IndexError, OSError, TraitError) as exc:
            self.error = str(exc)

    def _edit(self, change: Callable[[], str | None], message: str = "") -> bool:
        """One undoable edit ``change`` (says its message, else ``message``); undone on failure."""
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
        self.request_draw()

    def _restore(self, s: Snapshot) -> None:
        self.document.restore(s)
        with self.hold_trait_notifications():
            self.selected_vertex = self.selected_rod = None
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
            self.request_draw()
            return False
        self._restore(target)
        self.error = ""
        self._message = verb
        self._after_edit()
        return True

    def _replace_model(self, linkage: Linkage, ext: Extensions) -> None:
        self.selected_vertex = self.selected_rod = self.attractor = None
        self.document.replace(linkage, ext)
        self._apply_extensions(ext)

    def _apply_extensions(self, ext: Extensions) -> None:
        self.document.take(ext)
        self._follow_document()  # tracked joints and joint names
        self.mass_distribution, self.table_friction = ext.mass_distribution, ext.table_friction
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
        """The current configuration's coordinates: sphere ``(phi, t)``, else the two angles."""
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
        return self.panel.scene(self._panel_chart(), self.linkage.vertices)

    def _panel_shown(self, shown: bool) -> None:
        """``show_configuration`` changed: chart the linkage when shown, say what it charts."""
        if shown:
            self._face_chart(self._panel_chart(), force=True)
        self._controls_changed()
        self.request_draw()

    def _mode_switched(self, old: str, new: str) -> None:
        """``mode`` changed: each mode keeps its own step size (a distance or a time step)."""
        self._commit_motion()
        self.step_size = self.driver.switch_step(old, new, self.step_size)
        space = new == "dynamic" and self.linkage.dim == 3  # gravity along -z there
        self._message = f"{new} mode" + (f": {DYNAMIC_IN_SPACE}" if space else "")
        self._controls_changed()
        self.request_draw()

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
            clock=self.clock,  # its echo windows read the session's time, as the canvas's do
        )

    def _panel_key(self) -> tuple[int, tuple[str, ...]]:
        return (self._version, tuple(self.configuration_coordinates or ()))

    def _panel_chart(self) -> ConfigurationChart:
        """The chart of the linkage as edited now (in a thread when a loop runs)."""
        key = self._panel_key()
        chart, job = self.panel.chart(key, self.linkage, running_loop())
        if job is not None:  # its end, in the loop's thread: the chart shown, if still current
            job.add_done_callback(
                lambda f: self._face_chart(self.panel.finish(key, f, self._panel_key()))
            )
        return chart

    def _face_chart(self, chart: ConfigurationChart | None, force: bool = False) -> None:
        """Say what ``chart`` is, turn the sphere to the configuration, draw (not: stale)."""
        if chart is not None and (force or self.show_configuration):
            self._message = chart_message(chart)
            self.panel.face(chart, self.linkage.vertices)
            self._draw_panel(force)
            self.request_draw()

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
        self.request_draw()

    def _apply_panel(self, intent: PanelIntent) -> None:
        """Carry out what a gesture on the panel asks for (:class:`.PanelIntent`), one undo step."""
        if intent.path is None and intent.flick is None:
            self._message = intent.message or self._message
            return
        self.running, self.attractor = False, None  # commits a motion under way
        if intent.flick is None:
            self._commit_motion()
        else:  # the geodesic: dynamic mode without gravity
            self.mode, self.gravity = "dynamic", 0.0
        self._motion_before = self.document.snapshot()
        if intent.flick is None:  # the placements shown one a frame (_panel_frame)
            self.panel.animate(intent.path)
            self._start_animation()
            self.request_draw()
        else:  # the linkage at the placement moving at the velocity
            self.linkage.set_positions(intent.flick[0])
            self._pos_version += 1
            self.simulator.set_velocity(intent.flick[1])
            self.running = True
        self._message = intent.message

    # --- view: the plane or space (.space_view), chosen by the linkage's dimension
    @property
    def camera(self) -> Camera | None:
        """The camera on a 3-D linkage (``None`` for a planar one); settable."""
        if self.linkage.dim == 3:
            self._camera = current_camera(self._camera, self.linkage.vertices, self.projection)
            return self._camera
        return None

    @camera.setter
    def camera(self, new: Camera) -> None:
        if not isinstance(new, Camera):
            raise TraitError(f"camera must be a Camera, got {type(new).__name__}")
        self._camera = new
        if new.projection != self.projection:
            self.projection = new.projection
        self.request_draw()

    @property
    def _viewer(self) -> PlaneView | SpaceView:
        """The view of the linkage: :class:`.SpaceView` through the camera in 3-D."""
        camera = self.camera
        return self._plane_view if camera is None else SpaceView(camera)

    def mode_refusal(self) -> str:
        """Why dynamic mode cannot be chosen now (the mode toggle's tooltip): ``""``, it can."""
        return ""

    def joint_pixels(self) -> tuple[Any, Any]:
        """Every joint's pixel ``(n, 2)`` and, in 3-D, its depth ``(n,)`` (larger: nearer)."""
        return self._viewer.joint_pixels(self.linkage.vertices, self._view)

    # --- edit: .merge (max_step), .joint_angle, .joint_names, .keep_in_view, .export_session
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
        """Add the linkage of file ``path`` (and its JSON sibling), undoably; the merged joints.

        See :mod:`.merge`: what is placed where; on an error :attr:`error` says why.
        """
        try:
            plan = merge.plan_merge(path, self.linkage)
        except (LinkageFormatError, OSError, ValueError) as exc:
            self.error = merge.merge_failure(path, exc)
            raise
        if not self._edit(lambda: merge.merge_into(self.document, path, plan)):
            raise ValueError(self.error)
        self.fit()
        return plan.added

    def _follow_document(self) -> None:
        """Set the traits that mirror the document (tracked joints, joint names) from it."""
        self.tracked = self.document.tracked
        if tuple(self.joint_names) != self.document.names:
            self.joint_names = self.document.names

    def _joints_in_view(self, margin: float = MARGIN_PX) -> np.ndarray:
        """Which joints the current view shows clear of the edge; ``(n,)`` bool."""
        return inside(self._view, self.linkage.vertices, margin)

    def save_gif(self, path: str | PathLike[str], fps: float = GIF_FPS) -> Path:
        """Write the frames recorded so far (see :attr:`recording`) as an animated GIF."""
        return written_now("gif", self.recorder.frames, path, fps)

    def save_png_frames(self, path: str | PathLike[str]) -> Path:
        """Write the frames recorded so far as ``frame_0001.png`` ... in a ZIP archive."""
        return written_now("png", self.recorder.frames, path, GIF_FPS)

    def export_recording(
        self,
        format: str | None = None,
        path: str | PathLike[str] | None = None,
        fps: float = GIF_FPS,
        *,
        separate_process: bool = True,
    ) -> Path:
        """Start exporting the recorded frames in the background; return the file's path at once.

        ``format`` default :attr:`record_format`; see :meth:`.Exporter.begin`. Raises
        ``ValueError`` (nothing recorded, unknown format), ``RuntimeError`` (an export runs).
        """
        fmt = checked_format(self.record_format if format is None else format, self.exporting)
        frames, name = self.recorder.frames, self.file_name
        target = self._exporter.begin(
            fmt, frames, path, name, fps, separate_process, self._export_tick
        )
        self.recording_progress, self.exporting = 0.0, True
        self._controls_changed()
        return target

    def cancel_export(self) -> bool:
        """Stop the running export (no file written, recording kept); whether one ran."""
        return self._exporter.cancel(self.exporting)

    def wait_export(self, timeout: float | None = None) -> str:
        """Wait for the export to end (at most ``timeout`` s) and apply its end; its state.

        ``"done"``, ``"cancelled"``, ``"failed"`` (see :attr:`error`), ``"running"``, ``"idle"``.
        """
        self._exporter.wait(timeout)
        self._export_tick()
        return self._exporter.state

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
        if (end := self._exporter.end()) is None:
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
        self.request_draw()

    # --- rigidity: Henneberg moves (.rigidity_tools), other placements (.rigidity_views)
    def zero_extension(self, i: int, j: int, xy: Any) -> int:
        """Henneberg 0-extension: a joint at world ``xy`` with rods to ``i``, ``j`` (undoable)."""
        return self._extend(("zero", i, j), xy)

    def one_extension(self, rod: int, k: int, xy: Any) -> int:
        """Henneberg 1-extension: ``rod`` goes, a joint at ``xy`` joins its two ends and ``k``."""
        return self._extend(("one", rod, k), xy)

    def _extend(self, move: tuple[Any, ...], xy: Any) -> int:
        """A Henneberg ``move``, one undo step: the new joint; ``ValueError``, nothing changed."""
        if not self._edit(partial(extension_edit(move, xy), self.document)):
            raise ValueError(self.error)
        return self.linkage.n_vertices - 1

    def show_ghosts(self, placements: Sequence[Any] = (), label: str = "") -> None:
        """Draw ``placements`` (each ``(n, 2)``) faint, as other placements (none: clear)."""
        self._apply(Action("show_ghosts", (placements, label)))

    def jump_to_ghost(self, k: int | None = None) -> None:
        """Put the linkage at ghost ``k`` (default: the next), one undo step (:mod:`.ghosts`)."""
        self._apply(Action("jump_to_ghost", (k,)))

    # --- synthesis: a curve drawn or given, the linkages that trace it (.synthesis_tool)
    def synthesize(self, points: Any, *, kind: str = "four-bar", k: int = 5) -> list[Any]:
        """Linkages tracing ``points`` ``(K, 2)`` (world), best first; refused: ``ValueError``."""
        self.run_action("synthesize", points, kind, k)
        if self.error:
            raise ValueError(self.error)
        return list(self.synthesis.candidates)

    def choose_candidate(self, i: int) -> bool:
        """Load candidate ``i`` (undoable), its motor on, coupler tracked; False: see ``error``."""
        self.run_action("choose_candidate", i)
        return not self.error

    # --- driven: motors, loads, forces, friction, statics and tracks (.actuation.Actuation)
    @property
    def motors(self) -> tuple[Motor, ...]:
        """The motors (:class:`~linkage_widget.elements.Motor`: pivot, tip, speed, reference)."""
        return self.document.drives.motors

    @property
    def loads(self) -> dict[int, tuple[float, float]]:
        """The joint loads, ``{vertex: (fx, fy)}`` (world axes, y up; force units)."""
        return self.document.drives.load_map()

    def add_motor(
        self, pivot: int, tip: int, speed: float = 1.0, *, reference: tuple[int, int] | None = None
    ) -> int:
        """Drive rod ``pivot``-``tip`` (undoable); its index. See :meth:`.Actuation.add_motor`."""
        self._actuate(Actuation.add_motor, pivot, tip, speed, reference)
        return len(self.motors) - 1

    def remove_motor(self, k: int) -> None:
        """Remove motor ``k`` (undoable); ``IndexError`` when there is none."""
        self._actuate(Actuation.remove_motor, k)

    def add_load(self, vertex: int, force: Any = None) -> None:
        """Load joint ``vertex`` (undoable). See :meth:`.Actuation.add_load`."""
        self._actuate(Actuation.add_load, vertex, force)

    def remove_load(self, vertex: int) -> None:
        """Remove the load on joint ``vertex`` (undoable); ``ValueError`` when there is none."""
        self._actuate(Actuation.remove_load, vertex)

    def add_force(self, i: int, j: int, force: float | Callable[[float, float], float]) -> None:
        """A force (number or law) along ``i``-``j`` (undoable): :meth:`.Actuation.add_force`."""
        self._actuate(Actuation.add_force, i, j, force)

    def add_friction(
        self, i: int, j: int, normal_force: float, mu_k: float, *, mu_s: float | None = None,
        v_s: float | None = None, sigma: float = 0.0,
    ) -> None:  # fmt: skip
        """Coulomb friction along the pathway ``i``-``j`` (dynamic mode; undoable)."""
        self._actuate(Actuation.add_friction, i, j, normal_force, mu_k, mu_s, v_s, sigma)

    def add_slider_friction(self, slider: int, mu_k: float, **law: float | None) -> None:
        """Friction along ``slider``'s line (undoable; ``law``: mu_s, v_s, sigma): .slide_drives."""
        self._actuate(slide_drives.add_slider_friction, slider, mu_k, law)

    def add_linear_motor(self, slider: int, speed: float = 1.0) -> int:
        """Push ``slider``'s joint along its line (undoable), its index: :mod:`.slide_drives`."""
        self._actuate(slide_drives.add_linear_motor, slider, speed)
        return len(self.document.drives.linear_motors) - 1

    @property
    def linear_motors(self) -> tuple[LinearMotor, ...]:
        """The linear motors (:class:`~linkage_widget.elements.LinearMotor`: slider, speed)."""
        return self.document.drives.linear_motors

    def remove_linear_motor(self, k: int) -> None:
        """Remove linear motor ``k`` (undoable); ``IndexError`` when there is none."""
        self._actuate(slide_drives.remove_linear_motor, k)

    def add_torque(
        self, pivot: int, tip: int, torque: Any, *, reference: tuple[int, int] | None = None
    ) -> int:
        """Torque on rod ``pivot``-``tip`` (undoable), its index: :meth:`.Actuation.add_torque`."""
        self._actuate(Actuation.add_torque, pivot, tip, torque, reference)
        return len(self.document.drives.torques) - 1

    def remove_torque(self, k: int) -> None:
        """Remove torque ``k`` (undoable); ``IndexError`` when there is none."""
        self._actuate(Actuation.remove_torque, k)

    def toggle_motors(self) -> bool:
        """Start or stop the motors (key o); return whether they now run."""
        return bool(self._actuate(Actuation.toggle_motors).running)

    def reverse_motors(self) -> None:
        """Turn every motor the other way (key n; undoable)."""
        self._actuate(Actuation.reverse_motors)

    @property
    def statics(self) -> StaticsReport:
        """:func:`~linkage_widget.static_forces` of the linkage as it is, under :attr:`loads`."""
        return self._actuation.statics(self._stage())

    @property
    def tracks(self) -> dict[int, np.ndarray]:
        """The loci of the tracked joints, ``{vertex: (k, 2) world points}``, oldest first."""
        return {v: pts.copy() for v, pts in self._tracks.as_dict().items()}

    def save_tracks_csv(self, path: str | PathLike[str]) -> Path:
        """Write :attr:`tracks` as CSV (:meth:`.Actuation.save_tracks_csv`); return the path."""
        return self._actuation.save_tracks_csv(self.tracks, path)

    def _actuate(self, op: Callable[..., Actuated], *args: Any) -> Actuated:
        """Apply what ``op`` (an :class:`.Actuation` method) returns: new drives undoably."""
        done = op(self._actuation, self._stage(), *args)
        if (drives := done.drives) is not None:
            self._edit(lambda: setattr(self.document, "drives", drives), done.message or "")
            return done
        if done.running is not None:
            self.error, self.motors_running = "", done.running
        if done.message is not None:
            self._message = done.message
        self.request_draw()
        return done

    def _stage(self) -> Stage:
        """What :class:`.Actuation` reads of the session now."""
        return Stage(
            drives=self.document.drives, linkage=self.linkage, viewer=self._viewer,
            view=self._view, load_size=self.load_size, motors_running=self.motors_running,
            versions=(self._version, self._pos_version), show_forces=self.show_forces,
            dynamics=self.driver.simulator if self.mode == "dynamic" else None,
            running=self.running,
        )  # fmt: skip

    def drive_lines(self) -> list[str]:
        """Readout lines of forces, motors and the selected joint's motion."""
        return self._actuation.drive_lines(self._stage(), self.selected_rod, self.selected_vertex)

    # --- input: the canvas's gestures (Pointer, .pointer) and the action table (.actions)
    def press(
        self,
        x: float,
        y: float,
        button: int = 0,
        *,
        alt: bool = False,
        ctrl: bool = False,
        shift: bool = False,
    ) -> None:
        """Press ``button`` (0 left, 1 middle, 2 right) at pixel ``(x, y)``, with modifiers."""
        g = Gesture(float(x), float(y), int(button), bool(alt), bool(ctrl), bool(shift))
        self.canvas_input.press(g)

    def drag(self, x: float, y: float) -> None:
        """Move the pressed pointer to pixel ``(x, y)`` (a drag past a few pixels)."""
        self.canvas_input.move(x, y)

    def release(self, x: float | None = None, y: float | None = None) -> None:
        """Release the pointer (at ``(x, y)``, default: where it is): a click or a drag's end."""
        self.canvas_input.release(x, y)

    def wheel(self, x: float, y: float, delta_y: float) -> None:
        """Turn the wheel by ``delta_y`` pixels at ``(x, y)``: zoom about that point."""
        self._apply(Action("zoom", (float(x), float(y), zoom_factor(float(delta_y)))))

    def touch(self, event: str, touches: Sequence[tuple[float, float]]) -> None:
        """Fingers on the canvas: ``event`` start, move or end (see :func:`.feed_touch`)."""
        feed_touch(self.canvas_input, event, touches)

    def _canvas_input(self, width: int, height: int) -> EventMerger:
        """The canvas's gestures: the pointer says what they mean (:mod:`.pointer`)."""
        m = EventMerger(width, height, on_wheel=self.wheel, on_key=self._on_key, clock=self.clock)
        m.on_press, m.on_drag, m.on_release = self._on_press, self._on_drag, self._on_release
        m.on_pinch = lambda step: self._apply(Action("pinch", tuple(step)))
        return m

    def _on_press(self, g: Gesture) -> None:
        self._message = ""
        self._act(self._pointer.pressed(g, self._situation()))

    def _on_drag(self, g: Gesture, dx: float, dy: float) -> None:
        # in space a plain background drag turns the camera (.space_view), else the pointer's
        self._act([self._viewer.drag_action(g, dx, dy) or self._pointer.drag(g, dx, dy)], False)

    def _on_release(self, g: Gesture, x: float, y: float) -> None:
        self._act([self._pointer.release(g, (x, y), self.tool, self._selection())])

    def _act(self, actions: Sequence[Action], draw: bool = True) -> None:
        """Carry out a gesture's actions, each guarded (a refusal says why); then ``draw``."""
        for action in actions:
            self._guarded(partial(self._apply, action))
        if draw:  # not after a drag: it draws with its frame
            self.request_draw()

    def run_action(self, kind: str, *args: Any) -> None:
        """Carry out action ``kind`` with ``args`` as its button does: errors shown in ``error``."""
        self._guarded(lambda: self._apply(Action(kind, args)))

    def _apply(self, action: Action) -> None:
        """Carry out ``action`` (from :mod:`.tools`) by the action table, then its message."""
        if action.kind == "error":
            raise ValueError(action.message)
        done = self._actions[action.kind](*action.args)
        if isinstance(done, Outcome):
            self._carry_out(done)
        if action.message:
            self._message = action.message

    def _services(self) -> Services:
        """What the action table may call of this session (built once, in ``_init_state``)."""
        return Services(
            self._situation, lambda: self.linkage, self._actuate, self._export, self.save,
            self.load_file, self.add_spring, self.to_png, self.to_svg, self.save_tracks_csv,
            self.undo, self.redo, self.fit, self.merge_file, self._save_recording,
            self.cancel_export, self._apply_panel, self.run_action,
        )  # fmt: skip

    def _situation(self) -> Situation:
        """What the action handlers read (:class:`.outcome.Situation`)."""
        idle = self._target() is None and not self.motors_driving
        viewer = self._viewer  # world(x, y, depth): the point under a pixel (Pointer.depth)
        world = partial(viewer.world_point, self._view)
        now = self.trait_values(), self.linkage, self._view, viewer, world
        return Situation(*now, self._branch_directions(), idle, self.motors_driving)

    def _branch_directions(self) -> np.ndarray | None:
        """The branch lines offered at a singular stop, else ``None`` (:mod:`.branching`)."""
        return self._branching.directions(
            self._status, self.driver.simulator, len(self.linkage.vertices)
        )

    def _carry_out(self, o: Outcome) -> None:
        """Apply what an action's handler returned (:class:`.outcome.Outcome`, in its order)."""
        if o.undo_point:  # a free move begins: the places before it are one undo step
            self._commit_motion()
            self._history.record(self.document.snapshot())
        if o.branch is not None:  # the motion goes on along a branch of a singular stop
            self.linkage.set_positions(self.driver.follow_branch(*o.branch))
            self._pos_version += 1
            self._tracks.append(self.linkage.vertices)
            self._status = "moved"
        if o.edit is None or self._edit(partial(o.edit, self.document)):
            for name, value in o.traits.items():
                setattr(self, name, value)
            if o.then is not None:
                self._carry_out(o.then)
        self._message = self._message if o.message is None else o.message
        if o.move is not None:
            with suppress(ValueError):  # onto a neighbour: skip this place, keep dragging
                self.linkage.move_vertex(*o.move)
                self._pos_version += 1
                self.driver.invalidate()
                self.request_draw()
        self._finish(o)

    def _finish(self, o: Outcome) -> None:
        """The end of :meth:`_carry_out`: a new view, a pull, what follows last."""
        if o.view is not None:
            self._view, self._dirty = o.view, True
        if o.turn is not None and (cam := self.camera) is not None:  # key v's view in space
            self._camera = Camera(o.turn, cam.centre, cam.distance, cam.projection)
            self._dirty = True
        if o.pulled:
            self.driver.unsettle()
        if o.view is not None or o.pulled or o.turn is not None:
            self._pointer_input()
        if o.finish == "edit":
            self._after_edit()
        elif o.finish == "animate":
            self._start_animation()
        elif o.finish:  # "analysis" or "draw"
            if o.finish == "analysis":
                self._refresh_analysis()
            self.request_draw()
        if o.after is not None:
            o.after()

    # --- frames: a frame's motion (Driver.motion says what it did and ends), the analysis
    # shown (Analyst, LiveAnalyst, .shown), the drawing and the hint
    @property
    def motors_driving(self) -> bool:
        """Whether motors drive the motion: :attr:`motors_running`, and there are some."""
        return bool(self.motors_running and self.document.drives.has_motors())

    def _target(self) -> Target | None:
        """What the motion pulls toward: the drag pointer, else the attractor."""
        return Target.pulling(self._pointer.target(), self.selected_vertex, self.attractor)

    def _setup(self) -> SimulatorSpec:
        """What the simulator is built from: the model and the motion traits."""
        mu = self._viewer.table_friction(self.table_friction)  # planar: none in space
        motion = (self.mode, self.step_size, self.mass_distribution, self.gravity)
        drives = (self.document.drives, self.motors_driving, mu, self.max_step)
        return SimulatorSpec(self.linkage, self.document.springs, *motion, *drives)

    def frame(self) -> bool:
        """One animation frame: step, track, analyse (throttled), draw; return whether busy."""
        self._panel_frame()  # the next placement of a move started on the panel, if any
        step = self._step_motion() if self.running else None
        # The first frame of a drag draws before it analyses: the joint follows the
        # pointer one analysis sooner (the first one of a drag is the slow one).
        first = step is not None and self._pointer.take_pull_start()
        if step is not None and not first:
            self._live_frame(step)
        if self._dirty or step is not None:
            self.draw()
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
        ask = FrameAsk(self._target(), self._pointer.vertex is not None, self._status, note, mu)
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

    @property
    def dirty(self) -> bool:
        """Whether a draw is pending: :meth:`request_draw` asked, :meth:`draw` has not run."""
        return self._dirty

    def request_draw(self) -> None:
        """Draw soon: in the next frame when animating, at once otherwise (the view decides)."""
        if self._ready:
            self._dirty = True
            self._schedule_draw()

    def draw(self) -> None:
        """Draw the scene now (:meth:`_show`, the panel with it); keep it when recording."""
        held = (self.canvas_input.gesture, self.canvas_input.pinch, self._pointer.vertex)
        keep = self.keep_in_view and self.camera is None  # in space the user turns the view
        kept = self._view_keeper.judge(self.linkage.vertices, self._view, keep, held)
        self._view = kept or self._view  # the view follows a move that took joints out of it
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
        rod_forces, reactions, _ = self._actuation.force_view(stage := self._stage())  # once
        traits = {name: getattr(self, name) for name in SCENE_TRAITS}
        return scene_state(
            traits, self._shown(), self.document, self._target(),
            (rod_forces, self._actuation.shown_loads(stage), reactions),
            tracks=self._tracks.as_dict(), motors_running=self.motors_driving,
            branches=self._branch_directions(), hint=fit_hint(self._hint(), self._view.width),
            kinematic=self.cycle.overlay(self.document, self._version, traits, running_loop()),
            ghosts=self.ghosts.shown(self.linkage), nac_colouring=self.nac.shown(self.linkage),
            synthesis_curves=self.synthesis.curves(),
        )  # fmt: skip

    def _hint(self) -> str:
        """The hint line (:func:`.hint_text`): the last message, else what one can do now."""
        lines = self._branch_directions()  # the ways on at a singular stop (.branching)
        return hint_text(HintState(
            self._message, self._pointer.vertex, self._status, self.attractor is not None,
            self._selection(), self.running, self.mode, self.tool, self.linkage.n_vertices,
            self.document.drives.motor_count(), self.motors_driving,
            0 if lines is None else len(lines),
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
            self.request_draw()
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
        return (s := self._shown()).lines() + model_lines(self.linkage, s.live is not None)

    def readout_words(self) -> Readout:
        """The readout in plain words, then the technical lines: :meth:`.ShownAnalysis.words`."""
        said = (s := self._shown()).words(held_rods(self.linkage.rods, self.linkage.pinned))
        return said._replace(details=said.details + model_lines(self.linkage, s.live is not None))
