"""The fields of a drawing primitive: frozen point arrays and style fields.

A primitive is a value: its arrays are copies that cannot be written, so a
recorded frame never changes when the caller's array does. A *style field*
(``color``, ``width``, ``alpha``, ``fill`` …) holds either one value for all
items or one value per item; :func:`per_item` broadcasts it and
:func:`is_uniform` tells the two apart, so a renderer can emit one shared
style or one per item.

Examples
--------
>>> per_item(("#ff0000", "#00ff00"), 2).tolist()
['#ff0000', '#00ff00']
>>> is_uniform(2.0), is_uniform(np.array([1.0, 2.0]))
(True, False)
>>> point_array([[1, 2]], (2,)).flags.writeable
False
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = [
    "ColorSpec",
    "FloatSpec",
    "frozen_copy",
    "init_flat",
    "is_uniform",
    "per_item",
    "point_array",
    "split_flat",
    "style_field",
]

#: A colour field: one CSS ``"#rrggbb"`` for all items, or a tuple with one per item.
ColorSpec = str | tuple[str, ...]
#: A number field: one float for all items, or an ``(k,)`` array with one per item.
FloatSpec = float | np.ndarray


def per_item(value: Any, k: int) -> np.ndarray:
    """Broadcast a style field (one value, or one per item) to an array of ``k`` items.

    Parameters
    ----------
    value : str, float, tuple or ndarray
        A scalar style value or a sequence of ``k`` values.
    k : int
        Number of items.

    Returns
    -------
    ndarray, shape (k,)
        Object array for strings, float64 otherwise.

    Examples
    --------
    >>> per_item("#ff0000", 2).tolist()
    ['#ff0000', '#ff0000']
    >>> per_item(2.0, 3).tolist()
    [2.0, 2.0, 2.0]
    """
    if isinstance(value, str):
        out = np.empty(k, dtype=object)
        out[:] = value
        return out
    if isinstance(value, tuple) and value and isinstance(value[0], str):
        if len(value) != k:
            raise ValueError(f"expected {k} per-item values, got {len(value)}")
        out = np.empty(k, dtype=object)
        out[:] = value
        return out
    arr = np.asarray(value, dtype=np.float64)
    if arr.ndim == 0:
        return np.full(k, float(arr))
    if arr.shape != (k,):
        raise ValueError(f"expected {k} per-item values, got shape {arr.shape}")
    return arr


def is_uniform(value: Any) -> bool:
    """Whether a style field holds one value for all items (a scalar or a string)."""
    return isinstance(value, str) or np.ndim(value) == 0


def frozen_copy(arr: Any) -> np.ndarray:
    """A read-only copy of ``arr``.

    Primitives are values: a recorded frame must not change when the caller's
    array does, and nobody may edit a primitive's array in place.
    """
    arr = np.array(arr, copy=True)
    arr.flags.writeable = False
    return arr


def point_array(a: Any, tail: tuple[int, ...]) -> np.ndarray:
    """``a`` as a read-only float64 array of shape ``(k, *tail)``; empty input gives ``k = 0``.

    Raises
    ------
    ValueError
        When the trailing dimensions are not ``tail``.
    """
    arr = np.asarray(a, dtype=np.float64)
    if arr.size == 0:
        arr = arr.reshape((0, *tail))
    if arr.shape[1:] != tail:
        raise ValueError(f"expected shape (k, {', '.join(map(str, tail))}), got {arr.shape}")
    return frozen_copy(arr)


def style_field(value: Any) -> Any:
    """A style field as stored: strings and scalars as given, tuples as tuples, arrays frozen."""
    if isinstance(value, str | tuple) or value is None or np.ndim(value) == 0:
        return value
    return frozen_copy(np.asarray(value, dtype=np.float64))


def init_flat(item: Any, minimum: int) -> None:
    """Freeze ``item.points`` (N, 2) and ``item.counts`` (k,) of a flat list of point runs."""
    object.__setattr__(item, "points", point_array(item.points, (2,)))
    counts = np.asarray(item.counts, dtype=np.int64).reshape(-1)
    if counts.sum() != len(item.points) or np.any(counts < minimum):
        raise ValueError(f"counts must be >= {minimum} and sum to the number of points")
    object.__setattr__(item, "counts", frozen_copy(counts))


def split_flat(points: np.ndarray, counts: np.ndarray) -> list[np.ndarray]:
    """A flat list of point runs as a list of ``(c, 2)`` arrays."""
    return np.split(points, np.cumsum(counts)[:-1]) if len(counts) else []
