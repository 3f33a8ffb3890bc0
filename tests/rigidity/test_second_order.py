"""Second-order analysis: stress energies, prestress stability, second-order rigidity, tangent cone.

References are closed forms: the classical stress matrix for the stress energies, and the
second-order expansion of the flat parallelogram's loop equation for its two branch lines.
"""

import numpy as np
import pytest

from linkage_widget import Linkage
from linkage_widget.constraints import ConstraintSet, as_flat
from linkage_widget.rigidity.second_order import (
    infinitesimal,
    prestress_stable,
    second_order_rigid,
    stress_energy_forms,
    tangent_cone,
)
from linkage_widget.rigidity.second_order_solve import (
    cone_lines,
    exact_second_order_rigid,
)


def flat_parallelogram(a=2.0, b=1.0, turn=0.0):
    """Pins 0 = (0, 0), 1 = (a, 0); cranks 0-3, 1-2 of length b at angle ``turn``; coupler 3-2."""
    tip = b * np.array([np.cos(turn), np.sin(turn)])
    pts = [[0.0, 0.0], [a, 0.0], [a + tip[0], tip[1]], tip.tolist()]
    return Linkage(pts, rods=[(0, 3), (1, 2), (3, 2)], pinned=[0, 1])


def branch_lines(a, b):
    """Unit flexes (x0, y0, ..., x3, y3) of the two branches through the flat placement.

    With crank angles theta (0-3) and phi (1-2), the coupler's loop equation to second
    order is (theta - phi) (a (theta + phi) + b (theta - phi)) = 0: phi = theta (the
    parallelogram) or phi = -(a + b) / (a - b) theta (the crossed branch). Joint 3 moves
    by b theta upward, joint 2 by b phi.
    """
    out = []
    for phi in (1.0, -(a + b) / (a - b)):
        u = np.zeros(8)
        u[5], u[7] = phi, 1.0
        out.append(u / np.linalg.norm(u))
    return np.array(out)


def same_lines(got, want, tol):
    """Each wanted unit line matches one got line up to sign within ``tol``."""
    got = np.asarray(got).reshape(len(got), -1)
    assert len(got) == len(want)
    for w in want:
        assert (
            np.min(np.minimum(np.linalg.norm(got - w, axis=1), np.linalg.norm(got + w, axis=1)))
            < tol
        )


K33 = Linkage([[i, 0] for i in range(6)], rods=[(i, j) for i in range(3) for j in range(3, 6)])
CHAIN = Linkage([[0, 0], [1, 0], [2, 0], [3, 0]], rods=[(0, 1), (1, 2), (2, 3)], pinned=[0, 3])
FOUR_BAR = Linkage(
    [[0, 0], [0, 1], [2, 1.5], [2.2, 0]], rods=[(0, 1), (1, 2), (2, 3)], pinned=[0, 3]
)


def first_order(linkage):
    cs = ConstraintSet.from_linkage(linkage)
    p = as_flat(linkage.vertices)
    return cs, p, infinitesimal(cs.jacobian(p), p, linkage.pinned)


@pytest.mark.parametrize(
    "linkage", [K33, flat_parallelogram(), CHAIN], ids=["k33", "flat", "chain"]
)
def test_stress_energy_forms_equal_the_stress_matrix(linkage):
    # For rods, w^T g''[u, v] = sum_r omega_r (u_i - u_j).(v_i - v_j) with the classical force
    # density omega_r = w_r / L_r: the stress matrix Omega (x) I_2 sandwiched by the flexes.
    cs, p, inf = first_order(linkage)
    forms = stress_energy_forms(cs, p, inf.flexes, inf.stresses)
    n = linkage.n_vertices
    for w, form in zip(inf.stresses, forms, strict=True):
        omega = np.zeros((n, n))
        for (i, j), wr, length in zip(linkage.rods, w, cs.lengths, strict=False):
            for a, b, sign in ((i, i, 1), (j, j, 1), (i, j, -1), (j, i, -1)):
                omega[a, b] += sign * wr / length
        big = np.kron(omega, np.eye(2))
        np.testing.assert_allclose(
            form, cs.length_scale * inf.flexes.T @ big @ inf.flexes, atol=1e-8
        )


