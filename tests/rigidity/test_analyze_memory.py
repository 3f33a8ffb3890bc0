"""``analyze`` above 2 000 joints allocates no dense ``2n x 2n`` or ``c x c`` matrix (issue 14).

A budget on tracemalloc's peak, not a timer: one dense float64 ``2n x 2n`` matrix of a
2 500-joint framework is 200 MB; the whole analysis, with the bases it shows (the
velocity basis, the stresses, the rod stress), must stay under a fifth of the smaller of
``8 (2n)^2`` and ``8 c^2`` bytes.
"""

import tracemalloc

import numpy as np
import pytest

from linkage_widget import Linkage, analyze


def bent_ladder(k: int, unbraced: int = 3) -> Linkage:
    """A ladder of ``k`` squares, slightly bent, all but ``unbraced`` squares braced, 2 pins."""
    xs = np.arange(k + 1, dtype=float) * 10
    bend = 0.5 * np.sin(np.arange(k + 1))
    verts = np.column_stack([np.repeat(xs, 2), np.ravel(np.column_stack([bend, bend + 10]))])
    c = np.arange(k)
    free = set(np.linspace(0, k - 1, unbraced).astype(int).tolist())
    braced = np.array([i for i in c if i not in free])
    rods = np.concatenate(
        [
            np.column_stack([2 * np.arange(k + 1), 2 * np.arange(k + 1) + 1]),
            np.column_stack([2 * c, 2 * c + 2]),
            np.column_stack([2 * c + 1, 2 * c + 3]),
            np.column_stack([2 * braced, 2 * braced + 3]),
        ]
    )
    return Linkage(verts, rods, pinned=[0, 1])


def braced_grid(k: int, every: int = 7) -> Linkage:
    """A ``k x k`` grid of squares' corners, every ``every``-th square braced, 2 pins.

    Its straight lines carry many self-stresses and its unbraced rows many flexes.
    """
    ij = np.arange(k * k).reshape(k, k)
    verts = np.column_stack([np.repeat(np.arange(k), k), np.tile(np.arange(k), k)]) * 10.0
    sq = ij[:-1, :-1].ravel()[::every]
    rods = np.concatenate(
        [
            np.column_stack([ij[:, :-1].ravel(), ij[:, 1:].ravel()]),
            np.column_stack([ij[:-1, :].ravel(), ij[1:, :].ravel()]),
            np.column_stack([sq, sq + k + 1]),
        ]
    )
    return Linkage(verts, rods, pinned=[0, 1])


@pytest.mark.parametrize(
    "make", [lambda: bent_ladder(1249), lambda: braced_grid(50)], ids=["ladder", "grid"]
)
def test_analyze_allocates_no_dense_square_matrix(make):
    link = make()
    assert link.n_vertices >= 2000
    c = link.n_rods + 2 * len(link.pinned)
    budget = 8 * min(2 * link.n_vertices, c) ** 2 / 5
    tracemalloc.start()
    try:
        report = analyze(link)
        shown = (report.velocity_basis, report.stresses, report.rod_stress)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert report.method.startswith("sparse-inertia"), report.method
    assert report.dof >= report.trivial_dof and shown[0].shape[0] >= report.trivial_dof
    # measured: 5 MB (ladder), 21 MB (grid) against 200 MB for one dense 2n x 2n
    assert peak < budget, (peak, budget)
