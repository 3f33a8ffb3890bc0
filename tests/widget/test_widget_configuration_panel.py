"""The configuration panel in the widget, without a browser: its canvas, toggle and input.

Input goes in as the frontend sends it (``feed_panel_event``: an ipycanvas message of the
panel canvas; ``feed_panel_dom_event``: an ipyevents message); what the canvases send is
recorded through a stand-in comm and decoded, to check that a frame in which only the
linkage moves sends one message that leaves the panel's static layer alone.
"""

import asyncio
import json

import numpy as np
import pytest

from linkage_widget.configuration import SphereChart
from linkage_widget.widget import LinkageWidget
from linkage_widget.widget.configuration_panel import PANEL_CSS_CLASS


class RecordingComm:
    """Stands in for the canvas manager's comm: keeps every message (data, buffers)."""

    kernel = "recording"
    comm_id = "recording-comm"

    def __init__(self):
        self.messages = []

    def send(self, data=None, metadata=None, buffers=None):
        self.messages.append((data, list(buffers or [])))

    def on_msg(self, callback):
        pass

    def close(self, *args, **kwargs):
        pass


@pytest.fixture
def messages():
    from ipycanvas.canvas import _CANVAS_MANAGER

    old = _CANVAS_MANAGER.comm
    _CANVAS_MANAGER.comm = RecordingComm()
    yield lambda: _CANVAS_MANAGER.comm.messages
    _CANVAS_MANAGER.comm = old


def commands(message):
    """The JSON command list of one canvas message (its first buffer)."""
    _, buffers = message
    return json.loads(bytes(buffers[0]).decode())


def canvases_drawn(message):
    """Model ids of the canvases a batched message switches to."""
    text = json.dumps(commands(message))
    return {part[:32] for part in text.split("IPY_MODEL_")[1:]}


@pytest.fixture
def w():
    return LinkageWidget(SphereChart(3.0).linkage(0.3, 0.5), width=500, height=360)


def click_panel(w, x, y, dx=0.0, dy=0.0):
    """A press (both streams), an optional drag and a release, as the browser sends them.

    ``x, y, dx, dy`` in CSS pixels: ipycanvas reports backing-store pixels (``pixel_ratio``
    as many), ipyevents CSS pixels.
    """
    size = w.panel_size
    k = w.panel_view.pixel_ratio

    def at(px, py):
        return {"x": px * k, "y": py * k}

    w.feed_panel_event({"event": "mouse_move", **at(x, y)})
    w.feed_panel_dom_event(
        {
            "type": "mousedown",
            "button": 0,
            "relativeX": round(x),
            "relativeY": round(y),
            "boundingRectWidth": size[0],
            "boundingRectHeight": size[1],
        }
    )
    w.feed_panel_event({"event": "mouse_down", **at(x, y)})
    for j in range(1, 5):
        w.feed_panel_event({"event": "mouse_move", **at(x + j * dx / 4, y + j * dy / 4)})
    w.feed_panel_event({"event": "mouse_up", **at(x + dx, y + dy)})


def test_the_toggle_shows_the_panel_beside_the_canvas(w):
    assert w.canvas in w.children and not w.show_configuration
    toggle = w.controls.toggles["show_configuration"]
    assert toggle.value is False
    toggle.value = True
    assert w.show_configuration
    (row,) = [c for c in w.children if w.canvas in getattr(c, "children", ())]
    assert list(row.children) == [w.canvas, w.panel_view.box]
    assert w.panel_view.box.layout.display is None
    panel = w.panel_view.canvas
    assert PANEL_CSS_CLASS in panel._dom_classes
    # drawn at the widget's pixel ratio (crisp on hi-DPI), shown at the panel's CSS size
    assert w.panel_size == (360, 360) and w.pixel_ratio == 2.0
    assert (panel.width, panel.height) == (720, 720) and panel.layout.width == "360px"
    w.pixel_ratio = 1.0
    assert (panel.width, panel.height) == (360, 360) == w.panel_size
    assert {"mousedown", "mouseup", "keydown"} <= set(w.panel_view.dom_events.watched_events)
    w.show_configuration = False
    assert toggle.value is False and w.canvas in w.children
    assert w.panel_view.box.layout.display == "none"


def test_a_flick_through_frontend_messages_starts_the_geodesic(w):
    w.show_configuration = True
    x, y = w.configuration_point_px
    start = np.array(w.configuration_point)
    click_panel(w, x, y, dx=50.0, dy=20.0)
    assert (w.mode, w.gravity, w.running) == ("dynamic", 0.0, True)
    w.advance(30)
    assert np.linalg.norm(np.array(w.configuration_point) - start) > 0.05
    assert len(w.configuration_trail) >= 30
    assert w.controls.modes.value == "dynamic"  # the controls follow


