"""mobility(): the local dimension of the configuration set, not a count and not a rank.

Each linkage's true mobility is known in closed form (the cases of issue 13); where counting
(Maxwell) says otherwise the test says so too. Branch directions are checked against the
second-order expansion of the flat parallelogram's loop equation.
"""

import numpy as np
import pytest
from test_second_order import CHAIN, K33, branch_lines, flat_parallelogram, same_lines

from linkage_widget import Linkage, analyze
from linkage_widget.constraints import ConstraintSet
from linkage_widget.examples.penrose import penrose_tiling, transform_positions
from linkage_widget.rigidity import trivial_motions
from linkage_widget.rigidity.groebner import exact_local_dimension
from linkage_widget.rigidity.local_dimension import MobilityReport, ground_rows, mobility


def parallel_cranks():
    """Three equal parallel cranks from pins on a line to a rigid triangle: counting says 0."""
    base = np.array([[0.0, 0.0], [2.0, 0.0], [5.0, 0.0]])
    tips = base + [0.6, 0.8]
    rods = [(0, 3), (1, 4), (2, 5), (3, 4), (4, 5), (3, 5)]
    return Linkage(np.vstack([base, tips]), rods=rods, pinned=[0, 1, 2])


FOUR_BAR = Linkage(
    [[0, 0], [0, 1], [2, 1.5], [2.2, 0]], rods=[(0, 1), (1, 2), (2, 3)], pinned=[0, 3]
)
FIVE_BAR = Linkage(
    [[0, 0], [0.3, 1], [1.5, 1.6], [2.6, 0.9], [3, 0]],
    rods=[(0, 1), (1, 2), (2, 3), (3, 4)],
    pinned=[0, 4],
)
TRIANGLE = Linkage([[0, 0], [4, 0], [0, 3]], rods=[(0, 1), (1, 2), (0, 2)])

CASES = {
    # name: (linkage, dimension, branches, certified)
    "straight chain between pins": (CHAIN, 0, 0, True),
    "three parallel cranks": (parallel_cranks(), 1, 1, True),
    "generic four-bar": (FOUR_BAR, 1, 1, True),
    "flat parallelogram": (flat_parallelogram(), 1, 2, True),
    "five-bar": (FIVE_BAR, 2, 1, True),
    "rigid triangle": (TRIANGLE, 0, 0, True),
    "peaucellier": (Linkage.load("peaucellier.txt"), 1, 1, True),
    "collinear K33": (K33, 0, 0, True),
}


@pytest.mark.parametrize("name", CASES)
def test_mobility_of_the_issue_cases(name):
    linkage, dimension, branches, certified = CASES[name]
    report = mobility(linkage)
    assert isinstance(report, MobilityReport)
    assert (report.dimension, report.branches) == (dimension, branches)
    assert report.certified is certified
    assert report.branch_directions.shape[1:] == (linkage.n_vertices, 2)
    # the dimension never exceeds the number of internal flexes
    assert report.dimension <= analyze(linkage).internal_dof
    assert report.explanation


def test_status_strings():
    assert mobility(FOUR_BAR).status == "moves (certified, dimension 1)"
    assert mobility(FIVE_BAR).status == "moves (certified, dimension 2)"
    assert mobility(parallel_cranks()).status == "moves (certified, dimension 1)"
    assert mobility(parallel_cranks(), method="numerical").status == "moves (dimension 1)"
    assert mobility(TRIANGLE).status == "rigid"
    assert mobility(CHAIN).status == "rigid although infinitesimally flexible"
    assert mobility(K33).status == "rigid although infinitesimally flexible"
    # irrational coordinates: no exact route, and four flexes leave the second order open
    k33 = Linkage(K33.vertices * np.sqrt(2.0), rods=K33.rods)
    assert mobility(k33, method="exact").status == "undecided"
    # sampling finds no motion, which proves nothing: undecided, as analyze says (it said
    # "rigid although infinitesimally flexible" beside analyze's "undecided" before)
    loose = mobility(k33)
    assert (loose.status, loose.dimension, loose.certified) == ("undecided", None, False)
    assert loose.method == "numerical-sampling" and "no motion found" in loose.explanation
    assert loose.plain().startswith("undecided")
    report = analyze(k33, with_mobility=True)
    assert report.status == "undecided"
    assert report.summary_lines()[-1] == "motion: undecided"


