"""Seeding, pseudo-arclength continuation and singular placements for :mod:`.curves`.

Lengths are in the linkage's length scale (median rod). See :mod:`.curves` for the method.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ._continuation import DEVIATION, correct, trace_lanes
from ._dyad_seeds import dyad_seeds
from ._system import LinkageSystem
from .angles import AngleCoordinate

__all__ = ["TraceSettings", "trace_all"]

#: A seed within this many length scales of a traced branch lies on it.
COVER = 2e-3
#: A local minimum of the rank measure below this fraction of its median is refined.
DIP = 0.3
#: Rank measure below which a refined placement is singular (see curves.SINGULAR_TOL).
SINGULAR = 1e-6
#: Two singular placements closer than this (length scales) are the same.
SAME = 1e-5
#: Branches traced at once (:mod:`._continuation`), from seeds spread out.
LANES = 64


@dataclass(frozen=True)
class TraceSettings:
    """Seeding effort: ``samples`` held values per coordinate, ``guesses`` random starts each."""

    samples: int = 36
    guesses: int = 24
    seed: int = 0


def _seeds(system: LinkageSystem, coords: Sequence[AngleCoordinate], s: TraceSettings):
    """Distinct placements to trace from, the current one first.

    A crank with dyads gets one on every assembly-mode arc (:func:`._dyad_seeds.dyad_seeds`);
    any other linkage those of damped Gauss-Newton with one coordinate held at sampled
    values, from the current placement and random ones.
    """
    x_now = system.unknowns(system.linkage.vertices)
    found = [x_now[None]]
    arcs = dyad_seeds(system, lambda x: _rank_measure(system, x) > SINGULAR)
    if arcs is not None:
        found.append(arcs)
    else:
        rng = np.random.default_rng(s.seed)
        values = np.linspace(-np.pi, np.pi, s.samples, endpoint=False)
        for c in coords:
            starts = np.concatenate([x_now[None], system.random_guesses(s.guesses, rng)])
            x0 = np.repeat(starts, len(values), axis=0)
            target = np.tile(values, len(starts))[:, None]
            x, ok = system.solve(x0, [c], target)
            found.append(x[ok])
    seeds = np.concatenate(found)
    seeds = seeds[system.solved(seeds)]
    # a seed with two or more flexes lies on a crossing or on a component of higher
    # dimension (Peaucellier's two arms folded onto each other): not a start for a curve
    seeds = seeds[_rank_measure(system, seeds) > SINGULAR]
    key = np.round(seeds / (1e-6 * system.scale))
    _, first = np.unique(key, axis=0, return_index=True)
    return seeds[np.sort(first)]


def _correct(system: LinkageSystem, pred: np.ndarray, tau: np.ndarray) -> np.ndarray | None:
    """Gauss-Newton onto ``F = 0`` within the hyperplane through ``pred`` normal to ``tau``."""
    x, ok, _ = correct(system, pred[None], tau[None])
    return x[0] if ok[0] else None


def _distance_to_polyline(points: np.ndarray, line: np.ndarray, closed: bool) -> np.ndarray:
    """Distance of each of ``points (s, d)`` to the polyline ``line (k, d)``."""
    a = line if not closed else np.vstack([line, line[:1]])
    if len(a) == 1:
        return np.linalg.norm(points - a[0], axis=1)
    seg = a[1:] - a[:-1]
    rel = points[:, None, :] - a[None, :-1, :]
    s = np.clip((rel * seg).sum(-1) / np.maximum((seg * seg).sum(-1), 1e-300), 0.0, 1.0)
    return np.linalg.norm(rel - s[..., None] * seg, axis=-1).min(axis=1)


def _rank_measure(system: LinkageSystem, xs: np.ndarray) -> np.ndarray:
    """sigma_{2f-1}(J) / sigma_1(J) at each row of ``xs`` (0 where two flexes exist)."""
    sv = np.linalg.svd(system.jacobian(xs), compute_uv=False)
    pad = max(system.size - sv.shape[-1], 0)  # fewer rows than unknowns: zeros at the end
    sv = np.concatenate([sv, np.zeros(sv.shape[:-1] + (pad,))], axis=-1)
    return sv[..., system.size - 2] / sv[..., 0]


def _refine(system: LinkageSystem, xa: np.ndarray, xb: np.ndarray):
    """The placement of least rank measure on the curve between ``xa`` and ``xb``."""
    chord = xb - xa
    tau = chord / np.linalg.norm(chord)

    def at(s: float):
        y = _correct(system, xa + s * chord, tau)
        return (np.inf, None) if y is None else (_rank_measure(system, y[None])[0], y)

    lo, hi, g = 0.0, 1.0, (np.sqrt(5.0) - 1.0) / 2.0
    c, d = hi - g * (hi - lo), lo + g * (hi - lo)
    fc, fd = at(c)[0], at(d)[0]
    for _ in range(60):
        if fc < fd:
            hi, d, fd = d, c, fc
            c = hi - g * (hi - lo)
            fc = at(c)[0]
        else:
            lo, c, fc = c, d, fd
            d = lo + g * (hi - lo)
            fd = at(d)[0]
    s = 0.5 * (lo + hi)
    value, y = at(s)
    return s, value, y


def _polish(system: LinkageSystem, y: np.ndarray) -> np.ndarray | None:
    r"""Newton on the singular-placement system from a nearby placement ``y``.

    Unknowns :math:`(X, v)`: :math:`F(X) = 0`, :math:`J(X)v = 0`, :math:`|v|^2 = 1`,
    :math:`v \cdot e = 0` with :math:`e` the tangent at ``y``: :math:`v` is the second
    infinitesimal flex, which exists exactly at a rank drop. Square for a generic 1-DOF
    linkage (:math:`c = 2f - 1`), consistent least squares otherwise; the derivative of
    :math:`J(X)v` is a central difference (exact for the quadratic rod rows). A crossing
    is not transversal (rank drops are not generic), so this system is singular there
    and Newton converges linearly, halving the error per step, to about the square root
    of round-off (1e-8 length scales): a singular placement is that well determined.
    """
    n, eps = system.size, 1e-6 * system.scale
    jac = system.jacobian(y[None])[0]
    vt = np.linalg.svd(np.vstack([jac, np.zeros((max(n - len(jac), 0), n))]))[2]
    e, v, x = vt[-1], vt[-2], y.copy()
    for _ in range(60):
        f, jac = system.residual_and_jacobian(x[None])
        res = np.r_[f[0], jac[0] @ v, v @ v - 1.0, v @ e]
        if np.abs(res).max() <= 1e-15 * system.scale:
            break
        shifted = system.jacobian(x[None] + eps * np.eye(n))
        back = system.jacobian(x[None] - eps * np.eye(n))
        hv = ((shifted - back) @ v).T / (2 * eps)  # (c, n): d(J v)/dX
        zeros = np.zeros_like(jac[0])
        a = np.block([[jac[0], zeros], [hv, jac[0]], [np.zeros((2, n)), np.vstack([2 * v, e])]])
        delta = np.linalg.lstsq(a, -res, rcond=None)[0]
        x, v = x + delta[:n], v + delta[n:]
        if np.abs(delta).max() <= 1e-14 * system.scale:
            break
    return x if system.solved(x[None])[0] else None


def _singular_on(system, xs: np.ndarray, closed: bool):
    """Refined singular placements along one branch: list of (insert_after, x)."""
    k = len(xs)
    if k < 3:
        return []
    mu = _rank_measure(system, xs)
    prev, nxt = np.roll(mu, 1), np.roll(mu, -1)
    d_prev = np.linalg.norm(xs - np.roll(xs, 1, axis=0), axis=1)
    d_next = np.roll(d_prev, -1)
    # at a crossing the measure falls linearly to zero (a V): the steeper side's line
    # reaches zero within a step; a smooth minimum (a parabola) stays well above that
    slope = np.maximum((prev - mu) / d_prev, (nxt - mu) / d_next)
    v_shaped = mu <= 1.5 * slope * np.maximum(d_prev, d_next)
    idx = np.flatnonzero((mu <= prev) & (mu <= nxt) & (mu < DIP * np.median(mu)) & v_shaped)
    out = []
    for i in idx.tolist():
        if not closed and i in (0, k - 1):
            continue
        a, b = xs[(i - 1) % k], xs[(i + 1) % k]
        s, _, y = _refine(system, a, b)
        y = _polish(system, xs[i] if y is None else y)
        if y is None or _rank_measure(system, y[None])[0] > SINGULAR:
            continue
        chord = b - a
        s_mid = (xs[i] - a) @ chord / (chord @ chord)
        out.append(((i - 1) % k if s < s_mid else i, y))
    return out


def _insert(xs: np.ndarray, found: list) -> tuple[np.ndarray, list[int]]:
    """``xs`` with each singular placement inserted after its index; their new indices."""
    order = sorted(range(len(found)), key=lambda j: found[j][0])
    rows, where, shift = list(xs), [0] * len(found), 0
    for j in order:
        after, y = found[j]
        rows.insert(after + 1 + shift, y)
        where[j] = after + 1 + shift
        shift += 1
    return np.array(rows), where


def _uncovered(system, seeds: np.ndarray, branches) -> np.ndarray:
    """The seeds farther than :data:`COVER` from every branch in ``branches``."""
    for xs, closed in branches:
        if len(seeds):
            seeds = seeds[_distance_to_polyline(seeds, xs, closed) > COVER * system.scale]
    return seeds


def _spread(seeds: np.ndarray, count: int) -> np.ndarray:
    """Indices of up to ``count`` seeds: the first, then each the farthest from those taken."""
    taken, gap = [0], np.linalg.norm(seeds - seeds[0], axis=1)
    while len(taken) < min(count, len(seeds)) and gap.max() > 0.0:
        j = int(np.argmax(gap))
        taken.append(j)
        gap = np.minimum(gap, np.linalg.norm(seeds - seeds[j], axis=1))
    return np.array(taken)


def _branches_from(system, coords, seeds, branches) -> None:
    """Trace a branch from each seed not on a branch traced already (appends).

    Up to :data:`LANES` seeds, spread out, are traced at once; of those that found the
    same branch the first is kept (the first seed, the linkage's placement, first of all).
    """
    seeds = _uncovered(system, seeds, branches)
    while len(seeds):
        take = _spread(seeds, LANES)
        new: list[tuple[np.ndarray, bool]] = []
        for seed, traced in zip(seeds[take], trace_lanes(system, coords, seeds[take]), strict=True):
            if len(_uncovered(system, seed[None], new)):
                new.append(traced)
        branches.extend(new)
        seeds = _uncovered(system, np.delete(seeds, take, axis=0), new)


def _record_singular(system, branches, first: int, singular: list) -> None:
    """Find, insert and record the singular placements of branches ``first`` onwards."""
    for b in range(first, len(branches)):
        xs, closed = branches[b]
        found = _singular_on(system, xs, closed)
        xs, where = _insert(xs, found)
        branches[b] = (xs, closed)
        for (_, y), i in zip(found, where, strict=True):
            for x_known, places in singular:
                if np.linalg.norm(x_known - y) < SAME * system.scale:
                    places.append((b, i))
                    xs[i] = x_known  # one placement, the same on every branch through it
                    break
            else:
                singular.append((y, [(b, i)]))


def _crossing_seeds(system, branches, singular: list) -> np.ndarray:
    """Starts on the other branch through each singular placement met by one branch only.

    At a simple crossing the flexes span two lines; the one not along the known branch
    leads onto the other branch: a short step along it, corrected, is a seed there.
    """
    out, h, n = [], 0.05 * system.scale, system.size
    for y, places in singular:
        if len(places) != 1:
            continue
        b, i = places[0]
        xs = branches[b][0]
        tangent = xs[min(i + 1, len(xs) - 1)] - xs[max(i - 1, 0)]
        jac = system.jacobian(y[None])[0]
        flexes = np.linalg.svd(np.vstack([jac, np.zeros((max(n - len(jac), 0), n))]))[2][-2:]
        c = flexes @ tangent
        if np.linalg.norm(c) == 0.0:
            continue
        other = flexes.T @ (np.array([-c[1], c[0]]) / np.linalg.norm(c))
        for sign in (1.0, -1.0):
            z = _correct(system, y + sign * h * other, other)
            if z is not None and np.linalg.norm(z - y - sign * h * other) <= DEVIATION * h:
                out.append(z)
    out = np.array(out).reshape(-1, n)
    # on a component of higher dimension every placement has two flexes: no curve there
    return out[_rank_measure(system, out) > SINGULAR] if len(out) else out


def trace_all(system: LinkageSystem, coords, settings: TraceSettings):
    """All branches ``[(X (k, 2f), closed)]`` and singular placements ``[(x, [(b, i)])]``.

    Seeds from :func:`_seeds`, then, until nothing new turns up, seeds on the other
    branch through every singular placement that only one traced branch passes.
    """
    seeds = _seeds(system, coords, settings)
    branches: list[tuple[np.ndarray, bool]] = []
    singular: list[tuple[np.ndarray, list[tuple[int, int]]]] = []
    for _ in range(8):  # rounds of crossing seeds; each finds the branches met so far
        first = len(branches)
        _branches_from(system, coords, seeds, branches)
        if len(branches) == first:
            break
        _record_singular(system, branches, first, singular)
        seeds = _crossing_seeds(system, branches, singular)
    return branches, singular
