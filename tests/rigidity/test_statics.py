"""Statics: textbook trusses by hand, loads on mechanisms, angle torques, redundant rods.

Every solution is checked joint by joint with forces rebuilt from the geometry
(:func:`net_joint_forces`, which never uses the rigidity matrix), so the signs of
``rod_forces`` (tension positive), ``reactions`` (support on joint) and
``angle_torques`` (on the second arm, counter-clockwise positive) are tested, not assumed.
"""

import math

import numpy as np
import pytest
from conftest import reference_linkage
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from linkage_widget import Linkage, Simulator, StaticsReport, analyze, static_forces
from linkage_widget.constraints import ConstraintSet
from linkage_widget.mass import mass_matrix
from linkage_widget.rigidity import RANK_RTOL


def net_joint_forces(link: Linkage, report: StaticsReport, loads: np.ndarray) -> np.ndarray:
    """Sum of load, rod, angle and support forces at every joint, (n, 2), from the geometry."""
    p = link.vertices
    net = np.array(loads, dtype=float).reshape(-1, 2).copy()
    for (i, j), t in zip(link.rods, report.rod_forces, strict=True):
        pull = t * (p[j] - p[i]) / np.linalg.norm(p[j] - p[i])  # tension pulls i towards j
        net[i] += pull
        net[j] -= pull
    for (i, j, k), tau in zip(link.angles, report.angle_torques, strict=True):
        a, b = p[j] - p[i], p[k] - p[i]
        fk = tau * np.array([-b[1], b[0]]) / (b @ b)  # moment tau about i on the arm i->k
        fj = -tau * np.array([-a[1], a[0]]) / (a @ a)  # and -tau on the arm i->j
        net[j] += fj
        net[k] += fk
        net[i] -= fj + fk
    net[link.pinned] += report.reactions
    return net


def dense_min_norm(link: Linkage, f: np.ndarray) -> np.ndarray:
    """Independent solution: numpy's SVD least squares with the rank cut-off of analyze."""
    a = ConstraintSet.from_linkage(link).jacobian(link.vertices).toarray()
    return np.linalg.lstsq(a.T, np.ravel(f), rcond=RANK_RTOL)[0]


# ------------------------------------------------------------------ trusses by hand
@pytest.mark.parametrize("theta_deg", [20.0, 45.0, 63.0])
def test_two_bar_truss_against_the_angle(theta_deg):
    """Horizontal strut A-C and a tie B-C to a wall, weight W at the apex C."""
    theta, w, span = math.radians(theta_deg), 7.0, 3.0
    link = Linkage(
        [[0, 0], [0, span * math.tan(theta)], [span, 0]], [(0, 2), (1, 2)], pinned=[0, 1]
    )
    r = static_forces(link, {2: (0.0, -w)})
    tie, strut = w / math.sin(theta), -w / math.tan(theta)
    np.testing.assert_allclose(r.rod_forces, [strut, tie], rtol=1e-12)
    np.testing.assert_allclose(
        r.reactions, [[w / math.tan(theta), 0], [-w / math.tan(theta), w]], atol=1e-12
    )
    assert r.balanced and r.determinate and r.flex is None and r.self_stresses == 0
    assert r.residual <= 1e-12 * w
    np.testing.assert_allclose(net_joint_forces(link, r, [[0, 0], [0, 0], [0, -w]]), 0, atol=1e-12)


def warren_truss(bays: int = 4, side: float = 2.0) -> tuple[Linkage, int]:
    """Equilateral Warren truss; pinned at its left end, a vertical link to the ground at its right.

    The link (a rod from the right support to a pinned ground joint below it) is the
    roller of a textbook: it can push only along itself, vertically.
    """
    h = side * math.sqrt(3) / 2
    bottom = [[i * side, 0.0] for i in range(bays + 1)]
    top = [[(i + 0.5) * side, h] for i in range(bays)]
    ground = [[bays * side, -1.0]]
    b0, t0 = 0, bays + 1
    rods = [(b0 + i, b0 + i + 1) for i in range(bays)] + [
        (t0 + i, t0 + i + 1) for i in range(bays - 1)
    ]
    for i in range(bays):
        rods += [(b0 + i, t0 + i), (t0 + i, b0 + i + 1)]
    roller = len(rods)
    rods.append((bays, 2 * bays + 1))
    return Linkage(bottom + top + ground, rods, pinned=[0, 2 * bays + 1]), roller


