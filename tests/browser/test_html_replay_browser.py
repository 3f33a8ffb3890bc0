"""The HTML replay opens in Chromium with no kernel and shows the motion (issue 15)."""

import json

import numpy as np
import pytest

from linkage_widget.draw.html_replay import write_replay_html

pytestmark = pytest.mark.browser

RODS = [(0, 1), (1, 2), (2, 0)]


def turning(frames: int) -> np.ndarray:
    a = 2 * np.pi * np.arange(frames) / frames
    rot = np.stack([np.cos(a), -np.sin(a), np.sin(a), np.cos(a)], axis=1).reshape(-1, 2, 2)
    return np.einsum("fij,nj->fni", rot, np.array([[0.0, 0.0], [2.0, 0.0], [0.5, 1.5]]))


def joint_xy(page) -> list[list[float]]:
    return page.eval_on_selector_all(
        "#replay .joint", "els => els.map(e => [+e.getAttribute('cx'), +e.getAttribute('cy')])"
    )


def test_replay_plays_and_seeks_without_a_kernel(browser, tmp_path):
    path = write_replay_html(tmp_path / "r.html", turning(40), RODS, tracked=[2], fps=40)
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(path.as_uri())
    frames = json.loads(page.text_content("#frames"))["frames"]
    seen = set()
    for _ in range(10):  # it plays by itself: the joints visit several frames
        page.wait_for_timeout(100)
        seen.add(json.dumps(joint_xy(page)))
    assert len(seen) >= 3
    assert all(json.loads(s) in frames for s in seen)
    page.click("#play")  # pause, then seek with the slider
    page.eval_on_selector(
        "#frame", "el => { el.value = 17; el.dispatchEvent(new Event('input')); }"
    )
    assert joint_xy(page) == frames[17]
    points = page.get_attribute("#replay .track", "points").split()
    assert len(points) == 18
    assert errors == []
    page.close()
