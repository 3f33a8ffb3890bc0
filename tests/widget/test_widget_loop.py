"""The widget inside a running event loop, as in a kernel: the paced frame task.

Without a loop the tests elsewhere call ``advance``; here ``asyncio.run`` stands in for
the kernel's loop, and the frame task does the work.
"""

import asyncio
import time

import numpy as np

from linkage_widget.widget import LinkageWidget
from linkage_widget.widget.loop import FRAME_S, FrameLoop


def test_the_frame_task_moves_to_the_attractor_and_stops():
    async def main():
        w = LinkageWidget.load("peaucellier.txt")
        w.selected_vertex = 5
        target = w.linkage.vertices[5] + [0.0, 10.0]
        w.attractor = tuple(target)
        assert w.running
        # A hang guard, not a speed target: on a busy machine the ~20 frames take longer.
        deadline = time.monotonic() + 60.0
        while w.running and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        assert not w.running and np.allclose(w.linkage.vertices[5], target, atol=1e-6)
        times = np.diff(w.frame_times[-20:])
        # Paced: at most ~60 frames per second. The loop paces frame *starts* (at least
        # FRAME_S - MIN_YIELD_S apart); frame_times holds frame *ends*, whose spacing also
        # carries the difference of two frames' durations (a busy machine: 12 ms after a
        # slow frame), so the rate is checked over the run, where those differences cancel.
        assert len(times) >= 10
        assert times.mean() >= FRAME_S - 0.003
        await asyncio.sleep(0.05)
        return w

    asyncio.run(main())


def test_a_frame_that_raises_stops_the_loop_and_is_reported():
    calls, errors = [], []

    def frame():
        calls.append(len(calls))
        if len(calls) == 3:
            raise RuntimeError("a broken frame")
        return True

    loop = FrameLoop(frame, dirty=lambda: True, on_error=errors.append)

    async def main():
        loop.ensure()
        deadline = time.monotonic() + 30.0  # a hang guard
        while not errors and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        await asyncio.sleep(10 * FRAME_S)  # no frame after the failure

    asyncio.run(main())
    assert [str(e) for e in errors] == ["a broken frame"]
    assert len(calls) == 3


def test_frames_from_two_threads_never_overlap():
    # ipykernel 7 may handle the widgets' comm messages in a subshell thread while the
    # paced task runs in the main thread: a frame must never start while one runs
    import threading

    inside, overlaps, calls = [0], [0], [0]

    def frame():
        inside[0] += 1
        overlaps[0] += inside[0] > 1
        time.sleep(0.002)  # releases the GIL: the other thread would get in here
        calls[0] += 1
        inside[0] -= 1
        return True

    loop = FrameLoop(frame=frame, dirty=lambda: False)
    threads = [
        threading.Thread(target=lambda: [loop.run_frame() for _ in range(50)]) for _ in range(2)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert calls[0] == 100 and overlaps[0] == 0
