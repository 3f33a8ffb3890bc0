"""Every numerical threshold of the motion layer, each with the reason for its value.

"Relative" means :meth:`~linkage_widget.constraints.ConstraintSet.relative_residuals`:
rod strain, angle in radians, pin offset over the typical rod length. "Normalised
units" means the mass metric divided by the mean vertex particle mass (see
:mod:`linkage_widget.motion._metric`), so a free vertex has unit weight.

>>> PROJECTION_TOL < DATA_TOL
True
"""

from __future__ import annotations

# ------------------------------------------------------------- projection
#: A projection has converged when the largest relative residual is at most this...
PROJECTION_TOL = 1e-12
#: ...but the corrector keeps iterating, refactorising if needed, down to round-off: near a
#: singular placement a 1e-12 residual would move a Peaucellier output off its line by ~1e-9.
#: Round-off is this many machine epsilons of the largest coordinate over the shortest rod
#: or fixed-angle arm (an arm need not be a rod: an ulp turns it by ulp / length radians).
ROUNDOFF_FACTOR = 4.0
#: When even Newton stops contracting, residuals up to this many round-offs are accepted:
#: the conditioning amplifies round-off (a 10 000-square braced ladder reaches ~5e-11).
CONDITIONED_ROUNDOFF = 100.0
#: The largest whole residual a step may leave (rounded data along an approximate flex
#: holds part of its residual; a flex that strays further is treated as blocked).
DATA_TOL = 1e-6
#: Along an approximate flex, the correctable residual may stay up to this fraction of the
#: held one (it is corrected at the next step, so the error cannot drift).
HELD_FRACTION = 0.1
#: Diagonal regularisation of the Schur complement (normalised units; see
#: "Regularisation" in :mod:`linkage_widget.motion.simulator`).
REGULARIZATION = 1e-13
#: A corrector may move the predicted point by at most this fraction of the step.
CORRECTOR_DEVIATION = 0.1
#: A corrector iteration that shrinks the residual less than this has stalled: refactorise
#: (or, in RATTLE, split the time step).
CHORD_CONTRACTION = 0.25
#: In kinematic mode a chord iteration that shrinks the residual less than this is slow:
#: switch to Newton (the Penrose "t" files' near-flex makes the chord crawl).
SLOW_CONTRACTION = 0.1
#: Chord iterations (reusing one factorisation) before switching to Newton: a banded
#: Cholesky costs about two solves, a SuperLU factorisation about ten (measured).
CHORD_ITERATIONS_BANDED = 2
CHORD_ITERATIONS_SPARSE = 8
#: Refactorisations allowed per projection before it counts as stalled.
MAX_REFACTORISATIONS = 2
#: Corrector iterations per projection.
MAX_CORRECTOR_ITERATIONS = 30
# -------------------------------------------------------- kinematic step
#: A kinematic step starts at most this many times the last accepted move of the pulled
#: vertex (a trust region): pushing against a dead point then costs few halvings per
#: step, and full speed returns within a few steps after it.
STEP_GROWTH = 4.0
#: Step halvings per kinematic step before the pulled vertex counts as blocked.
MAX_HALVINGS = 40
#: Accept a kinematic step when the squared distance to the target falls by at least
#: this fraction of its linear prediction (0.5 is exact for a straight path: no overshoot).
DESCENT_RATIO = 0.49
#: The target is reached within this many length scales.
TARGET_TOL = 1e-9
#: Blocked when the pulled vertex would move less than this times min(step_size, distance).
#: Near a dead point its move shrinks like the square of the distance to the singular
#: placement, so this also keeps the flow ~1e-3 (relative) away from that placement.
BLOCK_FRACTION = 1e-4
#: A pulled-vertex speed below this (normalised units: 1 for a free vertex) is rounding:
#: the vertex cannot move at all (pinned, or held rigid).
DRIVE_TOL = 1e-12
# -------------------------------------------------------- linear algebra
#: Use banded Cholesky when the reverse Cuthill-McKee bandwidth is at most this.
BANDED_MAX_BANDWIDTH = 48
# ---------------------------------------------------------- dynamic step
#: A SHAKE iteration that stalls with the whole residual at most this is finished by
#: post-stabilisation (Newton steps from the new point, corrections along A(p_{n+1})^T
#: instead of A(p_n)^T) rather than by splitting the step.
POST_STABILIZE_TOL = 1e-6
#: A dynamic step whose SHAKE iteration fails is split in halves, at most this deep.
MAX_SUBSTEP_DEPTH = 8
#: Springs are explicit forces: a dynamic step is split so that h * omega stays below this
#: for the stiffest one (omega bounded with its vertices' own masses)...
SPRING_STEP = 0.5
#: ...into at most this many sub-steps (beyond, the step is refused: status "refused").
MAX_SPRING_SUBSTEPS = 64
#: With a spring or the attractor, a dynamic step is also split so that h * omega_max stays
#: below this, omega_max the highest frequency of the linearised constrained motion (the
#: spring through the chain, the rods' tension): a margin of 8 below RATTLE's stability
#: limit 2. At 0.5 SHAKE failed on a third of the steps of a 14-joint chain pulled by a
#: spring, and the splitting that followed let the energy grow 20 % in 200 steps; at 0.2 it
#: never failed and the energy stayed within 0.3 % (issue 22).
STIFF_STEP = 0.25
#: Lanczos steps of that estimate (each one solve with the step's own factorisation).
LANCZOS_STEPS = 10
#: A step whose end needs more than this times its sub-steps is taken again with as many
#: as its end needs (the frequency rose within the step).
REPLAN_SLACK = 1.25
#: Without damping, actuators or motors, a step with a spring or the attractor whose energy
#: changes by more than this fraction of the kinetic and elastic energy is taken again with
#: twice the sub-steps (the frequency peaked inside it), and refused beyond
#: MAX_SPRING_SUBSTEPS. RATTLE's own oscillating error at h * omega = STIFF_STEP is up to
#: STIFF_STEP**2 / 4 = 1.6 % of the stiff modes' energy and does not drift: where nearly all
#: the energy is in such a mode, a step may be taken once more (twice the count, a quarter
#: of the error). Jumps left by steps that missed a peak stay below 0.5 % each: ten of them
#: in the same sense before the 5 % of the property test (in practice at most 1.4 % in 20).
ENERGY_STEP = 0.005
#: Round-off of an energy sum (relative to its terms): a change below it is no change.
ENERGY_ROUNDOFF = 1e-12
#: A step that changed no coordinate while meaning to move more than this many length
#: scales reports "refused" (float64 cannot resolve it there), not "moved"; at most this,
#: a dynamic linkage is at rest ("idle").
FROZEN_MOVE = 1e-12
# ----------------------------------------------------------- mass metric
#: A mass distribution below this leaves the rod-middle particles out of the metric: their
#: share changes the motion by less than this, and near alpha = 0 (a subnormal alpha) the
#: inverse of their masses would overflow and turn the positions into NaN.
NEGLIGIBLE_ROD_MASS = 1e-12
#: A pinned joint lighter than this fraction of the mean vertex mass gets the mean as its
#: weight in the metric (it never moves; a tiny weight only spoils the conditioning).
LIGHT_PINNED = 1e-3

