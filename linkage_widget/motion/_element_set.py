r"""The force elements of a simulator, a value: the :class:`ElementSet`, and their checks.

Motors are rows of the constraints (:class:`~linkage_widget.constraints.DriveRows`, the
rheonomic angle row); torque and force actuators and kinetic friction are explicit
forces (``Forces.extra``); a sticking friction element is a temporary row (a link or
a hold). An :class:`ElementSet` holds the springs, motors, actuators and friction a
simulator was given (a value: adding or removing one makes a new set) and builds, for a
stick state, the setup with those rows (a :class:`RowMemo` shared along the edits keeps
it while the rows stay the same, so the factorisation patterns are built once per
change of the row set).

Motors (:meth:`~linkage_widget.motion.Simulator.add_motor`)
    An exact rheonomic constraint: the angle of :math:`p_{tip} - p_{pivot}` relative to
    the ground x-axis (or to the rod ``reference = (r0, r1)``, the angle of
    :math:`p_{r_1} - p_{r_0}`) is :math:`\theta_0 + \omega (t - t_0)`, :math:`\theta_0`
    its angle when added, :math:`t_0` the time then, ``speed`` :math:`\omega` in
    radians per unit time (counter-clockwise positive). Dynamic mode: the angle holds
    to round-off whatever the loads, and the motor exerts the torque ``motor_torques``
    (it does work at the rate :math:`\tau\omega`: the mechanical energy is not
    conserved while it drives). Kinematic mode: each step turns it by
    ``speed * step_size`` and advances the time by ``step_size`` (while a motor exists;
    without motors a kinematic step counts one), the rest following the
    least-kinetic-energy motion; the attractor is not used. Refused (``ValueError``,
    nothing changed): an unknown vertex, a rod that does not exist, a rod with both
    ends pinned, a motor on its own reference, a non-finite speed.

Linear motors (:meth:`~linkage_widget.motion.Simulator.add_linear_motor`)
    A linear actuator on a slider: its joint's place along the slider's line is
    :math:`s_0 + v (t - t_0)` (:class:`RunningPush`, the push row of
    :class:`~linkage_widget.constraints.DriveRows`), exact in both modes as a motor's
    angle; it exerts the force ``ConstraintForces.pushes`` along the line. Refused: a
    slider that does not exist, a non-finite speed. A branch followed at a singular stop
    re-anchors the angle motors only.

Torque actuators (:class:`~._actuators.TorqueActuator`) act as the couple
:math:`\pm T J d/|d|^2` on tip and pivot, the reaction on the reference rod or the
ground; force actuators along a pathway are expansile; a joint load is the load of
statics, with potential :math:`-f \cdot p_v`. Dynamic mode; only loads are conservative.

In space (3-D linkages) loads are 3-vectors, and path forces, path friction (its
stick phase a temporary rod, as in the plane), springs and dampers act along the line
of two joints: they are dimension-free. A couple and a motor need an axis there: a
:class:`~linkage_widget.elements.HingeTorque` turns a body about a hinge axis (two
joints; :class:`~._actuators.HingeCouple` are its forces) and a
:class:`~linkage_widget.elements.HingeMotor` drives the hinge angle (a
:class:`RunningMotor` whose ``(pivot, tip)`` is the axis and ``reference`` the pair
``(tip, reference vertex or -1)``: the hinge row of
:func:`~linkage_widget.constraints.hinge_angles`). The planar torque actuator and
motor (angles in the plane of the drawing) and the table friction (joints sliding on
that plane) have no meaning in space and are refused, saying what to use instead.

An element is checked against the linkage before the simulator keeps it
(:func:`~._element_checks.checked`, :func:`~._element_checks.motor_row`);
:func:`rest_state` gives the stick state an edit starts from; both read values and
change nothing. Units and signs: angles in radians, counter-clockwise positive; speeds in
radians per unit time (dynamic: seconds; kinematic: per ``step_size`` of time);
forces in the simulator's force units (mass × length / s²); torques force × length,
counter-clockwise positive; expansile (pushing apart) forces positive, as in
sympy.physics.mechanics.

>>> empty = ElementSet()
>>> driven = empty.added(RunningMotor(0, 2, 1.0, None, 0.0))
>>> driven.drives_motion("kinematic"), driven.drives_motion("dynamic"), empty.motors
(True, True, ())
>>> driven.without("motors", 0) == empty
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import _checks
from ..constraints import DriveRows, Push
from ..elements import (
    Spring,
)
from ._actuators import (
    ForceActuator,
    HingeCouple,
    JointLoad,
    TorqueActuator,
    element_forces,
)
from ._friction import (
    FrictionPath,
    StickState,
    joint_friction,
    oriented_signs,
    path_speeds,
)
from ._metric import Metric, unit_vectors
from ._setup import Setup
from ._slide_friction import SlideFriction, slide_speeds, stick_slides, stuck_pushes
from .tolerances import REST_SPEED

__all__ = [
    "KINDS",
    "ElementSet",
    "RowMemo",
    "RunningMotor",
    "RunningPush",
    "rest_state",
]


@dataclass(frozen=True)
class RunningMotor:
    r"""A motor in a simulator: the rod ``pivot``→``tip`` at angle ``phase + speed * t``.

    The angle is relative to ``reference``, a rod ``(r0, r1)`` (angle of
    :math:`p_{r_1} - p_{r_0}`) or ``None`` (the ground x-axis); ``speed`` in radians per
    unit time (counter-clockwise positive); ``phase`` anchors it in the simulator's time.
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

    def turning(self, speed: float, phase: float) -> RunningMotor:
        """The motor turning at ``speed`` from ``phase`` (a branch followed re-anchors it)."""
        return dataclasses.replace(self, speed=speed, phase=phase)


