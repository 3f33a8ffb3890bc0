"""Watt I and Stephenson III path families checked against the package's own solvers.

Oracles: the built linkage driven by ``kinematics`` (the constraint rows of its rods,
solved dyad by dyad from the placement ``build`` made, not the family's chain); every rod
of the built linkage keeps the length it has there; ``analyze`` counts the degrees of
freedom from the rigidity matrix; a mirror image written out by hand (the reflection of
a point in a line); the circle-meeting condition of the first loop and the law of
cosines (transmission angles) written out by hand. Path synthesis is asked for the curve
of a known six-bar traced by ``kinematics``, and its candidate driven by ``kinematics``
again.
"""

from __future__ import annotations

import numpy as np
import pytest

from linkage_widget import analyze, kinematics, path_synthesis
from linkage_widget.synthesis._family import PathFamily
from linkage_widget.synthesis.six_bar import STEPHENSON, WATT, six_bar_joints

FAMILIES = [WATT, STEPHENSON]
TURN = 0.3 + np.linspace(0, 2 * np.pi, 91)
#: Designs by hand (the module doc's order) that assemble over the whole turn on all four
#: branches: C0 = (3, 0), rods b = 3.5, c = 3.2, D off its link; Watt: F on the coupler
#: at (0.5, -0.6), rods e = 3, f = 2.5; Stephenson: E0 = (2, -3), rods e = 4.5, f = 3.5.
BY_HAND = {
    "watt": np.array([3.0, 3.5, 3.2, 0.5, 0.6, 0.5, -0.6, 3.0, 2.5, 0.4, -0.5]),
    "stephenson": np.array([3.0, 3.5, 3.2, 0.5, 0.6, 2.0, -3.0, 4.5, 3.5, 0.4, -0.5]),
}
#: Pinned vertices and rods of the built six-bars: the seven links (a ternary link is a
#: triangle of three rods) and the two rods that hold the tracer.
PINNED = {"watt": [0, 1], "stephenson": [0, 1, 5]}
RODS = {"watt": 11, "stephenson": 9}


def _assembling(family: PathFamily, count: int, seed: int = 7):
    """``count`` designs that assemble over the whole turn: one by hand, the rest sampled."""
    q, sigma = family.sample(np.random.default_rng(seed), 200)
    whole = np.isfinite(family.trace(q, sigma, TURN)).all(axis=(1, 2))
    q, sigma = q[whole][: count - 1], sigma[whole][: count - 1]
    return np.vstack([BY_HAND[family.name], q]), np.vstack([[1.0, -1.0], sigma])


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
def test_the_families_declare_their_shapes(family):
    assert family.name in ("watt", "stephenson")
    assert (family.size, family.signs) == (11, 2)
    q, sigma = family.sample(np.random.default_rng(0), 5)
    assert q.shape == (5, 11) and sigma.shape == (5, 2)
    assert family.trace(q, sigma, TURN).shape == (5, len(TURN), 2)


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
def test_trace_is_the_curve_kinematics_drives_the_built_linkage_through(family):
    q, sigma = _assembling(family, 4)
    assert len(q) == 4
    traced = family.trace(q, sigma, TURN)
    for i in range(len(q)):
        linkage, tracer, motor = family.build(q[i], sigma[i], TURN[0])
        k = kinematics(linkage, *motor, TURN)
        assert k.valid.all()
        assert np.abs(k.positions[:, tracer] - traced[i]).max() < 1e-9


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
def test_every_rod_keeps_its_length_at_the_traced_positions(family):
    q, sigma = _assembling(family, 4)
    joints = six_bar_joints(family.name, q, sigma, TURN)
    assert np.array_equal(joints[:, :, 7], family.trace(q, sigma, TURN))
    for i in range(len(q)):
        linkage, tracer, motor = family.build(q[i], sigma[i], 1.0)
        assert (tracer, motor) == (7, (0, 2))
        assert linkage.rods.shape == (RODS[family.name], 2)
        i0, i1 = linkage.rods.T
        lengths = np.linalg.norm(joints[i][:, i0] - joints[i][:, i1], axis=-1)
        assert np.abs(lengths - linkage.rod_lengths()).max() < 1e-12
        crank = np.linalg.norm(joints[i][:, 2] - joints[i][:, 0], axis=-1)
        assert np.abs(crank - 1.0).max() < 1e-12  # the normalised frame: crank 1 at A0 = 0
        assert sorted(linkage.pinned) == PINNED[family.name]


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
def test_the_built_six_bar_has_one_degree_of_freedom(family):
    for q, sigma in zip(*_assembling(family, 3), strict=True):
        report = analyze(family.build(q, sigma, 0.7)[0])
        assert (report.dof, report.trivial_dof, report.internal_dof) == (1, 0, 1)


