"""Motion generation (Burmester) checked on the four-bars it assembles.

Oracles: the poses put a body point at Z_i = d_i + R_i R_1^T (w - d_1) (written out here);
the four-bar built is driven by the package's ``kinematics`` (Newton continuation on its
rods, not the synthesis's construction) to each pose; the four-pose curves by the
classical concyclicity of four points (a 4x4 determinant, not the synthesis's
equations); for five poses the poses of a known four-bar's coupler (its two pivots must
be Burmester points) and an exact elimination by sympy (the resultant of the two
centre-point cubics), whose real roots less the three common poles are the Burmester
points. No published five-position example with its Burmester points was found in the
stored references, so this independent solve stands in for one.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from linkage_widget import MotionSynthesis, kinematics, motion_synthesis

A0, B0 = np.array([0.0, 0.0]), np.array([3.0, 0.4])
CRANK, COUPLER, ROCKER = 1.0, 3.2, 2.5
ORIGIN = np.array([1.2, 0.8])  # the body's origin in the coupler's frame (A, along A->B)


def _turn(t):
    return np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])


def _coupler_pose(theta):
    """The pose of a known four-bar's coupler at crank angle theta (circle intersection)."""
    a = A0 + CRANK * np.array([np.cos(theta), np.sin(theta)])
    e = B0 - a
    r = np.linalg.norm(e)
    along = (COUPLER**2 - ROCKER**2 + r * r) / (2 * r)
    b = a + along * e / r + np.sqrt(COUPLER**2 - along**2) * np.array([-e[1], e[0]]) / r
    phi = np.arctan2(*(b - a)[::-1])
    x, y = a + _turn(phi) @ ORIGIN
    return (x, y, phi)


CRANK_ANGLES = np.radians([20, 70, 130, 200, 280])
POSES = np.array([_coupler_pose(t) for t in CRANK_ANGLES])


def _positions(poses, w):
    """Where the world point w of the first pose's body is in every pose (by hand)."""
    m = _turn(poses[0, 2]).T @ (np.asarray(w) - poses[0, :2])
    return np.array([p[:2] + _turn(p[2]) @ m for p in poses])


def _assert_carries(s: MotionSynthesis, i, j, *, drive=True):
    """Dyads i, j: pivots at the poses' places, rods constant; and driven there by kinematics."""
    poses = s.poses
    zi, zj = _positions(poses, s.circle_points[i]), _positions(poses, s.circle_points[j])
    for z, c in ((zi, s.centre_points[i]), (zj, s.centre_points[j])):
        assert np.ptp(np.linalg.norm(z - c, axis=1)) < 1e-9
    assert np.ptp(np.linalg.norm(zi - zj, axis=1)) < 1e-9
    if not drive:
        return
    fb = s.four_bar(i, j)
    angles = np.unwrap(np.arctan2(zi[:, 1] - fb.linkage.vertices[0, 1], zi[:, 0]
                                  - fb.linkage.vertices[0, 0]))  # fmt: skip
    k = kinematics(fb.linkage, *fb.motor, angles)
    assert k.valid.all()
    np.testing.assert_allclose(k.positions[:, 2], zi, atol=1e-9)
    np.testing.assert_allclose(k.positions[:, 3], zj, atol=1e-9)
    if fb.coupler is not None:
        np.testing.assert_allclose(k.positions[:, fb.coupler], poses[:, :2], atol=1e-9)
    lengths = np.linalg.norm(np.diff(k.positions[:, fb.linkage.rods], axis=2)[:, :, 0], axis=2)
    assert np.ptp(lengths, axis=0).max() < 1e-9


GOOD = np.array([[0.25, 0.69], [2.31, 0.64]])  # circle points with no branch defect