def method_of_joints(
    link: Linkage, loads: np.ndarray, bays: int
) -> tuple[np.ndarray, float, np.ndarray]:
    """Hand solution: reactions from global equilibrium, then joint by joint, two unknowns each."""
    p, rods = link.vertices, [tuple(r) for r in link.rods.tolist()]
    span = p[bays, 0]
    moment = sum(p[i, 0] * loads[i, 1] - p[i, 1] * loads[i, 0] for i in range(len(p)))
    roller_up = -moment / span  # moments about the left support
    left = -loads.sum(axis=0) - [0.0, roller_up]
    tension = {}
    order = [x for i in range(bays) for x in (i, bays + 1 + i)] + [bays]
    for joint in order:
        force = (
            loads[joint] + (left if joint == 0 else 0) + ([0.0, roller_up] if joint == bays else 0)
        )
        unknown = []
        for r, (i, j) in enumerate(rods[:-1]):
            if joint in (i, j):
                other = j if i == joint else i
                unit = (p[other] - p[joint]) / np.linalg.norm(p[other] - p[joint])
                if r in tension:
                    force = force + tension[r] * unit
                else:
                    unknown.append((r, unit))
        if unknown:
            m = np.column_stack([u for _, u in unknown])
            values = np.linalg.solve(m, -force) if len(unknown) == 2 else [-(force @ unknown[0][1])]
            tension.update({r: v for (r, _), v in zip(unknown, values, strict=True)})
    return np.array([tension[r] for r in range(len(rods) - 1)]), roller_up, left


def test_warren_truss_by_the_method_of_joints():
    bays = 4
    link, roller = warren_truss(bays)
    loads = np.zeros((link.n_vertices, 2))
    loads[1:bays] = [[0.0, -10.0], [0.0, -20.0], [0.0, -5.0]]  # panel loads on the bottom chord
    loads[bays + 2] = [4.0, -3.0]  # and a wind load on the top chord
    r = static_forces(link, loads)
    forces, roller_up, left = method_of_joints(link, loads, bays)
    np.testing.assert_allclose(r.rod_forces[:roller], forces, rtol=1e-10, atol=1e-10)
    assert r.rod_forces[roller] == pytest.approx(
        -roller_up, rel=1e-12
    )  # the link is in compression
    np.testing.assert_allclose(r.reactions[0], left, atol=1e-10)
    np.testing.assert_allclose(r.reactions[1], [0.0, roller_up], atol=1e-10)
    assert r.balanced and r.determinate
    np.testing.assert_allclose(net_joint_forces(link, r, loads), 0, atol=1e-10)
    np.testing.assert_allclose(r.multipliers, dense_min_norm(link, loads), atol=1e-10)


def test_pinned_triangle_with_a_redundant_rod():
    """Rod 0-1 joins two supports: its force is indeterminate (one self-stress)."""
    link = Linkage([[0, 0], [4, 0], [1, 3]], [(0, 1), (1, 2), (0, 2)], pinned=[0, 1])
    f = np.array([[0, 0], [0, 0], [2.0, -5.0]])
    r = static_forces(link, f)
    assert r.balanced and not r.determinate and r.self_stresses == 1
    assert r.residual <= 1e-12 * np.linalg.norm(f)
    # the stress: tension in 0-1 held by the two supports, as analyze finds it
    expected = analyze(link).stresses
    assert abs(abs(r.stresses @ expected.T).item() - 1.0) < 1e-12
    assert (
        np.linalg.norm(ConstraintSet.from_linkage(link).jacobian(link.vertices).T @ r.stresses[0])
        < 1e-12
    )
    # least squares: the smallest forces, orthogonal to the stress, as numpy's SVD gives
    np.testing.assert_allclose(r.multipliers, dense_min_norm(link, f), atol=1e-12)
    assert abs(r.multipliers @ r.stresses[0]) < 1e-12
    # rods 1-2 and 0-2 are determinate: joint 2 alone fixes them
    u12, u02 = np.array([1.0, -1.0]) / 2**0.5, np.array([-1.0, -3.0]) / 10**0.5  # from joint 2
    np.testing.assert_allclose(
        r.rod_forces[1:], np.linalg.solve(np.column_stack([u12, u02]), -f[2])
    )
    np.testing.assert_allclose(net_joint_forces(link, r, f), 0, atol=1e-12)
    # adding the stress gives another equilibrium: the forces are unique only up to it
    assert "self-stress" in r.explanation


