"""Instant centres from the velocity field, against Kennedy's construction and theorem.

The oracle for the four-bar is the textbook construction by line intersections (the
pins and pivots are four centres; the other two are where the lines through them
cross), computed here with homogeneous cross products, not with velocities.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from kinematic_cases import four_bar, slider_crank, whitworth

from linkage_widget import Linkage
from linkage_widget.kinematics import bodies, instant_centres, kinematics


def line(a, b):
    """The line through two points, homogeneous."""
    return np.cross([*a, 1.0], [*b, 1.0])


def meet(l1, l2):
    """The point where two lines cross, as (x, y)."""
    h = np.cross(l1, l2)
    return h[:2] / h[2]


def unit_rows(h):
    return h / np.linalg.norm(h, axis=-1, keepdims=True)


ANGLES = np.radians([10.0, 55.0, 100.0, 170.0, 200.0, 260.0, 320.0])


def test_four_bar_centres_are_kennedys_construction():
    link = four_bar()
    k = kinematics(link, 0, 1, ANGLES)
    # ground, crank, coupler, rocker
    assert bodies(link).joints == ((0, 3), (0, 1), (1, 2), (2, 3))
    for p, v in zip(k.positions, k.velocities, strict=True):
        ic = instant_centres(link, p, v).points
        a, b, c, d = p
        want = {
            (0, 1): a,
            (1, 2): b,
            (2, 3): c,
            (0, 3): d,
            (0, 2): meet(line(a, b), line(d, c)),  # ground-coupler: crank line x rocker line
            (1, 3): meet(line(b, c), line(a, d)),  # crank-rocker: coupler line x ground line
        }
        for (i, j), point in want.items():
            tol = 1e-9 * max(np.abs(point).max(), 4.0)  # relative to the linkage's size
            assert np.allclose(ic[i, j], point, rtol=0, atol=tol)
            assert np.allclose(ic[j, i], point, rtol=0, atol=tol)


def test_kennedy_three_centres_of_any_three_bodies_are_collinear():
    jansen = Linkage.load("jansen.txt")
    of = bodies(jansen)
    assert len(of) == 8  # ground, crank, six links of which two triangles
    k = kinematics(jansen, 0, 2, np.radians(np.arange(0.0, 360.0, 45.0)))
    assert k.valid.all()
    for p, v in zip(k.positions, k.velocities, strict=True):
        h = instant_centres(jansen, p, v, of).homogeneous
        for i, j, m in combinations(range(len(of)), 3):
            rows = unit_rows(np.array([h[i, j], h[j, m], h[i, m]]))
            assert abs(np.linalg.det(rows)) < 1e-9, (i, j, m)


def test_a_translation_puts_the_centre_at_infinity():
    # a parallelogram: the coupler translates, its centre with the ground is at infinity
    par = Linkage([[0, 0], [0, 1], [2, 1], [2, 0]], rods=[(0, 1), (1, 2), (2, 3)], pinned=[0, 3])
    k = kinematics(par, 0, 1, [np.radians(80.0)])
    ic = instant_centres(par, k.positions[0], k.velocities[0])
    assert ic.at_infinity[0, 2] and ic.at_infinity[2, 0]
    assert np.isnan(ic.points[0, 2]).all()
    # the direction at infinity is perpendicular to the coupler's velocity
    direction = ic.homogeneous[0, 2, :2]
    assert abs(direction @ k.velocities[0, 1]) < 1e-12 * np.linalg.norm(direction)
    # crank and rocker turn alike about different pivots: their centre is at infinity too
    assert ic.at_infinity[1, 3] and not ic.at_infinity[0, 1]


def test_a_rigid_triangle_is_one_body():
    tri = Linkage(
        [[0, 0], [1, 0], [3, 2], [4, 0], [2.5, 3.0]],
        rods=[(0, 1), (1, 2), (2, 3), (1, 4), (2, 4)],
        pinned=[0, 3],
    )
    assert bodies(tri).joints == ((0, 3), (0, 1), (1, 2, 4), (2, 3))


def test_bodies_of_a_space_linkage_are_refused():
    cube = Linkage([[0, 0, 0], [1, 0, 0]], rods=[(0, 1)])
    with pytest.raises(ValueError, match="planar"):
        bodies(cube)


def test_slider_crank_centres_with_the_piston_block():
    link = slider_crank(offset=0.3)
    of = bodies(link)
    assert of.joints == ((0,), (0, 1), (1, 2), (2,))  # ground, crank, rod, piston
    assert of.blocks[3] == ("slider", 0)
    k = kinematics(link, 0, 1, ANGLES)
    for p, v in zip(k.positions, k.velocities, strict=True):
        ic = instant_centres(link, p, v, of)
        a, b, c = p
        # ground-piston at infinity across the slide; ground-rod where the crank's line
        # meets the normal to the slide through the piston (Kennedy: 0-1-2 and 0-3-2)
        assert ic.at_infinity[0, 3] and abs(ic.homogeneous[0, 3, 0]) < 1e-12
        want = meet(line(a, b), line(c, c + [0.0, 1.0]))
        assert np.allclose(ic.points[0, 2], want, rtol=0, atol=1e-9 * max(np.abs(want).max(), 4))
        # crank-piston: the rod's line meets the ground line through the pivot, normal to it
        want = meet(line(b, c), line(a, a + [0.0, 1.0]))
        assert np.allclose(ic.points[1, 3], want, rtol=0, atol=1e-9 * max(np.abs(want).max(), 4))
        assert np.allclose(ic.points[2, 3], c) and np.allclose(ic.points[1, 2], b)


def test_kennedy_on_whitworth_with_a_slot_block_and_a_ram():
    link = whitworth()
    of = bodies(link)
    assert [kind for kind, _ in of.blocks] == ["ground", "link", "link", "link", "slider", "slot"]
    k = kinematics(link, 0, 1, ANGLES)
    for p, v in zip(k.positions, k.velocities, strict=True):
        ic = instant_centres(link, p, v, of)
        h = ic.homogeneous
        for i, j, m in combinations(range(len(of)), 3):
            rows = unit_rows(np.array([h[i, j], h[j, m], h[i, m]]))
            assert abs(np.linalg.det(rows)) < 1e-9, (i, j, m)
        # the slot's block turns with the lever: their centre is at infinity, across the slot
        lever, block = 2, 5
        assert ic.at_infinity[lever, block]
        slot_line = p[3] - p[2]
        assert abs(h[lever, block, :2] @ slot_line) < 1e-9 * np.linalg.norm(h[lever, block, :2])
        # the crank and the block share the pin A
        assert np.allclose(ic.points[1, block], p[1], atol=1e-9)


def test_elliptic_trammel_rod_turns_about_the_corner_of_its_blocks():
    # rod 0-1 (length 2) with 0 sliding on the x-axis and 1 on the y-axis, no pin at all:
    # the rod's centre with the ground is where the normals to the two slides cross,
    # (x0, y1), and a point of the rod draws an ellipse
    trammel = Linkage(
        [[-2.0, 0.0], [0.0, 0.0]],
        rods=[(0, 1)],
        sliders=[(0, (0, 0), (1, 0)), (1, (0, 0), (0, 1))],
    )
    trammel.set_positions([[-np.sqrt(2), 0.0], [0.0, np.sqrt(2)]])  # off the flat placement
    of = bodies(trammel)
    assert of.joints == ((), (0, 1), (0,), (1,))
    angles = np.radians(np.arange(10.0, 171.0, 20.0))
    k = kinematics(trammel, 0, 1, angles)
    assert k.valid.all()
    for p, v in zip(k.positions, k.velocities, strict=True):
        ic = instant_centres(trammel, p, v, of)
        assert np.allclose(ic.points[0, 1], [p[0, 0], p[1, 1]], atol=1e-12)
    # the rod's midpoint on a circle, a point a quarter along on an ellipse (semi-axes 1.5, 0.5)
    mid = k.body_point(0, 1, 0.5, 0.0)[0]
    quarter = k.body_point(0, 1, 0.25, 0.0)[0]
    assert np.allclose(np.hypot(*mid.T), 1.0, atol=1e-12)
    assert np.allclose((quarter[:, 0] / 1.5) ** 2 + (quarter[:, 1] / 0.5) ** 2, 1.0, atol=1e-12)
