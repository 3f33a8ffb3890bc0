r"""Generic rigidity in any dimension: the rank of the rigidity matrix at random placements.

In the plane Laman's theorem makes generic rigidity a property of the graph, which
the pebble game (:mod:`linkage_widget.rigidity.pebble`) decides exactly. In space no such
count is known (the double banana satisfies every count and flexes), so the generic
rank is computed the way it is defined: as the rank of the rigidity matrix at a
generic placement, approximated by random ones.

The matrix. The rows are those of the classical rigidity matrix: a rod
:math:`(i, j)` has :math:`p_i - p_j` in the columns of ``i`` and :math:`p_j - p_i`
in those of ``j``; a pin has ``d`` unit rows; a fixed angle at ``i`` between the arms
:math:`a = p_j - p_i`, :math:`b = p_k - p_i` (rods or not) has the gradient of
:math:`\cos\theta = a \cdot b / (|a||b|)` times :math:`|a|^3|b|^3` (a row scaled by a
nonzero number keeps the rank), a polynomial row:

.. math:: \nabla_{p_j} = |b|^2 (|a|^2 b - (a \cdot b)\, a), \quad
          \nabla_{p_k} = |a|^2 (|b|^2 a - (a \cdot b)\, b), \quad
          \nabla_{p_i} = -\nabla_{p_j} - \nabla_{p_k}.

(With both arms held by rods, the angle row spans what a rod ``j-k`` would, the law of
cosines; without them it is one constraint on three joints, which no pebble game
counts.) A slider on joint ``j`` has its normal :math:`n` in the columns of ``j``,
drawn at random like the coordinates (the generic count takes the directions generic);
a slot :math:`(a, b, c)` (joint ``c`` on the line of ``a`` and ``b``) is the gradient of
:math:`e \times w`, :math:`e = p_b - p_a`, :math:`w = p_c - p_a`, linear in the
coordinates like a rod's:

.. math:: \nabla_{p_c} = (-e_y, e_x), \quad \nabla_{p_b} = (w_y, -w_x), \quad
          \nabla_{p_a} = -\nabla_{p_b} - \nabla_{p_c}.

Exact arithmetic, one-sided error. Every entry is an integer polynomial in the
coordinates, of degree 1 in a rod row and 5 in an angle row, so an :math:`r \times r`
minor is a polynomial of degree at most :math:`D = r + 4 k` (``k`` angle rows). The
coordinates are drawn uniformly from :math:`\mathbb{F}_P` with
:math:`P` = :data:`PRIME` and the rank is computed exactly modulo :math:`P`. It never
exceeds the generic rank (a minor that vanishes identically vanishes at every point,
modulo :math:`P` too); it falls short only if the random point is a root of a nonzero
minor of size ``r`` (the generic rank), which by the Schwartz–Zippel lemma happens
with probability at most :math:`D/P` per trial (over :math:`\mathbb{F}_P`, for the
minor reduced modulo :math:`P`; its integer coefficients would all have to be
multiples of :math:`P` for the reduction to vanish). The largest rank over
:data:`TRIALS` independent trials is kept, wrong with probability at most
:math:`(D/P)^{\text{TRIALS}}`: below :math:`10^{-9}` for :math:`D \le 1000`. A rank that
reaches a known upper bound (``upper``: the number of rows, or :math:`dn` minus the
trivial motions) is the generic rank with certainty, and ends the trials.

Which rows are redundant: rows are reduced in their order (pins, sliders, rods, angles,
slots), a
row is redundant when it lies in the span of those before it, as the pebble game
reports it.

>>> octahedron_edges = [(0, 2), (0, 3), (0, 4), (0, 5), (1, 2), (1, 3), (1, 4), (1, 5),
...                     (2, 4), (2, 5), (3, 4), (3, 5)]
>>> rank, accepted = random_generic_rank(6, octahedron_edges, dim=3)
>>> rank, 3 * 6 - rank        # 18 - 12 = 6 trivial: generically rigid (Cauchy, Gluck)
(12, 6)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from .slot_placement import place_on_slots, slot_order

__all__ = ["MAX_COLUMNS", "PRIME", "TRIALS", "error_bound", "random_generic_rank"]

#: The prime modulus, the largest below :math:`2^{25}`: products of two residues stay
#: below :math:`2^{50}`, so that the few-term sums of the elimination fit in int64.
PRIME = 33_554_393
#: Independent random placements; the largest rank is kept.
TRIALS = 2
#: The exact route is used up to this many coordinates ``d n`` (150 joints in space): the
#: reduced basis is a dense ``(r, dn)`` int64 array and its updates cost up to
#: :math:`O(r^2 dn)` — 0.5 s a trial for 100 joints and 470 rods, 3 s for 216 and 1115.
MAX_COLUMNS = 450


def error_bound(degree: int, trials: int = TRIALS) -> float:
    r"""The Schwartz–Zippel bound :math:`(D/P)^{\text{trials}}` on a wrong (low) generic rank.

    ``degree`` bounds the degree :math:`D` of the minors: the rank, plus 4 per angle row.

    >>> error_bound(12) < 1e-12
    True
    """
    return float((degree / PRIME) ** trials)


def _rows(
    n: int, edges: list[tuple[int, int]], pins: list[int], p: np.ndarray, dim: int
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Each row as (columns, values mod P): pins first (``dim`` unit rows each), then edges."""
    rows = [(np.array([dim * v + a]), np.ones(1, np.int64)) for v in pins for a in range(dim)]
    for i, j in edges:
        diff = (p[i] - p[j]) % PRIME
        cols = np.concatenate([dim * i + np.arange(dim), dim * j + np.arange(dim)])
        rows.append((cols, np.concatenate([diff, (-diff) % PRIME])))
    return rows