def test_methods_say_what_was_done():
    assert mobility(FOUR_BAR).method == "implicit-function"
    assert mobility(TRIANGLE).method == "infinitesimal-rigidity"
    assert mobility(K33).method == "second-order"
    assert mobility(flat_parallelogram()).method == "sympy-groebner"
    assert mobility(flat_parallelogram(), method="numerical").method == "numerical-sampling"


@pytest.mark.slow  # Gröbner bases of the five-bar and K33: seconds each
@pytest.mark.parametrize("name", CASES)
def test_the_sympy_and_numerical_routes_agree_where_both_run(name):
    linkage, dimension, _, _ = CASES[name]
    exact = exact_local_dimension(linkage)
    if exact is None:  # too many unknowns (Peaucellier: 8)
        assert linkage.n_vertices - len(linkage.pinned) >= 4
    elif dimension > 0:
        assert exact == dimension
    else:
        # the complex dimension only bounds the real one: the chain of three rods between
        # pins (4 unknowns, 3 equations) is a complex curve with an isolated real point
        assert exact >= dimension
    assert mobility(linkage, method="numerical").dimension == dimension


def test_counting_says_rigid_where_the_cranks_move():
    cranks = parallel_cranks()
    report = analyze(cranks)
    assert report.maxwell_count == 0 and report.internal_dof == 1 and report.self_stresses == 1
    assert report.status == "flexible"
    # the branch is the common translation of the coupler along the cranks' normal
    motion = np.zeros((6, 2))
    motion[3:] = [-0.8, 0.6]
    got = mobility(cranks).branch_directions[0].reshape(-1)
    want = motion.reshape(-1) / np.linalg.norm(motion)
    assert min(np.linalg.norm(got - want), np.linalg.norm(got + want)) < 1e-8


def test_flat_parallelogram_branch_directions():
    report = mobility(flat_parallelogram(3.0, 1.2))
    same_lines(report.branch_directions, branch_lines(3.0, 1.2), 1e-6)


def test_mobility_of_a_transformable_penrose_tiling_where_counting_says_rigid():
    tiling = penrose_tiling(1, transformable=True)
    rep = analyze(tiling)
    assert rep.maxwell_count <= 0 < rep.internal_dof
    report = mobility(tiling)
    assert report.status == "moves (dimension 1)"  # irrational: no exact route
    # the branch direction is the tangent of the known transformation at twist 0
    unit, rods = _tiling_graph_of(tiling)
    eps = 1e-6
    tangent = (transform_positions(unit, rods, eps) - transform_positions(unit, rods, -eps)) / (
        2 * eps
    )
    tangent = (60.0 * tangent).reshape(-1)
    trivial = trivial_motions(tiling.vertices)
    tangent -= trivial @ (trivial.T @ tangent)  # the branch directions are internal
    tangent /= np.linalg.norm(tangent)
    got = report.branch_directions[0].reshape(-1)
    assert abs(got @ tangent) > 1 - 1e-6


def _tiling_graph_of(tiling):
    """The untwisted tile corners (unit edges) and tile rods of a transformable tiling."""
    n_tiles = tiling.n_vertices - tiling.n_rods // 2
    unit = tiling.vertices[:n_tiles] / 60.0
    rods = tiling.rods.reshape(-1, 2, 2)[:, :, 0]  # each tile rod was split into two halves
    return unit, rods


def test_pinned_rods_are_implied_by_the_pins():
    # a four-bar with its ground rod: the rod between the pins carries a self-stress at every
    # placement, which does not stop the implicit function theorem
    grounded = Linkage(FOUR_BAR.vertices, rods=[*FOUR_BAR.rods.tolist(), (0, 3)], pinned=[0, 3])
    assert ground_rows(grounded) == 1
    report = mobility(grounded)
    assert report.status == "moves (certified, dimension 1)"
    assert analyze(grounded).status == "flexible"


def test_landed_points_lie_on_the_constraints():
    # the numerical route projects onto the constraints: the branch directions are flexes
    flat = flat_parallelogram()
    cs = ConstraintSet.from_linkage(flat)
    for u in mobility(flat).branch_directions:
        assert np.linalg.norm(cs.jacobian(flat.vertices) @ u.reshape(-1)) < 1e-8


