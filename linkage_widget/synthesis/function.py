r"""Function generation: a four-bar whose rocker angle is a given function of the crank angle.

The variable :math:`x \in [x_0, x_1]` is the crank angle :math:`\varphi` and
:math:`y = f(x)`, :math:`y \in [y_0, y_1]`, the rocker angle :math:`\psi`, both linearly:

.. math:: \varphi = \varphi_s + \frac{x - x_0}{x_1 - x_0}(\varphi_e - \varphi_s), \qquad
          \psi = \psi_s + \frac{y - y_0}{y_1 - y_0}(\psi_e - \psi_s).

With the crank's pivot :math:`A_0` at the origin, the rocker's :math:`B_0 = (d, 0)`,
crank :math:`a`, coupler :math:`b`, rocker :math:`c` and both angles counter-clockwise
from :math:`A_0 \to B_0`, the coupler's length :math:`|B - A| = b` is Freudenstein's
equation

.. math:: K_1 \cos\psi - K_2 \cos\varphi + K_3 = \cos(\varphi - \psi), \qquad
          K_1 = \frac{d}{a},\; K_2 = \frac{d}{c},\;
          K_3 = \frac{a^2 - b^2 + c^2 + d^2}{2ac}

(Freudenstein's own form :math:`R_1\cos\varphi - R_2\cos\psi + R_3 = \cos(\varphi -
\psi)` is the same equation with the angles measured from :math:`B_0 \to A_0`). It is
linear in :math:`K`: three precision points :math:`(\varphi_j, \psi_j)` give a 3×3
system, more a least-squares one. The lengths follow, :math:`a = d/K_1`,
:math:`c = d/K_2`, :math:`b^2 = a^2 + c^2 + d^2 - 2acK_3`; a negative :math:`a` (or
:math:`c`) is a crank (rocker) turned by :math:`\pi`, which the angles it is read at
absorb. Chebyshev spacing puts the precision points at

.. math:: x_j = \frac{x_0 + x_1}{2} - \frac{x_1 - x_0}{2}\cos\frac{(2j - 1)\pi}{2n},
          \qquad j = 1, \dots, n,

which keeps the structural error (the generated :math:`y` less :math:`f(x)`, zero at the
precision points) small and evenly spread over the range.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import _checks
from ..model import Linkage
from ._four_bar import FourBar, branch_sign, four_bar, rocker_pin

__all__ = ["FunctionSynthesis", "chebyshev_points", "function_synthesis"]

SPACINGS = ("chebyshev", "uniform")


@dataclass(frozen=True, eq=False)
class FunctionSynthesis:
    r"""A four-bar generating :math:`y = f(x)`, and how well it does over the range.

    Attributes
    ----------
    four_bar : FourBar
        The linkage (layout of ``four_bar.txt``: crank 0 → 2, rocker 1 → 3), drawn at
        the start of the range :math:`x_0`.
    precision_points : ndarray, shape (n,)
        The :math:`x_j` where the four-bar generates :math:`f` (exactly for n = 3).
    crank_angles, rocker_angles : ndarray, shape (n,)
        The crank's and rocker's angles (radians, of :math:`A - A_0` and :math:`B - B_0`
        from the x-axis) at the precision points, as the linkage has them.
    coefficients : ndarray, shape (3,)
        Freudenstein's :math:`K_1, K_2, K_3`.
    samples : ndarray, shape (m,)
        :math:`x` over the range where the structural error is evaluated.
    structural_error : ndarray, shape (m,)
        The generated :math:`y` less :math:`f(x)` at ``samples``.
    input_map, output_map : tuple of float
        ``(x0, x1, angle at x0, angle at x1)`` and ``(y0, y1, ...)``: the linear maps
        from :math:`x` to the crank's angle and from :math:`y` to the rocker's.
    """

    four_bar: FourBar
    precision_points: np.ndarray
    crank_angles: np.ndarray
    rocker_angles: np.ndarray
    coefficients: np.ndarray
    samples: np.ndarray
    structural_error: np.ndarray
    input_map: tuple[float, float, float, float]
    output_map: tuple[float, float, float, float]

    @property
    def linkage(self) -> Linkage:
        """The four-bar's :class:`~linkage_widget.Linkage` (``four_bar.linkage``)."""
        return self.four_bar.linkage

    @property
    def lengths(self) -> np.ndarray:
        """Ground :math:`d`, crank :math:`a`, coupler :math:`b`, rocker :math:`c`, ``(4,)``."""
        return self.four_bar.lengths

    @property
    def max_error(self) -> float:
        """The largest :math:`|y - f(x)|` over ``samples``."""
        return float(np.max(np.abs(self.structural_error)))

    def crank_angle(self, x: Any) -> np.ndarray:
        r"""The crank's angle (radians) that stands for ``x``: the input map."""
        return _linear(self.input_map, x)

    def rocker_angle(self, y: Any) -> np.ndarray:
        r"""The rocker's angle (radians) that stands for ``y``: the output map."""
        return _linear(self.output_map, y)


