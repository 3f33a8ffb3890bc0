"""Per-frame cost of the live rigidity analysis while a joint is dragged (issue 14).

A :class:`~linkage_widget.session.LinkageSession` (no browser) drags one joint for
``--frames`` frames through its public API (``press``/``drag``/``advance``); every
frame's :attr:`~linkage_widget.session.LinkageSession.live_analysis` says what the
analysis cost (CPU ms of the process, robust on a loaded machine, and wall clock
ms) and whether the counts were reused (Weyl bound) or
counted again. Cases: penrose3t and penrose4t (the reference files when
``../shared`` has them, else the same tilings from
:func:`linkage_widget.examples.penrose.penrose_tiling`), and grids of unit squares with
every 7th braced, pinned at two joints, of about 1 000, 5 000 and 20 000 joints.

Run: ``.venv/bin/python benchmarks/bench_live_analysis.py [--frames 12] [--max-joints N]``
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_analysis import grid  # noqa: E402
from bench_motion import REFERENCE_DIR  # noqa: E402

from linkage_widget import Linkage  # noqa: E402
from linkage_widget.examples.penrose import penrose_tiling  # noqa: E402
from linkage_widget.session import LinkageSession  # noqa: E402


def penrose(name: str, order: int) -> Linkage:
    path = REFERENCE_DIR / name
    return Linkage.load(path) if path.is_file() else penrose_tiling(order, transformable=True)


def cases(max_joints: int):
    yield "penrose3t", penrose("penrose3t.txt", 3)
    yield "penrose4t", penrose("penrose4t.txt", 4)
    for k in (32, 71, 141):
        if k * k <= max_joints:
            yield f"grid {k}x{k}", grid(k)


def drag(link: Linkage, frames: int) -> dict[str, float]:
    """Drag the free joint farthest from the centre; per-frame live costs and frame times."""
    t0 = time.perf_counter()
    s = LinkageSession(link, width=800, height=600)
    init = time.perf_counter() - t0
    p = s.linkage.vertices
    far = np.hypot(*(p - p.mean(axis=0)).T)
    far[s.linkage.pinned] = -1.0  # a pinned joint does not follow the pointer
    v = int(np.argmax(far))
    x, y = (float(c) for c in s.view.to_pixel(p[v]))
    s.press(x, y)
    costs, cpus, walls, reused, behind = [], [], [], 0, 0
    for k in range(1, frames + 1):
        s.drag(x + 3.0 * k, y - 2.0 * k)
        t = time.perf_counter()
        s.advance(1)
        walls.append(time.perf_counter() - t)
        live = s.live_analysis
        if live is None:
            continue
        lag = s._live_analyst.drawn - live.frame
        behind = max(behind, lag)
        if lag == 0:
            costs.append(live.cost)
            cpus.append(live.cpu)
            reused += live.reused
    s.release()
    c = np.array(costs) * 1e3 if costs else np.array([np.nan])
    u = np.array(cpus) * 1e3 if cpus else np.array([np.nan])
    return {
        "init_s": init,
        "cpu_ms": float(np.median(u)),
        "median_ms": float(np.median(c)),
        "max_ms": float(np.max(c)),
        "analysed": len(costs),
        "reused": reused,
        "frame_ms": float(np.median(walls) * 1e3),
        "behind": behind,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--frames", type=int, default=12)
    ap.add_argument("--max-joints", type=int, default=20000)
    args = ap.parse_args()
    print(
        f"{'case':<14}{'joints':>7}{'cpu med ms':>11}{'live med ms':>12}{'live max ms':>12}"
        f"{'analysed':>9}{'reused':>7}{'frame med ms':>13}{'max behind':>11}{'setup s':>9}"
    )
    for name, link in cases(args.max_joints):
        r = drag(link, args.frames)
        print(
            f"{name:<14}{link.n_vertices:>7}{r['cpu_ms']:>11.1f}{r['median_ms']:>12.1f}{r['max_ms']:>12.1f}"
            f"{r['analysed']:>9}{r['reused']:>7}{r['frame_ms']:>13.1f}{r['behind']:>11}"
            f"{r['init_s']:>9.2f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
