r"""Pseudo-arclength continuation of many branches at once, for :mod:`._curve_trace`.

Each *lane* follows one branch from its seed (the method is in :mod:`.curves`): predictor
:math:`X + h\tau`, corrector Gauss-Newton on :math:`F = 0`, :math:`\tau\cdot(X - X_{pred})
= 0`, the step halved where the corrector fails or strays, the tangent turns or an
angle coordinate jumps, and grown by half after a success. The lanes advance together:
every numerical operation of a step is one batched NumPy call over the lanes that are
still walking, so tracing Jansen's 24 branches costs about as many Python-level steps as
its longest branch alone. One lane at a time, the continuation was nine tenths of the
8-12 s of CPU that chart took, mostly the interpreter's per-call overhead on 12 x 12
matrices; batched, the whole chart takes about 0.9 s.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np

from ._system import SOLVE_TOL, LinkageSystem
from .angles import AngleCoordinate

__all__ = ["null_vectors", "trace_lanes"]

#: Largest continuation step, smallest before the branch counts as ended (length scales).
MAX_STEP, MIN_STEP = 0.08, 1e-7
#: Largest change of an angle coordinate per step (radians, ~4 degrees).
MAX_TURN = 0.07
#: The corrector may move the predicted point by at most this fraction of the step.
DEVIATION = 0.2
#: Consecutive tangents must agree this well (cosine), else the step is halved.
ALIGN = 0.9
#: Steps per branch before giving up (a branch this long is drawn as traced so far).
MAX_STEPS = 6000
#: Gauss-Newton iterations of one correction.
CORRECTOR_ITERATIONS = 12


def _lstsq(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Minimum-norm least squares ``a x = b`` per row, ``a (B, m, n)``, ``b (B, m)``."""
    if a.shape[-1] == a.shape[-2]:
        try:  # the regular case, an LU per lane
            x = np.linalg.solve(a, b[..., None])[..., 0]
            if np.all(np.isfinite(x)):
                return x
        except np.linalg.LinAlgError:
            pass
    u, s, vt = np.linalg.svd(a, full_matrices=False)
    cutoff = np.finfo(np.float64).eps * max(a.shape[-2:]) * s[..., :1]
    inv = np.where(s > cutoff, 1.0 / np.where(s > 0.0, s, 1.0), 0.0)
    coef = inv * np.einsum("bmk,bm->bk", u, b)
    return np.einsum("bkn,bk->bn", vt, coef)


def correct(system: LinkageSystem, pred: np.ndarray, tau: np.ndarray):
    """Gauss-Newton onto ``F = 0`` in the hyperplanes through ``pred`` normal to ``tau``.

    ``pred``, ``tau`` ``(B, 2f)``; returns ``(X (B, 2f), converged (B,), J (B, c, 2f))``
    with the constraint Jacobian at each converged ``X`` (rows that failed: any).
    """
    x, tol = pred.copy(), SOLVE_TOL * system.scale
    ok = np.zeros(len(x), bool)
    live = np.ones(len(x), bool)
    jac_at = None
    for _ in range(CORRECTOR_ITERATIONS):
        f, jac = system.residual_and_jacobian(x)
        jac_at = jac if jac_at is None else np.where(live[:, None, None], jac, jac_at)
        done = live & (np.abs(f).max(axis=-1) <= tol)
        ok |= done
        live &= ~done
        idx = np.flatnonzero(live)
        if not len(idx):
            break
        t = tau[idx]
        a = np.concatenate([jac[idx], t[:, None, :]], axis=1)
        b = np.concatenate([f[idx], ((x[idx] - pred[idx]) * t).sum(-1)[:, None]], axis=1)
        x[idx] -= _lstsq(a, b)
        bad = ~np.all(np.isfinite(x), axis=-1)
        x[bad], live[bad] = pred[bad], False
    if len(system.constraints.angles):  # a fixed angle's row also vanishes at angle + pi
        ok &= system.solved(x)
    return x, ok, jac_at


def null_vectors(
    system: LinkageSystem,
    x: np.ndarray,
    ref: np.ndarray | None = None,
    jac: np.ndarray | None = None,
) -> np.ndarray:
    """The unit null vector of ``J`` at each row of ``x`` ``(B, 2f)``, oriented along ``ref``.

    ``jac``: the Jacobian there when known.
    """
    jac = system.jacobian(x) if jac is None else jac
    n = system.size
    if ref is not None and jac.shape[-2] == n - 1:
        # [J; ref] t = e_n: t spans ker J and ref . t = 1 > 0 (an LU, not an SVD)
        a = np.concatenate([jac, ref[:, None, :]], axis=1)
        rhs = np.zeros((len(x), n))
        rhs[:, -1] = 1.0
        t = _lstsq(a, rhs)
        norm = np.linalg.norm(t, axis=-1, keepdims=True)
        if np.all(np.isfinite(t)) and np.all(norm > 0.0):
            return t / norm
    if jac.shape[-2] == 0:
        raise ValueError("no constraints")
    t = np.linalg.svd(jac)[2][..., -1, :]
    if ref is not None:
        t = np.where(((t * ref).sum(-1) < 0.0)[:, None], -t, t)
    return t


