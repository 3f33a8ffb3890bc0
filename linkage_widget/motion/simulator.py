r"""Motion of a linkage: the attractor-driven kinematic flow and constrained dynamics.

:class:`Simulator` owns a copy of the positions :math:`p \in \mathbb{R}^{dn}`, ``d = 2, 3``
(stacked ``x0, y0, (z0,) x1, ...``) and moves them on the constraint manifold
:math:`g(p) = 0` of :class:`~linkage_widget.constraints.ConstraintSet`.

Kinematic mode (``step_size`` = how far the pulled vertex may move per step)
    The pulled vertex :math:`s` is drawn toward the target :math:`t` along the
    motion of least kinetic energy that the constraints allow,

    .. math:: v = \arg\min_v \tfrac12 v^T M v - f^T v
              \quad\text{s.t.}\quad A(p)\, v = 0, \qquad
              f = e_s \otimes \frac{t - p_s}{|t - p_s|},

    then a predictor step :math:`p + h v` and a projection back onto
    :math:`g = 0` by Gauss-Newton corrections in the :math:`M` metric,

    .. math:: \Delta p = -M^{-1} A^T (A M^{-1} A^T + \varepsilon I)^{-1} g(p),

    reusing the step's factorisation for chord iterations and switching to
    Newton (a fresh factorisation, then reused by the next step) when they
    crawl. The predictor moves the pulled vertex by ``step_size`` (or less: not
    past the target, and at most :data:`STEP_GROWTH` times the last move that
    trouble limited), halved until (1) the corrector converges, (2) it moves the
    predicted point by at most :data:`CORRECTOR_DEVIATION` of the step, so a
    step cannot land on another branch through a singular placement, (3) the
    squared distance to the target falls by at least :data:`DESCENT_RATIO` of
    its linear prediction, so the pulled vertex overshoots neither the target
    nor the closest point to it that the mechanism can reach, and (4) the drive
    direction at the new point does not reverse (:math:`v_{new}^T M v > 0`):
    a reversal means the step went through a fold of the pulled vertex's path,
    a dead point, to its far side. When no step of useful size passes, the
    status is ``"blocked"`` and the positions do not change at all: no jitter
    at a dead point.

Dynamic mode (``step_size`` = time step in seconds)
    :math:`M\ddot p = F(p, \dot p) - A(p)^T\lambda`, :math:`g(p) = 0`, integrated
    with RATTLE: a half kick, a drift whose constraint force
    :math:`M^{-1}A(p_n)^T\lambda` is found by SHAKE iterations, and a second
    half kick projected so that :math:`A(p_{n+1})\dot p_{n+1} = 0`. Without
    damping it is symplectic and time-reversible: the energy error stays
    bounded. Forces: gravity :math:`-g M e_{up}` (:math:`g > 0` pulls toward
    :math:`-y`, in space :math:`-z`), the attractor as a spring and damper on the pulled vertex,
    global viscous damping :math:`-c\,M\dot p` and springs/dampers between
    vertex pairs (``LinearSpring`` / ``LinearDamper`` of
    ``sympy.physics.mechanics``). Damping forces enter the first half kick
    explicitly and the second implicitly, which keeps stiff dampers stable.
    A stalled SHAKE iteration is finished by post-stabilisation or the step split
    (see :mod:`~linkage_widget.motion._rattle`); a step that could not move at all
    reports ``"blocked"``. With springs or the attractor a step is cut into
    sub-steps with :math:`h\,\omega_{max} \le 1/4` for the highest frequency of the
    *constrained* linkage (:mod:`~linkage_widget.motion._stiffness`), at most 64;
    undamped, a step that changes the energy by more than 0.5 % is taken again with
    twice the sub-steps (the frequency peaked inside it), at most 64.

Refused steps (both modes)
    A step that would need more sub-steps, that makes a position or velocity
    non-finite, or that reports a move while no coordinate changed (float64 cannot
    resolve it at such coordinates) is not taken: the state stays, the status is
    ``"refused"`` and :attr:`blocked_reason` says why. A dynamic step at rest that
    changes nothing is ``"idle"``. The bound, undamped and without gravity: the
    energy of a chain with a spring within 5 % over 20 steps, or the step refused
    (``tests/motion/test_stiff_steps.py``, stiffness 1e-3 to 1e8, steps 1e-4 to
    1/30 s).

Linear algebra
    Every solve is the equality-constrained quadratic program above. The
    consistent mass matrix is not diagonal for :math:`\alpha > 0`, but it is
    diagonal in an enlarged set of unknowns: the vertex particles plus one
    particle at the middle of each rod, tied to the ends by linear constraints
    (:func:`~linkage_widget.mass.mass_particles`). Dampers between vertices
    become extra unknowns the same way. With a diagonal weight :math:`W` the
    program reduces to the sparse symmetric positive definite Schur complement
    :math:`S = C W^{-1} C^T + \varepsilon I`, whose sparsity pattern is fixed for
    a simulator, so its values are computed by one vectorised ``bincount`` and it
    is factorised by banded Cholesky (LAPACK ``pbtrf``, after a reverse
    Cuthill-McKee ordering) when the bandwidth is small — chains, ladders — or by
    SuperLU with a symmetric minimum-degree ordering otherwise. There is no
    dense matrix and no SVD anywhere on the per-step path.

Regularisation
    :math:`\varepsilon` (:data:`REGULARIZATION`, relative to a mass matrix
    normalised to a unit mean vertex mass and rows of unit norm) makes redundant
    constraints harmless (the Penrose files have hundreds) and treats a singular
    value below :math:`\sqrt{\varepsilon} \approx 3\cdot 10^{-7}` as a motion.
    That is the gap the rigidity analysis uses too (``RANK_RTOL = 1e-7`` in
    :mod:`linkage_widget.rigidity`): the 2007 Penrose "t" files flex only
    approximately, because their coordinates were rounded to six decimals
    (singular value near 1e-8), while the genuinely locked file's smallest
    singular value is 5e-6. Along such an approximate flex no placement satisfies
    every constraint. The Schur solve tells exactly which part of a residual
    no correction can remove, :math:`\varepsilon\lambda` with
    :math:`(S + \varepsilon I)\lambda = g`: each step holds that part of the
    residual it starts with and corrects the rest, so the error is what the
    data allows where the linkage is (at most :data:`DATA_TOL`), never a
    function of how many steps it took to get there, and the linkage is not
    pulled back along its flex.

Drives and loads (:class:`~linkage_widget.motion._drive_api.DriveMixin`)
    Motors (exact rheonomic angle rows), torque and force actuators, Duffing springs,
    Coulomb friction with a stick phase along pathways and on the table, constraint
    forces and accelerations; without them every path is the arithmetic above.

Singular placements (:class:`~linkage_widget.motion._branch_api.BranchMixin`)
    With :attr:`stop_at_singular`, where the rank of the Jacobian (motor rows included)
    drops the motion stops: status ``"singular"``, :meth:`branches`, :meth:`follow_branch`.

Modules
    :mod:`.tolerances` (every threshold and its reason), :mod:`._linalg` (Schur
    pattern, factorisations), :mod:`._metric`, :mod:`._setup` (what the steppers
    share), :mod:`._projection`, the steppers :mod:`._kinematic`, :mod:`._rattle`,
    :mod:`._drive_step`, the drives (``_drives``, ``_actuators``, ``_friction``,
    ``_reactions``) and the watch :mod:`._singular`. A stepper returns the new
    state, like :meth:`scipy.integrate.OdeSolver.step`; only :class:`Simulator` assigns it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import _checks
from ..constraints import ConstraintSet, as_flat
from ..model import Linkage
from ..springs import Spring
from ._branch_api import BranchMixin
from ._drive_api import DriveMixin
from ._drives import Actuators
from ._kinematic import KinematicStepper
from ._rattle import Forces, SpringArrays, rattle_step
from ._setup import Setup, mode_error
from ._singular import SingularWatch
from ._stiffness import StepRefused, abs_max, honest_status
from .tolerances import ATTRACTOR_DAMPING, ATTRACTOR_STIFFNESS

__all__ = ["MODES", "STATUSES", "Simulator"]

MODES = ("kinematic", "dynamic")
STATUSES = ("idle", "moved", "reached target", "blocked", "singular", "refused")


class Simulator(DriveMixin, BranchMixin):
    r"""Kinematic (attractor) and dynamic motion of a linkage on its constraints.

    The simulator works on **its own copy** of the positions: the linkage passed
    in is never modified. :attr:`positions` is the live state (read it every
    frame); :attr:`linkage` returns a new :class:`~linkage_widget.model.Linkage`
    at the current positions and :meth:`sync_to` writes them into an existing
    one. Constraint targets (rod lengths, angles, pins) are those of the linkage
    when the simulator is built; after editing the linkage, build a new
    simulator (construction is cheap, :math:`O(n + m)` and vectorised; the
    factorisation pattern is prepared on the first step).

    Parameters
    ----------
    linkage : Linkage
        The mechanism; its current positions define the constraint targets.
    mode : {"kinematic", "dynamic"}
        Attractor-driven least-kinetic-energy motion, or Newtonian dynamics.
    step_size : float
        Kinematic: how far the pulled vertex moves in one step (world units): the
        predictor moves it by at most this, the projection back onto the
        constraints changes that by a second-order amount. Dynamic: the time
        step in seconds (e.g. ``1/60``); a step is split automatically where
        a stiff spring or the attractor needs it for stability (the stiffness
        the constrained linkage sees), or ``"refused"`` beyond 64 sub-steps.
    mass_distribution : float
        :math:`\alpha \in [0, 1]`: 0 puts all mass in the hinges, 1 in the rods
        (see :mod:`linkage_widget.mass`).
    total_mass : float
        :math:`m > 0`.
    gravity : float
        :math:`g`, world units per second squared; positive pulls toward :math:`-y` in
        the plane and :math:`-z` in space (the 3-D view's up). Dynamic mode only.
    damping : float
        Global viscous damping rate :math:`c \ge 0` (1/s): force :math:`-c M \dot p`.
        Mass-proportional, so it slows the motion without changing its path.
        Dynamic mode only.
    table_friction : float
        Coulomb :math:`\mu \ge 0` of every joint on the table (:attr:`table_friction`).

    All parameters are attributes that may be set at any time (the widget's
    sliders do); they are validated and take effect on the next step. Setting
    :attr:`mode` resets the velocities to zero.

    Attributes
    ----------
    attractor_stiffness, attractor_damping : float
        Spring constant and damper of the attractor in dynamic mode (defaults
        :data:`ATTRACTOR_STIFFNESS`, :data:`ATTRACTOR_DAMPING`).

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
        self._n, self._dim = linkage.n_vertices, linkage.dim  # 2 in the plane, 3 in space
        self._actuators = Actuators()  # motors, loads, friction: DriveMixin
        self._reason, self._reaction_memo = None, None
        self._actuators.table = self._checked_table(table_friction)  # planar only
        self._p = as_flat(linkage.vertices).copy()
        self._v = np.zeros(self._p.size)
        self._time, self._status = 0.0, "idle"
        self._attractor: tuple[int, np.ndarray] | None = None
        self._springs: list[Spring] = []
        self._mode = "kinematic"
        self.mode = mode
        self.step_size = step_size
        self.mass_distribution = mass_distribution
        self.total_mass = total_mass
        self.gravity = gravity
        self.damping = damping
        self.attractor_stiffness = ATTRACTOR_STIFFNESS
        self.attractor_damping = ATTRACTOR_DAMPING
        # What the steppers share (constraints, metric, factorisations); the kinematic
        # stepper's own memory (trust region, blocked verdict) lives in the stepper.
        self._setup = Setup.build(linkage.copy(), self._alpha, self._total_mass)
        self._kinematic = KinematicStepper()
        self._stop, self._watch, self._trail = None, SingularWatch(), None  # BranchMixin
        self._stick = self._rest_state(self._v)

    # ------------------------------------------------------------ parameters
    @property
    def mode(self) -> str:
        """``"kinematic"`` or ``"dynamic"``; a change restarts from rest (motors at speed)."""
        return self._mode

    @mode.setter
    def mode(self, value: str) -> None:
        if value not in MODES:
            raise mode_error(value, MODES)
        if value != self._mode:
            self._v, self._stop = np.zeros(self._p.size), None
            if getattr(self, "_setup", None) is not None:  # from rest; motors turn (no hold)
                self._after_change(project=value == "dynamic" and bool(self._actuators.motors))
        self._mode = value

    @property
    def step_size(self) -> float:
        """Kinematic: largest move of the pulled vertex per step; dynamic: time step (s)."""
        return self._step_size

    @step_size.setter
    def step_size(self, value: float) -> None:
        self._step_size = _checks.positive(value, "step_size")

    @property
    def mass_distribution(self) -> float:
        r""":math:`\alpha \in [0, 1]`, hinge point masses (0) to uniform rods (1)."""
        return self._alpha

    @mass_distribution.setter
    def mass_distribution(self, value: float) -> None:
        self._alpha = _checks.unit_interval(value, "mass_distribution")

    @property
    def total_mass(self) -> float:
        """Total mass :math:`m > 0`."""
        return self._total_mass

    @total_mass.setter
    def total_mass(self, value: float) -> None:
        self._total_mass = _checks.positive(value, "total_mass")

    @property
    def gravity(self) -> float:
        """Gravitational acceleration :math:`g` (toward :math:`-y`, in space :math:`-z`, if > 0)."""
        return self._gravity

    @gravity.setter
    def gravity(self, value: float) -> None:
        self._gravity = _checks.finite(value, "gravity")

    @property
    def damping(self) -> float:
        r"""Global viscous damping rate :math:`c \ge 0` (force :math:`-c M \dot p`)."""
        return self._damping

    @damping.setter
    def damping(self, value: float) -> None:
        self._damping = _checks.non_negative(value, "damping")

    @property
    def attractor_stiffness(self) -> float:
        """Spring constant of the attractor in dynamic mode (force per length)."""
        return self._k_att

    @attractor_stiffness.setter
    def attractor_stiffness(self, value: float) -> None:
        self._k_att = _checks.non_negative(value, "attractor_stiffness")

    @property
    def attractor_damping(self) -> float:
        """Damper of the attractor in dynamic mode (force per speed)."""
        return self._c_att

    @attractor_damping.setter
    def attractor_damping(self, value: float) -> None:
        self._c_att = _checks.non_negative(value, "attractor_damping")

    # ----------------------------------------------------------------- state
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
    def constraints(self) -> ConstraintSet:
        """The constraints being enforced (targets from the linkage at construction)."""
        return self._setup.constraints

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

    # ------------------------------------------------------------- attractor
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

    # -------------------------------------------------------------- energies
    def kinetic_energy(self) -> float:
        r""":math:`T = \tfrac12 \dot p^T M \dot p`."""
        return 0.5 * float(self._v @ (self._current_setup().metric.matrix @ self._v))

    def potential_energy(self) -> float:
        r"""Gravity :math:`g\,(M e_{up})^T p`, springs, attractor, joint loads :math:`-f \cdot p`.

        Dampers, friction, actuator forces and torques have no potential (work, or dissipate).
        """
        conservative = self._forces().potential_energy(self._current_setup().metric, self._p)
        return conservative + self._load_potential()

    def set_velocity(self, velocity: Any) -> None:
        """Set the velocities (``(n, dim)``), projected M-orthogonally onto the allowed motions.

        The result is the allowed velocity closest to ``velocity`` in the
        kinetic-energy norm, :math:`v - M^{-1}A^T(AM^{-1}A^T)^{-1}Av`.
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
            return self._after_change(project=True)
        setup = self._current_setup()
        self._v = setup.mass_factor(self._p).minimize(setup.metric.matrix @ v)

    # ------------------------------------------------------------------ step
    def step(self, n: int = 1) -> None:
        """Advance ``n`` steps; :attr:`status` reports the last one.

        The steppers return the new state; this is the one place that assigns it.
        """
        if (n := int(n)) < 0:
            raise ValueError(f"n must be non-negative, got {n}")
        self._reaction_memo = self._reason = None
        for _ in range(n):
            state = self._p, self._v, self._time, self._stick
            try:
                self._watched_step()  # BranchMixin: stops at a singular placement
            except StepRefused as exc:  # the state as it was; the reason for the student
                (self._p, self._v, self._time, self._stick), self._status = state, "refused"
                self._reason = str(exc)
                return
            self._v = self._setup.pin_exactly(self._p, self._v)  # pins without round-off

    def _one_step(self) -> None:
        """One step of the mode's stepper, no singular watch; its status made honest."""
        p0 = self._p
        with np.errstate(over="ignore", invalid="ignore"):  # an overflow is refused below
            self._stepper_step()
        meant = self._step_size * (1.0 if self._mode == "kinematic" else abs_max(self._v))
        scale = self._setup.constraints.length_scale
        self._status = honest_status(self._status, p0, self._p, self._v, meant / scale)

    def _stepper_step(self) -> None:
        if self._n == 0:
            self._status = "idle"
        elif self._actuators.drives_motion(self._mode):
            return self._drive_step()
        elif self._mode == "kinematic":
            p, self._status = self._kinematic.step(
                self._current_setup(), self._p, self._attractor, self._step_size
            )
            # the velocity of a kinematic step is its displacement
            self._v = p - self._p if p is not self._p else np.zeros(self._p.size)
            self._set_positions(p)
        else:
            setup, forces = self._current_setup(), self._forces()
            p, self._v, self._status = rattle_step(setup, forces, self._p, self._v, self._step_size)
            self._set_positions(p)
        self._time += 1.0 if self._mode == "kinematic" else self._step_size

    # ------------------------------------------------------------- helpers
    def _set_positions(self, p: np.ndarray) -> None:
        """Make ``p`` (shape ``(dn,)``, not copied) the current positions."""
        self._p = p

    def _current_setup(self) -> Setup:
        """The shared setup, with the metric of the current mass parameters."""
        self._setup = self._setup.with_mass(self._alpha, self._total_mass)
        return self._setup

    def _forces(self) -> Forces:
        """The applied forces as they are set now."""
        springs = SpringArrays.from_springs(self._springs) if self._springs else None
        att, d = self._attractor, self._dim
        return Forces(self._gravity, self._damping, att, self._k_att, self._c_att, springs, dim=d)

    def __repr__(self) -> str:
        h, mode, status = self._step_size, self._mode, self._status
        return f"Simulator({self._n} vertices, {mode=}, step_size={h}, {status=})"
