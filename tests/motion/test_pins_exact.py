"""Pinned joints stay bitwise at their pins (issue 15: a pin at 0.0 was saved as -2.18e-19).

The steppers solve for every joint; round-off left pins a few ulps off. After every step
the simulator puts them back exactly, in each mode, with and without motors.
"""

import numpy as np
import pytest

from linkage_widget import Linkage, Simulator
from linkage_widget.session import LinkageSession


def peaucellier() -> Linkage:
    return Linkage.load("peaucellier.txt")


def pins_of(link: Linkage) -> tuple[np.ndarray, np.ndarray]:
    idx = np.asarray(link.pinned, dtype=np.int64)
    return idx, link.vertices[idx].copy()


@pytest.mark.parametrize("mode", ["kinematic", "dynamic"])
def test_pins_are_exact_after_many_steps(mode):
    link = peaucellier()
    idx, pins = pins_of(link)
    assert np.all(pins[0] == 0.0)  # the pin at the origin of the report
    sim = Simulator(link, mode=mode, gravity=9.81 if mode == "dynamic" else 0.0)
    sim.step_size = 2.0 if mode == "kinematic" else 1 / 60
    moved = 0.0
    for k in range(300):
        # pull the output joint up and down: the whole mechanism moves
        sim.attract(5, (130.0, 60.0 * np.sin(k / 20.0)))
        before = sim.positions.copy()
        sim.step()
        moved = max(moved, float(np.abs(sim.positions - before).max()))
        assert np.array_equal(sim.positions[idx], pins), (k, sim.positions[idx] - pins)
        assert not sim.velocities[idx].any()
    assert moved > 0.1  # the test moved the mechanism


def test_pins_are_exact_with_a_motor():
    s = LinkageSession.load("four_bar.txt")
    idx, pins = pins_of(s.linkage)
    assert len(idx)
    pivot = int(idx[0])
    rod = next(r for r in s.linkage.rods if pivot in r)
    s.add_motor(pivot, rod[1] if rod[0] == pivot else rod[0])
    s.motors_running = True
    for mode in ("kinematic", "dynamic"):
        s.mode = mode
        s.running = True
        s.advance(120)
        assert np.array_equal(s.linkage.vertices[idx], pins), mode


def test_a_saved_file_shows_the_exact_pin_coordinates(tmp_path):
    s = LinkageSession.load("peaucellier.txt", mode="dynamic", gravity=9.81)
    idx, pins = pins_of(s.linkage)
    s.running = True
    s.advance(200)
    assert not np.allclose(s.linkage.vertices, peaucellier().vertices)  # it fell
    path = s.save(tmp_path / "fallen.txt")
    again = Linkage.load(path)
    assert np.array_equal(again.vertices[idx], pins)
    # the pins' vertex lines read as those of the untouched file (no -2.18e-19)
    fresh = LinkageSession.load("peaucellier.txt").save(tmp_path / "fresh.txt")
    lines, fresh_lines = path.read_text().splitlines(), fresh.read_text().splitlines()
    for i in idx:
        assert lines[1 + i] == fresh_lines[1 + i] and "e-" not in lines[1 + i]
