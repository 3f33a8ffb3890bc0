r"""The closed forms of :mod:`._dyadic` in one compiled loop per design (numba, when it imports).

:func:`._dyadic.solve` makes about eighty NumPy passes over the placements (designs ×
crank angles): the crank, each dyad's circle intersection, the arc of the branch, two
Cramer solves for the rates, the ``(b, k, n, 2)`` layout of the result. Each pass reads
and writes whole arrays, so a batch is bound by memory traffic, not arithmetic. Here one
loop per design does the same steps, in the same order, with the same formulas,
holding one design's grid of placements:

* every step placed at every grid angle, each dyad on its side ``mode`` (the circle
  intersection of :func:`~linkage_widget.configuration._dyads.circle_pair`, the slider
  root of :func:`._dyadic._pair`); the arc after each step is the run, through the start,
  of the grid points where every step so far assembles (:func:`._dyadic._on_arc`);
* a design with a dyad nearer straight than :data:`._dyadic.NEAR_STRAIGHT` on its arc is
  *not* solved here: it is flagged, and the caller sends it to :func:`._dyadic.solve`,
  which follows the sides grid point by grid point (Peaucellier's inversor passes
  through such a touching);
* at the samples, the velocities and accelerations per unit crank speed by the 2×2
  Cramer solves of :mod:`._dyadic`'s docstring, and whether the placement is regular
  (each relative determinant above ``RANK_RTOL``).

The result is written straight into the caller's ``(b, k, n, 2)`` arrays, NaN where
:func:`._batch.crank_batch` puts NaN. Equal to :func:`._dyadic.solve` to round-off
(tested on random designs of every bundled crank-and-dyads linkage).

numba is the optional ``fast`` extra; without it (or below :data:`COMPILED_MIN_PLACEMENTS`
placements, where numba's first load, ~0.7 s a process, costs more than it saves) the
NumPy path runs.
"""

from __future__ import annotations

import functools
import math
import sys

import numpy as np

from ..rigidity import RANK_RTOL
from ._dyadic import NEAR_STRAIGHT, Step

__all__ = ["COMPILED_MIN_PLACEMENTS", "compiled_ready", "solve_designs"]

#: From this many placements (designs × grid angles) a batch is solved compiled, when
#: numba imports: NumPy does ~3 M placements a second, numba's first load in a process
#: costs ~0.7 s. Once numba is imported in the process (by this module, the pebble game
#: or another library), from :data:`LOADED_MIN_PLACEMENTS`.
COMPILED_MIN_PLACEMENTS = 2_000_000
LOADED_MIN_PLACEMENTS = 20_000
#: Columns of the step table: :class:`._dyadic.Step`'s kind, joint, a, b, rod_a, rod_b.
_KIND, _JOINT, _A, _B, _ROD_A, _ROD_B = range(6)


def _place_design(d, table, coef, lengths, trig, start, slide, p, flags):
    """Place design ``d`` on the grid into ``p (n, 2, g)``; its arc into ``flags[1]``.

    ``coef (s, 2)``: each step's sign and side; ``trig (2, g)``: the grid's cosines and
    sines; ``slide (t, 6)``: each slider's direction, normal and foot. Returns False when
    a dyad nears straight on its arc (the design is to be walked).
    """
    ok, arc = flags[0], flags[1]
    g = trig.shape[1]
    arc[:] = True
    for k in range(table.shape[0]):
        kind, v, i, w = table[k, _KIND], table[k, _JOINT], table[k, _A], table[k, _B]
        la, lb = lengths[d, table[k, _ROD_A]], lengths[d, table[k, _ROD_B]]
        if kind == 0:  # the crank
            r = coef[k, 0] * la
            for j in range(g):
                p[v, 0, j] = p[i, 0, j] + r * trig[0, j]
                p[v, 1, j] = p[i, 1, j] + r * trig[1, j]
            continue
        for j in range(g):
            if kind == 1:  # RRR: circle_pair's intersection
                dx, dy = p[w, 0, j] - p[i, 0, j], p[w, 1, j] - p[i, 1, j]
                dd = dx * dx + dy * dy
                apart = dd > 1e-24 * (la + lb) ** 2
                if not apart:
                    dd = 1.0
                t = (dd + la * la - lb * lb) / (2.0 * dd)
                h2 = la * la / dd - t * t
                ok[j] = apart and h2 >= 0.0
                up = coef[k, 1] * math.sqrt(max(h2, 0.0))
                p[v, 0, j] = p[i, 0, j] + t * dx - up * dy
                p[v, 1, j] = p[i, 1, j] + t * dy + up * dx
            else:  # RRP: the root on the slider's line
                qx, qy = p[i, 0, j] - slide[w, 4], p[i, 1, j] - slide[w, 5]
                across = qx * slide[w, 2] + qy * slide[w, 3]
                w2 = la * la - across * across
                ok[j] = w2 >= 0.0
                s = qx * slide[w, 0] + qy * slide[w, 1] + coef[k, 1] * math.sqrt(max(w2, 0.0))
                p[v, 0, j] = slide[w, 4] + s * slide[w, 0]
                p[v, 1, j] = slide[w, 5] + s * slide[w, 1]
        _run_through(arc, ok, start)
        for j in range(g):
            if arc[j] and _sine(kind, p, v, i, w, j, la, lb, slide) < NEAR_STRAIGHT:
                return False
    return True


