"""The pebble game with sliders (slider-pinning) and the generic rank with slots (issue 25).

The count. Streinu and Theran (Slider-pinning rigidity: a Maxwell-Laman-type theorem,
DCG 2010) and Katoh and Tanigawa (Rooted-tree decompositions with matroid constraints
and the infinitesimal rigidity of frameworks with boundaries, SIAM J. Discrete Math.
2013; with the directions generic their characterisation is the same count): with
generic positions and generic slider directions, a set of bars ``E`` and sliders ``L``
(a slider is a loop at its joint) is independent exactly when every vertex set ``X``
spans

.. math:: |E(X)| + |L(X)| \\le 2|X| \\quad\\text{and}\\quad |E(X)| \\le 2|X| - 3
          \\ (E(X) \\ne \\emptyset).

A pin is two sliders on its joint. :func:`kt_rank` below implements that count by
brute force over the subsets (a matroid: the greedy rank is the rank): the hand count,
independent of the pebble game. The second oracle is the numerical rank of the real
rigidity matrix (``ConstraintSet``) at a random placement with random slider directions.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from linkage_widget import Linkage, analyze
from linkage_widget.constraints import ConstraintSet
from linkage_widget.rigidity import generic_analysis, pebble_game_applies
from linkage_widget.rigidity.modular_rank import random_generic_rank
from linkage_widget.rigidity.pebble import pinned_pebble_game
from linkage_widget.rigidity.slot_placement import place_on_slots, project_on_slots, slot_order
from linkage_widget.session.document import Document


def _independent(n: int, edges: list, loops: list) -> bool:
    """The Katoh–Tanigawa / Streinu–Theran count on every vertex set (brute force)."""
    for size in range(1, n + 1):
        for xs in itertools.combinations(range(n), size):
            x = set(xs)
            e = sum(1 for u, v in edges if u in x and v in x)
            loop = sum(1 for v in loops if v in x)
            if e + loop > 2 * size or (e and e > 2 * size - 3):
                return False
    return True


def kt_rank(n: int, edges: list, pinned: list = (), sliders: list = ()) -> int:
    """Generic rank by the count: pins (two loops) and sliders first, then the edges, greedy."""
    loops, kept = [], []
    for v in [*pinned, *pinned, *sliders]:
        if _independent(n, kept, [*loops, v]):
            loops.append(v)
    for e in edges:
        if e[0] != e[1] and _independent(n, [*kept, e], loops):
            kept.append(e)
    return len(loops) + len(kept)


def random_linkage(n, edges, pinned=(), sliders=(), slots=(), seed=0) -> Linkage:
    """The graph at a random placement, with random slider directions."""
    rng = np.random.default_rng(seed)
    p = rng.standard_normal((n, 2))
    p = project_on_slots(p, slots) if len(slots) else p  # a slot's joint on its line
    ways = rng.standard_normal((len(sliders), 2))
    return Linkage(
        p, rods=edges, pinned=list(pinned), slots=slots,
        sliders=[(j, p[j], u) for j, u in zip(sliders, ways, strict=True)],
    )  # fmt: skip


def numeric_rank(n, edges, pinned=(), sliders=(), slots=(), seed=0) -> int:
    """Rank of the real rigidity matrix at a random placement, random slider directions."""
    link = random_linkage(n, edges, pinned, sliders, slots, seed)
    a = ConstraintSet.from_linkage(link).jacobian(link.vertices).toarray()
    return int(np.linalg.matrix_rank(a)) if a.size else 0


TRIANGLE = [(0, 1), (1, 2), (0, 2)]


@pytest.mark.parametrize(
    ("n", "edges", "pinned", "sliders", "rank"),
    [
        (3, TRIANGLE, [], [0, 1, 2], 6),  # 3 + 3 = 2*3: the triangle is held
        (3, TRIANGLE, [], [0, 1, 2, 2], 6),  # a fourth slider is redundant
        (2, [(0, 1)], [], [0, 1], 3),  # the trammel: 4 - 3 = 1 motion left
        (3, [(0, 1), (1, 2)], [0], [2], 5),  # the slider-crank: 6 - 5 = 1
        (2, [(0, 1)], [], [0, 0, 1, 1], 4),  # two sliders each = two pins: the rod is redundant
        (4, [(0, 1), (1, 2), (2, 3)], [0], [3], 6),  # a chain from a pin to a slider: 8 - 6 = 2
        (2, [], [], [0, 0, 0], 2),  # three sliders on one joint: two count
    ],
)
def test_hand_counts(n, edges, pinned, sliders, rank):
    assert kt_rank(n, edges, pinned, sliders) == rank
    assert pinned_pebble_game(n, edges, pinned, sliders)[1] == rank


def test_a_rod_between_two_doubly_slid_joints_is_redundant():
    accepted, rank = pinned_pebble_game(2, [(0, 1)], sliders=[0, 0, 1, 1])
    assert (accepted.tolist(), rank) == ([False], 4)


def _slider_graphs():
    """Small graphs with a pin or two and at most one slider per other joint (as a Linkage)."""

    def build(n):
        pairs = list(itertools.combinations(range(n), 2))
        return st.tuples(
            st.just(n),
            st.lists(st.sampled_from(pairs), unique=True, max_size=2 * n),
            st.lists(st.sampled_from(range(n)), unique=True, max_size=2),
            st.lists(st.booleans(), min_size=n, max_size=n),
        )

    return st.integers(2, 6).flatmap(build)


@settings(max_examples=60, deadline=None)
@given(_slider_graphs())
def test_pebble_game_with_sliders_is_the_count_and_the_real_rank(graph):
    n, edges, pinned, slid = graph
    sliders = [v for v in range(n) if slid[v] and v not in pinned]
    rank = pinned_pebble_game(n, edges, pinned, sliders)[1]
    assert rank == kt_rank(n, edges, pinned, sliders)
    assert rank == numeric_rank(n, edges, pinned, sliders)
    # the report's generic rank: the same game through analyze's path
    assert generic_analysis(random_linkage(n, edges, pinned, sliders, seed=1))[0] == rank


@settings(max_examples=40, deadline=None)
@given(_slider_graphs(), st.data())
def test_generic_rank_with_slots_is_the_real_rank(graph, data):
    n, edges, pinned, slid = graph
    if n < 3:
        return
    triples = [t for t in itertools.permutations(range(n), 3) if t[0] < t[1]]
    slots = data.draw(st.lists(st.sampled_from(triples), unique=True, max_size=2))
    sliders = [v for v in range(n) if slid[v] and v not in pinned]
    if slot_order(slots) is None:  # slots waiting for each other: the floating route
        rank = generic_analysis(random_linkage(n, edges, pinned, sliders, slots, seed=1))[0]
    else:
        rank, _ = random_generic_rank(n, edges, pinned, dim=2, sliders=sliders, slots=slots)
    assert rank == numeric_rank(n, edges, pinned, sliders, slots)


def test_analyze_reads_the_generic_counts_with_sliders():
    trammel = Linkage(
        [[3.0, 0.0], [0.0, 4.0]], rods=[(0, 1)],
        sliders=[(0, (0, 0), (1, 0)), (1, (0, 0), (0, 1))],
    )  # fmt: skip
    r = analyze(trammel)
    assert (r.generic_rank, r.generic_internal_dof, r.generically_rigid) == (3, 1, False)
    assert r.generic_method == "pebble game (2, 3) with sliders"
    crank = Linkage(
        [[0, 0], [1, 1], [3.5, 0]], rods=[(0, 1), (1, 2)], pinned=[0],
        sliders=[(2, (0, 0), (1, 0))],
    )  # fmt: skip
    r = analyze(crank)
    assert (r.generic_rank, r.generic_internal_dof) == (5, 1)


def test_a_slot_goes_to_the_random_placement_route():
    link = Linkage(
        [[0.0, 0.0], [4.0, 0.0], [1.0, 0.0], [1.0, 1.0]], rods=[(2, 3)], pinned=[0, 1],
        slots=[(0, 1, 2)],
    )  # fmt: skip
    assert not pebble_game_applies(link)
    r = analyze(link)
    assert (r.generic_rank, r.generic_internal_dof) == (6, 2)
    assert "a slot" in r.generic_method


def test_pyrigi_agrees_on_the_ground_graph():
    """PyRigi models no slider: it is asked about the same count on the ground graph.

    A slider is infinitesimally a bar to a ground point on its normal; with the ground one
    rigid body (a triangle) and a point of its own for each slider, the slider-pinned
    framework cannot move at all exactly when this graph is (Laman-)rigid.
    """
    pyrigi = pytest.importorskip("pyrigi")
    rng = np.random.default_rng(3)
    for _ in range(30):
        n = int(rng.integers(2, 6))
        pairs = list(itertools.combinations(range(n), 2))
        edges = [pairs[k] for k in rng.permutation(len(pairs))[: rng.integers(1, len(pairs) + 1)]]
        sliders = [int(v) for v in range(n) if rng.random() < 0.6]
        ground = [(n, n + 1), (n + 1, n + 2), (n, n + 2)]
        for s, v in enumerate(sliders):
            g = n + 3 + s
            ground += [(g, n), (g, n + 1), (v, g)]
        graph = pyrigi.Graph(edges + ground)
        graph.add_nodes_from(range(n + 3 + len(sliders)))
        held = pinned_pebble_game(n, edges, (), sliders)[1] == 2 * n
        assert graph.is_rigid() == held


def test_the_session_document_counts_sliders():
    # the kept (incremental) game holds pins and rods only: with guides the document
    # answers with generic_analysis, which plays them
    crank = Linkage(
        [[0, 0], [1, 1], [3.5, 0]], rods=[(0, 1), (1, 2)], pinned=[0],
        sliders=[(2, (0, 0), (1, 0))],
    )  # fmt: skip
    doc = Document(crank)
    assert doc.generic()[0] == 5


def test_a_slot_that_follows_from_two_others_is_not_counted_generically():
    """Review of issue 25: random placements off the slots counted the third slot (rank 7)."""
    pts = [(0, 0), (3, 0), (1, 0), (2, 0)]
    two = Linkage(pts, pinned=[0, 1], slots=[(0, 1, 2), (0, 1, 3)])
    three = Linkage(pts, pinned=[0, 1], slots=[(0, 1, 2), (0, 1, 3), (2, 3, 0)])
    assert slot_order([(0, 1, 2), (0, 1, 3), (2, 3, 0)]) is None
    assert generic_analysis(two)[0] == generic_analysis(three)[0] == 6
    report = analyze(three)
    assert (report.dof, report.self_stresses, report.generic_rank) == (2, 1, 6)
    assert "exact" not in report.generic_method


def test_generic_slot_placements_put_each_joint_on_its_line():
    rng = np.random.default_rng(3)
    p = rng.integers(0, 97, size=(5, 2), dtype=np.int64)
    slots = [(0, 1, 2), (2, 3, 4)]
    place_on_slots(p, slots, slot_order(slots), 97, rng)
    for a, b, c in slots:
        e, w = p[b] - p[a], p[c] - p[a]
        assert (e[0] * w[1] - e[1] * w[0]) % 97 == 0
    q = project_on_slots(rng.standard_normal((4, 2)), [(0, 1, 2), (2, 3, 0)])
    for a, b, c in [(0, 1, 2), (2, 3, 0)]:
        e, w = q[b] - q[a], q[c] - q[a]
        assert abs(e[0] * w[1] - e[1] * w[0]) < 1e-12
