"""The flex a NAC-colouring gives (issue 26, part nac): lengths kept, shape changed.

Oracles: rod lengths and joint distances measured on the returned placements over a
grid of angles in :math:`[0, 2\\pi)`; the velocity :math:`\\dot p(0)` checked against
the rigidity matrix rows :math:`(p_i - p_j)\\cdot(\\dot p_i - \\dot p_j) = 0` by a finite
difference; genericity of the graph by the pebble game (a different code path).
"""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from nac_oracle import graph_linkage
from test_nac_colourings import prism

from linkage_widget import Linkage, analyze
from linkage_widget.rigidity import generic_analysis
from linkage_widget.rigidity.nac import nac_colourings
from linkage_widget.rigidity.nac_motion import NAC_MIN_GAP, nac_motion

ANGLES = np.linspace(0.0, 2 * np.pi, 97)[:-1]

GRAPHS = {
    "K33": nx.complete_bipartite_graph(3, 3),
    "3-prism": prism(),
    "4-cycle": nx.cycle_graph(4),
    "K24": nx.complete_bipartite_graph(2, 4),
    "cube": nx.hypercube_graph(3),
    "two triangles at a joint": nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 2)]),
    "path and a lone joint": nx.Graph([(0, 1), (1, 2)], name="lone"),
}
GRAPHS["path and a lone joint"].add_node(3)  # a joint without rods: its own components


def lengths(placements: np.ndarray, rods: np.ndarray) -> np.ndarray:
    return np.linalg.norm(placements[..., rods[:, 0], :] - placements[..., rods[:, 1], :], axis=-1)


def distances(placements: np.ndarray) -> np.ndarray:
    return np.linalg.norm(placements[..., :, None, :] - placements[..., None, :, :], axis=-1)


def motions(name: str):
    link = graph_linkage(GRAPHS[name], seed=3)
    for k, colouring in enumerate(nac_colourings(link)):
        yield link, colouring, nac_motion(link, colouring, seed=k)


@pytest.mark.parametrize("name", GRAPHS)
def test_every_rod_keeps_its_length_over_the_whole_turn(name):
    for link, _, motion in motions(name):
        path = motion.placement(ANGLES)
        assert path.shape == (len(ANGLES), link.n_vertices, 2)
        measured = lengths(path, link.rods)
        assert np.abs(measured - motion.lengths).max() <= 1e-12 * motion.lengths.max()
        assert np.allclose(motion.placement(2 * np.pi + 0.3), motion.placement(0.3), atol=1e-12)


@pytest.mark.parametrize("name", GRAPHS)
def test_the_motion_is_no_rigid_motion(name):
    for _, _, motion in motions(name):
        spread = np.ptp(distances(motion.placement(ANGLES)), axis=0)
        # some pair of joints (no rod between them) changes its distance
        assert spread.max() > 1e-2 * motion.lengths.mean()


@pytest.mark.parametrize("name", GRAPHS)
def test_quasi_injective_and_apart_where_the_construction_allows(name):
    for link, _, motion in motions(name):
        path = motion.placement(ANGLES)
        assert lengths(path, link.rods).min() > NAC_MIN_GAP * motion.lengths.mean()
        same_point = (motion.red[:, None] == motion.red) & (motion.blue[:, None] == motion.blue)
        d = distances(path)
        assert np.all(d[:, same_point] < 1e-12 * motion.lengths.max())
        apart = ~same_point
        # the closed-form gap is the least over the turn: the sampled angles never go below
        assert d[:, apart].min() >= motion.smallest_gap * (1 - 1e-9)
        assert motion.injective is bool(apart[~np.eye(link.n_vertices, dtype=bool)].all())


@pytest.mark.parametrize("name", GRAPHS)
def test_the_velocity_is_an_infinitesimal_flex(name):
    for link, _, motion in motions(name):
        h = 1e-6
        velocity = (motion.placement(h) - motion.placement(-h)) / (2 * h)
        p, (i, j) = motion.start, link.rods.T
        rows = np.einsum("rk,rk->r", p[i] - p[j], velocity[i] - velocity[j])
        assert np.abs(rows).max() < 1e-8 * motion.lengths.max() ** 2
        # and no rigid motion: some pair's distance has a nonzero derivative
        diff = p[:, None] - p[None]
        rate = np.einsum("abk,abk->ab", diff, velocity[:, None] - velocity[None])
        assert np.abs(rate).max() > 1e-3 * motion.lengths.mean() ** 2