@dataclass(frozen=True)
class RunningPush:
    r"""A linear motor in a simulator: slider ``slider``'s joint at ``phase + speed * t``.

    ``joint``, ``point`` and ``direction`` are the slider's
    (:class:`~linkage_widget.guides.Slider`); the place is :math:`u \cdot (p_j - P)`.
    """

    slider: int
    joint: int
    point: tuple[float, float]
    direction: tuple[float, float]
    speed: float
    phase: float

    def row(self) -> Push:
        """The push row (:class:`~linkage_widget.constraints.Push`) it holds."""
        return Push(self.joint, self.point, self.direction, self.phase, self.speed)


class RowMemo:
    """The last setup with drive rows and the rows it was built for (one slot).

    Shared by an :class:`ElementSet` and every set made from it, as a
    :class:`~._setup.Setup` shares its memo: the factorisation patterns are built once
    per change of the row set, and an edit that leaves the rows keeps them.
    """

    def __init__(self) -> None:
        self._slot: tuple[tuple, Setup] | None = None

    def get(self, key: tuple, build: Callable[[], Setup]) -> Setup:
        """The setup remembered for ``key`` (by equality), or ``build()`` remembered."""
        if self._slot is not None and self._slot[0] == key:
            return self._slot[1]
        return self.keep(key, build())

    def keep(self, key: tuple, setup: Setup) -> Setup:
        """Remember ``setup`` for ``key``; return it."""
        self._slot = (key, setup)
        return setup


#: the kinds of element a set holds, as :meth:`ElementSet.without` names them
KINDS = {"springs": "spring", "motors": "motor", "actuators": "actuator", "frictions": "friction"}
KINDS.update(pushes="linear motor", slides="slider friction")


