r"""The steps of a driven simulator: motors in both modes, friction's stick and release.

Dynamic (:func:`dynamic_drive_step`)
    1. Release: each stuck friction element's multiplier (the force needed to hold
       it, :func:`~linkage_widget.motion._reactions.stick_multipliers`) is compared
       with its static limit; beyond it the element slides.
    2. A RATTLE step (:func:`~linkage_widget.motion._rattle.rattle_step`) with the
       motor rows :math:`g(p, t_{n+1}) = 0`, :math:`A v = -\partial g/\partial t`, the
       stuck elements' rows and the explicit forces of the actuators.
    3. A motor that did not reach its angle (a dead point) blocks the step: the state
       stays as it was, time included, and the reason is returned.
    4. Stick: the sliding elements whose speed reversed stick (see
       :mod:`~linkage_widget.motion._friction` for when that is accepted).

Kinematic (:func:`kinematic_motor_step`)
    Each step turns every motor by ``speed * h``: the least-kinetic-energy
    displacement :math:`\delta = \arg\min \tfrac12\delta^T M\delta` s.t.
    :math:`A\delta = h\,b` (:math:`b = \ell\omega` on motor rows) is projected onto
    :math:`g(q, t + h) = 0`. A step that does not converge, or whose correction
    exceeds ``CORRECTOR_DEVIATION`` of the move (a jump to another branch), is split
    in halves; when even the smallest part fails the linkage is at a dead point and
    the step is ``"blocked"``: positions and time stay.

Every function returns the new state (:func:`driven_step` a :class:`~._setup.State`);
only the facade assigns it.
"""

from __future__ import annotations

import dataclasses
from typing import NamedTuple

import numpy as np

from ._element_set import ElementSet
from ._friction import (
    StickState,
    joint_directions,
    oriented_signs,
    path_axes,
    path_speeds,
    sliding_direction,
)
from ._projection import held_residual, project
from ._rattle import Forces, rattle_step
from ._reactions import (
    ConstraintForces,
    FrictionInput,
    multipliers,
    reactions,
    stick_multipliers,
)
from ._setup import Setup, State
from ._slide_friction import (
    slide_speeds,
    stick_slides,
    stuck_rows,
    with_slide_friction,
)
from .tolerances import CORRECTOR_DEVIATION, DATA_TOL, MAX_MOTOR_HALVINGS

__all__ = [
    "DriveOutcome",
    "blocked_text",
    "driven_step",
    "dynamic_drive_step",
    "kinematic_motor_step",
    "reactions_at",
]


class DriveOutcome(NamedTuple):
    """New positions and velocities (``(2n,)``), status, blocked reason, stick state."""

    p: np.ndarray
    v: np.ndarray
    status: str
    reason: str | None
    state: StickState


class Context(NamedTuple):
    """What a driven step reads: the base setup, elements, forces, pinned mask, gravity."""

    base: Setup
    elements: ElementSet
    forces: Forces
    pinned: np.ndarray
    gravity: float

    def setup(self, p: np.ndarray, state: StickState | None) -> Setup:
        """The setup with the motor rows and the rows of ``state``'s stuck elements."""
        return self.elements.setup(self.base, p, state)

    def forces_for(self, setup: Setup, state: StickState) -> Forces:
        """The applied forces with the actuators' explicit forces for ``state``."""
        extra = self.elements.extra(setup.metric, self.pinned, self.gravity, state, self.forces.dim)
        forces = dataclasses.replace(self.forces, extra=extra)
        if self.elements.slides:  # pressed by the guides' forces: from a solve at the state
            return with_slide_friction(setup, forces, self.elements.slides, state)
        return forces


def driven_step(ctx: Context, s: State, mode: str, h: float) -> State:
    """One driven step of ``h`` (motors, actuators, friction) from ``s``: the new state.

    Kinematic: the motors turn (friction is a dynamic-mode force: nothing sticks);
    blocked, the positions and the time stay. Dynamic: :func:`dynamic_drive_step`.
    """
    t = s.time
    if mode == "kinematic":
        setup = ctx.setup(s.p, None)
        q = kinematic_motor_step(setup, s.p, t, h)
        if q is None:
            reason = blocked_text(ctx.elements.motors, t, ctx.elements.pushes)
            return s._replace(v=np.zeros(s.p.size), time=t + 0.0, status="blocked", reason=reason)
        return s._replace(p=q, v=q - s.p, time=t + h, status="moved", reason=None)
    out = dynamic_drive_step(ctx, s.p, s.v, t, h, s.stick)
    time = t + (0.0 if out.reason is not None else h)
    return State(out.p, out.v, time, out.status, out.reason, out.state)


