"""``max_step`` (the 2007 ``max-step``) also lowers the kinematic step slider's upper end
and bounds a drag's steps (issue 15)."""

from __future__ import annotations

import numpy as np

from linkage_widget import LinkageWidget
from linkage_widget.session import STEP_SLIDER, LinkageSession
from linkage_widget.session.motion_driver import DRAG_SUBSTEPS


def test_the_slider_range_comes_from_max_step() -> None:
    lo, hi, step, *_ = STEP_SLIDER["kinematic"]
    assert LinkageSession().step_slider_range("kinematic") == (lo, hi, step)  # no bound
    assert LinkageSession(max_step=50.0).step_slider_range("kinematic") == (lo, hi, step)
    assert LinkageSession(max_step=2.0).step_slider_range("kinematic") == (lo, 2.0, step)
    # below the slider's lower end: one value, the bound
    assert LinkageSession(max_step=0.01).step_slider_range("kinematic") == (0.01, 0.01, step)
    # the dynamic time step is not a length: untouched
    assert LinkageSession(max_step=0.01).step_slider_range("dynamic") == STEP_SLIDER["dynamic"][:3]


def test_the_widget_slider_ends_at_max_step_and_follows_it() -> None:
    w = LinkageWidget.load("four_bar.txt", max_step=5.0)
    kin = w.controls.step_sliders["kinematic"]
    assert kin.max == 5.0 and kin.value == 1.0 and w.step_size == 1.0
    w.max_step = 0.5  # lowers the step size set before, and the slider's end with it
    assert w.step_size == 0.5 and kin.max == 0.5 and kin.value == 0.5
    w.max_step = 3.0  # a higher bound widens the slider again; the step size stays
    assert kin.max == 3.0 and w.step_size == 0.5 and kin.value == 0.5
    kin.value = 2.0  # a user's move within the new range reaches the trait
    assert w.step_size == 2.0
    dyn = w.controls.step_sliders["dynamic"]
    assert (dyn.min, dyn.max) == STEP_SLIDER["dynamic"][:2]


def drag_move(**kwargs: float) -> float:
    """How far the Peaucellier's output joint moves in one frame of a long drag (world units)."""
    s = LinkageSession.load("peaucellier.txt", **kwargs)
    out = 5
    start = s.linkage.vertices[out].copy()
    x, y = s.view.to_pixel(start)
    s.press(x, y)
    s.drag(x, y - 300.0)  # far up its line: several sub-steps in one frame
    s.advance(1)
    moved = float(np.hypot(*(s.linkage.vertices[out] - start)))
    s.release()
    return moved


def test_max_step_bounds_every_step_of_a_drag() -> None:
    free = drag_move()
    bounded = drag_move(max_step=0.05)
    assert 0.0 < bounded <= DRAG_SUBSTEPS * 0.05 * 1.01  # at most max_step per sub-step
    assert free > 4 * bounded  # without the bound the same drag goes much farther
