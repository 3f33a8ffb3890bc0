"""Exchange with PyRigi and networkx (issue 15): round trips, agreement, bad input.

PyRigi is the independent reference: its exact (sympy) rigidity computations run on
the framework *we* produced, and must agree with our numerical ``analyze``.
"""

import sys
import warnings

import numpy as np
import pytest

from linkage_widget import Linkage, analyze

pyrigi = pytest.importorskip("pyrigi", reason="pyrigi is a test dependency (pip install pyrigi)")
nx = pytest.importorskip("networkx", reason="networkx comes with pyrigi")
import sympy  # noqa: E402
from pyrigi import Framework, Graph, frameworkDB  # noqa: E402

PLANAR = {
    "K4": lambda: frameworkDB.Complete(4),
    "K33": lambda: frameworkDB.CompleteBipartite(3, 3),
    "K33 collinear": lambda: frameworkDB.CompleteBipartite(3, 3, "collinear"),
    "cycle 5": lambda: frameworkDB.Cycle(5),
    "square": lambda: frameworkDB.Square(),
    "diamond": lambda: frameworkDB.Diamond(),
    "three-prism": lambda: frameworkDB.ThreePrism(),
    "three-prism parallel": lambda: frameworkDB.ThreePrism("parallel"),
    "three-prism flexible": lambda: frameworkDB.ThreePrism("flexible"),
    "wheel 5": lambda: frameworkDB.Wheel(5),
}


def exact_points(framework) -> dict:
    """PyRigi's realization as exact sympy numbers, by vertex."""
    return {v: [sympy.nsimplify(c) for c in p] for v, p in framework.realization(True).items()}


def edge_set(edges) -> set:
    return {frozenset(e) for e in edges}


@pytest.mark.parametrize("name", sorted(PLANAR))
def test_pyrigi_round_trip_keeps_vertices_edges_and_positions(name):
    theirs = PLANAR[name]()
    link, labels = Linkage.from_pyrigi(theirs, return_labels=True)
    assert labels == theirs.graph.vertex_list()
    back = link.to_pyrigi(labels)
    assert set(back.graph.nodes) == set(theirs.graph.nodes)
    assert edge_set(back.graph.edges) == edge_set(theirs.graph.edges)
    # Exact where PyRigi's coordinates are floats' values (integers, rationals); the float
    # nearest otherwise (sqrt(3)/2), and bit for bit in float on the way back.
    ours, given = back.realization(True), theirs.realization(True)
    for v in theirs.graph.nodes:
        for a, b in zip(ours[v], given[v], strict=True):
            if sympy.Rational(float(b)) == b:
                assert a == b, (v, a, b)
            assert float(a) == float(b)
    assert Linkage.from_pyrigi(back) == link


def test_linkage_to_pyrigi_and_back_is_bit_exact():
    rng = np.random.default_rng(3)
    pts = rng.normal(size=(5, 2))
    link = Linkage(pts, rods=[(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 0)])
    framework = link.to_pyrigi()
    assert framework.dim == 2
    back = Linkage.from_pyrigi(framework)
    assert np.array_equal(back.vertices, link.vertices)  # bit for bit
    # PyRigi lists edges its own way (sorted pairs): the same rods, maybe reordered
    assert edge_set(back.rods.tolist()) == edge_set(link.rods.tolist())


@pytest.mark.parametrize("name", sorted(PLANAR))
def test_analyze_agrees_with_pyrigi_on_round_tripped_frameworks(name):
    link = Linkage.from_pyrigi(PLANAR[name]())
    framework = link.to_pyrigi()  # PyRigi's exact algebra on exactly our placement
    report = analyze(link)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        flexes = framework.nontrivial_inf_flexes()
        stresses = framework.stresses()
        rigid = bool(framework.is_inf_rigid())
    assert report.internal_dof == len(flexes)
    assert report.self_stresses == len(stresses)
    assert (report.status == "infinitesimally rigid") is rigid


def test_labels_that_are_not_0_to_n_minus_1_are_mapped_and_kept():
    graph = Graph([("a", "b"), ("b", "c"), ("c", "a")])
    framework = Framework(graph, {"a": [0, 0], "b": [2, 0], "c": [1, sympy.Rational(1, 2)]})
    link, labels = Linkage.from_pyrigi(framework, return_labels=True)
    assert labels == ["a", "b", "c"]
    assert link.vertices.tolist() == [[0.0, 0.0], [2.0, 0.0], [1.0, 0.5]]
    assert edge_set(link.rods.tolist()) == edge_set([(0, 1), (1, 2), (2, 0)])
    back = link.to_pyrigi(labels)
    assert exact_points(back) == exact_points(framework)


