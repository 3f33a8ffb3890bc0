"""The exact (Gröbner) local dimension against closed-form knowledge of each mechanism."""

from __future__ import annotations

import numpy as np
import pytest

from linkage_widget import Linkage, analyze
from linkage_widget.rigidity.groebner import exact_local_dimension

FOUR_BAR = Linkage(
    [[0, 0], [0.6, 0.8], [3.6, 2.4], [4, 0]], rods=[(0, 1), (1, 2), (2, 3)], pinned=[0, 3]
)
# Three equal parallel cranks carrying one rigid coupler: 6 unknowns, 6 rods, so counting
# says rigid; the coupler translates on a circle, so it moves with one degree of freedom.
THREE_CRANKS = Linkage(
    [[0, 0], [2, 0], [5, 0], [0.6, 0.8], [2.6, 0.8], [5.6, 0.8]],
    rods=[(0, 3), (1, 4), (2, 5), (3, 4), (4, 5), (3, 5)],
    pinned=[0, 1, 2],
)
# The same cranks with the third one shorter (its pin moved to x = 5.3): the coupler is
# locked, although the placement keeps one infinitesimal flex and one self-stress, so only
# an exact (or higher-order) test can say 0 here.
LOCKED_CRANKS = Linkage(
    [[0, 0], [2, 0], [5.3, 0], [0.6, 0.8], [2.6, 0.8], [5.6, 0.8]],
    rods=[(0, 3), (1, 4), (2, 5), (3, 4), (4, 5), (3, 5)],
    pinned=[0, 1, 2],
)
FLAT_PARALLELOGRAM = Linkage(
    [[0, 0], [1, 0], [3, 0], [2, 0]], rods=[(0, 1), (1, 2), (2, 3)], pinned=[0, 3]
)
FIVE_BAR = Linkage(
    [[0, 0], [1, 1], [2, 2], [3, 1], [4, 0]], rods=[(0, 1), (1, 2), (2, 3), (3, 4)], pinned=[0, 4]
)
STRAIGHT_CHAIN = Linkage([[0, 0], [1, 0], [2, 0]], rods=[(0, 1), (1, 2)], pinned=[0, 2])
TRIANGLE = Linkage([[0, 0], [4, 0], [0, 3]], rods=[(0, 1), (1, 2), (0, 2)])
QUADRILATERAL = Linkage([[0, 0], [3, 0], [4, 2], [1, 3]], rods=[(0, 1), (1, 2), (2, 3), (3, 0)])
K33_COLLINEAR = Linkage(
    [[i, 0] for i in range(6)], rods=[(i, j) for i in range(3) for j in range(3, 6)]
)


@pytest.mark.parametrize(
    ("linkage", "dimension"),
    [
        (FOUR_BAR, 1),
        (THREE_CRANKS, 1),
        (LOCKED_CRANKS, 0),
        (FLAT_PARALLELOGRAM, 1),
        (FIVE_BAR, 2),
        (STRAIGHT_CHAIN, 0),
        (TRIANGLE, 0),
        (QUADRILATERAL, 1),
    ],
    ids=[
        "four-bar",
        "three-cranks",
        "locked-cranks",
        "flat-parallelogram",
        "five-bar",
        "straight-chain",
        "triangle",
        "free-quadrilateral",
    ],
)
def test_local_dimension_of_known_mechanisms(linkage, dimension):
    assert exact_local_dimension(linkage) == dimension


def test_the_locked_cranks_are_infinitesimally_flexible():
    # what makes LOCKED_CRANKS a test of the exact route, not of the first-order one
    report = analyze(LOCKED_CRANKS)
    assert (report.internal_dof, report.self_stresses) == (1, 1)


@pytest.mark.slow
def test_collinear_k33_is_isolated_even_over_the_complex_numbers():
    # 4 infinitesimal flexes and 4 self-stresses, but second-order rigid: the placement
    # is an isolated point of the variety, so the exact route proves it rigid.
    assert exact_local_dimension(K33_COLLINEAR) == 0


def test_a_fixed_angle_locks_a_four_bar():
    braced = FOUR_BAR.copy()
    braced.add_angle(1, 0, 2)  # the angle between crank and coupler, fixed
    assert exact_local_dimension(braced) == 0


def test_the_answer_does_not_depend_on_the_random_hyperplanes():
    assert {exact_local_dimension(FIVE_BAR, seed=s) for s in range(3)} == {2}


def test_declines_what_is_too_large_or_not_rational():
    assert exact_local_dimension(FIVE_BAR, max_variables=4) is None
    irrational = FOUR_BAR.copy()
    irrational.move_vertex(1, [np.cos(1.0), np.sin(1.0)])
    assert exact_local_dimension(irrational) is None
