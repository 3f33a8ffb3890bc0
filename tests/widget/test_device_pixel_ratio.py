"""pixel_ratio follows the browser's devicePixelRatio unless set (issue 22, item 15).

The browser half (the probe's handler runs and reports) is checked in
``tests/browser/test_pixel_ratio_and_drag_start_browser.py``; here the kernel half,
with the messages the frontend sends: ipycanvas' ``key_down`` and ipyevents' ``keydown``.
"""

from __future__ import annotations

import pytest

from linkage_widget.widget import LinkageWidget
from linkage_widget.widget.layout import RATIO_KEY_PREFIX, RATIO_PROBE


def report_canvas(w: LinkageWidget, ratio: object) -> None:
    key = f"{RATIO_KEY_PREFIX}{ratio}"
    w.feed_canvas_event(
        {"event": "key_down", "key": key, "shift_key": False, "ctrl_key": False, "meta_key": False}
    )


def report_dom(w: LinkageWidget, ratio: object) -> None:
    w.feed_dom_event({"type": "keydown", "key": f"{RATIO_KEY_PREFIX}{ratio}"})


@pytest.fixture
def peau() -> LinkageWidget:
    return LinkageWidget.load("peaucellier.txt")


def test_the_widget_carries_the_probe(peau: LinkageWidget) -> None:
    assert RATIO_PROBE in peau.controls.style.value
    assert f"'{RATIO_KEY_PREFIX}'+r" in RATIO_PROBE and "devicePixelRatio" in RATIO_PROBE


@pytest.mark.parametrize("report", [report_canvas, report_dom])
def test_the_reported_ratio_is_drawn_at(peau: LinkageWidget, report) -> None:
    assert peau.pixel_ratio == 2.0 and peau.follow_device_ratio  # until the browser says
    hint = peau._hint()
    report(peau, 1)
    assert peau.pixel_ratio == 1.0 and peau.device_pixel_ratio == 1.0
    assert (peau.canvas.width, peau.canvas.height) == (640, 480)
    report(peau, 1.5)
    assert peau.pixel_ratio == 1.5 and (peau.canvas.width, peau.canvas.height) == (960, 720)
    # a report is no key press: no message, no error, nothing else changed
    assert peau.error == "" and peau._hint() == hint and peau.follow_device_ratio
    assert not peau.history.can_undo and peau.selected_vertex is None


def test_a_ratio_set_later_wins(peau: LinkageWidget) -> None:
    report_dom(peau, 1)
    peau.pixel_ratio = 3.0
    report_dom(peau, 1.25)
    assert peau.pixel_ratio == 3.0 and not peau.follow_device_ratio
    assert peau.device_pixel_ratio == 1.25  # still known
    peau.follow_device_ratio = True
    report_dom(peau, 1.25)
    assert peau.pixel_ratio == 1.25


def test_a_ratio_given_to_the_constructor_wins() -> None:
    w = LinkageWidget.load("peaucellier.txt", pixel_ratio=2.0)
    report_canvas(w, 1)
    assert w.pixel_ratio == 2.0 and not w.follow_device_ratio


def test_ratios_beyond_the_drawn_range_are_clamped_and_nonsense_is_ignored(
    peau: LinkageWidget,
) -> None:
    report_dom(peau, 0.25)  # a page zoomed to 25 %
    assert peau.pixel_ratio == 0.5
    report_dom(peau, 9)
    assert peau.pixel_ratio == 4.0
    for bad in ("nan", "x", "-1", "inf", ""):
        report_dom(peau, bad)
        assert peau.pixel_ratio == 4.0 and peau.error == ""
