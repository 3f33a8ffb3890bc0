r"""Solving the second-order system :math:`Q_j(c) = c^T H_j c = 0`: numerically, and exactly.

See :mod:`linkage_widget.rigidity.second_order` for the system. Two solvers:

* :func:`cone_lines` — its real solution lines, numerically, from the dimensionless
  forms :math:`H_j` (``(s, d, d)``).
* :func:`exact_second_order_rigid` — the decision "only :math:`c = 0`" in rational
  arithmetic (sympy) for small linkages whose coordinates are rationals of small
  denominator (integers, decimals with few digits: the textbook placements). The
  polynomial constraints are

  - rod :math:`(i, j)`: :math:`\tfrac12|p_i - p_j|^2 = \text{const}`, row
    :math:`p_i - p_j`, second derivative :math:`|u_i - u_j|^2`;
  - fixed angle :math:`(i, j, k)`, :math:`a = p_j - p_i`, :math:`b = p_k - p_i`,
    with :math:`C_0 = a_0 \times b_0`, :math:`D_0 = a_0 \cdot b_0` at the
    placement: :math:`h = (a \times b) D_0 - (a \cdot b) C_0 = 0`, which is
    :math:`|a||b||a_0||b_0| \sin(\theta - \theta_0)`, the same set near the
    placement with a nonzero gradient; second derivative
    :math:`2 ((u_a \times u_b) D_0 - (u_a \cdot u_b) C_0)`;
  - pin: unit rows, second derivative zero.

  Any two defining functions of the same set differ by an invertible factor, and
  the second-order system does not depend on the choice. Kernel and left kernel
  come from exact row reduction over :math:`\mathbb{Q}`; a nonzero real solution
  line has a first nonzero coordinate, which can be scaled to 1, so for each
  ``i`` the Gröbner basis of :math:`\{Q_j,\ c_i - 1,\ c_k (k < i)\}` decides:
  ``[1]`` means no solution (not even complex) in that chart; a
  zero-dimensional ideal is solved and its solutions checked for being real; a
  positive-dimensional one leaves the question open (``None``).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import scipy.linalg as sla

from ..model import Linkage
from .exact import rational_coordinates, slider_normals
from .tolerances import (
    CONE_LINE_ANGLE,
    IMAGINARY_ZERO,
    REFINE_RESIDUAL_ZERO,
    REFINE_STEP_ZERO,
    SECOND_ORDER_RTOL,
)

__all__ = [
    "MAX_EXACT_COORDINATES",
    "MAX_EXACT_FLEXES",
    "cone_lines",
    "exact_second_order_rigid",
]

#: The exact route runs up to this many coordinates 2n ...
MAX_EXACT_COORDINATES = 80
#: ... and this many internal flexes (Gröbner bases grow fast with the variables).
MAX_EXACT_FLEXES = 5


def _binary_lines(forms: np.ndarray, tol: float) -> np.ndarray:
    """Candidate solution lines ``(k, 2)`` of two-variable forms, from the largest form."""
    big = forms[int(np.argmax(np.abs(forms).reshape(len(forms), -1).max(axis=1)))]
    lam, vec = np.linalg.eigh(big)
    if lam[0] > tol or lam[1] < -tol:
        return np.zeros((0, 2))  # definite: no real line
    if lam[0] >= -tol:
        return vec[:, :1].T  # semidefinite: its null line (a double line)
    if lam[1] <= tol:
        return vec[:, 1:].T
    a, b = np.sqrt(lam[1]), np.sqrt(-lam[0])
    lines = np.array([a * vec[:, 0] + b * vec[:, 1], a * vec[:, 0] - b * vec[:, 1]])
    return lines / np.linalg.norm(lines, axis=1, keepdims=True)


def _refine(forms: np.ndarray, c0: np.ndarray, iterations: int = 60) -> np.ndarray:
    """Least-squares solution of ``Q_j(c) = 0, |c| = 1`` from ``c0``.

    Minimum-norm Gauss-Newton steps, halved while they do not reduce the residual
    (a few microseconds each: the multi-start runs hundreds of them).
    """

    def residual(c: np.ndarray) -> np.ndarray:
        return np.concatenate([np.einsum("a,sab,b->s", c, forms, c), [c @ c - 1.0]])

    c = c0 / max(np.linalg.norm(c0), 1e-300)
    r = residual(c)
    for _ in range(iterations):
        jac = np.vstack([2.0 * forms @ c, 2.0 * c[None, :]])
        step = np.linalg.lstsq(jac, -r, rcond=None)[0]
        t = 1.0
        while t > 1e-4:
            trial = residual(c + t * step)
            if trial @ trial < r @ r:
                break
            t *= 0.5
        else:
            break  # no descent: a local minimum of the residual
        c, r = c + t * step, trial
        if np.linalg.norm(t * step) <= REFINE_STEP_ZERO or r @ r <= REFINE_RESIDUAL_ZERO:
            break
    return c / max(np.linalg.norm(c), 1e-300)


def _distinct_lines(cands: list[np.ndarray], d: int, angle: float = CONE_LINE_ANGLE) -> np.ndarray:
    """Unit lines up to sign, one per cluster, sign fixed (largest entry positive)."""
    out: list[np.ndarray] = []
    for c in cands:
        c = c * np.sign(c[np.argmax(np.abs(c))])
        if all(abs(float(c @ o)) < np.cos(angle) for o in out):
            out.append(c)
    return np.array(out).reshape(len(out), d)


def cone_lines(
    forms: np.ndarray, tol: float = SECOND_ORDER_RTOL, *, seed: int = 0, first: bool = False
) -> tuple[np.ndarray, bool]:
    r"""Real solution lines of :math:`c^T H_j c = 0` for all ``j``, as unit vectors.

    Two variables: the lines of the largest form in closed form, refined against all
    forms. More: Gauss-Newton on the unit sphere from
    :math:`20 + 10d` starts, roots (all :math:`|Q_j| \le` ``tol``) clustered up to sign.

    Parameters
    ----------
    forms : ndarray, shape (s, d, d)
    tol : float
        A form value below this counts as zero.
    seed : int
        Random starts.
    first : bool
        Stop at the first root (enough to know that one exists).

    Returns
    -------
    lines : ndarray, shape (k, d)
    continuum : bool
        The solutions are not finitely many lines (no stress, all forms zero, or a
        root where the equations lose rank on the sphere, :math:`d \ge 3`); ``lines``
        then holds a basis of the flexes (no form) or the roots found.
    """
    s, d = forms.shape[0], forms.shape[-1]
    if d == 0:
        return np.zeros((0, 0)), False
    if s == 0 or np.abs(forms).max() <= tol:
        return np.eye(d), d > 1
    if d == 1:
        return np.zeros((0, 1)), False
    if d == 2:
        starts = list(_binary_lines(forms, tol))
    else:
        rng = np.random.default_rng(seed)
        starts = list(rng.standard_normal((20 + 10 * d, d)))
    roots = []
    for c0 in starts:
        c = _refine(forms, c0)
        if _value(forms, c) <= tol:
            roots.append(c)
            if first:
                break
    lines = _distinct_lines(roots, d)
    continuum = d > 2 and any(_loses_rank(forms, c) for c in lines)
    return lines, continuum


def _value(forms: np.ndarray, c: np.ndarray) -> float:
    return float(np.abs(np.einsum("a,sab,b->s", c, forms, c)).max())


def _loses_rank(forms: np.ndarray, c: np.ndarray) -> bool:
    """Whether the equations' Jacobian on the sphere's tangent at root ``c`` has rank < d-1."""
    jac = 2.0 * forms @ c  # (s, d)
    tangent = sla.null_space(c[None, :])
    sv = np.linalg.svd(jac @ tangent, compute_uv=False)
    scale = max(float(np.abs(forms).max()), 1e-300)
    return int(np.sum(sv > SECOND_ORDER_RTOL * scale)) < len(c) - 1


# ------------------------------------------------------------------- exact route
def _exact_rows(linkage: Linkage, p: list[Fraction]) -> list[dict[int, Fraction]]:
    """Sparse exact rows (column -> value) of the polynomial constraints, rods/angles/pins."""
    rows = []
    for i, j in linkage.rods.tolist():
        dx, dy = p[2 * i] - p[2 * j], p[2 * i + 1] - p[2 * j + 1]
        rows.append({2 * i: dx, 2 * i + 1: dy, 2 * j: -dx, 2 * j + 1: -dy})
    for i, j, k in linkage.angles.tolist():
        ax, ay = p[2 * j] - p[2 * i], p[2 * j + 1] - p[2 * i + 1]
        bx, by = p[2 * k] - p[2 * i], p[2 * k + 1] - p[2 * i + 1]
        c0, d0 = ax * by - ay * bx, ax * bx + ay * by
        ga = (d0 * by - c0 * bx, -d0 * bx - c0 * by)
        gb = (-d0 * ay - c0 * ax, d0 * ax - c0 * ay)
        row: dict[int, Fraction] = {}
        for v, g in ((j, ga), (k, gb), (i, (-ga[0] - gb[0], -ga[1] - gb[1]))):
            row[2 * v] = row.get(2 * v, 0) + g[0]
            row[2 * v + 1] = row.get(2 * v + 1, 0) + g[1]
        rows.append(row)
    for i in linkage.pinned.tolist():
        rows += [{2 * i: Fraction(1)}, {2 * i + 1: Fraction(1)}]
    return rows + _exact_guide_rows(linkage, p)


def _exact_guide_rows(linkage: Linkage, p: list[Fraction]) -> list[dict[int, Fraction]]:
    r"""Slider rows (the exact normal at the joint) and slot rows (:math:`\nabla(e \times w)`)."""
    normals = slider_normals(linkage) or []
    rows = [
        {2 * j: n[0], 2 * j + 1: n[1]}
        for j, n in zip(linkage.guides.slider_joints.tolist(), normals, strict=True)
    ]
    for a, b, c in linkage.guides.slots.tolist():
        ex, ey = p[2 * b] - p[2 * a], p[2 * b + 1] - p[2 * a + 1]
        wx, wy = p[2 * c] - p[2 * a], p[2 * c + 1] - p[2 * a + 1]
        rows.append({2 * c: -ey, 2 * c + 1: ex, 2 * b: wy, 2 * b + 1: -wx,
                     2 * a: ey - wy, 2 * a + 1: wx - ex})  # fmt: skip
    return rows


def _exact_seconds(linkage: Linkage, p: list[Fraction], u: list[Any]) -> list[Any]:
    """Exact second derivatives :math:`g''[u, u]` per row for symbolic ``u`` (2n ring elements)."""
    out = []
    for i, j in linkage.rods.tolist():
        dx, dy = u[2 * i] - u[2 * j], u[2 * i + 1] - u[2 * j + 1]
        out.append(dx * dx + dy * dy)
    for i, j, k in linkage.angles.tolist():
        ax, ay = p[2 * j] - p[2 * i], p[2 * j + 1] - p[2 * i + 1]
        bx, by = p[2 * k] - p[2 * i], p[2 * k + 1] - p[2 * i + 1]
        c0, d0 = ax * by - ay * bx, ax * bx + ay * by
        uax, uay = u[2 * j] - u[2 * i], u[2 * j + 1] - u[2 * i + 1]
        ubx, uby = u[2 * k] - u[2 * i], u[2 * k + 1] - u[2 * i + 1]
        out.append(2 * ((uax * uby - uay * ubx) * d0 - (uax * ubx + uay * uby) * c0))
    out += [0] * (2 * len(linkage.pinned) + linkage.guides.n_sliders)  # linear rows
    for a, b, c in linkage.guides.slots.tolist():
        # e x w is bilinear: its second derivative along u is 2 (u_b - u_a) x (u_c - u_a)
        ex, ey = u[2 * b] - u[2 * a], u[2 * b + 1] - u[2 * a + 1]
        wx, wy = u[2 * c] - u[2 * a], u[2 * c + 1] - u[2 * a + 1]
        out.append(2 * (ex * wy - ey * wx))
    return out


def _exact_spaces(
    linkage: Linkage, p: list[Fraction]
) -> tuple[int, list[list[Any]], list[list[Any]]]:
    """Exact rank, internal flex rows (modulo the trivial motions) and self-stress rows."""
    from sympy import QQ
    from sympy.polys.matrices import DomainMatrix

    n2 = len(p)
    rows = _exact_rows(linkage, p)
    dense = [[QQ(r.get(c, 0)) for c in range(n2)] for r in rows]
    a = DomainMatrix(dense, (len(rows), n2), QQ) if rows else DomainMatrix.zeros((0, n2), QQ)
    rank = a.rank() if rows else 0
    kernel = a.nullspace().to_list() if rank < n2 else []
    stresses = a.transpose().nullspace().to_list() if rows and rank < len(rows) else []
    triv = _exact_trivial(linkage, p)
    flexes: list[list[Any]] = []
    base = list(triv)
    for v in kernel:
        trial = DomainMatrix([*base, v], (len(base) + 1, n2), QQ)
        if trial.rank() == len(base) + 1:
            base.append(v)
            flexes.append(v)
    return rank, flexes, stresses


def _exact_trivial(linkage: Linkage, p: list[Fraction]) -> list[list[Any]]:
    """Exact rigid motions keeping the pins still and the sliders' lines: rows of length 2n.

    A slider asks for no normal velocity at its joint and no turning (the third
    generator), as :func:`~linkage_widget.rigidity.trivial_motions` does.
    """
    from sympy import QQ
    from sympy.polys.matrices import DomainMatrix

    n = len(p) // 2
    gens = [[QQ(1), QQ(0)] * n, [QQ(0), QQ(1)] * n]
    gens.append([QQ(v) for i in range(n) for v in (-p[2 * i + 1], p[2 * i])])
    pins = linkage.pinned.tolist()
    at = [[g[2 * i + e] for g in gens] for i in pins for e in (0, 1)]
    joints = linkage.guides.slider_joints.tolist()
    for j, (nx, ny) in zip(joints, slider_normals(linkage) or [], strict=True):
        at.append([QQ(nx) * g[2 * j] + QQ(ny) * g[2 * j + 1] for g in gens])
    if joints:
        at.append([QQ(0), QQ(0), QQ(1)])
    if at:
        combos = DomainMatrix(at, (len(at), 3), QQ).nullspace().to_list()
        gens = [
            [sum(c[k] * gens[k][col] for k in range(3)) for col in range(2 * n)] for c in combos
        ]
    if not gens:
        return []
    m = DomainMatrix(gens, (len(gens), 2 * n), QQ)
    return m.rref()[0].to_list()[: m.rank()]


def exact_second_order_rigid(linkage: Linkage, *, rank: int | None = None) -> bool | None:
    """Exact decision of second-order rigidity, or ``None`` when the exact route does not apply.

    It applies to planar linkages of at most :data:`MAX_EXACT_COORDINATES` coordinates
    and :data:`MAX_EXACT_FLEXES` internal flexes whose coordinates are small
    rationals (see :func:`~linkage_widget.rigidity.exact.rational_coordinates`), and only
    when the exact rank equals ``rank`` (the numerical one, if given): otherwise the float placement
    is near, not at, the rational one, and the question is a numerical one.

    Examples
    --------
    >>> k33 = Linkage([[i, 0] for i in range(6)],
    ...               rods=[(i, j) for i in range(3) for j in range(3, 6)])
    >>> exact_second_order_rigid(k33)
    True
    """
    n2 = 2 * linkage.n_vertices
    if n2 == 0 or n2 > MAX_EXACT_COORDINATES or linkage.dim != 2:
        return None  # the exact rows are planar; a 3-D linkage is decided numerically
    frac = rational_coordinates(linkage.vertices)
    if frac is None or slider_normals(linkage) is None:
        return None  # a coordinate or a slider's line with no exact form
    from sympy import QQ

    p = [QQ(f.numerator, f.denominator) for f in frac]
    ex_rank, flexes, stresses = _exact_spaces(linkage, p)
    if rank is not None and ex_rank != rank:
        return None
    if not flexes:
        return True
    if not stresses:
        return False
    if len(flexes) > MAX_EXACT_FLEXES:
        return None
    quads, syms = _exact_quadratics(linkage, p, flexes, stresses)
    return _only_zero(quads, syms)


def _exact_quadratics(
    linkage: Linkage, p: list[Any], flexes: list[list[Any]], stresses: list[list[Any]]
) -> tuple[list[Any], list[Any]]:
    """The stress energies :math:`Q_j(c)` as sympy expressions, with the symbols ``c``."""
    from sympy import QQ
    from sympy.polys.rings import ring

    d = len(flexes)
    r, *gens = ring(",".join(f"c{a}" for a in range(d)), QQ)
    u = [sum((gens[a] * flexes[a][k] for a in range(d)), r.zero) for k in range(len(p))]
    seconds = _exact_seconds(linkage, p, u)
    quads = [
        sum((w * s for w, s in zip(row, seconds, strict=True) if w), r.zero) for row in stresses
    ]
    return [q.as_expr() for q in quads], [g.as_expr() for g in gens]


def _only_zero(quads: list[Any], syms: list[Any]) -> bool | None:
    """Whether ``c = 0`` is the only real solution of the homogeneous quadratics, chart by chart."""
    from sympy import QQ, groebner, solve_poly_system

    for i in range(len(syms)):
        sub = {syms[k]: 0 for k in range(i)}
        sub[syms[i]] = 1
        eqs = [e for e in (q.subs(sub) for q in quads) if e != 0]
        free = syms[i + 1 :]
        if not eqs:
            return False  # the whole chart solves the system
        if not free:
            continue  # nonzero constants: no solution here
        basis = groebner(eqs, *free, order="grevlex", domain=QQ)
        if list(basis.exprs) == [1]:
            continue
        if not basis.is_zero_dimensional:
            return None
        for sol in solve_poly_system(list(basis.exprs), *free) or []:
            if all(_is_real(v) for v in sol):
                return False
    return True


def _is_real(value: Any) -> bool:
    if value.is_real is not None:
        return bool(value.is_real)
    z = complex(value.evalf(50))
    return abs(z.imag) <= IMAGINARY_ZERO * max(1.0, abs(z.real))