@dataclass(frozen=True)
class ElementSet:
    r"""The force elements of a simulator, a value: :meth:`added` and :meth:`without` make new sets.

    Attributes
    ----------
    springs : tuple of Spring
        Springs and dampers (rest lengths resolved).
    motors : tuple of RunningMotor
    actuators : tuple
        :class:`~linkage_widget.motion._actuators.ForceActuator`,
        :class:`~linkage_widget.motion._actuators.TorqueActuator` and
        :class:`~linkage_widget.motion._actuators.JointLoad` values.
    frictions : tuple of FrictionPath
    pushes : tuple of RunningPush
        The linear motors.
    slides : tuple of SlideFriction
        Friction along sliders (:mod:`~._slide_friction`).
    table : float
        Table friction coefficient :math:`\mu \ge 0` of every joint.
    rows : RowMemo
        The setups with drive rows (shared along the edits; not part of the value).
    """

    springs: tuple[Spring, ...] = ()
    motors: tuple[RunningMotor, ...] = ()
    actuators: tuple[Any, ...] = ()
    frictions: tuple[FrictionPath, ...] = ()
    table: float = 0.0
    pushes: tuple[RunningPush, ...] = ()
    slides: tuple[SlideFriction, ...] = ()
    rows: RowMemo = field(default_factory=RowMemo, compare=False, repr=False)

    def added(self, item: Element) -> ElementSet:
        """The set with a checked element (:mod:`._element_checks`) added after its kind."""
        if isinstance(item, Spring):
            return dataclasses.replace(self, springs=(*self.springs, item))
        if isinstance(item, RunningMotor):
            return dataclasses.replace(self, motors=(*self.motors, item))
        if isinstance(item, FrictionPath):
            return dataclasses.replace(self, frictions=(*self.frictions, item))
        if isinstance(item, RunningPush):
            return dataclasses.replace(self, pushes=(*self.pushes, item))
        if isinstance(item, SlideFriction):
            return dataclasses.replace(self, slides=(*self.slides, item))
        return dataclasses.replace(self, actuators=(*self.actuators, item))

    def without(self, kind: str, index: Any) -> ElementSet:
        """The set without element ``index`` of ``kind`` (a :data:`KINDS` key); later ones shift.

        Raises ``IndexError`` naming the element for an index out of range.
        """
        items: tuple = getattr(self, kind)
        if kind == "springs":  # any integral value, as the springs always took
            k = int(index)
            if not 0 <= k < len(items):
                raise IndexError(f"spring {k} out of range (there are {len(items)} springs)")
        else:
            k = _checks.item_index(index, len(items), KINDS[kind], kind)
        return dataclasses.replace(self, **{kind: items[:k] + items[k + 1 :]})

    def with_motors(self, motors: Sequence[RunningMotor]) -> ElementSet:
        """The set with ``motors`` in place of its motors (a branch followed re-anchors them)."""
        return dataclasses.replace(self, motors=tuple(motors))

    def with_table(self, table: float) -> ElementSet:
        """The set with table friction ``table`` (checked by :mod:`._element_checks`)."""
        return dataclasses.replace(self, table=table)

    def drives_motion(self, mode: str) -> bool:
        """Whether a step in ``mode`` must go through the drive steppers."""
        if mode == "kinematic":
            return bool(self.motors or self.pushes)
        return bool(self.motors or self.pushes or self.has_forces())

    def has_forces(self) -> bool:
        """Whether any explicit force element is present."""
        return bool(self.actuators or self.frictions or self.slides or self.table > 0.0)

    def setup(self, base: Setup, p: np.ndarray, state: StickState | None) -> Setup:
        """``base`` with the motor rows and the rows of the stuck elements of ``state``.

        ``base`` itself when there are none. Links keep the length and holds the
        place they have at ``p`` when the set of rows changes.
        """
        sticks = state.key() if state is not None else ((), (), b"", b"", (), b"")
        if not (self.motors or self.pushes or sticks[0] or sticks[1] or sticks[4]):
            return base
        key = (
            id(base.factoriser),
            tuple(m.row() + (m.speed, m.phase) for m in self.motors),
            tuple(q.row() for q in self.pushes),
            sticks,
        )
        dim = base.constraints.dim
        setup = self.rows.get(
            key, lambda: base.with_drives(self._drive_rows(p, state, sticks, dim))
        )
        if setup.metric is not base.metric:  # the mass parameters changed
            setup = self.rows.keep(key, dataclasses.replace(setup, metric=base.metric))
        return setup

    def _drive_rows(
        self, p: np.ndarray, state: StickState | None, sticks: tuple, dim: int
    ) -> DriveRows:
        """The motor rows and the rows of the stuck elements (``sticks``: ``state.key()``)."""
        links = [(self.frictions[k].i, self.frictions[k].j) for k in sticks[0]]
        return DriveRows.build(
            p,
            [m.row() for m in self.motors],
            [m.phase for m in self.motors],
            [m.speed for m in self.motors],
            0.0,
            links=links,
            holds=list(sticks[1]),
            link_lengths=state.lengths[list(sticks[0])] if state is not None else None,
            hold_anchors=state.anchors[list(sticks[1])] if state is not None else None,
            dim=dim,
        ).with_pushes([q.row() for q in self.pushes] + stuck_pushes(self.slides, state), 0.0)

    def normal_forces(self, metric: Metric, gravity: float) -> np.ndarray:
        r"""Table normal force :math:`N_i = m_i g_n` of each joint, shape ``(n,)``."""
        return metric.weight[1::2] * (abs(gravity) if gravity else 1.0)

    def extra(
        self, metric: Metric, pinned: np.ndarray, gravity: float, state: StickState, dim: int = 2
    ) -> Callable[[np.ndarray, np.ndarray, float], np.ndarray] | None:
        """The explicit forces (actuators, sliding friction) as ``f(p, v, t) -> (dn,)``."""
        if not self.has_forces():
            return None
        elements, frictions = self.actuators, self.frictions
        sliding = ~state.paths
        table, normal = self.table, self.normal_forces(metric, gravity)
        movable = ~pinned & ~state.joints

        def force(p: np.ndarray, v: np.ndarray, t: float) -> np.ndarray:
            out = element_forces(elements, p, v, t, dim)
            if frictions:
                out = out + _path_friction(frictions, sliding, state, p, v, dim)
            if table > 0.0:
                out = out + joint_friction(normal, table, v, state, movable)
            return out

        return force


