"""The :class:`Simulator` facade: the one place that assigns a motion's state.

Steppers and the branch watcher return a :class:`~._setup.State` (as scipy's ``OdeSolver.step``);
the maths: :mod:`linkage_widget.motion`; the inputs: :class:`~._inputs.SimulatorInputs`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .. import _checks
from ..constraints import as_flat
from ..elements import Motor, PathFriction, Spring
from ..model import Linkage
from . import _drives
from ._actuators import TorqueActuator
from ._branches import BranchView, BranchWatch, branch_velocity
from ._drive_step import driven_step
from ._inputs import MODES, STATUSES, SimulatorInputs
from ._rattle import rattle_step
from ._reactions import ConstraintForces
from ._setup import State, mode_error
from ._stiffness import StepRefused, abs_max, honest_status

__all__ = ["MODES", "STATUSES", "Simulator"]


class Simulator(SimulatorInputs):
    r"""Kinematic (attractor) and dynamic motion of a linkage on its constraints.

    The simulator works on **its own copy** of the positions (the linkage passed in is
    never modified): :attr:`positions` is the live state, :attr:`linkage` a new
    :class:`~linkage_widget.model.Linkage` there, :meth:`sync_to` writes them into one.
    Constraint targets are those of the linkage when the simulator is built; after
    editing the linkage, build a new simulator (construction is cheap, :math:`O(n + m)`).

    Parameters
    ----------
    linkage : Linkage
        The mechanism; its current positions define the constraint targets.
    mode : {"kinematic", "dynamic"}
        Attractor-driven least-kinetic-energy motion, or Newtonian dynamics.
    step_size : float
        Kinematic: how far the pulled vertex moves in one step (world units; the
        projection changes that by a second-order amount). Dynamic: the time step in
        seconds (e.g. ``1/60``), split where a stiff spring or the attractor needs it.
    mass_distribution : float
        :math:`\alpha \in [0, 1]`: 0 puts all mass in the hinges, 1 in the rods
        (see :mod:`linkage_widget.mass`).
    total_mass : float
        :math:`m > 0`.
    gravity : float
        :math:`g`, world units per second squared; positive pulls toward :math:`-y` in
        the plane and :math:`-z` in space (the 3-D view's up). Dynamic mode only.
    damping : float
        Global viscous damping rate :math:`c \ge 0` (1/s): force :math:`-c M \dot p`,
        which slows the motion without changing its path. Dynamic mode only.
    table_friction : float
        Coulomb :math:`\mu \ge 0` of every joint on the table (:attr:`table_friction`).

    All parameters (and ``attractor_stiffness``, ``attractor_damping``) are attributes
    that may be set at any time (the widget's sliders do); they are validated and take
    effect on the next step. Setting :attr:`mode` resets the velocities to zero.

    Notes
    -----
    Kinematic mode: :attr:`time` counts steps (``step_size`` per step with motors),
    :attr:`velocities` is the last step's displacement, only the attractor or the motors
    drive (gravity, springs, damping, actuators, friction are dynamic-mode forces).

    Examples
    --------
    >>> from linkage_widget import Linkage
    >>> sim = Simulator(Linkage.load("peaucellier.txt"), step_size=5.0)
    >>> sim.attract(5, (128.0, 200.0))        # pull the output up its line
    >>> sim.step(100)
    >>> sim.status
    'reached target'
    >>> bool(abs(sim.positions[5, 0] - 128.0) < 1e-9), sim.constraint_error() < 1e-12
    (True, True)
    """

    def __init__(
        self,
        linkage: Linkage,
        mode: str = "kinematic",
        step_size: float = 1.0,
        mass_distribution: float = 0.0,
        total_mass: float = 1.0,
        gravity: float = 0.0,
        damping: float = 0.0,
        table_friction: float = 0.0,
    ) -> None:
        if not isinstance(linkage, Linkage):
            raise TypeError(f"linkage must be a Linkage, got {type(linkage).__name__}")
        self._p = as_flat(linkage.vertices).copy()
        self._v = np.zeros(self._p.size)
        self._time, self._status = 0.0, "idle"
        self._reason = None
        parameters = (step_size, mass_distribution, total_mass, gravity, damping)
        super().__init__(linkage, mode, parameters, table_friction)  # checks, in this order
        self._mode = mode
        self._branching = BranchWatch()  # the singular stops (its own memory)
        self._stick = _drives.rest_state(self._actuators, self._setup, self._p, self._v)

    @property
    def mode(self) -> str:
        """``"kinematic"`` or ``"dynamic"``; a change restarts from rest (motors at speed)."""
        return self._mode

    @mode.setter
    def mode(self, value: str) -> None:
        if value not in MODES:
            raise mode_error(value, MODES)
        if value != self._mode:  # from rest; motors turn (no hold)
            self._v = np.zeros(self._p.size)
            self._branching.leave()
            self._refresh(project=value == "dynamic" and bool(self._actuators.motors))
        self._mode = value

    @property
    def positions(self) -> np.ndarray:
        """Current positions, ``(n, dim)`` (a read-only view; each step makes a new array)."""
        view = self._p.reshape(-1, self._dim).view()
        view.flags.writeable = False
        return view

    @property
    def velocities(self) -> np.ndarray:
        """Current velocities, ``(n, dim)`` (kinematic mode: last step's displacement)."""
        view = self._v.reshape(-1, self._dim).view()
        view.flags.writeable = False
        return view

    @property
    def time(self) -> float:
        """Simulated time in seconds (dynamic mode); kinematic steps count one each."""
        return self._time

    @property
    def status(self) -> str:
        """Last step: "idle", "moved", "reached target", "blocked", "singular", "refused"."""
        return self._status

    @property
    def blocked_reason(self) -> str | None:
        """Why the last step was ``"blocked"`` by a motor, or ``"refused"`` (else ``None``)."""
        return self._reason

    @property
    def linkage(self) -> Linkage:
        """A new :class:`Linkage` with the simulator's current positions."""
        out = self._setup.linkage.copy()
        out.set_positions(self.positions)
        return out

    def sync_to(self, linkage: Linkage) -> None:
        """Write the current positions into ``linkage`` (same number of vertices)."""
        linkage.set_positions(self.positions)

    def constraint_error(self) -> float:
        """Largest relative constraint residual (rod strain, angle radians, pin offset)."""
        return self._setup.constraints.relative_error(self._p)

    def kinetic_energy(self) -> float:
        r""":math:`T = \tfrac12 \dot p^T M \dot p`."""
        return self._kinetic(self._v)

    def potential_energy(self) -> float:
        r"""Gravity :math:`g\,(M e_{up})^T p`, springs, attractor, joint loads :math:`-f \cdot p`.

        (Dampers, friction, actuators: no potential.)
        """
        return self._potential(self._p)

    def set_velocity(self, velocity: Any) -> None:
        """Set the velocities (``(n, dim)``), projected M-orthogonally onto the allowed motions.

        The allowed velocity nearest in the kinetic-energy norm.
        """
        v = np.asarray(velocity, dtype=np.float64)
        if v.shape not in ((self._n, self._dim), (self._p.size,)):
            raise ValueError(f"velocity must have shape ({self._n}, {self._dim}), got {v.shape}")
        v = v.reshape(-1)
        if not np.all(np.isfinite(v)):
            raise ValueError("velocity must be finite")
        if self._n == 0:
            return
        if self._actuators.drives_motion("dynamic"):  # motor rows: A v = b; friction restarts
            self._v = v
            return self._refresh(project=True)
        setup = self._current_setup()
        self._v = setup.mass_factor(self._p).minimize(setup.metric.matrix @ v)

    def step(self, n: int = 1) -> None:
        """Advance ``n`` steps; :attr:`status` reports the last one (the one place it is set)."""
        if (n := int(n)) < 0:
            raise ValueError(f"n must be non-negative, got {n}")
        self._reason = None
        self._reacted.clear()
        for _ in range(n):
            state = self._state()
            try:
                new, stopped = self._watched_step(state)
            except StepRefused as exc:  # the state as it was; the reason for the student
                self._assign(state._replace(status="refused", reason=str(exc)))
                return
            self._assign(new)
            if stopped:  # a stop: the friction starts afresh from rest
                self._refresh(project=False)
            self._v = self._setup.pin_exactly(self._p, self._v)  # pins without round-off

    def _state(self) -> State:
        return State(self._p, self._v, self._time, self._status, self._reason, self._stick)

    def _assign(self, s: State) -> None:
        self._p, self._v, self._time, self._status, self._reason, self._stick = s

    def _watched_step(self, s: State) -> tuple[State, bool]:
        """One step, cut back to a singular placement if it crossed one (the branch watch)."""
        held = self._branching.held(s, tuple(self._actuators.motors))
        if held is not None:
            return held, False
        after = self._one_step(s)
        return self._branching.after_step(self._branch_view(), s, after, self._energy_at)

    def _one_step(self, s: State) -> State:
        """One step of the mode's stepper, no singular watch; its status made honest."""
        with np.errstate(over="ignore", invalid="ignore"):  # an overflow is refused below
            new = self._stepper_step(s)
        meant = self.step_size * (1.0 if self._mode == "kinematic" else abs_max(new.v))
        scale = self._setup.constraints.length_scale
        return new._replace(status=honest_status(new.status, s.p, new.p, new.v, meant / scale))

    def _stepper_step(self, s: State) -> State:
        dt = 1.0 if self._mode == "kinematic" else self.step_size
        if self._n == 0:
            return s._replace(status="idle", time=s.time + dt)
        if self._actuators.drives_motion(self._mode):
            return driven_step(self._context(), s, self._mode, self.step_size)
        if self._mode == "kinematic":
            setup, att = self._current_setup(), self._attractor
            p, status = self._kinematic.step(setup, s.p, att, self.step_size)
            # the velocity of a kinematic step is its displacement
            v = p - s.p if p is not s.p else np.zeros(s.p.size)
            return s._replace(p=p, v=v, status=status, time=s.time + dt)
        # the dynamic step (RATTLE; its sub-steps and refusals: _stiffness)
        setup, forces = self._current_setup(), self._forces()
        p, v, status = rattle_step(setup, forces, s.p, s.v, self.step_size)
        return s._replace(p=p, v=v, status=status, time=s.time + dt)

    def add(self, *elements: Any) -> None:
        """Add force elements (:mod:`linkage_widget.elements`), as pymunk's ``Space.add``.

        All are checked before any is added; then each as its ``add_*`` method adds it.
        """
        at = (self._current_setup(), self._p, self._v, self._time, self._dim)
        kept = [_drives.checked(e, *at) for e in elements]
        for item in kept:
            if isinstance(item, Spring):
                self._springs.append(item)  # a force: nothing to refresh
            else:
                self._actuators.keep(item)
                self._refresh(project=isinstance(item, _drives.RunningMotor))

    def add_spring(
        self,
        i: int,
        j: int,
        stiffness: float,
        rest_length: float | None = None,
        damping: float = 0.0,
        *,
        nonlinear_stiffness: float = 0.0,
    ) -> int:
        r"""Add a :class:`~linkage_widget.elements.Spring` between ``i`` and ``j``; its index.

        ``rest_length`` defaults to the current distance (a ``DuffingSpring``; dynamic mode).
        """
        self.add(Spring(i, j, stiffness, rest_length, damping, nonlinear_stiffness))
        return len(self._springs) - 1

    def add_motor(
        self, pivot: int, tip: int, speed: float, *, reference: tuple[int, int] | None = None
    ) -> int:
        r"""Turn the rod ``pivot``→``tip`` at ``speed`` (rad per unit time); return its index.

        An exact rheonomic row (relative to the rod ``reference``, default the ground;
        see :mod:`~linkage_widget.motion._drives` for both modes). Raises ``ValueError``
        (the simulator unchanged) for what a motor cannot drive.
        """
        self.add(Motor(pivot, tip, speed, reference))
        return len(self._actuators.motors) - 1

    def remove_motor(self, index: int) -> None:
        """Remove motor ``index`` (later ones shift down)."""
        k = _checks.item_index(index, len(self._actuators.motors), "motor", "motors")
        del self._actuators.motors[k]
        self._refresh(project=False)

    @property
    def motor_angles(self) -> np.ndarray:
        """Each motor's current angle (radians, unwrapped), shape ``(k,)``."""
        if not self._actuators.motors:
            return np.zeros(0)
        setup = self._actuators.setup(self._current_setup(), self._p, self._stick)
        return setup.at_time(self._time).constraints.drives.motor_angles(self._p.reshape(-1, 2))

    @property
    def motor_torques(self) -> np.ndarray:
        """Torque each motor exerts on its rod (counter-clockwise > 0), ``(k,)``."""
        return self.constraint_forces.motors

    def add_torque(
        self,
        pivot: int,
        tip: int,
        torque: float | Callable[[float, float, float], float],
        *,
        reference: tuple[int, int] | None = None,
    ) -> int:
        r"""A ``TorqueActuator`` on the rod ``pivot``→``tip`` about ``pivot``; return its index.

        ``torque`` (counter-clockwise positive): a number or ``torque(time, angle,
        angular_speed)`` (:class:`~._actuators.TorqueActuator`). Dynamic mode.
        """
        _drives.planar(self._dim, "a torque actuator")
        c, t, r0, r1 = _drives.motor_row(self._current_setup(), pivot, tip, reference)
        value = _checks.magnitude(torque, "torque")
        self.add(TorqueActuator(c, t, value, None if r0 < 0 else (r0, r1)))
        return len(self._actuators.elements) - 1

    def add_force(self, i: int, j: int, force: float | Callable[[float, float], float]) -> int:
        """A ``ForceActuator`` along ``i``–``j``: expansile ``force`` or ``force(length, rate)``."""
        self.add(_drives.force_actuator(self._n, self._dim, i, j, force))
        return len(self._actuators.elements) - 1

    def add_load(self, vertex: int, force: Any) -> int:
        r"""A constant load ``force = (fx, fy)`` on ``vertex``; return its actuator index.

        Statics' load (potential :math:`-f \cdot p_v`) acting in the motion; dynamic mode.
        """
        self.add(_drives.joint_load(self._n, self._dim, vertex, force))
        return len(self._actuators.elements) - 1

    def remove_actuator(self, index: int) -> None:
        """Remove torque/force actuator ``index`` (later ones shift down)."""
        k = _checks.item_index(index, len(self._actuators.elements), "actuator", "actuators")
        del self._actuators.elements[k]
        self._refresh(project=False)

    def add_friction(
        self,
        i: int,
        j: int,
        normal_force: float,
        mu_k: float,
        *,
        mu_s: float | None = None,
        v_s: float | None = None,
        sigma: float = 0.0,
    ) -> int:
        r"""``CoulombKineticFriction`` along ``i``–``j`` with a stick phase; return its index.

        Parameters as :class:`~linkage_widget.elements.PathFriction`; the stick phase:
        :mod:`~linkage_widget.motion._friction`. Dynamic mode; dissipative.
        """
        _drives.planar(self._dim, "pathway friction")
        i = _checks.vertex_index(i, self._n, "friction i")
        j = _checks.vertex_index(j, self._n, "friction j")
        if i == j:
            raise ValueError(f"friction needs two distinct vertices, got {i} twice")
        self.add(PathFriction(i, j, normal_force, mu_k, mu_s, v_s, sigma))
        return len(self._actuators.frictions) - 1

    def remove_friction(self, index: int) -> None:
        """Remove friction element ``index`` (later ones shift down)."""
        k = _checks.item_index(index, len(self._actuators.frictions), "friction", "frictions")
        del self._actuators.frictions[k]
        self._refresh(project=False)

    @property
    def table_friction(self) -> float:
        r"""Coulomb friction :math:`\mu \ge 0` of every unpinned joint on the table.

        Normal force :math:`N_i = m_i |g|` (:math:`m_i \cdot 1` when :math:`g = 0`); a
        stopped joint is held until the force on it exceeds :math:`\mu N_i`. Dynamic mode.
        """
        return self._actuators.table

    @table_friction.setter
    def table_friction(self, value: float) -> None:
        self._actuators.table = _drives.checked_table(self._dim, value)
        self._refresh(project=False)

    @property
    def constraint_forces(self) -> ConstraintForces:
        """The constraint forces at the state (signs: :class:`ConstraintForces`).

        Kinematic mode: quasi-static (the same equations with zero velocities).
        """
        return self._reactions(self._state(), self._mode)[0]

    @property
    def accelerations(self) -> np.ndarray:
        """Accelerations at the current state, shape ``(n, dim)`` (kinematic mode: from rest)."""
        return self._reactions(self._state(), self._mode)[1].reshape(-1, self._dim)

    @property
    def stop_at_singular(self) -> bool:
        """Whether the motion stops at singular placements (default ``True``).

        Off, it keeps to whatever branch its steps land on (as the 2007 program did);
        turning it off leaves a stop. See :mod:`~linkage_widget.motion._branches`.
        """
        return self._branching.enabled

    @stop_at_singular.setter
    def stop_at_singular(self, value: bool) -> None:
        if not isinstance(value, bool | np.bool_):
            raise TypeError(f"stop_at_singular must be True or False, got {value!r}")
        self._branching.enable(bool(value))

    @property
    def singular_placement(self) -> np.ndarray | None:
        """The placement the :meth:`branches` belong to, ``(n, 2)``, or ``None``.

        For a pull blocked next to a singular placement, that placement (a little beyond).
        """
        return self._branching.placement(self._p, self.motors, self._dim)

    @property
    def singular(self) -> bool:
        """Whether the motion stopped at a singular placement (until a branch is followed).

        Status ``"singular"``, or ``"blocked"`` for a motor at a fold (its dead point).
        """
        return self._branching.singular(self._p, self.motors)

    def branches(self) -> np.ndarray:
        r"""Unit tangent directions of the branch lines through the placement, ``(k, n, 2)``.

        One per line of the tangent cone (motor rows left out), usable in both senses,
        orthogonal to the trivial motions; empty ``(0, n, 2)`` away from a stop.
        """
        return self._branching.branches(self._branch_view(), self._p, self._n)

    def follow_branch(self, k: int, sense: int = +1) -> None:
        """Leave a singular stop along branch line ``k`` in direction ``sense`` (+1 or -1).

        Raises ``ValueError`` (not at a stop, ``sense`` not ±1) or ``IndexError`` (no
        branch ``k``), the simulator unchanged (:mod:`~linkage_widget.motion._branches`).
        """
        if not self.singular:
            raise ValueError(
                f"follow_branch: the simulator is not at a singular placement (status "
                f"{self._status!r}); branches exist only where the motion stopped at one"
            )
        directions = self.branches()
        k = _checks.item_index(k, len(directions), "branch", "branches")
        if sense not in (1, -1):
            raise ValueError(f"follow_branch: sense must be +1 or -1, got {sense!r}")
        d = float(sense) * directions[k].reshape(-1)
        q, motors, energy = self._branching.follow(self._branch_view(), d, self._time)
        self._actuators.motors[:] = motors  # re-anchored where the branch turned them
        self._p, self._v = q, np.zeros(q.size)
        if self._mode == "dynamic":
            self._v = branch_velocity(self._current_setup(), q, d, energy)
        if self._actuators.motors:  # the motors' speed on their new rows
            self._refresh(project=self._mode == "dynamic")
        self._status = "moved"

    def _branch_view(self) -> BranchView:
        setup, act = self._current_setup(), self._actuators
        return BranchView(setup, act, self._mode, self.step_size, self._attractor, self._dim)

    def _energy_at(self, s: State, q: np.ndarray) -> float:
        """Kinetic energy the motion at ``s`` would have at ``q`` (energy balance of a step)."""
        if self._mode != "dynamic":
            return 0.0
        total = self._kinetic(s.v) + self._potential(s.p)
        return max(total - self._potential(q), 0.0)

    def _refresh(self, *, project: bool) -> None:
        """Refresh the stick state (and the velocities onto new motor rows) after an edit."""
        self._reacted.clear()
        if project and self._n:  # onto the motor rows first: what a motor moves slides
            setup = self._actuators.setup(self._current_setup(), self._p, None)
            setup = setup.at_time(self._time)
            b = setup.constraints.velocity_target()
            self._v = setup.mass_factor(self._p).minimize(setup.metric.matrix @ self._v, b)
        self._stick = _drives.rest_state(self._actuators, self._current_setup(), self._p, self._v)

    def __repr__(self) -> str:
        h, mode, status = self.step_size, self._mode, self._status
        return f"Simulator({self._n} vertices, {mode=}, step_size={h}, {status=})"
