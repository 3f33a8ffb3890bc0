r"""Certified mobility in space: loops of revolute hinges with exact data (issue 24, item 2).

Oracles, independent of the code under test:

- Bennett's loop :math:`a = 3, b = 4, \sin\alpha = 3/5, \sin\beta = 4/5` moves on the
  closed-form curve :math:`\tan\frac{\theta_0}{2}\tan\frac{\theta_1}{2} = 5`,
  :math:`\theta_2 = -\theta_0, \theta_3 = -\theta_1` (Bennett 1903): a numpy product of
  Denavit–Hartenberg matrices closes along it, and its tangent there is the certified
  direction;
- a generic 6R loop (random rational links) is rigid: its rods (the package's floating
  rigidity matrix) have no internal motion, and a numpy product of its transforms closes.
"""

from __future__ import annotations

import random
import time
from fractions import Fraction

import numpy as np
import pytest

from linkage_widget import Linkage, analyze
from linkage_widget.examples import space
from linkage_widget.rigidity import (
    RevoluteLoop,
    exact_rotation,
    exact_turn,
    loop_from_rods,
    mobility,
)

TWISTS = [(Fraction(4, 5), Fraction(3, 5)), (Fraction(3, 5), Fraction(4, 5))] * 2


def bennett(tau: Fraction = Fraction(1), b: int = 4) -> RevoluteLoop:
    """Bennett's loop at tan(θ0/2) = tau (tau = 1: θ0 = 90°)."""
    return RevoluteLoop.from_dh([3, b, 3, b], TWISTS, [tau, 5 / tau, -tau, -5 / tau])


def dh_product(lengths, twists, thetas) -> np.ndarray:
    """prod R_z(θ) T_x(a) R_x(α) in floats (the convention of examples/_bennett.py)."""
    m = np.eye(4)
    for a, alpha, theta in zip(lengths, twists, thetas, strict=True):
        c, s, ca, sa = np.cos(theta), np.sin(theta), np.cos(alpha), np.sin(alpha)
        m = m @ np.array(
            [[c, -s * ca, s * sa, a * c], [s, c * ca, -c * sa, a * s], [0, sa, ca, 0], [0, 0, 0, 1]]
        )
    return m


def test_bennett_moves_with_certified_mobility_one():
    start = time.perf_counter()
    report = mobility(bennett(), method="exact")
    elapsed = time.perf_counter() - start
    assert (report.dimension, report.certified) == (1, True)
    assert report.method == "sympy-groebner" and report.status == "moves (certified, dimension 1)"
    assert elapsed < 10
    # the certified tangent is the closed-form one: d/dθ of tan(θ0/2) tan(θ1/2) = 5 at
    # θ0 = 90°, tan(θ1/2) = 5 gives dθ1/dθ0 = -5/13, and θ2 = -θ0, θ3 = -θ1
    rates = report.branch_directions.reshape(4)
    expected = np.array([1, -5 / 13, -1, 5 / 13]) / np.linalg.norm([1, -5 / 13, -1, 5 / 13])
    assert np.allclose(rates, expected) or np.allclose(rates, -expected)


def test_bennetts_closed_form_curve_closes_the_dh_product():
    alpha, beta = np.arcsin(0.6), np.arcsin(0.8)
    for tau in (0.3, 1.0, 2.5, -4.0):
        t0, t1 = 2 * np.arctan(tau), 2 * np.arctan(5 / tau)
        m = dh_product([3, 4, 3, 4], [alpha, beta] * 2, [t0, t1, -t0, -t1])
        assert np.abs(m - np.eye(4)).max() < 1e-12
        exact = bennett(Fraction(tau).limit_denominator(100))  # closes exactly, too
        assert mobility(exact).dimension == 1


def test_bennett_folded_at_180_degrees_is_certified_too():
    # θ = 180° has no half-angle tangent; cosines and sines reach it
    folded = RevoluteLoop.from_dh([3, 4, 3, 4], TWISTS, [(-1, 0), (1, 0), (-1, 0), (1, 0)])
    assert np.abs(dh_product([3, 4, 3, 4], [np.arcsin(0.6), np.arcsin(0.8)] * 2,
                             [np.pi, 0, np.pi, 0]) - np.eye(4)).max() < 1e-12  # fmt: skip
    report = mobility(folded, method="exact")
    assert (report.dimension, report.certified) == (1, True)


