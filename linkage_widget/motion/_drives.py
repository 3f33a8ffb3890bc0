r"""What drives and loads a simulator beyond gravity and springs: the :class:`Actuators`.

Motors are rows of the constraints (:class:`~linkage_widget.constraints.Drives`, the
rheonomic angle row); torque and force actuators and kinetic friction are explicit
forces (``Forces.extra``); a sticking friction element is a temporary row (a link or
a hold). :class:`Actuators` keeps the elements the facade added and builds, for a
stick state, the setup with those rows (remembered while the rows stay the same, so
the factorisation patterns are built once per change of the row set).

>>> from linkage_widget import Linkage
>>> act = Actuators()
>>> act.motors.append(Motor(0, 2, 1.0, None, 0.0))
>>> act.drives_motion("kinematic"), act.drives_motion("dynamic")
(True, True)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..constraints import Drives
from ._actuators import element_forces
from ._friction import PathFriction, StickState, joint_friction, path_speeds
from ._metric import Metric, unit_vectors
from ._setup import Setup

__all__ = ["Actuators", "Motor"]


@dataclass(frozen=True)
class Motor:
    r"""The rod ``pivot``→``tip`` at angle ``phase + speed * t`` relative to ``reference``.

    ``reference`` is a rod ``(r0, r1)`` (angle of :math:`p_{r_1} - p_{r_0}`) or ``None``
    (the ground x-axis); ``speed`` in radians per unit time (counter-clockwise positive).
    """

    pivot: int
    tip: int
    speed: float
    reference: tuple[int, int] | None
    phase: float

    def row(self) -> tuple[int, int, int, int]:
        """``(pivot, tip, r0, r1)`` with ``-1, -1`` for the ground."""
        r0, r1 = self.reference if self.reference is not None else (-1, -1)
        return (self.pivot, self.tip, r0, r1)


class Actuators:
    r"""The motors, force elements, friction elements and table friction of a simulator.

    Attributes
    ----------
    motors : list of Motor
    elements : list
        :class:`~linkage_widget.motion._actuators.ForceActuator` and
        :class:`~linkage_widget.motion._actuators.TorqueActuator` values.
    frictions : list of PathFriction
    table : float
        Table friction coefficient :math:`\mu \ge 0` of every joint.
    """

    def __init__(self) -> None:
        self.motors: list[Motor] = []
        self.elements: list[Any] = []
        self.frictions: list[PathFriction] = []
        self.table = 0.0
        self._cache: tuple[tuple, Setup] | None = None

    def drives_motion(self, mode: str) -> bool:
        """Whether a step in ``mode`` must go through the drive steppers."""
        if mode == "kinematic":
            return bool(self.motors)
        return bool(self.motors or self.elements or self.frictions or self.table > 0.0)

    def has_forces(self) -> bool:
        """Whether any explicit force element is present."""
        return bool(self.elements or self.frictions or self.table > 0.0)

    def setup(self, base: Setup, p: np.ndarray, state: StickState | None) -> Setup:
        """``base`` with the motor rows and the rows of the stuck elements of ``state``.

        ``base`` itself when there are none. Links keep the length and holds the
        place they have at ``p`` when the set of rows changes.
        """
        sticks = state.key() if state is not None else ((), (), b"", b"")
        if not self.motors and not sticks[0] and not sticks[1]:
            return base
        key = (
            id(base.factoriser),
            tuple(m.row() + (m.speed, m.phase) for m in self.motors),
            sticks,
        )
        if self._cache is not None and self._cache[0] == key:
            setup = self._cache[1]
        else:
            links = [(self.frictions[k].i, self.frictions[k].j) for k in sticks[0]]
            drives = Drives.build(
                p,
                [m.row() for m in self.motors],
                [m.phase for m in self.motors],
                [m.speed for m in self.motors],
                0.0,
                links=links,
                holds=list(sticks[1]),
                link_lengths=state.lengths[list(sticks[0])] if state is not None else None,
                hold_anchors=state.anchors[list(sticks[1])] if state is not None else None,
            )
            setup = base.with_drives(drives)
            self._cache = (key, setup)
        if setup.metric is not base.metric:  # the mass parameters changed
            setup = dataclasses.replace(setup, metric=base.metric)
            self._cache = (key, setup)
        return setup

    def normal_forces(self, metric: Metric, gravity: float) -> np.ndarray:
        r"""Table normal force :math:`N_i = m_i g_n` of each joint, shape ``(n,)``."""
        return metric.weight[1::2] * (abs(gravity) if gravity else 1.0)

    def extra(
        self, metric: Metric, pinned: np.ndarray, gravity: float, state: StickState
    ) -> Callable[[np.ndarray, np.ndarray, float], np.ndarray] | None:
        """The explicit forces (actuators, sliding friction) as ``f(p, v, t) -> (2n,)``."""
        if not self.has_forces():
            return None
        elements, frictions = tuple(self.elements), tuple(self.frictions)
        sliding = ~state.paths
        table, normal = self.table, self.normal_forces(metric, gravity)
        movable = ~pinned & ~state.joints

        def force(p: np.ndarray, v: np.ndarray, t: float) -> np.ndarray:
            out = element_forces(elements, p, v, t)
            if frictions:
                out = out + _path_friction(frictions, sliding, state.path_sign, p, v)
            if table > 0.0:
                out = out + joint_friction(normal, table, v, state, movable)
            return out

        return force


def _path_friction(
    frictions: tuple[PathFriction, ...],
    sliding: np.ndarray,
    remembered: np.ndarray,
    p: np.ndarray,
    v: np.ndarray,
) -> np.ndarray:
    """Kinetic friction of the sliding pathways as a generalised force, shape ``(2n,)``."""
    u = path_speeds(frictions, p, v)
    s = remembered  # fixed for the whole step: a reversal within it is a stick event
    f = np.array(
        [
            fr.kinetic(float(u[k]), float(s[k])) if sliding[k] else 0.0
            for k, fr in enumerate(frictions)
        ]
    )
    i = np.array([fr.i for fr in frictions], dtype=np.int64)
    j = np.array([fr.j for fr in frictions], dtype=np.int64)
    e, _ = unit_vectors(p, i, j)
    out = np.zeros((len(p) // 2, 2))
    np.add.at(out, i, f[:, None] * e)
    np.add.at(out, j, -f[:, None] * e)
    return out.reshape(-1)
