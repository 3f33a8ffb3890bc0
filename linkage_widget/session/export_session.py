"""The session's exports of a recording: GIF or numbered PNG frames, in the background.

An :class:`Exporter` the :class:`~linkage_widget.session.LinkageSession` holds: the
session's ``export_recording`` hands it the frames kept while ``recording`` and returns at
once; the exporter starts an :class:`~.export.ExportJob`, whose thread waits on a spawned
process that rasterises and encodes (:func:`~.export.write_in_process`). Every change of
session state happens in the thread that runs the session: with an event loop (the
kernel), the job hands each progress step over through ``loop.call_soon_threadsafe``
(:func:`loop_notifier`) and the session copies :attr:`Exporter.progress` into
``recording_progress`` and, at the end, applies :meth:`Exporter.end` (offers the file,
says so); without a loop (a script, a test), ``wait_export`` does the same when called.

Cancel (``cancel_export``, the widget's ✕ button) stops the encoder at its next frame
and leaves no file (atomic writes). Nothing is lost: the recorded frames stay in the
session's ``recorder`` untouched; ``export_recording()`` may run again, in either format,
and the next recording (``r``) *resumes* the cancelled one — its frames come after the kept ones —
so ``r`` again saves it all.

Examples
--------
>>> import tempfile, zipfile
>>> from pathlib import Path
>>> from linkage_widget.session import LinkageSession
>>> s = LinkageSession.load("peaucellier.txt", width=200, height=150)
>>> s.recording = True
>>> _ = s.advance(5)
>>> s.recording = False
>>> zip_path = s.export_recording("png", Path(tempfile.mkdtemp()) / "frames.zip")
>>> s.wait_export(), s.recording_progress
('done', 1.0)
>>> zipfile.ZipFile(zip_path).namelist()[0]
'frame_0001.png'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from os import PathLike
from pathlib import Path
from typing import Any, NamedTuple

from .analysis import running_loop
from .document import DEFAULT_FILE
from .export import EXPORT_FORMATS, ExportJob, Progress, write_in_process, write_recording
from .tools import export_path

__all__ = [
    "ExportEnd",
    "Exporter",
    "checked_format",
    "export_target",
    "loop_notifier",
    "recorded",
    "written_now",
]


class ExportEnd(NamedTuple):
    """How an export ended, for the session to apply."""

    state: str  #: ``"done"``, ``"cancelled"`` or ``"failed"``
    path: Path  #: the file written (offered for download when done)
    mime: str  #: its MIME type
    message: str  #: the hint line's words (``""`` when failed)
    error: str  #: the error shown (``""`` unless failed)


class Exporter:
    """The background export of a recording: its job and what it writes (module docstring).

    Attributes
    ----------
    job : ExportJob or None
        The last export started (``None`` before the first).
    """

    def __init__(self) -> None:
        self.job: ExportJob | None = None
        self._target: tuple[Path, str, int] = (Path(), "", 0)  # path, MIME type, frames

    @property
    def state(self) -> str:
        """The job's state (:class:`~.export.ExportJob`), ``"idle"`` before the first."""
        return "idle" if self.job is None else self.job.state

    @property
    def progress(self) -> float:
        """The job's progress, ``0 .. 1``."""
        return 0.0 if self.job is None else self.job.progress

    def start(
        self,
        fmt: str,
        frames: Sequence[Any],
        target: Path,
        fps: float,
        separate_process: bool,
        notify: Callable[[], None] | None,
    ) -> None:
        """Start writing ``frames`` as ``fmt`` at ``target`` (``notify``: see the job)."""
        writer = write_in_process if separate_process else write_recording

        def write(progress: Progress) -> None:
            writer(fmt, frames, target, fps, progress)

        self._target = (target, EXPORT_FORMATS[fmt][1], len(frames))
        self.job = ExportJob(write, notify).start()

    def begin(
        self,
        fmt: str,
        frames: Sequence[Any],
        path: str | PathLike[str] | None,
        file_name: str,
        fps: float,
        separate_process: bool,
        tick: Callable[[], None],
    ) -> Path:
        """Start exporting the recorded ``frames`` as ``fmt``; return the file's path at once.

        ``fmt`` ``"gif"`` or ``"png"`` (numbered frames zipped, :func:`checked_format`);
        ``path`` default ``exports/<file name>.gif`` (``.zip``) beside the linkage file
        ``file_name``; ``separate_process``: rasterise and encode in a spawned process (the
        kernel's frame loop keeps its rate; a second to start), else in the job's thread;
        ``tick`` is handed to the event loop at each step, if one runs (:func:`loop_notifier`).

        Raises
        ------
        ValueError
            Nothing recorded.
        """
        frames = recorded(frames)
        suffix = EXPORT_FORMATS[fmt][0]
        target = Path(path) if path is not None else export_target(file_name, suffix)
        self.start(fmt, frames, target, fps, separate_process, loop_notifier(tick))
        return target

    def cancel(self, exporting: bool) -> bool:
        """Stop the job; whether one was running (ended but not yet applied: ``exporting``)."""
        job = self.job
        if job is None or job.ended and not exporting:
            return False
        job.cancel()
        return True

    def wait(self, timeout: float | None) -> None:
        """Wait for the job to end, at most ``timeout`` s (none: at once)."""
        if self.job is not None:
            self.job.wait(timeout)

    def end(self) -> ExportEnd | None:
        """How the job ended, or ``None`` while it runs (or before the first)."""
        job = self.job
        if job is None or not job.ended:
            return None
        path, mime, n = self._target
        if job.state == "done":
            what = "GIF" if path.suffix == ".gif" else "PNG frames"
            said = f"{what} saved: {path} ({n} frames, {job.seconds:.1f} s)"
            return ExportEnd("done", path, mime, said, "")
        if job.state == "cancelled":
            said = (
                f"export cancelled at {job.done_frames}/{n} frames, nothing written; the "
                f"{n} recorded frames are kept: r records on after them, r again saves all"
            )
            return ExportEnd("cancelled", path, mime, said, "")
        error = f"export failed: {type(job.error).__name__}: {job.error}"
        return ExportEnd("failed", path, mime, "", error)


