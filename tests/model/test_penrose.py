"""Penrose rhombus tilings: counts against the 2007 program's files, geometry, flexing."""

import numpy as np
import pytest
from conftest import reference_linkage
from hypothesis import given, settings
from hypothesis import strategies as st
from kinematics import dof, internal_dof, rank, ribbons
from scipy.spatial import cKDTree

from linkage_widget import Linkage
from linkage_widget.constraints import ConstraintSet
from linkage_widget.examples.penrose import (
    PHI,
    penrose_tiling,
    penrose_triangles,
    transform_positions,
)

ORDERS = [1, 2, 3, 4]
# The counts issue 5 quotes for penrose1.txt ... penrose4.txt (vertices, rods), and
# the transformable penrose1t.txt ... penrose4t.txt (vertices, rods, fixed angles).
PLAIN_COUNTS = {1: (11, 15), 2: (31, 50), 3: (76, 135), 4: (201, 370)}
T_COUNTS = {1: (26, 30, 19), 2: (81, 100, 69), 3: (211, 270, 194), 4: (571, 740, 539)}


def _counts(link: Linkage) -> tuple[int, ...]:
    return link.n_vertices, link.n_rods, link.n_angles


# ---------------------------------------------------------------- the 2007 program's files
@pytest.mark.parametrize("order", ORDERS)
def test_counts_match_reference_file(order):
    ref = Linkage.load(reference_linkage(f"penrose{order}.txt"))
    assert _counts(penrose_tiling(order)) == _counts(ref) == (*PLAIN_COUNTS[order], 0)


@pytest.mark.parametrize("order", ORDERS)
def test_transformable_counts_match_reference_file(order):
    ref = Linkage.load(reference_linkage(f"penrose{order}t.txt"))
    assert _counts(penrose_tiling(order, transformable=True)) == _counts(ref) == T_COUNTS[order]


def _dihedral_match(ours: Linkage, ref: Linkage) -> np.ndarray | None:
    """Vertex map ours -> ref under some rotation by k*36° / reflection about the centre."""
    centre = ref.vertices[0]  # both files start with the centre of the sun
    tree = cKDTree(ref.vertices)
    local = ours.vertices - ours.vertices[0]
    for k in range(10):
        c, s = np.cos(k * np.pi / 5), np.sin(k * np.pi / 5)
        for flip in (1.0, -1.0):
            moved = (local * [1.0, flip]) @ np.array([[c, -s], [s, c]]).T + centre
            dist, idx = tree.query(moved)
            if dist.max() < 1e-5 * np.ptp(ref.vertices):  # the files keep 6 decimals
                return idx
    return None


@pytest.mark.parametrize("suffix", ["", "t"])
@pytest.mark.parametrize("order", ORDERS)
def test_same_tiling_as_reference_up_to_symmetry(order, suffix):
    """Not only the counts: the same vertices and rods, up to a turn or a reflection."""
    ref = Linkage.load(reference_linkage(f"penrose{order}{suffix}.txt"))
    edge = float(np.median(ref.rod_lengths())) * (2 if suffix else 1)
    ours = penrose_tiling(order, scale=edge, transformable=bool(suffix))
    mapping = _dihedral_match(ours, ref)
    assert mapping is not None
    assert sorted(mapping.tolist()) == list(range(ref.n_vertices))
    ours_rods = {frozenset(mapping[r].tolist()) for r in ours.rods}
    assert ours_rods == {frozenset(r) for r in ref.rods.tolist()}


# ------------------------------------------------------------------------- geometry
def test_published_counts_without_reference_files():
    for order in ORDERS:
        assert _counts(penrose_tiling(order)) == (*PLAIN_COUNTS[order], 0)
        assert _counts(penrose_tiling(order, transformable=True)) == T_COUNTS[order]


@pytest.mark.parametrize("order", ORDERS)
def test_vertices_are_deduplicated(order):
    link = penrose_tiling(order, scale=1.0)
    # distinct vertices of a rhombus tiling are at least the thin rhombus's short
    # diagonal, 1/phi, apart: anything closer would be an unmerged copy
    pairs = cKDTree(link.vertices).query_pairs(0.5)
    assert not pairs
    assert len(np.unique(np.sort(link.rods, axis=1), axis=0)) == link.n_rods
    assert np.allclose(link.rod_lengths(), 1.0)


@pytest.mark.parametrize("order", ORDERS)
def test_faces_are_the_rhombi(order):
    """Euler: a disc tiled by F rhombi has V - E + F = 1; the tiles come in two shapes."""
    colour, corners = penrose_triangles(order)
    link = penrose_tiling(order)
    assert link.n_vertices - link.n_rods + len(colour) // 2 == 1
    base = np.abs(corners[:, 1] - corners[:, 2])  # the diagonal splitting each rhombus
    assert np.allclose(base[colour == 1], PHI) and np.allclose(base[colour == 0], 1 / PHI)


