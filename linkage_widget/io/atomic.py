r"""The one atomic writer: every save and export of the package goes through it.

A temporary file is created beside the target, written, flushed and fsynced,
given the permission bits the target would get as an ordinary new file (the
umask's ``0o666 & ~umask``, or the old file's bits when it is replaced), then
renamed over the target. The old file, if any, is either fully replaced or
untouched; no temporary file is left behind on failure.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> atomic_write(folder / "a.txt", "hello\n").read_text()
'hello\n'
>>> with atomic_writer(folder / "b.bin") as fh:
...     _ = fh.write(b"\x00\x01")
>>> (folder / "b.bin").read_bytes()
b'\x00\x01'
>>> sorted(p.name for p in folder.iterdir())
['a.txt', 'b.bin']
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from os import PathLike
from pathlib import Path
from typing import BinaryIO

__all__ = ["atomic_write", "atomic_writer"]


def _mode_for(target: Path) -> int:
    try:
        return target.stat().st_mode & 0o777
    except OSError:  # a new file: what open() would give it
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _cannot_save(target: Path, exc: OSError) -> OSError:
    return OSError(exc.errno, f"cannot save {str(target)!r}: {exc.strerror}")


@contextlib.contextmanager
def atomic_writer(path: str | PathLike[str]) -> Iterator[BinaryIO]:
    """Open a binary file handle whose contents replace ``path`` atomically on success.

    Raises
    ------
    OSError
        Saying ``cannot save '<path>'`` and why (no such folder, permission denied, ...);
        the old file is then untouched.
    """
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    mode = _mode_for(target)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise _cannot_save(target, exc) from exc
    try:
        with os.fdopen(fd, "wb") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise _cannot_save(target, exc) from exc
        raise


def atomic_write(path: str | PathLike[str], data: str | bytes) -> Path:
    r"""Write ``data`` (text is UTF-8 with ``\n`` line ends) to ``path`` atomically.

    Returns
    -------
    pathlib.Path
        The path written.
    """
    payload = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    with atomic_writer(path) as fh:
        fh.write(payload)
    return Path(path)
