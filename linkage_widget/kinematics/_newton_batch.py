r"""Batched Newton continuation of a crank-driven linkage that does not decompose into dyads.

The ``b`` designs are ``b`` disjoint copies of the linkage in one
:class:`~linkage_widget.constraints.ConstraintSet` (copy :math:`i` its joints
:math:`i n, \dots, i n + n - 1`, its rods the rows of the design's lengths, its own motor
row), so the residuals and the Jacobian of every design come from the one constraint
module at once; the Jacobian is block diagonal, and its blocks are gathered into a dense
``(b, r, 2n)`` stack for batched linear algebra. Each design has its own drive value
:math:`s_i`: the motor rows run from the phases :math:`s_i` at the speeds :math:`d_i`
(:class:`~linkage_widget.constraints.DriveRows`), so the rows at time :math:`\tau \in
[0, 1]` hold copy :math:`i` at :math:`s_i + \tau d_i`.

The continuation is :mod:`._trace`'s, lane by lane: sub-steps of at most
:data:`~._trace.MAX_STEP` rad, a predictor :math:`p + \Delta\tau\,p_\tau` (:math:`A p_\tau =
b`, :math:`b = \ell d_i` on the motor row), Gauss-Newton to :data:`~._trace.CONVERGED`
(the normal equations :math:`(A^\top A + \mu I)\,\delta = -A^\top g`, :math:`\mu`
:data:`DAMPING` of their mean diagonal: exact where :math:`A` is regular), a step refused
when the corrector moves more than half the predicted step (a jump to another branch).
A sample is tried the short way round, then the long way; a refused step is retried once
:data:`FINER` times finer. Velocities and accelerations at the samples are
:func:`._trace.derivatives`' (one SVD per design), batched.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ..constraints import ConstraintSet, DriveRows
from ..model import Linkage
from ..rigidity import RANK_RTOL
from ._trace import CONVERGED, ITERATIONS, MAX_STEP

__all__ = ["newton_batch"]

#: Levenberg damping of the normal equations, relative to their mean diagonal.
DAMPING = 1e-14
#: How much finer the sub-steps are when a lane's step was refused.
FINER = 8


def _stacked(linkage: Linkage, b: int) -> Linkage:
    """``b`` disjoint copies of ``linkage`` (copy ``i``'s joints offset by ``i n``)."""
    n = linkage.n_vertices
    off = n * np.arange(b)

    def shift(idx: np.ndarray, width: int) -> np.ndarray:
        return (idx.reshape(1, -1, width) + off[:, None, None]).reshape(-1, width)

    sliders = [(int(s.joint) + o, tuple(s.point), tuple(s.direction))
               for o in off.tolist() for s in linkage.sliders]  # fmt: skip
    return Linkage(
        np.tile(linkage.vertices, (b, 1)),
        rods=shift(linkage.rods, 2),
        angles=shift(linkage.angles, 3),
        pinned=shift(linkage.pinned, 1).reshape(-1),
        sliders=sliders,
        slots=shift(linkage.slots, 3),
    )


@dataclass(frozen=True, eq=False)
class Lanes:
    """The stacked constraints and where each row and non-zero of a design sits."""

    cs: ConstraintSet
    motors: np.ndarray
    vertices: np.ndarray
    lane: np.ndarray
    row: np.ndarray
    col: np.ndarray
    rows: int
    size: int
    scales: np.ndarray

    @classmethod
    def build(cls, linkage: Linkage, pivot: int, tip: int, lengths: np.ndarray) -> Lanes:
        b, n = len(lengths), linkage.n_vertices
        big = _stacked(linkage, b)
        motors = np.column_stack([pivot + n * np.arange(b), tip + n * np.arange(b)])
        motors = np.column_stack([motors, -np.ones((b, 2), np.int64)])
        cs = replace(ConstraintSet.from_linkage(big), lengths=lengths.reshape(-1))
        cs = cs.with_drives(DriveRows.build(big.vertices, motors, np.zeros(b), np.ones(b), 0.0))
        jac = cs.jacobian(big.vertices).tocoo()
        lane_of_row = np.zeros(cs.n_constraints, np.int64)
        lane_of_row[jac.row] = jac.col // (2 * n)
        order = np.argsort(lane_of_row, kind="stable")
        rows = cs.n_constraints // b
        local = np.empty_like(order)
        local[order] = np.arange(len(order)) % rows
        scales = cs.row_scales()
        return cls(cs, motors, big.vertices, lane_of_row, local, jac.col % (2 * n), rows,
                   2 * n, scales)  # fmt: skip

    def at(self, s0: np.ndarray, d: np.ndarray, tau: float) -> ConstraintSet:
        """The rows holding design ``i`` at drive value ``s0[i] + tau d[i]``."""
        return replace(self.cs, drives=DriveRows.build(self.vertices, self.motors, s0, d, tau))

    def split(self, g: np.ndarray) -> np.ndarray:
        """Rows ``(R,)`` of the stacked set as ``(b, r)``, design by design."""
        out = np.empty((len(self.motors), self.rows))
        out[self.lane, self.row] = g
        return out

    def blocks(self, cs: ConstraintSet, p: np.ndarray) -> np.ndarray:
        """The Jacobian's diagonal blocks ``(b, r, 2n)`` at flat positions ``p``."""
        jac = cs.jacobian(p).tocoo()
        out = np.zeros((len(self.motors), self.rows, self.size))
        out[self.lane[jac.row], self.row[jac.row], self.col] = jac.data
        return out


def _solve(a: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    r"""Least squares ``(b, 2n)`` of the blocks ``a`` by damped normal equations."""
    at = np.swapaxes(a, 1, 2)
    normal = at @ a
    mu = DAMPING * np.trace(normal, axis1=1, axis2=2) / a.shape[2] + 1e-300
    normal += mu[:, None, None] * np.eye(a.shape[2])
    return np.linalg.solve(normal, (at @ rhs[..., None]))[..., 0]


def _correct(lanes: Lanes, cs: ConstraintSet, p: np.ndarray, live: np.ndarray):
    """Gauss-Newton on the live designs from flat ``p``: ``(p, converged (b,))``.

    A design whose residual more than doubles (beyond a limit of the drive) is dropped.
    """
    before = np.full(len(live), np.inf)
    for it in range(ITERATIONS + 1):
        g = lanes.split(cs.residuals(p))
        rel = np.abs(g / lanes.split(lanes.scales)).max(axis=1)
        live = live & np.isfinite(rel) & (rel <= 2.0 * before)
        ok = live & (rel < CONVERGED)
        if it == ITERATIONS or not (live & ~ok).any():
            return p, ok
        before = rel
        step = -_solve(lanes.blocks(cs, p), np.where(np.isfinite(g), g, 0.0))
        step[~live | ok] = 0.0
        p = p + step.reshape(-1)
    return p, ok


def _substeps(lanes: Lanes, p, s0, d, live, count: int):
    """Follow the live designs from ``s0`` to ``s0 + d`` in ``count`` sub-steps."""
    b = len(live)
    for j in range(1, count + 1):
        cs_here = lanes.at(s0, d, (j - 1) / count)
        rate = np.zeros(cs_here.n_constraints)
        rate[-b:] = cs_here.drives.velocity_target()
        blocks = lanes.blocks(cs_here, p)
        pace = _solve(blocks, lanes.split(rate)).reshape(-1) / count
        guess = p + pace
        q, ok = _correct(lanes, lanes.at(s0, d, j / count), guess, live)
        moved = np.linalg.norm(pace.reshape(b, -1), axis=1)
        off = np.linalg.norm((q - guess).reshape(b, -1), axis=1)
        live = ok & (off <= 0.5 * moved + 1e-9 * lanes.cs.length_scale)
        p = np.where(np.repeat(live, lanes.size), q, p)
    return p, live


def _follow(lanes: Lanes, p, s0, d, live):
    """Each live design from ``s0`` on by ``d``; a refused one again, :data:`FINER` finer."""
    count = max(1, int(np.ceil(np.abs(d[live]).max(initial=0.0) / MAX_STEP)))
    q, ok = _substeps(lanes, p, s0, d, live, count)
    retry = live & ~ok
    if retry.any():
        q2, ok2 = _substeps(lanes, p, s0, d, retry, FINER * count)
        q = np.where(np.repeat(ok2, lanes.size), q2, q)
        ok = ok | ok2
    return q, ok


def _derivatives(lanes: Lanes, s: np.ndarray, p: np.ndarray) -> tuple[np.ndarray, ...]:
    r"""``p'``, ``p''`` ``(b, 2n)`` and regular ``(b,)`` at flat ``p``, drive values ``s``.

    :func:`._trace.derivatives` design by design: one SVD of each block, least squares
    on the singular values above ``RANK_RTOL`` of the largest.
    """
    cs = lanes.at(s, np.ones(len(s)), 0.0)
    u, sv, vt = np.linalg.svd(lanes.blocks(cs, p), full_matrices=False)
    keep = sv > RANK_RTOL * sv[:, :1]
    regular = keep.all(axis=1) & (sv.shape[1] == lanes.size)
    inv = np.where(keep, 1.0 / np.where(keep, sv, 1.0), 0.0)

    def solve(rhs: np.ndarray) -> np.ndarray:
        coef = np.einsum("brq,br->bq", u, lanes.split(rhs)) * inv
        return np.einsum("bqc,bq->bc", vt, coef)

    v = solve(cs.velocity_target())
    return v, solve(-cs.second_derivative(p, v.reshape(-1), v.reshape(-1))), regular


def _step_to(lanes: Lanes, p, here, target: float, live):
    """Each live design from ``here`` to ``target``: the short way round, else the long."""
    d = np.remainder(target - here + np.pi, 2 * np.pi) - np.pi
    q, ok = _follow(lanes, p, here, d, live)
    other = live & ~ok & (d != 0.0)
    if other.any():
        q2, ok2 = _follow(
            lanes, p, here, np.where(other, d - np.copysign(2 * np.pi, d), 0.0), other
        )
        q = np.where(np.repeat(ok2, lanes.size), q2, q)
        ok = ok | ok2
    return q, ok


def newton_batch(
    linkage: Linkage, pivot: int, tip: int, theta: float, values: np.ndarray, lengths: np.ndarray
) -> tuple[np.ndarray, ...]:
    """As :func:`._batch.crank_batch`, by the batched continuation (module docstring).

    Each design starts from the linkage's placement corrected to its lengths at the
    linkage's crank angle ``theta``; a design that does not converge there is invalid.
    """
    b, n, k = len(lengths), linkage.n_vertices, len(values)
    lanes = Lanes.build(linkage, pivot, tip, lengths)
    here = np.full(b, float(theta))
    p, live = _correct(lanes, lanes.at(here, np.zeros(b), 0.0), lanes.vertices.reshape(-1),
                       np.ones(b, bool))  # fmt: skip
    out = [np.full((b, k, n, 2), np.nan) for _ in range(3)]
    valid = np.zeros((b, k), bool)
    for j, target in enumerate(values.tolist()):
        q, ok = _step_to(lanes, p, here, target, live)
        p = np.where(np.repeat(ok, lanes.size), q, p)
        here = np.where(ok, target, here)
        v, a, regular = _derivatives(lanes, here, np.where(np.isfinite(p), p, 0.0))
        out[0][ok, j] = p.reshape(b, n, 2)[ok]
        valid[:, j] = ok & regular
        out[1][valid[:, j], j] = v.reshape(b, n, 2)[valid[:, j]]
        out[2][valid[:, j], j] = a.reshape(b, n, 2)[valid[:, j]]
    return out[0], out[1], out[2], valid
