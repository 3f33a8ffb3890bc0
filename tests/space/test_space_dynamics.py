"""The dynamic Simulator (RATTLE) in 3-D (issue 16): gravity along -z, springs, dampers.

Closed forms and reference integrations: the spherical pendulum against its ODE in
angles, a mass on a spring along a line, free fall; conservation: the force-free
Bricard octahedron keeps its kinetic energy to O(h^2) and its rods to round-off;
statics: the pinned regular octahedron hangs still and its pins carry its weight.
"""

import numpy as np
import pytest
from scipy.integrate import solve_ivp
from scipy.linalg import null_space

from linkage_widget import Linkage
from linkage_widget.constraints import ConstraintSet
from linkage_widget.examples.space import bricard_line_symmetric, octahedron
from linkage_widget.motion import Simulator

G = 9.81


# ------------------------------------------------------------ spherical pendulum
def spherical_reference(length: float, state0, times) -> np.ndarray:
    r"""Bob positions ``(len(times), 3)`` of the spherical pendulum, from its ODE in angles.

    :math:`r = L(\sin\theta\cos\varphi, \sin\theta\sin\varphi, -\cos\theta)`,
    :math:`\ddot\theta = \sin\theta\cos\theta\,\dot\varphi^2 - (g/L)\sin\theta`,
    :math:`\ddot\varphi = -2\cot\theta\,\dot\theta\dot\varphi`.
    """

    def rhs(_t, y):
        th, ph, dth, dph = y
        return [
            dth,
            dph,
            np.sin(th) * np.cos(th) * dph**2 - G / length * np.sin(th),
            -2.0 * dth * dph / np.tan(th),
        ]

    sol = solve_ivp(rhs, (0.0, times[-1]), state0, method="DOP853", t_eval=times, rtol=1e-12,
                    atol=1e-13)  # fmt: skip
    th, ph = sol.y[0], sol.y[1]
    return length * np.column_stack([np.sin(th) * np.cos(ph), np.sin(th) * np.sin(ph), -np.cos(th)])


def spherical_run(h: float, length: float, state0, seconds: float = 1.0):
    """The simulated bob after each step, the sample times, and the largest rod error."""
    th, ph, dth, dph = state0
    bob = length * np.array([np.sin(th) * np.cos(ph), np.sin(th) * np.sin(ph), -np.cos(th)])
    vel = length * np.array(
        [
            dth * np.cos(th) * np.cos(ph) - dph * np.sin(th) * np.sin(ph),
            dth * np.cos(th) * np.sin(ph) + dph * np.sin(th) * np.cos(ph),
            dth * np.sin(th),
        ]
    )
    link = Linkage([[0.0, 0.0, 0.0], bob], rods=[(0, 1)], pinned=[0])
    sim = Simulator(link, mode="dynamic", step_size=h, gravity=G)
    sim.set_velocity([[0.0, 0.0, 0.0], vel])
    steps = round(seconds / h)
    out, errors = [], []
    for _ in range(steps):
        sim.step()
        assert sim.status == "moved"
        out.append(sim.positions[1].copy())
        errors.append(sim.constraint_error())
    return np.array(out), h * np.arange(1, steps + 1), max(errors)


def test_spherical_pendulum_matches_its_ode_to_second_order():
    length, state0 = 1.5, [0.7, 0.3, 0.4, 2.2]  # theta from -z, phi, and their rates
    errs = []
    for h in (0.01, 0.005):
        pos, times, rod = spherical_run(h, length, state0)
        ref = spherical_reference(length, state0, times)
        errs.append(float(np.max(np.linalg.norm(pos - ref, axis=1))))
        assert rod <= 1e-12  # the rod, relative, after every step
    # O(h^2): halving the step quarters the error; and it is small over a second
    assert 3.5 <= errs[0] / errs[1] <= 4.5
    assert errs[0] <= 5e-4 * length  # measured 1.0e-4 at h = 0.01 s, L = 1.5


