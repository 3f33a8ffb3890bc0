"""The standalone HTML replay (issue 15), checked by parsing the page.

The motion is a closed form: a rigid triangle turning about its pinned joint 0, so
every rod keeps its length; in pixels each must be that length times the page's
one scale, in every frame. (Opening the page in Chromium is a later, browser test.)
"""

import json
from html.parser import HTMLParser

import numpy as np
import pytest

from linkage_widget.draw.html_replay import DECIMALS, replay_html, write_replay_html
from linkage_widget.session import LinkageSession
from linkage_widget.session.replay import record_positions, save_replay_html

TRIANGLE = np.array([[0.0, 0.0], [2.0, 0.0], [0.5, 1.5]])
RODS = [(0, 1), (1, 2), (2, 0)]


def turning(frames: int = 24) -> np.ndarray:
    """``(f, 3, 2)``: the triangle rotated by ``2 pi k / f`` about joint 0."""
    a = 2 * np.pi * np.arange(frames) / frames
    rot = np.stack([np.cos(a), -np.sin(a), np.sin(a), np.cos(a)], axis=1).reshape(-1, 2, 2)
    return np.einsum("fij,nj->fni", rot, TRIANGLE)


class Page(HTMLParser):
    """Every element with its attributes, and the text of each script."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.elements: list[tuple[str, dict]] = []
        self.scripts: list[tuple[dict, str]] = []
        self._script: dict | None = None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))
        if tag == "script":
            self._script = dict(attrs)

    handle_startendtag = handle_starttag

    def handle_data(self, data):
        if self._script is not None:
            self.scripts.append((self._script, data))

    def handle_endtag(self, tag):
        if tag == "script":
            self._script = None

    def all(self, tag: str, cls: str | None = None) -> list[dict]:
        return [
            a
            for t, a in self.elements
            if t == tag and (cls is None or cls in a.get("class", "").split())
        ]

    def data(self) -> dict:
        (text,) = [s for a, s in self.scripts if a.get("id") == "frames"]
        return json.loads(text)


def test_page_has_one_element_per_rod_joint_and_track():
    page = Page(replay_html(turning(), RODS, pinned=[0], tracked=[2, 1], title="a <b> & c"))
    assert len(page.all("svg")) == 1
    assert len(page.all("line", "rod")) == 3
    assert len(page.all("circle", "joint")) == 3
    assert [a["class"] for a in page.all("circle", "joint")] == ["joint pinned", "joint", "joint"]
    assert len(page.all("polyline", "track")) == 2
    assert len(page.all("button")) == 1 and page.all("input")[0]["max"] == "23"
    data = page.data()
    assert data["rods"] == [list(r) for r in RODS] and data["tracked"] == [2, 1]
    assert data["fps"] == 30.0 and np.asarray(data["frames"]).shape == (24, 3, 2)


def test_title_is_escaped_and_nothing_is_fetched():
    text = replay_html(turning(), RODS, title="a <b> & c")
    assert "<title>a &lt;b&gt; &amp; c</title>" in text
    page = Page(text)
    assert not any("src" in a or "href" in a for _, a in page.elements)
    (player,) = [s for a, s in page.scripts if not a]
    assert "requestAnimationFrame" in player and 'getElementById("frames")' in player


def test_frames_are_the_motion_at_one_scale_and_inside_the_picture():
    frames = turning()
    page = Page(replay_html(frames, RODS, width=500, height=400))
    px = np.asarray(page.data()["frames"])
    assert np.array_equal(px, np.round(px, DECIMALS))
    world = np.linalg.norm(
        frames[:, [i for i, _ in RODS]] - frames[:, [j for _, j in RODS]], axis=2
    )
    pixel = np.linalg.norm(px[:, [i for i, _ in RODS]] - px[:, [j for _, j in RODS]], axis=2)
    scale = pixel / world
    assert np.ptp(scale) < 4 * 10.0**-DECIMALS  # one similarity for all frames
    assert (px[..., 0] >= 0).all() and (px[..., 0] <= 500).all()
    assert (px[..., 1] >= 0).all() and (px[..., 1] <= 400).all()
    # y up in the world is y down on the page; joint 0 (the pivot) never moves
    assert np.ptp(px[:, 0], axis=0).max() == 0
    up = frames[6, 1, 1] > frames[0, 1, 1]
    assert (px[6, 1, 1] < px[0, 1, 1]) is up


def test_svg_shows_the_first_frame_without_script():
    page = Page(replay_html(turning(), RODS, pinned=[0]))
    p0 = np.asarray(page.data()["frames"][0])
    joints = page.all("circle", "joint")
    assert [[float(a["cx"]), float(a["cy"])] for a in joints] == p0.tolist()
    for a, (i, j) in zip(page.all("line", "rod"), RODS, strict=True):
        got = [float(a[k]) for k in ("x1", "y1", "x2", "y2")]
        assert got == [*p0[i], *p0[j]]


def test_write_replay_html(tmp_path):
    path = write_replay_html(tmp_path / "motion.html", turning(5), RODS, fps=12)
    page = Page(path.read_text(encoding="utf-8"))
    assert page.data()["fps"] == 12.0 and len(page.data()["frames"]) == 5


@pytest.mark.parametrize(
    ("frames", "rods", "kwargs", "message"),
    [
        (np.zeros((0, 3, 2)), RODS, {}, r"shape \(f, n, 2\)"),
        (np.zeros((3, 2)), RODS, {}, r"shape \(f, n, 2\)"),
        (np.where(np.arange(24)[:, None, None] == 7, np.nan, turning()), RODS, {}, "frame 7"),
        (turning(), [(0, 3)], {}, "rods: a vertex index is out of range"),
        (turning(), RODS, {"tracked": [5]}, "tracked: a vertex index"),
        (turning(), RODS, {"fps": 0}, "fps"),
    ],
)
def test_bad_input_says_what(frames, rods, kwargs, message):
    with pytest.raises(ValueError, match=message):
        replay_html(frames, rods, **kwargs)


def test_session_motion_saved_as_a_replay(tmp_path):
    s = LinkageSession.load("four_bar.txt", gravity=9.81, mode="dynamic")
    s.tracked = (2,)
    s.running = True
    positions = record_positions(s, 30)
    assert positions.shape == (31, 4, 2) and np.ptp(positions[:, 2], axis=0).max() > 0.01
    rods = s.linkage.rods
    lengths = np.linalg.norm(positions[:, rods[:, 0]] - positions[:, rods[:, 1]], axis=2)
    assert np.ptp(lengths, axis=0).max() < 1e-6  # the recorded frames are placements
    page = Page(save_replay_html(s, tmp_path / "four_bar.html", positions).read_text("utf-8"))
    data = page.data()
    assert len(data["frames"]) == 31 and data["tracked"] == [2]
    assert len(page.all("circle", "pinned")) == len(s.linkage.pinned)
    with pytest.raises(ValueError, match="frames must be"):
        record_positions(s, 0)
