"""Coulomb friction with a stick phase, along pathways and on the table (issue 12)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from linkage_widget import Linkage
from linkage_widget.motion import Simulator

G = 9.81


def block(v0: float, h: float = 1e-3, x0: float = 1.0) -> Simulator:
    """A block (vertex 1, mass 1) on the x axis; vertex 0 pinned at the origin."""
    link = Linkage([[0.0, 0.0], [x0, 0.0]], rods=[], pinned=[0])
    sim = Simulator(link, mode="dynamic", step_size=h, total_mass=2.0)
    sim.set_velocity([[0.0, 0.0], [v0, 0.0]])
    return sim


def stays(sim: Simulator, steps: int = 300) -> None:
    """Nothing unpinned moves by one bit (pinned joints stay within round-off)."""
    free = np.setdiff1d(np.arange(sim.positions.shape[0]), sim.linkage.pinned)
    before = sim.positions.copy()
    sim.step(steps)
    assert np.array_equal(sim.positions[free], before[free])
    assert np.abs(sim.positions - before).max() < 1e-15
    assert np.abs(sim.velocities).max() < 1e-12


@settings(max_examples=15, deadline=None)
@given(v0=st.floats(0.3, 3.0), mu=st.floats(0.1, 1.0), sign=st.sampled_from([-1.0, 1.0]))
def test_a_block_slides_to_rest_at_v0_squared_over_2_mu_g_and_stays(v0, mu, sign):
    sim = block(sign * v0, x0=10.0)  # it stops before it could reach the pin
    sim.add_friction(0, 1, G, mu)  # N = m g with m = 1
    stop_time = v0 / (mu * G)
    sim.step(int(stop_time / sim.step_size) + 5)
    want = 10.0 + sign * v0**2 / (2 * mu * G)
    # RATTLE integrates the constant deceleration exactly; the last step stops within
    # mu g h^2 / 2 of the closed form (the stop is found at the end of its step).
    assert sim.positions[1, 0] == pytest.approx(want, abs=0.5 * mu * G * sim.step_size**2 + 1e-12)
    assert sim.positions[1, 1] == 0.0
    stays(sim)


@pytest.mark.parametrize(("ratio", "moves"), [(0.98, False), (1.03, True)])
def test_a_push_below_the_static_limit_moves_nothing_above_it_slides(ratio, moves):
    mu_k, mu_s = 0.3, 0.6
    sim = block(0.0)
    sim.add_friction(0, 1, G, mu_k, mu_s=mu_s)
    sim.add_force(0, 1, ratio * mu_s * G)
    if not moves:
        stays(sim, 1000)
        return
    sim.step(1000)
    # once sliding, kinetic friction: x'' = F - mu_k g from the first step on, except that
    # the first step's friction is the static level (the release is decided at its start)
    a = ratio * mu_s * G - mu_k * G
    assert sim.positions[1, 0] - 1.0 == pytest.approx(0.5 * a * sim.time**2, rel=2e-3)


def test_a_stuck_block_does_not_creep_under_a_force_it_can_hold_then_restarts():
    sim = block(0.0)
    sim.add_friction(0, 1, G, 0.5)
    k = sim.add_force(0, 1, 0.4 * G)
    stays(sim, 500)
    sim.remove_actuator(k)
    sim.add_force(0, 1, 0.6 * G)
    sim.step(100)
    assert sim.positions[1, 0] > 1.0 + 1e-3


def test_stribeck_and_viscous_terms_slow_the_block_as_the_seed_says():
    # While sliding at u > 0: u' = -(mu_k + (mu_s - mu_k) exp(-(u/v_s)^2)) g - sigma u.
    from scipy.integrate import solve_ivp

    mu_k, mu_s, v_s, sigma = 0.2, 0.5, 0.4, 0.3
    sim = block(2.0)
    sim.add_friction(0, 1, G, mu_k, mu_s=mu_s, v_s=v_s, sigma=sigma)
    sim.step(300)

    def rhs(t, y):
        u = y[1]
        return [u, -(mu_k + (mu_s - mu_k) * np.exp(-((u / v_s) ** 2))) * G - sigma * u]

    ref = solve_ivp(rhs, (0, sim.time), [1.0, 2.0], rtol=1e-11, atol=1e-12)
    assert sim.positions[1, 0] == pytest.approx(ref.y[0, -1], abs=1e-5)
    assert sim.velocities[1, 0] == pytest.approx(ref.y[1, -1], abs=1e-5)


def test_table_friction_brings_a_flung_four_bar_to_rest():
    link = Linkage.load("four_bar.txt")
    # g = 0 (a horizontal table): N_i = m_i * 1, so mu is a deceleration (world units/s^2)
    sim = Simulator(link, mode="dynamic", step_size=1e-3, table_friction=40.0, gravity=0.0)
    sim.set_velocity(np.tile([60.0, -40.0], (link.n_vertices, 1)))
    assert sim.kinetic_energy() > 0
    for _ in range(200):
        sim.step(100)
        if sim.kinetic_energy() == 0.0:
            break
    assert sim.kinetic_energy() == 0.0
    stays(sim)
    assert sim.constraint_error() < 1e-10


def test_table_friction_holds_a_mechanism_against_a_small_load_and_yields_to_a_big_one():
    link = Linkage([[0, 0], [1, 0]], rods=[(0, 1)], pinned=[0])
    sim = Simulator(link, mode="dynamic", step_size=1e-3, total_mass=2.0, table_friction=0.5)
    # g = 0: N = m * 1 = 1 at the tip, limit 0.5; a torque T needs a tip force T / l
    sim.add_torque(0, 1, 0.45)
    stays(sim, 300)
    sim.add_torque(0, 1, 0.1)
    sim.step(300)
    assert sim.positions[1, 1] > 1e-3


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        (dict(normal_force=-1.0, mu_k=0.2), "normal_force"),
        (dict(normal_force=1.0, mu_k=-0.2), "mu_k"),
        (dict(normal_force=1.0, mu_k=0.3, mu_s=0.2), "at least mu_k"),
        (dict(normal_force=1.0, mu_k=0.3, v_s=0.0), "v_s"),
        (dict(normal_force=1.0, mu_k=0.3, sigma=float("nan")), "sigma"),
        (dict(normal_force=float("inf"), mu_k=0.3), "normal_force"),
    ],
)
def test_bad_friction_is_refused_and_changes_nothing(kwargs, match):
    sim = block(1.0)
    v = sim.velocities.copy()
    with pytest.raises(ValueError, match=match):
        sim.add_friction(0, 1, **kwargs)
    with pytest.raises(ValueError, match="table_friction"):
        sim.table_friction = -0.1
    assert sim.frictions == () and sim.table_friction == 0.0
    assert np.array_equal(sim.velocities, v)


def test_a_motor_keeps_turning_a_four_bar_against_table_friction():
    # The rocker's joint reverses at each limit; holding it there would lock the motor,
    # so it must not stick, and the crank turns a full turn, exactly on time.
    link = Linkage.load("four_bar.txt")
    sim = Simulator(link, mode="dynamic", step_size=1 / 120, table_friction=0.5)
    sim.add_motor(0, 2, 2.0)
    steps = round(np.pi / (2.0 / 120)) + 1  # a full turn and a step
    for _ in range(steps):
        sim.step()
        assert sim.status == "moved", sim.blocked_reason
    assert sim.motor_angles[0] - sim.motors[0].phase == pytest.approx(2.0 * sim.time, abs=1e-10)
    assert sim.constraint_error() < 1e-10
    assert sim.motor_torques[0] != 0.0  # it works against the friction


def test_constraint_forces_report_the_friction_force():
    sim = block(1.0)
    sim.add_friction(0, 1, G, 0.3, mu_s=0.5)
    assert sim.constraint_forces.frictions == pytest.approx([-0.3 * G])  # kinetic, opposing
    sim.step(1000)  # stopped (after 0.34 s) and stuck: holds what pushes it
    k = sim.add_force(0, 1, 0.4 * G)
    sim.step()
    assert sim.constraint_forces.frictions == pytest.approx([-0.4 * G], rel=1e-9)
    sim.remove_actuator(k)
    sim.table_friction = 0.2  # a joint at rest on the table: held, nothing to hold
    assert sim.constraint_forces.table == pytest.approx(np.zeros((2, 2)), abs=1e-12)


def test_a_motor_added_in_kinematic_mode_keeps_turning_after_a_switch_to_dynamic():
    # The switch starts the motion from rest, but the motor's rod turns at its speed:
    # the table must not hold the crank tip (a stick never stops a motor).
    link = Linkage.load("four_bar.txt")
    sim = Simulator(link, mode="kinematic", step_size=1 / 120, table_friction=0.5)
    sim.add_motor(0, 2, 2.0)
    sim.mode = "dynamic"
    for _ in range(60):
        sim.step()
        assert sim.status == "moved", sim.blocked_reason
    assert sim.motor_angles[0] - sim.motors[0].phase == pytest.approx(2.0 * sim.time, abs=1e-10)
    assert sim.constraint_error() < 1e-10


@pytest.mark.parametrize("spin", [0.5, 1.0, 1.5, 2.0, 3.0])
@pytest.mark.parametrize("push", [-80.0, 80.0])
def test_a_stuck_pathway_in_a_spinning_arm_releases_the_way_it_is_pushed(spin, push):
    # A two-link arm spins rigidly about its pin with the friction pathway 0-2 (across
    # the elbow) stuck: its extension velocity is zero up to round-off (~1e-16, either
    # sign). A push of 80 beyond the static limit mu_s N = 50 must release it at the
    # next step, sliding the way it is pushed, against kinetic friction mu_k N = 30 --
    # not the way the round-off of the stuck velocity points (which made friction
    # help the push for a step and stuck the pathway again).
    link = Linkage([[0, 0], [1, 0], [1.7, 0.7]], rods=[(0, 1), (1, 2)], pinned=[0])
    sim = Simulator(link, mode="dynamic", step_size=1e-3, total_mass=3.0)
    sim.add_friction(0, 2, 100.0, 0.3, mu_s=0.5)
    sim.set_velocity(spin * np.array([[0.0, 0.0], [0.0, 1.0], [-0.7, 1.7]]))
    sim.step(200)
    length = np.linalg.norm(sim.positions[2])
    assert sim.constraint_forces.frictions[0] != 0.0  # stuck: it holds the spin
    sim.add_force(0, 2, push)
    sim.step()
    stretch = np.linalg.norm(sim.positions[2]) - length
    assert np.sign(stretch) == np.sign(push) and abs(stretch) > 1e-6
    assert sim.constraint_forces.frictions[0] == pytest.approx(-np.sign(push) * 30.0)


def test_table_friction_brings_a_five_bar_with_a_locked_motor_to_rest():
    # A motor of speed 0 locks the crank 0-2 of a five-bar; the remaining one degree of
    # freedom, flung, must come to rest on the table as it does without the motor (the
    # check that a stick does not stop a motor compared the miss with 1e-6 |b|, 0 here,
    # so nothing could ever stick: 10 s later it still moved).
    link = Linkage(
        [[0, 0], [4, 0], [0, 1.5], [2, 2.5], [4, 1.5]],
        rods=[(0, 2), (2, 3), (3, 4), (4, 1)],
        pinned=[0, 1],
    )
    sim = Simulator(link, mode="dynamic", step_size=1e-3, table_friction=20.0)
    sim.add_motor(0, 2, 0.0)
    sim.set_velocity([[0, 0], [0, 0], [0, 0], [3.0, 0], [0, 0]])
    assert sim.kinetic_energy() > 0.05
    sim.step(1000)
    assert sim.kinetic_energy() == 0.0
    stays(sim)
    assert sim.motor_angles[0] == pytest.approx(sim.motors[0].phase, abs=1e-10)
    assert sim.constraint_error() < 1e-10


def test_friction_along_a_rod_carries_nothing_and_leaves_the_rod_its_tension():
    # A pathway whose ends a rod joins cannot slide: its friction never acts, and the
    # rod carries the whole load (a stuck temporary link along it took half the tension
    # of a hanging pendulum, and the friction element reported holding the other half).
    link = Linkage([[0, 0], [0, -2]], rods=[(0, 1)], pinned=[0])
    sim = Simulator(link, mode="dynamic", step_size=1e-3, gravity=G, total_mass=2.0)
    sim.add_friction(1, 0, 100.0, 0.3, mu_s=0.5)
    assert sim.constraint_forces.rods == pytest.approx([G], rel=1e-12)
    assert sim.constraint_forces.frictions == pytest.approx([0.0], abs=1e-12)
    sim.set_velocity([[0, 0], [2.0, 0.0]])  # swinging: still nothing slides along the rod
    for _ in range(50):
        sim.step(10)
        assert sim.constraint_forces.frictions == pytest.approx([0.0], abs=1e-12)
    v = np.hypot(*sim.velocities[1])
    theta = np.arctan2(sim.positions[1, 0], -sim.positions[1, 1])
    want = v**2 / 2.0 + G * np.cos(theta)  # m v^2 / l + m g cos(theta), m = 1, l = 2
    assert sim.constraint_forces.rods == pytest.approx([want], rel=1e-8)
    assert sim.kinetic_energy() + sim.potential_energy() == pytest.approx(2.0 - 2 * G, rel=1e-5)


def test_friction_between_two_pinned_joints_leaves_the_supports_their_reactions():
    # Two supports and a joint hanging from both in a V: a friction pathway between the
    # supports cannot slide, so the reactions stay those without it (a stuck link
    # between the supports took 3.3 of the 4.9 horizontal pull of each support).
    link = Linkage([[0, 0], [1, -1], [2, 0]], rods=[(0, 1), (1, 2)], pinned=[0, 2])
    sim = Simulator(link, mode="dynamic", step_size=1e-3, gravity=G, total_mass=3.0)
    want = [[-G / 2, 1.5 * G], [G / 2, 1.5 * G]]  # m g / 2 each way, plus its own weight
    assert sim.constraint_forces.pins == pytest.approx(np.array(want), rel=1e-9)
    sim.add_friction(0, 2, 100.0, 0.3)
    assert sim.constraint_forces.pins == pytest.approx(np.array(want), rel=1e-9)
    assert sim.constraint_forces.frictions == pytest.approx([0.0], abs=1e-12)
