"""Time per kinematic step and constraint error: our Simulator against the 2007 algorithm.

Usage::

    .venv/bin/python benchmarks/bench_motion.py              # everything (a few minutes)
    .venv/bin/python benchmarks/bench_motion.py --quick      # smaller ladders, fewer steps
    .venv/bin/python benchmarks/bench_motion.py --small      # the Peaucellier's step (issue 27)

Cases: every file in ``../shared/reference-linkages/`` (skipped with a note when the
folder is absent), generated ladders of braced quadrilaterals up to 20 000
vertices, and generated transformable Penrose tilings (2D meshes, exact flex). In
each case one vertex (the unpinned one farthest from the centroid) is dragged like
a pointer would: its target goes round a circle of radius 10 through
its start, about one unit per step, at ``step_size = 1`` world unit; both
algorithms get the same targets. Reported per case:

* ``ours ms``: mean CPU time per step of :class:`linkage_widget.Simulator`
  (after one warm-up step, ``1st ms``, which also builds the factorisation pattern);
* ``ours err``: largest relative constraint residual over all steps;
* ``moved``: steps that were not "blocked" (a mechanism may not follow everywhere);
* ``2007 ms`` and ``2007 err``: the same for :mod:`legacy2007` (dense SVD null
  space + clamped Euler step), run for fewer steps on large cases and skipped
  above ``--legacy-max`` vertices, where one dense SVD takes many seconds;
* ``speed-up``: ratio of the times per step.

Times are CPU seconds of this process (``time.process_time``) with one BLAS
thread for both algorithms, so other load on the machine does not distort them.
It is a script, not a timed test. The figures in ``docs/benchmarks.md`` come from it.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

# One BLAS thread for both algorithms, and CPU time of this process as the clock: the
# comparison is fair and does not depend on what else runs on the machine.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))

from legacy2007 import Legacy2007  # noqa: E402

from linkage_widget import Linkage  # noqa: E402
from linkage_widget.constraints import ConstraintSet  # noqa: E402
from linkage_widget.examples.penrose import penrose_tiling  # noqa: E402
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


#: The target circles the pulled vertex's start at this radius, about 1 unit per step.
RADIUS = 10.0


def pulled_vertex(link: Linkage) -> int:
    """The unpinned vertex farthest from the centroid."""
    p = link.vertices
    dist = np.hypot(*(p - p.mean(axis=0)).T)
    dist[np.asarray(link.pinned, dtype=np.int64)] = -1.0
    return int(np.argmax(dist))


def target(link: Linkage, s: int, k: int) -> np.ndarray:
    """Target of step ``k``: on a circle through the start, like a pointer dragging around."""
    angle = k / RADIUS
    return link.vertices[s] + RADIUS * np.array([np.cos(angle) - 1.0, np.sin(angle)])


def run_ours(link: Linkage, steps: int) -> tuple[float, float, float, int]:
    s = pulled_vertex(link)
    sim = Simulator(link, step_size=1.0)
    sim.attract(s, target(link, s, 1))
    t0 = time.process_time()
    sim.step()  # warm-up: builds the Schur pattern and chooses the factorisation
    first = time.process_time() - t0
    worst, elapsed, moved = sim.constraint_error(), 0.0, 0
    for k in range(2, steps + 2):
        sim.attract(s, target(link, s, k))
        t0 = time.process_time()
        sim.step()
        elapsed += time.process_time() - t0
        moved += sim.status != "blocked"
        worst = max(worst, sim.constraint_error())
    return elapsed / steps, worst, first, moved


def run_legacy(link: Linkage, steps: int, budget: float) -> tuple[float, float, int]:
    s = pulled_vertex(link)
    leg = Legacy2007(link, step_size=1.0, max_step=1.0)
    cs = ConstraintSet.from_linkage(link)
    done, start = 0, time.process_time()
    while done < steps and (done == 0 or time.process_time() - start < budget):
        leg.attract(s, target(link, s, done + 1))
        leg.step()
        done += 1
    return (time.process_time() - start) / done, cs.relative_error(leg.p), done


def row(name, link, steps, legacy_max, budget) -> dict:
    ours, err, first, moved = run_ours(link, steps)
    out = {
        "case": name,
        "n": link.n_vertices,
        "rods": link.n_rods,
        "angles": link.n_angles,
        "ours_ms": 1e3 * ours,
        "ours_err": err,
        "first_ms": 1e3 * first,
        "moved": moved,
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
        f"{r['ours_ms']:8.2f} | {r['ours_err']:8.1e} | {r['moved']:5d} | {r['first_ms']:6.1f} | "
        f"{legacy} |"
    )


HEADER = (
    "| case                 |      n |   rods | angles | ours ms |  ours err | moved | 1st ms |"
    "    2007 ms | 2007 err (steps)     | speed-up |\n"
    "|----------------------|-------:|-------:|-------:|--------:|----------:|------:|-------:|"
    "-----------:|----------------------|---------:|"
)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="smaller ladders, fewer steps")
    ap.add_argument(
        "--steps", type=int, default=None, help="steps per case (default 100, quick 20)"
    )
    ap.add_argument(
        "--legacy-max",
        type=int,
        default=1200,
        help="largest vertex count for the 2007 algorithm (dense SVD)",
    )
    ap.add_argument(
        "--legacy-budget",
        type=float,
        default=20.0,
        help="seconds per case for the 2007 algorithm (at least one step)",
    )
    ap.add_argument(
        "--small",
        action="store_true",
        help="only issue 27's side by side: the Peaucellier's step, best of 3, and its aim",
    )
    args = ap.parse_args(argv)
    if args.small:
        small_step(args.steps or 300)
        return
    steps = args.steps or (20 if args.quick else 100)
    print(
        f"# {platform.platform()}, {os.cpu_count()} cpus, python {platform.python_version()}, "
        f"numpy {np.__version__}; load average {os.getloadavg()[0]:.1f}"
    )
    print(
        f"# {steps} kinematic steps per case, step_size = 1; 2007 algorithm up to "
        f"{args.legacy_max} vertices"
    )
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
        print(
            fmt(row(f"ladder {k} squares", link, steps, args.legacy_max, args.legacy_budget)),
            flush=True,
        )
    # Two-dimensional meshes with an exact flex: transformable Penrose tilings (exact
    # coordinates, one internal DOF), where sparse factorisation fill grows faster.
    for order in [4, 5, 6] if args.quick else [4, 5, 6, 7]:
        link = penrose_tiling(order, transformable=True)
        print(
            fmt(
                row(f"penrose_tiling({order}, T)", link, steps, args.legacy_max, args.legacy_budget)
            ),
            flush=True,
        )
    if not args.quick:
        dynamics()


#: Issue 27: the Peaucellier's single step at this multiple of the 2007 step's speed.
SMALL_STEP_AIM = 2.0


def small_step(steps: int) -> None:
    """The Peaucellier's step against the 2007 step, side by side, best of 3 runs each."""
    if not REFERENCE_DIR.is_dir():
        print(f"# {REFERENCE_DIR} absent: the Peaucellier's file is there")
        return
    link = Linkage.load(REFERENCE_DIR / "peaucellier.txt")
    ours = min(run_ours(link, steps)[0] for _ in range(3))
    legacy = min(run_legacy(link, steps, budget=60.0)[0] for _ in range(3))
    ratio = legacy / ours
    print(
        f"peaucellier, {steps} steps, best of 3 (CPU ms per step): ours {1e3 * ours:.3f}, "
        f"2007 {1e3 * legacy:.3f}; ours {ratio:.2f}x the 2007 step's speed "
        f"(aim {SMALL_STEP_AIM:g}x: {'met' if ratio >= SMALL_STEP_AIM else 'not met'})"
    )