def test_a_non_bennett_4r_closes_folded_and_is_rigid_there():
    # b = 5 breaks a/sin α = b/sin β; the loop still closes folded at (180°, 0, 180°, 0)
    m = dh_product([3, 5, 3, 5], [np.arcsin(0.6), np.arcsin(0.8)] * 2, [np.pi, 0, np.pi, 0])
    assert np.abs(m - np.eye(4)).max() < 1e-12
    folded = RevoluteLoop.from_dh([3, 5, 3, 5], TWISTS, [(-1, 0), (1, 0), (-1, 0), (1, 0)])
    report = mobility(folded, method="exact")
    assert (report.dimension, report.certified, report.status) == (0, True, "rigid")


def random_link(rng: random.Random) -> list[list[Fraction]]:
    rotation = exact_rotation([rng.randint(1, 4) * rng.choice([-1, 1]) for _ in range(4)])
    shift = [Fraction(rng.randint(1, 9) * rng.choice([-1, 1]), rng.randint(1, 5)) for _ in range(3)]
    return [[*rotation[i], shift[i]] for i in range(3)]


def generic_6r(seed: int) -> RevoluteLoop:
    rng = random.Random(seed)
    angles = [Fraction(rng.randint(-9, 9), rng.randint(1, 5)) for _ in range(6)]
    return RevoluteLoop.closing([random_link(rng) for _ in range(5)], angles)


@pytest.mark.parametrize("seed", [7, 11])
def test_a_generic_6r_is_certified_rigid(seed):
    loop = generic_6r(seed)
    start = time.perf_counter()
    report = mobility(loop, method="exact")
    assert time.perf_counter() - start < 10
    assert (report.dimension, report.certified) == (0, True)
    # independent: the numpy product of its transforms closes, and its rods have no motion
    m = np.eye(4)
    for (c, s), link in zip(loop.angles, loop.links, strict=True):
        turn = np.array([[c, -s, 0, 0], [s, c, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]], dtype=float)
        m = m @ turn @ np.vstack([np.array(link, dtype=float), [0, 0, 0, 1]])
    assert np.abs(m - np.eye(4)).max() < 1e-12
    assert analyze(loop.to_linkage()).internal_dof == 0


def test_the_rods_of_bennetts_loop_move_numerically():
    report = mobility(bennett(Fraction(1, 2)), method="numerical")
    assert (report.dimension, report.certified) == (1, False)


def test_a_3d_rod_linkage_asked_exactly_is_undecided_not_an_error():
    report = mobility(space.bennett_linkage(), method="exact")
    assert report.dimension is None and not report.certified
    assert "RevoluteLoop" in report.explanation


@pytest.mark.parametrize(
    ("make", "match"),
    [
        (lambda: RevoluteLoop.from_dh([3, 5, 3, 5], TWISTS, [1, 5, -1, -5]), "does not close"),
        (
            lambda: RevoluteLoop.from_dh([3, 4, 3, 4], TWISTS, [np.sqrt(2), 5, -1, -5]),
            "exact rational",
        ),  # fmt: skip
        (lambda: RevoluteLoop.from_dh([3, 4, 3], TWISTS, [1, 5, -1, -5]), "one entry each"),
        (lambda: RevoluteLoop.from_dh([3, 4, 3, 4], TWISTS, [(1, 1), 5, -1, -5]), "cos\\^2"),
        (
            lambda: RevoluteLoop.closing(
                [[[1, 0, 0, 0], [0, 2, 0, 0], [0, 0, 1, 0]]] * 2, [0, 0, 0]
            ),
            "not exactly a rotation",
        ),  # fmt: skip
    ],
)
def test_bad_loops_are_refused_naming_what(make, match):
    with pytest.raises(ValueError, match=match):
        make()


def test_a_planar_four_bar_as_a_loop_of_parallel_hinges_moves_but_has_no_rods():
    # a square of four parallel hinges: the planar parallelogram four-bar, one motion
    planar = RevoluteLoop.from_dh([1, 1, 1, 1], [(1, 0)] * 4, [(0, 1)] * 4)
    report = mobility(planar, method="exact")
    assert (report.dimension, report.certified) == (1, True)
    with pytest.raises(ValueError, match="coplanar"):
        planar.to_linkage()


