"""The session's exports of a recording: GIF or numbered PNG frames, in the background.

Part of :class:`~linkage_widget.session.LinkageSession` (a mixin, like the other session
modules). :meth:`ExportMixin.export_recording` starts an :class:`~.export.ExportJob` on
the frames kept while :attr:`recording` and returns at once; the job's thread waits on a
spawned process that rasterises and encodes (:func:`~.export.write_in_process`). Every
change of session state happens in the thread that runs the session: with an event loop
(the kernel), the job hands each progress step over through ``loop.call_soon_threadsafe``
and :meth:`_export_tick` copies it into :attr:`recording_progress` and, at the end,
offers the file and says so; without one (a script, a test), :meth:`wait_export` does
the same when called.

Cancel (:meth:`cancel_export`, the widget's ✕ button) stops the encoder at its next frame
and leaves no file (atomic writes). Nothing is lost: the recorded frames stay in
:attr:`recorder` untouched; ``export_recording()`` may run again, in either format, and the
next recording (``r``) *resumes* the cancelled one — its frames come after the kept ones —
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

from collections.abc import Callable
from os import PathLike
from pathlib import Path
from typing import Any

from traitlets import Bool, Enum, Float, HasTraits

from ..draw import save_gif
from .analysis import running_loop
from .document import DEFAULT_FILE
from .export import (
    EXPORT_FORMATS,
    ExportJob,
    Progress,
    save_png_frames,
    write_in_process,
    write_recording,
)
from .recording import GIF_FPS
from .tools import export_path

__all__ = ["ExportMixin"]


class ExportMixin(HasTraits):
    """Exports of the recorded frames, synchronous or in the background (see the module)."""

    record_format = Enum(
        tuple(EXPORT_FORMATS), "gif", help='What r saves: "gif" or "png" (numbered frames, zipped).'
    )
    exporting = Bool(False, help="Whether an export runs in the background (read only).")
    recording_progress = Float(0.0, help="Progress of the last export, 0 .. 1 (read only).")

    _export_job: ExportJob | None = None
    _export_target: tuple[Path, str, int] | None = None  # path, MIME type, frames

    # ----------------------------------------------------------- synchronous
    def save_gif(self, path: str | PathLike[str], fps: float = GIF_FPS) -> Path:
        """Write the frames recorded so far (see :attr:`recording`) as an animated GIF."""
        save_gif(self._recorded_frames(), path, fps)
        return Path(path)

    def save_png_frames(self, path: str | PathLike[str]) -> Path:
        """Write the frames recorded so far as ``frame_0001.png`` ... in a ZIP archive."""
        save_png_frames(self._recorded_frames(), path)
        return Path(path)

    # ------------------------------------------------------------ background
    def export_recording(
        self,
        format: str | None = None,
        path: str | PathLike[str] | None = None,
        fps: float = GIF_FPS,
        *,
        separate_process: bool = True,
    ) -> Path:
        """Start exporting the recorded frames in the background; return the file's path at once.

        Parameters
        ----------
        format : {"gif", "png"}, optional
            Default :attr:`record_format`. ``"png"`` writes the numbered frames as a ZIP.
        path : path-like, optional
            Default: ``exports/<file name>.gif`` (or ``.zip``) beside the linkage file.
        fps : float
            The GIF's frame rate.
        separate_process : bool, keyword-only
            Rasterise and encode in a spawned process (default: the kernel's frame loop
            keeps its rate; about a second to start), else in the job's thread.

        Raises
        ------
        ValueError
            Nothing recorded, or an unknown format.
        RuntimeError
            An export is running already (:meth:`cancel_export` or :meth:`wait_export` first).
        """
        fmt = self.record_format if format is None else format
        if fmt not in EXPORT_FORMATS:
            raise ValueError(f"format must be one of {sorted(EXPORT_FORMATS)}, got {fmt!r}")
        if self.exporting:
            raise RuntimeError("an export is running: cancel_export() or wait_export() first")
        frames = tuple(self._recorded_frames())  # the job's own list: a new recording can start
        suffix, mime = EXPORT_FORMATS[fmt]
        target = Path(path) if path is not None else self._export_path(suffix)

        writer = write_in_process if separate_process else write_recording

        def write(progress: Progress) -> None:
            writer(fmt, frames, target, fps, progress)

        self._export_target = (target, mime, len(frames))
        self.recording_progress = 0.0
        self.exporting = True
        self._export_job = ExportJob(write, self._export_notifier()).start()
        self._controls_changed()  # type: ignore[attr-defined]
        return target

    def cancel_export(self) -> bool:
        """Stop the running export (no file is written; the recording is kept).

        Returns whether an export was running. Its end (``"cancelled"``) is applied by
        the event loop, or by :meth:`wait_export`.
        """
        job = self._export_job
        if job is None or job.ended and not self.exporting:
            return False
        job.cancel()
        return True

    def wait_export(self, timeout: float | None = None) -> str:
        """Wait for the export to end (at most ``timeout`` s) and apply its end; its state.

        ``"done"``, ``"cancelled"`` or ``"failed"`` (the error is then in :attr:`error`);
        ``"running"`` after a timeout, ``"idle"`` when there was none.
        """
        job = self._export_job
        if job is None:
            return "idle"
        job.wait(timeout)
        self._export_tick()
        return job.state

    # ------------------------------------------------------------- internals
    def _do_cancel_export(self) -> None:
        if self.cancel_export():
            self._message = "cancelling the export ..."  # type: ignore[attr-defined]

    def _save_recording(self) -> None:
        """``r`` stopped a recording: export it (in the background when a loop runs)."""
        looping = running_loop() is not None
        path = self.export_recording(separate_process=looping)
        if not looping:
            self.wait_export()  # a script or test: the file is there when r returns
            return
        n = len(self._recorded_frames())
        self._message = f"saving {n} frames to {path} ... (✕ cancels)"  # type: ignore[attr-defined]

    def _export_path(self, suffix: str) -> Path:
        """Where an export goes: ``exports/`` beside the linkage file (created)."""
        path = export_path(self.file_name or DEFAULT_FILE, suffix)  # type: ignore[attr-defined]
        path.parent.mkdir(parents=True, exist_ok=True)
        return path

    def _recorded_frames(self) -> list[Any]:
        frames: list[Any] = self.recorder.frames  # type: ignore[attr-defined]
        if not frames:
            raise ValueError("nothing recorded: set recording = True (key r) and move something")
        return frames

    def _export_notifier(self) -> Callable[[], None] | None:
        """What the job calls from its thread: a hand-over to the event loop, if one runs."""
        loop = running_loop()
        if loop is None:
            return None
        tick = self._export_tick
        return lambda: loop.call_soon_threadsafe(tick)

    def _export_tick(self) -> None:
        """In the session's thread: show the job's progress, and its end once it ended."""
        job = self._export_job
        if job is None or not self.exporting:
            return
        self.recording_progress = job.progress  # the view's bar is linked to it
        if not job.ended:
            return
        self.exporting = False
        path, mime, n = self._export_target or (Path(), "", 0)
        if job.state == "done":
            self._offer_file(path, mime)  # type: ignore[attr-defined]
            what = "GIF" if path.suffix == ".gif" else "PNG frames"
            self._message = f"{what} saved: {path} ({n} frames, {job.seconds:.1f} s)"  # type: ignore[attr-defined]
        elif job.state == "cancelled":
            self.recorder.resume_next()  # type: ignore[attr-defined]
            self._message = (  # type: ignore[attr-defined]
                f"export cancelled at {job.done_frames}/{n} frames, nothing written; the "
                f"{n} recorded frames are kept: r records on after them, r again saves all"
            )
        else:
            self.error = f"export failed: {type(job.error).__name__}: {job.error}"  # type: ignore[attr-defined]
        self._controls_changed()  # type: ignore[attr-defined]
        self._request_draw()  # type: ignore[attr-defined]
