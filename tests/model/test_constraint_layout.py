"""The constraint rows' layout kept per graph, the dense Jacobian and the small median (issue 27).

A 6-joint analysis spent two thirds of ``ConstraintSet.from_linkage`` on the sparsity
pattern, which depends on the graph alone; it is now kept per small graph. These tests
check that what is kept and reused gives exactly what a fresh build gives.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from linkage_widget import Linkage
from linkage_widget.constraints import ConstraintSet, _median
from linkage_widget.constraints import _pattern as layout_module
from linkage_widget.examples import list_examples, load_example


@st.composite
def small_linkages(draw) -> Linkage:
    """Random placements of random graphs: rods, fixed angles with their rods, pins."""
    n = draw(st.integers(2, 9))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    p = rng.integers(-20, 20, size=(n, 2)) + rng.random((n, 2)) * draw(st.sampled_from([0, 1]))
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n) if np.any(p[i] != p[j])]
    rods = [pairs[k] for k in sorted(set(rng.integers(0, len(pairs), size=2 * n).tolist()))]
    angles = []
    for i, j in rods[:1]:  # an angle at i between two of its rods, when it has two
        k = next((b if a == i else a for a, b in rods if i in (a, b) and j not in (a, b)), None)
        u, v = p[j] - p[i], p[k] - p[i] if k is not None else (0, 0)
        if k is not None and u[0] * v[1] - u[1] * v[0] != 0:
            angles.append((i, j, k))
    pins = sorted(set(rng.integers(0, n, size=draw(st.integers(0, 3))).tolist()))
    return Linkage(p, rods=rods, angles=angles, pinned=pins)


def _layout_arrays(cs: ConstraintSet) -> tuple[np.ndarray, ...]:
    return cs._rows, cs._cols, cs._order, cs._indices, cs._indptr


@settings(max_examples=150, deadline=None)
@given(small_linkages())
def test_a_kept_layout_builds_the_same_matrix_as_a_fresh_one(link: Linkage) -> None:
    layout_module.LAYOUTS.clear()
    fresh = ConstraintSet.from_linkage(link)
    kept = ConstraintSet.from_linkage(link)  # from LAYOUTS
    for a, b in zip(_layout_arrays(fresh), _layout_arrays(kept), strict=True):
        assert a is b and not a.flags.writeable
    p = link.vertices + np.random.default_rng(0).normal(size=link.vertices.shape)
    sparse = kept.jacobian(p).toarray()
    np.testing.assert_array_equal(kept.jacobian_dense(p), sparse)
    rows, cols = layout_module.pattern(fresh.rods, fresh.angles, fresh.pinned, 2, fresh.guides)
    np.testing.assert_array_equal(rows, fresh._rows)
    np.testing.assert_array_equal(cols, fresh._cols)


def test_the_dense_jacobian_equals_the_sparse_one_on_every_example() -> None:
    """Sliders, slots, angles without rods and 3-D examples included (bit for bit)."""
    for name in list_examples():
        link = load_example(name)
        cs = ConstraintSet.from_linkage(link)
        np.testing.assert_array_equal(
            cs.jacobian_dense(link.vertices), cs.jacobian(link.vertices).toarray(), err_msg=name
        )


def test_graphs_of_the_same_size_get_their_own_layout() -> None:
    p = [[0, 0], [1, 0], [0, 1]]
    one = Linkage(p, rods=[(0, 1), (1, 2)])
    other = Linkage(p, rods=[(0, 2), (1, 2)])
    a, b = ConstraintSet.from_linkage(one), ConstraintSet.from_linkage(other)
    assert not np.array_equal(a._cols, b._cols)
    assert a.jacobian_dense(p)[0].tolist() == [-1, 0, 1, 0, 0, 0]
    assert b.jacobian_dense(p)[0].tolist() == [0, -1, 0, 0, 0, 1]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.floats(1e-6, 1e6), min_size=1, max_size=300))
def test_the_small_median_is_numpys_bit_for_bit(values: list[float]) -> None:
    x = np.array(values)
    assert _median(x) == float(np.median(x))
