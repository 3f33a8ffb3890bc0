"""Rigidity analysis side by side (issue 14): the 2007 SVD, the dense path, ``analyze``.

Usage::

    .venv/bin/python benchmarks/bench_analysis.py             # everything (a few minutes)
    .venv/bin/python benchmarks/bench_analysis.py --quick     # reference files and small cases
    .venv/bin/python benchmarks/bench_analysis.py --max-joints 5000
    .venv/bin/python benchmarks/bench_analysis.py --quick --repeat 3 \
        --only peaucellier --only penrose4t                # issue 27's two cases

One process, one BLAS thread, best of ``--repeat`` runs per cell in CPU time
(``time.process_time``: with one thread it is the work done, whatever the load of
a shared machine; wall-clock times were up to 4x larger at a load of 8 on 2 cores):

* ``2007 SVD``: the 2007 program's analysis re-implemented from its description
  (``benchmarks/legacy2007.py``): the dense rigidity matrix of the frame and a full
  ``numpy.linalg.svd``, whose zero singular values give the DOF;
* ``dense``: ``analyze(method="dense")``, the reference path (dense SVD, pebble game,
  second-order test), the only one before issue 14;
* ``analyze``: :func:`linkage_widget.rigidity.analyze` as it runs by default (sparse
  inertia above 40 000 entries ``2n * c``, counts, status, explanation; bases lazy), cold:
  the pebble game kept per graph is cleared before each call;
* ``warm``: the same with the graph's pebble game kept (a drag or a repeated analysis
  does not change the graph), and ``2007/warm`` its ratio;
* ``counts``: :func:`linkage_widget.rigidity.sparse_rank.sparse_rank_report` alone (rank, DOF,
  stress count and gap, ``rtol="auto"``);
* ``+shown``: ``analyze`` plus what the widget draws of it: ``velocity_basis`` (the
  trivial motions and up to 50 flexes), ``stresses`` (up to 50), ``rod_stress``.

The dense columns are skipped above ``--dense-max`` joints (default 2 000: a dense
``2n x 2n`` SVD there takes minutes and gigabytes) and printed as ``-``. DOF, stress
count and status of ``analyze`` are checked against the dense path wherever both ran
(``ok``). Last, the incremental pebble game: one ``add_edge`` against a
full game on the largest ladder. A script that prints figures, not a test.

Issue 27's aims close the table: the full report of penrose4t at 50x the 2007 SVD and
of the Peaucellier at 1x or more, cold and warm, each time the best of ``--repeat``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_motion import REFERENCE_DIR, ladder  # noqa: E402
from legacy2007 import RANK_RTOL, rigidity_matrix_2007  # noqa: E402

from linkage_widget import Linkage  # noqa: E402
from linkage_widget.constraints import _pattern as constraint_pattern  # noqa: E402
from linkage_widget.rigidity import PebbleGame, analyze, sparse_rank_report  # noqa: E402
from linkage_widget.rigidity import analysis as rigidity_analysis  # noqa: E402

REFERENCE_FILES = [
    "peaucellier.txt",
    "watt.txt",
    "penrose1t.txt",
    "penrose2t.txt",
    "penrose3t.txt",
    "penrose3t-2.txt",
    "penrose4.txt",
    "penrose4t.txt",
]


def grid(k: int, every: int = 7) -> Linkage:
    """A ``k x k`` grid of unit squares' corners (spacing 10), every ``every``-th braced."""
    ij = np.arange(k * k).reshape(k, k)
    verts = np.column_stack([np.repeat(np.arange(k), k), np.tile(np.arange(k), k)]) * 10.0
    sq = ij[:-1, :-1].ravel()[::every]
    rods = np.concatenate(
        [
            np.column_stack([ij[:, :-1].ravel(), ij[:, 1:].ravel()]),
            np.column_stack([ij[:-1, :].ravel(), ij[1:, :].ravel()]),
            np.column_stack([sq, sq + k + 1]),
        ]
    )
    return Linkage(verts, rods, pinned=[0, 1])


def best(fn, repeat: int) -> tuple[float, object]:
    """Best CPU time (``process_time``: one thread, so robust to a loaded machine) in ms."""
    times, out = [], None
    for _ in range(repeat):
        t = time.process_time()
        out = fn()
        times.append(time.process_time() - t)
    return 1e3 * min(times), out


def svd_2007(link: Linkage) -> int:
    """DOF as the 2007 program found it: dense matrix, full SVD, relative 1e-7."""
    mat = rigidity_matrix_2007(link.vertices, link.rods, link.angles, link.pinned)
    sv = np.linalg.svd(mat, compute_uv=True)[1]
    return 2 * link.n_vertices - int(np.sum(sv > RANK_RTOL * sv[0]))


def cold_analyze(link: Linkage):
    """``analyze`` without what is kept per graph: the pebble game, the sparsity layout."""
    rigidity_analysis._GENERIC.clear()
    constraint_pattern.LAYOUTS.clear()
    return analyze(link)


def shown(link: Linkage):
    """``analyze`` and what the widget shows of it: the velocity basis and the stresses."""
    rep = cold_analyze(link)
    _ = (rep.velocity_basis, rep.stresses, rep.rod_stress)  # computed on first access
    return rep