def reactions_at(
    ctx: Context, s: State, mode: str, dim: int
) -> tuple[ConstraintForces, np.ndarray]:
    """Constraint forces and accelerations at ``s`` (kinematic mode: quasi-static, at rest)."""
    act = ctx.elements
    if mode == "dynamic":
        v, state = s.v, s.stick
    else:  # quasi-static: at rest, and friction (a dynamic-mode force) holds nothing
        v, state = np.zeros_like(s.v), StickState.free(len(act.frictions), ctx.pinned.size, dim)
    setup = act.setup(ctx.base, s.p, state)
    friction = None
    if mode == "dynamic":  # the table (planar) has no limits in space: its table is 0
        limits = np.zeros(ctx.pinned.size)
        if dim == 2:
            limits = act.normal_forces(ctx.base.metric, ctx.gravity) * act.table * ~ctx.pinned
        friction = FrictionInput(act.frictions, state, limits)
    out, acc = reactions(setup, ctx.forces_for(setup, state), s.p, v, s.time, friction)
    # the push rows after the linear motors hold stuck slides: friction, not a motor's force
    return dataclasses.replace(out, pushes=out.pushes[: len(act.pushes)]), acc


def blocked_text(motors: tuple, t: float, pushes: tuple = ()) -> str:
    """Why kinematic ``motors`` (and linear motors ``pushes``) cannot turn past time ``t``."""
    names = ", ".join(f"{k} (rod {m.pivot}->{m.tip})" for k, m in enumerate(motors))
    if pushes:  # the linear motors: the end of a stroke is their dead point
        linear = ", ".join(f"{k} (slider {q.slider})" for k, q in enumerate(pushes))
        names = f"{names + ' and ' if names else ''}linear motor {linear}"
        return (
            f"motor {names} cannot move past time {t:.6g}: the linkage is at a dead point "
            "(a rocker at its limit, the end of a stroke, or locked)"
        )
    return (
        f"motor {names} cannot turn past time {t:.6g}: the linkage is at a dead point "
        "(a rocker at its limit, or locked), where no motion turns the rod further"
    )


def dynamic_drive_step(
    ctx: Context, p: np.ndarray, v: np.ndarray, t: float, h: float, state: StickState
) -> DriveOutcome:
    """One dynamic step of ``h`` seconds from ``(p, v)`` at time ``t`` (see the module)."""
    state = _directions(ctx, p, v, _release(ctx, p, v, t, state), state)
    setup = ctx.setup(p, state)
    p1, v1, status = rattle_step(setup, ctx.forces_for(setup, state), p, v, h, t)
    reason = _motor_failure(ctx.elements, setup.at_time(t + h), p1, t + h)
    if reason is not None:
        return DriveOutcome(p, np.zeros_like(v), "blocked", reason, state)
    p1, v1 = _snap_held(p1, v1, state)
    state, p1, v1 = _stick(ctx, p, v, p1, v1, t + h, h, state)
    return DriveOutcome(p1, v1, status, None, state)


def _snap_held(p1: np.ndarray, v1: np.ndarray, state: StickState) -> tuple[np.ndarray, np.ndarray]:
    """Joints held on the table exactly at their anchors, at rest (new arrays).

    The hold rows already put them there to round-off; with redundant rows (a held
    joint whose rods also fix it) the regularised solve leaves ~1e-17 that would
    accumulate into a creep. A held joint does not move at all.
    """
    if not state.joints.any():
        return p1, v1
    p1, v1 = p1.copy(), v1.copy()
    p1.reshape(-1, 2)[state.joints] = state.anchors[state.joints]
    v1.reshape(-1, 2)[state.joints] = 0.0
    return p1, v1


def _motor_failure(act: ElementSet, setup: Setup, p1: np.ndarray, t1: float) -> str | None:
    """Why the motors missed their angles (or pushes their places) at ``p1`` (``None``: met)."""
    cs, k_m = setup.constraints, len(act.motors)
    dr, driven = cs.drives, len(act.motors) + len(act.pushes)  # not a stuck slide's row
    if not driven:
        return None
    g = dr.residuals(p1.reshape(-1, cs.dim))[:driven]
    g = g / dr.row_scales(cs.length_scale)[:driven]
    if np.all(np.abs(g) <= DATA_TOL):
        return None
    k = int(np.argmax(np.abs(g)))
    if k >= k_m:
        q = act.pushes[k - k_m]
        return (
            f"linear motor {k - k_m} (slider {q.slider}, joint {q.joint}) cannot reach its "
            f"place {float(dr.push_targets[k - k_m]):.6g} at time {t1:.6g}: the linkage is at "
            "a dead point (the end of its stroke, or locked), where no motion pushes it further"
        )
    m = act.motors[k]
    return (
        f"motor {k} (rod {m.pivot}->{m.tip}) cannot reach its angle "
        f"{float(dr.targets[k]):.6g} rad at time {t1:.6g}: the linkage is at a dead "
        "point (a rocker at its limit, or locked), where no motion turns that rod further"
    )


