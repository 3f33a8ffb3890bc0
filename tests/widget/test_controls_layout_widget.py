"""The widget's control sets, presentation mode, the tool line, and buttons vs keys.

Every button and toggle of the toolbar must have a key, and every key must be in the help
table: the audit below reads the tables themselves (``controls.BUTTONS``, ``TOGGLES``,
``session/keymap.py``), so a new button without a key fails here.
"""

import html
import re

import pytest

from linkage_widget.session import EventMerger
from linkage_widget.session.keymap import SHIFTED_KEYS, SIMPLE_KEYS, TOGGLE_KEYS
from linkage_widget.widget import LinkageWidget
from linkage_widget.widget.controls import BUTTONS, HELP_HTML, TOGGLES
from linkage_widget.widget.events import connect, make_canvas
from linkage_widget.widget.layout import CONTROL_SETS, PRESENTATION_CLASS, STYLE


def _classes(widget):
    return set(widget._dom_classes)


def _tree(widget):
    for child in getattr(widget, "children", ()):
        yield child
        yield from _tree(child)


@pytest.fixture
def peau():
    return LinkageWidget.load("peaucellier.txt")


def test_full_rows_put_the_readout_right_under_the_canvas(peau):
    rows = list(peau.children)
    assert "linkage-style" in _classes(rows[0])
    assert "linkage-toolbar" in _classes(rows[1])
    assert rows[2] is peau.controls.tool_line
    assert rows[3] is peau.canvas and rows[4] is peau.controls.readout_box
    assert rows[4].children == (peau.controls.readout, peau.controls.numbers)
    assert rows[5] is peau.controls.legend  # the key of the canvas's colours (issue 15)
    assert all("linkage-collapsible" in _classes(r) for r in rows[6:])
    bar = rows[1].children
    assert bar[0] is peau.controls.tools and peau.controls.toggles["presentation"] in bar
    files = {peau.controls.buttons[n] for n in ("svg", "png", "csv", "save", "load")}
    assert files.isdisjoint(bar)  # exports went to the file row: the toolbar is one line


def test_compact_and_none():
    w = LinkageWidget.load("four_bar.txt", controls="compact", width=320, height=240)
    rows = list(w.children)
    assert rows[2:] == [w.controls.tool_line, w.canvas, w.controls.readout_box, w.controls.legend]
    labels = [getattr(b, "description", "") for b in rows[1].children[1:]]
    assert labels == ["↶", "↷", "▶ play", "fit", "⤢"]
    assert w.control_set == "compact"
    bare = LinkageWidget.load("four_bar.txt", controls="none")
    assert [c for c in bare.children if c is not bare.controls.style] == [bare.canvas]
    bare.key("m")  # keys still work without controls
    assert bare.presentation


@pytest.mark.parametrize("bad", ["small", None, 3, "Full"])
def test_a_bad_control_set_names_the_choices(bad):
    with pytest.raises(ValueError, match="controls must be one of full, compact, none"):
        LinkageWidget(controls=bad)
    assert CONTROL_SETS == ("full", "compact", "none")


def test_presentation_sets_the_css_class_and_the_style_is_shipped(peau):
    assert PRESENTATION_CLASS not in _classes(peau)
    peau.key("m")
    assert PRESENTATION_CLASS in _classes(peau)
    assert peau.controls.toggles["presentation"].value is True
    peau.controls.toggles["presentation"].value = False  # the toolbar's toggle, for a tablet
    assert not peau.presentation and PRESENTATION_CLASS not in _classes(peau)
    on = LinkageWidget.load("four_bar.txt", presentation=True)
    assert PRESENTATION_CLASS in _classes(on)
    assert (
        peau.controls.style.value.startswith(STYLE) and peau.controls.style.layout.display == "none"
    )
    assert f".linkage-widget.{PRESENTATION_CLASS}" in STYLE and "position: fixed" in STYLE