def _linear(m: tuple[float, float, float, float], x: Any) -> np.ndarray:
    x0, x1, s, e = m
    return s + (np.asarray(x, dtype=float) - x0) / (x1 - x0) * (e - s)


def chebyshev_points(lo: float, hi: float, n: int) -> np.ndarray:
    r"""The :math:`n` Chebyshev precision points of :math:`[lo, hi]`, ascending (module doc)."""
    n = _checks.count(n, "chebyshev_points: n", 1)
    j = np.arange(1, n + 1)
    return (lo + hi) / 2 - (hi - lo) / 2 * np.cos((2 * j - 1) * np.pi / (2 * n))


def _pair(value: Any, name: str) -> tuple[float, float]:
    try:
        lo, hi = value
    except (TypeError, ValueError):
        raise ValueError(f"function_synthesis: {name} must be a pair (start, end)") from None
    lo, hi = _checks.finite(lo, f"{name}[0]"), _checks.finite(hi, f"{name}[1]")
    if lo == hi:
        raise ValueError(f"function_synthesis: {name} is degenerate ({lo:g} to {hi:g})")
    return lo, hi


def _values(f: Callable[[float], float], xs: np.ndarray) -> np.ndarray:
    ys = np.empty(len(xs))
    for i, x in enumerate(xs):
        y = f(float(x))
        try:
            ys[i] = float(y)
        except (TypeError, ValueError):
            raise ValueError(
                f"function_synthesis: f must return one number; f({x:g}) returned {y!r}"
            ) from None
    bad = np.flatnonzero(~np.isfinite(ys))
    if bad.size:
        raise ValueError(f"function_synthesis: f({xs[bad[0]]:g}) = {ys[bad[0]]} is not finite")
    return ys


def freudenstein(phi: np.ndarray, psi: np.ndarray) -> np.ndarray:
    r"""Freudenstein's :math:`K` from precision angles (3: solved, more: least squares)."""
    rows = np.column_stack([np.cos(psi), -np.cos(phi), np.ones_like(phi)])
    rhs = np.cos(phi - psi)
    k, _, rank, s = np.linalg.lstsq(rows, rhs, rcond=None)
    if rank < 3 or s[-1] < 1e-9 * s[0]:
        raise ValueError(
            "function_synthesis: the precision points give a singular Freudenstein system "
            "(repeated angles): widen the angle ranges"
        )
    return k


def _lengths(k: np.ndarray, d: float) -> tuple[float, float, float]:
    """Signed crank and rocker, and the coupler, from :math:`K` and the ground :math:`d`."""
    if min(abs(k[0]), abs(k[1])) < 1e-12:
        raise ValueError("function_synthesis: no four-bar (an infinite crank or rocker)")
    a, c = d / k[0], d / k[1]
    b2 = a * a + c * c + d * d - 2 * a * c * k[2]
    if b2 <= (1e-12 * d) ** 2:
        raise ValueError(
            "function_synthesis: no four-bar meets these precision points (the coupler's "
            f"squared length would be {b2:.3g}): change the angle ranges"
        )
    return a, float(np.sqrt(b2)), c


