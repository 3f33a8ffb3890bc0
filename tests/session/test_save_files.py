"""Saving from a session (issue 22, items 6 and 9): the linkage and its JSON sibling both or
neither, ``~`` in the file box, a save over a symbolic link.
"""

from __future__ import annotations

import resource
import signal
from pathlib import Path

import pytest

from linkage_widget import Linkage
from linkage_widget.session import LinkageSession
from linkage_widget.session.document_file import load_document, save_document


def _named(n: int, width: int) -> LinkageSession:
    s = LinkageSession(Linkage([[float(i), float(i % 2)] for i in range(n)]))
    s.joint_names = tuple(f"j{i}" + "x" * width for i in range(n))
    s.tracked = (1,)
    return s


def test_a_save_that_fails_at_the_sibling_leaves_the_old_pair_loadable(tmp_path):
    path = tmp_path / "a.txt"
    _named(6, 0).save(path)
    new = _named(4, 2000)  # its sibling is far larger than its linkage file
    old_limit = resource.getrlimit(resource.RLIMIT_FSIZE)
    old_handler = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (3000, old_limit[1]))  # a real "file too large"
    try:
        with pytest.raises(OSError, match="cannot save"):
            new.save(path)
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, old_limit)
        signal.signal(signal.SIGXFSZ, old_handler)
    back = LinkageSession.load(path)  # was: "6 names for 4 vertices"
    assert back.linkage.n_vertices == 6 and back.joint_names == tuple(f"j{i}" for i in range(6))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "a.txt.json"]
    new.save(path)  # and once there is room, the new pair
    assert LinkageSession.load(path).joint_names == new.joint_names


def test_a_tilde_in_the_file_box_is_the_home_folder(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(tmp_path)
    s = LinkageSession.load("four_bar.txt")
    s.tracked = (1,)
    s.file_name = "~/mine.txt"
    s.key("s")
    assert s.error == "" and (home / "mine.txt").is_file() and (home / "mine.txt.json").is_file()
    s.key("p")
    s.key("P", shift=True)
    assert s.error == ""
    assert sorted(p.name for p in (home / "exports").iterdir()) == ["mine.png", "mine.svg"]
    s.key("l")
    assert s.error == "" and s.tracked == (1,)
    s.key("L", shift=True)
    assert s.error == "" and s.linkage.n_vertices == 8
    save_document(s, "~/doc.json")
    t = LinkageSession()
    assert load_document(t, "~/doc.json") and t.linkage == s.linkage
    assert (home / "doc.json").is_file()
    assert not (tmp_path / "~").exists()


def test_saving_over_a_symbolic_link_keeps_the_link(tmp_path):
    store = tmp_path / "store"
    store.mkdir()
    s = LinkageSession.load("four_bar.txt")
    s.save(store / "four.txt")
    link = tmp_path / "four.txt"
    link.symlink_to(store / "four.txt")
    s.tracked = (2,)
    assert s.save(link) == link
    assert link.is_symlink() and link.resolve() == (store / "four.txt").resolve()
    assert LinkageSession.load(store / "four.txt").linkage == s.linkage
    # the sibling goes beside the name the file was saved under, as a load looks for it
    assert LinkageSession.load(link).tracked == (2,)
    assert sorted(p.name for p in store.iterdir()) == ["four.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["four.txt", "four.txt.json", "store"]
    assert Path(tmp_path / "four.txt.json").is_file()
