"""Frontend messages from another thread are handled on the widget's own thread, in order.

ipykernel 7 may hand a comm's message to a subshell's thread (``widget/one_thread.py``);
here a plain ``threading.Thread`` stands in for that thread and ``asyncio.run`` for the
kernel's main loop. The messages are the ones ipycanvas and ipyevents send.
"""

import asyncio
import threading

from linkage_widget.widget import LinkageWidget
from linkage_widget.widget.one_thread import open_widget_ids, widgets_since


def canvas_message(event, x, y):
    """An ipycanvas ``mouse_*`` comm message at backing-store pixel ``(x, y)``."""
    content = {"event": event, "x": x, "y": y}
    return {"content": {"data": {"method": "custom", "content": content}}, "buffers": []}


def dom_message(kind, x, y, width, height):
    """An ipyevents ``mousedown``/``mouseup`` comm message at CSS pixel ``(x, y)``."""
    content = {
        "type": kind,
        "button": 0,
        "relativeX": x,
        "relativeY": y,
        "boundingRectWidth": width,
        "boundingRectHeight": height,
    }
    return {"content": {"data": {"method": "custom", "content": content}}, "buffers": []}


def test_a_click_from_two_threads_adds_one_joint_on_the_widget_thread():
    async def main():
        w = LinkageWidget.load("peaucellier.txt")
        main_thread = threading.current_thread()
        handled_on = set()
        press = w.canvas_input.on_press

        def on_press(g):
            handled_on.add(threading.current_thread())
            press(g)

        w.canvas_input.on_press = on_press
        k = w.canvas.width / w.view.width  # backing pixels per CSS pixel
        x, y = 40.0, 40.0
        # the two streams of one click, each on the thread the kernel gave it
        other = threading.Thread(
            target=lambda: w.dom_events.comm.handle_msg(
                dom_message("mousedown", x, y, w.view.width, w.view.height)
            )
        )
        other.start()
        other.join()
        assert w.linkage.n_vertices == 6  # queued for the widget's thread, not handled there
        w.canvas.comm.handle_msg(canvas_message("mouse_down", x * k, y * k))
        w.canvas.comm.handle_msg(canvas_message("mouse_up", x * k, y * k))
        await asyncio.sleep(0.05)
        assert handled_on == {main_thread}
        assert w.linkage.n_vertices == 7
        assert abs(w.view.to_pixel(w.linkage.vertices[6]) - [x, y]).max() < 1e-9
        return w

    asyncio.run(main())


def test_every_widget_of_the_view_is_adopted():
    async def main():
        before = open_widget_ids()
        w = LinkageWidget.load("peaucellier.txt")
        made = widgets_since(before)
        assert w in made and w.canvas in made and w.dom_events in made
        assert w.controls.sliders["step_size"] in made
        handed = {id(m) for m in made if m.comm._msg_callback.__name__ == "on_message"}
        assert handed == {id(m) for m in made}

    asyncio.run(main())


def test_without_an_event_loop_messages_are_handled_where_they_arrive():
    w = LinkageWidget.load("peaucellier.txt")
    assert w.message_thread.loop is None
    k = w.canvas.width / w.view.width
    w.canvas.comm.handle_msg(canvas_message("mouse_down", 40 * k, 40 * k))
    assert w.canvas_input.log[-1][1:5] == ("canvas", "down", 40.0, 40.0)