def test_three_poses_from_chosen_circle_points():
    w = GOOD
    s = motion_synthesis(POSES[:3], circle_points=w)
    np.testing.assert_array_equal(s.circle_points, w)
    assert not s.branch_defect(0, 1)
    assert s.defect(0, 1) is None
    _assert_carries(s, 0, 1)
    # the centre by hand: the circumcentre of the three positions (sympy, exact)
    z = _positions(POSES[:3], w[0])
    cx, cy = sp.symbols("cx cy")
    d2 = [(cx - float(p[0])) ** 2 + (cy - float(p[1])) ** 2 for p in z]
    sol = sp.solve([d2[1] - d2[0], d2[2] - d2[0]], [cx, cy])
    np.testing.assert_allclose(s.centre_points[0], [float(sol[cx]), float(sol[cy])], atol=1e-10)


def test_three_poses_recover_the_four_bar_they_came_from():
    s = motion_synthesis(POSES[:3], circle_points=_coupler_pin(0))
    np.testing.assert_allclose(s.centre_points, [A0, B0], atol=1e-12)
    _assert_carries(s, 0, 1)


def _coupler_pin(k):
    """The crank and rocker pins of the known four-bar at pose k."""
    x, y, phi = POSES[k]
    a = np.array([x, y]) - _turn(phi) @ ORIGIN
    return a, a + COUPLER * np.array([np.cos(phi), np.sin(phi)])


def test_three_poses_from_chosen_centre_points_invert_the_construction():
    s = motion_synthesis(POSES[:3], centre_points=[A0, B0])
    np.testing.assert_allclose(s.circle_points, _coupler_pin(0), atol=1e-12)
    other = motion_synthesis(POSES[:3], centre_points=[[-1.0, 1.5], [4.0, -1.0]])
    _assert_carries(other, 0, 1, drive=False)


def test_a_branch_defect_is_flagged_and_is_one():
    s = motion_synthesis(POSES[:3], circle_points=[[1.05, 2.8], [-0.42, 2.79]])
    assert s.branch_defect(0, 1)
    _assert_carries(s, 0, 1, drive=False)  # each dyad meets the poses ...
    fb = s.four_bar(0, 1)
    zi, zj = _positions(POSES[:3], s.circle_points[0]), _positions(POSES[:3], s.circle_points[1])
    c = s.centre_points[0]
    k = kinematics(fb.linkage, *fb.motor, np.unwrap(np.arctan2(zi[:, 1] - c[1], zi[:, 0] - c[0])))
    # ... but the four-bar driven from the first pose does not reach them all
    assert np.linalg.norm(k.positions[:, 3] - zj, axis=1).max() > 1e-3
    assert s.defect(0, 1) == "branch"


def test_a_circuit_defect_is_flagged_and_is_one():
    # the same assembly branch in both poses, but on different circuits of the four-bar
    poses = np.array([[-0.403, 0.205, -1.404], [0.564, -0.321, -1.495]])
    s = motion_synthesis(poses, circle_points=[[0.868, 0.941], [0.64, -1.428]])
    assert s.defect(0, 1) == "circuit"
    assert s.branch_defect(0, 1)
    fb = s.four_bar(0, 1)
    zi, zj = _positions(poses, s.circle_points[0]), _positions(poses, s.circle_points[1])
    c = s.centre_points[0]
    start, end = np.arctan2(zi[:, 1] - c[1], zi[:, 0] - c[0])
    # driven from the first pose either way round, it never reaches the second's pins
    for sweep in (np.mod(end - start, 2 * np.pi), np.mod(end - start, 2 * np.pi) - 2 * np.pi):
        k = kinematics(fb.linkage, *fb.motor, start + np.linspace(0.0, sweep, 720))
        assert not k.valid.all() or np.linalg.norm(k.positions[-1, 3] - zj[1]) > 1e-3