def test_the_prism_a_laman_graph_flexes_with_all_joints_apart():
    link = graph_linkage(prism())
    rank, redundant = generic_analysis(link)
    assert rank == link.n_rods == 2 * link.n_vertices - 3 and not redundant.any()
    (colouring,) = nac_colourings(link)
    motion = nac_motion(link, colouring, seed=1)
    assert motion.injective
    # the placement the flex starts from moves: one internal degree of freedom
    start = Linkage(motion.start, rods=link.rods)
    assert analyze(start).internal_dof == 1
    assert generic_analysis(start)[0] == 2 * 6 - 3  # the graph alone stays rigid


def test_k33_flexes_but_the_construction_puts_joints_together():
    link = graph_linkage(nx.complete_bipartite_graph(3, 3))
    assert generic_analysis(link)[0] == 2 * 6 - 3  # generically rigid
    for colouring in nac_colourings(link):
        motion = nac_motion(link, colouring, seed=0)
        spread = np.ptp(distances(motion.placement(ANGLES)), axis=0)
        assert spread.max() > 1e-2 * motion.lengths.mean()
        # a single colouring's grid places some non-adjacent joints on one point:
        # Dixon's injective flexes of K3,3 are not of this form
        assert not motion.injective


def test_the_flex_has_the_linkage_size_and_centre_not_its_shape():
    link = graph_linkage(nx.complete_bipartite_graph(2, 4), seed=7)
    colouring = nac_colourings(link)[0]
    motion = nac_motion(link, colouring, seed=2)
    assert motion.start.shape == (link.n_vertices, 2)
    assert motion.lengths.shape == (link.n_rods,)
    assert np.isclose(motion.lengths.mean(), link.rod_lengths().mean())
    assert np.allclose(motion.start.mean(axis=0), link.vertices.mean(axis=0))
    again = nac_motion(link, colouring, seed=2)
    assert np.array_equal(again.start, motion.start)
    assert not np.allclose(nac_motion(link, colouring, seed=3).start, motion.start)
    # a new shape: the rods' lengths are the motion's, not the linkage's
    assert not np.allclose(motion.lengths, link.rod_lengths())


def test_a_bad_colouring_is_refused_saying_why():
    square = Linkage([[0, 0], [1, 0], [1, 1], [0, 1]], rods=[(0, 1), (1, 2), (2, 3), (3, 0)])
    with pytest.raises(ValueError, match=r"rod 0 \(0-1\) is red and a path of the other"):
        nac_motion(square, [True, False, False, False])
    with pytest.raises(ValueError, match="uses one"):
        nac_motion(square, [False] * 4)
    with pytest.raises(ValueError, match=r"shape \(4,\)"):
        nac_motion(square, [True, False, True])
    with pytest.raises(TypeError, match="nac_motion: linkage must be a Linkage"):
        nac_motion("square", [True, False, True, False])


def test_a_linkage_in_space_gets_a_planar_flex_of_its_graph():
    flat = graph_linkage(nx.complete_bipartite_graph(2, 3))
    points = np.column_stack([flat.vertices, np.ones(flat.n_vertices)])
    spatial = Linkage(points, rods=flat.rods)
    motion = nac_motion(spatial, nac_colourings(spatial)[0], seed=0)
    assert motion.placement(np.array([0.0, 1.0])).shape == (2, flat.n_vertices, 2)
    measured = lengths(motion.placement(ANGLES), spatial.rods)
    assert np.abs(measured - motion.lengths).max() <= 1e-12 * motion.lengths.max()


def test_random_graphs_with_a_colouring_flex():
    rng = np.random.default_rng(31)
    flexed = 0
    for _ in range(40):
        n = int(rng.integers(4, 10))
        graph = nx.gnm_random_graph(n, int(rng.integers(n, 2 * n)), seed=int(rng.integers(2**31)))
        link = graph_linkage(graph, seed=1)
        for k, colouring in enumerate(nac_colourings(link)[:5]):
            motion = nac_motion(link, colouring, seed=k)
            path = motion.placement(ANGLES)
            measured = lengths(path, link.rods)
            assert np.abs(measured - motion.lengths).max() <= 1e-12 * motion.lengths.max()
            assert np.ptp(distances(path), axis=0).max() > 1e-2 * motion.lengths.mean()
            assert measured.min() > NAC_MIN_GAP * motion.lengths.mean()
            flexed += 1
    assert flexed > 60


