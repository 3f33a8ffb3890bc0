r"""The analysis layer: rigidity, mobility and statics of a linkage at its placement.

Everything here derives from the scaled rigidity matrix :math:`A(p)` of
:mod:`linkage_widget.constraints`. This face is the way in for the layers above; the
modules behind it, by task:

Analysis of a placement
    :func:`analyze` → :class:`RigidityReport` (:mod:`.analysis`, :mod:`.report`):
    counts, statuses, bases; dense SVD or the sparse inertia route.
Mobility
    :func:`mobility` → :class:`MobilityReport` (:mod:`.local_dimension`): the local
    dimension of the configuration set; :func:`exact_local_dimension` (:mod:`.groebner`)
    decides it exactly in the plane; in space a :class:`RevoluteLoop`
    (:mod:`.revolute_loop`: hinges with exact data) is decided by :func:`loop_mobility`
    (:mod:`.loop_mobility`); :func:`loop_from_rods` (:mod:`.hinge_rods`) reads rods laid
    out as such a loop, when their data are small rationals.
Components
    :func:`closure_ideal`, :func:`variety_components` → :class:`VarietyComponent`
    (:mod:`.components`): the pieces of a configuration variety over the rationals,
    split on factors, each tested for irreducibility.
Flexible placements of rigid graphs
    :func:`nac_colourings`, :func:`has_nac_colouring`, :func:`is_nac_colouring`,
    :func:`nac_conflict` (:mod:`.nac`; the search in :mod:`.nac_search`): the
    NAC-colourings of the rods' graph, which exist iff the graph has a flexible
    placement (Grasegger–Legerský–Schicho); :func:`nac_motion` → :class:`NACMotion`
    (:mod:`.nac_motion`): that placement and its motion.
Statics
    :func:`static_forces` → :class:`StaticsReport` (:mod:`.statics`): the loads a
    framework carries, :math:`A^T\lambda = f`.
Tensegrities
    :func:`tensegrity_rigidity` → :class:`TensegrityReport` (:mod:`.tensegrity`): cables
    and struts, Roth–Whiteley's proper self-stress (a linear program).
Generic rigidity
    :func:`generic_analysis`, :func:`pebble_game_applies` (:mod:`.analysis`); the pebble
    game (:mod:`.pebble`: :func:`pebble_game`, :func:`pinned_pebble_game`,
    :class:`PebbleGame`); the rank mod a prime at random placements in space
    (:mod:`.modular_rank`). Compiled by numba when it imports (:mod:`.pebble_fast`,
    the ``fast`` extra); :func:`rigid_clusters` (:mod:`.rigid_clusters`: Jacobs and
    Hendrickson's decomposition from one game).
Rigidity percolation
    :func:`rigidity_percolation` → :class:`RigidityPercolation`,
    :func:`percolation_curve` → :class:`PercolationCurve`, :func:`percolation_threshold`,
    :func:`lattice_bonds` (:mod:`.percolation`: bond-diluted triangular and crossed-square
    lattices, free boundaries, Newman–Ziff order, the rigid cluster spanning left to
    right).
Realizations
    :func:`realization_count` (:mod:`.realizations`: the Laman number, the bigraph
    recursion in :mod:`._bigraph`, the sphere's in :mod:`._quadrograph`),
    :func:`real_realizations` (the real placements of given lengths,
    :mod:`.real_placements`), :func:`laman_violation` (:mod:`.laman`: why a graph is
    not Laman); Henneberg moves :func:`zero_extension`, :func:`one_extension` and
    :func:`henneberg_sequence` (:mod:`.henneberg`).
Global and universal rigidity
    :func:`global_rigidity` → :class:`GlobalRigidityReport`, :func:`universal_rigidity` →
    :class:`UniversalRigidityReport` (:mod:`.global_rigidity`): Jackson–Jordán in the plane
    (:mod:`.connectivity`: separating pairs; :mod:`.circuits`: redundant rigidity from the
    pebble game's fundamental circuits), the random stress-matrix test in any dimension
    (:mod:`.stress_matrix`), certificates at a placement (:mod:`.universal`: a PSD stress)
    and another placement (:mod:`.other_placement`: a fold or a solve).
Trivial motions
    :func:`trivial_motions` (:mod:`.rigid_motions`, its only home): the rigid motions
    the pins and sliders leave; :func:`linkage_trivial_motions` reads them off a linkage,
    :func:`ground_sliders` its sliders as ground rows.
First and second order
    :func:`infinitesimal`, :func:`second_order_rigid`, :func:`tangent_cone`
    (:mod:`.second_order`, solvers in :mod:`.second_order_solve`).
Sparse rank
    :func:`sparse_rank_report` → :class:`SparseRankReport` (:mod:`.sparse_rank`, lazy
    bases in :mod:`.sparse_bases`); :class:`OrderedInertia` (:mod:`.inertia`).
Exact arithmetic
    :func:`rational_coordinates` (:mod:`.exact`): the one converter to rationals.
Rank tracking
    :class:`RankReference` (:mod:`.rank_tracking`): when a count may be reused along a
    moving placement, and a cheap recount.
Tolerances
    every rank and zero tolerance, with its reason (:mod:`.tolerances`).

>>> from linkage_widget import Linkage
>>> analyze(Linkage.load("peaucellier.txt")).dof
1
"""

