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

In the plane the pebble game gives a basis :math:`B` of the rods; in a rigid graph a
random stress takes random values on the other rods and solves a square system of size
:math:`2n - 3` for the basis (:func:`solve_mod_p`; a bijection of the stresses with the
values off the basis, so the stress is uniform); in a flexible one it is a random
combination of the fundamental circuits' stresses (:mod:`.circuits`), each the kernel of
a small matrix. In space the kernel of :math:`R^T` is computed densely
(:data:`MAX_DENSE_COLUMNS`).

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
from .pebble import pebble_game

__all__ = [
    "MAX_DENSE_COLUMNS",
    "PRIME",
    "generic_redundancy",
    "generic_stress_rank",
    "kernel_mod_p",
    "rank_mod_p",
    "solve_mod_p",
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


def _eliminate(m: np.ndarray, k: int, c: int, rows: np.ndarray) -> None:
    """Clear column ``c`` in ``rows`` with the pivot row ``k`` (pivot 1), in place.

    Only the pivot row's nonzero columns are touched: a banded matrix (a lattice's
    rigidity or stress matrix in a row-by-row numbering) keeps its band, and the work is
    the band's, not the square's.
    """
    cols = c + np.flatnonzero(m[k, c:])
    if rows.size:
        block = np.ix_(rows, cols)
        m[block] = (m[block] - np.outer(m[rows, c], m[k, cols]) % PRIME) % PRIME


def rank_mod_p(a: np.ndarray) -> int:
    """Rank of an integer matrix modulo :data:`PRIME` (elimination touching nonzeros only).

    >>> rank_mod_p(np.array([[1, 2], [2, 4]]))
    1
    """
    m = np.asarray(a, dtype=np.int64) % PRIME
    free = np.ones(len(m), bool)  # rows not yet used as a pivot
    rank = 0
    for c in range(m.shape[1]):
        nz = np.flatnonzero(m[:, c] * free)
        if not nz.size:
            continue
        k = int(nz[0])
        m[k, c:] = m[k, c:] * pow(int(m[k, c]), PRIME - 2, PRIME) % PRIME
        free[k] = False
        _eliminate(m, k, c, nz[1:])
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
    """A random stress mod P, and the generic rank of R (the pebble game's, exact).

    A rigid graph: from the basis (:func:`_basis_stress`). Otherwise from the fundamental
    circuits, each a one-dimensional kernel. ``None`` at an unlucky placement.
    """
    accepted = pebble_game(n, edges)
    if int(accepted.sum()) == 2 * n - 3 and n >= 2:
        w = _basis_stress(n, edges, accepted, p, rng)
        return None if w is None else (w, 2 * n - 3)
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


def solve_mod_p(a: np.ndarray, b: np.ndarray) -> np.ndarray | None:
    r"""The solution of a square system :math:`a x = b` modulo :data:`PRIME`, or None if singular.

    Forward elimination touching only the pivot rows' nonzeros (a band stays a band),
    then back substitution; every product is reduced at once, every sum of reduced products stays
    below :math:`2^{63}`.

    >>> solve_mod_p(np.array([[2, 1], [1, 1]]), np.array([3, 2])).tolist()
    [1, 1]
    """
    size = len(a)
    m = np.concatenate(
        [np.asarray(a, np.int64) % PRIME, (np.asarray(b, np.int64) % PRIME)[:, None]], axis=1
    )
    for k in range(size):
        nz = np.flatnonzero(m[k:, k])
        if not nz.size:
            return None
        if nz[0]:
            m[[k, k + int(nz[0])]] = m[[k + int(nz[0]), k]]
        m[k, k:] = m[k, k:] * pow(int(m[k, k]), PRIME - 2, PRIME) % PRIME
        _eliminate(m, k, k, k + 1 + np.flatnonzero(m[k + 1 :, k]))
    x = np.zeros(size, np.int64)
    for k in range(size - 1, -1, -1):
        x[k] = (m[k, size] - (m[k, k + 1 : size] * x[k + 1 :] % PRIME).sum()) % PRIME
    return x


def _basis_stress(
    n: int, edges: np.ndarray, accepted: np.ndarray, p: np.ndarray, rng: np.random.Generator
) -> np.ndarray | None:
    r"""A random stress mod P of a generically rigid plane graph, from the pebble game's basis.

    The rejected rods get random values :math:`\omega_N`; the basis rods solve
    :math:`R_B^T \omega_B = -R_N^T \omega_N` on all coordinates but three (joint 0 and
    the :math:`x` of joint 1: the trivial motions' share, a square system of size
    :math:`2n - 3`). The three equations left out are checked (they follow at a generic
    placement); ``None`` when the system is singular or they fail (an unlucky placement).
    """
    rt = _transposed_rigidity(p, edges)
    keep = np.arange(3, 2 * n)
    w = np.zeros(len(edges), np.int64)
    w[~accepted] = rng.integers(0, PRIME, size=int((~accepted).sum()), dtype=np.int64)
    rhs = np.zeros(len(keep), np.int64)
    for e in np.flatnonzero(~accepted):  # one rod at a time: products reduced at once
        rhs = (rhs - rt[keep, e] * w[e] % PRIME) % PRIME
    solved = solve_mod_p(rt[np.ix_(keep, np.flatnonzero(accepted))], rhs)
    if solved is None:
        return None
    w[accepted] = solved
    check = np.zeros(2 * n, np.int64)
    for e in range(len(edges)):
        check = (check + rt[:, e] * w[e] % PRIME) % PRIME
    return w if not check.any() else None


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
        generically globally rigid (certain).

    Raises
    ------
    ValueError
        With ``n < dim + 2`` (the theorem's range) or, in space, more than
        :data:`MAX_DENSE_COLUMNS` coordinates.
    error_probability : float
        0 when ``rank == n - d - 1``; otherwise the bound :math:`\varepsilon^t` (module
        notes) on the chance that the graph is generically globally rigid after all.
    """
    simple = sorted({(min(int(u), int(v)), max(int(u), int(v))) for u, v in edges if u != v})
    edge_array = np.array(simple, np.int64).reshape(-1, 2)
    if dim != 2 and dim * n > MAX_DENSE_COLUMNS:
        raise ValueError(f"{dim * n} coordinates: the dense stress route is kept to "
                         f"{MAX_DENSE_COLUMNS}")  # fmt: skip
    if n < dim + 2:
        # the theorem is for n >= d + 2; a rank 0 = n - d - 1 would read as a certain yes
        raise ValueError(f"{n} vertices in {dim}-D: the stress-matrix test needs at least "
                         f"{dim + 2} (K{n} alone is globally rigid below that)")  # fmt: skip
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
