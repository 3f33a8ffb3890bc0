"""Cost per step with sliders against the same linkage without (issue 25).

Usage::

    .venv/bin/python benchmarks/bench_sliders.py            # up to a chain of 2 000 joints
    .venv/bin/python benchmarks/bench_sliders.py --quick    # up to 200 joints, fewer steps

A slider is one row of the constraints, like a rod: a step should cost the same order
with sliders as without. Pairs of linkages of one size, each stepped from the same
start (CPU time of this process per step, one BLAS thread, after one warm-up step):

* ``slider-crank`` against ``four-bar``: the in-line mechanism and the crank-rocker of
  the same crank and coupler (3 joints, 2 rods, a slider; 4 joints, 3 rods, the crank
  turning all round in both);
* ``chain k``: a zigzag chain of ``k`` rods whose lower joints slide on the x-axis,
  against the same chain with each slider replaced by a rocker to a pinned joint 1 000
  below (the slider as the limit of an infinitely long rocker: one row each).

Each in dynamic mode under gravity (``h = 1/240`` s) and in kinematic mode driven by
a motor on the first rod (kinematic steps of ``0.002`` rad, short of the chain's first
dead point). It prints the times, the ratio with/without, the largest constraint error
and the steps that moved (a blocked step costs its halvings, not a step). A script,
not a timed test.
"""

from __future__ import annotations

import argparse
import os
import time

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

from linkage_widget import Linkage  # noqa: E402
from linkage_widget.motion import Simulator  # noqa: E402

ROCKER = 1000.0  # how far below its joint a rocker standing in for a slider is pinned


def slider_crank() -> Linkage:
    """Crank 0-1 (length 1) about pinned 0, coupler 1-2 (length 3), 2 on the x-axis."""
    a = np.array([np.cos(0.7), np.sin(0.7)])
    pts = [[0.0, 0.0], a, [a[0] + np.sqrt(9.0 - a[1] ** 2), 0.0]]
    return Linkage(pts, rods=[(0, 1), (1, 2)], pinned=[0], sliders=[(2, (0.0, 0.0), (1, 0))])


def four_bar() -> Linkage:
    """The same crank and coupler, the piston replaced by a rocker 3-2 of length 6 (Grashof)."""
    link = slider_crank()
    b = link.vertices[2]
    pts = [*link.vertices, [b[0], -6.0]]
    return Linkage(pts, rods=[(0, 1), (1, 2), (3, 2)], pinned=[0, 3])


def chain(k: int, *, sliders: bool) -> Linkage:
    """A zigzag of ``k`` rods, joint 0 pinned; its even joints slide on y = 0 (or rock)."""
    xs = np.arange(k + 1, dtype=float)
    ys = np.where(np.arange(k + 1) % 2 == 1, 0.6, 0.0)
    pts = np.column_stack([xs, ys])
    rods = [(i, i + 1) for i in range(k)]
    lower = list(range(2, k + 1, 2))
    if sliders:
        guides = [(j, (0.0, 0.0), (1.0, 0.0)) for j in lower]
        return Linkage(pts, rods=rods, pinned=[0], sliders=guides)
    anchors = np.column_stack([xs[lower], np.full(len(lower), -ROCKER)])
    rods += [(j, k + 1 + i) for i, j in enumerate(lower)]
    pinned = [0, *range(k + 1, k + 1 + len(lower))]
    return Linkage(np.vstack([pts, anchors]), rods=rods, pinned=pinned)


def per_step(link: Linkage, mode: str, steps: int) -> tuple[float, float, int]:
    """CPU seconds per step (after a warm-up step), the largest constraint error, moved steps."""
    if mode == "dynamic":
        sim = Simulator(link, mode="dynamic", step_size=1 / 240, gravity=9.81)
        sim.mass_distribution = 0.5
    else:
        sim = Simulator(link, step_size=0.002)
        sim.add_motor(0, 1, 1.0)
    sim.step()
    worst, moved, start = 0.0, 0, time.process_time()
    for _ in range(steps):
        sim.step()
        worst = max(worst, sim.constraint_error())
        moved += sim.status == "moved"
    return (time.process_time() - start) / steps, worst, moved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller chains, fewer steps")
    args = parser.parse_args()
    steps = 50 if args.quick else 200
    sizes = (20, 200) if args.quick else (20, 200, 2000)
    pairs = [("slider-crank / four-bar", slider_crank(), four_bar())]
    pairs += [(f"chain {k}", chain(k, sliders=True), chain(k, sliders=False)) for k in sizes]
    head = f"{'sliders ms':>11} {'without ms':>11} {'ratio':>6} {'err':>9} {'moved':>9}"
    print(f"{'case':26} {'mode':10} {head}")
    for name, with_, without in pairs:
        for mode in ("dynamic", "kinematic"):
            n = steps if with_.n_vertices < 1000 else max(steps // 10, 5)
            t1, e1, m1 = per_step(with_, mode, n)
            t0, e0, m0 = per_step(without, mode, n)
            times = f"{1e3 * t1:11.3f} {1e3 * t0:11.3f} {t1 / t0:6.2f}"
            print(f"{name:26} {mode:10} {times} {max(e0, e1):9.1e} {f'{m1}/{m0}':>9}")


if __name__ == "__main__":
    main()
