"""Saving from a session (issue 22, items 6 and 9): the linkage and its JSON sibling both or
neither, ``~`` in the file box, a save over a symbolic link.
"""

from __future__ import annotations

import json
import resource
import signal
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

import numpy as np
import pytest

from linkage_widget import Linkage
from linkage_widget.draw.html_page import linkage_page
from linkage_widget.examples import space
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
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "a.txt.html", "a.txt.json"]
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
    assert sorted(p.name for p in store.iterdir()) == ["four.txt", "four.txt.html"]  # 1st save
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "four.txt",
        "four.txt.html",
        "four.txt.json",
        "store",
    ]
    assert Path(tmp_path / "four.txt.json").is_file()


# ------------------------------------- the web page beside the file (issue 24, 12c)
class _Page(HTMLParser):
    """What a browser would find in the page: title, the data, the download, the picture."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.where, self.title, self.data, self.href, self.download = "", "", "", "", ""
        self.svg = 0
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.where = "data" if a.get("id") == "linkage" else tag
        self.svg += tag == "svg"
        if tag == "a" and a.get("id") == "download":
            self.href, self.download = a["href"], a["download"]

    def handle_data(self, data):
        if self.where == "title":
            self.title += data
        elif self.where == "data":
            self.data += data

    def handle_endtag(self, tag):
        self.where = ""


def test_a_save_writes_the_web_page_beside_the_file_as_2007_wrote_its_js(tmp_path):
    s = LinkageSession.load("peaucellier.txt")
    s.file_name = str(tmp_path / "peau.txt")
    s.key("s")
    assert {"peau.txt", "peau.txt.html"} <= {p.name for p in tmp_path.iterdir()}
    text = (tmp_path / "peau.txt.html").read_text(encoding="utf-8")
    page = _Page(text)
    assert page.title == "peau.txt" and page.svg == 1
    assert s.to_svg().split("<svg", 1)[1] in text  # the picture key P writes, inline
    saved = (tmp_path / "peau.txt").read_text(encoding="utf-8")
    assert page.href.startswith("data:text/plain;charset=utf-8,")
    assert unquote(page.href.split(",", 1)[1]) == saved and page.download == "peau.txt"
    data, back = json.loads(page.data), Linkage.load(tmp_path / "peau.txt")
    assert data["dim"] == 2 and np.allclose(data["vertices"], back.vertices, atol=1e-12)
    assert data["rods"] == back.rods.tolist() and data["pinned"] == back.pinned.tolist()
    assert data["angles"] == back.angles.tolist()
    assert "6 joints, 7 rods, 2 pins" in text


def test_the_page_of_a_3d_linkage_and_names_that_are_markup(tmp_path):
    s = LinkageSession(space.bennett_linkage(ground=True))
    s.save(tmp_path / "b<i>&.txt")
    text = (tmp_path / "b<i>&.txt.html").read_text(encoding="utf-8")
    page = _Page(text)
    assert page.title == "b<i>&.txt" and "<i>" not in text  # escaped, never markup
    data = json.loads(page.data)
    assert data["dim"] == 3 and np.array_equal(data["vertices"], s.linkage.vertices)
    # data holding "</script>" cannot end its element early: the whole of it comes back
    odd = {"note": "</script><script>alert(1)</script>"}
    assert json.loads(_Page(linkage_page("<svg></svg>", "v\n", odd, "x.txt")).data) == odd


def test_no_page_when_turned_off_and_a_folder_in_its_place_writes_nothing(tmp_path):
    s = LinkageSession.load("four_bar.txt", save_page=False)
    s.save(tmp_path / "f.txt")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.txt"]
    s.save_page = True
    before = (tmp_path / "f.txt").read_bytes()
    (tmp_path / "f.txt.html").mkdir()
    s.linkage.move_vertex(2, (5.0, 5.0))
    with pytest.raises(OSError, match="cannot save .*f.txt.html"):
        s.save(tmp_path / "f.txt")
    assert (tmp_path / "f.txt").read_bytes() == before  # refused before anything was written
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.txt", "f.txt.html"]


def test_a_page_that_cannot_be_written_leaves_the_linkage_saved_and_says_so(tmp_path, monkeypatch):
    """The page is written after the pair: its failure is told, the save itself stands."""
    from linkage_widget.session import document as document_module

    def full_disk(path, page):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(document_module, "write_linkage_page", full_disk)
    s = LinkageSession.load("four_bar.txt")
    offered = []
    s._offer_file = lambda path, mime: offered.append(path)  # the view's hook, recorded
    path = s.save(tmp_path / "f.txt")
    assert LinkageSession.load(path).linkage == s.linkage
    assert offered == [path]
    assert s._hint().endswith("; web page not written: [Errno 28] No space left on device")
