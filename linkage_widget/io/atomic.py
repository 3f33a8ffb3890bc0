r"""The one atomic writer: every save and export of the package goes through it.

A temporary file is created beside the target, written, flushed and fsynced,
given the permission bits the target would get as an ordinary new file (the
umask's ``0o666 & ~umask``, or the old file's bits when it is replaced), then
renamed over the target. The old file, if any, is either fully replaced or
untouched; no temporary file is left behind on failure.

Where the file goes
-------------------
``~`` starts a path in the user's home folder (:func:`os.path.expanduser`), and a
symbolic link is written through: the file it points to gets the new contents and
the link stays a link (:func:`os.path.realpath`).

Leftovers of a process that died mid-save
-----------------------------------------
A process killed while writing cannot remove its temporary file. Every temporary
(and every backup of :func:`atomic_write_pair`) is therefore named
``.<file name>.<pid>.<random>.tmp`` (``.bak``), and each save first removes, in the
folder it writes to, those of a process that no longer runs, or older than
:data:`STALE_SECONDS` (a pid may be reused), and the older writer's
``.<file name>.<random>.tmp`` of the file it saves, once older than that too.

A linkage and its JSON sibling
------------------------------
:func:`atomic_write_pair` writes a file and the sibling that must agree with it (a
linkage and its ``.json``: both or neither); see there for the order of the renames
and what a crash between them leaves.

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
import re
import secrets
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from os import PathLike
from pathlib import Path
from typing import BinaryIO

__all__ = [
    "STALE_SECONDS",
    "atomic_write",
    "atomic_write_pair",
    "atomic_writer",
    "real_target",
    "remove_stale",
]

#: A leftover temporary older than this (seconds) is stale even if its pid runs (reused).
STALE_SECONDS = 3600.0

# ".<name>.<pid>.<random>.tmp" / ".bak": this writer's temporaries and backups.
_OURS = re.compile(r"^\..+\.(?P<pid>\d+)\.[a-z0-9_]{8}\.(?:tmp|bak)$")


def real_target(path: str | PathLike[str]) -> Path:
    """The file a save of ``path`` writes: ``~`` expanded, symbolic links followed.

    >>> real_target("~/x.txt") == Path.home().resolve() / "x.txt"
    True
    """
    return Path(os.path.realpath(os.path.expanduser(os.fspath(path))))


def _mode_for(target: Path) -> int:
    try:
        return target.stat().st_mode & 0o777
    except OSError:  # a new file: what open() would give it
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _cannot_save(target: Path, exc: OSError) -> OSError:
    return OSError(exc.errno, f"cannot save {str(target)!r}: {exc.strerror}")


def _running(pid: int) -> bool:
    """Whether process ``pid`` exists (on Windows: assumed, the age decides)."""
    if pid <= 0:
        return False
    if os.name == "nt":  # os.kill(pid, 0) would send CTRL_C_EVENT there
        return True
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError):  # no such process; no pid that large
        return False
    except OSError:  # EPERM: it runs, as another user
        return True
    return True


def _stale(entry: os.DirEntry[str], legacy: str, now: float) -> bool:
    """Whether ``entry`` is a leftover of a save that cannot finish any more."""
    match = _OURS.match(entry.name)
    if match is None and not re.fullmatch(legacy, entry.name):
        return False
    try:
        old = now - entry.stat(follow_symlinks=False).st_mtime > STALE_SECONDS
    except OSError:
        return False
    return old or (match is not None and not _running(int(match["pid"])))


def remove_stale(target: Path) -> list[Path]:
    """Remove the leftovers of dead saves from ``target``'s folder; return what was removed.

    Leftovers are this writer's ``.<name>.<pid>.<random>.tmp``/``.bak`` files whose
    process is gone or that are older than :data:`STALE_SECONDS`, and the older
    writer's ``.<target name>.<random>.tmp`` once older than that.
    """
    folder = target.parent
    legacy = rf"\.{re.escape(target.name)}\.[a-z0-9_]{{8}}\.tmp"
    now, removed = time.time(), []
    try:
        entries = [e for e in os.scandir(folder) if e.name.startswith(".")]
    except OSError:  # no such folder (yet): the save says so
        return removed
    for entry in entries:
        if entry.is_file(follow_symlinks=False) and _stale(entry, legacy, now):
            with contextlib.suppress(OSError):  # another save may have removed it first
                os.unlink(entry.path)
                removed.append(Path(entry.path))
    return removed


def _temporary(target: Path) -> tuple[int, str]:
    """A new temporary file beside ``target``, named for this process (see above)."""
    prefix = f".{target.name}.{os.getpid()}."
    return tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=target.parent)


def _refuse_folder(target: Path) -> None:
    """A folder where the file should go is never renamed away or replaced."""
    if target.is_dir():
        raise IsADirectoryError(21, "Is a directory")


@contextlib.contextmanager
def atomic_writer(path: str | PathLike[str]) -> Iterator[BinaryIO]:
    """Open a binary file handle whose contents replace ``path`` atomically on success.

    ``~`` is expanded and a symbolic link written through (module docstring); the
    stale temporaries of dead saves in the folder are removed first.

    Raises
    ------
    OSError
        Saying ``cannot save '<path>'`` and why (no such folder, permission denied, ...);
        the old file is then untouched.
    """
    target = real_target(path)
    mode = _mode_for(target)
    remove_stale(target)
    try:
        fd, tmp = _temporary(target)
    except OSError as exc:
        raise _cannot_save(Path(path), exc) from exc
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
            raise _cannot_save(Path(path), exc) from exc
        raise


def _payload(data: str | bytes) -> bytes:
    return data.encode("utf-8") if isinstance(data, str) else bytes(data)


def atomic_write(path: str | PathLike[str], data: str | bytes) -> Path:
    r"""Write ``data`` (text is UTF-8 with ``\n`` line ends) to ``path`` atomically.

    Returns
    -------
    pathlib.Path
        The path written.
    """
    payload = _payload(data)
    with atomic_writer(path) as fh:
        fh.write(payload)
    return Path(path)


def _written(target: Path, payload: bytes) -> str:
    """A fsynced temporary beside ``target`` holding ``payload``, with its mode."""
    fd, tmp = _temporary(target)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, _mode_for(target))
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return tmp


def _backup_name(target: Path) -> Path:
    return target.with_name(f".{target.name}.{os.getpid()}.{secrets.token_hex(4)}.bak")


def _keep_copy(target: Path) -> Path:
    """A second name for ``target``'s old contents (a hard link; a copy where none can be)."""
    backup = _backup_name(target)
    try:
        os.link(target, backup)
    except OSError:  # a file system without hard links
        shutil.copy2(target, backup)
    return backup