def checked_format(fmt: str, exporting: bool) -> str:
    """``fmt`` when an export of it can start now.

    Raises
    ------
    ValueError
        An unknown format.
    RuntimeError
        An export is running already (``exporting``).
    """
    if fmt not in EXPORT_FORMATS:
        raise ValueError(f"format must be one of {sorted(EXPORT_FORMATS)}, got {fmt!r}")
    if exporting:
        raise RuntimeError("an export is running: cancel_export() or wait_export() first")
    return fmt


def recorded(frames: Sequence[Any]) -> tuple[Any, ...]:
    """The recorded ``frames`` as the job's own tuple (a new recording can start); not none."""
    if not frames:
        raise ValueError("nothing recorded: set recording = True (key r) and move something")
    return tuple(frames)


def written_now(kind: str, frames: Sequence[Any], path: str | PathLike[str], fps: float) -> Path:
    """The recorded ``frames`` written as ``kind`` (``"gif"``, ``"png"``) at ``path`` now; the path.

    In this process, waiting for it (a script's :meth:`save_gif`); ``ValueError`` when
    nothing was recorded.
    """
    write_recording(kind, recorded(frames), path, fps, lambda done, total: None)
    return Path(path)


def export_target(file_name: str, suffix: str) -> Path:
    """Where an export goes: ``exports/`` beside the linkage file ``file_name`` (created)."""
    path = export_path(file_name or DEFAULT_FILE, suffix)
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def loop_notifier(tick: Callable[[], None]) -> Callable[[], None] | None:
    """What the job calls from its thread: ``tick`` handed to the event loop, if one runs."""
    loop = running_loop()
    if loop is None:
        return None
    return lambda: loop.call_soon_threadsafe(tick)