def test_counts_of_the_collinear_k33():
    _, _, inf = first_order(K33)
    assert (inf.n_flexes, inf.n_stresses, inf.trivial.shape[1]) == (4, 4, 3)


def test_prestress_stability_of_a_pulled_chain_but_not_of_a_flat_parallelogram():
    cs, p, inf = first_order(CHAIN)
    assert prestress_stable(stress_energy_forms(cs, p, inf.flexes, inf.stresses))
    cs, p, inf = first_order(flat_parallelogram())
    forms = stress_energy_forms(cs, p, inf.flexes, inf.stresses)
    eig = np.linalg.eigvalsh(forms[0])
    assert eig[0] < -0.01 and eig[1] > 0.01  # indefinite: two real lines
    assert not prestress_stable(forms)


@pytest.mark.parametrize(
    ("linkage", "expected"),
    [
        (K33, True),  # 4 flexes, 4 stresses: no second-order flex, yet not prestress stable
        (CHAIN, True),
        (flat_parallelogram(), False),
        (FOUR_BAR, False),
        (Linkage([[0, 0], [4, 0], [0, 3]], rods=[(0, 1), (1, 2), (0, 2)]), True),
    ],
    ids=["k33", "chain", "flat parallelogram", "four-bar", "triangle"],
)
def test_second_order_rigid(linkage, expected):
    assert second_order_rigid(linkage) is expected


def test_k33_is_decided_exactly_and_the_numerics_find_no_line():
    cs, p, inf = first_order(K33)
    forms = stress_energy_forms(cs, p, inf.flexes, inf.stresses)
    assert not prestress_stable(forms)  # the old sufficient test could not conclude
    lines, continuum = cone_lines(forms)
    assert len(lines) == 0 and not continuum
    assert exact_second_order_rigid(K33, rank=inf.rank) is True


def test_exact_and_numerical_routes_agree_where_both_run():
    for linkage in (CHAIN, flat_parallelogram(), flat_parallelogram(3.0, 1.0), FOUR_BAR):
        cs, p, inf = first_order(linkage)
        forms = stress_energy_forms(cs, p, inf.flexes, inf.stresses)
        numerical = prestress_stable(forms) or not len(cone_lines(forms)[0])
        assert exact_second_order_rigid(linkage, rank=inf.rank) is numerical


def test_the_exact_route_declines_a_placement_near_a_rational_one():
    # the exact route declines a float placement near, not at, a rational singular one
    tilted = flat_parallelogram(turn=1e-3)
    assert exact_second_order_rigid(tilted) is None


def test_tangent_cone_of_the_flat_parallelogram_is_its_two_branches():
    for a, b in ((2.0, 1.0), (3.0, 1.2)):
        cone = tangent_cone(flat_parallelogram(a, b))
        assert cone.singular and (cone.n_flexes, cone.n_stresses) == (2, 1)
        same_lines(cone.directions, branch_lines(a, b), 1e-8)
        np.testing.assert_allclose(np.linalg.norm(cone.directions.reshape(2, -1), axis=1), 1.0)


@pytest.mark.parametrize("turn", [1e-3, 1e-2])
def test_tangent_cone_near_the_flat_placement_within_a_step(turn):
    # The simulator stops about one step before the singular placement: with flex_rtol the
    # near-singular flex counts, and the lines are those of the flat placement to ~ the step.
    near = flat_parallelogram(turn=turn)
    plain = tangent_cone(near)
    assert not plain.singular and len(plain.directions) == 1  # one regular branch
    cone = tangent_cone(near, flex_rtol=10 * turn)
    assert cone.singular and cone.n_flexes == 2
    same_lines(cone.directions, branch_lines(2.0, 1.0), 5 * turn)


