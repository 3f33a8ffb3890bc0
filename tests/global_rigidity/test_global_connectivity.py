"""Separating pairs and 3-connectivity (issue 26, item 1), against brute force and networkx.

The oracles: removing every pair of vertices and counting components (a direct reading
of the definition), and networkx's ``node_connectivity`` (flows), test-only.
"""

from itertools import combinations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from linkage_widget.rigidity.connectivity import (
    _adjacency,
    components_without,
    is_three_connected,
    separating_pair,
)


def _separates(n, edges, removed):
    return len(components_without(_adjacency(n, edges), removed)) >= 2


def _brute_three_connected(n, edges):
    if n < 4:
        return False
    return not any(_separates(n, edges, s) for k in range(3) for s in combinations(range(n), k))


@st.composite
def graphs(draw):
    n = draw(st.integers(1, 9))
    pairs = list(combinations(range(n), 2))
    density = draw(st.floats(0.2, 1.0))
    seed = draw(st.integers(0, 2**31))
    rng = np.random.default_rng(seed)
    return n, [e for e in pairs if rng.random() < density]


@settings(max_examples=300, deadline=None)
@given(graphs())
def test_separating_pair_matches_brute_force_and_networkx(graph):
    n, edges = graph
    pair = separating_pair(n, edges)
    three = _brute_three_connected(n, edges)
    assert is_three_connected(n, edges) == three
    g = nx.Graph()
    g.add_nodes_from(range(n))
    g.add_edges_from(edges)
    if n >= 4:
        assert three == (nx.node_connectivity(g) >= 3)
    if n >= 4 and not three:
        assert pair is not None and pair[0] < pair[1]
        assert _separates(n, edges, pair)  # the pair returned really separates
    else:
        assert pair is None


@pytest.mark.parametrize(
    ("n", "edges", "cut"),
    [
        (5, [(0, 1), (1, 2), (0, 2), (2, 3), (3, 4), (2, 4)], 2),  # bow tie: cut vertex 2
        (4, [(0, 1), (2, 3)], None),  # disconnected
        (6, [(0, 1), (0, 2), (0, 3), (0, 4), (0, 5)], 0),  # a star: all singletons
    ],
)
def test_cut_vertex_and_disconnected_cases_still_give_a_separating_pair(n, edges, cut):
    pair = separating_pair(n, edges)
    assert _separates(n, edges, pair)
    if cut is not None:
        assert cut in pair


def test_k4_and_wheel_are_three_connected_the_prism_too():
    wheel = [(0, k) for k in range(1, 6)] + [(k, k % 5 + 1) for k in range(1, 6)]
    prism = [(0, 1), (1, 2), (0, 2), (3, 4), (4, 5), (3, 5), (0, 3), (1, 4), (2, 5)]
    assert is_three_connected(6, wheel) and is_three_connected(6, prism)
    assert not is_three_connected(3, [(0, 1), (1, 2), (0, 2)])  # K3: too few vertices
