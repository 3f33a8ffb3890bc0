"""Dynamic mode of a session on a 3-D linkage (issue 16, after the simulator's 3-D RATTLE).

Real sessions on the bundled line-symmetric Bricard octahedron (``bricard_line.txt``: the
face 0, 2, 4 pinned, one internal DOF). Gravity points along -z (the 3-D view's up is
+z); springs, dampers, loads, path forces and path friction act in space; motors and the
table friction are planar and refused or ignored with a message, nothing changed.
"""

from __future__ import annotations

import numpy as np
import pytest

from linkage_widget import Load
from linkage_widget.session import LinkageSession
from linkage_widget.session.space_view import (
    DYNAMIC_IN_SPACE,
    PLANAR_ONLY,
    TABLE_FRICTION_IN_SPACE,
)


def _bricard(**kw):
    return LinkageSession.load("bricard_line.txt", **kw)


def _rod_error(s, lengths):
    return float((np.abs(s.linkage.rod_lengths() - lengths) / lengths).max())


def test_bricard_falls_under_gravity_along_minus_z_keeping_every_rod():
    s = _bricard(gravity=500.0)
    s.mode = "dynamic"
    assert s.mode == "dynamic" and s.error == ""
    assert s._message == f"dynamic mode: {DYNAMIC_IN_SPACE}"
    L0, X0 = s.linkage.rod_lengths(), s.linkage.vertices.copy()
    pinned = s.linkage.pinned
    free = [v for v in range(s.linkage.n_vertices) if not s.linkage.is_pinned(v)]
    V0 = s.simulator.potential_energy()  # g (M e_z).p: the weight along -z
    s.running = True
    s.advance(60)  # one second at 1/60 s
    X = s.linkage.vertices
    assert np.linalg.norm(X - X0, axis=1).max() > 0.1 * L0.max()  # a finite motion
    assert _rod_error(s, L0) < 1e-10
    assert np.array_equal(X[pinned], X0[pinned])
    # from rest the weight's potential turns into kinetic energy (RATTLE: T + V kept to O(h^2))
    T, V = s.simulator.kinetic_energy(), s.simulator.potential_energy()
    assert V < V0 and T > 0.0
    assert abs(T + V - V0) < 0.05 * (V0 - V)
    assert X[free, 2].mean() < X0[free, 2].mean()  # the free joints went down along z
    assert s.error == "" and s.scene().hint.startswith("dynamic")


def test_a_spring_added_with_the_tool_in_space_pulls_the_joints_back():
    s = _bricard()
    X = s.linkage.vertices
    P = s.joint_pixels()[0]
    s.tool = "spring"  # joints 2 (pinned) and 3 (free) share no rod
    s.press(*P[2])
    s.release(*P[2])
    s.press(*P[3])
    s.release(*P[3])
    assert s.error == "" and len(s.springs) == 1
    sp = s.springs[0]
    assert (sp.i, sp.j) == (2, 3)
    assert sp.rest_length == pytest.approx(np.sqrt(((X[2] - X[3]) ** 2).sum()), rel=1e-15)
    # stretch it: a kinematic drag of joint 3 (kinematic mode has no forces)
    s.tool = "select"
    P = s.joint_pixels()[0]
    s.press(*P[3])
    for k in range(1, 8):
        s.drag(P[3][0] + 6.0 * k, P[3][1] + 4.0 * k)
        s.advance(1)
    s.release()
    s.advance(1)
    X1, L0 = s.linkage.vertices.copy(), s.linkage.rod_lengths()
    stretch0 = abs(np.linalg.norm(X1[2] - X1[3]) - sp.rest_length)
    assert stretch0 > 1.0, "the drag did not move joint 3"
    s.mode = "dynamic"  # gravity 0: the spring is the only force, from rest
    assert len(s.simulator.springs) == 1
    s.running = True
    s.advance(30)
    X = s.linkage.vertices
    assert np.abs(X - X1).max() > 1e-3
    # energy conservation from rest: the spring's energy k/2 (d - r)^2 cannot grow
    assert abs(np.linalg.norm(X[2] - X[3]) - sp.rest_length) < stretch0
    assert _rod_error(s, L0) < 1e-10 and s.error == ""


@pytest.mark.parametrize(
    ("call", "what"),
    [
        (lambda s: s.add_motor(1, 3), "motors"),
        (lambda s: s.add_torque(1, 3, 1.0), "torques"),
    ],
)
def test_motors_and_torques_are_refused_in_space(call, what):
    s = _bricard(mode="dynamic")
    before, undo = s.document.snapshot(), s.history.can_undo
    with pytest.raises(ValueError) as err:
        call(s)
    assert str(err.value) == PLANAR_ONLY.format(what=what)
    assert "planar" in str(err.value) and "not implemented yet" not in str(err.value)
    assert s.document.snapshot() == before and s.history.can_undo == undo


def test_loads_and_path_forces_act_in_space():
    """Issue 24, item 6: the session's add_load and add_force take a 3-D linkage."""
    s = _bricard(mode="dynamic")
    s.add_load(1)  # the default load: load_size down, along -z
    assert s.document.drives.loads == (Load(1, 0.0, 0.0, -s.load_size),)
    before = s.document.snapshot()
    with pytest.raises(ValueError, match=r"but the linkage is 3-D: give \(fx, fy, fz\)"):
        s.add_load(3, (0.0, -1.0))
    assert s.document.snapshot() == before
    s.add_force(1, 5, 2.0)
    L0 = s.linkage.rod_lengths()
    s.running = True
    s.advance(10)
    assert s.error == "" and len(s.simulator.actuators) == 2
    assert _rod_error(s, L0) < 1e-10
    assert "<svg" in s.to_svg()  # drawn


def test_table_friction_in_space_is_ignored_with_one_message():
    s = _bricard(gravity=500.0)
    s.table_friction = 0.5  # the slider, before the motion
    s.mode = "dynamic"
    L0, X0 = s.linkage.rod_lengths(), s.linkage.vertices.copy()
    s.running = True
    s.advance(3)
    assert s.error == "" and s._message == TABLE_FRICTION_IN_SPACE
    assert s.simulator.table_friction == 0.0 and s.table_friction == 0.5  # the slider keeps it
    s._message = ""
    s.advance(3)
    assert s._message == ""  # said once per value
    s.table_friction = 1.2  # the slider moved while running: no crash, said again
    s.advance(30)
    assert s.error == "" and s._message == TABLE_FRICTION_IN_SPACE
    assert s.simulator.table_friction == 0.0
    assert np.abs(s.linkage.vertices - X0).max() > 1.0  # it still falls (no joint sticks)
    assert _rod_error(s, L0) < 1e-10


def test_table_friction_still_acts_in_the_plane():
    s = LinkageSession.load("four_bar.txt", gravity=100.0, mode="dynamic")
    s.table_friction = 0.5
    assert s.simulator.table_friction == 0.5
    s.table_friction = 0.8
    assert s.simulator.table_friction == 0.8


def test_path_friction_from_the_session_acts_in_space():
    """A session's add_friction reaches a 3-D simulator: the same fall loses more energy."""

    def fall(friction: bool) -> float:
        s = _bricard(mode="dynamic", gravity=500.0)
        if friction:
            s.add_friction(1, 0, 40.0, 0.5)  # opposite joints share no rod: their distance moves
        assert s.error == ""
        s.running = True
        s.advance(30)
        assert s.error == ""
        sim = s.simulator
        assert len(sim.frictions) == int(friction)
        return sim.kinetic_energy() + sim.potential_energy()

    assert fall(True) < fall(False) - 1e-3 * abs(fall(False))
