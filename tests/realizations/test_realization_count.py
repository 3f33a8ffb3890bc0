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


#: Every constructor of PyRigi's graphDB with the small parameters tried: each is built,
#: and the minimally rigid ones (``is_min_rigid``) are counted. Constructors whose
#: graphs are never minimally rigid in the plane are still listed (with what they take)
#: so that a new constructor of the database is noticed.
DATABASE_PARAMETERS = {
    "CnSymmetricFourRegular": [(8,), (10,)],
    "CnSymmetricWithFixedVertex": [(8,)],
    "Complete": [(n,) for n in range(1, 7)],
    "CompleteBipartite": [(a, b) for a in range(1, 5) for b in range(a, 5)],
    "CompleteLooped": [],  # loops: no rigidity question (is_min_rigid refuses it)
    "CompleteMinusOne": [(n,) for n in range(2, 7)],
    "CubeWithDiagonal": [()],
    "Cycle": [(n,) for n in range(3, 7)],
    "Diamond": [()],
    "DiamondWithZeroExtension": [()],
    "Dodecahedral": [()],
    "DoubleBanana": [(3, 2)],  # dim >= 3 only
    "Frustum": [(n,) for n in range(3, 7)],
    "Grid": [(a, b) for a in range(1, 4) for b in range(a, 4)],
    "Icosahedral": [()],
    "K33plusEdge": [()],
    "K66MinusPerfectMatching": [()],
    "Octahedral": [()],
    "Path": [(n,) for n in range(2, 6)],
    "ThreeConnectedR3Circuit": [()],
    "ThreePrism": [()],
    "ThreePrismPlusEdge": [()],
    "ThreePrismPlusTriangleOnSide": [()],
    "Wheel": [(n,) for n in range(3, 8)],
}


def test_every_database_constructor_is_tried():
    import inspect

    constructors = {name for name, f in inspect.getmembers(graphs, inspect.isfunction)
                    if f.__module__ == graphs.__name__}  # fmt: skip
    assert constructors == set(DATABASE_PARAMETERS)


def database_laman_graphs():
    """Every minimally rigid graph of PyRigi's graphDB with the parameters above."""
    found = {}
    for name, calls in DATABASE_PARAMETERS.items():
        for args in calls:
            graph = getattr(graphs, name)(*args)
            if graph.number_of_nodes() >= 2 and graph.is_min_rigid():
                found[f"{name}{args}" if args else name] = graph
    return found


def test_the_database_holds_these_laman_graphs():
    # the filter must not lose graphs silently: these are the minimally rigid ones
    assert set(database_laman_graphs()) == {
        "Complete(2,)", "Complete(3,)", "CompleteBipartite(1, 1)", "CompleteBipartite(3, 3)",
        "CompleteMinusOne(4,)", "CubeWithDiagonal", "Cycle(3,)", "Diamond",
        "DiamondWithZeroExtension", "Frustum(3,)", "Grid(1, 2)", "Path(2,)", "ThreePrism",
        "ThreePrismPlusTriangleOnSide",
    }  # fmt: skip


@pytest.mark.parametrize("name", sorted(database_laman_graphs()))
def test_graph_database_agrees_with_lnumber(name):
    graph = database_laman_graphs()[name]
    link = Linkage.from_networkx(_relabelled(graph))
    assert realization_count(link) == graph.number_of_realizations(count_reflection=True)
    assert realization_count(link, count_reflection=False) == graph.number_of_realizations()
    sphere = graph.number_of_realizations(spherical=True, count_reflection=True)
    assert realization_count(link, spherical=True) == sphere
    assert realization_count(link, spherical=True, count_reflection=False) == (
        graph.number_of_realizations(spherical=True)
    )


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


def two_tree(n, seed):
    """Joints added one by one on the two ends of a random rod so far: 2^(n-2) placements."""
    rng = np.random.default_rng(seed)
    rods = [(0, 1)]
    for v in range(2, n):
        i, j = rods[rng.integers(len(rods))]
        rods += [(i, v), (j, v)]
    return rods


def test_degree_two_peel_is_linear():
    # every joint of a 2-tree is peeled; 4000 joints took 17.6 s when each removal
    # rebuilt the degrees (O(n m)); neighbour sets and a queue take milliseconds
    import time

    from linkage_widget.rigidity._bigraph import laman_number, peel_degree_two

    edges = two_tree(4000, 0)
    start = time.perf_counter()
    left, peeled = peel_degree_two(edges)
    assert (len(left), peeled) == (1, 3998)
    assert laman_number(edges) == 2**3998
    assert time.perf_counter() - start < 2.0


def test_counts_keep_no_memory_between_calls():
    # the memo is the call's own: nothing stays allocated once the count is returned (a
    # global cache of the sub-bigraphs kept megabytes, and evicted mid-recursion)
    import gc
    import tracemalloc

    from linkage_widget.rigidity._bigraph import laman_number
    from linkage_widget.rigidity._quadrograph import sphere_laman_number

    tracemalloc.start()
    try:
        for count, edges in ((laman_number, random_laman(12, 3)),
                             (sphere_laman_number, random_laman(8, 0))):  # fmt: skip
            gc.collect()
            before = tracemalloc.get_traced_memory()[0]
            count(edges)
            gc.collect()
            assert tracemalloc.get_traced_memory()[0] - before < 10_000
    finally:
        tracemalloc.stop()


def test_sphere_count_refuses_graphs_beyond_its_limit():
    from linkage_widget.rigidity import SPHERE_COUNT_MAX_JOINTS

    assert SPHERE_COUNT_MAX_JOINTS == 10
    edges = random_laman(11, 0, one_extensions=1.0)  # 1-extensions only: no degree 2 left
    link = linkage_of(edges)
    with pytest.raises(ValueError, match="at most 10 joints .* this one has 11"):
        realization_count(link, spherical=True)
    assert realization_count(link) == oracle(edges, count_reflection=True)  # the plane's
    # degree-2 joints do not count towards the limit: 2^10 times the prism's 32
    big = [*PRISM]
    for v in range(6, 16):
        big += [(v - 6, v), (v - 5, v)]
    assert realization_count(linkage_of(big), spherical=True) == 32 * 2**10
