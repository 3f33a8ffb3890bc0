"""Time of :func:`linkage_widget.nac_colourings` beside PyRigi's ``Graph.NAC_colorings``.

Usage::

    .venv/bin/python benchmarks/bench_nac.py            # all cases (about a minute)
    .venv/bin/python benchmarks/bench_nac.py --quick    # the small ones

Cases: graphs of PyRigi's database (``pyrigi.graphDB``), random Laman graphs built by
seeded Henneberg moves (minimally rigid: the flexible placements are the whole
question), grids (many colourings: the output grows exponentially), and triangulated
strips (rigid, triangle-connected: no colouring, found without a search). The first
table lists colourings: joints, rods, the number up to swapping, our CPU time, PyRigi's
(it lists each colouring and its swap; its count is checked to be twice ours) and the
ratio. The second asks only whether one exists (:func:`has_nac_colouring` beside
``Graph.has_NAC_coloring``, answers checked equal), on graphs with too many to list.
Both run in this one process, one after the other, best of ``--repeat``
(``time.process_time``). A script, not a timed test.
"""

from __future__ import annotations

import argparse
import sys
import time

import networkx as nx
import numpy as np
from pyrigi import Graph, graphDB

from linkage_widget import Linkage, has_nac_colouring, nac_colourings


def best_time(fn, repeat: int):
    """Smallest CPU time of ``repeat`` calls, and the last result."""
    best, result = np.inf, None
    for _ in range(repeat):
        t0 = time.process_time()
        result = fn()
        best = min(best, time.process_time() - t0)
    return best, result


def laman(n: int, seed: int, split: float = 0.5) -> nx.Graph:
    """A random Laman graph: Henneberg moves from one rod, seeded; a 1-extension with
    probability ``split`` (1: every joint past the triangle has three rods)."""
    rng = np.random.default_rng(seed)
    graph = nx.Graph([(0, 1)])
    for v in range(2, n):
        edges = list(graph.edges)
        if v > 2 and rng.random() < split:  # 1-extension: split a rod, one more neighbour
            u, w = edges[rng.integers(len(edges))]
            third = rng.choice([x for x in range(v) if x not in (u, w)])
            graph.remove_edge(u, w)
            graph.add_edges_from([(v, u), (v, w), (v, int(third))])
        else:
            a, b = rng.choice(v, size=2, replace=False)
            graph.add_edges_from([(v, int(a)), (v, int(b))])
    return graph


def strip(k: int) -> nx.Graph:
    """A triangulated strip of ``k`` triangles: rigid, one triangle-connected class."""
    return nx.Graph([(i, i + 1) for i in range(k + 1)] + [(i, i + 2) for i in range(k)])


def listing_cases(quick: bool) -> dict[str, nx.Graph]:
    """Graphs whose colourings are listed (at most some 10^4 of them)."""
    found = {
        "K3,3": graphDB.CompleteBipartite(3, 3),
        "3-prism": graphDB.ThreePrism(),
        "cube with diagonal": graphDB.CubeWithDiagonal(),
        "grid 3x3": graphDB.Grid(3, 3),
        "frustum 5": graphDB.Frustum(5),
        **{f"Laman n={n}": laman(n, seed=n) for n in (10, 20)},
    }
    if not quick:
        found |= {
            "K6,6 minus matching": graphDB.K66MinusPerfectMatching(),
            "C8 with fixed vertex": graphDB.CnSymmetricWithFixedVertex(),
            "grid 3x4": graphDB.Grid(3, 4),
            **{f"Laman n={n}": laman(n, seed=n) for n in (22, 25)},
        }
    return found


def existence_cases(quick: bool) -> dict[str, nx.Graph]:
    """Graphs only asked whether a colouring exists (too many to list, or none)."""
    found = {
        "dodecahedron": graphDB.Dodecahedral(),
        "strip 100": strip(100),
        **{f"Laman n={n}": laman(n, seed=n) for n in (40, 80)},
        **{f"Laman n={n}, 1-extensions only": laman(n, n, split=1.0) for n in (20, 40)},
    }
    if not quick:
        found |= {
            "strip 1000": strip(1000),
            **{f"Laman n={n}": laman(n, seed=n) for n in (160, 320)},
            **{f"Laman n={n}, 1-extensions only": laman(n, n, split=1.0) for n in (80, 160)},
        }
    return found


def linkage(graph: nx.Graph) -> Linkage:
    graph = nx.convert_node_labels_to_integers(nx.Graph(graph))
    points = np.random.default_rng(0).normal(size=(graph.number_of_nodes(), 2))
    return Linkage(points, rods=list(graph.edges))


def listing_row(name: str, graph: nx.Graph, repeat: int) -> str:
    graph = nx.convert_node_labels_to_integers(nx.Graph(graph))
    link = linkage(graph)
    cap = {"max_colourings": 10**6, "max_steps": 10**7}
    ours, found = best_time(lambda: nac_colourings(link, **cap), repeat)
    theirs, listed = best_time(lambda: sum(1 for _ in Graph(graph).NAC_colorings()), repeat)
    assert listed == 2 * len(found), (name, listed, len(found))
    return (
        f"| {name} | {link.n_vertices} | {link.n_rods} | {len(found)} | {ours * 1e3:.1f} | "
        f"{theirs * 1e3:.1f} | {theirs / max(ours, 1e-9):.1f} |"
    )


def existence_row(name: str, graph: nx.Graph, repeat: int) -> str:
    graph = nx.convert_node_labels_to_integers(nx.Graph(graph))
    link = linkage(graph)
    ours, exists = best_time(lambda: has_nac_colouring(link, max_steps=10**7), repeat)
    theirs, answer = best_time(lambda: Graph(graph).has_NAC_coloring(), repeat)
    assert exists is answer, (name, exists, answer)
    return (
        f"| {name} | {link.n_vertices} | {link.n_rods} | {exists} | {ours * 1e3:.2f} | "
        f"{theirs * 1e3:.2f} | {theirs / max(ours, 1e-9):.1f} |"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    print("| graph | joints | rods | colourings | ours ms | PyRigi ms | PyRigi / ours |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, graph in listing_cases(args.quick).items():
        print(listing_row(name, graph, args.repeat), flush=True)
    print("\n| graph | joints | rods | has one | ours ms | PyRigi ms | PyRigi / ours |")
    print("|---|---:|---:|---|---:|---:|---:|")
    for name, graph in existence_cases(args.quick).items():
        print(existence_row(name, graph, args.repeat), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
