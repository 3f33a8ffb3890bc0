"""Every scalar and index check of the package, once.

Each function takes a value from a user (a number, a string from a slider, a
numpy scalar), returns it as a plain Python ``float``/``int``/array, and
raises :class:`ValueError` naming the parameter when it is unusable. Callers
that need another exception type (traitlets' ``TraitError``) wrap these; they
never repeat the test.

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
    "finite",
    "finite_point",
    "non_negative",
    "positive",
    "unit_interval",
    "vertex_index",
]


def _as_float(value: Any, name: str, what: str) -> float:
    if isinstance(value, bool):
        raise ValueError(f"{name} must be {what}, got {value!r}")
    try:
        return float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be {what}, got {value!r}") from None


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


def finite_point(value: Any, name: str) -> np.ndarray:
    """``value`` as a finite ``(x, y)`` float array of shape ``(2,)``."""
    try:
        p = np.asarray(value, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a finite (x, y) pair, got {value!r}") from None
    if p.shape != (2,) or not np.all(np.isfinite(p)):
        raise ValueError(f"{name} must be a finite (x, y) pair, got {value!r}")
    return p


def vertex_index(value: Any, n: int, name: str) -> int:
    """``value`` as an ``int`` in ``range(n)``; bools and non-integral numbers are refused."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise ValueError(f"{name} must be a vertex index, got {value!r}")
    if not 0 <= int(value) < n:
        raise ValueError(f"{name} {int(value)} out of range (there are {n} vertices)")
    return int(value)
