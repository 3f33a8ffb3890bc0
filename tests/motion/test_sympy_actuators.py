"""The simulator's force elements against sympy.physics.mechanics (issue 12).

Every test drives :class:`~linkage_widget.motion.Simulator` in dynamic mode with one of
the seed-004 elements (``add_torque``, ``add_force``, ``add_spring`` with a Duffing
term and a damper, ``add_friction``) and compares the positions at ``t = 2 s`` with
the reference of ``sympy_models``: the same system derived by KanesMethod from the
sympy actuator classes, lambdified and integrated by ``solve_ivp`` (DOP853,
``rtol = 1e-11``); the references are validated on their own in
``test_sympy_references.py``. Nothing but the force laws (one callable evaluated by
both sides) and the mass convention is shared.

Accuracy: "within 1e-4 relative" is :func:`relative_error`, the largest distance
between a simulated and a reference vertex over the size of the mechanism (the
largest distance of a reference vertex from the origin, where every system here has
its pivot or anchor). RATTLE is second order, so the error is :math:`C h^2`;
``test_rattle_error_is_second_order`` measures :math:`C` on the torque-driven pendulum
(the error falls 4.0x when ``h`` halves: 6.2e-5, 1.5e-5, 3.8e-6 at h = 4, 2, 1 ms).
``H = 1e-3`` s keeps every comparison at or below ``1.3e-5`` (an eighth of the
tolerance; the worst is the four-bar with 70 % of its mass in the rods, then the
elbow torque at 5.8e-6) in 2 000 steps per test; the friction stops agree to 1.5e-6.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy_models as ref

from linkage_widget import Linkage
from linkage_widget.motion import Simulator

G = 9.81
T_END = 2.0
H = 1e-3  # time step: RATTLE's O(h^2) error stays well below the 1e-4 tolerance
TOL = 1e-4


def relative_error(sim_positions: np.ndarray, ref_positions: np.ndarray) -> float:
    """Largest vertex distance between the two, over the largest reference radius."""
    scale = np.linalg.norm(ref_positions, axis=1).max()
    return float(np.linalg.norm(sim_positions - ref_positions, axis=1).max() / scale)


def run(sim: Simulator, duration: float = T_END) -> Simulator:
    start = sim.time
    sim.step(round(duration / sim.step_size))
    assert sim.time == pytest.approx(start + duration)
    return sim


def dynamic(points, rods=(), pinned=(), *, h=H, alpha=0.0, total_mass=1.0, g=0.0) -> Simulator:
    link = Linkage(np.asarray(points, float), rods=list(rods), pinned=list(pinned))
    return Simulator(
        link, mode="dynamic", step_size=h, mass_distribution=alpha, total_mass=total_mass, gravity=g
    )


# ------------------------------------------------------------ force laws
# Each law is written once: numpy by default, sympy when the reference passes lib=sympy.
def torque_law(t, angle, speed, lib=np):
    """A drive, a damper and an angle-dependent term (2 pi-periodic in the angle)."""
    return 0.8 * lib.cos(2.0 * t) - 0.3 * speed + 0.5 * lib.sin(angle)


def constant_torque(t, angle, speed, lib=np):
    return 0.7 + 0 * t


def force_law(length, rate, lib=np):
    """Expansile: a push, a damper and a spring about 1.2."""
    return 0.5 - 0.4 * rate - 0.3 * (length - 1.2)


def constant_force(length, rate, lib=np):
    return 0.6 + 0 * length


# ------------------------------------------------ (a) TorqueActuator pendulum
def _pendulum_sim(length, angle0, torque, alpha, m, h=H):
    tip = length * np.array([np.cos(angle0), np.sin(angle0)])
    sim = dynamic([[0, 0], tip], [(0, 1)], [0], h=h, alpha=alpha, total_mass=m, g=G)
    # A constant torque goes in as a number, the law as the callable itself.
    sim.add_torque(0, 1, 0.7 if torque is constant_torque else torque)
    return sim


@pytest.mark.parametrize("alpha", [0.0, 0.6])
@pytest.mark.parametrize("torque", [constant_torque, torque_law])
def test_pendulum_with_torque_actuator(torque, alpha):
    length, angle0, m = 0.9, -0.3, 1.5
    sim = run(_pendulum_sim(length, angle0, torque, alpha, m))
    want = ref.pendulum_with_torque(
        length, angle0, [T_END], alpha=alpha, total_mass=m, g=G, torque=torque
    )
    assert relative_error(sim.positions, want.positions[-1]) < TOL
    assert np.abs(sim.velocities - want.velocities[-1]).max() < 10 * TOL
    assert sim.constraint_error() < 1e-12


def test_rattle_error_is_second_order():
    # The step size of this file is chosen from this measurement: err ~ C h^2.
    length, angle0, m, alpha = 0.9, -0.3, 1.5, 0.6
    want = ref.pendulum_with_torque(
        length, angle0, [T_END], alpha=alpha, total_mass=m, g=G, torque=torque_law
    ).positions[-1]
    errors = []
    for h in (4e-3, 2e-3, 1e-3):
        sim = run(_pendulum_sim(length, angle0, torque_law, alpha, m, h=h))
        errors.append(relative_error(sim.positions, want))
    ratios = np.array(errors[:-1]) / np.array(errors[1:])
    assert np.all((ratios > 3.5) & (ratios < 4.5)), (errors, ratios)
    assert errors[-1] < TOL / 10


def test_torque_between_links_reacts_on_the_reference_rod():
    # The elbow torque acts on rod 1->2 about 1, its reaction on rod 0->1.
    lengths, angles0, alpha, m = (1.0, 0.7), (-0.3, 0.4), 0.3, 1.2
    p1 = lengths[0] * np.array([np.cos(angles0[0]), np.sin(angles0[0])])
    p2 = p1 + lengths[1] * np.array([np.cos(angles0[1]), np.sin(angles0[1])])
    sim = dynamic([[0, 0], p1, p2], [(0, 1), (1, 2)], [0], alpha=alpha, total_mass=m, g=G)
    sim.add_torque(1, 2, torque_law, reference=(0, 1))
    run(sim)
    want = ref.two_link_with_torque(
        lengths, angles0, [T_END], torque=torque_law, alpha=alpha, total_mass=m, g=G
    )
    assert relative_error(sim.positions, want.positions[-1]) < TOL
    assert sim.constraint_error() < 1e-12


# --------------------------------------------------------- (b) Duffing spring
# A point tied to a pinned point by a Duffing spring and no rod: each carries m/2.
# On the line through the pin (velocity along it, no gravity) this is the 1-D Duffing
# oscillator m x'' = -k x - beta x^3 - c x'; with gravity and a sideways velocity it
# is a planar orbit in the same central force.
DUFFING = dict(stiffness=4.0, nonlinear_stiffness=30.0, rest_length=1.0)


@pytest.mark.parametrize(
    ("start", "velocity", "damping", "g"),
    [((1.4, 0.0), (0.2, 0.0), 0.3, 0.0), ((1.5, 0.0), (0.0, 1.0), 0.0, 2.0)],
    ids=["line-damped", "orbit-gravity"],
)
def test_duffing_spring_mass(start, velocity, damping, g):
    sim = dynamic([[0, 0], start], pinned=[0], total_mass=1.0, g=g)
    sim.add_spring(
        0,
        1,
        DUFFING["stiffness"],
        DUFFING["rest_length"],
        damping,
        nonlinear_stiffness=DUFFING["nonlinear_stiffness"],
    )
    sim.set_velocity([[0.0, 0.0], velocity])
    run(sim)
    want = ref.duffing_mass(start, [T_END], velocity0=velocity, damping=damping, g=g, **DUFFING)
    assert relative_error(sim.positions, want.positions[-1]) < TOL
    if g == 0.0:
        assert sim.positions[1, 1] == pytest.approx(0.0, abs=1e-12)  # it stays on its line


def test_duffing_energy_includes_the_quartic_term():
    sim = dynamic([[0, 0], [1.5, 0.0]], pinned=[0], g=2.0)
    sim.add_spring(0, 1, 5.0, 1.0, nonlinear_stiffness=20.0)
    sim.set_velocity([[0.0, 0.0], [0.0, 1.0]])
    e0 = sim.kinetic_energy() + sim.potential_energy()
    want = ref.duffing_mass(
        (1.5, 0.0),
        [0.0],
        stiffness=5.0,
        nonlinear_stiffness=20.0,
        rest_length=1.0,
        velocity0=(0.0, 1.0),
        g=2.0,
    )
    # The reference energy is T + k x^2/2 + beta x^4/4 + m g y with y measured from 0.
    assert e0 == pytest.approx(want.energy[0], rel=1e-12)
    run(sim)
    assert sim.kinetic_energy() + sim.potential_energy() == pytest.approx(e0, rel=1e-4)


# ---------------------------------------------------------- (c) ForceActuator
@pytest.mark.parametrize("force", [constant_force, force_law])
def test_force_actuator_between_free_points(force):
    p0 = np.array([[0.0, 0.0], [1.0, 0.5]])
    v0 = np.array([[0.0, 0.0], [0.3, -0.2]])
    sim = dynamic(p0, total_mass=1.0, g=1.0)
    sim.add_force(0, 1, 0.6 if force is constant_force else force)
    sim.set_velocity(v0)
    run(sim)
    want = ref.force_between_free_points(p0, v0, [T_END], force=force, total_mass=1.0, g=1.0)
    assert relative_error(sim.positions, want.positions[-1]) < TOL


@pytest.mark.parametrize("force", [constant_force, force_law])
def test_force_actuator_on_a_pendulum_from_an_anchor(force):
    # Pendulum 0-1 under gravity, pushed (expansile) along the pathway from pinned anchor 2.
    length, angle0, anchor, m, alpha = 1.0, -0.5, (1.5, 1.0), 1.2, 0.5
    tip = length * np.array([np.cos(angle0), np.sin(angle0)])
    sim = dynamic([[0, 0], tip, anchor], [(0, 1)], [0, 2], alpha=alpha, total_mass=m, g=G)
    sim.add_force(2, 1, 0.6 if force is constant_force else force)
    run(sim)
    want = ref.force_on_pendulum(
        length, angle0, anchor, [T_END], force=force, alpha=alpha, total_mass=m, g=G
    )
    assert relative_error(sim.positions, want.positions[-1]) < TOL


# ------------------------------------------ (d) four-bar, spring and damper
@pytest.mark.parametrize("alpha", [0.0, 0.7])
def test_four_bar_with_damped_spring_under_gravity(alpha):
    sides, theta0, m = (1.0, 2.2, 1.6, 2.0), 2.0, 2.0
    spring = dict(stiffness=6.0, rest_length=1.5, damping=0.8)
    want = ref.four_bar_spring_damper(
        theta0, [0.0, T_END], sides=sides, alpha=alpha, total_mass=m, g=G, **spring
    )
    sim = dynamic(
        want.positions[0], [(0, 1), (1, 2), (3, 2)], [0, 3], alpha=alpha, total_mass=m, g=G
    )
    sim.add_spring(1, 3, spring["stiffness"], spring["rest_length"], spring["damping"])
    run(sim)
    assert np.abs(want.positions[-1] - want.positions[0]).max() > 0.3  # it really moved
    assert relative_error(sim.positions, want.positions[-1]) < TOL
    assert sim.constraint_error() < 1e-12


# ----------------------------------------- (e) CoulombKineticFriction, stick
# A block (vertex 1) on the x axis, pinned vertex 0 at the origin, friction along the
# pathway 0-1 with normal force N = (m/2) g: the deceleration is mu_k g.
M_BLOCK = 0.5


def _block(x0, v0, h=H, **friction):
    sim = dynamic([[0, 0], [x0, 0.0]], h=h, pinned=[0], total_mass=2 * M_BLOCK)
    sim.set_velocity([[0.0, 0.0], [v0, 0.0]])
    sim.add_friction(0, 1, **friction)
    return sim


def _stays(sim: Simulator, steps: int = 500) -> None:
    """A stuck block: zero velocity and a position that does not move by one bit."""
    before = sim.positions.copy()
    sim.step(steps)
    assert np.array_equal(sim.positions, before)
    assert np.abs(sim.velocities).max() < 1e-12


@pytest.mark.parametrize("v0", [2.0, -1.5])
def test_block_slides_to_the_coulomb_stopping_distance_and_sticks(v0):
    x0, mu = 1.0, 0.4
    friction = dict(normal_force=M_BLOCK * G, mu_k=mu)
    sim = run(_block(x0, v0, **friction))
    want = ref.block_with_friction(x0, v0, [T_END], total_mass=2 * M_BLOCK, **friction)
    stop = x0 + np.sign(v0) * v0**2 / (2 * mu * G)  # v0^2 / (2 mu g)
    assert want.positions[-1, 1, 0] == pytest.approx(stop, rel=1e-10)
    assert want.events[0] < 0.6  # stopped well before 2 s
    assert relative_error(sim.positions, want.positions[-1]) < TOL
    _stays(sim)


def test_block_with_stribeck_and_viscous_friction():
    x0, v0 = 1.0, 3.0
    friction = dict(normal_force=M_BLOCK * G, mu_k=0.3, mu_s=0.5, v_s=0.5, sigma=0.4)
    sim = run(_block(x0, v0, **friction))
    want = ref.block_with_friction(x0, v0, [T_END], total_mass=2 * M_BLOCK, **friction)
    assert want.events and want.events[0] < 1.5
    assert relative_error(sim.positions, want.positions[-1]) < TOL
    _stays(sim)


def test_friction_oscillator_stops_where_the_reference_sticks():
    # Spring to the pin and Coulomb friction: three half swings, each shorter by
    # 2 mu N / k, then the spring force k|x - L0| is below mu_s N and the block sticks.
    x0, k, rest = 1.5, 20.0, 1.0
    friction = dict(normal_force=M_BLOCK * G, mu_k=0.3)
    want = ref.block_with_friction(
        x0, 0.0, [T_END], stiffness=k, rest_length=rest, total_mass=2 * M_BLOCK, **friction
    )
    assert len(want.events) == 3 and want.events[-1] < T_END
    sim = _block(x0, 0.0, **friction)
    sim.add_spring(0, 1, k, rest)
    run(sim)
    assert relative_error(sim.positions, want.positions[0]) < TOL
    _stays(sim)


@pytest.mark.parametrize(("ratio", "moves"), [(0.99, False), (1.02, True)])
def test_block_starts_only_above_the_static_limit(ratio, moves):
    # A spring stretched so that k x = ratio * mu_s N, with mu_k < mu_s: below the
    # static limit nothing moves at all; above it the block slides like the reference.
    k, rest, nf = 10.0, 1.0, 2.0
    friction = dict(normal_force=nf, mu_k=0.2, mu_s=0.5, v_s=0.1)
    x0 = rest + ratio * 0.5 * nf / k
    sim = _block(x0, 0.0, **friction)
    sim.add_spring(0, 1, k, rest)
    if not moves:
        _stays(sim, steps=round(T_END / H))
        return
    run(sim)
    want = ref.block_with_friction(
        x0, 0.0, [T_END], stiffness=k, rest_length=rest, total_mass=2 * M_BLOCK, **friction
    )
    assert want.events  # the reference slid and stopped again
    assert abs(want.positions[-1, 1, 0] - x0) > 1e-3
    assert relative_error(sim.positions, want.positions[-1]) < TOL