def test_a_drag_on_the_panel_turns_the_sphere(w):
    w.show_configuration = True
    r0 = w.panel_rotation
    click_panel(w, 30.0, 300.0, dx=60.0, dy=-30.0)
    assert not np.allclose(w.panel_rotation, r0) and not w.running


def test_a_moving_frame_sends_one_message_without_the_static_layer(w, messages):
    w.show_configuration = True
    x, y = w.configuration_point_px
    click_panel(w, x, y, dx=40.0, dy=0.0)
    w.advance(2)
    before = len(messages())
    w.advance(1)
    sent = messages()[before:]
    assert len(sent) == 1  # the linkage and the panel in one batch
    static, dynamic = (layer.model_id for layer in w.panel_view.canvas._canvases)
    drawn = canvases_drawn(sent[0])
    assert dynamic in drawn and static not in drawn and w.canvas.model_id in drawn
    # a turn of the sphere redraws the static layer
    before = len(messages())
    click_panel(w, 30.0, 300.0, dx=40.0, dy=0.0)
    assert any(static in canvases_drawn(m) for m in messages()[before:])


def test_a_linkage_without_chart_shows_the_message_on_the_panel(messages):
    from linkage_widget import Linkage

    w = LinkageWidget(Linkage([[0, 0], [1, 0], [0, 1]], rods=[(0, 1), (1, 2), (2, 0)]))
    w.show_configuration = True
    assert w.configuration_kind == "none"
    texts = json.dumps([commands(m) for m in messages()])
    assert "configuration space" in texts  # the message was drawn, no traceback
    assert w.error == ""


def test_the_choosers_pick_the_angles_of_a_curve():
    w = LinkageWidget.load("four_bar.txt", show_configuration=True)
    a, b = w.panel_view.choosers["a"], w.panel_view.choosers["b"]
    assert w.panel_view.box.children[1].layout.display is None  # shown for a curve
    assert (a.value, b.value) == ("direction of rod 0→2", "direction of rod 1→3")
    assert set(a.options) == set(w.configuration_choices)
    b.value = "angle at 2 (0, 3)"
    assert w.configuration_coordinates == ("direction of rod 0→2", "angle at 2 (0, 3)")
    assert w.configuration_chart.coords[1].label == "angle at 2 (0, 3)"
    b.value = "direction of rod 0→2"  # the same angle twice: refused, shown, nothing changes
    assert "two different" in w.error
    assert w.configuration_chart.coords[1].label == "angle at 2 (0, 3)"


def test_the_sphere_has_no_choosers(w):
    w.show_configuration = True
    assert w.panel_view.box.children[1].layout.display == "none"


def test_with_an_event_loop_the_chart_is_computed_in_a_thread():
    async def run():
        w = LinkageWidget.load("four_bar.txt")
        w.show_configuration = True
        assert w.configuration_kind == "pending"  # the kernel is not blocked meanwhile
        for _ in range(400):
            await asyncio.sleep(0.02)
            if w.configuration_kind != "pending":
                break
        assert w.configuration_kind == "curve"
        assert w.configuration_point is not None
        w.show_configuration = False
        await asyncio.sleep(0.1)  # the frame task draws the last frame and ends

    asyncio.run(run())


def test_the_step_slider_rounding_does_not_slow_the_geodesic(w):
    w.show_configuration = True
    x, y = w.configuration_point_px
    click_panel(w, x, y, dx=40.0, dy=0.0)  # the flick switches to dynamic mode
    slider = w.controls.sliders["step_size"]
    assert w.step_size == pytest.approx(1 / 60) and slider.step == 0.001
    slider.value = 0.017  # what a browser slider sends back: 1/60 snapped to its step
    assert w.step_size == pytest.approx(1 / 60)
    slider.value = 0.03  # a real move of the slider
    assert w.step_size == 0.03


def test_the_panel_draws_at_the_widget_pixel_ratio(w, messages):
    from ipycanvas.canvas import _CMD_LIST

    def panel_scales(message):
        """The scale of every setTransform sent to a panel layer."""
        layers = {layer.model_id for layer in w.panel_view.canvas._canvases}
        scales, current = [], None
        for cmd in commands(message):
            name, args = _CMD_LIST[cmd[0]], cmd[1]
            if name == "switchCanvas":
                current = args[0].removeprefix("IPY_MODEL_")
            elif name == "setTransform" and current in layers:
                scales.append(args[0])
        return scales

    for ratio in (2.0, 1.0):
        w.pixel_ratio = ratio
        w.show_configuration = True
        before = len(messages())
        w.redraw_panel()
        # the clear at 1, then the drawing at the device ratio, on both layers
        assert panel_scales(messages()[before]) == [1.0, ratio, 1.0, ratio]
        w.show_configuration = False
