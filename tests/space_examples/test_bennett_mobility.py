r"""Bennett's linkage has mobility 1 although every count says it is rigid.

Two independent proofs:

- *numerical*, on the rod framework of :func:`space.bennett_linkage` (8 joints, 20
  rods, Maxwell says 2 rods too many): continuation moves a joint by more than 10 %
  of the longest rod with every rod length kept to 1e-10, and along the way the
  hinge angles obey Bennett's relation
  :math:`\tan\frac{\theta_0}{2}\tan\frac{\theta_1}{2} = \text{const}`,
  :math:`\theta_2 = -\theta_0`, :math:`\theta_3 = -\theta_1`;
- *exact*, in the spirit of seed 001 (Gröbner bases of the closure equations), but
  with half-angle tangents :math:`t_i = \tan(\theta_i / 2)` instead of Euler
  parameters: for :math:`a = 3, b = 4, \sin\alpha = 3/5, \sin\beta = 4/5` the loop
  closure :math:`T_0 T_1 = T_3^{-1} T_2^{-1}` gives 12 polynomials (6 independent)
  in 4 unknowns — a count of :math:`4 - 6 = -2` — and its Gröbner basis, after
  removing the factor :math:`(1 + t_0^2)(1 + t_1^2)` that has no real zeros, is
  :math:`\{t_2 + t_0,\ t_3 + t_1,\ t_0 t_1 - 5\}`: a curve, dimension 1.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import sympy as sp
from space_flex import aligned_displacement, continue_flex, counts, rod_lengths

from linkage_widget.examples import space

A, B = 3, 4
SIN_ALPHA, SIN_BETA = sp.Rational(3, 5), sp.Rational(4, 5)


def _hinge_angles(q: np.ndarray) -> np.ndarray:
    """Signed DH hinge angles: from the incoming to the outgoing common normal about each axis."""
    feet, tips = q[0::2], q[1::2]
    axes = (tips - feet) / np.linalg.norm(tips - feet, axis=1)[:, None]
    incoming = feet - np.roll(feet, 1, axis=0)
    outgoing = np.roll(feet, -1, axis=0) - feet
    sin = np.einsum("ij,ij->i", axes, np.cross(incoming, outgoing))
    cos = np.einsum("ij,ij->i", incoming, outgoing)
    return np.arctan2(sin, cos)


def _rational_bennett(theta: float = 1.2):
    return space.bennett_linkage(
        a=A, alpha=np.arcsin(0.6), beta=np.arcsin(0.8), theta=theta, hinge=0.5
    )


def test_bennett_rods_move_with_mobility_one():
    link = space.bennett_linkage()
    p, rods = np.array(link.vertices), np.array(link.rods)
    assert 3 * len(p) - 6 - len(rods) == -2  # Maxwell: two rods too many
    assert counts(p, rods) == (1, 3)  # one flex, three self-stresses
    lengths = rod_lengths(p, rods)
    path = continue_flex(p, rods, h=0.02 * lengths.max(), steps=20)
    assert aligned_displacement(p, path[-1]).max() >= 0.10 * lengths.max()
    assert max(np.max(np.abs(rod_lengths(q, rods) - lengths) / lengths) for q in path) <= 1e-10


def test_hinge_angles_follow_bennetts_relation_along_the_motion():
    link = _rational_bennett()
    p, rods = np.array(link.vertices), np.array(link.rods)
    start = _hinge_angles(p)
    assert np.isclose(start[0], 1.2)
    path = continue_flex(p, rods, h=0.02 * rod_lengths(p, rods).max(), steps=20)
    products = []
    for q in path:
        theta = _hinge_angles(q)
        assert np.allclose(theta[2:], -theta[:2], atol=1e-9)
        products.append(np.tan(theta[0] / 2) * np.tan(theta[1] / 2))
    assert np.allclose(products, 5.0, rtol=1e-9)  # sin 45° / sin(8.13°) = 5
    assert abs(_hinge_angles(path[-1])[0] - 1.2) > 0.1  # the hinge did turn


def _link(t, a, cos_twist, sin_twist, inverse=False):
    """(1 + t^2) R_z(theta) T_x(a) R_x(twist), or the same factor times its inverse."""
    c, s, d = 1 - t**2, (-2 if inverse else 2) * t, 1 + t**2
    rz = sp.Matrix([[c, -s, 0, 0], [s, c, 0, 0], [0, 0, d, 0], [0, 0, 0, d]])
    tx = sp.eye(4)
    tx[0, 3] = -a if inverse else a
    sx = -sin_twist if inverse else sin_twist
    rx = sp.Matrix([[1, 0, 0, 0], [0, cos_twist, -sx, 0], [0, sx, cos_twist, 0], [0, 0, 0, 1]])
    return rx * tx * rz if inverse else rz * tx * rx


def _closure_polynomials(t):
    cos_a, cos_b = sp.sqrt(1 - SIN_ALPHA**2), sp.sqrt(1 - SIN_BETA**2)
    left = _link(t[0], A, cos_a, SIN_ALPHA) * _link(t[1], B, cos_b, SIN_BETA)
    right = _link(t[3], B, cos_b, SIN_BETA, True) * _link(t[2], A, cos_a, SIN_ALPHA, True)
    m = (left - right).expand()[:3, :]
    return sorted({sp.expand(e) for e in m if e != 0}, key=str)


def _dimension(leading: list, gens: list) -> int:
    """Krull dimension from the leading monomials: the largest set of variables none of
    the leading monomials is made of alone."""
    for k in range(len(gens), -1, -1):
        for subset in itertools.combinations(gens, k):
            if all(not (m.free_symbols <= set(subset)) for m in leading):
                return k
    return 0


def test_groebner_basis_of_bennetts_closure_is_a_curve():
    t = sp.symbols("t0:4")
    u = sp.Symbol("u")
    polys = _closure_polynomials(t)
    assert len(polys) == 12 and sp.Matrix(polys).jacobian(t).shape == (12, 4)
    # saturate by (1 + t0^2)(1 + t1^2): no real zeros, so the real points stay
    sat = polys + [u * (1 + t[0] ** 2) * (1 + t[1] ** 2) - 1]
    basis = sp.groebner(sat, u, t[2], t[3], t[0], t[1], order="lex")
    free_of_u = [g for g in basis.exprs if u not in g.free_symbols]
    assert set(free_of_u) == {t[2] + t[0], t[3] + t[1], t[0] * t[1] - 5}
    monomials = [sp.LM(g, t[2], t[3], t[0], t[1], order="lex") for g in free_of_u]
    assert set(monomials) == {t[2], t[3], t[0] * t[1]}
    assert _dimension(monomials, list(t)) == 1


def test_the_rod_framework_lies_on_the_groebner_curve():
    """The rods' placement has t0 t1 = 5, t2 = -t0, t3 = -t1 (the curve above) at any theta."""
    for theta in (0.7, 1.2, 2.5):
        t = np.tan(_hinge_angles(np.array(_rational_bennett(theta).vertices)) / 2)
        assert np.isclose(t[0] * t[1], 5.0) and np.allclose(t[2:], -t[:2])


def test_breaking_bennetts_condition_is_refused():
    with pytest.raises(ValueError, match="Bennett's condition"):
        space.bennett_linkage(b=2.0)
    with pytest.raises(ValueError, match="alpha == beta"):
        space.bennett_linkage(alpha=1.0, beta=1.0)
    with pytest.raises(ValueError, match="theta must not be a multiple of pi"):
        space.bennett_linkage(theta=np.pi)
