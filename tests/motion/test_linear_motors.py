"""Linear motors (issue 25): a slider's joint driven along its line, as a motor drives an angle."""

from __future__ import annotations

import numpy as np
import pytest

from linkage_widget import LinearMotor, Linkage
from linkage_widget.constraints import ConstraintSet, DriveRows, Push
from linkage_widget.motion import Simulator


def slider_crank(r=1.0, rod=3.0, theta=0.7, offset=0.3) -> Linkage:
    a = np.array([r * np.cos(theta), r * np.sin(theta)])
    bx = a[0] + np.sqrt(rod**2 - (a[1] - offset) ** 2)
    pts = [[0.0, 0.0], a, [bx, offset]]
    return Linkage(pts, rods=[(0, 1), (1, 2)], pinned=[0], sliders=[(2, (0.0, offset), (1, 0))])


def crank_angle_for(x: float, r=1.0, rod=3.0, offset=0.3) -> float:
    """The crank angle (upper branch) that puts the piston at x: |A - B| = rod, |A| = r."""
    b = np.array([x, offset])
    d = np.linalg.norm(b)
    # A on the circle |A| = r with |A - B| = rod: the angle of A from B's direction
    cos_gamma = (r**2 + d**2 - rod**2) / (2 * r * d)
    return float(np.arctan2(b[1], b[0]) + np.arccos(cos_gamma))


def test_push_rows_have_b_equal_to_the_speed_and_the_line_as_their_gradient():
    link = slider_crank()
    push = Push(2, (0.0, 0.3), (1.0, 0.0), float(link.vertices[2, 0]), -0.25)
    cs = ConstraintSet.from_linkage(link).with_drives(DriveRows.none().with_pushes([push], 0.0))
    assert cs.row_kinds().tolist()[-1] == "push"
    assert cs.velocity_target()[-1] == -0.25
    a = cs.jacobian(link.vertices).toarray()
    assert a[-1].tolist() == [0, 0, 0, 0, 1.0, 0]
    later = cs.at_time(2.0)  # the target moved back by 0.5: the piston is 0.5 ahead of it
    assert later.residuals(link.vertices)[-1] == pytest.approx(0.5, abs=1e-15)
    assert later.relative_residuals(link.vertices)[-1] == pytest.approx(0.5 / cs.length_scale)


@pytest.mark.parametrize("mode", ["kinematic", "dynamic"])
def test_a_linear_motor_drives_the_piston_and_the_crank_follows(mode):
    link = slider_crank()
    kwargs = dict(step_size=0.01) if mode == "kinematic" else dict(step_size=0.01, gravity=9.81)
    sim = Simulator(link, mode=mode, **kwargs)
    x0, speed = float(link.vertices[2, 0]), -0.5
    assert sim.add_linear_motor(0, speed) == 0
    assert sim.linear_motors[0].joint == 2
    for _ in range(100):
        sim.step()
        assert sim.status == "moved", sim.blocked_reason
    x = x0 + speed * sim.time
    assert sim.time == pytest.approx(1.0)
    assert sim.positions[2, 0] == pytest.approx(x, abs=1e-10)
    assert abs(sim.positions[2, 1] - 0.3) <= 1e-12
    a = sim.positions[1]
    assert np.arctan2(a[1], a[0]) == pytest.approx(crank_angle_for(x), abs=1e-9)


def test_a_linear_motor_force_is_the_power_it_puts_in():
    """dE/dt = F v along the slide (no damping, no other work)."""
    sim = Simulator(slider_crank(), mode="dynamic", step_size=1e-3, gravity=9.81)
    sim.mass_distribution = 0.5
    speed = -0.4
    sim.add(LinearMotor(0, speed))
    energies, forces = [], []
    for _ in range(300):
        sim.step()
        energies.append(sim.kinetic_energy() + sim.potential_energy())
        forces.append(sim.constraint_forces.pushes[0])
    power = np.gradient(np.array(energies), 1e-3)[5:-5]
    work = np.array(forces)[5:-5] * speed
    assert np.max(np.abs(power - work)) <= 1e-3 * np.max(np.abs(work))


def test_a_linear_motor_at_the_end_of_its_stroke_blocks_and_says_why():
    sim = Simulator(slider_crank(), step_size=0.05)
    sim.add_linear_motor(0, 0.5)  # outward: the rod and crank line up at x = 4 - r
    for _ in range(200):
        sim.step()
        if sim.status == "blocked":
            break
    assert sim.status == "blocked"
    assert "linear motor 0 (slider 0)" in sim.blocked_reason
    assert sim.positions[2, 0] <= 4.0 + 1e-9


def test_bad_linear_motors_are_refused_and_nothing_changes():
    sim = Simulator(slider_crank())
    with pytest.raises(IndexError, match="slider 1"):
        sim.add_linear_motor(1, 1.0)
    with pytest.raises(ValueError, match="linear motor speed"):
        sim.add_linear_motor(0, float("nan"))
    assert sim.linear_motors == ()
    sim.add_linear_motor(0, 1.0)
    sim.remove_linear_motor(0)
    assert sim.linear_motors == ()