def _directions(
    ctx: Context, p: np.ndarray, v: np.ndarray, state: StickState, stuck: StickState
) -> StickState:
    """``state`` with the sliding directions at the start of a step (kept through the step).

    An element that was ``stuck`` keeps its direction (a released one: the way the hold
    pulled): its speed is zero up to round-off, whose sign says nothing. Every sign
    refers to the pathway's direction at ``p`` (``path_axis``).
    """
    frictions, dim = ctx.elements.frictions, ctx.forces.dim
    kept = oriented_signs(frictions, p, state, dim)  # the remembered signs, along e(p)
    sign = sliding_direction(path_speeds(frictions, p, v, dim), kept)
    sign = np.where(stuck.paths, kept, sign)
    state = state.with_paths(state.paths, sign, path_axes(frictions, p, dim))
    if ctx.elements.slides:  # a slide stuck at the start keeps its (release) direction
        held = stuck.slides if len(stuck.slides) == len(state.slides) else state.slides
        w = slide_speeds(ctx.elements.slides, v)
        sign = np.where(held, state.slide_sign, sliding_direction(w, state.slide_sign))
        state = state.with_slides(state.slides, sign, state.slide_places)
    if not ctx.elements.table:  # no joint slides on a table (always so in space)
        return state
    direction = np.where(stuck.joints[:, None], state.joint_dir, joint_directions(v, state))
    return state.with_joints(state.joints, direction)


def _release(ctx: Context, p: np.ndarray, v: np.ndarray, t: float, state: StickState) -> StickState:
    """``state`` with the stuck elements released whose holding force exceeds the limit."""
    if state.slides.any():
        state = _release_slides(ctx, p, v, t, state)
    if not (state.paths.any() or state.joints.any()):
        return state
    setup = ctx.setup(p, state)
    links, holds = stick_multipliers(setup, ctx.forces_for(setup, state), p, v, t)
    act = ctx.elements
    stuck = np.flatnonzero(state.paths)
    limit = np.array([act.frictions[k].limit for k in stuck])
    over = np.abs(links) > limit
    paths, sign = state.paths.copy(), state.path_sign.copy()
    paths[stuck[over]] = False
    sign[stuck[over]] = np.sign(links[over])  # it slides the way the hold pulled
    held = np.flatnonzero(state.joints)
    normal = act.normal_forces(setup.metric, ctx.gravity)[held] * act.table
    size = np.hypot(holds[:, 0], holds[:, 1])
    free = size > normal
    joints, direction = state.joints.copy(), state.joint_dir.copy()
    joints[held[free]] = False
    direction[held[free]] = holds[free] / size[free, None]
    if not (over.any() or free.any()):
        return state
    return state.with_paths(paths, sign).with_joints(joints, direction)


def _release_slides(
    ctx: Context, p: np.ndarray, v: np.ndarray, t: float, state: StickState
) -> StickState:
    r"""``state`` with the stuck slides released whose hold exceeds :math:`\mu_s |N|`.

    A released slide slides the way its hold pulled (the sign of its push row's
    multiplier: the other forces push the joint that way along :math:`u`).
    """
    slides = ctx.elements.slides
    setup = ctx.setup(p, state)
    lam = multipliers(setup, ctx.forces_for(setup, state), p, v, t)
    sliders, pushes = stuck_rows(setup.constraints, slides, state.slides)
    held = np.flatnonzero(state.slides)
    limit = np.array([slides[k].mu_s for k in held]) * np.abs(lam[sliders[held]])
    over = np.abs(lam[pushes]) > limit
    if not over.any():
        return state
    stuck, sign = state.slides.copy(), state.slide_sign.copy()
    stuck[held[over]] = False
    sign[held[over]] = np.sign(lam[pushes][over])
    return state.with_slides(stuck, sign, state.slide_places)


