r"""Certificates at a placement: self-stresses, a PSD stress, no conic at infinity.

Connelly's sufficient condition (Connelly, 1982, "Rigidity and energy"; the *super
stable* frameworks of Connelly and Gortler, 2015): let :math:`(G, p)` be a bar
framework (or a tensegrity) whose joints affinely span :math:`\mathbb{R}^d`, and let
:math:`\omega` be a self-stress (for a tensegrity a *proper* one: :math:`\omega \ge 0`
on cables, :math:`\omega \le 0` on struts, any sign on bars) such that

1. its stress matrix :math:`\Omega` (:mod:`.stress_matrix`) is positive semidefinite,
2. :math:`\operatorname{rank}\Omega = n - d - 1`, and
3. the rod directions do not lie on a *conic at infinity*: no nonzero symmetric
   :math:`d \times d` matrix :math:`S` has :math:`(p_i - p_j)^T S (p_i - p_j) = 0` on
   every bar and every cable or strut with :math:`\omega_{ij} \ne 0` (a member the
   stress leaves unloaded may go slack, so its direction is not held).

Then :math:`(G, p)` is *universally rigid*: every placement in any dimension with the
same rod lengths (cables no longer, struts no shorter) is congruent to it; in particular
it is globally rigid. No genericity is needed. (Alfakih, 2011, shows condition 3 holds
when :math:`p` is in general position.) The three are checked here; failing to find
such a stress proves nothing.

The search. With :math:`K` an orthonormal basis of the self-stresses (:math:`s` of them)
and :math:`Q` one of the complement of the columns of :math:`[p \;\, \mathbf 1]` (the
kernel :math:`\Omega` always has), condition 1 and 2 together say
:math:`M(c) = Q^T \Omega(Kc) Q \succ 0`. The smallest eigenvalue of :math:`M(c)` is
concave in :math:`c`, so it is maximised over the unit ball (scipy's SLSQP, with the
sign conditions as linear inequalities; its gradient :math:`v^T Q^T \Omega(K_k) Q v`
for the eigenvector :math:`v`); with one stress, both signs are tried. The search is
bounded (:data:`MAX_PSD_SEARCH`, :data:`MAX_PSD_SIZE`, :data:`PSD_BUDGET`): past them it
says so and certifies nothing.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import minimize

from .stress_matrix import stress_matrix
from .tolerances import CERTIFICATE_RTOL, RANK_RTOL

__all__ = [
    "MAX_PSD_SEARCH",
    "MAX_PSD_SIZE",
    "PSD_BUDGET",
    "conic_at_infinity",
    "psd_stress",
    "random_self_stress",
    "self_stress_basis",
]

#: The PSD search is kept to frameworks with at most this many joints (dense eigenproblems).
MAX_PSD_SEARCH = 200
#: ... and to :math:`s (n - d - 1)^2` (self-stresses times the reduced matrix's size: the
#: stored pieces :math:`Q^T \Omega(K_k) Q`) at most this; an 8 x 8 braced grid is 3e5,
#: a 12 x 12 one 4.4e6, :math:`K_{70}` 1e7.
MAX_PSD_SIZE = 2_000_000
#: The search's work, :math:`\sum` over evaluations of :math:`k^3 + s k^2` (one
#: eigenproblem and one gradient of size :math:`k = n - d - 1`), stops at this: about a
#: second on one core.
PSD_BUDGET = 300_000_000
#: Random starts of the search beyond the first.
STARTS = 6


def rigidity_matrix(p: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """The classical rigidity matrix :math:`R(p)`, shape ``(m, d n)``."""
    n, d = p.shape
    r = np.zeros((len(edges), d * n))
    diff = p[edges[:, 0]] - p[edges[:, 1]]
    for a in range(d):
        r[np.arange(len(edges)), d * edges[:, 0] + a] = diff[:, a]
        r[np.arange(len(edges)), d * edges[:, 1] + a] = -diff[:, a]
    return r


def _column_space(p: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Orthonormal basis of the columns of :math:`R`, ``(m, rank)``: an economy SVD.

    The rank rule is the package's (:data:`~.tolerances.RANK_RTOL`, as in ``analyze``).
    """
    r = rigidity_matrix(p, edges)
    if not r.size:
        return np.zeros((len(edges), 0))
    u, sv, _ = np.linalg.svd(r, full_matrices=False)
    return u[:, : int((sv > RANK_RTOL * sv.max(initial=0.0)).sum())]


def _off(u: np.ndarray, g: np.ndarray) -> np.ndarray:
    r""":math:`(I - U U^T) g`: the part of ``g`` in :math:`\ker R^T` (twice, for round-off)."""
    for _ in range(2):
        g = g - u @ (u.T @ g)
    return g


