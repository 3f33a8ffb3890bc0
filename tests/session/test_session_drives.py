"""Motors, loads, forces, friction and tracks in a headless session: every edit undoable,
saved in the JSON sibling, drawn, and read out."""

import json

import numpy as np
import pytest
from traitlets import TraitError

from linkage_widget import Linkage, LinkageFormatError, static_forces
from linkage_widget.elements import Load, Motor, PathForce, PathFriction
from linkage_widget.io import sibling_path
from linkage_widget.session import Action, LinkageSession
from linkage_widget.session.drives import LOAD_DRAG_PX, tracks_csv


def four_bar(**kwargs):
    return LinkageSession(Linkage.load("four_bar.txt"), **kwargs)  # 0, 1 pinned; crank 0-2


def two_bar():
    # the textbook two-bar: joint 2 held by rods to the supports 0 and 1
    return LinkageSession(Linkage([[0, 0], [0, 2], [2, 1]], rods=[(0, 2), (1, 2)], pinned=[0, 1]))


def click(s, world):
    x, y = s.view.to_pixel(np.asarray(world, dtype=float))
    s.press(x, y)
    s.release(x, y)


def crank_angle(s):
    d = s.linkage.vertices[2] - s.linkage.vertices[0]
    return np.arctan2(d[1], d[0])


# ------------------------------------------------------------------ motors
def test_add_remove_motor_undo_redo():
    s = four_bar()
    assert s.add_motor(0, 2, 2.0) == 0
    assert s.motors == (Motor(0, 2, 2.0),)
    assert s.add_motor(3, 1, -1.0) == 1
    s.remove_motor(0)
    assert s.motors == (Motor(3, 1, -1.0),)
    assert s.undo() and s.motors == (Motor(0, 2, 2.0), Motor(3, 1, -1.0))
    assert s.undo() and s.undo() and s.motors == ()
    assert s.redo() and s.motors == (Motor(0, 2, 2.0),)


@pytest.mark.parametrize(
    "args, match",
    [((0, 3), "no rod 0-3"), ((0, 9), "out of range"), ((0, 2, float("nan")), "motor speed")],
)
def test_bad_motor_raises_and_changes_nothing(args, match):
    s = four_bar()
    with pytest.raises((ValueError, IndexError), match=match):
        s.add_motor(*args)
    assert s.motors == () and not s.history.can_undo


def test_motor_on_a_pinned_pinned_rod_is_refused():
    s = LinkageSession(Linkage([[0, 0], [1, 0], [0, 1]], rods=[(0, 1), (1, 2)], pinned=[0, 1]))
    with pytest.raises(ValueError, match="both ends pinned"):
        s.add_motor(0, 1)
    s.tool = "motor"
    click(s, [0.5, 0.0])
    assert "both ends pinned" in s.error and s.motors == ()


def test_motor_tool_pivots_on_the_pinned_end_else_the_nearer_end():
    s = four_bar(tool="motor")
    P = s.linkage.vertices
    click(s, 0.1 * P[0] + 0.9 * P[2])  # near the tip, but 0 is pinned: 0 is the pivot
    assert s.motors == (Motor(0, 2, 1.0),)
    click(s, 0.8 * P[2] + 0.2 * P[3])  # coupler 2-3, neither pinned: the nearer end, 2
    assert s.motors[-1] == Motor(2, 3, 1.0)
    s.undo()
    click(s, 0.2 * P[2] + 0.8 * P[3])
    assert s.motors[-1] == Motor(3, 2, 1.0)


def test_o_turns_the_crank_kinematically_and_n_reverses():
    s = four_bar()
    s.add_motor(0, 2, 1.0)
    a0 = crank_angle(s)
    s._message = ""
    assert "o starts them" in s._hint()
    s.key("o")
    assert s.running and s.motors_running
    s._message = ""
    assert s._hint().startswith("motors turning: o stops")
    s.advance(5)
    turned = crank_angle(s) - a0
    assert turned > 0  # counter-clockwise
    crank = np.hypot(*(s.linkage.vertices[2] - s.linkage.vertices[0]))
    # each frame the crank tip moves step_size (1.0): 5 steps of 1/crank rad
    assert turned == pytest.approx(5 * s.step_size / crank, rel=1e-9)
    s.key("n")
    assert s.motors == (Motor(0, 2, -1.0),)
    s.advance(5)
    assert crank_angle(s) == pytest.approx(a0, abs=1e-9)
    s.key("o")
    assert not s.motors_running and not s.running