def test_vertex_zero_is_the_centre_of_a_sun():
    link = penrose_tiling(3, center=(5.0, -7.0))
    assert np.allclose(link.vertices[0], [5.0, -7.0])
    assert len(link.neighbors(0)) == 5


def test_deflation_grows_by_phi():
    radius = [np.hypot(*penrose_tiling(k, scale=1.0).vertices.T).max() for k in (1, 2, 3)]
    assert np.allclose(radius, [PHI, PHI**2, PHI**3])


# ------------------------------------------------------------------------- flexing
@pytest.mark.parametrize("order", ORDERS)
def test_tiling_flexes(order):
    """A rhombus tiling is a mechanism: one shear per ribbon, less the rotation."""
    link = penrose_tiling(order)
    assert internal_dof(link) > 0
    assert internal_dof(link) == ribbons(link) - 1
    assert rank(link) == link.n_rods  # every rod counts: no self-stress


@pytest.mark.parametrize("order", ORDERS)
def test_transformable_tiling_transforms_with_one_dof(order):
    link = penrose_tiling(order, transformable=True)
    # Maxwell counting says over-braced (3 per star, 2 per hinge) ...
    n, m = penrose_tiling(order).n_vertices, penrose_tiling(order).n_rods
    assert 3 * n - 2 * m - 3 < 1
    # ... yet the special geometry leaves exactly one internal motion
    assert internal_dof(link) == 1


@pytest.mark.parametrize("order", [1, 2, 3])
@pytest.mark.parametrize("twist", [0.05, 0.3, -0.6])
def test_twist_is_a_finite_motion(order, twist):
    """Twisted positions satisfy every constraint of the untwisted tiling, and still flex."""
    flat = penrose_tiling(order, transformable=True, scale=50.0)
    turned = penrose_tiling(order, transformable=True, scale=50.0, twist=twist)
    assert np.array_equal(flat.rods, turned.rods) and np.array_equal(flat.angles, turned.angles)
    assert ConstraintSet.from_linkage(flat).relative_error(turned.vertices) < 1e-12
    assert not np.allclose(flat.vertices, turned.vertices)
    assert internal_dof(turned) == 1


def test_transform_positions_closes_every_hinge():
    square = np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]])
    ring = np.array([[0, 1], [1, 2], [2, 3], [3, 0]])
    p = transform_positions(square, ring, 0.4)
    mid = p[4:]
    for r, (i, j) in enumerate(ring):
        assert np.isclose(np.hypot(*(mid[r] - p[i])), 1.0)
        assert np.isclose(np.hypot(*(mid[r] - p[j])), 1.0)


def test_stars_weld_all_arms_at_every_corner():
    plain = penrose_tiling(2)
    link = penrose_tiling(2, transformable=True)
    degree = np.bincount(plain.rods.reshape(-1), minlength=plain.n_vertices)
    assert np.array_equal(np.bincount(link.angles[:, 0], minlength=plain.n_vertices), degree - 1)
    assert np.all(link.angles[:, 1:] >= plain.n_vertices)  # arms end at rod midpoints


# ---------------------------------------------------------------------- invariance
@settings(max_examples=25, deadline=None)
@given(
    order=st.integers(1, 3),
    scale=st.floats(1e-2, 1e4),
    rotation=st.floats(-np.pi, np.pi),
    cx=st.floats(-1e3, 1e3),
    cy=st.floats(-1e3, 1e3),
    transformable=st.booleans(),
)
def test_counts_and_dof_do_not_depend_on_placement(order, scale, rotation, cx, cy, transformable):
    link = penrose_tiling(
        order, scale=scale, rotation=rotation, center=(cx, cy), transformable=transformable
    )
    ref = penrose_tiling(order, transformable=transformable)
    assert _counts(link) == _counts(ref)
    assert np.array_equal(link.rods, ref.rods) and np.array_equal(link.angles, ref.angles)
    assert dof(link) == dof(ref)


# --------------------------------------------------------------------------- errors
@pytest.mark.parametrize("order", [0, -1])
def test_order_must_be_positive(order):
    with pytest.raises(ValueError, match="at least 1"):
        penrose_tiling(order)


@pytest.mark.parametrize("order", [1.0, "2", True])
def test_order_must_be_an_integer(order):
    with pytest.raises(TypeError, match="integer"):
        penrose_tiling(order)


@pytest.mark.parametrize("scale", [0.0, -1.0, float("nan"), float("inf")])
def test_scale_must_be_positive(scale):
    with pytest.raises(ValueError, match="scale"):
        penrose_tiling(1, scale=scale)


def test_twist_needs_transformable():
    with pytest.raises(ValueError, match="transformable"):
        penrose_tiling(1, twist=0.1)
