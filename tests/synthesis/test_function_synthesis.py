"""Function generation (Freudenstein) against the closed form and the package's kinematics.

Oracles: Freudenstein's 3x3 system written out and solved exactly by sympy; the link
lengths from the textbook's K1 = d/a, K2 = d/c, K3 = (a² - b² + c² + d²)/(2ac); the
built linkage driven by ``kinematics`` (a Newton continuation on the constraint rows,
not the synthesis's circle intersection) to the precision points' crank angles.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from linkage_widget import FunctionSynthesis, function_synthesis, kinematics
from linkage_widget.synthesis import chebyshev_points

LOG = (np.log10, (1.0, 2.0), (0.0, np.log10(2.0)))
PHI = (3 * np.pi / 4, 5 * np.pi / 4)  # the defaults, written out
PSI = (np.pi / 2, 5 * np.pi / 6)


def _rocker_angles(linkage, crank_angles):
    k = kinematics(linkage, 0, 2, crank_angles)
    assert k.valid.all()
    r = k.positions[:, 3] - k.positions[:, 1]
    return np.arctan2(r[:, 1], r[:, 0])


def _wrapped(d):
    return np.mod(np.asarray(d) + np.pi, 2 * np.pi) - np.pi


def test_three_points_solve_freudenstein_exactly_as_sympy_does():
    f, (x0, x1), (y0, y1) = LOG
    s = function_synthesis(f, (x0, x1), (y0, y1))
    assert isinstance(s, FunctionSynthesis)
    # Chebyshev points of [1, 2], n = 3, by hand: mid -+ half cos(pi/6), and the middle
    half = (x1 - x0) / 2
    cheb = [1.5 - half * np.sqrt(3) / 2, 1.5, 1.5 + half * np.sqrt(3) / 2]
    np.testing.assert_allclose(s.precision_points, cheb, atol=1e-14)
    k1, k2, k3 = sp.symbols("K1 K2 K3")
    eqs = []
    for x in cheb:
        phi = sp.Float(PHI[0] + (x - x0) / (x1 - x0) * (PHI[1] - PHI[0]), 30)
        psi = sp.Float(PSI[0] + (f(x) - y0) / (y1 - y0) * (PSI[1] - PSI[0]), 30)
        eqs.append(k1 * sp.cos(psi) - k2 * sp.cos(phi) + k3 - sp.cos(phi - psi))
    sol = sp.solve(eqs, [k1, k2, k3], dict=True)[0]
    want = np.array([float(sol[k1]), float(sol[k2]), float(sol[k3])])
    np.testing.assert_allclose(s.coefficients, want, rtol=1e-10)
    d = 1.0
    a, c = d / want[0], d / want[1]
    b = np.sqrt(a * a + c * c + d * d - 2 * a * c * want[2])
    np.testing.assert_allclose(s.lengths, [d, abs(a), b, abs(c)], rtol=1e-10)


@pytest.mark.parametrize(
    ("f", "xr", "yr"),
    [LOG, (lambda x: x * x, (0.0, 1.0), (0.0, 1.0)), (np.log10, (1.0, 10.0), (0.0, 1.0))],
)
def test_built_four_bar_generates_f_at_the_precision_points(f, xr, yr):
    s = function_synthesis(f, xr, yr)
    x = s.precision_points
    got = _rocker_angles(s.linkage, s.crank_angle(x))
    np.testing.assert_allclose(_wrapped(got - s.rocker_angle([f(v) for v in x])), 0, atol=1e-10)
    # the linkage is the four_bar.txt layout: pivots 0, 1 pinned, crank 0-2
    assert s.linkage.pinned.tolist() == [0, 1]
    assert sorted(map(sorted, s.linkage.rods.tolist())) == [[0, 2], [1, 3], [2, 3]]
    assert s.four_bar.motor == (0, 2)


def test_structural_error_is_what_the_package_kinematics_reads():
    f, xr, yr = LOG
    s = function_synthesis(f, xr, yr, samples=41)
    psi = _rocker_angles(s.linkage, s.crank_angle(s.samples))
    y0, y1, p0, p1 = s.output_map
    psi = p0 + _wrapped(psi - p0)
    y_made = y0 + (psi - p0) / (p1 - p0) * (y1 - y0)
    np.testing.assert_allclose(y_made - f(s.samples), s.structural_error, atol=1e-10)
    # zero at the precision points (3 points: exact), small in between (log on [1, 2])
    assert 1e-5 < s.max_error < 2e-3
    # the error changes sign at each precision point: four arcs of alternating sign
    inner = s.structural_error[np.abs(s.structural_error) > 1e-9]
    assert np.count_nonzero(np.diff(np.sign(inner))) == 3


def _read_max_error(s, f):
    psi = _rocker_angles(s.linkage, s.crank_angle(s.samples))
    y0, y1, p0, p1 = s.output_map
    y_made = y0 + _wrapped(psi - p0) / (p1 - p0) * (y1 - y0)
    return float(np.abs(y_made - f(s.samples)).max())


def test_more_points_are_a_least_squares_fit():
    f, xr, yr = np.log10, (1.0, 10.0), (0.0, 1.0)
    s = function_synthesis(f, xr, yr, n_points=6, spacing="uniform")
    x = s.precision_points
    np.testing.assert_allclose(x, np.linspace(1, 10, 6), atol=1e-14)
    phi = PHI[0] + (x - 1) / 9 * (PHI[1] - PHI[0])
    psi = PSI[0] + f(x) * (PSI[1] - PSI[0])
    rows = np.column_stack([np.cos(psi), -np.cos(phi), np.ones(6)])
    residual = rows @ s.coefficients - np.cos(phi - psi)
    # the normal equations: the residual is orthogonal to the columns
    np.testing.assert_allclose(rows.T @ residual, 0, atol=1e-12)
    assert np.abs(residual).max() > 1e-4  # six points are not met exactly
    three = function_synthesis(f, xr, yr)
    # the largest error as the package's kinematics reads it off each built four-bar
    six_err, three_err = _read_max_error(s, f), _read_max_error(three, f)
    assert s.max_error == pytest.approx(six_err, abs=1e-9)
    assert three.max_error == pytest.approx(three_err, abs=1e-9)
    # log10 over a decade: about 0.076 and 0.097 of the output range (measured), the
    # six-point fit the better; both far from the range (1.0) a broken fit would reach
    assert six_err < 0.08 < three_err < 0.1


@pytest.mark.parametrize(
    ("args", "kwargs", "match"),
    [
        ((np.log10, (1, 1), (0, 1)), {}, "input_range is degenerate"),
        ((np.log10, (1, 2), (0, 0)), {}, "output_range is degenerate"),
        ((np.log10, (1, 2), (0, 1)), {"input_angles": (1, 1)}, "input_angles is degenerate"),
        ((np.log10, (1, 2), (0, 1)), {"n_points": 2}, "at least 3"),
        ((np.log10, (1, 2), (0, 1)), {"spacing": "random"}, "spacing must be one of"),
        ((np.log10, (-2, -1), (0, 1)), {}, r"f\(-1.9.*\) = nan is not finite"),
        ((np.log10, (1, 2), "ab"), {}, r"output_range\[0\] must be a finite number"),
        ((np.log10, 5, (0, 1)), {}, "input_range must be a pair"),
        ((np.log10, (1, 2), (0, 1)), {"samples": 2.5}, "samples must be a whole number >= 2"),
        ((np.log10, (1, 2), (0, 1)), {"samples": 1}, "samples must be a whole number >= 2"),
    ],
)
def test_bad_input_says_what(args, kwargs, match):
    with np.errstate(invalid="ignore"), pytest.raises(ValueError, match=match):
        function_synthesis(*args, **kwargs)


def test_a_branch_defect_is_refused_and_is_one():
    phi = np.radians([0.0, 60.0])
    with pytest.raises(ValueError, match="both assembly branches"):
        function_synthesis(np.log10, (1, 10), (0, 1), input_angles=phi, output_angles=phi)
    # by hand: the three precision placements, turned A -> B0 -> B, do not all turn alike
    x = 5.5 - 4.5 * np.cos(np.array([1, 3, 5]) * np.pi / 6)
    p, q = x - 1, np.log10(x)
    ph, ps = phi[0] + p / 9 * (phi[1] - phi[0]), phi[0] + q * (phi[1] - phi[0])
    k = np.linalg.solve(np.column_stack([np.cos(ps), -np.cos(ph), np.ones(3)]), np.cos(ph - ps))
    a, c = 1 / k[0], 1 / k[1]
    pa = a * np.column_stack([np.cos(ph), np.sin(ph)])
    pb = np.array([1.0, 0.0]) + c * np.column_stack([np.cos(ps), np.sin(ps)])
    u, v = np.array([1.0, 0.0]) - pa, pb - pa
    turns = np.sign(u[:, 0] * v[:, 1] - u[:, 1] * v[:, 0])
    assert len(set(turns.tolist())) == 2


def test_a_four_bar_that_jams_inside_the_range_is_refused():
    with pytest.raises(ValueError, match="does not assemble over the whole range"):
        function_synthesis(
            np.log10,
            (1, 10),
            (0, 1),
            input_angles=np.radians([45, 105]),
            output_angles=np.radians([90, 150]),
        )


@pytest.mark.parametrize("n", [0, -3, 2.5])
def test_chebyshev_points_need_a_whole_positive_count(n):
    with pytest.raises(ValueError, match="n must be a whole number >= 1"):
        chebyshev_points(0.0, 1.0, n)


def test_f_returning_a_list_is_refused_clearly():
    with pytest.raises(ValueError, match=r"f must return one number; f\(1.0\d*\) returned \["):
        function_synthesis(lambda x: [x], (1, 2), (0, 1))


def test_f_is_evaluated_once_per_point():
    seen = []

    def f(x):
        seen.append(x)
        return np.log10(x)

    s = function_synthesis(f, (1, 2), (0, 1), samples=41)
    # the three precision points once, then the samples for the structural error
    assert len(seen) == 3 + len(s.samples)