def _slide_stops(
    ctx: Context, state: StickState, v: np.ndarray, v1: np.ndarray, normal: np.ndarray, h: float
) -> tuple[np.ndarray, float]:
    """The sliding slides whose speed reversed in the step, and the work friction could do."""
    slides = ctx.elements.slides
    if not slides:
        return np.zeros(0, bool), 0.0
    w0, w1 = slide_speeds(slides, v), slide_speeds(slides, v1)
    s = state.slide_sign
    limits = np.array([sl.mu_s + sl.mu_k for sl in slides]) * normal
    stops = ~state.slides & (s != 0) & (w1 * s <= 0) & (limits > 0)
    return stops, h * float(np.sum((limits * (np.abs(w0) + np.abs(w1)))[stops]))


def _stick(
    ctx: Context,
    p: np.ndarray,
    v: np.ndarray,
    p1: np.ndarray,
    v1: np.ndarray,
    t1: float,
    h: float,
    state: StickState,
) -> tuple[StickState, np.ndarray, np.ndarray]:
    """Stick the sliding elements whose speed reversed in the step, if the stop is plausible.

    Returns the stick state, the positions and the velocities (those of the step
    when nothing sticks; else at the stop, :func:`_at_stop`).
    """
    act = ctx.elements
    frictions = act.frictions
    dim = ctx.forces.dim
    u0, u1 = path_speeds(frictions, p, v, dim), path_speeds(frictions, p1, v1, dim)
    s = oriented_signs(frictions, p1, state, dim)  # through zero length u flips, not the motion
    limits = np.array([(f.limit + f.mu_k * f.normal_force) * (not f.rigid) for f in frictions])
    paths = ~state.paths & (s != 0) & (u1 * s <= 0) & (limits > 0)
    joints = np.zeros_like(state.joints)
    work = h * float(np.sum(limits[paths] * (np.abs(u0[paths]) + np.abs(u1[paths]))))
    before, after = u0 * state.path_sign, u1 * s  # speeds along the slide: > 0, then <= 0
    if act.table > 0.0:
        d0 = state.joint_dir
        w0, w1 = np.sum(v.reshape(-1, 2) * d0, axis=1), np.sum(v1.reshape(-1, 2) * d0, axis=1)
        joints = ~ctx.pinned & ~state.joints & np.any(d0 != 0, axis=1) & (w1 <= 0)
        normal = act.normal_forces(ctx.base.metric, ctx.gravity) * act.table
        speeds = np.hypot(*v.reshape(-1, 2).T) + np.hypot(*v1.reshape(-1, 2).T)
        work += h * float(np.sum((normal * speeds)[joints]))
        before, after = np.r_[before[paths], w0[joints]], np.r_[after[paths], w1[joints]]
    else:
        before, after = before[paths], after[paths]
    slides = _slide_normals(ctx, state, p1, v1, t1)
    stops, slide_work = _slide_stops(ctx, state, v, v1, slides, h)
    work += slide_work
    if not (paths.any() or joints.any() or stops.any()):
        return state, p1, v1
    new = state.stuck_at(frictions, p1, paths, joints)
    if stops.any():
        new = stick_slides(act.slides, new, p1, stops)
    setup = ctx.setup(p1, new).at_time(t1)
    metric = setup.metric
    v_stuck = setup.mass_factor(p1).minimize(
        metric.matrix @ v1, setup.constraints.velocity_target()
    )
    dv = v1 - v_stuck
    if 0.5 * float(dv @ (metric.matrix @ dv)) <= work and _motors_free(setup, p1, v_stuck, act):
        if stops.any():  # stuck where the step ends (no half-step shift back for a slide)
            return new, p1, v_stuck
        late = _overshoot(before, after) * h  # how long before the step's end it stopped
        return _at_stop(ctx, state, (paths, joints), p1, v1, t1, 0.5 * late * dv, (new, v_stuck))
    return state, p1, v1


def _slide_normals(
    ctx: Context, state: StickState, p1: np.ndarray, v1: np.ndarray, t1: float
) -> np.ndarray:
    """:math:`|N|` of each slide's guide at the end of a step, ``(k,)`` (no slides: empty)."""
    if not ctx.elements.slides:
        return np.zeros(0)
    setup = ctx.setup(p1, state)
    lam = multipliers(setup, ctx.forces_for(setup, state), p1, v1, t1)
    sliders, _ = stuck_rows(setup.constraints, ctx.elements.slides, state.slides)
    return np.abs(lam[sliders])


