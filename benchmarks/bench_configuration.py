"""Timings of :mod:`linkage_widget.configuration`: charts, metric and geodesics.

Usage::

    .venv/bin/python benchmarks/bench_configuration.py            # all cases
    .venv/bin/python benchmarks/bench_configuration.py --quick    # one repeat, smaller grids

Cases:

* ``trace_curve`` of a Grashof four-bar (two loops), a parallelogram (two branches crossing
  at two singular placements) and Peaucellier's linkage (the bundled example);
* ``sample_surface`` of a five-bar at 32 and 64 grid points per angle;
* ``chart_kind`` of a four-bar (the panel's decision when a linkage is loaded);
* per frame of a curve panel: the two angle coordinates of the placement and
  ``ConfigurationCurve.locate``; per click: ``ConfigurationCurve.path`` across a crossing;
* per-frame work of the panel: ``SphereChart.coordinates`` of one placement, ``metric``
  at one point and at 10 000 points (vectorised), ``positions`` of 10 000 points;
* the three geodesic routes over 3 s (31 samples): Christoffel symbols, normal
  acceleration (both DOP853 at 1e-12), the Simulator at a 2.5 ms step with Richardson
  extrapolation (two runs), and their largest coordinate difference.

Reported: CPU time (``time.process_time``, best of ``--repeat``; one BLAS thread). A
script, not a timed test.
"""

from __future__ import annotations

import argparse
import os
import time

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

from linkage_widget import Linkage  # noqa: E402
from linkage_widget.configuration import (  # noqa: E402
    SphereChart,
    chart_kind,
    geodesic_christoffel,
    geodesic_embedded,
    geodesic_simulated,
    sample_surface,
    trace_curve,
)


def best_time(fn, repeat: int):
    """Smallest CPU time of ``repeat`` calls, and the last result."""
    best, result = np.inf, None
    for _ in range(repeat):
        t0 = time.process_time()
        result = fn()
        best = min(best, time.process_time() - t0)
    return best, result


def four_bar(a: float, b: float, c: float, d: float, crank: float = 1.0) -> Linkage:
    """Ground 0 (0, 0) - 3 (d, 0), crank 0-1 (a), coupler 1-2 (b), rocker 3-2 (c)."""
    pa = np.array([a * np.cos(crank), a * np.sin(crank)])
    ground = np.array([d, 0.0])
    r = np.linalg.norm(ground - pa)
    x = (b * b - c * c + r * r) / (2 * r)
    u = (ground - pa) / r
    pb = pa + x * u + np.sqrt(b * b - x * x) * np.array([-u[1], u[0]])
    return Linkage([[0, 0], pa, pb, ground], rods=[(0, 1), (1, 2), (2, 3)], pinned=[0, 3])


def five_bar() -> Linkage:
    """Cranks 1.0 (pin 0) and 1.2 (pin 4, 2.5 away), coupler 2.0 and 1.5."""
    pa = np.array([np.cos(1.8), np.sin(1.8)])
    pb = np.array([2.5 + 1.2 * np.cos(1.3), 1.2 * np.sin(1.3)])
    r = np.linalg.norm(pb - pa)
    x = (4.0 - 2.25 + r * r) / (2 * r)
    u = (pb - pa) / r
    pc = pa + x * u + np.sqrt(4.0 - x * x) * np.array([-u[1], u[0]])
    return Linkage(
        [[0, 0], pa, pc, pb, [2.5, 0]], rods=[(0, 1), (1, 2), (2, 3), (3, 4)], pinned=[0, 4]
    )


