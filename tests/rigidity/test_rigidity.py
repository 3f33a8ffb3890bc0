"""Rigidity analysis: textbook DOF, the 2007 program's own files, stresses, singular placements."""

import numpy as np
import pytest
from conftest import REFERENCE_DIR, reference_linkage
from hypothesis import given, settings
from hypothesis import strategies as st

from linkage_widget import Linkage, analyze
from linkage_widget.constraints import ConstraintSet
from linkage_widget.rigidity import RANK_RTOL, trivial_motions

REFERENCE_FILES = sorted(p.name for p in REFERENCE_DIR.glob("*.txt")) or ["peaucellier.txt"]

# The 2007 program's own walk-through ("Mechanical Linkages in Python"): the DOF it showed.
TEXTBOOK = {
    "point": (Linkage([[0, 0]]), 2, 2),
    "rod": (Linkage([[0, 0], [1, 0]], rods=[(0, 1)]), 3, 3),
    "triangle": (Linkage([[0, 0], [4, 0], [0, 3]], rods=[(0, 1), (1, 2), (0, 2)]), 3, 3),
    "triangle, two pins": (
        Linkage([[0, 0], [4, 0], [0, 3]], rods=[(0, 1), (1, 2), (0, 2)], pinned=[0, 1]),
        0,
        0,
    ),
    "rod, one pin": (Linkage([[0, 0], [1, 0]], rods=[(0, 1)], pinned=[0]), 1, 1),
    "quadrilateral, two pins": (
        Linkage(
            [[0, 0], [3, 0], [3.5, 2], [0.2, 2.2]],
            rods=[(0, 1), (1, 2), (2, 3), (3, 0)],
            pinned=[0, 1],
        ),
        1,
        0,
    ),
    # the page's right-angle linkage: two rods meeting at a fixed right angle
    "right angle": (
        Linkage([[0, 0], [2, 0], [0, 2]], rods=[(0, 1), (0, 2)], angles=[(0, 1, 2)]),
        3,
        3,
    ),
    "triangle via fixed angle": (
        Linkage([[0, 0], [4, 0], [0, 3]], rods=[(0, 1), (0, 2)], angles=[(0, 1, 2)]),
        3,
        3,
    ),
}


@pytest.mark.parametrize("name", TEXTBOOK)
def test_textbook_dof(name):
    linkage, dof, trivial = TEXTBOOK[name]
    report = analyze(linkage)
    assert (report.dof, report.trivial_dof) == (dof, trivial)
    assert report.internal_dof == dof - trivial


def test_fixed_angle_triangle_equals_triangle():
    tri = TEXTBOOK["triangle"][0]
    with_angle = TEXTBOOK["triangle via fixed angle"][0]
    a, b = analyze(tri), analyze(with_angle)
    assert (a.dof, a.internal_dof, a.status) == (b.dof, b.internal_dof, b.status)


def matrix_2007(linkage):
    """The 2007 program's rigidity matrix: rods 2(p_i - p_j), pins unit rows, angles grad(a.b)."""
    p = linkage.vertices
    n = len(p)
    rows = []
    for i, j in linkage.rods:
        r = np.zeros(2 * n)
        r[2 * i : 2 * i + 2] = 2 * (p[i] - p[j])
        r[2 * j : 2 * j + 2] = -2 * (p[i] - p[j])
        rows.append(r)
    for v in linkage.pinned:
        for c in range(2):
            r = np.zeros(2 * n)
            r[2 * v + c] = 1.0
            rows.append(r)
    for i, j, k in linkage.angles:
        a, b = p[j] - p[i], p[k] - p[i]
        r = np.zeros(2 * n)
        r[2 * j : 2 * j + 2] += b
        r[2 * k : 2 * k + 2] += a
        r[2 * i : 2 * i + 2] -= a + b
        rows.append(r)
    return np.array(rows).reshape(-1, 2 * n)


def dof_2007(linkage, eps=1e-5):
    """The 2007 count: dense SVD, singular values below an absolute eps (screen pixels) are zero."""
    a = matrix_2007(linkage)
    s = np.linalg.svd(a, compute_uv=False) if a.size else np.zeros(0)
    return 2 * linkage.n_vertices - int(np.sum(s > eps))


@pytest.mark.parametrize("name", REFERENCE_FILES)
def test_reference_file_dof_matches_2007_program(name):
    linkage = Linkage.load(reference_linkage(name))
    assert analyze(linkage).dof == dof_2007(linkage)