def test_networkx_round_trip_keeps_everything():
    link = Linkage.load("peaucellier.txt")
    link.add_angle(*_some_angle(link))
    graph = link.to_networkx()
    assert sorted(graph.nodes) == list(range(link.n_vertices))
    assert edge_set(graph.edges) == edge_set(link.rods.tolist())
    assert [graph.nodes[v]["pinned"] for v in graph] == [link.is_pinned(v) for v in graph]
    assert Linkage.from_networkx(graph) == link


def _some_angle(link: Linkage) -> tuple[int, int, int]:
    for i in range(link.n_vertices):
        nb = link.neighbors(i)
        if len(nb) >= 2:
            return i, int(nb[0]), int(nb[1])
    raise AssertionError("no joint with two rods")


def test_from_networkx_positions_as_dict_array_and_labels():
    graph = nx.Graph([("x", "y"), ("y", "z")])
    graph.nodes["x"]["pinned"] = True
    pos = {"x": (0, 0), "y": (1.5, 0), "z": (1.5, 2)}
    by_dict = Linkage.from_networkx(graph, pos)
    by_array = Linkage.from_networkx(graph, np.array([pos[v] for v in graph.nodes]))
    assert by_dict == by_array
    assert by_dict.vertices.tolist() == [[0, 0], [1.5, 0], [1.5, 2]]
    assert by_dict.pinned.tolist() == [0]
    assert by_dict.rods.tolist() == [[0, 1], [1, 2]]
    # networkx's own layouts are mappings of arrays
    spring = nx.spring_layout(graph, seed=1)
    assert np.array_equal(Linkage.from_networkx(graph, spring).vertices[2], spring["z"])


def test_add_vertex_takes_x_y_or_a_pair():
    link = Linkage()
    assert link.add_vertex(0, 0) == 0
    assert link.add_vertex((1.5, -2)) == 1
    assert link.add_vertex(np.array([3.0, 4.0])) == 2
    assert link.vertices.tolist() == [[0, 0], [1.5, -2], [3, 4]]
    for bad in [(1, 2, 3), (), (float("nan"), 0), ((1, 2, 3),)]:
        with pytest.raises(ValueError, match="vertex position"):
            link.add_vertex(*bad)
    assert link.n_vertices == 3


@pytest.mark.parametrize(
    ("make", "message"),
    [
        # 3-D frameworks became spatial linkages (tests/model/test_exchange_3d.py)
        (lambda: frameworkDB.Complete(2, dim=1), "only 2-D and 3-D"),
    ],
)
def test_pyrigi_bad_dimension_is_refused(make, message):
    with pytest.raises(ValueError, match=message):
        Linkage.from_pyrigi(make())


@pytest.mark.parametrize(
    ("graph", "positions", "message"),
    [
        (nx.Graph([(0, 0), (0, 1)]), {0: (0, 0), 1: (1, 0)}, "self-loop"),
        (nx.Graph([(0, 1), (1, 2)]), {0: (0, 0), 1: (1, 0)}, "no position for node 2"),
        (nx.Graph([(0, 1)]), {0: (0, 0), 1: (float("inf"), 0)}, r"node 1: .* not finite"),
        (nx.Graph([(0, 1)]), {0: (0, 0), 1: (1, 0, 0)}, "node 1: .* 2 coordinates"),
        (nx.Graph([(0, 1)]), np.zeros((3, 2)), r"shape \(2, 2\)"),
        (nx.Graph([(0, 1)]), np.array([[0, 0], [np.nan, 1]]), "node 1: .* not finite"),
        (nx.Graph([(0, 1)]), {0: (0, 0), 1: (0, 0)}, "rod 0 .*0-1"),
        (nx.MultiGraph([(0, 1)]), {0: (0, 0), 1: (1, 0)}, "multigraph"),
    ],
)
def test_from_networkx_bad_input_says_what_and_builds_nothing(graph, positions, message):
    before = nx.to_dict_of_dicts(graph)
    with pytest.raises(ValueError, match=message):
        Linkage.from_networkx(graph, positions)
    assert nx.to_dict_of_dicts(graph) == before


def test_to_pyrigi_refuses_fixed_angles_and_wrong_labels():
    link = Linkage([[0, 0], [1, 0], [0, 1]], rods=[(0, 1), (0, 2)], angles=[(0, 1, 2)])
    with pytest.raises(ValueError, match="fixed angle"):
        link.to_pyrigi()
    link.remove_angle(0)
    with pytest.raises(ValueError, match="3 vertices once each"):
        link.to_pyrigi(["a", "a", "b"])
    assert link.to_pyrigi(["a", "b", "c"]).graph.vertex_list() == ["a", "b", "c"]


def test_missing_library_message(monkeypatch):
    # None in sys.modules is how Python itself marks a module as unimportable.
    monkeypatch.setitem(sys.modules, "pyrigi", None)
    with pytest.raises(ImportError, match=r"pip install pyrigi"):
        Linkage([[0, 0], [1, 0]], rods=[(0, 1)]).to_pyrigi()
