"""``analyze`` against PyRigi (exact sympy linear algebra, its own pebble game), issue 14.

Conventions mapped here, explicitly:

* Infinitesimal flexes: PyRigi's ``inf_flexes(include_trivial=True)`` spans the kernel of
  its rigidity matrix (rows :math:`p_i - p_j`); ours, rows :math:`(p_i - p_j)/\\ell_e`,
  has the same kernel. Both in the coordinates ``(x_0, y_0, x_1, ...)`` of the vertices
  in sorted order. Our ``velocity_basis`` (trivial motions first) is compared with it
  as a subspace; ``internal_dof`` with ``len(nontrivial_inf_flexes())``.
* Pins: PyRigi has none. A pinned joint is PyRigi's ``fixed_vertices`` of
  ``inf_flexes`` (its velocity is zero): our kernel with pins must equal theirs with
  those vertices fixed. Self-stresses are compared on unpinned frameworks only (ours
  then include the pins' reactions, which PyRigi has no notion of).
* Self-stresses: PyRigi's are force densities :math:`w_e` (coefficients of rows
  :math:`p_i - p_j`); ours are coefficients of the unit rows, :math:`\\omega_e = \\ell_e
  w_e`. Compared as subspaces after that map.
* Infinitesimal rigidity: PyRigi ``is_inf_rigid`` iff our ``internal_dof == 0``
  (``status == "infinitesimally rigid"``); ``is_min_inf_rigid`` and
  ``is_redundantly_inf_rigid`` against our analysis of the framework without each rod.
* Generic rigidity: PyRigi ``Graph.is_rigid`` iff our pebble game's
  ``generically_rigid``; ``is_min_rigid`` iff generically rigid with no redundant rod;
  ``is_redundantly_rigid`` iff the pebble game finds the graph rigid without each rod.
"""

import warnings

import numpy as np
import pytest
import scipy.linalg as sla

from linkage_widget import Linkage, analyze
from linkage_widget.rigidity import generic_analysis

pyrigi = pytest.importorskip("pyrigi", reason="pyrigi is a test dependency (pip install pyrigi)")
from pyrigi import Framework, Graph, frameworkDB  # noqa: E402

ANGLE_TOL = 1e-8

DATABASE = {
    "K4": lambda: frameworkDB.Complete(4),
    "K5": lambda: frameworkDB.Complete(5),
    "K33": lambda: frameworkDB.CompleteBipartite(3, 3),
    "K33 collinear": lambda: frameworkDB.CompleteBipartite(3, 3, "collinear"),
    "K24 dixonI": lambda: frameworkDB.CompleteBipartite(2, 4, "dixonI"),
    "cycle 5": lambda: frameworkDB.Cycle(5),
    "path 4": lambda: frameworkDB.Path(4),
    "square": lambda: frameworkDB.Square(),
    "diamond": lambda: frameworkDB.Diamond(),
    "three-prism": lambda: frameworkDB.ThreePrism(),
    "three-prism parallel": lambda: frameworkDB.ThreePrism("parallel"),
    "three-prism flexible": lambda: frameworkDB.ThreePrism("flexible"),
    "three-prism plus edge": lambda: frameworkDB.ThreePrismPlusEdge(),
    "K33 plus edge": lambda: frameworkDB.K33plusEdge(),
    "frustum 3": lambda: frameworkDB.Frustum(3),
    "frustum 4": lambda: frameworkDB.Frustum(4),
    "wheel 5": lambda: frameworkDB.Wheel(5),
}
# Not here: frameworkDB.SecondOrderRigid places two joints on the same point, which a
# Linkage refuses (a zero-length rod); the 3-D ones (Cube, Octahedron, ...) are not planar;
# the C_8-symmetric ones (CnSymmetricFourRegular, CnSymmetricWithFixedVertex: n >= 8,
# 16-17 joints at radical coordinates), where PyRigi's exact algebra ran for minutes.


def to_linkage(framework, pinned=()):
    """Our linkage of PyRigi's framework (vertices in sorted order) and that order.

    In the plane or in space: as many coordinates as the framework has (the 3-D
    agreement, tests/space/test_space_pyrigi.py, uses it too)."""
    real = framework.realization(as_points=True, numerical=True)
    order = sorted(real)
    index = {v: i for i, v in enumerate(order)}
    points = [[float(c) for c in real[v]] for v in order]
    rods = [(index[u], index[v]) for u, v in framework.graph.edges]
    return Linkage(points, rods=rods, pinned=list(pinned)), order


def angle(x: np.ndarray, y: np.ndarray) -> float:
    """Largest principal angle between the column spaces of ``x`` and ``y``."""
    assert x.shape[1] == y.shape[1], (x.shape, y.shape)
    return float(sla.subspace_angles(x, y).max()) if x.shape[1] else 0.0