@pytest.mark.parametrize("name", REFERENCE_FILES)
def test_reference_file_basis_and_stresses(name):
    linkage = Linkage.load(reference_linkage(name))
    report = analyze(linkage)
    a = ConstraintSet.from_linkage(linkage).jacobian(linkage.vertices)
    v = report.velocity_basis.reshape(report.dof, 2 * linkage.n_vertices)
    assert v.shape == (report.dof, 2 * linkage.n_vertices)
    np.testing.assert_allclose(v @ v.T, np.eye(report.dof), atol=1e-9)
    # the rounded "t" files flex only approximately: relative to the row scale ~1
    assert np.abs(a @ v.T).max(initial=0) < 1e-6
    # above the dense size the report computes the first SHOWN stresses; stress_basis(), all
    shown = report.self_stresses if report.method == "dense-svd" else min(report.self_stresses, 50)
    assert report.stresses.shape == (shown, report.n_constraints)
    w = report.stress_basis()
    assert w.shape == (report.self_stresses, report.n_constraints)
    if report.self_stresses:
        assert np.abs(a.T @ w.T).max() < 1e-6
        np.testing.assert_allclose(w @ w.T, np.eye(report.self_stresses), atol=1e-9)
    assert report.internal_dof - report.self_stresses == report.maxwell_count


def test_straight_fixed_angle_adds_no_spurious_flex():
    # three collinear joints held straight by a 180 degree fixed angle: a rigid bar
    bar = Linkage([[0, 0], [1, 0], [2.5, 0]], rods=[(1, 0), (1, 2)], angles=[(1, 0, 2)])
    report = analyze(bar)
    assert (report.dof, report.internal_dof) == (3, 0)
    assert report.status == "infinitesimally rigid"
    # the 2007 dot-product row loses rank here and reports a spurious flex
    assert dof_2007(bar) == 4


def test_collinear_pinned_is_rigid_but_infinitesimally_flexible():
    line = Linkage([[0, 0], [1, 0], [2, 0]], rods=[(0, 1), (1, 2)], pinned=[0, 2])
    report = analyze(line)
    assert report.status == "rigid but infinitesimally flexible"
    assert (report.internal_dof, report.self_stresses) == (1, 1)
    assert report.generically_rigid
    # the flex is the middle joint moving sideways
    flex = report.velocity_basis[0]
    np.testing.assert_allclose(np.abs(flex), [[0, 0], [0, 1], [0, 0]], atol=1e-12)


def test_bent_pinned_chain_is_infinitesimally_rigid():
    bent = Linkage([[0, 0], [1, 0.3], [2, 0]], rods=[(0, 1), (1, 2)], pinned=[0, 2])
    assert analyze(bent).status == "infinitesimally rigid"


def test_four_bar_is_flexible_not_singular():
    four_bar = TEXTBOOK["quadrilateral, two pins"][0]
    assert analyze(four_bar).status == "flexible"


def test_k4_has_one_self_stress():
    k4 = Linkage(
        [[0, 0], [2, 0], [0, 2], [0.7, 0.6]],
        rods=[(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)],
    )
    report = analyze(k4)
    assert report.self_stresses == 1
    assert report.internal_dof == 0
    assert report.redundant_rods.sum() == 1
    # equilibrium of the stress at every joint: sum_j omega_ij (p_i - p_j) = 0
    lengths = k4.rod_lengths()
    omega = report.rod_stress / lengths
    force = np.zeros((4, 2))
    for (i, j), w in zip(k4.rods, omega, strict=True):
        force[i] += w * (k4.vertices[i] - k4.vertices[j])
        force[j] += w * (k4.vertices[j] - k4.vertices[i])
    np.testing.assert_allclose(force, 0, atol=1e-12)
    # K4 in the plane: outer triangle and inner spokes carry opposite signs
    assert (
        np.sign(report.rod_stress[[0, 1, 3]]).tolist()
        != np.sign(report.rod_stress[[2, 4, 5]]).tolist()
    )


def test_special_position_stress_is_explained():
    # a quadrilateral with a diagonal, all four joints on one line: stressed by position only
    flat = Linkage([[0, 0], [1, 0], [2, 0], [3, 0]], rods=[(0, 1), (1, 2), (2, 3), (0, 3)])
    report = analyze(flat)
    assert report.self_stresses >= 1
    assert "special position" in report.explanation


def test_generic_rigidity_from_pebble_game():
    assert analyze(TEXTBOOK["triangle"][0]).generically_rigid
    assert not analyze(TEXTBOOK["quadrilateral, two pins"][0]).generically_rigid
    # a pinned vertex set: two pins tie a rod's ends, the rod is then redundant generically
    report = analyze(TEXTBOOK["triangle, two pins"][0])
    assert report.generically_rigid and report.generic_internal_dof == 0


