"""io.atomic (issue 22, items 6 and 9): a file and its sibling as one, leftovers of dead
saves, ``~`` and symbolic links.

Failures are real where the machine allows it (a file-size limit, a process that dies);
a rename that fails is injected only where nothing real can make it fail on its own.
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import textwrap
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from linkage_widget.io import atomic_write, atomic_write_pair, atomic_writer
from linkage_widget.io.atomic import STALE_SECONDS, remove_stale

ROOT = Path(__file__).resolve().parents[2]


def _hidden(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


@contextmanager
def _file_size_limit(nbytes: int):
    """A real EFBIG for any write past ``nbytes`` (SIGXFSZ ignored), restored after."""
    old_limit = resource.getrlimit(resource.RLIMIT_FSIZE)
    old_handler = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (nbytes, old_limit[1]))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, old_limit)
        signal.signal(signal.SIGXFSZ, old_handler)


def test_a_pair_whose_sibling_cannot_be_written_leaves_the_old_pair(tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "a.txt.json"
    atomic_write_pair(a, "old\n", b, '{"old": 1}\n')
    with _file_size_limit(1000), pytest.raises(OSError, match=r"cannot save .*a\.txt\.json"):
        atomic_write_pair(a, "new\n", b, "x" * 5000)  # the file fits, the sibling does not
    assert a.read_text() == "old\n" and b.read_text() == '{"old": 1}\n'
    assert _hidden(tmp_path) == []


@pytest.mark.parametrize("failing", ["a.txt", "a.txt.json"])
def test_a_failed_rename_of_either_file_restores_the_old_pair(tmp_path, monkeypatch, failing):
    a, b = tmp_path / "a.txt", tmp_path / "a.txt.json"
    atomic_write_pair(a, "old\n", b, "old json\n")
    real_replace = os.replace

    def replace(src, dst):
        if Path(dst).name == failing and Path(src).name.endswith(".tmp"):
            raise OSError(28, "No space left on device")  # nothing real fails a rename
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(OSError, match=f"cannot save .*{failing}"):
        atomic_write_pair(a, "new\n", b, "new json\n")
    assert a.read_text() == "old\n" and b.read_text() == "old json\n"
    assert _hidden(tmp_path) == []


def test_a_new_pair_that_fails_leaves_nothing(tmp_path, monkeypatch):
    a, b = tmp_path / "n.txt", tmp_path / "n.txt.json"
    real_replace = os.replace

    def replace(src, dst):
        if Path(dst) == b:
            raise OSError(5, "Input/output error")
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(OSError, match="cannot save"):
        atomic_write_pair(a, "new\n", b, "new json\n")
    assert list(tmp_path.iterdir()) == []


def test_no_sibling_data_removes_the_old_sibling_and_a_folder_is_refused(tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "a.txt.json"
    atomic_write_pair(a, "1\n", b, "j\n")
    atomic_write_pair(a, "2\n", b, None)
    assert a.read_text() == "2\n" and not b.exists()
    b.mkdir()
    with pytest.raises(OSError, match="cannot save .*a.txt.json.*Is a directory"):
        atomic_write_pair(a, "3\n", b, "j\n")
    assert a.read_text() == "2\n" and b.is_dir()


_CRASH = """
import os, sys
from pathlib import Path
sys.path.insert(0, {root!r})
from linkage_widget.io import atomic_write_pair
calls, real = [0], os.replace
def replace(src, dst):
    real(src, dst)
    calls[0] += 1
    if calls[0] == {after}:
        os._exit(3)  # killed between two renames
