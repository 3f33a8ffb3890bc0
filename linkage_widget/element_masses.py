r"""Masses of single joints and rods, as the model holds them (the mass matrix: :mod:`.mass`).

By default a linkage's mass is spread by two numbers, the mass distribution
:math:`\alpha` and the total mass :math:`m` (:mod:`linkage_widget.mass`). Any joint
or rod may instead be given its own mass:

joint ``i``
    a point mass :math:`m_i \ge 0` at the joint;
rod ``r = (i, j)`` of length :math:`L`
    a :class:`RodMass`: its mass :math:`\mu \ge 0`, its centre of mass at
    :math:`p_i + u_c (p_j - p_i)` with :math:`u_c \in [0, 1]` (``centre``; the
    distance from ``i`` is :math:`l_c = u_c L`), and its moment of inertia
    :math:`I_c \ge 0` about that centre (``inertia``; ``None``: a uniform rod's
    :math:`\mu L^2 / 12`, resolved at the rod's length).

The centre lies on the rod's line: a rod's mass sits along it, so it cannot be off it
(a bent arm is two rods and a fixed angle). Elements without their own mass keep the
share :math:`\alpha` and :math:`m` give them.

:class:`ElementMasses` is the table a :class:`~linkage_widget.Linkage` holds (its
:attr:`~linkage_widget.Linkage.masses`): it follows the model's edits (a removed joint or
rod takes its mass along, the others keep theirs) and refuses bad values without
changing.

>>> RodMass(2.0, centre=0.25)
RodMass(mass=2.0, centre=0.25, inertia=None)
>>> RodMass(-1.0)
Traceback (most recent call last):
...
ValueError: rod mass must be a finite number >= 0, got -1.0
>>> table = ElementMasses(3, 2)
>>> table.set_joint(1, 0.5)
>>> table.joint(1), table.joint(0)
(0.5, None)
>>> table.remove_vertex(0, rods_kept=[False, True])
>>> table.joint(0), table.n_vertices, table.n_rods
(0.5, 2, 1)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import _checks

__all__ = ["ElementMasses", "RodMass"]


@dataclass(frozen=True)
class RodMass:
    r"""The mass of one rod: mass, centre of mass along it, moment of inertia about the centre.

    Attributes
    ----------
    mass : float
        :math:`\mu \ge 0`.
    centre : float
        :math:`u_c \in [0, 1]`: the centre of mass as a fraction of the way from the
        rod's first joint to its second (0.5: the middle).
    inertia : float or None
        :math:`I_c \ge 0` about the centre, perpendicular to the rod (mass x length²);
        ``None``: a uniform rod's :math:`\mu L^2/12` at the rod's length :math:`L`.
    """

    mass: float
    centre: float = 0.5
    inertia: float | None = None

    def __post_init__(self) -> None:
        set_ = object.__setattr__  # normalise (frozen): equal values compare equal
        set_(self, "mass", _checks.non_negative(self.mass, "rod mass"))
        set_(self, "centre", _checks.unit_interval(self.centre, "rod centre of mass"))
        if self.inertia is not None:
            set_(self, "inertia", _checks.non_negative(self.inertia, "rod moment of inertia"))
            if self.inertia > 0.0 and self.mass == 0.0:
                raise ValueError(f"a rod of mass 0 has no moment of inertia, got {self.inertia}")

    def reversed(self) -> RodMass:
        """The same rod seen from its other end (centre :math:`1 - u_c`)."""
        return RodMass(self.mass, 1.0 - self.centre, self.inertia)

    def inertia_at(self, length: float) -> float:
        r""":math:`I_c`, or :math:`\mu L^2/12` when :attr:`inertia` is ``None``."""
        return self.mass * length**2 / 12.0 if self.inertia is None else self.inertia


class ElementMasses:
    """The joints' and rods' own masses of a linkage of ``n`` joints and ``m`` rods.

    Joint ``i`` without its own mass reads ``None`` (:meth:`joint`), a rod likewise
    (:meth:`rod`); they keep the share of the mass distribution. Indices are the
    linkage's; the model keeps the table in step with its edits.
    """

    def __init__(self, n_vertices: int = 0, n_rods: int = 0) -> None:
        self._joint: list[float | None] = [None] * int(n_vertices)
        self._rod: list[RodMass | None] = [None] * int(n_rods)

    # ------------------------------------------------------------- reading
    @property
    def n_vertices(self) -> int:
        """Number of joints the table is for."""
        return len(self._joint)

    @property
    def n_rods(self) -> int:
        """Number of rods the table is for."""
        return len(self._rod)

    def joint(self, i: int) -> float | None:
        """Joint ``i``'s own point mass, or ``None`` (its share of the distribution)."""
        return self._joint[_checks.item_index(i, self.n_vertices, "joint", "joints")]

    def rod(self, r: int) -> RodMass | None:
        """Rod ``r``'s own :class:`RodMass`, or ``None`` (a uniform rod, its share)."""
        return self._rod[_checks.item_index(r, self.n_rods, "rod", "rods")]

    def joint_array(self) -> np.ndarray:
        """Own joint masses, shape ``(n,)``, NaN where a joint has none."""
        return np.array([math.nan if x is None else x for x in self._joint], dtype=np.float64)

    def is_default(self) -> bool:
        """Whether no joint or rod has its own mass (the distribution decides everything)."""
        return all(x is None for x in self._joint) and all(x is None for x in self._rod)

    # ------------------------------------------------------------- setting
    def set_joint(self, i: int, mass: Any) -> None:
        """Give joint ``i`` the point mass ``mass >= 0`` (``None``: back to its share)."""
        i = _checks.item_index(i, self.n_vertices, "joint", "joints")
        self._joint[i] = None if mass is None else _checks.non_negative(mass, f"joint {i} mass")

    def set_rod(self, r: int, mass: Any, centre: Any = 0.5, inertia: Any = None) -> None:
        """Give rod ``r`` its own mass, centre and inertia (:class:`RodMass`; ``mass=None``: none).

        ``mass`` may be a :class:`RodMass` itself (then ``centre`` and ``inertia`` are ignored).
        """
        r = _checks.item_index(r, self.n_rods, "rod", "rods")
        try:
            keep = mass is None or isinstance(mass, RodMass)
            value = mass if keep else RodMass(mass, centre, inertia)
        except ValueError as exc:  # say which rod
            raise ValueError(f"rod {r}: {exc}") from None
        self._rod[r] = value

    # ------------------------------------------------ following the model's edits
    def add_vertex(self) -> None:
        """A joint was appended (no own mass)."""
        self._joint.append(None)

    def add_rod(self) -> None:
        """A rod was appended (no own mass)."""
        self._rod.append(None)

    def remove_vertex(self, i: int, rods_kept: Any) -> None:
        """Joint ``i`` was removed, and the rods where the mask ``rods_kept`` is False."""
        del self._joint[i]
        self._rod = [x for x, keep in zip(self._rod, rods_kept, strict=True) if keep]

    def remove_rod(self, r: int) -> None:
        """Rod ``r`` was removed."""
        del self._rod[r]

    def split_rod(self, r: int) -> None:
        """Rod ``r`` was split at its middle (itself and a new last rod): both halves uniform.

        A rod's mass, centre and inertia do not say how its mass is spread along it, so
        the halves cannot share it exactly; they take their share of the distribution.
        """
        self._rod[r] = None
        self._rod.append(None)

    def put(self, other: ElementMasses, joints_from: int = 0, rods_from: int = 0) -> None:
        """Copy ``other``'s own masses here, its joint ``i`` to ``joints_from + i`` (rods alike).

        What a merge does: the merged linkage's joints and rods are numbered after the
        current ones. Raises ``IndexError`` (nothing changed) when they do not fit.
        """
        if (
            joints_from + other.n_vertices > self.n_vertices
            or rods_from + other.n_rods > self.n_rods
        ):
            raise IndexError("the masses of a merge do not fit its joints and rods")
        self._joint[joints_from : joints_from + other.n_vertices] = [
            mine if theirs is None else theirs
            for mine, theirs in zip(self._joint[joints_from:], other._joint, strict=False)
        ]
        self._rod[rods_from : rods_from + other.n_rods] = [
            mine if theirs is None else theirs
            for mine, theirs in zip(self._rod[rods_from:], other._rod, strict=False)
        ]

    def clear(self) -> None:
        """Everything was removed."""
        self._joint, self._rod = [], []

    def copy(self) -> ElementMasses:
        """An independent copy (the values are immutable)."""
        out = ElementMasses()
        out._joint, out._rod = list(self._joint), list(self._rod)
        return out

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ElementMasses):
            return NotImplemented
        return self._joint == other._joint and self._rod == other._rod

    __hash__ = None  # mutable

    def __repr__(self) -> str:
        joints = sum(x is not None for x in self._joint)
        rods = sum(x is not None for x in self._rod)
        return f"ElementMasses({joints} joints and {rods} rods with their own mass)"
