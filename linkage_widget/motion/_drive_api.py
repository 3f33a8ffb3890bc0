r"""The public drive-and-load methods of :class:`~linkage_widget.motion.Simulator`.

A mixin of the facade (kept apart so that each module stays short): it validates
everything before it changes anything, and assigns state only in
:meth:`DriveMixin._drive_step`, the driven counterpart of the facade's step.

Units and signs: angles in radians, counter-clockwise positive; speeds in radians
per unit time (dynamic: seconds; kinematic: see :meth:`DriveMixin.add_motor`);
forces in the simulator's force units (mass × length / s²); torques force × length,
counter-clockwise positive; expansile (pushing apart) forces positive, as in
sympy.physics.mechanics.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from .. import _checks
from ..springs import Spring
from ._actuators import (
    ForceActuator,
    JointLoad,
    TorqueActuator,
    element_forces,
    element_potential,
)
from ._drive_step import Context, dynamic_drive_step, kinematic_motor_step
from ._drives import Actuators, Motor
from ._friction import PathFriction, StickState, path_speeds
from ._reactions import ConstraintForces, FrictionInput, reactions
from ._setup import Setup
from .tolerances import REST_SPEED

__all__ = ["DriveMixin"]


class DriveMixin:
    """Motors, torque and force actuators, friction, constraint forces (see the module)."""

    # provided by the facade
    _n: int
    _dim: int  # 2 in the plane, 3 in space
    _p: np.ndarray
    _v: np.ndarray
    _time: float
    _mode: str
    _status: str
    _gravity: float
    _step_size: float
    _actuators: Actuators
    _stick: StickState
    _reason: str | None
    _reaction_memo: tuple[Any, ...] | None
    _alpha: float
    _total_mass: float
    _damping: float
    _k_att: float
    _c_att: float
    _attractor: tuple[int, np.ndarray] | None
    _springs: list[Spring]

    def _planar(self, what: str) -> None:
        """Refuse an element that is planar on a 3-D linkage, naming it; nothing changes."""
        if getattr(self, "_dim", 2) != 2:
            raise NotImplementedError(
                f"{what} is planar: not implemented for a 3-D linkage (in space the "
                "simulator has the attractor, gravity along -z, springs, dampers and "
                "global damping)"
            )

    def _current_setup(self) -> Setup:  # pragma: no cover - the facade's
        raise NotImplementedError

    def _forces(self) -> Any:  # pragma: no cover - the facade's
        raise NotImplementedError

    # ---------------------------------------------------------------- motors
    @property
    def motors(self) -> tuple[Motor, ...]:
        """The motors, in the order of :attr:`motor_torques`."""
        return tuple(self._actuators.motors)

    def add_motor(
        self, pivot: int, tip: int, speed: float, *, reference: tuple[int, int] | None = None
    ) -> int:
        r"""Turn the rod ``pivot``→``tip`` at ``speed``; return the motor's index.

        An exact rheonomic constraint: the angle of :math:`p_{tip} - p_{pivot}`
        relative to the ground x-axis (or to the rod ``reference = (r0, r1)``, the
        angle of :math:`p_{r_1} - p_{r_0}`) is :math:`\theta_0 + \omega (t - t_0)`,
        :math:`\theta_0` its angle now, :math:`t_0` the time now, ``speed``
        :math:`\omega` in radians per unit time (counter-clockwise positive).
        Dynamic mode: the angle holds to round-off whatever the loads, and the motor
        exerts the torque :attr:`motor_torques` (it does work at the rate
        :math:`\tau\omega`: the mechanical energy is not conserved while it drives).
        Kinematic mode: each step turns it by
        ``speed * step_size`` and advances :attr:`time` by ``step_size`` (while a
        motor exists; without motors a kinematic step counts one), the rest following
        the least-kinetic-energy motion, and the attractor is not used.

        Raises ``ValueError`` (the simulator unchanged) for an unknown vertex, a rod
        that does not exist, a rod with both ends pinned (it cannot turn), a motor on
        its own reference, or a non-finite speed.
        """
        self._planar("a motor")
        row = self._motor_row(pivot, tip, reference)
        speed = _checks.finite(speed, "motor speed")
        pts = self._p.reshape(-1, 2)
        d = pts[row[1]] - pts[row[0]]
        theta = math.atan2(d[1], d[0])
        if row[2] >= 0:
            r = pts[row[3]] - pts[row[2]]
            theta = math.remainder(theta - math.atan2(r[1], r[0]), 2.0 * math.pi)
        ref = None if row[2] < 0 else (row[2], row[3])
        self._actuators.motors.append(Motor(row[0], row[1], speed, ref, theta - speed * self._time))
        self._after_change(project=True)
        return len(self._actuators.motors) - 1

    def _motor_row(self, pivot: Any, tip: Any, reference: Any) -> tuple[int, int, int, int]:
        """Validated ``(pivot, tip, r0, r1)``; refuses what a motor cannot drive."""
        c = _checks.vertex_index(pivot, self._n, "motor pivot")
        t = _checks.vertex_index(tip, self._n, "motor tip")
        linkage = self._current_setup().linkage
        rods = {frozenset(r) for r in linkage.rods}
        if frozenset((c, t)) not in rods:
            raise ValueError(f"motor: there is no rod {c}-{t} to turn")
        pinned = set(linkage.pinned)
        if reference is None and c in pinned and t in pinned:
            raise ValueError(f"motor: rod {c}-{t} has both ends pinned; it cannot turn")
        if reference is None:
            return (c, t, -1, -1)
        r0 = _checks.vertex_index(reference[0], self._n, "motor reference")
        r1 = _checks.vertex_index(reference[1], self._n, "motor reference")
        if frozenset((r0, r1)) not in rods:
            raise ValueError(f"motor reference: there is no rod {r0}-{r1}")
        if frozenset((r0, r1)) == frozenset((c, t)):
            raise ValueError(f"motor: rod {c}-{t} cannot turn relative to itself")
        if {c, t, r0, r1} <= pinned:
            raise ValueError(f"motor: rods {c}-{t} and {r0}-{r1} are pinned; they cannot turn")
        return (c, t, r0, r1)

    def remove_motor(self, index: int) -> None:
        """Remove motor ``index`` (later ones shift down)."""
        k = _checks.item_index(index, len(self._actuators.motors), "motor", "motors")
        del self._actuators.motors[k]
        self._after_change(project=False)

    @property
    def motor_angles(self) -> np.ndarray:
        """Each motor's current angle (radians, unwrapped), shape ``(k,)``."""
        if not self._actuators.motors:
            return np.zeros(0)
        setup = self._drive_setup().at_time(self._time)
        return setup.constraints.drives.motor_angles(self._p.reshape(-1, 2))

    @property
    def motor_torques(self) -> np.ndarray:
        r"""Torque each motor exerts on its rod (counter-clockwise positive), shape ``(k,)``.

        From the constraint multipliers (:attr:`constraint_forces`); the reaction
        :math:`-\tau` acts on the reference rod or the ground.
        """
        return self.constraint_forces.motors

    @property
    def blocked_reason(self) -> str | None:
        """Why the last step was ``"blocked"`` by a motor, or ``"refused"`` (else ``None``)."""
        return self._reason

    # ----------------------------------------------------------- force elements
    @property
    def springs(self) -> list[Spring]:
        """The springs/dampers between vertex pairs (a copy; use add/remove to change)."""
        return list(self._springs)

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
        r"""Add a :class:`~linkage_widget.springs.Spring` between ``i`` and ``j``; return its index.

        ``rest_length`` defaults to the current distance. A ``DuffingSpring``:
        expansile force :math:`-(k x + \beta x^3)`, :math:`\beta` = ``nonlinear_stiffness``,
        energy :math:`\tfrac12 k x^2 + \tfrac14 \beta x^4`. Dynamic mode only.
        """
        i = _checks.vertex_index(i, self._n, "i")
        j = _checks.vertex_index(j, self._n, "j")
        if rest_length is None:
            pts = self._p.reshape(-1, self._dim)
            rest_length = float(_checks.row_norms(pts[[i]] - pts[[j]])[0])
        self._springs.append(Spring(i, j, stiffness, rest_length, damping, nonlinear_stiffness))
        return len(self._springs) - 1

    def remove_spring(self, index: int) -> None:
        """Remove the spring with index ``index`` (later ones shift down)."""
        index = int(index)
        if not 0 <= index < len(self._springs):
            count = len(self._springs)
            raise IndexError(f"spring {index} out of range (there are {count} springs)")
        del self._springs[index]

    @property
    def actuators(self) -> tuple[Any, ...]:
        """The torque and force actuators and joint loads, in the order they were added."""
        return tuple(self._actuators.elements)

    def add_torque(
        self,
        pivot: int,
        tip: int,
        torque: float | Callable[[float, float, float], float],
        *,
        reference: tuple[int, int] | None = None,
    ) -> int:
        r"""A ``TorqueActuator`` on the rod ``pivot``→``tip`` about ``pivot``; return its index.

        ``torque`` (counter-clockwise positive) is a number or a callable
        ``torque(time, angle, angular_speed)`` of the rod's angle relative to the
        reference (radians in :math:`(-\pi, \pi]`) and its rate. It acts as the
        couple :math:`\pm T J d/|d|^2` on tip and pivot, the reaction on the rod
        ``reference`` or the ground. Dynamic mode; not conservative (no potential).
        """
        self._planar("a torque actuator")
        c, t, r0, r1 = self._motor_row(pivot, tip, reference)
        value = _checks.magnitude(torque, "torque")
        element = TorqueActuator(c, t, value, None if r0 < 0 else (r0, r1))
        self._add_element(element)
        return len(self._actuators.elements) - 1

    def add_force(self, i: int, j: int, force: float | Callable[[float, float], float]) -> int:
        """A ``ForceActuator`` along the pathway ``i``–``j``; return its index.

        ``force`` is expansile (positive pushes ``i`` and ``j`` apart): a number or a
        callable ``force(length, extension_velocity)``. Dynamic mode; no potential.
        """
        self._planar("a force actuator")
        i = _checks.vertex_index(i, self._n, "force i")
        j = _checks.vertex_index(j, self._n, "force j")
        if i == j:
            raise ValueError(f"a force actuator needs two distinct vertices, got {i} twice")
        self._add_element(ForceActuator(i, j, _checks.magnitude(force, "force")))
        return len(self._actuators.elements) - 1

    def add_load(self, vertex: int, force: Any) -> int:
        r"""A constant load ``force = (fx, fy)`` on ``vertex``; return its actuator index.

        The load of statics (:func:`~linkage_widget.static_forces`) acting in the
        motion: a conservative force with potential :math:`-f \cdot p_v`, which
        :meth:`potential_energy` includes. Dynamic mode (kinematic steps follow the
        attractor or the motors and ignore forces).
        """
        self._planar("a joint load")
        v = _checks.vertex_index(vertex, self._n, "load vertex")
        fx, fy = _checks.finite_point(force, "load force")
        self._add_element(JointLoad(v, float(fx), float(fy)))
        return len(self._actuators.elements) - 1

    def _load_potential(self) -> float:
        """Potential energy of the joint loads at the current positions."""
        return element_potential(tuple(self._actuators.elements), self._p)

    def _add_element(self, element: Any) -> None:
        """Try ``element`` at the current state (a bad callable fails now), then keep it."""
        element_forces((element,), self._p, self._v, self._time)
        self._actuators.elements.append(element)
        self._after_change(project=False)

    def remove_actuator(self, index: int) -> None:
        """Remove torque/force actuator ``index`` (later ones shift down)."""
        k = _checks.item_index(index, len(self._actuators.elements), "actuator", "actuators")
        del self._actuators.elements[k]
        self._after_change(project=False)

    # ----------------------------------------------------------------- friction
    @property
    def frictions(self) -> tuple[PathFriction, ...]:
        """The friction elements along pathways."""
        return tuple(self._actuators.frictions)

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
        r"""``CoulombKineticFriction`` along the pathway ``i``–``j`` with a stick phase.

        ``normal_force`` :math:`N \ge 0`, coefficients ``mu_k`` and ``mu_s`` (default
        ``mu_k``, :math:`\mu_s \ge \mu_k \ge 0`), Stribeck speed ``v_s > 0`` (``None``:
        no Stribeck term), viscous ``sigma >= 0``. See
        :mod:`~linkage_widget.motion._friction` for the stick phase. An element whose
        pathway is not moving starts stuck;
        one along a rod or between two pinned joints never acts (nothing slides).
        Dynamic mode; dissipative.
        """
        self._planar("pathway friction")
        i = _checks.vertex_index(i, self._n, "friction i")
        j = _checks.vertex_index(j, self._n, "friction j")
        if i == j:
            raise ValueError(f"friction needs two distinct vertices, got {i} twice")
        normal = _checks.non_negative(normal_force, "friction normal_force")
        mu_k = _checks.non_negative(mu_k, "friction mu_k")
        mu_s = mu_k if mu_s is None else _checks.non_negative(mu_s, "friction mu_s")
        if mu_s < mu_k:
            raise ValueError(f"friction mu_s ({mu_s}) must be at least mu_k ({mu_k})")
        v_s = None if v_s is None else _checks.positive(v_s, "friction v_s")
        sigma = _checks.non_negative(sigma, "friction sigma")
        setup = self._current_setup()
        rods = {frozenset(r) for r in setup.linkage.rods}
        # a rod, or two supports, keep the length: nothing slides
        rigid = frozenset((i, j)) in rods or bool(setup.pinned[i] and setup.pinned[j])
        self._actuators.frictions.append(PathFriction(i, j, normal, mu_k, mu_s, v_s, sigma, rigid))
        self._after_change(project=False)
        return len(self._actuators.frictions) - 1

    def remove_friction(self, index: int) -> None:
        """Remove friction element ``index`` (later ones shift down)."""
        k = _checks.item_index(index, len(self._actuators.frictions), "friction", "frictions")
        del self._actuators.frictions[k]
        self._after_change(project=False)

    @property
    def table_friction(self) -> float:
        r"""Coulomb friction :math:`\mu \ge 0` of every unpinned joint on the table.

        Normal force :math:`N_i = m_i |g|` (:math:`m_i` the joint's lumped mass), or
        :math:`m_i \cdot 1` when :math:`g = 0`; a joint that stops is held like a pin
        until the force on it exceeds :math:`\mu N_i`. Dynamic mode; dissipative.
        """
        return self._actuators.table

    @table_friction.setter
    def table_friction(self, value: float) -> None:
        self._actuators.table = self._checked_table(value)
        self._after_change(project=False)

    def _checked_table(self, value: Any) -> float:
        """``table_friction`` checked: a number >= 0, and 0 for a 3-D linkage."""
        value = _checks.non_negative(value, "table_friction")
        if value > 0.0:
            self._planar("table friction")
        return value

    # ---------------------------------------------------------- forces, accelerations
    @property
    def constraint_forces(self) -> ConstraintForces:
        """The constraint forces at the current state (signs: :class:`ConstraintForces`).

        Dynamic mode: from the acceleration-level equations at the state. Kinematic
        mode: the same with zero velocities (quasi-static: for a mechanism its motors
        drive fully, the static balance of gravity, springs and loads).
        """
        return self._reactions()[0]

    @property
    def accelerations(self) -> np.ndarray:
        """Accelerations at the current state, shape ``(n, dim)`` (kinematic mode: from rest)."""
        return self._reactions()[1].reshape(-1, self._dim)

    def _reactions(self) -> tuple[ConstraintForces, np.ndarray]:
        key = (self._p, self._v, self._time, self._mode, len(self._actuators.motors))
        memo, parameters = self._reaction_memo, self._force_parameters()
        if (
            memo is not None
            and all(a is b for a, b in zip(memo[0], key, strict=True))
            and memo[2] == parameters
        ):
            return memo[1]
        if self._mode == "dynamic":
            v, state = self._v, self._stick
        else:  # quasi-static: at rest, and friction (a dynamic-mode force) holds nothing
            v, state = (
                np.zeros_like(self._v),
                StickState.free(len(self._actuators.frictions), self._n),
            )
        ctx = self._context()
        setup = self._actuators.setup(ctx.base, self._p, state)
        friction = None
        if self._mode == "dynamic" and self._dim == 2:  # friction is planar
            act = self._actuators
            limits = act.normal_forces(ctx.base.metric, self._gravity) * act.table * ~ctx.pinned
            friction = FrictionInput(tuple(act.frictions), state, limits)
        forces = ctx.forces_for(setup, state)
        out = reactions(setup, forces, self._p, v, self._time, friction)
        self._reaction_memo = (key, out, parameters)
        return out

    def _force_parameters(self) -> tuple[Any, ...]:
        """What the forces depend on besides the state and the actuators (a memo key).

        Gravity, masses, damping, the attractor and the springs change without a step;
        the constraint forces at the same state must follow them.
        """
        att = self._attractor
        target = None if att is None else (att[0], *(float(c) for c in att[1]))
        return (
            self._gravity,
            self._alpha,
            self._total_mass,
            self._damping,
            self._k_att,
            self._c_att,
            target,
            tuple(self._springs),
        )

    # ------------------------------------------------------------------ helpers
    def _context(self) -> Context:
        setup = self._current_setup()
        return Context(setup, self._actuators, self._forces(), setup.pinned, self._gravity)

    def _drive_setup(self) -> Setup:
        return self._actuators.setup(self._current_setup(), self._p, self._stick)

    def _after_change(self, *, project: bool) -> None:
        """Refresh the stick state (and the velocities onto new motor rows) after an edit."""
        self._reaction_memo = None
        if project and self._n:  # onto the motor rows first: what a motor moves slides
            setup = self._actuators.setup(self._current_setup(), self._p, None)
            setup = setup.at_time(self._time)
            b = setup.constraints.velocity_target()
            self._v = setup.mass_factor(self._p).minimize(setup.metric.matrix @ self._v, b)
        self._stick = self._rest_state(self._v)

    def _rest_state(self, v: np.ndarray) -> StickState:
        """Elements at rest stick, the others slide (friction starts from the state)."""
        act, setup = self._actuators, self._current_setup()
        state = StickState.free(len(act.frictions), self._n)
        rest = REST_SPEED * setup.constraints.length_scale
        u = path_speeds(tuple(act.frictions), self._p, v)
        paths = (np.abs(u) <= rest) & np.array([f.limit > 0 for f in act.frictions], dtype=bool)
        joints = np.zeros(self._n, dtype=bool)
        if act.table > 0.0:
            vel = v.reshape(-1, 2)
            joints = ~setup.pinned & (np.hypot(vel[:, 0], vel[:, 1]) <= rest)
        return state.stuck_at(tuple(act.frictions), self._p, paths, joints)

    def _drive_step(self) -> None:
        """One driven step (motors, actuators, friction); the only place it assigns state."""
        h, t = self._step_size, self._time
        if self._mode == "kinematic":
            # friction is a dynamic-mode force: nothing sticks in kinematic mode
            setup = self._actuators.setup(self._current_setup(), self._p, None)
            q = kinematic_motor_step(setup, self._p, t, h)
            self._reason = None if q is not None else self._blocked_text(t)
            self._v = q - self._p if q is not None else np.zeros(2 * self._n)
            self._status = "moved" if q is not None else "blocked"
            self._p = self._p if q is None else q
            self._time = t + (h if q is not None else 0.0)
            return
        out = dynamic_drive_step(self._context(), self._p, self._v, t, h, self._stick)
        self._p, self._v, self._status, self._reason = out.p, out.v, out.status, out.reason
        self._stick = out.state
        self._time = t + (0.0 if out.reason is not None else h)

    def _blocked_text(self, t: float) -> str:
        motors = ", ".join(f"{k} (rod {m.pivot}->{m.tip})" for k, m in enumerate(self.motors))
        return (
            f"motor {motors} cannot turn past time {t:.6g}: the linkage is at a dead point "
            "(a rocker at its limit, or locked), where no motion turns the rod further"
        )