def _angle_rows(
    angles: list[tuple[int, int, int]], p: np.ndarray, dim: int
) -> list[tuple[np.ndarray, np.ndarray]]:
    """The polynomial angle rows of the module notes, mod P (every product reduced)."""

    def mul(x: np.ndarray | int, y: np.ndarray | int) -> np.ndarray:
        return np.asarray(x, dtype=np.int64) * np.asarray(y, dtype=np.int64) % PRIME

    rows = []
    for i, j, k in angles:
        a, b = (p[j] - p[i]) % PRIME, (p[k] - p[i]) % PRIME
        aa, bb, ab = (int(mul(u, v).sum() % PRIME) for u, v in ((a, a), (b, b), (a, b)))
        gj = mul(bb, (mul(aa, b) - mul(ab, a)) % PRIME)
        gk = mul(aa, (mul(bb, a) - mul(ab, b)) % PRIME)
        gi = (-gj - gk) % PRIME
        cols = np.concatenate([dim * v + np.arange(dim) for v in (i, j, k)])
        rows.append((cols, np.concatenate([gi, gj, gk])))
    return rows


def _guide_rows(
    sliders: list[int], slots: list[tuple[int, int, int]], p: np.ndarray, rng: Any
) -> tuple[list[tuple[np.ndarray, np.ndarray]], list[tuple[np.ndarray, np.ndarray]]]:
    """Slider rows (a random normal each) and slot rows of the module notes, mod P (planar)."""
    normals = rng.integers(0, PRIME, size=(len(sliders), 2), dtype=np.int64)
    slide = [(2 * j + np.arange(2), normals[s]) for s, j in enumerate(sliders)]
    slot = []
    for a, b, c in slots:
        e, w = (p[b] - p[a]) % PRIME, (p[c] - p[a]) % PRIME
        gc, gb = np.array([-e[1], e[0]]) % PRIME, np.array([w[1], -w[0]]) % PRIME
        cols = np.concatenate([2 * v + np.arange(2) for v in (a, b, c)])
        slot.append((cols, np.concatenate([(-gb - gc) % PRIME, gb, gc])))
    return slide, slot


def _reduced_rank(rows: list[tuple[np.ndarray, np.ndarray]], n_cols: int) -> np.ndarray:
    """Whether each row is independent of those before it, by exact elimination mod P.

    The basis is kept fully reduced (zero in every other pivot column), so a new row is
    reduced by the few basis rows whose pivots it touches; an accepted row is normalised
    and eliminated from the basis rows that have its pivot column.
    """
    basis = np.zeros((min(len(rows), n_cols), n_cols), np.int64)
    size = 0
    pivot_of = np.full(n_cols, -1, np.int64)  # basis row whose pivot is this column
    accepted = np.zeros(len(rows), bool)
    for r, (cols, vals) in enumerate(rows):
        row = np.zeros(n_cols, np.int64)
        np.add.at(row, cols, vals)
        row %= PRIME
        hit = cols[pivot_of[cols] >= 0]
        if hit.size:
            hit = np.unique(hit)
            row = (row - row[hit] @ basis[pivot_of[hit]]) % PRIME
        nz = np.flatnonzero(row)
        if not nz.size:
            continue
        pc = int(nz[0])
        row = row * pow(int(row[pc]), PRIME - 2, PRIME) % PRIME  # pivot 1 (Fermat inverse)
        touched = np.flatnonzero(basis[:size, pc])
        if touched.size:
            basis[touched] = (basis[touched] - np.outer(basis[touched, pc], row)) % PRIME
        pivot_of[pc], basis[size] = size, row
        size += 1
        accepted[r] = True
    return accepted


