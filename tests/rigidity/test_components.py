r"""The components of a configuration variety (issue 24, item 5), each checked on its own.

Oracles, independent of the splitting: points sampled on each component (sympy's
``solve`` on its basis and a random line) satisfy the original equations; placements
solved in closed form (two circles meet in two points: the two assembly modes) each lie
on some component; eliminants are irreducible over Q by sympy's own ``factor_list``.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import sympy as sp

from linkage_widget import Linkage
from linkage_widget.rigidity import RevoluteLoop, closure_ideal, variety_components


def placed_four_bar(b, c, ground) -> Linkage:
    return Linkage([[0, 0], b, c, [ground, 0]], rods=[(0, 1), (1, 2), (2, 3)], pinned=[0, 3])


def circle_meets(p, r, q, s) -> list[np.ndarray]:
    """The two points at distance r from p and s from q (closed form)."""
    p, q = np.asarray(p, float), np.asarray(q, float)
    d = np.linalg.norm(q - p)
    a = (r**2 - s**2 + d**2) / (2 * d)
    h = np.sqrt(max(r**2 - a**2, 0.0))
    mid, perp = p + a * (q - p) / d, np.array([p[1] - q[1], q[0] - p[0]]) / d
    return [mid + h * perp, mid - h * perp]


def both_modes(crank, coupler, rocker, ground, phi) -> list[dict]:
    b = np.array([crank * np.cos(phi), crank * np.sin(phi)])
    return [{"x1": b[0], "y1": b[1], "x2": c[0], "y2": c[1]}
            for c in circle_meets(b, coupler, [ground, 0.0], rocker)]  # fmt: skip


def at(gens, values: dict) -> dict:
    return {g: values[str(g)] for g in gens}


def sampled_points(component, gens, value) -> list[dict]:
    """Points of the component on the line x1 = value (sympy solve, not the splitting)."""
    x1 = next(g for g in gens if str(g) == "x1")
    return sp.solve([*component.basis, x1 - value], gens, dict=True)


def test_the_parallelogram_four_bar_has_two_components_its_two_modes():
    # crank 1, coupler 2, rocker 1, ground 2: a parallelogram at B = (0.6, 0.8)
    link = placed_four_bar([0.6, 0.8], [2.6, 0.8], 2)
    polys, gens, point = closure_ideal(link)
    parts = variety_components(polys, gens)
    assert [(p.dimension, p.irreducible) for p in parts] == [(1, True), (1, True)]
    for p in parts:  # eliminants irreducible over Q, by sympy's factorisation
        assert len(sp.factor_list(p.eliminant)[1]) == 1
    # which is which: the parallel mode holds C - B = D - A (a linear generator) and the
    # placement; the crossed mode (antiparallelogram) holds the crossed placement
    parallel = [p for p in parts if p.contains(point)]
    assert len(parallel) == 1
    x1, y1, x2, y2 = (next(g for g in gens if str(g) == n) for n in ("x1", "y1", "x2", "y2"))
    assert {x1 - x2 + 2, y1 - y2} <= set(parallel[0].basis)
    crossed = next(p for p in parts if p is not parallel[0])
    mode = next(m for m in both_modes(1, 2, 1, 2, np.arctan2(0.8, 0.6))
                if abs(m["x2"] - 2.6) > 1e-6)  # fmt: skip
    assert crossed.residual(at(gens, mode)) < 1e-9 and parallel[0].residual(at(gens, mode)) > 0.1
    # each component on its own: points sampled on it satisfy the original equations
    for p in parts:
        points = sampled_points(p, gens, sp.Rational(1, 3))
        assert points
        for q in points:
            assert max(abs(complex(f.subs(q))) for f in polys) < 1e-12
    # the union covers: both assembly modes at random crank angles lie on a component
    for phi in np.random.default_rng(0).uniform(-np.pi, np.pi, 6):
        for mode in both_modes(1, 2, 1, 2, phi):
            assert min(p.residual(at(gens, mode)) for p in parts) < 1e-9


def test_a_generic_four_bar_is_one_irreducible_curve_holding_both_assembly_modes():
    # Grashof crank-rocker (1 + 4 < 3 + 3): two real circuits, the elbow-up and the
    # elbow-down assembly modes, yet one irreducible complex curve: no algebraic split
    # (its ideal written by hand: a rational placement of it is not needed)
    x1, y1, x2, y2 = gens = list(sp.symbols("x1 y1 x2 y2"))
    polys = [x1**2 + y1**2 - 1, (x2 - x1) ** 2 + (y2 - y1) ** 2 - 9, (x2 - 4) ** 2 + y2**2 - 9]
    parts = variety_components(polys, gens)
    assert [(p.dimension, p.irreducible) for p in parts] == [(1, True)]
    for phi in (0.3, 2.0, -1.0):
        for mode in both_modes(1, 3, 3, 4, phi):
            assert parts[0].residual(at(gens, mode)) < 1e-9


def test_bennetts_loop_is_one_irreducible_curve_in_cosines_and_sines():
    twists = [(Fraction(4, 5), Fraction(3, 5)), (Fraction(3, 5), Fraction(4, 5))] * 2
    loop = RevoluteLoop.from_dh([3, 4, 3, 4], twists, [1, 5, -1, -5])
    polys, gens, point = closure_ideal(loop)
    parts = variety_components(polys, gens)
    assert [(p.dimension, p.irreducible) for p in parts] == [(1, True)]
    assert parts[0].contains(point)
    c0, s0, c2, s2 = (gens[i] for i in (0, 1, 4, 5))
    assert {c0 - c2, s0 + s2} <= set(parts[0].basis)  # θ2 = -θ0
    # Bennett's closed form: tan(θ0/2) tan(θ1/2) = 5, θ2 = -θ0, θ3 = -θ1, and the folded
    # placement (180°, 0, 180°, 0) that half-angle tangents miss
    for tau in (Fraction(1, 3), Fraction(7, 2)):
        curve = RevoluteLoop.from_dh([3, 4, 3, 4], twists, [tau, 5 / tau, -tau, -5 / tau])
        assert parts[0].contains(closure_ideal(curve)[2])
    folded = RevoluteLoop.from_dh([3, 4, 3, 4], twists, [(-1, 0), (1, 0), (-1, 0), (1, 0)])
    assert parts[0].contains(closure_ideal(folded)[2])


def test_irreducible_generators_do_not_make_a_prime_and_the_test_says_so():
    x, y = sp.symbols("x y")
    # (x - y)(x + y) is in the ideal: four points in two Galois orbits, not decided
    (part,) = variety_components([x**2 - 2, y**2 - 2], [x, y])
    assert part.dimension == 0 and part.irreducible is None
    assert len(sp.factor_list(part.eliminant)[1]) == 2


def test_a_factor_splits_and_a_piece_inside_another_is_dropped():
    x, y = sp.symbols("x y")
    parts = variety_components([x * y, x * (x - 1)], [x, y])
    assert sorted((str(p.basis), p.dimension, p.irreducible) for p in parts) == [
        ("(x - 1, y)", 0, True),
        ("(x,)", 1, True),
    ]
    assert variety_components([x, x - 1], [x, y]) == ()  # empty variety