def line_symmetric_6r(seed: int = 3) -> RevoluteLoop:
    r"""Bricard's line-symmetric 6R with exact data, built here from its definition.

    Hinges 3, 4, 5 are the images of hinges 0, 1, 2 under a half-turn :math:`H` about a
    line: links :math:`L_{i+3} = L_i`, angles :math:`\theta_{i+3} = \theta_i`, and the
    third link chosen so that :math:`Z_0 L_0 Z_1 L_1 Z_2 L_2 = H`; then the product of
    all six is :math:`H^2 = I` at every placement keeping the symmetry.
    """
    rng = random.Random(seed)
    links = [random_link(rng) for _ in range(2)]
    turns = [Fraction(rng.randint(1, 9) * rng.choice([-1, 1]), rng.randint(1, 5)) for _ in range(3)]
    u, point = np.array([1, 2, -2]), [Fraction(1, 2), Fraction(-1), Fraction(3, 4)]
    half = [[Fraction(2 * int(u[i] * u[j]), 9) - (i == j) for j in range(3)] for i in range(3)]
    shift = [point[i] - sum(half[i][j] * point[j] for j in range(3)) for i in range(3)]
    h = [[*half[i], shift[i]] for i in range(3)]
    first = RevoluteLoop.closing(links, turns)  # its last link closes Z0 L0 Z1 L1 Z2 to I
    last = first.links[2]  # (Z0 L0 Z1 L1 Z2)^-1, so last @ H closes the half to H
    third = [[sum(last[i][k] * h[k][j] for k in range(3)) + (last[i][3] if j == 3 else 0)
              for j in range(4)] for i in range(3)]  # fmt: skip
    symmetry = [(0, 3, 1), (1, 4, 1), (2, 5, 1)]
    return RevoluteLoop([*links, third] * 2, [exact_turn(t) for t in turns] * 2, symmetry)


def test_bricards_line_symmetric_6r_is_certified_to_move():
    loop = line_symmetric_6r()
    m = np.eye(4)
    for (c, s), link in zip(loop.angles, loop.links, strict=True):
        turn = np.array([[c, -s, 0, 0], [s, c, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]], dtype=float)
        m = m @ turn @ np.vstack([np.array(link, dtype=float), [0, 0, 0, 1]])
    assert np.abs(m - np.eye(4)).max() < 1e-12  # an independent product closes
    # counting: 6 equations, 6 hinges, one loop: rigid; the rods move (numerically)
    assert mobility(loop, method="numerical").dimension == 1
    start = time.perf_counter()
    report = mobility(loop, method="exact")
    elapsed = time.perf_counter() - start
    assert (report.dimension, report.certified, report.method) == (1, True, "sympy-groebner")
    assert elapsed < 60  # about 8 s
    rates = report.branch_directions.reshape(6)
    assert np.allclose(rates[:3], rates[3:])  # the motion keeps the symmetry


def test_a_symmetry_that_the_placement_breaks_is_refused():
    with pytest.raises(ValueError, match="symmetry"):
        RevoluteLoop.from_dh([3, 4, 3, 4], TWISTS, [1, 5, -1, -5], symmetry=[(0, 2, 1)])


def test_bennetts_rods_with_rational_data_are_read_as_the_exact_loop():
    # the constructor's floats (sin, cos, arctan) are not Bennett exactly; the exact loop
    # within 1e-9 of them is, and the answer says which loop it certified
    rods = space.bennett_linkage(
        a=3, alpha=np.arcsin(0.6), beta=np.arcsin(0.8), theta=2 * np.arctan(0.5), hinge=0.5
    )
    for method in ("exact", "auto"):
        report = mobility(rods, method=method)
        assert (report.dimension, report.certified, report.method) == (1, True, "sympy-groebner")
        assert report.branch_directions.shape == (1, 8, 3)
    assert "θ1 = (-99/101, 20/101)" in report.explanation  # tan(θ1/2) = 5 / (1/2) = 10
    assert mobility(rods, method="numerical").method == "numerical-sampling"


def test_rods_of_a_loop_read_back_as_the_same_loop():
    loop = bennett(Fraction(2, 3))
    back = loop_from_rods(loop.to_linkage(hinge=0.5))
    assert back.angles == loop.angles
    assert [link[0][3] for link in back.links] == [3, 4, 3, 4]
    with pytest.raises(ValueError, match="no rational"):  # irrational twists: refused
        loop_from_rods(space.bennett_linkage())
    with pytest.raises(ValueError, match="not a loop of hinges"):
        loop_from_rods(Linkage([[0, 0, 0], [1, 0, 0], [0, 1, 0]], rods=[(0, 1), (1, 2)]))


def test_a_6r_with_a_motion_but_no_symmetry_hint_is_undecided_not_slow():
    loop = line_symmetric_6r()
    bare = RevoluteLoop(loop.links, loop.angles)  # the same loop, its symmetry not said
    start = time.perf_counter()
    report = mobility(bare, method="exact")
    assert time.perf_counter() - start < 10
    assert report.dimension is None and not report.certified
    assert "give a symmetry" in report.explanation