def grid(k: int) -> tuple[Linkage, np.ndarray]:
    """The k x k grid of squares and its colouring: rods along rows red, along columns blue."""
    index = np.arange(k * k).reshape(k, k)
    rows = np.column_stack([index[:, :-1].ravel(), index[:, 1:].ravel()])
    columns = np.column_stack([index[:-1].ravel(), index[1:].ravel()])
    points = np.column_stack([index.ravel() % k, index.ravel() // k]).astype(float)
    colouring = np.r_[np.ones(len(rows), bool), np.zeros(len(columns), bool)]
    return Linkage(points, rods=np.vstack([rows, columns])), colouring


def test_a_grid_of_4900_joints_flexes_rods_apart_and_reports_its_smallest_gap():
    # every joint is its own (row, column) point: ~1.2e7 pairs, whose smallest gap is
    # far below 1e-6 of a rod; only the rods (quasi-injectivity) must stay apart
    link, colouring = grid(70)
    motion = nac_motion(link, colouring, seed=0)
    assert motion.injective
    path = motion.placement(np.linspace(0.0, 2 * np.pi, 9)[:-1])
    measured = lengths(path, link.rods)
    assert np.abs(measured - motion.lengths).max() <= 1e-12 * motion.lengths.max()
    assert motion.lengths.min() > NAC_MIN_GAP * motion.lengths.mean()
    assert 0 < motion.smallest_gap < motion.lengths.min()
    # no sampled pair comes closer than the reported gap (5e5 random pairs, 8 angles)
    rng = np.random.default_rng(0)
    i, j = rng.integers(link.n_vertices, size=(2, 500_000))
    i, j = i[i != j], j[i != j]
    sampled = np.linalg.norm(path[:, i] - path[:, j], axis=-1)
    assert sampled.min() >= motion.smallest_gap * (1 - 1e-9)


def test_the_smallest_gap_is_the_least_distance_over_a_fine_turn():
    for name in ("3-prism", "K24"):
        for _, _, motion in motions(name):
            turn = np.linspace(0.0, 2 * np.pi, 20_001)
            path = motion.placement(turn)
            n = len(motion.red)
            i, j = np.triu_indices(n, 1)
            apart = (motion.red[i] != motion.red[j]) | (motion.blue[i] != motion.blue[j])
            least = np.linalg.norm(path[:, i[apart]] - path[:, j[apart]], axis=-1).min()
            # sampled at steps of 3e-4 rad: within that of the true minimum, never below
            assert motion.smallest_gap * (1 - 1e-9) <= least
            assert least <= motion.smallest_gap + 1e-3 * motion.lengths.max()


def test_the_motion_makes_a_linkage_keeping_everything_but_the_positions():
    link = graph_linkage(prism(), seed=4)
    link.set_rod_kind(0, "cable")
    link.pin(2)
    link.masses.set_joint(1, 2.5)
    motion = nac_motion(link, nac_colourings(link)[0], seed=5)
    placed = motion.linkage(link, t=0.7)
    assert placed is not link  # the linkage itself is left where it was
    assert np.allclose(link.vertices, graph_linkage(prism(), seed=4).vertices)
    assert np.array_equal(placed.vertices, motion.placement(0.7))
    assert np.array_equal(placed.rods, link.rods)
    assert placed.rod_kinds.tolist() == link.rod_kinds.tolist()
    assert np.array_equal(placed.pinned, link.pinned)
    assert placed.masses.joint(1) == 2.5 and placed.masses is not link.masses
    assert np.allclose(placed.rod_lengths(), motion.lengths)
    assert np.allclose(motion.linkage(link).vertices, motion.start)
    # the flexible placement moves (the prism is rigid at generic lengths)
    assert analyze(placed).internal_dof == 1


def test_the_motion_refuses_a_linkage_in_space_or_of_another_graph():
    flat = graph_linkage(nx.complete_bipartite_graph(2, 3))
    spatial = Linkage(np.column_stack([flat.vertices, np.ones(flat.n_vertices)]), rods=flat.rods)
    motion = nac_motion(spatial, nac_colourings(spatial)[0], seed=0)
    with pytest.raises(ValueError, match="the motion is planar and this linkage is 3-D"):
        motion.linkage(spatial)
    assert motion.linkage(flat).dim == 2
    other = graph_linkage(nx.cycle_graph(5))
    with pytest.raises(ValueError, match="not the one this motion was made for"):
        motion.linkage(other)
    with pytest.raises(ValueError, match="t must be one angle"):
        motion.linkage(flat, t=np.array([0.0, 1.0]))
