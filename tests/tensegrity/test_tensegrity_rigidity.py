"""Roth–Whiteley's test of tensegrity rigidity against independent computations.

The oracles: a rigidity matrix built here by hand (rows :math:`p_i - p_j` in the columns
of ``i``, the negative in those of ``j``), the exact self-stress of K4 by sympy at rational
coordinates, a linear program written directly on that matrix (variables the force
densities, not the package's stress basis) and the closed-form stress of Connelly's prism
(force densities 1 : sqrt(3) : -sqrt(3) on its triangles, verticals and struts).
"""

import numpy as np
import pytest
import sympy
from scipy.optimize import linprog

from linkage_widget import Linkage, tensegrity_rigidity

SQUARE = [[0, 0], [1, 0], [1, 1], [0, 1]]
SIDES = [(0, 1), (1, 2), (2, 3), (3, 0)]
DIAGONALS = [(0, 2), (1, 3)]
PRISM_CABLES = [(0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 3), (0, 3), (1, 4), (2, 5)]
PRISM_STRUTS = [(0, 4), (1, 5), (2, 3)]


def hand_matrix(points, rods, pinned=()):
    """R (m + d * pins, d n): member rows p_i - p_j (unscaled), then one row per pinned axis."""
    p = np.asarray(points, float)
    n, d = p.shape
    rows = []
    for i, j in rods:
        row = np.zeros(n * d)
        row[d * i : d * i + d] = p[i] - p[j]
        row[d * j : d * j + d] = p[j] - p[i]
        rows.append(row)
    for v in pinned:
        for k in range(d):
            row = np.zeros(n * d)
            row[d * v + k] = 1.0
            rows.append(row)
    return np.array(rows)


def equilibrium_residual(points, rods, omega, pinned=()):
    """max over unpinned joints of |sum_j omega_ij (p_i - p_j)|."""
    r = hand_matrix(points, rods)
    n, d = np.asarray(points).shape
    force = (omega @ r).reshape(n, d)
    free = [v for v in range(n) if v not in set(pinned)]
    return float(np.max(np.abs(force[free])))


def direct_lp_proper(points, rods, kinds, pinned=()):
    """Whether a proper stress exists: max t, omega_c >= t, -omega_s >= t, R^T w = 0, |w| <= 1."""
    r = hand_matrix(points, rods, pinned)
    c, m = r.shape[0], len(rods)
    sign = np.array([{"cable": 1.0, "strut": -1.0, "rod": 0.0}[k] for k in kinds])
    members = np.flatnonzero(sign)
    a_ub = np.zeros((members.size, c + 1))
    a_ub[np.arange(members.size), members] = -sign[members]
    a_ub[:, -1] = 1.0
    a_eq = np.hstack([r.T, np.zeros((r.shape[1], 1))])
    res = linprog(
        np.r_[np.zeros(c), -1.0], A_ub=a_ub, b_ub=np.zeros(members.size), A_eq=a_eq,
        b_eq=np.zeros(r.shape[1]), bounds=[(-1, 1)] * c + [(None, 1)], method="highs",
    )  # fmt: skip
    assert res.status == 0
    return res.x[-1] > 1e-7, res.x[:m]


def check_proper(link, omega):
    kinds = link.rod_kinds
    assert np.all(omega[kinds == "cable"] > 0) and np.all(omega[kinds == "strut"] < 0)
    residual = equilibrium_residual(link.vertices, link.rods, omega, link.pinned)
    assert residual < 1e-9


def prism(twist_deg=30.0, struts=PRISM_STRUTS, cables=PRISM_CABLES):
    a = np.arange(3) * 2 * np.pi / 3
    t = a + np.radians(twist_deg)
    pts = np.r_[np.c_[np.cos(a), np.sin(a), np.zeros(3)], np.c_[np.cos(t), np.sin(t), np.ones(3)]]
    return Linkage(pts, cables=cables, struts=struts, dim=3)


def test_square_with_crossing_struts_is_rigid_with_the_known_stress():
    link = Linkage(SQUARE, cables=SIDES, struts=DIAGONALS)
    report = tensegrity_rigidity(link)
    assert report.rigid and report.bar_framework_rigid and report.prestress_stable
    check_proper(link, report.proper_stress)
    # the square's one stress: sides +1, diagonals -1 (equilibrium at a corner by hand)
    np.testing.assert_allclose(report.proper_stress, [1, 1, 1, 1, -1, -1], atol=1e-12)
    assert report.active.all() and report.flex is None
    assert "Roth–Whiteley" in report.explanation


