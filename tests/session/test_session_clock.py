"""The session's policy reads time only through the clock it was given (issue 23).

Frame times, the analysis throttle, the statics cost and the merging of one keystroke
from the two event streams all follow a fake clock that a test moves by hand.
"""

from __future__ import annotations

import time

from linkage_widget.session import LinkageSession
from linkage_widget.session.gestures import KEY_ECHO_S


class FakeClock:
    """Seconds that pass only when the test says so."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def session(clock: FakeClock) -> LinkageSession:
    return LinkageSession.load("four_bar.txt", clock=clock)


def test_frame_times_are_the_clocks() -> None:
    clock = FakeClock()
    s = session(clock)
    for t in (1001.0, 1002.5):
        clock.t = t
        s.fit()  # asks for a draw
        s.advance(1)
        assert s.frame_times[-1] == t


def test_the_analysis_throttle_waits_on_the_clock() -> None:
    clock = FakeClock()
    s = session(clock)
    assert s._analyst.throttled()  # the analysis was stored just now (fake time)
    clock.t += 0.05
    assert s._analyst.throttled()
    clock.t += 10.0  # no time passes on the wall, ten seconds on the session's clock
    assert not s._analyst.throttled()


def test_the_statics_cost_is_measured_with_the_clock() -> None:
    clock = FakeClock()
    s = session(clock)
    s.add_load(2)
    assert s.statics is not None
    assert s._actuation.memo.cost == 0.0  # the fake clock stood still during the solve


def test_one_keystroke_from_two_streams_within_the_echo_time_of_the_clock() -> None:
    clock = FakeClock()
    s = session(clock)
    shown = s.show_info
    s.canvas_input.canvas_key("i", False, False, False)
    s.canvas_input.dom_event({"type": "keydown", "key": "i"})  # the other stream's echo
    assert s.show_info is not shown  # toggled once
    clock.t += 2 * KEY_ECHO_S  # later on the session's clock: a second keystroke
    s.canvas_input.dom_event({"type": "keydown", "key": "i"})
    assert s.show_info is shown


def test_the_live_analysis_and_the_step_budget_read_the_clock() -> None:
    clock = FakeClock()
    s = LinkageSession.load("peaucellier.txt", clock=clock)
    assert s.driver.clock is clock and s._live_analyst.clock is clock
    x, y = (float(c) for c in s.view.to_pixel(s.linkage.vertices[5]))
    s.press(x, y)
    s.drag(x, y - 8)
    s.advance(2)
    assert s.live_analysis is not None
    assert s.live_analysis.cost == 0.0  # the fake clock stood still while it counted
    s.release()


def test_the_default_clock_is_perf_counter() -> None:
    assert LinkageSession().clock is time.perf_counter
