"""The sparse rank route (issue 14) against the dense SVD, PyRigi's exact rank and a memory budget.

Every check compares :func:`sparse_rank_report` with an independent dense SVD of the
same scaled rigidity matrix (``numpy.linalg.svd``, the reference path): identical
rank / DOF / stress counts at the same relative tolerance, and the flex and stress
subspaces equal up to principal angles of 1e-8 (``scipy.linalg.subspace_angles``).
"""

import math
import tracemalloc

import numpy as np
import pytest
import scipy.linalg as sla
from conftest import reference_linkage

from linkage_widget.constraints import ConstraintSet
from linkage_widget.examples import list_examples, load_example
from linkage_widget.model import Linkage
from linkage_widget.rigidity import RANK_RTOL, analyze
from linkage_widget.rigidity.sparse_rank import scale_aware_rtol, sparse_rank_report

REFERENCE_FILES = [
    "peaucellier.txt",
    "watt.txt",
    "penrose1.txt",
    "penrose1t.txt",
    "penrose1t-locked.txt",
    "penrose2.txt",
    "penrose2t.txt",
    "penrose2t-2.txt",
    "penrose3.txt",
    "penrose3t.txt",
    "penrose3t-2.txt",
    "penrose4.txt",
    pytest.param("penrose4t.txt", marks=pytest.mark.slow),  # the dense references take ~10 s
]
ANGLE_TOL = 1e-8


def dense_reference(link: Linkage, rtol: float = RANK_RTOL):
    """Rank, kernel basis (N, dof), left-kernel basis (c, s) and relative singular values."""
    a = ConstraintSet.from_linkage(link).jacobian(link.vertices).toarray()
    u, s, vt = np.linalg.svd(a, full_matrices=True)
    rank = int(np.sum(s > rtol * s[0])) if s.size else 0
    return rank, vt[rank:].T, u[:, rank:], s / (s[0] if s.size else 1.0)


def max_angle(x: np.ndarray, y: np.ndarray) -> float:
    assert x.shape == y.shape, (x.shape, y.shape)
    return float(sla.subspace_angles(x, y).max()) if x.shape[1] else 0.0


def assert_agrees(link: Linkage, rtol: float = RANK_RTOL):
    """Counts identical to the dense SVD's; kernel and stress subspaces within ANGLE_TOL."""
    rank, kernel, left, _ = dense_reference(link, rtol)
    rep = sparse_rank_report(link, rtol=rtol)
    cols, c = 2 * link.n_vertices, rep.n_constraints
    assert (rep.rank, rep.dof, rep.self_stresses) == (rank, cols - rank, c - rank)
    assert max_angle(rep.kernel(rep.dof), kernel) <= ANGLE_TOL
    assert max_angle(rep.stresses(rep.self_stresses).T, left) <= ANGLE_TOL
    return rep


@pytest.mark.parametrize("name", REFERENCE_FILES)
def test_reference_files_agree_with_dense(name):
    link = Linkage.load(reference_linkage(name))
    rep = assert_agrees(link)
    assert rep.decided, rep
    # The same counts as the product's dense analysis (the DOF readout and stress count).
    dense = analyze(link)
    assert (rep.dof, rep.self_stresses) == (dense.dof, dense.self_stresses)


@pytest.mark.parametrize("name", list_examples())
def test_bundled_examples_agree_with_dense(name):
    rep = assert_agrees(load_example(name))
    assert rep.decided
    # exact (few-decimal) data: the scale-aware tolerance is round-off, and changes nothing
    auto = sparse_rank_report(load_example(name), rtol="auto")
    assert auto.tolerance < 1e-12 and (auto.dof, auto.self_stresses) == (rep.dof, rep.self_stresses)


