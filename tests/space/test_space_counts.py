"""``analyze`` in 3-D against hand counts (issue 16): trivial motions, flexes, stresses.

A rod has 5 trivial motions and no internal one (the spin about its own axis moves
nothing); a tetrahedron 6 + 0; the cube 6 internal DOF (3*8 - 12 - 6); the regular
octahedron none (Cauchy); the double banana counts rigid (3*8 - 18 - 6 = 0) and flexes.
"""

import itertools

import numpy as np
import pytest
from space_frameworks import cube, double_banana, octahedron

from linkage_widget import Linkage, analyze
from linkage_widget.constraints import ConstraintSet
from linkage_widget.mass import mass_matrix
from linkage_widget.rigidity import generic_analysis
from linkage_widget.rigidity.groebner import exact_local_dimension
from linkage_widget.rigidity.local_dimension import mobility
from linkage_widget.rigidity.modular_rank import (
    MAX_COLUMNS,
    PRIME,
    error_bound,
    random_generic_rank,
)
from linkage_widget.rigidity.rigid_motions import trivial_motions
from linkage_widget.rigidity.second_order import tangent_cone
from linkage_widget.rigidity.statics import static_forces

TETRA = [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]
K4 = list(itertools.combinations(range(4), 2))


def counts(link: Linkage) -> tuple[int, int, int]:
    r = analyze(link)
    return r.trivial_dof, r.internal_dof, r.self_stresses


def test_hand_counts():
    assert counts(Linkage([[0, 0, 0], [1, 2, 3]], rods=[(0, 1)])) == (5, 0, 0)
    assert counts(Linkage(TETRA, rods=K4)) == (6, 0, 0)
    assert counts(cube()) == (6, 6, 0)
    assert counts(octahedron()) == (6, 0, 0)
    assert counts(Linkage([[1, 2, 3]])) == (3, 0, 0)


def test_report_of_the_regular_octahedron():
    r = analyze(octahedron())
    assert (r.dim, r.dof, r.rank, r.maxwell_count) == (3, 6, 12, 0)
    assert r.status == "infinitesimally rigid" and r.generically_rigid
    assert r.velocity_basis.shape == (6, 6, 3)
    assert "Maxwell count 3n-c-t: 0" in str(r)
    # 12 rods, rank 12 = 3*6 - 6: the rank reaches its upper bound, so it is certain
    assert r.generic_method == "random placement: rank mod P, reaches its upper bound (exact)"


def test_trivial_motions_are_a_computed_rank():
    """6 in general position, 5 on a line, 3 for a point; pins keep what fixes them."""
    line = [[0, 0, 0], [1, 0, 0], [3, 0, 0]]
    assert trivial_motions(np.array(TETRA, float)).shape == (12, 6)
    assert trivial_motions(np.array(line, float)).shape == (9, 5)
    assert trivial_motions(np.array([[1.0, 2, 3]])).shape == (3, 3)
    assert trivial_motions(np.array(TETRA, float), pinned=[0]).shape == (12, 3)
    assert trivial_motions(np.array(TETRA, float), pinned=[0, 1]).shape == (12, 1)
    assert trivial_motions(np.array(TETRA, float), pinned=[0, 1, 2]).shape == (12, 0)
    assert trivial_motions(np.array(line, float), pinned=[0, 1]).shape == (9, 0)
    # each is a motion: every rod of K4 keeps its length to first order
    tet = Linkage(TETRA, rods=K4)
    a = ConstraintSet.from_linkage(tet).jacobian(tet.vertices).toarray()
    assert np.abs(a @ trivial_motions(tet.vertices)).max() < 1e-14


def test_double_banana_counts_rigid_and_flexes():
    link = double_banana()
    r = analyze(link, with_mobility=True)
    assert (link.n_vertices, link.n_rods) == (8, 18)
    assert r.maxwell_count == 3 * 8 - 18 - 6 == 0  # the count says rigid ...
    assert (r.internal_dof, r.self_stresses) == (1, 1)  # ... one flex, one stress
    assert not r.generically_rigid and r.generic_internal_dof == 1  # for every placement
    # rank 17 < 18: below its bound, so both trials ran and the error bound is stated
    bound = error_bound(17)
    assert r.generic_method == f"random placement: rank mod P, 2 trials, P(wrong) <= {bound:.1e}"
    assert r.status == "flexible"
    assert r.mobility.dimension == 1  # a real motion: one banana turns about the poles' axis
    # the rod found redundant is one a generic placement cannot use
    assert generic_analysis(link)[1].sum() == 1