def test_motors_without_a_motor_say_how():
    s = four_bar()
    assert s.toggle_motors() is False
    assert "motor tool" in s._hint()


def test_dynamic_motor_angle_is_speed_times_time():
    s = four_bar(mode="dynamic")
    s.add_motor(0, 2, 3.0)
    a0 = crank_angle(s)
    s.toggle_motors()
    s.advance(30)
    t = s.simulator.time
    assert t == pytest.approx(30 * s.step_size)
    turned = np.unwrap([a0, crank_angle(s)])[1] - a0
    assert turned == pytest.approx(3.0 * t, abs=1e-9)
    assert s.simulator.motor_torques.shape == (1,)


def test_deleting_renumbers_and_drops_drives():
    s = four_bar()
    s.add_motor(3, 1)
    s.add_load(3, (1.0, 2.0))
    s.add_load(2)
    s.selected_vertex = 2
    s.key("d")  # vertex 2 goes: its load too; 3 becomes 2
    assert s.motors == (Motor(2, 1, 1.0),)
    assert s.loads == {2: (1.0, 2.0)}
    s.undo()
    r = s.linkage.find_rod(3, 1)
    s.selected_rod = r
    s.key("d")  # the motor's rod goes: the motor too
    assert s.motors == () and "motor" in s._hint()


# ------------------------------------------------------------------- loads
def test_load_tool_click_drag_and_undo():
    s = two_bar()
    s.tool = "load"
    s.load_size = 2.0
    click(s, [2, 1])
    assert s.loads == {2: (0.0, -2.0)}
    click(s, [2, 1])
    assert s.loads == {}
    x, y = s.view.to_pixel(np.array([2.0, 1.0]))
    s.press(x, y)
    s.drag(x + 30, y)
    s.drag(x + LOAD_DRAG_PX, y - LOAD_DRAG_PX)
    assert s.loads == {}  # aimed, not set yet: shown only
    assert len(s.scene().by_role("loads")) == 1
    s.release(x + LOAD_DRAG_PX, y - LOAD_DRAG_PX)
    fx, fy = s.loads[2]
    assert (fx, fy) == pytest.approx((2.0, 2.0))
    assert s.undo() and s.loads == {}
    assert s.undo() and s.loads == {2: (0.0, -2.0)}


def test_bad_load_raises_and_changes_nothing():
    s = two_bar()
    with pytest.raises(IndexError):
        s.add_load(7)
    with pytest.raises(ValueError, match="load on vertex 2"):
        s.add_load(2, (np.inf, 0.0))
    with pytest.raises(ValueError, match="no load"):
        s.remove_load(2)
    assert s.loads == {} and not s.history.can_undo


def test_statics_of_the_two_bar_and_its_drawing():
    s = two_bar()
    s.add_load(2, (0.0, -1.0))
    report = s.statics
    # hand solution: each rod at slope 1/2, vertical balance 2 T sin(a) = 1, sin(a) = 1/sqrt 5
    np.testing.assert_allclose(report.rod_forces, [-np.sqrt(5) / 2, np.sqrt(5) / 2], atol=1e-9)
    assert report.balanced and report.determinate
    np.testing.assert_allclose(report.reactions.sum(axis=0), [0.0, 1.0], atol=1e-9)
    scene = s.scene()
    rods = scene.by_role("rods")[0]
    assert list(rods.color) == ["#d55e00", "#0072b2"]  # compression, tension (Okabe-Ito)
    assert len(scene.by_role("loads")[0]) == 1 and len(scene.by_role("reactions")[0]) == 2
    s.selected_rod = 1
    assert any("tension 1.118" in line for line in s.drive_lines())
    s.show_forces = False
    assert s.scene().by_role("reactions") == []


def test_an_unbalanced_load_says_so():
    s = four_bar()
    s.add_load(3, (0.0, -1.0))
    assert not s.statics.balanced
    assert any(line.startswith("unbalanced: the load excites a flex") for line in s.drive_lines())
    s.linkage.toggle_pin(2)
    s.refresh()  # 0-2 now joins two pins: a redundant rod
    assert s.statics.balanced and not s.statics.determinate
    assert "indeterminate: least-squares forces, up to 1 self-stress" in s.drive_lines()


