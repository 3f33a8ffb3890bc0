"""The incremental pebble game (issue 14) against a full game replayed after every edit."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from linkage_widget.rigidity.pebble import PebbleGame, pinned_pebble_game


def assert_matches_full_game(game: PebbleGame) -> None:
    """Same accepted edges and rank as :func:`pinned_pebble_game` played from scratch."""
    accepted, rank = pinned_pebble_game(game.n, game.edges, game.pins)
    assert game.accepted.tolist() == accepted.tolist()
    assert game.rank == rank


operations = st.lists(
    st.tuples(
        st.sampled_from(["edge", "edge", "edge", "remove", "pin", "unpin", "vertex"]),
        st.integers(0, 10**6),
        st.integers(0, 10**6),
    ),
    max_size=40,
)


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 9), operations)
def test_every_edit_gives_the_full_games_redundant_set(n, ops):
    game = PebbleGame(n)
    for kind, a, b in ops:
        if kind == "edge":
            game.add_edge(a % game.n, b % game.n)
        elif kind == "remove" and game.edges:
            game.remove_edge(a % len(game.edges))
        elif kind == "pin" and a % game.n not in game.pins:
            game.add_pin(a % game.n)
        elif kind == "unpin" and game.pins:
            game.remove_pin(game.pins[a % len(game.pins)])
        elif kind == "vertex":
            game.add_vertex()
        assert_matches_full_game(game)


def test_constructor_plays_like_the_full_game():
    rng = np.random.default_rng(3)
    for _ in range(20):
        n = int(rng.integers(3, 30))
        edges = rng.integers(0, n, size=(int(rng.integers(0, 3 * n)), 2)).tolist()
        pins = rng.choice(n, size=int(rng.integers(0, 3)), replace=False).tolist()
        assert_matches_full_game(PebbleGame(n, edges, pins))


def ladder_edges(k: int) -> list[tuple[int, int]]:
    """Rungs, rails and one diagonal per square of a ``k``-square ladder (rigid, Laman)."""
    rungs = [(2 * c, 2 * c + 1) for c in range(k + 1)]
    rails = [(2 * c, 2 * c + 2) for c in range(k)] + [(2 * c + 1, 2 * c + 3) for c in range(k)]
    return rungs + rails + [(2 * c, 2 * c + 3) for c in range(k)]


def test_adding_a_rod_to_a_large_game_is_one_search_not_a_new_game():
    """On a 2 000-joint ladder an edit costs a handful of pebble searches, not thousands."""
    k = 999
    game = PebbleGame(2 * (k + 1), ladder_edges(k), pinned=[0])
    full = game.searches  # what playing the whole game cost
    assert full > 2000
    before = game.searches
    assert not game.add_edge(0, 2 * k + 1)  # a brace of a rigid ladder is redundant
    assert game.searches - before <= 4
    v = game.add_vertex()
    before = game.searches
    assert game.add_edge(v, 2 * k) and game.add_edge(v, 2 * k + 1)
    assert game.searches - before <= 8
    assert_matches_full_game(game)


def test_removing_an_accepted_rod_frees_the_next_redundant_one():
    game = PebbleGame(4, [(0, 1), (0, 2), (1, 2), (1, 3), (2, 3), (0, 3)])
    assert game.accepted.tolist() == [True, True, True, True, True, False]
    game.remove_edge(1)
    assert game.edges[-1] == (0, 3) and game.accepted.tolist() == [True] * 5
    assert_matches_full_game(game)


def test_bad_edits_are_refused_and_leave_the_game_unchanged():
    game = PebbleGame(3, [(0, 1)], pinned=[0])
    with pytest.raises(IndexError, match="vertex 5"):
        game.add_edge(0, 5)
    with pytest.raises(ValueError, match="pinned twice"):
        game.add_pin(0)
    with pytest.raises(ValueError, match="pinned twice"):
        PebbleGame(3, pinned=[1, 1])
    assert game.edges == [(0, 1)] and game.pins == [0]
    assert_matches_full_game(game)


def test_a_pin_that_conflicts_with_accepted_rods_replays_pins_first():
    game = PebbleGame(3, [(0, 1), (1, 2)])
    game.add_pin(0)
    assert game.accepted.tolist() == [True, True]
    game.add_pin(1)  # pins come first: now the rod between the two pins is redundant
    assert game.accepted.tolist() == [False, True] and game.rank == 5
    assert_matches_full_game(game)
    game.remove_pin(1)
    assert game.accepted.tolist() == [True, True]
    assert_matches_full_game(game)
