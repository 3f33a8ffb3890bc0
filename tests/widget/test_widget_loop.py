"""The widget inside a running event loop, as in a kernel: the paced frame task.

Without a loop the tests elsewhere call ``advance``; here ``asyncio.run`` stands in for
the kernel's loop, and the frame task does the work.
"""

import asyncio

import numpy as np

from linkage_widget.widget import LinkageWidget
from linkage_widget.widget.loop import FRAME_S


def test_the_frame_task_moves_to_the_attractor_and_stops():
    async def main():
        w = LinkageWidget.load("peaucellier.txt")
        w.selected_vertex = 5
        target = w.linkage.vertices[5] + [0.0, 10.0]
        w.attractor = tuple(target)
        assert w.running
        for _ in range(200):
            await asyncio.sleep(0.01)
            if not w.running:
                break
        assert not w.running and np.allclose(w.linkage.vertices[5], target, atol=1e-6)
        times = np.diff(w.frame_times[-20:])
        assert len(times) and times.min() >= FRAME_S - 0.003  # paced: at most ~60 per second
        await asyncio.sleep(0.05)
        return w

    asyncio.run(main())
