"""Exports that take seconds, off the frame loop: a recording as GIF or numbered PNG frames.

While :attr:`~linkage_widget.session.LinkageSession.recording`, the frame loop keeps the
:class:`~linkage_widget.draw.Scene` it built for the screen anyway (a few arrays of pixel
coordinates, no pixels): recording costs the loop one list append per kept frame.
Rasterising (Pillow, ``supersample`` x larger, box-reduced) and encoding — about
10–30 ms a frame, so 5–15 s for a 10 s recording at 25 frames/s — run in an
:class:`ExportJob`: a daemon thread that reports ``done/total`` after every frame and
stops at the next frame when cancelled. The session's background exports have the job
wait on a spawned process (:func:`write_in_process`) that does the work on another core:
in a thread of the kernel, rasterising holds the interpreter lock in turns with the frame
loop and costs it frames (``benchmarks/bench_recording.py`` prints both).

Cancel keeps everything: the writers go through the package's atomic writer, so a
cancelled (or failed) export leaves no file and an older file of that name as it was,
and the job never touches the frames it was given, so the recording can be exported
again, in either format, as often as wanted.

Two formats (:data:`EXPORT_FORMATS`):

``"gif"``
    an animated GIF on one shared palette (:func:`~linkage_widget.draw.save_gif`);
``"png"``
    the 2007 program's numbered frames, ``frame_0001.png``, ``frame_0002.png`` ...,
    stored (not deflated: PNG is compressed already) in one ZIP for a single download
    (:func:`save_png_frames`).

MP4 is not offered: it needs an ffmpeg binary (``imageio-ffmpeg`` ships one in its
wheel), which this package does not depend on; a GIF or the PNG frames go into any
video editor, or ``ffmpeg -framerate 25 -i frame_%04d.png out.mp4``.

Examples
--------
>>> import io, zipfile
>>> from linkage_widget.draw import Scene
>>> frames = [Scene(40, 30) for _ in range(3)]
>>> job = ExportJob(lambda progress: save_png_frames(frames, buf, progress=progress))
>>> buf = io.BytesIO()
>>> job.start().wait(10)
True
>>> job.progress, job.state, zipfile.ZipFile(buf).namelist()
(1.0, 'done', ['frame_0001.png', 'frame_0002.png', 'frame_0003.png'])
"""

from __future__ import annotations

import contextlib
import io
import multiprocessing
import os
import threading
import time
import zipfile
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from os import PathLike
from typing import IO, Any

from ..draw import Scene, save_gif, scene_to_image
from ..io import atomic_writer

__all__ = [
    "EXPORT_FORMATS",
    "ExportCancelled",
    "ExportJob",
    "frame_name",
    "save_png_frames",
    "write_in_process",
    "write_recording",
]

#: format -> (file suffix, MIME type of the download)
EXPORT_FORMATS = {"gif": (".gif", "image/gif"), "png": (".zip", "application/zip")}

Progress = Callable[[int, int], None]
#: After a cancel, the export process gets this long to remove its temporary file.
CHILD_GRACE_S = 10.0
#: The export process's niceness (Unix): lower priority than the kernel it works for.
CHILD_NICE = 10


class ExportCancelled(Exception):
    """Raised inside an export's progress callback to stop it (no file is left)."""


def frame_name(k: int) -> str:
    """Name of frame ``k`` (0-based) in a PNG sequence, numbered from 1 as in 2007.

    >>> frame_name(0), frame_name(41)
    ('frame_0001.png', 'frame_0042.png')
    """
    return f"frame_{k + 1:04d}.png"


def save_png_frames(
    frames: Sequence[Scene],
    target: str | PathLike[str] | IO[bytes],
    *,
    supersample: int = 2,
    progress: Progress | None = None,
) -> None:
    """Write ``frames`` as ``frame_0001.png`` ... in one ZIP archive, atomically.

    Parameters
    ----------
    frames : sequence of Scene (or Picture)
        At least one.
    target : path or binary file
        A path is written through :func:`~linkage_widget.io.atomic_writer` (all or nothing);
        an open binary file (a ``BytesIO``) is written into as it is.
    supersample : int
        As for :func:`~linkage_widget.draw.scene_to_image`.
    progress : callable(done, total), optional
        Called after each frame; an exception it raises aborts (no file at a path).
    """
    if not frames:
        raise ValueError("save_png_frames needs at least one frame")
    opened = nullcontext(target) if hasattr(target, "write") else atomic_writer(target)
    with opened as fh, zipfile.ZipFile(fh, "w", zipfile.ZIP_STORED) as archive:
        for k, scene in enumerate(frames):
            png = io.BytesIO()
            # compress_level 1: a third of the default's time, files ~10 % larger
            scene_to_image(scene, supersample=supersample).save(png, "PNG", compress_level=1)
            archive.writestr(frame_name(k), png.getvalue())
            if progress is not None:
                progress(k + 1, len(frames))


def write_recording(
    kind: str, frames: Sequence[Scene], path: str | PathLike[str], fps: float, progress: Progress
) -> None:
    """Write ``frames`` as ``kind`` (:data:`EXPORT_FORMATS`) at ``path``, in this process."""
    if kind == "gif":
        save_gif(frames, path, fps, progress=progress)
    elif kind == "png":
        save_png_frames(frames, path, progress=progress)
    else:
        raise ValueError(f"format must be one of {sorted(EXPORT_FORMATS)}, got {kind!r}")


