"""A drawn frame of a drag at 2 000 constraints, headless: step, live analysis, scene, send.

Usage::

    .venv/bin/python benchmarks/bench_drag.py                 # both cases, 60 frames each
    .venv/bin/python benchmarks/bench_drag.py --frames 120 --profile penrose5t
    .venv/bin/python benchmarks/bench_drag.py --circle 80 penrose5t   # a faster pointer

Issue 27 asks 60 frames a second at 2 000 constraints: every drawn frame's kinematic
step, live rigidity analysis, scene and canvas message within 16.7 ms of kernel time.
Each case is a :class:`~linkage_widget.widget.LinkageWidget` whose canvas messages go
to a comm that drops them (counting their bytes), dragged the way the browser drags:
ipycanvas and ipyevents messages press a joint near the middle, then one
``mouse_move`` per frame along a circle, each followed by one frame
(:meth:`~linkage_widget.session.LinkageSession.advance`), as the paced loop runs one
frame per move.

* ``penrose5t``: :func:`~linkage_widget.examples.penrose.penrose_tiling` ``(5,
  transformable=True)``, 1 521 joints, 1 990 rods and 1 464 fixed angles (3 454
  constraints), built here in 40 ms (deterministic);
* ``grid crank``: a 32 x 32 grid of unit squares with every 7th square braced (pinned
  at two joints), and a crank (a pinned pivot, the crank and a coupler to the grid's
  edge) whose tip the pointer turns about the pivot: 1 026 joints, 2 124 rods.

Printed: CPU milliseconds per frame (``time.process_time``, one BLAS thread, so robust
on a shared machine), median and 90th percentile, of the whole frame (the move's
message and the frame) and its parts: the kinematic step, the live analysis, the
scene (:meth:`~linkage_widget.session.LinkageSession.scene`) and the send (the scene
into canvas commands and the batched message, the controls); the bytes a frame
sends; and how the live analysis counted (reused, inertia, recounted). A script that
prints figures, not a test.
"""

from __future__ import annotations

import argparse
import collections
import cProfile
import math
import os
import pstats
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_analysis import grid  # noqa: E402
from bench_panel import CountingComm  # noqa: E402
from ipycanvas.canvas import _CANVAS_MANAGER  # noqa: E402

from linkage_widget import Linkage  # noqa: E402
from linkage_widget.examples.penrose import penrose_tiling  # noqa: E402
from linkage_widget.widget import LinkageWidget  # noqa: E402

PARTS = ("step", "live", "scene", "send")