def _angles(system: LinkageSystem, coords: Sequence[AngleCoordinate], x: np.ndarray):
    p = system.positions(x)
    return np.stack([c.value(p) for c in coords], axis=-1)


class _Lanes:
    """The walking state of every lane (arrays over lanes) and the points each has made."""

    def __init__(self, system, coords, x0: np.ndarray, tau0: np.ndarray) -> None:
        self.x0, self.tau0 = x0, tau0
        self.x, self.tau = x0.copy(), tau0.copy()
        self.h = np.full(len(x0), 0.25 * MAX_STEP * system.scale)
        self.angles = _angles(system, coords, x0)
        self.points = [[row] for row in x0]
        self.closed = np.zeros(len(x0), bool)
        self.active = np.ones(len(x0), bool)
        self.steps = np.zeros(len(x0), np.int64)


def _attempt(system, coords, lanes: _Lanes, idx: np.ndarray):
    """One predictor-corrector try on lanes ``idx``: (accepted mask, new X, tangents, angles)."""
    x, tau, h = lanes.x[idx], lanes.tau[idx], lanes.h[idx]
    pred = x + h[:, None] * tau
    new, ok, jac = correct(system, pred, tau)
    ok &= np.linalg.norm(new - pred, axis=-1) <= DEVIATION * h
    t_new, a_new = np.zeros_like(tau), np.zeros((len(idx), len(coords)))
    good = np.flatnonzero(ok)
    if len(good):
        t_new[good] = null_vectors(system, new[good], tau[good], jac[good])
        a_new[good] = _angles(system, coords, new[good])
        turn = np.abs(np.angle(np.exp(1j * (a_new[good] - lanes.angles[idx[good]])))).max(-1)
        aligned = (t_new[good] * tau[good]).sum(-1) >= ALIGN
        ok[good] &= aligned & (turn <= MAX_TURN)
    return ok, new, t_new, a_new


def _advance(lanes: _Lanes, idx, new, t_new, a_new, max_step: float) -> None:
    """Accepted steps: close a lane back at its seed, else keep the point and go on."""
    x, h = lanes.x[idx], lanes.h[idx]
    seg = new - x
    rel = lanes.x0[idx] - x
    s = np.clip((rel * seg).sum(-1) / np.maximum((seg * seg).sum(-1), 1e-300), 0.0, 1.0)
    near = np.linalg.norm(x + s[:, None] * seg - lanes.x0[idx], axis=-1) < 0.25 * h
    count = np.array([len(lanes.points[i]) for i in idx])
    closing = (count > 3) & ((t_new * lanes.tau0[idx]).sum(-1) > 0.0) & near
    lanes.closed[idx[closing]] = True
    lanes.active[idx[closing]] = False
    go = ~closing
    for i, row in zip(idx[go].tolist(), new[go], strict=True):
        lanes.points[i].append(row)
    k = idx[go]
    lanes.x[k], lanes.tau[k], lanes.angles[k] = new[go], t_new[go], a_new[go]
    lanes.h[k] = np.minimum(1.5 * h[go], max_step)
    lanes.steps[k] += 1
    lanes.active[k[lanes.steps[k] >= MAX_STEPS]] = False


def walk_lanes(system, coords, x0: np.ndarray, tau0: np.ndarray) -> _Lanes:
    """Walk every lane from ``x0`` along ``tau0`` until back at its seed or stuck."""
    lanes = _Lanes(system, coords, x0, tau0)
    min_step, max_step = MIN_STEP * system.scale, MAX_STEP * system.scale
    while lanes.active.any():
        # a chart is traced in a worker thread while a widget's frames run: hand the
        # interpreter lock over at every step instead of holding it for its switch
        # interval (5 ms, a third of a frame) each time a frame wants it
        time.sleep(0)
        idx = np.flatnonzero(lanes.active)
        ok, new, t_new, a_new = _attempt(system, coords, lanes, idx)
        bad = idx[~ok]
        lanes.h[bad] *= 0.5
        lanes.active[bad[lanes.h[bad] < min_step]] = False
        if ok.any():
            _advance(lanes, idx[ok], new[ok], t_new[ok], a_new[ok], max_step)
    return lanes


def trace_lanes(
    system: LinkageSystem, coords: Sequence[AngleCoordinate], seeds: np.ndarray
) -> list[tuple[np.ndarray, bool]]:
    """The branch through each seed ``(B, 2f)``: ``[(X (k, 2f), closed)]``, all at once.

    A branch that does not close is traced both ways from its seed.
    """
    tau = null_vectors(system, seeds)
    forward = walk_lanes(system, coords, seeds, tau)
    out = [(np.array(p), bool(c)) for p, c in zip(forward.points, forward.closed, strict=True)]
    open_ = np.flatnonzero(~forward.closed)
    if len(open_):
        backward = walk_lanes(system, coords, seeds[open_], -tau[open_])
        for i, p in zip(open_.tolist(), backward.points, strict=True):
            out[i] = (np.concatenate([np.array(p)[::-1], out[i][0][1:]]), False)
    return out