def _mirror(x, a, b):
    """The reflection of points ``x`` in the line through ``a`` and ``b``, by hand."""
    u = (b - a) / np.linalg.norm(b - a, axis=-1, keepdims=True)
    r = x - a
    return a + 2 * np.sum(r * u, axis=-1, keepdims=True) * u - r


def _side(a, b, x):
    """The sign of the turn a -> b -> x."""
    d, e = b - a, x - a
    return np.sign(d[..., 0] * e[..., 1] - d[..., 1] * e[..., 0])


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
def test_the_branch_signs_choose_the_mirror_assembly(family):
    q = np.repeat(BY_HAND[family.name][None], 4, axis=0)
    sigma = np.array([[1.0, 1.0], [-1.0, 1.0], [1.0, -1.0], [-1.0, -1.0]])
    j = six_bar_joints(family.name, q, sigma, TURN)
    a, c0, b, d, f, e = (j[:, :, v] for v in (2, 1, 3, 4, 5, 6))
    assert np.isfinite(j).all()
    assert (_side(a, c0, b) == sigma[:, :1]).all()  # sigma_1: the side of B off A -> C0
    assert (_side(d, f, e) == sigma[:, 1:]).all()  # sigma_2: the side of E off D -> F
    # sigma_1 flipped: B mirrored in the line A C0; sigma_2 flipped alone: only E mirrored
    assert np.abs(b[1] - _mirror(b[0], a[0], c0[0])).max() < 1e-12
    assert np.array_equal(j[2, :, :6], j[0, :, :6])
    assert np.abs(e[2] - _mirror(e[0], d[0], f[0])).max() < 1e-12


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
def test_trace_is_nan_exactly_where_the_first_loop_cannot_close(family):
    # b + c = 4.3 < g + 1 = 5: the crank pin A too far from C0 near theta = pi
    q = BY_HAND[family.name].copy()
    q[[0, 1, 2]] = 4.0, 2.5, 1.8
    theta = np.linspace(0, 2 * np.pi, 360, endpoint=False)
    apart = np.hypot(np.cos(theta) - 4.0, np.sin(theta))
    closes = (apart <= 4.3) & (apart >= 0.7)
    assert 0 < closes.sum() < len(theta)
    traced = family.trace(q[None], np.array([[1.0, 1.0]]), theta)[0]
    first = six_bar_joints(family.name, q[None], np.array([[1.0, 1.0]]), theta)[0, :, 3]
    assert np.array_equal(np.isfinite(first[:, 0]), closes)
    assert not np.isfinite(traced[~closes]).any()


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
def test_sample_spreads_designs_that_mostly_assemble(family):
    q, sigma = family.sample(np.random.default_rng(3), 2000)
    assert np.isin(sigma, (-1.0, 1.0)).all() and len(np.unique(sigma, axis=0)) == 4
    assert all(family.bounds(x) for x in q)
    assembled = np.isfinite(family.trace(q, sigma, TURN)[..., 0]).mean(axis=1)
    assert (assembled == 1).mean() > 0.6  # the whole turn
    assert (assembled > 0.5).mean() > 0.95  # more than half of it
    assert 0.01 < (assembled < 1).mean()  # and some only over part of it: open curves
    again, _ = family.sample(np.random.default_rng(3), 2000)
    assert np.array_equal(q, again)


DEGENERATE = {
    "C0 on A0": (0, 0.0),
    "rod b of zero length": (1, 0.0),
    "rod c negative": (2, -1.0),
    "D on the line of its link": (4, 0.0),
    "rod f of zero length": (8, 0.0),
    "P on the line D E": (10, 0.0),
    "not finite": (3, np.nan),
    "rod e longer than 25 cranks": (7, 26.0),
    "P 25 cranks off its link": (9, 10.0),
}
#: Each family's own: Watt's F on the coupler, Stephenson's third pivot E0 = F.
DEGENERATE_OF = {
    "watt": {"F on the line of the coupler": (6, 0.0), "F 25 cranks off it": (5, 10.0)},
    "stephenson": {
        "E0 on A0": ([5, 6], (0.0, 0.0)),
        "E0 on C0": ([5, 6], (3.0, 0.0)),
        "E0 25 cranks away": (5, 25.5),
    },
}
CASES = [(f, case, change) for f in FAMILIES for case, change in
         ({**DEGENERATE, **DEGENERATE_OF[f.name]}).items()]  # fmt: skip


