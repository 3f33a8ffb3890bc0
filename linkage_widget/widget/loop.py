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

__all__ = [
    "FRAME_S",
    "INPUT_HOLD_S",
    "MIN_GAP_S",
    "MIN_YIELD_S",
    "PACE_TOLERANCE_S",
    "SLEEP_OVERSHOOT_S",
    "FrameLoop",
    "FramePace",
]

FRAME_S = 1.0 / 60.0  # at most 60 frames per second
MIN_YIELD_S = 0.002  # the frame loop always lets the kernel handle messages in between
SLEEP_OVERSHOOT_S = 0.0005  # asyncio.sleep wakes this much late (epoll's millisecond timeouts)
#: A drawn frame may start up to this much ahead of the 60-a-second schedule (bursts of
#: two frames), so that pointer input arriving with jitter each gets its own frame.
PACE_TOLERANCE_S = FRAME_S
#: Never two drawn frames closer than this (the first would only be overdrawn).
MIN_GAP_S = FRAME_S / 2
#: While pointer input streams in, the paced ticks wait this long after the last input:
#: the input's frames set the rate, and a tick that drew just before an input would
#: make that input wait for the pace.
INPUT_HOLD_S = 1.25 * FRAME_S


class FramePace:
    r"""When the next drawn frame may start: at most one per :data:`FRAME_S` on average.

    The generic cell rate algorithm (a token bucket kept as one time): a frame may
    start at :math:`t` when :math:`t \ge T - \tau` and :math:`t \ge t_{last} + g`,
    with the theoretical time :math:`T \leftarrow \max(T, t) + P` after each drawn
    frame (:math:`P` = :data:`FRAME_S`, :math:`\tau` = :data:`PACE_TOLERANCE_S`,
    :math:`g` = :data:`MIN_GAP_S`). Any window of length :math:`w` then holds at most
    :math:`1 + (w + \tau)/P` drawn frames, however the input arrives. A frame also
    starts at least :data:`MIN_YIELD_S` after the last one *ended*: a frame longer
    than :math:`P` (thousands of joints) would otherwise be followed at once by
    another for each input that queued meanwhile, and the queue would never drain;
    with the pause the queued moves are handled first and share the next frame.

    Mouse moves arrive at the display rate but with jitter (the browser's frame, the
    server, the kernel's scheduling: 5 to 29 ms apart for 60 a second, measured in
    Chromium). A strict gate of :data:`FRAME_S` after the last frame made one move in
    six share a frame with the next and kept each waiting for the 60 Hz grid (4 ms
    median); the tolerance lets a late move's successor come early instead.

    Examples
    --------
    >>> pace = FramePace()
    >>> pace.delay(0.0)
    0.0
    >>> pace.drew(0.0)
    >>> round(pace.delay(0.0) * 1000, 1)  # the minimum gap
    8.3
    >>> pace.drew(0.0085); pace.drew(0.017)
    >>> round(pace.delay(0.017) * 1000, 1)  # the burst is spent: back on the schedule
    16.3
    >>> slow = FramePace(); slow.drew(0.0, end=0.050)  # a 50 ms frame
    >>> round(slow.delay(0.050) * 1000, 1)  # queued input is handled before the next
    2.0
    """

    def __init__(self) -> None:
        self.theoretical = -math.inf  # T: when the next frame is due on the schedule
        self.last = -math.inf  # when the last drawn frame started
        self.last_end = -math.inf  # ... and when it ended

    def delay(self, now: float) -> float:
        """Seconds from ``now`` until a drawn frame may start (0: now)."""
        return max(
            self.theoretical - PACE_TOLERANCE_S - now,
            self.last + MIN_GAP_S - now,
            self.last_end + MIN_YIELD_S - now,
            0.0,
        )

    def drew(self, start: float, end: float | None = None) -> None:
        """A frame that drew ran from ``start`` to ``end`` (``perf_counter`` times)."""
        self.theoretical = max(self.theoretical, start) + FRAME_S
        self.last = start
        self.last_end = start if end is None else end


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
    drawn_at : callable() -> float, optional
        When the last frame that drew something ended (a ``perf_counter`` time); a
        frame drew when it changes. Without it every frame counts as drawn.

    Notes
    -----
    Frames come from two places: the paced task (ticks :data:`FRAME_S` apart) and
    pointer input (:meth:`frame_if_due`); the frames that draw are paced by
    :class:`FramePace`. Both run on the widget's own thread: the widget hands
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
        drawn_at: Callable[[], float] | None = None,
    ) -> None:
        self._frame = frame
        self._dirty = dirty
        self._on_error = on_error
        self._drawn_at = drawn_at
        self._task: asyncio.Task[None] | None = None
        self._running = threading.RLock()
        self.last_frame_at = -math.inf
        self.last_input_at = -math.inf  # the last pointer input (frame_if_due)
        self._input_waits = False  # pointer input arrived that no frame has drawn yet
        self.pace = FramePace()

    def run_frame(self) -> bool:
        """Run one frame now (never two at once: see the class notes)."""
        with self._running:
            start = self.last_frame_at = time.perf_counter()
            self._input_waits = False
            before = None if self._drawn_at is None else self._drawn_at()
            busy = self._frame()
            if before is None or self._drawn_at() != before:
                self.pace.drew(start, time.perf_counter())
            return busy

    def ensure(self) -> None:
        """Start the frame task if an event loop runs and the task is not running."""
        loop = running_loop()
        if loop is None:
            return  # synchronous use: advance() runs frames
        if self._task is None or self._task.done():
            self._task = loop.create_task(self._animate())

    def _wait(self) -> float:
        """Seconds until the next tick.

        For input that waits, the pace's delay; else also FRAME_S after the last frame
        and :data:`INPUT_HOLD_S` after the last input.
        """
        now = time.perf_counter()
        if self._input_waits:
            return self.pace.delay(now)
        tick = max(self.last_frame_at + FRAME_S, self.last_input_at + INPUT_HOLD_S)
        return max(tick - now, self.pace.delay(now))

    async def _animate(self) -> None:
        """Frames at most every FRAME_S until nothing moves and nothing is left to draw.

        Pacing counts from the last frame, which pointer input may have run out of
        band (:meth:`frame_if_due`); every iteration yields to the event loop so
        that incoming events are handled even when frames take longer than FRAME_S.
        """
        while True:
            # epoll rounds timeouts up to whole milliseconds: without the allowance every
            # frame came ~1 ms late (56 instead of 60 fps, measured).
            await asyncio.sleep(max(MIN_YIELD_S, self._wait() - SLEEP_OVERSHOOT_S))
            if self._wait() > MIN_YIELD_S / 2:
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

    def frame_if_due(self) -> None:
        """Pointer input: a frame at once if the pace allows one, else at the next tick.

        Waiting for the paced loop would add up to a frame (~8 ms on average) of
        latency to every drag. Idle ticks of the loop send nothing: only frames that
        drew count for the pace (:class:`FramePace`).
        """
        self.last_input_at = now = time.perf_counter()
        if self.pace.delay(now) <= 0.0:
            self.run_frame()
        else:
            self._input_waits = True
        self.ensure()