# -------------------------------------------------------- force defaults
#: Default attractor spring stiffness (force per length) and damping (force per speed):
#: with the default total mass 1 about a 1 s period, damping ratio about 0.7.
ATTRACTOR_STIFFNESS = 40.0
ATTRACTOR_DAMPING = 9.0

# ---------------------------------------------------------------- drives
#: A kinematic motor step that does not converge is split in halves at most this deep
#: before the motor counts as blocked (a dead point): 2**-10 of a step is far below any
#: step a user would choose, and a true dead point fails at every depth.
MAX_MOTOR_HALVINGS = 10
#: A friction element (or a joint on the table) whose speed is below this many length
#: scales per unit time counts as at rest when friction is (re)started: it starts stuck.
#: Velocities projected onto a stick are zero only to round-off (~1e-17).
REST_SPEED = 1e-12

# ------------------------------------------------------ singular placements
# (The watch's numerical rank is the rigidity analysis's rule, RANK_RTOL of
# :mod:`linkage_widget.rigidity.tolerances`, imported there: one name per meaning.)
#: Linkages with more coordinates than this (32 joints) are not watched for singular
#: placements: the watch costs a dense determinant per step and a dense SVD when its borders
#: are renewed (cubic in this); at 81 joints (penrose2t) that was several times the step
#: (benchmarks/bench_motion.py), at 26 joints (penrose1t) about a tenth of it.
SINGULAR_WATCH_MAX_COLUMNS = 64
#: A located placement counts as singular when its smallest singular value (of the rank
#: the reference had) is at most this fraction of the largest: bisection to 2**-40 of a
#: step puts it within ~1e-12 relative of the singular placement.
SINGULAR_RTOL = 1e-6
#: Bisection steps that locate a sign change of the watch along a step.
LOCATE_ITERATIONS = 40
#: A motor blocked where the smallest singular value of the constraint Jacobian with the
#: motor rows is below this fraction of the largest is at a fold of the motion (a driven
#: rod at its limit, the rest in line): the ten halvings of a blocked motor step leave it
#: ~sqrt(2**-10 * step) from the fold, a ratio of ~1e-2 for a step of 0.1 rad.
FOLD_RTOL = 0.05
#: Following a branch starts with a predictor step of this many length scales (median rod
#: length) along it, so that the projection onto the constraints keeps to that branch.
BRANCH_STEP = 0.02
#: Flex tolerance of the tangent cone at a located singular placement (relative singular
#: value): the placement is within ~1e-12 of the singular one, and a regular flex direction
#: of a unit linkage has a singular value of order one.
BRANCH_FLEX_RTOL = 1e-5
#: A pulled vertex blocked next to a singular placement creeps on along the configuration
#: curve by 2**-k step sizes, k from this down to 0, looking for the watch's sign change.
CREEP_HALVINGS = 10
#: At most this many branch lines are offered at a singular placement (2 ways on each): a
#: tangent cone containing a plane comes as many sampled lines, and a few spread-out ones
#: are what a student can choose among (Peaucellier's flat rhombus: its curve and two
#: lines of the plane where the rhombus stays flat).
MAX_BRANCH_LINES = 4
#: Two branch lines whose directions have |cos| at least this are the same line.
SAME_LINE_COS = 0.999

# ------------------------------------------------------- cables and struts
#: A cable or strut within this relative strain of its limit is *taut*: a candidate to hold
#: (a step's projection leaves ~1e-13; a slack one is far further away, or it is let go).
CONTACT_TOL = 1e-9
#: A slack cable or strut beyond its limit by more than this relative strain after a step
#: takes the step again holding it (the projection's PROJECTION_TOL, with room for round-off).
REACH_TOL = 1e-11
#: A holding member is let go when its force has the wrong sign by more than this fraction
#: of the largest member force (or of the weight): a cable pushing, a strut pulling. Below
#: it the sign is round-off (a pendulum released from the horizontal has tension 0).
RELEASE_TOL = 1e-9
