"""PyRigi and networkx frameworks in 3-D become spatial linkages (issue 15: refused with a
clear error until 3-D existed; the 3-D ``Linkage`` of issue 16 now takes them)."""

from __future__ import annotations

import numpy as np
import pytest

from linkage_widget import Linkage

pytest.importorskip("pyrigi", reason="pyrigi is a test dependency (pip install pyrigi)")
nx = pytest.importorskip("networkx")
from pyrigi import Framework, Graph, frameworkDB  # noqa: E402


def skew_quadrilateral() -> Framework:
    """Four rods round a square whose last corner is lifted off the plane (exact sympy)."""
    graph = Graph([("a", "b"), ("b", "c"), ("c", "d"), ("d", "a")])
    return Framework(graph, {"a": [0, 0, 0], "b": [1, 0, 0], "c": [1, 1, 0], "d": [0, 1, "1/3"]})


def test_a_3d_pyrigi_framework_becomes_a_3d_linkage() -> None:
    link, labels = Linkage.from_pyrigi(skew_quadrilateral(), return_labels=True)
    assert link.dim == 3 and link.vertices.shape == (4, 3)
    assert labels == ["a", "b", "c", "d"]
    assert link.vertices[3].tolist() == [0.0, 1.0, 1.0 / 3.0]  # nearest float of 1/3
    assert sorted(map(tuple, np.sort(link.rods, axis=1).tolist())) == [
        (0, 1),
        (0, 3),
        (1, 2),
        (2, 3),
    ]
    assert link.n_angles == 0 and len(link.pinned) == 0


def test_pyrigi_round_trip_in_3d_keeps_graph_and_placement() -> None:
    framework = frameworkDB.Complete(4, dim=3)
    link = Linkage.from_pyrigi(framework)
    back = link.to_pyrigi()
    assert back.dim == 3
    assert {frozenset(e) for e in back.graph.edges} == {frozenset(e) for e in framework.graph.edges}
    real, orig = back.realization(as_points=True), framework.realization(as_points=True)
    assert all(list(real[v]) == list(orig[v]) for v in framework.graph.nodes)  # exact
    assert Linkage.from_pyrigi(back) == link


def test_networkx_round_trip_in_3d() -> None:
    link = Linkage.from_pyrigi(skew_quadrilateral())
    graph = link.to_networkx()
    assert graph.nodes[3]["pos"] == (0.0, 1.0, 1.0 / 3.0)
    assert Linkage.from_networkx(graph) == link
    # an array placement of three columns too
    again = Linkage.from_networkx(nx.Graph(link.rods.tolist()), link.vertices)
    assert again.dim == 3 and np.array_equal(again.vertices, link.vertices)


def test_mixed_dimensions_are_refused_naming_the_node() -> None:
    graph = nx.Graph([(0, 1)])
    with pytest.raises(ValueError, match=r"node 1: .* must have 3 coordinates, got 2"):
        Linkage.from_networkx(graph, {0: (0, 0, 0), 1: (1, 0)})
    with pytest.raises(ValueError, match="only 2-D and 3-D"):
        Linkage.from_pyrigi(frameworkDB.Complete(3, dim=4))
