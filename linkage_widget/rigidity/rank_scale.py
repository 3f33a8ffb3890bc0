r"""The scale of a rigidity matrix: :math:`\sigma_{\max}` and the scale-aware rank tolerance.

Split from :mod:`linkage_widget.rigidity.sparse_rank` (which re-exports both, and whose
module notes explain the tolerance): :func:`~linkage_widget.rigidity.analyze` asks for
:math:`\sigma_{\max}` only when the coordinates' rounding makes it count, and computes it
once for both routes.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import scipy.sparse as sp

from ..constraints import ConstraintSet
from ..model import Linkage
from .tolerances import DECIMAL_MATCH, EPS, EXACT_QUANTUM, ROUNDING_FACTOR, ROUNDOFF_FACTOR

__all__ = ["scale_aware_rtol", "sigma_max_estimate"]

#: Power iterations for sigma_max (its error only moves the threshold by as much).
POWER_STEPS = 40
#: Up to this many entries ``c * N`` the power iteration multiplies a dense copy.
DENSE_POWER_MAX = 40_000


def sigma_max_estimate(a: sp.csr_array) -> float:
    """Largest singular value of ``a`` by power iteration on :math:`A^TA` (a lower bound).

    Up to :data:`DENSE_POWER_MAX` entries on the dense copy: a small sparse product costs
    ~40 us of SciPy's dispatch, a dense one ~1 us (the Watt linkage: 3.7 ms to 0.1 ms).
    """
    x = np.random.default_rng(0).standard_normal(a.shape[1])
    dense = a.shape[0] * a.shape[1] <= DENSE_POWER_MAX
    m = a.toarray() if dense else a
    # sparse: A^T once, in CSR; each product then sums in the order ``(a @ x) @ a`` does
    # (rows of A ascending), bit for bit, without a transposed view per step
    at = None if dense else a.T.tocsr()
    norm = 0.0
    for _ in range(POWER_STEPS):
        y = (m @ x) @ m if at is None else at @ (m @ x)  # A^T (A x)
        norm = math.sqrt(float(y @ y))  # np.linalg.norm's own formula, without its checks
        if norm == 0.0:
            return 0.0
        x = y / norm
    return float(np.sqrt(norm))


#: The decimal scales ``10**d`` (d = -3..12) :func:`_decimal_quantum` tries, coarsest first.
_SCALES = np.array([10.0**d for d in range(-3, 13)])
#: Values scaled at once (all scales side by side): bounded memory on a million joints.
_QUANTUM_CHUNK = 1 << 15


def _decimal_quantum(values: np.ndarray) -> float | None:
    """Coarsest ``10**-d`` (d = -3..12) that every value is a multiple of, else ``None``."""
    v = np.asarray(values, dtype=float).reshape(-1)
    if not v.size:
        return None
    big = float(np.abs(v).max())
    # every scale at once (one pass instead of 16 loops of small numpy calls)
    err = np.zeros(len(_SCALES))
    for start in range(0, v.size, _QUANTUM_CHUNK):
        scaled = _SCALES[:, None] * v[None, start : start + _QUANTUM_CHUNK]
        err = np.maximum(err, np.abs(scaled - np.round(scaled)).max(axis=1))
    for d, e in zip(range(-3, 13), err.tolist(), strict=True):
        if e <= DECIMAL_MATCH * max(1.0, big * 10.0**d * 1e-6):
            return 10.0**-d
    return None


def scale_aware_rtol(
    linkage: Linkage,
    sigma_max: float | Callable[[], float],
    *,
    constraints: ConstraintSet | None = None,
) -> float:
    r"""Relative rank tolerance from the matrix size and the coordinates' own rounding.

    .. math:: \text{rtol} = \max\Big(10\max(c, N)\,\varepsilon,\;
              10\,\frac{q/2}{\ell_{\min}\,\sigma_{\max}}\Big)

    where the second term counts only when the coordinates are decimal fractions
    rounded at a quantum :math:`q < 1` with :math:`q \le` :data:`EXACT_QUANTUM`
    :math:`\ell_{\min}` (see the module docstring): integers and coordinates with few
    decimals are exact data. ``c`` and ``N`` are the rigidity matrix's shape.
    ``sigma_max`` may be a function giving it, called only when the second term counts
    (exact data needs no power iteration); ``constraints``: the linkage's
    :class:`~linkage_widget.constraints.ConstraintSet` when the caller has it.
    """
    cs = ConstraintSet.from_linkage(linkage) if constraints is None else constraints
    floor = ROUNDOFF_FACTOR * max(cs.shape) * EPS
    q = _decimal_quantum(linkage.vertices)
    ell = float(cs.lengths.min()) if len(cs.lengths) else cs.length_scale
    if q is None or q >= 1.0 or ell <= 0 or q > EXACT_QUANTUM * ell:
        return floor  # float data, integers or few decimals: exact, only round-off counts
    smax = sigma_max() if callable(sigma_max) else sigma_max
    if smax <= 0:
        return floor
    return max(floor, ROUNDING_FACTOR * 0.5 * q / (ell * smax))