def test_second_order_in_space():
    """Three collinear joints, the ends pinned: 2 flexes of the middle, rigid at 2nd order."""
    line = Linkage([[0, 0, 0], [1, 0, 0], [2, 0, 0]], rods=[(0, 1), (1, 2)], pinned=[0, 2])
    r = analyze(line)
    # 9 coordinates, 2 rods + 6 pin rows of rank 7: the middle joint may leave the line
    # in y and z at first order, and the spin about the line moves nothing (0 trivial)
    assert (r.trivial_dof, r.internal_dof, r.self_stresses) == (0, 2, 1)
    assert r.status == "rigid but infinitesimally flexible"
    bent = Linkage([[0, 0, 0], [1, 0.5, 0], [2, 0, 0]], rods=[(0, 1), (1, 2)], pinned=[0, 2])
    r = analyze(bent)
    # the spin of the middle joint about the axis 0-2 is a rigid motion the pins leave
    assert (r.trivial_dof, r.internal_dof, r.self_stresses) == (1, 0, 0)
    assert r.status == "infinitesimally rigid"


def test_fixed_angle_in_space():
    """An angle between two rods closes the triangle generically, as a rod would."""
    hinge = Linkage([[0, 0, 0], [1, 0, 0], [0, 1, 1]], rods=[(0, 1), (0, 2)])
    assert counts(hinge) == (6, 1, 0)
    hinge.add_angle(0, 1, 2)
    assert counts(hinge) == (6, 0, 0)
    assert np.degrees(hinge.angle_values()).tolist() == pytest.approx([90.0])
    cs = ConstraintSet.from_linkage(hinge)
    assert cs.shape == (3, 9)
    # a 3-D angle is unsigned: the mirrored placement has the same angle, residual 0
    mirrored = hinge.vertices * [1, -1, 1]
    assert np.abs(cs.residuals(mirrored)).max() < 1e-15


def test_jacobian_is_the_derivative_of_the_residuals_in_space():
    rng = np.random.default_rng(3)
    link = Linkage(
        rng.standard_normal((5, 3)),
        rods=[(0, 1), (0, 2), (1, 2), (2, 3), (3, 4)],
        angles=[(0, 1, 2), (2, 0, 3)],
        pinned=[4],
    )
    cs = ConstraintSet.from_linkage(link)
    assert cs.shape == (len(link.rods) + 2 + 3, 15)
    assert cs.row_kinds().tolist() == ["rod"] * 5 + ["angle"] * 2 + ["pin"] * 3
    q = link.vertices.reshape(-1) + 0.01 * rng.standard_normal(15)
    h = 1e-6
    numeric = np.column_stack(
        [(cs.residuals(q + h * e) - cs.residuals(q - h * e)) / (2 * h) for e in np.eye(15)]
    )
    assert np.abs(cs.jacobian(q).toarray() - numeric).max() < 1e-8
    assert np.abs(cs.residuals(link.vertices)).max() < 1e-15


def test_generic_rank_is_exact_modulo_the_prime():
    """K5 in space: 10 rods, rank 3*5 - 6 = 9, one stress; repeats are dependent."""
    k5 = list(itertools.combinations(range(5), 2))
    rank, accepted = random_generic_rank(5, k5, dim=3)
    assert (rank, int(accepted.sum())) == (9, 9)
    assert accepted.tolist() == [True] * 9 + [False]  # the last rod closes the stress
    rank2, _ = random_generic_rank(5, k5, dim=2)  # in the plane: 2*5 - 3 = 7
    assert rank2 == 7
    assert PRIME == 33_554_393 and error_bound(9) < 1e-12


def test_mass_matrix_in_space():
    link = Linkage([[0, 0, 0], [2, 0, 0], [0, 3, 0]], rods=[(0, 1), (0, 2)])
    m = mass_matrix(link, 0.5, 3.0).toarray()
    assert m.shape == (9, 9)
    assert np.allclose(m, m.T) and np.linalg.eigvalsh(m).min() > 0
    ones = np.tile(np.eye(3), (3, 1))  # a translation
    assert np.allclose(ones.T @ m @ ones, 3.0 * np.eye(3))  # total mass in every direction


