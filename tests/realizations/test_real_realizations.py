"""``real_realizations``: every real placement of given lengths, checked independently.

Oracles: a triangle's mirror image (closed form); a graph built by 0-extensions only
on the two ends of a rod (a 2-tree) has exactly :math:`2^{n-2}` real placements (each
new joint meets two circles whose centres keep their distance, so twice, in every
placement of the rest); the 3-prism's real placements counted by a sweep
over one angle (``prism_sweep``, no Newton), including lengths with all 24 real
(found by a sweep over random placements, as Borcea and Streinu's bound says can be).
"""

import numpy as np
import pytest
from laman_graphs import random_laman
from prism_sweep import PRISM, prism_real_count

from linkage_widget import Linkage, real_realizations, realization_count

#: A placement of the 3-prism whose lengths give 24 real placements: all the complex ones.
ALL_REAL_PRISM = [[0.68, 0.18], [-0.5, -0.15], [-1.22, -0.96], [-1.88, -0.68],
                  [1.34, -0.56], [0.79, 0.0]]  # fmt: skip


def assert_placements(link, found):
    p = link.vertices
    lengths = link.rod_lengths()
    (a, b) = link.rods[0]
    np.testing.assert_array_equal(found[0], p)  # the current placement first
    for q in found:
        assert q.shape == p.shape
        np.testing.assert_array_equal(q[[a, b]], p[[a, b]])  # aligned by the first rod
        got = np.linalg.norm(q[link.rods[:, 0]] - q[link.rods[:, 1]], axis=1)
        assert np.max(np.abs(got - lengths)) <= 1e-10
    flat = np.array([q.ravel() for q in found])
    gaps = np.linalg.norm(flat[:, None] - flat[None], axis=2) + np.eye(len(found))
    assert gaps.min() > 1e-6  # no placement twice
    assert len(found) <= realization_count(link)


def test_triangle_and_its_mirror_image():
    link = Linkage([[0, 0], [2, 0], [0.5, 1.5]], rods=[(0, 1), (1, 2), (0, 2)])
    found = real_realizations(link)
    assert len(found) == 2
    np.testing.assert_allclose(found[1][2], [0.5, -1.5], atol=1e-12)
    assert_placements(link, found)


def two_tree(n, seed):
    """Joints added one by one on the two ends of a random rod so far."""
    rng = np.random.default_rng(seed)
    rods = [(0, 1)]
    for v in range(2, n):
        i, j = rods[rng.integers(len(rods))]
        rods += [(i, v), (j, v)]
    return rods


@pytest.mark.parametrize("n", [4, 6, 8])
def test_zero_extensions_on_rods_double_the_real_placements(n):
    link = Linkage(np.random.default_rng(n).standard_normal((n, 2)), rods=two_tree(n, n))
    found = real_realizations(link)
    assert len(found) == 2 ** (n - 2) == realization_count(link)
    assert_placements(link, found)


@pytest.mark.parametrize("seed", [3, 7, 11])
def test_prism_real_placements_match_a_sweep(seed):
    link = Linkage(np.random.default_rng(seed).standard_normal((6, 2)), rods=PRISM)
    found = real_realizations(link)
    assert len(found) == prism_real_count(link.vertices)
    assert_placements(link, found)


def test_prism_with_all_24_placements_real():
    link = Linkage(ALL_REAL_PRISM, rods=PRISM)
    assert prism_real_count(link.vertices) == 24
    found = real_realizations(link)
    assert len(found) == 24 == realization_count(link)
    assert_placements(link, found)


def test_sorted_by_distance_from_the_current_placement():
    link = Linkage(ALL_REAL_PRISM, rods=PRISM)
    found = real_realizations(link)
    gaps = [np.max(np.abs(q - found[0])) for q in found]
    assert gaps == sorted(gaps)


def test_too_many_joints_and_not_laman_are_refused():
    big = Linkage(np.random.default_rng(0).standard_normal((9, 2)), rods=random_laman(9, 0))
    with pytest.raises(ValueError, match="at most 8 joints; this one has 9"):
        real_realizations(big)
    square = Linkage([[0, 0], [1, 0], [1, 1], [0, 1]], rods=[(0, 1), (1, 2), (2, 3), (3, 0)])
    with pytest.raises(ValueError, match="under-braced"):
        real_realizations(square)
