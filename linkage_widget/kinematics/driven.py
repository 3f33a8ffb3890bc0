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
A pushed slider (:func:`slider_kinematics`, a linear actuator) is the same with its
travel :math:`s` along the line in place of :math:`\theta`. See
:mod:`~linkage_widget.kinematics._trace` for the continuation that follows one branch.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from .. import _checks
from ..constraints import ConstraintSet, DriveRows, Push
from ..model import Linkage
from ..rigidity import RANK_RTOL
from ._batch import crank_batch, guide_rows
from ._dyadic import dyadic_order, modes_at
from ._trace import Drive, Sample, correct, derivatives, follow, trace

__all__ = [
    "Kinematics",
    "MechanismError",
    "drive_of",
    "kinematics",
    "motor_set",
    "slider_kinematics",
    "timed_kinematics",
]


class MechanismError(ValueError):
    """The mechanism cannot be analysed as driven: free degrees of freedom, or no placement."""


@dataclass(frozen=True, eq=False)
class Kinematics:
    r"""The motion of a driven mechanism over the drive values asked for.

    Attributes
    ----------
    angles : ndarray, shape (k,)
        The drive values: crank angles :math:`\theta` in radians (or a slider's travel).
    positions : ndarray, shape (k, n, 2) or (b, k, n, 2)
        Joint positions; NaN where ``valid`` is False and nothing assembled. With
        ``lengths`` (designs) a leading axis, one row per design.
    velocities : ndarray, shape (k, n, 2) or (b, k, n, 2)
        :math:`dp/d\theta`, the velocity per unit crank speed.
    accelerations : ndarray, shape (k, n, 2) or (b, k, n, 2)
        :math:`d^2p/d\theta^2`, the acceleration at unit constant crank speed.
    valid : ndarray of bool, shape (k,) or (b, k)
        Where the mechanism assembles on the branch followed from the first angle and
        its Jacobian keeps full rank (False at a dead point).
    pivot, tip : int
        The driven rod (for a pushed slider: the slider's joint, and ``-1``).
    slider : int
        The pushed slider (:func:`slider_kinematics`), or ``-1`` for a crank.
    lengths : ndarray, shape (b, m), or None
        The designs' rod lengths (:func:`kinematics` with ``lengths=``), else None.
    """

    angles: np.ndarray
    positions: np.ndarray
    velocities: np.ndarray
    accelerations: np.ndarray
    valid: np.ndarray
    pivot: int
    tip: int
    slider: int = -1
    lengths: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.angles)

    def at_speed(self, speed: float, acceleration: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
        r"""Velocities and accelerations ``(k, n, 2)`` at a drive speed :math:`\omega`.

        With :math:`\alpha` the drive's own acceleration (``acceleration``, 0 for a
        constant speed): :math:`\dot p = \omega p'`, :math:`\ddot p = \omega^2 p'' +
        \alpha p'` (the chain rule along the drive).

        >>> from linkage_widget import Linkage
        >>> crank = Linkage([[0, 0], [2, 0]], rods=[(0, 1)], pinned=[0])
        >>> v, a = kinematics(crank, 0, 1, [0.0]).at_speed(3.0)
        >>> (v[0, 1].round(12) + 0.0).tolist(), (a[0, 1].round(9) + 0.0).tolist()  # ω r, ω² r
        ([0.0, 6.0], [-18.0, 0.0])
        """
        w = _checks.finite(speed, "speed")
        alpha = _checks.finite(acceleration, "acceleration")
        return w * self.velocities, w * w * self.accelerations + alpha * self.velocities

    def body_point(self, i: int, j: int, along: float, across: float) -> tuple[np.ndarray, ...]:
        r"""Path, velocity and acceleration of a point fixed to the body of joints ``i``, ``j``.

        The point is :math:`q = p_i + s\,d + t\,J d` with :math:`d = p_j - p_i`,
        :math:`J` the quarter turn, ``along`` :math:`s` and ``across`` :math:`t` its
        coordinates in the body's frame (units of :math:`|d|`): linear in the positions,
        so :math:`q' = p_i' + s\,d' + t\,J d'` and likewise :math:`q''`, exactly.
        Returns three ``(k, 2)`` arrays (``(b, k, 2)`` for designs).
        """

        def fixed(arr: np.ndarray) -> np.ndarray:
            d = arr[..., j, :] - arr[..., i, :]
            return arr[..., i, :] + along * d + across * np.stack([-d[..., 1], d[..., 0]], -1)

        return fixed(self.positions), fixed(self.velocities), fixed(self.accelerations)


def motor_set(linkage: Linkage, pivot: int, tip: int) -> ConstraintSet:
    r"""The constraints of ``linkage`` and a motor on ``pivot``→``tip`` whose time is the angle.

    The row runs at unit speed from phase 0, so :meth:`ConstraintSet.at_time` ``(θ)``
    asks for the crank angle :math:`\theta` (from the ground x-axis).
    """
    drives = DriveRows.build(linkage.vertices, [(pivot, tip, -1, -1)], [0.0], [1.0], 0.0)
    return ConstraintSet.from_linkage(linkage).with_drives(drives)


def motor_drive(linkage: Linkage, pivot: int, tip: int) -> Drive:
    r"""The crank drive: :func:`motor_set` moved by the angle, :math:`b = \ell` on its row."""
    cs = motor_set(linkage, pivot, tip)
    rate = cs.at_time(0.0).velocity_target()
    return Drive(cs, rate if rate is not None else np.zeros(cs.n_constraints), 1.0, 2 * np.pi)


def push_drive(linkage: Linkage, slider: int) -> Drive:
    r"""The slider drive: a push row (:class:`~linkage_widget.constraints.Push`) at unit speed.

    The travel :math:`s = u\cdot(p_j - P)` is measured from the slider's point :math:`P`
    along its direction :math:`u`; the push row :math:`u\cdot(p_j - P) - s` run from phase
    0 at unit speed has its time equal to the travel, and :math:`b = 1` on it.
    """
    push = _push(linkage, slider, 0.0, 1.0)
    drives = DriveRows.none().with_pushes([push], 0.0)
    cs = ConstraintSet.from_linkage(linkage).with_drives(drives)
    return Drive(cs, _rate(cs), cs.length_scale, None)


def _push(linkage: Linkage, slider: int, phase: float, speed: float) -> Push:
    """The push row of slider ``slider`` (checked index) from ``phase`` at ``speed``."""
    guide = linkage.sliders[_checks.item_index(slider, len(linkage.sliders), "slider", "sliders")]
    return Push(int(guide.joint), tuple(guide.point), tuple(guide.direction), phase, speed)


def _travel(linkage: Linkage, push: Push) -> float:
    r"""Where the push's joint is along its line now: :math:`u\cdot(p_j - P)`."""
    return float(np.asarray(push.direction) @ (linkage.vertices[push.joint] - push.point))


def _rate(cs: ConstraintSet) -> np.ndarray:
    r""":math:`b = -\partial g/\partial t` of a set with timed drive rows."""
    rate = cs.velocity_target()
    return np.zeros(cs.n_constraints) if rate is None else rate


def drive_of(linkage: Linkage, k: Kinematics) -> Drive:
    """The drive that made ``k``: its crank, or its pushed slider."""
    if k.slider >= 0:
        return push_drive(linkage, k.slider)
    if k.tip < 0:
        raise ValueError("a cycle of several drives (timed_kinematics) has no one input")
    return motor_drive(linkage, k.pivot, k.tip)


def timed_drive(linkage: Linkage, motors: Any, pushes: Any) -> Drive:
    r"""Several drives at once, moved by the time :math:`t`: motors and pushes at speeds.

    A motor ``(pivot, tip, speed)`` turns its rod from the angle it has at
    :math:`\omega` rad per unit time (a motor row, :math:`b = \ell\omega`); a push
    ``(slider, speed)`` moves the slider's joint from where it is along the line at
    :math:`v` (a push row, :math:`b = v`).
    """
    p = linkage.vertices
    rows, phases, speeds = [], [], []
    for pivot, tip, speed in motors:
        c, t, _ = _checked(linkage, pivot, tip, [0.0])
        rows.append((c, t, -1, -1))
        phases.append(float(np.arctan2(*(p[t] - p[c])[::-1])))
        speeds.append(_checks.finite(speed, "motor speed"))
    pushed = []
    for slider, speed in pushes:
        push = _push(linkage, slider, 0.0, _checks.finite(speed, "push speed"))
        pushed.append(push._replace(phase=_travel(linkage, push)))
    drives = DriveRows.build(p, np.reshape(rows, (-1, 4)), phases, speeds, 0.0)
    cs = ConstraintSet.from_linkage(linkage).with_drives(drives.with_pushes(pushed, 0.0))
    fastest = max(
        [abs(w) for w in speeds] + [abs(q.speed) / cs.length_scale for q in pushed] + [0.0]
    )
    if fastest == 0.0:
        raise ValueError("timed_kinematics: give at least one motor or push with a speed")
    return Drive(cs, _rate(cs), 1.0 / fastest, None)


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


def free_dof(linkage: Linkage, make: Callable[[Linkage], Drive]) -> int:
    """Degrees of freedom the drive ``make(linkage)`` leaves: ``2n - rank A``, generically.

    Counted at a seeded jitter of the placement (the rows measured there), as the rigidity
    counts: at a dead point (a slider-crank drawn at its dead centre) the rank drops, yet
    the drive fixes the mechanism everywhere else.
    """
    jittered = linkage.copy()
    cs = ConstraintSet.from_linkage(linkage)
    noise = np.random.default_rng(0).normal(size=linkage.vertices.shape)
    jittered.set_positions(linkage.vertices + 0.01 * cs.length_scale * noise)
    a = make(jittered).cs.jacobian(jittered.vertices).toarray()
    s = np.linalg.svd(a, compute_uv=False)
    rank = int(np.sum(s > RANK_RTOL * s[0])) if s.size else 0
    return a.shape[1] - rank


def require_driven(linkage: Linkage, make: Callable[[Linkage], Drive], what: str) -> None:
    """Raise :class:`MechanismError` when the drive leaves the mechanism free to move."""
    free = free_dof(linkage, make)
    if free > 0:
        raise MechanismError(
            f"kinematics: with {what} the mechanism still has {free} free degree"
            f"{'s' if free > 1 else ''} of freedom (one drive must fix the placement): "
            "pin the ground joints, add the missing rods, or drive the other inputs too"
        )


def _here(drive: Drive, linkage: Linkage, s_here: float) -> Sample:
    """The linkage's own placement with its derivatives; refused off the rows or at a dead point."""
    p, ok = correct(drive.at(s_here), linkage.vertices.reshape(-1).copy())
    if not ok:
        raise MechanismError("kinematics: the linkage does not assemble at its own placement")
    here = derivatives(drive.at(s_here), p, drive.rate)
    if not here.regular:
        raise _dead_point()
    return here


def _dead_point() -> MechanismError:
    return MechanismError(
        "kinematics: the linkage is drawn at a dead point of this drive (the Jacobian "
        "loses rank there, and the way on is not unique): draw it a little off it"
    )


def _batched(linkage: Linkage, c: int, t: int, values: np.ndarray, table: np.ndarray):
    """:func:`kinematics` of the designs ``table`` (:mod:`._batch`).

    A crank with dyads is driven (each joint is placed by two rows) and regular where
    no dyad is straight: the closed form checks both; otherwise the continuation's checks.
    """
    d = linkage.vertices[t] - linkage.vertices[c]
    theta = float(np.arctan2(d[1], d[0]))
    steps = dyadic_order(linkage, c, t)
    if steps is None:
        drive = motor_drive(linkage, c, t)
        require_driven(linkage, lambda link: motor_drive(link, c, t), f"a motor on rod {c}-{t}")
        _here(drive, linkage, theta)  # the branch is the placement's: refused at a dead point
        pos, vel, acc, valid = _by_continuation(linkage, drive, theta, values, table)
    elif not modes_at(steps, linkage.vertices, guide_rows(linkage)).all():
        raise _dead_point()
    else:
        pos, vel, acc, valid = crank_batch(linkage, steps, theta, values, table)
    return Kinematics(values, pos, vel, acc, valid, c, t, lengths=table)


def _by_continuation(linkage: Linkage, drive: Drive, theta: float, values, table) -> tuple:
    """Design by design, the continuation of :func:`kinematics` on the design's rod lengths.

    For a linkage that is not a crank with dyads. Each design is traced from the
    linkage's placement at its crank angle ``theta`` (as the closed forms of
    :mod:`._batch` are), not from ``angles[0]``: a first sample off the branch is invalid
    and the later ones on it stay valid. A design that cannot be placed at ``theta`` from
    the linkage's placement is invalid throughout.
    """
    out = []
    for row in table:
        design = Drive(replace(drive.cs, lengths=row), drive.rate, drive.scale, drive.period)
        try:
            samples = trace(design, _here(design, linkage, theta).p, theta, values)
        except MechanismError:
            samples = [None] * len(values)
        out.append(collect(values, samples, linkage.n_vertices))
    return tuple(np.stack(part) for part in zip(*out, strict=True))


def _start(drive: Drive, linkage: Linkage, s_here: float, s_first: float) -> Sample:
    """The placement at the first drive value, followed from the linkage's own."""
    got, _ = follow(drive, _here(drive, linkage, s_here), s_here, s_first)
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


def _designs(linkage: Linkage, lengths: Any) -> np.ndarray:
    """``lengths`` checked: finite positive ``(b, m)``, ``m`` the linkage's rods."""
    table = np.asarray(lengths, dtype=np.float64)
    m = linkage.n_rods
    if table.ndim != 2 or table.shape[1] != m or not table.shape[0]:
        raise ValueError(
            f"kinematics: lengths must be an array (b, {m}) of rod lengths, one row per "
            f"design in the linkage's rod order; got shape {table.shape}"
        )
    bad = ~(np.isfinite(table) & (table > 0.0))
    if bad.any():
        row, col = np.argwhere(bad)[0].tolist()
        raise ValueError(
            f"kinematics: lengths[{row}, {col}] (rod {col}) is {table[row, col]!r}; "
            "every rod length must be finite and positive"
        )
    return table.copy()


def kinematics(
    linkage: Linkage, pivot: int, tip: int, angles: Any, *, lengths: Any = None
) -> Kinematics:
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
    lengths : array_like, shape (b, m), optional
        Designs: rod lengths, one row per design, in the linkage's rod order (the pins and
        the linkage's placement stay). All designs are evaluated at once, vectorised
        (:mod:`~linkage_widget.kinematics._batch`: closed forms where the linkage is a
        crank and dyads; otherwise the continuation, design by design), each on the branch of
        the linkage's placement: every dyad on the side it has there, followed from the
        linkage's crank angle. A design that does not assemble there is invalid throughout.

    Returns
    -------
    Kinematics
        ``positions`` ``(k, n, 2)``, ``velocities`` :math:`dp/d\theta` and
        ``accelerations`` :math:`d^2p/d\theta^2` (per unit crank speed), ``valid`` ``(k,)``:
        where the mechanism assembles on the branch followed from ``angles[0]`` and is
        not at a dead point (velocities and accelerations NaN otherwise). With
        ``lengths`` every array has a leading axis of the ``b`` designs:
        ``(b, k, n, 2)`` and ``valid`` ``(b, k)``.

    Raises
    ------
    MechanismError
        (a ``ValueError``) when the crank leaves free degrees of freedom (the message
        says how many), or the linkage cannot be turned to ``angles[0]``.
    ValueError
        A bad vertex, no rod ``pivot``-``tip``, a 3-D linkage, empty or non-finite angles,
        ``lengths`` not ``(b, m)`` or not finite and positive.

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
    >>> designs = np.array([[1.0, 3.6, 2.83], [1.5, 3.6, 2.83]])  # two cranks
    >>> kinematics(four_bar, 0, 1, [0.0, 1.0, 2.0], lengths=designs).positions.shape
    (2, 3, 4, 2)
    """
    c, t, values = _checked(linkage, pivot, tip, angles)
    if lengths is not None:
        return _batched(linkage, c, t, values, _designs(linkage, lengths))
    drive = motor_drive(linkage, c, t)
    d = linkage.vertices[t] - linkage.vertices[c]
    theta = float(np.arctan2(d[1], d[0]))
    require_driven(linkage, lambda link: motor_drive(link, c, t), f"a motor on rod {c}-{t}")
    first = theta + float(np.remainder(values[0] - theta + np.pi, 2 * np.pi) - np.pi)
    start = _start(drive, linkage, theta, first)
    samples = trace(drive, start.p, first, values)
    pos, vel, acc, valid = collect(values, samples, linkage.n_vertices)
    return Kinematics(values, pos, vel, acc, valid, c, t)


def slider_kinematics(linkage: Linkage, slider: int, travels: Any) -> Kinematics:
    r"""As :func:`kinematics`, driven by pushing slider ``slider`` along its line (an actuator).

    ``travels`` ``(k,)``: the slider joint's positions :math:`s = u\cdot(p_j - P)` along
    its line (from the slider's point :math:`P`, along its unit direction :math:`u`);
    ``velocities`` and ``accelerations`` are per unit push speed, :math:`dp/ds` and
    :math:`d^2p/ds^2`. ``Kinematics.angles`` holds the travels, ``pivot`` the joint.

    Examples
    --------
    >>> from linkage_widget import Linkage
    >>> crank = Linkage([[0, 0], [0, 1], [8**0.5, 0]], rods=[(0, 1), (1, 2)], pinned=[0],
    ...                 sliders=[(2, (0, 0), (1, 0))])   # the crank up, off the dead centres
    >>> k = slider_kinematics(crank, 0, [3.5, 3.0])   # the piston pushes the crank round
    >>> k.positions[:, 1].round(6).tolist()  # cos θ = (s² + r² - l²) / (2 s r)
    [[0.607143, 0.794593], [0.166667, 0.986013]]
    """
    if not isinstance(linkage, Linkage) or linkage.dim != 2:
        raise ValueError("slider_kinematics: a planar Linkage is pushed along a slider")
    s = _checks.item_index(slider, len(linkage.sliders), "slider", "sliders")
    values = np.asarray(travels, dtype=np.float64).reshape(-1)
    if not values.size or not np.isfinite(values).all():
        raise ValueError(
            "slider_kinematics: travels must be a non-empty sequence of finite numbers"
        )
    drive = push_drive(linkage, s)
    j = int(linkage.sliders[s].joint)
    here = _travel(linkage, _push(linkage, s, 0.0, 1.0))
    require_driven(linkage, lambda link: push_drive(link, s), f"a push on slider {s}")
    start = _start(drive, linkage, here, float(values[0]))
    samples = trace(drive, start.p, float(values[0]), values)
    pos, vel, acc, valid = collect(values, samples, linkage.n_vertices)
    return Kinematics(values, pos, vel, acc, valid, j, -1, s)


def timed_kinematics(
    linkage: Linkage, times: Any, *, motors: Any = (), pushes: Any = ()
) -> Kinematics:
    r"""As :func:`kinematics`, driven by several motors and pushes at once, over time.

    Parameters
    ----------
    linkage : Linkage
        Planar; the drives together must fix it (a five-bar takes two).
    times : array_like, shape (k,)
        When to sample, from the linkage's placement at :math:`t = 0`.
    motors : sequence of (pivot, tip, speed), keyword-only
        Rods turned from the angle they have, ``speed`` rad per unit time.
    pushes : sequence of (slider, speed), keyword-only
        Sliders' joints moved along their lines from where they are, ``speed`` per unit time.

    Returns
    -------
    Kinematics
        ``angles`` holds the times; ``velocities`` :math:`dp/dt` and ``accelerations``
        :math:`d^2p/dt^2` (the drives' speeds are constant); ``pivot = tip = -1``.
    """
    if not isinstance(linkage, Linkage) or linkage.dim != 2:
        raise ValueError("timed_kinematics: a planar Linkage is driven")
    values = np.asarray(times, dtype=np.float64).reshape(-1)
    if not values.size or not np.isfinite(values).all():
        raise ValueError("timed_kinematics: times must be a non-empty sequence of finite numbers")
    motors, pushes = list(motors), list(pushes)
    drive = timed_drive(linkage, motors, pushes)
    require_driven(linkage, lambda link: timed_drive(link, motors, pushes), "these drives")
    start = _start(drive, linkage, 0.0, float(values[0]))
    samples = trace(drive, start.p, float(values[0]), values)
    pos, vel, acc, valid = collect(values, samples, linkage.n_vertices)
    return Kinematics(values, pos, vel, acc, valid, -1, -1)