def dynamics() -> None:
    """Dynamic mode: energy drift without damping, and the Attia Peaucellier's line."""
    print("\n# dynamic mode (RATTLE), no damping")
    print("| case | steps | dt | ms/step | max energy error / (m g L) | constraint err |")
    print("|------|------:|---:|--------:|------------------:|------:|")
    for alpha in (0.0, 1.0):
        th = (1.2, -0.4)
        p1 = np.array([np.sin(th[0]), -np.cos(th[0])])
        p2 = p1 + 0.7 * np.array([np.sin(th[1]), -np.cos(th[1])])
        link = Linkage([[0.0, 0.0], p1, p2], rods=[(0, 1), (1, 2)], pinned=[0])
        sim = Simulator(link, mode="dynamic", step_size=1e-3, mass_distribution=alpha, gravity=9.81)
        e0 = sim.kinetic_energy() + sim.potential_energy()
        worst, t0 = 0.0, time.process_time()
        for _ in range(10_000):
            sim.step()
            worst = max(worst, abs(sim.kinetic_energy() + sim.potential_energy() - e0))
        ms = 1e3 * (time.process_time() - t0) / 10_000
        scale = 9.81 * 1.7  # m g L with L = l1 + l2
        print(
            f"| double pendulum alpha={alpha:g} | 10000 | 1e-3 | {ms:.2f} | "
            f"{worst / scale:.1e} | {sim.constraint_error():.1e} |"
        )
    pts = [(0, 0), (-2, 0), (2, 4), (6, 0), (2, -4), (2, 0)]
    rods = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (2, 5), (1, 4)]
    link = Linkage(pts, rods=rods, pinned=[0, 5])
    sim = Simulator(link, step_size=0.05, mass_distribution=0.5)
    sim.attract(1, (-2 * np.cos(0.5), 2 * np.sin(0.5)))
    sim.step(100)
    sim.release()
    sim.mode, sim.step_size, sim.gravity = "dynamic", 2e-3, 9.81
    e0 = sim.kinetic_energy() + sim.potential_energy()
    line, energy, t0 = 0.0, 0.0, time.process_time()
    for _ in range(10_000):
        sim.step()
        line = max(line, abs(sim.positions[3, 0] - 6.0) / 6.0)
        energy = max(energy, abs(sim.kinetic_energy() + sim.potential_energy() - e0))
    ms = 1e3 * (time.process_time() - t0) / 10_000
    scale = 9.81 * 8.0  # m g L with L = 8, the linkage's height
    print(
        f"| Attia Peaucellier alpha=0.5 | 10000 | 2e-3 | {ms:.2f} | {energy / scale:.1e} | "
        f"{sim.constraint_error():.1e}; output off x=6 by {line:.1e} (rel.) |"
    )


if __name__ == "__main__":
    main()
