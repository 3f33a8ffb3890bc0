"""The compiled pebble game (numba) against the pure-Python one, and rigid clusters.

The accepted edges are the greedy basis of the generic rigidity matroid in the edge
order, so the two games must agree edge for edge however their searches move pebbles.
The rigid clusters are checked against an independent oracle: mutual rigidity of two
vertices read off the rank of the rigidity matrix at a random placement.
"""

import itertools

import numpy as np
import pytest

from linkage_widget.rigidity import pebble_fast
from linkage_widget.rigidity.pebble import pebble_game
from linkage_widget.rigidity.percolation import lattice_bonds
from linkage_widget.rigidity.rigid_clusters import rigid_clusters

pytest.importorskip("numba")  # the fast extra is in the test extra: CI runs this path


def random_multigraphs(rng, count):
    """Multigraphs with loops and repeated edges, sparse to dense."""
    for _ in range(count):
        n = int(rng.integers(1, 16))
        m = int(rng.integers(0, 3 * n + 4))
        yield n, [tuple(e) for e in rng.integers(0, n, (m, 2)).tolist()]


def dense_graphs(rng, count):
    """Random subsets of a complete graph on up to 9 vertices, in random order."""
    for _ in range(count):
        n = int(rng.integers(2, 10))
        pairs = list(itertools.combinations(range(n), 2))
        keep = rng.random(len(pairs)) < rng.uniform(0.3, 1.0)
        chosen = [pairs[k] for k in np.flatnonzero(keep)]
        yield n, [chosen[k] for k in rng.permutation(len(chosen))]


def diluted_lattices(rng, count):
    """Bond-diluted lattices, bonds in lattice order or shuffled."""
    for t in range(count):
        lattice = ("triangular", "square_crossed")[t % 2]
        size = int(rng.integers(2, 9))
        _, bonds = lattice_bonds(size, lattice)
        bonds = bonds[rng.random(len(bonds)) < rng.uniform(0.4, 1.0)]
        if t % 3 == 0:
            bonds = bonds[rng.permutation(len(bonds))]
        yield size * size, [tuple(b) for b in bonds.tolist()]


def all_cases():
    rng = np.random.default_rng(2026)
    return [
        *random_multigraphs(rng, 500),
        *dense_graphs(rng, 300),
        *diluted_lattices(rng, 300),
    ]


CASES = all_cases()


def test_the_compiled_game_accepts_the_pure_games_edges_on_1100_graphs():
    assert len(CASES) >= 1000
    for n, edges in CASES:
        fast = pebble_game(n, edges, compiled=True)
        pure = pebble_game(n, edges, compiled=False)
        assert fast.tolist() == pure.tolist(), (n, edges)


def test_the_compiled_clusters_are_the_pure_ones_on_1100_graphs():
    for n, edges in CASES:
        fast = rigid_clusters(n, edges, compiled=True)
        pure = rigid_clusters(n, edges, compiled=False)
        assert fast.tolist() == pure.tolist(), (n, edges)


def mutually_rigid(n, edges, seed=0):
    """``rigid[i, j]``: adding the bar ij keeps the rank at a random placement."""
    p = np.random.default_rng(seed).standard_normal((n, 2))

    def rank(es):
        a = np.zeros((len(es), 2 * n))
        for r, (i, j) in enumerate(es):
            a[r, 2 * i : 2 * i + 2] = p[i] - p[j]
            a[r, 2 * j : 2 * j + 2] = p[j] - p[i]
        return int(np.linalg.matrix_rank(a)) if es else 0

    base = rank(edges)
    rigid = np.eye(n, dtype=bool)
    for i, j in itertools.combinations(range(n), 2):
        rigid[i, j] = rigid[j, i] = rank([*edges, (i, j)]) == base
    return rigid