def test_square_with_the_kinds_swapped_is_rigid_too():
    link = Linkage(SQUARE, cables=DIAGONALS, struts=SIDES)
    report = tensegrity_rigidity(link)
    assert report.rigid
    check_proper(link, report.proper_stress)


@pytest.mark.parametrize("member", range(6))
def test_one_member_of_the_wrong_kind_makes_the_square_flexible(member):
    link = Linkage(SQUARE, cables=SIDES, struts=DIAGONALS)
    link.set_rod_kind(member, "strut" if member < 4 else "cable")
    report = tensegrity_rigidity(link)
    assert report.bar_framework_rigid and not report.rigid
    assert report.proper_stress is None and not report.prestress_stable
    assert "no self-stress pulls every cable" in report.explanation
    # the flex respects every inequality and changes some member's length (so not trivial)
    rates = hand_matrix(link.vertices, link.rods) @ report.flex.reshape(-1)
    kinds = link.rod_kinds
    assert np.all(rates[kinds == "cable"] <= 1e-9) and np.all(rates[kinds == "strut"] >= -1e-9)
    assert np.max(np.abs(rates)) > 0.1


def test_a_cable_triangle_cannot_hold_itself():
    link = Linkage([[0, 0], [2, 0], [0, 1]], cables=[(0, 1), (1, 2), (2, 0)])
    report = tensegrity_rigidity(link)
    assert report.bar_framework_rigid and not report.rigid
    assert not report.active.any() and np.all(report.stress == 0)


def test_without_cables_or_struts_it_is_the_bar_verdict():
    tri = Linkage([[0, 0], [2, 0], [0, 1]], rods=[(0, 1), (1, 2), (2, 0)])
    report = tensegrity_rigidity(tri)
    assert report.rigid and np.all(report.proper_stress == 0)
    four_bar = Linkage(SQUARE, rods=SIDES)
    report = tensegrity_rigidity(four_bar)
    assert not report.rigid and report.proper_stress is not None
    assert report.flex is not None and "1 infinitesimal flex" in report.explanation


def test_connelly_prism_stress_is_the_closed_form_and_it_is_prestress_stable():
    link = prism()
    report = tensegrity_rigidity(link)
    # not infinitesimally rigid (one flex at the special twist), rigid at second order
    assert not report.rigid and not report.bar_framework_rigid
    assert report.bar_report.internal_dof == 1 and report.prestress_stable is True
    omega = report.proper_stress
    check_proper(link, omega)
    expected = np.r_[np.ones(6), np.full(3, np.sqrt(3)), np.full(3, -np.sqrt(3))] / np.sqrt(3)
    np.testing.assert_allclose(omega, expected, atol=1e-9)
    # its energy on the flex, by hand: sum omega |v_i - v_j|^2 > 0
    v = report.bar_report.flexes(1)[0]
    energy = sum(w * np.sum((v[i] - v[j]) ** 2) for w, (i, j) in zip(omega, link.rods, strict=True))
    assert energy > 1e-3
    assert "prestress stable" in report.explanation


def test_prism_with_a_cable_made_a_strut_is_flexible():
    link = prism()
    link.set_rod_kind(0, "strut")
    report = tensegrity_rigidity(link)
    assert report.proper_stress is None and not report.rigid and not report.prestress_stable
    rates = hand_matrix(link.vertices, link.rods) @ report.flex.reshape(-1)
    kinds = link.rod_kinds
    assert np.all(rates[kinds == "cable"] <= 1e-9) and np.all(rates[kinds == "strut"] >= -1e-9)
    assert np.max(np.abs(rates)) > 0.1


@pytest.mark.parametrize("twist", [0.0, 60.0, 150.0, 210.0])
def test_prism_off_its_twist_has_no_proper_stress(twist):
    report = tensegrity_rigidity(prism(twist))
    assert report.proper_stress is None and not report.rigid


def test_a_taut_pinned_string_is_prestress_stable_and_a_pushed_one_is_not():
    pts = [[0, 0], [1, 0], [2, 0]]
    string = Linkage(pts, cables=[(0, 1), (1, 2)], pinned=[0, 2])
    report = tensegrity_rigidity(string)
    assert not report.rigid and report.prestress_stable is True
    check_proper(string, report.proper_stress)
    pushed = Linkage(pts, struts=[(0, 1), (1, 2)], pinned=[0, 2])
    report = tensegrity_rigidity(pushed)
    assert report.proper_stress is not None and report.prestress_stable is False


