"""Henneberg moves and sequences, checked by brute-force Laman counts, networkx and PyRigi.

Oracles: Laman's count checked by brute force over every vertex subset
(:math:`|E(X)| \\le 2|X| - 3`, :math:`|E| = 2n - 3`), independent of the pebble game;
networkx's ``is_isomorphic`` for the rebuilt graph; PyRigi's ``extension_sequence``
for whether a sequence exists; ``analyze`` (the rigidity matrix's rank) for a move
keeping a placement infinitesimally rigid.
"""

import itertools

import networkx as nx
import numpy as np
import pytest
from laman_graphs import random_laman

from linkage_widget import (
    Linkage,
    analyze,
    henneberg_sequence,
    one_extension,
    zero_extension,
)
from linkage_widget.rigidity.henneberg import sequence_of_edges

pyrigi = pytest.importorskip("pyrigi", reason="pyrigi is a test dependency")
from pyrigi import Graph  # noqa: E402

PRISM = [(0, 1), (1, 2), (0, 2), (3, 4), (4, 5), (3, 5), (0, 3), (1, 4), (2, 5)]


def brute_force_laman(edges):
    joints = sorted({w for e in edges for w in e})
    if len(edges) != 2 * len(joints) - 3:
        return False
    for size in range(2, len(joints) + 1):
        for group in itertools.combinations(joints, size):
            inside = set(group)
            if sum(u in inside and v in inside for u, v in edges) > 2 * size - 3:
                return False
    return True


def linkage_of(edges, seed=0):
    n = 1 + max(max(e) for e in edges)
    return Linkage(np.random.default_rng(seed).standard_normal((n, 2)), rods=edges)


def replay(sequence):
    """The graph the steps build, by hand (not HennebergSequence.graphs)."""
    graph = nx.Graph([sequence.first_rod])
    graphs = [graph.copy()]
    for step in sequence.steps:
        assert step.joint not in graph
        if step.kind == 1:
            assert graph.has_edge(*step.removed)
            graph.remove_edge(*step.removed)
        graph.add_edges_from((u, step.joint) for u in step.neighbours)
        graphs.append(graph.copy())
    return graphs


@pytest.mark.parametrize("seed", range(40))
def test_sequence_rebuilds_the_graph_through_laman_graphs(seed):
    edges = random_laman(3 + seed % 8, seed)
    sequence = henneberg_sequence(linkage_of(edges, seed))
    graphs = replay(sequence)
    assert nx.is_isomorphic(graphs[-1], nx.Graph(edges))
    assert set(map(frozenset, graphs[-1].edges)) == set(map(frozenset, edges))  # same labels
    for graph in graphs:
        assert brute_force_laman(list(graph.edges))
    assert [sorted(map(tuple, map(sorted, g.edges))) for g in graphs] == sequence.graphs()


def test_prism_needs_a_one_extension():
    sequence = henneberg_sequence(linkage_of(PRISM))
    assert [step.kind for step in sequence.steps][-1] == 1  # every joint has degree 3
    assert len(sequence.steps) == 4


@pytest.mark.parametrize("seed", range(60))
def test_existence_agrees_with_pyrigi(seed):
    rng = np.random.default_rng(seed)
    n = 4 + seed % 5
    if seed % 2:
        edges = random_laman(n, seed)
    else:  # a random graph with 2n - 3 edges: Laman or not
        pairs = list(itertools.combinations(range(n), 2))
        picks = rng.choice(len(pairs), 2 * n - 3, replace=False)
        edges = [pairs[p] for p in picks]
    graph = Graph(edges)
    theirs = graph.number_of_nodes() == n and graph.extension_sequence() is not None
    link = Linkage(rng.standard_normal((n, 2)), rods=edges)
    try:
        henneberg_sequence(link)
        ours = True
    except ValueError as error:
        ours = False
        assert "braced" in str(error) or "dependent" in str(error)
    assert ours == theirs == brute_force_laman(edges)


