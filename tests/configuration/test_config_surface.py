"""Configuration surfaces of 2-DOF linkages on a torus chart, against the five-bar's closed form.

A five-bar with cranks l1 (at pin 0) and l2 (at pin 4), coupler rods l3 and l4: the crank
angles (a, b) are reachable exactly when the crank tips are |l3 - l4| to l3 + l4 apart,
and the boundary is where the coupler stretches straight or folds back.
"""

from __future__ import annotations

import numpy as np
import pytest

from linkage_widget import Linkage
from linkage_widget.configuration import (
    AngleCoordinate,
    ConfigurationError,
    SphereChart,
    chart_kind,
    sample_surface,
)

L1, L2, L3, L4, D = 1.0, 1.2, 2.0, 1.5, 2.5


def five_bar(l3=L3, l4=L4):
    pa = np.array([L1 * np.cos(1.8), L1 * np.sin(1.8)])
    pb = np.array([D + L2 * np.cos(1.3), L2 * np.sin(1.3)])
    r = np.linalg.norm(pb - pa)
    x = (l3 * l3 - l4 * l4 + r * r) / (2 * r)
    u = (pb - pa) / r
    pc = pa + x * u + np.sqrt(l3 * l3 - x * x) * np.array([-u[1], u[0]])
    return Linkage(
        [[0, 0], pa, pc, pb, [D, 0]], rods=[(0, 1), (1, 2), (2, 3), (3, 4)], pinned=[0, 4]
    )


def tip_distance(a, b):
    pa = np.stack([L1 * np.cos(a), L1 * np.sin(a)], -1)
    pb = np.stack([D + L2 * np.cos(b), L2 * np.sin(b)], -1)
    return np.linalg.norm(pa - pb, axis=-1)


@pytest.fixture(scope="module")
def surface():
    return sample_surface(five_bar(), resolution=40)


def test_five_bar_reachable_mask_is_the_closed_form(surface):
    assert chart_kind(five_bar()) == "surface"
    assert [c.vertices for c in surface.coords] == [(0, 1), (4, 3)]
    a, b = np.meshgrid(surface.a, surface.b, indexing="ij")
    dist = tip_distance(a, b)
    expect = (dist >= abs(L3 - L4)) & (dist <= L3 + L4)
    assert surface.reachable.shape == (40, 40)
    assert 0 < expect.sum() < expect.size  # the region has a boundary
    assert np.array_equal(surface.reachable, expect)


def test_reached_placements_hold_the_rods_and_the_angles(surface):
    pos = surface.positions[surface.reachable]  # (k, 5, 2)
    lengths = np.linalg.norm(pos[:, [1, 2, 3, 4]] - pos[:, [0, 1, 2, 3]], axis=-1)
    assert np.abs(lengths - [L1, L3, L4, L2]).max() < 1e-9
    a, b = np.meshgrid(surface.a, surface.b, indexing="ij")
    for coord, grid in zip(surface.coords, (a, b), strict=True):
        assert (
            np.abs(np.angle(np.exp(1j * (coord.value(pos) - grid[surface.reachable])))).max() < 1e-9
        )
    assert np.isnan(surface.positions[~surface.reachable]).all()


def test_boundary_is_where_the_coupler_straightens_or_folds(surface):
    assert surface.boundary
    pts = np.concatenate(surface.boundary)
    dist = tip_distance(pts[:, 0], pts[:, 1])
    miss = np.minimum(np.abs(dist - (L3 + L4)), np.abs(dist - abs(L3 - L4)))
    assert miss.max() < 1e-7
    # both kinds occur here: stretched (l3 + l4) and folded (|l3 - l4|)
    assert (np.abs(dist - (L3 + L4)) < 1e-7).any() and (np.abs(dist - abs(L3 - L4)) < 1e-7).any()
    for line in surface.boundary:  # split at the torus seam: no jump across the chart
        assert np.abs(np.diff(line, axis=0)).max() < np.pi


def test_the_sphere_chain_samples_as_a_surface_too():
    link = SphereChart(3.0).linkage(0.3, 0.4)
    assert chart_kind(link) == "sphere"
    s = sample_surface(link, resolution=16)
    # any two crank directions: the first rod turns within the reach of the other three
    assert s.reachable.any() and not s.reachable.all()


def test_bad_input():
    with pytest.raises(ConfigurationError, match="resolution"):
        sample_surface(five_bar(), resolution=2)
    with pytest.raises(ConfigurationError, match="two AngleCoordinate"):
        sample_surface(five_bar(), coords=[AngleCoordinate("direction", (0, 1))])
    four = Linkage([[0, 0], [0, 1], [2, 1.5], [2, 0]], rods=[(0, 1), (1, 2), (2, 3)], pinned=[0, 3])
    with pytest.raises(ConfigurationError, match="has 1 \\(use trace_curve\\)"):
        sample_surface(four)
