r"""Two ways counting fails in space: the double banana flexes, Jessen's icosahedron does not.

**Double banana.** Every count holds (:math:`m = 3n - 6`, no subset of :math:`n'`
joints spans more than :math:`3n' - 6` rods) and yet the second banana turns about
the line through the shared tips: an exact rotation keeps every rod length.

**Jessen's icosahedron.** :math:`m = 3n - 6` and the rigidity matrix has rank
:math:`m - 1`: one nontrivial infinitesimal flex :math:`p'` and one self-stress
:math:`\omega`. It is rigid all the same, by the *second-order / prestress*
argument (Connelly–Whiteley 1996): with one flex and one stress, the flex
extends to second order iff :math:`R(p')p' \in \operatorname{col} R(p)`, iff
:math:`\omega^T R(p')p' = \sum_{ij} \omega_{ij} |p'_i - p'_j|^2 = 0`. Here that
stress energy is far from 0, so the flex does not extend (second-order rigid),
and with the sign of :math:`\omega` chosen to make it positive the stress is
positive definite on the flexes: prestress stable, hence rigid. PyRigi's exact
``is_prestress_stable`` and ``is_second_order_rigid`` agree. Numerically: pushed
along :math:`p'` and projected back, it returns to a congruent copy, whereas a
Bricard octahedron pushed the same way stays where it was pushed.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from space_flex import (
    aligned_displacement,
    continue_flex,
    counts,
    nontrivial_flexes,
    project,
    rigidity_matrix,
    rod_lengths,
)

from linkage_widget.examples import space

pyrigi = pytest.importorskip("pyrigi")


def _arrays(link):
    return np.array(link.vertices), np.array(link.rods)


def test_double_banana_satisfies_every_count():
    p, rods = _arrays(space.double_banana())
    assert len(rods) == 3 * len(p) - 6
    edges = {tuple(sorted(map(int, r))) for r in rods}
    for k in range(2, len(p) + 1):
        bound = 1 if k == 2 else 3 * k - 6
        for subset in itertools.combinations(range(len(p)), k):
            spanned = sum(1 for e in itertools.combinations(subset, 2) if e in edges)
            assert spanned <= bound, subset


def test_double_banana_turns_exactly_about_its_tips():
    p, rods = _arrays(space.double_banana())
    lengths = rod_lengths(p, rods)
    angle = 0.6  # rotate the second banana (joints 5-7) about the z-axis, the line NS
    c, s = np.cos(angle), np.sin(angle)
    q = p.copy()
    q[5:] = p[5:] @ np.array([[c, s, 0], [-s, c, 0], [0, 0, 1]])
    assert np.max(np.abs(rod_lengths(q, rods) - lengths) / lengths) < 1e-15
    assert aligned_displacement(p, q).max() > 0.10 * lengths.max()
    assert counts(p, rods) == (1, 1) and counts(q, rods) == (1, 1)  # a generic flex


def test_double_banana_flex_by_continuation():
    p, rods = _arrays(space.double_banana())
    lengths = rod_lengths(p, rods)
    path = continue_flex(p, rods, h=0.02 * lengths.max(), steps=20)
    assert aligned_displacement(p, path[-1]).max() >= 0.10 * lengths.max()
    # the motion is the turn about NS: the distance N-S and each banana stay rigid
    for q in path:
        assert np.isclose(np.linalg.norm(q[0] - q[1]), np.linalg.norm(p[0] - p[1]), rtol=1e-10)


def _flex_and_stress(p, rods):
    flexes, _ = nontrivial_flexes(p, rods)
    assert flexes.shape[1] == 1
    u, s, _ = np.linalg.svd(rigidity_matrix(p, rods))
    stress = u[:, -1]
    assert np.abs(rigidity_matrix(p, rods).T @ stress).max() < 1e-12
    return flexes[:, 0].reshape(p.shape), stress


def test_jessen_is_infinitesimally_flexible_with_one_stress():
    p, rods = _arrays(space.jessen_icosahedron())
    assert counts(p, rods) == (1, 1)
    _, stress = _flex_and_stress(p, rods)
    long = np.isclose(rod_lengths(p, rods), 4.0)
    stress = stress / stress[long][0]
    assert np.allclose(stress[long], 1.0) and np.allclose(stress[~long], -2.0 / 3.0)


def test_jessen_is_second_order_rigid_and_prestress_stable():
    p, rods = _arrays(space.jessen_icosahedron())
    flex, stress = _flex_and_stress(p, rods)
    d = flex[rods[:, 0]] - flex[rods[:, 1]]
    energy = stress @ np.sum(d * d, axis=1)  # omega^T R(p') p'
    assert abs(energy) > 0.1 * np.linalg.norm(stress) * np.linalg.norm(np.sum(d * d, axis=1))
    # the same statement as a failed second-order equation R(p) p'' = -R(p') p'
    rhs = -np.sum(d * d, axis=1)
    a = rigidity_matrix(p, rods)
    residual = a @ np.linalg.lstsq(a, rhs, rcond=None)[0] - rhs
    assert np.linalg.norm(residual) > 0.1 * np.linalg.norm(rhs)


def test_pyrigi_agrees_jessen_is_prestress_stable():
    p, rods = _arrays(space.jessen_icosahedron())
    graph = pyrigi.Graph([tuple(map(int, r)) for r in rods])
    fw = pyrigi.Framework(graph, {i: [int(round(x)) for x in v] for i, v in enumerate(p)})
    assert not fw.is_inf_rigid()
    assert fw.is_prestress_stable()
    assert fw.is_second_order_rigid()


@pytest.mark.parametrize("h", [0.05, 0.1])
def test_pushed_along_its_flex_jessen_returns_bricard_stays(h):
    p, rods = _arrays(space.jessen_icosahedron())
    lengths = rod_lengths(p, rods)
    flex, _ = _flex_and_stress(p, rods)
    push = h * lengths.max() * flex / np.abs(flex).max()
    q, ok = project(p + push, rods, lengths, max_iter=400, rtol=1e-12)
    assert ok and aligned_displacement(p, q).max() < 1e-4 * lengths.max()
    # a Bricard octahedron pushed the same way along its flex stays about where pushed
    b, brods = _arrays(space.bricard_line_symmetric())
    blengths = rod_lengths(b, brods)
    bflex = nontrivial_flexes(b, brods)[0][:, 0].reshape(b.shape)
    bpush = h * blengths.max() * bflex / np.abs(bflex).max()
    r, ok = project(b + bpush, brods, blengths)
    assert ok and aligned_displacement(b, r).max() > 0.5 * h * blengths.max()
