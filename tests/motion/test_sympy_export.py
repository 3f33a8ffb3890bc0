"""A linkage and its force elements exported to sympy.physics.mechanics (issue 24, item 8).

The oracle: the equations sympy derives (``LagrangesMethod`` with the rods as holonomic
constraints and the loads of sympy's own ``TorqueActuator`` and ``DuffingSpring``),
lambdified and integrated by :func:`scipy.integrate.solve_ivp` (DOP853, rtol 1e-10),
against the :class:`~linkage_widget.motion.Simulator` integrating the same linkage and
elements with RATTLE over 2 s. Only the linkage and the element values are shared.

Tolerance: RATTLE is second order, so the simulator's error is :math:`C h^2`. Measured
on this system (largest joint distance at t = 2 s, the mechanism about 2 long): 2.48e-5,
6.20e-6, 1.55e-6 at h = 2, 1, 0.5 ms (the ratio 4.0 each time: sympy's solution is
exact at this scale, its own error ~1e-10), so :math:`C \\approx 6.2` and at
h = 2 ms a tolerance of 5e-5 (twice the measured error) fails for any error in the
forces or the masses larger than that (an error of 1 % in the torque moves the
crank by ~1e-3 over 2 s).
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sm
from scipy.integrate import solve_ivp

from linkage_widget import Linkage, Motor, Spring, Torque
from linkage_widget.motion import Simulator
from linkage_widget.motion.symbolic import to_sympy_mechanics

SIDES = (1.0, 2.2, 1.6, 2.0)  # crank AB, coupler BC, rocker DC, ground AD


def four_bar(theta: float = 1.0) -> Linkage:
    """A B C D with A, D pinned; crank AB at ``theta``, the upper assembly of C."""
    a, b, c, d = SIDES
    A, D = np.zeros(2), np.array([d, 0.0])
    B = a * np.array([np.cos(theta), np.sin(theta)])
    r = np.linalg.norm(D - B)
    u = (D - B) / r
    x = (b * b - c * c + r * r) / (2 * r)
    C = B + x * u + np.sqrt(b * b - x * x) * np.array([-u[1], u[0]])
    return Linkage(np.array([A, B, C, D]), rods=[(0, 1), (1, 2), (3, 2)], pinned=[0, 3])


def torque_law(t, angle, speed):
    # sympy.cos takes a float too (and returns a number the simulator turns into a float)
    return 0.6 * sm.cos(2 * t) - 0.2 * speed


ELEMENTS = (
    Torque(0, 1, torque_law),
    Spring(1, 3, stiffness=3.0, rest_length=1.5, damping=0.1, nonlinear_stiffness=2.0),
)
MASS = {"mass_distribution": 0.5, "total_mass": 1.0, "gravity": 9.81}


@pytest.fixture(scope="module")
def exported():
    return to_sympy_mechanics(four_bar(), ELEMENTS, **MASS)


def test_sympys_equations_integrated_agree_with_the_simulator_over_2_s(exported):
    link = four_bar()
    y0 = exported.state(link.vertices, np.zeros((4, 2)))
    sol = solve_ivp(exported.rhs(), (0.0, 2.0), y0, method="DOP853", rtol=1e-10, atol=1e-12)
    assert sol.success
    want = exported.positions(sol.y[:, -1], link.vertices)
    # the rods hold in sympy's solution too (index-1 drift at the integrator's tolerance)
    lengths = np.linalg.norm(want[[1, 2, 2]] - want[[0, 1, 3]], axis=1)
    assert np.abs(lengths - SIDES[:3]).max() < 1e-8
    sim = Simulator(link, mode="dynamic", step_size=2e-3, **MASS)
    sim.add(*ELEMENTS)
    sim.step(1000)
    assert sim.time == pytest.approx(2.0)
    assert np.abs(want - link.vertices).max() > 0.3  # it moved: the test compares motion
    assert np.abs(sim.positions - want).max() < 5e-5


def test_the_system_is_made_of_sympys_parts(exported):
    assert exported.coordinates == tuple(
        sm.Function(n)(sm.Symbol("t")) for n in ("x1", "y1", "x2", "y2")
    )
    assert len(exported.constraints) == 3 and exported.method.lam_vec.shape == (3, 1)
    assert exported.equations_of_motion.shape == (4, 1)
    # particles: the two moving joints and the three rods' middles
    assert len(exported.particles) == 5
    total = sum(float(p.mass) for p in exported.particles)
    # a pinned joint's share never moves, nor do the rods' end particles on the pins
    assert 0 < total < MASS["total_mass"]
    # the torque's loads are TorqueActuator.to_loads(): on the crank's frame and the ground
    frames = [load for load in exported.loads if isinstance(load, sm.physics.mechanics.Torque)]
    assert len(frames) == 2 and frames[1].frame is exported.frame


def test_what_is_not_exported_is_refused_by_name():
    with pytest.raises(TypeError, match="element 0 is a motor"):
        to_sympy_mechanics(four_bar(), [Motor(0, 1, 1.0)])
    with pytest.raises(ValueError, match="spring 1-3 needs its rest_length"):
        to_sympy_mechanics(four_bar(), [Spring(1, 3, 1.0)])
    with pytest.raises(TypeError, match="the law of torque on 0-1 cannot take sympy"):
        to_sympy_mechanics(four_bar(), [Torque(0, 1, lambda t, a, w: np.cos(t))])
    space = Linkage([[0, 0, 0], [1, 0, 0]], rods=[(0, 1)], pinned=[0])
    with pytest.raises(NotImplementedError, match="3-D"):
        to_sympy_mechanics(space)


@pytest.mark.parametrize(("centre", "inertia"), [(0.95, None), (0.9, 0.001), (0.3, 0.05)])
def test_a_rod_of_its_own_mass_has_the_mass_matrix_the_simulator_uses(centre, inertia):
    """The particles sympy is given reproduce ``mass.mass_matrix`` on the moving joints.

    The oracle is the kinetic energy :math:`T = \\tfrac12 \\sum m |\\dot x|^2` of sympy's
    particles, whose Hessian in :math:`\\dot q` is the mass matrix; an off-centre rod
    (centre 0.95: its particle lies beyond the rod's end) is where a particle placed at
    the middle would be wrong.
    """
    from linkage_widget.mass import mass_matrix

    link = Linkage([[0, 0], [1, 0], [2, 0.5]], rods=[(0, 1), (1, 2)], pinned=[0])
    link.masses.set_rod(1, 2.0, centre, inertia)
    system = to_sympy_mechanics(link, (), mass_distribution=0.4, total_mass=1.5)
    frame = system.frame
    rates = [sm.diff(q, sm.Symbol("t")) for q in system.coordinates]
    energy = sum(p.mass * p.point.vel(frame).dot(p.point.vel(frame)) / 2 for p in system.particles)
    ours = np.array(sm.hessian(sm.expand(energy), rates).tolist(), dtype=float)
    moving = np.ravel([(2 * v, 2 * v + 1) for v in system.moving])
    expected = mass_matrix(link, 0.4, 1.5).toarray()[np.ix_(moving, moving)]
    assert np.abs(ours - expected).max() < 1e-12