def test_tool_line_follows_the_tool_and_the_hint(peau):
    line = peau.controls.tool_line
    assert html.unescape(line.value).startswith("tool: select ([ ] other tool) · click")
    peau.key("]")
    assert html.unescape(line.value).startswith("tool: vertex ([ ] other tool) · click adds")
    peau.controls.show_status(hint="dragging vertex 5: <the mechanism> follows")
    assert "&lt;the mechanism&gt;" in line.value  # escaped


def test_every_button_and_toggle_has_a_key_named_in_its_tooltip():
    by_kind = {}
    for combo, kind in SIMPLE_KEYS.items():
        by_kind.setdefault(kind, combo)
    for key, kind in SHIFTED_KEYS.items():
        by_kind.setdefault(kind, key)
    names = {"home": "Home", "space": "space", "ctrl+z": "ctrl-z", "ctrl+shift+z": "ctrl-shift-z"}
    for name, _label, tip, kind in BUTTONS:
        assert kind in by_kind, f"button {name} ({kind}) has no key"
        shown = names.get(by_kind[kind], by_kind[kind])
        assert f"({shown})" in tip or f"{shown})" in tip, (name, tip)
    toggled = {trait: combo for combo, trait in TOGGLE_KEYS.items()}
    toggled["presentation"] = "m"
    for trait, _label, tip in TOGGLES:
        assert trait in toggled, f"toggle {trait} has no key"
        assert f"({toggled[trait]}" in tip, (trait, tip)


def test_help_lists_every_key():
    cells = " ".join(re.findall(r"<td>(.*?)</td>", HELP_HTML, flags=re.S))
    words = set(re.split(r"[\s,/():]+", cells))
    for combo in [*SIMPLE_KEYS, *TOGGLE_KEYS]:
        if "+" in combo:
            continue  # ctrl-z, ctrl-shift-z: written with a dash
        shown = {"space": "space", "home": "Home", "escape": "Esc"}.get(combo, combo)
        assert shown in words, combo
    assert all(k in words for k in SHIFTED_KEYS)
    assert "ctrl-z" in cells and "ctrl-shift-z" in cells and "two fingers" in cells
    assert "<td>o n</td>" in HELP_HTML and "presentation mode" in HELP_HTML


def test_every_key_reaches_an_action_of_the_widget(peau):
    kinds = set(SIMPLE_KEYS.values()) | set(SHIFTED_KEYS.values()) | {"toggle_trait"}
    assert [k for k in kinds if not callable(peau._actions.get(k))] == []  # the action table
    assert {b for *_, b in BUTTONS} <= kinds


def test_a_hidpi_canvas_reports_css_pixels_to_the_merger():
    """ipycanvas reports backing-store pixels; the merger gets the session's (CSS) pixels."""
    canvas = make_canvas(320, 240, pixel_ratio=2.0)
    assert (canvas.width, canvas.height, canvas.layout.width) == (640, 480, "320px")
    log = []
    merger = EventMerger(
        320,
        240,
        on_press=lambda g: log.append(("press", g.x, g.y)),
        on_release=lambda g, x, y: log.append(("release", x, y)),
        on_pinch=lambda s: log.append(("pinch", s.x, s.y, s.factor)),
    )
    connect(canvas, merger, on_ready=lambda: None)

    def send(event, **kw):
        canvas._handle_frontend_event(None, {"event": event, **kw}, [])

    send("touch_start", touches=[{"x": 200.0, "y": 100.0}])
    send("touch_end", touches=[])
    send("touch_start", touches=[{"x": 100.0, "y": 100.0}, {"x": 140.0, "y": 100.0}])
    send("touch_move", touches=[{"x": 80.0, "y": 100.0}, {"x": 160.0, "y": 100.0}])
    send("touch_end", touches=[])
    assert log == [("press", 100.0, 50.0), ("release", 100.0, 50.0), ("pinch", 60.0, 50.0, 2.0)]
