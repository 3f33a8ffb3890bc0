"""The widget keeps the analysis readout live while dragging, above the old 200-joint limit.

No browser: the widget's own ``press``/``drag``/``advance`` (what the frame loop runs),
its readout HTML (``controls.readout``) and the scene it draws (the info panel on the
canvas with ``show_info``).
"""

from __future__ import annotations

import time

import numpy as np

from linkage_widget import Linkage
from linkage_widget.examples.penrose import penrose_tiling
from linkage_widget.widget import LinkageWidget
from linkage_widget.widget.widget import READOUT_S


def grid(k: int) -> Linkage:
    ij = np.arange(k * k).reshape(k, k)
    pts = np.column_stack([np.tile(np.arange(k), k), np.repeat(np.arange(k), k)]) * 1.0
    sq = ij[:-1, :-1].ravel()[::7]
    rods = np.concatenate(
        [
            np.column_stack([ij[:, :-1].ravel(), ij[:, 1:].ravel()]),
            np.column_stack([ij[:-1, :].ravel(), ij[1:, :].ravel()]),
            np.column_stack([sq, sq + k + 1]),
        ]
    )
    return Linkage(pts, rods, pinned=[0, 1])


def drag_and_watch(w: LinkageWidget, v: int, frames: int) -> list[tuple[str, ...]]:
    """Drag ``v`` one step a frame; the info panel lines drawn on each frame."""
    drawn: list[tuple[str, ...]] = []
    show = w._show

    def keep(scene):
        drawn.append(tuple(w.readout()))
        show(scene)

    w._show = keep
    x, y = (float(c) for c in w.view.to_pixel(w.linkage.vertices[v]))
    w.press(x, y)
    for k in range(1, frames + 1):
        w.drag(x + 4.0 * k, y - 3.0 * k)
        w.advance(1)
    return drawn


def test_penrose3t_keeps_its_dof_live_while_dragged():
    w = LinkageWidget(penrose_tiling(3, transformable=True), show_info=True)
    assert w.linkage.n_vertices == 211  # above the old live limit (200 joints)
    lines = drag_and_watch(w, 0, 6)
    live = [ln for ln in lines if any("analysis live: frame" in x for x in ln)]
    assert len(live) >= 3
    for ln in live:
        assert ln[0].startswith("DOF ") and "internal" in ln[0]
    # the readout beside the canvas (issue 15: nothing over the drawing) follows the drag:
    # plain words from the live counts, the live lines as its details
    words = w.readout_words()
    assert words.words[0] == "1 way to move" and words.details == w.readout()
    assert not w._scene_state().info_lines
    # the readout HTML under the canvas follows (it refreshes every READOUT_S while moving)
    time.sleep(READOUT_S + 0.05)
    x, y = (float(c) for c in w.view.to_pixel(w.linkage.vertices[0]))
    w.drag(x + 2.0, y + 2.0)
    w.advance(1)
    html = w.controls.readout.value
    assert "analysis live: frame" in html and "DOF " in html
    assert "analysis off" not in html


def test_a_1000_joint_grid_readout_is_the_drawn_frames():
    w = LinkageWidget(grid(32))
    lines = drag_and_watch(w, w.linkage.n_vertices - 1, 5)
    frames = [
        int(x.split("frame ")[1].split()[0])
        for ln in lines
        for x in ln
        if "analysis live: frame" in x
    ]
    assert len(frames) >= 3
    assert frames == sorted(set(frames))  # a new analysis on each drawn frame
    assert w.live_analysis is not None and w.live_analysis.frame == w._live_analyst.drawn


def test_a_drag_by_canvas_messages_draws_once_a_frame():
    # Issue 27 (the drag at 2 000 constraints): once a drag runs, its mouse moves, as the
    # browser sends them, draw nothing by themselves; the frame after each draws once
    # (draw() stamps frame_times), with its step, live analysis and scene. (The first move
    # selects the joint, and without an event loop a change of selection draws at once.)
    w = LinkageWidget(penrose_tiling(3, transformable=True))
    r = w.canvas.width / w.view.width  # ipycanvas reports backing-store pixels
    x, y = (float(c) for c in w.view.to_pixel(w.linkage.vertices[0]))
    dom = {"button": 0, "boundingRectWidth": w.view.width, "boundingRectHeight": w.view.height}

    def move(k: float) -> None:
        w.feed_canvas_event({"event": "mouse_move", "x": (x + 4 * k) * r, "y": (y - 3 * k) * r})

    move(0)
    w.feed_canvas_event({"event": "mouse_down", "x": x * r, "y": y * r})
    w.feed_dom_event({"type": "mousedown", "relativeX": round(x), "relativeY": round(y), **dom})
    move(1)
    w.advance(1)
    start = w.linkage.vertices[0].copy()
    for k in range(2, 8):
        before = len(w.frame_times)
        move(k)
        assert len(w.frame_times) == before  # the move itself draws nothing
        w.advance(1)
        assert len(w.frame_times) == before + 1
    assert np.linalg.norm(w.linkage.vertices[0] - start) > 0  # the joint followed the drag
