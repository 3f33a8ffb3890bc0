r"""The rows a simulator adds to a linkage's constraints: motors, pushes, links, holds.

Part of the constraint math, in its package :mod:`linkage_widget.constraints` (whose
face gives the row formulas) beside :class:`~linkage_widget.constraints.ConstraintSet`.
:class:`~linkage_widget.constraints.ConstraintSet` appends these rows after the
linkage's own (:meth:`~linkage_widget.constraints.ConstraintSet.with_drives`).

>>> import numpy as np
>>> d = DriveRows.build([[0, 0], [1, 0]], [[0, 1, -1, -1]], [0.0], [2.0], 0.0)
>>> d.at_time(0.25).targets.tolist()      # angle0 + speed * t
[0.5]

A push (a linear actuator) holds joint :math:`j` at :math:`s_0 + v t` along a slider's
line through :math:`P` with unit direction :math:`u`:

.. math:: g = u \cdot (p_j - P) - s_0 - v t, \qquad \nabla_{p_j} g = u, \qquad
          \partial g / \partial t = -v,

a length like a pin's row, so allowed velocities meet :math:`A v = b` with :math:`b = v`.

>>> push = Push(joint=1, point=(0.0, 0.0), direction=(1.0, 0.0), phase=1.0, speed=0.5)
>>> d = DriveRows.none().with_pushes([push], 0.0)
>>> d.at_time(2.0).residuals(np.array([[0.0, 0.0], [1.5, 0.0]])).tolist()  # 1.5 - (1 + 0.5 * 2)
[-0.5]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

import numpy as np

from .._checks import row_norms

__all__ = ["DriveRows", "Push", "hinge_angles", "wrap_angle"]


class Push(NamedTuple):
    r"""A linear drive: joint ``joint`` at :math:`s_0 + v t` along the line through ``point``.

    ``direction`` :math:`u` a unit vector (a slider's), ``phase`` :math:`s_0` and ``speed``
    :math:`v` in length and length per unit time.
    """

    joint: int
    point: tuple[float, float]
    direction: tuple[float, float]
    phase: float
    speed: float


def wrap_angle(angle: np.ndarray) -> np.ndarray:
    r"""Map angles to :math:`[-\pi, \pi)`."""
    return (angle + np.pi) % (2.0 * np.pi) - np.pi


def hinge_angles(pts: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""Dihedral angles of hinge rows ``(a0, a1, t, k)`` in space and their gradients.

    With :math:`a` the unit axis :math:`a_0 \to a_1`, each vertex's arm
    :math:`r = w - (a \cdot w) a` (:math:`w = p - p_{a_0}`, foot at
    :math:`s = a \cdot w / |p_{a_1} - p_{a_0}|` along the axis),
    :math:`\theta = \operatorname{atan2}(a \cdot (r_k \times r_t), r_k \cdot r_t)`,
    the angle from ``k``'s arm to ``t``'s about :math:`a`; ``k = -1``: from straight
    down (:math:`-z`, or :math:`+x` for an axis within :math:`\arccos 0.9` of vertical),
    the axis meant to be pinned. With :math:`g = a \times r/|r|^2`,

    .. math:: \nabla_t\theta = g_t,\quad \nabla_k\theta = -g_k,\quad
              \nabla_{a_0}\theta = -(1 - s_t) g_t + (1 - s_k) g_k,\quad
              \nabla_{a_1}\theta = -s_t g_t + s_k g_k

    (exact: a common rotation of both arms leaves :math:`\theta`). ``pts`` ``(n, 3)``,
    ``rows`` ``(h, 4)``; returns :math:`\theta` ``(h,)`` and the gradients per role
    ``(h, 4, 3)``. A torque :math:`T` about the hinge is the generalised force
    :math:`T\nabla\theta` (:class:`~linkage_widget.motion._actuators.HingeCouple`).
    """
    rows = np.asarray(rows, dtype=np.int64).reshape(-1, 4)
    base, axis = pts[rows[:, 0]], pts[rows[:, 1]] - pts[rows[:, 0]]
    length = row_norms(axis)[:, None]
    a = axis / length
    ground = (rows[:, 3] < 0)[:, None]
    down = np.where(np.abs(a[:, 2:]) < 0.9, [0.0, 0.0, -1.0], [1.0, 0.0, 0.0])

    def arm(w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        along = (a * w).sum(axis=1, keepdims=True)
        r = w - along * a
        return r, np.cross(a, r) / (r * r).sum(axis=1, keepdims=True)

    r_t, g_t = arm(pts[rows[:, 2]] - base)
    s_t = (a * (pts[rows[:, 2]] - base)).sum(axis=1, keepdims=True) / length
    w_k = np.where(ground, base + down, pts[rows[:, 3]]) - base
    r_k, g_k = arm(w_k)
    g_k = np.where(ground, 0.0, g_k)
    s_k = (a * w_k).sum(axis=1, keepdims=True) / length
    theta = np.arctan2((a * np.cross(r_k, r_t)).sum(axis=1), (r_k * r_t).sum(axis=1))
    grads = np.stack([-(1 - s_t) * g_t + (1 - s_k) * g_k, -s_t * g_t + s_k * g_k, g_t, -g_k], 1)
    return theta, grads


def _motor_scales(pts: np.ndarray, motors: np.ndarray, dim: int) -> np.ndarray:
    r"""Arm scales :math:`\ell` of motor rows: the arm, or the geometric mean of the two arms.

    In the plane the rod and the reference rod; in space the hinge arms of the tip and
    the reference vertex (:func:`hinge_angles`).
    """
    if dim == 3:  # hinge rows (a0, a1, t, k)
        _, grads = hinge_angles(pts, motors)  # |g| = 1 / |r|
        ground = motors[:, 3] < 0
        dl = 1.0 / row_norms(grads[:, 2])
        with np.errstate(divide="ignore"):
            rl = np.where(ground, 1.0, 1.0 / row_norms(grads[:, 3]))
    else:
        d = pts[motors[:, 1]] - pts[motors[:, 0]]
        r = pts[motors[:, 3]] - pts[motors[:, 2]]
        ground = motors[:, 2] < 0
        dl = np.hypot(d[:, 0], d[:, 1])
        rl = np.where(ground, 1.0, np.hypot(r[:, 0], r[:, 1]))
    return np.where(ground, dl, np.sqrt(dl * rl))


def _points(p: Any, dim: int = 2) -> np.ndarray:
    return np.ascontiguousarray(p, dtype=np.float64).reshape(-1, dim)


@dataclass(frozen=True, eq=False)
class DriveRows:
    r"""The rows a simulator adds to a linkage's: motors, pushes, temporary links and holds.

    Rows in that order: one per motor, one per push, one per link, two per hold.

    Attributes
    ----------
    motors : ndarray of int, shape (k, 4)
        ``(pivot, tip, r0, r1)``: the rod pivot→tip turns relative to the rod
        :math:`r_0 \to r_1`, or to the ground x-axis when ``r0 = r1 = -1``. In space
        (``dim = 3``) hinge rows ``(a0, a1, t, k)``: the hinge angle of :func:`hinge_angles`.
    phases, speeds : ndarray, shape (k,)
        Target angle :math:`\theta_0 + \omega t` = ``phases + speeds * t`` (radians,
        unwrapped: a crank turning round and round has no jump at :math:`\pm\pi`).
    targets : ndarray, shape (k,)
        The target angles at the time of :meth:`at_time`.
    motor_scales : ndarray, shape (k,)
        Arm scales :math:`\ell`.
    links : ndarray of int, shape (s, 2); link_lengths : ndarray, shape (s,)
        Temporary rods (a friction pathway that sticks); in the plane or in space.
    holds : ndarray of int, shape (r,); hold_anchors : ndarray, shape (r, 2)
        Temporary pins (a joint that sticks to the table).
    dim : int
        Coordinates per vertex: 2, or 3 for hinge motors and links in space (holds are
        planar rows: a 3-D set has none).
    push_joints : ndarray of int, shape (k_p,)
    push_points, push_axes : ndarray, shape (k_p, 2)
        A point :math:`P` of each push's line and its unit direction :math:`u` (planar).
    push_phases, push_speeds, push_targets : ndarray, shape (k_p,)
        :math:`s_0`, :math:`v` and the target :math:`s_0 + v t` at the time of :meth:`at_time`.
    """

    motors: np.ndarray
    phases: np.ndarray
    speeds: np.ndarray
    targets: np.ndarray
    motor_scales: np.ndarray
    links: np.ndarray
    link_lengths: np.ndarray
    holds: np.ndarray
    hold_anchors: np.ndarray
    _slots: tuple[np.ndarray, np.ndarray, np.ndarray] = field(init=False, repr=False)
    dim: int = 2
    push_joints: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    push_points: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))
    push_axes: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))
    push_phases: np.ndarray = field(default_factory=lambda: np.zeros(0))
    push_speeds: np.ndarray = field(default_factory=lambda: np.zeros(0))
    push_targets: np.ndarray = field(default_factory=lambda: np.zeros(0))

    def __post_init__(self) -> None:
        object.__setattr__(self, "_slots", self._motor_slots())

    @classmethod
    def none(cls) -> DriveRows:
        """No drive rows."""
        i2, f = np.zeros((0, 2), dtype=np.int64), np.zeros(0)
        return cls(
            np.zeros((0, 4), dtype=np.int64),
            f,
            f,
            f,
            f,
            i2,
            f,
            np.zeros(0, np.int64),
            np.zeros((0, 2)),
        )

    @classmethod
    def build(
        cls,
        p: Any,
        motors: Any,
        phases: Any,
        speeds: Any,
        t: float,
        links: Any = None,
        holds: Any = None,
        link_lengths: Any = None,
        hold_anchors: Any = None,
        dim: int = 2,
    ) -> DriveRows:
        """Drive rows at positions ``p`` (``dim`` coordinates per vertex).

        Links keep their length at ``p`` and holds their place there, unless
        ``link_lengths`` (shape ``(s,)``) and ``hold_anchors`` (``(r, 2)``) are given.
        The pushes: :meth:`with_pushes`.
        """
        pts = _points(p, dim)
        motors = np.asarray(motors, dtype=np.int64).reshape(-1, 4)
        scales = _motor_scales(pts, motors, dim)
        links = np.asarray([] if links is None else links, dtype=np.int64).reshape(-1, 2)
        e = pts[links[:, 0]] - pts[links[:, 1]]
        if link_lengths is None:
            link_lengths = row_norms(e)
        holds = np.asarray([] if holds is None else holds, dtype=np.int64).reshape(-1)
        if hold_anchors is None:
            hold_anchors = pts[holds]
        phases, speeds = (
            np.asarray(phases, float).reshape(-1),
            np.asarray(speeds, float).reshape(-1),
        )
        return cls(
            motors,
            phases,
            speeds,
            phases + speeds * t,
            scales,
            links,
            np.asarray(link_lengths, dtype=np.float64).reshape(-1),
            holds,
            np.array(hold_anchors, dtype=np.float64).reshape(-1, 2),
            dim=dim,
        )

    def with_pushes(self, pushes: Sequence[Push], t: float) -> DriveRows:
        """These rows with the linear drives ``pushes`` (planar), at their targets of time ``t``.

        They replace any pushes these rows had; the rows of a set with them come in the
        order motors, pushes, links, holds.
        """
        return replace(self, **_push_arrays(pushes, t))

    @property
    def n_rows(self) -> int:
        """Rows added: one per motor, push and link, two per hold."""
        return self.n_timed + len(self.links) + 2 * len(self.holds)

    @property
    def n_timed(self) -> int:
        """The rows with a target in time (motors, then pushes), first among the drive rows."""
        return len(self.motors) + len(self.push_joints)

    def at_time(self, t: float) -> DriveRows:
        """The same drives with the motor and push targets of time ``t``."""
        pushed = self.push_phases + self.push_speeds * t
        return replace(self, targets=self.phases + self.speeds * t, push_targets=pushed)

    def kinds(self) -> list[str]:
        """``"motor"``, ``"push"``, ``"link"`` and ``"hold"`` (two per hold), row by row."""
        pushes, holds = len(self.push_joints), 2 * len(self.holds)
        return (
            ["motor"] * len(self.motors)
            + ["push"] * pushes
            + ["link"] * len(self.links)
            + ["hold"] * holds
        )

    def row_scales(self, length_scale: float) -> np.ndarray:
        """Scale of each row: a motor's arm, a link's length, ``length_scale`` (pushes, holds)."""
        pushes = np.full(len(self.push_joints), length_scale)
        holds = np.full(2 * len(self.holds), length_scale)
        return np.concatenate([self.motor_scales, pushes, self.link_lengths, holds])

    def velocity_target(self) -> np.ndarray:
        r"""The drive rows' :math:`b = -\partial g/\partial t`: :math:`\ell\omega`, v or 0."""
        b = np.zeros(self.n_rows)
        b[: len(self.motors)] = self.motor_scales * self.speeds
        b[len(self.motors) : self.n_timed] = self.push_speeds
        return b

    def push_positions(self, pts: np.ndarray) -> np.ndarray:
        r"""Where each pushed joint is along its line, :math:`u \cdot (p_j - P)`, ``(k_p,)``."""
        return ((pts[self.push_joints] - self.push_points) * self.push_axes).sum(axis=1)

    def motor_angles(self, pts: np.ndarray) -> np.ndarray:
        r"""Relative angles :math:`\theta(d) - \theta(r)`, unwrapped next to the targets.

        In space, the hinge angles of :func:`hinge_angles`.
        """
        if self.dim == 3:
            return self.targets + wrap_angle(hinge_angles(pts, self.motors)[0] - self.targets)
        d = pts[self.motors[:, 1]] - pts[self.motors[:, 0]]
        r = pts[self.motors[:, 3]] - pts[self.motors[:, 2]]
        r = np.where((self.motors[:, 2] < 0)[:, None], [1.0, 0.0], r)
        theta = np.arctan2(r[:, 0] * d[:, 1] - r[:, 1] * d[:, 0], (r * d).sum(axis=1))
        return self.targets + wrap_angle(theta - self.targets)

    def residuals(self, pts: np.ndarray) -> np.ndarray:
        """Scaled residuals of the drive rows (lengths)."""
        g_mot = np.zeros(0)  # no motor rows (always so in space): no angles to measure
        if len(self.motors):
            g_mot = self.motor_scales * (self.motor_angles(pts) - self.targets)
        if len(self.push_joints):
            g_mot = np.concatenate([g_mot, self.push_positions(pts) - self.push_targets])
        e = pts[self.links[:, 0]] - pts[self.links[:, 1]]
        with np.errstate(divide="ignore", invalid="ignore"):
            g_link = ((e * e).sum(axis=1) - self.link_lengths**2) / (2.0 * self.link_lengths)
        g_hold = np.zeros(0)  # no holds (always so in space: a hold pins to the table)
        if len(self.holds):
            g_hold = (pts[self.holds] - self.hold_anchors).reshape(-1)
        return np.concatenate([g_mot, g_link, g_hold])

    def _motor_gradients(self, pts: np.ndarray) -> np.ndarray:
        """Gradients per role (pivot, tip, r0, r1), shape ``(k, 4, 2)``; in space ``(k, 4, 3)``."""
        mo = self.motors
        if self.dim == 3:
            return self.motor_scales[:, None, None] * hinge_angles(pts, mo)[1]
        d = pts[mo[:, 1]] - pts[mo[:, 0]]
        r = pts[mo[:, 3]] - pts[mo[:, 2]]
        s = self.motor_scales[:, None]
        g_tip = s * np.column_stack([-d[:, 1], d[:, 0]]) / (d * d).sum(axis=1, keepdims=True)
        with np.errstate(divide="ignore", invalid="ignore"):
            g_r1 = s * np.column_stack([r[:, 1], -r[:, 0]]) / (r * r).sum(axis=1, keepdims=True)
        g_r1 = np.where((mo[:, 2] < 0)[:, None], 0.0, g_r1)
        return np.stack([-g_tip, g_tip, -g_r1, g_r1], axis=1)

    def _motor_slots(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Distinct vertices of each motor row: ``(vertices (k, 4), role → slot (k, 4), used)``.

        A reference rod often shares the pivot; its gradients then add up in one slot.
        """
        k = len(self.motors)
        vertices = np.full((k, 4), -1, dtype=np.int64)
        slot = np.zeros((k, 4), dtype=np.int64)
        for row, roles in enumerate(self.motors.tolist()):  # once per pattern, k motors
            seen: list[int] = []
            for role, vertex in enumerate(roles):
                if vertex < 0:
                    slot[row, role] = 3
                    continue
                if vertex not in seen:
                    seen.append(vertex)
                slot[row, role] = seen.index(vertex)
            vertices[row, : len(seen)] = seen
        return vertices, slot, vertices >= 0

    def jacobian_values(self, pts: np.ndarray) -> np.ndarray:
        """Non-zeros of the drive rows, in the order of :meth:`pattern`."""
        _, slot, used = self._slots
        d = self.dim
        grads = np.zeros((len(self.motors), 4, d))
        rows = np.repeat(np.arange(len(self.motors)), 4)
        np.add.at(grads, (rows, slot.reshape(-1)), self._motor_gradients(pts).reshape(-1, d))
        motor = grads[used].reshape(-1)
        e = (pts[self.links[:, 0]] - pts[self.links[:, 1]]) / self.link_lengths[:, None]
        link = np.column_stack([e, -e]).reshape(-1)
        push = self.push_axes.reshape(-1)
        return np.concatenate([motor, push, link, np.ones(2 * len(self.holds))])

    def pattern(self, first: int) -> tuple[np.ndarray, np.ndarray]:
        """Row and column indices of the non-zeros, rows numbered from ``first``."""
        vertices, _, used = self._slots
        k, s = len(self.motors), len(self.links)
        m_rows = np.repeat(first + np.arange(k)[:, None], 4, axis=1)[used]
        d = self.dim
        m_rows = np.repeat(m_rows, d)
        m_cols = (d * vertices[used][:, None] + np.arange(d)).reshape(-1)
        # pushes (planar): a push's two columns, the x and y of its joint
        p_rows = np.repeat(first + k + np.arange(len(self.push_joints)), 2)
        m_rows = np.concatenate([m_rows, p_rows])
        m_cols = np.concatenate([m_cols, (2 * self.push_joints[:, None] + np.arange(2)).ravel()])
        k = self.n_timed
        l_rows = np.repeat(np.arange(first + k, first + k + s), 2 * d)
        lk = self.links
        l_cols = np.column_stack([d * lk[:, e, None] + np.arange(d) for e in (0, 1)])
        h_rows = np.arange(first + k + s, first + k + s + 2 * len(self.holds))
        h_cols = np.column_stack([2 * self.holds, 2 * self.holds + 1]).reshape(-1)
        rows = np.concatenate([m_rows, l_rows, h_rows]).astype(np.int64)
        return rows, np.concatenate([m_cols, l_cols.reshape(-1), h_cols]).astype(np.int64)


def _push_arrays(pushes: Sequence[Push], t: float) -> dict[str, np.ndarray]:
    """The push fields of :class:`DriveRows` from ``pushes``, their targets at time ``t``."""
    rows = [Push(*q) for q in pushes]
    phases = np.array([q.phase for q in rows], dtype=np.float64)
    speeds = np.array([q.speed for q in rows], dtype=np.float64)
    return {
        "push_joints": np.array([q.joint for q in rows], dtype=np.int64),
        "push_points": np.array([q.point for q in rows], dtype=np.float64).reshape(-1, 2),
        "push_axes": np.array([q.direction for q in rows], dtype=np.float64).reshape(-1, 2),
        "push_phases": phases,
        "push_speeds": speeds,
        "push_targets": phases + speeds * t,
    }
