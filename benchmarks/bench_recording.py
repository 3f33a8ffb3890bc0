"""Recording and exporting a motion keeps the frame loop at its frame rate (issue 15).

A :class:`~linkage_widget.LinkageWidget` showing ``penrose2t`` (the 2007 program's 81-joint
transformable Penrose tiling, from ``../shared/reference-linkages``; any bundled example
by name otherwise) runs in a real asyncio event loop, as in the kernel: its own
:class:`~linkage_widget.widget.loop.FrameLoop` paces frames at 60 per second at most, and
a coroutine drags the joint nearest the canvas centre along a circle (a pointer move
every 1/60 s, as a mouse would). Without a browser the canvas messages go nowhere, but
they are built and serialised as in the kernel. Three phases of ``--seconds`` each:

1. dragging, not recording;
2. dragging and recording (``r``: the frame loop keeps each drawn scene, no pixels);
3. recording off and the GIF exported in the background as ``r`` does (a spawned
   process; ``--thread``: a thread of the kernel's process, to compare) while the drag
   goes on; the phase lasts until the export ends (at least ``--seconds``).

Printed: frames/s and the median / 90th-percentile frame interval of each phase, the
frames recorded, the GIF's encode time and the export's progress as seen by the loop,
then the same recording exported as numbered PNG frames (ZIP) with the drag still on.
Run::

    .venv/bin/python benchmarks/bench_recording.py                 # penrose2t, 10 s
    .venv/bin/python benchmarks/bench_recording.py --seconds 5 peaucellier.txt
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import tempfile
import time
from pathlib import Path

import numpy as np

from linkage_widget import LinkageWidget

REFERENCE = Path(__file__).resolve().parents[2] / "shared" / "reference-linkages"
MOVE_S = 1.0 / 60.0  # pointer moves per second of the simulated drag
SHOWN: list[float] = []  # perf_counter of every frame drawn


def _load(name: str) -> LinkageWidget:
    path = REFERENCE / name
    return LinkageWidget.load(str(path) if path.is_file() else name)


class Drag:
    """Pointer moves along a circle through the joint nearest the canvas centre."""

    def __init__(self, w: LinkageWidget, radius: float = 15.0) -> None:
        # 15 px: penrose2t's flex meets a dead point after ~11 s on a 40 px circle, and
        # a blocked drag draws nothing (the phase would measure an idle loop)
        pixels = w.view.to_pixel(w.linkage.vertices)
        centre = np.array([w.canvas.width / 2, w.canvas.height / 2])
        v = int(((pixels - centre) ** 2).sum(1).argmin())
        self.w, self.x0, self.y0, self.radius = w, *pixels[v], radius
        self.t0 = time.perf_counter()
        w.press(self.x0, self.y0)

    def move(self) -> None:
        a = math.pi * (time.perf_counter() - self.t0)  # a full circle every 2 s
        self.w.drag(self.x0 + self.radius * math.sin(a), self.y0 - self.radius * (1 - math.cos(a)))


async def phase(w: LinkageWidget, drag: Drag, seconds: float, until=None) -> dict:
    """Drag for ``seconds`` (and until ``until()`` is true); the loop's frame figures."""
    t0 = time.perf_counter()
    seen = []
    while time.perf_counter() - t0 < seconds or (until is not None and not until()):
        drag.move()
        seen.append(w.recording_progress)
        await asyncio.sleep(MOVE_S)
    times = np.array([t for t in SHOWN if t >= t0])
    gaps = np.diff(times) * 1e3
    span = time.perf_counter() - t0
    return {
        "seconds": span,
        "frames": len(times),
        "fps": len(times) / span,
        "gap_ms_median": float(np.median(gaps)) if len(gaps) else float("nan"),
        "gap_ms_p90": float(np.percentile(gaps, 90)) if len(gaps) else float("nan"),
        "progress_seen": sorted({round(float(p), 2) for p in seen}),
    }


def count_shown(w: LinkageWidget) -> None:
    """Note the time of every frame put on the canvas (``SHOWN``; frame_times keeps 600)."""
    show = w._show

    def timed(scene):
        show(scene)
        SHOWN.append(time.perf_counter())

    w._show = timed


def _row(label: str, r: dict) -> str:
    return (
        f"{label:<34}{r['fps']:>8.1f}{r['gap_ms_median']:>10.1f}{r['gap_ms_p90']:>9.1f}"
        f"{r['seconds']:>9.1f}"
    )


async def run(name: str, seconds: float, folder: Path, separate: bool) -> None:
    """The three phases and the PNG export; print the table."""
    w = _load(name)
    w.file_name = str(folder / Path(name).name)
    count_shown(w)
    await asyncio.sleep(1.0)  # the first analysis (a thread for big linkages)
    drag = Drag(w)
    await phase(w, drag, 1.0)  # warm-up: caches, first factorisations
    plain = await phase(w, drag, seconds)
    w.recording = True  # what r does (a key would end the drag: the pointer is held)
    recording = await phase(w, drag, seconds)
    frames = len(w.recorder.frames)
    w.recording = False  # what r does, with the export's process/thread choice
    w.export_recording("gif", separate_process=separate)
    job = w._exporter.job
    gif = await phase(w, drag, seconds, until=lambda: not w.exporting)
    gif_s, gif_path = job.seconds, Path(w.file_name).parent / "exports"
    w.export_recording("png", separate_process=separate)
    png_job = w._exporter.job
    png = await phase(w, drag, 0.0, until=lambda: not w.exporting)
    w.release(drag.x0, drag.y0)
    files = sorted(gif_path.iterdir())
    where = "a separate process" if separate else "a thread of this process"
    print(f"\n{name}: {w.linkage.n_vertices} joints, {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.2f}; exports in {where}")  # fmt: skip
    print(f"{'phase (dragging throughout)':<34}{'frames/s':>8}{'gap ms':>10}{'p90 ms':>9}{'s':>9}")
    print(_row("not recording", plain))
    print(_row("recording", recording))
    print(_row("encoding the GIF (background)", gif))
    print(_row("encoding the PNG frames (bg.)", png))
    print(f"motion status at the end: {w.status}")
    print(f"\nrecorded {frames} frames in {seconds:.0f} s ({frames / seconds:.1f} per s)")
    print(f"GIF encode: {gif_s:.2f} s ({1e3 * gif_s / frames:.1f} ms a frame), state {job.state}")
    print(f"PNG frames: {png_job.seconds:.2f} s, state {png_job.state}")
    print(f"progress values the loop saw during the GIF export: {gif['progress_seen']}")
    for f in files:
        print(f"  {f.name}: {f.stat().st_size / 1e6:.2f} MB")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("name", nargs="?", default="penrose2t.txt")
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--thread", action="store_true", help="export in a thread, not a process")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-recording-") as folder:
        asyncio.run(run(args.name, args.seconds, Path(folder), not args.thread))


if __name__ == "__main__":
    main()
