"""The widget's drive controls through its public surface: tools, buttons, keys, readout, CSV."""

import numpy as np

from linkage_widget import Linkage
from linkage_widget.elements import Motor
from linkage_widget.widget import LinkageWidget


def widget(**kwargs):
    return LinkageWidget(Linkage.load("four_bar.txt"), **kwargs)  # 0, 1 pinned; crank 0-2


def click(w, world):
    """A left click as the browser sends it: ipycanvas down/up and ipyevents down/up."""
    x, y = (float(c) for c in w.view.to_pixel(np.asarray(world, dtype=float)))
    r = w.canvas.width / w.view.width  # ipycanvas reports backing-store pixels
    w.feed_canvas_event({"event": "mouse_move", "x": x * r, "y": y * r})
    dom = {"relativeX": round(x), "relativeY": round(y), "boundingRectWidth": 640,
           "boundingRectHeight": 480}  # fmt: skip
    w.feed_dom_event({"type": "mousedown", "button": 0, **dom})
    w.feed_canvas_event({"event": "mouse_down", "x": x * r, "y": y * r})
    w.feed_canvas_event({"event": "mouse_up", "x": x * r, "y": y * r})
    w.feed_dom_event({"type": "mouseup", "button": 0, **dom})


def key(w, name):
    w.feed_dom_event({"type": "keydown", "key": name, "code": f"Key{name.upper()}"})


def test_the_new_tools_and_controls_exist():
    w = widget()
    assert {"spring", "motor", "load"} <= {value for _, value in w.controls.tools.options}
    assert {"motors", "reverse", "csv"} <= set(w.controls.buttons)
    assert "table_friction" in w.controls.sliders and "show_forces" in w.controls.checks
    w.controls.sliders["table_friction"].value = 0.3
    assert w.table_friction == 0.3
    w.controls.load_size.value = 2.5
    assert w.load_size == 2.5


def test_motor_tool_button_and_keys():
    w = widget()
    w.controls.tools.value = "motor"
    P = w.linkage.vertices.copy()
    click(w, 0.5 * (P[0] + P[2]))
    assert w.motors == (Motor(0, 2, 1.0),)
    w.controls.buttons["motors"].click()
    assert w.motors_running and w.running
    assert w.controls.buttons["motors"].description == "■ ⟳"
    w.advance(3)
    assert not np.allclose(w.linkage.vertices[2], P[2])
    key(w, "n")
    assert w.motors == (Motor(0, 2, -1.0),)
    key(w, "o")
    assert not w.motors_running and w.controls.buttons["motors"].description == "⟳"
    w.controls.buttons["undo"].click()
    assert w.motors == (Motor(0, 2, 1.0),)


def test_load_tool_and_the_force_readout():
    w = LinkageWidget(Linkage([[0, 0], [0, 2], [2, 1]], rods=[(0, 2), (1, 2)], pinned=[0, 1]))
    w.controls.tools.value = "load"
    click(w, [2.0, 1.0])
    assert w.loads == {2: (0.0, -1.0)}
    text = w.controls.readout.value
    assert "statics: rod forces" in text and "tension 1.118" in text
    scene = w.scene()
    assert {"loads", "reactions"} <= set(scene.roles())
    # the key is HTML beside the canvas (issue 15), an entry per arrow drawn
    assert {"load on a joint", "reaction at a pin"} <= {e.label for e in scene.legend}
    w.controls.checks["show_forces"].value = False
    assert "statics" not in w.controls.readout.value


def test_dynamic_readout_shows_the_selected_joints_motion():
    w = widget(mode="dynamic", gravity=50.0)
    w.add_motor(0, 2, 2.0)
    w.toggle_motors()
    w.advance(5)
    w.selected_vertex = 3
    w._controls_changed()
    assert "vertex 3: v = (" in w.controls.readout.value
    assert "motor torques" in w.controls.readout.value


def test_csv_button_offers_a_download(tmp_path):
    w = widget(file_name=str(tmp_path / "fb.txt"), tracked=(3,))
    w.add_motor(0, 2)
    w.toggle_motors()
    w.advance(4)
    w.controls.buttons["csv"].click()
    assert (tmp_path / "exports" / "fb.csv").exists()
    assert "fb.csv" in w.controls.downloads.value and "data:text/csv;base64," in (
        w.controls.downloads.value
    )


def test_the_keys_are_documented():
    assert "<td>o n</td>" in widget().controls.help.value
