"""Keep the mechanism in view (issue 15): code or a drag that moves it past the canvas edge
brings the view after it; a user's own pan and zoom are never undone."""

from __future__ import annotations

import numpy as np
import pytest

from linkage_widget.draw import ViewTransform
from linkage_widget.session import LinkageSession
from linkage_widget.session.keep_in_view import MARGIN_PX, inside


def in_view(s: LinkageSession, margin: float = MARGIN_PX) -> np.ndarray:
    return inside(s.view, s.linkage.vertices, margin)


def test_code_that_moves_the_linkage_away_brings_the_view_after_it() -> None:
    s = LinkageSession.load("peaucellier.txt")
    s.advance(1)
    scale = s.view.scale
    s.linkage.set_positions(s.linkage.vertices + [3000.0, -2000.0])
    s.refresh()
    assert not in_view(s).any()  # gone, until the next frame is drawn
    s.advance(1)
    assert in_view(s).all()
    assert s.view.scale == scale  # it fits at this zoom: a pan, no zoom


def test_a_linkage_grown_too_big_is_zoomed_out_never_in() -> None:
    s = LinkageSession.load("four_bar.txt")
    s.advance(1)
    scale = s.view.scale
    s.linkage.set_positions(s.linkage.vertices * 10.0)
    s.refresh()
    s.advance(1)
    assert in_view(s).all() and s.view.scale < scale
    s.linkage.set_positions(s.linkage.vertices / 10.0)  # small again: stays in view ...
    s.refresh()
    s.advance(1)
    assert in_view(s).all() and s.view.scale < scale  # ... and no zoom in


def test_the_user_s_pan_and_zoom_are_kept() -> None:
    s = LinkageSession.load("peaucellier.txt")
    s.advance(1)
    # the user drags the background: half the mechanism leaves the canvas on purpose
    x, y = s.view.width - 5.0, s.view.height / 2.0
    s.press(x, y)
    s.drag(x - s.view.width / 2.0, y)
    s.advance(1)
    s.release()
    s.advance(3)
    panned = s.view
    assert not in_view(s, 0.0).all()
    s.wheel(s.view.width / 2.0, s.view.height / 2.0, -300.0)  # and zooms in
    s.advance(3)
    zoomed = s.view
    assert zoomed.scale > panned.scale and not in_view(s, 0.0).all()


def test_joints_the_user_hid_stay_hidden_when_others_move() -> None:
    s = LinkageSession.load("peaucellier.txt")
    s.advance(1)
    p = s.linkage.vertices
    # the user zooms in on the pins and the crank: joints 0, 1 and 2 in view, others not
    s.view = ViewTransform.fit(p[[0, 1, 2]], s.view.width, s.view.height, margin=0.2)
    hidden = ~inside(s.view, p)
    assert hidden.any() and not hidden[[0, 1, 2]].any()
    s.advance(1)
    view = s.view
    moved = p.copy()
    moved[hidden] += [0.0, 50.0]  # only hidden joints move: nothing the user sees left
    s.linkage.set_positions(moved)
    s.refresh()
    s.advance(2)
    assert s.view == view


def test_a_drag_past_the_edge_is_not_fought_and_is_brought_back_after() -> None:
    s = LinkageSession.load("peaucellier.txt")
    s.advance(1)
    out = 5  # the output joint: up its straight line, past the top edge
    x, y = s.view.to_pixel(s.linkage.vertices[out])
    s.press(x, y)
    s.drag(x, y - 60.0)
    s.drag(x, -150.0)  # the pointer leaves the canvas at the top
    view = s.view
    s.advance(20)
    assert s.view == view  # no pan under the hand while it drags
    assert not in_view(s).all()  # the joint followed the pointer past the edge
    s.release(x, -150.0)
    s.advance(2)
    assert in_view(s).all()  # brought back once the drag ended


def test_a_running_motion_is_followed_frame_by_frame() -> None:
    s = LinkageSession.load("four_bar.txt")
    s.advance(1)
    v = next(i for i in range(s.linkage.n_vertices) if not s.linkage.is_pinned(i))
    s.selected_vertex = v
    x0, _, x1, _ = s.view.world_bounds()
    s.attractor = (float(x1 + 3 * (x1 - x0)), float(s.linkage.vertices[v, 1]))
    s.running = True
    worst = 1.0
    for _ in range(200):
        s.advance(1)
        worst = min(worst, float(in_view(s, 0.0).mean()))
        if not s.running:
            break
    assert worst == 1.0  # every joint on the canvas in every frame


@pytest.mark.parametrize("keep", [False])
def test_it_can_be_switched_off(keep: bool) -> None:
    s = LinkageSession.load("peaucellier.txt", keep_in_view=keep)
    s.advance(1)
    view = s.view
    s.linkage.set_positions(s.linkage.vertices + [3000.0, 0.0])
    s.refresh()
    s.advance(1)
    assert s.view == view and not in_view(s).any()
