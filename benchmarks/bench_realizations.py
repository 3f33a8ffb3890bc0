"""Time of :func:`linkage_widget.realization_count` against ``lnumber`` (C++, via PyRigi).

Usage::

    .venv/bin/python benchmarks/bench_realizations.py            # 6 to 14 joints
    .venv/bin/python benchmarks/bench_realizations.py --quick    # 6 to 11 joints
    .venv/bin/python benchmarks/bench_realizations.py --sphere   # on the sphere, 5 to 9 joints

Cases: random Laman graphs built by seeded Henneberg steps (mostly 1-extensions, so few
degree-2 joints and a real recursion), a few per size. For each: our count (pure Python,
the bigraph recursion with its memo cleared) and PyRigi's ``number_of_realizations``
with ``count_reflection=True`` (``lnumber``'s C++), both in this process, the counts
(they must agree: a mismatch is printed and makes the exit status 1) and the ratio of
the times. Reported: wall time (``time.perf_counter``), best of ``--repeat``. A script,
not a timed test.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import numpy as np

from linkage_widget import Linkage, realization_count
from linkage_widget.rigidity import _bigraph, _quadrograph


def random_laman(n: int, rng: random.Random) -> list[tuple[int, int]]:
    """A Laman graph from a triangle by 1-extensions (a 0-extension one time in five)."""
    edges = [(0, 1), (1, 2), (0, 2)]
    for v in range(3, n):
        if rng.random() < 0.2:
            i, j = rng.sample(range(v), 2)
            edges += [(i, v), (j, v)]
            continue
        i, j = edges.pop(rng.randrange(len(edges)))
        k = rng.choice([w for w in range(v) if w not in (i, j)])
        edges += [(i, v), (j, v), (k, v)]
    return edges


def best_time(call, repeat: int) -> tuple[float, int]:
    times, value = [], 0
    for _ in range(repeat):
        _bigraph._count.cache_clear()
        _quadrograph._count.cache_clear()
        start = time.perf_counter()
        value = call()
        times.append(time.perf_counter() - start)
    return min(times), value


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--sphere", action="store_true")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--per-size", type=int, default=3)
    args = parser.parse_args()
    from pyrigi import Graph  # a test dependency: only here

    sizes = range(5, 10) if args.sphere else range(6, 12 if args.quick else 15)
    rng, bad = random.Random(2026), 0
    print(f"{'n':>3} {'count':>8} {'ours s':>9} {'lnumber s':>10} {'ratio':>7}")
    for n in sizes:
        for _ in range(args.per_size):
            edges = random_laman(n, rng)
            link = Linkage(np.random.default_rng(n).standard_normal((n, 2)), rods=edges)
            ours, count = best_time(
                lambda link=link: realization_count(link, spherical=args.sphere), args.repeat
            )
            graph = Graph(edges)
            theirs, check = best_time(
                lambda graph=graph: graph.number_of_realizations(
                    spherical=args.sphere, count_reflection=True
                ),
                args.repeat,
            )
            flag = "" if count == check else f"  MISMATCH: lnumber {check}"
            bad += bool(flag)
            print(f"{n:>3} {count:>8} {ours:>9.4f} {theirs:>10.4f} {ours / theirs:>7.1f}{flag}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
