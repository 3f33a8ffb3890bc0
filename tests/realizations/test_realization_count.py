"""``realization_count``: the Laman number against ``lnumber`` (via PyRigi) and the literature.

Oracles: ``lnumber`` (Capco's C++ package, PyRigi's backend: ``lnumber`` for the plane,
``lnumbers`` for the sphere), reached through PyRigi's ``number_of_realizations`` whose
default divides by two (``count_reflection=False``, mirror images identified); published
values (Capco et al. 2018; Borcea and Streinu 2004: 24 for the Desargues graph / 3-prism;
16 for K3,3).
"""

import numpy as np
import pytest
from laman_graphs import random_laman

from linkage_widget import Linkage, realization_count

pyrigi = pytest.importorskip("pyrigi", reason="pyrigi is a test dependency")
pytest.importorskip("lnumber", reason="lnumber is PyRigi's realization-count backend")
import pyrigi.graphDB as graphs  # noqa: E402
from pyrigi import Graph  # noqa: E402

PRISM = [(0, 1), (1, 2), (0, 2), (3, 4), (4, 5), (3, 5), (0, 3), (1, 4), (2, 5)]
K33 = [(i, j) for i in range(3) for j in range(3, 6)]


def linkage_of(edges, seed=0):
    n = 1 + max(max(e) for e in edges)
    return Linkage(np.random.default_rng(seed).standard_normal((n, 2)), rods=edges)


def oracle(edges, **kw):
    return int(Graph(edges).number_of_realizations(**kw))


@pytest.mark.parametrize(
    ("edges", "count"),
    [([(0, 1)], 1), ([(0, 1), (1, 2), (0, 2)], 2), (PRISM, 24), (K33, 16)],
    ids=["rod", "triangle", "3-prism (Desargues)", "K3,3"],
)
def test_published_counts(edges, count):
    link = linkage_of(edges)
    assert realization_count(link) == count
    assert realization_count(link, count_reflection=False) == max(1, count // 2)


def test_pyrigi_convention_is_half_with_mirror_images_identified():
    link = linkage_of(PRISM)
    assert oracle(PRISM) == 12 == realization_count(link, count_reflection=False)
    assert oracle(PRISM, count_reflection=True) == 24 == realization_count(link)


def database_laman_graphs():
    """Every minimally rigid graph of PyRigi's graphDB up to 12 vertices."""
    found = {}
    for name in ("Diamond", "ThreePrism", "DiamondWithZeroExtension"):
        found[name] = getattr(graphs, name)()
    for n in range(2, 5):
        found[f"Complete({n})"] = graphs.Complete(n)
    found["CompleteBipartite(3, 3)"] = graphs.CompleteBipartite(3, 3)
    for n in range(4, 9):
        found[f"Wheel({n})"] = graphs.Wheel(n)
        found[f"Frustum({n})"] = graphs.Frustum(n)
    for name in ("CompleteMinusOne",):
        found[f"{name}(5)"] = getattr(graphs, name)(5)
    return {k: g for k, g in found.items() if g.number_of_nodes() <= 12 and g.is_min_rigid()}


@pytest.mark.parametrize("name", sorted(database_laman_graphs()))
def test_graph_database_agrees_with_lnumber(name):
    graph = database_laman_graphs()[name]
    link = Linkage.from_networkx(_relabelled(graph))
    assert realization_count(link) == graph.number_of_realizations(count_reflection=True)
    assert realization_count(link, count_reflection=False) == graph.number_of_realizations()


def _relabelled(graph):
    import networkx as nx

    plain = nx.convert_node_labels_to_integers(nx.Graph(graph))
    rng = np.random.default_rng(1)
    for v in plain.nodes:
        plain.nodes[v]["pos"] = tuple(rng.standard_normal(2))
    return plain


@pytest.mark.parametrize("seed", range(100))
def test_random_laman_graphs_agree_with_lnumber(seed):
    edges = random_laman(5 + seed % 8, seed)  # 5 to 12 joints
    assert realization_count(linkage_of(edges, seed)) == oracle(edges, count_reflection=True)


@pytest.mark.parametrize("seed", range(30))
def test_sphere_counts_agree_with_lnumbers(seed):
    edges = random_laman(4 + seed % 5, 1000 + seed)  # 4 to 8 joints
    link = linkage_of(edges, seed)
    assert realization_count(link, spherical=True) == oracle(
        edges, spherical=True, count_reflection=True
    )
    assert realization_count(link, spherical=True, count_reflection=False) == oracle(
        edges, spherical=True
    )


def test_sphere_prism_exceeds_the_plane():
    # Gallet, Grasegger, Schicho: the 3-prism has 32 spherical placements against 24 planar
    assert realization_count(linkage_of(PRISM), spherical=True) == 32


@pytest.mark.parametrize(
    ("edges", "n", "words"),
    [
        ([(0, 1), (1, 2), (2, 3)], 4, ["under-braced", "3 rods < 2n - 3 = 5", "2 degrees"]),
        (
            [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)],
            4,
            ["over-braced", "6 rods > 2n - 3 = 5", "joints [0, 1, 2, 3] carry 6 rods"],
        ),
        (
            [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3), (3, 4)],
            5,
            ["dependent rods", "joints [0, 1, 2, 3] carry 6 rods > 2|X| - 3 = 5"],
        ),
    ],
    ids=["path", "K4", "K4 and a pendant rod"],
)
def test_not_laman_says_why(edges, n, words):
    link = Linkage(np.random.default_rng(0).standard_normal((n, 2)), rods=edges)
    with pytest.raises(ValueError, match="minimally rigid") as info:
        realization_count(link)
    for word in words:
        assert word in str(info.value)


def test_refuses_space_angles_and_sliders():
    space = Linkage(np.eye(3), rods=[(0, 1), (1, 2), (0, 2)])
    with pytest.raises(ValueError, match="3-D"):
        realization_count(space)
    tri = linkage_of([(0, 1), (1, 2), (0, 2)])
    tri.add_angle(0, 1, 2)
    with pytest.raises(ValueError, match="1 fixed angles"):
        realization_count(tri)