def test_rigid_clusters_match_the_rigidity_matrix():
    # two edges share a cluster iff their (up to four) ends are pairwise mutually rigid
    rng = np.random.default_rng(7)
    graphs = [*random_multigraphs(rng, 120), *dense_graphs(rng, 60)]
    for n, edges in graphs:
        edges = [e for e in edges if e[0] != e[1]]
        if n > 9 or not edges:
            continue
        rigid = mutually_rigid(n, edges)
        labels = rigid_clusters(n, edges, compiled=True)
        for (e, a), (f, b) in itertools.combinations(enumerate(edges), 2):
            ends = {*a, *b}
            together = all(rigid[x, y] for x, y in itertools.combinations(ends, 2))
            assert (labels[e] == labels[f]) == together, (n, edges, e, f)


def test_clusters_of_small_frameworks_by_hand():
    k4 = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    bowtie = [(0, 1), (1, 2), (0, 2), (2, 3), (3, 4), (2, 4)]
    four_bar = [(0, 1), (1, 2), (2, 3), (3, 0)]
    for compiled in (True, False):
        assert rigid_clusters(4, k4, compiled=compiled).tolist() == [0] * 6
        assert rigid_clusters(5, bowtie, compiled=compiled).tolist() == [0, 0, 0, 1, 1, 1]
        assert rigid_clusters(4, four_bar, compiled=compiled).tolist() == [0, 1, 2, 3]
        # a loop is in no cluster; a repeated bar joins its twin's
        assert rigid_clusters(3, [(0, 1), (1, 1), (1, 0)], compiled=compiled).tolist() == [
            0,
            -1,
            0,
        ]


def test_the_environment_forces_the_pure_game(monkeypatch):
    monkeypatch.setenv("LINKAGE_WIDGET_PURE_PEBBLE", "1")
    assert not pebble_fast.use_compiled(None, 10**7)
    with pytest.raises(ImportError, match="numba"):
        pebble_game(3, [(0, 1)], compiled=True)
    monkeypatch.delenv("LINKAGE_WIDGET_PURE_PEBBLE")
    assert pebble_fast.use_compiled(None, pebble_fast.COMPILED_MIN_EDGES)
    assert not pebble_fast.use_compiled(None, pebble_fast.COMPILED_MIN_EDGES - 1)


@pytest.mark.parametrize("compiled", [True, False])
def test_a_vertex_out_of_range_is_named(compiled):
    with pytest.raises(IndexError, match=r"edge 1 = \(2, 5\)"):
        pebble_game(4, [(0, 1), (2, 5)], compiled=compiled)
    with pytest.raises(IndexError, match=r"edge 0 = \(-1, 2\)"):
        rigid_clusters(4, [(-1, 2)], compiled=compiled)


def test_a_large_lattice_takes_the_compiled_path_and_agrees():
    _, bonds = lattice_bonds(120)
    rng = np.random.default_rng(3)
    bonds = bonds[rng.random(len(bonds)) < 0.66]
    assert len(bonds) >= pebble_fast.COMPILED_MIN_EDGES
    edges = bonds.tolist()
    assert (
        pebble_game(120 * 120, edges).tolist()
        == pebble_game(120 * 120, edges, compiled=False).tolist()
    )


def test_a_numba_that_cannot_compile_leaves_the_pure_game(monkeypatch):
    import numba

    def broken(**options):
        def wrap(function):
            def fail(*args):
                raise RuntimeError("this numba cannot compile")

            return fail

        return wrap

    pebble_fast._compile.cache_clear()
    try:
        monkeypatch.setattr(numba, "njit", broken)
        assert not pebble_fast.compiled_available()
        assert not pebble_fast.use_compiled(None, 10**7)
        assert pebble_game(3, [(0, 1), (1, 2), (0, 2), (0, 1)]).tolist() == [True] * 3 + [False]
        with pytest.raises(ImportError, match="numba"):
            pebble_game(3, [(0, 1)], compiled=True)
    finally:
        monkeypatch.undo()
        pebble_fast._compile.cache_clear()
    assert pebble_fast.compiled_available()
    assert pebble_game(3, [(0, 1), (1, 2)], compiled=True).tolist() == [True, True]


