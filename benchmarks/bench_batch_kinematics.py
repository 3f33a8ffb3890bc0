"""Batch kinematics side by side with pylinkage 1.3, on the same four-bar and crank angles.

Usage::

    .venv/bin/python benchmarks/bench_batch_kinematics.py             # best of 3
    .venv/bin/python benchmarks/bench_batch_kinematics.py --repeat 1 --designs 2000

The four-bar of the tests (ground 4, crank 1, coupler 3.5, rocker 2.5: a Grashof
crank-rocker), crank angles 1° apart over a turn. Both sides in this one process, CPU
time (``time.process_time``, best of ``--repeat``, one BLAS thread; pylinkage's numba
kernels compiled before timing). Figures: four-bar placements (all four joints at one
crank angle) per second.

* **one design, many angles**: ``kinematics(link, 0, 1, angles, lengths=L[None])``
  (checks, closed-form positions *and* velocities and accelerations) against
  pylinkage's fastest single-linkage path, ``Linkage.step_fast`` (its numba solver,
  positions only), at 360 and at 36 000 angles per call;
* **designs × angles**: 10⁴ designs (crank, coupler and rocker lengths drawn around the
  base) × 360 angles, ``kinematics(..., lengths=(10⁴, 3))`` against pylinkage's batch
  path, ``population.Ensemble.simulate`` (numba over the members);
* **equality**: the largest difference of the joint positions, ours against pylinkage's,
  on the same geometry (and in the designs run), and against today's continuation
  (``kinematics`` without ``lengths``).

A script, not a timed test.
"""

from __future__ import annotations

import argparse
import os
import time

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
from pylinkage import Crank, Ground, RRRDyad  # noqa: E402
from pylinkage.bridge.solver_conversion import linkage_to_solver_data  # noqa: E402
from pylinkage.population import Ensemble  # noqa: E402
from pylinkage.simulation import Linkage as SimLinkage  # noqa: E402

from linkage_widget import Linkage, kinematics  # noqa: E402

GROUND, CRANK, COUPLER, ROCKER = 4.0, 1.0, 3.5, 2.5
OURS_TO_THEIRS = [0, 3, 1, 2]  # our joints O, B, C, D in their order A, D, B, C


def coupler_joint(r: float, coupler: float, rocker: float) -> np.ndarray:
    """The coupler joint above the ground line with the crank along +x."""
    b, d = np.array([r, 0.0]), np.array([GROUND, 0.0])
    e = d - b
    dist = np.hypot(*e)
    x = (coupler**2 - rocker**2 + dist**2) / (2 * dist)
    return b + x * e / dist + np.sqrt(coupler**2 - x**2) * np.array([-e[1], e[0]]) / dist


def ours(r=CRANK, coupler=COUPLER, rocker=ROCKER) -> Linkage:
    c = coupler_joint(r, coupler, rocker)
    return Linkage([[0, 0], [r, 0], c, [GROUND, 0]], rods=[(0, 1), (1, 2), (2, 3)], pinned=[0, 3])


def theirs(k: int) -> SimLinkage:
    """pylinkage's four-bar: its crank turns 2π/k a step, from angle 0 (first output at 2π/k)."""
    a, d = Ground(0.0, 0.0, name="A"), Ground(GROUND, 0.0, name="D")
    crank = Crank(anchor=a, radius=CRANK, angular_velocity=2 * np.pi / k, initial_angle=0.0)
    c = RRRDyad(anchor1=crank.output, anchor2=d, distance1=COUPLER, distance2=ROCKER)
    return SimLinkage([a, d, crank, c], name="four-bar")


def best(fn, repeat: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeat):
        t0 = time.process_time()
        out = fn()
        times.append(time.process_time() - t0)
    return min(times), out


def one_design(k: int, repeat: int) -> None:
    link = ours()
    table = link.rod_lengths()[None]
    angles = 2 * np.pi / k * np.arange(1, k + 1)
    sim = theirs(k)
    sim.step_fast(iterations=k)  # compile
    t_ours, got = best(lambda: kinematics(link, 0, 1, angles, lengths=table), repeat)
    t_theirs, want = best(lambda: sim.step_fast(iterations=k), repeat)
    diff = np.abs(got.positions[0][:, OURS_TO_THEIRS] - want).max()
    print(
        f"one design, {k:>6} angles: ours {k / t_ours:12,.0f}/s ({1e3 * t_ours:7.2f} ms)"
        f"  pylinkage step_fast {k / t_theirs:12,.0f}/s ({1e3 * t_theirs:7.2f} ms)"
        f"  ratio {t_theirs / t_ours:5.2f}x  max |ours - theirs| {diff:.1e}"
    )


def designs(b: int, k: int, repeat: int) -> None:
    rng = np.random.default_rng(27)
    dims = np.column_stack(
        [rng.uniform(0.8, 1.2, b), rng.uniform(3.3, 3.7, b), rng.uniform(2.3, 2.7, b)]
    )
    link = ours()
    angles = 2 * np.pi / k * np.arange(1, k + 1)
    sim = theirs(k)
    data = linkage_to_solver_data(sim)
    rows = np.tile(data.constraints, (b, 1))
    rows[:, 0], rows[:, 2], rows[:, 3] = dims[:, 0], dims[:, 1], dims[:, 2]
    starts = np.zeros((b, 4, 2))
    starts[:, 1, 0] = GROUND
    starts[:, 2, 0] = dims[:, 0]
    starts[:, 3] = [coupler_joint(*d) for d in dims]
    ensemble = Ensemble(sim, rows, starts)
    Ensemble(sim, rows[:2], starts[:2]).simulate(iterations=k, store=False)  # compile
    t_ours, got = best(lambda: kinematics(link, 0, 1, angles, lengths=dims), repeat)
    t_theirs, want = best(lambda: ensemble.simulate(iterations=k, store=False), repeat)
    diff = np.abs(got.positions[:, :, OURS_TO_THEIRS] - want).max()
    n = b * k
    print(
        f"{b} designs x {k} angles: ours {n / t_ours:12,.0f}/s ({t_ours:6.2f} s, all valid: "
        f"{bool(got.valid.all())})  pylinkage Ensemble.simulate {n / t_theirs:12,.0f}/s "
        f"({t_theirs:6.2f} s)  ratio {t_theirs / t_ours:5.2f}x  max |ours - theirs| {diff:.1e}"
    )


def against_today(k: int) -> None:
    link = ours()
    angles = 2 * np.pi / k * np.arange(1, k + 1)
    t0 = time.process_time()
    want = kinematics(link, 0, 1, angles)
    t_today = time.process_time() - t0
    got = kinematics(link, 0, 1, angles, lengths=link.rod_lengths()[None])
    diff = np.abs(got.positions[0] - want.positions).max()
    print(
        f"today's continuation at {k} angles: {k / t_today:,.0f}/s; "
        f"max |batch - continuation| {diff:.1e}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--designs", type=int, default=10_000)
    args = parser.parse_args()
    against_today(360)
    for k in (360, 36_000):
        one_design(k, args.repeat)
    designs(args.designs, 360, args.repeat)


if __name__ == "__main__":
    main()