def grid_crank(k: int = 32) -> tuple[Linkage, int | None, int | None]:
    """The braced ``k x k`` grid with a crank at its edge; the crank tip's and pivot's indices."""
    g = grid(k)
    edge = (k // 2) * k  # joint (k/2, 0) of the grid, at (10 k/2, 0)
    ex, ey = g.vertices[edge]
    pivot, tip = np.array([ex - 10.0, ey - 30.0]), np.array([ex, ey - 25.0])
    verts = np.vstack([g.vertices, pivot, tip])
    n = g.n_vertices
    rods = np.vstack([g.rods, [[n, n + 1], [n + 1, edge]]])
    return Linkage(verts, rods, pinned=[*g.pinned, n]), n + 1, n


def cases() -> dict[str, Callable[[], tuple[Linkage, int | None, int | None]]]:
    return {
        "penrose5t": lambda: (penrose_tiling(5, transformable=True), None, None),
        "grid crank": grid_crank,
    }


class Timed:
    """Wraps a widget's frame parts, adding each call's CPU time to this frame's figures."""

    def __init__(self, w: LinkageWidget) -> None:
        self.now: dict[str, float] = dict.fromkeys(PARTS, 0.0)
        names = ("_step_motion", "_live_frame", "scene", "_show")
        for part, name in zip(PARTS, names, strict=True):
            setattr(w, name, self._timed(part, getattr(w, name)))

    def _timed(self, part: str, fn: Callable) -> Callable:
        def run(*args, **kwargs):
            t = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                self.now[part] += time.process_time() - t

        return run

    def take(self) -> dict[str, float]:
        out, self.now = self.now, dict.fromkeys(PARTS, 0.0)
        return out


def drag(build, frames: int, warm: int, profile: bool | str, circle: float = 25.0) -> dict:
    """Drag a joint near the middle along a circle, or turn the crank; per-frame figures."""
    link, joint, pivot = build()
    comm = CountingComm()
    _CANVAS_MANAGER.comm = comm
    w = LinkageWidget(link)
    r = w.canvas.width / w.view.width  # ipycanvas reports backing-store pixels
    px = w.joint_pixels()[0]
    if joint is None:
        far = np.hypot(*(px - px.mean(axis=0)).T)
        far[list(link.pinned)] = np.inf
        joint = int(np.argmin(far))
    x0, y0 = (float(c) for c in px[joint])
    # the pointer's circle: 25 pixels through the joint, or the crank tip's about its pivot
    cx, cy = (x0 - circle, y0) if pivot is None else (float(c) for c in px[pivot])
    radius, start = math.hypot(x0 - cx, y0 - cy), math.atan2(y0 - cy, x0 - cx)

    def canvas(kind: str, x: float, y: float) -> None:
        w.feed_canvas_event({"event": kind, "x": x * r, "y": y * r})

    def dom(kind: str, x: float, y: float) -> None:
        rect = {"boundingRectWidth": w.view.width, "boundingRectHeight": w.view.height}
        w.feed_dom_event({"type": kind, "button": 0, "relativeX": round(x),
                          "relativeY": round(y), **rect})  # fmt: skip

    canvas("mouse_move", x0, y0)
    canvas("mouse_down", x0, y0)
    dom("mousedown", x0, y0)
    timed = Timed(w)
    kinds: collections.Counter[str] = collections.Counter()
    rows: list[tuple[float, dict[str, float], int]] = []

    def frame(k: int) -> None:
        a = start + 2.0 * math.pi * k / 90.0  # a turn in 1.5 s at 60 frames a second
        t, b = time.process_time(), comm.bytes
        canvas("mouse_move", cx + radius * math.cos(a), cy + radius * math.sin(a))
        w.advance(1)
        rows.append((time.process_time() - t, timed.take(), comm.bytes - b))
        live = w.live_analysis
        kinds[live.kind if live is not None else "none"] += 1

    for k in range(warm):
        frame(k)
    rows.clear()
    kinds.clear()
    moved_from = w.linkage.vertices[joint].copy()
    prof = cProfile.Profile() if profile else None
    if prof is not None:
        prof.enable()
    for k in range(warm, warm + frames):
        frame(k)
    if prof is not None:
        prof.disable()
        stats = pstats.Stats(prof)
        if profile is not True:
            stats.dump_stats(profile)  # a file for pstats or snakeviz
        stats.sort_stats("cumulative").print_stats(40)
    canvas("mouse_up", x0, y0)
    dom("mouseup", x0, y0)
    total = [1e3 * t for t, _, _ in rows]
    parts = {p: statistics.median(1e3 * d[p] for _, d, _ in rows) for p in PARTS}
    moved = float(np.hypot(*(w.linkage.vertices[joint] - moved_from)))
    return {
        "joints": link.n_vertices,
        "constraints": link.n_rods + len(link.angles) + 2 * len(link.pinned),
        "median": statistics.median(total),
        "p90": float(np.percentile(total, 90)),
        **parts,
        "bytes": statistics.median(b for _, _, b in rows),
        "kinds": dict(kinds),
        "moved": moved,  # the dragged joint's travel over the timed frames
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("names", nargs="*", help="cases (default: all)")
    ap.add_argument("--frames", type=int, default=60)
    ap.add_argument("--warm", type=int, default=10, help="frames before the timed ones")
    ap.add_argument("--profile", action="store_true", help="cProfile the timed frames")
    ap.add_argument("--dump", help="... and write the profile to this file")
    ap.add_argument("--circle", type=float, default=25.0, help="the pointer's radius, pixels")
    args = ap.parse_args(argv)
    table = cases()
    names = args.names or list(table)
    print(f"load average {os.getloadavg()[0]:.1f}; CPU ms per drawn frame, one BLAS thread")
    head = f"{'case':<11}{'joints':>7}{'constr':>7}{'median':>8}{'p90':>7}"
    print(head + "".join(f"{p:>7}" for p in PARTS) + f"{'kB/frame':>9}  live analysis")
    for name in names:
        r = drag(table[name], args.frames, args.warm, args.dump or args.profile, args.circle)
        parts = "".join(f"{r[p]:>7.1f}" for p in PARTS)
        print(
            f"{name:<11}{r['joints']:>7}{r['constraints']:>7}{r['median']:>8.1f}{r['p90']:>7.1f}"
            f"{parts}{r['bytes'] / 1e3:>9.1f}  {r['kinds']}"
        )
    print("target: median <= 16.7 ms (60 frames a second); parts are medians of their own")
    return 0


if __name__ == "__main__":
    sys.exit(main())
