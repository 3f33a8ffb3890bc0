r"""How stiff the constrained motion is, and how finely a dynamic step is cut for it.

An explicit spring is stable under RATTLE while :math:`h\omega < 2` for the highest
frequency :math:`\omega` of the *linearised constrained* motion, and SHAKE's
iteration converges, and the energy error stays small, only well below that.
That frequency is not the spring's own :math:`\sqrt{k(1/m_i + 1/m_j)}`: the spring
acts through the chain, and the rods it pulls taut add a geometric stiffness
(tension over length, sideways), which near a straight chain exceeds the spring's.
:math:`\omega_{max}^2` is the largest eigenvalue of the pencil
:math:`(P^T K P, P^T M P)` on the tangent space of the constraints, with

.. math:: K = -\frac{\partial F_c}{\partial p} + \sum_r \lambda_r \nabla^2 g_r(p),

:math:`\lambda` the constraint multipliers at the state (with the centripetal part
of a moving linkage). :func:`stiffest_frequency` estimates it by a few Lanczos steps
on the operator :math:`x \mapsto P M^{-1} K x` in the :math:`M` inner product: each
step is one solve with the step's own mass factorisation (remembered, so RATTLE
reuses it) and a central difference of the forces and :math:`A^T\lambda`. The
largest Ritz value plus its residual is taken; the sub-step target
``STIFF_STEP`` keeps a margin of 8 below the stability limit for what Lanczos
may have missed.

:func:`plan_substeps` turns it into a number of sub-steps, at most
``MAX_SPRING_SUBSTEPS``; beyond that it raises :class:`StepRefused` with the
reason (the simulator keeps its state and reports ``"refused"``).

Both ends of a step can be soft while its middle is stiff (a chain swinging through
its straight placement). :func:`energy_checked` catches that after the fact where the
energy is a conserved quantity: a conservative step that changed it by more than
``ENERGY_STEP`` is taken again with twice the sub-steps, up to the same cap.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Protocol

import numpy as np

from ..constraints import ConstraintSet
from ._metric import Metric
from ._setup import Setup
from .tolerances import (
    ENERGY_ROUNDOFF,
    ENERGY_STEP,
    FROZEN_MOVE,
    LANCZOS_STEPS,
    MAX_SPRING_SUBSTEPS,
    REPLAN_SLACK,
    STIFF_STEP,
)

__all__ = [
    "StepRefused",
    "abs_max",
    "energy_checked",
    "honest_status",
    "plan_substeps",
    "remember_refusal",
    "replan_substeps",
    "stiffest_frequency",
]


class ForceInputs(Protocol):
    """What this module reads of :class:`~linkage_widget.motion._rattle.Forces`."""

    gravity: float
    damping: float
    attractor: tuple[int, np.ndarray] | None
    attractor_stiffness: float
    attractor_damping: float
    springs: Any
    extra: Callable[[np.ndarray, np.ndarray, float], np.ndarray] | None
    dim: int

    def conservative(self, metric: Metric, p: np.ndarray) -> np.ndarray: ...
    def dissipative(self, metric: Metric, p: np.ndarray, v: np.ndarray) -> np.ndarray: ...
    def substeps(
        self, metric: Metric, step_size: float, p: np.ndarray, pinned: np.ndarray
    ) -> int: ...


class StepRefused(ArithmeticError):
    """A step the simulator does not take (its state stays); the message says why."""


def has_stiff_force(forces: ForceInputs) -> bool:
    """Whether a spring or the attractor's spring acts (the forces that set a step count)."""
    attractor = forces.attractor is not None and forces.attractor_stiffness > 0.0
    return attractor or forces.springs is not None


def plan_substeps(
    setup: Setup, forces: ForceInputs, p: np.ndarray, v: np.ndarray, step_size: float, t: float
) -> int:
    r"""Sub-steps of a dynamic step: the particle bound, or more where the linkage is stiffer.

    :meth:`~linkage_widget.motion._rattle.Forces.substeps` (the springs with their
    vertices' own masses) as before; with a spring or the attractor, also
    :math:`\lceil h\,\omega_{max} / \text{STIFF\_STEP}\rceil`. Raises
    :class:`StepRefused` when that exceeds ``MAX_SPRING_SUBSTEPS``.
    """
    count = forces.substeps(setup.metric, step_size, p, setup.pinned)
    if not has_stiff_force(forces):
        return count
    slot, key = setup.memo.refusal, _signature(forces)
    if slot is not None and key is not None and _same_state(slot, p, v, key):
        raise StepRefused(slot[3])  # the same step again: the same answer, without the work
    return max(count, _count(step_size, _frequency(setup, forces, p, v, t)))


