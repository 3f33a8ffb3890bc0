r"""The tangent cone the branches come from: :func:`linkage_widget.second_order.tangent_cone`.

Until the second-order module provides it, a stand-in for the simple cases the
simulator meets (interface A of the issue-13 brief: ``tangent_cone(linkage, *,
positions, flex_rtol)`` → ``.directions (k, n, 2)``, ``.singular``, ``.n_flexes``,
``.n_stresses``):

* a regular placement: one line per internal flex when there is one, the flex;
* two internal flexes :math:`F = [f_1, f_2]` and self-stresses :math:`\omega_j`:
  the branch lines are the real isotropic lines :math:`x` of the binary quadratic
  forms :math:`Q_j(x) = \omega_j^T g''(p)[Fx, Fx]` common to all of them
  (second-order flexes :math:`A u'' = -g''[u, u]` need :math:`\omega^T g''[u, u] = 0`);
* anything larger: no directions (``singular`` still says so).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..constraints import ConstraintSet, as_flat
from ..model import Linkage
from ..rigidity import RANK_RTOL, trivial_motions

__all__ = ["tangent_cone"]


@dataclass(frozen=True)
class _Cone:
    directions: np.ndarray
    singular: bool
    n_flexes: int
    n_stresses: int


def _isotropic(q: np.ndarray) -> list[np.ndarray]:
    """Unit ``x`` with ``x^T q x = 0`` for a symmetric 2x2 ``q`` (0, 1 or 2 lines)."""
    lam, vec = np.linalg.eigh(q)
    scale = float(np.max(np.abs(lam)))
    if scale == 0.0:
        return []
    if abs(lam[0]) <= 1e-9 * scale or abs(lam[1]) <= 1e-9 * scale:
        return [vec[:, 0] if abs(lam[0]) < abs(lam[1]) else vec[:, 1]]
    if lam[0] * lam[1] > 0:
        return []
    a, b = np.sqrt(abs(lam[1])), np.sqrt(abs(lam[0]))
    lines = [a * vec[:, 0] + b * vec[:, 1], a * vec[:, 0] - b * vec[:, 1]]
    return [x / np.linalg.norm(x) for x in lines]


def _internal_flexes(a: np.ndarray, trivial: np.ndarray, rtol: float) -> np.ndarray:
    r"""Orthonormal basis of :math:`\ker A` orthogonal to the trivial motions, ``(N, d)``."""
    _, s, vt = np.linalg.svd(a)
    r = int(np.count_nonzero(s > rtol * s[0])) if s.size and s[0] > 0 else 0
    flex = vt[r:].T
    if trivial.size:
        flex = flex - trivial @ (trivial.T @ flex)
    u, sv, _ = np.linalg.svd(flex, full_matrices=False)
    return u[:, sv > 0.5]


def tangent_cone(
    linkage: Linkage, *, positions: Any = None, flex_rtol: float | None = None, **_: Any
) -> _Cone:
    """Branch lines through ``positions`` (default: the linkage's), see the module."""
    pts = linkage.vertices if positions is None else np.asarray(positions, dtype=np.float64)
    cs = ConstraintSet.from_linkage(linkage, pts)
    p = as_flat(pts)
    a = cs.jacobian(p).toarray()
    rtol = RANK_RTOL if flex_rtol is None else flex_rtol
    flex = _internal_flexes(a, trivial_motions(pts, linkage.pinned), rtol)
    u, s, _ = np.linalg.svd(a)
    r = int(np.count_nonzero(s > rtol * s[0])) if s.size and s[0] > 0 else 0
    stresses = u[:, r:]
    d, n = flex.shape[1], linkage.n_vertices
    lines: list[np.ndarray] = []
    if d == 1:
        lines = [flex[:, 0]]
    elif d == 2 and stresses.shape[1]:
        forms = [
            np.array([[w @ cs.second_derivative(p, fi, fj) for fj in flex.T] for fi in flex.T])
            for w in stresses.T
        ]
        big = max(forms, key=lambda q: float(np.max(np.abs(q))))
        size = float(np.max(np.abs(big)))
        for x in _isotropic(0.5 * (big + big.T)):
            if all(abs(x @ q @ x) <= 1e-6 * size for q in forms):
                lines.append(flex @ x)
    out = np.array([u_ / np.linalg.norm(u_) for u_ in lines]).reshape(-1, n, 2)
    return _Cone(out, d > len(lines) or d > 1, d, stresses.shape[1])