def columns(vectors, rows: int) -> np.ndarray:
    """PyRigi's list of sympy vectors as float columns ``(rows, k)``."""
    if not len(vectors):
        return np.zeros((rows, 0))
    return np.column_stack([np.array(v, dtype=float).reshape(-1) for v in vectors])


def without_rod(link: Linkage, r: int) -> Linkage:
    keep = [tuple(e) for i, e in enumerate(link.rods.tolist()) if i != r]
    return Linkage(link.vertices, keep, pinned=link.pinned)


def assert_agrees(framework, pinned=()):
    link, order = to_linkage(framework, pinned)
    report = analyze(link)
    n2, edges = 2 * link.n_vertices, [tuple(order[i] for i in e) for e in link.rods.tolist()]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fixed = [order[i] for i in pinned]
        flexes = framework.inf_flexes(
            include_trivial=True, vertex_order=order, fixed_vertices=fixed
        )
        nontrivial = framework.nontrivial_inf_flexes(vertex_order=order) if not pinned else None
        stresses = framework.stresses(edge_order=edges) if not pinned else None
    theirs = columns(flexes, n2)
    ours = report.velocity_basis.reshape(report.dof, n2).T
    assert report.dof == theirs.shape[1]
    assert angle(ours, theirs) <= ANGLE_TOL
    if pinned:
        return link, report
    assert report.internal_dof == len(nontrivial)
    lengths = np.linalg.norm(np.diff(link.vertices[link.rods], axis=1)[:, 0], axis=1)
    w = columns(stresses, link.n_rods) * lengths[:, None]  # force densities -> our rows
    assert report.self_stresses == w.shape[1]
    assert angle(report.stress_basis().T, w) <= ANGLE_TOL
    assert (report.status == "infinitesimally rigid") is bool(framework.is_inf_rigid())
    return link, report


def assert_generic_agrees(graph, link: Linkage, report) -> None:
    assert report.generically_rigid is bool(graph.is_rigid())
    minimal = report.generically_rigid and not report.redundant_rods.any()
    assert minimal is bool(graph.is_min_rigid())
    n = link.n_vertices
    redundantly = all(
        generic_analysis(without_rod(link, r))[0] == max(2 * n - 3, 0) for r in range(link.n_rods)
    )
    assert (redundantly and report.generically_rigid) is bool(graph.is_redundantly_rigid())


def assert_minimal_and_redundant_inf_rigidity(framework, link: Linkage, report) -> None:
    rigid = report.internal_dof == 0
    cut = [analyze(without_rod(link, r)).internal_dof == 0 for r in range(link.n_rods)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert (rigid and not any(cut)) is bool(framework.is_min_inf_rigid())
        assert (rigid and all(cut)) is bool(framework.is_redundantly_inf_rigid())


@pytest.mark.parametrize("name", DATABASE)
def test_framework_database(name):
    framework = DATABASE[name]()
    link, report = assert_agrees(framework)
    assert_generic_agrees(framework.graph, link, report)
    assert_minimal_and_redundant_inf_rigidity(framework, link, report)


@pytest.mark.parametrize("name", ["K4", "three-prism", "square", "K33"])
def test_framework_database_with_pins_as_fixed_vertices(name):
    assert_agrees(DATABASE[name](), pinned=(0,))
    assert_agrees(DATABASE[name](), pinned=(0, 1))


def random_framework(seed: int) -> Framework:
    """Integer coordinates (exact for PyRigi): generic (up to 1000) or on a 4 x 4 grid."""
    rng = np.random.default_rng(700 + seed)
    n = int(rng.integers(4, 9))
    side = 4 if seed % 3 == 0 else 1000
    cells = rng.choice(side * side, size=min(n, side * side), replace=False)
    pts = np.column_stack([cells // side, cells % side])
    n = len(pts)
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    m = int(rng.integers(2 * n - 5, min(len(pairs), 2 * n) + 1))
    edges = [pairs[k] for k in rng.choice(len(pairs), size=max(m, 1), replace=False)]
    graph = Graph.from_vertices_and_edges(list(range(n)), edges)
    return Framework(graph, {i: [int(x), int(y)] for i, (x, y) in enumerate(pts)})


@pytest.mark.parametrize("seed", range(30))
def test_random_frameworks(seed):
    framework = random_framework(seed)
    link, report = assert_agrees(framework)
    assert_generic_agrees(framework.graph, link, report)
    assert_minimal_and_redundant_inf_rigidity(framework, link, report)
    if link.n_vertices >= 2 and seed % 2:
        assert_agrees(framework, pinned=(0, 1))
