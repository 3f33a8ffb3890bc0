"""The model's structural checks: index arrays, rods, fixed angles and pins of a linkage.

Split from :mod:`linkage_widget.model` (which calls them from ``Linkage.validate``
and its editing methods) to keep that module short; scalar and index checks
shared with the file format are :mod:`linkage_widget._checks`'. Every function
raises :class:`ValueError` (``IndexError`` for an editing index) naming the
offending item, and changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from . import _checks

__all__ = [
    "DIMENSIONS",
    "vertex_array",
    "as_index_array",
    "check_angles",
    "check_indices",
    "check_placement",
    "angles_at",
    "move_arms",
    "check_rods",
    "degenerate_angle",
    "editing_index",
]


#: The dimensions a linkage may have: the plane and space.
DIMENSIONS = (2, 3)


def vertex_array(vertices: Any, dim: int | None) -> np.ndarray:
    """The vertices of a new linkage as a float64 ``(n, dim)`` array (a copy).

    ``dim`` (2, 3 or ``None``) is needed only when there are no vertices (then 2 by
    default); with vertices it must agree with their number of columns. Finiteness is
    checked by ``Linkage.validate``, which names the vertex.
    """
    if dim is not None and (isinstance(dim, bool) or dim not in DIMENSIONS):
        raise ValueError(f"dim must be 2 (the plane) or 3 (space), got {dim!r}")
    verts = np.empty((0, 2)) if vertices is None else np.asarray(vertices, dtype=np.float64)
    if verts.size == 0:  # an empty (0, 3) array (a 3-D file without vertices) stays 3-D
        shaped = verts.ndim == 2 and verts.shape[1] in DIMENSIONS
        return np.empty((0, dim or (verts.shape[1] if shaped else 2)))
    if verts.ndim != 2 or verts.shape[1] not in DIMENSIONS:
        raise ValueError(
            f"vertices must have shape (n, 2) for a planar linkage or (n, 3) for a spatial "
            f"one, got {verts.shape}"
        )
    if dim is not None and verts.shape[1] != dim:
        raise ValueError(f"dim={dim} but the vertices have {verts.shape[1]} coordinates each")
    return np.array(verts, dtype=np.float64)


def as_index_array(values: Iterable[Any], width: int, what: str) -> np.ndarray:
    arr = np.asarray(list(values) if not isinstance(values, np.ndarray) else values)
    if arr.size == 0:
        return np.empty((0, width), dtype=np.int64)
    if arr.ndim != 2 or arr.shape[1] != width:
        raise ValueError(f"{what} must be a sequence of {width}-tuples, got shape {arr.shape}")
    if not np.issubdtype(arr.dtype, np.integer):
        if not np.all(np.equal(np.mod(arr, 1), 0)):
            raise ValueError(f"{what} must hold integer vertex indices")
    return arr.astype(np.int64)


def editing_index(value: Any, count: int, name: str, items: str) -> int:
    """An index for an editing method: ``IndexError`` (naming it) when it is not one."""
    try:
        return _checks.item_index(value, count, name, items)
    except ValueError as exc:
        raise IndexError(str(exc)) from None


def check_indices(rods: np.ndarray, angles: np.ndarray, pinned: np.ndarray, n: int) -> None:
    """Every index of a rod, angle and pin in ``range(n)``; no vertex pinned twice."""
    for what, arr in (("rod", rods), ("angle", angles)):
        row = _checks.first_row_out_of_range(arr, n)
        if row is not None:
            raise ValueError(
                f"{what} {row} {tuple(arr[row].tolist())}: vertex index out of range "
                f"(there are {n} vertices)"
            )
    bad = _checks.first_row_out_of_range(pinned, n)
    if bad is not None:
        raise ValueError(f"pinned vertex {int(pinned[bad])} out of range (there are {n} vertices)")
    if len(np.unique(pinned)) != len(pinned):
        raise ValueError("a vertex is pinned twice")


def check_rods(rods: np.ndarray, lengths: np.ndarray) -> None:
    """No rod from a vertex to itself, none twice (in either order), every length usable."""
    if not len(rods):
        return
    selfloop = np.flatnonzero(rods[:, 0] == rods[:, 1])
    if selfloop.size:
        r = int(selfloop[0])
        raise ValueError(f"rod {r} joins vertex {int(rods[r, 0])} to itself")
    key = np.sort(rods, axis=1)
    _, first, counts = np.unique(key, axis=0, return_index=True, return_counts=True)
    if np.any(counts > 1):
        dup = key[first[np.argmax(counts > 1)]]
        raise ValueError(f"rod {int(dup[0])}-{int(dup[1])} appears more than once")
    bad = _checks.first_bad_rod_length(lengths)
    if bad is not None:
        i, j = rods[bad].tolist()
        _checks.rod_length(lengths[bad], f"rod {bad} ({i}-{j})")


def degenerate_angle(vertices: np.ndarray, i: int, j: int, k: int) -> str | None:
    """Why the angle at ``i`` between arms ``i-j`` and ``i-k`` is undefined, else ``None``.

    A fixed angle needs no rods (it is one constraint on three joints, the 2007 page's
    "more motion possible"), but each arm needs a direction: an arm whose two joints
    coincide has none, and the angle row's gradient divides by the arm's length.

    >>> p = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 0.0]])
    >>> degenerate_angle(p, 0, 1, 2)
    'joints 0 and 2 coincide: the arm 0-2 has no direction, so the angle at 0 is undefined'
    """
    for arm in (j, k):
        if np.array_equal(vertices[i], vertices[arm]):
            return (
                f"joints {i} and {arm} coincide: the arm {i}-{arm} has no direction, "
                f"so the angle at {i} is undefined"
            )
    return None


def check_angles(angles: np.ndarray, vertices: np.ndarray) -> None:
    """Three distinct vertices per angle, arms of nonzero length, no angle twice; no rods needed."""
    for row, (i, j, k) in enumerate(angles.tolist()):
        if j == k or i == j or i == k:
            raise ValueError(f"angle {row} ({i}, {j}, {k}) repeats a vertex")
        why = degenerate_angle(vertices, i, j, k)
        if why is not None:
            raise ValueError(f"angle {row} ({i}, {j}, {k}): {why}")
    if len(angles):
        key = np.column_stack([angles[:, 0], np.sort(angles[:, 1:], axis=1)])
        if len(np.unique(key, axis=0)) != len(key):
            raise ValueError("a fixed angle appears more than once")


def check_placement(new: np.ndarray, i: int, rods: np.ndarray, angles: np.ndarray) -> None:
    """Vertex ``i`` moved to ``new[i]`` (editing): no rod out of bounds, no angle without arms."""
    with np.errstate(over="ignore"):
        lengths = _checks.row_norms(new[rods[:, 0]] - new[rods[:, 1]])
    bad = _checks.first_bad_rod_length(lengths)
    if bad is not None:
        a, b = rods[bad].tolist()
        _checks.rod_length(lengths[bad], f"moving vertex {i} there: rod {bad} ({a}-{b})")
    for row in np.flatnonzero(np.any(angles == i, axis=1)):
        a, b, c = angles[row].tolist()  # an angle needs no rods, but directions
        why = degenerate_angle(new, a, b, c)
        if why is not None:
            raise ValueError(f"moving vertex {i} there: angle {row} ({a}, {b}, {c}): {why}")


def check_new_rod(vertices: np.ndarray, i: int, j: int, existing: int | None) -> None:
    """A new rod ``i-j`` (``existing``: the rod joining them already, or ``None``)."""
    if i == j:
        raise ValueError(f"a rod needs two distinct vertices, got {i} twice")
    if existing is not None:
        raise ValueError(f"rod {i}-{j} exists already")
    with np.errstate(over="ignore"):
        _checks.rod_length(_checks.row_norms(vertices[[i]] - vertices[[j]])[0], f"rod {i}-{j}")


def check_new_angle(vertices: np.ndarray, ijk: tuple[int, int, int], existing: int | None) -> None:
    """A new fixed angle ``(i, j, k)`` (``existing``: the same angle, or ``None``)."""
    i, j, k = ijk
    if len({i, j, k}) != 3:
        raise ValueError(f"an angle needs three distinct vertices, got ({i}, {j}, {k})")
    why = degenerate_angle(vertices, i, j, k)
    if why is not None:
        raise ValueError(f"cannot fix the angle ({i}, {j}, {k}): {why}")
    if existing is not None:
        raise ValueError(f"the angle at {i} between {j} and {k} is fixed already")


def angles_at(p: np.ndarray, angles: np.ndarray) -> np.ndarray:
    r"""The angles ``(i, j, k)`` at ``p``: signed in the plane, in :math:`[0, \pi]` in space."""
    a = p[angles[:, 1]] - p[angles[:, 0]]
    b = p[angles[:, 2]] - p[angles[:, 0]]
    if p.shape[1] == 3:
        return np.arctan2(_checks.row_norms(np.cross(a, b)), (a * b).sum(axis=1))
    return np.arctan2(a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0], (a * b).sum(axis=1))


def move_arms(angles: np.ndarray, i: int, j: int, mid: int) -> None:
    """Rod ``i-j`` is split at ``mid``: the arms along it now end at ``mid`` (in place)."""
    for apex, other in ((i, j), (j, i)):
        hit = (angles[:, 0] == apex) & (angles[:, 1:] == other).any(axis=1)
        cols = angles[hit, 1:]
        cols[cols == other] = mid
        angles[hit, 1:] = cols
