"""Exports whatever a name holds (issue 22, item 9): control characters and lone surrogates
in joint names and titles give well-formed XML (SVG) and encodable HTML, not a broken file
reported as saved.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from types import SimpleNamespace

import numpy as np
import pytest

from linkage_widget.draw.html_replay import replay_html, write_replay_html
from linkage_widget.draw.primitives import Texts
from linkage_widget.draw.svg import save_svg, scene_to_svg, xml_text
from linkage_widget.session import LinkageSession

BAD = ["a\x01b", "c\ud800d", "e\x1bf\x7fg", "h\ufffei\uffff", "\udfff", "tab\tnew\nline"]
SVG = "{http://www.w3.org/2000/svg}"


def test_xml_text_keeps_what_xml_allows_and_replaces_the_rest():
    allowed = "tab\tnl\ncr\r é ☃ \U0001f600 \ud7ff\ue000\ufffd"
    assert xml_text(allowed) == allowed
    assert [xml_text(s) for s in BAD] == [
        "a\ufffdb",
        "c\ufffdd",
        "e\ufffdf\x7fg",
        "h\ufffdi\ufffd",
        "\ufffd",
        "tab\tnew\nline",
    ]  # fmt: skip  (U+007F is allowed by XML 1.0)


def test_an_svg_of_any_text_parses(tmp_path):
    texts = Texts(tuple(BAD), np.zeros((len(BAD), 2)), color="#000\x01")
    pic = SimpleNamespace(width=100, height=50, background="#fff", items=[texts])
    svg = scene_to_svg(pic)
    root = ET.fromstring(svg.encode("utf-8"))
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert texts == [xml_text(s) for s in BAD]
    save_svg(pic, tmp_path / "t.svg")
    assert ET.parse(tmp_path / "t.svg").getroot().tag == f"{SVG}svg"


def test_the_svg_export_of_named_joints_is_valid_xml(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    s = LinkageSession.load("four_bar.txt")
    s.show_labels = True
    s.joint_names = ("crank\x01", "tip\ud800", "ok", "\x00")
    s.file_name = "named.txt"
    s.key("P", shift=True)
    assert s.error == "" and s._message.startswith("SVG saved")
    root = ET.parse(tmp_path / "exports" / "named.svg").getroot()
    shown = {t.text for t in root.iter(f"{SVG}text")}
    assert {"crank\ufffd", "tip\ufffd", "ok", "\ufffd"} <= shown


@pytest.mark.parametrize("title", ["motion \ud800 here", "bell\x07", "\udc80\x00"])
def test_the_html_replay_takes_any_title(tmp_path, title):
    frames = np.array([[[0.0, 0.0], [1.0, 0.0]], [[0.0, 0.0], [0.0, 1.0]]])
    page = replay_html(frames, rods=[(0, 1)], title=title)
    page.encode("utf-8")
    assert f"<title>{xml_text(title)}</title>" in page
    out = write_replay_html(tmp_path / "r.html", frames, [(0, 1)], title=title)
    assert out.read_text(encoding="utf-8") == page
