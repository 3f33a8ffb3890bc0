"""Time of the generic global-rigidity verdict and of the stress-matrix test (issue 26).

Usage::

    .venv/bin/python benchmarks/bench_global_rigidity.py          # sides 8 ... 100; 1 000 joints
    .venv/bin/python benchmarks/bench_global_rigidity.py --quick    # sides 8, 10, 20; 400 joints
    .venv/bin/python benchmarks/bench_global_rigidity.py --sides 100  # the issue's 10 000 joints

The framework: a ``k x k`` grid of joints, every square braced by both diagonals (a K4
in each square: 3-connected and redundantly rigid, so generically globally rigid).

* The generic verdict (Jackson–Jordán) is timed in its two parts, redundant rigidity
  (one pebble game and the fundamental circuits of its rejected rods read with skips,
  :func:`linkage_widget.rigidity.circuits.basis_and_redundancy`; compiled by numba from
  20 000 edges when it is installed) and the separating-pair search
  (:mod:`linkage_widget.rigidity.connectivity`: Hopcroft–Tarjan's path search as
  Gutwenger–Mutzel lay it out, linear), and whole, as
  :func:`~linkage_widget.rigidity.global_rigidity.generic_global_verdict` on the linkage,
  beside PyRigi's ``Graph.is_globally_rigid()`` on the same graph where it finishes
  (``--pyrigi-max`` joints), and their ratio. numba's start-up (a process's first
  compiled call) is printed once, apart. ``LINKAGE_WIDGET_PURE_PEBBLE=1`` times the
  pure-Python path.
* The stress-matrix test (Gortler–Healy–Thurston, exact modulo 2^31 - 1,
  :func:`~linkage_widget.rigidity.stress_matrix.generic_stress_rank`) on a grid of about
  ``--stress-joints`` joints.
* The whole call, :func:`~linkage_widget.global_rigidity` (the verdict, the bounded
  stress-certificate search, the other-placement search) on the integer grid for the
  sides ``--whole-sides`` and on :math:`K_{70}` at random points.

Reported: wall time (``time.perf_counter``; the verdict best of 3, the rest one run; one
BLAS thread). A script, not a
timed test.
"""

from __future__ import annotations

import argparse
import os
import time

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

from itertools import combinations  # noqa: E402

import numpy as np  # noqa: E402

from linkage_widget import Linkage, global_rigidity  # noqa: E402
from linkage_widget.rigidity.circuits import redundantly_rigid  # noqa: E402
from linkage_widget.rigidity.connectivity import separating_pair  # noqa: E402
from linkage_widget.rigidity.global_rigidity import generic_global_verdict  # noqa: E402
from linkage_widget.rigidity.pebble_fast import (  # noqa: E402
    COMPILED_MIN_EDGES,
    FastGame,
    compiled_available,
)
from linkage_widget.rigidity.stress_matrix import generic_stress_rank  # noqa: E402


def braced_grid(k: int) -> tuple[int, list[tuple[int, int]]]:
    """A ``k x k`` grid with both diagonals in every square: ``(n, edges)``."""
    edges = []
    for i in range(k):
        for j in range(k):
            v = i * k + j
            if j + 1 < k:
                edges.append((v, v + 1))
            if i + 1 < k:
                edges.append((v, v + k))
            if i + 1 < k and j + 1 < k:
                edges += [(v, v + k + 1), (v + 1, v + k)]
    return k * k, edges


def _timed(f, *args):
    start = time.perf_counter()
    value = f(*args)
    return value, time.perf_counter() - start


def _pyrigi_time(edges: list[tuple[int, int]]) -> float | None:
    try:
        from pyrigi import Graph
    except ImportError:  # pragma: no cover - a test dependency
        return None
    graph = Graph(edges)
    value, seconds = _timed(graph.is_globally_rigid)
    assert value, "PyRigi disagrees: the braced grid is globally rigid"
    return seconds


def _best(f, *args, repeat: int = 3):
    """``f(*args)`` and its best wall time of ``repeat`` runs (the machine may be shared)."""
    times = []
    for _ in range(repeat):
        value, seconds = _timed(f, *args)
        times.append(seconds)
    return value, min(times)


def start_compiled() -> str:
    """Load numba's cached kernels once (a process's first compiled call), and say so."""
    start = time.perf_counter()
    if not compiled_available():
        return "pure Python (no numba, or LINKAGE_WIDGET_PURE_PEBBLE=1)"
    n, edges = braced_grid(3)
    game = FastGame(n)
    game.play(edges)
    game.redundant()
    seconds = time.perf_counter() - start
    return f"compiled from {COMPILED_MIN_EDGES} edges (numba start-up {seconds:.2f} s, once)"


def verdict_row(k: int, pyrigi_max: int) -> None:
    n, edges = braced_grid(k)
    redundant, t_red = _best(redundantly_rigid, n, edges)
    pair, t_sep = _best(separating_pair, n, edges)
    grid = Linkage([[v % k, v // k] for v in range(n)], rods=edges)
    verdict, t_all = _best(generic_global_verdict, grid)
    assert redundant and pair is None and verdict
    line = (f"{n:>6} joints {len(edges):>6} rods: redundant rigidity {t_red:7.3f} s, "
            f"separating pairs {t_sep:7.3f} s, generic_global_verdict {t_all:7.3f} s")  # fmt: skip
    if n <= pyrigi_max:
        theirs = _pyrigi_time(edges)
        if theirs is not None:
            line += f"; PyRigi {theirs:7.3f} s (PyRigi / ours = {theirs / t_all:.2f})"
    print(line, flush=True)


def stress_row(joints: int) -> None:
    k = max(2, round(joints**0.5))
    n, edges = braced_grid(k)
    (rank, error), seconds = _timed(lambda: generic_stress_rank(n, edges, dim=2, seed=0))
    print(f"stress-matrix test, {n} joints: rank {rank} (n - 3 = {n - 3}), "
          f"error bound {error:.1e}, {seconds:.2f} s", flush=True)  # fmt: skip


def whole_row(name: str, linkage: Linkage) -> None:
    report, seconds = _timed(lambda: global_rigidity(linkage, seed=0))
    print(f"global_rigidity, {name}: globally_rigid={report.globally_rigid}, "
          f"{seconds:.2f} s", flush=True)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--sides", type=int, nargs="*")
    parser.add_argument("--pyrigi-max", type=int, default=64)
    parser.add_argument("--stress-joints", type=int)
    parser.add_argument("--whole-sides", type=int, nargs="*", default=[8, 12])
    args = parser.parse_args()
    sides = args.sides or ([8, 10, 20] if args.quick else [8, 20, 30, 50, 100])
    print("pebble game:", start_compiled(), flush=True)
    for k in sides:
        verdict_row(k, args.pyrigi_max)
    stress_row(args.stress_joints or (400 if args.quick else 1000))
    for k in args.whole_sides:
        n, edges = braced_grid(k)
        grid = Linkage([[v % k, v // k] for v in range(n)], rods=edges)
        whole_row(f"{k} x {k} braced grid at integer points", grid)
    xy = np.random.default_rng(0).standard_normal((70, 2))
    whole_row("K70 at random points", Linkage(xy, rods=list(combinations(range(70), 2))))


if __name__ == "__main__":
    main()
