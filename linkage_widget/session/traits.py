"""The traits of a session: its state, the values each may take, and what follows a change.

The base of :class:`~linkage_widget.session.LinkageSession`. Each validator is one
plain check of :mod:`.trait_checks`, its ``ValueError`` turned into the ``TraitError``
traitlets expects, with the same message. Observers apply the policy that follows a
change: a motion parameter reaches the running simulator, a new mode swaps step sizes,
an attractor with a selected vertex starts the motion, stopping commits the motion to
undo. Traits, validators and observers only: what they call is the session's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import traitlets
from traitlets import Bool, Float, HasTraits, Int, TraitError, Tuple, Unicode, observe, validate

from . import merge, trait_checks
from .document import DEFAULT_FILE
from .export import EXPORT_FORMATS
from .joint_names import names_edit

__all__ = ["SessionTraits"]


def _checked(check: Callable[..., Any], proposal: Any, *context: Any) -> Any:
    """``check(value, name, *context)``, its ``ValueError`` as the ``TraitError`` expected."""
    try:
        return check(proposal["value"], proposal["trait"].name, *context)
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
    rod_kind = Unicode(
        "rod", help='What the rod tool draws: "rod", "cable" (shortens) or "strut" (lengthens).'
    )
    recording = Bool(False, help="Whether frames are being recorded for a GIF.")
    file_name = Unicode(DEFAULT_FILE, help="The file s/l save and load; exports take its name.")
    save_page = Bool(
        True, help="A save also writes <file>.html: the picture, the data, the file (as 2007)."
    )
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
    projection = Unicode(
        "orthographic", help='How a 3-D linkage is seen: "orthographic" or "perspective".'
    )
    presentation = Bool(
        False, help="Presentation mode (key m, the 2007 program's): large type, controls collapsed."
    )
    keep_in_view = Bool(True, help="Bring the mechanism back into view when it moves out.")
    record_format = traitlets.Enum(
        tuple(EXPORT_FORMATS), "gif", help='What r saves: "gif" or "png" (numbered frames, zipped).'
    )
    exporting = Bool(False, help="Whether an export runs in the background (read only).")
    recording_progress = Float(0.0, help="Progress of the last export, 0 .. 1 (read only).")
    show_configuration = Bool(False, help="Show the configuration-space panel.")
    show_plots = Bool(
        False, help="Plot the tracked joints' velocity and acceleration against the motor's "
        "crank angle beside the canvas, and draw their velocity arrows on it.",
    )  # fmt: skip
    show_centres = Bool(False, help="Draw the instant centres of the driven mechanism.")
    show_band = Bool(False, help="Draw the tolerance band round each tracked joint's path.")
    configuration_coordinates = Tuple(
        Unicode(), Unicode(), default_value=None, allow_none=True,
        help="Labels of the two angles a curve or surface is charted in (None: the default).",
    )  # fmt: skip

    #: the traits the constructor takes as keywords (max_step: a property of the session)
    _OWN_TRAITS = (
        "step_size mass_distribution mode gravity selected_vertex selected_rod attractor "
        "running show_velocities show_vertices show_angles show_info show_stresses "
        "show_pebbles tracked error tool rod_kind recording file_name motors_running show_forces "
        "table_friction load_size presentation max_step show_configuration "
        "configuration_coordinates show_plots show_centres show_band"
    ).split()

    # ================================= validation: one check of .trait_checks each
    @validate(*trait_checks.NUMBERS)
    def _validate_number(self, proposal: Any) -> float:
        return _checked(trait_checks.number, proposal)

    @validate(*trait_checks.CHOICES)
    def _validate_choice(self, proposal: Any) -> str:
        return _checked(trait_checks.choice, proposal)

    @validate("pixel_ratio")
    def _validate_pixel_ratio(self, proposal: Any) -> float:
        return _checked(trait_checks.pixel_ratio, proposal)

    @validate("joint_names")
    def _validate_joint_names(self, proposal: Any) -> tuple[str, ...]:
        return _checked(trait_checks.names, proposal)

    @validate("selected_vertex", "selected_rod")
    def _validate_selection(self, proposal: Any) -> int | None:
        return _checked(trait_checks.selection, proposal, self.linkage)

    @validate("attractor")
    def _validate_attractor(self, proposal: Any) -> tuple[float, float] | None:
        return _checked(trait_checks.point, proposal)

    @validate("tracked")
    def _validate_tracked(self, proposal: Any) -> tuple[int, ...]:
        return _checked(trait_checks.tracked, proposal, self.linkage)

    @validate("configuration_coordinates")
    def _validate_configuration_coordinates(self, proposal: Any) -> tuple[str, str] | None:
        return _checked(trait_checks.coordinates, proposal, self.linkage)

    # ============================================================ observers
    @observe("step_size", "mass_distribution", "gravity", "table_friction")
    def _on_parameter_change(self, change: Any) -> None:
        self.driver.set_parameter(change["name"], change["new"])  # next step: no restart

    @observe("motors_running")
    def _on_motors_running_change(self, change: Any) -> None:
        self.driver.unsettle()  # the driver adds or drops the motors at the next frame
        if not self._ready:
            return
        if change["new"]:
            self.running = True
        elif self.mode == "kinematic" and self._target() is None:
            self.running = False
        self._controls_changed()
        self.request_draw()

    @observe("mode")
    def _on_mode_change(self, change: Any) -> None:
        if self._ready:
            self._mode_switched(change["old"], change["new"])  # the facade's state changes

    @observe("selected_vertex")
    def _on_selected_vertex_change(self, change: Any) -> None:
        if change["new"] is not None:
            self.selected_rod = None  # one selection at a time: keys act on it
        self.driver.unsettle()  # the attractor now pulls another vertex
        if self._ready and self.attractor is not None and change["new"] is not None:
            self.running = True
        self.request_draw()

    @observe("selected_rod")
    def _on_selected_rod_change(self, change: Any) -> None:
        if change["new"] is not None:
            self.selected_vertex = None
        self.request_draw()

    @observe("attractor")
    def _on_attractor_change(self, change: Any) -> None:
        self.driver.unsettle()
        if not self._ready:
            return
        free = self.mode == "kinematic" and self._pointer.vertex is None and not self.motors_running
        if change["new"] is not None and self.selected_vertex is not None:
            self.running = True
        elif change["new"] is None and free:  # nothing pulls any more: the motion stops
            self.running = False
        self.request_draw()

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
            self.request_draw()
        self._controls_changed()

    @observe("tracked")
    def _on_tracked_change(self, change: Any) -> None:
        self.document.tracked = change["new"]
        self._restart_tracks()
        self.request_draw()

    # one observe() for all: stacked observe decorators register only the outer one's names
    @observe(
        "show_velocities", "show_vertices", "show_angles", "show_info", "show_stresses",
        "show_pebbles", "tool", "rod_kind", "load_size", "show_labels", "joint_names",
        "pixel_ratio", "show_plots", "show_centres", "show_band",
    )  # fmt: skip
    def _on_view_option_change(self, change: Any) -> None:
        self.request_draw()

    @observe("show_forces")
    def _on_show_forces_change(self, change: Any) -> None:
        if self._ready:
            self._controls_changed()  # the readout's force lines come and go with it
        self.request_draw()

    @observe("error")
    def _on_error_change(self, change: Any) -> None:
        if change["new"]:
            self.error_log.append(change["new"])
        if self._ready:
            self._controls_changed()
            self.request_draw()

    @observe("recording")
    def _on_recording_change(self, change: Any) -> None:
        if not self._ready:
            return
        if change["new"]:
            self.recorder.restart()
            self.recorder.offer(self.scene())
        self._controls_changed()

    @observe("projection")
    def _on_projection(self, change: Any) -> None:
        if self._ready:
            self.request_draw()  # session.camera takes the projection when next asked for

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
        if not names_edit(new := change["new"], self.document.names):
            self._follow_document()  # no edit; the trait in the kept form
        elif not self._edit(lambda: setattr(self.document, "names", new), "joint names"):
            raise TraitError(f"joint_names: {self.error}")

    @observe("configuration_coordinates")
    def _on_configuration_coordinates_change(self, change: Any) -> None:
        if self._ready and self.show_configuration:
            self._draw_panel()  # the chart's key changed: it is charted again

    @observe("show_configuration")
    def _on_show_configuration_change(self, change: Any) -> None:
        if self._ready:
            self._panel_shown(change["new"])  # the facade's state changes
