"""What a session keeps of a motion: the paths of tracked vertices and GIF frames.

Both are bounded, so that a session left running for hours keeps its memory:
:class:`Tracks` keeps the last :data:`TRACK_CAP` points per vertex and
:class:`Recorder` at most :data:`GIF_MAX_FRAMES` frames, taken at most
:data:`GIF_FPS` times a second of its clock.

Examples
--------
>>> import numpy as np
>>> t = Tracks((0,), cap=2)
>>> for x in (1.0, 2.0, 3.0):
...     t.append(np.array([[x, 0.0]]))
>>> t.as_dict()[0][:, 0].tolist()
[2.0, 3.0]
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Generic, TypeVar

import numpy as np

__all__ = ["GIF_FPS", "GIF_MAX_FRAMES", "TRACK_CAP", "Recorder", "Tracks"]

TRACK_CAP = 2000  # points kept per tracked vertex
GIF_FPS = 25.0
GIF_MAX_FRAMES = 750  # 30 s at 25 fps

F = TypeVar("F")


class Tracks:
    """Ring buffer of the paths of tracked vertices: ``(cap, k, 2)`` world points.

    All tracked vertices get a point per frame, so one array holds them all and
    appending is one vectorised copy.

    Parameters
    ----------
    vertices : tuple of int
        The ``k`` tracked vertices.
    cap : int
        Points kept per vertex; the oldest go first.
    """

    def __init__(self, vertices: tuple[int, ...], cap: int = TRACK_CAP) -> None:
        self.vertices = tuple(vertices)
        self.cap = int(cap)
        self._buf = np.empty((self.cap, len(self.vertices), 2))
        self._start = 0
        self._len = 0

    def append(self, positions: np.ndarray) -> None:
        """Add the current positions (``(n, 2)``) of the tracked vertices."""
        if not self.vertices:
            return
        pts = positions[list(self.vertices)]
        if self._buf.shape[2] != pts.shape[1]:  # a 3-D linkage's joints: (cap, k, 3)
            self._buf = np.empty((self.cap, len(self.vertices), pts.shape[1]))
            self._start = self._len = 0
        if self._len and np.array_equal(self._buf[(self._start + self._len - 1) % self.cap], pts):
            return  # nothing moved: no duplicate points
        self._buf[(self._start + self._len) % self.cap] = pts
        if self._len < self.cap:
            self._len += 1
        else:
            self._start = (self._start + 1) % self.cap

    def as_dict(self) -> dict[int, np.ndarray]:
        """``{vertex: (k, 2) world polyline}``, oldest point first."""
        if not self._len:
            return {}
        idx = (self._start + np.arange(self._len)) % self.cap
        pts = self._buf[idx]
        return {v: pts[:, c] for c, v in enumerate(self.vertices)}


class Recorder(Generic[F]):
    """Frames for an animated GIF, at most ``fps`` per second of ``clock`` and ``limit`` in all.

    Parameters
    ----------
    clock : callable() -> float
        Time source in seconds (tests pass a fake one).
    fps, limit : float, int
        Frame rate and most frames kept (later frames are dropped, not the first).
    """

    def __init__(
        self,
        clock: Callable[[], float] = time.perf_counter,
        fps: float = GIF_FPS,
        limit: int = GIF_MAX_FRAMES,
    ) -> None:
        self.clock = clock
        self.fps = float(fps)
        self.limit = int(limit)
        self.frames: list[F] = []
        self._due = -math.inf  # clock time from which the next frame is kept
        self._resume = False

    def restart(self) -> None:
        """A new recording begins: forget the frames so far (unless :meth:`resume_next`)."""
        if self._resume:
            self._resume = False  # this once, the new frames come after the kept ones
        else:
            self.frames = []  # a new list: an export running on the old one keeps it
        self._due = -math.inf

    def resume_next(self) -> None:
        """Keep the frames at the next :meth:`restart`: the recording goes on from them.

        The session calls this when an export of the recording was cancelled, so that
        nothing recorded is lost and the next recording adds to it.

        >>> r = Recorder(clock=iter(range(10)).__next__, fps=1)
        >>> r.offer("a"), r.resume_next(), r.restart(), r.offer("b"), r.frames
        (True, None, None, True, ['a', 'b'])
        """
        self._resume = True

    def offer(self, frame: F) -> bool:
        """Keep ``frame`` if a frame is due and there is room; return whether it was kept.

        Frames are due on a grid of ``1/fps`` (not ``1/fps`` after the last kept one), so
        that a loop drawing at any rate above ``fps`` records ``fps`` frames a second on
        average and the GIF, played at ``fps``, runs at the speed of the motion; after a
        stall the grid restarts at the next frame.
        """
        now = self.clock()
        if now < self._due or len(self.frames) >= self.limit:
            return False
        period = 1.0 / self.fps
        self._due = self._due + period if self._due + period > now else now + period
        self.frames.append(frame)
        return True
