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
        (lambda link: zero_extension(link, 0, 9, (5, 5)), "joint 9 out of range"),
        (lambda link: zero_extension(link, 0, 1, (4, 0)), "on one line"),
        (lambda link: zero_extension(link, 0, 1, (2, 0)), "is on joint 1"),
        (lambda link: zero_extension(link, 0, 1, (np.nan, 0)), "finite"),
        (lambda link: one_extension(link, 0, 1, (5, 5)), "distinct joints"),
        (lambda link: one_extension(link, 7, 2, (5, 5)), "rod 7 out of range"),
        (lambda link: one_extension(link, 0, 3, (1, 0)), "on one line"),
        (lambda link: zero_extension(link, 0, 1, (1, 1.5)), "is on joint 2"),
        (lambda link: one_extension(link, 0, 2, (3, 0)), "is on joint 3"),
        (lambda link: one_extension(link, 0, 2, (2, 3)), "special position"),
        (lambda link: one_extension(link, 0, 2, (0, 3)), "special position"),
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
        "0-extension on another joint",
        "1-extension on another joint",
        "on the line of joints 0 and 2",
        "on the line of joints 1 and 2",
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


def internal_flexes(points, rods):
    """Flexes beyond the rigid motions by the rigidity matrix's SVD (numpy, by hand)."""
    points = np.asarray(points, dtype=float)
    matrix = np.zeros((len(rods), points.size))
    for row, (i, j) in enumerate(rods):
        matrix[row, 2 * i : 2 * i + 2] = points[i] - points[j]
        matrix[row, 2 * j : 2 * j + 2] = points[j] - points[i]
    values = np.linalg.svd(matrix, compute_uv=False)
    rank = int(np.sum(values > 1e-9 * values.max()))
    return points.size - 3 - rank


def test_one_extension_refuses_the_conic_where_a_flex_survives():
    # the triangle without rod 01 flexes by turning joint 1 about 2 (u_0 = u_2 = 0); the
    # conic of the module notes is then the lines p0 p2 and p1 p2: on them the new
    # framework flexes, elsewhere (not on a joint) it is rigid
    tri = np.array([[0, 0], [2, 0], [1, 1.5]])
    after = [(1, 2), (0, 2), (0, 3), (1, 3), (2, 3)]
    rng = np.random.default_rng(5)
    points = [(2, 3), (0, 3), (-1, -1.5), (1.5, 0.75), *rng.uniform(-3, 3, (30, 2))]
    for xy in points:
        expected = internal_flexes([*tri, xy], after)
        link = Linkage(tri, rods=[(0, 1), (1, 2), (0, 2)])
        before = link.copy()
        if expected:
            with pytest.raises(ValueError, match="special position"):
                one_extension(link, 0, 2, xy)
            assert link == before
        else:
            assert one_extension(link, 0, 2, xy) == 3
            assert analyze(link).internal_dof == 0
    assert internal_flexes([*tri, (2, 3)], after) == 1


@pytest.mark.parametrize("seed", range(5))
def test_zero_extension_keeps_the_flexes_off_the_line(seed):
    # the 0-extension's only special positions are the line p_i p_j (module notes)
    rng = np.random.default_rng(100 + seed)
    edges = random_laman(6, seed)
    link = linkage_of(edges, seed)
    i, j = 0, 1
    p = link.vertices
    for xy in [*rng.standard_normal((5, 2)), p[i] + 0.5 * (p[j] - p[i]), 2 * p[j] - p[i]]:
        trial = link.copy()
        d, e = p[j] - p[i], xy - p[i]
        on_line = abs(d[0] * e[1] - d[1] * e[0]) < 1e-12
        expected = internal_flexes([*p, xy], [*edges, (i, 6), (j, 6)])
        assert expected == (1 if on_line else 0)
        if on_line:
            with pytest.raises(ValueError, match="on one line"):
                zero_extension(trial, i, j, xy)
        else:
            zero_extension(trial, i, j, xy)
            assert analyze(trial).internal_dof == 0


def test_one_extension_passes_a_cables_kind_to_the_rods_to_its_ends():
    link = Linkage([[0, 0], [2, 0], [1, 1.5]], rods=[(0, 1), (1, 2)], cables=[(0, 2)])
    v = one_extension(link, 2, 1, (0.3, 2.0))
    kinds = {tuple(r): k for r, k in zip(link.rods.tolist(), link.rod_kinds, strict=True)}
    assert kinds == {(0, 1): "rod", (1, 2): "rod", (0, v): "cable", (2, v): "cable",
                     (1, v): "rod"}  # fmt: skip


@pytest.mark.parametrize(
    ("n", "edges", "match"),
    [
        (4, [(0, 1), (1, 2), (0, 2), (2, 3)], "under-braced"),  # joint 3 of degree 1
        (5, [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3), (0, 4)], "dependent rods"),
        (3, [(0, 1), (1, 2), (0, 5)], "edge 2 \\(0, 5\\) has a joint out of range 0..2"),
        (2, [], "starts from an edge"),
    ],
    ids=["degree 1", "K4 and a pendant", "joint out of range", "no edge"],
)
def test_sequence_of_edges_checks_its_graph(n, edges, match):
    with pytest.raises(ValueError, match=match):
        sequence_of_edges(n, edges)


def test_sequence_keeps_one_pebble_game_along_the_steps(monkeypatch):
    # one game follows the graph as joints go (a few pebble searches a step), not a new
    # game per candidate rod: O(n^3) before, 2.3 s -> 0.5 s at 600 joints
    from linkage_widget.rigidity import pebble

    games = []
    start = pebble._Game.__init__

    def counted(self, n):
        games.append(n)
        start(self, n)

    monkeypatch.setattr(pebble._Game, "__init__", counted)
    edges = random_laman(300, 4, one_extensions=1.0)
    sequence = sequence_of_edges(300, edges)
    assert nx.is_isomorphic(replay(sequence)[-1], nx.Graph(edges))
    assert len(games) == 2  # the Laman check's, and the one kept


def test_the_laman_check_plays_one_pebble_game(monkeypatch):
    # the rank and the over-braced witness come from one game, not two
    from linkage_widget.rigidity import pebble
    from linkage_widget.rigidity.laman import laman_violation

    games = []
    start = pebble._Game.__init__

    def counted(self, n):
        games.append(n)
        start(self, n)

    monkeypatch.setattr(pebble._Game, "__init__", counted)
    k4_and_pendant = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3), (3, 4)]
    reason = laman_violation(5, k4_and_pendant)
    assert "joints [0, 1, 2, 3] carry 6 rods" in reason and "generic rank is 6 < 7" in reason
    assert len(games) == 1