def test_two_poses_put_the_centre_on_the_bisector():
    w = GOOD
    s = motion_synthesis(POSES[:2], circle_points=w)
    _assert_carries(s, 0, 1)
    for k in range(2):
        z = _positions(POSES[:2], w[k])
        seen = np.arccos(
            (z[0] - s.centre_points[k])
            @ (z[1] - s.centre_points[k])
            / np.prod(np.linalg.norm(z - s.centre_points[k], axis=1))
        )
        assert seen == pytest.approx(np.pi / 3, abs=1e-12)
    hinted = motion_synthesis(POSES[:2], circle_points=w, centre_points=[[0, 0], [3, 0]])
    _assert_carries(hinted, 0, 1, drive=False)
    z = _positions(POSES[:2], w[0])
    # the hint's projection: the centre moved from the hint along the chord only
    offset = hinted.centre_points[0] - np.array([0.0, 0.0])
    chord = z[1] - z[0]
    assert abs(offset[0] * chord[1] - offset[1] * chord[0]) < 1e-12


def test_four_poses_sample_the_burmester_curves():
    s = motion_synthesis(POSES[:4], samples=181)
    assert len(s.centre_points) > 100
    for c, w in zip(s.centre_points[::7], s.circle_points[::7], strict=False):
        z = _positions(POSES[:4], w)
        # concyclic: det [|z|^2, x, y, 1] vanishes, relative to its size
        m = np.column_stack([np.sum(z * z, axis=1), z, np.ones(4)])
        assert abs(np.linalg.det(m)) < 1e-9 * np.abs(m).max() ** 2 * 10
        assert np.ptp(np.linalg.norm(z - c, axis=1)) < 1e-9 * max(1.0, np.linalg.norm(c))
    # a pair of samples is a four-bar guiding the body through the four poses
    _assert_carries(s, 0, len(s.centre_points) // 3, drive=False)
    # the known four-bar's pivots are on the centre-point curve: samples pass near them
    for pivot in (A0, B0):
        assert np.linalg.norm(s.centre_points - pivot, axis=1).min() < 0.1


def _resultant_points(poses):
    """Real common points of the centre-point cubics of poses 1234 and 1235, by sympy."""
    x, y = sp.symbols("x y")

    def cubic(ps):
        d = [sp.Matrix([sp.Rational(p[0]), sp.Rational(p[1])]) for p in ps]
        cs = [(sp.Rational(np.cos(p[2])), sp.Rational(np.sin(p[2]))) for p in ps]
        r = [sp.Matrix([[co, -si], [si, co]]) for co, si in cs]
        c, out = sp.Matrix([x, y]), []
        for i in (1, 2, 3):
            u = 2 * (r[i].T * d[i] - r[0].T * d[0]) - 2 * (r[i] - r[0]).T * c
            w = (d[i].T * d[i])[0] - (d[0].T * d[0])[0] - 2 * ((d[i] - d[0]).T * c)[0]
            out.append([u[0], u[1], w])
        return sp.expand(sp.Matrix(out).det())

    d1, d2 = cubic(poses[:4]), cubic(poses[[0, 1, 2, 4]])
    found = []
    for xr in sp.Poly(sp.resultant(d1, d2, y), x).nroots(n=30, maxsteps=200):
        if abs(sp.im(xr)) > 1e-9:
            continue
        xr = float(sp.re(xr))
        for yr in np.roots([complex(v) for v in sp.Poly(d1.subs(x, xr), y).all_coeffs()]):
            if abs(yr.imag) < 1e-6 and abs(complex(d2.subs({x: xr, y: yr.real}))) < 1e-6:
                found.append((xr, yr.real))
    return np.array(found)


def _pole(p, q):
    """The pole of two poses by hand: the world point with the same body coordinates."""
    m = np.linalg.solve(_turn(p[2]) - _turn(q[2]), q[:2] - p[:2])
    return p[:2] + _turn(p[2]) @ m


def test_five_poses_give_the_burmester_points():
    s = motion_synthesis(POSES)
    got = s.centre_points
    assert len(got) in (2, 4)
    # the known four-bar's pivots and pins are a Burmester pair each
    for pivot, pin in zip((A0, B0), _coupler_pin(0), strict=True):
        k = np.argmin(np.linalg.norm(got - pivot, axis=1))
        np.testing.assert_allclose(got[k], pivot, atol=1e-9)
        np.testing.assert_allclose(s.circle_points[k], pin, atol=1e-9)
    # against sympy's elimination, less the poles P12, P13, P23 both cubics pass through
    want = _resultant_points(POSES)
    poles = np.array([_pole(POSES[i], POSES[j]) for i, j in ((0, 1), (0, 2), (1, 2))])
    want = np.array([w for w in want if np.linalg.norm(poles - w, axis=1).min() > 1e-6])
    assert len(want) == len(got) == 4
    for w in want:
        assert np.linalg.norm(got - w, axis=1).min() < 1e-7
    for i in range(4):
        for j in range(i + 1, 4):
            _assert_carries(s, i, j, drive=False)
    k0 = int(np.argmin(np.linalg.norm(got - A0, axis=1)))
    k1 = int(np.argmin(np.linalg.norm(got - B0, axis=1)))
    _assert_carries(s, k0, k1)


@pytest.mark.parametrize(
    ("poses", "kwargs", "match"),
    [
        (POSES[:1], {}, "give 2 to 5 poses"),
        (np.vstack([POSES, POSES[:1] + 1]), {}, "give 2 to 5 poses"),
        ([(0, 0, 0), (1, 1, 0.5), (0, 0, 0)], {}, "poses 0 and 2 coincide"),
        ([(0, 0, 0), (1, np.nan, 0)], {}, "pose 1 is not finite"),
        ([(0, 0), (1, 1)], {}, r"sequence of \(x, y, theta\)"),
        ("abc", {}, r"sequence of \(x, y, theta\)"),
        (POSES[:4], {"circle_points": [[0, 0], [1, 1]]}, "Burmester's, not chosen"),
        (POSES[:3], {"circle_points": [[0, 0]]}, "give two circle points"),
        (
            POSES[:3],
            {"circle_points": [[0, 0], [1, 1]], "centre_points": [[0, 0], [1, 1]]},
            "not both",
        ),  # fmt: skip
    ],
)
def test_bad_input_says_what(poses, kwargs, match):
    with pytest.raises(ValueError, match=match):
        motion_synthesis(poses, **kwargs)


def test_a_circle_point_on_a_line_in_three_poses_is_refused():
    # the body slides along x and turns about its origin: the origin stays on y = 0
    poses = [(0, 0, 0), (1, 0, 0.3), (3, 0, 0.5)]
    with pytest.raises(ValueError, match="circle point 0 is on one line"):
        motion_synthesis(poses, circle_points=[[0, 0], [0, 1]])


def test_a_four_bar_needs_two_dyads():
    s = motion_synthesis(POSES[:3])
    with pytest.raises(ValueError, match="two different dyads"):
        s.four_bar(1, 1)


# a five-pose problem whose second Burmester point lies near the curve's asymptotic
# direction from P12 (found by a multi-start least-squares solve of the four equations)
NEAR_ASYMPTOTE = np.array(
    [
        [-0.27748568911053817, -0.3213332606834973, -1.0466226864154022],
        [-0.08376274779773518, 0.31504378778391984, -1.0715233560029236],
        [0.8569481119264857, 0.6349025171505098, 0.3413852936812398],
        [0.14721610301568266, -0.2770837860644233, -0.8057395702479616],
        [-0.6588006750640301, 0.18224816361231944, 0.8364454326479585],
    ]
)


def _assert_concyclic(poses, centres, circles):
    """Every pair: the circle point's places in the poses equidistant from the centre."""
    for c, w in zip(centres, circles, strict=True):
        r2 = np.sum((_positions(poses, w) - c) ** 2, axis=1)
        assert np.ptp(r2) <= 1e-9 * r2.max()


def test_five_poses_find_a_point_near_the_asymptotic_direction():
    s = motion_synthesis(NEAR_ASYMPTOTE)
    want = np.array([[0.5987240645, 1.2292072583], [-6.6083129692, 4.3107012331]])
    assert len(s.centre_points) == 2
    for w in want:
        assert np.linalg.norm(s.centre_points - w, axis=1).min() < 1e-8
    _assert_concyclic(s.poses, s.centre_points, s.circle_points)


def _burmester_counts(problems) -> list[int]:
    """Real Burmester points of each five-pose problem (0 when refused for having none),
    each point checked concyclic by hand."""
    counts = []
    for poses in problems:
        try:
            s = motion_synthesis(poses)
        except ValueError as err:
            assert "no real Burmester point" in str(err)
            counts.append(0)
            continue
        counts.append(len(s.centre_points))
        _assert_concyclic(s.poses, s.centre_points, s.circle_points)
    return counts


def test_random_five_pose_problems_give_an_even_count():
    # of the four complex Burmester points the non-real come in conjugate pairs: 0, 2 or 4 real
    rng = np.random.default_rng(28)
    problems = [
        np.column_stack([rng.uniform(-1, 1, (5, 2)), rng.uniform(-np.pi, np.pi, 5)])
        for _ in range(200)
    ]
    counts = _burmester_counts(problems)
    assert all(k in (0, 2, 4) for k in counts), counts
    assert 4 in counts and 2 in counts


@pytest.mark.parametrize("hints", [[[0.0, 0.0]], [[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]]])
def test_two_poses_need_one_centre_hint_per_dyad(hints):
    with pytest.raises(ValueError, match=r"give 2 centre_points .*got " + str(len(hints))):
        motion_synthesis(POSES[:2], circle_points=GOOD, centre_points=hints)


@pytest.mark.parametrize("samples", [0.5, 0, 2.5])
def test_four_poses_need_a_whole_positive_sample_count(samples):
    with pytest.raises(ValueError, match="samples must be a whole number >= 1"):
        motion_synthesis(POSES[:4], samples=samples)


def test_three_poses_refuse_a_circle_point_at_a_pole_saying_so():
    p13 = _pole(POSES[0], POSES[2])
    with pytest.raises(ValueError, match=r"circle point 0 is the pole P13 \(at one place"):
        motion_synthesis(POSES[:3], circle_points=[p13, GOOD[1]])
    with pytest.raises(ValueError, match=r"centre point 1 is the pole P12"):
        motion_synthesis(POSES[:3], centre_points=[A0, _pole(POSES[0], POSES[1])])


def test_five_poses_with_far_pivots_give_each_point_once():
    # small turns put pivots tens of spreads away; a half-polished copy of one was kept
    poses = np.array(
        [
            [1.0531987114520953, 2.8738106630353806, 0.07314498956284099],
            [2.9889659542272815, 2.4198972001882235, 0.012784039374755474],
            [1.9061875118494311, -2.00215148256822, -0.1797448881986517],
            [2.922940904134316, -1.8481580506300672, 0.011681022362252769],
            [2.2943676930872194, 2.3492255982494386, -0.12562806280980668],
        ]
    )
    s = motion_synthesis(poses)
    assert len(s.centre_points) == 4
    gaps = np.linalg.norm(s.centre_points[:, None] - s.centre_points[None], axis=2)
    assert gaps[np.triu_indices(4, 1)].min() > 1e-3
    _assert_concyclic(s.poses, s.centre_points, s.circle_points)


def test_five_poses_whose_first_three_only_translate():
    # P12, P13, P23 at infinity: the points are found from a pole of two other poses
    rng = np.random.default_rng(3)
    problems = []
    for _ in range(20):
        poses = np.column_stack([rng.uniform(-1, 1, (5, 2)), rng.uniform(-3, 3, 5)])
        poses[1:3, 2] = poses[0, 2]
        problems.append(poses)
    counts = _burmester_counts(problems)
    assert all(k in (0, 2, 4) for k in counts), counts
    assert max(counts) > 0
