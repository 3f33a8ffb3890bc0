"""Cost per step with and without cables: the same linkage, its braces rods or cables.

Usage::

    .venv/bin/python benchmarks/bench_cables.py            # grids up to 20 x 20 squares
    .venv/bin/python benchmarks/bench_cables.py --quick    # up to 8 x 8

The linkage: a grid of ``k x k`` unit squares, every square braced by both diagonals,
pinned at one corner only, so that it swings (and turns when pulled) as one body.
``rods``: the diagonals are rods; ``cables``: the same diagonals are cables (a
cable-braced grid). Both run the same steps:

* ``dynamic``: 1/60 s RATTLE steps under gravity, the grid released beside its pin
  (in each square one brace pulls and the other is let go: the active set is chosen at
  each step from the members' forces, :mod:`linkage_widget.motion._members`);
* ``drag``: kinematic steps pulling the far corner round the pin.

Reported: mean CPU milliseconds per step (``time.process_time``, one BLAS thread, after
one warm-up step) and the ratio cables / rods. A script, not a timed test; the figures in
``docs/benchmarks.md`` come from it.
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


def braced_grid(k: int, braces: str) -> Linkage:
    """``k x k`` unit squares with both diagonals as ``braces`` (``"rods"`` or ``"cables"``)."""
    idx = np.arange((k + 1) ** 2).reshape(k + 1, k + 1)  # idx[row, column]
    xy = np.stack(np.meshgrid(np.arange(k + 1.0), np.arange(k + 1.0)), axis=-1).reshape(-1, 2)
    sides = [(idx[r, c], idx[r, c + 1]) for r in range(k + 1) for c in range(k)]
    sides += [(idx[r, c], idx[r + 1, c]) for r in range(k) for c in range(k + 1)]
    diagonals = [(idx[r, c], idx[r + 1, c + 1]) for r in range(k) for c in range(k)]
    diagonals += [(idx[r, c + 1], idx[r + 1, c]) for r in range(k) for c in range(k)]
    pairs = [(int(a), int(b)) for a, b in diagonals]
    rods = [(int(a), int(b)) for a, b in sides]
    pinned = [0]
    if braces == "rods":
        return Linkage(xy, rods=rods + pairs, pinned=pinned)
    return Linkage(xy, rods=rods, cables=pairs, pinned=pinned)


def per_step(sim: Simulator, steps: int) -> float:
    """Mean CPU milliseconds per step after one warm-up step."""
    sim.step()
    start = time.process_time()
    sim.step(steps)
    return 1e3 * (time.process_time() - start) / steps


def case(k: int, steps: int) -> tuple[float, float, float, float]:
    """``(dynamic rods, dynamic cables, drag rods, drag cables)`` in ms per step."""
    out = []
    for mode in ("dynamic", "kinematic"):
        for braces in ("rods", "cables"):
            link = braced_grid(k, braces)
            if mode == "dynamic":
                sim = Simulator(link, mode="dynamic", step_size=1 / 60, gravity=9.81)
            else:
                sim = Simulator(link, step_size=0.02)
                top = (k + 1) ** 2 - 1
                sim.attract(top, (-k, k))
            out.append(per_step(sim, steps))
    return out[0], out[1], out[2], out[3]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="grids up to 8 x 8, fewer steps")
    args = parser.parse_args()
    sizes, steps = ((2, 4, 8), 20) if args.quick else ((2, 4, 8, 12, 20), 40)
    head = f"{'grid':>7} {'joints':>6}  {'dyn rods':>9} {'dyn cables':>10} {'ratio':>6}"
    print(head + f"  {'drag rods':>9} {'drag cables':>11} {'ratio':>6}   (ms per step)")
    for k in sizes:
        dr, dc, kr, kc = case(k, steps)
        print(
            f"{k:>3} x {k:<2} {(k + 1) ** 2:>6}  {dr:>9.2f} {dc:>10.2f} {dc / dr:>6.2f}"
            f"  {kr:>9.2f} {kc:>11.2f} {kc / kr:>6.2f}"
        )


if __name__ == "__main__":
    main()
