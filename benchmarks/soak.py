"""Soak runs: long sessions with random targets; constraint error, memory and time.

Usage::

    .venv/bin/python benchmarks/soak.py                  # the counts of issue 6 (penrose3t)
    .venv/bin/python benchmarks/soak.py --kinematic 20000 --dynamic 500 --frames 2500
    .venv/bin/python benchmarks/soak.py --file ../shared/reference-linkages/watt.txt

Three runs on one linkage (default: the 2007 program's ``penrose3t.txt`` from
``../shared/reference-linkages``), each with its own seeded random generator:

* ``kinematic``: a :class:`~linkage_widget.motion.Simulator` pulls a random
  unpinned vertex toward a random point of the linkage's bounding box (enlarged by
  a quarter, so some targets are out of reach) at a random step size; a new target
  when the last one is reached or blocked, or after ``SEGMENT`` steps.
* ``dynamic``: the same targets as attractor springs, one second (at the widget's
  time step, 1/60 s) per target, with gravity 0 or 100; the attractor holds the
  linkage up.
* ``widget``: a :class:`~linkage_widget.widget.LinkageWidget` with two tracked
  vertices runs frames (``advance``) toward random attractors, as in a classroom
  session; the tracks, the undo history and the frame log must stay capped.

Every step is checked for NaN (a NaN stops the run with the step number) and its
constraint error is recorded. Memory is the resident set size (Linux
``/proc/self/statm``) after a warm-up and at the end; the peak is
``ru_maxrss``. ``tests/motion/test_soak.py`` runs the same functions with the counts that
fit the CI budget and asserts on the figures.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
import tracemalloc
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from linkage_widget import Linkage  # noqa: E402
from linkage_widget.motion import Simulator  # noqa: E402

DEFAULT_FILE = REPO.parent / "shared" / "reference-linkages" / "penrose3t.txt"
SEGMENT = 200  # kinematic steps per target at most
DYNAMIC_SEGMENT = 60  # dynamic steps per target (1 s at 1/60 s)
KINEMATIC_STEPS = (0.5, 1.0, 2.0, 5.0)  # world units (the 2007 files are ~500 wide)
DYNAMIC_GRAVITY = (0.0, 100.0)


def rss_mb() -> float:
    """Resident set size of this process in MB (Linux), else the peak."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):  # pragma: no cover - not Linux
        return peak_rss_mb()


