r"""Path synthesis's target (checked, normalised) and its global search (module doc of path).

A curve sampled at :math:`n` points is resampled at :math:`M` equal arc-length steps; the
complex Procrustes fit of a design's :math:`z_d` to the target's :math:`z_t` (both
centred) is :math:`w = \langle z_d, z_t\rangle / \|z_d\|^2` and leaves the fraction
:math:`1 - |\langle z_d, z_t\rangle|^2 / (\|z_d\|^2\|z_t\|^2)` unexplained. For closed
curves every cyclic shift :math:`j` at once: :math:`\sum_k \overline{z_d[k + j]}\,z_t[k]
= \tfrac1M \operatorname{FFT}(\overline{Z_d}\,Z_t)[j]`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from .. import _checks
from ._family import PathFamily

__all__ = ["PathSeed", "PathTarget", "global_search", "target_of"]

#: random designs the global search traces (an open target: fewer, each cut to many
#: arcs), and how many at a time
DESIGNS, OPEN_DESIGNS, CHUNK = 20000, 12500, 2500
#: of which the best are kept for the polish
KEEP = 200
#: crank angles per turn a design is traced at; arc-length samples compared
TURN_SAMPLES, CLOSED_SAMPLES, OPEN_SAMPLES = 96, 64, 24
#: open targets: a design's run (its whole turn, or its arc between dead points) at
#: RUN_SAMPLES equal arc-length steps, cut to windows of these many steps
RUN_SAMPLES = 96
WINDOW_STEP, WINDOW_LENGTHS = 12, (16, 32, 48, 64, 80, 95)
#: timed targets: offsets of the crank angle tried, on at most this many of the points
OFFSETS, TIMED_POINTS = 36, 12
#: designs whose shapes differ by less than this (relative) are one seed
NEAR = 0.02
#: points whose spread is within this many units of the last place of their coordinates
#: coincide (relative to the coordinates, so any scale and position is a curve); a closed
#: target this flat (its narrow spread over its wide one) is a line
ROUNDING, COLLINEAR = 1e3, 1e-9
#: crank angles (radians, relative to the largest) this near are one: a timing that still
STILL = 1e-9


@dataclass(frozen=True)
class PathTarget:
    """The target normalised: centred on its mean, divided by its RMS radius ``size``."""

    xy: np.ndarray
    centre: np.ndarray
    size: float
    closed: bool
    timing: np.ndarray | None
    fractions: np.ndarray
    kept: np.ndarray | None = None

    def thinned(self, most: int) -> PathTarget:
        """At most ``most`` of the points, evenly by index (first and last kept; ``kept``)."""
        n = len(self.xy)
        if n <= most:
            return self
        keep = np.unique(np.linspace(0, n - 1, most).round().astype(int))
        timing = None if self.timing is None else self.timing[keep]
        return replace(
            self, xy=self.xy[keep], timing=timing, fractions=self.fractions[keep], kept=keep
        )

    def resampled(self, count: int) -> np.ndarray:
        """The target at ``count`` equal arc-length steps, complex ``(count,)``."""
        z = (self.xy[:, 0] + 1j * self.xy[:, 1])[None]
        return _resample(z, self.closed, count)[0][0]


@dataclass(frozen=True)
class PathSeed:
    """A design with its similarity and crank angles: as the global search found it, or polished.

    ``q`` its shape, ``sigma`` its branch, ``w, t`` the similarity (complex, the target's
    normalised units), ``theta`` the crank angles at the target's points (a timed
    target's search: the offset alone), ``error`` the RMS error (normalised).
    """

    q: np.ndarray
    sigma: np.ndarray
    w: complex
    t: complex
    theta: np.ndarray
    error: float


def _closed_by_gap(xy: np.ndarray) -> bool:
    """Closed when the gap from the last point to the first is at most twice the median step."""
    steps = np.linalg.norm(np.diff(xy, axis=0), axis=1)
    return bool(np.linalg.norm(xy[-1] - xy[0]) <= 2.0 * np.median(steps))


def _arc_fractions(xy: np.ndarray, closed: bool) -> np.ndarray:
    """Each point's arc length from the first, as a part of the curve's length ``(n,)``."""
    ring = np.vstack([xy, xy[:1]]) if closed else xy
    cum = np.concatenate([[0.0], np.cumsum(np.linalg.norm(np.diff(ring, axis=0), axis=1))])
    return cum[: len(xy)] / cum[-1]


def target_of(points, closed, timing, family: PathFamily) -> PathTarget:
    """The checked, normalised target; ``ValueError`` saying what is wrong with it."""
    raw = np.asarray(points)
    if raw.dtype.kind == "c":  # float() would drop the imaginary part silently
        raise ValueError(
            "path_synthesis: points must be real (N, 2) coordinates, got complex numbers "
            "(for z = x + iy give np.column_stack([z.real, z.imag]))"
        )
    if raw.dtype.kind not in "biuf":
        raise ValueError(f"path_synthesis: points must be (N, 2) numbers, got dtype {raw.dtype}")
    xy = raw.astype(float)
    if closed is not None and not isinstance(closed, (bool, np.bool_)):
        raise ValueError(f"path_synthesis: closed must be True, False or None, got {closed!r}")
    if np.ndim(xy) != 2 or np.shape(xy)[1] != 2:
        raise ValueError(f"path_synthesis: points must have shape (N, 2), got {np.shape(xy)}")
    xy = _checks.finite_points(xy, "path_synthesis: target point")
    n = len(xy)
    unknowns = family.size + 4 + (n if timing is None else 1)
    if 2 * n < unknowns or n < 3:
        per = "N crank angles" if timing is None else "1 crank offset"
        raise ValueError(
            f"path_synthesis: {n} points are too few for a {family.name} "
            f"({2 * n} equations for {unknowns} unknowns: {family.size} shape, 4 similarity, "
            f"{per}); give at least {family.size + 4 if timing is None else (unknowns + 1) // 2}"
        )
    centre = xy.mean(axis=0)
    spread = np.linalg.svd(xy - centre, compute_uv=False)
    # the rounding of the coordinates themselves, not an absolute size: a curve of any
    # size, anywhere, is one while it spreads past its coordinates' last few digits
    noise = ROUNDING * np.finfo(float).eps * float(np.abs(xy).max()) * np.sqrt(n)
    if spread[0] <= noise:
        raise ValueError(f"path_synthesis: all {n} target points coincide: there is no curve")
    closed = _closed_by_gap(xy) if closed is None else bool(closed)
    if closed and spread[1] <= max(COLLINEAR * spread[0], noise):
        raise ValueError(
            "path_synthesis: the target points are collinear: a closed curve would be a "
            "segment run back and forth (an open straight line is accepted: closed=False)"
        )
    size = float(np.sqrt(np.mean(np.sum((xy - centre) ** 2, axis=1))))
    normal = (xy - centre) / size
    fractions = _arc_fractions(normal, closed)
    return PathTarget(normal, centre, size, closed, _timing(timing, n), fractions)


def _timing(timing, n: int) -> np.ndarray | None:
    if timing is None:
        return None
    tau = np.asarray(timing)
    if tau.dtype.kind not in "biuf":
        raise ValueError(f"path_synthesis: timing must be real crank angles, got dtype {tau.dtype}")
    tau = tau.astype(float)
    if tau.shape != (n,):
        raise ValueError(
            f"path_synthesis: timing must hold one crank angle per point, shape ({n},), "
            f"got {tau.shape}"
        )
    if not np.isfinite(tau).all():
        raise ValueError(f"path_synthesis: timing {int(np.argmin(np.isfinite(tau)))} is not finite")
    if np.ptp(tau) <= STILL * max(1.0, float(np.abs(tau).max())):
        raise ValueError(
            f"path_synthesis: the timing holds one crank angle ({tau[0]!r}) for all {n} "
            "points: the crank would not move, nor the coupler point along the curve"
        )
    return tau - tau[0]


def _resample(z: np.ndarray, closed: bool, count: int) -> tuple[np.ndarray, np.ndarray]:
    """Curves ``z`` ``(b, n)`` at ``count`` equal arc-length steps, and their fractions.

    Returns the resampled ``(b, count)`` and each sample's arc fraction ``(b, n + closed)``;
    rows with no length come out NaN.
    """
    ring = np.concatenate([z, z[:, :1]], axis=1) if closed else z
    b, n = ring.shape
    cum = np.concatenate([np.zeros((b, 1)), np.cumsum(np.abs(np.diff(ring, axis=1)), 1)], 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        frac = cum / cum[:, -1:]
    frac = np.where(np.isfinite(frac), frac, 0.0)
    want = np.arange(count) / count if closed else np.linspace(0.0, 1.0, count)
    # one search over all rows: row r's fractions shifted into [2r, 2r + 1]
    rows = 2.0 * np.arange(b)[:, None]
    at = np.searchsorted((frac + rows).ravel(), (want + rows).ravel(), side="right") - 1
    at = np.clip(at.reshape(b, count) - (n * np.arange(b))[:, None], 0, n - 2)
    lo = np.take_along_axis(frac, at, 1)
    hi = np.take_along_axis(frac, at + 1, 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        mix = np.clip(np.where(hi > lo, (want - lo) / (hi - lo), 0.0), 0.0, 1.0)
    out = (1 - mix) * np.take_along_axis(ring, at, 1) + mix * np.take_along_axis(ring, at + 1, 1)
    out[cum[:, -1] <= 0] = np.nan
    return out, frac


def _centred(z: np.ndarray) -> np.ndarray:
    return z - z.mean(axis=-1, keepdims=True)


def _grid() -> np.ndarray:
    return 2 * np.pi * np.arange(TURN_SAMPLES) / TURN_SAMPLES


def _complex(traced: np.ndarray) -> np.ndarray:
    return traced[..., 0] + 1j * traced[..., 1]


def _procrustes(zd: np.ndarray, zt: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Unexplained part and complex scale ``w`` of curves ``zd`` ``(..., M)`` fitted to ``zt``."""
    d, t = _centred(zd), _centred(zt)
    power = np.sum(np.abs(d) ** 2, axis=-1)
    inner = np.sum(np.conj(d) * t, axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        explained = np.abs(inner) ** 2 / (power * np.sum(np.abs(t) ** 2, axis=-1))
        return 1.0 - np.nan_to_num(explained, nan=-1.0), inner / power


def _closed_match(family, target, q, sigma) -> tuple[np.ndarray, ...]:
    """Each design's best cyclic shift and direction: error, w, where ``(shift, backward)``.

    Designs whose crank does not turn fully (a closed target needs a full turn) get NaN.
    """
    traced = family.trace(q, sigma, _grid())
    designs, _ = _resample(_complex(traced), True, CLOSED_SAMPLES)
    designs[~np.isfinite(traced).all(axis=(1, 2))] = np.nan
    zt = target.resampled(CLOSED_SAMPLES)
    m = zt.shape[0]
    zd = _centred(designs)
    power = np.sum(np.abs(zd) ** 2, axis=1)
    spectra = np.conj(np.fft.fft(zd, axis=1))
    both = np.stack([zt, zt[(-np.arange(m)) % m]])  # forward, reversed
    corr = np.fft.fft(spectra[:, None, :] * np.fft.fft(_centred(both))[None], axis=2) / m
    with np.errstate(invalid="ignore", divide="ignore"):
        explained = np.abs(corr) ** 2 / (power[:, None, None] * np.sum(np.abs(_centred(zt)) ** 2))
        flat = np.nan_to_num(explained, nan=-1.0).reshape(len(zd), -1)
        best = np.argmax(flat, axis=1)
        w = corr.reshape(len(zd), -1)[np.arange(len(zd)), best] / power
    backward, shift = np.divmod(best, m)
    error = np.where(np.isfinite(power), 1.0 - flat[np.arange(len(zd)), best], np.nan)
    return error, w, np.column_stack([shift, backward])


def _closed_seeds(family, target, q, sigma, error, w, where) -> list[PathSeed]:
    """Each kept design's crank angle at each target point, from the matched arc lengths."""
    traced = family.trace(q, sigma, _grid())
    curves, frac = _resample(_complex(traced), True, CLOSED_SAMPLES)
    shifts = target.resampled(CLOSED_SAMPLES).mean() - w * curves.mean(axis=1)
    ring = np.append(_grid(), 2 * np.pi)
    seeds = []
    for i in range(len(q)):
        step = where[i, 0] / CLOSED_SAMPLES
        at = (step - target.fractions if where[i, 1] else target.fractions + step) % 1.0
        theta = np.unwrap(np.interp(at, frac[i], ring))
        seeds.append(PathSeed(q[i], sigma[i], complex(w[i]), complex(shifts[i]), theta, error[i]))
    return seeds


def _runs(traced: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each design's run of the grid: points, crank angles ``(b, K)``, whether a whole turn.

    A design that does not assemble all round runs from its first assembling angle after
    a gap to the next gap (one branch, between two dead points), padded with its last
    point; its angles increase without wrapping.
    """
    k = TURN_SAMPLES
    ok = np.isfinite(traced).all(axis=2)
    whole = ok.all(axis=1)
    shift = np.where(whole, 0, np.argmin(ok, axis=1))
    rolled = np.take_along_axis(ok, (shift[:, None] + np.arange(k)) % k, axis=1)
    first = np.argmax(rolled, axis=1)
    end = np.argmin(rolled | (np.arange(k)[None] < first[:, None]), axis=1)
    end = np.where(rolled.all(axis=1), k, end)
    steps = shift[:, None] + np.minimum(first[:, None] + np.arange(k), end[:, None] - 1)
    z = np.take_along_axis(_complex(traced), steps % k, axis=1)
    return z, 2 * np.pi * steps / k, whole


def _run_curves(traced: np.ndarray) -> tuple[np.ndarray, ...]:
    """The runs at :data:`RUN_SAMPLES` equal arc-length steps ``(b, R)``, and more.

    Also each run point's arc fraction and crank angle ``(b, K + 1)`` (a whole turn's
    last closing the ring) and whether the run is a whole turn ``(b,)``.
    """
    z, angles, whole = _runs(traced)
    curves = np.full((len(z), RUN_SAMPLES), np.nan, dtype=complex)
    frac = np.zeros((len(z), TURN_SAMPLES + 1))
    for ring in (True, False):
        rows = whole == ring
        if rows.any():
            curves[rows], got = _resample(z[rows], ring, RUN_SAMPLES)
            frac[rows, : got.shape[1]] = got
    frac[~whole, -1] = 1.0
    angles = np.column_stack([angles, angles[:, -1] + np.where(whole, 2 * np.pi / TURN_SAMPLES, 0)])
    return curves, frac, angles, whole


def _window(curves: np.ndarray, whole: np.ndarray, starts: Any, length: int) -> np.ndarray:
    """Arcs of ``length`` run samples from each of ``starts``, ``(b, starts, M)``.

    At :data:`OPEN_SAMPLES` points; NaN where an open run is too short for the arc.
    """
    at = np.asarray(starts)[:, None] + length * np.linspace(0.0, 1.0, OPEN_SAMPLES)
    low = np.floor(at).astype(int)
    part = at - low
    out = (1 - part) * curves[:, low % RUN_SAMPLES] + part * curves[:, (low + 1) % RUN_SAMPLES]
    out[~whole[:, None] & (np.asarray(starts) + length > RUN_SAMPLES - 1)[None]] = np.nan
    return out


def _open_match(family, target, q, sigma) -> tuple[np.ndarray, ...]:
    """Each design's best arc of its run, and direction: error, w, where.

    ``where`` is ``(start, length, backward)`` in run samples (:func:`_run_curves`).
    """
    curves, _, _, whole = _run_curves(family.trace(q, sigma, _grid()))
    zt = target.resampled(OPEN_SAMPLES)
    both = np.stack([zt, zt[::-1]])
    starts = np.arange(0, RUN_SAMPLES, WINDOW_STEP)
    best = np.full(len(q), np.inf)
    w = np.zeros(len(q), dtype=complex)
    where = np.zeros((len(q), 3), dtype=int)
    rows = np.arange(len(q))
    for length in WINDOW_LENGTHS:
        arcs = _window(curves, whole, starts, length)  # (b, starts, M)
        error, scale = _procrustes(arcs[:, :, None, :], both[None, None])  # (b, starts, 2)
        error = np.where(np.isfinite(arcs).all(axis=2)[..., None], error, np.inf)
        error, scale = error.reshape(len(q), -1), scale.reshape(len(q), -1)
        pick = np.argmin(error, axis=1)
        better = np.flatnonzero(error[rows, pick] < best)
        best[better] = error[better, pick[better]]
        w[better] = scale[better, pick[better]]
        start, backward = np.divmod(pick[better], 2)
        where[better] = np.column_stack([starts[start], np.full(len(better), length), backward])
    return np.where(np.isfinite(best), best, np.nan), w, where


def _open_seeds(family, target, q, sigma, error, w, where) -> list[PathSeed]:
    """Each kept design's crank angles on its matched arc, from the arc lengths."""
    curves, frac, angles, whole = _run_curves(family.trace(q, sigma, _grid()))
    zt = target.resampled(OPEN_SAMPLES)
    seeds = []
    for i in range(len(q)):
        start, length, backward = where[i]
        arc = _window(curves[i : i + 1], whole[i : i + 1], [start], length)[0, 0]
        at = start + length * (1.0 - target.fractions if backward else target.fractions)
        at = at / RUN_SAMPLES % 1.0 if whole[i] else at / (RUN_SAMPLES - 1)
        theta = np.unwrap(np.interp(at, frac[i], angles[i]))
        t = zt.mean() - w[i] * arc.mean()
        seeds.append(PathSeed(q[i], sigma[i], complex(w[i]), complex(t), theta, error[i]))
    return seeds


def _timed_points(target: PathTarget) -> np.ndarray:
    """At most :data:`TIMED_POINTS` of the target's indices, evenly along it."""
    n = len(target.xy)
    return np.unique(np.linspace(0, n - 1, min(n, TIMED_POINTS)).round().astype(int))


def _timed_match(family, target, q, sigma) -> tuple[np.ndarray, ...]:
    """Each design's best crank offset, points matched one to one: error, w, where."""
    use = _timed_points(target)
    offsets = 2 * np.pi * np.arange(OFFSETS) / OFFSETS
    angles = (offsets[:, None] + target.timing[use][None]).ravel()
    z = _complex(family.trace(q, sigma, angles)).reshape(len(q), OFFSETS, len(use))
    zt = _complex(target.xy[use])
    error, scale = _procrustes(z, zt)
    error = np.where(np.isfinite(z).all(axis=2), error, np.inf)
    pick = np.argmin(error, axis=1)
    rows = np.arange(len(q))
    best = error[rows, pick]
    return np.where(np.isfinite(best), best, np.nan), scale[rows, pick], pick[:, None]


def _timed_seeds(family, target, q, sigma, error, w, where) -> list[PathSeed]:
    """Each kept design's crank offset and the shift of its fit."""
    use = _timed_points(target)  # the points the match saw (the others may not assemble)
    zt = _complex(target.xy[use])
    seeds = []
    for i in range(len(q)):
        offset = 2 * np.pi * where[i, 0] / OFFSETS
        angles = offset + target.timing[use]
        z = _complex(family.trace(q[i : i + 1], sigma[i : i + 1], angles))[0]
        t = zt.mean() - w[i] * z.mean()
        seeds.append(
            PathSeed(q[i], sigma[i], complex(w[i]), complex(t), np.array([offset]), error[i])
        )
    return seeds


def _spread(q: np.ndarray, sigma: np.ndarray, order: np.ndarray) -> np.ndarray:
    """``order`` less each design within :data:`NEAR` (relative) of a better one's shape."""
    kept: list[int] = []
    for i in order:
        if kept:
            gap = np.abs(q[kept] - q[i]) / (np.abs(q[kept]) + np.abs(q[i]) + 1.0)
            same = (gap.max(axis=1) < NEAR) & (sigma[kept] == sigma[i]).all(axis=1)
            if same.any():
                continue
        kept.append(int(i))
    return np.array(kept, dtype=int)


def global_search(
    family: PathFamily, target: PathTarget, rng: np.random.Generator
) -> list[PathSeed]:
    """The best :data:`KEEP` random designs, each with its similarity and crank angles."""
    if target.timing is not None:
        match, seeds_of = _timed_match, _timed_seeds
    elif target.closed:
        match, seeds_of = _closed_match, _closed_seeds
    else:
        match, seeds_of = _open_match, _open_seeds
    found = []
    for _ in range((OPEN_DESIGNS if match is _open_match else DESIGNS) // CHUNK):
        q, sigma = family.sample(rng, CHUNK)
        found.append((q, sigma, *match(family, target, q, sigma)))
    q, sigma, error, w, where = (np.concatenate(x) for x in zip(*found, strict=True))
    order = np.argsort(np.nan_to_num(error, nan=np.inf))
    best = _spread(q, sigma, order[np.isfinite(error[order])][: 4 * KEEP])[:KEEP]
    return seeds_of(family, target, *(a[best] for a in (q, sigma, error, w, where)))
