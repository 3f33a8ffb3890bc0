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
        assert d[:, apart].min() > NAC_MIN_GAP * motion.lengths.mean()
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


def test_the_start_sits_where_the_linkage_is():
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
