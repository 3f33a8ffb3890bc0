"""Independent kinematics oracles for the example and Penrose tests.

Deliberately not :mod:`linkage_widget.rigidity` or :mod:`linkage_widget.motion`:
the DOF here is the plain numerical rank of the rigidity matrix (dense SVD, the
2007 program's count), and finite motions are re-solved from scratch with
``scipy.optimize.least_squares`` on the constraint residuals, so the tests check
the bundled geometry against the mechanism's known behaviour, not one module of
ours against another.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from scipy.optimize import least_squares

from linkage_widget import Linkage
from linkage_widget.constraints import ConstraintSet

#: Singular values at most this times the largest count as zero (the brief's tolerance).
RANK_RTOL = 1e-7


def singular_values(linkage: Linkage) -> np.ndarray:
    """Singular values of the rigidity matrix at the linkage's own positions."""
    a = ConstraintSet.from_linkage(linkage).jacobian(linkage.vertices).toarray()
    return np.linalg.svd(a, compute_uv=False) if a.size else np.zeros(0)


def rank(linkage: Linkage) -> int:
    s = singular_values(linkage)
    return int(np.sum(s > RANK_RTOL * s.max())) if s.size else 0


def dof(linkage: Linkage) -> int:
    """Dimension of the space of infinitesimal motions, ``2n - rank A``."""
    return 2 * linkage.n_vertices - rank(linkage)


def trivial_dof(linkage: Linkage) -> int:
    """Rigid-body motions the pins leave (for linkages with at least one rod)."""
    return {0: 3, 1: 1}.get(len(set(linkage.pinned.tolist())), 0)


def internal_dof(linkage: Linkage) -> int:
    return dof(linkage) - trivial_dof(linkage)


def solve(cs: ConstraintSet, guess: np.ndarray) -> np.ndarray:
    """Positions near ``guess`` satisfying ``cs`` (Gauss-Newton / trust region), shape (n, 2)."""
    sol = least_squares(
        cs.residuals,
        np.asarray(guess, dtype=float).reshape(-1),
        jac=lambda x: cs.jacobian(x).toarray(),
        xtol=1e-15,
        ftol=1e-15,
        gtol=1e-15,
    )
    p = sol.x.reshape(-1, 2)
    err = cs.relative_error(p)
    if err > 1e-10:
        raise AssertionError(f"could not assemble the linkage (relative error {err:.2e})")
    return p


def hold(linkage: Linkage, joint: int, targets) -> np.ndarray:
    """Hold vertex ``joint`` at each of ``targets`` ``(k, 2)`` in turn and re-solve the rest.

    The held vertex is pinned there; every other vertex follows by re-solving all
    the linkage's constraints (sliders and slots too), starting each step from the
    previous solution (continuation, so the assembly branch is kept). A slider on
    the held joint is dropped (a pinned joint cannot slide): place the targets on
    its line. Pass the targets in small steps.

    Returns
    -------
    ndarray, shape (k, n, 2)
    """
    held = Linkage(
        linkage.vertices,
        linkage.rods,
        linkage.angles,
        [*linkage.pinned.tolist(), joint],
        sliders=[s for s in linkage.sliders if s.joint != joint],
        slots=linkage.slots,
    )
    cs = ConstraintSet.from_linkage(held)
    p = linkage.vertices.copy()
    out = []
    for target in np.asarray(targets, dtype=float).reshape(-1, 2):
        anchors = cs.anchors.copy()
        anchors[-1] = target  # the held joint is the last pin
        p = solve(dataclasses.replace(cs, anchors=anchors), p)
        out.append(p)
    return np.array(out)


def drive(linkage: Linkage, pivot: int, driven: int, angles) -> np.ndarray:
    """Turn vertex ``driven`` about ``pivot`` through ``angles`` and re-solve the rest.

    :func:`hold` with the driven vertex's circle: ``angles`` (radians, relative to
    the start) are visited in the given order, so pass them in small steps.

    Returns
    -------
    ndarray, shape (len(angles), n, 2)
    """
    p = linkage.vertices
    centre, arm = p[pivot], p[driven] - p[pivot]
    t = np.asarray(angles, dtype=float).reshape(-1)
    c, s = np.cos(t)[:, None], np.sin(t)[:, None]
    rotated = np.column_stack([c * arm[0] - s * arm[1], s * arm[0] + c * arm[1]])
    return hold(linkage, driven, centre + rotated)


def sweep(
    linkage: Linkage, pivot: int, driven: int, degrees: float, step: float = 2.0
) -> np.ndarray:
    """:func:`drive` from ``-degrees`` to ``+degrees`` about the start, both ways from 0.

    Returns positions ``(k, n, 2)`` in angle order.
    """
    ahead = np.radians(np.arange(step, degrees + step / 2, step))
    back = drive(linkage, pivot, driven, -ahead)[::-1]
    start = linkage.vertices[None].copy()
    return np.concatenate([back, start, drive(linkage, pivot, driven, ahead)])


def ribbons(linkage: Linkage) -> int:
    """Number of ribbons of a rhombus tiling (rods linked by "opposite in a rhombus").

    A rhombus tiling of a disc flexes by turning every ribbon independently (all
    its rods are parallel and stay so), and nothing else: dof = ribbons + 2
    (translations), internal = ribbons - 1 (all ribbons turning together is the
    rotation). The rhombi are found as 4-cycles of rods that are parallelograms.
    """
    p, rods = linkage.vertices, linkage.rods.tolist()
    index = {frozenset(r): k for k, r in enumerate(rods)}
    adj: dict[int, set[int]] = {}
    for i, j in rods:
        adj.setdefault(i, set()).add(j)
        adj.setdefault(j, set()).add(i)
    parent = list(range(len(rods)))

    def find(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    for a, nbrs in adj.items():
        for b in nbrs:
            for d in nbrs:
                if b >= d:
                    continue
                for c in (adj[b] & adj[d]) - {a}:
                    if np.allclose(p[a] + p[c], p[b] + p[d], atol=1e-9 * np.ptp(p)):
                        # opposite sides a-b / d-c and a-d / b-c lie in one ribbon
                        for u, v in (((a, b), (d, c)), ((a, d), (b, c))):
                            parent[find(index[frozenset(u)])] = find(index[frozenset(v)])
    return len({find(k) for k in range(len(rods))})
