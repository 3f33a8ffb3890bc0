"""Time per kinematic step and constraint error: our Simulator against the 2007 algorithm.

Usage::

    .venv/bin/python benchmarks/bench_motion.py              # everything (a few minutes)
    .venv/bin/python benchmarks/bench_motion.py --quick      # smaller ladders, fewer steps

Cases: every file in ``../shared/reference-linkages/`` (skipped with a note when the
folder is absent) and generated ladders of braced quadrilaterals up to 20 000
vertices. In each case one vertex (the one farthest from the centroid that is
not pinned) is pulled toward a target a fifth of the drawing's size away, at
``step_size = 1`` world unit; both algorithms pull the same vertex toward the
same target. Reported per case:

* ``ours ms``: mean wall time per step of :class:`linkage_widget.Simulator`
  (after one warm-up step, which also builds the factorisation pattern);
* ``ours err``: largest relative constraint residual over all steps;
* ``2007 ms`` and ``2007 err``: the same for :mod:`legacy2007` (dense SVD null
  space + clamped Euler step), run for fewer steps on large cases and skipped
  above ``--legacy-max`` vertices, where one dense SVD takes many seconds;
* ``speed-up``: ratio of the times per step.

It is a script, not a timed test: timings depend on the machine and its load.
The figures in ``docs/benchmarks.md`` come from it.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from legacy2007 import Legacy2007  # noqa: E402

from linkage_widget import Linkage  # noqa: E402
from linkage_widget.constraints import ConstraintSet  # noqa: E402
from linkage_widget.motion import Simulator  # noqa: E402

REFERENCE_DIR = Path(__file__).resolve().parents[2] / "shared" / "reference-linkages"


def ladder(n_squares: int, unbraced: int = 3, width: float = 10.0) -> Linkage:
    """A ladder of ``n_squares`` unit squares, all but ``unbraced`` of them braced.

    Vertices ``2c`` (bottom) and ``2c + 1`` (top) at x = c * width; rungs, rails and
    one diagonal per braced square; the two left vertices pinned. Internal DOF =
    ``unbraced`` (each unbraced square can shear).
    """
    k = n_squares
    xs = np.arange(k + 1) * width
    verts = np.column_stack([np.repeat(xs, 2), np.tile([0.0, width], k + 1)])
    cols = np.arange(k + 1)
    rungs = np.column_stack([2 * cols, 2 * cols + 1])
    c = np.arange(k)
    rails = np.concatenate(
        [np.column_stack([2 * c, 2 * c + 2]), np.column_stack([2 * c + 1, 2 * c + 3])]
    )
    free = set(np.linspace(0, k - 1, unbraced).astype(int).tolist()) if unbraced else set()
    braced = np.array([i for i in range(k) if i not in free], dtype=np.int64)
    diagonals = np.column_stack([2 * braced, 2 * braced + 3])
    return Linkage(verts, np.concatenate([rungs, rails, diagonals]), pinned=[0, 1])


def pull_target(link: Linkage) -> tuple[int, np.ndarray]:
    """The unpinned vertex farthest from the centroid, and a target a fifth of the size away."""
    p = link.vertices
    centre = p.mean(axis=0)
    dist = np.hypot(*(p - centre).T)
    dist[np.asarray(link.pinned, dtype=np.int64)] = -1.0
    s = int(np.argmax(dist))
    size = float(np.ptp(p, axis=0).max())
    radial = (p[s] - centre) / max(dist[s], 1e-300)
    # sideways (a rotation about the centre), and a little outward
    direction = np.array([-radial[1], radial[0]]) + 0.3 * radial
    return s, p[s] + 0.2 * size * direction / np.hypot(*direction)


def run_ours(link: Linkage, steps: int) -> tuple[float, float, float, str]:
    s, target = pull_target(link)
    sim = Simulator(link, step_size=1.0)
    sim.attract(s, target)
    t0 = time.perf_counter()
    sim.step()  # warm-up: builds the Schur pattern and chooses the factorisation
    first = time.perf_counter() - t0
    worst = sim.constraint_error()
    t0 = time.perf_counter()
    for _ in range(steps):
        sim.step()
        worst = max(worst, sim.constraint_error())
    # constraint_error() is a diagnostic, not part of a step: time it separately
    t_err = time.perf_counter()
    for _ in range(steps):
        sim.constraint_error()
    t_err = time.perf_counter() - t_err
    per_step = (time.perf_counter() - t0 - 2 * t_err) / steps
    return per_step, worst, first, sim.status


def run_legacy(link: Linkage, steps: int, budget: float) -> tuple[float, float, int]:
    s, target = pull_target(link)
    leg = Legacy2007(link, step_size=1.0, max_step=1.0)
    leg.attract(s, target)
    cs = ConstraintSet.from_linkage(link)
    done, t0 = 0, time.perf_counter()
    while done < steps and (done == 0 or time.perf_counter() - t0 < budget):
        leg.step()
        done += 1
    per_step = (time.perf_counter() - t0) / done
    return per_step, cs.relative_error(leg.p), done


def row(name, link, steps, legacy_max, budget) -> dict:
    ours, err, first, status = run_ours(link, steps)
    out = {
        "case": name, "n": link.n_vertices, "rods": link.n_rods, "angles": link.n_angles,
        "ours_ms": 1e3 * ours, "ours_err": err, "first_ms": 1e3 * first, "status": status,
    }
    if link.n_vertices <= legacy_max:
        leg, leg_err, done = run_legacy(link, steps, budget)
        out.update(legacy_ms=1e3 * leg, legacy_err=leg_err, legacy_steps=done, speedup=leg / ours)
    return out


def fmt(r: dict) -> str:
    legacy = (
        f"{r['legacy_ms']:10.1f} | {r['legacy_err']:8.1e} ({r['legacy_steps']} st) | "
        f"{r['speedup']:7.0f}x"
        if "legacy_ms" in r
        else f"{'skipped':>10} | {'(dense SVD too large)':>20} | {'':>8}"
    )
    return (
        f"| {r['case']:<20} | {r['n']:6d} | {r['rods']:6d} | {r['angles']:5d} | "
        f"{r['ours_ms']:8.2f} | {r['ours_err']:8.1e} | {r['first_ms']:8.1f} | {legacy} |"
    )


HEADER = (
    "| case                 |      n |   rods | angles | ours ms |  ours err | 1st ms |"
    "    2007 ms | 2007 err (steps)     | speed-up |\n"
    "|----------------------|-------:|-------:|-------:|--------:|----------:|-------:|"
    "-----------:|----------------------|---------:|"
)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="smaller ladders, fewer steps")
    ap.add_argument("--steps", type=int, default=None,
                    help="steps per case (default 100, quick 20)")
    ap.add_argument("--legacy-max", type=int, default=1200,
                    help="largest vertex count for the 2007 algorithm (dense SVD)")
    ap.add_argument("--legacy-budget", type=float, default=20.0,
                    help="seconds per case for the 2007 algorithm (at least one step)")
    args = ap.parse_args(argv)
    steps = args.steps or (20 if args.quick else 100)
    print(f"# {platform.platform()}, {os.cpu_count()} cpus, python {platform.python_version()}, "
          f"numpy {np.__version__}; load average {os.getloadavg()[0]:.1f}")
    print(f"# {steps} kinematic steps per case, step_size = 1; 2007 algorithm up to "
          f"{args.legacy_max} vertices")
    print(HEADER)
    if REFERENCE_DIR.is_dir():
        for path in sorted(REFERENCE_DIR.glob("*.txt")):
            link = Linkage.load(path)
            print(fmt(row(path.stem, link, steps, args.legacy_max, args.legacy_budget)), flush=True)
    else:
        print(f"# {REFERENCE_DIR} absent: reference files skipped")
    sizes = [50, 500, 1000, 2500, 5000] if args.quick else [50, 500, 1000, 2500, 5000, 9999]
    for k in sizes:
        link = ladder(k)
        print(fmt(row(f"ladder {k} squares", link, steps, args.legacy_max, args.legacy_budget)),
              flush=True)


if __name__ == "__main__":
    main()
