r"""Every rank and zero tolerance of the rigidity analysis, each with the reason for its value.

One name per meaning: a threshold used by several modules is defined here once and
imported (the rank rule :data:`RANK_RTOL` is also the motion layer's singular-placement
watch). "Relative" means relative to the largest singular value :math:`\sigma_{max}`
of the scaled rigidity matrix :math:`A` of :mod:`linkage_widget.constraints` (rows are
dimensionless, so :math:`\sigma_{max}` is of order one for a unit linkage), unless a
line says otherwise. The motion layer's thresholds are in
:mod:`linkage_widget.motion.tolerances`.

>>> INERTIA_RTOL <= RANK_RTOL < SECOND_ORDER_RTOL
True
"""

from __future__ import annotations

import numpy as np

# -------------------------------------------------------------- the rank rule
#: The 2007 program's rank rule: a singular value at most this fraction of the largest is
#: zero. Chosen between two gaps in its own files: the Penrose "t" tilings flex only
#: approximately (coordinates rounded to six decimals: that flex shows as a singular
#: value near 1e-9), the locked variant's smallest genuine one is 1.5e-6. ``analyze``'s
#: default is now the scale-aware rule (``rtol="auto"``, below); this one is the floor
#: under it where rounded data needs 1e-7, the default of ``static_forces``, the
#: second-order and tangent-cone tests, and the motion layer's singular-placement watch.
RANK_RTOL = 1e-7
#: Machine epsilon of float64: the unit of the round-off floors below.
EPS = float(np.finfo(float).eps)
#: The scale-aware rule's floating-point floor, in units of max(c, N) * eps: the
#: round-off an SVD or a factorisation of A leaves on a singular value.
ROUNDOFF_FACTOR = 10.0
#: Safety factor on the singular value that the coordinates' decimal rounding can fake
#: (rounding at a quantum q moves a singular value by about q / (2 l_min)).
ROUNDING_FACTOR = 10.0
#: Decimal quanta coarser than this fraction of the shortest rod count as exact data
#: (integer or short-decimal textbook placements), finer ones as rounded data (``%.6f``).
EXACT_QUANTUM = 1e-4
#: A value is a multiple of 10^-d when it is within this of it (relative to the value's
#: size in units of 1e-6): the float of a six-decimal number is off by round-off only.
DECIMAL_MATCH = 1e-9
#: A singular value within this factor of the threshold (either side) leaves the rank
#: "near-singular, undecided": the counts could move with a small change of tolerance.
MARGIN_MIN = 3.0

# ------------------------------------------------------- the sparse inertia count
#: Smallest relative threshold that the inertia of the squared matrix A^T A resolves:
#: its eigenvalues are squares, so 1e-7 relative is 1e-14 there, about fifty round-offs
#: of float64 (eps ~ 2.2e-16). Below it the inertia counts at this value and the Ritz
#: values on A itself resolve the rest. Equal to RANK_RTOL so that the 2007 rule is
#: counted exactly; a different meaning (a resolution floor, not a rank rule).
INERTIA_RTOL = 1e-7
#: Convergence tolerance of shift-invert Lanczos (ARPACK ``eigsh``): the Ritz values are
#: then checked on A itself, so Lanczos only has to find the right directions.
LANCZOS_TOL = 1e-10
#: A count whose shift hit an eigenvalue of A^T A to the bit (an exactly zero pivot) is
#: made again with the threshold moved by this relative amount, far below any margin.
RETRY_SHIFT = 1e-6
#: The kernel projection's passes shrink every direction above the threshold to this
#: fraction: well below the bases' use (arrows, stresses), near float64's round-off.
PROJECTION_RESIDUAL = 1e-13
#: Least regularisation of the sparse kernel projection, relative to sigma_max^2: the
#: augmented system must stay factorisable in float64 whatever the rank gap.
DELTA_FLOOR = 100.0 * EPS

# ------------------------------------------------------------- bases and motions
#: Cut between kept and removed directions of an orthonormal basis projected off the
#: trivial motions: its singular values are 1 (a flex) or round-off (a rigid motion), so
#: any value far from both works.
ORTHONORMAL_CUT = 1e-6
#: The trivial motions' generators (unit translations, rotations normalised by the
#: placement's radius) have unit scale: a dependent combination at a degenerate placement
#: (joints on one line) is zero up to the coordinates' round-off.
TRIVIAL_RCOND = 1e-10

# ------------------------------------------------------------------ second order
#: A dimensionless stress energy (and a singular value of the second-order system's
#: Jacobian, relative to its forms) below this counts as zero in the second-order tests:
#: a stress energy is a second-order quantity, so round-off in it is about RANK_RTOL
#: times the forms' size; ten times that is zero.
SECOND_ORDER_RTOL = 1e-6
#: Two numerical solution lines of the second-order system closer than this angle
#: (radians) are one: Gauss-Newton refines each to ~1e-8, distinct lines are far apart.
CONE_LINE_ANGLE = 1e-4
#: Gauss-Newton on the unit sphere has converged when its step is round-off on a unit
#: vector ...
REFINE_STEP_ZERO = 1e-15
#: ... or its squared residual is (round-off of the unit forms, squared).
REFINE_RESIDUAL_ZERO = 1e-30
#: An exact root evaluated to 50 digits is real when its imaginary part is at most this
#: relative to its size: far above 50-digit round-off, far below any true imaginary part.
IMAGINARY_ZERO = 1e-30

