"""Independent oracles for the NAC tests: the definition checked cycle by cycle.

Nothing here uses :mod:`linkage_widget.rigidity.nac`: every simple cycle of the graph
(networkx ``simple_cycles``) is read, and a colouring passes when each is one colour or
has at least two rods of each colour.
"""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np

from linkage_widget import Linkage


def graph_linkage(graph: nx.Graph, seed: int = 0) -> Linkage:
    """A linkage of ``graph`` (nodes relabelled 0..n-1 in order) at random places."""
    graph = nx.convert_node_labels_to_integers(graph)
    points = np.random.default_rng(seed).normal(size=(graph.number_of_nodes(), 2))
    return Linkage(points, rods=sorted(tuple(sorted(e)) for e in graph.edges))


def cycles(linkage: Linkage) -> list[list[int]]:
    """Every simple cycle as the list of its rods."""
    graph = nx.Graph()
    graph.add_nodes_from(range(linkage.n_vertices))
    rod_of = {}
    for r, (i, j) in enumerate(linkage.rods.tolist()):
        graph.add_edge(i, j)
        rod_of[frozenset((i, j))] = r
    found = []
    for cycle in nx.simple_cycles(graph):
        pairs = zip(cycle, cycle[1:] + cycle[:1], strict=True)
        found.append([rod_of[frozenset(p)] for p in pairs])
    return found


def meets_definition(colouring: np.ndarray, all_cycles: list[list[int]]) -> bool:
    """Both colours used; every cycle one colour or with two rods of each colour."""
    red = np.asarray(colouring, dtype=bool)
    if red.all() or not red.any():
        return False
    for cycle in all_cycles:
        reds = int(red[cycle].sum())
        if reds not in (0, len(cycle)) and not 2 <= reds <= len(cycle) - 2:
            return False
    return True


def brute_force(linkage: Linkage) -> set[frozenset[int]]:
    """The red rods of every NAC-colouring with rod 0 blue (all 2^(m-1) tried)."""
    m, all_cycles = linkage.n_rods, cycles(linkage)
    found = set()
    for bits in itertools.product((False, True), repeat=max(m - 1, 0)):
        colouring = np.array((False, *bits))
        if m and meets_definition(colouring, all_cycles):
            found.add(frozenset(np.flatnonzero(colouring).tolist()))
    return found


def red_sets(colourings: list[np.ndarray]) -> set[frozenset[int]]:
    return {frozenset(np.flatnonzero(c).tolist()) for c in colourings}