def bench_curves(repeat: int) -> None:
    cases = {
        "Grashof four-bar": four_bar(1.0, 3.0, 2.5, 3.0),
        "parallelogram": four_bar(1.0, 3.0, 1.0, 3.0),
        "peaucellier.txt": Linkage.load("peaucellier.txt"),
    }
    for name, link in cases.items():
        t, curve = best_time(lambda link=link: trace_curve(link), repeat)
        points = sum(len(b.angles) for b in curve.branches)
        print(
            f"trace_curve  {name:18s} {t * 1e3:8.1f} ms  {len(curve.branches)} branches, "
            f"{points} points, {len(curve.singular_angles)} singular"
        )
    t, kind = best_time(lambda: chart_kind(cases["Grashof four-bar"]), repeat)
    print(f"chart_kind   four-bar           {t * 1e3:8.1f} ms  -> {kind!r}")
    link = cases["parallelogram"]
    curve = trace_curve(link)
    loops, p = 200, link.vertices
    t, _ = best_time(lambda: [[c.value(p) for c in curve.coords] for _ in range(loops)], repeat)
    print(f"per frame: the current point's two angles  {t / loops * 1e6:8.1f} us")
    t, _ = best_time(lambda: [curve.locate(p) for _ in range(loops)], repeat)
    print(f"per frame: ConfigurationCurve.locate        {t / loops * 1e6:8.1f} us")
    target = curve.branches[1].angles[40]
    t, walk = best_time(lambda: curve.path(p, target), repeat)
    print(f"per click: ConfigurationCurve.path          {t * 1e3:8.2f} ms ({len(walk)} placements)")


def bench_surface(repeat: int, sizes: tuple[int, ...]) -> None:
    link = five_bar()
    for n in sizes:
        t, s = best_time(lambda n=n: sample_surface(link, resolution=n), repeat)
        print(
            f"sample_surface five-bar N={n:<4d} {t * 1e3:8.1f} ms  "
            f"{int(s.reachable.sum())}/{n * n} reachable, {len(s.boundary)} boundary lines"
        )


def bench_sphere(repeat: int) -> None:
    chart = SphereChart(3.0)
    rng = np.random.default_rng(0)
    phi, t = rng.uniform(-1.4, 1.4, 10_000), rng.uniform(-np.pi, np.pi, 10_000)
    one = chart.positions(0.3, 0.4)
    loops = 200
    tt, _ = best_time(lambda: [chart.coordinates(one) for _ in range(loops)], repeat)
    print(f"SphereChart.coordinates, one placement  {tt / loops * 1e6:8.1f} us")
    tt, _ = best_time(lambda: [chart.metric(0.3, 0.4) for _ in range(loops)], repeat)
    print(f"SphereChart.metric, one point           {tt / loops * 1e6:8.1f} us")
    tt, _ = best_time(lambda: chart.metric(phi, t), repeat)
    print(f"SphereChart.metric, 10 000 points       {tt * 1e3:8.1f} ms")
    tt, _ = best_time(lambda: chart.positions(phi, t), repeat)
    print(f"SphereChart.positions, 10 000 points    {tt * 1e3:8.1f} ms")


def bench_geodesics(repeat: int) -> None:
    chart = SphereChart(3.0)
    start, velocity = (0.3, 0.5), (0.8, -1.1)
    kw = {"samples": 31}
    routes = {
        "christoffel": lambda: geodesic_christoffel(chart, start, velocity, 3.0, **kw),
        "embedded": lambda: geodesic_embedded(chart, start, velocity, 3.0, **kw),
        "simulated (2.5 ms, Richardson)": lambda: geodesic_simulated(
            chart, start, velocity, 3.0, step=2.5e-3, richardson=True, **kw
        ),
    }
    results = {}
    for name, fn in routes.items():
        t, results[name] = best_time(fn, repeat)
        print(f"geodesic over 3 s, {name:32s} {t * 1e3:8.1f} ms")
    ref = results["christoffel"]
    for name, route in results.items():
        if name != "christoffel":
            print(f"  max |difference| from christoffel: {name:32s} {route.distance(ref):.2e}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="one repeat, smaller grids")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    repeat = 1 if args.quick else args.repeat
    bench_curves(repeat)
    bench_surface(repeat, (32,) if args.quick else (32, 64))
    bench_sphere(repeat)
    bench_geodesics(1 if args.quick else repeat)


if __name__ == "__main__":
    main()