def function_synthesis(
    f: Callable[[float], float],
    input_range: Any,
    output_range: Any,
    *,
    input_angles: Any = (3 * np.pi / 4, 5 * np.pi / 4),
    output_angles: Any = (np.pi / 2, 5 * np.pi / 6),
    n_points: int = 3,
    spacing: str = "chebyshev",
    ground: float = 1.0,
    samples: int = 201,
) -> FunctionSynthesis:
    r"""A four-bar whose rocker angle generates :math:`y = f(x)` over ``input_range``.

    Parameters
    ----------
    f : callable
        :math:`y = f(x)`, a real function of one real variable.
    input_range : (x0, x1)
        The range of :math:`x`.
    output_range : (y0, y1)
        The values of :math:`y` that the rocker's angle range spans.
    input_angles, output_angles : (start, end), radians
        The crank's angles :math:`\varphi_s, \varphi_e` for :math:`x_0, x_1` and the
        rocker's :math:`\psi_s, \psi_e` for :math:`y_0, y_1` (default 135° to 225° and
        90° to 150°), from the ground line :math:`A_0 \to B_0`.
    n_points : int
        Precision points, at least 3 (3: exact; more: least squares).
    spacing : {"chebyshev", "uniform"}
        Chebyshev spacing (module doc) or evenly from :math:`x_0` to :math:`x_1`.
    ground : float
        The ground link :math:`d` (the problem is scale-free).
    samples : int
        Points over the range where the structural error is evaluated.

    Returns
    -------
    FunctionSynthesis
        The four-bar (``.linkage``, ``.lengths``), the precision points and the
        structural error.

    Raises
    ------
    ValueError
        A degenerate range, fewer than 3 points, an unknown spacing, ``f`` not finite at
        a point it is asked at, no four-bar through the precision points, or one that
        cannot be driven over the whole range on one branch (saying where).

    Examples
    --------
    >>> s = function_synthesis(np.log10, (1, 2), (0, np.log10(2)))
    >>> s.precision_points.round(3).tolist()
    [1.067, 1.5, 1.933]
    >>> bool(s.max_error < 0.002)  # in units of y, over the whole range
    True
    """
    n, samples = _check_counts(n_points, samples)
    if spacing not in SPACINGS:
        raise ValueError(f"function_synthesis: spacing must be one of {SPACINGS}, got {spacing!r}")
    x0, x1 = _pair(input_range, "input_range")
    y0, y1 = _pair(output_range, "output_range")
    input_map = (x0, x1, *_pair(input_angles, "input_angles"))
    output_map = (y0, y1, *_pair(output_angles, "output_angles"))
    d = _checks.positive(ground, "ground")
    lo, hi = min(x0, x1), max(x0, x1)
    xs = chebyshev_points(lo, hi, n) if spacing == "chebyshev" else np.linspace(lo, hi, n)
    ys = _values(f, xs)
    phi, psi = _linear(input_map, xs), _linear(output_map, ys)
    k = freudenstein(phi, psi)
    a, b, c = _lengths(k, d)
    # A negative length is the link turned by pi: the angles it is read at say so.
    input_map = _shifted(input_map, a)
    output_map = _shifted(output_map, c)
    a, c = abs(a), abs(c)
    crank, rocker = _linear(input_map, xs), _linear(output_map, ys)
    sigma = _branch(d, a, c, crank, rocker)
    grid = np.linspace(x0, x1, samples)
    y_made = _generated(grid, d, (a, b, c), sigma, input_map, output_map)
    a_start = a * np.array([np.cos(input_map[2]), np.sin(input_map[2])])
    b_start = rocker_pin(a_start, (d, 0.0), b, c, sigma)[0]
    made = four_bar(np.zeros(2), np.array([d, 0.0]), a_start, b_start)
    return FunctionSynthesis(
        made, xs, crank, rocker, k, grid, y_made - _values(f, grid), input_map, output_map
    )


def _check_counts(n_points: Any, samples: Any) -> tuple[int, int]:
    n = int(_checks.finite(n_points, "n_points"))
    if n < 3 or n != n_points:
        raise ValueError(
            f"function_synthesis: n_points must be an integer of at least 3 (three unknowns "
            f"K1, K2, K3), got {n_points}"
        )
    return n, _checks.count(samples, "function_synthesis: samples", 2)


def _shifted(m: tuple[float, float, float, float], length: float) -> tuple:
    turn = np.pi if length < 0 else 0.0
    return (m[0], m[1], m[2] + turn, m[3] + turn)


def _branch(d: float, a: float, c: float, crank: np.ndarray, rocker: np.ndarray) -> float:
    """The one assembly branch of the precision points, or a ValueError (a branch defect)."""
    pins_a = a * np.column_stack([np.cos(crank), np.sin(crank)])
    pins_b = np.array([d, 0.0]) + c * np.column_stack([np.cos(rocker), np.sin(rocker)])
    signs = branch_sign(pins_a, np.array([d, 0.0]), pins_b)
    if np.any(signs == 0) or np.any(signs != signs[0]):
        raise ValueError(
            "function_synthesis: the precision points lie on both assembly branches of the "
            "four-bar (a branch defect): no one motion passes through them all; change the "
            "angle ranges"
        )
    return float(signs[0])


def _generated(grid, d, abc, sigma, input_map, output_map) -> np.ndarray:
    r""":math:`y` the four-bar generates at ``grid``: crank at the input map, rocker read back."""
    a, b, c = abc
    theta = _linear(input_map, grid)
    pins_a = a * np.column_stack([np.cos(theta), np.sin(theta)])
    pins_b = rocker_pin(pins_a, (d, 0.0), b, c, sigma)
    bad = np.flatnonzero(np.isnan(pins_b[:, 0]))
    if bad.size:
        raise ValueError(
            "function_synthesis: the four-bar found does not assemble over the whole range "
            f"(first at x = {grid[bad[0]]:g}): change the angle ranges or the precision points"
        )
    rel = pins_b - np.array([d, 0.0])
    psi = np.arctan2(rel[:, 1], rel[:, 0])
    y0, y1, s, e = output_map
    # read the angle within half a turn of the middle of the rocker's range
    mid = (s + e) / 2
    psi = mid + np.mod(psi - mid + np.pi, 2 * np.pi) - np.pi
    return y0 + (psi - s) / (e - s) * (y1 - y0)