def _sine(kind, p, v, i, w, j, la, lb, slide):
    """The dyad's :func:`._dyadic._straightness` at grid point ``j``."""
    ex, ey = p[v, 0, j] - p[i, 0, j], p[v, 1, j] - p[i, 1, j]
    if kind == 2:
        return abs(ex * slide[w, 0] + ey * slide[w, 1]) / la
    fx, fy = p[v, 0, j] - p[w, 0, j], p[v, 1, j] - p[w, 1, j]
    return abs(ex * fy - ey * fx) / (la * lb)


def _run_through(arc, ok, start):
    """``arc &= ok``, then only its cyclic run through ``start`` (:func:`._dyadic._on_arc`)."""
    g = arc.shape[0]
    for j in range(g):
        arc[j] = arc[j] and ok[j]
    if not arc[start]:
        arc[:] = False
        return
    gap = -1  # the first gap after the start
    for m in range(1, g):
        if not arc[(start + m) % g]:
            gap = m
            break
    if gap < 0:
        return
    last = gap  # past the last gap, the run that ends at the start
    for m in range(gap, g):
        if not arc[(start + m) % g]:
            last = m
    for m in range(gap, last + 1):
        arc[(start + m) % g] = False


def _rates_at(d, j, table, coef, lengths, trig, slide, p, va):
    """Velocities ``va[0]`` and accelerations ``va[1]`` ``(n, 2)`` at grid point ``j``.

    Returns whether the placement is regular (every relative determinant above
    ``RANK_RTOL``).
    """
    v, a = va[0], va[1]
    regular = True
    for k in range(table.shape[0]):
        kind, t, i, w = table[k, _KIND], table[k, _JOINT], table[k, _A], table[k, _B]
        la = lengths[d, table[k, _ROD_A]]
        if kind == 0:
            r = coef[k, 0] * la
            v[t, 0], v[t, 1] = v[i, 0] - r * trig[1, j], v[i, 1] + r * trig[0, j]
            a[t, 0], a[t, 1] = a[i, 0] - r * trig[0, j], a[i, 1] - r * trig[1, j]
            continue
        ex, ey = p[t, 0, j] - p[i, 0, j], p[t, 1, j] - p[i, 1, j]
        if kind == 2:
            ux, uy = slide[w, 0], slide[w, 1]
            det = ex * ux + ey * uy
            rate = (ex * v[i, 0] + ey * v[i, 1]) / det
            v[t, 0], v[t, 1] = rate * ux, rate * uy
            rx, ry = v[t, 0] - v[i, 0], v[t, 1] - v[i, 1]
            acc = (ex * a[i, 0] + ey * a[i, 1] - rx * rx - ry * ry) / det
            a[t, 0], a[t, 1] = acc * ux, acc * uy
            rel = det / la
        else:  # the two Cramer solves of _dyadic._rates
            fx, fy = p[t, 0, j] - p[w, 0, j], p[t, 1, j] - p[w, 1, j]
            det = ex * fy - ey * fx
            ga = ex * v[i, 0] + ey * v[i, 1]
            gb = fx * v[w, 0] + fy * v[w, 1]
            v[t, 0], v[t, 1] = (ga * fy - gb * ey) / det, (ex * gb - fx * ga) / det
            rax, ray = v[t, 0] - v[i, 0], v[t, 1] - v[i, 1]
            rbx, rby = v[t, 0] - v[w, 0], v[t, 1] - v[w, 1]
            ha = ex * a[i, 0] + ey * a[i, 1] - rax * rax - ray * ray
            hb = fx * a[w, 0] + fy * a[w, 1] - rbx * rbx - rby * rby
            a[t, 0], a[t, 1] = (ha * fy - hb * ey) / det, (ex * hb - fx * ha) / det
            rel = det / (la * lengths[d, table[k, _ROD_B]])
        if not abs(rel) > RANK_RTOL:
            regular = False
    return regular


