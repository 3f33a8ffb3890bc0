"""Joint loads in the motion (``Simulator.add_load``): closed forms, energy, and statics."""

import math

import numpy as np
import pytest

from linkage_widget import Linkage, static_forces
from linkage_widget.motion import Simulator


def test_a_free_joint_under_a_load_accelerates_as_f_over_m():
    # One free joint of mass 2 (total_mass, no rods): x = f t^2 / (2 m). Velocity Verlet
    # is exact for a constant force, so the match is to round-off.
    sim = Simulator(Linkage([[0.0, 0.0]]), mode="dynamic", step_size=0.01, total_mass=2.0)
    index = sim.add_load(0, (3.0, -1.0))
    sim.step(100)
    t = sim.time
    assert t == pytest.approx(1.0)
    assert np.allclose(sim.positions[0], [3.0 * t**2 / 4.0, -1.0 * t**2 / 4.0], atol=1e-12)
    assert np.allclose(sim.accelerations[0], [1.5, -0.5], atol=1e-12)
    assert index == 0 and len(sim.actuators) == 1


def test_a_pendulum_with_a_sideways_load_conserves_energy():
    # A unit pendulum under gravity with a horizontal load on its bob: the load's potential
    # -f.p makes the total energy a constant of the motion (RATTLE: bounded, O(h^2) error).
    link = Linkage([[0.0, 0.0], [0.0, -1.0]], rods=[(0, 1)], pinned=[0])
    sim = Simulator(link, mode="dynamic", step_size=1e-3, gravity=9.81, total_mass=2.0)
    sim.add_load(1, (4.0, 0.0))
    e0 = sim.kinetic_energy() + sim.potential_energy()
    energies, kinetic = [], []
    for _ in range(200):
        sim.step(10)
        kinetic.append(sim.kinetic_energy())
        energies.append(kinetic[-1] + sim.potential_energy())
    swing = max(abs(e - e0) for e in energies)
    assert max(kinetic) > 0.5  # it does swing: the load turns its rest angle by 22 degrees
    assert swing < 1e-4 * max(1.0, abs(e0))


def test_a_damped_pendulum_settles_where_statics_balances_the_load():
    # Bob mass m = 1 (pivot pinned, mass split over both joints: total 2), load F sideways,
    # gravity m g down: rest at angle atan(F / (m g)) from the vertical, and the rod
    # tension there equals static_forces' answer for the same loads.
    g, force = 9.81, 5.0
    link = Linkage([[0.0, 0.0], [0.0, -1.0]], rods=[(0, 1)], pinned=[0])
    sim = Simulator(link, mode="dynamic", step_size=5e-3, gravity=g, total_mass=2.0, damping=2.0)
    sim.add_load(1, (force, 0.0))
    sim.step(4000)
    bob = sim.positions[1]
    assert math.atan2(bob[0], -bob[1]) == pytest.approx(math.atan2(force, g), abs=1e-7)
    settled = Linkage(sim.positions, rods=[(0, 1)], pinned=[0])
    statics = static_forces(settled, {1: (force, -g)})
    assert statics.balanced
    tension = sim.constraint_forces.rods[0]
    assert tension == pytest.approx(statics.rod_forces[0], rel=1e-6)
    assert tension == pytest.approx(math.hypot(force, g), rel=1e-6)


@pytest.mark.parametrize(
    ("vertex", "force", "error"),
    [(2, (1.0, 0.0), IndexError), (1, (math.inf, 0.0), ValueError), (1, (1.0,), ValueError)],
)
def test_a_bad_load_is_refused_and_changes_nothing(vertex, force, error):
    link = Linkage([[0.0, 0.0], [0.0, -1.0]], rods=[(0, 1)], pinned=[0])
    sim = Simulator(link, mode="dynamic", step_size=0.01)
    with pytest.raises(error):
        sim.add_load(vertex, force)
    assert sim.actuators == ()
