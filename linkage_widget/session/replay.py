"""Record a session's motion and save it as a standalone HTML replay.

:func:`record_positions` runs the session's own frame loop
(:meth:`LinkageSession.advance`, the same frames the widget draws) and keeps the
joint positions of each frame; :func:`save_replay_html` turns them into the page of
:mod:`linkage_widget.draw.html_replay` with the session's rods, pins and tracked
joints, which a teacher can put on a course page (no kernel needed).

>>> from linkage_widget.session import LinkageSession
>>> s = LinkageSession.load("four_bar.txt", gravity=9.81, mode="dynamic")
>>> s.running = True
>>> record_positions(s, 5).shape
(6, 4, 2)
"""

from __future__ import annotations

from os import PathLike
from pathlib import Path

import numpy as np

from ..draw.html_replay import write_replay_html
from .recording import GIF_FPS
from .session import LinkageSession

__all__ = ["record_positions", "save_replay_html"]


def record_positions(session: LinkageSession, frames: int) -> np.ndarray:
    """The positions now and after each of ``frames`` animation frames, ``(frames + 1, n, 2)``.

    The session must be running (or driven) for anything to move; the frames are
    its own (:meth:`LinkageSession.advance`), so the motion is the one on screen.
    """
    count = int(frames)
    if count < 1:
        raise ValueError(f"frames must be a whole number >= 1, got {frames!r}")
    out = np.empty((count + 1, session.linkage.n_vertices, 2))
    out[0] = session.linkage.vertices
    for k in range(1, count + 1):
        session.advance(1)
        out[k] = session.linkage.vertices  # the linkage keeps its size while it moves
    return out


def save_replay_html(
    session: LinkageSession,
    path: str | PathLike[str],
    positions: np.ndarray,
    *,
    fps: float = GIF_FPS,
    title: str | None = None,
) -> Path:
    """Write ``positions`` ``(f, n, 2)`` as an HTML replay with ``session``'s rods and pins."""
    link = session.linkage
    return write_replay_html(
        path,
        positions,
        link.rods,
        pinned=link.pinned,
        tracked=session.tracked,
        fps=fps,
        title=title or f"{Path(session.file_name or 'linkage').stem} in motion",
    )
