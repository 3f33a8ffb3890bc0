"""Time of :func:`linkage_widget.kinematics` over a full crank turn at 360 samples.

Usage::

    .venv/bin/python benchmarks/bench_kinematics.py             # best of 3
    .venv/bin/python benchmarks/bench_kinematics.py --repeat 1

Cases: an in-line slider-crank (crank 1, rod 3: a piston on a slider row) and a Grashof
crank-rocker four-bar (ground 4, crank 1, coupler 3.5, rocker 2.94), each driven through
360 crank angles (1° apart) with positions, velocities and accelerations at every one.
Printed: CPU time (``time.process_time``, best of ``--repeat``; one BLAS thread), the
time per sample, and the largest error of the piston's position against the closed form
:math:`x = r\\cos\\theta + \\sqrt{l^2 - r^2\\sin^2\\theta}`. A script, not a timed test.
"""

from __future__ import annotations

import argparse
import os
import time

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

from linkage_widget import Linkage, kinematics  # noqa: E402

SAMPLES = 360


def slider_crank(r: float = 1.0, rod: float = 3.0) -> Linkage:
    """Crank 0-1 about the pinned origin, rod 1-2, piston 2 on the x-axis."""
    return Linkage(
        [[0, 0], [r, 0], [r + rod, 0]],
        rods=[(0, 1), (1, 2)],
        pinned=[0],
        sliders=[(2, (0.0, 0.0), (1.0, 0.0))],
    )


def four_bar() -> Linkage:
    """Pivots 0 and 3 four apart; crank 0-1 (1), coupler 1-2 (3.5), rocker 2-3 (about 2.94)."""
    return Linkage(
        [[0, 0], [1, 0], [3.1, 2.8], [4, 0]], rods=[(0, 1), (1, 2), (2, 3)], pinned=[0, 3]
    )


def best_time(fn, repeat: int):
    """Smallest CPU time of ``repeat`` calls, and the last result."""
    best, result = np.inf, None
    for _ in range(repeat):
        t0 = time.process_time()
        result = fn()
        best = min(best, time.process_time() - t0)
    return best, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    angles = np.linspace(0.0, 2 * np.pi, SAMPLES, endpoint=False)
    for name, link in (("slider-crank", slider_crank()), ("four-bar", four_bar())):
        seconds, k = best_time(lambda link=link: kinematics(link, 0, 1, angles), args.repeat)
        line = (
            f"{name:13s} {SAMPLES} samples: {seconds:.3f} s CPU "
            f"({1e3 * seconds / SAMPLES:.2f} ms a sample), valid {int(k.valid.sum())}/{SAMPLES}"
        )
        if name == "slider-crank":
            exact = np.cos(angles) + np.sqrt(9.0 - np.sin(angles) ** 2)
            line += f", piston vs closed form {np.abs(k.positions[:, 2, 0] - exact).max():.1e}"
        print(line)


if __name__ == "__main__":
    main()
