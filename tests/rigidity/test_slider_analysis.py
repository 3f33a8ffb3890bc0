"""Sliders and slots in the rigidity analysis (issue 25): DOF, trivial motions, bases.

Oracles: the slider-crank's closed form :math:`x(\\theta) = r\\cos\\theta +
\\sqrt{l^2 - r^2\\sin^2\\theta}` and the instant centres of rigid motions along lines,
worked out by hand in each test (never from the code under test).
"""

from __future__ import annotations

import numpy as np
import pytest

from linkage_widget import Linkage, analyze
from linkage_widget.constraints import ConstraintSet
from linkage_widget.rigidity import linkage_trivial_motions, trivial_motions


def slider_crank(r: float = 1.0, rod: float = 3.0, theta: float = 0.7) -> Linkage:
    """O pinned, crank O-A, rod A-B, the piston B on the x-axis (in-line)."""
    a = [r * np.cos(theta), r * np.sin(theta)]
    bx = a[0] + np.sqrt(rod**2 - a[1] ** 2)
    return Linkage(
        [[0.0, 0.0], a, [bx, 0.0]], rods=[(0, 1), (1, 2)], pinned=[0],
        sliders=[(2, (0.0, 0.0), (1.0, 0.0))],
    )  # fmt: skip


def trammel() -> Linkage:
    """Elliptic trammel: rod 0-1, joint 0 on the x-axis, joint 1 on the y-axis."""
    return Linkage(
        [[3.0, 0.0], [0.0, 4.0]], rods=[(0, 1)],
        sliders=[(0, (0.0, 0.0), (1.0, 0.0)), (1, (0.0, 0.0), (0.0, 1.0))],
    )  # fmt: skip


def _in_span(v: np.ndarray, basis: np.ndarray) -> float:
    """Distance of the unit ``v`` from the span of the orthonormal columns of ``basis``."""
    v = v / np.linalg.norm(v)
    return float(np.linalg.norm(v - basis @ (basis.T @ v)))


def _rotation_about(p: np.ndarray, centre: np.ndarray) -> np.ndarray:
    """Velocities of the points ``p`` (n, 2) turning about ``centre`` at unit rate, flat."""
    q = p - centre
    return np.column_stack([-q[:, 1], q[:, 0]]).reshape(-1)


@pytest.mark.parametrize("method", ["dense", "sparse"])
def test_slider_crank_has_one_internal_dof_and_no_trivial_motion(method):
    report = analyze(slider_crank(), method=method)
    assert (report.dof, report.trivial_dof, report.internal_dof) == (1, 0, 1)
    assert report.self_stresses == 0
    assert report.status == "flexible"
    assert report.maxwell_count == 1


@pytest.mark.parametrize("theta", [0.3, 0.7, 2.0, 4.0])
def test_slider_crank_flex_is_the_closed_form_piston_velocity(theta):
    r, rod = 1.0, 3.0
    link = slider_crank(r, rod, theta)
    flex = analyze(link).flexes(1)[0]
    # closed form: x = r cos t + sqrt(l^2 - r^2 sin^2 t); the crank tip moves at r per unit dt
    dx = -r * np.sin(theta) - r**2 * np.sin(theta) * np.cos(theta) / np.sqrt(
        rod**2 - r**2 * np.sin(theta) ** 2
    )
    rate = (np.cos(theta) * flex[1, 1] - np.sin(theta) * flex[1, 0]) / r  # the crank turning
    assert flex[2, 1] == pytest.approx(0.0, abs=1e-12)  # the piston stays on its line
    assert flex[2, 0] / rate == pytest.approx(dx, rel=1e-9)


@pytest.mark.parametrize("method", ["dense", "sparse"])
def test_elliptic_trammel_moves_as_an_internal_flex_about_the_instant_centre(method):
    link = trammel()
    report = analyze(link, method=method)
    # no rigid motion carries both crossing lines onto themselves: the turn is internal
    assert (report.dof, report.trivial_dof, report.internal_dof) == (1, 0, 1)
    assert report.status == "flexible"
    # the normals to the slides at (3, 0) and (0, 4) meet at (3, 4): the rod turns about it
    spin = _rotation_about(link.vertices, np.array([3.0, 4.0]))
    flex = report.flexes(1)[0].reshape(-1)
    assert _in_span(spin, flex[:, None]) < 1e-12


