r"""What a simulator's steps read besides its state, and the steps made from it.

:class:`Inputs` is a value: the :class:`~._element_set.ElementSet` (springs, motors,
actuators, friction), the attractor and the validated parameters, as the
:class:`~linkage_widget.motion.Simulator` has them set now (it builds one with
``Simulator._inputs()``). :class:`Stepping` is an object the simulator holds: built
from the linkage, no reference back. It keeps what outlives a call (the shared
:class:`~._setup.Setup` and its metric for the current masses, the kinematic stepper's
trust region, the last constraint forces) and, from a state and the inputs, returns
values: the setup and the forces they make, the next state of the mode's stepper
(scipy's ``OdeSolver.step`` contract), energies, the constraint forces, the velocities
and stick state an edit restarts from. The state (positions, velocities, time, status)
is assigned in ``simulator.py`` only.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any, NamedTuple

import numpy as np

from .. import _checks
from ..model import Linkage
from ._actuators import element_potential
from ._branches import BranchView, EnergyAt
from ._drive_step import Context, driven_step, reactions_at
from ._element_set import ElementSet, rest_state
from ._friction import StickState
from ._kinematic import KinematicStepper
from ._members import Members
from ._projection import held_residual, project
from ._rattle import Forces, SpringArrays, rattle_step
from ._reactions import ConstraintForces, ReactionMemo
from ._setup import Setup, State
from ._singular import Measured
from ._small import SmallLane
from ._stiffness import abs_max, honest_status

#: Relative energy a retaken (impact) step may gain: round-off.
ENERGY_ROUNDOFF = 1e-12

__all__ = ["MODES", "STATUSES", "Inputs", "Stepping"]

MODES = ("kinematic", "dynamic")
STATUSES = ("idle", "moved", "reached target", "blocked", "singular", "refused")


class Inputs(NamedTuple):
    """The elements, the attractor ``(vertex, target)`` and the parameters of a simulator."""

    elements: ElementSet
    attractor: tuple[int, np.ndarray] | None
    step_size: float
    mass_distribution: float
    total_mass: float
    gravity: float
    damping: float
    attractor_stiffness: float
    attractor_damping: float

    def forces(self, dim: int) -> Forces:
        """The applied forces as they are set now (the springs, gravity, the attractor)."""
        springs = self.elements.springs
        arrays = SpringArrays.from_springs(list(springs)) if springs else None
        k, c = self.attractor_stiffness, self.attractor_damping
        return Forces(self.gravity, self.damping, self.attractor, k, c, arrays, dim=dim)

    def reaction_key(self) -> tuple:
        """What the constraint forces depend on that changes without a step or an edit."""
        att = self.attractor
        target = None if att is None else (att[0], *(float(c) for c in att[1]))
        parameters = (self.gravity, self.mass_distribution, self.total_mass, self.damping)
        parameters += (self.attractor_stiffness, self.attractor_damping, target)
        return parameters + (self.elements.springs,)


class Stepping:
    """The steps of a simulator from its state and :class:`Inputs` (see the module)."""

    def __init__(self, linkage: Linkage, mass_distribution: float, total_mass: float) -> None:
        self._n, self._dim = linkage.n_vertices, linkage.dim  # 2 in the plane, 3 in space
        # What the steppers share (constraints, metric, factorisations); the kinematic
        # stepper keeps its own memory (trust region, blocked verdict).
        self._setup = Setup.build(linkage.copy(), mass_distribution, total_mass)
        self._kinematic = KinematicStepper()
        self._reacted = ReactionMemo()  # forgotten at each step and each edit
        self._members = Members.of(self._setup)  # cables and struts: None when all are rods
        self._small = SmallLane()  # the compiled step of a small linkage (._small)
        self._measured: tuple[np.ndarray | None, Measured | None] = (None, None)  # its last

    @property
    def base(self) -> Setup:
        """The setup as last built: its linkage, constraints and pins never change."""
        return self._setup

    def setup(self, inputs: Inputs) -> Setup:
        """The shared setup, with the metric of the current mass parameters."""
        self._setup = self._setup.with_mass(inputs.mass_distribution, inputs.total_mass)
        return self._setup

    def context(self, inputs: Inputs) -> Context:
        """What a driven step reads."""
        setup = self.setup(inputs)
        forces = inputs.forces(self._dim)
        return Context(setup, inputs.elements, forces, setup.pinned, inputs.gravity)

    def attractor(
        self, old: tuple[int, np.ndarray] | None, vertex: int, target: Sequence[float]
    ) -> tuple[int, np.ndarray]:
        """The attractor pulling ``vertex`` toward ``target`` (checked); ``old``: the one before."""
        s = _checks.vertex_index(vertex, self._n, "vertex")
        t = _checks.finite_point(target, "target", self._dim)
        if old is None or old[0] != s:  # a new pull: the kinematic trust region restarts
            self._kinematic.reset_trust()
        return s, t.copy()

    def forget(self) -> None:
        """Forget the constraint forces (a step begins)."""
        self._reacted.clear()

    def step(self, s: State, mode: str, inputs: Inputs) -> State:
        """One step of the mode's stepper from ``s``, no singular watch; its status made honest."""
        self._measured = (None, None)
        if mode == "kinematic" and (lane := self._small_step(s, inputs)) is not None:
            return lane
        with np.errstate(over="ignore", invalid="ignore"):  # an overflow is refused below
            new = self._stepper_step(s, mode, inputs)
        h = inputs.step_size
        meant = h * (1.0 if mode == "kinematic" else abs_max(new.v))
        scale = self._setup.constraints.length_scale
        return new._replace(status=honest_status(new.status, s.p, new.p, new.v, meant / scale))

    def _small_step(self, s: State, inputs: Inputs) -> State | None:
        """A kinematic pull on the small-linkage lane (:mod:`._small`), or ``None``.

        ``None`` when the lane does not take it: the general step then runs from the same
        state. The status is honest as it is (a step that moved); the lane's Jacobians
        are kept for the branch watch (:meth:`measured`).
        """
        att = inputs.attractor
        if att is None or self._members is not None or inputs.elements.drives_motion("kinematic"):
            return None
        taken = self._small.step(self.setup(inputs), self._kinematic, s.p, att, inputs.step_size)
        if taken is None:
            return None
        q, status, measured = taken
        self._measured = (q, measured)
        return State(q, q - s.p, s.time + 1.0, status, s.reason, s.stick)

    def measured(self, after: State) -> Measured | None:
        """The lane's Jacobians of the step that ended in ``after`` (``None``: not the lane's)."""
        return self._measured[1] if self._measured[0] is after.p else None

    def pin_exactly(self, p: np.ndarray, v: np.ndarray) -> np.ndarray:
        """Pinned joints bitwise at their anchors in ``p``, at rest in ``v`` (as the setup does)."""
        if self._measured[0] is p:  # the lane's step, its own arrays: in place
            self._small.pin(self._setup, p, v)
            return v
        return self._setup.pin_exactly(p, v)

    def _stepper_step(self, s: State, mode: str, inputs: Inputs) -> State:
        if self._n == 0:
            dt = 1.0 if mode == "kinematic" else inputs.step_size
            return s._replace(status="idle", time=s.time + dt)
        if self._members is None:
            return self._take(self.setup(inputs), s, mode, inputs)
        return self._member_step(self.setup(inputs), s, mode, inputs)

    def _take(
        self, setup: Setup, s: State, mode: str, inputs: Inputs, checked: bool = True
    ) -> State:
        """One step of the mode's stepper from ``s`` with ``setup``'s rows (``checked``: energy)."""
        dt = 1.0 if mode == "kinematic" else inputs.step_size
        if inputs.elements.drives_motion(mode):
            forces = inputs.forces(self._dim)
            ctx = Context(setup, inputs.elements, forces, setup.pinned, inputs.gravity)
            return driven_step(ctx, s, mode, inputs.step_size)
        if mode == "kinematic":
            p, status = self._kinematic.step(setup, s.p, inputs.attractor, inputs.step_size)
            # the velocity of a kinematic step is its displacement
            v = p - s.p if p is not s.p else np.zeros(s.p.size)
            return s._replace(p=p, v=v, status=status, time=s.time + dt)
        # the dynamic step (RATTLE; its sub-steps and refusals: _stiffness)
        forces = inputs.forces(self._dim)
        p, v, status = rattle_step(setup, forces, s.p, s.v, inputs.step_size, checked=checked)
        return s._replace(p=p, v=v, status=status, time=s.time + dt)

    def _member_step(self, base: Setup, s: State, mode: str, inputs: Inputs) -> State:
        """A step with cables and struts: the rows that hold chosen as :mod:`._members` says."""
        members = self._members
        assert members is not None
        take = partial(self._take, s=s, mode=mode, inputs=inputs)
        if mode == "kinematic":
            tensions = partial(self._drive_tensions, p=s.p, inputs=inputs)
            landed = partial(self._landed, s=s, inputs=inputs)
            return members.step(base, s, 0.0, take, tensions, landed)
        tensions = partial(self._force_tensions, s=s, inputs=inputs)
        if inputs.elements.drives_motion(mode):  # rows with targets: the step taken again
            retake = partial(self._take, s=s, mode=mode, inputs=inputs, checked=False)
            return members.step(base, s, inputs.step_size, take, tensions, lambda st, _: retake(st))
        return members.step(
            base, s, inputs.step_size, take, tensions, partial(self._impact, s=s, inputs=inputs)
        )

    def _impact(self, setup: Setup, new: State, s: State, inputs: Inputs) -> State:
        r"""The free step's end ``new`` with the members that went taut in it held (dynamic).

        Positions: ``new.p`` projected onto ``setup``'s rows, corrections in
        range(:math:`M^{-1}A^T`) (the rows' directions there). Velocities: ``new.v``
        projected in the mass metric, :math:`\min (u - v)^T M (u - v)` over
        :math:`A u = 0`, an orthogonal projection, so :math:`u^T M u \le v^T M v`: a
        perfectly inelastic impact. The guard: the energy may not rise across the step
        beyond round-off (the projection's lift against gravity is paid from the kinetic
        energy, which is scaled down; with too little of it the joints stop).
        """
        fac, floor = setup.factor(new.p), setup.roundoff(new.p)
        held = held_residual(setup, new.p, fac, floor)
        q, ok, _ = project(setup, new.p, fac, held, floor, allow_refactor=True)
        if not ok:  # no landing on the rows: the step taken again from its start
            return self._take(setup, s, "dynamic", inputs, checked=False)
        u, _ = setup.mass_factor(q).solve(setup.metric.matrix @ new.v)
        before = self.kinetic(inputs, s.v) + self.potential(inputs, s.p)
        kinetic, potential = self.kinetic(inputs, u), self.potential(inputs, q)
        excess = kinetic + potential - before
        if excess > ENERGY_ROUNDOFF * max(abs(before), kinetic, abs(potential), 1e-300):
            u = u * np.sqrt(max(kinetic - excess, 0.0) / kinetic) if kinetic > 0.0 else u
        return new._replace(p=q, v=u)

    def _force_tensions(self, setup: Setup, s: State, inputs: Inputs) -> tuple[np.ndarray, float]:
        """Member tensions at ``s`` (the exact multipliers) and the applied forces' size."""
        forces = inputs.forces(self._dim)
        ctx = Context(setup, inputs.elements, forces, setup.pinned, inputs.gravity)
        tension = reactions_at(ctx, s, "dynamic", self._dim)[0].rods
        return tension, abs_max(forces.conservative(setup.metric, s.p))

    def _drive_tensions(
        self, setup: Setup, p: np.ndarray, inputs: Inputs
    ) -> tuple[np.ndarray, float]:
        """Member forces resisting a unit pull of the attractor's joint (kinematic; else none).

        With motors every taut member is let go (a tension of the wrong sign): the
        motors' step then shows which ones they carry beyond their limit (the reach stage
        holds those), so a motor that shortens a cable turns and one that lengthens it
        is blocked.
        """
        m, att = len(setup.constraints.rods), inputs.attractor
        assert self._members is not None
        if inputs.elements.drives_motion("kinematic"):
            return -self._members.sides.astype(float), 1.0
        if att is None:
            return np.zeros(m), 1.0
        j, d = att[0], self._dim
        pull = att[1] - p[d * j : d * j + d]
        dist = float(np.linalg.norm(pull))
        if dist == 0.0:
            return np.zeros(m), 1.0
        f = np.zeros(p.size)
        f[d * j : d * j + d] = pull / dist
        _, lam = setup.mass_factor(p).solve(f)
        return self._members.tensions(setup, p, lam), 1.0

    def _landed(self, setup: Setup, new: State, s: State, inputs: Inputs) -> State:
        """A kinematic step's landing ``new`` projected onto ``setup``'s rows (a member holds).

        With motors their rows at the landing's time are held too (the motor angles).
        """
        if inputs.elements.drives_motion("kinematic"):
            ctx = Context(setup, inputs.elements, inputs.forces(self._dim), setup.pinned, 0.0)
            setup = ctx.setup(new.p, None).at_time(new.time)
        fac, floor = setup.factor(new.p), setup.roundoff(new.p)
        held = held_residual(setup, new.p, fac, floor)
        q, ok, _ = project(setup, new.p, fac, held, floor, allow_refactor=True)
        if not ok:  # the positions stay
            return new._replace(p=s.p, v=np.zeros(s.p.size), status="blocked")
        return new._replace(p=q, v=q - s.p, status="moved")

    def branch_view(self, mode: str, inputs: Inputs) -> BranchView:
        """What the branch watch reads."""
        setup, elements = self.setup(inputs), inputs.elements
        return BranchView(setup, elements, mode, inputs.step_size, inputs.attractor, self._dim)

    def kinetic(self, inputs: Inputs, v: np.ndarray) -> float:
        r""":math:`T = \tfrac12 v^T M v`."""
        return 0.5 * float(v @ (self.setup(inputs).metric.matrix @ v))

    def potential(self, inputs: Inputs, p: np.ndarray) -> float:
        """The potential energy at ``p`` (gravity, springs, attractor, joint loads)."""
        conservative = inputs.forces(self._dim).potential_energy(self.setup(inputs).metric, p)
        return conservative + element_potential(inputs.elements.actuators, p, self._dim)

    def energy_at(self, mode: str, inputs: Inputs) -> EnergyAt:
        """``energy_at(s, q)``: the kinetic energy the motion at ``s`` would have at ``q``."""

        def energy(s: State, q: np.ndarray) -> float:
            if mode != "dynamic":
                return 0.0
            total = self.kinetic(inputs, s.v) + self.potential(inputs, s.p)
            return max(total - self.potential(inputs, q), 0.0)

        return energy

    def reactions(self, s: State, mode: str, inputs: Inputs) -> tuple[ConstraintForces, np.ndarray]:
        """Constraint forces and accelerations at ``s``, remembered while it and the forces stay."""
        key = (s.p, s.v, s.time, mode, len(inputs.elements.motors), len(inputs.elements.pushes))
        return self._reacted.get(
            key,
            inputs.reaction_key(),
            lambda: reactions_at(self._holding(s, mode, inputs), s, mode, self._dim),
        )

    def _holding(self, s: State, mode: str, inputs: Inputs) -> Context:
        """The context at ``s`` with the cables and struts that hold there (all rows: rods)."""
        ctx = self.context(inputs)
        if self._members is None:
            return ctx
        if mode == "kinematic":  # quasi-static: the members' forces at rest
            s = s._replace(v=np.zeros(s.v.size))
        tensions = partial(self._force_tensions, s=s, inputs=inputs)
        slack = self._members.released(ctx.base, s.p, s.v, inputs.step_size, tensions)
        return ctx._replace(base=self._members.setup(ctx.base, slack))

    def velocity(self, velocity: Any) -> np.ndarray:
        """``velocity`` (``(n, dim)`` or flat) as a flat finite array, checked."""
        v = np.asarray(velocity, dtype=np.float64)
        n, dim = self._n, self._dim
        if v.shape not in ((n, dim), (n * dim,)):
            raise ValueError(f"velocity must have shape ({n}, {dim}), got {v.shape}")
        v = v.reshape(-1)
        if not np.all(np.isfinite(v)):
            raise ValueError("velocity must be finite")
        return v

    def allowed(self, inputs: Inputs, p: np.ndarray, v: np.ndarray) -> np.ndarray:
        """The allowed velocity at ``p`` nearest ``v`` in the kinetic-energy norm."""
        setup = self.setup(inputs)
        if self._members is not None:  # taut cables and struts: a cone of velocities
            return self._members.velocity(setup, p, v)
        return setup.mass_factor(p).minimize(setup.metric.matrix @ v)

    def motor_angles(self, inputs: Inputs, p: np.ndarray, stick: StickState, t: float):
        """Each motor's angle at ``p`` and time ``t`` (radians, unwrapped), ``(k,)``."""
        if not inputs.elements.motors:
            return np.zeros(0)
        setup = inputs.elements.setup(self.setup(inputs), p, stick)
        return setup.at_time(t).constraints.drives.motor_angles(p.reshape(-1, self._dim))

    def restart(
        self, inputs: Inputs, p: np.ndarray, v: np.ndarray, t: float, *, project: bool
    ) -> tuple[np.ndarray, StickState]:
        """Velocities and stick state after an edit (``project``: onto new motor rows)."""
        self._reacted.clear()
        if project and self._n:  # onto the motor rows first: what a motor moves slides
            setup = inputs.elements.setup(self.setup(inputs), p, None).at_time(t)
            b = setup.constraints.velocity_target()
            v = setup.mass_factor(p).minimize(setup.metric.matrix @ v, b)
        return v, rest_state(inputs.elements, self.setup(inputs), p, v)
