"""A force element checked against the linkage it is added to, in the form a simulator keeps.

:func:`checked` takes a :mod:`linkage_widget.elements` value (or a simulator's own
form) and returns what :class:`~._element_set.ElementSet` holds: a spring with its rest
length resolved, a motor anchored at the angle it has now (:class:`~._element_set.RunningMotor`),
a load, a force or a torque actuator, a friction pathway. Each check raises
``ValueError`` (``IndexError`` for an unknown vertex) naming the element and changes
nothing; an element without meaning in space is refused there, saying what to use
instead (:data:`PLANAR_ONLY`).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np

from .. import _checks
from ..constraints import hinge_angles
from ..elements import (
    HingeMotor,
    HingeTorque,
    LinearMotor,
    Load,
    Motor,
    PathForce,
    PathFriction,
    SliderFriction,
    Spring,
    Torque,
)
from ._actuators import (
    ForceActuator,
    HingeCouple,
    JointLoad,
    TorqueActuator,
    element_forces,
    hinge_couple,
    hinge_row,
)
from ._element_set import Element, RunningMotor, RunningPush
from ._friction import FrictionPath
from ._setup import Setup
from ._slide_friction import SlideFriction

__all__ = [
    "PLANAR_ONLY",
    "checked",
    "checked_table",
    "force_actuator",
    "joint_load",
    "motor_row",
    "pathway",
    "planar",
    "running_motor",
    "running_push",
    "torque_actuator",
]


#: why each planar-only element has no meaning in space, and what to use there instead
PLANAR_ONLY = {
    "table friction": "the joints slide on the plane of the drawing; in space there is "
    "no such plane (friction along a pathway, PathFriction, works in space)",
    "a motor": "it turns a rod in the plane of the drawing; in space a rod turning "
    "about a point has two degrees of freedom (turn a body about a hinge axis with "
    "Simulator.add(HingeMotor(axis=(a0, a1), tip=t, speed=w, reference=k)))",
    "a torque actuator": "its couple turns a rod in the plane of the drawing; in space "
    "a couple needs an axis (Simulator.add(HingeTorque(axis=(a0, a1), tip=t, "
    "torque=T, reference=k)): the couple about the hinge a0-a1 on the body of t)",
}


def planar(dim: int, what: str) -> None:
    """Refuse an element that is planar on a 3-D linkage, saying why and what to use instead."""
    if dim != 2:
        raise NotImplementedError(f"{what} is planar, not for a 3-D linkage: {PLANAR_ONLY[what]}")


def checked_table(dim: int, value: Any) -> float:
    """``table_friction`` checked: a number >= 0, and 0 for a 3-D linkage."""
    value = _checks.non_negative(value, "table_friction")
    if value > 0.0:
        planar(dim, "table friction")
    return value


def motor_row(setup: Setup, pivot: Any, tip: Any, reference: Any) -> tuple[int, int, int, int]:
    """Validated ``(pivot, tip, r0, r1)``; refuses what a motor cannot drive."""
    n = setup.linkage.n_vertices
    c = _checks.vertex_index(pivot, n, "motor pivot")
    t = _checks.vertex_index(tip, n, "motor tip")
    rods = {frozenset(r) for r in setup.linkage.rods}
    if frozenset((c, t)) not in rods:
        raise ValueError(f"motor: there is no rod {c}-{t} to turn")
    pinned = set(setup.linkage.pinned)
    if reference is None and c in pinned and t in pinned:
        raise ValueError(f"motor: rod {c}-{t} has both ends pinned; it cannot turn")
    if reference is None:
        return (c, t, -1, -1)
    r0 = _checks.vertex_index(reference[0], n, "motor reference")
    r1 = _checks.vertex_index(reference[1], n, "motor reference")
    if frozenset((r0, r1)) not in rods:
        raise ValueError(f"motor reference: there is no rod {r0}-{r1}")
    if frozenset((r0, r1)) == frozenset((c, t)):
        raise ValueError(f"motor: rod {c}-{t} cannot turn relative to itself")
    if {c, t, r0, r1} <= pinned:
        raise ValueError(f"motor: rods {c}-{t} and {r0}-{r1} are pinned; they cannot turn")
    return (c, t, r0, r1)


def running_motor(
    setup: Setup, p: np.ndarray, time: float, pivot: Any, tip: Any, speed: Any, reference: Any
) -> RunningMotor:
    """The motor turning its rod from the angle it has at ``p`` at ``time`` (validated)."""
    row = motor_row(setup, pivot, tip, reference)
    speed = _checks.finite(speed, "motor speed")
    pts = p.reshape(-1, 2)
    d = pts[row[1]] - pts[row[0]]
    theta = math.atan2(d[1], d[0])
    if row[2] >= 0:
        r = pts[row[3]] - pts[row[2]]
        theta = math.remainder(theta - math.atan2(r[1], r[0]), 2.0 * math.pi)
    ref = None if row[2] < 0 else (row[2], row[3])
    return RunningMotor(row[0], row[1], speed, ref, theta - speed * time)


def running_push(setup: Setup, p: np.ndarray, time: float, e: LinearMotor) -> RunningPush:
    """The linear motor on slider ``e.slider`` from the place its joint has at ``p`` at ``time``."""
    sliders = setup.linkage.sliders
    k = _checks.item_index(e.slider, len(sliders), "slider", "sliders")
    joint, point, u = sliders[k]
    place = float(np.dot(p.reshape(-1, 2)[joint] - point, u))
    return RunningPush(k, joint, point, u, e.speed, place - e.speed * time)


def checked(e: Any, setup: Setup, p: np.ndarray, v: np.ndarray, time: float, dim: int) -> Element:
    """The force element ``e`` as a simulator at ``(p, v, time)`` keeps it, checked.

    ``e``: a :class:`~linkage_widget.elements.Spring` (its rest length resolved), a
    ``Motor`` (anchored at the angle it has now), a ``LinearMotor`` (at the place its
    slider's joint has now), a ``PathFriction`` (rigid along a
    rod), a ``Load``, a ``PathForce``, a ``Torque``, or an explicit actuator; raises (naming what is
    wrong) for what the linkage cannot take.
    """
    n = setup.linkage.n_vertices
    if isinstance(e, Spring):
        return _resolved(e, p, n, dim)
    if isinstance(e, Motor):
        planar(dim, "a motor")
        return running_motor(setup, p, time, e.pivot, e.tip, e.speed, e.reference)
    if isinstance(e, LinearMotor):  # a linkage in space has no sliders
        return running_push(setup, p, time, e)
    if isinstance(e, SliderFriction):
        k = _checks.item_index(e.slider, len(setup.linkage.sliders), "slider", "sliders")
        joint, point, u = setup.linkage.sliders[k]
        return SlideFriction(k, joint, point, u, e.mu_k, e.mu_s, e.v_s, e.sigma)
    if isinstance(e, HingeMotor):  # in space: (pivot, tip) the axis, reference (tip, k)
        row = hinge_row(n, dim, e, p, setup.pinned)
        theta = float(hinge_angles(p.reshape(-1, 3), np.array([row]))[0][0])
        return RunningMotor(row[0], row[1], e.speed, row[2:], theta - e.speed * time)
    if isinstance(e, PathFriction):
        i, j = pathway(n, e.i, e.j, "friction", "friction needs")
        mu_s = e.mu_k if e.mu_s is None else e.mu_s
        return _friction_path(setup, i, j, (e.normal_force, e.mu_k, mu_s, e.v_s, e.sigma))
    if isinstance(e, Load):
        e = joint_load(n, dim, e.vertex, e.in_dim(dim).force)
    elif isinstance(e, PathForce):
        e = force_actuator(n, e.i, e.j, e.force)
    elif isinstance(e, Torque):
        e = torque_actuator(setup, dim, e.pivot, e.tip, e.torque, e.reference)
    elif isinstance(e, HingeTorque):
        e = hinge_couple(n, dim, e, p)
    if isinstance(e, JointLoad | ForceActuator | TorqueActuator | HingeCouple):
        element_forces((e,), p, v, time, dim)  # a bad callable fails now
        return e
    raise TypeError(f"not a force element: {e!r}")


def _resolved(s: Spring, p: np.ndarray, n: int, dim: int) -> Spring:
    """``s`` on a linkage of ``n`` joints, its rest length the distance at ``p`` when ``None``."""
    i = _checks.vertex_index(s.i, n, "i")
    j = _checks.vertex_index(s.j, n, "j")
    if s.rest_length is not None:
        return s
    pts = p.reshape(-1, dim)
    return dataclasses.replace(s, rest_length=float(_checks.row_norms(pts[[i]] - pts[[j]])[0]))


def pathway(n: int, i: Any, j: Any, prefix: str, needs: str) -> tuple:
    """Two distinct vertices ``i``, ``j`` of a pathway element (in the plane or in space)."""
    i = _checks.vertex_index(i, n, f"{prefix} i")
    j = _checks.vertex_index(j, n, f"{prefix} j")
    if i == j:
        raise ValueError(f"{needs} two distinct vertices, got {i} twice")
    return i, j


def force_actuator(n: int, i: Any, j: Any, force: Any) -> ForceActuator:
    """A checked force (a number or a callable) along the pathway ``i``–``j``."""
    i, j = pathway(n, i, j, "force", "a force actuator needs")
    return ForceActuator(i, j, _checks.magnitude(force, "force"))


def torque_actuator(
    setup: Setup, dim: int, pivot: Any, tip: Any, torque: Any, reference: Any
) -> TorqueActuator:
    """A checked torque (a number or a callable) on the rod ``pivot``→``tip`` (a motor's row)."""
    planar(dim, "a torque actuator")
    c, t, r0, r1 = motor_row(setup, pivot, tip, reference)
    value = _checks.magnitude(torque, "torque")
    return TorqueActuator(c, t, value, None if r0 < 0 else (r0, r1))


def joint_load(n: int, dim: int, vertex: Any, force: Any) -> JointLoad:
    """A checked constant load ``force`` on ``vertex``: ``(fx, fy)``, in space ``(fx, fy, fz)``."""
    v = _checks.vertex_index(vertex, n, "load vertex")
    size = np.size(force) if isinstance(force, list | tuple | np.ndarray) else None
    if size in (2, 3) and size != dim:
        Load(v, *np.ravel(force)).in_dim(dim)  # raises, saying which the linkage takes
    f = _checks.finite_point(force, "load force", dim)
    return JointLoad(v, *(float(c) for c in f))


def _friction_path(setup: Setup, i: int, j: int, values: tuple) -> FrictionPath:
    """The friction along ``i``–``j`` (``values``: normal force, mu_k, mu_s, v_s, sigma).

    Along a rod, or between two supports, nothing slides: the element is rigid.
    """
    rods = {frozenset(r) for r in setup.linkage.rods}
    rigid = frozenset((i, j)) in rods or bool(setup.pinned[i] and setup.pinned[j])
    return FrictionPath(i, j, *values, rigid)