def test_bad_method_and_rtol():
    with pytest.raises(ValueError, match="method must be one of"):
        mobility(FOUR_BAR, method="guess")
    with pytest.raises(ValueError, match="rtol"):
        mobility(FOUR_BAR, rtol=-1.0)


def test_seeds_agree():
    flat = flat_parallelogram()
    reports = [mobility(flat, seed=s) for s in range(3)]
    assert {(r.dimension, r.branches) for r in reports} == {(1, 2)}


def test_readout_states_the_mobility_of_small_linkages():
    from linkage_widget.session.analysis import READOUT_MOBILITY_MAX_JOINTS, timed_analyze

    report, _ = timed_analyze(FOUR_BAR)
    assert report.summary_lines()[-1] == "motion: moves (certified, dimension 1)"
    report, _ = timed_analyze(K33)
    assert report.summary_lines()[-1] == "motion: rigid although infinitesimally flexible"
    report, _ = timed_analyze(flat_parallelogram())
    assert report.summary_lines()[-1] == (
        "motion: moves (certified, dimension 1); 2 branches cross here"
    )
    report, _ = timed_analyze(penrose_tiling(1, transformable=True))
    assert report.summary_lines()[-1] == "motion: moves (dimension 1)"
    big = penrose_tiling(2)
    assert big.n_vertices > READOUT_MOBILITY_MAX_JOINTS
    report, _ = timed_analyze(big)
    assert report.mobility is None and len(report.summary_lines()) == 4


def test_peaucellier_flat_rhombus_joins_a_two_dimensional_component():
    # O pinned at 0, the input P on its circle about (100, 0) at |OP| = 80 = arm - side: the
    # rhombus is flat, its two side joints meet. Through here pass the inversor's own curve
    # and a 2-dimensional set where the side joints stay welded and Q swings about them.
    u = np.array([32.0, np.sqrt(6400.0 - 32.0**2)]) / 80.0
    pts = [[0, 0], [100, 0], 80 * u, 200 * u, 200 * u, 320 * u]
    rods = [(0, 3), (0, 4), (1, 2), (2, 3), (2, 4), (3, 5), (4, 5)]
    flat = Linkage(pts, rods=rods, pinned=[0, 1])
    report = mobility(flat)
    assert (report.dimension, report.branches, report.certified) == (2, 2, False)
    apart = np.linalg.norm(report.branch_directions[:, 3] - report.branch_directions[:, 4], axis=1)
    # the curve's line: only the side joints move, in opposite senses; on the welded set
    # they move together
    assert sorted(apart.round(2).tolist()) == [0.0, 1.41]


def square_grid(k):
    """A k x k square grid of unit squares' corners, its bottom row pinned at both ends."""
    pts = [[i, j] for j in range(k) for i in range(k)]
    rows = [(j * k + i, j * k + i + 1) for j in range(k) for i in range(k - 1)]
    cols = [(j * k + i, (j + 1) * k + i) for j in range(k - 1) for i in range(k)]
    return Linkage(pts, rods=rows + cols, pinned=[0, k - 1])


def test_square_grid_with_a_pinned_straight_row():
    # A square grid flexes by its ribbons: 2k - 3 flexes. Pinning both ends of the straight
    # bottom row adds a self-stress and keeps every horizontal rod horizontal (each column
    # ribbon holds one bottom rod); each of the k - 1 rows of squares still shears on its own.
    k = 4
    grid = square_grid(k)
    rep = analyze(grid)
    assert (rep.internal_dof, rep.self_stresses, rep.status) == (2 * k - 3, 1, "flexible")
    report = mobility(grid)
    assert (report.dimension, report.branches) == (k - 1, 1)


@pytest.mark.parametrize("bad", ["x", None, np.zeros((3, 2))])
def test_mobility_and_analyze_of_a_non_linkage_name_the_function(bad):
    # they raised AttributeError ('str' object has no attribute 'vertices') before
    for fn, name in ((mobility, "mobility"), (analyze, "analyze")):
        with pytest.raises(TypeError, match=rf"^{name}: linkage must be a Linkage, got "):
            fn(bad)