from __future__ import annotations

from .analysis import (
    METHODS,
    MOBILITY_MAX_2N,
    SECOND_ORDER_MAX_FLEXES,
    SECOND_ORDER_MAX_STRESSES,
    SINGLE_FLEX_MAX_2N,
    SPARSE_MIN_ENTRIES,
    analyze,
    generic_analysis,
    pebble_game_applies,
)
from .components import VarietyComponent, closure_ideal, variety_components
from .exact import rational_coordinates
from .global_rigidity import (
    GlobalRigidityReport,
    UniversalRigidityReport,
    global_rigidity,
    universal_rigidity,
)
from .groebner import exact_local_dimension
from .henneberg import (
    HennebergSequence,
    HennebergStep,
    henneberg_sequence,
    one_extension,
    zero_extension,
)
from .hinge_rods import loop_from_rods
from .inertia import OrderedInertia
from .laman import laman_violation
from .local_dimension import mobility
from .loop_mobility import loop_mobility
from .mobility_report import MobilityReport
from .nac import (
    NAC_MAX_COLOURINGS,
    NAC_MAX_STEPS,
    has_nac_colouring,
    is_nac_colouring,
    nac_colourings,
    nac_conflict,
)
from .nac_motion import NAC_MIN_GAP, NACMotion, nac_motion
from .pebble import PebbleGame, generic_rank, pebble_game, pinned_pebble_game
from .percolation import (
    PercolationCurve,
    RigidityPercolation,
    lattice_bonds,
    percolation_curve,
    percolation_threshold,
    rigidity_percolation,
)
from .rank_tracking import RankReference, excited_flex, first_rod_stress
from .realizations import (
    REAL_REALIZATIONS_MAX_JOINTS,
    SPHERE_COUNT_MAX_JOINTS,
    real_realizations,
    realization_count,
)
from .report import STATUSES, RigidityReport
from .revolute_loop import RevoluteLoop, exact_rotation, exact_turn
from .rigid_clusters import rigid_clusters
from .rigid_motions import ground_sliders, linkage_trivial_motions, trivial_motions
from .second_order import (
    Infinitesimal,
    TangentCone,
    infinitesimal,
    require_linkage,
    second_order_rigid,
    tangent_cone,
)
from .sparse_rank import SparseRankReport, sigma_max_estimate, sparse_rank_report
from .statics import StaticsReport, static_forces
from .tensegrity import TensegrityReport, tensegrity_rigidity
from .tolerances import RANK_RTOL, SECOND_ORDER_RTOL, STRESS_ZERO

__all__ = [
    "METHODS",
    "MOBILITY_MAX_2N",
    "NAC_MAX_COLOURINGS",
    "NAC_MAX_STEPS",
    "NAC_MIN_GAP",
    "RANK_RTOL",
    "REAL_REALIZATIONS_MAX_JOINTS",
    "SPHERE_COUNT_MAX_JOINTS",
    "SECOND_ORDER_MAX_FLEXES",
    "SECOND_ORDER_MAX_STRESSES",
    "SECOND_ORDER_RTOL",
    "SINGLE_FLEX_MAX_2N",
    "SPARSE_MIN_ENTRIES",
    "STATUSES",
    "STRESS_ZERO",
    "HennebergSequence",
    "HennebergStep",
    "GlobalRigidityReport",
    "Infinitesimal",
    "MobilityReport",
    "NACMotion",
    "OrderedInertia",
    "PebbleGame",
    "PercolationCurve",
    "RankReference",
    "RevoluteLoop",
    "RigidityPercolation",
    "RigidityReport",
    "SparseRankReport",
    "StaticsReport",
    "TangentCone",
    "TensegrityReport",
    "UniversalRigidityReport",
    "VarietyComponent",
    "analyze",
    "closure_ideal",
    "exact_local_dimension",
    "exact_rotation",
    "exact_turn",
    "excited_flex",
    "first_rod_stress",
    "generic_analysis",
    "generic_rank",
    "has_nac_colouring",
    "global_rigidity",
    "ground_sliders",
    "henneberg_sequence",
    "infinitesimal",
    "laman_violation",
    "lattice_bonds",
    "is_nac_colouring",
    "linkage_trivial_motions",
    "loop_from_rods",
    "loop_mobility",
    "mobility",
    "one_extension",
    "nac_colourings",
    "nac_conflict",
    "nac_motion",
    "pebble_game",
    "pebble_game_applies",
    "percolation_curve",
    "percolation_threshold",
    "pinned_pebble_game",
    "rational_coordinates",
    "real_realizations",
    "realization_count",
    "require_linkage",
    "rigid_clusters",
    "rigidity_percolation",
    "second_order_rigid",
    "sigma_max_estimate",
    "sparse_rank_report",
    "static_forces",
    "tangent_cone",
    "tensegrity_rigidity",
    "trivial_motions",
    "universal_rigidity",
    "variety_components",
    "zero_extension",
]
