import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from linkage_widget.rigidity.pebble import generic_rank, pebble_game, pinned_pebble_game


def numeric_generic_rank(n, edges, seed=0):
    """Rank of the rigidity matrix at a random (hence generic) placement."""
    p = np.random.default_rng(seed).standard_normal((n, 2))
    a = np.zeros((len(edges), 2 * n))
    for r, (i, j) in enumerate(edges):
        a[r, 2 * i : 2 * i + 2] = p[i] - p[j]
        a[r, 2 * j : 2 * j + 2] = p[j] - p[i]
    return int(np.linalg.matrix_rank(a)) if edges else 0


def test_laman_examples():
    assert generic_rank(3, [(0, 1), (1, 2), (0, 2)]) == 3
    # K_{3,3} is generically rigid in the plane: 9 edges, 2*6-3 = 9
    k33 = [(i, j) for i in range(3) for j in range(3, 6)]
    assert generic_rank(6, k33) == 9
    # the double banana-free "two triangles sharing a vertex" is flexible: rank 6 < 7
    bowtie = [(0, 1), (1, 2), (0, 2), (2, 3), (3, 4), (2, 4)]
    assert generic_rank(5, bowtie) == 6
    k5 = list(itertools.combinations(range(5), 2))
    assert generic_rank(5, k5) == 7
    assert pebble_game(2, [(0, 1), (1, 0)]).tolist() == [True, False]


@settings(max_examples=80, deadline=None)
@given(
    st.integers(2, 8).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.lists(st.sampled_from(list(itertools.combinations(range(n), 2))), unique=True),
        )
    )
)
def test_pebble_game_matches_random_placement_rank(case):
    n, edges = case
    assert generic_rank(n, edges) == numeric_generic_rank(n, edges)


def numeric_pinned_rank(n, edges, pinned, seed=0):
    """Rank of the rod rows and the pins' unit rows at a random placement."""
    p = np.random.default_rng(seed).standard_normal((n, 2))
    rows = []
    for i, j in edges:
        row = np.zeros(2 * n)
        row[2 * i : 2 * i + 2] = p[i] - p[j]
        row[2 * j : 2 * j + 2] = p[j] - p[i]
        rows.append(row)
    rows += [np.eye(2 * n)[2 * v + d] for v in pinned for d in (0, 1)]
    return int(np.linalg.matrix_rank(np.array(rows))) if rows else 0


def test_pins_spend_the_freedoms_of_their_vertices():
    accepted, rank = pinned_pebble_game(2, [(0, 1)], pinned=[0, 1])
    assert (accepted.tolist(), rank) == ([False], 4)
    accepted, rank = pinned_pebble_game(3, [(0, 1), (1, 2), (0, 2)], pinned=[0])
    assert (accepted.tolist(), rank) == ([True, True, True], 5)
    # no pins: the plain game
    assert pinned_pebble_game(4, [(0, 1), (1, 2)])[0].tolist() == [True, True]


@settings(max_examples=80, deadline=None)
@given(
    st.integers(2, 7).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.lists(st.sampled_from(list(itertools.combinations(range(n), 2))), unique=True),
            st.lists(st.integers(0, n - 1), unique=True),
        )
    )
)
def test_pinned_pebble_game_matches_random_placement_rank(case):
    n, edges, pinned = case
    accepted, rank = pinned_pebble_game(n, edges, pinned)
    assert rank == numeric_pinned_rank(n, edges, pinned)
    assert rank == 2 * len(pinned) + accepted.sum()