def write_in_process(
    kind: str, frames: Sequence[Scene], path: str | PathLike[str], fps: float, progress: Progress
) -> None:
    """:func:`write_recording` in a separate (spawned) process; ``progress`` called here.

    Rasterising is Python and C work that holds the interpreter lock: in a thread of the
    kernel it would take turns with the frame loop (measured: a third of the frame rate
    lost while PNG frames were written). A process of its own runs on another core and
    only reports. An exception raised by ``progress`` (a cancel) is passed on to the
    child as a message: it stops at its next frame, its atomic writer removing the
    temporary file, and the exception is raised here once it has ended.

    Raises
    ------
    OSError
        The file could not be written (the child's message).
    RuntimeError
        Anything else that failed in the child, or the child died.
    """
    ctx = multiprocessing.get_context("spawn")  # no fork of a kernel with live threads
    here, there = ctx.Pipe()
    child = ctx.Process(
        target=_child, args=(kind, list(frames), str(path), float(fps), there), daemon=True
    )
    child.start()
    there.close()
    try:
        _relay(here, progress)
    except BaseException:
        with contextlib.suppress(OSError):
            here.send("cancel")
        child.join(CHILD_GRACE_S)  # it removes its temporary file, then ends
        raise
    finally:
        if child.is_alive():
            child.terminate()
        child.join()
        here.close()


def _relay(conn: Any, progress: Progress) -> None:
    """The child's messages until it is done: progress here, its errors raised here."""
    while True:
        try:
            msg = conn.recv()  # blocks without the interpreter lock
        except EOFError:
            raise RuntimeError("the export process ended without a word") from None
        if msg[0] == "progress":
            progress(msg[1], msg[2])
        elif msg[0] == "done":
            return
        elif msg[0] == "cancelled":
            raise ExportCancelled
        else:
            _, kind, text = msg
            raise OSError(text) if kind == "OSError" else RuntimeError(f"{kind}: {text}")


def _child(kind: str, frames: list[Scene], path: str, fps: float, conn: Any) -> None:
    """The export process: write, report each frame, stop when told."""
    if hasattr(os, "nice"):
        # background work: where cores are short the kernel's frame loop goes first
        with contextlib.suppress(OSError):
            os.nice(CHILD_NICE)

    def progress(done: int, total: int) -> None:
        if conn.poll() and conn.recv() == "cancel":
            raise ExportCancelled
        conn.send(("progress", done, total))

    try:
        write_recording(kind, frames, path, fps, progress)
        conn.send(("done",))
    except ExportCancelled:
        conn.send(("cancelled",))
    except Exception as exc:  # noqa: BLE001 - reported to the parent, which raises it
        conn.send(
            ("error", "OSError" if isinstance(exc, OSError) else type(exc).__name__, str(exc))
        )
    finally:
        conn.close()


class ExportJob:
    """One export in a daemon thread: its progress, its cancel and how it ended.

    Parameters
    ----------
    write : callable(progress) -> Any
        Does the export, calling ``progress(done, total)`` after each frame (the
        writers above and :func:`~linkage_widget.draw.save_gif` take it as ``progress=``).
    notify : callable(), optional
        Called from the worker thread when the progress moved by at least ``step`` and
        when the job ends; the session passes one that hands over to its event loop
        (``loop.call_soon_threadsafe``), so session state is only assigned there.
    step : float
        Least progress between two notifications (fewer widget messages).

    Attributes
    ----------
    state : str
        ``"idle"``, ``"running"``, ``"done"``, ``"cancelled"`` or ``"failed"``.
    error : BaseException or None
        What a failed job raised.
    seconds : float
        Wall time of the job so far (all of it once ended).
    """

    def __init__(
        self,
        write: Callable[[Progress], Any],
        notify: Callable[[], None] | None = None,
        step: float = 0.01,
    ) -> None:
        self._write = write
        self._notify = notify or (lambda: None)
        self._step = float(step)
        self._cancel = threading.Event()
        self._ended = threading.Event()
        self._thread = threading.Thread(target=self._run, name="linkage-export", daemon=True)
        self._t0 = self._t1 = 0.0
        self._told = 0.0
        self.done_frames = 0
        self.total_frames = 0
        self.state = "idle"
        self.error: BaseException | None = None

    @property
    def progress(self) -> float:
        """Fraction of frames done, ``0 .. 1`` (1 exactly when the job ended well)."""
        if self.state == "done":
            return 1.0
        return self.done_frames / self.total_frames if self.total_frames else 0.0

    @property
    def seconds(self) -> float:
        """Seconds since the start (until the end once ended)."""
        return (self._t1 if self._ended.is_set() else time.perf_counter()) - self._t0

    @property
    def ended(self) -> bool:
        """Whether the job has finished, one way or another."""
        return self._ended.is_set()

    def start(self) -> ExportJob:
        """Start the worker thread; return ``self``."""
        self.state = "running"
        self._t0 = time.perf_counter()
        self._thread.start()
        return self

    def cancel(self) -> None:
        """Stop at the next frame (the file is not written); harmless once ended."""
        self._cancel.set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the job ended or ``timeout`` s passed; return whether it ended."""
        return self._ended.wait(timeout)

    def _progress(self, done: int, total: int) -> None:
        if self._cancel.is_set():
            raise ExportCancelled
        self.done_frames, self.total_frames = done, total
        if self.progress - self._told >= self._step:
            self._told = self.progress
            self._notify()
        # let the frame loop's thread in at once: without it the GIL can stay here for
        # the interpreter's whole switch interval (5 ms), a third of a 60 Hz frame
        time.sleep(0)

    def _run(self) -> None:
        try:
            if self._cancel.is_set():
                raise ExportCancelled
            self._write(self._progress)
            self.state = "done"
        except ExportCancelled:
            self.state = "cancelled"
        except Exception as exc:  # noqa: BLE001 - handed to the session, which shows it
            self.error, self.state = exc, "failed"
        finally:
            self._t1 = time.perf_counter()
            self._ended.set()
            self._notify()
