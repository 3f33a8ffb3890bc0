"""A motion stopped short of its target says ``blocked: <reason>``, with the simulator's
reason when it has one (a motor at a dead point), not only while its message shows
(issue 15)."""

from __future__ import annotations

import numpy as np

from linkage_widget import Linkage
from linkage_widget.session import LinkageSession


def non_grashof() -> Linkage:
    """Notebook 06's four-bar with a 140 crank: 140 + 200 > 150 + 180, it cannot turn round."""
    crank, coupler, rocker = 140.0, 200.0, 180.0
    o2, o4 = np.zeros(2), np.array([150.0, 0.0])
    pin = crank * np.array([np.cos(np.pi / 3), np.sin(np.pi / 3)])
    r = np.linalg.norm(o4 - pin)
    u = (o4 - pin) / r
    x = (coupler**2 - rocker**2 + r * r) / (2 * r)
    tip = pin + x * u + np.sqrt(coupler**2 - x * x) * np.array([-u[1], u[0]])
    return Linkage([o2, o4, pin, tip], rods=[(0, 2), (2, 3), (3, 1)], pinned=[0, 1])


def run_motor_to_its_dead_point() -> LinkageSession:
    s = LinkageSession(linkage=non_grashof())
    s.fit()
    s.add_motor(0, 2, 2.0)
    s.toggle_motors()
    for _ in range(3000):
        s.advance(1)
        if not s.motors_running:
            break
    return s


def test_a_motor_at_its_dead_point_says_why_after_its_message() -> None:
    s = run_motor_to_its_dead_point()
    assert s.status == "blocked" and not s.motors_running
    reason = s.driver.simulator.blocked_reason
    assert reason and "dead point" in reason
    assert s._hint().startswith("motor blocked: ")  # the stop's own message first
    s.key("Escape")  # any action clears the message; the linkage still sits blocked
    assert s._hint() == f"blocked: {reason}"
    # coupler and rocker in one line: |O4 A| = coupler + rocker or coupler - rocker
    p = s.linkage.vertices
    assert min(abs(np.linalg.norm(p[2] - p[1]) - d) for d in (380.0, 20.0)) < 1.0


def test_a_block_without_a_simulator_reason_keeps_the_session_s_words() -> None:
    link = Linkage([[0, 0], [100, 0], [50, 80]], rods=[(0, 1), (1, 2), (0, 2)], pinned=[0])
    s = LinkageSession(linkage=link)
    s.fit()
    s.selected_vertex = 2
    s.attractor = (500.0, 500.0)
    s.running = True
    s.advance(200)
    assert s.status == "blocked" and s.driver.simulator.blocked_reason is None
    assert s._hint().startswith("blocked: vertex 2 cannot get closer to the attractor")