def remember_refusal(
    setup: Setup, forces: ForceInputs, p: np.ndarray, v: np.ndarray, refusal: StepRefused
) -> None:
    """Remember that the step from ``(p, v)`` was refused (its end was too stiff)."""
    if (key := _signature(forces)) is not None:
        setup.memo.refusal = (p, v, key, str(refusal))


def _same_state(slot: tuple[Any, ...], p: np.ndarray, v: np.ndarray, key: object) -> bool:
    """Whether ``slot`` was remembered at ``(p, v)`` with forces ``key``."""
    if slot[0] is not p or slot[2] != key:
        return False
    # The facade zeroes the pinned joints' round-off velocities after a step (a new array).
    return slot[1] is v or bool(np.allclose(slot[1], v, rtol=1e-9, atol=1e-12 * abs_max(v)))


def replan_substeps(
    setup: Setup,
    forces: ForceInputs,
    p1: np.ndarray,
    v1: np.ndarray,
    step_size: float,
    count: int,
    t1: float,
) -> int | None:
    """A larger count when the step's end ``(p1, v1)`` is stiffer than ``count`` allows.

    The frequency changes within a step (a chain pulled straight: the tension rises
    steeply), and a count from the start lags behind it: the energy fell by 1 % in
    each such step of the chain of issue 22. ``None`` when ``count`` is enough (within
    ``REPLAN_SLACK``); the end's frequency is remembered for the next step's plan.
    """
    if not has_stiff_force(forces):
        return None
    need = _count(step_size, _frequency(setup, forces, p1, v1, t1, remember=True))
    return need if need > REPLAN_SLACK * count else None


def energy_checked(
    setup: Setup,
    forces: ForceInputs,
    p: np.ndarray,
    v: np.ndarray,
    end: tuple[np.ndarray, np.ndarray],
    count: int,
    take: Callable[[int], tuple[np.ndarray, np.ndarray]],
) -> tuple[np.ndarray, np.ndarray]:
    r"""The step's end ``end``, taken again finer while a conservative step changed the energy.

    The count from :math:`\omega_{max}` at the step's two ends misses a frequency
    that peaks *inside* the step: a chain swinging through its straight placement
    (from rest, or a spring pushing it through) is stiffest there, its tension over
    the vanishing angle rising steeply. In the property test's counterexample
    :math:`h\omega_{max}` was about 1 at both ends and 3.8 in the middle: 4 sub-steps
    (0.94 each at the peak, beyond the accuracy of RATTLE though below its stability
    limit) gained 5.6 % of the energy in that one step; 8 gained 0.08 %, 16 0.02 %.

    Without damping, actuators or motors (:func:`_conservative`), the exact motion
    keeps :math:`E = \tfrac12 \dot p^T M \dot p + U(p)`, and RATTLE keeps it up to an
    oscillating :math:`O\big((h\omega)^2\big)` of the stiff modes' energy that does
    not drift (it is symplectic). So the energy change of the step is a measure of
    its own error: while it exceeds ``ENERGY_STEP`` times the moving energy
    :math:`\max_{ends}(T + U_{elastic})` (gravity's part has an arbitrary zero: its
    work shows in :math:`T`), the step is taken again from ``(p, v)`` with twice the
    sub-steps, ``take(count)``; beyond ``MAX_SPRING_SUBSTEPS`` it raises
    :class:`StepRefused` (remembered for the state). A step that could not move
    (``end[0] is p``) and a non-conservative one return ``end`` as it is.

    The check bounds each step's jump, not a sum: the errors of resolved steps
    oscillate and do not add up, while an unresolved peak leaves a jump of the
    modified energy that stays. Over 20 steps the drift was at most 1.4 % (288
    nearly straight chains, k 1e4 to 1e6, h 3e-3 to 1/30 s; 8 of them drifted 5.5
    to 19.7 % before), within the 5 % of ``tests/motion/test_stiff_steps.py``. It
    costs two energy evaluations per step; a step is taken again only where the
    count from the ends was too low (none of 200 steps of a Peaucellier cell with a
    spring; 1 % more sub-steps for the chain of issue 22 at 1/240 s).
    """
    if end[0] is p or not has_stiff_force(forces) or not _conservative(setup, forces):
        return end
    metric = setup.metric
    start = _energies(metric, forces, p, v)
    while True:
        error, allowed = _energy_error(start, _energies(metric, forces, *end))
        if error <= allowed:
            return end
        if count >= MAX_SPRING_SUBSTEPS:
            refusal = StepRefused(_drift(error, start, count))
            remember_refusal(setup, forces, p, v, refusal)
            raise refusal
        count = min(MAX_SPRING_SUBSTEPS, 2 * count)
        end = take(count)