def _overshoot(before: np.ndarray, after: np.ndarray) -> float:
    r"""Fraction :math:`1 - \theta` of the step left after the first stop, in [0, 1].

    The speed along each slide falls linearly within the step (a constant friction
    force, to first order): from ``before`` :math:`> 0` it reaches 0 at
    :math:`\theta = b/(b - a)` of the step, ``after`` :math:`a \le 0` at its end.
    """
    with np.errstate(invalid="ignore", divide="ignore"):
        theta = np.where(before > 0.0, before / (before - after), 1.0)
    return float(np.clip(1.0 - np.min(theta), 0.0, 1.0)) if theta.size else 0.0


def _at_stop(
    ctx: Context,
    state: StickState,
    masks: tuple[np.ndarray, np.ndarray],
    p1: np.ndarray,
    v1: np.ndarray,
    t1: float,
    shift: np.ndarray,
    stuck: tuple[StickState, np.ndarray],
) -> tuple[StickState, np.ndarray, np.ndarray]:
    r"""The stick state, positions and velocities where the element stopped.

    An element that stops at :math:`\theta h` into the step moves on for the rest of it
    under the same deceleration: at the step's end it has overshot its stop by
    :math:`\tfrac12 (1 - \theta) h\,\Delta v` (``shift``), :math:`\Delta v` the velocity
    the stick removes. Sticking at :math:`p_{n+1}` would leave that :math:`O(h^2)`
    overshoot, with a constant that jumps with where in the step the stop falls (so no
    clean order); sticking at :math:`p_{n+1} - ` ``shift`` removes it to third order.
    :math:`\Delta v` is tangent to the rods and motors at :math:`p_{n+1}`, so the point
    is off them only to second order in the shift; it is taken when its constraint
    error is no larger than the step's (else ``stuck``, the stop at :math:`p_{n+1}`).
    """
    q = p1 - shift
    base = ctx.setup(p1, state).at_time(t1)
    floor = max(base.error(base.residuals(p1)), base.roundoff(q))
    if not np.any(shift) or base.error(base.residuals(q)) > floor:
        return stuck[0], p1, stuck[1]
    new = state.stuck_at(ctx.elements.frictions, q, *masks)
    setup = ctx.setup(q, new).at_time(t1)
    v_stuck = setup.mass_factor(q).minimize(
        setup.metric.matrix @ v1, setup.constraints.velocity_target()
    )
    return new, q, v_stuck


def _motors_free(setup: Setup, p1: np.ndarray, v: np.ndarray, act: ElementSet) -> bool:
    """Whether ``v`` still turns every motor at its speed (a stick must not stop a motor).

    The miss is measured against the motors' speeds and, for motors at rest (speed 0,
    a lock: any ``v`` they allow keeps them), against the round-off of ``v``.
    """
    b = setup.constraints.velocity_target()
    if b is None or not (act.motors or act.pushes):  # a stuck slide's row is no motor
        return True
    cs = setup.constraints
    first = cs.n_constraints - cs.drives.n_rows
    rows = slice(first, first + len(act.motors) + len(act.pushes))
    miss = (cs.jacobian(p1) @ v - b)[rows]
    scale = max(float(np.max(np.abs(b[rows]))), float(np.max(np.abs(v))))
    return bool(np.max(np.abs(miss)) <= 1e-6 * scale)


def kinematic_motor_step(
    setup: Setup, p: np.ndarray, t: float, h: float, depth: int = 0
) -> np.ndarray | None:
    """Positions after turning the motors from time ``t`` to ``t + h``; ``None`` if blocked."""
    q = _motor_move(setup, p, t, h)
    if q is not None:
        return q
    if depth >= MAX_MOTOR_HALVINGS:
        return None
    mid = kinematic_motor_step(setup, p, t, 0.5 * h, depth + 1)
    if mid is None:
        return None
    return kinematic_motor_step(setup, mid, t + 0.5 * h, 0.5 * h, depth + 1)


def _motor_move(setup: Setup, p: np.ndarray, t: float, h: float) -> np.ndarray | None:
    """One predictor-corrector move of the motors over ``[t, t + h]``; ``None`` if it fails."""
    now = setup.at_time(t)
    fac = now.mass_factor(p)
    delta = fac.minimize(None, h * now.constraints.velocity_target())
    floor = now.roundoff(p)
    held = held_residual(now, p, fac, floor)
    later = setup.at_time(t + h)
    q, ok, _ = project(later, p + delta, fac, held, floor, allow_refactor=True)
    move = float(np.max(np.abs(delta)))
    if not ok or float(np.max(np.abs(q - p - delta))) > CORRECTOR_DEVIATION * move:
        return None
    return q
