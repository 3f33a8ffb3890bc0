r"""What a simulator's steps read besides its state: the :class:`SimulatorInputs` base.

The linkage's :class:`~._setup.Setup` (constraints, metric, factorisations), the
validated parameters, the attractor and the force elements (springs, and the
:class:`~._drives.Actuators`: motors, actuators, friction). The base of
:class:`~linkage_widget.motion.Simulator`, apart because the class with its public
face does not fit one module: it owns these fields and assigns nothing else; the state
(positions, velocities, time, status) is the simulator's, assigned in ``simulator.py``
only, and never read here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import _checks
from ..constraints import ConstraintSet
from ..elements import Spring
from ..model import Linkage
from ._actuators import element_potential
from ._drive_step import Context, reactions_at
from ._drives import Actuators, RunningMotor, checked_table
from ._friction import FrictionPath
from ._kinematic import KinematicStepper
from ._parameters import Parameter
from ._rattle import Forces, SpringArrays
from ._reactions import ConstraintForces, ReactionMemo
from ._setup import Setup, State, mode_error
from .tolerances import ATTRACTOR_DAMPING, ATTRACTOR_STIFFNESS

__all__ = ["MODES", "STATUSES", "SimulatorInputs"]

MODES = ("kinematic", "dynamic")
STATUSES = ("idle", "moved", "reached target", "blocked", "singular", "refused")


class SimulatorInputs:
    """The setup, parameters, attractor and force elements of a simulator (see the module)."""

    def __init__(
        self,
        linkage: Linkage,
        mode: str,
        parameters: tuple[float, float, float, float, float],
        table_friction: float,
    ) -> None:
        """The setup; ``parameters``: step size, mass distribution and total, gravity, damping."""
        self._n, self._dim = linkage.n_vertices, linkage.dim  # 2 in the plane, 3 in space
        self._actuators = Actuators()  # motors, loads, friction
        self._actuators.table = checked_table(self._dim, table_friction)  # planar only
        self._attractor: tuple[int, np.ndarray] | None = None
        self._springs: list[Spring] = []
        if mode not in MODES:
            raise mode_error(mode, MODES)
        self._parameters: dict[str, float] = {}  # the Parameter values
        self.step_size, self.mass_distribution, self.total_mass = parameters[:3]
        self.gravity, self.damping = parameters[3:]
        self.attractor_stiffness = ATTRACTOR_STIFFNESS
        self.attractor_damping = ATTRACTOR_DAMPING
        # What the steppers share (constraints, metric, factorisations); the kinematic
        # stepper keeps its own memory (trust region, blocked verdict).
        self._setup = Setup.build(linkage.copy(), self.mass_distribution, self.total_mass)
        self._kinematic = KinematicStepper()
        self._reacted = ReactionMemo()  # cleared by the simulator at each change

    step_size = Parameter(_checks.positive, "Kinematic: a step's largest move; dynamic: time step.")
    mass_distribution = Parameter(_checks.unit_interval, "Hinge point masses (0) to rods (1).")
    total_mass = Parameter(_checks.positive, "Total mass :math:`m > 0`.")
    gravity = Parameter(_checks.finite, "Acceleration :math:`g` (toward -y, in space -z, if > 0).")
    damping = Parameter(_checks.non_negative, "Viscous damping rate: force :math:`-c M \\dot p`.")
    attractor_stiffness = Parameter(
        _checks.non_negative, "Attractor spring (force per length), dynamic mode."
    )
    attractor_damping = Parameter(
        _checks.non_negative, "Attractor damper (force per speed), dynamic mode."
    )

    @property
    def constraints(self) -> ConstraintSet:
        """The constraints being enforced (targets from the linkage at construction)."""
        return self._setup.constraints

    @property
    def attractor(self) -> tuple[int, tuple[float, ...]] | None:
        """``(vertex, (x, y))`` (``(x, y, z)`` in 3-D) of the attractor, or ``None``."""
        if self._attractor is None:
            return None
        s, t = self._attractor
        return s, tuple(float(c) for c in t)

    def attract(self, vertex: int, target: Sequence[float]) -> None:
        """Pull ``vertex`` toward ``target = (x, y)`` (or ``(x, y, z)``) from the next step on."""
        s = _checks.vertex_index(vertex, self._n, "vertex")
        t = _checks.finite_point(target, "target", self._dim)
        if self._attractor is None or self._attractor[0] != s:
            self._kinematic.reset_trust()
        self._attractor = (s, t.copy())

    def release(self) -> None:
        """Remove the attractor."""
        self._attractor = None

    @property
    def springs(self) -> list[Spring]:
        """The springs/dampers between vertex pairs (a copy; use add/remove to change)."""
        return list(self._springs)

    def remove_spring(self, index: int) -> None:
        """Remove the spring with index ``index`` (later ones shift down)."""
        index = int(index)
        if not 0 <= index < len(self._springs):
            count = len(self._springs)
            raise IndexError(f"spring {index} out of range (there are {count} springs)")
        del self._springs[index]

    @property
    def motors(self) -> tuple[RunningMotor, ...]:
        """The motors, in the order of :attr:`motor_torques`."""
        return tuple(self._actuators.motors)

    @property
    def actuators(self) -> tuple[Any, ...]:
        """The torque and force actuators and joint loads, in the order they were added."""
        return tuple(self._actuators.elements)

    @property
    def frictions(self) -> tuple[FrictionPath, ...]:
        """The friction elements along pathways."""
        return tuple(self._actuators.frictions)

    def _current_setup(self) -> Setup:
        """The shared setup, with the metric of the current mass parameters."""
        self._setup = self._setup.with_mass(self.mass_distribution, self.total_mass)
        return self._setup

    def _forces(self) -> Forces:
        """The applied forces as they are set now."""
        springs = SpringArrays.from_springs(self._springs) if self._springs else None
        k, c = self.attractor_stiffness, self.attractor_damping
        return Forces(self.gravity, self.damping, self._attractor, k, c, springs, dim=self._dim)

    def _context(self) -> Context:
        setup = self._current_setup()
        return Context(setup, self._actuators, self._forces(), setup.pinned, self.gravity)

    def _kinetic(self, v: np.ndarray) -> float:
        return 0.5 * float(v @ (self._current_setup().metric.matrix @ v))

    def _potential(self, p: np.ndarray) -> float:
        conservative = self._forces().potential_energy(self._current_setup().metric, p)
        return conservative + element_potential(tuple(self._actuators.elements), p)

    def _reactions(self, s: State, mode: str) -> tuple[ConstraintForces, np.ndarray]:
        """Constraint forces and accelerations at ``s``, remembered while it and the forces stay."""
        key = (s.p, s.v, s.time, mode, len(self._actuators.motors))
        att = self._attractor
        target = None if att is None else (att[0], *(float(c) for c in att[1]))
        # gravity, masses, damping, the attractor and the springs change without a step
        parameters = (self.gravity, self.mass_distribution, self.total_mass, self.damping)
        parameters += (self.attractor_stiffness, self.attractor_damping, target)
        parameters += (tuple(self._springs),)
        return self._reacted.get(
            key, parameters, lambda: reactions_at(self._context(), s, mode, self._dim)
        )
