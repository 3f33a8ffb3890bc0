"""The pebble game on a million joints, compiled against pure Python, and p_c (issue 27).

Usage::

    .venv/bin/python benchmarks/bench_pebble.py            # 10^4, 10^5, 10^6 joints; p_c
    .venv/bin/python benchmarks/bench_pebble.py --quick    # 10^4, 10^5; a smaller p_c run
    .venv/bin/python benchmarks/bench_pebble.py --pc-only  # only the threshold
    .venv/bin/python benchmarks/bench_pebble.py --huge     # only one sample of 10^7 sites

The framework: a ``L x L`` triangular lattice, free boundaries, each bond kept with
probability 0.66 (the rigidity threshold is p_c = 0.6603: the hardest place for the
game, the rigid clusters being large and tenuous), the bonds in lattice order.

* ``pebble_game`` timed with ``compiled=False`` (the pure-Python game, only up to
  ``--pure-max`` joints) and ``compiled=True`` (numba, :mod:`.pebble_fast`), side by
  side in one process, their ratio, the same accepted bonds checked; the exponent
  fitted to the compiled times, :math:`t \\propto N^a`; the rigid-cluster
  decomposition of the same game.
* ``percolation_threshold`` (Newman–Ziff order, bisection over game snapshots): the
  bond share where a spanning rigid cluster first appears, over several seeds at
  several sizes, mean and standard error, against Jacobs–Thorpe's 0.6603.
* ``--huge``: one ``rigidity_percolation`` sample of ``--huge-side``² sites (3163²: 10^7)
  at p = 0.66 in Newman–Ziff order, every rigid cluster labelled; its CPU time and the
  process's peak memory (``ru_maxrss``), nothing else run before it.

Reported: CPU time of this process (``time.process_time``: the machine may be shared),
the best of ``--repeat`` runs (one run at 10^6). A script, not a timed test. The first
compiled call (numba's import and the cached kernels' load) is timed apart.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from linkage_widget.rigidity import pebble_fast
from linkage_widget.rigidity.pebble import pebble_game
from linkage_widget.rigidity.percolation import (
    lattice_bonds,
    percolation_threshold,
    rigidity_percolation,
)

P_C_PUBLISHED = 0.6603  # Jacobs and Thorpe, Phys. Rev. E 53 (1996) 3682
NU = 1.21  # the correlation-length exponent of rigidity percolation (same paper)


def diluted(side: int, p: float = 0.66, seed: int = 0) -> tuple[int, list[tuple[int, int]]]:
    """The triangular lattice's bonds, each kept with probability ``p``, in lattice order."""
    _, bonds = lattice_bonds(side)
    keep = np.random.default_rng(seed).random(len(bonds)) < p
    return side * side, bonds[keep].tolist()


def best_time(f, repeat: int):
    best, value = float("inf"), None
    for _ in range(repeat):
        start = time.process_time()
        value = f()
        best = min(best, time.process_time() - start)
    return value, best


def first_call() -> None:
    start = time.perf_counter()
    pebble_game(3, [(0, 1), (1, 2)], compiled=True)
    print(f"first compiled call (import numba, load cached kernels): "
          f"{time.perf_counter() - start:.2f} s wall", flush=True)  # fmt: skip


def game_row(side: int, pure_max: int, repeat: int) -> tuple[int, float]:
    n, edges = diluted(side)
    fast, t_fast = best_time(lambda: pebble_game(n, edges, compiled=True), repeat)
    line = f"{n:>8} joints {len(edges):>8} bonds: compiled {t_fast:7.3f} s"
    if n <= pure_max:
        pure, t_pure = best_time(lambda: pebble_game(n, edges, compiled=False), 1)
        assert pure.tolist() == fast.tolist(), "the two games disagree"
        line += f", pure Python {t_pure:7.2f} s (ratio {t_pure / t_fast:5.1f}x)"
    game = pebble_fast.FastGame(n)
    game.play(edges)
    (_, count), t_clusters = best_time(game.clusters, 1)
    line += f"; rank {int(fast.sum())}, {count} rigid clusters in {t_clusters:6.2f} s"
    print(line, flush=True)
    return n, t_fast


def threshold_rows(sides: list[int], seeds: int) -> None:
    """Mean threshold a size, and p_c extrapolated as :math:`p_c + a L^{-1/\nu}`."""
    print(f"\npercolation_threshold, triangular, free boundaries, {seeds} seeds a size "
          f"(published p_c = {P_C_PUBLISHED}):", flush=True)  # fmt: skip
    means, errs = [], []
    for side in sides:
        start = time.process_time()
        values = [percolation_threshold(side, seed=s, compiled=True) for s in range(seeds)]
        means.append(np.mean(values))
        errs.append(np.std(values, ddof=1) / np.sqrt(seeds))
        print(f"  L = {side:>4} ({side * side:>7} sites): p_c(L) = {means[-1]:.4f} "
              f"± {errs[-1]:.4f} (spread {np.std(values, ddof=1):.4f}), "
              f"{(time.process_time() - start) / seeds:6.2f} s a run", flush=True)  # fmt: skip
    # weighted least squares in x = L^(-1/nu), nu = 1.21 (Jacobs and Thorpe)
    x = np.asarray(sides, float) ** (-1 / NU)
    w = 1 / np.asarray(errs) ** 2
    design = np.stack([np.ones_like(x), x], axis=1)
    cov = np.linalg.inv(design.T @ (design * w[:, None]))
    pc, slope = cov @ design.T @ (w * np.asarray(means))
    print(f"  extrapolated (p_c(L) = p_c + a L^(-1/{NU})): p_c = {pc:.4f} "
          f"± {np.sqrt(cov[0, 0]):.4f}, a = {slope:.3f}; published {P_C_PUBLISHED}",
          flush=True)  # fmt: skip


def huge_row(side: int) -> None:
    """One percolation sample of ``side``² sites: its time and the peak memory."""
    import resource  # Unix only, as is ru_maxrss (kilobytes on Linux)

    start = time.process_time()
    sample = rigidity_percolation(side, 0.66, seed=0, compiled=True)
    elapsed = time.process_time() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    print(f"rigidity_percolation({side}, 0.66): {side * side} sites, {len(sample.bonds)} bonds, "
          f"{int(sample.labels.max()) + 1} rigid clusters, spans {sample.spans} "
          f"(P_inf {sample.spanning_bonds:.3f}) in {elapsed:.1f} s CPU; "
          f"peak memory {peak:.2f} GiB", flush=True)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--pc-only", action="store_true")
    parser.add_argument("--pure-max", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seeds", type=int, default=16)
    parser.add_argument("--huge", action="store_true")
    parser.add_argument("--huge-side", type=int, default=3163)
    args = parser.parse_args()
    first_call()
    if args.huge:
        huge_row(args.huge_side)
        return
    if not args.pc_only:
        sides = [100, 316] if args.quick else [100, 316, 1000]
        rows = [game_row(s, args.pure_max, args.repeat if s < 1000 else 1) for s in sides]
        n, t = np.log([r[0] for r in rows]), np.log([r[1] for r in rows])
        slope = np.polyfit(n, t, 1)[0]
        print(f"fitted exponent (compiled): t ~ N^{slope:.2f}", flush=True)
    pc_sides = [32, 64] if args.quick else [32, 64, 128, 256]
    threshold_rows(pc_sides, args.seeds)


if __name__ == "__main__":
    main()
