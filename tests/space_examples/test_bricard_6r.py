r"""Bricard's loops of six hinges (seed 001's first example) move; a generic loop does not.

Oracles, none of them the constructor's code:

- an independent Denavit–Hartenberg product, each link the composition of four
  elementary motions :math:`R_z(\theta) T_z(d) T_x(a) R_x(\alpha)` written out here,
  closes to the identity to 1e-12 and puts every hinge joint where the rods are;
- the DH parameters *measured* on the rod framework (common normals of the hinge
  rods' lines, computed here) equal the loop's stated ones to 1e-12;
- the symmetry conditions hold exactly on the fractions of each design;
- the package's ``analyze`` finds one internal motion for each Bricard loop and none
  for the generic one, and the ``Simulator`` (kinematic mode) carries a pulled joint
  along with every rod kept to 1e-9 (measured here), the measured hinge angles keeping
  the case's symmetry; the generic loop does not give.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from space_flex import counts, nontrivial_flexes, rod_lengths

from linkage_widget import analyze
from linkage_widget.examples import space
from linkage_widget.motion import Simulator

CASES = {
    "line_symmetric": space.bricard_6r_line_symmetric,
    "plane_symmetric": space.bricard_6r_plane_symmetric,
    "trihedral": space.bricard_6r_trihedral,
}
PLACEMENTS = {
    "line_symmetric": (-1.0, 1.0, 3.2),
    "plane_symmetric": (-4.0, -1.5, 1.0),
    "trihedral": (-1.8, 0.5, 2.0),
}


def _rot_z(t):
    return np.array(
        [[np.cos(t), -np.sin(t), 0, 0], [np.sin(t), np.cos(t), 0, 0], [0, 0, 1, 0], [0, 0, 0, 1.0]]
    )


def _rot_x(t):
    return np.array(
        [[1.0, 0, 0, 0], [0, np.cos(t), -np.sin(t), 0], [0, np.sin(t), np.cos(t), 0], [0, 0, 0, 1]]
    )


def _shift(x=0.0, z=0.0):
    m = np.eye(4)
    m[0, 3], m[2, 3] = x, z
    return m


def _dh_frames(loop):
    """The seven partial products of R_z(theta) T_z(d) T_x(a) R_x(alpha)."""
    frames = [np.eye(4)]
    for a, alpha, d, theta in zip(loop.a, loop.alpha, loop.d, loop.theta, strict=True):
        frames.append(frames[-1] @ _rot_z(theta) @ _shift(z=d) @ _shift(x=a) @ _rot_x(alpha))
    return frames


def _measured_dh(joints):
    """(a, alpha, d, theta) of the hinge lines P_i Q_i of a rod framework, each shape (6,)."""
    p, u = joints[0::2], joints[1::2] - joints[0::2]
    u = u / np.linalg.norm(u, axis=1, keepdims=True)
    foot_out, foot_in, normal = {}, {}, {}
    for i in range(6):
        j = (i + 1) % 6
        # p_i + s u_i - (p_j + t u_j) orthogonal to both lines: a 2 x 2 linear system
        m = np.array([[u[i] @ u[i], -u[i] @ u[j]], [u[i] @ u[j], -u[j] @ u[j]]])
        s, t = np.linalg.solve(m, [(p[j] - p[i]) @ u[i], (p[j] - p[i]) @ u[j]])
        foot_out[i], foot_in[j] = p[i] + s * u[i], p[j] + t * u[j]
    a, alpha, d, theta = (np.zeros(6) for _ in range(4))
    for i in range(6):
        j = (i + 1) % 6
        a[i] = np.linalg.norm(foot_in[j] - foot_out[i])
        normal[i] = (foot_in[j] - foot_out[i]) / a[i]
        alpha[i] = np.arctan2(np.cross(u[i], u[j]) @ normal[i], u[i] @ u[j])
    for i in range(6):
        d[i] = (foot_out[i] - foot_in[i]) @ u[i]
        x0, x1 = normal[(i - 1) % 6], normal[i]
        theta[i] = np.arctan2(np.cross(x0, x1) @ u[i], x0 @ x1)
    return a, alpha, d, theta


def _wrapped(x):
    return np.angle(np.exp(1j * np.asarray(x)))


def _loops():
    for case, thetas in PLACEMENTS.items():
        for theta in thetas:
            yield space.bricard_6r_loop(case, theta)
    yield from (space.generic_6r_loop(seed) for seed in range(3))


@pytest.mark.parametrize("loop", list(_loops()), ids=lambda lp: f"{lp.case}-{lp.theta[0]:.2f}")
def test_the_loop_closes_by_an_independent_dh_product(loop):
    frames = _dh_frames(loop)
    assert np.abs(frames[-1] - np.eye(4)).max() <= 1e-12
    link = space.revolute_loop_linkage(loop, hinge=0.5)
    joints = np.array(link.vertices)
    h = 0.5 * np.mean(loop.a)
    for i in range(6):
        assert np.allclose(joints[2 * i] - joints[0], frames[i][:3, 3], atol=1e-12, rtol=0)
        assert np.allclose(joints[2 * i + 1] - joints[2 * i], h * frames[i][:3, 2], atol=1e-12)


@pytest.mark.parametrize("loop", list(_loops()), ids=lambda lp: f"{lp.case}-{lp.theta[0]:.2f}")
def test_the_rods_carry_the_stated_dh_parameters(loop):
    a, alpha, d, theta = _measured_dh(np.array(space.revolute_loop_linkage(loop).vertices))
    assert np.allclose(a, loop.a, atol=1e-12, rtol=0) and np.allclose(d, loop.d, atol=1e-12)
    assert np.allclose(_wrapped(alpha - np.array(loop.alpha)), 0, atol=1e-12)
    assert np.allclose(_wrapped(theta - np.array(loop.theta)), 0, atol=1e-12)


def test_each_design_meets_its_case_exactly():
    for case in CASES:
        loop = space.bricard_6r_loop(case)
        a, t, d = (list(col) for col in zip(*loop.exact, strict=True))
        assert all(isinstance(x, Fraction) for x in a + t + d)
        assert np.allclose(loop.a, [float(x) for x in a], rtol=0, atol=0)
        assert np.allclose(np.tan(np.array(loop.alpha) / 2), [float(x) for x in t], atol=1e-15)
        if case == "line_symmetric":
            assert a[3:] == a[:3] and t[3:] == t[:3] and d[3:] == d[:3]
        elif case == "plane_symmetric":
            assert all(a[5 - i] == a[i] and t[5 - i] == -t[i] for i in range(3))
            assert d[0] == d[3] == 0 and all(d[6 - i] == -d[i] for i in (1, 2))
        else:  # trihedral: right twists alternating, no offsets, the sums of squares
            assert t == [1, -1] * 3 and d == [0] * 6
            assert sum(x * x for x in a[0::2]) == sum(x * x for x in a[1::2])


def test_the_pose_keeps_the_cases_symmetry_and_the_asked_angle():
    line = space.bricard_6r_loop("line_symmetric", 0.3).theta
    assert line[0] == 0.3 and np.allclose(line[3:], line[:3], atol=1e-12)
    plane = space.bricard_6r_loop("plane_symmetric", -1.0).theta
    assert np.allclose([plane[5], plane[4]], [plane[1], plane[2]], atol=1e-12)


@pytest.mark.parametrize("case", list(CASES))
def test_analysis_finds_one_motion_in_bricard_none_in_a_generic_loop(case):
    link = CASES[case]()
    assert (link.n_vertices, link.n_rods) == (12, 30)
    report = analyze(link)
    assert (report.internal_dof, report.self_stresses, report.maxwell_count) == (1, 1, 0)
    assert counts(np.array(link.vertices), np.array(link.rods)) == (1, 1)  # our own ranks
    generic = analyze(space.generic_6r())
    assert (generic.internal_dof, generic.self_stresses) == (0, 0)


def _pull(link, joint=4, steps=60):
    """Attract ``joint`` 30 % of the longest rod away along the flex (or straight out)."""
    p, rods = np.array(link.vertices), np.array(link.rods)
    lengths = rod_lengths(p, rods)
    flexes, _ = nontrivial_flexes(p, rods)
    direction = flexes[:, 0].reshape(p.shape)[joint] if flexes.shape[1] else p[joint]
    target = p[joint] + 0.3 * lengths.max() * direction / np.linalg.norm(direction)
    sim = Simulator(link, step_size=0.01 * lengths.max())
    worst = 0.0
    for _ in range(steps):
        sim.attract(joint, target)
        sim.step()
        q = np.array(sim.positions).reshape(p.shape)
        worst = max(worst, float(np.max(np.abs(rod_lengths(q, rods) / lengths - 1))))
    return p, q, lengths.max(), worst


@pytest.mark.parametrize("case", list(CASES))
def test_the_simulator_moves_bricards_loop_along_its_symmetric_motion(case):
    link = CASES[case](ground=True)
    p, q, longest, worst = _pull(link)
    assert np.linalg.norm(q[4] - p[4]) >= 0.1 * longest and worst <= 1e-9
    assert np.allclose(q[link.pinned], p[link.pinned])
    before, after = _measured_dh(p), _measured_dh(q)
    for x, y in zip(before[:3], after[:3], strict=True):  # a, alpha, d: the links stayed rigid
        assert np.allclose(_wrapped(x - y), 0, atol=1e-7)
    theta = after[3]
    assert abs(_wrapped(theta[0] - before[3][0])) > 0.05  # the hinges turned
    if case == "line_symmetric":
        assert np.allclose(_wrapped(theta[3:] - theta[:3]), 0, atol=1e-7)
    elif case == "plane_symmetric":
        assert np.allclose(_wrapped(theta[[5, 4]] - theta[[1, 2]]), 0, atol=1e-7)


def test_the_simulator_cannot_move_the_generic_loop():
    p, q, longest, worst = _pull(space.generic_6r(ground=True), steps=20)
    assert np.linalg.norm(q[4] - p[4]) < 1e-8 * longest and worst <= 1e-9


def test_bad_input_is_refused_by_name():
    with pytest.raises(ValueError, match="unknown Bricard case 'cube'"):
        space.bricard_6r_loop("cube")
    with pytest.raises(ValueError, match="theta = 3.0 is not on the motion of the trihedral"):
        space.bricard_6r_trihedral(3.0)
    with pytest.raises(ValueError, match="theta must be"):
        space.bricard_6r_line_symmetric(float("nan"))
    with pytest.raises(ValueError, match="seed must be a non-negative integer"):
        space.generic_6r(-1)
    with pytest.raises(ValueError, match="hinge"):
        space.generic_6r(hinge=0.0)


def test_the_cube_hexagon_is_a_trihedral_loop():
    """Corners 0, x, x+y, x+y+z, y+z, z of the unit cube; each hinge axis along the cube edge
    perpendicular to its two link edges (signs chosen): equal links, right twists alternating,
    no offsets — the trihedral case with all a_i equal, closed."""
    e = np.eye(3)
    corners = np.array([0 * e[0], e[0], e[0] + e[1], e[0] + e[1] + e[2], e[1] + e[2], e[2]])
    axes = np.array([e[1], e[2], -e[0], -e[1], -e[2], e[0]])
    joints = np.repeat(corners, 2, axis=0)
    joints[1::2] += axes
    a, alpha, d, theta = _measured_dh(joints)
    assert np.allclose(a, 1) and np.allclose(d, 0, atol=1e-12)
    assert np.allclose(alpha, [np.pi / 2, -np.pi / 2] * 3)
    loop = space.DHLoop(tuple(a), tuple(alpha), tuple(d), tuple(theta), (), "trihedral")
    assert np.abs(_dh_frames(loop)[-1] - np.eye(4)).max() <= 1e-12
