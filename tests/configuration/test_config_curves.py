"""Configuration curves of 1-DOF linkages: every branch, singular placements, paths, chart kinds.

References are closed forms: a pinned four-bar's rocker angle from its crank angle by the
law of cosines (two assembly modes), the Grashof condition for the number of components
(s + l < p + q: two loops, one per assembly mode, each turning the crank fully; otherwise
one loop), and a parallelogram's two motions (rocker = crank, and the antiparallelogram)
crossing at the two flat placements.
"""

from __future__ import annotations

import numpy as np
import pytest

from linkage_widget import Linkage
from linkage_widget.configuration import (
    AngleCoordinate,
    ConfigurationError,
    SphereChart,
    angle_coordinates,
    chart_kind,
    default_coordinates,
    trace_curve,
)


def four_bar(a, b, c, d, crank=1.0):
    """Ground 0 (0, 0) - 3 (d, 0), crank 0-1 (a), coupler 1-2 (b), rocker 3-2 (c)."""
    pa = np.array([a * np.cos(crank), a * np.sin(crank)])
    ground = np.array([d, 0.0])
    r = np.linalg.norm(ground - pa)
    x = (b * b - c * c + r * r) / (2 * r)
    u = (ground - pa) / r
    pb = pa + x * u + np.sqrt(b * b - x * x) * np.array([-u[1], u[0]])
    return Linkage([[0, 0], pa, pb, ground], rods=[(0, 1), (1, 2), (2, 3)], pinned=[0, 3])


def rocker_angles(a, b, c, d, crank):
    """Both rocker directions (from pin 3 to joint 2) for a crank angle; NaN where none."""
    pa = np.stack([a * np.cos(crank), a * np.sin(crank)], -1)
    rel = pa - [d, 0.0]  # crank tip seen from the rocker's pin
    r = np.linalg.norm(rel, axis=-1)
    base = np.arctan2(rel[..., 1], rel[..., 0])
    with np.errstate(invalid="ignore"):
        spread = np.arccos((c * c + r * r - b * b) / (2 * c * r))
    return base - spread, base + spread


def _wrap(x):
    return np.angle(np.exp(1j * x))


def _check_against_closed_form(curve, dims):
    for k, branch in enumerate(curve.branches):
        crank, rocker = branch.angles.T
        low, high = rocker_angles(*dims, crank)
        miss = np.minimum(np.abs(_wrap(rocker - low)), np.abs(_wrap(rocker - high)))
        # a singular placement is determined to ~1e-8 only (see _curve_trace._polish)
        singular = [i for where in curve.crossings for b, i in where if b == k]
        assert np.nanmax(np.delete(miss, singular)) < 1e-8
        assert np.nanmax(miss) < 1e-6
        assert np.all(np.isfinite(low))  # never outside the crank's range
        lengths = np.linalg.norm(
            branch.positions[:, [1, 2, 3]] - branch.positions[:, [0, 1, 2]], axis=-1
        )
        assert np.abs(lengths - dims[:3]).max() < 1e-9


def test_grashof_crank_rocker_has_two_loops_one_per_assembly_mode():
    dims = (1.0, 3.0, 2.5, 3.0)  # s + l = 4 < p + q = 5.5: the crank turns fully
    curve = trace_curve(four_bar(*dims))
    assert [b.closed for b in curve.branches] == [True, True]
    assert len(curve.singular_angles) == 0
    _check_against_closed_form(curve, dims)
    for branch in curve.branches:
        crank = np.unwrap(branch.angles[:, 0])
        assert abs(abs(crank[-1] - crank[0]) - 2 * np.pi) < 0.2  # a full turn per loop
        u = branch.positions[:, 2] - branch.positions[:, 1]
        v = branch.positions[:, 3] - branch.positions[:, 2]
        elbow = u[:, 0] * v[:, 1] - u[:, 1] * v[:, 0]
        assert np.all(elbow > 0) or np.all(elbow < 0)  # one assembly mode each
    # the path to a point on the other loop does not exist; on the same loop it does
    link = four_bar(*dims)
    other = curve.branches[1].angles[10]
    assert curve.path(link.vertices, other) is None
    walk = curve.path(link.vertices, curve.branches[0].angles[30])
    assert walk is not None and np.allclose(walk[-1], curve.branches[0].positions[30])


def test_non_grashof_four_bar_has_one_loop_through_both_assembly_modes():
    dims = (2.0, 2.2, 2.5, 3.0)  # s + l = 5 > p + q = 4.7: no link turns fully
    curve = trace_curve(four_bar(*dims))
    assert [b.closed for b in curve.branches] == [True]
    assert len(curve.singular_angles) == 0
    _check_against_closed_form(curve, dims)
    crank = curve.branches[0].angles[:, 0]
    # the crank's limits: coupler and rocker in line, |crank tip - pin 3| = b + c
    limit = np.arccos((2.0**2 + 3.0**2 - (2.2 + 2.5) ** 2) / (2 * 2.0 * 3.0))
    assert np.isclose(np.abs(crank).max(), limit, atol=2e-3)