def row(name: str, link: Linkage, repeat: int, dense_max: int) -> str:
    n = link.n_vertices
    t_counts, _ = best(lambda: sparse_rank_report(link, rtol="auto"), repeat)
    t_new, rep = best(lambda: cold_analyze(link), repeat)
    t_shown, _ = best(lambda: shown(link), max(1, repeat // 2))
    t_warm, _ = best(lambda: analyze(link), repeat)  # the pebble game kept from the calls above
    t_old = t_dense = None
    check = ""
    if n <= dense_max:
        t_old, _ = best(lambda: svd_2007(link), 1 if n > 1000 else repeat)
        t_dense, dense = best(lambda: analyze(link, method="dense"), 1 if n > 500 else repeat)
        same = (dense.dof, dense.self_stresses, dense.status) == (
            rep.dof, rep.self_stresses, rep.status)  # fmt: skip
        check = "ok" if same else f"DIFFERS (dense {dense.dof}/{dense.self_stresses})"

    def cell(x):  # two decimals below 10 ms: the small linkages take a fraction of one
        if x is None:
            return f"{'-':>10}"
        return f"{x:10.2f}" if x < 10 else f"{x:10.1f}"

    def ratio(t):
        return f"{t_old / t:8.2f}x" if t_old else f"{'-':>9}"

    RATIOS[name] = (t_old / t_new, t_old / t_warm) if t_old else None
    return (
        f"{name:<22}{n:>7}{cell(t_old)}{cell(t_dense)}{cell(t_new)}{cell(t_warm)}"
        f"{cell(t_counts)}{cell(t_shown)}{ratio(t_new)}{ratio(t_warm)}  dof {rep.dof:<6} "
        f"s {rep.self_stresses:<6} {rep.status[:22]:<22} {check}"
    )


#: ``name -> (2007 / analyze cold, 2007 / analyze warm)`` of the rows printed.
RATIOS: dict[str, tuple[float, float] | None] = {}
#: Issue 27: the full report at these multiples of the 2007 SVD's speed.
AIMS = {"penrose4t.txt": 50.0, "peaucellier.txt": 1.0}


def aims() -> None:
    """The side-by-side ratios of issue 27's two cases against their aims."""
    for name, aim in AIMS.items():
        got = RATIOS.get(name)
        if got:
            cold, warm = got
            print(
                f"{name}: analyze {cold:.2f}x the 2007 SVD cold, {warm:.2f}x warm "
                f"(aim {aim:g}x: {'met' if min(cold, warm) >= aim else 'not met'})"
            )


def cases(max_joints: int, quick: bool):
    for name in REFERENCE_FILES:
        path = REFERENCE_DIR / name
        if path.is_file():
            yield name, Linkage.load(path)
        else:
            print(f"({name}: ../shared/reference-linkages absent, skipped)")
    sizes = [500, 2000] if quick else [500, 2000, 5000, 10000, 20000]
    for joints in sizes:
        if joints <= max_joints:
            yield f"ladder {joints}", ladder(joints // 2 - 1)
    for k in [22, 45] if quick else [22, 45, 71, 100, 141]:
        if k * k <= max_joints:
            yield f"grid {k}x{k}", grid(k)


def pebble_edit(max_joints: int) -> None:
    """Per-edit time of the incremental pebble game against a full game."""
    k = max_joints // 2 - 1
    edges = [(2 * c, 2 * c + 1) for c in range(k + 1)]
    edges += [(2 * c, 2 * c + 2) for c in range(k)] + [(2 * c + 1, 2 * c + 3) for c in range(k)]
    edges += [(2 * c, 2 * c + 3) for c in range(k)]
    t_full, game = best(lambda: PebbleGame(2 * (k + 1), edges, pinned=[0]), 1)
    times = []
    for c in range(0, k, max(1, k // 50)):
        t = time.process_time()
        game.add_edge(2 * c + 1, 2 * c + 2)  # the other diagonal: redundant
        times.append(time.process_time() - t)
        game.remove_edge(len(game.edges) - 1)
    print(
        f"\npebble game, {2 * (k + 1)}-joint ladder: full game {t_full:.0f} ms; "
        f"add_edge median {1e3 * np.median(times):.3f} ms, worst {1e3 * max(times):.3f} ms "
        f"({len(times)} edits)"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--max-joints", type=int, default=20000)
    parser.add_argument("--dense-max", type=int, default=2000)
    parser.add_argument(
        "--only", action="append", help="only the cases whose name contains this (repeatable)"
    )
    args = parser.parse_args(argv)
    print(
        f"{'case':<22}{'joints':>7}{'2007 SVD':>10}{'dense':>10}{'analyze':>10}{'warm':>10}"
        f"{'counts':>10}{'+shown':>10}{'2007/an':>9}{'2007/wa':>9}  (ms, best of "
        f"{args.repeat}; '-' = dense skipped above {args.dense_max} joints)"
    )
    for name, link in cases(args.max_joints, args.quick):
        if not args.only or any(part in name for part in args.only):
            print(row(name, link, args.repeat, args.dense_max), flush=True)
    aims()
    pebble_edit(min(args.max_joints, 2000 if args.quick else 20000))


if __name__ == "__main__":
    main()
