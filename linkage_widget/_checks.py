"""Every scalar and index check of the package, once.

Each function takes a value from a user (a number, a string from a slider, a
numpy scalar), returns it as a plain Python ``float``/``int``/array, and
raises :class:`ValueError` naming the parameter when it is unusable. Callers
that need another exception type (traitlets' ``TraitError``) wrap these; they
never repeat the test. Two refusals are also the built-in error Python itself
would raise: a value that is no number at all (:class:`NotANumberError`, also a
:class:`TypeError`, as from ``float("big")``'s callers) and an index out of range
(:class:`OutOfRangeError`, also an :class:`IndexError`, as from ``list[i]``), so
that ``Simulator.attract("a", ...)`` keeps raising the TypeError it always did.

>>> positive(0.5, "step_size")
0.5
>>> unit_interval(2, "mass_distribution")
Traceback (most recent call last):
...
ValueError: mass_distribution must be a number in [0, 1], got 2
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

__all__ = [
    "MAX_ROD_LENGTH",
    "MIN_ROD_LENGTH",
    "NotANumberError",
    "OutOfRangeError",
    "finite",
    "finite_point",
    "finite_points",
    "first_bad_rod_length",
    "first_row_out_of_range",
    "item_index",
    "magnitude",
    "non_negative",
    "positive",
    "point_shape",
    "rod_length",
    "row_norms",
    "unit_interval",
    "vertex_index",
]

#: Shortest and longest rod. The constraint math squares rod lengths (and arm
#: lengths of fixed angles); a square outside float64's normal range (about
#: 1e-308 to 1e308) would be 0 or inf, and the motion would turn into NaN.
#: Here, below the file format and the model, so that both refuse the same rods.
MIN_ROD_LENGTH = 1e-150
MAX_ROD_LENGTH = 1e150


class NotANumberError(ValueError, TypeError):
    """A value that is no number (or, for an index, no whole number) at all."""


class OutOfRangeError(ValueError, IndexError):
    """An index outside its range."""


def _as_float(value: Any, name: str, what: str) -> float:
    if isinstance(value, bool):
        raise NotANumberError(f"{name} must be {what}, got {value!r}")
    try:
        return float(value)
    except (TypeError, ValueError):
        raise NotANumberError(f"{name} must be {what}, got {value!r}") from None


def finite(value: Any, name: str) -> float:
    """``value`` as a finite float."""
    v = _as_float(value, name, "a finite number")
    if not math.isfinite(v):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    return v


def positive(value: Any, name: str) -> float:
    """``value`` as a finite float > 0."""
    v = _as_float(value, name, "a positive finite number")
    if not (math.isfinite(v) and v > 0.0):
        raise ValueError(f"{name} must be a positive finite number, got {value!r}")
    return v


def count(value: Any, name: str, least: int) -> int:
    """``value`` as a whole number >= ``least`` (a float equal to one is accepted)."""
    v = _as_float(value, name, f"a whole number >= {least}")
    if not (math.isfinite(v) and v == int(v) and v >= least):
        raise ValueError(f"{name} must be a whole number >= {least}, got {value!r}")
    return int(v)


def non_negative(value: Any, name: str) -> float:
    """``value`` as a finite float >= 0."""
    v = _as_float(value, name, "a finite number >= 0")
    if not (math.isfinite(v) and v >= 0.0):
        raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")
    return v


def unit_interval(value: Any, name: str) -> float:
    """``value`` as a float in ``[0, 1]`` (NaN is refused)."""
    v = _as_float(value, name, "a number in [0, 1]")
    if not 0.0 <= v <= 1.0:
        raise ValueError(f"{name} must be a number in [0, 1], got {value!r}")
    return v


def point_shape(dim: int) -> str:
    """How a point of ``dim`` coordinates is named in messages: ``(x, y)`` or ``(x, y, z)``."""
    return "(x, y) pair" if dim == 2 else "(x, y, z) triple"


def finite_point(value: Any, name: str, dim: int = 2) -> np.ndarray:
    """``value`` as a finite float array of shape ``(dim,)``: ``(x, y)`` or, in 3-D, ``(x, y, z)``.

    >>> finite_point((1, 2, 3), "vertex position", dim=3).tolist()
    [1.0, 2.0, 3.0]
    >>> finite_point((1, 2), "vertex position", dim=3)
    Traceback (most recent call last):
    ...
    ValueError: vertex position must be a finite (x, y, z) triple, got (1, 2)
    """
    what = point_shape(dim)
    try:
        p = np.asarray(value, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a finite {what}, got {value!r}") from None
    if p.shape != (dim,) or not np.all(np.isfinite(p)):
        raise ValueError(f"{name} must be a finite {what}, got {value!r}")
    return p


def item_index(value: Any, n: int, name: str, items: str = "items") -> int:
    """``value`` as an ``int`` in ``range(n)``, an index among ``n`` ``items``.

    Bools and non-integral numbers (``1.0`` too) are refused; numpy integers are fine.

    >>> item_index(2, 3, "rod", "rods")
    2
    >>> item_index(3, 3, "rod", "rods")
    Traceback (most recent call last):
    ...
    linkage_widget._checks.OutOfRangeError: rod 3 out of range (there are 3 rods)
    """
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise NotANumberError(f"{name} must be an index (a whole number), got {value!r}")
    if not 0 <= int(value) < n:
        raise OutOfRangeError(f"{name} {int(value)} out of range (there are {n} {items})")
    return int(value)


def vertex_index(value: Any, n: int, name: str) -> int:
    """``value`` as an ``int`` in ``range(n)``; bools and non-integral numbers are refused."""
    return item_index(value, n, name, "vertices")


def first_row_out_of_range(indices: np.ndarray, n: int) -> int | None:
    """First row of ``indices`` (shape ``(m, w)`` or ``(m,)``) with an entry not in ``range(n)``.

    The vectorised form of :func:`item_index`, for checking every rod or angle at once.

    >>> first_row_out_of_range(np.array([[0, 1], [1, 2], [-1, 0]]), 3)
    2
    """
    bad = (indices < 0) | (indices >= n)
    rows = bad.any(axis=1) if bad.ndim == 2 else bad
    return int(np.argmax(rows)) if rows.any() else None


def finite_points(value: Any, name: str, dims: tuple[int, ...] = (2,)) -> np.ndarray:
    """``value`` as a finite float64 array of shape ``(n, d)``, ``d`` in ``dims``.

    The message names the first bad row and the coordinate (x, y or z) that is not finite.

    >>> finite_points([[0, 1], [2, float("inf")]], "vertex")
    Traceback (most recent call last):
    ...
    ValueError: vertex 1 has a non-finite coordinate (y = inf)
    >>> finite_points([[0, 1, 2]], "vertex", dims=(2, 3)).shape
    (1, 3)
    """
    points = np.asarray(value, dtype=np.float64)
    if points.ndim != 2 or points.shape[1] not in dims:
        want = " or ".join(f"(n, {d})" for d in dims)
        raise ValueError(f"{name} positions must have shape {want}, got {points.shape}")
    finite = np.isfinite(points)
    finite_rows = np.all(finite, axis=1)
    if not finite_rows.all():
        row = int(np.argmin(finite_rows))
        col = int(np.argmin(finite[row]))
        raise ValueError(
            f"{name} {row} has a non-finite coordinate ({'xyz'[col]} = {float(points[row, col])!r})"
        )
    return points


def row_norms(d: np.ndarray) -> np.ndarray:
    r"""Euclidean lengths :math:`|d_r|` of the rows of ``d`` (shape ``(m, 2)`` or ``(m, 3)``).

    ``hypot`` throughout, so that no square under- or overflows (rods may be as short as
    :data:`MIN_ROD_LENGTH`); in 2-D exactly ``np.hypot(d[:, 0], d[:, 1])``, bit for bit.

    >>> row_norms(np.array([[3.0, 4.0], [1e-200, 0.0]])).tolist()
    [5.0, 1e-200]
    >>> row_norms(np.array([[2.0, 3.0, 6.0]])).tolist()
    [7.0]
    """
    d = np.asarray(d, dtype=np.float64)
    lengths = np.hypot(d[:, 0], d[:, 1])
    for col in range(2, d.shape[1]):
        lengths = np.hypot(lengths, d[:, col])
    return lengths


def rod_length(length: float, name: str) -> float:
    r"""``length`` when a rod may have it: :math:`10^{-150} \le \ell \le 10^{150}`.

    Outside these bounds the squared length (which the constraints use) under- or
    overflows; NaN is refused too.

    >>> rod_length(5.0, "rod 0-1")
    5.0
    >>> rod_length(0.0, "rod 0-1")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: rod 0-1 has zero length: its vertices coincide (...)
    """
    length = float(length)
    if not length <= MAX_ROD_LENGTH:
        raise ValueError(
            f"{name} is too long: its vertices are too far apart ({length:.3g}; rods must be "
            f"shorter than {MAX_ROD_LENGTH:g}, or their squared length overflows)"
        )
    if length < MIN_ROD_LENGTH:
        almost = "" if length == 0.0 else f" (almost: {length:.3g})"
        raise ValueError(
            f"{name} has zero length{almost}: its vertices coincide (a zero-length rod cannot "
            "move; merge the two into one joint instead)"
        )
    return length


def first_bad_rod_length(lengths: np.ndarray) -> int | None:
    """Index of the first of ``lengths`` (shape ``(m,)``) that :func:`rod_length` refuses.

    The vectorised form of the same bounds, for checking every rod at once.

    >>> first_bad_rod_length(np.array([1.0, 2.0, 0.0, np.inf]))
    2
    >>> first_bad_rod_length(np.array([1.0])) is None
    True
    """
    ok = (lengths >= MIN_ROD_LENGTH) & (lengths <= MAX_ROD_LENGTH)
    return None if ok.all() else int(np.argmin(ok))


def magnitude(value: Any, name: str) -> Any:
    """``value`` as a finite float, or ``value`` itself when it is callable.

    For loads given as a number or as a function of the state (the function's
    results are checked where it is called).

    >>> magnitude(2, "force")
    2.0
    >>> magnitude(abs, "force") is abs
    True
    """
    if callable(value):
        return value
    return finite(value, name)