def random_framework(seed: int) -> Linkage:
    """Seeded frameworks of four kinds: generic, special (collinear grid points), pins, angles."""
    rng = np.random.default_rng(seed)
    kind = seed % 4
    n = int(rng.integers(3, 15))
    if kind == 1:  # distinct points of a 5 x 5 integer grid: collinear triples abound
        cells = rng.choice(25, size=min(n, 25), replace=False)
        pts = np.column_stack([cells // 5, cells % 5]).astype(float)
    else:
        pts = rng.standard_normal((n, 2)) * 10
    pairs = np.array([(i, j) for i in range(n) for j in range(i + 1, n)])
    m = min(len(pairs), max(1, 2 * n - 3 + int(rng.integers(-3, 4))))
    rods = pairs[rng.choice(len(pairs), size=m, replace=False)]
    angles = []
    if kind == 3:
        for i in rng.permutation(n)[:3]:
            nb = [int(j) for a, b in rods for j in (a, b) if i in (a, b) and j != i]
            if len(nb) >= 2:
                angles.append((int(i), nb[0], nb[1]))
    pinned = rng.choice(n, size=int(rng.integers(1, 3)), replace=False) if kind >= 2 else []
    return Linkage(pts, rods, angles=angles, pinned=pinned)


@pytest.mark.parametrize("block", range(8))
def test_random_frameworks_agree_with_dense(block):
    """200 seeded frameworks (25 per block): same counts and subspaces as the dense SVD."""
    for seed in range(25 * block, 25 * block + 25):
        link = random_framework(seed)
        _, _, _, rel = dense_reference(link)
        near = np.any((rel > RANK_RTOL / 3) & (rel < 3 * RANK_RTOL))
        rep = assert_agrees(link)
        # Undecided exactly when a singular value is within a factor 3 of the threshold.
        assert rep.decided != near, (seed, rel)


def collinear_chain(offset: float) -> Linkage:
    """Two rods between pins at (0, 0) and (2, 0), the middle joint ``offset`` off the line."""
    return Linkage([[0, 0], [1, offset], [2, 0]], rods=[(0, 1), (1, 2)], pinned=[0, 2])


@pytest.mark.parametrize(
    ("offset", "dof", "status"),
    [
        (1e-3, 0, "decided"),
        (1e-7, 0, "near-singular, undecided"),
        (1e-12, 1, "decided"),
    ],
)
def test_gap_decides_or_says_undecided(offset, dof, status):
    rep = sparse_rank_report(collinear_chain(offset))
    assert rep.status == status
    if status == "decided":
        assert rep.dof == dof
    else:
        # the singular value it saw is reported, relative to the largest: the dense one
        seen = rep.sigma_below if rep.sigma_below is not None else rep.sigma_above
        rel = dense_reference(collinear_chain(offset))[3]
        assert seen == pytest.approx(rel[-1], rel=1e-6)
        assert RANK_RTOL / 3 < seen < 3 * RANK_RTOL


def laman_with_flat_joint(seed: int) -> Linkage:
    """A 12-joint Laman framework at exact integer coordinates with sigma_min ~ 1e-8 sigma_max.

    Eleven joints built by Henneberg vertex additions at random integers up to 1e8;
    the twelfth joint hangs on rods to joints 0 and 1 and sits one unit off the segment
    between them (half-way), so the framework is infinitesimally rigid, but only just.
    """
    rng = np.random.default_rng(seed)
    pts = [rng.integers(0, 10**8, size=2) for _ in range(11)]
    pts[1] = pts[0] + 2 * rng.integers(10**7, 4 * 10**7, size=2)
    rods = [(0, 1), (0, 2), (1, 2)]
    for v in range(3, 11):
        a, b = rng.choice(v, size=2, replace=False)
        rods += [(int(a), v), (int(b), v)]
    d = (pts[1] - pts[0]) // 2
    normal = np.array([1, 0]) if abs(d[1]) > abs(d[0]) else np.array([0, 1])
    pts.append(pts[0] + d + normal)
    rods += [(0, 11), (1, 11)]
    return Linkage(np.array(pts, dtype=float), rods)


def test_scale_aware_tolerance_matches_pyrigi_exact_rank():
    """Fixed 1e-7 calls it flexible; rtol='auto' and PyRigi's exact rank say inf. rigid."""
    from pyrigi import Framework, Graph

    link = laman_with_flat_joint(0)
    _, _, _, rel = dense_reference(link)
    assert 1e-12 < rel[2 * 12 - 3 - 1] < 1e-7  # the smallest genuine singular value
    fixed = sparse_rank_report(link)
    auto = sparse_rank_report(link, rtol="auto")
    framework = Framework(
        Graph([tuple(map(int, r)) for r in link.rods]),
        {i: [int(x), int(y)] for i, (x, y) in enumerate(link.vertices)},
    )
    assert framework.is_inf_rigid()  # exact arithmetic on the integer coordinates
    assert fixed.dof == 4  # today's rule: one spurious flex
    assert auto.dof == 3 and auto.decided  # the trivial motions only, as PyRigi says
    assert auto.tolerance < 1e-12


@pytest.mark.parametrize("name", ["penrose2t.txt", "penrose4t.txt", "penrose1t-locked.txt"])
def test_scale_aware_tolerance_keeps_the_penrose_story(name):
    """Six-decimal data: its rounded flex stays a flex, the locked file's 1.5e-6 stays rigid."""
    link = Linkage.load(reference_linkage(name))
    auto = sparse_rank_report(link, rtol="auto")
    fixed = sparse_rank_report(link)
    assert (auto.dof, auto.self_stresses) == (fixed.dof, fixed.self_stresses)
    assert 1e-9 < auto.tolerance < 1e-7 and auto.decided
    assert scale_aware_rtol(link, fixed.sigma_max) == auto.tolerance


def braced_ladder(k: int) -> Linkage:
    """A ladder of ``k`` squares, every square braced, slightly bent (no collinear rails)."""
    xs = np.arange(k + 1, dtype=float) * 10
    bend = 0.5 * np.sin(np.arange(k + 1))
    verts = np.column_stack([np.repeat(xs, 2), np.ravel(np.column_stack([bend, bend + 10]))])
    c = np.arange(k)
    rods = np.concatenate(
        [
            np.column_stack([2 * np.arange(k + 1), 2 * np.arange(k + 1) + 1]),
            np.column_stack([2 * c, 2 * c + 2]),
            np.column_stack([2 * c + 1, 2 * c + 3]),
            np.column_stack([2 * c, 2 * c + 3]),
        ]
    )
    return Linkage(verts, rods)


def square_grid(k: int, every: int = 7) -> Linkage:
    """A k x k grid of squares' corners, every ``every``-th square braced."""
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
    return Linkage(verts, rods)


@pytest.mark.parametrize("make", [lambda: braced_ladder(1249), lambda: square_grid(50)])
def test_no_dense_square_matrix_above_2000_joints(make):
    """Peak traced memory far below one dense 2n x 2n (or c x c) float64 matrix."""
    link = make()
    assert link.n_vertices >= 2000
    dense_bytes = 8 * (2 * link.n_vertices) ** 2
    tracemalloc.start()
    try:
        rep = sparse_rank_report(link)
        rep.kernel()
        rep.stresses()
        rep.flexes(10)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert rep.dof >= 3 and rep.rank > 0
    # measured: 4 MB (ladder) and 19 MB (grid) against 200 MB for one dense 2n x 2n
    assert peak < dense_bytes / 5, (peak, dense_bytes)


def test_bad_rtol_is_refused():
    with pytest.raises(ValueError, match="rtol"):
        sparse_rank_report(collinear_chain(1.0), rtol=-1.0)


def test_flexes_are_orthogonal_to_trivial_motions():
    rep = sparse_rank_report(Linkage.load(reference_linkage("penrose3t.txt")))
    flexes = rep.flexes()
    assert flexes.shape == (2 * rep.n_vertices, rep.dof - 3)
    assert np.allclose(flexes.T @ flexes, np.eye(rep.dof - 3), atol=1e-10)
    dense = analyze(Linkage.load(reference_linkage("penrose3t.txt")))
    ref = dense.velocity_basis[3:].reshape(dense.internal_dof, -1).T
    assert max_angle(flexes, ref) <= ANGLE_TOL


def many_k4(copies: int, seed: int = 0) -> Linkage:
    """Disjoint generic K4s (one self-stress each) beside as many loose joints."""
    rng = np.random.default_rng(seed)
    pts = rng.standard_normal((5 * copies, 2)) * 10
    k4 = np.array([(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)])
    rods = np.concatenate([k4 + 4 * i for i in range(copies)])
    return Linkage(pts, rods)


def test_many_small_singular_values_are_counted_by_inertia_alone(monkeypatch):
    import linkage_widget.rigidity.sparse_rank as sr

    monkeypatch.setattr(sr, "MAX_PAIRS", 20)  # 30 stresses: beyond what Lanczos is asked for
    link = many_k4(30)
    rep = assert_agrees(link)
    assert rep.self_stresses == 30 and "inertia" in rep.method and "no Ritz" in rep.method
    assert rep.decided


@pytest.mark.parametrize("seed", range(12))
def test_auto_rank_equals_pyrigi_exact_rank_on_integer_frameworks(seed):
    """Integer coordinates (exact data), generic or on a 5 x 5 grid (collinear triples).

    Conventions: PyRigi's rigidity matrix has rows p_i - p_j, ours the same divided by
    the rod length, so the ranks are equal; no pins or angles (PyRigi has neither).
    """
    from pyrigi import Framework, Graph

    rng = np.random.default_rng(100 + seed)
    n = int(rng.integers(4, 9))
    side = 5 if seed % 2 else 1000
    cells = rng.choice(side * side, size=n, replace=False)
    pts = np.column_stack([cells // side, cells % side])
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    edges = [
        pairs[k] for k in rng.choice(len(pairs), size=min(len(pairs), 2 * n - 2), replace=False)
    ]
    link = Linkage(pts.astype(float), edges)
    graph = Graph.from_vertices_and_edges(list(range(n)), edges)
    exact = Framework(graph, {i: [int(x), int(y)] for i, (x, y) in enumerate(pts)})
    assert sparse_rank_report(link, rtol="auto").rank == exact.rigidity_matrix_rank()


def test_dense_fallback_gives_the_dense_counts():
    """The path taken when SuperLU leaves the diagonal (its pivots are then no inertia)."""
    import linkage_widget.rigidity.sparse_rank as sr

    link = Linkage.load(reference_linkage("penrose2t.txt"))
    a = ConstraintSet.from_linkage(link).jacobian(link.vertices).tocsr()
    rep = sr._dense_fallback(link, a, RANK_RTOL, 1.0)
    rank, kernel, left, _ = dense_reference(link)
    assert (rep.rank, rep.dof, rep.self_stresses) == (rank, 2 * link.n_vertices - rank, 169 - rank)
    assert rep.method.startswith("dense-svd")
    assert max_angle(rep.kernel(rep.dof), kernel) <= ANGLE_TOL
    assert max_angle(rep.stresses(rep.self_stresses).T, left) <= ANGLE_TOL


@pytest.mark.parametrize("name", ["penrose2t.txt", "penrose3t-2.txt", "penrose1t-locked.txt"])
def test_excited_motion_is_the_projection_onto_the_dense_kernel(name):
    link = Linkage.load(reference_linkage(name))
    _, kernel, _, _ = dense_reference(link)
    drag = np.random.default_rng(5).standard_normal((link.n_vertices, 2))
    got = sparse_rank_report(link).excited_motion(drag)
    want = (kernel @ (kernel.T @ drag.reshape(-1))).reshape(drag.shape)
    assert got.shape == drag.shape
    assert np.abs(got - want).max() <= 1e-8 * np.abs(drag).max()


def test_excited_motion_of_a_large_kernel_without_a_basis():
    """An unbraced grid: 2 * 9 * 9 + ... flexes, more than n_flexes; the filter path."""
    link = square_grid(10, every=1000)  # one brace only
    rep = sparse_rank_report(link, n_flexes=5)
    _, kernel, _, _ = dense_reference(link)
    assert rep.dof == kernel.shape[1] > 5
    drag = np.random.default_rng(6).standard_normal(2 * link.n_vertices)
    want = kernel @ (kernel.T @ drag)
    assert np.abs(rep.excited_motion(drag) - want).max() <= 1e-8 * np.abs(drag).max()


def test_sigma_max_estimate_is_the_dense_norm_from_below_and_unchanged_bit_for_bit():
    # The power iteration keeps A^T in CSR (issue 27, the drag at 2 000 constraints): the
    # estimate must stay a lower bound close to the dense 2-norm, and equal to the power
    # iteration through the transposed view ``(a @ x) @ a`` it replaced, bit for bit
    # (every threshold, hence every count, derived from it is unchanged).
    from linkage_widget.rigidity.rank_scale import DENSE_POWER_MAX, POWER_STEPS
    from linkage_widget.rigidity.sparse_rank import sigma_max_estimate

    for name in ("penrose3t.txt", "peaucellier.txt"):
        link = Linkage.load(reference_linkage(name))
        a = ConstraintSet.from_linkage(link).jacobian(link.vertices)
        est = sigma_max_estimate(a)
        exact = float(np.linalg.norm(a.toarray(), 2))
        assert est <= exact * (1 + 1e-12) and est >= exact * (1 - 1e-3)
        x = np.random.default_rng(0).standard_normal(a.shape[1])
        m = a.toarray() if a.shape[0] * a.shape[1] <= DENSE_POWER_MAX else a
        for _ in range(POWER_STEPS):
            y = (m @ x) @ m
            norm = math.sqrt(float(y @ y))
            x = y / norm
        assert est == float(np.sqrt(norm))