def test_one_slider_on_a_free_rod_leaves_the_slide_trivial_and_a_turn_internal():
    link = Linkage([[0.0, 0.0], [3.0, 4.0]], rods=[(0, 1)], sliders=[(0, (0, 0), (1, 0))])
    report = analyze(link)
    assert (report.dof, report.trivial_dof, report.internal_dof) == (2, 1, 1)
    assert "slide" in report.explanation
    basis = linkage_trivial_motions(link)
    assert basis.shape == (4, 1)
    slide = np.tile([1.0, 0.0], 2)  # along the line: the line goes onto itself
    assert _in_span(slide, basis) < 1e-12
    # a turn about a point of the normal keeps the joint on its line to first order, but
    # tilts the line: not a symmetry of the ground, so the flex, not a trivial motion
    turn = _rotation_about(link.vertices, np.array([0.0, 5.0]))
    kernel = report.velocity_basis.reshape(2, -1).T
    assert _in_span(turn, kernel) < 1e-12
    assert _in_span(turn, basis) > 0.1


def test_two_parallel_sliders_leave_only_the_slide():
    link = Linkage(
        [[0.0, 0.0], [3.0, 4.0]], rods=[(0, 1)],
        sliders=[(0, (0, 0), (1, 0)), (1, (0, 4), (-2, 0))],
    )  # fmt: skip
    report = analyze(link)
    assert (report.dof, report.trivial_dof, report.internal_dof) == (1, 1, 0)
    assert report.status == "infinitesimally rigid"


def test_a_rod_square_on_a_slider_at_a_dead_point_is_rigid():
    # pin (0, 0), rod to (1, 0), that joint on the vertical line x = 1: the turn about the
    # pin keeps it on the line to first order only (the naive trivial motion), and the
    # rod cannot move: a flex stopped at second order by the stress of rod and guide
    link = Linkage([[0, 0], [1, 0]], rods=[(0, 1)], pinned=[0], sliders=[(1, (1, 0), (0, 1))])
    report = analyze(link, with_mobility=True)
    assert (report.dof, report.trivial_dof, report.internal_dof) == (1, 0, 1)
    assert report.self_stresses == 1
    assert report.status == "rigid but infinitesimally flexible"
    assert report.mobility.dimension == 0


def test_trivial_motions_with_a_pin_and_a_slider_leave_nothing():
    p = [[0.0, 0.0], [2.0, 1.0]]
    assert trivial_motions(p, [0], sliders=([1], [[0.0, 1.0]])).shape == (4, 0)
    # even a slider whose normal passes through the pin: the turn tilts its line
    assert trivial_motions(p, [0], sliders=([1], [[2.0, 1.0] / np.sqrt(5.0)])).shape == (4, 0)
    with pytest.raises(ValueError, match="planar"):
        trivial_motions(np.zeros((2, 3)), sliders=([1], [[0.0, 1.0]]))


def test_velocity_basis_is_an_orthonormal_kernel_of_the_right_size():
    # before: a rigid motion the slider forbids was still counted (trivial + flex > dof)
    link = slider_crank()
    report = analyze(link)
    basis = report.velocity_basis.reshape(len(report.velocity_basis), -1)
    assert len(basis) == report.dof
    np.testing.assert_allclose(basis @ basis.T, np.eye(report.dof), atol=1e-12)
    a = ConstraintSet.from_linkage(link).jacobian(link.vertices).toarray()
    assert np.abs(a @ basis.T).max() < 1e-12


def test_pin_in_slot_counts_one_row_and_keeps_the_rigid_motions():
    # joint 2 slides in the slot of the pinned bar 0-1, rod 2-3 hangs from it: 2 DOF
    link = Linkage(
        [[0.0, 0.0], [4.0, 0.0], [1.0, 0.0], [1.0, 1.0]], rods=[(2, 3)], pinned=[0, 1],
        slots=[(0, 1, 2)],
    )  # fmt: skip
    report = analyze(link)
    assert (report.n_constraints, report.dof, report.trivial_dof) == (6, 2, 0)
    assert report.status == "flexible"
    # a slot is invariant under rigid motions: unpinned, all three remain
    free = Linkage([[0.0, 0.0], [4.0, 0.0], [1.0, 0.0]], slots=[(0, 1, 2)])
    assert analyze(free).trivial_dof == 3