def peak_rss_mb() -> float:
    """Peak resident set size of this process in MB."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 2**10


@dataclass
class Figures:
    """What a soak run measured."""

    name: str
    steps: int = 0
    seconds: float = 0.0
    worst_error: float = 0.0
    statuses: Counter = field(default_factory=Counter)
    targets: int = 0
    rss_warm_mb: float = 0.0
    rss_end_mb: float = 0.0
    peak_mb: float = 0.0
    notes: dict = field(default_factory=dict)

    @property
    def ms_per_step(self) -> float:
        return 1e3 * self.seconds / max(self.steps, 1)

    @property
    def rss_growth_mb(self) -> float:
        return self.rss_end_mb - self.rss_warm_mb

    def record(
        self, step: int, status: str, positions: np.ndarray, error: float, warm: int
    ) -> None:
        """Count one step: its status, NaN check, constraint error, RSS at warm-up."""
        self.statuses[status] += 1
        _check_finite(positions, self.name, step)
        self.worst_error = max(self.worst_error, error)
        if step + 1 == warm:
            self.rss_warm_mb = rss_mb()

    def finish(self, t0: float, steps: int) -> None:
        """Stop the clock and take the final memory figures."""
        self.seconds = time.perf_counter() - t0
        self.steps = steps
        self.rss_end_mb, self.peak_mb = rss_mb(), peak_rss_mb()

    def line(self) -> str:
        status = ", ".join(f"{k} {v}" for k, v in sorted(self.statuses.items()))
        notes = "".join(f", {k} {v}" for k, v in self.notes.items())
        return (
            f"{self.name}: {self.steps} steps, {self.targets} targets in {self.seconds:.1f} s "
            f"({self.ms_per_step:.2f} ms/step); worst constraint error {self.worst_error:.2e}; "
            f"RSS {self.rss_warm_mb:.1f} -> {self.rss_end_mb:.1f} MB after warm-up "
            f"({self.rss_growth_mb:+.1f}), peak {self.peak_mb:.1f} MB; {status}{notes}"
        )


class Targets:
    """Random (vertex, target) pairs: unpinned vertices, points of the enlarged bounding box."""

    def __init__(self, linkage: Linkage, rng: np.random.Generator) -> None:
        free = [i for i in range(linkage.n_vertices) if not linkage.is_pinned(i)]
        self.free = np.array(free or range(linkage.n_vertices))
        lo, hi = linkage.vertices.min(axis=0), linkage.vertices.max(axis=0)
        pad = 0.25 * (hi - lo)
        self.lo, self.hi = lo - pad, hi + pad
        self.rng = rng

    def __call__(self) -> tuple[int, tuple[float, float]]:
        vertex = int(self.rng.choice(self.free))
        x, y = self.lo + self.rng.random(2) * (self.hi - self.lo)
        return vertex, (float(x), float(y))


def _check_finite(positions: np.ndarray, name: str, step: int) -> None:
    if not np.all(np.isfinite(positions)):
        raise AssertionError(f"{name}: a non-finite position after step {step}")


def soak_kinematic(linkage: Linkage, steps: int, seed: int = 6) -> Figures:
    """``steps`` kinematic steps toward random targets; see the module notes."""
    rng = np.random.default_rng(seed)
    targets = Targets(linkage, rng)
    sim = Simulator(linkage, mode="kinematic")
    fig = Figures("kinematic")
    warm = min(1000, steps // 10)
    left = 0
    t0 = time.perf_counter()
    for k in range(steps):
        if left == 0 or sim.status in ("blocked", "reached target"):
            sim.attract(*targets())
            sim.step_size = float(rng.choice(KINEMATIC_STEPS))
            fig.targets += 1
            left = SEGMENT
        sim.step()
        left -= 1
        fig.record(k, sim.status, sim.positions, sim.constraint_error(), warm)
    fig.finish(t0, steps)
    return fig


def soak_dynamic(linkage: Linkage, steps: int, seed: int = 7, time_step: float = 1 / 60) -> Figures:
    """``steps`` dynamic steps with random attractors; see the module notes."""
    rng = np.random.default_rng(seed)
    targets = Targets(linkage, rng)
    sim = Simulator(linkage, mode="dynamic", step_size=time_step)
    fig = Figures("dynamic")
    warm = min(200, steps // 10)
    t0 = time.perf_counter()
    for k in range(steps):
        if k % DYNAMIC_SEGMENT == 0:
            sim.attract(*targets())
            sim.gravity = float(rng.choice(DYNAMIC_GRAVITY))
            fig.targets += 1
        sim.step()
        fig.record(k, sim.status, sim.positions, sim.constraint_error(), warm)
    fig.finish(t0, steps)
    fig.notes["simulated s"] = round(sim.time, 1)
    return fig


def soak_widget(
    path: str | Path, frames: int, seed: int = 8, tracked: int = 2, trace_from: int | None = None
) -> Figures:
    """``frames`` widget frames toward random attractors with tracked vertices.

    Besides the RSS, Python's own allocations are traced (``tracemalloc``) from frame
    ``trace_from`` on (default: the end of the warm-up): ``notes["traced growth MB"]`` is what
    the session kept of what it allocated since. Tracing makes a frame ~2.5 times slower, so
    the suite traces only the frames after every buffer is full, where nothing may grow.
    """
    from linkage_widget.widget import LinkageWidget

    try:
        return _soak_widget(path, frames, seed, tracked, LinkageWidget, trace_from)
    finally:
        tracemalloc.stop()


def _soak_widget(path, frames, seed, tracked, widget_class, trace_from=None) -> Figures:
    rng = np.random.default_rng(seed)
    w = widget_class.load(path)
    targets = Targets(w.linkage, rng)
    w.tracked = tuple(int(v) for v in rng.choice(targets.free, size=tracked, replace=False))
    fig = Figures("widget")
    warm = min(300, frames // 10)
    trace_from = warm if trace_from is None else min(trace_from, frames - 1)
    t0 = time.perf_counter()
    for k in range(frames):
        if k == trace_from:
            tracemalloc.start()
            traced_start = tracemalloc.get_traced_memory()[0]
        if not w.running:
            vertex, goal = targets()
            w.selected_vertex = vertex
            w.attractor = goal
            w.running = True
            fig.targets += 1
        w.advance()
        if w.error:
            raise AssertionError(f"widget: error after frame {k}: {w.error}")
        fig.record(k, w.status, w.linkage.vertices, w.simulator.constraint_error(), warm)
    fig.finish(t0, frames)
    fig.notes["traced frames"] = frames - trace_from
    fig.notes["traced growth MB"] = round(
        (tracemalloc.get_traced_memory()[0] - traced_start) / 2**20, 2
    )
    tracks = w.scene().by_role("tracks")
    fig.notes["track points"] = max((int(max(t.counts)) for t in tracks if len(t)), default=0)
    fig.notes["undo depth"] = len(w.history)
    fig.notes["frame log"] = len(w.frame_times)
    return fig


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--file", type=Path, default=DEFAULT_FILE)
    parser.add_argument("--kinematic", type=int, default=100_000)
    parser.add_argument("--dynamic", type=int, default=10_000)
    parser.add_argument("--frames", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=6)
    args = parser.parse_args(argv)
    if not args.file.is_file():
        print(f"no linkage file {args.file}", file=sys.stderr)
        return 2
    linkage = Linkage.load(args.file)
    print(f"{args.file.name}: {linkage}")
    runs = []
    if args.kinematic:
        runs.append(soak_kinematic(linkage, args.kinematic, args.seed))
        print(runs[-1].line(), flush=True)
    if args.dynamic:
        runs.append(soak_dynamic(linkage, args.dynamic, args.seed + 1))
        print(runs[-1].line(), flush=True)
    if args.frames:
        runs.append(soak_widget(args.file, args.frames, args.seed + 2))
        print(runs[-1].line(), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
