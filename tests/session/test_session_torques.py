"""Torques and force laws in a session (issue 24, item 9): undoable, saved when numbers.

Oracles are closed forms: a constant torque :math:`T` on a crank of length :math:`l`
with a point mass :math:`m` at its tip (no gravity) turns it by
:math:`\\theta - \\theta_0 = T t^2 / (2 m l^2)`; a force law :math:`f = -c\\,\\dot\\ell`
along the pathway of a free block (mass :math:`m`) slows it as
:math:`\\dot\\ell(t) = v_0 e^{-c t/m}`.
"""

import json

import numpy as np
import pytest

from linkage_widget import Linkage
from linkage_widget.elements import PathForce, Torque
from linkage_widget.io import sibling_path
from linkage_widget.session import LinkageSession

L = 2.0


def crank(**kwargs):
    link = Linkage([[0.0, 0.0], [L, 0.0]], rods=[(0, 1)], pinned=[0])
    return LinkageSession(link, mode="dynamic", gravity=0.0, **kwargs)


def tip_mass(s):
    """The joints share the mass (mass_distribution 0); the pinned one's never moves."""
    assert s.mass_distribution == 0.0
    return s.simulator.total_mass / 2


def run(s, frames):
    s.running = True
    s.advance(frames)
    s.running = False
    return s.simulator.time


def angle(s):
    d = s.linkage.vertices[1] - s.linkage.vertices[0]
    return float(np.arctan2(d[1], d[0]))


def test_a_constant_torque_spins_the_crank_up_as_t_squared():
    s = crank(step_size=1e-3)
    assert s.add_torque(0, 1, 0.6) == 0
    t = run(s, 400)
    assert t > 0.1
    # RATTLE integrates a constant torque on a rigid rod's circle to O(h^2)
    assert angle(s) == pytest.approx(0.6 * t**2 / (2 * tip_mass(s) * L**2), rel=1e-5)


def test_a_torque_law_of_time_angle_and_speed_reaches_the_simulator():
    s = crank(step_size=1e-3)
    seen = []

    def law(t, theta, omega):
        seen.append((t, theta, omega))
        return 0.6 if t < 0.2 else 0.0  # a push for 0.2 s, then coasting

    s.add_torque(0, 1, law)
    t = run(s, 800)
    assert t > 0.3 and max(time for time, _, _ in seen) > 0.3
    # after the push: the speed T t1 / (m l^2) stays (no load); the angle follows
    t1, inertia = 0.2, tip_mass(s) * L**2
    want = 0.6 * t1**2 / (2 * inertia) + 0.6 * t1 / inertia * (t - t1)
    # the switch falls inside a step: off by at most one step's impulse, h / t1 = 0.5 %
    assert angle(s) == pytest.approx(want, rel=5e-3)


def test_a_force_law_of_the_pathway_speed_damps_a_free_block():
    link = Linkage([[0.0, 0.0], [1.0, 0.0]], rods=[], pinned=[0])
    s = LinkageSession(link, mode="dynamic", gravity=0.0, step_size=1e-3)
    c = 0.9
    s.add_force(1, 0, lambda length, rate: -c * rate)
    sim, m = s.simulator, s.simulator.total_mass / 2
    sim.set_velocity([[0.0, 0.0], [2.0, 0.0]])
    sim.step(500)
    assert sim.velocities[1, 0] == pytest.approx(2.0 * np.exp(-c * sim.time / m), rel=1e-5)


def test_torques_are_undoable_and_a_bad_one_changes_nothing():
    s = crank()
    s.add_torque(0, 1, 1.0)
    s.add_torque(0, 1, 2.0)
    assert s.document.drives.torques == (Torque(0, 1, 1.0), Torque(0, 1, 2.0))
    assert s.undo() and s.document.drives.torques == (Torque(0, 1, 1.0),)
    assert s.redo() and len(s.document.drives.torques) == 2
    s.remove_torque(0)
    assert s.document.drives.torques == (Torque(0, 1, 2.0),)
    assert s.undo() and len(s.document.drives.torques) == 2
    before = s.document.drives
    with pytest.raises(ValueError, match="torque: rod 1-0 cannot turn relative to itself"):
        s.add_torque(1, 0, 1.0, reference=(0, 1))
    with pytest.raises(IndexError, match="torque: vertex 7 out of range"):
        s.add_torque(0, 7, 1.0)
    with pytest.raises(TypeError, match="torque on 0-1: the law returned 'x', not a number"):
        s.add_torque(0, 1, lambda t, a, w: "x")
    with pytest.raises(ValueError, match="force 0-1: the law returned nan"):
        s.add_force(0, 1, lambda length, rate: float("nan"))
    with pytest.raises(IndexError):
        s.remove_torque(5)
    assert s.document.drives == before


def test_numbers_are_saved_laws_are_not_and_the_session_says_so(tmp_path):
    s = crank()
    s.add_torque(0, 1, 1.25)
    s.add_force(0, 1, 3.0)
    path = s.save(tmp_path / "crank.txt")
    data = json.loads(sibling_path(path).read_text())
    assert data["torques"] == [{"pivot": 0, "tip": 1, "torque": 1.25, "reference": None}]
    t = LinkageSession.load(path)
    assert t.document.drives.torques == (Torque(0, 1, 1.25),)
    assert t.document.drives.forces == (PathForce(0, 1, 3.0),)

    s.add_torque(0, 1, lambda time, a, w: np.cos(time))
    s.add_force(0, 1, lambda length, rate: -rate)
    path = s.save(tmp_path / "laws.txt")
    assert "not saved (a Python function): force 0-1, torque on 0-1" in s._hint()
    t = LinkageSession.load(path)  # the numbers are there, the laws are not
    assert t.document.drives.torques == (Torque(0, 1, 1.25),)
    assert t.document.drives.forces == (PathForce(0, 1, 3.0),)


def test_a_bad_torques_entry_in_a_file_names_it(tmp_path):
    s = crank()
    path = s.save(tmp_path / "c.txt")
    sib = sibling_path(path)
    sib.write_text(
        json.dumps({"linkage_widget_extensions": 2, "torques": [{"pivot": 0, "tip": 1}]})
    )
    with pytest.raises(Exception, match="torque"):
        LinkageSession.load(path)


def test_key_s_says_what_a_save_left_out(tmp_path):
    """The key's handler keeps the save's own message: where, and the laws not written."""
    s = crank()
    s.add_torque(0, 1, lambda time, a, w: np.cos(time))
    s.file_name = str(tmp_path / "keyed.txt")
    s.key("s")
    assert s.error == ""
    hint = s._hint()
    assert hint.startswith(f"saved {tmp_path / 'keyed.txt'}: ")
    assert hint.endswith("; not saved (a Python function): torque on 0-1")