def test_static_forces_in_space():
    """A tetrahedron on a pinned face carries a load on its apex: balanced, reactions in 3-D."""
    apex = [0.3, 0.3, 1.0]
    tet = Linkage([[0, 0, 0], [1, 0, 0], [0, 1, 0], apex], rods=K4, pinned=[0, 1, 2])
    r = static_forces(tet, {3: (0.0, 0.0, -1.0)})
    assert r.balanced and r.reactions.shape == (3, 3)
    assert r.reactions.sum(axis=0) == pytest.approx([0.0, 0.0, 1.0], abs=1e-12)
    # the three rods to the apex are compressed, and hold the apex in equilibrium
    assert (r.rod_forces[[2, 4, 5]] < 0).all()
    legs = tet.vertices[3] - tet.vertices[[0, 1, 2]]
    units = legs / np.linalg.norm(legs, axis=1, keepdims=True)
    on_apex = -(r.rod_forces[[2, 4, 5], None] * units).sum(axis=0)  # a tension pulls inward
    assert on_apex == pytest.approx([0.0, 0.0, 1.0], abs=1e-12)


def test_sparse_route_agrees_with_dense_in_space():
    rng = np.random.default_rng(11)
    pts = rng.standard_normal((12, 3))
    rods = [(i, j) for i, j in itertools.combinations(range(12), 2) if rng.random() < 0.45]
    link = Linkage(pts, rods=rods, pinned=[0])
    dense, sparse = analyze(link, method="dense"), analyze(link, method="sparse")
    assert sparse.method.startswith("sparse")
    fields = ("rank", "dof", "trivial_dof", "internal_dof", "self_stresses", "maxwell_count")
    assert [getattr(sparse, f) for f in fields] == [getattr(dense, f) for f in fields]


def test_large_frameworks_use_the_floating_generic_rank():
    """Above MAX_COLUMNS coordinates the generic rank is a floating rank, and says so."""
    pts = np.array(list(itertools.product(range(6), range(6), range(5))), float)
    rods = [
        (i, j)
        for i, j in itertools.combinations(range(len(pts)), 2)
        if np.abs(pts[i] - pts[j]).max() == 1 and np.abs(pts[i] - pts[j]).sum() <= 2
    ]
    rng = np.random.default_rng(1)
    link = Linkage(pts + 0.01 * rng.standard_normal(pts.shape), rods=rods)
    assert 3 * link.n_vertices > MAX_COLUMNS
    r = analyze(link)
    assert r.generic_method.startswith("random placement: floating-point rank")
    assert (r.internal_dof, r.generic_internal_dof) == (0, 0)  # braced faces: rigid
    assert r.generic_rank == r.rank


def test_mobility_and_cone_in_space():
    line = Linkage([[0, 0, 0], [1, 0, 0], [2, 0, 0]], rods=[(0, 1), (1, 2)], pinned=[0, 2])
    cone = tangent_cone(line)
    assert cone.flexes.shape == (2, 3, 3) and cone.n_stresses == 1
    assert mobility(line).status == "rigid although infinitesimally flexible"
    crank = Linkage([[0, 0, 0], [0, 1, 0], [2, 1.5, 0.5], [2, 0, 0]], rods=[(0, 1), (1, 2), (2, 3)])
    crank.pin(0)
    crank.pin(3)
    m = mobility(crank)
    assert m.dimension == 2 and m.branch_directions.shape[2] == 3  # two hinges bend freely
    with pytest.raises(NotImplementedError, match="exact_local_dimension .* is planar"):
        exact_local_dimension(crank)
    exact = mobility(crank, method="exact")  # in space too: proved here at first order
    assert (exact.dimension, exact.certified, exact.method) == (2, True, "implicit-function")


@pytest.mark.parametrize("dim", [2, 3])
def test_angles_without_rods_are_counted_as_angles(dim):
    """A triangle held by its three angles only still scales: not a triangle of rods.

    (Read as rods ``j-k``, as the pebble game must, it would count rigid.)
    """
    pts = [[0, 0, 0], [4, 0, 0], [1, 3, 0]]
    tri = Linkage([p[:dim] for p in pts], angles=[(0, 1, 2), (1, 2, 0), (2, 0, 1)])
    r = analyze(tri)
    trivial = 3 if dim == 2 else 6
    # the three angles sum to pi: rank 2, and the scaling is an internal motion
    assert (r.rank, r.generic_rank, r.self_stresses) == (2, 2, 1)
    assert (r.internal_dof, r.generic_internal_dof) == (dim * 3 - 2 - trivial,) * 2
    assert r.generic_method.startswith("random placement: rank mod P")
    assert ("no pebble game" in r.generic_method) is (dim == 2)
    rods = Linkage(tri.vertices, rods=[(0, 1), (1, 2), (0, 2)], angles=[(0, 1, 2)])
    if dim == 2:  # with its rods, an angle is a rod j-k: the pebble game counts it
        assert analyze(rods).generic_method == "pebble game (2, 3)"
    assert analyze(rods).generic_rank == 3  # the angle is redundant on a triangle of rods
