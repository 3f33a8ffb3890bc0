r"""The force elements of sympy.physics.mechanics between vertices, as explicit forces.

Each element is a frozen value; :func:`element_forces` turns a tuple of them into the
generalised force :math:`F(p, \dot p, t)`, shape ``(2n,)``, that RATTLE adds to
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
* :class:`JointLoad`: a constant force :math:`f` on one vertex :math:`i` (a load, as
  in statics). It is conservative, with potential :math:`V = -f \cdot p_i`, which
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

__all__ = [
    "ForceActuator",
    "JointLoad",
    "TorqueActuator",
    "element_forces",
    "element_potential",
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
        """Add the force on ``i`` and ``j`` to ``out`` (shape ``(n, 2)``)."""
        d = pts[self.i] - pts[self.j]
        length = math.hypot(d[0], d[1])
        e = d / length if length > 0 else np.zeros(2)
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
class JointLoad:
    r"""A constant force ``(fx, fy)`` on vertex ``i``; potential :math:`-f \cdot p_i`."""

    i: int
    fx: float
    fy: float

    def __call__(self, pts: np.ndarray, vel: np.ndarray, t: float, out: np.ndarray) -> None:
        """Add the load to ``out`` (shape ``(n, 2)``)."""
        out[self.i, 0] += self.fx
        out[self.i, 1] += self.fy

    def potential(self, pts: np.ndarray) -> float:
        r""":math:`V = -f \cdot p_i` (shape of ``pts``: ``(n, 2)``)."""
        return -(self.fx * float(pts[self.i, 0]) + self.fy * float(pts[self.i, 1]))


def _couple(pts: np.ndarray, c: int, t: int, torque: float, out: np.ndarray) -> None:
    r"""Add the couple :math:`\pm T J d/|d|^2` of torque ``torque`` on the rod ``c``→``t``."""
    d = pts[t] - pts[c]
    force = torque / float(d @ d) * np.array([-d[1], d[0]])
    out[t] += force
    out[c] -= force


def element_forces(elements: tuple[Any, ...], p: np.ndarray, v: np.ndarray, t: float) -> np.ndarray:
    """Sum of the elements' forces at ``(p, v, t)`` (shapes ``(2n,)``), shape ``(2n,)``.

    One Python call per element (elements are few; the vertices are not looped over).
    """
    out = np.zeros((len(p) // 2, 2))
    pts, vel = p.reshape(-1, 2), v.reshape(-1, 2)
    for element in elements:
        element(pts, vel, t, out)
    return out.reshape(-1)


def element_potential(elements: tuple[Any, ...], p: np.ndarray) -> float:
    """Potential energy of the conservative elements (the joint loads) at ``p`` (``(2n,)``)."""
    if not elements:  # and always so in 3-D, where the elements are refused as planar
        return 0.0
    pts = p.reshape(-1, 2)
    return sum((e.potential(pts) for e in elements if isinstance(e, JointLoad)), 0.0)
