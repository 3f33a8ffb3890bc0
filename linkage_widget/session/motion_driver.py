"""Driving the motion: the simulator's lifecycle and the policy of a frame's steps.

A :class:`Driver` owns the :class:`~linkage_widget.motion.Simulator` of a
session: it builds one for the current model and parameters, rebuilds it
after any edit (also one made from code), aims it at the target (the drag
pointer or the attractor), and runs one frame of steps
(:meth:`Driver.motion`, asked with a :class:`FrameAsk`). It returns what happened
and what it ends (:class:`FrameStep`: the new positions, the status, the traits to
set when the motion or the motors stop, the message saying why); the session
applies it. Its step budget reads the session's clock.

The policy of a frame:

* dynamic mode: one time step per frame (``step_size`` 1/60 s is real time);
* kinematic mode, attractor: one step of at most ``step_size`` per frame;
* kinematic mode, dragging: a drag must keep up with the pointer, so up to
  :data:`DRAG_SUBSTEPS` steps of up to :data:`DRAG_STEP_PX` screen pixels
  (the projection keeps them exact), within :data:`FRAME_BUDGET_S`, and none
  once the vertex is within :data:`DRAG_REACH_PX` of the pointer;
* an explicit ``max_step`` (the 2007 ``max-step``, :class:`SimulatorSpec`) bounds every
  kinematic step, a drag's included;
* the attractor goes when its joint arrives (kinematic, ``"reached target"`` while no
  drag pulls), as in the 2007 program: the frame's ends clear it and stop the motion,
  and the hint says so (:data:`ATTRACTOR_REACHED`); a joint that cannot reach it stops
  at the closest placement and the attractor stays (move it, or right-click it away);
* a kinematic motion *settles* when it reached its target, is blocked, stopped
  at a singular placement (until a branch is picked: :meth:`Driver.follow_branch`), or
  moved less than :data:`STILL_PX` for :data:`STILL_FRAMES` frames; it stays
  settled until something changes (:meth:`Driver.unsettle`);
* a 3-D linkage's simulator gets springs, joint loads, pathway forces and friction;
  motors and table friction are planar (the simulator refuses them in space), so they
  are never handed to it; the table-friction slider is ignored there (the session says so
  once, :data:`~linkage_widget.session.space_view.TABLE_FRICTION_IN_SPACE`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from ..draw import ViewTransform
from ..elements import Spring
from ..model import Linkage
from ..motion import Simulator
from .drives import Drives

__all__ = [
    "ATTRACTOR_REACHED",
    "DEFAULT_STEP",
    "DRAG_REACH_PX",
    "DRAG_STEP_PX",
    "DRAG_SUBSTEPS",
    "FRAME_BUDGET_S",
    "PARAMETER_RANGES",
    "STEP_SLIDER",
    "STILL_FRAMES",
    "STILL_PX",
    "Driver",
    "FrameAsk",
    "FrameStep",
    "SimulatorSpec",
    "Target",
    "motor_step",
]

#: Step size per mode: kinematic, how far the pulled vertex moves per step (world units);
#: dynamic, the time step in seconds (1/60: one step per frame is real time).
DEFAULT_STEP = {"kinematic": 1.0, "dynamic": 1.0 / 60.0}
#: Step-size slider per mode: min, max, step, readout format, tooltip.
STEP_SLIDER = {
    "kinematic": (0.05, 20.0, 0.05, ".2f", "largest move of the pulled vertex per step"),
    "dynamic": (0.001, 0.05, 0.001, ".3f", "time step in seconds (1/60 = real time)"),
}
#: Slider ranges of the other motion parameters: min, max, step.
PARAMETER_RANGES = {
    "mass_distribution": (0.0, 1.0, 0.01),
    "gravity": (0.0, 1000.0, 10.0),
    "table_friction": (0.0, 2.0, 0.01),
}
DRAG_STEP_PX = 20.0  # while dragging, a kinematic step may move the vertex this far on screen
DRAG_SUBSTEPS = 10  # kinematic steps per frame while dragging (the pointer may be far) ...
FRAME_BUDGET_S = 0.008  # ... but no more stepping than this per frame ...
#: ... and none once the dragged vertex is this close to the pointer (pixels), until the
#: pointer moves: the last fraction of a pixel is invisible, and chasing it costs a step or
#: two per frame and a few more frames, whose halvings near the target also shrink the next
#: move's first step (motion's trust region).
DRAG_REACH_PX = 0.25
#: ... and a frame's steps end after this many in a row that each bring the joint closer to
#: the pointer by less than DRAG_REACH_PX (measured: a Peaucellier drag beside the output's
#: line took 7-10 steps a frame without visible progress; now 3).
DRAG_STALL_STEPS = 2
STILL_PX = 1e-3  # a frame moving less than this (pixels) changes nothing visible ...
STILL_FRAMES = 10  # ... and this many such frames in a row end an attractor motion


class Target(NamedTuple):
    """Where the motion pulls: ``vertex`` toward world ``(x, y)`` (``(x, y, z)`` in space)."""

    vertex: int
    x: float
    y: float
    z: float | None = None

    @property
    def point(self) -> tuple[float, ...]:
        """``(x, y)``, or ``(x, y, z)`` for a 3-D linkage."""
        return (self.x, self.y) if self.z is None else (self.x, self.y, self.z)

    @classmethod
    def pulling(cls, drag: Target | None, selected: int | None, attractor: Any) -> Target | None:
        """What the motion pulls toward: the drag's target, else the attractor, else nothing.

        ``drag``: the dragged joint and the pointer's world point (``Pointer.target()``;
        in space on the pulled joint's plane); ``selected``: the joint the ``attractor``
        ``(x, y)`` pulls.
        """
        if drag is not None:
            return drag
        if attractor is not None and selected is not None:
            return cls(selected, *attractor)
        return None


class SimulatorSpec(NamedTuple):
    """What a simulator is built from: the model and the session's motion parameters.

    ``drives`` are added to the simulator (the motors only when ``motors_on``);
    ``table_friction`` is the joints' friction coefficient against the table (planar:
    ignored for a 3-D linkage, as are the drives);
    ``max_step`` (world units, the 2007 ``max-step``) bounds every kinematic step, a
    drag's too (default: no bound).
    """

    linkage: Linkage
    springs: tuple[Spring, ...]
    mode: str
    step_size: float
    mass_distribution: float
    gravity: float
    drives: Drives = Drives()
    motors_on: bool = False
    table_friction: float = 0.0
    max_step: float = math.inf

    def elements(self) -> tuple[Any, ...]:
        """What the simulator holds besides the model: a new value means a new simulator."""
        d = self.drives
        motors = (d.motors, d.linear_motors) if self.motors_on else ()
        return (self.springs, motors, d.forces, d.frictions, d.torques, d.slider_frictions)


#: What the hint says when the attracted joint arrived and the attractor went.
ATTRACTOR_REACHED = "the joint reached the attractor: attractor removed (right-click to place one)"


class FrameStep(NamedTuple):
    """What one frame of motion did, and what it ends.

    Attributes
    ----------
    positions : (n, d) ndarray or None
        The new positions; ``None`` when nothing moved.
    status : str
        The simulator's status after the last step (an idle frame: ``"idle"`` without a
        target, else the status it was given).
    step : (n, d) ndarray or None
        What the frame moved: ``positions`` minus the positions before.
    begun : bool
        The simulator was asked to step (the session keeps the motion's undo point).
    ends : tuple of (str, value)
        The session's traits to set, in order: ``("motors_running", False)`` (a motor at
        a dead point), ``("error", why)`` (a failed step), ``("attractor", None)`` (its
        joint arrived), ``("running", False)`` (the motion ends: reached, settled,
        refused, failed), as :class:`~.keyboard.KeyChange`.
    message : str
        What the frame says: why it stopped, else a note said once, else ``""``.
    """

    positions: np.ndarray | None
    status: str
    step: np.ndarray | None = None
    begun: bool = True
    ends: tuple[tuple[str, Any], ...] = ()
    message: str = ""


class FrameAsk(NamedTuple):
    """What a frame of motion is asked, besides the simulator's :class:`SimulatorSpec`.

    ``target``: where it pulls (``None``: nowhere); ``dragging``: the pointer drags it;
    ``status``: the status so far; ``note``: what the view says of a motion parameter
    (in space: the table friction it ignores), said once per value of ``table_friction``.
    """

    target: Target | None
    dragging: bool
    status: str
    note: str = ""
    table_friction: float = 0.0


class Driver:
    """The simulator of a session and the policy of each frame's steps (module docstring)."""

    def __init__(self, clock: Callable[[], float] = time.perf_counter) -> None:
        self.clock = clock  # the session's: a frame's step budget reads time only through it
        self.simulator: Simulator | None = None  # None until a motion needs one
        self._seen: Linkage | None = None  # the model as the simulator last saw it
        self._aimed: Target | None = None  # the target the simulator pulls toward
        self._elements: tuple[
            Any, ...
        ] = ()  # SimulatorSpec.elements() the simulator was built with
        self.settled = False  # the kinematic motion reached its target / is blocked
        self._still_frames = 0  # consecutive frames that moved less than STILL_PX
        self._told: float | None = None  # the table friction whose note was said
        self._steps = dict(DEFAULT_STEP)  # each mode's own step size, kept while the other runs

    def switch_step(self, old: str, new: str, step_size: float) -> float:
        """Mode ``old`` -> ``new``: ``step_size`` kept as ``old``'s; ``new``'s own step size.

        A kinematic step is a distance and a dynamic one a time: each mode keeps its own.
        """
        self._steps[old] = step_size
        self.invalidate()
        return self._steps[new]

    # ------------------------------------------------------------ lifecycle
    def current(self, setup: SimulatorSpec) -> Simulator:
        """The simulator for ``setup``: the one in use, or a new one after any edit.

        When only the force elements changed (a motor started or stopped, say),
        the new simulator goes on with the old one's velocities: the motion does
        not stop dead.
        """
        old = self.simulator
        if old is None or self._seen is None or self._seen != setup.linkage:
            old = None
        elif self._elements == setup.elements():
            return old
        sim = Simulator(
            setup.linkage,
            mode=setup.mode,
            step_size=setup.step_size,
            mass_distribution=setup.mass_distribution,
            gravity=setup.gravity,
        )
        sim.stop_at_singular = True  # the student picks the branch (session.branching)
        _add_elements(sim, setup)
        if old is not None and setup.mode == "dynamic":
            sim.set_velocity(old.velocities)
        self.simulator = sim
        self._seen = setup.linkage.copy()
        self._elements = setup.elements()
        self._aimed = None
        return sim

    def invalidate(self) -> None:
        """Forget the simulator (the model or the mode changed): the next frame builds one."""
        self.simulator = None
        self._seen = None
        self.unsettle()

    def set_parameter(self, name: str, value: float) -> None:
        """A motion parameter changed: effective at the next step, no rebuild, no restart."""
        planar = self._seen is None or self._seen.dim == 2
        if self.simulator is not None and (planar or name != "table_friction"):
            setattr(self.simulator, name, value)  # table friction is planar: none in space
        self.unsettle()

    def unsettle(self) -> None:
        """Something changed (target, parameters, model): the motion may go on."""
        self.settled = False
        self._still_frames = 0

    def idle(self, mode: str, target: Target | None, driven: bool = False) -> bool:
        """Whether a frame has nothing to do: kinematic, settled or with nothing to pull.

        ``driven``: motors run (they move a kinematic linkage without a target).
        """
        return mode == "kinematic" and ((target is None and not driven) or self.settled)

    # ---------------------------------------------------------------- frames
    def motion(self, setup: SimulatorSpec, ask: FrameAsk, view: ViewTransform) -> FrameStep:
        """One frame of the running motion toward ``ask.target``, and what it ends.

        Nothing steps when the frame is :meth:`idle`. A failed step ends the motion and
        says why (an ``error`` in :attr:`FrameStep.ends`): the frame loop goes on.
        """
        note = ""
        if ask.note and self._told != ask.table_friction:  # said once per value
            self._told, note = ask.table_friction, ask.note
        if self.idle(setup.mode, ask.target, setup.motors_on):
            done = FrameStep(None, "idle" if ask.target is None else ask.status, begun=False)
        else:
            try:
                done = self.frame(setup, ask.target, ask.dragging, view)
            except Exception as exc:  # noqa: BLE001 - a failed step must not kill the loop
                failed = (("error", f"motion stopped: {exc}"), ("running", False))
                return FrameStep(None, ask.status, ends=failed, message=note)
        return self._ends(done, setup, ask, note)

    def _ends(self, done: FrameStep, setup: SimulatorSpec, ask: FrameAsk, note: str) -> FrameStep:
        """``done`` with what it ends, and why.

        A step the simulator refused (too stiff for the time step, an overflow) stops the
        motion in either mode, a motor at a dead point the motors, with the simulator's
        reason; a kinematic motion ends when it settled (reached, blocked) or has nothing
        left to pull it, unless dragged; an attractor its joint reached is removed.
        """
        reason = None if self.simulator is None else self.simulator.blocked_reason
        message, ends = note, []
        stop_motors = setup.motors_on and done.status == "blocked"
        if stop_motors:
            message = f"motor blocked: {reason or 'a dead point'} (n reverses, o restarts)"
            ends.append(("motors_running", False))
        # stopping the motors changes the elements: the driver unsettles, the attractor pulls on
        settled = self.settled and not stop_motors
        pulled = ask.target is not None or (setup.motors_on and not stop_motors)
        attracted = setup.mode == "kinematic" and not ask.dragging and ask.target is not None
        if done.status == "refused":
            message = f"motion refused: {reason or 'no reason given'}"
            ends.append(("running", False))
        elif attracted and done.status == "reached target":
            message = ATTRACTOR_REACHED  # the 2007 program took the attractor away on arrival
            ends += [("attractor", None), ("running", False)]
        elif setup.mode == "kinematic" and not ask.dragging and (settled or not pulled):
            ends.append(("running", False))
        return done._replace(ends=tuple(ends), message=message)

    def blocked_reason(self, status: str) -> str:
        """The simulator's reason for a ``"blocked"`` status (a motor's dead point), else ``""``."""
        if status != "blocked" or self.simulator is None:
            return ""
        return self.simulator.blocked_reason or ""

    def frame(
        self, setup: SimulatorSpec, target: Target | None, dragging: bool, view: ViewTransform
    ) -> FrameStep:
        """One frame of motion toward ``target``; ``view`` turns pixel policies into lengths."""
        sim = self.current(setup)
        if target != self._aimed:
            if target is None:
                sim.release()
            else:
                sim.attract(target.vertex, target.point)
            self._aimed = target
        if setup.mode == "dynamic":
            sim.step(1)
            status = str(sim.status)
        else:
            motors = setup.motors_on and setup.drives.has_motors() and setup.linkage.dim == 2
            step = motor_step(setup) if motors else setup.step_size
            drag = target if dragging else None
            status = self._kinematic_steps(sim, step, drag, view, setup.max_step)
        P = np.asarray(sim.positions, dtype=np.float64)
        shift_px = view.length_to_pixel(np.abs(P - setup.linkage.vertices).max(initial=0.0))
        if setup.mode == "kinematic":
            self._note_stillness(shift_px, dragging)
        if shift_px == 0.0:
            return FrameStep(None, status)
        assert self._seen is not None
        step = P - setup.linkage.vertices
        self._seen.set_positions(P)
        return FrameStep(P, status, step)

    def _kinematic_steps(
        self,
        sim: Simulator,
        step_size: float,
        drag: Target | None,
        view: ViewTransform,
        max_step: float = math.inf,
    ) -> str:
        """Steps of one kinematic frame: several while dragging (``drag``: the pointer)."""
        # A drag must keep up with the pointer: steps of up to DRAG_STEP_PX on screen (the
        # projection keeps them exact); the attractor moves at step_size per frame. An
        # explicit max_step (the 2007 max-step) bounds both: a drag then lags the pointer.
        step = max(step_size, view.length_to_world(DRAG_STEP_PX)) if drag is not None else step_size
        step = min(step, max_step)
        if sim.step_size != step:
            sim.step_size = step
        t0 = self.clock()
        status = str(sim.status)
        gap, stalls = math.inf, 0
        for _ in range(DRAG_SUBSTEPS if drag is not None else 1):
            sim.step(1)
            status = str(sim.status)
            if status != "moved" or self.clock() - t0 > FRAME_BUDGET_S:
                break
            if drag is None:
                continue
            gap, before = _gap_px(sim, drag, view), gap
            if gap <= DRAG_REACH_PX:
                self.settled = True  # until the pointer moves again
                break
            # Off the reachable set (the pointer beside a Peaucellier's line) the gap stops
            # shrinking: steps that bring the joint closer by an invisible amount would use
            # the whole budget on every frame. The next frame steps again (not settled).
            stalls = stalls + 1 if before - gap < DRAG_REACH_PX else 0
            if stalls >= DRAG_STALL_STEPS:
                break
        if status in ("reached target", "blocked", "singular"):
            self.settled = True  # singular: until a branch is picked (follow_branch)
        return status

    def follow_branch(self, line: int, sense: int) -> np.ndarray:
        """Leave the simulator's singular stop along branch ``line``; the new positions (n, 2).

        The simulator goes on (not rebuilt: the model is told its positions here).
        """
        sim = self.simulator
        if sim is None:
            raise ValueError("no motion under way: nothing stopped at a singular placement")
        sim.follow_branch(line, sense)
        P = np.asarray(sim.positions, dtype=np.float64)
        if self._seen is not None:
            self._seen.set_positions(P)
        self.unsettle()
        return P

    def _note_stillness(self, shift_px: float, dragging: bool) -> None:
        """Settle a kinematic motion that creeps by less than STILL_PX for STILL_FRAMES frames.

        Approaching the closest reachable point, the steps shrink geometrically
        and the simulator may keep reporting "moved": nothing visible happens,
        so stop spending the CPU on it.
        """
        self._still_frames = self._still_frames + 1 if shift_px < STILL_PX else 0
        if self._still_frames >= STILL_FRAMES and not dragging:
            self.settled = True