# --------------------------------------------------------------- mechanisms
def test_load_on_the_four_bar_is_unbalanced_and_names_the_flex():
    link = Linkage.load("four_bar.txt")
    f = np.zeros((4, 2))
    f[2] = [1.0, 0.5]
    r = static_forces(link, f)
    rigidity = analyze(link)
    v = rigidity.velocity_basis[0].reshape(-1)  # the one flex (two pins: no trivial motion)
    assert not r.balanced and r.flex_index == 0
    assert r.flex_work == pytest.approx(abs(f.reshape(-1) @ v), rel=1e-9)
    assert abs(r.flex.reshape(-1) @ v) == pytest.approx(1.0, abs=1e-9)  # it is that flex
    np.testing.assert_allclose(r.unresolved.reshape(-1), (f.reshape(-1) @ v) * v, atol=1e-12)
    assert r.residual == pytest.approx(r.flex_work, rel=1e-9)
    # what can be carried is carried: f - unresolved is in equilibrium at every joint
    np.testing.assert_allclose(net_joint_forces(link, r, f - r.unresolved), 0, atol=1e-12)
    assert "not balanced" in r.explanation and "velocity basis motion 0" in r.explanation
    assert "more supports" not in r.explanation  # a flex, not a rigid motion


def test_load_orthogonal_to_the_flex_of_the_four_bar_is_balanced():
    link = Linkage.load("four_bar.txt")
    v = analyze(link).velocity_basis[0].reshape(-1)
    f = np.random.default_rng(3).standard_normal(8)
    f -= (f @ v) * v
    r = static_forces(link, f.reshape(4, 2))
    assert r.balanced and r.determinate and r.flex is None and r.flex_work == 0.0
    assert r.residual <= 1e-12 * np.linalg.norm(f)
    np.testing.assert_allclose(net_joint_forces(link, r, f.reshape(4, 2)), 0, atol=1e-12)
    np.testing.assert_allclose(r.multipliers, dense_min_norm(link, f), atol=1e-10)


def test_a_push_along_the_crank_is_carried_by_it():
    link = Linkage.load("four_bar.txt")
    p = link.vertices
    along = (p[2] - p[0]) / np.linalg.norm(p[2] - p[0])
    r = static_forces(link, {2: 3.0 * along})
    assert r.balanced
    np.testing.assert_allclose(r.rod_forces, [3.0, 0.0, 0.0], atol=1e-12)  # crank stretched


def test_a_free_body_under_a_net_force_moves():
    tri = Linkage([[0, 0], [4, 0], [0, 3]], [(0, 1), (1, 2), (0, 2)])
    r = static_forces(tri, {0: (1.0, 0.0), 1: (1.0, 0.0), 2: (1.0, 0.0)})
    assert not r.balanced
    translation = np.tile([1.0, 0.0], (3, 1)) / 3**0.5
    np.testing.assert_allclose(r.flex, translation, atol=1e-12)
    assert "more supports" in r.explanation
    # a self-equilibrated pair pulling the rod 0-1 apart is carried as tension
    r = static_forces(tri, {0: (-2.0, 0.0), 1: (2.0, 0.0)})
    assert r.balanced
    np.testing.assert_allclose(r.rod_forces, [2.0, 0.0, 0.0], atol=1e-12)