def _solve_all(table, coef, base, trig, where, lengths, fits, slide, out):
    """Every design into ``out (3, b, k, n, 2)``; returns valid ``(b, k)`` and walk ``(b,)``.

    ``where (1 + k,)``: the start's grid index, then the samples'. A design flagged in
    ``walk`` (a dyad nears straight on its arc) is left unfilled.
    """
    n, g = base.shape[0], trig.shape[1]
    b, k = lengths.shape[0], where.shape[0] - 1
    p = np.empty((n, 2, g))
    flags = np.empty((2, g), np.bool_)
    va = np.zeros((2, n, 2))
    valid, walk = np.zeros((b, k), np.bool_), np.zeros(b, np.bool_)
    for d in range(b):
        for q in range(n):
            p[q, 0, :], p[q, 1, :] = base[q, 0], base[q, 1]
        if not _place_design(d, table, coef, lengths, trig, where[0], slide, p, flags):
            walk[d] = True
            continue
        for s in range(k):
            j = where[1 + s]
            reached = flags[1, j] and fits[d]
            good = _rates_at(d, j, table, coef, lengths, trig, slide, p, va) and reached
            valid[d, s] = good
            for q in range(n):
                for c in range(2):
                    out[0, d, s, q, c] = p[q, c, j] if reached else np.nan
                    out[1, d, s, q, c] = va[0, q, c] if good else np.nan
                    out[2, d, s, q, c] = va[1, q, c] if good else np.nan
    return valid, walk


_KERNELS = ("_place_design", "_sine", "_run_through", "_rates_at", "_solve_all")


@functools.cache
def _compile() -> bool:
    """Replace each kernel by its numba dispatcher; False without a working numba."""
    try:
        import numba
    except ImportError:
        return False
    python = {name: globals()[name] for name in _KERNELS}
    for name in _KERNELS:
        globals()[name] = numba.njit(cache=True, nogil=True, error_model="numpy")(python[name])
    try:  # a numba that imports but cannot compile leaves the NumPy path in charge
        crank = (Step(0, 1, 0, -1, 0, -1),)
        solve_designs(crank, np.ones(1), np.zeros((2, 2)), np.zeros(2), np.array([0, 1]),
                      np.ones((1, 1)), np.ones(1, bool), None)  # fmt: skip
    except Exception:
        globals().update(python)
        return False
    return True


def compiled_ready(placements: int) -> bool:
    """Whether a batch of ``placements`` (designs × grid angles) is solved compiled."""
    if placements < LOADED_MIN_PLACEMENTS:
        return False
    if _compile.cache_info().currsize or "numba" in sys.modules:  # numba's import is paid
        return _compile()
    return placements >= COMPILED_MIN_PLACEMENTS and _compile()


def solve_designs(
    steps: tuple[Step, ...],
    modes: np.ndarray,
    base: np.ndarray,
    grid: np.ndarray,
    where: np.ndarray,
    lengths: np.ndarray,
    fits: np.ndarray,
    guides,
) -> tuple[np.ndarray, ...]:
    r"""Positions, velocities, accelerations ``(b, k, n, 2)``, valid ``(b, k)``, walk ``(b,)``.

    As :func:`._dyadic.solve` on the grid ``(g,)`` with ``where`` ``(1 + k,)`` the grid
    indices of the start and the samples, ``fits (b,)`` the designs whose rods between
    pins fit (:func:`._batch.ground_fits`), ``guides`` the slider rows (None: no
    slider). Designs flagged in ``walk`` are not filled: solve them with
    :func:`._dyadic.solve`.
    """
    table = np.array([[s.kind, s.joint, s.a, s.b, s.rod_a, max(s.rod_b, 0)] for s in steps],
                     np.int64)  # fmt: skip
    coef = np.column_stack([[s.sign for s in steps], np.asarray(modes, float)])
    if guides is None or not len(guides.normals):
        slide = np.zeros((0, 6))
    else:
        normal = np.asarray(guides.normals, float).reshape(-1, 2)
        foot = guides.points + np.asarray(guides.offsets, float)[:, None] * normal
        slide = np.column_stack([normal[:, 1], -normal[:, 0], normal, foot])
    b, k, n = len(lengths), len(where) - 1, len(base)
    out = np.empty((3, b, k, n, 2))
    valid, walk = _solve_all(table, coef, np.array(base, float),
                             np.stack([np.cos(grid), np.sin(grid)]), np.asarray(where, np.int64),
                             np.ascontiguousarray(lengths, float), np.asarray(fits, bool), slide,
                             out)  # fmt: skip
    return out[0], out[1], out[2], valid, walk