def _conservative(setup: Setup, forces: ForceInputs) -> bool:
    """Whether the step keeps the energy exactly in the limit of short steps."""
    sp = forces.springs
    return (
        forces.extra is None
        and forces.damping == 0.0
        and (forces.attractor is None or forces.attractor_damping == 0.0)
        and (sp is None or not np.any(sp.damping))
        and setup.constraints.velocity_target() is None  # a motor does work
    )


def _energies(
    metric: Metric, forces: ForceInputs, p: np.ndarray, v: np.ndarray
) -> tuple[float, float]:
    """``(E, moving)``: the total energy, and its kinetic and elastic part at ``(p, v)``."""
    kinetic = 0.5 * float(v @ (metric.matrix @ v))
    potential = forces.potential_energy(metric, p)
    gravity = forces.gravity * float(metric.weight @ p)
    return kinetic + potential, kinetic + abs(potential - gravity)


def _energy_error(start: tuple[float, float], end: tuple[float, float]) -> tuple[float, float]:
    """The energy change of a step, and the change allowed (with the round-off of the sums)."""
    error = abs(end[0] - start[0])
    allowed = ENERGY_STEP * max(start[1], end[1])
    return error, allowed + ENERGY_ROUNDOFF * (abs(start[0]) + abs(end[0]) + start[1] + end[1])


def _drift(error: float, start: tuple[float, float], count: int) -> str:
    share = error / start[1] if start[1] > 0.0 else math.inf
    return (
        f"the time step is too long for the stiffest motion of the linkage: with "
        f"{count} sub-steps (at most {MAX_SPRING_SUBSTEPS} are taken) one step still "
        f"changes the energy by {share:.2%}, more than {ENERGY_STEP:.2%}; lower the "
        "stiffness, or the time step"
    )


def _count(step_size: float, omega: float) -> int:
    need = step_size * omega / STIFF_STEP
    if not need <= MAX_SPRING_SUBSTEPS:  # (written so that a NaN refuses too)
        raise StepRefused(_refusal(step_size, omega, need))
    return max(1, math.ceil(need))


def _frequency(
    setup: Setup,
    forces: ForceInputs,
    p: np.ndarray,
    v: np.ndarray,
    t: float,
    remember: bool = False,
) -> float:
    """:func:`stiffest_frequency`, remembered from the last step's end when it is that state."""
    key, slot = _signature(forces), setup.memo.frequency
    if slot is not None and key is not None and _same_state(slot, p, v, key):
        return slot[3]
    omega = stiffest_frequency(setup, forces, p, v, t)
    if remember and key is not None:
        setup.memo.frequency = (p, v, key, omega)
    return omega


def _signature(forces: ForceInputs) -> tuple[object, ...] | None:
    """What the frequency depends on besides the state (``None``: not comparable)."""
    if forces.extra is not None:
        return None
    sp, att = forces.springs, forces.attractor
    springs = None
    if sp is not None:
        beta = b"" if sp.nonlinear is None else sp.nonlinear.tobytes()
        arrays = (sp.i, sp.j, sp.stiffness, sp.rest_length, sp.damping)
        springs = b"".join(a.tobytes() for a in arrays) + beta
    target = None if att is None else (att[0], att[1].tobytes())
    k, c = forces.attractor_stiffness, forces.attractor_damping
    return (forces.gravity, forces.damping, target, k, c, springs, forces.dim)


def _refusal(step_size: float, omega: float, need: float) -> str:
    if not math.isfinite(omega):
        return "the stiffness of the linkage is not finite here (an overflow in the forces)"
    longest = MAX_SPRING_SUBSTEPS * STIFF_STEP / omega
    return (
        f"the time step {step_size:.3g} s is too long for the stiffest motion of the linkage "
        f"(period {2.0 * math.pi / omega:.3g} s, the springs or the attractor acting through "
        f"the rods): it needs {math.ceil(need):.3g} sub-steps, at most "
        f"{MAX_SPRING_SUBSTEPS} are taken; lower the stiffness, or the time step to at most "
        f"{longest:.3g} s"
    )


