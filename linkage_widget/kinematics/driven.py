r"""Kinematic analysis of a driven mechanism: every joint's path, velocity and acceleration.

A motor turns the rod pivot :math:`c` → tip :math:`t` (the convention of
:meth:`~linkage_widget.motion.Simulator.add_motor`: the angle :math:`\theta` of
:math:`p_t - p_c` from the ground x-axis, counter-clockwise). With the motor's row the
constraints :math:`g(p, \theta) = 0` of the linkage (rods, angles, pins and whatever
other rows :class:`~linkage_widget.constraints.ConstraintSet` holds) fix the placement
for each crank angle, and the derivatives in :math:`\theta` are the velocity and
acceleration per unit crank speed:

.. math:: A\,\frac{dp}{d\theta} = -\frac{\partial g}{\partial\theta}, \qquad
          A\,\frac{d^2p}{d\theta^2} = -\dot A\,\frac{dp}{d\theta}
          = -g_{pp}\Big[\frac{dp}{d\theta}, \frac{dp}{d\theta}\Big]

(:math:`A = \partial g/\partial p`, the rigidity matrix with the motor row). At a crank
speed :math:`\omega` and angular acceleration :math:`\alpha` the joints move with
:math:`\dot p = \omega\,p'` and :math:`\ddot p = \omega^2 p'' + \alpha\,p'`.
See :mod:`~linkage_widget.kinematics._trace` for the continuation that follows one branch.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import _checks
from ..constraints import ConstraintSet, DriveRows
from ..model import Linkage
from ..rigidity import RANK_RTOL
from ._trace import Sample, correct, derivatives, follow, trace

__all__ = ["Kinematics", "MechanismError", "kinematics", "motor_set"]


class MechanismError(ValueError):
    """The mechanism cannot be analysed as driven: free degrees of freedom, or no placement."""


@dataclass(frozen=True, eq=False)
class Kinematics:
    r"""The motion of a driven mechanism over the drive values asked for.

    Attributes
    ----------
    angles : ndarray, shape (k,)
        The drive values: crank angles :math:`\theta` in radians (or a slider's travel).
    positions : ndarray, shape (k, n, 2)
        Joint positions; NaN where ``valid`` is False and nothing assembled.
    velocities : ndarray, shape (k, n, 2)
        :math:`dp/d\theta`, the velocity per unit crank speed.
    accelerations : ndarray, shape (k, n, 2)
        :math:`d^2p/d\theta^2`, the acceleration at unit constant crank speed.
    valid : ndarray of bool, shape (k,)
        Where the mechanism assembles on the branch followed from the first angle and
        its Jacobian keeps full rank (False at a dead point).
    pivot, tip : int
        The driven rod (for a pushed slider: the slider's joint, and ``-1``).
    """

    angles: np.ndarray
    positions: np.ndarray
    velocities: np.ndarray
    accelerations: np.ndarray
    valid: np.ndarray
    pivot: int
    tip: int

    def __len__(self) -> int:
        return len(self.angles)

    def body_point(self, i: int, j: int, along: float, across: float) -> tuple[np.ndarray, ...]:
        r"""Path, velocity and acceleration of a point fixed to the body of joints ``i``, ``j``.

        The point is :math:`q = p_i + s\,d + t\,J d` with :math:`d = p_j - p_i`,
        :math:`J` the quarter turn, ``along`` :math:`s` and ``across`` :math:`t` its
        coordinates in the body's frame (units of :math:`|d|`): linear in the positions,
        so :math:`q' = p_i' + s\,d' + t\,J d'` and likewise :math:`q''`, exactly.
        Returns three ``(k, 2)`` arrays.
        """

        def fixed(arr: np.ndarray) -> np.ndarray:
            d = arr[:, j] - arr[:, i]
            return arr[:, i] + along * d + across * np.column_stack([-d[:, 1], d[:, 0]])

        return fixed(self.positions), fixed(self.velocities), fixed(self.accelerations)


def motor_set(linkage: Linkage, pivot: int, tip: int) -> ConstraintSet:
    r"""The constraints of ``linkage`` and a motor on ``pivot``→``tip`` whose time is the angle.

    The row runs at unit speed from phase 0, so :meth:`ConstraintSet.at_time` ``(θ)``
    asks for the crank angle :math:`\theta` (from the ground x-axis).
    """
    drives = DriveRows.build(linkage.vertices, [(pivot, tip, -1, -1)], [0.0], [1.0], 0.0)
    return ConstraintSet.from_linkage(linkage).with_drives(drives)


def _checked(linkage: Linkage, pivot: Any, tip: Any, angles: Any) -> tuple[int, int, np.ndarray]:
    if not isinstance(linkage, Linkage):
        raise TypeError(f"kinematics: linkage must be a Linkage, got {type(linkage).__name__}")
    if linkage.dim != 2:
        raise ValueError("kinematics: a crank turns in the plane; this linkage is 3-D")
    n = linkage.n_vertices
    c = _checks.vertex_index(pivot, n, "kinematics pivot")
    t = _checks.vertex_index(tip, n, "kinematics tip")
    if frozenset((c, t)) not in {frozenset(r) for r in linkage.rods.tolist()}:
        raise ValueError(f"kinematics: there is no rod {c}-{t} for the motor to turn")
    if c in set(linkage.pinned.tolist()) and t in set(linkage.pinned.tolist()):
        raise ValueError(f"kinematics: rod {c}-{t} has both ends pinned; it cannot turn")
    values = np.asarray(angles, dtype=np.float64).reshape(-1)
    if not values.size or not np.isfinite(values).all():
        raise ValueError("kinematics: angles must be a non-empty sequence of finite radians")
    return c, t, values


def free_dof(cs: ConstraintSet, p: np.ndarray) -> int:
    """Degrees of freedom the rows of ``cs`` leave at ``p``: ``2n - rank A`` (rigidity's rule)."""
    s = np.linalg.svd(cs.jacobian(p).toarray(), compute_uv=False)
    rank = int(np.sum(s > RANK_RTOL * s[0])) if s.size else 0
    return cs.shape[1] - rank


def require_driven(cs: ConstraintSet, p: np.ndarray, what: str) -> None:
    """Raise :class:`MechanismError` when the drive leaves the mechanism free to move."""
    free = free_dof(cs, p)
    if free > 0:
        raise MechanismError(
            f"kinematics: with {what} the mechanism still has {free} free degree"
            f"{'s' if free > 1 else ''} of freedom (one drive must fix the placement): "
            "pin the ground joints, add the missing rods, or drive the other inputs too"
        )


def _start(cs: ConstraintSet, linkage: Linkage, s_here: float, s_first: float) -> Sample:
    """The placement at the first drive value, followed from the linkage's own."""
    p, ok = correct(cs.at_time(s_here), linkage.vertices.reshape(-1).copy())
    if not ok:
        raise MechanismError("kinematics: the linkage does not assemble at its own placement")
    got, _ = follow(cs, derivatives(cs.at_time(s_here), p), s_here, s_first)
    if got is None:
        raise MechanismError(
            f"kinematics: the mechanism cannot be driven from its placement to {s_first:g}"
        )
    return got


def collect(values: np.ndarray, samples: list[Sample | None], n: int) -> tuple[np.ndarray, ...]:
    """Stack samples into ``positions, velocities, accelerations (k, n, 2), valid (k,)``."""
    k = len(values)
    out = [np.full((k, n, 2), np.nan) for _ in range(3)]
    valid = np.zeros(k, dtype=bool)
    for i, s in enumerate(samples):
        if s is None:
            continue
        out[0][i] = s.p.reshape(n, 2)
        if s.regular:
            out[1][i] = s.v.reshape(n, 2)
            out[2][i] = s.a.reshape(n, 2)
            valid[i] = True
    return out[0], out[1], out[2], valid


def kinematics(linkage: Linkage, pivot: int, tip: int, angles: Any) -> Kinematics:
    r"""Positions, velocities and accelerations of ``linkage`` driven by a crank, over ``angles``.

    Parameters
    ----------
    linkage : Linkage
        A planar mechanism that one motor drives (degrees of freedom 1 once pinned),
        at a placement from which the crank can be turned to ``angles[0]``.
    pivot, tip : int
        The rod the motor turns (``Simulator.add_motor(pivot, tip, ...)``).
    angles : array_like, shape (k,)
        Crank angles :math:`\theta` (radians, of :math:`p_{tip} - p_{pivot}` from the x-axis).

    Returns
    -------
    Kinematics
        ``positions`` ``(k, n, 2)``, ``velocities`` :math:`dp/d\theta` and
        ``accelerations`` :math:`d^2p/d\theta^2` (per unit crank speed), ``valid`` ``(k,)``:
        where the mechanism assembles on the branch followed from ``angles[0]`` and is
        not at a dead point (velocities and accelerations NaN otherwise).

    Raises
    ------
    MechanismError
        (a ``ValueError``) when the crank leaves free degrees of freedom (the message
        says how many), or the linkage cannot be turned to ``angles[0]``.
    ValueError
        A bad vertex, no rod ``pivot``-``tip``, a 3-D linkage, empty or non-finite angles.

    Examples
    --------
    >>> from linkage_widget import Linkage
    >>> four_bar = Linkage([[0, 0], [1, 0], [3, 2], [4, 0]],
    ...                    rods=[(0, 1), (1, 2), (2, 3)], pinned=[0, 3])
    >>> k = kinematics(four_bar, 0, 1, np.linspace(0, 2 * np.pi, 5))
    >>> k.positions.shape, bool(k.valid.all())
    ((5, 4, 2), True)
    >>> np.allclose(k.positions[:, 1], np.c_[np.cos(k.angles), np.sin(k.angles)])
    True
    """
    c, t, values = _checked(linkage, pivot, tip, angles)
    cs = motor_set(linkage, c, t)
    d = linkage.vertices[t] - linkage.vertices[c]
    theta = float(np.arctan2(d[1], d[0]))
    require_driven(cs.at_time(theta), linkage.vertices.reshape(-1), f"a motor on rod {c}-{t}")
    first = theta + float(np.remainder(values[0] - theta + np.pi, 2 * np.pi) - np.pi)
    start = _start(cs, linkage, theta, first)
    samples = trace(cs, start.p, first, values, 2.0 * np.pi)
    pos, vel, acc, valid = collect(values, samples, linkage.n_vertices)
    return Kinematics(values, pos, vel, acc, valid, c, t)