def exact_k4_stress(points):
    """The one self-stress of K4 in the plane at rational points, by sympy (exact)."""
    rods = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    p = [[sympy.Rational(int(c)) for c in row] for row in points]
    r = sympy.zeros(6, 8)
    for k, (i, j) in enumerate(rods):
        for a in range(2):
            r[k, 2 * i + a] = p[i][a] - p[j][a]
            r[k, 2 * j + a] = p[j][a] - p[i][a]
    (w,) = r.T.nullspace()
    return rods, np.array([float(x) for x in w])


def test_k4_random_kinds_agree_with_the_exact_stress():
    rng = np.random.default_rng(7)
    seen = {True: 0, False: 0}
    for _ in range(40):
        pts = rng.integers(-9, 10, size=(4, 2))
        rods, w = exact_k4_stress(pts)
        if np.min(np.abs(w)) < 1e-9 * np.max(np.abs(w)):
            continue  # a degenerate placement (three joints on a line)
        kinds = rng.choice(["rod", "cable", "strut"], size=6)
        link = Linkage(pts, rods=rods)
        for r, k in enumerate(kinds):
            link.set_rod_kind(r, str(k))
        sign = np.where(kinds == "cable", 1, np.where(kinds == "strut", -1, 0))
        on = sign != 0
        proper = bool(np.all(sign[on] * w[on] > 0) or np.all(-sign[on] * w[on] > 0))
        report = tensegrity_rigidity(link)
        assert report.rigid == proper
        seen[proper] += 1
        if proper:
            check_proper(link, report.proper_stress)
            np.testing.assert_allclose(
                report.proper_stress / np.abs(report.proper_stress).max(),
                w / np.abs(w).max() * np.sign(w @ report.proper_stress),
                atol=1e-9,
            )
    assert seen[True] >= 3 and seen[False] >= 3


def test_k5_random_kinds_agree_with_a_direct_lp():
    rng = np.random.default_rng(11)
    k5 = [(i, j) for i in range(5) for j in range(i + 1, 5)]  # 3 self-stresses
    agreed = {True: 0, False: 0}
    for _ in range(30):
        pts = rng.normal(size=(5, 2))
        kinds = rng.choice(["rod", "cable", "strut"], size=len(k5), p=[0.2, 0.5, 0.3])
        link = Linkage(pts, rods=k5)
        for r, k in enumerate(kinds):
            link.set_rod_kind(r, str(k))
        expected, _ = direct_lp_proper(pts, k5, kinds)
        report = tensegrity_rigidity(link)
        assert (report.proper_stress is not None) == expected
        assert report.rigid == expected  # K5 is rigid as a bar framework
        if expected:
            check_proper(link, report.proper_stress)
        agreed[bool(expected)] += 1
    assert agreed[True] >= 3 and agreed[False] >= 3


def verdicts(link):
    r = tensegrity_rigidity(link)
    if r.proper_stress is not None:
        check_proper(link, r.proper_stress)
    return r.rigid, r.bar_framework_rigid, r.proper_stress is None, r.prestress_stable


def test_the_sparse_route_agrees_with_the_basis_route(monkeypatch):
    import linkage_widget.rigidity.tensegrity as module

    rng = np.random.default_rng(5)
    k5 = [(i, j) for i in range(5) for j in range(i + 1, 5)]
    cases = [Linkage(SQUARE, cables=SIDES, struts=DIAGONALS), prism(), prism(150.0)]
    cases += [Linkage([[0, 0], [1, 0], [2, 0]], cables=[(0, 1), (1, 2)], pinned=[0, 2])]
    flipped = prism()
    flipped.set_rod_kind(3, "strut")
    cases.append(flipped)
    for _ in range(10):
        link = Linkage(rng.normal(size=(5, 2)), rods=k5)
        for r, k in enumerate(rng.choice(["rod", "cable", "strut"], size=10, p=[0.2, 0.5, 0.3])):
            link.set_rod_kind(r, str(k))
        cases.append(link)
    by_basis = [verdicts(link) for link in cases]
    monkeypatch.setattr(module, "DENSE_STRESS_ENTRIES", -1)
    assert [verdicts(link) for link in cases] == by_basis
    assert {v[0] for v in by_basis} == {True, False}
