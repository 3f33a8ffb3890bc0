"""The exact routes with sliders and slots (issue 25): Gröbner local dimension, exact second order.

Each answer is the mechanism's own count, worked out by hand in the comments: the
exact systems carry the sliders' and slots' polynomials and gauge only the symmetries
the ground leaves (a slide along parallel lines), never a turn a slider forbids.
"""

from __future__ import annotations

import numpy as np
import pytest

from linkage_widget import Linkage
from linkage_widget.rigidity import exact_local_dimension
from linkage_widget.rigidity.second_order_solve import exact_second_order_rigid

X, Y = (1.0, 0.0), (0.0, 1.0)


def rod(sliders, pinned=()):
    return Linkage([[3.0, 0.0], [0.0, 4.0]], rods=[(0, 1)], pinned=list(pinned), sliders=sliders)


CASES = {
    # both ends on crossing lines: the trammel turns, 1
    "trammel": (rod([(0, (0, 0), X), (1, (0, 0), Y)]), 1, False),
    # one end on a line: the slide is gauged, the turn about that end is left, 1
    "one slider": (rod([(0, (0, 0), X)]), 1, False),
    # both ends on parallel lines: only the slide, gauged: 0
    "parallel": (rod([(0, (0, 0), X), (1, (0, 4), X)]), 0, True),
    # pin (0, 0), rod to (1, 0), that end on the line x = 1: a dead point, rigid
    "dead point": (
        Linkage([[0, 0], [1, 0]], rods=[(0, 1)], pinned=[0], sliders=[(1, (1, 0), Y)]),
        0,
        True,
    ),
    # the in-line slider-crank: 1
    "slider-crank": (
        Linkage(
            [[0, 0], [1, 1], [4, 0]], rods=[(0, 1), (1, 2)], pinned=[0], sliders=[(2, (0, 0), X)]
        ),
        1,
        False,
    ),  # fmt: skip
    # joint 2 in the slot of the pinned bar 0-1, joint 3 hanging from it by a rod: 2
    "slot": (
        Linkage([[0, 0], [4, 0], [1, 0], [1, 1]], rods=[(2, 3)], pinned=[0, 1], slots=[(0, 1, 2)]),
        2,
        False,
    ),  # fmt: skip
}


@pytest.mark.parametrize("name", list(CASES))
def test_exact_local_dimension_counts_the_guides(name):
    link, dimension, _ = CASES[name]
    assert exact_local_dimension(link) == dimension


@pytest.mark.parametrize("name", list(CASES))
def test_exact_second_order_reads_the_guide_rows(name):
    link, _, rigid = CASES[name]
    assert exact_second_order_rigid(link) is rigid


def test_a_line_at_an_irrational_angle_declines():
    link = Linkage([[0, 0], [1, 1]], rods=[(0, 1)], sliders=[(0, (0, 0), (1.0, 1.0))])
    assert np.isclose(link.sliders[0].direction[0], np.sqrt(0.5))
    assert exact_local_dimension(link) is None
    assert exact_second_order_rigid(link) is None
