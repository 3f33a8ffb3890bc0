"""The kinematics plots in the widget, without a browser: the check box, the canvas beside
the linkage's (with the configuration panel or without), and a drawing each frame."""

import asyncio

import numpy as np
import pytest

from linkage_widget import Linkage
from linkage_widget.widget import LinkageWidget
from linkage_widget.widget.kinematic_plots import PLOTS_CSS_CLASS


@pytest.fixture
def w():
    link = Linkage([[0, 0], [1, 0], [3, 2], [4, 0]], rods=[(0, 1), (1, 2), (2, 3)], pinned=[0, 3])
    widget = LinkageWidget(link, width=500, height=360, tracked=(2,))
    widget.add_motor(0, 1, 1.0)
    return widget


def drawn(w, monkeypatch):
    """Count the plot canvas's drawings (ipycanvas draws through ``draw_scene``)."""
    seen = []
    from linkage_widget.widget import kinematic_plots

    real = kinematic_plots.draw_scene
    monkeypatch.setattr(
        kinematic_plots, "draw_scene", lambda c, pic, **kw: (seen.append(pic), real(c, pic, **kw))
    )
    return seen


def row_of(w):
    (row,) = [c for c in w.children if w.canvas in getattr(c, "children", ())]
    return list(row.children)


def test_the_check_box_puts_the_plots_beside_the_canvas(w, monkeypatch):
    seen = drawn(w, monkeypatch)
    assert w.canvas in w.children and not w.show_plots
    assert w.plot_view.box.layout.display == "none"
    w.controls.checks["show_plots"].value = True
    assert w.show_plots and row_of(w) == [w.canvas, w.plot_view.box]
    assert PLOTS_CSS_CLASS in w.plot_view.canvas._dom_classes
    assert seen and {"plot-velocity", "plot-acceleration"} <= {i.role for i in seen[-1].items}
    w.show_configuration = True  # both beside the canvas, the panel first
    assert row_of(w) == [w.canvas, w.panel_view.box, w.plot_view.box]
    w.show_plots = False
    assert row_of(w) == [w.canvas, w.panel_view.box]
    w.show_configuration = False
    assert w.canvas in w.children


def test_each_drawing_moves_the_mark_to_the_crank_angle(w, monkeypatch):
    w.show_plots = True
    seen = drawn(w, monkeypatch)
    w.toggle_motors()
    marks = []
    for _ in range(3):
        w.advance(2)
        w.draw()
        line = [i for i in seen[-1].by_role("plot-now") if hasattr(i, "points")][0]
        frame = seen[-1].by_role("plot-frame")[0].rects[0]
        d = w.linkage.vertices[1] - w.linkage.vertices[0]
        degrees = np.degrees(np.remainder(np.arctan2(d[1], d[0]), 2 * np.pi))
        assert line.points[0, 0, 0] == pytest.approx(frame[0] + frame[2] * degrees / 360)
        marks.append(degrees)
    assert len(set(np.round(marks, 6))) == 3  # the crank turned between the drawings
    assert "joint-velocities" in w.scene().roles()


def test_the_other_check_boxes_are_the_centres_and_the_band(w):
    for name in ("show_centres", "show_band"):
        w.controls.checks[name].value = True
        assert getattr(w, name)


def test_with_an_event_loop_the_plots_come_when_the_thread_is_done(monkeypatch):
    async def run(seen):
        w.show_plots = True  # drawn at once, saying the cycle is being computed
        assert [i.role for i in seen[-1].items] == ["message"]
        threaded = False
        for _ in range(400):
            await asyncio.sleep(0.02)
            threaded |= w.cycle.pending is not None
            if "plot-velocity" in {i.role for i in seen[-1].items}:
                break
        assert threaded and w.cycle.pending is None
        assert "plot-velocity" in {i.role for i in seen[-1].items}  # redrawn when done
        w.show_plots = False
        await asyncio.sleep(0.1)  # the frame task draws the last frame and ends

    link = Linkage([[0, 0], [1, 0], [3, 2], [4, 0]], rods=[(0, 1), (1, 2), (2, 3)], pinned=[0, 3])
    w = LinkageWidget(link, width=500, height=360, tracked=(2,))
    w.add_motor(0, 1, 1.0)
    asyncio.run(run(drawn(w, monkeypatch)))
