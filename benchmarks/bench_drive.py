"""Time per step with a motor and friction (issue 12): penrose2t and a 2 000-joint ladder.

Usage::

    .venv/bin/python benchmarks/bench_drive.py            # both cases
    .venv/bin/python benchmarks/bench_drive.py --steps 50

For each case the motor drives a rod (at a pinned joint if there is one; penrose2t
floats free, so its motor turns a rod against the ground frame and the tiling flexes
and turns), the first whose motor is not blocked at once, and these variants are timed:

* ``dynamic``: RATTLE with gravity only (the reference);
* ``+ motor``: the same with the motor (rheonomic row, 0.5 rad/s);
* ``+ motor + friction``: and Coulomb friction along one pathway and on the table
  for every joint (``table_friction = 0.2``);
* ``kinematic + motor``: the least-kinetic-energy motor step.

Reported: mean CPU time per step (``time.process_time``, one BLAS thread) after one
warm-up step (which builds the factorisation pattern), the largest relative
constraint error, and how many steps moved. A script that prints figures, not a test.
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

from linkage_widget import Linkage  # noqa: E402
from linkage_widget.motion import Simulator  # noqa: E402

SPEED = 0.5  # rad/s (dynamic) or rad per unit time (kinematic)


def driven_rod(link: Linkage, h: float) -> tuple[int, int]:
    """The first rod (from a pinned joint if any) whose motor is not blocked in a trial step."""
    pinned = set(link.pinned)
    rods = sorted(link.rods, key=lambda r: not (pinned & set(r)))  # pinned joints first
    for i, j in rods[:50]:
        for pivot, tip in ((i, j), (j, i)):
            if tip in pinned:
                continue
            sim = Simulator(link, step_size=h)
            sim.add_motor(pivot, tip, SPEED)
            sim.step(2)
            if sim.status == "moved":
                return pivot, tip
    raise SystemExit("no rod turns")


def build(link: Linkage, variant: str, rod: tuple[int, int], h: float) -> Simulator:
    mode = "kinematic" if variant.startswith("kinematic") else "dynamic"
    d = np.diff(link.vertices[np.asarray(link.rods)], axis=1)[:, 0]
    scale = float(np.median(np.hypot(d[:, 0], d[:, 1])))
    sim = Simulator(link, mode=mode, step_size=h, gravity=0.0 if mode == "kinematic" else scale)
    if "motor" in variant:
        sim.add_motor(*rod, SPEED)
    if "friction" in variant:
        i, j = link.rods[-1]
        far = int(np.argmax(np.hypot(*(link.vertices - link.vertices[i]).T)))
        if far != i:
            sim.add_friction(i, far, normal_force=1.0, mu_k=0.3, mu_s=0.4, v_s=0.1 * scale)
        sim.table_friction = 0.2
    return sim


def run(sim: Simulator, steps: int) -> tuple[float, float, float, int]:
    t0 = time.process_time()
    sim.step()
    first = time.process_time() - t0
    worst, moved, elapsed = sim.constraint_error(), 0, 0.0
    for _ in range(steps):
        t0 = time.process_time()
        sim.step()
        elapsed += time.process_time() - t0
        moved += sim.status == "moved"
        worst = max(worst, sim.constraint_error())
    return 1e3 * elapsed / steps, 1e3 * first, worst, moved


def cases() -> list[tuple[str, Linkage]]:
    out = []
    penrose = REFERENCE_DIR / "penrose2t.txt"
    if penrose.exists():
        out.append(("penrose2t", Linkage.load(penrose)))
    else:
        print(f"(skipped penrose2t: {penrose} not found)")
    out.append(("ladder 2000", ladder(999)))  # 2 x 1000 joints
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=100)
    args = parser.parse_args()
    h = 1.0 / 60.0
    variants = ("dynamic", "dynamic + motor", "dynamic + motor + friction", "kinematic + motor")
    print(f"{'case':<12} {'n':>5} {'variant':<28} {'ms/step':>8} {'1st ms':>8} {'err':>9} moved")
    for name, link in cases():
        rod = driven_rod(link, h)
        for variant in variants:
            sim = build(link, variant, rod, h)
            ms, first, err, moved = run(sim, args.steps)
            print(
                f"{name:<12} {link.n_vertices:>5} {variant:<28} {ms:>8.2f} {first:>8.1f} "
                f"{err:>9.1e} {moved}/{args.steps}"
            )


if __name__ == "__main__":
    main()
