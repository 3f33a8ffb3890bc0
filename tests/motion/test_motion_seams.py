"""The seams inside linkage_widget.motion: steppers return state, only the facade assigns it.

Like ``scipy.integrate.OdeSolver.step``, a stepper takes what it needs (the shared
:class:`Setup`, the positions, the forces) and returns the new state; it neither
modifies its inputs nor reaches back into the :class:`Simulator`.
"""

from __future__ import annotations

import numpy as np
import pytest

from linkage_widget import Linkage, _checks
from linkage_widget.constraints import as_flat
from linkage_widget.elements import Spring
from linkage_widget.motion import Simulator, _rattle
from linkage_widget.motion._kinematic import KinematicStepper
from linkage_widget.motion._projection import held_residual, project
from linkage_widget.motion._rattle import Forces, rattle_step
from linkage_widget.motion._setup import Setup


@pytest.fixture
def peaucellier():
    link = Linkage.load("peaucellier.txt")
    return link, Setup.build(link, 0.0, 1.0), as_flat(link.vertices).copy()


def test_the_kinematic_stepper_returns_new_positions_and_leaves_its_input(peaucellier):
    link, setup, p = peaucellier
    before = p.copy()
    q, status = KinematicStepper().step(setup, p, (5, np.array([128.0, 200.0])), 5.0)
    assert status == "moved" and q is not p
    assert np.array_equal(p, before)
    assert q[11] == pytest.approx(before[11] + 5.0, rel=0.02)  # the output moved up its line
    assert setup.constraints.relative_error(q) < 1e-12


@pytest.mark.parametrize(
    ("attractor", "status"),
    [(None, "idle"), ((0, np.array([50.0, 50.0])), "blocked")],  # vertex 0 is pinned
)
def test_a_step_that_cannot_move_returns_its_input_itself(peaucellier, attractor, status):
    _, setup, p = peaucellier
    q, got = KinematicStepper().step(setup, p, attractor, 1.0)
    assert got == status and q is p


def test_rattle_returns_positions_velocities_and_status(peaucellier):
    _, setup, p = peaucellier
    v = np.zeros_like(p)
    forces = Forces(9.81, 0.0, None, 0.0, 0.0, None)
    p1, v1, status = rattle_step(setup, forces, p, v, 1 / 60)
    assert status == "moved" and p1 is not p and not v.any()
    assert v1.shape == p.shape and v1.any()
    assert setup.constraints.relative_error(p1) < 1e-12


def test_the_projection_brings_a_perturbed_point_back(peaucellier):
    _, setup, p = peaucellier
    fac = setup.mass_factor(p)
    floor = setup.roundoff(p)
    held = held_residual(setup, p, fac, floor)
    assert not held.any()  # exact data: nothing to hold
    q0 = p + 1e-3 * np.random.default_rng(0).standard_normal(p.shape)
    q, ok, _ = project(setup, q0, fac, held, floor, allow_refactor=True)
    assert ok and setup.constraints.relative_error(q) < 1e-12


def test_a_new_mass_gives_a_new_setup_sharing_the_caches(peaucellier):
    _, setup, _ = peaucellier
    assert setup.with_mass(0.0, 1.0) is setup
    heavier = setup.with_mass(0.5, 2.0)
    assert heavier.metric is not setup.metric and heavier.metric.layout.middles
    assert heavier.memo is setup.memo and heavier.factoriser is setup.factoriser


def test_the_simulator_keeps_the_one_spring():
    sim = Simulator(Linkage([[0.0, 0.0], [3.0, 4.0]]), mode="dynamic")
    sim.add_spring(0, 1, 2.0, damping=0.5)
    assert sim.springs == [Spring(0, 1, 2.0, 5.0, 0.5)]


def test_refusals_are_also_the_builtin_errors():
    with pytest.raises(TypeError) as not_a_number:
        _checks.positive("big", "step_size")
    assert isinstance(not_a_number.value, ValueError)
    with pytest.raises(IndexError) as out_of_range:
        _checks.vertex_index(6, 6, "vertex")
    assert isinstance(out_of_range.value, ValueError)


def test_a_short_angle_arm_sets_the_round_off_floor(monkeypatch):
    """An ulp turns a fixed-angle arm of length l by ulp / l radians: the floor must say so.

    The stateful model test's placement: arm 2-1 of the angle at 2 is 2.7e-4 long (no rod)
    at coordinates of 50. A floor from the rods alone (7e-15) was below what float64 can
    reach there: SHAKE did not converge (two projections in ten steps; from a nearby start,
    steps split MAX_SUBSTEP_DEPTH deep and taken unconverged).
    """
    xy = [
        [-40.0, -40.0],
        [-0.0020592581202096365, 49.23734617469637],
        [-0.0022670157302269196, 49.23717084792767],
        [-38.214005010488634, 16.990262788085136],
        [150.0, -50.0],
        [20.720799800720368, -29.39603665335417],
        [-8.747325786414212, -6.203805753365298],
        [5.9865785844018236, -17.800122495833495],
    ]
    link = Linkage(
        xy,
        rods=[(2, 3), (3, 6), (6, 7), (7, 5)],
        angles=[(2, 1, 3), (3, 2, 6)],
        pinned=[0, 4],
    )
    setup = Setup.build(link, 0.0, 1.0)
    p, v = as_flat(link.vertices).copy(), np.zeros(16)
    eps, arm = float(np.finfo(float).eps), float(np.hypot(*(link.vertices[1] - link.vertices[2])))
    assert setup.constraints.shortest_length(p) == pytest.approx(arm)
    assert setup.roundoff(p) >= eps * 150.0 / arm  # not 4 eps 150 / 18.75 (the shortest rod)
    converged = []

    def project_and_record(*args, **kwargs):
        result = project(*args, **kwargs)
        converged.append(result.ok)
        return result

    monkeypatch.setattr(_rattle, "project", project_and_record)
    forces = Forces(1000.0, 0.0, None, 0.0, 0.0, None)
    for _ in range(10):
        p, v, status = rattle_step(setup, forces, p, v, 0.05)
        assert status == "moved"
    assert all(converged) and len(converged) == 10  # one SHAKE projection per step, none split
    assert setup.constraints.relative_error(p) <= 10.0 * setup.roundoff(p)
