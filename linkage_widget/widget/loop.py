"""Pacing of the widget's animation: an asyncio task, at most 60 frames per second.

The task runs in the kernel's event loop; one frame is one batched canvas
message, and the kernel stays responsive between frames. Without a running
event loop (plain scripts, tests) nothing animates by itself:
:meth:`~linkage_widget.session.LinkageSession.advance` runs frames
synchronously, and it is the same frame function the task calls.
"""

from __future__ import annotations

import asyncio
import math
import threading
import time
from collections.abc import Callable

from ..session import running_loop

__all__ = ["FRAME_S", "MIN_YIELD_S", "SLEEP_OVERSHOOT_S", "FrameLoop"]

FRAME_S = 1.0 / 60.0  # at most 60 frames per second
MIN_YIELD_S = 0.002  # the frame loop always lets the kernel handle messages in between
SLEEP_OVERSHOOT_S = 0.0005  # asyncio.sleep wakes this much late (epoll's millisecond timeouts)


class FrameLoop:
    """Runs ``frame()`` paced by :data:`FRAME_S` while it says it is busy or ``dirty()``.

    Parameters
    ----------
    frame : callable() -> bool
        One frame; returns whether the motion goes on.
    dirty : callable() -> bool
        Whether something is left to draw.
    on_error : callable(Exception), optional
        Told when a paced frame raises; the loop then stops. Without it the exception
        would end the asyncio task, which nobody awaits: the animation would freeze
        and nothing would say why.

    Notes
    -----
    Frames come from two places: the paced task and pointer input
    (:meth:`frame_if_due`). Both run on the widget's own thread: the widget hands
    every frontend message to it (:mod:`.one_thread`; under ipykernel 7 and
    JupyterLab 4 a comm's messages may otherwise arrive on a subshell's thread, and
    frames ran on both). The lock stays for code that drives the widget from another
    thread (a subshell console): two frames never run at once on one session.
    """

    def __init__(
        self,
        frame: Callable[[], bool],
        dirty: Callable[[], bool],
        on_error: Callable[[Exception], None] | None = None,
    ) -> None:
        self._frame = frame
        self._dirty = dirty
        self._on_error = on_error
        self._task: asyncio.Task[None] | None = None
        self._running = threading.RLock()
        self.last_frame_at = -math.inf

    def run_frame(self) -> bool:
        """Run one frame now (never two at once: see the class notes)."""
        with self._running:
            self.last_frame_at = time.perf_counter()
            return self._frame()

    def ensure(self) -> None:
        """Start the frame task if an event loop runs and the task is not running."""
        loop = running_loop()
        if loop is None:
            return  # synchronous use: advance() runs frames
        if self._task is None or self._task.done():
            self._task = loop.create_task(self._animate())

    async def _animate(self) -> None:
        """Frames at most every FRAME_S until nothing moves and nothing is left to draw.

        Pacing counts from the last frame, which pointer input may have run out of
        band (:meth:`frame_if_due`); every iteration yields to the event loop so
        that incoming events are handled even when frames take longer than FRAME_S.
        """
        while True:
            # epoll rounds timeouts up to whole milliseconds: without the allowance every
            # frame came ~1 ms late (56 instead of 60 fps, measured).
            due = self.last_frame_at + FRAME_S - time.perf_counter() - SLEEP_OVERSHOOT_S
            await asyncio.sleep(max(MIN_YIELD_S, due))
            if time.perf_counter() - self.last_frame_at < FRAME_S - MIN_YIELD_S:
                continue  # a frame ran out of band meanwhile
            try:
                busy = self.run_frame()
            except Exception as exc:
                if self._on_error is None:
                    raise
                self._on_error(exc)
                return
            if not busy and not self._dirty():
                return

    def frame_if_due(self, last_draw: float) -> None:
        """Pointer input: a frame at once if none was drawn within FRAME_S, else at the next tick.

        Waiting for the paced loop would add up to a frame (~8 ms on average) of
        latency to every drag; running now keeps the rate at most 1/FRAME_S.
        Idle ticks of the loop send nothing: only the last *drawn* frame
        (``last_draw``, a ``perf_counter`` time) limits the rate.
        """
        if time.perf_counter() - last_draw >= FRAME_S:
            self.run_frame()
        self.ensure()
