"""The pins' shortcut of ``trivial_motions`` gives the general route's basis, bit for bit.

With pins and no sliders the pins' rows alone decide which rigid motions are left
(issue 27: a pinned 6-joint linkage keeps none, and the basis of every joint was built
for nothing). The general route -- the whole basis, then its ground rows -- is written
out here from the module's own pieces as the reference.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from linkage_widget.rigidity import rigid_motions as rm
from linkage_widget.rigidity.tolerances import TRIVIAL_RCOND


def _general_route(p: np.ndarray, pins: np.ndarray) -> np.ndarray:
    n, d = p.shape
    c = p.mean(axis=0)
    radius = float(np.sqrt(((p - c) ** 2).sum(axis=1).mean()))
    basis = rm._motion_columns(p, c, radius if radius > 0 else 1.0)
    held = rm._ground_rows(basis.reshape(n, d, -1), d, pins, None)
    if held.size:
        basis = basis @ rm._null_space(held, rcond=TRIVIAL_RCOND)
    if basis.shape[1] == 0:
        return np.zeros((d * n, 0))
    return rm._orth(basis, rcond=TRIVIAL_RCOND)


@settings(max_examples=400, deadline=None)
@given(
    st.integers(1, 8),
    st.sampled_from([2, 3]),
    st.integers(0, 2**32 - 1),
    st.sampled_from([1e-9, 1.0, 1e6]),
    st.sampled_from([None, 0.0, 1e-13, 1e-9]),
)
def test_the_pins_shortcut_is_the_general_route(n, d, seed, size, near) -> None:
    rng = np.random.default_rng(seed)
    p = rng.standard_normal((n, d)) * size
    if near is not None and n > 1:  # coincident or nearly coincident pins
        p[1] = p[0] + near
    pins = rng.integers(0, n, size=rng.integers(1, 4))
    got = rm.trivial_motions(p, pins)
    want = _general_route(p, pins)
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, want)


def test_two_distinct_pins_leave_nothing_and_one_pin_a_turn() -> None:
    p = np.array([[0.0, 0.0], [4.0, 0.0], [1.0, 2.0]])
    assert rm.trivial_motions(p, [0, 1]).shape == (6, 0)
    turn = rm.trivial_motions(p, [0])
    assert turn.shape == (6, 1)
    v = turn[:, 0].reshape(3, 2)
    np.testing.assert_allclose(v[0], 0.0, atol=1e-15)
    # a turn about the pin: each velocity perpendicular to its joint's arm from the pin
    np.testing.assert_allclose((v * (p - p[0])).sum(axis=1), 0.0, atol=1e-14)
    assert rm.trivial_motions(p, [0, 0]).shape == (6, 1)  # the same pin twice: one place
