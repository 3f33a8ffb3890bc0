"""global_rigidity and universal_rigidity on named frameworks (issue 26, items 1–5).

Oracles: closed-form facts about the examples (a triangle, K4, the 3-prism, two
triangles on a rod, the cable-braced square), the definition of another placement
(every rod length kept to 1e-10, some pairwise distance changed), and in the plane the
two generic tests, computed independently (Jackson–Jordán's combinatorics against the
exact stress-matrix rank modulo a prime), must agree.
"""

from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from linkage_widget import Linkage, global_rigidity, universal_rigidity
from linkage_widget.rigidity.other_placement import fold
from linkage_widget.rigidity.stress_matrix import generic_stress_rank, stress_matrix

PRISM_RODS = [(0, 1), (1, 2), (0, 2), (3, 4), (4, 5), (3, 5), (0, 3), (1, 4), (2, 5)]
PRISM_XY = [[0, 0], [4, 0], [2, 3], [0.5, 0.8], [3.2, 0.4], [2.2, 2.0]]
K4_RODS = list(combinations(range(4), 2))


def _other_is_genuine(linkage, q):
    p = np.asarray(linkage.vertices)
    rods = np.asarray(linkage.rods)
    lp = np.linalg.norm(p[rods[:, 0]] - p[rods[:, 1]], axis=1)
    lq = np.linalg.norm(q[rods[:, 0]] - q[rods[:, 1]], axis=1)
    assert np.abs(lp - lq).max() <= 1e-10 * lp.max()
    dp = np.linalg.norm(p[:, None] - p[None], axis=2)
    dq = np.linalg.norm(q[:, None] - q[None], axis=2)
    assert np.abs(dp - dq).max() > 1e-3  # not congruent: some distance changed


def test_a_triangle_is_globally_and_universally_rigid():
    tri = Linkage([[0, 0], [2, 0], [1, 1.5]], rods=[(0, 1), (1, 2), (0, 2)])
    report = global_rigidity(tri, seed=0)
    assert report.generically_globally_rigid and report.globally_rigid is True
    assert report.other_placement is None and report.error_probability == 0.0
    assert universal_rigidity(tri).universally_rigid is True


def test_k4_in_general_position_is_certified_by_a_psd_rank_one_stress():
    k4 = Linkage([[0, 0], [4, 0], [1, 3], [1.3, 1.1]], rods=K4_RODS)
    report = global_rigidity(k4, seed=0)
    assert report.generically_globally_rigid and report.three_connected
    assert report.redundantly_rigid and report.globally_rigid is True
    w, p = report.stress, np.asarray(k4.vertices)
    # a self-stress: balanced at every joint (independent check of the certificate)
    force = np.zeros_like(p)
    for (i, j), wij in zip(K4_RODS, w, strict=True):
        force[i] += wij * (p[i] - p[j])
        force[j] += wij * (p[j] - p[i])
    assert np.abs(force).max() < 1e-9
    eig = np.linalg.eigvalsh(stress_matrix(4, np.array(K4_RODS), w))
    assert report.stress_rank == 1 and eig.min() > -1e-9 and (eig > 1e-6).sum() == 1
    assert universal_rigidity(k4).universally_rigid is True


def test_two_triangles_on_a_rod_fold_across_it():
    kite = Linkage(
        [[0, 0], [2, 0], [1, 1.5], [1, -1.2]], rods=[(0, 1), (1, 2), (0, 2), (0, 3), (1, 3)]
    )
    report = global_rigidity(kite, seed=0)
    assert not report.generically_globally_rigid and not report.three_connected
    assert report.separating_pair == (0, 1) and report.globally_rigid is False
    _other_is_genuine(kite, report.other_placement)
    assert universal_rigidity(kite).universally_rigid is False


def test_the_three_prism_is_rigid_but_not_globally_rigid_and_a_solve_shows_it():
    prism = Linkage(PRISM_XY, rods=PRISM_RODS)
    report = global_rigidity(prism, seed=0)
    assert report.three_connected and not report.redundantly_rigid
    assert not report.generically_globally_rigid
    assert report.globally_rigid is False  # Hendrickson: another placement exists
    _other_is_genuine(prism, report.other_placement)


def test_the_cable_braced_square_is_universally_rigid_with_a_proper_stress():
    square = Linkage([[0, 0], [1, 0], [1, 1], [0, 1]],
                     cables=[(0, 1), (1, 2), (2, 3), (3, 0)], struts=[(0, 2), (1, 3)])  # fmt: skip
    report = universal_rigidity(square)
    assert report.universally_rigid is True
    assert (report.stress[:4] > 0).all() and (report.stress[4:] < 0).all()
    flipped = Linkage([[0, 0], [1, 0], [1, 1], [0, 1]],
                      struts=[(0, 1), (1, 2), (2, 3), (3, 0)], cables=[(0, 2), (1, 3)])  # fmt: skip
    assert universal_rigidity(flipped).universally_rigid is None  # no proper PSD stress