def random_generic_rank(
    n: int,
    edges: Iterable[Sequence[int]],
    pinned: Iterable[int] = (),
    *,
    angles: Iterable[Sequence[int]] = (),
    dim: int = 3,
    trials: int = TRIALS,
    seed: int = 0,
    upper: int | None = None,
    sliders: Iterable[int] = (),
    slots: Iterable[Sequence[int]] = (),
) -> tuple[int, np.ndarray]:
    """Generic rank of pins and edges in ``dim`` dimensions, and which edges are independent.

    Parameters
    ----------
    n : int
        Number of vertices.
    edges : iterable of (u, v)
        Rods, in the order redundancy is decided; repeats allowed (a repeat is dependent).
    pinned : iterable of int
        Distinct pinned vertices: ``dim`` rows each, first.
    angles : iterable of (i, j, k), keyword-only
        Fixed angles at ``i`` between the arms to ``j`` and ``k``: one row each, last.
    dim : int, keyword-only
        2 or 3.
    trials : int, keyword-only
        Random placements; the largest rank is kept (see the module notes for the bound).
    seed : int, keyword-only
        Seed of the placements: the answer is reproducible.
    upper : int, optional, keyword-only
        A bound the generic rank cannot exceed: a trial that reaches it is certain, and
        the remaining trials are skipped.
    sliders : iterable of int, keyword-only
        The joint of each slider (planar): one row each, after the pins, with a random
        normal.
    slots : iterable of (a, b, c), keyword-only
        Joint ``c`` on the line of ``a`` and ``b`` (planar): one row each, last. The
        placements put each slot's joint on its line (:mod:`.slot_placement`); slots
        with no such order raise ``ValueError`` (the caller takes a floating rank).

    Returns
    -------
    rank : int
        The rank of all the rows (pins and sliders included), exact unless every trial
        was unlucky.
    accepted : ndarray of bool, shape (m + k + t,)
        ``True`` for the edges (then the angles, then the slots) independent of the pins,
        the sliders and the rows before them.

    Examples
    --------
    >>> rank, accepted = random_generic_rank(2, [(0, 1), (0, 1)])
    >>> rank, accepted.tolist()        # one rod; its repeat is redundant
    (1, [True, False])
    """
    edge_list = [(int(u), int(v)) for u, v in edges]
    angle_list = [(int(i), int(j), int(k)) for i, j, k in angles]
    pins = [int(v) for v in pinned]
    slides = [int(v) for v in sliders]
    slot_list = [(int(a), int(b), int(c)) for a, b, c in slots]
    if dim * n > MAX_COLUMNS:
        raise ValueError(f"{dim * n} coordinates: the exact generic rank is kept to {MAX_COLUMNS}")
    if dim != 2 and (slides or slot_list):
        raise ValueError("sliders and slots are planar: dim must be 2")
    order = slot_order(slot_list)
    if order is None:
        raise ValueError("slots that wait for each other: no exact generic placement")
    rng = np.random.default_rng(seed)
    ground = dim * len(pins) + len(slides)
    best: tuple[int, np.ndarray] = (
        -1,
        np.zeros(len(edge_list) + len(angle_list) + len(slot_list), bool),
    )
    for _ in range(max(1, int(trials))):
        p = rng.integers(0, PRIME, size=(n, dim), dtype=np.int64)
        place_on_slots(p, slot_list, order, PRIME, rng)  # a slot's joint on its line
        slide, slot = _guide_rows(slides, slot_list, p, rng)
        rows = _rows(n, edge_list, pins, p, dim)
        rows = rows[: dim * len(pins)] + slide + rows[dim * len(pins) :]
        rows += _angle_rows(angle_list, p, dim) + slot
        accepted = _reduced_rank(rows, dim * n)
        rank = int(accepted.sum())
        if rank > best[0]:
            best = (rank, accepted[ground:])
        if upper is not None and rank >= upper:
            break
    return best
