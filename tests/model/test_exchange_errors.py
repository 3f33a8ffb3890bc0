"""Issue 22, item 9 (networkx/PyRigi exchange): every unusable graph is a ValueError naming the
node, edge or angle by its label (io/exchange.py, "Errors") — never a TypeError, an
OverflowError or a numpy message (``cannot reshape array of size 4 into shape (3)``) — and
nothing is built.
"""

import networkx as nx
import numpy as np
import pytest

from linkage_widget import Linkage


def graph(positions, edges=((0, 1),), **attrs):
    g = nx.Graph(**attrs)
    for v, pos in positions.items():
        g.add_node(v, pos=pos)
    g.add_edges_from(edges)
    return g


TRIANGLE = {"a": (0, 0), "b": (1, 0), "c": (0, 1)}
EDGES = (("a", "b"), ("a", "c"))

CASES = {
    "int beyond float": (graph({0: (10**400, 0), 1: (1, 0)}), None, r"node 0: .*too big"),
    "int beyond float, mapping": (
        graph({0: None, 1: None}),
        {0: (0, 0), 1: (1, -(10**400))},
        r"node 1: .*too big",
    ),
    "int beyond float, array": (
        graph({0: None, 1: None}),
        [[0, 0], [10**400, 1]],
        r"row 1 \(node 1\)",
    ),
    "strings in the array": (graph({0: None, 1: None}), [[0, 0], ["x", 1]], r"row 1 \(node 1\)"),
    "ragged array": (graph({0: None, 1: None}), [[0, 0], [1, 0, 2]], r"row 1 \(node 1\)"),
    "angle of four": (
        graph(TRIANGLE, EDGES, angles=[("a", "b", "c", "a")]),
        None,
        r"fixed angle \('a', 'b', 'c', 'a'\) is not an \(apex, j, k\)",
    ),
    "angles not a list": (graph(TRIANGLE, EDGES, angles=5), None, "fixed angles must be a list"),
    "angle of an unhashable": (
        graph(TRIANGLE, EDGES, angles=[(["a"], "b", "c")]),
        None,
        r"names vertex \['a'\]",
    ),
    "angle with a zero arm": (
        graph({"a": (0, 0), "b": (1, 0), "c": (0, 0)}, (("a", "b"),), angles=[("a", "b", "c")]),
        None,
        r"fixed angle \('a', 'b', 'c'\)",
    ),
    "zero-length edge by label": (
        graph({"p": (0, 0), "q": (0, 0)}, (("p", "q"),)),
        None,
        r"edge \('p', 'q'\), has zero length",
    ),
}


@pytest.mark.parametrize(("g", "positions", "message"), CASES.values(), ids=CASES.keys())
def test_a_bad_graph_is_a_value_error_naming_the_node(g, positions, message):
    before = nx.to_dict_of_dicts(g)
    with pytest.raises(ValueError, match=message) as info:
        Linkage.from_networkx(g, positions)
    assert len(str(info.value)) < 300
    assert nx.to_dict_of_dicts(g) == before


def test_a_pinned_flag_that_is_no_bool_names_the_node():
    g = graph({"a": (0, 0), "b": (1, 0)}, (("a", "b"),))
    g.nodes["a"]["pinned"] = np.array([1, 2])
    with pytest.raises(ValueError, match=r"node 'a': 'pinned' must be true or false"):
        Linkage.from_networkx(g)


def test_not_a_graph_is_a_type_error():
    with pytest.raises(TypeError, match="expected a networkx graph, got dict"):
        Linkage.from_networkx({0: [1]})


def test_a_zero_length_pyrigi_edge_is_named_by_its_labels():
    pyrigi = pytest.importorskip("pyrigi", reason="pyrigi is a test dependency")
    framework = pyrigi.Framework(pyrigi.Graph([("a", "b")]), {"a": [1, 0], "b": [1, 0]})
    with pytest.raises(ValueError, match=r"edge \('a', 'b'\), has zero length"):
        Linkage.from_pyrigi(framework)