def test_fast_game_refuses_a_start_out_of_range_and_reads_every_circuit_itself():
    # numba does no bounds checks: an index past the edges segfaulted or read anywhere
    # (review of issue 27); the circuits' order is drawn inside, never given
    if not pebble_fast.compiled_available():
        pytest.skip("numba is not installed (the fast extra)")
    game = pebble_fast.FastGame(3)
    game.play([(0, 1), (1, 2), (0, 2), (0, 1)])
    for bad in ([4], [-1], [10**8]):
        with pytest.raises(IndexError, match="numbered 0..3"):
            game.clusters(bad)
    assert game.redundant().tolist() == [True, False, False, True]
    labels, count = game.clusters([3])  # a redundant start: no cluster of its own
    assert (labels.tolist(), count) == ([-1, -1, -1, -1], 0)


def test_clusters_of_some_starts_in_any_order_are_numbered_as_the_pure_game_does():
    # the compiled decomposition grows the clusters in the order of their least vertex
    # (pebbles found near the last cluster) and renumbers them to the starts' order:
    # labels and count must be the pure game's, which grows them in the given order
    from linkage_widget.rigidity.rigid_clusters import PureGame

    rng = np.random.default_rng(27)
    checked = 0
    for n, edges in CASES[::3]:
        if not edges:
            continue
        fast, pure = pebble_fast.FastGame(n), PureGame(n)
        fast.play(edges)
        pure.play(edges)
        for _ in range(3):
            k = int(rng.integers(1, 2 * len(edges) + 1))
            starts = rng.integers(0, len(edges), k)  # repeats, redundant edges, any order
            want = pure.clusters(starts.tolist())
            for as_given in (False, True):
                got = fast.clusters(starts, as_given=as_given)
                assert got[1] == want[1] and got[0].tolist() == want[0].tolist(), (n, edges)
            checked += 1
    assert checked >= 900


def test_the_int32_stamps_start_again_without_changing_an_answer():
    # the records are int32: after 2^31 - 1 searches the stamps restart from 0, every
    # visit and tight mark cleared; here that happens in the middle of a play and again
    # in the middle of the decomposition, and the answers stay the pure game's
    from linkage_widget.rigidity.rigid_clusters import PureGame

    _, bonds = lattice_bonds(12)
    rng = np.random.default_rng(5)
    bonds = bonds[rng.random(len(bonds)) < 0.7]
    edges = [tuple(b) for b in bonds[rng.permutation(len(bonds))].tolist()]
    edges += edges[:40]  # repeats: rejected at once by a tight mark, or after a search
    pure = PureGame(144)
    want = pure.play(edges).tolist()
    reference = pebble_fast.FastGame(144)
    reference.play(edges)
    plays = int(reference.counter[2])  # searches the play takes
    for late in (plays // 2, plays + 10):  # restart during the play, or the decomposition
        game = pebble_fast.FastGame(144)
        assert game.state.dtype == np.int32
        game.counter[0] = pebble_fast._STAMP_LIMIT - late
        assert game.play(edges).tolist() == want
        assert (game.counter[0] < plays) == (late < plays)
        labels, count = game.clusters()
        assert game.counter[0] < pebble_fast._STAMP_LIMIT - late  # it started again
        want_labels, want_count = pure.clusters()
        assert count == want_count and labels.tolist() == want_labels.tolist()
        assert game.redundant().tolist() == reference.redundant().tolist()


def test_a_game_refuses_more_vertices_than_its_int32_records_hold():
    with pytest.raises(ValueError, match="vertices"):
        pebble_fast.FastGame(pebble_fast.MAX_VERTICES)
    with pytest.raises(ValueError, match="vertices"):
        pebble_fast.FastGame(-1)


def test_renumbering_skips_an_unlabelled_start():
    from linkage_widget.rigidity._pebble_arrays import numbered_by

    labels = np.array([-1, 1, 0, 1])
    assert numbered_by(labels, np.array([0, 1, 2]), 2).tolist() == [-1, 0, 1, 0]