def test_tangent_cone_at_regular_and_rigid_placements():
    cone = tangent_cone(FOUR_BAR)
    assert not cone.singular and cone.directions.shape == (1, 4, 2)
    cs, p, inf = first_order(FOUR_BAR)
    u = cone.directions.reshape(-1)
    assert np.linalg.norm(cs.jacobian(p) @ u) < 1e-12
    chain = tangent_cone(CHAIN)
    assert chain.singular and len(chain.directions) == 0  # an isolated point
    assert tangent_cone(K33).directions.shape[0] == 0


def test_tangent_cone_with_extra_rows():
    flat = flat_parallelogram()
    # a linear drive row holding joint 3's height: both branches need it to move
    hold = np.zeros((1, 8))
    hold[0, 7] = 1.0
    held = tangent_cone(flat, extra_rows=hold)
    assert (held.n_flexes, len(held.directions)) == (1, 0)
    # a nonlinear extra row (the coupler again) with its own second derivative leaves
    # the cone unchanged; a new self-stress appears (the duplicate)
    cs = ConstraintSet.from_linkage(flat)
    coupler = cs.jacobian(flat.vertices).toarray()[2:3]

    def coupler_second(u, v):
        return cs.second_derivative(flat.vertices, u, v)[2:3]

    twice = tangent_cone(flat, extra_rows=coupler, extra_second=coupler_second)
    assert twice.n_stresses == 2
    same_lines(twice.directions, branch_lines(2.0, 1.0), 1e-8)


def test_tangent_cone_from_constraints_with_positions():
    flat = flat_parallelogram()
    cs = ConstraintSet.from_linkage(flat)
    cone = tangent_cone(flat, positions=flat.vertices, constraints=cs)
    same_lines(cone.directions, branch_lines(2.0, 1.0), 1e-8)
    with pytest.raises(ValueError, match="rtol"):
        tangent_cone(flat, rtol=0.0)


def _random_grid_linkage(rng):
    """Joints on a 3 x 3 integer grid (collinear triples abound), random rods, pins, an angle."""
    n = int(rng.integers(3, 7))
    pts = rng.integers(0, 3, size=(n, 2)).astype(float)
    if len({tuple(p) for p in pts}) < n:
        return None
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    m = int(rng.integers(n - 1, min(len(pairs), 2 * n) + 1))
    rods = [pairs[k] for k in rng.choice(len(pairs), m, replace=False)]
    pins = rng.choice(n, int(rng.integers(0, 3)), replace=False).tolist()
    link = Linkage(pts, rods=rods, pinned=pins)
    (i, j), (a, b) = link.rods[:2].tolist()
    shared = {i, j} & {a, b}
    if rng.random() < 0.6 and len(shared) == 1:
        apex = shared.pop()
        link.add_angle(apex, j if i == apex else i, b if a == apex else a)
    return link


def test_exact_and_numerical_second_order_agree_on_random_singular_placements():
    # Where the exact rational route applies, it and the numerical one (prestress stability,
    # then a search for real solution lines) must give the same verdict.
    rng = np.random.default_rng(1)
    compared = 0
    for _ in range(600):
        link = _random_grid_linkage(rng)
        if link is None:
            continue
        cs, p, inf = first_order(link)
        if inf.n_flexes == 0 or inf.n_stresses == 0 or inf.n_flexes > 4:
            continue
        exact = exact_second_order_rigid(link, rank=inf.rank)
        if exact is None:
            continue
        forms = stress_energy_forms(cs, p, inf.flexes, inf.stresses)
        numerical = prestress_stable(forms) or not len(cone_lines(forms)[0])
        assert exact is numerical, (link.vertices.tolist(), link.rods.tolist())
        compared += 1
    assert compared >= 20


@pytest.mark.parametrize("fn", [tangent_cone, second_order_rigid])
def test_second_order_of_a_non_linkage_is_a_clear_type_error(fn):
    # an AttributeError about 'vertices' before
    with pytest.raises(TypeError, match=rf"^{fn.__name__}: linkage must be a Linkage, got str"):
        fn("four-bar")
