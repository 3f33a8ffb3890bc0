r"""Sliders and slots: the joints a linkage holds on a line (the model keeps them here).

A **slider** keeps joint ``j`` on a fixed line of the ground, through the point
:math:`P` with unit direction :math:`u` (the piston of a slider-crank): one constraint,
:math:`n \cdot (p_j - P) = 0` with :math:`n = (-u_y, u_x)`. A **slot** ``(a, b, c)``
keeps joint ``c`` on the line through joints ``a`` and ``b`` (a pin in a slot): one
constraint, :math:`(p_b - p_a) \times (p_c - p_a) = 0`. Two slots on one axis,
``(a, b, c)`` and ``(a, b, d)``, make seed 003's prismatic joint between the body of
``a, b`` and the body of ``c, d``: its equations (16a) (the axes stay parallel) and (16b)
(a point of one body stays on the other's axis) in point coordinates. The rows are
:mod:`linkage_widget.constraints`'.

Both are planar: a line in space would take two rows, and a 3-D linkage refuses them.
:class:`Guides` is the table a :class:`~linkage_widget.Linkage` holds: it follows the
model's edits (a removed joint takes its sliders and slots along, the others are
renumbered) and refuses bad input, naming it, without changing.

>>> g = Guides.build([(1, (0.0, 0.0), (2.0, 0.0))], [], [[0, 1], [3, 0]], [])
>>> g.sliders[0]
Slider(joint=1, point=(0.0, 0.0), direction=(1.0, 0.0))
>>> Guides.build([(1, (0.0, 0.0), (0.0, 0.0))], [], [[0, 1], [3, 0]], [])
Traceback (most recent call last):
...
ValueError: slider 0 on joint 1: its direction (0.0, 0.0) has no length
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

import numpy as np

from . import _checks

__all__ = ["Guides", "Slider"]


class Slider(NamedTuple):
    """Joint ``joint`` slides on the fixed line through ``point`` along ``direction`` (unit)."""

    joint: int
    point: tuple[float, float]
    direction: tuple[float, float]


def _off_line(q: np.ndarray, point: np.ndarray, direction: np.ndarray) -> float:
    """Distance of ``q`` from the line through ``point`` along the unit ``direction``."""
    d = q - point
    return abs(float(d[1] * direction[0] - d[0] * direction[1]))


def _tolerance(*points: np.ndarray) -> float:
    """How far off its line a joint may be read (round-off of the numbers given)."""
    return 1e-9 * (1.0 + max(float(np.max(np.abs(p))) for p in points))


class Guides:
    """The sliders and slots of one planar linkage (see the module docstring).

    Build it with :meth:`build`, which checks everything; the editing methods check
    their own input against the linkage's ``vertices`` and ``pinned`` joints.
    """

    def __init__(self) -> None:
        self._joints = np.zeros(0, np.int64)
        self._points = np.zeros((0, 2))
        self._directions = np.zeros((0, 2))
        self._slots = np.zeros((0, 3), np.int64)

    @classmethod
    def build(
        cls, sliders: Iterable[Any], slots: Iterable[Any], vertices: Any, pinned: Any
    ) -> Guides:
        """The guides of a new linkage; ``ValueError`` naming the first bad one."""
        out = cls()
        for s in sliders:
            joint, point, direction = _unpack_slider(s, out.n_sliders)
            out.add_slider(joint, direction, point, vertices, pinned)
        for t in slots:
            out.add_slot(*_unpack_slot(t, out.n_slots), vertices)
        return out

    # ------------------------------------------------------------------ data
    @property
    def sliders(self) -> tuple[Slider, ...]:
        """The sliders as :class:`Slider` tuples (they round-trip into ``Linkage(sliders=)``)."""
        return tuple(
            Slider(int(j), (float(p[0]), float(p[1])), (float(d[0]), float(d[1])))
            for j, p, d in zip(self._joints, self._points, self._directions, strict=True)
        )

    @property
    def slider_joints(self) -> np.ndarray:
        """Joint of each slider, shape ``(s,)`` (a copy)."""
        return self._joints.copy()

    @property
    def slider_points(self) -> np.ndarray:
        """A point of each slider's line, shape ``(s, 2)`` (a copy)."""
        return self._points.copy()

    @property
    def slider_directions(self) -> np.ndarray:
        """Unit direction of each slider's line, shape ``(s, 2)`` (a copy)."""
        return self._directions.copy()

    @property
    def slots(self) -> np.ndarray:
        """Slots ``(a, b, c)``: joint ``c`` on the line through ``a`` and ``b``; ``(t, 3)``."""
        return self._slots.copy()

    @property
    def n_sliders(self) -> int:
        """Number of sliders."""
        return len(self._joints)

    @property
    def n_slots(self) -> int:
        """Number of slots."""
        return len(self._slots)

    def is_empty(self) -> bool:
        """Whether there is no slider and no slot."""
        return not (self.n_sliders or self.n_slots)

    def slider_of(self, joint: int) -> int | None:
        """The slider of ``joint``, or ``None``."""
        hit = np.flatnonzero(self._joints == joint)
        return int(hit[0]) if hit.size else None

    # --------------------------------------------------------------- editing
    def add_slider(self, joint: int, direction: Any, point: Any, vertices: Any, pinned: Any) -> int:
        """Add a slider (``point`` ``None``: through the joint); return its index."""
        pts = np.asarray(vertices, dtype=np.float64)
        where = f"slider {self.n_sliders}"
        if pts.ndim != 2 or pts.shape[1] != 2:
            raise ValueError(f"{where}: sliders are planar (this linkage is 3-D)")
        joint = _checks.vertex_index(joint, len(pts), f"{where}: joint")
        where = f"{where} on joint {joint}"
        d = _checks.finite_point(direction, f"{where}: direction")
        length = float(np.hypot(*d))
        if length == 0.0:
            raise ValueError(f"{where}: its direction {tuple(d.tolist())} has no length")
        p = pts[joint] if point is None else _checks.finite_point(point, f"{where}: point")
        # A unit direction is kept as given: d / |d| is not idempotent in floating point
        # (an ulp off for about one direction in five), and a saved linkage must read back
        # bit for bit.
        u = d if abs(length - 1.0) <= 4 * np.finfo(float).eps else d / length
        if joint in np.asarray(pinned, dtype=np.int64).tolist():
            raise ValueError(f"{where}: the joint is pinned (a pinned joint cannot slide)")
        if self.slider_of(joint) is not None:
            raise ValueError(f"{where}: the joint slides on slider {self.slider_of(joint)} already")
        off = _off_line(pts[joint], p, u)
        if off > _tolerance(pts[joint], p):
            raise ValueError(
                f"{where}: the joint is {off:.6g} off the line through {tuple(p.tolist())}"
            )
        self._joints = np.append(self._joints, joint)
        self._points = np.vstack([self._points, p[None, :]])
        self._directions = np.vstack([self._directions, u[None, :]])
        return self.n_sliders - 1

    def add_slot(self, a: int, b: int, c: int, vertices: Any) -> int:
        """Add slot ``(a, b, c)``: ``c`` on the line through ``a`` and ``b``; return its index."""
        pts = np.asarray(vertices, dtype=np.float64)
        where = f"slot {self.n_slots}"
        if pts.ndim != 2 or pts.shape[1] != 2:
            raise ValueError(f"{where}: slots are planar (this linkage is 3-D)")
        a, b, c = (_checks.vertex_index(v, len(pts), f"{where}: joint") for v in (a, b, c))
        where = f"{where} ({a}, {b}, {c})"
        if len({a, b, c}) != 3:
            raise ValueError(f"{where}: a slot needs three distinct joints")
        _check_slot(pts, a, b, c, where)
        same = (self._slots[:, 2] == c) & (
            ((self._slots[:, 0] == a) & (self._slots[:, 1] == b))
            | ((self._slots[:, 0] == b) & (self._slots[:, 1] == a))
        )
        if same.any():
            raise ValueError(f"{where}: joint {c} is in that slot already")
        self._slots = np.vstack([self._slots, [[a, b, c]]])
        return self.n_slots - 1

    def check_placement(self, pts: np.ndarray, moved: int) -> None:
        """Joint ``moved`` was placed (editing): each slot on it keeps its joint on its line."""
        for k in np.flatnonzero(np.any(self._slots == moved, axis=1)):
            a, b, c = self._slots[k].tolist()
            _check_slot(pts, a, b, c, f"moving vertex {moved} there: slot {k} ({a}, {b}, {c})")

    def remove(self, kind: str, index: int) -> None:
        """Remove slider (``kind="slider"``) or slot (``"slot"``) ``index``."""
        if kind not in ("slider", "slot"):
            raise ValueError(f"kind must be 'slider' or 'slot', got {kind!r}")
        (self.remove_slider if kind == "slider" else self.remove_slot)(index)

    def remove_slider(self, s: int) -> None:
        """Remove slider ``s``."""
        s = _checks.item_index(s, self.n_sliders, "slider", "sliders")
        self._joints = np.delete(self._joints, s)
        self._points = np.delete(self._points, s, axis=0)
        self._directions = np.delete(self._directions, s, axis=0)

    def remove_slot(self, t: int) -> None:
        """Remove slot ``t``."""
        t = _checks.item_index(t, self.n_slots, "slot", "slots")
        self._slots = np.delete(self._slots, t, axis=0)

    def check_pin(self, joint: int) -> None:
        """Refuse to pin a sliding joint (``ValueError`` naming its slider)."""
        s = self.slider_of(joint)
        if s is not None:
            raise ValueError(f"joint {joint} slides on slider {s}: remove the slider to pin it")

    def follow(self, pts: np.ndarray) -> None:
        """The joints were placed at ``pts`` ``(n, 2)``: each slider's line goes through its joint.

        The line shifts sideways only (its direction and the point's place along it kept,
        so a drawn track stays put): a placement that keeps the sliders (a motion, a
        chart's) moves it by round-off at most; an edit carries the line with its joint.
        """
        if self.n_sliders:
            normal = np.column_stack([-self._directions[:, 1], self._directions[:, 0]])
            off = ((pts[self._joints] - self._points) * normal).sum(axis=1)
            self._points = self._points + off[:, None] * normal

    def remove_vertex(self, i: int) -> None:
        """Drop the guides on vertex ``i`` and renumber the joints above it."""
        keep = self._joints != i
        self._joints = self._joints[keep]
        self._joints -= self._joints > i
        self._points, self._directions = self._points[keep], self._directions[keep]
        self._slots = self._slots[~np.any(self._slots == i, axis=1)]
        self._slots -= self._slots > i

    def clear(self) -> None:
        """Remove every slider and slot."""
        self.__init__()

    def copy(self) -> Guides:
        """An independent copy."""
        out = Guides()
        out._joints, out._points = self._joints.copy(), self._points.copy()
        out._directions, out._slots = self._directions.copy(), self._slots.copy()
        return out

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Guides):
            return NotImplemented
        mine = (self._joints, self._points, self._directions, self._slots)
        theirs = (other._joints, other._points, other._directions, other._slots)
        return all(np.array_equal(x, y) for x, y in zip(mine, theirs, strict=True))

    __hash__ = None  # mutable


def _check_slot(pts: np.ndarray, a: int, b: int, c: int, where: str) -> None:
    """Axis joints ``a``, ``b`` apart and joint ``c`` on their line, or ``ValueError``."""
    e = pts[b] - pts[a]
    length = float(np.hypot(*e))
    if length == 0.0:
        raise ValueError(f"{where}: its axis joints {a} and {b} coincide (no line)")
    off = _off_line(pts[c], pts[a], e / length)
    if off > _tolerance(pts[a], pts[b], pts[c]):
        raise ValueError(f"{where}: joint {c} is {off:.6g} off the line {a}-{b}")


def _unpack_slider(s: Any, index: int) -> tuple[Any, Any, Any]:
    try:
        joint, point, direction = s
    except (TypeError, ValueError):
        raise ValueError(f"slider {index}: expected (joint, (x, y), (dx, dy)), got {s!r}") from None
    return joint, point, direction


def _unpack_slot(t: Any, index: int) -> tuple[Any, Any, Any]:
    try:
        a, b, c = t
    except (TypeError, ValueError):
        raise ValueError(f"slot {index}: expected three joints (a, b, c), got {t!r}") from None
    return a, b, c
