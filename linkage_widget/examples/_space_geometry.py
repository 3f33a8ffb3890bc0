r"""Small geometric helpers shared by the 3-D examples (:mod:`linkage_widget.examples.space`).

Conventions
-----------
An *octahedron* here always has its six joints in three opposite pairs
:math:`(0, 1), (2, 3), (4, 5)` — in the Bricard literature :math:`A, A'`,
:math:`B, B'`, :math:`C, C'` — and a rod between every two joints that are not
opposite: the 12 edges of the octahedral graph :math:`K_{2,2,2}`. Its eight faces
are the triangles with one joint from each pair.

>>> octahedron_rods().shape
(12, 2)
>>> (0, 1) in map(tuple, octahedron_rods().tolist())
False
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from .. import _checks
from ..model import Linkage

__all__ = [
    "OPPOSITE",
    "as_linkage",
    "check_distinct",
    "dh_transform",
    "octahedron_rods",
    "rigidity_matrix",
    "spread",
]

#: The three pairs of opposite (unjoined) joints of an octahedron.
OPPOSITE = ((0, 1), (2, 3), (4, 5))


def dh_transform(theta: float, d: float, a: float, alpha: float) -> np.ndarray:
    r"""One Denavit–Hartenberg link as a homogeneous transform, shape ``(4, 4)``.

    .. math:: R_z(\theta)\, T_z(d)\, T_x(a)\, R_x(\alpha) .

    >>> bool(np.allclose(dh_transform(np.pi / 2, 0.0, 1.0, 0.0)[:3, 3], [0.0, 1.0, 0.0]))
    True
    """
    c, s = np.cos(theta), np.sin(theta)
    ct, st = np.cos(alpha), np.sin(alpha)
    return np.array(
        [
            [c, -s * ct, s * st, a * c],
            [s, c * ct, -c * st, a * s],
            [0.0, st, ct, d],
            [0.0, 0.0, 0.0, 1.0],
        ]
    )


def octahedron_rods() -> np.ndarray:
    """The 12 rods of an octahedron, shape ``(12, 2)``: every pair except the opposite ones."""
    i, j = np.triu_indices(6, k=1)
    keep = ~((i % 2 == 0) & (j == i + 1))
    return np.column_stack([i[keep], j[keep]])


def rigidity_matrix(points: np.ndarray, rods: np.ndarray) -> np.ndarray:
    r"""The dense rigidity matrix :math:`R(p)`, shape ``(m, 3n)``.

    Row :math:`ij` holds :math:`(p_i - p_j)^T` in the columns of joint :math:`i`
    and :math:`(p_j - p_i)^T` in those of :math:`j`: half the gradient of
    :math:`|p_i - p_j|^2`. Used here only for the constructions' own checks
    (symmetric ranks of Bricard's octahedra); the package's rows live in
    :mod:`linkage_widget.constraints`.
    """
    n, d = points.shape
    diff = points[rods[:, 0]] - points[rods[:, 1]]
    r = np.zeros((len(rods), n, d))
    rows = np.arange(len(rods))
    r[rows, rods[:, 0]] = diff
    r[rows, rods[:, 1]] = -diff
    return r.reshape(len(rods), n * d)


def spread(points: np.ndarray) -> np.ndarray:
    """Singular values of the centred joints, shape ``(3,)``: the extent along the principal axes.

    The smallest is zero exactly when all joints lie in one plane.
    """
    return np.linalg.svd(points - points.mean(axis=0), compute_uv=False)


def check_distinct(points: np.ndarray, names: Iterable[str], what: str) -> None:
    """Raise ``ValueError`` naming the first two joints of ``what`` that (nearly) coincide.

    Nearly: closer than ``1e-9`` times the diameter of the joint set.
    """
    names = list(names)
    d = np.linalg.norm(points[:, None, :] - points[None, :, :], axis=-1)
    tol = 1e-9 * max(float(d.max()), 1e-300)
    i, j = np.triu_indices(len(points), k=1)
    close = np.flatnonzero(d[i, j] <= tol)
    if close.size:
        a, b = i[close[0]], j[close[0]]
        raise ValueError(
            f"degenerate {what}: joints {names[a]} and {names[b]} coincide at "
            f"{np.round(points[a], 12).tolist()}"
        )


def as_linkage(vertices: Any, rods: Any, scale: float, pinned: Iterable[int] = ()) -> Linkage:
    """A 3-D :class:`Linkage` of ``vertices * scale`` (scale checked: positive, finite)."""
    s = _checks.positive(scale, "scale")
    v = np.asarray(vertices, dtype=np.float64) * s
    return Linkage(v, rods=np.asarray(rods, dtype=np.int64), pinned=list(pinned), dim=3)