def _path_friction(
    frictions: tuple[FrictionPath, ...],
    sliding: np.ndarray,
    state: StickState,
    p: np.ndarray,
    v: np.ndarray,
    dim: int,
) -> np.ndarray:
    """Kinetic friction of the sliding pathways as a generalised force, shape ``(dn,)``."""
    u = path_speeds(frictions, p, v, dim)
    # fixed along the pathway's first direction for the whole step (a reversal within it
    # is a stick event), so through zero length it follows the pathway's flipped direction
    s = oriented_signs(frictions, p, state, dim)
    f = np.array(
        [
            fr.kinetic(float(u[k]), float(s[k])) if sliding[k] else 0.0
            for k, fr in enumerate(frictions)
        ]
    )
    i = np.array([fr.i for fr in frictions], dtype=np.int64)
    j = np.array([fr.j for fr in frictions], dtype=np.int64)
    e, _ = unit_vectors(p, i, j, dim)
    out = np.zeros((len(p) // dim, dim))
    np.add.at(out, i, f[:, None] * e)
    np.add.at(out, j, -f[:, None] * e)
    return out.reshape(-1)


Element = (
    Spring
    | RunningMotor
    | RunningPush
    | SlideFriction
    | FrictionPath
    | JointLoad
    | ForceActuator
    | TorqueActuator
    | HingeCouple
)


def rest_state(act: ElementSet, setup: Setup, p: np.ndarray, v: np.ndarray) -> StickState:
    """Elements at rest stick, the others slide (friction starts from the state)."""
    n = setup.linkage.n_vertices
    state = StickState.free(len(act.frictions), n, setup.constraints.dim, len(act.slides))
    rest = REST_SPEED * setup.constraints.length_scale
    u = path_speeds(act.frictions, p, v, setup.constraints.dim)
    paths = (np.abs(u) <= rest) & np.array([f.limit > 0 for f in act.frictions], dtype=bool)
    joints = np.zeros(n, dtype=bool)
    if act.table > 0.0:
        vel = v.reshape(-1, 2)
        joints = ~setup.pinned & (np.hypot(vel[:, 0], vel[:, 1]) <= rest)
    state = state.stuck_at(act.frictions, p, paths, joints)
    if not act.slides:
        return state
    w = slide_speeds(act.slides, v)
    stuck = (np.abs(w) <= rest) & np.array([s.mu_s > 0 for s in act.slides], dtype=bool)
    return stick_slides(act.slides, state, p, stuck)
