"""Bricard's octahedra move by a finite amount; the regular octahedron does not move at all.

The motion is followed by numerical continuation (``space_flex.continue_flex``): a
step along the one nontrivial infinitesimal flex, then Newton back onto the rod
lengths, 20 steps of 2 % of the longest rod. A joint must travel at least 10 % of
the longest rod (measured after removing the best rigid motion, so it is a change
of shape, not a drift), with every rod length kept to 1e-10 relative at every step.
"""

from __future__ import annotations

import numpy as np
import pytest
from space_flex import (
    aligned_displacement,
    continue_flex,
    nontrivial_flexes,
    project,
    rod_lengths,
)

from linkage_widget.examples import space

BRICARD = {
    "line": space.bricard_line_symmetric,
    "plane": space.bricard_plane_symmetric,
    "type3": space.bricard_type3,
}


def _arrays(link):
    return np.array(link.vertices), np.array(link.rods)


@pytest.mark.parametrize("kind", BRICARD)
def test_bricard_octahedron_moves_a_finite_amount(kind):
    p, rods = _arrays(BRICARD[kind]())
    lengths = rod_lengths(p, rods)
    path = continue_flex(p, rods, h=0.02 * lengths.max(), steps=20, rtol=1e-12)
    for q in path:
        assert np.max(np.abs(rod_lengths(q, rods) - lengths) / lengths) <= 1e-10
    travel = aligned_displacement(p, path[-1]).max()
    assert travel >= 0.10 * lengths.max()
    # a shape change: some pair of opposite (unjoined) joints changed its distance
    gaps = [abs(np.linalg.norm(q[0] - q[1]) - np.linalg.norm(p[0] - p[1])) for q in path]
    assert max(gaps) > 0.01 * lengths.max()


def test_line_symmetric_flex_keeps_its_half_turn():
    """Along the flex the three opposite pairs stay symmetric about one common line."""
    p, rods = _arrays(space.bricard_line_symmetric())
    q = continue_flex(p, rods, h=0.02 * rod_lengths(p, rods).max(), steps=20)[-1]
    mids = (q[0::2] + q[1::2]) / 2
    axis = mids[1] - mids[0]
    axis /= np.linalg.norm(axis)
    assert np.linalg.norm(np.cross(mids[2] - mids[0], axis)) < 1e-9  # midpoints collinear
    assert np.max(np.abs((q[0::2] - q[1::2]) @ axis)) < 1e-9  # pairs perpendicular to it


def test_plane_symmetric_flex_keeps_its_mirror():
    """A, A' and B, B' stay mirror images in one plane, which holds C and C'."""
    p, rods = _arrays(space.bricard_plane_symmetric())
    q = continue_flex(p, rods, h=0.02 * rod_lengths(p, rods).max(), steps=20)[-1]
    normal = (q[0] - q[1]) / np.linalg.norm(q[0] - q[1])
    centre = (q[0] + q[1]) / 2
    mirrored = q - 2.0 * np.outer((q - centre) @ normal, normal)
    assert np.allclose(mirrored[[1, 0, 3, 2, 4, 5]], q, atol=1e-9)


def test_regular_octahedron_has_no_flex_and_returns_when_pulled():
    p, rods = _arrays(space.octahedron())
    flexes, singular = nontrivial_flexes(p, rods)
    assert flexes.shape[1] == 0 and singular[0] > 0.5  # well away from a flex
    lengths = rod_lengths(p, rods)
    rng = np.random.default_rng(16)
    for _ in range(5):  # pull: displace every joint by 10 % of an edge, then project back
        d = rng.normal(size=p.shape)
        q, ok = project(p + 0.1 * lengths.max() * d / np.linalg.norm(d), rods, lengths)
        assert ok and aligned_displacement(p, q).max() < 1e-9  # congruent to the start


def test_type3_has_a_flat_pose_with_the_same_rods():
    """The folded type-3 octahedron and its flat pose share every rod length (one flex apart)."""
    link = space.bricard_type3()
    flat = space.bricard_type3_flat()
    rods = space.octahedron_rods()
    flat_lengths = np.linalg.norm(flat[rods[:, 0]] - flat[rods[:, 1]], axis=1)
    assert np.allclose(link.rod_lengths(), flat_lengths, rtol=1e-12)
    p = np.array(link.vertices)
    centred = p - p.mean(axis=0)
    assert np.linalg.svd(centred, compute_uv=False)[2] > 0.1  # folded well out of the plane


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: space.bricard_line_symmetric(a=(0, 0, 1)), "joints A and A' coincide"),
        (
            lambda: space.bricard_line_symmetric(a=(1, 0, 0), b=(0, 1, 0), c=(1, 1, 0)),
            "all six joints lie in one plane",
        ),
        (lambda: space.bricard_line_symmetric(b=(1, float("nan"), 0)), "b must be a finite"),
        (lambda: space.bricard_line_symmetric(c=(1, 2)), "c must be a finite (x, y, z)"),
        (lambda: space.bricard_plane_symmetric(b=(0, 1, 2)), "joints B and B' coincide"),
        (lambda: space.bricard_plane_symmetric(c=(1, 2, 3)), "c must be a finite (x, y)"),
        (lambda: space.bricard_type3(radii=(1.0, 5.0)), "not outside the second circle"),
        (lambda: space.bricard_type3(radii=(1.0, 1.0)), "radii must differ"),
        (lambda: space.bricard_type3(radii=(1.0,)), "radii must be two numbers"),
        (lambda: space.bricard_type3(radii=(1.0, float("nan"))), "radii.1. must be a positive"),
        (lambda: space.bricard_type3(fold=0.9), "fold=0.9 is not reached"),
        (lambda: space.bricard_type3(fold=1.5), "fold must be in (0, 1)"),
        (lambda: space.bricard_type3(tangent_angles=(0, 90)), "tangent_angles must be 4"),
        (lambda: space.bricard_type3(tangent_angles=(0, 0, 90, 180)), "are parallel"),
        (lambda: space.octahedron(scale=-1), "scale must be a positive"),
    ],
)
def test_degenerate_octahedra_are_refused_by_name(call, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        call()