def _put_back(backup: Path, target: Path) -> None:
    """Restore ``target``'s old contents from ``backup`` (a rename; a copy if that is refused)."""
    try:
        os.replace(backup, target)
    except OSError:
        shutil.copy2(backup, target)
        backup.unlink()


class _Commit:
    """The renames of :func:`atomic_write_pair`, each with its undo once it is done."""

    def __init__(self) -> None:
        self.undo: list[Callable[[], object]] = []
        self.backups: list[Path] = []
        self.at: Path | None = None  # the file being changed, as given: what an error names

    def set_aside(self, target: Path) -> None:
        """Rename an existing ``target`` to a backup (undo: put it back)."""
        if not target.exists():
            return
        backup = _backup_name(target)
        os.replace(target, backup)
        self.backups.append(backup)
        self.undo.append(lambda: _put_back(backup, target))

    def replace(self, tmp: str, target: Path) -> None:
        """Rename ``tmp`` over ``target``, keeping the old one to put back (or remove the new)."""
        backup = _keep_copy(target) if target.exists() else None
        if backup is not None:
            self.backups.append(backup)
        os.replace(tmp, target)
        if backup is None:
            self.undo.append(lambda: target.unlink(missing_ok=True))
        else:
            self.undo.append(lambda: _put_back(backup, target))

    def roll_back(self) -> None:
        for step in reversed(self.undo):
            with contextlib.suppress(OSError):
                step()
        self.forget()

    def forget(self) -> None:
        for backup in self.backups:
            with contextlib.suppress(OSError):
                backup.unlink(missing_ok=True)


def atomic_write_pair(
    path: str | PathLike[str],
    data: str | bytes,
    sibling: str | PathLike[str],
    sibling_data: str | bytes | None,
) -> Path:
    """Write ``path`` and its ``sibling`` (``None``: remove it) as one: both or neither.

    Both new files are first written in full to temporaries (nothing visible changes;
    a failure there, a full disk say, leaves the old pair). Then, in this order:

    1. the old sibling is renamed aside (the old file alone: it loads);
    2. the new file is renamed over the old (the new file alone: it loads);
    3. the new sibling is renamed into place (the new pair).

    A failure in these steps undoes the ones done (the old pair is back; a new file
    that had no old one is removed). A crash between them (the process killed, the
    power gone) leaves, by this order, the file without a sibling (old or new, it
    loads, without its tracked joints, names or springs) but never a file with the
    other's sibling; the temporaries and backups left are removed by the next save in
    that folder (module docstring).

    Raises
    ------
    OSError
        ``cannot save '<file>'``, the file that failed; the old pair is untouched.
    """
    first, second = real_target(path), real_target(sibling)
    todo = [(first, _payload(data), path)]
    if sibling_data is not None:
        todo.append((second, _payload(sibling_data), sibling))
    temps: list[str] = []
    commit = _Commit()
    try:
        for target, payload, name in todo:
            commit.at = Path(name)
            _refuse_folder(target)
            remove_stale(target)
            temps.append(_written(target, payload))
        commit.at = Path(sibling)
        _refuse_folder(second)
        commit.set_aside(second)
        commit.at = Path(path)
        commit.replace(temps[0], first)
        if sibling_data is not None:
            commit.at = Path(sibling)
            commit.replace(temps[1], second)
    except BaseException as exc:
        commit.roll_back()
        for tmp in temps:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        if isinstance(exc, OSError):
            raise _cannot_save(commit.at or Path(path), exc) from exc
        raise
    commit.forget()
    return Path(path)