def test_gravity_pulls_along_minus_z_in_space_and_minus_y_in_the_plane():
    """A free joint falls by g t^2 / 2 exactly (RATTLE is exact for a constant force)."""
    space = Simulator(Linkage([[1.0, 2.0, 3.0]]), mode="dynamic", step_size=0.1, gravity=G)
    plane = Simulator(Linkage([[1.0, 2.0]]), mode="dynamic", step_size=0.1, gravity=G)
    space.step(10)
    plane.step(10)
    assert space.positions[0] == pytest.approx([1.0, 2.0, 3.0 - 0.5 * G], abs=1e-12)
    assert space.velocities[0] == pytest.approx([0.0, 0.0, -G], abs=1e-12)
    assert plane.positions[0] == pytest.approx([1.0, 2.0 - 0.5 * G], abs=1e-12)
    # potential energy m g z (total mass 1 in the one joint)
    assert space.potential_energy() == pytest.approx(G * space.positions[0, 2], rel=1e-12)


# -------------------------------------------------------------------- Bricard
def flexing_bricard(h: float, seconds: float, speed: float = 0.3):
    """Line-symmetric Bricard octahedron (face ABC pinned) started along its flex."""
    link = bricard_line_symmetric(ground=True)
    cs = ConstraintSet.from_linkage(link)
    flex = null_space(cs.jacobian(link.vertices.reshape(-1)).toarray())
    assert flex.shape[1] == 1  # one flex, nothing else moves
    sim = Simulator(link, mode="dynamic", step_size=h, mass_distribution=0.4)
    sim.set_velocity(speed * flex[:, 0].reshape(-1, 3) / np.linalg.norm(flex))
    t0 = sim.kinetic_energy()
    energy, rods = [], []
    for _ in range(round(seconds / h)):
        sim.step()
        assert sim.status == "moved"
        energy.append(sim.kinetic_energy())
        rods.append(cs.relative_error(sim.positions))
    return sim, link, t0, np.array(energy), np.array(rods)


def test_force_free_bricard_keeps_its_kinetic_energy_and_rods():
    drift = []
    for h in (0.02, 0.01):
        sim, link, t0, energy, rods = flexing_bricard(h, seconds=1.0)
        drift.append(float(np.max(np.abs(energy - t0))) / t0)
        assert rods.max() <= 1e-10  # every rod, relative, after every step
    travel = np.linalg.norm(sim.positions - link.vertices, axis=1)
    assert travel.max() >= 0.05 * link.rod_lengths().min()  # it really flexed
    assert travel[[0, 2, 4]].max() == 0.0  # the pinned face, bit for bit
    assert drift[0] <= 1e-5  # measured 2.7e-6 at h = 0.02 s
    assert 3.0 <= drift[0] / drift[1] <= 5.0  # O(h^2)


# -------------------------------------------------------------------- springs
def spring_on_a_line(h: float, damping: float = 0.0, seconds: float = 2.0):
    """Joint 1 on a spring to pinned joint 0, stretched along (1, 2, 2)/3; no rods."""
    axis = np.array([1.0, 2.0, 2.0]) / 3.0
    rest, amplitude, k = 1.0, 0.2, 30.0
    link = Linkage([[0.0, 0.0, 0.0], (rest + amplitude) * axis], pinned=[0])
    sim = Simulator(link, mode="dynamic", step_size=h, total_mass=2.0)
    sim.add_spring(0, 1, k, rest, damping)
    sim.set_velocity([[0.0, 0.0, 0.0], axis])  # unit speed: T = m / 2
    mass = 2.0 * sim.kinetic_energy()
    sim.set_velocity(np.zeros((2, 3)))
    steps = round(seconds / h)
    pos = []
    for _ in range(steps):
        sim.step()
        pos.append(sim.positions[1].copy())
    return np.array(pos), h * np.arange(1, steps + 1), axis, rest, amplitude, k, mass


def test_spring_in_space_oscillates_as_the_closed_form():
    errs = []
    for h in (0.004, 0.002):
        pos, t, axis, rest, amplitude, k, mass = spring_on_a_line(h)
        omega = np.sqrt(k / mass)
        exact = (rest + amplitude * np.cos(omega * t))[:, None] * axis
        errs.append(float(np.max(np.linalg.norm(pos - exact, axis=1))))
        off_line = pos - (pos @ axis)[:, None] * axis
        assert np.abs(off_line).max() <= 1e-12  # the spring acts along its line only
    assert errs[0] <= 1e-3 * amplitude  # measured 4.4e-5 at h = 0.004 s
    assert 3.5 <= errs[0] / errs[1] <= 4.5  # O(h^2)