def random_self_stress(
    p: np.ndarray, edges: np.ndarray, rng: np.random.Generator
) -> tuple[np.ndarray | None, int]:
    r"""A random self-stress (None when there is none) and the rank of R.

    A Gaussian vector projected on :math:`\ker R^T`, which is a random combination of
    any basis: no ``(m, m)`` matrix is formed.
    """
    u = _column_space(p, edges)
    if u.shape[1] == len(edges):
        return None, u.shape[1]
    return _off(u, rng.standard_normal(len(edges))), u.shape[1]


def self_stress_basis(p: np.ndarray, edges: np.ndarray) -> tuple[np.ndarray, int]:
    r"""An orthonormal basis of the self-stresses, shape ``(m, s)``, and the rank of R.

    The complement of R's columns, from a QR of a projected Gaussian ``(m, s)`` block
    (cost :math:`O(m s \max(s, \text{rank}))`, not a full ``(m, m)`` SVD).
    """
    u = _column_space(p, edges)
    s = len(edges) - u.shape[1]
    if not s:
        return np.zeros((len(edges), 0)), u.shape[1]
    g = _off(u, np.random.default_rng(0).standard_normal((len(edges), s)))
    basis, _ = np.linalg.qr(g)
    return _off(u, basis), u.shape[1]


def conic_at_infinity(p: np.ndarray, edges: np.ndarray) -> bool:
    r"""Whether the rod directions lie on a conic at infinity (condition 3 of the notes).

    Each rod vector :math:`e` gives the row of :math:`e^T S e` in the unknowns
    :math:`S_{ab}, a \le b`; a conic exists when these rows have rank below
    :math:`d(d+1)/2`.
    """
    d = p.shape[1]
    e = p[edges[:, 0]] - p[edges[:, 1]]
    e = e / np.maximum(np.linalg.norm(e, axis=1, keepdims=True), 1e-300)
    rows = np.stack([e[:, a] * e[:, b] for a in range(d) for b in range(a, d)], axis=1)
    sv = np.linalg.svd(rows, compute_uv=False)
    return int((sv > CERTIFICATE_RTOL * max(sv.max(initial=0.0), 1.0)).sum()) < d * (d + 1) // 2


def _complement(p: np.ndarray) -> np.ndarray:
    r"""Orthonormal basis of the complement of the columns of :math:`[p \; 1]`, ``(n, k)``."""
    a = np.column_stack([p, np.ones(len(p))])
    u, sv, _ = np.linalg.svd(a, full_matrices=True)
    rank = int((sv > CERTIFICATE_RTOL * sv.max()).sum())
    return u[:, rank:]


def _pieces(p: np.ndarray, edges: np.ndarray, basis: np.ndarray) -> np.ndarray:
    r""":math:`Q^T \Omega(K_k) Q` for each stress of the basis, shape ``(s, k, k)``."""
    q = _complement(p)
    return np.stack([q.T @ stress_matrix(len(p), edges, basis[:, k]) @ q
                     for k in range(basis.shape[1])])  # fmt: skip


def _smallest(pieces: np.ndarray, c: np.ndarray) -> tuple[float, np.ndarray]:
    """The smallest eigenvalue of :math:`M(c)` and its gradient in ``c``."""
    vals, vecs = np.linalg.eigh(np.tensordot(c, pieces, axes=1))
    v = vecs[:, 0]
    return float(vals[0]), np.einsum("i,kij,j->k", v, pieces, v)


def _maximise(
    pieces: np.ndarray, signs: np.ndarray, start: np.ndarray, budget: int
) -> tuple[np.ndarray, int]:
    r"""SLSQP on :math:`\max \lambda_{min}(M(c))`, :math:`|c| \le 1`, ``signs @ c >= 0``.

    At most ``budget`` evaluations (then the best point so far is kept); returns the
    point and the evaluations used.
    """
    cons = [{"type": "ineq", "fun": lambda c: 1.0 - c @ c, "jac": lambda c: -2.0 * c}]
    if len(signs):
        cons.append({"type": "ineq", "fun": lambda c: signs @ c, "jac": lambda c: signs})
    seen: list[tuple[float, np.ndarray]] = []

    def cost(c: np.ndarray) -> tuple[float, np.ndarray]:
        if len(seen) >= budget:
            raise _Spent
        value, grad = _smallest(pieces, c)
        seen.append((value, np.array(c)))
        return -value, -grad

    try:
        fit = minimize(cost, start, jac=True, method="SLSQP", constraints=cons,
                       options={"maxiter": 200, "ftol": 1e-12})  # fmt: skip
    except _Spent:
        return (max(seen, key=lambda t: t[0])[1] if seen else start), len(seen)
    return np.asarray(fit.x), len(seen)


