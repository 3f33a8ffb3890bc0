"""The traits of a session: its state, the values each may take, and what follows a change.

The base of :class:`~linkage_widget.session.LinkageSession`. Validators check
through :mod:`linkage_widget._checks` (one check per parameter) and turn its
``ValueError`` into the ``TraitError`` traitlets expects, with the same
message. Observers apply the policy that follows a change: a motion parameter
reaches the running simulator, a new mode swaps step sizes, an attractor with
a selected vertex starts the motion, stopping commits the motion to undo. The
``# edit`` block at the end is the session's face of the objects it holds for merging,
``max_step``, the angle tool, joint names, keep-in-view and exports (session.py is full).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from os import PathLike
from pathlib import Path
from typing import Any

import numpy as np
import traitlets
from traitlets import Bool, Float, HasTraits, Int, TraitError, Tuple, Unicode, observe, validate

from .. import _checks
from ..draw import MAX_PIXEL_RATIO, save_gif
from ..errors import LinkageFormatError
from ..io import Extensions
from ..model import Linkage
from ..motion import MODES
from . import merge
from .analysis import running_loop
from .configuration_panel import chart_message, checked_coordinates
from .document import DEFAULT_FILE
from .export import EXPORT_FORMATS, save_png_frames
from .export_session import Exporter, checked_format, export_target, loop_notifier, recorded
from .joint_angle import AngleTool, toggle_joint_angle
from .joint_names import names_edit
from .keep_in_view import MARGIN_PX, ViewKeeper, inside
from .recording import GIF_FPS
from .space_view import DYNAMIC_IN_SPACE
from .tools import TOOLS

__all__ = ["SessionTraits"]


def _checked(check: Callable[..., Any], *args: Any) -> Any:
    """``check(*args)``, its ``ValueError`` as the ``TraitError`` traitlets expects."""
    try:
        return check(*args)
    except ValueError as exc:
        raise TraitError(str(exc)) from None


class SessionTraits(HasTraits):
    """Every public trait of a session, validated and observed (module docstring)."""

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
    show_info = Bool(
        False, help="Open the readout's technical lines (rank, Maxwell count, method)."
    )
    show_stresses = Bool(False, help="Colour rods by the first self-stress.")
    show_pebbles = Bool(False, help="Colour redundant rods (pebble game).")
    tracked = Tuple(help="Tracked vertices: their paths are drawn.")
    error = Unicode("", help="Last error, shown in the readout and on the canvas.")
    tool = Unicode("select", help="Toolbar tool: what a plain click does.")
    recording = Bool(False, help="Whether frames are being recorded for a GIF.")
    file_name = Unicode(DEFAULT_FILE, help="The file s/l save and load; exports take its name.")
    motors_running = Bool(False, help="Whether the motors turn (o starts/stops them).")
    show_forces = Bool(True, help="Draw rod forces, loads and reactions when there are drives.")
    table_friction = Float(0.0, help="Friction coefficient of the joints on the table (dynamic).")
    load_size = Float(1.0, help="Force of a load placed by a click of the load tool (downward).")
    pixel_ratio = Float(
        2.0,
        help="Device pixels per CSS pixel the canvas draws at (2: crisp on a retina screen or "
        "a projector; 1: a plain screen); PNG exports at this ratio too.",
    )
    show_labels = Bool(False, help="Write each joint's index (or its name) beside it.")
    joint_names = Tuple(help="Joint names for the labels, by index ('' or missing: the index).")
    presentation = Bool(
        False, help="Presentation mode (key m, the 2007 program's): large type, controls collapsed."
    )

    _OWN_TRAITS = (
        "step_size mass_distribution mode gravity selected_vertex selected_rod attractor "
        "running show_velocities show_vertices show_angles show_info show_stresses "
        "show_pebbles tracked error tool recording file_name motors_running show_forces "
        "table_friction load_size presentation max_step"  # max_step: a property (# edit)
    ).split()

    # =========================================================== validation
    @validate("step_size")
    def _validate_step_size(self, proposal: Any) -> float:
        return _checked(_checks.positive, proposal["value"], "step_size")

    @validate("mass_distribution")
    def _validate_mass_distribution(self, proposal: Any) -> float:
        return _checked(_checks.unit_interval, proposal["value"], "mass_distribution")

    @validate("table_friction")
    def _validate_table_friction(self, proposal: Any) -> float:
        return _checked(_checks.non_negative, proposal["value"], "table_friction")

    @validate("load_size")
    def _validate_load_size(self, proposal: Any) -> float:
        return _checked(_checks.positive, proposal["value"], "load_size")

    @validate("pixel_ratio")
    def _validate_pixel_ratio(self, proposal: Any) -> float:
        r = _checked(_checks.positive, proposal["value"], "pixel_ratio")
        if not 0.5 <= r <= MAX_PIXEL_RATIO:
            raise TraitError(f"pixel_ratio must be in [0.5, {MAX_PIXEL_RATIO:g}], got {r!r}")
        return r

    @validate("joint_names")
    def _validate_joint_names(self, proposal: Any) -> tuple[str, ...]:
        names = proposal["value"]
        if not all(isinstance(x, str) for x in names):
            raise TraitError(f"joint_names must be strings, got {names!r}")
        return tuple(names)

    @validate("gravity")
    def _validate_gravity(self, proposal: Any) -> float:
        return _checked(_checks.finite, proposal["value"], "gravity")

    @validate("mode", "tool")
    def _validate_choice(self, proposal: Any) -> str:
        name, v = proposal["trait"].name, proposal["value"]
        choices = MODES if name == "mode" else TOOLS
        if v not in choices:
            raise TraitError(f"{name} must be one of {', '.join(choices)}; got {v!r}")
        return v

    @validate("selected_vertex", "selected_rod")
    def _validate_selection(self, proposal: Any) -> int | None:
        name, v = proposal["trait"].name, proposal["value"]
        if v is None:
            return None
        if name == "selected_vertex":
            return _checked(_checks.vertex_index, v, self.linkage.n_vertices, name)
        if not 0 <= v < self.linkage.n_rods:  # an Int trait: no type check needed
            raise TraitError(f"{name} must be None or in range({self.linkage.n_rods}), got {v!r}")
        return int(v)

    @validate("attractor")
    def _validate_attractor(self, proposal: Any) -> tuple[float, float] | None:
        v = proposal["value"]
        if v is None:
            return None
        x, y = _checked(_checks.finite_point, v, "attractor")
        return (float(x), float(y))

    @validate("tracked")
    def _validate_tracked(self, proposal: Any) -> tuple[int, ...]:
        n = self.linkage.n_vertices
        out = tuple(_checked(_checks.vertex_index, v, n, "tracked") for v in proposal["value"])
        if len(set(out)) != len(out):
            twice = next(v for v in out if out.count(v) > 1)
            raise TraitError(f"tracked lists vertex {twice} twice")
        return out

    # ============================================================ observers
    @observe("step_size", "mass_distribution", "gravity", "table_friction")
    def _on_parameter_change(self, change: Any) -> None:
        # Effective at the next step of the running motion: no rebuild, no restart.
        self.driver.set_parameter(change["name"], change["new"])

    @observe("motors_running")
    def _on_motors_running_change(self, change: Any) -> None:
        # The driver adds or drops the motors at the next frame (SimulatorSpec.elements changed).
        self.driver.unsettle()
        if not self._ready:
            return
        if change["new"]:
            self.running = True
        elif self.mode == "kinematic" and self._target() is None:
            self.running = False
        self._controls_changed()
        self._request_draw()

    @observe("mode")
    def _on_mode_change(self, change: Any) -> None:
        if not self._ready:
            return
        self._commit_motion()
        # Each mode keeps its own step size: a distance (kinematic) or a time step (dynamic).
        self._step_memory[change["old"]] = self.step_size
        self.step_size = self._step_memory[change["new"]]
        self.driver.invalidate()
        space = change["new"] == "dynamic" and self.linkage.dim == 3  # gravity along -z there
        self._message = f"{change['new']} mode" + (f": {DYNAMIC_IN_SPACE}" if space else "")
        self._controls_changed()
        self._request_draw()

    @observe("selected_vertex")
    def _on_selected_vertex_change(self, change: Any) -> None:
        if change["new"] is not None:
            self.selected_rod = None  # one selection at a time: keys act on it
        self.driver.unsettle()  # the attractor now pulls another vertex
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
        self.driver.unsettle()
        if not self._ready:
            return
        if change["new"] is not None and self.selected_vertex is not None:
            self.running = True
        elif (
            change["new"] is None
            and self.mode == "kinematic"
            and self._drag_vertex is None
            and not self.motors_running
        ):
            self.running = False
        self._request_draw()

    @observe("running")
    def _on_running_change(self, change: Any) -> None:
        if not self._ready:
            return
        if change["new"]:
            self.driver.unsettle()
            self._start_animation()
        else:
            self._commit_motion()
            if self._analyst.pos_version != self._pos_version:
                self._refresh_analysis()  # the full report (big ones had only the live one)
            self._request_draw()
        self._controls_changed()

    @observe("tracked")
    def _on_tracked_change(self, change: Any) -> None:
        self.document.tracked = change["new"]
        self._restart_tracks()
        self._request_draw()

    # one observe() for all: stacked observe decorators register only the outer one's names
    @observe(
        "show_velocities", "show_vertices", "show_angles", "show_info", "show_stresses",
        "show_pebbles", "tool", "load_size", "show_labels", "joint_names", "pixel_ratio",
    )  # fmt: skip
    def _on_view_option_change(self, change: Any) -> None:
        self._request_draw()

    @observe("show_forces")
    def _on_show_forces_change(self, change: Any) -> None:
        if self._ready:
            self._controls_changed()  # the readout's force lines come and go with it
        self._request_draw()

    @observe("error")
    def _on_error_change(self, change: Any) -> None:
        if change["new"]:
            self.error_log.append(change["new"])
        if self._ready:
            self._controls_changed()
            self._request_draw()

    @observe("recording")
    def _on_recording_change(self, change: Any) -> None:
        if not self._ready:
            return
        if change["new"]:
            self.recorder.restart()
            self.recorder.offer(self.scene())
        self._controls_changed()

    # edit: the session's face of .merge (max_step), .joint_angle, .joint_names, .keep_in_view,
    # .export_session: traits, observers, delegations (session.py is at its 500 lines)
    keep_in_view = Bool(True, help="bring the mechanism back into view when it moves out")
    record_format = traitlets.Enum(
        tuple(EXPORT_FORMATS), "gif", help='What r saves: "gif" or "png" (numbered frames, zipped).'
    )
    exporting = Bool(False, help="Whether an export runs in the background (read only).")
    recording_progress = Float(0.0, help="Progress of the last export, 0 .. 1 (read only).")

    @observe("step_size", "mode")
    def _on_step_bound(self, change: Any) -> None:
        # A kinematic step above max_step is lowered to it. Runs after _on_parameter_change
        # (traitlets calls observers by name): the driver gets the lowered step last.
        if self._ready:
            self.step_size = merge.bounded_step(self.mode, self.step_size, self.max_step)

    @observe("joint_names")
    def _on_joint_names_set(self, change: Any) -> None:
        """A name set from code or the UI: one undoable edit of the document (.joint_names)."""
        if not self._ready:
            return  # under construction: the Document takes the names
        new = change["new"]
        if not names_edit(new, self.document.names):
            self._follow_document()  # no edit; the trait in the kept form
        elif not self._edit(lambda: setattr(self.document, "names", new), "joint names"):
            raise TraitError(f"joint_names: {self.error}")

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

    # panel: the configuration-space panel (ConfigurationPanel, .configuration_panel)
    show_configuration = Bool(False, help="Show the configuration-space panel.")
    configuration_coordinates = Tuple(
        Unicode(),
        Unicode(),
        default_value=None,
        allow_none=True,
        help="Labels of the two angles a curve or surface is charted in (None: the default).",
    )
    _OWN_TRAITS = [*_OWN_TRAITS, "show_configuration", "configuration_coordinates"]

    @validate("configuration_coordinates")
    def _validate_configuration_coordinates(self, proposal: Any) -> tuple[str, str] | None:
        return _checked(checked_coordinates, proposal["value"], self.linkage)

    @observe("configuration_coordinates")
    def _on_configuration_coordinates_change(self, change: Any) -> None:
        if self._ready and self.show_configuration:
            self._draw_panel()  # the chart's key changed: it is charted again

    @observe("show_configuration")
    def _on_show_configuration_change(self, change: Any) -> None:
        if not self._ready:
            return
        if change["new"]:
            chart = self._panel_chart()
            self._message = chart_message(chart)
            self.panel.face(chart, self.linkage.vertices)
            self._draw_panel(force=True)
        self._controls_changed()
        self._request_draw()