def test_a_rod_between_two_pins_is_redundant():
    # issue 11: the analysis found its self-stress, but redundant_rods marked nothing
    between_pins = Linkage([[0, 0], [3, 0]], rods=[(0, 1)], pinned=[0, 1])
    report = analyze(between_pins)
    assert report.redundant_rods.tolist() == [True]
    assert (report.self_stresses, report.generic_rank, report.rank) == (1, 4, 4)
    # the textbook triangle pinned at both ends of rod 0-1: that rod is the redundant one
    assert analyze(TEXTBOOK["triangle, two pins"][0]).redundant_rods.tolist() == [
        True,
        False,
        False,
    ]
    # a four-bar whose ground link joins its pins: the ground link is redundant, the
    # mechanism still moves
    four_bar = Linkage(
        [[0, 0], [0.5, 2], [3.2, 2.4], [3, 0]], rods=[(0, 1), (1, 2), (2, 3), (3, 0)], pinned=[0, 3]
    )
    report = analyze(four_bar)
    assert report.redundant_rods.tolist() == [False, False, False, True]
    assert (report.internal_dof, report.self_stresses) == (1, 1)


def test_pinned_triangle_with_an_extra_rod():
    # triangle 0-1-2 pinned at 0 and 1, joint 3 braced to all three corners: rod 0-1 lies
    # between the pins, rod 2-3 braces what 0-3 and 1-3 hold already
    link = Linkage(
        [[0, 0], [4, 0], [1, 3], [2.2, 1.1]],
        rods=[(0, 1), (1, 2), (0, 2), (0, 3), (1, 3), (2, 3)],
        pinned=[0, 1],
    )
    report = analyze(link)
    assert report.redundant_rods.tolist() == [True, False, False, False, False, True]
    assert report.generic_rank == 2 * 2 + 4 == report.rank
    assert report.self_stresses == 2 == report.n_constraints - report.generic_rank
    # pinned at all three corners: every triangle rod is redundant
    all_pinned = Linkage(link.vertices, link.rods, pinned=[0, 1, 2])
    assert analyze(all_pinned).redundant_rods.tolist() == [True, True, True, False, False, True]


def test_redundant_rods_count_the_generic_self_stresses():
    # At a random (generic) placement, rank and self-stresses are the graph's: the rods the
    # pebble game marks are exactly n_constraints - generic_rank, pins or not.
    rng = np.random.default_rng(11)
    for _ in range(60):
        n = int(rng.integers(2, 7))
        pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
        rods = [pairs[k] for k in rng.permutation(len(pairs))[: rng.integers(1, len(pairs) + 1)]]
        pinned = rng.permutation(n)[: rng.integers(0, n + 1)].tolist()
        link = Linkage(rng.standard_normal((n, 2)), rods=rods, pinned=pinned)
        report = analyze(link)
        assert report.generic_rank == report.rank, (rods, pinned)
        assert report.redundant_rods.sum() == report.self_stresses, (rods, pinned)
        assert report.self_stresses == report.n_constraints - report.generic_rank


def test_empty_linkage():
    report = analyze(Linkage())
    assert (report.dof, report.rank, report.self_stresses) == (0, 0, 0)
    assert report.velocity_basis.shape == (0, 0, 2)


def test_trivial_motion_counts():
    pts = [[0, 0], [1, 0], [0, 1]]
    assert trivial_motions(pts).shape[1] == 3
    assert trivial_motions(pts, [1]).shape[1] == 1
    assert trivial_motions(pts, [0, 2]).shape[1] == 0
    assert trivial_motions([[5, 5]]).shape[1] == 2
    assert trivial_motions([[5, 5]], [0]).shape[1] == 0


def test_rtol_must_be_positive():
    with pytest.raises(ValueError, match="rtol"):
        analyze(Linkage(), rtol=0)


def test_rigidity_module_does_not_import_widgets():
    import subprocess
    import sys

    code = (
        "import sys, linkage_widget.rigidity, linkage_widget.constraints, linkage_widget.model\n"
        "bad = [m for m in ('ipywidgets', 'ipycanvas', 'ipyevents') if m in sys.modules]\n"
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# ----------------------------------------------------------------------- properties
@st.composite
def frameworks(draw, max_n=7):
    n = draw(st.integers(2, max_n))
    coords = draw(
        st.lists(
            st.tuples(st.integers(-50, 50), st.integers(-50, 50)),
            min_size=n,
            max_size=n,
            unique=True,
        )
    )
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    rods = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=len(pairs)))
    pins = draw(st.lists(st.integers(0, n - 1), unique=True, max_size=2))
    # irrational-looking jitter keeps placements generic most of the time
    jitter = np.sin(np.arange(2 * n) * 12.9898).reshape(n, 2) * 0.37
    return Linkage(np.array(coords, float) + jitter, rods=rods, pinned=pins)


def rotated(linkage, angle, shift):
    c, s = np.cos(angle), np.sin(angle)
    pts = linkage.vertices @ np.array([[c, s], [-s, c]]) + shift
    return Linkage(pts, linkage.rods, linkage.angles, linkage.pinned)


