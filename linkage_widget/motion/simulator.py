"""The :class:`Simulator` facade: the one place that assigns a motion's state (maths: the package).

It holds values (the state, the :class:`~._element_set.ElementSet`, the attractor, the parameters)
and two objects returning values from them, :class:`~._inputs.Stepping` and the branch watch.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .. import _checks
from ..constraints import ConstraintSet, as_flat
from ..elements import LinearMotor, Motor, PathFriction, Spring
from ..model import Linkage
from . import _element_checks, _element_set
from ._branches import BranchWatch, branch_velocity
from ._element_set import ElementSet, RunningMotor, RunningPush
from ._friction import FrictionPath
from ._inputs import MODES, STATUSES, Inputs, Stepping
from ._parameters import Parameter
from ._reactions import ConstraintForces
from ._setup import State, mode_error, read_only
from ._stiffness import StepRefused
from .tolerances import ATTRACTOR_DAMPING, ATTRACTOR_STIFFNESS

__all__ = ["MODES", "STATUSES", "Simulator"]


class Simulator:
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
        self._n, self._dim = linkage.n_vertices, linkage.dim  # 2 in the plane, 3 in space
        # the checks in this order: table friction, mode, then the parameters one by one
        self._elements = ElementSet(table=_element_checks.checked_table(self._dim, table_friction))
        if mode not in MODES:
            raise mode_error(mode, MODES)
        self._parameters: dict[str, float] = {}  # the Parameter values
        self.step_size, self.mass_distribution = step_size, mass_distribution
        self.total_mass, self.gravity, self.damping = total_mass, gravity, damping
        self.attractor_stiffness, self.attractor_damping = ATTRACTOR_STIFFNESS, ATTRACTOR_DAMPING
        self._attractor: tuple[int, np.ndarray] | None = None
        self._mode = mode
        self._stepping = Stepping(linkage, self.mass_distribution, self.total_mass)
        self._branching = BranchWatch()  # the singular stops (its own memory)
        self._stick = _element_set.rest_state(self._elements, self._stepping.base, self._p, self._v)

    step_size = Parameter(_checks.positive, "Kinematic: a step's largest move; dynamic: time step.")
    mass_distribution = Parameter(_checks.unit_interval, "Hinge point masses (0) to rods (1).")
    total_mass = Parameter(_checks.positive, "Total mass :math:`m > 0`.")
    gravity = Parameter(_checks.finite, "Acceleration :math:`g` (toward -y, in space -z, if > 0).")
    damping = Parameter(_checks.non_negative, "Viscous damping rate: force :math:`-c M \\dot p`.")
    attractor_stiffness = Parameter(_checks.non_negative, "Attractor spring (force/length).")
    attractor_damping = Parameter(_checks.non_negative, "Attractor damper (force/speed).")

    def _inputs(self) -> Inputs:
        """What a step reads besides the state, as it is set now."""
        return Inputs(self._elements, self._attractor, **self._parameters)

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
            self._refresh(project=value == "dynamic" and self._elements.drives_motion("kinematic"))
        self._mode = value

    @property
    def positions(self) -> np.ndarray:
        """Current positions, ``(n, dim)`` (a read-only view; each step makes a new array)."""
        return read_only(self._p, self._dim)

    @property
    def velocities(self) -> np.ndarray:
        """Current velocities, ``(n, dim)`` (kinematic mode: last step's displacement)."""
        return read_only(self._v, self._dim)

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
    def constraints(self) -> ConstraintSet:
        """The constraints being enforced (targets from the linkage at construction)."""
        return self._stepping.base.constraints

    @property
    def attractor(self) -> tuple[int, tuple[float, ...]] | None:
        """``(vertex, (x, y))`` (``(x, y, z)`` in 3-D) of the attractor, or ``None``."""
        att = self._attractor
        return None if att is None else (att[0], tuple(float(c) for c in att[1]))

    def attract(self, vertex: int, target: Sequence[float]) -> None:
        """Pull ``vertex`` toward ``target = (x, y)`` (or ``(x, y, z)``) from the next step on."""
        self._attractor = self._stepping.attractor(self._attractor, vertex, target)

    def release(self) -> None:
        """Remove the attractor."""
        self._attractor = None

    @property
    def linkage(self) -> Linkage:
        """A new :class:`Linkage` with the simulator's current positions."""
        out = self._stepping.base.linkage.copy()
        out.set_positions(self.positions)
        return out

    def sync_to(self, linkage: Linkage) -> None:
        """Write the current positions into ``linkage`` (same number of vertices)."""
        linkage.set_positions(self.positions)

    def constraint_error(self) -> float:
        """Largest relative constraint residual (rod strain, angle radians, pin offset)."""
        return self._stepping.base.constraints.relative_error(self._p)

    def kinetic_energy(self) -> float:
        r""":math:`T = \tfrac12 \dot p^T M \dot p`."""
        return self._stepping.kinetic(self._inputs(), self._v)

    def potential_energy(self) -> float:
        r"""Gravity :math:`g(M e_{up})^T p`, springs, attractor, loads (friction & co.: none)."""
        return self._stepping.potential(self._inputs(), self._p)

    def set_velocity(self, velocity: Any) -> None:
        """Set the velocities ``(n, dim)``: the allowed ones nearest in the kinetic-energy norm."""
        v = self._stepping.velocity(velocity)
        if self._n == 0:
            return
        if self._elements.drives_motion("dynamic"):  # motor rows: A v = b; friction restarts
            self._v = v
            return self._refresh(project=True)
        self._v = self._stepping.allowed(self._inputs(), self._p, v)

    def step(self, n: int = 1) -> None:
        """Advance ``n`` steps; :attr:`status` reports the last one (the one place it is set)."""
        if (n := int(n)) < 0:
            raise ValueError(f"n must be non-negative, got {n}")
        self._reason = None
        self._stepping.forget()
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
            self._v = self._stepping.pin_exactly(self._p, self._v)  # pins without round-off

    def _state(self) -> State:
        return State(self._p, self._v, self._time, self._status, self._reason, self._stick)

    def _assign(self, s: State) -> None:
        self._p, self._v, self._time, self._status, self._reason, self._stick = s

    def _watched_step(self, s: State) -> tuple[State, bool]:
        """One step, cut back to a singular placement if it crossed one (the branch watch)."""
        held = self._branching.held(s, self._elements.motors)
        if held is not None:
            return held, False
        inputs, stepping, mode = self._inputs(), self._stepping, self._mode
        after = stepping.step(s, mode, inputs)
        view, energy_at = stepping.branch_view(mode, inputs), stepping.energy_at(mode, inputs)
        return self._branching.after_step(view, s, after, energy_at, stepping.measured(after))

    def add(self, *elements: Any) -> None:
        """Add force elements (:mod:`linkage_widget.elements`), as pymunk's ``Space.add``.

        All are checked before any is added; then each as its ``add_*`` method adds it.
        """
        at = (self._stepping.setup(self._inputs()), self._p, self._v, self._time, self._dim)
        kept = [_element_checks.checked(e, *at) for e in elements]
        for item in kept:
            self._elements = self._elements.added(item)
            if not isinstance(item, Spring):  # a spring is a force: nothing to refresh
                self._refresh(project=isinstance(item, RunningMotor | RunningPush))

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
        return len(self._elements.springs) - 1

    @property
    def springs(self) -> list[Spring]:
        """The springs/dampers between vertex pairs (a copy; use add/remove to change)."""
        return list(self._elements.springs)

    def remove_spring(self, index: int) -> None:
        """Remove the spring with index ``index`` (later ones shift down)."""
        self._elements = self._elements.without("springs", index)

    def add_motor(
        self, pivot: int, tip: int, speed: float, *, reference: tuple[int, int] | None = None
    ) -> int:
        r"""Turn the rod ``pivot``→``tip`` at ``speed`` (rad per unit time); return its index.

        An exact rheonomic row (relative to the rod ``reference``, default the ground;
        see :mod:`~linkage_widget.motion._element_set` for both modes). Raises ``ValueError``
        (the simulator unchanged) for what a motor cannot drive.
        """
        self.add(Motor(pivot, tip, speed, reference))
        return len(self._elements.motors) - 1

    def remove_motor(self, index: int) -> None:
        """Remove motor ``index`` (later ones shift down)."""
        self._elements = self._elements.without("motors", index)
        self._refresh(project=False)

    @property
    def motors(self) -> tuple[RunningMotor, ...]:
        """The motors, in the order of :attr:`motor_torques`."""
        return self._elements.motors

    def add_linear_motor(self, slider: int, speed: float) -> int:
        """Push slider ``slider``'s joint along its line at ``speed`` (a ``LinearMotor``); index."""
        self.add(LinearMotor(slider, speed))
        return len(self._elements.pushes) - 1

    @property
    def linear_motors(self) -> tuple[RunningPush, ...]:
        """The linear motors (:class:`~linkage_widget.elements.LinearMotor`), as ``pushes``."""
        return self._elements.pushes

    def remove_linear_motor(self, index: int) -> None:
        """Remove linear motor ``index`` (later ones shift down)."""
        self._elements = self._elements.without("pushes", index)
        self._refresh(project=False)

    @property
    def motor_angles(self) -> np.ndarray:
        """Each motor's current angle (radians, unwrapped), shape ``(k,)``."""
        return self._stepping.motor_angles(self._inputs(), self._p, self._stick, self._time)

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
        setup = self._stepping.setup(self._inputs())
        self.add(_element_checks.torque_actuator(setup, self._dim, pivot, tip, torque, reference))
        return len(self._elements.actuators) - 1

    def add_force(self, i: int, j: int, force: float | Callable[[float, float], float]) -> int:
        """A ``ForceActuator`` along ``i``–``j``: expansile ``force`` or ``force(length, rate)``."""
        self.add(_element_checks.force_actuator(self._n, i, j, force))
        return len(self._elements.actuators) - 1

    def add_load(self, vertex: int, force: Any) -> int:
        r"""A constant load ``force``, ``(fx, fy)`` (in space ``(fx, fy, fz)``), on ``vertex``.

        Statics' load (potential :math:`-f \cdot p_v`) in the motion; its actuator index.
        """
        self.add(_element_checks.joint_load(self._n, self._dim, vertex, force))
        return len(self._elements.actuators) - 1

    @property
    def actuators(self) -> tuple[Any, ...]:
        """The torque and force actuators and joint loads, in the order they were added."""
        return self._elements.actuators

    def remove_actuator(self, index: int) -> None:
        """Remove torque/force actuator ``index`` (later ones shift down)."""
        self._elements = self._elements.without("actuators", index)
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
        names = ("friction", "friction needs")
        i, j = _element_checks.pathway(self._n, i, j, *names)
        self.add(PathFriction(i, j, normal_force, mu_k, mu_s, v_s, sigma))
        return len(self._elements.frictions) - 1

    @property
    def frictions(self) -> tuple[FrictionPath, ...]:
        """The friction elements along pathways."""
        return self._elements.frictions

    def remove_friction(self, index: int) -> None:
        """Remove friction element ``index`` (later ones shift down)."""
        self._elements = self._elements.without("frictions", index)
        self._refresh(project=False)

    @property
    def table_friction(self) -> float:
        r"""Coulomb friction :math:`\mu \ge 0` of every unpinned joint on the table.

        Normal force :math:`N_i = m_i |g|` (:math:`m_i \cdot 1` when :math:`g = 0`); a
        stopped joint is held until the force on it exceeds :math:`\mu N_i`. Dynamic mode.
        """
        return self._elements.table

    @table_friction.setter
    def table_friction(self, value: float) -> None:
        self._elements = self._elements.with_table(_element_checks.checked_table(self._dim, value))
        self._refresh(project=False)

    @property
    def constraint_forces(self) -> ConstraintForces:
        """The constraint forces at the state (signs: :class:`ConstraintForces`).

        Kinematic mode: quasi-static (the same equations with zero velocities).
        """
        return self._stepping.reactions(self._state(), self._mode, self._inputs())[0]

    @property
    def accelerations(self) -> np.ndarray:
        """Accelerations at the current state, shape ``(n, dim)`` (kinematic mode: from rest)."""
        forces = self._stepping.reactions(self._state(), self._mode, self._inputs())
        return forces[1].reshape(-1, self._dim)

    @property
    def stop_at_singular(self) -> bool:
        """Whether the motion stops at singular placements (default ``True``).

        Off, it keeps to whatever branch its steps land on (as the 2007 program did);
        turning it off leaves a stop. See :mod:`~linkage_widget.motion._branches`.
        """
        return self._branching.enabled

    @stop_at_singular.setter
    def stop_at_singular(self, value: bool) -> None:
        self._branching.enable(value)

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
        view = self._stepping.branch_view(self._mode, self._inputs())
        return self._branching.branches(view, self._p, self._n)

    def follow_branch(self, k: int, sense: int = +1) -> None:
        """Leave a singular stop along branch line ``k`` in direction ``sense`` (+1 or -1).

        Raises ``ValueError`` (not at a stop, ``sense`` not ±1) or ``IndexError`` (no
        branch ``k``), the simulator unchanged (:mod:`~linkage_widget.motion._branches`).
        """
        view = self._stepping.branch_view(self._mode, self._inputs())
        d = self._branching.direction(view, self._p, k, sense, self._status)
        q, motors, energy = self._branching.follow(view, d, self._time)
        self._elements = self._elements.with_motors(motors)  # re-anchored where it turned them
        self._p, self._v = q, np.zeros(q.size)
        if self._mode == "dynamic":
            self._v = branch_velocity(self._stepping.setup(self._inputs()), q, d, energy)
        if self._elements.motors:  # the motors' speed on their new rows
            self._refresh(project=self._mode == "dynamic")
        self._status = "moved"

    def _refresh(self, *, project: bool) -> None:
        """Refresh the stick state (and the velocities onto new motor rows) after an edit."""
        at = (self._p, self._v, self._time)
        self._v, self._stick = self._stepping.restart(self._inputs(), *at, project=project)

    def __repr__(self) -> str:
        h, mode, status = self.step_size, self._mode, self._status
        return f"Simulator({self._n} vertices, {mode=}, step_size={h}, {status=})"