def test_pins_are_one_ground_body_a_fold_never_moves_them():
    # a triangle hanging from two pins by one joint: 0, 1 pinned, 2-3-... a flap on (0, 1)
    flap = Linkage([[0, 0], [2, 0], [1, 1.5]], rods=[(0, 2), (1, 2)], pinned=[0, 1])
    report = global_rigidity(flap, seed=0)
    assert report.globally_rigid is True  # with the ground bar it is a triangle
    hang = Linkage([[0, 0], [2, 0], [1, 1.5], [3, 1]], rods=[(0, 2), (1, 2), (2, 3), (1, 3)],
                   pinned=[0, 1])  # fmt: skip
    report = global_rigidity(hang, seed=0)
    assert report.globally_rigid is False
    q = report.other_placement
    assert np.allclose(q[[0, 1]], [[0, 0], [2, 0]])  # the ground stays
    _other_is_genuine(hang, q)


@pytest.mark.parametrize("extra", ["angles", "sliders", "slots"])
def test_angles_sliders_and_slots_are_refused_saying_why(extra):
    xy = [[0, 0], [2, 0], [1, 1.5], [1, 0]]
    rods = [(0, 1), (1, 2), (0, 2), (2, 3)]
    kwargs = {"angles": {"angles": [(0, 1, 2)]}, "sliders": {"sliders": [(2, (1, 1.5), (1, 0))]},
              "slots": {"slots": [(0, 1, 3)]}}[extra]  # fmt: skip
    linkage = Linkage(xy, rods=rods, **kwargs)
    with pytest.raises(ValueError, match="bar .and cable/strut. frameworks"):
        global_rigidity(linkage)
    with pytest.raises(ValueError, match=extra[:-1]):
        universal_rigidity(linkage)


def test_space_k5_is_globally_rigid_the_octahedron_is_not():
    rng = np.random.default_rng(3)
    k5 = Linkage(rng.standard_normal((5, 3)), rods=list(combinations(range(5), 2)))
    report = global_rigidity(k5, seed=0)
    assert report.generically_globally_rigid and report.globally_rigid is True
    octa = [(0, 2), (0, 3), (0, 4), (0, 5), (1, 2), (1, 3), (1, 4), (1, 5),
            (2, 4), (2, 5), (3, 4), (3, 5)]  # fmt: skip
    report = global_rigidity(Linkage(rng.standard_normal((6, 3)), rods=octa), seed=0)
    assert not report.generically_globally_rigid and 0 < report.error_probability < 1e-6


@st.composite
def planar_graphs(draw):
    n = draw(st.integers(4, 9))
    pairs = list(combinations(range(n), 2))
    density = draw(st.floats(0.3, 1.0))
    rng = np.random.default_rng(draw(st.integers(0, 2**31)))
    return n, [e for e in pairs if rng.random() < density]


@settings(max_examples=60, deadline=None)
@given(planar_graphs())
def test_jackson_jordan_and_the_stress_matrix_test_agree_in_the_plane(graph):
    n, edges = graph
    xy = np.random.default_rng(n).standard_normal((n, 2))
    report = global_rigidity(Linkage(xy, rods=edges or [(0, 1)]), seed=1)
    rank, _ = generic_stress_rank(n, edges or [(0, 1)], dim=2, seed=2)
    assert report.generically_globally_rigid == (rank == n - 3)


def test_a_disconnected_framework_moves_a_component_away():
    apart = Linkage([[0, 0], [1, 0], [3, 0], [3, 1]], rods=[(0, 1), (2, 3)], pinned=[2])
    report = global_rigidity(apart, seed=0)
    assert report.globally_rigid is False and "component" in report.explanation
    q = report.other_placement
    assert np.allclose(q[2], [3, 0])  # the pinned component stays
    _other_is_genuine(apart, q)


def test_two_tetrahedra_on_a_rod_turn_about_it_in_space():
    xyz = [[0, 0, 0], [2, 0, 0], [1, 1.5, 0.2], [0.8, 0.4, 1.3], [1.1, -1.2, 0.3],
           [0.9, -0.5, -1.4]]  # fmt: skip
    tets = [e for quad in ([0, 1, 2, 3], [0, 1, 4, 5]) for e in combinations(quad, 2)]
    linkage = Linkage(xyz, rods=sorted(set(tets)))
    report = global_rigidity(linkage, seed=0)
    assert report.separating_pair == (0, 1) and not report.generically_globally_rigid
    assert report.globally_rigid is False
    _other_is_genuine(linkage, report.other_placement)


def test_an_unloaded_cable_does_not_hold_the_cross_so_it_is_not_universally_rigid():
    # Two collinear rod triangles crossing at joint 0; the only cable (1, 2) carries no
    # stress, so the conic check may not count it: turning the vertical bar about 0
    # keeps every rod and shortens the cable (checked by hand below).
    xy = [[0, 0], [1, 0], [0, 1], [-1, 0], [0, -1]]
    rods = [(0, 1), (0, 3), (1, 3), (0, 2), (0, 4), (2, 4)]
    cross = Linkage(xy, rods=rods, cables=[(1, 2)])
    report = universal_rigidity(cross)
    assert report.universally_rigid is not True
    t = -0.3  # clockwise: joint 2 moves towards joint 1
    q = np.array(xy, float)
    turn = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    q[[2, 4]] = q[[2, 4]] @ turn.T
    p = np.array(xy, float)
    for i, j in rods:
        assert np.isclose(np.linalg.norm(q[i] - q[j]), np.linalg.norm(p[i] - p[j]))
    assert np.linalg.norm(q[1] - q[2]) < np.linalg.norm(p[1] - p[2])


