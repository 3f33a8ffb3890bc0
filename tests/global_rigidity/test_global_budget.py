"""The stress search is bounded: sizes refused up front, a budget on its evaluations,
the cheap fold before it, no ``(m, m)`` matrix (issue 26 review, item 5).

Oracles: counts of calls (the eigenproblem inside the search, the search itself), the
definition of a self-stress and of an orthonormal basis (checked with numpy directly),
and the complete graph's closed-form facts.
"""

import importlib
from itertools import combinations

import numpy as np
from grids import grid

from linkage_widget import Linkage, global_rigidity
from linkage_widget.rigidity import universal
from linkage_widget.rigidity.universal import (
    psd_stress,
    rigidity_matrix,
    self_stress_basis,
)

GLOBAL = "linkage_widget.rigidity.global_rigidity"


def _braced_grid(k: int) -> tuple[np.ndarray, np.ndarray]:
    """A k x k unit grid with both diagonals in every square: points and rods."""
    n, edges = grid(k, k, braced=True)
    xy = np.array([[v % k, v // k] for v in range(n)], float)
    return xy, np.array(edges)


def test_the_search_stops_within_its_budget(monkeypatch):
    # before: 6 starts of up to 200 SLSQP steps each, whatever the size (an 8 x 8
    # braced grid: about 4 000 eigenproblems, 9 s); here a budget of 40 evaluations
    xy, edges = _braced_grid(5)
    n, d = xy.shape
    s = len(edges) - np.linalg.matrix_rank(rigidity_matrix(xy, edges))
    k = n - d - 1
    monkeypatch.setattr(universal, "PSD_BUDGET", 40 * (k**3 + s * k * k))
    calls = []
    smallest = universal._smallest
    monkeypatch.setattr(universal, "_smallest", lambda *a: calls.append(1) or smallest(*a))
    w, why = psd_stress(xy, edges, np.full(len(edges), "rod"), seed=0)
    assert 0 < len(calls) <= 40 + 8  # + one check per start
    assert w is not None or "budget" in why


def test_a_12_by_12_braced_grid_is_refused_by_size_and_says_so():
    xy, edges = _braced_grid(12)  # 221 self-stresses, matrices of size 141: 4.4e6
    w, why = psd_stress(xy, edges, np.full(len(edges), "rod"), seed=0)
    assert w is None and "s (n - d - 1)^2" in why and "self-stresses of 144 joints" in why


def test_the_fold_comes_before_the_stress_search(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the stress search ran although a fold settles it")

    monkeypatch.setattr(importlib.import_module(GLOBAL), "psd_stress", refuse)
    kite = Linkage([[0, 0], [2, 0], [1, 1.5], [1, -1.2]],
                   rods=[(0, 1), (1, 2), (0, 2), (0, 3), (1, 3)])  # fmt: skip
    assert global_rigidity(kite, seed=0).globally_rigid is False


def test_the_self_stress_basis_is_orthonormal_and_balanced_without_a_full_svd(monkeypatch):
    xy, edges = _braced_grid(4)
    svd = np.linalg.svd

    def economy_only(a, full_matrices=True, **kwargs):
        assert not full_matrices or a.shape[0] <= len(xy), "a full (m, m) SVD of R"
        return svd(a, full_matrices=full_matrices, **kwargs)

    monkeypatch.setattr(np.linalg, "svd", economy_only)
    basis, rank = self_stress_basis(xy, edges)
    monkeypatch.setattr(np.linalg, "svd", svd)
    r = rigidity_matrix(xy, edges)
    assert rank == np.linalg.matrix_rank(r) and basis.shape == (len(edges), len(edges) - rank)
    assert np.allclose(basis.T @ basis, np.eye(basis.shape[1]), atol=1e-10)
    assert np.abs(r.T @ basis).max() < 1e-10


def test_k200_is_globally_rigid_at_once_without_the_search():
    xy = np.random.default_rng(1).standard_normal((200, 2))
    report = global_rigidity(Linkage(xy, rods=list(combinations(range(200), 2))), seed=0)
    assert report.generically_globally_rigid and report.globally_rigid is True
    assert report.three_connected and report.redundantly_rigid and report.separating_pair is None