# ------------------------------------------------------------------ angle torques
@pytest.mark.parametrize("load", [(3.0, -2.0), (0.0, -1.0), (-1.5, 0.5)])
def test_angle_torques_on_a_bent_bracket(load):
    """A bracket W-B-C bent at a right angle at B, built into a wall at W.

    Wall joint W and a ground point G behind it are pinned, with the rod W-G (a fixed
    angle needs rods on both arms; between two supports that rod is redundant, so its
    force is indeterminate); the fixed angle (W, G, B) is the built-in end, the fixed
    angle (B, W, C) the bend. By hand (moments of the load about W and about B;
    C - W = (a, -b)): the wall holds the bracket with the torque tau_W = -(a Fy + b Fx) on
    the arm W->B (the second arm of (W, G, B)), the bend holds C with tau_B = -b Fx on
    the arm B->C; tension in W-B = Fx, in B-C = -Fy. The self-stress (W-G and the two
    supports) touches none of them.
    """
    a, b = 2.0, 1.5
    fx, fy = load
    link = Linkage(
        [[0, 0], [-1, 0], [a, 0], [a, -b]],
        rods=[(0, 1), (0, 2), (2, 3)],
        angles=[(0, 1, 2), (2, 0, 3)],
        pinned=[0, 1],
    )
    r = static_forces(link, {3: load})
    assert r.balanced and not r.determinate and r.self_stresses == 1
    np.testing.assert_allclose(r.angle_torques, [-(a * fy + b * fx), -b * fx], atol=1e-12)
    np.testing.assert_allclose(r.rod_forces[1:], [fx, -fy], atol=1e-12)
    stress = np.zeros(9)
    stress[[0, 5, 7]] = 1 / 3**0.5  # rod W-G (rows: 3 rods, 2 angles, pins x, y)
    np.testing.assert_allclose(np.abs(r.stresses[0]), stress, atol=1e-12)
    np.testing.assert_allclose(r.reactions.sum(axis=0), [-fx, -fy], atol=1e-12)
    np.testing.assert_allclose(
        net_joint_forces(link, r, [[0, 0], [0, 0], [0, 0], load]), 0, atol=1e-12
    )


# ------------------------------------------------------------------ Attia's Peaucellier
def gravity(link: Linkage, mass_distribution: float, g: float = 9.81) -> np.ndarray:
    """Weights of joint masses and uniform rods (half of a rod's weight at each end), (n, 2)."""
    m = mass_matrix(link, mass_distribution, total_mass=1.0)
    return (m @ np.tile([0.0, -g], link.n_vertices)).reshape(-1, 2)


def holding_force(link: Linkage, loads: np.ndarray, crank: tuple[int, int]) -> np.ndarray:
    """The force at the crank tip, square to the crank, that balances ``loads`` (virtual work)."""
    v = analyze(link).velocity_basis[-1]  # the single flex
    pivot, tip = crank
    arm = link.vertices[tip] - link.vertices[pivot]
    u = np.array([-arm[1], arm[0]]) / np.linalg.norm(arm)
    hold = np.zeros_like(loads)
    hold[tip] = -(loads.reshape(-1) @ v.reshape(-1)) / (u @ v[tip]) * u
    return hold


@pytest.mark.parametrize(
    "name, crank", [("peaucellier.txt", (1, 2)), ("peaucellier_attia.txt", (0, 1))]
)
def test_peaucellier_joint_reactions_under_gravity(name, crank):
    link = Linkage.load(name)
    weights = gravity(link, mass_distribution=0.5)
    free = static_forces(link, weights)  # under gravity alone the mechanism falls
    assert not free.balanced and free.flex_index == 0  # two pins: the only motion is the flex
    held = weights + holding_force(link, weights, crank)
    r = static_forces(link, held)
    assert r.balanced and r.determinate
    np.testing.assert_allclose(
        net_joint_forces(link, r, held), 0, atol=1e-12 * np.abs(r.rod_forces).max()
    )
    # the supports carry the whole weight and the holding force: global equilibrium
    np.testing.assert_allclose(r.reactions.sum(axis=0), -held.sum(axis=0), atol=1e-12)
    np.testing.assert_allclose(r.multipliers, dense_min_norm(link, held), rtol=1e-9, atol=1e-12)


