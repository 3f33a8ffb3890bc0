"""The configuration-space panel's cost per frame: the sphere, a 1-DOF and a 2-DOF linkage.

Usage::

    .venv/bin/python benchmarks/bench_panel.py             # all cases
    .venv/bin/python benchmarks/bench_panel.py --frames 100

For each case a :class:`~linkage_widget.widget.LinkageWidget` (its canvas messages sent to
a comm that drops them, so the kernel side is measured whole: building the pictures,
translating them into canvas commands, serialising the batch) runs the same moving frames
with the panel off and on; the difference is what the panel adds to a frame. Also timed:
the panel's static layer (sphere shading and lines, curve, torus chart), which is built
only when the chart changes or the sphere is turned, and the bytes a frame sends.

* ``sphere``: the four-rod chain with pinned ends, after a flick (the geodesic in dynamic
  mode, the point and its trail move every frame);
* ``1-DOF``: the bundled four-bar, its crank driven by a motor (kinematic);
* ``2-DOF``: a pinned five-bar pulled by the attractor (kinematic).

Reported: CPU milliseconds per frame (``time.process_time``, one BLAS thread, the
median frame of the best of three runs: the machine may be shared). A script that
prints figures, not a test.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import time

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

from ipycanvas.canvas import _CANVAS_MANAGER  # noqa: E402

from linkage_widget import Linkage  # noqa: E402
from linkage_widget.configuration import SphereChart  # noqa: E402
from linkage_widget.widget import LinkageWidget  # noqa: E402


class CountingComm:
    """Drops canvas messages, counting their bytes."""

    kernel = "bench"
    comm_id = "bench-comm"

    def __init__(self) -> None:
        self.bytes = 0
        self.messages = 0

    def send(self, data=None, metadata=None, buffers=None) -> None:
        self.messages += 1
        self.bytes += sum(memoryview(b).nbytes for b in buffers or ())

    def on_msg(self, callback) -> None:
        pass

    def close(self, *args, **kwargs) -> None:
        pass


def sphere_widget(panel: bool) -> LinkageWidget:
    w = LinkageWidget(SphereChart(3.0).linkage(0.3, 0.5), show_configuration=panel)
    w.show_configuration = True  # the flick needs the panel; then it is set as asked
    x, y = w.configuration_point_px
    w.panel_press(x, y)
    w.panel_release(x + 50.0, y + 20.0)
    w.show_configuration = panel
    return w


def four_bar_widget(panel: bool) -> LinkageWidget:
    w = LinkageWidget.load("four_bar.txt", show_configuration=panel)
    w.selected_vertex = 2  # the crank tip follows the attractor round the crank circle
    w.step_size = 8.0
    return w


def five_bar_widget(panel: bool) -> LinkageWidget:
    link = Linkage(
        [[0, 0], [-0.5, 2], [1.5, 3], [3.5, 2], [3, 0]],
        rods=[(0, 1), (1, 2), (2, 3), (3, 4)],
        pinned=[0, 4],
    )
    w = LinkageWidget(link, show_configuration=panel)
    w.selected_vertex = 2
    w.step_size = 0.1
    return w


#: Kinematic cases: where the attractor is at frame k (centre, radius, radians per frame).
ORBITS = {"1-DOF four-bar": ((0.0, 0.0), 60.0, 0.1), "2-DOF five-bar": ((1.5, 2.0), 1.2, 0.1)}


CASES = {
    "sphere": sphere_widget,
    "1-DOF four-bar": four_bar_widget,
    "2-DOF five-bar": five_bar_widget,
}


def per_frame(name: str, panel: bool, frames: int) -> tuple[float, float, str]:
    """Median ms per frame, bytes per frame, what the panel charts."""
    w = CASES[name](panel)
    orbit = ORBITS.get(name)
    comm = CountingComm()
    old, _CANVAS_MANAGER.comm = _CANVAS_MANAGER.comm, comm
    try:
        times = []
        for k in range(frames + 3):
            if k == 3:
                comm.bytes, times = 0, []  # the first frames warm up
            t0 = time.process_time()
            if orbit is not None:  # move the attractor: the linkage moves every frame
                (cx, cy), r, step = orbit
                w.attractor = (cx + r * math.cos(step * k), cy + r * math.sin(step * k))
            w.advance(1)
            times.append(time.process_time() - t0)
    finally:
        _CANVAS_MANAGER.comm = old
    return 1e3 * statistics.median(times), comm.bytes / frames, w.configuration_kind


def static_layer(name: str, repeats: int = 7) -> float:
    """Median ms of a panel frame that redraws the static layer too.

    Sphere: a drag that turns it (built, translated, sent); the charts: a new picture
    of the chart (what a change of linkage or coordinates costs after the chart's maths).
    """
    w = CASES[name](True)
    comm = CountingComm()
    old, _CANVAS_MANAGER.comm = _CANVAS_MANAGER.comm, comm
    times = []
    try:
        w.panel_press(5.0, 5.0)  # a corner: away from the point, a drag turns the sphere
        for k in range(repeats):
            t0 = time.process_time()
            if w.configuration_kind == "sphere":
                w.panel_drag(15.0 + 5 * k, 5.0)
            else:
                w.redraw_panel()
            times.append(time.process_time() - t0)
        w.panel_release()
    finally:
        _CANVAS_MANAGER.comm = old
    return 1e3 * statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--frames", type=int, default=60)
    args = parser.parse_args()
    print(f"{'case':18} {'chart':8} {'off ms':>7} {'on ms':>7} {'panel ms':>8} "
          f"{'KB/frame on':>11} {'static ms':>9}")  # fmt: skip
    for name in CASES:
        off = min(per_frame(name, False, args.frames)[0] for _ in range(3))
        runs = [per_frame(name, True, args.frames) for _ in range(3)]
        on, sent, kind = min(runs)
        static = min(static_layer(name) for _ in range(3))
        print(
            f"{name:18} {kind:8} {off:7.2f} {on:7.2f} {on - off:8.2f} "
            f"{sent / 1024:11.1f} {static:9.2f}"
        )


if __name__ == "__main__":
    main()