os.replace = replace
atomic_write_pair({a!r}, "new\\n", {b!r}, "new json\\n")
"""


@pytest.mark.parametrize("after", [1, 2])
def test_a_crash_between_the_renames_leaves_a_file_without_a_foreign_sibling(tmp_path, after):
    a, b = tmp_path / "a.txt", tmp_path / "a.txt.json"
    atomic_write_pair(a, "old\n", b, "old json\n")
    script = _CRASH.format(root=str(ROOT), after=after, a=str(a), b=str(b))
    assert subprocess.run([sys.executable, "-c", script], timeout=60).returncode == 3
    # after the 1st rename: the old file alone; after the 2nd: the new file alone
    assert a.read_text() == ("old\n" if after == 1 else "new\n") and not b.exists()
    assert _hidden(tmp_path)  # the dead save's backup (and maybe a temporary) is left...
    atomic_write(tmp_path / "other.txt", "x")  # ...until the next save in that folder
    assert _hidden(tmp_path) == []


def test_a_process_killed_mid_save_leaves_a_temporary_the_next_save_removes(tmp_path):
    big = tmp_path / "big.txt"
    script = textwrap.dedent(f"""
        import os, sys
        sys.path.insert(0, {str(ROOT)!r})
        from linkage_widget.io import atomic_writer
        with atomic_writer({str(big)!r}) as fh:
            fh.write(b"x" * 100_000)
            fh.flush()
            os.kill(os.getpid(), 9)
    """)
    assert subprocess.run([sys.executable, "-c", script], timeout=60).returncode == -9
    left = _hidden(tmp_path)
    assert len(left) == 1 and left[0].startswith(".big.txt.") and left[0].endswith(".tmp")
    atomic_write(big, "saved\n")
    assert _hidden(tmp_path) == [] and big.read_text() == "saved\n"


def test_only_leftovers_of_dead_or_old_saves_are_removed(tmp_path):
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        pid_of = [sys.executable, "-c", "import os; print(os.getpid())"]
        dead = subprocess.run(pid_of, capture_output=True, text=True, check=True).stdout.strip()
        names = {
            f".a.txt.{sleeper.pid}.abcdefgh.tmp": True,  # a save in progress: kept
            f".a.txt.{dead}.abcdefgh.tmp": False,  # its process is gone
            f".b.txt.{dead}.0123abcd.bak": False,  # a dead save's backup
            ".a.txt.zyxwvuts.tmp": True,  # the older writer's, fresh: kept
            ".notes.tmp": True,  # not ours
            ".cache": True,
        }
        for name in names:
            (tmp_path / name).write_text("x")
        old = tmp_path / f".c.txt.{sleeper.pid}.oldoldol.tmp"  # running pid, but hours old
        legacy = tmp_path / ".a.txt.oldoldol.tmp"
        for p in (old, legacy):
            p.write_text("x")
            os.utime(p, (time.time() - 2 * STALE_SECONDS,) * 2)
        removed = remove_stale(tmp_path / "a.txt")
        kept = sorted(n for n, keep in names.items() if keep)
        assert _hidden(tmp_path) == kept
        assert {p.name for p in removed} == {old.name, legacy.name} | {
            n for n, keep in names.items() if not keep
        }
    finally:
        sleeper.kill()
        sleeper.wait()


def test_a_save_over_a_symbolic_link_writes_through_it(tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    (real / "t.txt").write_text("old\n")
    link = tmp_path / "link.txt"
    link.symlink_to(real / "t.txt")
    atomic_write(link, "new\n")
    assert link.is_symlink() and (real / "t.txt").read_text() == "new\n"
    sib = tmp_path / "link.txt.json"
    sib.symlink_to(real / "t.json")  # a dangling link: its target is created
    atomic_write_pair(link, "newer\n", sib, "j\n")
    assert link.is_symlink() and sib.is_symlink()
    assert (real / "t.txt").read_text() == "newer\n" and (real / "t.json").read_text() == "j\n"
    assert _hidden(tmp_path) == [] and _hidden(real) == []


def test_a_tilde_is_the_home_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "home").mkdir()
    assert atomic_write("~/x.txt", "1\n") == Path("~/x.txt")
    with atomic_writer("~/y.bin") as fh:
        fh.write(b"2")
    assert (tmp_path / "home" / "x.txt").read_text() == "1\n"
    assert (tmp_path / "home" / "y.bin").read_bytes() == b"2"
    assert not (tmp_path / "~").exists()
