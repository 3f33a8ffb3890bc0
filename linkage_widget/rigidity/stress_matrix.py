r"""Stress matrices: exact generic ranks modulo a prime, and floating ones at a placement.

A self-stress :math:`\omega \in \mathbb{R}^m` of a bar framework :math:`(G, p)` in
:math:`\mathbb{R}^d` balances at every joint, :math:`\sum_j \omega_{ij}(p_i - p_j) = 0`
(:math:`\omega^T R(p) = 0`, :math:`R` the rigidity matrix; :math:`\omega > 0` is tension,
the sign of :mod:`.statics`). Its *stress matrix* is the weighted Laplacian

.. math:: \Omega = \sum_{ij \in E} \omega_{ij} (e_i - e_j)(e_i - e_j)^T
          \in \mathbb{R}^{n \times n},

with :math:`\Omega\, [p \;\, \mathbf 1] = 0`, so :math:`\operatorname{rank}\Omega \le
n - d - 1` when :math:`p` spans :math:`\mathbb{R}^d`.

The generic test (Gortler, Healy and Thurston, 2010, with Connelly, 2005): a graph on
:math:`n \ge d + 2` vertices is *generically globally rigid* in :math:`\mathbb{R}^d`
exactly when, at a generic placement, some self-stress has rank :math:`n - d - 1`.
:func:`generic_stress_rank` draws integer coordinates, computes a random stress exactly
modulo :data:`PRIME` and the rank of its stress matrix modulo :data:`PRIME`. Error
bound (Schwartz–Zippel): by Cramer's rule the stresses are polynomials of degree
:math:`\le r` (the generic rank of :math:`R`) in :math:`p` and linear in the random
coefficients :math:`c`, so an :math:`(n-d-1)`-minor of :math:`\Omega` is a polynomial of
degree :math:`\le (n-d-1)(r+1)` in :math:`(p, c)`, and the rank of :math:`R` drops at
:math:`p` only on a minor of degree :math:`r`: a trial misses rank :math:`n - d - 1` with
probability at most

.. math:: \varepsilon = \frac{r + (n - d - 1)(r + 1)}{P},

and :math:`\varepsilon^{t}` over :math:`t` independent trials. The error is one-sided: a
rank :math:`n - d - 1` found modulo :math:`P` at a placement where :math:`R` has the
largest possible rank (checked) is the reduction of a rational stress of that rank, so
"globally rigid" is certain and "not" can be wrong with that probability.

In the plane the stresses are read off the pebble game's fundamental circuits
(:mod:`.circuits`): each circuit carries a one-dimensional space of stresses at a
generic placement, they span all stresses, and each is the kernel of a small matrix. In
space the kernel of :math:`R^T` is computed densely (:data:`MAX_DENSE_COLUMNS`).

The prime. :data:`PRIME` :math:`= 2^{31} - 1`, larger than the rigidity matrix's prime
of :mod:`.modular_rank`, because the degree above grows like :math:`n^2`: a product of
two residues stays below :math:`2^{62}` and every product here is reduced at once.

>>> k4 = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
>>> generic_stress_rank(4, k4, dim=2)[0]      # n - d - 1 = 1: K4 is globally rigid
1
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from .circuits import fundamental_circuits

__all__ = [
    "MAX_DENSE_COLUMNS",
    "PRIME",
    "generic_redundancy",
    "generic_stress_rank",
    "kernel_mod_p",
    "rank_mod_p",
    "stress_matrix",
]

#: :math:`2^{31} - 1`, a Mersenne prime: residues multiply below :math:`2^{62}`.
PRIME = 2_147_483_647
#: The dense stress route (space, or a plane graph read densely) is kept to this many
#: coordinates ``d n``: its elimination costs :math:`O((dn)^2 m)`.
MAX_DENSE_COLUMNS = 900


def _rref(a: np.ndarray) -> tuple[np.ndarray, list[int]]:
    """Reduced row echelon form of ``a`` modulo :data:`PRIME`, and its pivot columns."""
    a = a.astype(np.int64) % PRIME
    rows, cols = a.shape
    pivots: list[int] = []
    r = 0
    for c in range(cols):
        if r == rows:
            break
        nz = np.flatnonzero(a[r:, c])
        if not nz.size:
            continue
        k = r + int(nz[0])
        a[[r, k]] = a[[k, r]]
        a[r] = a[r] * pow(int(a[r, c]), PRIME - 2, PRIME) % PRIME
        others = np.flatnonzero(a[:, c])
        others = others[others != r]
        if others.size:
            a[others] = (a[others] - np.outer(a[others, c], a[r]) % PRIME) % PRIME
        pivots.append(c)
        r += 1
    return a[:r], pivots


def rank_mod_p(a: np.ndarray) -> int:
    """Rank of an integer matrix modulo :data:`PRIME` (dense elimination, shrinking block).

    >>> rank_mod_p(np.array([[1, 2], [2, 4]]))
    1
    """
    m = np.asarray(a, dtype=np.int64) % PRIME
    rank = 0
    while m.size:
        nz = np.argwhere(m[:, 0])
        if not nz.size:
            m = m[:, 1:]
            continue
        k = int(nz[0, 0])
        pivot_row = m[k, 1:] * pow(int(m[k, 0]), PRIME - 2, PRIME) % PRIME
        rest = np.delete(m, k, axis=0)
        # eliminate the first column; only the remaining block is kept (it shrinks)
        m = (rest[:, 1:] - np.outer(rest[:, 0], pivot_row) % PRIME) % PRIME
        rank += 1
    return rank


def kernel_mod_p(a: np.ndarray) -> np.ndarray:
    r"""A basis of :math:`\{x : a x = 0\}` modulo :data:`PRIME`, shape ``(cols, k)``.

    >>> kernel_mod_p(np.array([[1, 1]])).T.tolist()
    [[2147483646, 1]]
    """
    a = np.asarray(a, dtype=np.int64)
    reduced, pivots = _rref(a)
    cols = a.shape[1]
    free = [c for c in range(cols) if c not in set(pivots)]
    basis = np.zeros((cols, len(free)), np.int64)
    for k, f in enumerate(free):
        basis[f, k] = 1
        basis[pivots, k] = (-reduced[:, f]) % PRIME
    return basis


def _transposed_rigidity(
    p: np.ndarray, edges: np.ndarray, vertices: np.ndarray | None = None
) -> np.ndarray:
    """:math:`R^T` modulo :data:`PRIME` over ``vertices`` (all by default): ``(d k, m)``."""
    d = p.shape[1]
    vertices = np.arange(len(p)) if vertices is None else vertices
    where = {int(v): k for k, v in enumerate(vertices)}
    rt = np.zeros((d * len(vertices), len(edges)), np.int64)
    for e, (i, j) in enumerate(edges):
        diff = (p[i] - p[j]) % PRIME
        rt[d * where[int(i)] : d * where[int(i)] + d, e] = diff
        rt[d * where[int(j)] : d * where[int(j)] + d, e] = (-diff) % PRIME
    return rt


def _laplacian_mod_p(n: int, edges: np.ndarray, w: np.ndarray) -> np.ndarray:
    r"""The stress matrix :math:`\Omega` of the module notes, modulo :data:`PRIME`."""
    omega = np.zeros((n, n), np.int64)
    i, j = edges[:, 0], edges[:, 1]
    np.add.at(omega, (i, j), (-w) % PRIME)
    np.add.at(omega, (j, i), (-w) % PRIME)
    np.add.at(omega, (i, i), w)
    np.add.at(omega, (j, j), w)
    return omega % PRIME


def _planar_stress(
    n: int, edges: np.ndarray, p: np.ndarray, rng: np.random.Generator
) -> tuple[np.ndarray, int] | None:
    """A random stress mod P from the fundamental circuits, and the generic rank of R.

    ``None`` when a circuit's kernel is not one-dimensional at ``p`` (an unlucky placement).
    """
    accepted, circuits = fundamental_circuits(n, edges)
    w = np.zeros(len(edges), np.int64)
    for circuit in circuits:
        local = edges[circuit]
        verts = np.unique(local)
        kernel = kernel_mod_p(_transposed_rigidity(p, local, verts))
        if kernel.shape[1] != 1:
            return None
        c = int(rng.integers(1, PRIME))
        np.add.at(w, circuit, kernel[:, 0] * c % PRIME)
    return w % PRIME, int(accepted.sum())


def _dense_stress(
    n: int, edges: np.ndarray, p: np.ndarray, rng: np.random.Generator
) -> tuple[np.ndarray, int]:
    """A random stress mod P from the kernel of :math:`R^T`, and the rank of R at ``p``."""
    kernel = kernel_mod_p(_transposed_rigidity(p, edges))
    c = rng.integers(0, PRIME, size=kernel.shape[1], dtype=np.int64)
    w = np.zeros(len(edges), np.int64)
    for k in range(kernel.shape[1]):  # one column at a time: products reduced at once
        w = (w + kernel[:, k] * c[k] % PRIME) % PRIME
    return w, len(edges) - kernel.shape[1]


def _error(n: int, dim: int, rank_r: int) -> float:
    """The Schwartz–Zippel bound of one trial (module notes)."""
    return min(1.0, (rank_r + (n - dim - 1) * (rank_r + 1)) / PRIME)


def _one_trial(
    n: int, edges: np.ndarray, dim: int, rng: np.random.Generator
) -> tuple[int, int] | None:
    """Stress-matrix rank of one random stress at one random placement, and rank R."""
    p = rng.integers(0, PRIME, size=(n, dim), dtype=np.int64)
    if dim == 2:
        found = _planar_stress(n, edges, p, rng)
        if found is None:
            return None
        w, rank_r = found
    else:
        w, rank_r = _dense_stress(n, edges, p, rng)
    return rank_mod_p(_laplacian_mod_p(n, edges, w)), rank_r


def generic_stress_rank(
    n: int,
    edges: Iterable[Sequence[int]],
    *,
    dim: int = 2,
    trials: int = 3,
    seed: int | None = 0,
) -> tuple[int, float]:
    r"""The largest stress-matrix rank found at random placements, and the chance it is low.

    Parameters
    ----------
    n : int
        Number of vertices.
    edges : iterable of (u, v)
        Edges of a simple graph (repeats are dropped).
    dim : int, keyword-only
        The dimension ``d`` (2 or 3).
    trials : int, keyword-only
        Independent placements and stresses; stops at the first of rank ``n - d - 1``.
    seed : int or None, keyword-only
        Seed of the random placements and stresses.

    Returns
    -------
    rank : int
        The largest rank of :math:`\Omega` modulo :data:`PRIME`: ``n - d - 1`` means
        generically globally rigid (certain, for ``n >= d + 2``).
    error_probability : float
        0 when ``rank == n - d - 1``; otherwise the bound :math:`\varepsilon^t` (module
        notes) on the chance that the graph is generically globally rigid after all.
    """
    simple = sorted({(min(int(u), int(v)), max(int(u), int(v))) for u, v in edges if u != v})
    edge_array = np.array(simple, np.int64).reshape(-1, 2)
    if dim != 2 and dim * n > MAX_DENSE_COLUMNS:
        raise ValueError(f"{dim * n} coordinates: the dense stress route is kept to "
                         f"{MAX_DENSE_COLUMNS}")  # fmt: skip
    rng = np.random.default_rng(seed)
    best, error, target = 0, 1.0, n - dim - 1
    for _ in range(max(1, int(trials))):
        found = _one_trial(n, edge_array, dim, rng)
        if found is None:
            continue
        rank, rank_r = found
        best = max(best, rank)
        error *= _error(n, dim, rank_r)
        if best >= target:
            return best, 0.0
    return best, float(error)


def stress_matrix(n: int, edges: np.ndarray, w: np.ndarray) -> np.ndarray:
    r"""The stress matrix :math:`\Omega` of a stress ``w`` (float), shape ``(n, n)``.

    >>> stress_matrix(3, np.array([[0, 1], [1, 2], [0, 2]]), np.zeros(3)).shape
    (3, 3)
    """
    omega = np.zeros((n, n))
    i, j = np.asarray(edges)[:, 0], np.asarray(edges)[:, 1]
    np.add.at(omega, (i, j), -w)
    np.add.at(omega, (j, i), -w)
    np.add.at(omega, (i, i), w)
    np.add.at(omega, (j, j), w)
    return omega


def generic_redundancy(
    n: int, edges: np.ndarray, dim: int, seed: int | None = 0
) -> tuple[bool, np.ndarray]:
    r"""Generic rigidity and the rods in a circuit, in any dimension, from one kernel mod P.

    At a random placement the rows of :math:`R` reduce modulo :data:`PRIME`; a rod lies in
    a circuit exactly when some self-stress is nonzero on it. ``n >= dim + 1`` joints are
    rigid when the rank is :math:`dn - \binom{d+1}{2}`. One-sided: a low rank (so
    "flexible" or a rod "in no circuit") is wrong only at an unlucky placement
    (Schwartz–Zippel, as in the module notes).

    Returns
    -------
    rigid : bool
    in_circuit : ndarray of bool, shape (m,)
    """
    if dim * n > MAX_DENSE_COLUMNS:
        raise ValueError(f"{dim * n} coordinates: the dense route is kept to {MAX_DENSE_COLUMNS}")
    rng = np.random.default_rng(seed)
    p = rng.integers(0, PRIME, size=(n, dim), dtype=np.int64)
    kernel = kernel_mod_p(_transposed_rigidity(p, edges))
    rank = len(edges) - kernel.shape[1]
    full = dim * n - dim * (dim + 1) // 2 if n > dim else n * (n - 1) // 2
    return rank >= full, kernel.any(axis=1)