@settings(max_examples=60, deadline=None)
@given(frameworks())
def test_velocity_basis_is_in_the_kernel(linkage):
    report = analyze(linkage)
    a = ConstraintSet.from_linkage(linkage).jacobian(linkage.vertices)
    v = report.velocity_basis.reshape(report.dof, 2 * linkage.n_vertices)
    assert np.abs(a @ v.T).max(initial=0) < 1e-9
    np.testing.assert_allclose(v @ v.T, np.eye(report.dof), atol=1e-9)
    assert report.dof == 2 * linkage.n_vertices - report.rank
    assert report.internal_dof - report.self_stresses == report.maxwell_count


@settings(max_examples=60, deadline=None)
@given(frameworks(), st.floats(0, 2 * np.pi), st.floats(-1e3, 1e3), st.floats(-1e3, 1e3))
def test_dof_invariant_under_rigid_motion(linkage, angle, dx, dy):
    a, b = analyze(linkage), analyze(rotated(linkage, angle, [dx, dy]))
    assert (a.dof, a.trivial_dof, a.self_stresses) == (b.dof, b.trivial_dof, b.self_stresses)


@settings(max_examples=40, deadline=None)
@given(frameworks(), st.floats(1e-3, 1e3))
def test_dof_invariant_under_scaling(linkage, factor):
    scaled = Linkage(linkage.vertices * factor, linkage.rods, linkage.angles, linkage.pinned)
    assert analyze(linkage).dof == analyze(scaled).dof


def test_rank_tolerance_separates_the_reference_gaps():
    # the evidence for RANK_RTOL, on the files it was chosen from: no singular value lies
    # within a factor 10 of it, and the rounded "t" file's flex sits far below it
    # (the dense path: it has every singular value; the default tolerance "auto" lands at
    # ~4e-8 on these files, between the same gaps, see test_sparse_rank)
    for name in ("penrose2t.txt", "penrose3t-2.txt", "penrose1t-locked.txt"):
        s = analyze(Linkage.load(reference_linkage(name)), method="dense").singular_values
        rel = s / s[0]
        assert not np.any((rel > RANK_RTOL / 10) & (rel < RANK_RTOL * 10)), name
    s = analyze(Linkage.load(reference_linkage("penrose2t.txt"))).singular_values
    assert np.any((s / s[0] > 1e-12) & (s / s[0] < RANK_RTOL / 10))


# --- statuses after issue 13: "flexible" only when a motion is certain or found -----------
def _k33(scale):
    return Linkage(
        [[scale * i, 0.0] for i in range(6)], rods=[(i, j) for i in range(3) for j in range(3, 6)]
    )


def test_statuses_include_undecided():
    from linkage_widget.rigidity import STATUSES

    assert STATUSES == (
        "flexible",
        "infinitesimally rigid",
        "rigid but infinitesimally flexible",
        "undecided",
    )


def test_collinear_k33_is_no_longer_called_flexible():
    # 4 flexes, 4 self-stresses, not prestress stable: the old sufficient test said "flexible"
    report = analyze(_k33(1.0))
    assert (report.internal_dof, report.self_stresses) == (4, 4)
    assert report.status == "rigid but infinitesimally flexible"


def test_undecided_where_no_test_concludes():
    # the same placement scaled by sqrt(2): no exact rational route, 4 flexes (too many for the
    # closed form), no motion found: the analysis says so instead of guessing
    report = analyze(_k33(np.sqrt(2.0)))
    assert report.status == "undecided"
    assert "neither" in report.explanation


def test_overconstrained_cranks_are_flexible_by_their_motion():
    base = np.array([[0.0, 0.0], [2.0, 0.0], [5.0, 0.0]])
    cranks = Linkage(
        np.vstack([base, base + [0.6, 0.8]]),
        rods=[(0, 3), (1, 4), (2, 5), (3, 4), (4, 5), (3, 5)],
        pinned=[0, 1, 2],
    )
    report = analyze(cranks)
    assert report.maxwell_count == 0 and report.self_stresses == 1
    assert report.status == "flexible"
    assert "found by projecting" in report.explanation


def test_flexible_only_for_placements_that_move():
    from linkage_widget.rigidity.local_dimension import mobility

    rigid_but_flexible = [
        _k33(1.0),
        Linkage([[0, 0], [1, 0], [2, 0], [3, 0]], rods=[(0, 1), (1, 2), (2, 3)], pinned=[0, 3]),
        Linkage([[0, 0], [1, 0], [2, 0]], rods=[(0, 1), (1, 2), (0, 2)]),
    ]
    for link in rigid_but_flexible:
        assert mobility(link).dimension == 0
        assert analyze(link).status != "flexible"