def test_damper_in_space_decays_as_the_closed_form():
    r"""Under-damped, :math:`\zeta = c / 2\sqrt{k m} < 1`, stretch
    :math:`x = A e^{-\zeta\omega t}(\cos\omega_d t + \tfrac{\zeta\omega}{\omega_d}\sin\omega_d t)`.
    """
    errs = []
    for h in (0.004, 0.002):
        pos, t, axis, rest, amplitude, k, mass = spring_on_a_line(h, damping=1.5)
        omega = np.sqrt(k / mass)
        zeta = 1.5 / (2.0 * np.sqrt(k * mass))
        wd = omega * np.sqrt(1.0 - zeta**2)
        decay = np.exp(-zeta * omega * t)
        x = amplitude * decay * (np.cos(wd * t) + zeta * omega / wd * np.sin(wd * t))
        errs.append(float(np.max(np.abs(pos @ axis - rest - x))))
    assert errs[0] <= 2e-3 * amplitude * 10
    assert 3.0 <= errs[0] / errs[1] <= 5.0  # O(h^2)


def test_spring_pendulum_in_space_keeps_its_energy():
    """A bob on a spring under gravity, no rods: T + V bounded, error O(h^2)."""
    drift = []
    for h in (0.004, 0.002):
        link = Linkage([[0.0, 0.0, 0.0], [0.8, 0.3, -0.6]], pinned=[0])
        sim = Simulator(link, mode="dynamic", step_size=h, gravity=G)
        sim.add_spring(0, 1, 40.0, 0.7)
        sim.set_velocity([[0.0, 0.0, 0.0], [0.0, 1.0, 0.5]])
        e0 = sim.kinetic_energy() + sim.potential_energy()
        energy = []
        for _ in range(round(2.0 / h)):
            sim.step()
            energy.append(sim.kinetic_energy() + sim.potential_energy())
        drift.append(float(np.max(np.abs(np.array(energy) - e0))) / abs(e0))
    assert drift[0] <= 1e-2
    assert 3.0 <= drift[0] / drift[1] <= 5.0


# ------------------------------------------------------------------- statics
def test_pinned_octahedron_hangs_still_and_its_pins_carry_its_weight():
    link = octahedron(ground=True)  # joints 0, 2, 4 pinned: Cauchy-rigid, nothing moves
    sim = Simulator(link, mode="dynamic", step_size=0.01, mass_distribution=0.5, gravity=G)
    sim.step(100)
    assert sim.status == "moved"
    assert np.abs(sim.positions - link.vertices).max() <= 1e-12
    assert sim.kinetic_energy() <= 1e-20
    reactions = sim.constraint_forces.pins  # (3, 3): the pins push up by the whole weight
    assert reactions.shape == (3, 3)
    assert reactions.sum(axis=0) == pytest.approx([0.0, 0.0, G * sim.total_mass], abs=1e-9)
    assert sim.accelerations.shape == (6, 3)
    assert np.abs(sim.accelerations).max() <= 1e-9


# ------------------------------------------------------------- what stays planar
@pytest.mark.parametrize(
    ("add", "what"),
    [
        (lambda sim: sim.add_motor(0, 1, 1.0), "a motor"),
        (lambda sim: setattr(sim, "table_friction", 0.3), "table friction"),
    ],
)
def test_motors_and_friction_stay_planar_in_dynamic_mode(add, what):
    sim = Simulator(Linkage([[0, 0, 0], [1, 0, 0]], rods=[(0, 1)]), mode="dynamic")
    with pytest.raises(NotImplementedError, match=f"{what} is planar, not for a 3-D linkage"):
        add(sim)
    assert sim.mode == "dynamic"
    sim.step(2)
    assert sim.status == "idle"  # it steps on; at rest nothing moves, so not "moved" (issue 22)
