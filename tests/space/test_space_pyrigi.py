"""``analyze`` in 3-D against PyRigi 1.3 (exact sympy linear algebra), issue 16.

The conventions are those of ``tests/rigidity/test_pyrigi_agreement.py``, in space:
kernels compared as subspaces in the coordinates ``(x_0, y_0, z_0, x_1, ...)`` of the
vertices in sorted order; PyRigi's self-stresses are force densities :math:`w_e`, ours
coefficients of unit rows :math:`\\omega_e = \\ell_e w_e`; ``is_inf_rigid`` iff
``internal_dof == 0``; ``Graph.is_rigid(dim=3)`` (PyRigi's randomized test) iff our
``generically_rigid`` (the exact rank modulo a prime at random placements).
"""

import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

from linkage_widget import analyze

pyrigi = pytest.importorskip("pyrigi", reason="pyrigi is a test dependency (pip install pyrigi)")
from pyrigi import Framework, Graph, frameworkDB  # noqa: E402

sys.path.insert(0, str(Path(__file__).parents[1] / "rigidity"))  # the planar agreement's helpers
from test_pyrigi_agreement import angle, columns, to_linkage  # noqa: E402

ANGLE_TOL = 1e-8

DATABASE = {
    "K4 in space": lambda: frameworkDB.Complete(4, dim=3),
    "K5 in space": lambda: Framework(
        Graph.from_vertices_and_edges(range(5), [(i, j) for i in range(5) for j in range(i)]),
        {0: [0, 0, 0], 1: [3, 0, 1], 2: [1, 4, 0], 3: [0, 1, 5], 4: [2, 2, 2]},
    ),
    "path 4 in space": lambda: frameworkDB.Path(4, dim=3),
    "cycle 5 in space": lambda: Framework(
        Graph.from_vertices_and_edges(range(5), [(i, (i + 1) % 5) for i in range(5)]),
        {0: [0, 0, 0], 1: [3, 0, 1], 2: [1, 4, 0], 3: [0, 1, 5], 4: [2, 2, 2]},
    ),
    "cube": lambda: frameworkDB.Cube(),
    "octahedron regular": lambda: frameworkDB.Octahedron("regular"),
    "octahedron Bricard line": lambda: frameworkDB.Octahedron("Bricard_line"),
    "octahedron Bricard plane": lambda: frameworkDB.Octahedron("Bricard_plane"),
}
# Compared with our hand counts only: PyRigi's exact algebra on their golden-ratio
# coordinates runs for minutes.
PLATONIC = {
    "icosahedron": lambda: frameworkDB.Icosahedron(),
    "dodecahedron": lambda: frameworkDB.Dodecahedron(),
}


def assert_agrees(framework, pinned=()):
    link, order = to_linkage(framework, pinned)
    assert link.dim == 3
    report = analyze(link)
    n3, edges = 3 * link.n_vertices, [tuple(order[i] for i in e) for e in link.rods.tolist()]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fixed = [order[i] for i in pinned]
        flexes = framework.inf_flexes(
            include_trivial=True, vertex_order=order, fixed_vertices=fixed
        )
        nontrivial = framework.nontrivial_inf_flexes(vertex_order=order) if not pinned else None
        stresses = framework.stresses(edge_order=edges) if not pinned else None
    theirs = columns(flexes, n3)
    ours = report.velocity_basis.reshape(report.dof, n3).T
    assert report.velocity_basis.shape == (report.dof, link.n_vertices, 3)
    assert report.dof == theirs.shape[1]
    assert angle(ours, theirs) <= ANGLE_TOL
    if pinned:
        return link, report
    assert report.internal_dof == len(nontrivial)
    lengths = link.rod_lengths()
    w = columns(stresses, link.n_rods) * lengths[:, None]  # force densities -> our rows
    assert report.self_stresses == w.shape[1]
    assert angle(report.stress_basis().T, w) <= ANGLE_TOL
    assert report.maxwell_count == report.internal_dof - report.self_stresses
    assert (report.status == "infinitesimally rigid") is bool(framework.is_inf_rigid())
    return link, report


def assert_generic_agrees(graph, report) -> None:
    assert report.generic_method.startswith("random placement: rank mod P")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert report.generically_rigid is bool(graph.is_rigid(dim=3))


@pytest.mark.parametrize("name", DATABASE)
def test_framework_database_in_space(name):
    framework = DATABASE[name]()
    _, report = assert_agrees(framework)
    assert_generic_agrees(framework.graph, report)


@pytest.mark.parametrize("name", ["K4 in space", "octahedron regular", "cube"])
def test_pins_are_pyrigis_fixed_vertices_in_space(name):
    assert_agrees(DATABASE[name](), pinned=(0,))
    assert_agrees(DATABASE[name](), pinned=(0, 1))


def test_known_verdicts_of_the_database():
    """Cauchy: the regular octahedron is rigid; Bricard's octahedra flex infinitesimally
    at these placements (they flex); the cube has 6 internal DOF."""
    rep = {k: analyze(to_linkage(make())[0]) for k, make in {**DATABASE, **PLATONIC}.items()}
    assert rep["octahedron regular"].internal_dof == 0
    assert rep["cube"].internal_dof == 6
    assert rep["icosahedron"].status == "infinitesimally rigid"
    assert rep["icosahedron"].trivial_dof == 6
    # the dodecahedron: 20 joints, 30 rods, 60 - 30 - 6 = 24 internal DOF, no stress
    assert (rep["dodecahedron"].internal_dof, rep["dodecahedron"].self_stresses) == (24, 0)
    assert rep["octahedron Bricard line"].internal_dof >= 1
    assert rep["octahedron Bricard line"].generically_rigid  # counts rigid, yet it flexes


def random_framework(seed: int) -> Framework:
    """Integer coordinates (exact for PyRigi): generic (up to 1000) or on a 3 x 3 x 3 grid."""
    rng = np.random.default_rng(900 + seed)
    n = int(rng.integers(4, 9))
    side = 3 if seed % 3 == 0 else 1000
    cells = rng.choice(side**3, size=min(n, side**3), replace=False)
    pts = np.column_stack([cells // side**2, (cells // side) % side, cells % side])
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    m = int(rng.integers(3 * n - 8, min(len(pairs), 3 * n - 3) + 1))
    edges = [pairs[k] for k in rng.choice(len(pairs), size=max(m, 1), replace=False)]
    graph = Graph.from_vertices_and_edges(list(range(n)), edges)
    return Framework(graph, {i: [int(c) for c in p] for i, p in enumerate(pts)})


@pytest.mark.parametrize("seed", range(24))
def test_random_frameworks_in_space(seed):
    framework = random_framework(seed)
    link, report = assert_agrees(framework)
    assert_generic_agrees(framework.graph, report)
    if seed % 2:
        assert_agrees(framework, pinned=(0, 1))