# ------------------------------------------------------------ numerical mobility
#: A landing (a step along the flexes projected back onto the constraints) is accepted
#: when its relative constraint error is at most this: the projection converges
#: quadratically, so a true landing is at round-off and a failed one far above.
LANDED_TOL = 1e-9
#: ... and when its last correction was below this fraction of the step (a projection that
#: still moves that much is sliding back, as onto a placement rigid at a higher order).
SETTLED = 1e-3
#: A projection that ends closer to where it is measured from than this fraction of the
#: step has collapsed: no solution that far along that direction.
COLLAPSE = 0.05
#: Landing directions closer than this |cosine| are the same branch line.
SAME_LINE = 0.98
#: A landing-displacement singular value above this fraction of the largest is a
#: dimension: landings on a manifold of dimension k span k directions of size ~ step.
RANK_FRACTION = 0.1
#: A landing direction whose part outside a branch's tangent space found already is below
#: this (unit direction) lies in that branch: a line inside a plane, not a new branch.
IN_BRANCH = 0.2
#: A sampled secant within this |cosine| of a tangent-cone line is that line (the secant
#: of a step ~1e-2 deviates from its tangent by about the step).
CONE_SAME_LINE = 0.95

# ------------------------------------------------------------------- the readout
#: A rod carries part of a self-stress when its entry is above this fraction of the
#: largest (and a held rod's stress column counts when above it): stress bases are
#: orthonormal to round-off (~1e-15), a genuine entry is far above.
STRESS_ZERO = 1e-9

# -------------------------------------------------------------------- tensegrity
#: The support LP of :mod:`.tensegrity` lets the coefficients of a self-stress (in the
#: orthonormal basis) reach this size while asking each cable and strut for a force of 1
#: with its sign: a member whose stress is at most 1/this of the largest in every
#: self-stress (round-off, like :data:`STRESS_ZERO` but for a combination) cannot get there.
TENSEGRITY_SUPPORT_BOUND = 1e6
#: The support LP's optimum puts each member's slack variable at 0 or 1 (a vertex of
#: the scaled cone); a member above this fraction carries stress.
TENSEGRITY_ACTIVE_CUT = 0.5

# ----------------------------------------------------------------------- statics
#: The smallest ``rtol`` of ``static_forces``: the augmented matrix's condition number is
#: 1/rtol, and its LU must stay meaningful in float64 (at 1e-16 SuperLU finds it singular).
MIN_RTOL = 1e-13
#: A load is balanced when its unresolvable part is at most this fraction of it.
BALANCE_RTOL = 1e-8

# ----------------------------------------------------------------- rank tracking
#: While dragging, reuse the reference placement's flex basis while the Jacobian moved by
#: at most this fraction of the smallest nonzero singular value (Wedin's theorem: the
#: spaces turned by at most about as much); an internal part of the excited flex below
#: twice this is that error, not a bend.
ARROW_DRIFT = 0.01

# ------------------------------------------------------------ exact loops from rods
#: A float datum of a hinge loop read from rods (a length, a half-angle tangent) is taken
#: as the small rational within this (relative) of it: the constructors' ``sin``/``cos``
#: leave ~1e-15, and a coarser snap could make a rigid loop look like Bennett's; the
#: snapped loop must then close exactly, or it is refused (hinge_rods).
HINGE_SNAP = 1e-9

# ------------------------------------------------------------- real placements
#: A real placement found by Newton's method keeps every rod length to this (absolute,
#: times the largest length when above 1): Newton converges quadratically, so a root is
#: met to ~1e-15 and a start that stalled short of one is far above.
REAL_PLACEMENT_LENGTH = 1e-10
#: Two real placements whose joints all lie within this (scaled the same) are one: roots
#: of a generic system are far apart, converged copies of one agree to ~1e-13.
SAME_PLACEMENT = 1e-6

# -------------------------------------------------------------------- Henneberg moves
#: A new joint is refused as collinear (with the two joints of a 0-extension, or with all
#: three of a 1-extension) when the sine of the angle between its rods is below this: on
#: that line the new rods are parallel and the joint has a first-order flex.
HENNEBERG_COLLINEAR = 1e-9

# ------------------------------------------------------------ global rigidity
#: Another placement's rod lengths agree with the placement's to this (relative to the
#: longest rod): the issue's 1e-10, met by a fold (round-off) and asked of a solve.
SAME_LENGTH_TOL = 1e-10
#: Two placements whose pairwise distances differ by more than this (relative) are not
#: congruent: far above ``SAME_LENGTH_TOL``, so that a converged copy of the placement
#: is never taken for another one.
CONGRUENT_TOL = 1e-6
#: A singular value of the rigidity matrix (a stress's) or an eigenvalue of a stress
#: matrix below this fraction of the largest is zero, in the certificates of
#: global and universal rigidity (dense SVDs of small frameworks: round-off ~1e-15).
CERTIFICATE_RTOL = 1e-9
