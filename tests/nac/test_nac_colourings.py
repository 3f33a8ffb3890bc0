"""NAC-colourings against their definition, cycle by cycle (issue 26, part nac).

The oracle (tests/nac/nac_oracle.py) enumerates every colouring with rod 0 blue and
reads every simple cycle of the graph; the classic answers are closed forms: an
:math:`n`-cycle has :math:`(2^n - 2 - 2n)/2` NAC-colourings up to swapping (two rods of
each colour at least), a tree with :math:`m` rods :math:`2^{m-1} - 1` (no cycles), a
graph made of triangles none, :math:`K_4` none.
"""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from nac_oracle import brute_force, cycles, graph_linkage, meets_definition, red_sets

from linkage_widget import Linkage
from linkage_widget.rigidity import generic_analysis
from linkage_widget.rigidity.nac import (
    NAC_MAX_COLOURINGS,
    has_nac_colouring,
    is_nac_colouring,
    nac_colourings,
    nac_conflict,
)


def fan(k: int) -> nx.Graph:
    """A triangulated polygon: joint 0 joined to the path 1..k (rigid, triangle-connected)."""
    graph = nx.path_graph(range(1, k + 1))
    graph.add_edges_from((0, i) for i in range(1, k + 1))
    return graph


def prism() -> nx.Graph:
    graph = nx.Graph([(0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 3)])
    graph.add_edges_from([(0, 3), (1, 4), (2, 5)])
    return graph


CLOSED_FORMS = {
    "K4": (nx.complete_graph(4), 0),
    "K5": (nx.complete_graph(5), 0),
    "triangle": (nx.cycle_graph(3), 0),
    "fan 6 (triangulated polygon)": (fan(6), 0),
    "4-cycle": (nx.cycle_graph(4), (2**4 - 2 - 8) // 2),
    "5-cycle": (nx.cycle_graph(5), (2**5 - 2 - 10) // 2),
    "7-cycle": (nx.cycle_graph(7), (2**7 - 2 - 14) // 2),
    "path of 6 rods": (nx.path_graph(7), 2**5 - 1),
    "star of 5 rods": (nx.star_graph(5), 2**4 - 1),
    "3-prism": (prism(), 1),
    "two triangles at a joint": (nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 2)]), 1),
    "K4 and a pendant rod": (nx.Graph([*nx.complete_graph(4).edges, (3, 4)]), 1),
    "two disjoint triangles": (nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3)), 1),
    "one rod": (nx.path_graph(2), 0),
}


@pytest.mark.parametrize("name", CLOSED_FORMS)
def test_classic_counts(name):
    graph, expected = CLOSED_FORMS[name]
    link = graph_linkage(graph)
    found = nac_colourings(link)
    assert len(found) == expected
    assert has_nac_colouring(link) is (expected > 0)


def test_the_prism_colours_its_triangles_against_its_rungs():
    link = graph_linkage(prism())
    (only,) = nac_colourings(link)
    rungs = {link.find_rod(0, 3), link.find_rod(1, 4), link.find_rod(2, 5)}
    assert set(np.flatnonzero(only).tolist()) == rungs
    # a Laman graph (2n - 3 rods, generically rigid) with a flexible placement
    rank, redundant = generic_analysis(link)
    assert rank == 2 * 6 - 3 == link.n_rods and not redundant.any()


def test_k33_has_fifteen_up_to_swapping():
    link = graph_linkage(nx.complete_bipartite_graph(3, 3))
    found = nac_colourings(link)
    assert red_sets(found) == brute_force(link)
    assert len(found) == 15


def test_rigid_triangle_connected_graphs_have_none():
    for k in (3, 5, 9):
        link = graph_linkage(fan(k))
        assert generic_analysis(link)[0] == 2 * link.n_vertices - 3
        assert nac_colourings(link) == [] and not has_nac_colouring(link)


