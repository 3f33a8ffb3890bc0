"""The merger of the ipycanvas and ipyevents event streams (no widgets involved)."""

import pytest

from linkage_widget.session.gestures import DRAG_THRESHOLD, EventMerger, Key


class Clock:
    def __init__(self):
        self.t = 100.0

    def __call__(self):
        return self.t


@pytest.fixture
def rec():
    log = []
    clock = Clock()
    m = EventMerger(
        400,
        300,
        on_press=lambda g: log.append(("press", g.x, g.y, g.button, g.action)),
        on_drag=lambda g, dx, dy: log.append(("drag", g.last_x, g.last_y, dx, dy)),
        on_release=lambda g, x, y: log.append(("release", g.dragged)),
        on_wheel=lambda x, y, d: log.append(("wheel", x, y, d)),
        on_key=lambda k: log.append(("key", k.combo)),
        clock=clock,
    )
    return m, log, clock


def dom(x, y, type="mousedown", css_scale=2.0, **kw):
    """An ipyevents mouse event on a canvas shown at css_scale x its pixel size."""
    return {
        "type": type,
        "relativeX": round(x * css_scale),
        "relativeY": round(y * css_scale),
        "boundingRectWidth": 400 * css_scale,
        "boundingRectHeight": 300 * css_scale,
        **kw,
    }


@pytest.mark.parametrize("canvas_first", [True, False])
def test_click_either_order_uses_exact_position(rec, canvas_first):
    m, log, _ = rec
    x, y = 123.37, 45.81
    m.canvas_move(x - 30, y)  # pointer was elsewhere before: no help from the last move
    if canvas_first:
        m.canvas_down(x, y)
        m.dom_event(dom(x, y, button=0))
        m.canvas_up(x, y)
        m.dom_event(dom(x, y, "mouseup", button=0))
    else:
        m.dom_event(dom(x, y, button=0))
        m.canvas_down(x, y)
        m.dom_event(dom(x, y, "mouseup", button=0))
        m.canvas_up(x, y)
    assert log[0][0] == "press"
    if canvas_first:
        assert log[0][1:3] == (x, y)
    else:  # pressed with the rounded estimate; release sees the refined one
        assert abs(log[0][1] - x) <= 0.5 and abs(log[0][2] - y) <= 0.5
    assert log[1:] == [("release", False)]
    assert m.gesture is None


def test_press_position_from_last_move(rec):
    m, log, _ = rec
    m.canvas_move(10.26, 20.74)
    m.dom_event(dom(10.26, 20.74, button=0))
    assert log[0][1:3] == (10.26, 20.74)


def test_far_estimate_is_not_snapped(rec):
    m, log, _ = rec
    m.canvas_move(300.0, 200.0)
    m.dom_event(dom(10, 20, button=0, css_scale=1.0))
    assert log[0][1:3] == (10.0, 20.0)


@pytest.mark.parametrize(
    "kw, action",
    [
        ({"button": 0}, "primary"),
        ({"button": 1}, "link"),
        ({"button": 0, "altKey": True}, "link"),
        ({"button": 2}, "attract"),
        ({"button": 0, "ctrlKey": True}, "attract"),
    ],
)
def test_buttons_and_modifiers(rec, kw, action):
    m, log, _ = rec
    m.dom_event(dom(50, 50, **kw))
    assert log[0][-1] == action


def test_drag_threshold_and_deltas(rec):
    m, log, _ = rec
    m.canvas_move(100, 100)
    m.dom_event(dom(100, 100, button=0))
    m.canvas_move(100 + DRAG_THRESHOLD * 0.5, 100)  # a shaky click, not a drag
    assert [e[0] for e in log] == ["press"]
    m.canvas_move(110, 100)
    m.canvas_move(115, 104)
    m.dom_event(dom(115, 104, "mouseup", button=0))
    m.canvas_up(115, 104)  # the echo finds no gesture
    assert log[1] == ("drag", 110, 100, 10, 0)
    assert log[2] == ("drag", 115, 104, 5, 4)
    assert log[3:] == [("release", True)]


def test_mouse_out_ends_the_gesture(rec):
    m, log, _ = rec
    m.dom_event(dom(100, 100, button=0))
    m.canvas_move(150, 100)
    m.canvas_out(400, 100)
    assert log[-1] == ("release", True) and m.gesture is None


def test_second_button_during_gesture_ignored(rec):
    m, log, _ = rec
    m.dom_event(dom(100, 100, button=0))
    m.dom_event(dom(100, 100, button=2))
    assert [e[0] for e in log] == ["press"]


def test_key_echo_dropped_but_repeats_kept(rec):
    m, log, clock = rec
    m.dom_event({"type": "keydown", "key": "f"})
    m.canvas_key("f", False, False, False)  # same keystroke via ipycanvas
    clock.t += 1.0
    m.canvas_key("f", False, False, False)  # a new press, seen only by ipycanvas
    m.canvas_key("Shift", True, False, False)  # modifiers alone are no keys
    m.dom_event({"type": "keydown", "key": "Z", "ctrlKey": True, "shiftKey": True})
    assert log == [("key", "f"), ("key", "f"), ("key", "ctrl+shift+z")]


def test_key_combo_names():
    assert Key(" ").combo == "space"
    assert Key("Z", shift=True).combo == "z"
    assert Key("z", meta=True).combo == "ctrl+z"
    assert Key("Delete").combo == "delete"


def test_wheel_position_and_delta_modes(rec):
    m, log, _ = rec
    m.canvas_move(200.3, 150.2)
    m.dom_event(dom(200.3, 150.2, "wheel", deltaY=3, deltaMode=1))
    assert log == [("wheel", 200.3, 150.2, 48.0)]


def test_touch_is_a_left_press(rec):
    m, log, _ = rec
    m.touch_start([(10.0, 10.0)])
    m.touch_move([(30.0, 10.0)])
    m.canvas_up(30.0, 10.0)  # stray mouse event: ignored during a touch gesture
    m.touch_end([])
    assert log == [
        ("press", 10.0, 10.0, 0, "primary"),
        ("drag", 30.0, 10.0, 20.0, 0.0),
        ("release", True),
    ]


def test_release_position_stands_in_for_a_late_last_move(rec):
    m, log, _ = rec
    m.canvas_move(20, 20)
    m.dom_event(dom(20, 20, button=0))
    m.canvas_move(30, 20)
    m.dom_event(dom(40, 20, "mouseup", button=0))  # overtook the move to (40, 20)
    m.canvas_move(40, 20)  # late: no gesture any more
    assert log[1:] == [("drag", 30, 20, 10, 0), ("drag", 40.0, 20.0, 10.0, 0.0), ("release", True)]