def test_two_parallel_rods_are_moved_apart_into_a_placement_that_is_no_mirror_image():
    # shifting the left rod right by the extent + 1 lands it beyond the other: the mirror
    # image of the start, which is congruent; the report must give a non-congruent one
    p = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], float)
    report = global_rigidity(Linkage(p, rods=[(0, 1), (2, 3)]))
    assert report.globally_rigid is False
    q = report.other_placement
    for i, j in [(0, 1), (2, 3)]:
        assert np.isclose(np.linalg.norm(q[i] - q[j]), 1.0)
    dp = np.linalg.norm(p[:, None] - p[None], axis=2)
    dq = np.linalg.norm(q[:, None] - q[None], axis=2)
    assert np.abs(dp - dq).max() > 0.1


def _genuine(p: np.ndarray, q: np.ndarray, edges: np.ndarray) -> None:
    """Same rod lengths, some other distance changed (an independent check)."""
    for i, j in edges:
        assert np.isclose(np.linalg.norm(q[i] - q[j]), np.linalg.norm(p[i] - p[j]))
    dp = np.linalg.norm(p[:, None] - p[None], axis=2)
    dq = np.linalg.norm(q[:, None] - q[None], axis=2)
    assert np.abs(dp - dq).max() > 1e-3


def test_a_half_turn_that_is_a_mirror_image_is_followed_by_a_quarter_turn_in_space():
    # the rest (0, 1, 2) lies in the plane z = 0 through the axis 0-1; joint 3 lies in
    # the plane y = 0: the half turn of 3 is the mirror in z = 0, congruent
    p = np.array([[0, 0, 0], [2, 0, 0], [1, 1, 0], [1, 0, 1.5]], float)
    edges = np.array([(0, 1), (0, 2), (1, 2), (0, 3), (1, 3)])
    q = fold(p, edges, (0, 1), np.array([], int))
    assert q is not None
    _genuine(p, q, edges)


def test_a_cut_vertex_side_turns_about_it_when_the_rest_is_on_the_fold_line():
    # joint 0 cuts the triangle (3, 4) off a collinear triangle (0, 1, 2); folding across
    # the widened pair (0, 1) reflects in the line the rest lies on: congruent
    p = np.array([[0, 0], [1, 0], [2, 0], [0, 1], [-1, 1]], float)
    edges = np.array([(0, 1), (1, 2), (0, 2), (0, 3), (3, 4), (0, 4)])
    q = fold(p, edges, (0, 1), np.array([], int))
    assert q is not None
    _genuine(p, q, edges)


@pytest.mark.parametrize(
    "xy",
    [[[0, 0], [1, 0], [3, 0], [7, 0]],  # collinear K4: no PSD stress of rank n - d - 1
     [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [2, 3, 5]]],  # K5 in space
)  # fmt: skip
def test_a_complete_graph_is_globally_and_universally_rigid_at_any_placement(xy):
    # every pairwise distance is a rod length, so any equal-length placement is congruent
    n = len(xy)
    linkage = Linkage(xy, rods=list(combinations(range(n), 2)))
    report = global_rigidity(linkage, seed=0)
    assert report.generically_globally_rigid is True and report.globally_rigid is True
    # without a stress certificate (the collinear K4) the words must give the real reason
    assert report.stress is not None or "every two joints are joined" in report.explanation
    assert universal_rigidity(linkage).universally_rigid is True


@pytest.mark.parametrize(("n", "dim"), [(3, 2), (0, 2), (4, 3)])
def test_the_stress_matrix_test_refuses_fewer_than_d_plus_2_vertices(n, dim):
    # three joints without rods are not globally rigid, yet rank 0 = n - d - 1 would read
    # as a certain yes
    with pytest.raises(ValueError, match="at least"):
        generic_stress_rank(n, [], dim=dim)


def test_a_certificate_reports_its_residual_and_eigenvalue_margin():
    k4 = Linkage([[0, 0], [4, 0], [1, 3], [1.3, 1.1]], rods=K4_RODS)
    for words in (global_rigidity(k4, seed=0).explanation,
                  universal_rigidity(k4).explanation):  # fmt: skip
        assert "to tolerance: |R^T w| = " in words
        residual = float(words.split("|R^T w| = ")[1].split()[0])
        margin = float(words.split("smallest eigenvalue ")[1].split()[0])
        assert residual < 1e-12 and margin > 0.99  # one nonzero eigenvalue: ratio 1


def test_both_reports_take_the_same_seed_default():
    import inspect

    defaults = {f.__name__: inspect.signature(f).parameters["seed"].default
                for f in (global_rigidity, universal_rigidity)}  # fmt: skip
    assert defaults == {"global_rigidity": None, "universal_rigidity": None}
