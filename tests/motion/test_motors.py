"""Motors (issue 12): exact rheonomic angle rows in both modes, torques, dead points."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from linkage_widget import Linkage
from linkage_widget.motion import Simulator

TURNS = 5


def rod_angle(positions: np.ndarray, pivot: int, tip: int) -> float:
    d = positions[tip] - positions[pivot]
    return float(np.arctan2(d[1], d[0]))


def drive_turns(sim: Simulator, pivot: int, tip: int, steps_per_turn: int, watch: int):
    """Run TURNS turns; return the unwrapped angle history, times and the watched joint."""
    angles, times, track = [rod_angle(sim.positions, pivot, tip)], [sim.time], []
    start = sim.positions[watch].copy()
    worst = 0.0
    for _ in range(TURNS):
        for _ in range(steps_per_turn):
            sim.step()
            assert sim.status == "moved", sim.blocked_reason
            angles.append(rod_angle(sim.positions, pivot, tip))
            times.append(sim.time)
            worst = max(worst, sim.constraint_error())
        track.append(np.linalg.norm(sim.positions[watch] - start))
    return np.unwrap(angles), np.array(times), np.array(track), worst


CASES = [
    ("four_bar.txt", 0, 2, 3),  # crank 0->2 of a crank-rocker, coupler joint 3
    ("hoeken.txt", 0, 2, 4),  # Hoekens' crank 0->2, the coupler point 4
]


@pytest.mark.parametrize(("name", "pivot", "tip", "watch"), CASES)
def test_a_kinematic_motor_turns_the_crank_exactly(name, pivot, tip, watch):
    link = Linkage.load(name)
    steps = 90
    sim = Simulator(link, step_size=0.5)  # kinematic: time advances by step_size
    speed = 2 * np.pi / (steps * 0.5)  # one turn per 90 steps
    sim.add_motor(pivot, tip, speed)
    angles, times, track, worst = drive_turns(sim, pivot, tip, steps, watch)
    assert np.max(np.abs(angles - angles[0] - speed * times)) <= 1e-10
    assert worst <= 1e-10
    scale = np.ptp(link.vertices, axis=0).max()
    assert np.all(track <= 1e-9 * scale)  # the coupler curve closes after every turn
    assert sim.motor_angles[0] == pytest.approx(angles[-1], abs=1e-10)


@pytest.mark.parametrize(("name", "pivot", "tip", "watch"), CASES)
def test_a_dynamic_motor_holds_its_angle_under_gravity(name, pivot, tip, watch):
    link = Linkage.load(name)
    steps, h = 120, 1.0 / 120.0
    sim = Simulator(link, mode="dynamic", step_size=h, gravity=500.0, mass_distribution=0.5)
    sim.add_motor(pivot, tip, -2 * np.pi)  # one turn a second, clockwise
    angles, times, track, worst = drive_turns(sim, pivot, tip, steps, watch)
    assert np.max(np.abs(angles - angles[0] + 2 * np.pi * times)) <= 1e-10
    assert worst <= 1e-10
    scale = np.ptp(link.vertices, axis=0).max()
    assert np.all(track <= 1e-8 * scale)
    # the velocities obey the motor too: the crank tip turns at the motor's speed
    d = sim.positions[tip] - sim.positions[pivot]
    rate = (d[0] * sim.velocities[tip, 1] - d[1] * sim.velocities[tip, 0]) / (d @ d)
    assert rate == pytest.approx(-2 * np.pi, rel=1e-9)


@pytest.mark.parametrize("mode", ["kinematic", "dynamic"])
def test_motor_torque_is_m_g_l_cos_theta_for_a_point_mass_on_a_crank(mode):
    # Tip mass m on a crank of length l turning at constant speed: the acceleration
    # -w^2 l e is along the rod, so the tangential balance tau / l - m g cos(theta) =
    # m l theta'' = 0 gives tau = m g l cos(theta), with no inertia term. Kinematic
    # mode gives the quasi-static torque, the same.
    m, g, ell, w = 1.0, 9.81, 2.0, 0.7
    crank = Linkage([[0, 0], [ell, 0]], rods=[(0, 1)], pinned=[0])
    sim = Simulator(crank, mode=mode, step_size=0.01, gravity=g, total_mass=2 * m)
    sim.add_motor(0, 1, w)
    for _ in range(400):
        sim.step()
        theta = sim.motor_angles[0]
        assert sim.motor_torques[0] == pytest.approx(m * g * ell * np.cos(theta), abs=1e-9)
    if mode == "dynamic":  # the rod carries the centripetal force as compression
        theta = sim.motor_angles[0]
        tension = sim.constraint_forces.rods[0]
        assert tension == pytest.approx(m * w**2 * ell - m * g * np.sin(theta), abs=1e-8)


@pytest.mark.parametrize("mode", ["kinematic", "dynamic"])
def test_a_rocker_driven_into_its_dead_point_is_blocked_and_says_why(mode):
    sim = Simulator(Linkage.load("four_bar.txt"), mode=mode, step_size=0.01)
    sim.add_motor(1, 3, 1.0)  # the rocker of the crank-rocker cannot turn round
    for _ in range(1000):
        sim.step()
        if sim.status == "blocked":
            break
    assert sim.status == "blocked"
    assert "dead point" in sim.blocked_reason and "1->3" in sim.blocked_reason
    frozen, time = sim.positions.copy(), sim.time
    sim.step(10)
    assert np.array_equal(sim.positions, frozen) and sim.time == time
    assert sim.constraint_error() <= 1e-10
    # the motor's angle is still exactly speed * t where it stopped
    assert sim.motor_angles[0] - sim.motors[0].phase == pytest.approx(time, abs=1e-10)
    sim.remove_motor(0)
    assert sim.blocked_reason is not None  # it describes the last step
    sim.step()
    assert sim.blocked_reason is None


def test_a_motor_between_two_links_turns_relative_to_its_reference():
    link = Linkage([[0, 0], [1, 0], [1, 1]], rods=[(0, 1), (1, 2)], pinned=[0])
    sim = Simulator(link, mode="dynamic", step_size=1e-3, gravity=9.81)
    sim.add_motor(1, 2, 3.0, reference=(0, 1))
    sim.step(1000)
    p = sim.positions
    relative = np.arctan2(*(p[2] - p[1])[::-1]) - np.arctan2(*(p[1] - p[0])[::-1])
    want = np.pi / 2 + 3.0 * sim.time
    assert np.angle(np.exp(1j * (relative - want))) == pytest.approx(0.0, abs=1e-10)
    # the reaction acts on the reference: rod 0->1 swings although nothing else drives it
    assert abs(np.arctan2(p[1, 1], p[1, 0])) > 0.1


@settings(max_examples=25, deadline=None)
@given(
    speed=st.floats(-4.0, 4.0).filter(lambda s: abs(s) > 1e-3),
    h=st.floats(1e-3, 0.2),
    mode=st.sampled_from(["kinematic", "dynamic"]),
)
def test_the_crank_angle_is_angle0_plus_speed_times_t(speed, h, mode):
    sim = Simulator(Linkage.load("four_bar.txt"), mode=mode, step_size=h, gravity=100.0)
    sim.add_motor(0, 2, speed)
    angles = [rod_angle(sim.positions, 0, 2)]
    for _ in range(20):
        sim.step()
        assert sim.status == "moved"
        angles.append(rod_angle(sim.positions, 0, 2))
    unwrapped = np.unwrap(angles)
    assert unwrapped[-1] - unwrapped[0] == pytest.approx(speed * sim.time, abs=1e-10)
    assert sim.constraint_error() <= 1e-10


@pytest.mark.parametrize(
    ("args", "kwargs", "match"),
    [
        ((0, 9, 1.0), {}, "motor tip"),
        ((0, 3, 1.0), {}, "no rod 0-3"),
        ((0, 1, 1.0), {}, "no rod 0-1"),
        ((0, 2, float("nan")), {}, "motor speed"),
        ((0, 2, 1.0), {"reference": (2, 0)}, "relative to itself"),
        ((0, 2, 1.0), {"reference": (0, 3)}, "no rod 0-3"),
    ],
)
def test_bad_motors_are_refused_and_change_nothing(args, kwargs, match):
    sim = Simulator(Linkage.load("four_bar.txt"), mode="dynamic", step_size=0.01)
    before = sim.positions.copy()
    with pytest.raises(ValueError, match=match):
        sim.add_motor(*args, **kwargs)
    assert sim.motors == () and np.array_equal(sim.positions, before)
    sim.step(3)  # and it still runs as before: at rest, so "idle", not "moved" (issue 22)
    assert sim.status == "idle"


def test_a_rod_pinned_at_both_ends_cannot_be_driven():
    link = Linkage([[0, 0], [1, 0], [2, 0]], rods=[(0, 1), (1, 2)], pinned=[0, 1])
    sim = Simulator(link)
    with pytest.raises(ValueError, match="both ends pinned"):
        sim.add_motor(0, 1, 1.0)
    with pytest.raises(IndexError):
        sim.remove_motor(0)
    assert sim.motors == ()


def test_without_motors_the_path_is_the_old_one_bit_for_bit():
    link = Linkage.load("four_bar.txt")
    plain = Simulator(link, mode="dynamic", step_size=0.01, gravity=300.0)
    edited = Simulator(link, mode="dynamic", step_size=0.01, gravity=300.0)
    edited.add_motor(0, 2, 1.0)
    edited.remove_motor(0)
    for sim in (plain, edited):
        sim.set_velocity(np.tile([1.0, -2.0], (link.n_vertices, 1)))
        sim.step(50)
    assert np.array_equal(plain.positions, edited.positions)
    assert np.array_equal(plain.velocities, edited.velocities)


def test_friction_does_not_hold_a_kinematic_motor():
    sim = Simulator(Linkage.load("four_bar.txt"), step_size=0.05, table_friction=0.5)
    sim.add_friction(0, 3, 1.0, 0.5)
    sim.add_motor(0, 2, 1.0)
    sim.step(10)
    assert sim.status == "moved" and sim.time == pytest.approx(0.5)


@pytest.mark.parametrize("mode", ["kinematic", "dynamic"])
def test_a_motor_on_a_locked_linkage_is_blocked_at_once(mode):
    # A pinned triangle cannot move: its rod 0->2 has no motion to turn it.
    tri = Linkage([[0, 0], [2, 0], [1, 1.5]], rods=[(0, 1), (1, 2), (0, 2)], pinned=[0, 1])
    sim = Simulator(tri, mode=mode, step_size=0.01)
    sim.add_motor(0, 2, 1.0)
    sim.step()
    assert sim.status == "blocked" and "dead point" in sim.blocked_reason
    assert np.array_equal(sim.positions, tri.vertices) and sim.time == 0.0


def test_a_uniformly_turning_crank_tip_accelerates_toward_the_pivot():
    w, ell = 1.3, 2.0
    crank = Linkage([[0, 0], [ell, 0]], rods=[(0, 1)], pinned=[0])
    sim = Simulator(crank, mode="dynamic", step_size=0.01, gravity=9.81)
    sim.add_motor(0, 1, w)
    sim.step(77)
    p = sim.positions[1]
    assert sim.accelerations[1] == pytest.approx(-(w**2) * p, abs=1e-9)
    assert np.linalg.norm(sim.velocities[1]) == pytest.approx(w * ell, rel=1e-12)


def test_a_motor_between_two_links_is_internal_no_angular_momentum_about_the_pin():
    # Without gravity the motor between rods 0-1 and 1-2 is an internal couple: the only
    # external force is the pin's at joint 0, which has no moment about it, so the
    # angular momentum about joint 0 stays zero (it would not if the reaction on the
    # reference rod were missing), while the relative angle turns at the motor's speed.
    link = Linkage([[0, 0], [1, 0], [1, 1]], rods=[(0, 1), (1, 2)], pinned=[0])
    sim = Simulator(link, mode="dynamic", step_size=1e-3, total_mass=3.0)  # 1 per joint
    sim.add_motor(1, 2, 3.0, reference=(0, 1))
    for _ in range(10):
        sim.step(100)
        p, v = sim.positions, sim.velocities
        momentum = np.sum(p[:, 0] * v[:, 1] - p[:, 1] * v[:, 0])
        assert momentum == pytest.approx(0.0, abs=1e-9)
    assert abs(np.arctan2(p[1, 1], p[1, 0])) > 0.1  # the reference rod turned back
    # Newton on joint 2 (mass 1): the rod 1-2 pulls along d, so the moment of m a_2
    # about joint 1 is the motor's torque on its rod (counter-clockwise positive)
    d, a2 = p[2] - p[1], sim.accelerations[2]
    assert sim.motor_torques[0] == pytest.approx(d[0] * a2[1] - d[1] * a2[0], rel=1e-8)
    assert abs(sim.motor_torques[0]) > 1.0