def random_graphs(count: int, seed: int):
    rng = np.random.default_rng(seed)
    made = 0
    while made < count:
        n = int(rng.integers(3, 8))
        m = int(rng.integers(2, min(n * (n - 1) // 2, 12) + 1))
        graph = nx.gnm_random_graph(n, m, seed=int(rng.integers(2**31)))
        made += 1
        yield graph


@pytest.mark.parametrize("index", range(4))
def test_random_graphs_give_exactly_the_brute_force_colourings(index):
    for graph in random_graphs(20, seed=100 + index):
        link = graph_linkage(graph, seed=index)
        found = nac_colourings(link)
        all_cycles = cycles(link)
        for colouring in found:
            assert colouring.dtype == bool and colouring.shape == (link.n_rods,)
            assert not colouring[0]
            assert meets_definition(colouring, all_cycles)
        assert len(red_sets(found)) == len(found)
        assert red_sets(found) == brute_force(link), sorted(graph.edges)
        assert has_nac_colouring(link) is bool(found)


def test_each_colouring_is_checked_like_the_definition():
    link = graph_linkage(nx.complete_bipartite_graph(2, 4))
    all_cycles = cycles(link)
    rng = np.random.default_rng(5)
    for _ in range(200):
        colouring = rng.random(link.n_rods) < 0.5
        assert is_nac_colouring(link, colouring) is meets_definition(colouring, all_cycles)
    assert not is_nac_colouring(link, np.zeros(link.n_rods, dtype=bool))


def test_a_conflict_names_a_rod_closing_a_cycle_with_one_rod_of_its_colour():
    square = Linkage([[0, 0], [1, 0], [1, 1], [0, 1]], rods=[(0, 1), (1, 2), (2, 3), (3, 0)])
    assert nac_conflict(square, [True, False, False, False]) == 0
    assert nac_conflict(square, [True, True, False, False]) is None
    with pytest.raises(ValueError, match=r"shape \(4,\)"):
        is_nac_colouring(square, [True, False])
    with pytest.raises(ValueError, match="booleans"):
        nac_conflict(square, [0, 1, 2, 0])
    with pytest.raises(TypeError, match="nac_colourings: linkage must be a Linkage"):
        nac_colourings(nx.cycle_graph(4))


def test_too_many_colourings_raise_with_their_number():
    path = graph_linkage(nx.path_graph(16))  # 15 bridges: 2^14 - 1 colourings
    assert 2**14 - 1 > NAC_MAX_COLOURINGS
    with pytest.raises(ValueError, match=f"has {2**14 - 1} NAC-colourings"):
        nac_colourings(path)
    assert len(nac_colourings(path, max_colourings=2**14)) == 2**14 - 1
    with pytest.raises(ValueError, match="more than max_colourings=50 colourings of a block"):
        nac_colourings(graph_linkage(nx.cycle_graph(12)), max_colourings=50)


def test_a_long_search_stops_and_says_so():
    grid = graph_linkage(nx.grid_2d_graph(4, 4))
    with pytest.raises(
        ValueError, match=r"stopped at max_steps .*100 steps in this one\) with \d+ colourings"
    ):
        nac_colourings(grid, max_steps=100)
    with pytest.raises(ValueError, match="max_steps must be a positive integer"):
        nac_colourings(grid, max_steps=0)
    assert has_nac_colouring(grid, max_steps=100)


def test_no_rods_no_colourings():
    assert nac_colourings(Linkage([[0, 0], [1, 0]])) == []
    assert not has_nac_colouring(Linkage([[0, 0], [1, 0]]))


def test_blocks_are_networkx_biconnected_components():
    from linkage_widget.rigidity.nac_search import blocks

    rng = np.random.default_rng(11)
    for _ in range(40):
        n = int(rng.integers(2, 14))
        graph = nx.gnm_random_graph(n, int(rng.integers(1, 2 * n)), seed=int(rng.integers(2**31)))
        edges = np.array(sorted(tuple(sorted(e)) for e in graph.edges), dtype=np.int64)
        if not len(edges):
            continue
        block = blocks(n, edges)
        ours = {frozenset(map(tuple, edges[block == b].tolist())) for b in set(block.tolist())}
        theirs = {
            frozenset(tuple(sorted(e)) for e in part)
            for part in nx.biconnected_component_edges(graph)
        }
        assert ours == theirs


def test_a_linkage_in_space_is_coloured_by_its_graph():
    flat = graph_linkage(nx.complete_bipartite_graph(2, 3))
    points = np.column_stack([flat.vertices, np.arange(flat.n_vertices, dtype=float)])
    spatial = Linkage(points, rods=flat.rods)
    assert red_sets(nac_colourings(spatial)) == red_sets(nac_colourings(flat))