# ------------------------------------------------- forces, friction, springs
def test_forces_friction_springs_and_table_friction_reach_the_simulator():
    s = four_bar(mode="dynamic", gravity=100.0)
    s.add_force(2, 1, 5.0)
    s.add_friction(3, 0, 1.0, 0.2, mu_s=0.3)
    s.add_spring(2, 1, 3.0, nonlinear_stiffness=0.5)
    s.table_friction = 0.4
    sim = s.simulator
    assert sim.table_friction == 0.4 and len(sim.frictions) == 1 and len(sim.actuators) == 1
    assert sim.springs[0].nonlinear_stiffness == 0.5
    with pytest.raises(TraitError, match="table_friction"):
        s.table_friction = -1.0
    with pytest.raises(ValueError, match="mu_k"):
        s.add_friction(3, 0, 1.0, -0.2)
    assert len(s.document.drives.frictions) == 1


def test_spring_tool_joins_two_vertices():
    s = four_bar(tool="spring")
    P = s.linkage.vertices.copy()
    click(s, P[2])
    click(s, P[1])
    assert [(sp.i, sp.j) for sp in s.springs] == [(2, 1)]
    assert s.undo() and s.springs == ()


# ------------------------------------------------------------- save, load
def test_save_and_load_round_trip(tmp_path):
    s = four_bar()
    s.add_motor(0, 2, 2.5)
    s.add_load(3, (0.5, -1.0))
    s.add_force(2, 1, 4.0)
    s.add_friction(3, 0, 1.0, 0.2, v_s=0.1, sigma=0.05)
    s.add_spring(2, 1, 3.0, nonlinear_stiffness=0.5)
    s.table_friction = 0.3
    path = s.save(tmp_path / "fb.txt")
    data = json.loads(sibling_path(path).read_text())
    assert data["linkage_widget_extensions"] == 2
    t = LinkageSession.load(path)
    assert t.motors == (Motor(0, 2, 2.5),)
    assert t.loads == {3: (0.5, -1.0)}
    assert t.document.drives.forces == (PathForce(2, 1, 4.0),)
    assert t.document.drives.frictions == (PathFriction(3, 0, 1.0, 0.2, None, 0.1, 0.05),)
    assert t.springs == s.springs and t.table_friction == 0.3
    assert not t.motors_running
    u = four_bar()
    assert u.load_file(path) and u.loads == {3: (0.5, -1.0)}
    assert u.undo() and u.loads == {}


def test_a_bad_sibling_names_the_file_and_keeps_the_linkage(tmp_path):
    s = four_bar()
    path = s.save(tmp_path / "fb.txt")
    sibling_path(path).write_text(
        '{"linkage_widget_extensions": 2, "motors": [{"pivot": 0, "tip": 3}]}'
    )
    s.add_load(2)
    with pytest.raises(LinkageFormatError, match="no rod 0-3"):
        s.load_file(path)
    assert "fb.txt.json" in s.error and "no rod 0-3" in s.error
    assert s.loads == {2: (0.0, -1.0)}


# ------------------------------------------------------------------ tracks
def test_tracks_as_arrays_and_csv(tmp_path):
    s = four_bar(tracked=(3,))
    s.add_motor(0, 2, 1.0)
    s.toggle_motors()
    s.advance(8)
    tracks = s.tracks
    assert set(tracks) == {3} and tracks[3].shape == (9, 2)
    np.testing.assert_array_equal(tracks[3][-1], s.linkage.vertices[3])
    path = s.save_tracks_csv(tmp_path / "t.csv")
    rows = path.read_text().splitlines()
    assert rows[0] == "point,x3,y3" and len(rows) == 10
    table = np.array([[float(x) for x in row.split(",")] for row in rows[1:]])
    np.testing.assert_array_equal(table[:, 1:], tracks[3])  # repr floats: exact
    np.testing.assert_array_equal(table[:, 0], np.arange(9))
    assert tracks_csv({}) == "point\n"


def test_export_tracks_action_writes_into_exports_beside_the_file(tmp_path):
    s = four_bar(file_name=str(tmp_path / "fb.txt"))
    s._apply(Action("export_tracks"))
    assert "track a vertex" in s._hint()
    s.tracked = (2,)
    s.add_motor(0, 2)
    s.toggle_motors()
    s.advance(3)
    s._apply(Action("export_tracks"))
    assert (tmp_path / "exports" / "fb.csv").read_text().startswith("point,x2,y2\n")
    assert "fb.csv" in s._hint()
    motors = s.scene().by_role("motors")
    assert len(motors) == 2 and motors[0].alpha == 1.0


