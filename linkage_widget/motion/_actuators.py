r"""The force elements of sympy.physics.mechanics between vertices, as explicit forces.

Each element is a frozen value; :func:`element_forces` turns a tuple of them into the
generalised force :math:`F(p, \dot p, t)`, shape ``(dn,)``, that RATTLE adds to
both half kicks (``Forces.extra``). Sign conventions are the seed's (actuators push
their ends apart when positive):

* :class:`ForceActuator` along the straight pathway :math:`i`–:math:`j`: with
  :math:`e = (p_i - p_j)/|p_i - p_j|`, an *expansile* scalar force :math:`f` acts as
  :math:`+f e` on :math:`i` and :math:`-f e` on :math:`j`. ``force`` is a number or
  a callable ``force(length, extension_velocity)``, the extension velocity being
  :math:`\dot\ell = e \cdot (v_i - v_j)` (positive while the ends separate).
* :class:`TorqueActuator` on the rod :math:`c \to t` (pivot, tip), :math:`d = p_t - p_c`:
  a torque :math:`T` (counter-clockwise positive) about the pivot is the couple

  .. math:: F_t = \frac{T}{|d|^2} J d, \qquad F_c = -F_t, \qquad
            J = \begin{pmatrix} 0 & -1 \\ 1 & 0 \end{pmatrix},

  since :math:`d \times F_t = T (d \cdot d)/|d|^2 = T` and the pair has no net force;
  it does no work along a rod's stretch (:math:`F_t \perp d`), and its power is
  :math:`T \dot\theta`. The reaction :math:`-T` acts on the reference rod the same
  way, or on the ground (then on nothing that moves). ``torque`` is a number or a
  callable ``torque(time, angle, angular_speed)`` of the rod's angle relative to
  the reference (radians in :math:`(-\pi, \pi]`) and its rate.
* :class:`HingeCouple` (space): a couple :math:`T` about the hinge axis
  :math:`a_0 \to a_1`, :math:`a = (p_{a_1} - p_{a_0})/|p_{a_1} - p_{a_0}|`, on the body
  of the vertex ``tip``. With :math:`w = p_t - p_{a_0}`, its foot on the axis
  :math:`f = p_{a_0} + (a \cdot w)\,a = (1 - s)\,p_{a_0} + s\,p_{a_1}` and its arm
  :math:`r = p_t - f \perp a`,

  .. math:: F_t = \frac{T}{|r|^2}\, a \times r, \qquad
            F_{a_0} = -(1 - s)\,F_t, \qquad F_{a_1} = -s\,F_t :

  no net force, moment :math:`r \times F_t = T a` (the forces on the axis ends have
  no moment about the foot), so on a rigid body through :math:`a_0, a_1, t` it is the
  couple :math:`T a` (its virtual work is :math:`T a \cdot \delta\omega`). The
  reaction :math:`-T` acts the same way through the vertex ``reference`` of the other
  body, or on the ground. Its power is :math:`T \dot\theta`, :math:`\theta` the
  dihedral angle about :math:`a` from the reference's arm to the tip's arm: sympy's
  ``TorqueActuator.at_pin_joint``. A couple on a point-like rod needs this axis: a
  rod turning about one point has two degrees of freedom, and a scalar torque
  chooses none of them (so the planar :class:`TorqueActuator` is refused in space).
* :class:`JointLoad`: a constant force :math:`f` on one vertex :math:`i` (a load, as
  in statics; ``(fx, fy)`` in the plane, ``(fx, fy, fz)`` in space). It is
  conservative, with potential :math:`V = -f \cdot p_i`, which
  :func:`element_potential` adds to the potential energy.
* kinetic friction (:mod:`~linkage_widget.motion._friction`).

Actuator forces and torques are conservative only when their line of action does not
turn; they have no potential here, so
:meth:`~linkage_widget.motion.Simulator.potential_energy` leaves them out.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import _checks
from ..constraints import hinge_angles
from ..elements import HingeMotor, HingeTorque

__all__ = [
    "ForceActuator",
    "HingeCouple",
    "JointLoad",
    "TorqueActuator",
    "element_forces",
    "element_potential",
    "hinge_couple",
    "hinge_row",
    "scalar",
]

#: A number, or a callable of the element's state returning one.
Magnitude = float | Callable[..., Any]


def scalar(value: Magnitude, args: tuple[float, ...], what: str) -> float:
    """``value`` or ``value(*args)`` as a finite float; a clear error naming ``what`` else."""
    out = value(*args) if callable(value) else value
    try:
        number = float(out)
    except (TypeError, ValueError):
        raise TypeError(f"{what} returned {out!r}, not a number") from None
    if not math.isfinite(number):
        raise ValueError(f"{what} returned {out!r}: it must be finite")
    return number


@dataclass(frozen=True)
class ForceActuator:
    """An expansile force along the pathway ``i``–``j`` (``force``: number or callable)."""

    i: int
    j: int
    force: Magnitude

    def __call__(self, pts: np.ndarray, vel: np.ndarray, t: float, out: np.ndarray) -> None:
        """Add the force on ``i`` and ``j`` to ``out`` (shape ``(n, dim)``)."""
        d = pts[self.i] - pts[self.j]
        length = math.hypot(*d)
        e = d / length if length > 0 else np.zeros(d.size)
        rate = float(e @ (vel[self.i] - vel[self.j]))
        f = scalar(self.force, (length, rate), f"force actuator {self.i}-{self.j}")
        out[self.i] += f * e
        out[self.j] -= f * e


@dataclass(frozen=True)
class TorqueActuator:
    """A torque on the rod ``pivot``→``tip`` about ``pivot``, reacting on ``reference``."""

    pivot: int
    tip: int
    torque: Magnitude
    reference: tuple[int, int] | None = None

    def angle(self, pts: np.ndarray, vel: np.ndarray) -> tuple[float, float]:
        """Angle (radians) and angular speed of the rod relative to its reference."""
        d, dd = pts[self.tip] - pts[self.pivot], vel[self.tip] - vel[self.pivot]
        theta, omega = math.atan2(d[1], d[0]), (d[0] * dd[1] - d[1] * dd[0]) / float(d @ d)
        if self.reference is not None:
            r0, r1 = self.reference
            r, rr = pts[r1] - pts[r0], vel[r1] - vel[r0]
            theta -= math.atan2(r[1], r[0])
            omega -= (r[0] * rr[1] - r[1] * rr[0]) / float(r @ r)
        return math.remainder(theta, 2.0 * math.pi), omega

    def __call__(self, pts: np.ndarray, vel: np.ndarray, t: float, out: np.ndarray) -> None:
        """Add the couple on the rod and the reaction couple to ``out`` (shape ``(n, 2)``)."""
        args = (t, *self.angle(pts, vel)) if callable(self.torque) else ()
        torque = scalar(self.torque, args, f"torque actuator {self.pivot}->{self.tip}")
        _couple(pts, self.pivot, self.tip, torque, out)
        if self.reference is not None:
            _couple(pts, *self.reference, -torque, out)


@dataclass(frozen=True)
class HingeCouple:
    r"""A couple about the hinge axis ``axis = (a0, a1)`` on the body of ``tip`` (space).

    ``torque``: a number or ``torque(time, angle, angular_speed)``, right-handed about
    :math:`a = p_{a_1} - p_{a_0}` (positive turns the tip's arm from the reference's toward
    :math:`a \times r_{ref}`). ``reference``: a vertex of the body the reaction
    :math:`-T` acts on, or ``None`` (the ground; the axis is then meant to be fixed,
    both ends pinned, and the angle is measured from straight down, :math:`-z`, or
    from :math:`+x` for a vertical axis). See the module for the forces.
    """

    axis: tuple[int, int]
    tip: int
    torque: Magnitude
    reference: int | None = None

    def row(self) -> np.ndarray:
        """The hinge row ``(a0, a1, tip, reference)`` (``-1``: the ground), shape ``(1, 4)``."""
        k = -1 if self.reference is None else self.reference
        return np.array([[self.axis[0], self.axis[1], self.tip, k]])

    def angle(self, pts: np.ndarray, vel: np.ndarray) -> tuple[float, float]:
        r"""Dihedral angle (radians) of the tip's arm about the axis and its rate.

        The rate is :math:`\nabla\theta \cdot \dot p`
        (:func:`~linkage_widget.constraints.hinge_angles`).
        """
        row = self.row()
        theta, grads = hinge_angles(pts, row)
        used = row[0] >= 0
        return float(theta[0]), float(np.sum(grads[0][used] * vel[row[0][used]]))

    def __call__(self, pts: np.ndarray, vel: np.ndarray, t: float, out: np.ndarray) -> None:
        r"""Add :math:`T\nabla\theta` to ``out`` (shape ``(n, 3)``): the couple and its reaction."""
        args = (t, *self.angle(pts, vel)) if callable(self.torque) else ()
        torque = scalar(self.torque, args, f"hinge torque {self.axis} on {self.tip}")
        row = self.row()
        _, grads = hinge_angles(pts, row)
        used = row[0] >= 0
        np.add.at(out, row[0][used], torque * grads[0][used])


def hinge_row(
    n: int, dim: int, e: Any, p: np.ndarray, pinned: np.ndarray
) -> tuple[int, int, int, int]:
    """``(a0, a1, tip, k)`` of a hinge element ``e`` (``k = -1``: the ground), checked.

    A 3-D linkage; the axis has a direction; the tip and the reference are off it.
    """
    what = type(e).__name__
    if dim != 3:
        raise ValueError(
            f"{what} turns a body about an axis in space: not for a planar linkage "
            "(there a torque actuator or a motor turns a rod in the plane)"
        )
    a0, a1 = (_checks.vertex_index(a, n, "hinge axis") for a in e.axis)
    tip = _checks.vertex_index(e.tip, n, f"{what} tip")
    ref = -1 if e.reference is None else _checks.vertex_index(e.reference, n, "reference")
    pts = p.reshape(-1, 3)
    axis = pts[a1] - pts[a0]
    if not np.any(axis):
        raise ValueError(f"hinge axis {a0}-{a1} has no direction (its ends coincide)")
    for k in (tip, ref) if ref >= 0 else (tip,):
        if not math.hypot(*np.cross(axis, pts[k] - pts[a0])) > 0.0:
            raise ValueError(f"{what}: vertex {k} lies on the axis {a0}-{a1}: no arm")
    if ref < 0 and isinstance(e, HingeMotor) and not (pinned[a0] and pinned[a1]):
        raise ValueError(f"HingeMotor against the ground: pin the axis ends {a0} and {a1}")
    return a0, a1, tip, ref


def hinge_couple(n: int, dim: int, e: HingeTorque, p: np.ndarray) -> HingeCouple:
    """The forces of the hinge torque ``e``, checked (:func:`hinge_row`)."""
    a0, a1, tip, k = hinge_row(n, dim, e, p, np.zeros(n, dtype=bool))
    torque = _checks.magnitude(e.torque, "torque")
    return HingeCouple((a0, a1), tip, torque, None if k < 0 else k)


@dataclass(frozen=True)
class JointLoad:
    r"""A constant force ``(fx, fy)``, ``fz`` in space, on vertex ``i``; :math:`V = -f\cdot p_i`."""

    i: int
    fx: float
    fy: float
    fz: float = 0.0

    @property
    def force(self) -> np.ndarray:
        """The force, shape ``(3,)`` (a planar load has ``fz = 0``, and 2-D uses ``[:2]``)."""
        return np.array([self.fx, self.fy, self.fz])

    def __call__(self, pts: np.ndarray, vel: np.ndarray, t: float, out: np.ndarray) -> None:
        """Add the load to ``out`` (shape ``(n, dim)``)."""
        out[self.i] += self.force[: out.shape[1]]

    def potential(self, pts: np.ndarray) -> float:
        r""":math:`V = -f \cdot p_i` (shape of ``pts``: ``(n, dim)``)."""
        return -float(self.force[: pts.shape[1]] @ pts[self.i])


def _couple(pts: np.ndarray, c: int, t: int, torque: float, out: np.ndarray) -> None:
    r"""Add the couple :math:`\pm T J d/|d|^2` of torque ``torque`` on the rod ``c``→``t``."""
    d = pts[t] - pts[c]
    force = torque / float(d @ d) * np.array([-d[1], d[0]])
    out[t] += force
    out[c] -= force


def element_forces(
    elements: tuple[Any, ...], p: np.ndarray, v: np.ndarray, t: float, dim: int = 2
) -> np.ndarray:
    """Sum of the elements' forces at ``(p, v, t)`` (shapes ``(dn,)``), shape ``(dn,)``.

    One Python call per element (elements are few; the vertices are not looped over).
    """
    out = np.zeros((len(p) // dim, dim))
    pts, vel = p.reshape(-1, dim), v.reshape(-1, dim)
    for element in elements:
        element(pts, vel, t, out)
    return out.reshape(-1)


def element_potential(elements: tuple[Any, ...], p: np.ndarray, dim: int = 2) -> float:
    """Potential energy of the conservative elements (the joint loads) at ``p`` (``(dn,)``)."""
    if not elements:
        return 0.0
    pts = p.reshape(-1, dim)
    return sum((e.potential(pts) for e in elements if isinstance(e, JointLoad)), 0.0)