def test_attias_symmetric_start_is_an_equilibrium_with_joint_masses_only():
    """The example's own claim: point masses at the joints balance at Attia's start."""
    link = Linkage.load("peaucellier_attia.txt")
    r = static_forces(link, gravity(link, mass_distribution=0.0))
    assert r.balanced
    assert not static_forces(link, gravity(link, mass_distribution=1.0)).balanced


# ------------------------------------------------------------------ properties
@st.composite
def rigid_frameworks(draw):
    """Henneberg type-I chains on two pins, sometimes with extra (redundant) rods."""
    n = draw(st.integers(3, 12))
    coords = st.floats(-10, 10, allow_nan=False)
    points = np.array([[draw(coords), draw(coords)] for _ in range(n)])
    rods = [(0, 1)] if draw(st.booleans()) else []  # a rod between the pins is redundant
    for v in range(2, n):
        i, j = draw(st.lists(st.integers(0, v - 1), min_size=2, max_size=2, unique=True))
        rods += [(i, v), (j, v)]
    extra = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=3))
    for i, j in extra:
        if i != j and (i, j) not in rods and (j, i) not in rods:
            rods.append((i, j))
    loads = np.array([[draw(coords), draw(coords)] for _ in range(n)])
    return points, rods, loads


@settings(max_examples=60, deadline=None)
@given(rigid_frameworks())
def test_every_joint_of_a_rigid_framework_is_in_equilibrium(case):
    points, rods, loads = case
    lengths = np.linalg.norm(points[[i for i, _ in rods]] - points[[j for _, j in rods]], axis=1)
    assume(lengths.min() > 1e-2)
    link = Linkage(points, rods, pinned=[0, 1])
    rigidity = analyze(link)
    assume(rigidity.dof == 0 and rigidity.singular_values[-1] > 1e-4 * rigidity.singular_values[0])
    r = static_forces(link, loads)
    scale = max(np.abs(loads).max(), np.abs(r.multipliers).max(), 1.0)
    assert r.balanced
    assert np.abs(net_joint_forces(link, r, loads)).max() <= 1e-9 * scale
    assert r.self_stresses == rigidity.self_stresses
    np.testing.assert_allclose(r.multipliers, dense_min_norm(link, loads), atol=1e-9 * scale)


def test_self_stresses_and_flex_agree_with_analyze_on_a_penrose_tiling():
    link = Linkage.load(reference_linkage("penrose1t.txt"))
    rigidity = analyze(link)
    f = np.random.default_rng(1).standard_normal((link.n_vertices, 2))
    r = static_forces(link, f)
    assert r.self_stresses == rigidity.self_stresses
    # same space: the projector onto one basis maps the other onto itself
    np.testing.assert_allclose(
        r.stresses @ rigidity.stresses.T @ rigidity.stresses, r.stresses, atol=1e-8
    )
    kernel = rigidity.velocity_basis.reshape(rigidity.dof, -1)
    np.testing.assert_allclose(
        r.unresolved.reshape(-1), kernel.T @ (kernel @ f.reshape(-1)), atol=1e-8
    )
    assert r.balanced == (rigidity.dof == 0)


# ------------------------------------------------------------------ bad input
@pytest.mark.parametrize(
    "loads, error, words",
    [
        ({4: (1.0, 0.0)}, IndexError, "loaded vertex 4 out of range"),
        ({-1: (1.0, 0.0)}, IndexError, "loaded vertex -1 out of range"),
        ({True: (1.0, 0.0)}, TypeError, "loaded vertex must be an index"),
        ({"2": (1.0, 0.0)}, TypeError, "loaded vertex must be an index"),
        ({2: (float("nan"), 0.0)}, ValueError, "load on vertex 2 must be a finite (x, y) pair"),
        ({2: (1.0, 2.0, 3.0)}, ValueError, "load on vertex 2 must be a finite (x, y) pair"),
        ({2: "down"}, ValueError, "load on vertex 2"),
        (np.zeros((3, 2)), ValueError, "loads must have shape (4, 2)"),
        (np.full((4, 2), np.inf), ValueError, "load on vertex 0 has a non-finite coordinate"),
        ("heavy", ValueError, "loads must map vertex -> (fx, fy)"),
    ],
)
def test_bad_loads_are_refused_clearly(loads, error, words):
    link = Linkage.load("four_bar.txt")
    before = link.copy()
    with pytest.raises(error) as info:
        static_forces(link, loads)
    assert words in str(info.value)
    assert link == before