@pytest.mark.parametrize(
    ("edges", "n", "words"),
    [
        ([(0, 1), (1, 2), (2, 3), (3, 0)], 4, ["under-braced", "4 rods < 2n - 3 = 5"]),
        (
            [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)],
            4,
            ["over-braced", "joints [0, 1, 2, 3] carry 6 rods > 2|X| - 3 = 5"],
        ),
    ],
)
def test_no_sequence_says_why(edges, n, words):
    link = Linkage(np.random.default_rng(0).standard_normal((n, 2)), rods=edges)
    with pytest.raises(ValueError, match="henneberg_sequence needs a minimally rigid") as info:
        henneberg_sequence(link)
    for word in words:
        assert word in str(info.value)


def test_moves_on_a_linkage_keep_it_infinitesimally_rigid():
    link = Linkage([[0, 0], [2, 0], [1, 1.5]], rods=[(0, 1), (1, 2), (0, 2)])
    v = zero_extension(link, 0, 1, (1.2, -1.0))
    assert v == 3 and link.rods[-2:].tolist() == [[0, 3], [1, 3]]
    w = one_extension(link, 1, 3, (2.5, 1.0))  # rod 1 is (1, 2)
    assert w == 4 and link.find_rod(1, 2) is None
    assert link.rods[-3:].tolist() == [[1, 4], [2, 4], [3, 4]]
    assert link.n_rods == 2 * link.n_vertices - 3
    assert analyze(link).internal_dof == 0
    assert brute_force_laman([tuple(r) for r in link.rods.tolist()])


@pytest.mark.parametrize(
    ("move", "match"),
    [
        (lambda link: zero_extension(link, 0, 0, (5, 5)), "distinct joints"),
        (lambda link: zero_extension(link, 0, 9, (5, 5)), "joint"),
        (lambda link: zero_extension(link, 0, 1, (4, 0)), "on one line"),
        (lambda link: zero_extension(link, 0, 1, (2, 0)), "is on joint 1"),
        (lambda link: zero_extension(link, 0, 1, (np.nan, 0)), "finite"),
        (lambda link: one_extension(link, 0, 1, (5, 5)), "distinct joints"),
        (lambda link: one_extension(link, 7, 2, (5, 5)), "rod"),
        (lambda link: one_extension(link, 0, 3, (1, 0)), "on one line"),
    ],
    ids=[
        "same joint",
        "no joint 9",
        "collinear",
        "on a joint",
        "nan",
        "k on the rod",
        "no rod 7",
        "all collinear",
    ],  # fmt: skip
)
def test_bad_moves_change_nothing(move, match):
    link = Linkage([[0, 0], [2, 0], [1, 1.5], [3, 0]], rods=[(0, 1), (1, 2), (0, 2)])
    before = link.copy()
    with pytest.raises((ValueError, IndexError), match=match):
        move(link)
    assert link == before


def test_sequence_replayed_with_moves_builds_the_linkage():
    edges = random_laman(8, 3)
    sequence = sequence_of_edges(8, edges)
    rng = np.random.default_rng(3)
    a, b = sequence.first_rod
    link = Linkage(rng.standard_normal((2, 2)), rods=[(0, 1)])
    label = {a: 0, b: 1}  # the sequence's joints -> the new linkage's
    for step in sequence.steps:
        if step.kind == 0:
            i, j = (label[u] for u in step.neighbours)
            label[step.joint] = zero_extension(link, i, j, rng.standard_normal(2))
        else:
            i, j, k = (label[u] for u in step.neighbours)
            label[step.joint] = one_extension(link, link.find_rod(i, j), k, rng.standard_normal(2))
    built = nx.Graph([tuple(r) for r in link.rods.tolist()])
    assert nx.is_isomorphic(built, nx.Graph(edges))
    assert analyze(link).internal_dof == 0