def motor_step(setup: SimulatorSpec) -> float:
    r"""Kinematic time step with motors: no motor's tip moves more than ``step_size`` per step.

    A kinematic motor turns by :math:`\omega h` per step (``h`` the simulator's
    step size); its tip, at distance :math:`\ell` from the pivot, moves
    :math:`|\omega| \ell h`. So :math:`h = s / \max_k |\omega_k| \ell_k`, with
    :math:`s` the session's kinematic ``step_size`` (the same bound on a step as a
    pulled vertex has). A linear motor of speed :math:`v` moves its joint :math:`|v| h`.

    >>> from linkage_widget.model import Linkage
    >>> from linkage_widget.elements import Motor
    >>> link = Linkage([[0, 0], [2, 0]], rods=[(0, 1)], pinned=[0])
    >>> drives = Drives((Motor(0, 1, 2.0),))
    >>> motor_step(SimulatorSpec(link, (), "kinematic", 0.5, 0.0, 0.0, drives, True))
    0.125
    """
    P = setup.linkage.vertices
    d = setup.drives
    fastest = max(
        [abs(m.speed) * float(np.hypot(*(P[m.tip] - P[m.pivot]))) for m in d.motors]
        + [abs(m.speed) for m in d.linear_motors]
    )
    return setup.step_size / fastest if fastest > 0 else setup.step_size


def _add_elements(sim: Simulator, setup: SimulatorSpec) -> None:
    """Springs, loads, path forces and friction, torques, table friction and motors, into ``sim``.

    Each is added only when present, so a linkage without them steps exactly as before.
    A 3-D linkage gets no torques, motors or table friction: they are planar.
    """
    d = setup.drives
    sim.add(*setup.springs, *d.loads, *d.forces, *d.frictions, *d.slider_frictions)
    if setup.linkage.dim != 2:
        return
    sim.add(*d.torques)  # a torque about a joint is planar (in space: HingeTorque)
    if setup.table_friction:
        sim.table_friction = setup.table_friction
    if setup.motors_on:
        sim.add(*d.motors, *d.linear_motors)


def _gap_px(sim: Simulator, drag: Target, view: ViewTransform) -> float:
    """Screen distance from the dragged vertex to the pointer's world position."""
    p = sim.positions[drag.vertex]
    dist = np.hypot(p[0] - drag.x, p[1] - drag.y)
    if drag.z is not None:  # a 3-D joint's distance to its target in space
        dist = np.hypot(dist, p[2] - drag.z)
    gap = view.length_to_pixel(dist)
    return gap if math.isfinite(gap) else math.inf