def stiffest_frequency(
    setup: Setup, forces: ForceInputs, p: np.ndarray, v: np.ndarray, t: float = 0.0
) -> float:
    r"""Estimate of :math:`\omega_{max}` (rad/s) of the linearised constrained motion at ``(p, v)``.

    0.0 when the linkage cannot move or nothing is stiff (a negative curvature is
    an instability of the mechanics, not of the step).
    """
    setup = setup.at_time(t)
    cs, metric = setup.constraints, setup.metric
    fac = setup.mass_factor(p)
    force = forces.conservative(metric, p) + forces.dissipative(metric, p, v)
    if forces.extra is not None:
        force = force + forces.extra(p, v, t)
    b = -_curvature(cs, p, v) if np.any(v) else None
    _, lam = fac.solve(force, b)
    weights = lam[cs._rows]  # A^T lam as a bincount over the Jacobian's fixed COO pattern

    def stiffness(x: np.ndarray) -> np.ndarray:
        step = 1e-6 * cs.length_scale / float(np.max(np.abs(x)))
        up, down = p + step * x, p - step * x
        force = forces.conservative(metric, up) - forces.conservative(metric, down)
        jac = cs.jacobian_values(up) - cs.jacobian_values(down)
        geometric = np.bincount(cs._cols, weights=jac * weights, minlength=len(p))
        return (geometric - force) / (2.0 * step)

    # Any start with a part along every mode will do; a fixed one keeps steps reproducible.
    start = fac.minimize(metric.matrix @ np.sin(1.0 + 2.718281828 * np.arange(len(p))))
    top = _lanczos_top(lambda x: fac.minimize(stiffness(x)), metric.matrix, start)
    return math.sqrt(top) if top > 0.0 else (0.0 if top <= 0.0 else math.inf)


def _curvature(cs: ConstraintSet, p: np.ndarray, v: np.ndarray) -> np.ndarray:
    """:math:`g''(p)[v, v]` as :meth:`ConstraintSet.second_derivative`, without building CSR."""
    step = 1e-5 * cs.length_scale / abs_max(v)
    jac = cs.jacobian_values(p + step * v) - cs.jacobian_values(p - step * v)
    out = np.bincount(cs._rows, weights=jac * v[cs._cols], minlength=cs.n_constraints)
    return out / (2.0 * step)


def _lanczos_top(apply, mass, start: np.ndarray) -> float:  # noqa: ANN001 - local callables
    r"""Largest Ritz value plus its residual of ``apply`` (``M``-self-adjoint) from ``start``.

    Full reorthogonalisation in the ``mass`` inner product: the basis is a few vectors.
    """
    norm = math.sqrt(float(start @ (mass @ start)))
    if not norm > 0.0:
        return 0.0
    basis, alphas, betas = [start / norm], [], []
    for _ in range(LANCZOS_STEPS):
        q = basis[-1]
        w = apply(q)
        if not np.all(np.isfinite(w)):
            return math.inf
        alphas.append(float(q @ (mass @ w)))
        for u in basis:  # twice is enough (Kahan): the basis stays M-orthonormal
            w = w - float(u @ (mass @ w)) * u
        for u in basis:
            w = w - float(u @ (mass @ w)) * u
        beta = math.sqrt(max(float(w @ (mass @ w)), 0.0))
        betas.append(beta)
        if beta <= 1e-10 * max(abs(a) for a in alphas):  # an invariant subspace: exact
            break
        basis.append(w / beta)
    k = len(alphas)
    tri = np.diag(alphas) + np.diag(betas[: k - 1], 1) + np.diag(betas[: k - 1], -1)
    values, vectors = np.linalg.eigh(tri)
    return float(values[-1] + abs(betas[k - 1] * vectors[-1, -1]))


def abs_max(x: np.ndarray) -> float:
    """Largest absolute entry of ``x`` (0.0 when empty; NaN when one is NaN)."""
    return float(np.max(np.abs(x))) if x.size else 0.0


def honest_status(status: str, p0: np.ndarray, p1: np.ndarray, v1: np.ndarray, meant: float) -> str:
    """The status of a step from ``p0`` to ``(p1, v1)`` that its stepper reported as ``status``.

    Raises :class:`StepRefused` when the step made a position or velocity non-finite,
    or when it reports ``"moved"`` while no coordinate changed although it meant to
    move ``meant`` length scales (the step is below the resolution of float64 at such
    coordinates: at 1e10 one ulp is 2e-6). A dynamic linkage at rest (``meant`` at
    round-off) that did not move is ``"idle"``.
    """
    if not (np.all(np.isfinite(p1)) and np.all(np.isfinite(v1))):
        raise StepRefused(
            "the step made the positions or velocities non-finite (an overflow: a force, "
            "a speed or the time step too large for the linkage); the state was kept"
        )
    if status != "moved" or p1 is p0 or not np.array_equal(p0, p1):
        return status
    if meant <= FROZEN_MOVE:
        return "idle"
    big = abs_max(p0)
    raise StepRefused(
        f"the step changes no coordinate: at coordinates as large as {big:.3g} float64 "
        f"resolves only {float(np.spacing(big)):.2g}, more than the step moves; move the "
        "linkage nearer the origin, or take larger steps"
    )
