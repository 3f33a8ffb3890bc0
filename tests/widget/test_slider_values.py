"""Sliders keep a value set in code exactly (issue 15: ``w.gravity = 9.81`` became 10.0).

A browser slider can only show ``min + k * step``; it snapped a value between its steps and
sent the snapped value back into the trait. Here the front end is simulated headless: what
the browser sends back is written into ``slider.value`` as a comm message would.
"""

import pytest

from linkage_widget import LinkageWidget
from linkage_widget.session import PARAMETER_RANGES, STEP_SLIDER


@pytest.fixture
def w():
    return LinkageWidget.load("peaucellier.txt")


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("gravity", 9.81),
        ("gravity", 981.0),
        ("mass_distribution", 0.333),
        ("table_friction", 0.123),
    ],
)
def test_a_value_set_in_code_stays_exact(w, name, value):
    slider = w.controls.sliders[name]
    setattr(w, name, value)
    lo, _hi, step = PARAMETER_RANGES[name]
    shown = lo + round((value - lo) / step) * step
    # the kernel sends the nearest step, so the browser has nothing to snap ...
    assert slider.value == pytest.approx(shown, abs=1e-12)
    assert getattr(w, name) == value
    # ... and what it sends back (the same step, maybe off in the last bit) is no move
    slider.value = shown
    slider.value = shown * (1 + 1e-15)
    assert getattr(w, name) == value


def test_gravity_981_is_not_980(w):
    w.gravity = 981.0
    w.controls.sliders["gravity"].value = 980.0  # the browser's snap to the step of 10
    assert w.gravity == 981.0


def test_a_users_move_changes_the_trait_even_back_to_the_shown_step(w):
    slider = w.controls.sliders["gravity"]
    w.gravity = 9.81  # shown as 10
    slider.value = 20.0  # the user moves the slider one step up ...
    assert w.gravity == 20.0
    slider.value = 10.0  # ... and back: a move, although 10 was shown before
    assert w.gravity == 10.0
    w.gravity = 9.81
    slider.value = 0.0
    assert w.gravity == 0.0


def test_a_value_beyond_the_range_widens_it_and_is_shown_exactly(w):
    slider = w.controls.sliders["gravity"]
    w.gravity = 1234.5
    assert slider.max == 1234.5 and slider.value == 1234.5 and w.gravity == 1234.5


def test_the_step_size_keeps_its_value_across_mode_switches(w):
    kinematic = w.controls.sliders["step_size"]
    w.step_size = 0.123
    assert w.step_size == 0.123 and kinematic.value == pytest.approx(0.1)
    w.mode = "dynamic"
    w.advance()  # the frame that updates the controls
    dynamic = w.controls.sliders["step_size"]
    assert dynamic is w.controls.step_sliders["dynamic"] and dynamic is not kinematic
    assert (kinematic.layout.display, dynamic.layout.display) == ("none", None)
    lo, hi, step = STEP_SLIDER["dynamic"][:3]
    assert (dynamic.min, dynamic.max, dynamic.step) == (lo, hi, step)
    assert w.step_size == 1 / 60 and dynamic.value == pytest.approx(0.017, abs=1e-12)
    dynamic.value = 0.017  # the browser's echo of the nearest step
    assert w.step_size == 1 / 60
    # the hidden kinematic slider was sent nothing: no range to clamp, nothing to echo
    assert (kinematic.min, kinematic.max, kinematic.value) == (0.05, 20.0, pytest.approx(0.1))


def test_a_stale_echo_of_the_other_modes_slider_is_no_users_move(w):
    """The flaky browser failure: after a switch to dynamic mode the time step became 0.05.

    A browser that clamps the kinematic step (1.0) into the dynamic range sent 0.05 back;
    that came from a slider whose range changed. Now each mode has its own slider and a
    late value from the hidden one changes nothing.
    """
    kinematic = w.controls.step_sliders["kinematic"]
    w.mode = "dynamic"
    w.advance()
    kinematic.value = 0.05  # a late message from the hidden slider
    assert w.step_size == 1 / 60
    w.controls.sliders["step_size"].value = 0.03  # a real move of the shown slider
    assert w.step_size == 0.03
    w.mode = "kinematic"
    w.advance()
    assert w.step_size == 1.0 and w.controls.sliders["step_size"] is kinematic
    assert kinematic.value == 1.0
