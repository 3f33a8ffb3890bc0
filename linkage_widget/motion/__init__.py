r"""Motion of a linkage: the attractor-driven kinematic flow and constrained dynamics.

The package face: :class:`Simulator`, the names of its modes and statuses, and the
tolerances the tests use (all thresholds live in :mod:`.tolerances`).

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
    *constrained* linkage (:mod:`~linkage_widget.motion._stiffness`), at most 64.

Refused steps (both modes)
    A step that would need more sub-steps, that makes a position or velocity
    non-finite, or that reports a move while no coordinate changed (float64 cannot
    resolve it at such coordinates) is not taken: the state stays, the status is
    ``"refused"`` and :attr:`blocked_reason` says why. A dynamic step at rest that
    changes nothing is ``"idle"``. The bound, undamped and without gravity: the
    energy of a chain with a spring within 5 % over 20 steps, or the step refused
    (``tests/motion/test_stiff_steps.py``, stiffness 1e-3 to 1e8, steps 1e-4 to
    1/30 s). A conservative step with a spring that moved the energy by more than
    ``ENERGY_STEP`` (0.5 %) is taken again with twice the sub-steps: the frequency
    can peak inside a step whose two ends are soft (a chain through its straight
    placement).

Cables and struts (:mod:`._members`)
    A cable's row :math:`|p_i - p_j| \le L` and a strut's :math:`\ge L` are one-sided:
    at each step a member holds (an equality of the step, in both modes) or is let go,
    chosen from the members' forces (a cable only pulls, a strut only pushes) and from
    where the step carries them (one carried past its limit holds, and the step is taken
    again). A slack cable jerked taut is a perfectly inelastic impact; while every
    member holds the step is the bar framework's, bit for bit.

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

Drives and loads (:mod:`._element_set`, :mod:`._drive_step`)
    Motors (exact rheonomic angle rows), torque and force actuators, Duffing springs,
    Coulomb friction with a stick phase along pathways and on the table, constraint
    forces and accelerations; without them every path is the arithmetic above. In space
    loads are 3-vectors, path forces, path friction and springs act along two joints'
    line, a couple turns a body about a hinge axis
    (:class:`~linkage_widget.elements.HingeTorque`) and a motor drives a hinge angle
    (:class:`~linkage_widget.elements.HingeMotor`); the planar motor and torque and
    the table are refused there. Sliders and slots are rows like rods (both modes keep
    them); a :class:`~linkage_widget.elements.LinearMotor` drives a slider's joint along
    its line (a push row), and :class:`~linkage_widget.elements.SliderFriction` (module
    ``_slide_friction``) rubs along it, pressed by the guide's own force.

Singular placements (:class:`~linkage_widget.motion._branches.BranchWatch`)
    With :attr:`stop_at_singular`, where the rank of the Jacobian (motor rows included)
    drops the motion stops: status ``"singular"``, :meth:`branches`, :meth:`follow_branch`.

Modules
    :mod:`.tolerances` (every threshold and its reason), :mod:`._linalg` (Schur
    pattern, factorisations), :mod:`._metric`, :mod:`._setup` (what the steppers
    share), :mod:`._projection`, the steppers :mod:`._kinematic`, :mod:`._rattle`,
    :mod:`._drive_step`, the drives (``_element_set``, ``_actuators``, ``_friction``,
    ``_slide_friction``, ``_reactions``), the watch :mod:`._singular` and the watcher
    :mod:`._branches`;
    :mod:`._inputs` (what a step reads, and the ``Stepping`` the simulator holds).
    A stepper or watcher takes values and returns the new :class:`~._setup.State`,
    like :meth:`scipy.integrate.OdeSolver.step`; only :class:`Simulator` assigns it.
"""

from ._reactions import ConstraintForces
from .simulator import MODES, STATUSES, Simulator
from .tolerances import (
    CONDITIONED_ROUNDOFF,
    CORRECTOR_DEVIATION,
    DATA_TOL,
    PROJECTION_TOL,
    ROUNDOFF_FACTOR,
)

__all__ = [
    "CONDITIONED_ROUNDOFF",
    "ConstraintForces",
    "CORRECTOR_DEVIATION",
    "DATA_TOL",
    "MODES",
    "PROJECTION_TOL",
    "ROUNDOFF_FACTOR",
    "STATUSES",
    "Simulator",
]