class _Spent(Exception):
    """The search's budget is used up (stops SLSQP from inside its cost)."""


def _margins(p: np.ndarray, edges: np.ndarray, w: np.ndarray) -> str:
    r"""How well ``w`` holds, in words.

    :math:`|R^T w|_\infty` relative to the longest rod (``w`` has largest entry 1), and
    the smallest eigenvalue of :math:`Q^T \Omega Q` relative to the largest (positive:
    PSD of rank ``n - d - 1``).
    """
    longest = max(float(np.linalg.norm(p[edges[:, 0]] - p[edges[:, 1]], axis=1).max()), 1e-300)
    residual = float(np.abs(rigidity_matrix(p, edges).T @ w).max()) / longest
    q = _complement(p)
    vals = np.linalg.eigvalsh(q.T @ stress_matrix(len(p), edges, w) @ q)
    margin = float(vals.min()) / max(float(np.abs(vals).max()), 1e-300)
    return (f"to tolerance: |R^T w| = {residual:.1e} of the longest rod, smallest "
            f"eigenvalue {margin:.1e} of the largest")  # fmt: skip


def psd_stress(
    p: np.ndarray, edges: np.ndarray, kinds: np.ndarray, *, seed: int | None = 0
) -> tuple[np.ndarray | None, str]:
    r"""A proper self-stress whose stress matrix is PSD of rank ``n - d - 1``, or None.

    Parameters
    ----------
    p : ndarray, shape (n, d)
    edges : ndarray of int, shape (m, 2)
    kinds : ndarray of str, shape (m,)
        ``'rod'``, ``'cable'`` (needs :math:`\omega \ge 0`) or ``'strut'`` (:math:`\le 0`).

    Returns
    -------
    stress : ndarray, shape (m,), or None
        The certificate (largest entry 1 in absolute value), or None.
    why : str
        What was found or why not.
    """
    n, d = p.shape
    if n > MAX_PSD_SEARCH:
        return None, f"{n} joints: the PSD stress search is kept to {MAX_PSD_SEARCH}"
    # s >= m - d n: a large search is refused before the SVD of R
    least = max(len(edges) - d * n, 0)
    big = least * max(n - d - 1, 1) ** 2 > MAX_PSD_SIZE
    s = least if big else len(edges) - _column_space(p, edges).shape[1]
    if not s:
        return None, "no self-stress at this placement"
    if big or s * max(n - d - 1, 1) ** 2 > MAX_PSD_SIZE:
        count = f"at least {s}" if big else f"{s}"
        return None, (f"{count} self-stresses of {n} joints: the PSD stress search is kept "
                      f"to s (n - d - 1)^2 <= {MAX_PSD_SIZE:.0e}")  # fmt: skip
    basis, _ = self_stress_basis(p, edges)
    pieces = _pieces(p, edges, basis)
    if not pieces.shape[1]:
        return None, "the joints do not span enough for a stress matrix of rank n - d - 1"
    sign = np.where(kinds == "cable", 1.0, np.where(kinds == "strut", -1.0, 0.0))
    signs = (sign[:, None] * basis)[sign != 0]
    rng = np.random.default_rng(seed)
    starts = [np.ones(1), -np.ones(1)] if basis.shape[1] == 1 else []
    starts += [rng.standard_normal(basis.shape[1]) for _ in range(STARTS)]
    scale = max(float(np.abs(pieces).max()), 1e-300)
    k = pieces.shape[1]
    evaluations = int(PSD_BUDGET // (k**3 + s * k * k))
    for start in starts:
        if evaluations <= 0:
            return None, ("no proper PSD stress of rank n - d - 1 was found within the "
                          "search's budget (this proves nothing)")  # fmt: skip
        c = start / np.linalg.norm(start)
        evaluations -= 1
        if basis.shape[1] > 1:
            c, used = _maximise(pieces, signs, c, evaluations)
            evaluations -= used
        w = basis @ c
        proper = not len(signs) or bool(np.all(signs @ c >= -CERTIFICATE_RTOL))
        if proper and _smallest(pieces, c)[0] > CERTIFICATE_RTOL * scale * 1e3:
            w = np.where(np.abs(w) < CERTIFICATE_RTOL * np.abs(w).max(), 0.0, w)
            w = w / np.abs(w).max()
            return w, "a proper PSD stress of rank n - d - 1, " + _margins(p, edges, w)
    return None, "no proper PSD stress of rank n - d - 1 was found (this proves nothing)"
