"""A session's frames: one step of motion, the analysis it may need, and the drawing.

Part of :class:`~linkage_widget.session.LinkageSession` (a mixin over its
state). A frame asks the :class:`~.motion_driver.Driver` to move toward the target
(the drag pointer or the attractor), takes in the positions it returns,
keeps the live analysis current for the frame it is about to draw (DOF, the
flex the drag excites, the stress colours: :mod:`.live`, at any size, throttled
with "analysis k frames behind" above its limit), re-analyses fully when the
linkage is small and cheap enough (throttled, see :mod:`.analysis`), and draws
through the view's ``_show`` hook. Without a view,
:meth:`~linkage_widget.session.LinkageSession.advance` runs frames.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..draw import SceneState
from ..rigidity import RigidityReport
from .analysis import running_loop, shown_motions, timed_analyze
from .live import LiveAnalyst, LiveState, Motion
from .motion_driver import SimulatorSpec, Target
from .tools import HintState, fit_hint, hint_text
from .words import Readout, held_rods, plain_words, report_words, stressed_rods

__all__ = ["FramesMixin"]


class FramesMixin:
    """Motion, analysis and drawing of each frame (module docstring)."""

    clock: Callable[[], float]  # the session's (injected): frame times and analysis cost

    def _init_frames(self) -> None:
        self._live_analyst = LiveAnalyst()  # the analysis of the drawn frame while dragging
        self._live_pos = -1  # the position version the live analysis is of
        self._last_step: np.ndarray | None = None  # what the last frame's motion moved
        self._told_table: float | None = None  # the table friction a 3-D motion said it ignores

    # ================================================================ motion
    def _setup(self) -> SimulatorSpec:
        return SimulatorSpec(
            self.linkage,
            self.document.springs,
            self.mode,
            self.step_size,
            self.mass_distribution,
            self.gravity,
            self.document.drives,
            self._motors_on(),
            self._viewer.table_friction(self.table_friction),  # planar: none in space
            self.max_step,  # SessionTraits' (# edit)
        )

    def _motors_on(self) -> bool:
        """Whether motors drive the motion: switched on, and there are some."""
        return bool(self.motors_running and self.document.drives.motors)

    def _target(self) -> Target | None:
        """What the motion pulls toward: the drag pointer, else the attractor."""
        pulled = self._pointer.target()  # the pointer on the pulled joint's plane in space
        if pulled is not None:
            return pulled
        if self.attractor is not None and self.selected_vertex is not None:
            return Target(self.selected_vertex, *self.attractor)
        return None

    def _step_motion(self) -> bool:
        """One frame of motion; return whether the positions changed."""
        mu = float(self.table_friction)
        note = self._viewer.friction_note(mu, self.mode)  # in space: the slider does nothing
        if note and self._told_table != mu:  # said once per value
            self._told_table = mu
            self._message = note
        target = self._target()
        if self.driver.idle(self.mode, target, self._motors_on()):
            if target is None:
                self._status = "idle"
            return False
        if self._motion_before is None:
            self._motion_before = self.document.snapshot()
        before = self.linkage.vertices.copy()
        dragging = self._pointer.vertex is not None
        done = self.driver.frame(self._setup(), target, dragging, self._view)
        self._status = done.status
        if done.positions is None:
            return False
        self.linkage.set_positions(done.positions)
        self._last_step = self.linkage.vertices - before
        self._pos_version += 1
        self._tracks.append(done.positions)
        return True

    def _frame(self) -> bool:
        """One animation frame: step, track, analyse (throttled), draw; return whether busy."""
        self._panel_frame()  # the next placement of a move started on the panel, if any
        moved = False
        if self.running:
            try:
                moved = self._step_motion()
            except Exception as exc:  # noqa: BLE001 - a failed step must not kill the loop
                self.error = f"motion stopped: {exc}"
                self.running = False
            self._stop_if_done()
        # The first frame of a drag draws before it analyses: the joint follows the
        # pointer one analysis sooner (the first one of a drag is the slow one).
        first = moved and self._pointer.take_pull_start()
        if moved:
            self._dirty = True
            if not first:
                self._live_frame(self._last_step)
        if self._dirty:
            self._draw()
        if first:
            self._live_frame(self._last_step, drawn=True)
        # After the draw: the full analysis runs in a worker thread, whose Python parts
        # would take the GIL from this frame's drawing in 5 ms slices.
        if moved and self._analyst.live(self.linkage.n_vertices):
            self._refresh_analysis(live=True)
        return bool(self.running or self.panel.animating)

    def _stop_if_done(self) -> None:
        """Kinematic motion toward the attractor ends when reached or blocked (motors too).

        A step the simulator refused (too stiff for the time step, an overflow) stops
        the motion in either mode, with the simulator's reason.
        """
        if self._status == "refused":
            reason = getattr(self.driver.simulator, "blocked_reason", None) or "no reason given"
            self.running = False
            self._message = f"motion refused: {reason}"
        if self._motors_on() and self._status == "blocked":
            reason = getattr(self.driver.simulator, "blocked_reason", None) or "a dead point"
            self.motors_running = False
            self._message = f"motor blocked: {reason} (n reverses, o restarts)"
        if (
            self.running
            and self.mode == "kinematic"
            and self._pointer.vertex is None
            and (self.driver.settled or (self._target() is None and not self._motors_on()))
        ):
            self.running = False

    # =============================================================== drawing
    def _request_draw(self) -> None:
        """Draw soon: in the next frame when animating, at once otherwise (the view decides)."""
        if not self._ready:
            return
        self._dirty = True
        self._schedule_draw()

    def _draw(self) -> None:
        """Draw the current scene now (:meth:`_show`), and keep it when recording.

        The configuration panel, when shown, is drawn with it, in one message to the view.
        """
        self._keep_mechanism_in_view()  # the view follows a move that took joints out of it
        self._dirty = False
        self._live_analyst.drawn += 1
        if self._live_pos == self._pos_version:
            self._live_analyst.redrawn_unmoved()  # the live analysis still shows this placement
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
        r = self._analyst.report
        fresh = self._analyst.fresh(self._version)
        # A stale velocity basis would point the wrong way once the linkage moved far.
        live = (
            self._analyst.live(self.linkage.n_vertices)
            or self._analyst.pos_version == self._pos_version
        )
        now = self._live_now()
        target = self._target()
        rod_forces, reactions, _ = self._force_view()
        return SceneState(
            selected_vertex=self.selected_vertex,
            selected_rod=self.selected_rod,
            attractor=self.attractor,
            attracted_vertex=target[0] if target and self.attractor is not None else None,
            tracked=tuple(self.tracked),
            tracks=self._tracks.as_dict(),
            velocity_basis=self._shown_basis(r, fresh and live, now),
            show_velocities=self.show_velocities,
            show_vertices=self.show_vertices,
            show_angles=self.show_angles,
            show_info=self.show_info,
            show_stresses=self.show_stresses,
            show_pebbles=self.show_pebbles,
            rod_stress=now.rod_stress if now else r.rod_stress if fresh else None,
            redundant_rods=self.document.generic()[1],
            springs=tuple((s.i, s.j) for s in self.document.springs),
            rod_forces=rod_forces,
            loads=self._shown_loads(),
            reactions=reactions,
            motors=tuple((m.pivot, m.tip, m.speed) for m in self.document.drives.motors),
            motors_running=self._motors_on(),
            branches=self._branch_directions(),
            hint=fit_hint(self._hint(), self._view.width),
            error=self.error,
            show_labels=self.show_labels,
            joint_names=self.joint_names,
            pixel_ratio=self.pixel_ratio,
            camera=self.camera,
        )

    def _hint(self) -> str:
        lines = self._branch_directions()  # the ways on at a singular stop (.branching)
        return hint_text(
            HintState(
                self._message,
                self._pointer.vertex,
                self._status,
                self.attractor is not None,
                self._selection(),
                self.running,
                self.mode,
                self.tool,
                self.linkage.n_vertices,
                len(self.document.drives.motors),
                self._motors_on(),
                0 if lines is None else len(lines),
                self._blocked_reason(),
                self._viewer.space,
            )
        )

    def _blocked_reason(self) -> str:
        """The simulator's reason for a ``"blocked"`` status (a motor's dead point), else ``""``."""
        sim = self.driver.simulator
        if self._status != "blocked" or sim is None:
            return ""
        return getattr(sim, "blocked_reason", None) or ""

    # ============================================================== analysis
    def _refresh_analysis(self, *, sync: bool | None = None, live: bool = False) -> None:
        """Analyse the current linkage: now when small or without a loop, else in a thread."""
        if live and self._analyst.throttled():
            return
        loop = running_loop()
        if sync or loop is None:
            report, cost = timed_analyze(self.linkage, self.clock)
            self._store_analysis(report, cost, self._version, self._pos_version)
            return
        version, pos_version = self._version, self._pos_version
        fut = self._analyst.start(loop, self.linkage, live)
        if fut is not None:
            fut.add_done_callback(lambda f: self._analysis_done(f, version, pos_version))

    def _analysis_done(self, fut: Any, version: int, pos_version: int) -> None:
        try:
            report, cost = self._analyst.finish(fut)
        except Exception as exc:  # noqa: BLE001 - show it; the session keeps working
            self.error = f"analysis failed: {exc}"
            return
        if version == self._version:
            self._store_analysis(report, cost, version, pos_version)
            self._request_draw()
        if self._analyst.pending or version != self._version:
            self._refresh_analysis()

    def _store_analysis(
        self, report: RigidityReport, cost: float, version: int, pos_version: int
    ) -> None:
        self._analyst.store(report, cost, version, pos_version)
        if self._ready:
            self._controls_changed()

    def _analysis_text(self) -> tuple[list[str], str]:
        """The analysis in words: ``(summary lines, explanation)``; ``([], "")`` while analysing."""
        fresh = self._analyst.fresh(self._version)
        if self._live_now() is not None:
            return self.readout(), ""
        if not fresh:
            return [], ""
        r = self._analyst.report
        assert r is not None
        return list(r.summary_lines()), r.explanation

    # ========================================================= live analysis
    def _pull(self) -> np.ndarray | None:
        """The pull of the drag (or attractor) on its joint, shape (n, d); ``None`` without."""
        target = self._target()
        if target is None:
            return None
        pull = np.zeros_like(self.linkage.vertices)  # (n, d): (x, y, z) in space
        pull[target.vertex] = np.asarray(target.point) - self.linkage.vertices[target.vertex]
        return pull

    def _live_frame(self, step: np.ndarray | None = None, drawn: bool = False) -> None:
        """Analyse the placement of the frame about to be drawn (throttled above the limit).

        ``step`` (n, 2) is the displacement the frame's motion made; ``drawn``: the
        frame is drawn already (the first of a drag).
        """
        live = self._live_analyst
        frame = live.drawn + (0 if drawn else 1)
        if not live.due(frame, self.linkage.n_vertices):
            return
        try:
            generic_rank = self.document.generic()[0]
            motion = Motion(self._pull(), step, self.show_velocities, self.show_stresses)
            live.analyse(self.linkage, self._version, frame, motion, generic_rank)
            self._live_pos = self._pos_version
        except Exception as exc:  # noqa: BLE001 - the full analysis on release still runs
            self.error = f"live analysis failed: {exc}"

    def _live_now(self) -> LiveState | None:
        """The live state, unless the full report is newer (or as new and the motion stopped)."""
        live = self._live_analyst
        if live.behind(self._version) is None:
            return None
        live_pos = self._live_pos
        a = self._analyst
        full_pos = a.pos_version if a.fresh(self._version) else -1
        if full_pos > live_pos or (full_pos == live_pos and not self.running):
            return None
        return live.state

    def _shown_basis(self, r: RigidityReport | None, full: bool, now: LiveState | None) -> Any:
        """Arrows: the flex the drag excites while live, else the full report's flexes."""
        if now is not None:
            return None if now.excited is None else now.excited[None]
        return shown_motions(r) if full else None

    @property
    def live_analysis(self) -> LiveState | None:
        """The live analysis of the drag (``None`` when the full analysis is current)."""
        return self._live_now()

    def readout(self) -> list[str]:
        """The analysis readout's technical lines: counts and status, live while dragging.

        While the joints move, the counts are those of the live analysis, with a
        line saying which drawn frame they belong to ("analysis live: frame N") or
        "analysis k frames behind" when throttled; the status and Maxwell lines of
        the full analysis are kept while its counts agree. The plain words a student
        reads first are :meth:`readout_words`.
        """
        now = self._live_now()
        fresh = self._analyst.fresh(self._version)
        r = self._analyst.report
        if now is None:
            return list(r.summary_lines()) if fresh and r is not None else ["analysing ..."]
        behind = self._live_analyst.behind(self._version) or 0
        lines = now.lines(behind)
        if fresh and r is not None and (r.dof, r.self_stresses) == (now.dof, now.self_stresses):
            lines[1:1] = [f"status: {r.status}"]
        return lines

    def readout_words(self) -> Readout:
        """The readout in plain words first, then the technical lines (:mod:`.words`).

        While the joints move, from the live analysis ("1 way to move" and its
        counts, :meth:`readout`'s lines as the details); ``words`` is empty while
        the first analysis runs.
        """
        now = self._live_now()
        held = held_rods(self.linkage.rods, self.linkage.pinned)
        if now is not None:
            # rods between pinned joints left out, as in the full readout (.words)
            free = None if now.rod_stress is None else np.where(held, 0.0, now.rod_stress)
            stressed = stressed_rods(free) if now.self_stresses else 0
            words = plain_words(now.internal_dof, now.trivial_dof, "flexible", stressed=stressed)
            return Readout(words, self.readout(), "")
        r = self._analyst.report
        if not self._analyst.fresh(self._version) or r is None:
            return Readout([], ["analysing ..."], "")
        return report_words(r, held if len(held) == len(r.redundant_rods) else None)
