"""The generic verdict against PyRigi's ``Graph.is_globally_rigid`` (issue 26, item 6).

PyRigi decides it in the plane by 3-connectivity and redundant rigidity with its own
(networkx and pebble-game) code, and in space by its own randomised stress test: an
independent implementation. Graphs: PyRigi's graph database (those small enough) and
120 seeded random graphs (Laman graphs plus edges, random 3-connected ones, sparse ones).
"""

from itertools import combinations

import numpy as np
import pytest

from linkage_widget import Linkage, global_rigidity
from linkage_widget.rigidity.stress_matrix import generic_stress_rank

pyrigi = pytest.importorskip("pyrigi", reason="pyrigi is a test dependency")
from pyrigi import Graph, graphDB  # noqa: E402

DATABASE = {
    "Complete5": lambda: graphDB.Complete(5),
    "CompleteMinusOne5": lambda: graphDB.CompleteMinusOne(5),
    "CompleteBipartite33": lambda: graphDB.CompleteBipartite(3, 3),
    "CompleteBipartite34": lambda: graphDB.CompleteBipartite(3, 4),
    "K33plusEdge": graphDB.K33plusEdge,
    "Diamond": graphDB.Diamond,
    "ThreePrism": graphDB.ThreePrism,
    "ThreePrismPlusEdge": graphDB.ThreePrismPlusEdge,
    "ThreePrismPlusTriangleOnSide": graphDB.ThreePrismPlusTriangleOnSide,
    "Cycle5": lambda: graphDB.Cycle(5),
    "Path4": lambda: graphDB.Path(4),
    "Wheel5": lambda: graphDB.Wheel(5),
    "Octahedral": graphDB.Octahedral,
    "Icosahedral": graphDB.Icosahedral,
    "Dodecahedral": graphDB.Dodecahedral,
    "CubeWithDiagonal": graphDB.CubeWithDiagonal,
    "DoubleBanana": graphDB.DoubleBanana,
    "Frustum3": lambda: graphDB.Frustum(3),
    "K66MinusPerfectMatching": graphDB.K66MinusPerfectMatching,
    "ThreeConnectedR3Circuit": graphDB.ThreeConnectedR3Circuit,
    "Grid33": lambda: graphDB.Grid(3, 3),
}


def _ours(graph, dim, seed=0):
    nodes = sorted(graph.nodes)
    index = {v: k for k, v in enumerate(nodes)}
    rods = [(index[u], index[v]) for u, v in graph.edges]
    xy = np.random.default_rng(seed).standard_normal((len(nodes), dim))
    return global_rigidity(Linkage(xy, rods=rods), seed=seed).generically_globally_rigid


@pytest.mark.parametrize("name", sorted(DATABASE))
def test_pyrigi_database_in_the_plane(name):
    graph = DATABASE[name]()
    assert _ours(graph, 2) == graph.is_globally_rigid(dim=2)


@pytest.mark.parametrize(
    "name", ["Complete5", "CompleteMinusOne5", "Octahedral", "DoubleBanana", "K33plusEdge",
             "Icosahedral", "ThreePrismPlusEdge", "K66MinusPerfectMatching"],
)  # fmt: skip
def test_pyrigi_database_in_space(name):
    graph = DATABASE[name]()
    assert _ours(graph, 3) == graph.is_globally_rigid(dim=3, algorithm="randomized", prob=1e-9)


def _laman_plus(rng, n, extra):
    """A Henneberg-built Laman graph (0- and 1-extensions) plus ``extra`` random edges."""
    edges = {(0, 1)}
    for v in range(2, n):
        if v >= 3 and rng.random() < 0.5:
            i, j = sorted(edges)[rng.integers(len(edges))]
            edges.remove((i, j))
            k = rng.choice([w for w in range(v) if w not in (i, j)])
            edges |= {(i, v), (j, v), (min(k, v), max(k, v))}
        else:
            a, b = rng.choice(v, size=2, replace=False)
            edges |= {(min(a, v), v), (min(b, v), v)}
    pairs = [e for e in combinations(range(n), 2) if e not in edges]
    for k in rng.choice(len(pairs), size=min(extra, len(pairs)), replace=False):
        edges.add(pairs[k])
    return sorted(edges)


def _random_graph(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(4, 10))
    kind = seed % 3
    if kind == 0:
        edges = _laman_plus(rng, n, int(rng.integers(0, 4)))
    elif kind == 1:  # a wheel or a dense random graph: often 3-connected
        edges = [e for e in combinations(range(n), 2) if rng.random() < 0.6]
    else:  # sparse
        edges = [e for e in combinations(range(n), 2) if rng.random() < 0.35]
    return Graph([(int(u), int(v)) for u, v in edges]) if edges else Graph([(0, 1)])


@pytest.mark.parametrize("seed", range(120))
def test_random_graphs_agree_with_pyrigi_in_the_plane(seed):
    graph = _random_graph(seed)
    graph.add_nodes_from(range(max(graph.nodes) + 1))
    assert _ours(graph, 2, seed) == graph.is_globally_rigid(dim=2)


@pytest.mark.parametrize("seed", range(0, 120, 6))
def test_random_graphs_agree_with_pyrigi_in_space(seed):
    graph = _random_graph(seed)
    graph.add_nodes_from(range(max(graph.nodes) + 1))
    n = graph.number_of_nodes()
    rods = list(graph.edges)
    if n >= 5:  # the stress test's range; below it only a complete graph is
        rank, error = generic_stress_rank(n, rods, dim=3, seed=seed)
        ours = rank == n - 4
    else:
        ours, error = len(rods) == n * (n - 1) // 2, 0.0
    assert ours == graph.is_globally_rigid(dim=3, algorithm="randomized", prob=1e-9)
    assert error < 1e-9