@pytest.mark.parametrize(("family", "case", "change"), CASES, ids=lambda x: getattr(x, "name", x))
def test_bounds_rejects_degenerate_designs_and_build_refuses_them(family, case, change):
    q = BY_HAND[family.name].copy()
    assert family.bounds(q)
    where, value = change
    q[where] = value
    assert not family.bounds(q), case
    with pytest.raises(ValueError, match="not a design"):
        family.build(q, np.ones(2), 0.3)


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
def test_build_refuses_an_angle_where_the_design_does_not_assemble(family):
    q = BY_HAND[family.name].copy()
    q[[0, 1, 2]] = 4.0, 2.5, 1.8  # cannot reach theta = pi (the NaN test's design)
    assert not family.bounds(q[:5])  # a wrong shape is no design either
    with pytest.raises(ValueError, match="does not assemble at crank angle"):
        family.build(q, np.ones(2), np.pi)


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
def test_describe_gives_the_transmission_angles_of_both_dyads(family):
    q, sigma = BY_HAND[family.name], np.array([1.0, -1.0])
    linkage, _, motor = family.build(q, sigma, TURN[0])
    p = kinematics(linkage, *motor, TURN).positions
    g, b, c, e, f = q[[0, 1, 2, 7, 8]]

    def law_of_cosines(near, far, r):  # the angle opposite r in a triangle of sides near, far
        return np.degrees(np.arccos((near**2 + far**2 - r**2) / (2 * near * far)))

    at_b = law_of_cosines(b, c, np.hypot(np.cos(TURN) - g, np.sin(TURN)))  # |A - C0|
    at_e = law_of_cosines(e, f, np.linalg.norm(p[:, 4] - p[:, 5], axis=1))  # |D - F|
    both = np.concatenate([at_b, at_e])
    grashof, (low, high) = family.describe(q, sigma, TURN)
    assert grashof is None  # a four-bar's class; a six-bar has none
    assert abs(low - both.min()) < 1e-9 and abs(high - both.max()) < 1e-9


#: Known six-bars whose curves path synthesis is asked for: Watt I one the sampler drew
#: (rounded), Stephenson III the hand design, on the branches (sigma_1, sigma_2) given.
KNOWN = {
    "watt": ([2.426, 2.629, 1.827, 0.333, -0.186, 1.187, -0.537, 2.77, 2.31, 1.253, 0.715],
             [1.0, -1.0]),
    "stephenson": (list(BY_HAND["stephenson"]), [1.0, -1.0]),
}  # fmt: skip
TARGET_ANGLES = 0.2 + np.linspace(0, 2 * np.pi, 48, endpoint=False)


def _known_curve(family: PathFamily) -> np.ndarray:
    """The known six-bar's tracer at the target angles, by ``kinematics``, moved and scaled."""
    q, sigma = KNOWN[family.name]
    linkage, tracer, motor = family.build(np.array(q), np.array(sigma), TARGET_ANGLES[0])
    k = kinematics(linkage, *motor, TARGET_ANGLES)
    assert k.valid.all()
    turn = np.array([[0.6, -0.8], [0.8, 0.6]])
    return 10.0 * k.positions[:, tracer] @ turn.T + [3.0, -4.0]


def _size(points: np.ndarray) -> float:
    return float(np.sqrt(np.mean(np.sum((points - points.mean(axis=0)) ** 2, axis=1))))


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
def test_path_synthesis_recovers_a_known_six_bars_timed_curve(family):
    points = _known_curve(family)
    best = path_synthesis(points, kind=family.name, timing=TARGET_ANGLES, k=1)[0]
    assert best.kind == family.name and best.traverses and best.note == ""
    assert best.error < 1e-6 * _size(points)
    # the candidate, driven on its own by kinematics, passes through the target's points
    k = kinematics(best.linkage, *best.motor, best.angles)
    assert k.valid.all()
    assert np.abs(k.positions[:, best.coupler] - points).max() < 1e-6 * _size(points)
    steps = np.diff(best.angles)  # at the target's timing, up to one offset
    assert np.abs(steps - np.diff(TARGET_ANGLES)).max() < 1e-9


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
def test_path_synthesis_fits_a_known_six_bars_curve_without_timing(family):
    # Without timing each point's crank angle is free and the search stalls short of the
    # timed 1e-6: measured 9e-4 (Watt) and 5e-5 (Stephenson) of the curve's size, where
    # the best four-bar the same search finds is off by 2.7e-2 and 2.7e-3.
    points = _known_curve(family)
    size = _size(points)
    best = path_synthesis(points, kind=family.name, k=1)[0]
    k = kinematics(best.linkage, *best.motor, best.angles)
    rms = np.sqrt(np.mean(np.sum((k.positions[:, best.coupler] - points) ** 2, axis=1)))
    assert abs(rms - best.error) < 1e-9 * size
    assert best.error < 2e-3 * size
    four_bar = path_synthesis(points, kind="four-bar", k=1)[0]
    assert best.error < four_bar.error / 10
