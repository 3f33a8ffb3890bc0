"""The kinematic Simulator in 3-D (issue 16): a pulled joint, rods kept, Cauchy vs Bricard."""

import itertools

import numpy as np
import pytest
from space_frameworks import double_banana

from linkage_widget import Linkage
from linkage_widget.constraints import ConstraintSet
from linkage_widget.motion import Simulator

# PyRigi's frameworkDB.Octahedron("Bricard_line"): symmetric about the z-axis
BRICARD_LINE = [[1, 0, 0], [-1, 0, 0], [1, 2, 1], [-1, -2, 1], [2, -1, -1], [-2, 1, -1]]
OCTAHEDRON_RODS = [(0, 2), (0, 3), (0, 4), (0, 5), (1, 2), (1, 3), (1, 4), (1, 5)]
OCTAHEDRON_RODS += [(2, 4), (2, 5), (3, 4), (3, 5)]


def pulled(link: Linkage, vertex: int, target, steps: int, step_size: float = 0.05):
    """Pull ``vertex`` toward ``target``; the relative rod errors after each step and the sim."""
    sim = Simulator(link, step_size=step_size)
    cs = ConstraintSet.from_linkage(link)
    sim.attract(vertex, target)
    errors = []
    for _ in range(steps):
        sim.step(1)
        errors.append(cs.relative_error(sim.positions))
    return sim, np.array(errors)


def test_bricard_octahedron_moves_by_a_finite_amount():
    link = Linkage(BRICARD_LINE, rods=OCTAHEDRON_RODS, pinned=[0, 2, 4])  # a face held
    start = link.vertices.copy()
    sim, errors = pulled(link, 3, start[3] + [0.0, 0.0, 3.0], steps=60)
    travel = np.linalg.norm(sim.positions - start, axis=1)
    edge = link.rod_lengths().min()
    assert travel[3] >= 0.1 * edge  # a joint travels at least 10 % of an edge
    assert travel[[0, 2, 4]].max() == 0.0  # the pins, bit for bit
    assert errors.max() <= 1e-10  # every rod length kept, relative, after every step
    assert sim.positions.shape == (6, 3)
    assert sim.attractor == (3, tuple(float(c) for c in start[3] + [0.0, 0.0, 3.0]))


def test_regular_octahedron_does_not_move():
    """Cauchy: a convex polyhedron with rigid faces is rigid; its octahedron does not flex."""
    pts = np.vstack([np.eye(3), -np.eye(3)])
    rods = [(i, j) for i, j in itertools.combinations(range(6), 2) if j != i + 3]
    link = Linkage(pts, rods=rods, pinned=[0, 1, 2])
    sim, errors = pulled(link, 3, [-1.0, 1.0, 1.0], steps=20)
    assert sim.status == "blocked"
    assert np.array_equal(sim.positions, link.vertices)


def test_a_free_rod_follows_the_pull_in_space():
    link = Linkage([[0, 0, 0], [1, 0, 0]], rods=[(0, 1)], pinned=[0])
    sim, errors = pulled(link, 1, [0.0, 0.0, 5.0], steps=200, step_size=0.1)
    assert sim.positions[1].tolist() == pytest.approx([0.0, 0.0, 1.0], abs=1e-3)
    assert errors.max() <= 1e-10


def test_both_modes_run_in_space_and_targets_are_triples():
    link = Linkage([[0, 0, 0], [1, 0, 0]], rods=[(0, 1)])
    assert Simulator(link, mode="dynamic").mode == "dynamic"  # tests/space/test_space_dynamics.py
    sim = Simulator(link)
    sim.mode = "dynamic"
    assert sim.mode == "dynamic"
    with pytest.raises(ValueError, match=r"target must be a finite \(x, y, z\) triple"):
        sim.attract(1, (2.0, 0.0))
    with pytest.raises(ValueError, match="mode must be one of"):
        Simulator(link, mode="flying")


def test_double_banana_moves_although_it_counts_rigid():
    """3n - m - 6 = 24 - 18 - 6 = 0, yet one banana turns about the axis of the poles."""
    link = double_banana()
    held = Linkage(link.vertices, rods=link.rods, pinned=[0, 1, 2])  # the first banana
    start = held.vertices.copy()
    target = start[6] + [0.0, 3.0, 0.0]
    sim, errors = pulled(held, 6, target, steps=40)
    travel = np.linalg.norm(sim.positions - start, axis=1)
    assert travel[6] >= 0.1 * held.rod_lengths().min()
    assert travel[:3].max() == 0.0  # the pins, bit for bit
    assert travel[3:5].max() <= 1e-12  # the rest of the held banana stays (round-off)
    assert errors.max() <= 1e-10
    # the second banana turned rigidly about the z-axis through the poles
    radial = np.linalg.norm(sim.positions[5:, :2], axis=1)
    assert radial == pytest.approx(np.linalg.norm(start[5:, :2], axis=1), rel=1e-9)


@pytest.mark.parametrize(
    ("add", "what"),
    [
        (lambda sim: sim.add_motor(0, 1, 1.0), "a motor"),
        (lambda sim: sim.add_torque(0, 1, 1.0), "a torque actuator"),
        (lambda sim: setattr(sim, "table_friction", 0.3), "table friction"),
    ],
)
def test_planar_drives_refuse_space_and_change_nothing(add, what):
    """Motors, the planar torque and the table have no meaning in space (loads do: issue 24)."""
    sim = Simulator(Linkage([[0, 0, 0], [1, 0, 0]], rods=[(0, 1)]))
    with pytest.raises(NotImplementedError, match=f"{what} is planar, not for a 3-D linkage: "):
        add(sim)
    assert (sim.motors, sim.actuators, sim.table_friction) == ((), (), 0.0)
    with pytest.raises(NotImplementedError, match="table friction is planar"):
        Simulator(Linkage([[0, 0, 0], [1, 0, 0]], rods=[(0, 1)]), table_friction=0.5)
