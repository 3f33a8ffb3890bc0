"""Kernel cost of the 3-D view per frame: the scene of each bundled 3-D example, a turn, a drag.

Usage::

    .venv/bin/python benchmarks/bench_space_view.py

For every bundled 3-D example (:func:`linkage_widget.examples.space.list_space_examples`)
in a headless :class:`~linkage_widget.session.LinkageSession` (640 x 480):

* ``scene``: ms to build the scene (camera projection, painter's order, depth cues,
  velocity arrows) — what every drawn frame costs before the renderer;
* ``turn``: ms per background-drag event (trackball, orthonormalisation, scene);
* ``drag``: ms per frame of a joint pulled along its seen direction (the kinematic
  steps toward the target on the joint's screen-parallel plane, plus the scene).

The median of repeated runs is printed; nothing is asserted (no timed tests).
"""

from __future__ import annotations

import statistics
import time

import numpy as np

from linkage_widget.examples.space import list_space_examples, space_example_path
from linkage_widget.session import LinkageSession


def _median_ms(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return 1e3 * statistics.median(times)


def _bench(name: str) -> tuple[int, float, float, float]:
    s = LinkageSession.load(str(space_example_path(name)))
    scene = _median_ms(s.scene, 40)
    cx, cy = (float(c) for c in s.view.to_pixel([0.0, 0.0]))
    s.press(cx, 20.0)
    s.drag(cx + 8.0, 20.0)
    k = [8.0]

    def turn() -> None:
        k[0] += 3.0
        s.drag(cx + k[0], 20.0)
        s.scene()

    t = _median_ms(turn, 40)
    s.release()
    P, depth = s.joint_pixels()
    free = [v for v in range(s.linkage.n_vertices) if not s.linkage.is_pinned(v)]
    v = max(free, key=lambda i: depth[i]) if free else 0
    s.press(*P[v])
    step = [0]

    def drag() -> None:
        step[0] += 1
        s.drag(P[v][0] + 3.0 * step[0], P[v][1] + 1.0 * step[0])
        s.advance(1)

    d = _median_ms(drag, 30)
    s.release()
    assert np.all(np.isfinite(s.linkage.vertices))
    return s.linkage.n_vertices, scene, t, d


def main() -> None:
    print(f"{'example':<20}{'joints':>7}{'scene ms':>10}{'turn ms':>10}{'drag ms':>10}")
    for name in list_space_examples():
        n, scene, turn, drag = _bench(name)
        print(f"{name:<20}{n:>7}{scene:>10.2f}{turn:>10.2f}{drag:>10.2f}")


if __name__ == "__main__":
    main()
