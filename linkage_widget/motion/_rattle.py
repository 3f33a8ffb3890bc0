r"""The dynamic step: RATTLE/SHAKE with gravity, springs, the attractor and damping.

It integrates :math:`M\ddot p = F(p, \dot p) - A(p)^T\lambda`, :math:`g(p) = 0`.

One step of length :math:`h`:

.. math::
    p_{n+1} &= p_n + h \dot p_n + \tfrac{h^2}{2} M^{-1}\big(F(p_n, \dot p_n)
               - A(p_n)^T\lambda\big), \qquad g(p_{n+1}) = 0, \\
    (M + \tfrac h2 C)\,\dot p_{n+1} &= M \frac{p_{n+1} - p_n}{h}
               + \tfrac h2 F_c(p_{n+1}) - A(p_{n+1})^T\mu, \qquad A(p_{n+1})\dot p_{n+1} = 0,

a half kick and drift whose constraint force is found by SHAKE iterations
(:func:`~linkage_widget.motion._projection.project` along
:math:`M^{-1}A(p_n)^T`), and a second half kick projected onto the allowed
velocities. Without damping it is symplectic and time-reversible: the energy
error stays bounded. Forces (:class:`Forces`): gravity :math:`-g M e_{up}` (up is
:math:`y` in the plane, :math:`z` in space), the
attractor as a spring and damper on the pulled vertex, global viscous damping
:math:`-c\,M\dot p` and the springs/dampers between vertex pairs
(:class:`~linkage_widget.elements.Spring`). Damping enters the first half kick
explicitly and the second implicitly (:math:`C`), which keeps stiff dampers stable.

A step is cut into equal sub-steps for the stiffness the constrained linkage sees
(:mod:`~linkage_widget.motion._stiffness`: the springs and the attractor acting
through the rods, at the start and again at the end of the step; a conservative
step that changed the energy again with more), or refused.
A SHAKE iteration that stalls at a small residual (rounded data along an
approximate flex) is finished by post-stabilisation; one that still does not
converge is split in halves, at most ``MAX_SUBSTEP_DEPTH`` deep; at a singular
placement the smallest sub-step is taken only if it leaves the constraint error
at most ``DATA_TOL`` (or no larger than it was), else the positions stay.

:func:`rattle_step` returns ``(positions, velocities, status)`` and touches nothing else.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np

from .._checks import row_norms
from ..elements import Spring
from ._metric import Layout, Metric, unit_vectors
from ._projection import held_residual, project
from ._setup import Setup
from ._stiffness import (
    StepRefused,
    energy_checked,
    plan_substeps,
    remember_refusal,
    replan_substeps,
)
from .tolerances import (
    CORRECTOR_DEVIATION,
    DATA_TOL,
    MAX_SPRING_SUBSTEPS,
    MAX_SUBSTEP_DEPTH,
    POST_STABILIZE_TOL,
    SPRING_STEP,
)

__all__ = ["Forces", "SpringArrays", "rattle_step"]


@dataclass(frozen=True, eq=False)
class SpringArrays:
    """The springs between vertex pairs as arrays, each of shape ``(k,)``."""

    i: np.ndarray
    j: np.ndarray
    stiffness: np.ndarray
    rest_length: np.ndarray
    damping: np.ndarray
    #: Duffing coefficients :math:`\beta`, or ``None`` when every spring is linear
    #: (then the arithmetic is exactly that of linear springs).
    nonlinear: np.ndarray | None = None

    @classmethod
    def from_springs(cls, springs: Sequence[Spring]) -> SpringArrays:
        """The arrays of ``springs`` (``nonlinear`` ``None`` when every one is linear)."""
        beta = np.array([x.nonlinear_stiffness for x in springs])
        return cls(
            np.array([x.i for x in springs], dtype=np.int64),
            np.array([x.j for x in springs], dtype=np.int64),
            np.array([x.stiffness for x in springs]),
            np.array([x.rest_length for x in springs]),
            np.array([x.damping for x in springs]),
            beta if beta.any() else None,
        )

    def tension(self, stretch: np.ndarray) -> np.ndarray:
        r"""Contractile force :math:`k x + \beta x^3` for stretches ``x``, shape ``(k,)``."""
        if self.nonlinear is None:
            return self.stiffness * stretch
        return self.stiffness * stretch + self.nonlinear * stretch**3

    def energy(self, stretch: np.ndarray) -> float:
        r""":math:`\sum \tfrac12 k x^2 + \tfrac14 \beta x^4`."""
        if self.nonlinear is None:
            return 0.5 * float(np.sum(self.stiffness * stretch**2))
        return float(np.sum(0.5 * self.stiffness * stretch**2 + 0.25 * self.nonlinear * stretch**4))


@dataclass(frozen=True, eq=False)
class Forces:
    r"""The applied forces of a dynamic step.

    Attributes
    ----------
    gravity : float
        :math:`g` (force :math:`-g\,M e_{up}`: toward :math:`-y` in the plane,
        :math:`-z` in space; see :attr:`~linkage_widget.motion._metric.Metric.weight`).
    damping : float
        Global viscous rate :math:`c` (force :math:`-c\,M\dot p`).
    attractor : tuple of (int, ndarray) or None
        Pulled vertex and target; a spring ``attractor_stiffness`` and damper
        ``attractor_damping`` between them.
    springs : SpringArrays or None
        Springs/dampers between vertex pairs (``None``: none).
    extra : callable or None
        ``extra(p, v, t) -> (2n,)``: the force elements of the actuators (torques,
        force actuators, kinetic friction), evaluated explicitly in both half kicks
        (at :math:`(p_n, \dot p_n, t_n)` and :math:`(p_{n+1}, \dot p_{n+1/2}, t_{n+1})`).
    dim : int
        2 in the plane, 3 in space: the attractor, springs and dampers act along the
        vertex pairs' lines in ``dim`` coordinates (they are dimension-free).
    """

    gravity: float
    damping: float
    attractor: tuple[int, np.ndarray] | None
    attractor_stiffness: float
    attractor_damping: float
    springs: SpringArrays | None
    extra: Callable[[np.ndarray, np.ndarray, float], np.ndarray] | None = None
    dim: int = 2

    def conservative(self, metric: Metric, p: np.ndarray) -> np.ndarray:
        """Gravity, attractor spring and spring elements at ``p``, shape ``(dn,)``."""
        force, d = -self.gravity * metric.weight, self.dim
        if self.attractor is not None and self.attractor_stiffness:
            s, t = self.attractor
            force[d * s : d * s + d] -= self.attractor_stiffness * (p[d * s : d * s + d] - t)
        sp = self.springs
        if sp is not None:
            e, length = unit_vectors(p, sp.i, sp.j, d)
            pull = sp.tension(length - sp.rest_length)[:, None] * e
            force = force + _pair_force(len(p) // d, sp.i, sp.j, -pull)
        return force

    def dissipative(self, metric: Metric, p: np.ndarray, v: np.ndarray) -> np.ndarray:
        """Global, attractor and element damping forces at ``(p, v)``, shape ``(dn,)``."""
        force, d = -self.damping * (metric.matrix @ v), self.dim
        if self.attractor is not None and self.attractor_damping:
            s = self.attractor[0]
            force[d * s : d * s + d] -= self.attractor_damping * v[d * s : d * s + d]
        sp = self.springs
        if sp is not None:
            e, _ = unit_vectors(p, sp.i, sp.j, d)
            vv = v.reshape(-1, d)
            rate = np.sum(e * (vv[sp.i] - vv[sp.j]), axis=1)
            force = force + _pair_force(len(p) // d, sp.i, sp.j, -(sp.damping * rate)[:, None] * e)
        return force

    def potential_energy(self, metric: Metric, p: np.ndarray) -> float:
        r"""Gravity :math:`g\,(M e_{up})^T p`, the springs, and the attractor spring."""
        energy, d = self.gravity * float(metric.weight @ p), self.dim
        if self.attractor is not None:
            s, t = self.attractor
            k = self.attractor_stiffness
            energy += 0.5 * k * float(np.sum((p[d * s : d * s + d] - t) ** 2))
        sp = self.springs
        if sp is not None:
            pts = p.reshape(-1, d)
            stretch = row_norms(pts[sp.i] - pts[sp.j]) - sp.rest_length
            energy += sp.energy(stretch)
        return energy

    def substeps(
        self,
        metric: Metric,
        step_size: float,
        p: np.ndarray | None = None,
        pinned: np.ndarray | None = None,
    ) -> int:
        r"""Sub-steps that keep the explicit springs stable.

        :math:`h\,\omega \le` ``SPRING_STEP`` with :math:`\omega^2 = k (1/m_i + 1/m_j)`
        (attractor: :math:`k / m_s`; a Duffing spring: its tangent stiffness
        :math:`k + 3\beta x^2` at ``p``), where :math:`m` are the vertex particle
        masses: :math:`M \succeq \operatorname{diag}(m)`, and constraints only add
        inertia, so this bounds the true frequency from above. A joint of the boolean
        mask ``pinned`` (n,) never moves: its :math:`1/m` is 0 (infinite inertia),
        so the placeholder floor mass of a pinned anchor without rods
        (:data:`~linkage_widget.mass.MASS_FLOOR`) does not set the step count.
        """
        inv = 1.0 / metric.vertex
        if pinned is not None and len(pinned):
            # A pinned end is the wall the spring pulls against, not an oscillating mass.
            inv = np.where(np.asarray(pinned, dtype=bool), 0.0, inv)
        omega2 = 0.0
        if self.attractor is not None:
            omega2 = self.attractor_stiffness * inv[self.attractor[0]]
        sp = self.springs
        if sp is not None:
            inverse = inv[sp.i] + inv[sp.j]
            stiffness = sp.stiffness
            if sp.nonlinear is not None and p is not None:
                _, length = unit_vectors(p, sp.i, sp.j, self.dim)
                stiffness = np.abs(stiffness + 3.0 * sp.nonlinear * (length - sp.rest_length) ** 2)
            omega2 = max(omega2, float(np.max(stiffness * inverse)))
        need = step_size * np.sqrt(omega2) / SPRING_STEP
        return int(min(MAX_SPRING_SUBSTEPS, max(1, np.ceil(need))))

    def damped_weights(self, metric: Metric, h: float) -> tuple[np.ndarray, Layout] | None:
        r"""Weights of :math:`M + \tfrac h2 C` when a local damper makes :math:`C` non-scalar.

        ``None`` when the only damping is global (:math:`C = cM`: the velocity stage
        then divides by :math:`1 + \tfrac h2 c` instead). A damper between vertices
        becomes an extra unknown of weight :math:`\tfrac h2 c_{ij}`.
        """
        sp = self.springs
        dampers = np.zeros(0, dtype=bool) if sp is None else sp.damping > 0.0
        local = self.attractor is not None and self.attractor_damping > 0.0
        if not (local or dampers.any()):
            return None
        norm, layout, d = metric.norm, metric.layout, self.dim
        weights = metric.weights * (1.0 + 0.5 * h * self.damping)
        if self.attractor is not None and self.attractor_damping:
            s = self.attractor[0]
            weights[d * s : d * s + d] += 0.5 * h * self.attractor_damping / norm
        if sp is not None and dampers.any():
            pairs = tuple(zip(sp.i[dampers].tolist(), sp.j[dampers].tolist(), strict=True))
            layout = Layout(layout.middles, pairs, layout.places)
            weights = np.concatenate([weights, 0.5 * h * sp.damping[dampers] / norm])
        return weights, layout


def rattle_step(
    setup: Setup,
    forces: Forces,
    p: np.ndarray,
    v: np.ndarray,
    step_size: float,
    t: float = 0.0,
    *,
    checked: bool = True,
) -> tuple[np.ndarray, np.ndarray, str]:
    r"""One dynamic step of ``step_size`` seconds from ``(p, v)`` (shapes ``(dn,)``) at time ``t``.

    Split into equal sub-steps for the springs' stability
    (:func:`~linkage_widget.motion._stiffness.plan_substeps`: the stiffness the
    constrained linkage sees); raises
    :class:`~linkage_widget.motion._stiffness.StepRefused` when that would take more
    than ``MAX_SPRING_SUBSTEPS``.
    Returns the new positions and velocities and the status: ``"blocked"`` when
    the positions could not move at all (then ``p`` itself is returned). Motor rows
    (rheonomic) are met at the end of every sub-step: :math:`g(p_{n+1}, t_{n+1}) = 0`
    and :math:`A v_{n+1} = -\partial g/\partial t`. ``checked=False``: no energy check
    (a step with an impact, :mod:`~linkage_widget.motion._members`).
    """
    substeps = plan_substeps(setup, forces, p, v, step_size, t)
    p1, v1 = _substeps(setup, forces, p, v, step_size, substeps, t)
    try:
        again = replan_substeps(setup, forces, p1, v1, step_size, substeps, t + step_size)
    except StepRefused as refusal:
        remember_refusal(setup, forces, p, v, refusal)
        raise
    if again is not None:  # stiffer at the end than the start said: the step again, finer
        p1, v1 = _substeps(setup, forces, p, v, step_size, again, t)
    take = partial(_substeps, setup, forces, p, v, step_size, t=t)  # take(count): finer
    if checked:
        p1, v1 = energy_checked(setup, forces, p, v, (p1, v1), again or substeps, take)
    return p1, v1, "blocked" if p1 is p else "moved"


def _substeps(
    setup: Setup, forces: Forces, p: np.ndarray, v: np.ndarray, step: float, count: int, t: float
) -> tuple[np.ndarray, np.ndarray]:
    """``count`` equal RATTLE sub-steps making up ``step`` seconds from time ``t``.

    Each is split (where SHAKE fails) only down to ``step / 2**MAX_SUBSTEP_DEPTH``, as
    an unsplit step is: 64 sub-steps each halved 8 deep took 30 s of CPU for one step.
    """
    h, depth = step / count, min(MAX_SUBSTEP_DEPTH, math.ceil(math.log2(count)))
    for k in range(count):
        p, v = _substep(setup, forces, p, v, h, depth, t + k * h)
    return p, v


def _substep(
    setup: Setup, forces: Forces, p: np.ndarray, v: np.ndarray, h: float, depth: int, t: float
) -> tuple[np.ndarray, np.ndarray]:
    """One RATTLE step of length ``h`` from time ``t``; halved if SHAKE does not converge."""
    fac0 = setup.mass_factor(p)
    force = forces.conservative(setup.metric, p) + forces.dissipative(setup.metric, p, v)
    if forces.extra is not None:
        force = force + forces.extra(p, v, t)
    # Position stage: p1 = p + h v + (h^2/2) M^-1 (F - A(p)^T lam) with g(p1, t + h) = 0.
    drift = fac0.minimize(0.5 * h * h * force)
    floor = setup.roundoff(p)
    held = held_residual(setup.at_time(t), p, fac0, floor)
    setup = setup.at_time(t + h)
    p1, ok, _ = project(setup, p + h * v + drift, fac0, held, floor, allow_refactor=False)
    if not ok:
        p1, ok = _post_stabilize(setup, p, p1, held, floor)
    if not ok and depth < MAX_SUBSTEP_DEPTH:
        p, v = _substep(setup, forces, p, v, 0.5 * h, depth + 1, t)
        return _substep(setup, forces, p, v, 0.5 * h, depth + 1, t + 0.5 * h)
    if not ok and not setup.error(setup.residuals(p1)) <= max(
        setup.error(setup.residuals(p)), DATA_TOL
    ):  # (written so that a NaN residual stays too)
        # Not even the smallest sub-step converges (a singular placement), and taking
        # it anyway would leave more than DATA_TOL: rods would break (a straight chain
        # of six between pins flew apart, 600% strain within a second). Stay; the
        # velocity stage still runs.
        p1 = p
    return p1, _velocity_stage(setup, forces, p1, (p1 - p) / h, h, t + h, v)


def _velocity_stage(
    setup: Setup,
    forces: Forces,
    p1: np.ndarray,
    v_half: np.ndarray,
    h: float,
    t1: float,
    v0: np.ndarray,
) -> np.ndarray:
    r"""The second half kick, the new velocity; shape ``(dn,)``.

    The explicit velocity-dependent forces (``extra``) are evaluated at the
    extrapolated end velocity :math:`2\dot p_{n+1/2} - \dot p_n = \dot p_{n+1} + O(h^2)`,
    which keeps the step second order (the midpoint velocity would make it first).

    .. math:: (M + \tfrac h2 C) v_1 = M v_{1/2} + \tfrac h2 F_c(p_1) - A(p_1)^T\mu,
              \qquad A(p_1) v_1 = -\partial g/\partial t.
    """
    metric = setup.metric
    rhs = metric.matrix @ v_half + 0.5 * h * forces.conservative(metric, p1)
    if forces.extra is not None:
        rhs = rhs + 0.5 * h * forces.extra(p1, 2.0 * v_half - v0, t1)
    b = setup.constraints.velocity_target()
    damped = forces.damped_weights(metric, h)
    if damped is not None:
        return setup.factor(p1, *damped).minimize(rhs, b)
    if b is not None:
        return setup.mass_factor(p1).minimize(rhs / (1.0 + 0.5 * h * forces.damping), b)
    return setup.mass_factor(p1).minimize(rhs / (1.0 + 0.5 * h * forces.damping))


def _post_stabilize(
    setup: Setup, p: np.ndarray, p1: np.ndarray, held: np.ndarray, floor: float
) -> tuple[np.ndarray, bool]:
    """Finish a stalled SHAKE iteration at ``p1`` with Newton steps from ``p1`` itself.

    SHAKE corrects along :math:`M^{-1}A(p_n)^T` with ``p``'s factorisation. Along
    an approximate flex (rounded data, the Penrose "t" files) the near-null
    directions turn as the linkage moves, and from ``p``'s directions the last
    ~1e-8 of the residual cannot be reached: the iteration stalls, and splitting
    the step only shrinks that rest with the square of the move, at ten to twenty
    times the cost (penrose3t: 127 ms per frame, measured). A projection along
    :math:`M^{-1}A(p_{n+1})^T` (post-stabilisation, Ascher et al. 1995) removes it
    in one or two Newton steps. Its forces are still internal (no net force or
    torque), and its correction is of the size of the residual, so symplecticity
    is lost only at that level. It is used only for small residuals and small
    corrections (at most ``CORRECTOR_DEVIATION`` of the move): a step through a
    singular placement, or onto another branch, is still split.
    Returns the point and whether it is acceptable.
    """
    if not setup.error(setup.residuals(p1)) <= POST_STABILIZE_TOL:
        return p1, False
    q, ok, _ = project(setup, p1, setup.factor(p1), held, floor, allow_refactor=True)
    move = float(np.max(np.abs(p1 - p)))
    if ok and float(np.max(np.abs(q - p1))) <= CORRECTOR_DEVIATION * move:
        return q, True
    return p1, False


def _pair_force(n: int, i: np.ndarray, j: np.ndarray, on_i: np.ndarray) -> np.ndarray:
    """Stack forces ``on_i`` (shape ``(k, dim)``) on ``i`` and their opposites on ``j``."""
    out = np.zeros((n, on_i.shape[1]))
    np.add.at(out, i, on_i)
    np.add.at(out, j, -on_i)
    return out.reshape(-1)
