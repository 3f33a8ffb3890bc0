r"""Bricard's three types of flexible octahedra (1897), as parameter families.

An octahedron has 6 joints and 12 rods: :math:`3 \cdot 6 - 6 = 12`, so Maxwell's
count says *rigid*, and a convex one is rigid (Cauchy 1813). Bricard found every
octahedron (self-crossing, as a rod framework) that flexes anyway; there are three
types. The joints are numbered in opposite pairs :math:`A, A' = 0, 1`,
:math:`B, B' = 2, 3`, :math:`C, C' = 4, 5` (see :mod:`._space_geometry`).

Types 1 and 2: symmetry
-----------------------
Let :math:`S` be an isometry of order two that maps the octahedron's graph onto
itself. Among the placements with that symmetry, choose the free coordinates
:math:`\theta \in \mathbb R^k` (one joint of each swapped pair, the allowed
coordinates of a fixed joint), :math:`p = M\theta`. The 12 rods fall into six
orbits :math:`\{e, Se\}` of equal length, so the symmetric placements with the
given lengths solve **six** equations in :math:`k` unknowns, and the isometries
commuting with :math:`S` (a :math:`g`-dimensional group) act on them. If the six
equations are independent at :math:`p`, i.e.

.. math:: \operatorname{rank} R(p)\,M = 6,

the implicit function theorem makes the symmetric placements near :math:`p` a
manifold of dimension :math:`k - 6`, and modulo the group one of dimension
:math:`k - 6 - g`. The constructors check this rank and refuse a placement where
it drops (a *degenerate* octahedron), naming what failed.

* **Type 1, line-symmetric:** :math:`S` = the half-turn about the :math:`z`-axis,
  :math:`A' = SA, B' = SB, C' = SC`. :math:`k = 9`, :math:`g = 2` (turning about and
  sliding along the axis): :math:`9 - 6 - 2 = 1`, a one-parameter flex.
* **Type 2, plane-symmetric:** :math:`S` = the reflection in the plane
  :math:`x = 0`, :math:`A' = SA, B' = SB`, and :math:`C, C'` in the plane.
  :math:`k = 3 + 3 + 2 + 2 = 10`, :math:`g = 3` (the plane's own motions):
  :math:`10 - 6 - 3 = 1`.

Type 3: two flat poses
----------------------
The third type has no symmetry; it passes through two *flat* poses (all joints
in one plane). In a flat pose the four side lines of each "equator" — the
4-cycles :math:`AB A'B'`, :math:`AC A'C'`, :math:`BC B'C'` — touch a circle, and
the three circles are concentric. Then at every joint the two rod lines towards
one opposite pair are mirror images in the line to the common centre, so the
opposite face angles at every joint are equal or supplementary, and the signed
sums of the sides of each equator vanish (Pitot) — Bricard's conditions for the
third type. We build the flat pose from two circles (radii :math:`r_1, r_2`
about the origin): four tangents of the first circle are the side lines of
:math:`ABA'B'`; the tangents from :math:`A` and from :math:`A'` to the second
circle meet in :math:`C` and :math:`C'`; the third circle comes for free. The
flat pose is then *folded* out of the plane by solving the 12 rod equations
with the distance :math:`|AA'|` shortened by the factor :math:`1 - \text{fold}`
(Gauss–Newton, ``scipy.optimize.least_squares``). That the result moves with
one degree of freedom is proved numerically in ``tests/space_examples``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy.optimize import least_squares

from .. import _checks
from ..model import Linkage
from ._space_geometry import as_linkage, check_distinct, octahedron_rods, rigidity_matrix, spread

__all__ = [
    "HALF_TURN",
    "MIRROR",
    "bricard_line_symmetric",
    "bricard_plane_symmetric",
    "bricard_type3",
    "bricard_type3_flat",
]

#: The half-turn about the z-axis (type 1's symmetry), acting on row vectors.
HALF_TURN = np.diag([-1.0, -1.0, 1.0])
#: The reflection in the plane x = 0 (type 2's symmetry).
MIRROR = np.diag([-1.0, 1.0, 1.0])

_NAMES = ("A", "A'", "B", "B'", "C", "C'")
#: Pinned joints when ``ground=True``: the face A B C (removes all six trivial motions).
_GROUND_FACE = (0, 2, 4)


def _check_octahedron(p: np.ndarray, what: str) -> None:
    """Distinct joints, not all in one plane (the flexes need a spatial octahedron)."""
    check_distinct(p, _NAMES, what)
    s = spread(p)
    if s[2] <= 1e-9 * s[0]:
        raise ValueError(f"degenerate {what}: all six joints lie in one plane")


def _check_symmetric_rank(p: np.ndarray, basis: np.ndarray, what: str) -> None:
    """The six orbit equations must be independent at ``p`` (rank R(p) M = 6)."""
    rm = rigidity_matrix(p, octahedron_rods()) @ basis
    sv = np.linalg.svd(rm, compute_uv=False)
    rank = int(np.sum(sv > 1e-9 * sv[0]))
    if rank < 6:
        raise ValueError(
            f"degenerate {what}: the six rod-length equations of the symmetric placements "
            f"have rank {rank} < 6 here, so the symmetric flex is not guaranteed"
        )


def _pair_basis(sym: np.ndarray, pairs: int) -> np.ndarray:
    """M for ``pairs`` joint pairs (P, S P): shape (6 * pairs, 3 * pairs)."""
    m = np.zeros((6 * pairs, 3 * pairs))
    for k in range(pairs):
        m[6 * k : 6 * k + 3, 3 * k : 3 * k + 3] = np.eye(3)
        m[6 * k + 3 : 6 * k + 6, 3 * k : 3 * k + 3] = sym.T
    return m


def bricard_line_symmetric(
    a: Any = (1.0, 0.2, 0.6),
    b: Any = (0.3, 1.2, -0.4),
    c: Any = (-0.9, 0.7, 0.2),
    *,
    scale: float = 1.0,
    ground: bool = False,
) -> Linkage:
    r"""Bricard's type 1: three joint pairs symmetric about the :math:`z`-axis.

    .. math:: A = a,\ A' = (-a_x, -a_y, a_z),\quad B = b,\ B' = \dots,\quad C = c,\ C' = \dots

    Parameters
    ----------
    a, b, c : array_like, shape (3,)
        One joint of each opposite pair; none on the :math:`z`-axis.
    scale : float
        Multiplies every coordinate (world units).
    ground : bool
        Pin the face :math:`A B C` (joints 0, 2, 4), so that only the flex is left.

    Raises
    ------
    ValueError
        Naming the parameter (not a finite triple) or the degeneracy: two joints
        coincide (a joint on the axis), all six in one plane, or the symmetric
        equations dependent (see the module notes).

    Examples
    --------
    >>> link = bricard_line_symmetric()
    >>> link.dim, link.n_vertices, link.n_rods
    (3, 6, 12)
    >>> bricard_line_symmetric(a=(0, 0, 1))
    Traceback (most recent call last):
    ...
    ValueError: degenerate line-symmetric octahedron: joints A and A' coincide at [0.0, 0.0, 1.0]
    """
    pts = [_checks.finite_point(v, n, dim=3) for v, n in ((a, "a"), (b, "b"), (c, "c"))]
    p = np.array([q for v in pts for q in (v, v @ HALF_TURN)])
    _check_octahedron(p, "line-symmetric octahedron")
    _check_symmetric_rank(p, _pair_basis(HALF_TURN, 3), "line-symmetric octahedron")
    return as_linkage(p, octahedron_rods(), scale, _GROUND_FACE if ground else ())


def bricard_plane_symmetric(
    a: Any = (0.9, 0.4, 0.7),
    b: Any = (0.6, -0.8, 0.3),
    c: Any = (0.5, -0.6),
    c_opposite: Any = (-0.3, 1.1),
    *,
    scale: float = 1.0,
    ground: bool = False,
) -> Linkage:
    r"""Bricard's type 2: two joint pairs mirror images in the plane :math:`x = 0`, the third in it.

    .. math:: A = a,\ A' = (-a_x, a_y, a_z),\quad B = b,\ B' = (-b_x, b_y, b_z),\quad
              C = (0, c_y, c_z),\ C' = (0, c'_y, c'_z)

    The reflection swaps the opposite joints :math:`A \leftrightarrow A'` and
    :math:`B \leftrightarrow B'` and fixes :math:`C, C'`, so it maps rods to rods.

    Parameters
    ----------
    a, b : array_like, shape (3,)
        One joint of each mirrored pair; not in the mirror plane.
    c, c_opposite : array_like, shape (2,)
        The :math:`(y, z)` coordinates of :math:`C` and :math:`C'` in the mirror plane.
    scale, ground
        As in :func:`bricard_line_symmetric`.

    Raises
    ------
    ValueError
        As in :func:`bricard_line_symmetric` (a joint in the mirror plane makes
        :math:`A = A'` or :math:`B = B'`).

    Examples
    --------
    >>> bricard_plane_symmetric().n_rods
    12
    """
    pa = _checks.finite_point(a, "a", dim=3)
    pb = _checks.finite_point(b, "b", dim=3)
    pc = np.r_[0.0, _checks.finite_point(c, "c", dim=2)]
    pd = np.r_[0.0, _checks.finite_point(c_opposite, "c_opposite", dim=2)]
    p = np.array([pa, pa @ MIRROR, pb, pb @ MIRROR, pc, pd])
    basis = np.zeros((18, 10))
    basis[:12, :6] = _pair_basis(MIRROR, 2)
    basis[13:15, 6:8] = np.eye(2)  # C = (0, y, z)
    basis[16:18, 8:10] = np.eye(2)  # C' = (0, y', z')
    _check_octahedron(p, "plane-symmetric octahedron")
    _check_symmetric_rank(p, basis, "plane-symmetric octahedron")
    return as_linkage(p, octahedron_rods(), scale, _GROUND_FACE if ground else ())


def _meet(n1: np.ndarray, r1: float, n2: np.ndarray, r2: float, what: str) -> np.ndarray:
    """The point of the lines n1 . x = r1 and n2 . x = r2 (unit normals)."""
    det = n1[0] * n2[1] - n1[1] * n2[0]
    if abs(det) < 1e-9:
        raise ValueError(
            f"degenerate type-3 octahedron: the tangent lines through {what} are parallel"
        )
    return np.array([r1 * n2[1] - r2 * n1[1], r2 * n1[0] - r1 * n2[0]]) / det


def _tangents(point: np.ndarray, radius: float, name: str) -> np.ndarray:
    """Unit normals n (shape (2, 2)) of the two tangents from ``point`` to the circle |x| = r."""
    d = float(np.hypot(*point))
    if d <= radius * (1 + 1e-9):
        raise ValueError(
            f"degenerate type-3 octahedron: joint {name} (distance {d:.6g} from the centre) "
            f"is not outside the second circle (radius {radius:.6g}), so no tangents"
        )
    phi, half = np.arctan2(point[1], point[0]), np.arccos(radius / d)
    t = np.array([phi + half, phi - half])
    return np.column_stack([np.cos(t), np.sin(t)])


def bricard_type3_flat(
    radii: Any = (1.0, 0.55), tangent_angles: Any = (25.0, 145.0, 220.0, 335.0)
) -> np.ndarray:
    r"""A flat pose of Bricard's third type: joints, shape ``(6, 2)`` (see the module notes).

    Parameters
    ----------
    radii : (float, float)
        :math:`r_1` (the circle the equator :math:`A B A' B'` is drawn round) and
        :math:`r_2` (the circle touched by :math:`AC, AC', A'C, A'C'`).
    tangent_angles : 4 floats, degrees
        Directions of the normals of the four tangents of the first circle, in
        order: the side lines :math:`AB, BA', A'B', B'A`.

    Examples
    --------
    >>> p = bricard_type3_flat()
    >>> def centre_distance(i, j):     # distance of the origin from the line through p_i, p_j
    ...     (x0, y0), (x1, y1) = p[i], p[j]
    ...     return abs(x0 * y1 - y0 * x1) / np.hypot(x1 - x0, y1 - y0)
    >>> d = [centre_distance(i, j) for i, j in ((2, 4), (2, 5), (3, 4), (3, 5))]  # BC, BC', ...
    >>> bool(np.ptp(d) < 1e-12)     # all touch one circle about the same centre
    True
    """
    r = np.asarray(radii, dtype=float).reshape(-1)
    if r.shape != (2,):
        raise ValueError(f"radii must be two numbers (r1, r2), got {radii!r}")
    r1, r2 = _checks.positive(r[0], "radii[0]"), _checks.positive(r[1], "radii[1]")
    if abs(r1 - r2) <= 1e-9 * r1:
        raise ValueError(f"degenerate type-3 octahedron: radii must differ, got {radii!r}")
    ang = np.radians(np.asarray(tangent_angles, dtype=float).reshape(-1))
    if ang.shape != (4,) or not np.all(np.isfinite(ang)):
        raise ValueError(
            f"tangent_angles must be 4 finite angles in degrees, got {tangent_angles!r}"
        )
    n = np.column_stack([np.cos(ang), np.sin(ang)])
    b = _meet(n[0], r1, n[1], r1, "B")
    a2 = _meet(n[1], r1, n[2], r1, "A'")
    b2 = _meet(n[2], r1, n[3], r1, "B'")
    a = _meet(n[3], r1, n[0], r1, "A")
    ta, ta2 = _tangents(a, r2, "A"), _tangents(a2, r2, "A'")
    c = _meet(ta[0], r2, ta2[1], r2, "C")
    c2 = _meet(ta[1], r2, ta2[0], r2, "C'")
    p = np.array([a, a2, b, b2, c, c2])
    check_distinct(p, _NAMES, "type-3 octahedron")
    return p


def _fold(flat: np.ndarray, fold: float) -> np.ndarray:
    """Solve the 12 rod lengths of ``flat`` with |AA'| times (1 - fold), out of the plane."""
    rods = octahedron_rods()
    p0 = np.c_[flat - flat[0], np.zeros(6)]
    u = p0[1] / np.linalg.norm(p0[1])  # gauge: A at 0, A' on the x-axis, B at z = 0
    rot = np.array([[u[0], u[1], 0.0], [-u[1], u[0], 0.0], [0.0, 0.0, 1.0]])
    p0 = p0 @ rot.T
    lengths = np.linalg.norm(p0[rods[:, 0]] - p0[rods[:, 1]], axis=1)
    target = (1.0 - fold) * np.linalg.norm(p0[1])

    def residuals(x: np.ndarray) -> np.ndarray:
        q = x.reshape(6, 3)
        r = np.linalg.norm(q[rods[:, 0]] - q[rods[:, 1]], axis=1) - lengths
        return np.r_[r, np.linalg.norm(q[1]) - target, q[0], q[1, 1:], q[2, 2]]

    best = None
    for lift in (0.3, 0.1, 1.0):  # deterministic starts lifted out of the plane
        start = p0.copy()
        start[2:, 2] += lift * lengths.mean() * np.array([0.7, -0.7, 1.0, -1.0])
        sol = least_squares(residuals, start.ravel(), xtol=1e-15, ftol=1e-15, gtol=1e-15)
        if best is None or np.abs(sol.fun).max() < np.abs(best.fun).max():
            best = sol
        if np.abs(sol.fun).max() <= 1e-12 * lengths.mean():
            break
    q = best.x.reshape(6, 3)
    if np.abs(best.fun).max() > 1e-10 * lengths.mean() or spread(q)[2] < 1e-6 * spread(q)[0]:
        raise ValueError(
            f"fold={fold!r} is not reached: no spatial placement with |AA'| shortened that "
            f"much (residual {np.abs(best.fun).max():.3g}); try a smaller fold"
        )
    return q - q.mean(axis=0)