def test_parallelogram_has_two_branches_crossing_at_the_flat_placements():
    dims = (1.0, 3.0, 1.0, 3.0)
    link = four_bar(*dims)
    curve = trace_curve(link)
    assert [b.closed for b in curve.branches] == [True, True]
    _check_against_closed_form(curve, dims)
    crank = np.sort(np.abs(curve.singular_angles[:, 0]))
    assert np.allclose(crank, [0.0, np.pi], atol=1e-6)
    assert np.allclose(np.abs(curve.singular_positions[:, :, 1]), 0.0, atol=1e-6)  # flat
    # each singular placement lies on both branches, at the index recorded
    for where, pos in zip(curve.crossings, curve.singular_positions, strict=True):
        assert sorted(b for b, _ in where) == [0, 1]
        for b, i in where:
            assert np.allclose(curve.branches[b].positions[i], pos)
    # branch 0 (the linkage's own) is the parallelogram motion: rocker = crank
    par, anti = curve.branches
    assert np.abs(_wrap(par.angles[:, 1] - par.angles[:, 0])).max() < 1e-6  # 1e-8 singular
    assert np.abs(_wrap(anti.angles[:, 1] - anti.angles[:, 0])).max() > 1.0
    # from the parallelogram, the antiparallelogram is reached through a flat placement
    walk = curve.path(link.vertices, anti.angles[len(anti.angles) // 3])
    assert walk is not None
    flat = np.abs(walk[:, :, 1]).max(axis=1) < 1e-6
    assert flat.any()


def test_trace_curve_from_a_singular_placement_and_bad_input():
    flat = four_bar(1.0, 3.0, 1.0, 3.0, crank=0.0)  # the flat parallelogram: two flexes
    curve = trace_curve(flat)
    assert len(curve.branches) == 2 and len(curve.singular_angles) == 2
    assert curve.path(flat.vertices, curve.branches[1].angles[9]) is not None
    five = Linkage(
        [[0, 0], [0.3, 1.0], [1.5, 2.0], [2.7, 1.0], [3, 0]],
        rods=[(0, 1), (1, 2), (2, 3), (3, 4)],
        pinned=[0, 4],
    )
    with pytest.raises(ConfigurationError, match="has 2 \\(use sample_surface\\)"):
        trace_curve(five)
    with pytest.raises(ConfigurationError, match="two AngleCoordinate"):
        trace_curve(four_bar(1.0, 3.0, 2.5, 3.0), coords=["crank", "rocker"])
    with pytest.raises(ConfigurationError, match="2-D target|2 finite angles"):
        trace_curve(four_bar(1.0, 3.0, 2.5, 3.0)).path(flat.vertices, [np.nan, 0.0])


def test_locate_finds_the_nearest_traced_placement():
    link = four_bar(1.0, 3.0, 2.5, 3.0)
    curve = trace_curve(link)
    b, i = curve.locate(curve.branches[1].positions[17] + 1e-9)
    assert (b, i) == (1, 17)
    assert curve.locate(link.vertices)[0] == 0
    with pytest.raises(ConfigurationError, match="shape"):
        curve.locate(np.zeros((3, 2)))


def test_angle_coordinates_and_their_gradients():
    link = four_bar(1.0, 3.0, 2.5, 3.0)
    coords = angle_coordinates(link)
    assert coords[0] == AngleCoordinate("direction", (0, 1))
    assert coords[1] == AngleCoordinate("direction", (3, 2))
    assert default_coordinates(link) == (coords[0], coords[1])
    joint = AngleCoordinate("joint", (1, 0, 2))
    p = link.vertices
    rng = np.random.default_rng(0)
    for c in (coords[0], joint):
        du = rng.normal(size=p.shape)
        h = 1e-6
        fd = (c.value(p + h * du) - c.value(p - h * du)) / (2 * h)
        assert np.isclose(fd, (c.gradient(p) * du).sum(), rtol=1e-7)
    assert "angle at 1" in joint.label
    with pytest.raises(ConfigurationError, match="distinct"):
        AngleCoordinate("joint", (1, 1, 2))


def test_chart_kind():
    assert chart_kind(four_bar(1.0, 3.0, 2.5, 3.0)) == "curve"
    assert chart_kind(four_bar(1.0, 3.0, 1.0, 3.0, crank=0.0)) == "curve"  # flat: 2 flexes
    assert chart_kind(SphereChart(3.0).linkage(0.2, 0.3)) == "sphere"
    five = Linkage(
        [[0, 0], [0.3, 1.0], [1.5, 2.0], [2.7, 1.0], [3, 0]],
        rods=[(0, 1), (1, 2), (2, 3), (3, 4)],
        pinned=[0, 4],
    )
    assert chart_kind(five) == "surface"  # unequal rods: not the sphere
    with pytest.raises(ConfigurationError, match="pin at least two"):
        chart_kind(Linkage([[0, 0], [1, 0]], rods=[(0, 1)]))
    straight = Linkage([[0, 0], [1, 0], [2, 0]], rods=[(0, 1), (1, 2)], pinned=[0, 2])
    with pytest.raises(ConfigurationError, match="cannot move"):
        chart_kind(straight)  # one infinitesimal flex, yet rigid
    chain6 = Linkage(
        [[0, 0], [1, 0.2], [2, 0], [3, 0.2], [4, 0], [5, 0.2], [5.5, 0]],
        rods=[(k, k + 1) for k in range(6)],
        pinned=[0, 6],
    )
    with pytest.raises(
        ConfigurationError, match="1 or 2 internal degrees of freedom; this one has 4"
    ):
        chart_kind(chain6)


def test_three_parallel_cranks_move_although_counting_says_rigid():
    # a rigid coupler 1-2-3 on three equal parallel cranks from pins 0, 4, 5
    link = Linkage(
        [[0, 0], [0.6, 0.8], [1.6, 0.8], [2.6, 0.8], [1, 0], [2, 0]],
        rods=[(0, 1), (4, 2), (5, 3), (1, 2), (2, 3), (1, 3)],
        pinned=[0, 4, 5],
    )
    assert chart_kind(link) == "curve"
    curve = trace_curve(link)
    assert len(curve.branches) == 1 and curve.branches[0].closed
    crank = np.unwrap(curve.branches[0].angles[:, 0])
    assert abs(abs(crank[-1] - crank[0]) - 2 * np.pi) < 0.2


def test_peaucellier_two_modes_cross_at_the_flat_rhombus():
    # the rhombus 2-3-5-4 either opens (5 the mirror image of 2 in the line 3-4: the
    # inversor) or folds (5 on 2); the two motions cross where the rhombus is flat,
    # |p2| = sqrt(200^2 - 120^2) = 160, at two crank angles for each order of 3 and 4
    link = Linkage.load("peaucellier.txt")
    curve = trace_curve(link)
    assert [b.closed for b in curve.branches] == [True, True]
    flat = [
        (pos, where)
        for pos, where in zip(curve.singular_positions, curve.crossings, strict=True)
        if abs(np.linalg.norm(pos[2]) - 160.0) < 1e-4
    ]
    assert len(flat) == 4
    for pos, where in flat:
        assert np.linalg.norm(pos[5] - pos[2]) < 1e-4  # flat: the mirror image is 2 itself
        assert sorted(b for b, _ in where) == [0, 1]
    # branch 0 is the inversor: |p2| |p5| = 200^2 - 120^2 (at regular placements; the
    # singular ones, e.g. the arms folded onto each other, are polished to ~1e-5 only)
    singular = [i for where in curve.crossings for b, i in where if b == 0]
    inversor = np.delete(curve.branches[0].positions, singular, axis=0)
    r2, r5 = (np.linalg.norm(inversor[:, k], axis=1) for k in (2, 5))
    assert np.allclose(r2 * r5, 200.0**2 - 120.0**2, rtol=1e-9)
    # inversion maps the crank's circle through pin 0 to the line x = 25600 / 200 = 128
    assert np.abs(inversor[:, 5, 0] - 128.0).max() < 1e-6  # 1e-8 relative
    folded = curve.branches[1].angles[len(curve.branches[1].angles) // 4]
    walk = curve.path(link.vertices, folded)
    assert walk is not None
    assert (np.abs(np.linalg.norm(walk[:, 2], axis=1) - 160.0) < 1e-4).any()  # via a flat one


def test_hart_inversor_second_branch_found_through_its_flat_crossings():
    # Hart's antiparallelogram passes the flat placement, where the parallelogram motion
    # crosses it; random seeds miss that motion, the crossing's second flex finds it
    link = Linkage.load("hart")
    curve = trace_curve(link)
    assert [b.closed for b in curve.branches] == [True, True]
    assert len(curve.crossings) == 2
    for where, pos in zip(curve.crossings, curve.singular_positions, strict=True):
        assert sorted(b for b, _ in where) == [0, 1]
        bar = pos[[4, 7, 6, 5]] - pos[4]  # W, Z, Y, X in a line
        assert np.abs(bar[1:, 0] * bar[1, 1] - bar[1:, 1] * bar[1, 0]).max() < 1e-4 * 234**2
    singular = [i for where in curve.crossings for b, i in where if b == 0]
    inversor = np.delete(curve.branches[0].positions, singular, axis=0)
    assert np.abs(inversor[:, 3, 0] + 60.0).max() < 1e-6  # Q on the line x = -60
    other = np.delete(
        curve.branches[1].positions, [i for w in curve.crossings for b, i in w if b == 1], axis=0
    )
    assert np.abs(other[:, 3, 0] + 60.0).max() > 1.0  # the other motion leaves the line


def test_a_non_linkage_is_a_type_error_naming_the_function():
    # AttributeError: 'str' object has no attribute 'vertices' before
    from linkage_widget.configuration import angle_coordinates, default_coordinates, sample_surface

    for fn in (trace_curve, sample_surface, angle_coordinates, default_coordinates):
        with pytest.raises(TypeError, match=rf"^{fn.__name__}: linkage must be a Linkage, got str"):
            fn("four-bar")