def test_no_constraints_and_no_load():
    point = Linkage([[1.0, 2.0]])
    assert static_forces(point, {0: (0.0, 0.0)}).balanced
    r = static_forces(point, {0: (0.0, -1.0)})
    assert not r.balanced and r.flex_work == 1.0 and r.rod_forces.shape == (0,)
    assert r.reactions.shape == (0, 2) and r.angle_torques.shape == (0,)


@pytest.mark.parametrize("rtol", [0.0, -1e-7, float("nan"), 1e-20, 1.0, "tight"])
def test_bad_tolerance_is_refused(rtol):
    with pytest.raises(ValueError, match="rtol must be"):
        static_forces(Linkage.load("four_bar.txt"), {2: (1.0, 0.0)}, rtol=rtol)


def test_a_load_on_a_pinned_joint_goes_to_its_support():
    link = Linkage.load("four_bar.txt")
    r = static_forces(link, {0: (2.0, -3.0)})
    assert r.balanced
    np.testing.assert_allclose(r.reactions, [[-2.0, 3.0], [0.0, 0.0]], atol=1e-12)
    np.testing.assert_allclose(r.rod_forces, 0.0, atol=1e-12)


@pytest.mark.parametrize("squares", [40, 300])
def test_a_long_braced_ladder_against_dense_least_squares(squares):
    """The beam of the benchmark, short enough for numpy: same forces, down to rtol=1e-12."""
    k = squares
    xs = np.arange(k + 1) * 10.0
    verts = np.column_stack([np.repeat(xs, 2), np.tile([0.0, 10.0], k + 1)])
    c = np.arange(k)
    rods = np.concatenate(
        [
            np.column_stack([2 * np.arange(k + 1), 2 * np.arange(k + 1) + 1]),
            np.column_stack([2 * c, 2 * c + 2]),
            np.column_stack([2 * c + 1, 2 * c + 3]),
            np.column_stack([2 * c, 2 * c + 3]),
        ]
    )
    link = Linkage(verts, rods, pinned=[0, 1])
    f = np.random.default_rng(5).standard_normal((link.n_vertices, 2))
    a = ConstraintSet.from_linkage(link).jacobian(link.vertices).toarray()
    for rtol in (RANK_RTOL, 1e-12):
        r = static_forces(link, f, rtol=rtol)
        lam = np.linalg.lstsq(a.T, f.reshape(-1), rcond=rtol)[0]
        assert r.balanced and r.self_stresses == 1  # the rung between the two pins
        np.testing.assert_allclose(r.multipliers, lam, atol=1e-9 * np.abs(lam).max())
        scale = np.abs(r.multipliers).max()
        assert np.abs(net_joint_forces(link, r, f)).max() <= 1e-9 * scale


def test_statics_and_dynamics_report_the_same_angle_torque_at_rest():
    # A cantilever held by a fixed angle (the case of tests/motion/test_constraint_forces):
    # at rest the simulator's constraint torque must be the statics answer, sign and all.
    g, ell, m = 9.81, 1.5, 1.0
    link = Linkage(
        [[0, 0], [1, 0], [1 + ell, 0]], rods=[(0, 1), (1, 2)], pinned=[0, 1], angles=[(1, 0, 2)]
    )
    report = static_forces(link, {v: (0.0, -m * g) for v in range(3)})
    sim = Simulator(link, mode="dynamic", step_size=1e-3, gravity=g, total_mass=3 * m)
    np.testing.assert_allclose(report.angle_torques, [m * g * ell], rtol=1e-12)
    np.testing.assert_allclose(sim.constraint_forces.angles, report.angle_torques, rtol=1e-10)
    np.testing.assert_allclose(sim.constraint_forces.rods, report.rod_forces, atol=1e-9)