def bricard_type3(
    radii: Any = (1.0, 0.55),
    tangent_angles: Any = (25.0, 145.0, 220.0, 335.0),
    fold: float = 0.3,
    *,
    scale: float = 1.0,
    ground: bool = False,
) -> Linkage:
    r"""Bricard's type 3: the flat pose of :func:`bricard_type3_flat`, folded into space.

    Parameters
    ----------
    radii, tangent_angles
        The flat pose (see :func:`bricard_type3_flat`).
    fold : float in (0, 1)
        How far to fold: the distance of the opposite joints :math:`A, A'` becomes
        :math:`(1 - \text{fold})` times its flat value. With the defaults every fold
        up to about 0.5 is reached.
    scale, ground
        As in :func:`bricard_line_symmetric`.

    Raises
    ------
    ValueError
        Naming the parameter or the degeneracy (coinciding joints, a joint
        inside the second circle, parallel tangents, a fold that is not reached).

    Examples
    --------
    >>> link = bricard_type3()
    >>> lengths = link.rod_lengths()
    >>> flat = bricard_type3_flat()
    >>> r = octahedron_rods()
    >>> bool(np.allclose(lengths, np.linalg.norm(flat[r[:, 0]] - flat[r[:, 1]], axis=1)))
    True
    """
    f = _checks.finite(fold, "fold")
    if not 0.0 < f < 1.0:
        raise ValueError(f"fold must be in (0, 1), got {fold!r}")
    q = _fold(bricard_type3_flat(radii, tangent_angles), f)
    return as_linkage(q, octahedron_rods(), scale, _GROUND_FACE if ground else ())
