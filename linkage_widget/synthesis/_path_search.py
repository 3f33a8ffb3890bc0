r"""Path synthesis's target (checked, normalised) and its global search (module doc of path).

A curve sampled at :math:`n` points is resampled at :math:`M` equal arc-length steps; the
complex Procrustes fit of a design's :math:`z_d` to the target's :math:`z_t` (both
centred) is :math:`w = \langle z_d, z_t\rangle / \|z_d\|^2` and leaves the fraction
:math:`1 - |\langle z_d, z_t\rangle|^2 / (\|z_d\|^2\|z_t\|^2)` unexplained. For closed
curves every cyclic shift :math:`j` at once: :math:`\sum_k \overline{z_d[k + j]}\,z_t[k]
= \tfrac1M \operatorname{FFT}(\overline{Z_d}\,Z_t)[j]`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import _checks
from ._family import PathFamily

__all__ = ["PathSeed", "PathTarget", "global_search", "target_of"]

#: random designs the global search traces, and how many at a time
DESIGNS, CHUNK = 20000, 2500
#: of which the best are kept for the polish
KEEP = 200
#: crank angles per turn a design is traced at; arc-length samples compared
TURN_SAMPLES, CLOSED_SAMPLES, OPEN_SAMPLES = 96, 64, 32
#: open targets: windows of crank angle (in samples of the turn) a design's arc is cut to
WINDOW_STEP, WINDOW_LENGTHS = 8, (16, 32, 48, 64, 80)
#: timed targets: offsets of the crank angle tried
OFFSETS = 48
#: designs whose shapes differ by less than this (relative) are one seed
NEAR = 0.02
#: points within this part of the target's size are one point; this flatness is a line
COINCIDENT, COLLINEAR = 1e-9, 1e-9


@dataclass(frozen=True)
class PathTarget:
    """The target normalised: centred on its mean, divided by its RMS radius ``size``."""

    xy: np.ndarray
    centre: np.ndarray
    size: float
    closed: bool
    timing: np.ndarray | None
    fractions: np.ndarray

    def resampled(self, count: int) -> np.ndarray:
        """The target at ``count`` equal arc-length steps, complex ``(count,)``."""
        z = (self.xy[:, 0] + 1j * self.xy[:, 1])[None]
        return _resample(z, self.closed, count)[0][0]


@dataclass(frozen=True)
class PathSeed:
    """A design the global search found, with its similarity and crank angles."""

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
    xy = np.asarray(points, dtype=float) if not isinstance(points, np.ndarray) else points
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
    scale = max(float(np.abs(xy).max()), 1.0)
    if spread[0] <= COINCIDENT * scale:
        raise ValueError(f"path_synthesis: all {n} target points coincide: there is no curve")
    closed = _closed_by_gap(xy) if closed is None else bool(closed)
    if closed and spread[1] <= COLLINEAR * spread[0]:
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
    tau = np.asarray(timing, dtype=float)
    if tau.shape != (n,):
        raise ValueError(
            f"path_synthesis: timing must hold one crank angle per point, shape ({n},), "
            f"got {tau.shape}"
        )
    if not np.isfinite(tau).all():
        raise ValueError(f"path_synthesis: timing {int(np.argmin(np.isfinite(tau)))} is not finite")
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


def _closed_match(designs: np.ndarray, zt: np.ndarray) -> tuple[np.ndarray, ...]:
    """Best cyclic shift and direction of each design ``(b, M)``: error, shift, reversed, w."""
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
    backward, shift = np.divmod(best, m)
    w = corr.reshape(len(zd), -1)[np.arange(len(zd)), best] / power
    return 1.0 - flat[np.arange(len(zd)), best], shift, backward.astype(bool), w


def _closed_seeds(family, target, q, sigma, w, shift, backward, error) -> list[PathSeed]:
    """Each kept design's crank angle at each target point, from the matched arc lengths."""
    grid = 2 * np.pi * np.arange(TURN_SAMPLES) / TURN_SAMPLES
    traced = family.trace(q, sigma, grid)
    z = traced[..., 0] + 1j * traced[..., 1]
    curves, frac = _resample(z, True, CLOSED_SAMPLES)
    shifts = target.resampled(CLOSED_SAMPLES).mean() - w * curves.mean(axis=1)
    ring = np.append(grid, 2 * np.pi)
    seeds = []
    for i in range(len(q)):
        step = shift[i] / CLOSED_SAMPLES
        at = (step - target.fractions if backward[i] else target.fractions + step) % 1.0
        theta = np.unwrap(np.interp(at, frac[i], ring))
        seeds.append(PathSeed(q[i], sigma[i], complex(w[i]), complex(shifts[i]), theta, error[i]))
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
    zt = target.resampled(CLOSED_SAMPLES)
    grid = 2 * np.pi * np.arange(TURN_SAMPLES) / TURN_SAMPLES
    found = []
    for _ in range(DESIGNS // CHUNK):
        q, sigma = family.sample(rng, CHUNK)
        traced = family.trace(q, sigma, grid)
        whole = np.isfinite(traced).all(axis=(1, 2))
        q, sigma, traced = q[whole], sigma[whole], traced[whole]
        curves, _ = _resample(traced[..., 0] + 1j * traced[..., 1], True, CLOSED_SAMPLES)
        error, shift, backward, w = _closed_match(curves, zt)
        found.append((q, sigma, w, shift, backward, error))
    q, sigma, w, shift, backward, error = (np.concatenate(x) for x in zip(*found, strict=True))
    order = np.argsort(np.nan_to_num(error, nan=np.inf))
    best = _spread(q, sigma, order[np.isfinite(error[order])][: 4 * KEEP])[:KEEP]
    picked = (a[best] for a in (q, sigma, w, shift, backward, error))
    return _closed_seeds(family, target, *picked)
