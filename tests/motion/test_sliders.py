"""Sliders and slots in the simulator (issue 25): drag and dynamics keep them, their forces."""

from __future__ import annotations

import numpy as np
import pytest

from linkage_widget import Linkage
from linkage_widget.motion import Simulator


def slider_crank(r=1.0, rod=3.0, theta=0.7, offset=0.3) -> Linkage:
    """O pinned, crank O-A, rod A-B, B on the line y = offset through (0, offset)."""
    a = np.array([r * np.cos(theta), r * np.sin(theta)])
    bx = a[0] + np.sqrt(rod**2 - (a[1] - offset) ** 2)
    pts = [[0.0, 0.0], a, [bx, offset]]
    return Linkage(pts, rods=[(0, 1), (1, 2)], pinned=[0], sliders=[(2, (0.0, offset), (1, 0))])


def trammel(length=2.0, phi=0.6) -> Linkage:
    """Elliptic trammel: A on the x-axis, B on the y-axis (a slot-free pair of sliders).

    C sits on the rod's line beyond B (a slot of A, B keeps it there), AC = 1.5 AB.
    """
    a = [length * np.cos(phi), 0.0]
    b = [0.0, length * np.sin(phi)]
    c = [a[0] - 1.5 * a[0], 1.5 * b[1]]
    sliders = [(0, (0.0, 0.0), (1.0, 0.0)), (1, (0.0, 0.0), (0.0, 1.0))]
    return Linkage([a, b, c], rods=[(0, 1), (1, 2)], sliders=sliders, slots=[(0, 1, 2)])


def off_line(sim: Simulator, joint: int, offset: float) -> float:
    """Distance of the piston from its line y = offset, relative to the crank-rod scale."""
    return abs(float(sim.positions[joint, 1]) - offset) / sim.constraints.length_scale


def test_a_dragged_slider_crank_keeps_its_piston_on_the_line():
    sim = Simulator(slider_crank(), step_size=0.05)
    worst = 0.0
    for target in [(-0.5, 0.9), (-0.9, -0.4), (0.6, -0.8), (1.0, 0.05)]:
        sim.attract(1, target)
        for _ in range(80):
            sim.step()
            worst = max(worst, off_line(sim, 2, 0.3))
    assert sim.positions[2, 0] > 2.0  # it moved along the line and back
    assert worst <= 1e-9
    assert sim.constraint_error() <= 1e-9


def test_a_falling_slider_crank_keeps_its_piston_on_the_line_and_its_energy():
    sim = Simulator(slider_crank(), mode="dynamic", step_size=0.005, gravity=9.81)
    sim.mass_distribution = 0.5
    e0 = sim.kinetic_energy() + sim.potential_energy()
    worst, xs = 0.0, []
    for _ in range(400):  # 2 s
        sim.step()
        assert sim.status == "moved"
        worst = max(worst, off_line(sim, 2, 0.3))
        xs.append(sim.positions[2, 0])
    assert worst <= 1e-9
    assert np.ptp(xs) > 1.0  # the crank swung: the piston travelled
    drift = abs(sim.kinetic_energy() + sim.potential_energy() - e0)
    assert drift <= 1e-3 * 9.81 * sim.total_mass  # RATTLE: bounded, O(h^2)


@pytest.mark.parametrize("mode", ["kinematic", "dynamic"])
def test_an_elliptic_trammel_keeps_its_joints_on_their_sliders(mode):
    link = trammel()
    kwargs = dict(step_size=0.02, gravity=9.81) if mode == "dynamic" else dict(step_size=0.05)
    sim = Simulator(link, mode=mode, **kwargs)
    if mode == "dynamic":
        sim.set_velocity([[1.0, 0.0], [0.0, 0.0], [0.0, 0.0]])
    else:
        sim.attract(2, (-1.5, 1.0))
    worst, semi = 0.0, (0.5 * 2.0, 1.5 * 2.0)  # C traces x^2/1^2 + y^2/3^2 = 1
    for _ in range(150):
        sim.step()
        p = sim.positions
        worst = max(worst, abs(p[0, 1]), abs(p[1, 0]))
        ellipse = (p[2, 0] / semi[0]) ** 2 + (p[2, 1] / semi[1]) ** 2 - 1.0
        assert abs(ellipse) <= 1e-9
    assert worst <= 1e-9 * 2.0
    assert np.linalg.norm(sim.positions[2] - link.vertices[2]) > 0.1


def test_a_motor_torque_with_a_slider_is_the_power_it_puts_in():
    """dE/dt = tau * omega while the motor drives (no damping, no other work)."""
    sim = Simulator(slider_crank(), mode="dynamic", step_size=1e-3, gravity=9.81)
    sim.mass_distribution = 0.5
    omega = 3.0
    sim.add_motor(0, 1, omega)
    energies, torques = [], []
    for _ in range(300):
        sim.step()
        energies.append(sim.kinetic_energy() + sim.potential_energy())
        torques.append(sim.motor_torques[0])
    power = np.gradient(np.array(energies), 1e-3)[5:-5]
    work = np.array(torques)[5:-5] * omega
    assert np.max(np.abs(power - work)) <= 1e-3 * np.max(np.abs(work))


def test_a_block_on_an_incline_at_rest_reports_its_normal_force():
    """A slider on a line at angle alpha: the guide carries m g cos(alpha), signed along n."""
    alpha = 0.4
    u = (np.cos(alpha), np.sin(alpha))
    block = Linkage([[2 * u[0], 2 * u[1]]], sliders=[(0, (0.0, 0.0), u)])
    sim = Simulator(block, mode="dynamic", gravity=9.81, total_mass=2.0)
    cf = sim.constraint_forces
    assert cf.sliders.shape == (1,) and cf.slots.shape == (0,)
    # n = (-sin a, cos a): the guide pushes the block up and off the line, +m g cos a
    assert cf.sliders[0] == pytest.approx(2.0 * 9.81 * np.cos(alpha), rel=1e-12)
    a = sim.accelerations[0]
    assert a == pytest.approx(-9.81 * np.sin(alpha) * np.array(u), rel=1e-12)


def test_a_slot_reports_the_force_across_its_line():
    """A joint in a horizontal slot of a pinned bar, under gravity: the slot carries its weight."""
    link = Linkage([[0.0, 0.0], [2.0, 0.0], [1.0, 0.0]], pinned=[0, 1], slots=[(0, 1, 2)])
    sim = Simulator(link, mode="dynamic", gravity=9.81, total_mass=3.0)
    cf = sim.constraint_forces
    # the free joint's mass: a third of the total (mass_distribution 0: all in the hinges)
    assert cf.slots[0] == pytest.approx(9.81 * 1.0, rel=1e-12)