# -------------------------------------------------------------- readouts
def test_dynamic_readout_has_the_selected_joints_velocity_and_acceleration():
    s = four_bar(mode="dynamic", gravity=50.0)
    s.add_motor(0, 2, 2.0)
    s.toggle_motors()
    s.advance(10)
    s.selected_vertex = 3
    sim = s.simulator
    v, a = sim.velocities[3], sim.accelerations[3]
    line = next(line for line in s.drive_lines() if line.startswith("vertex 3"))
    assert f"{v[0]:.4g}" in line and f"{a[1]:.4g}" in line
    assert any(line.startswith("motor torques") for line in s.drive_lines())
    forces, reactions, source = s._actuation.force_view(s._stage())
    assert source == "dynamics"
    np.testing.assert_array_equal(forces, sim.constraint_forces.rods)
    assert [r[0] for r in reactions] == [0, 1]
    s.add_load(3, (0.0, -5.0))  # the load acts in the motion: the simulator has it
    loads = [e for e in s.simulator.actuators if type(e).__name__ == "JointLoad"]
    assert [(e.i, e.fx, e.fy) for e in loads] == [(3, 0.0, -5.0)]


def test_statics_matches_the_function_and_is_cached():
    s = two_bar()
    s.add_load(2, (1.0, -3.0))
    first = s.statics
    assert s.statics is first
    expected = static_forces(s.linkage, {2: (1.0, -3.0)})
    np.testing.assert_allclose(first.rod_forces, expected.rod_forces)
    s.add_load(2, (0.0, -1.0))
    assert s.statics is not first
    assert Load(2, 0.0, -1.0) in s.document.drives.loads


def test_hoekens_crank_turns_round_and_the_coupler_curve_closes():
    s = LinkageSession(Linkage.load("hoeken.txt"), tracked=(4,))  # crank 0-2, 0 and 1 pinned
    crank = np.hypot(*(s.linkage.vertices[2] - s.linkage.vertices[0]))
    frames = 90  # the crank tip moves step_size per frame: 90 frames are one turn
    s.step_size = crank * 2 * np.pi / frames
    s.add_motor(0, 2, 1.0)
    start = s.linkage.vertices.copy()
    s.toggle_motors()
    for _turn in range(2):
        s.advance(frames)
        assert s.status == "moved" and s.running
        np.testing.assert_allclose(s.linkage.vertices, start, atol=1e-7 * crank)
    np.testing.assert_allclose(s.linkage.rod_lengths(), Linkage.load("hoeken.txt").rod_lengths())
    assert len(s.tracks[4]) == 2 * frames + 1  # the start, then a point per frame


def test_slow_statics_are_not_redone_every_frame_of_a_motion(monkeypatch):
    from linkage_widget.session import statics_memo

    monkeypatch.setattr(statics_memo, "STATICS_LIVE_MAX_S", -1.0)  # every solve counts as slow
    s = four_bar()
    s.add_motor(0, 2)
    s.add_load(3, (0.0, -1.0))
    shown = s.statics

    def live():  # what the drawing and the readout show now
        return s._actuation.live_statics(s._stage())

    s.toggle_motors()
    s.advance(3)
    assert live() is shown  # the last forces, not a new solve per frame
    s.toggle_motors()
    assert not s.running
    assert live() is not shown and live() is s.statics


def test_undo_while_the_motors_turn_stops_the_motion():
    s = four_bar()
    s.add_motor(0, 2)
    start = s.linkage.vertices.copy()
    s.toggle_motors()
    s.advance(4)
    assert s.undo()  # the motion so far was one undo step
    np.testing.assert_array_equal(s.linkage.vertices, start)
    assert not s.running and "motors turning" not in s._hint()
    assert s.motors == (Motor(0, 2, 1.0),)


@pytest.mark.parametrize(
    "pins, reference, match",
    [([0, 1], (2, 0), "relative to itself"), ([0, 1, 2, 3], (1, 3), "pinned")],
)
def test_a_motor_the_simulator_would_refuse_is_refused_at_once(pins, reference, match):
    # A motor measured from its own rod, or between two rods whose ends are all pinned,
    # cannot turn: refused when added (nothing changed), not later when the motors start.
    link = Linkage.load("four_bar.txt")
    for v in pins:
        if not link.is_pinned(v):
            link.toggle_pin(v)
    s = LinkageSession(link)
    with pytest.raises(ValueError, match=match):
        s.add_motor(0, 2, reference=reference)
    assert s.motors == () and not s.history.can_undo
