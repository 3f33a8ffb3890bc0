r"""Friction along a slider: Coulomb, Stribeck and viscous, pressed by the guide's own force.

A slider's joint :math:`j` slides along the unit :math:`u` at the speed
:math:`w = u \cdot \dot p_j`; the guide meets it with friction along :math:`-u`,

.. math:: f = -\Big(\big(\mu_k + (\mu_s - \mu_k)\,e^{-(w/v_s)^2}\big)\,|N|\,
          \operatorname{sign}(w) + \sigma w\Big),

the pathway friction's law (:class:`~._friction.FrictionPath`) with its normal force
:math:`N` the force the guide exerts across the line *at the state*: the multiplier of
the slider's row (:class:`~._reactions.ConstraintForces` ``sliders``). That is the
physical choice: Coulomb's law presses with the contact force, and a guide's contact
force is whatever the mechanism makes it (a piston's side thrust changes sign twice
a turn; a block on an incline is pressed by :math:`m g \cos\alpha`); a fixed
normal force would be right for one placement only.

:math:`N` depends on the friction (the rod of a slider-crank turns part of the friction
into side thrust), and the friction on :math:`N`. Both are linear in the friction
forces :math:`f`: with :math:`\lambda_0, a_0` the multipliers and accelerations of the
acceleration-level equations (:mod:`~._reactions`) without friction and :math:`R, C`
their responses to a unit friction force on each slide, :math:`N = \lambda_0 + R f`
and the accelerations along the slides :math:`a_u = a_0 + C f`. The law is then a
fixed point in :math:`f` (a few iterations of a ``(k,)`` vector: the solves are
``1 + k``). A joint at rest (:math:`|w| \le` ``REST_SPEED`` length scales per unit
time) is held by the static force that keeps :math:`a_u = 0`, up to :math:`\mu_s |N|`
(beyond it slides with that force). This is an explicit force of the RATTLE step,
evaluated at both ends of the step; there is no stick phase with a temporary row (as
pathways and table joints have), so a slider that stops in mid-step may reverse once
before the rest test holds it. Friction dissipates: no potential.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import numpy as np

from ._rattle import Forces
from ._setup import Setup
from .tolerances import REST_SPEED

__all__ = ["SlideFriction", "with_slide_friction"]

#: fixed-point iterations of the friction and normal forces (the map contracts by about
#: mu times the side thrust per unit push: a few reach round-off for any sensible mu)
ITERATIONS = 30


@dataclass(frozen=True)
class SlideFriction:
    r"""Friction along slider ``slider`` (joint ``joint``, unit direction ``direction``).

    Coefficients as :class:`~linkage_widget.elements.SliderFriction`: :math:`\mu_k`,
    :math:`\mu_s \ge \mu_k`, the Stribeck speed ``v_s`` (``None``: none) and ``sigma``.
    """

    slider: int
    joint: int
    direction: tuple[float, float]
    mu_k: float
    mu_s: float
    v_s: float | None
    sigma: float

    def level(self, w: float) -> float:
        r"""The Coulomb coefficient at slip speed ``w`` (Stribeck: :math:`\mu_s` at rest)."""
        if self.v_s is None:
            return self.mu_k
        return self.mu_k + (self.mu_s - self.mu_k) * math.exp(-((w / self.v_s) ** 2))


def with_slide_friction(setup: Setup, forces: Forces, slides: tuple[SlideFriction, ...]) -> Forces:
    """``forces`` with the friction of ``slides`` added to their explicit forces."""
    base = forces.extra

    def extra(p: np.ndarray, v: np.ndarray, t: float) -> np.ndarray:
        out = np.zeros(p.size) if base is None else base(p, v, t)
        return out + _friction(setup, forces, slides, p, v, t)

    return dataclasses.replace(forces, extra=extra)


def _friction(
    setup: Setup,
    forces: Forces,
    slides: tuple[SlideFriction, ...],
    p: np.ndarray,
    v: np.ndarray,
    t: float,
) -> np.ndarray:
    """The slides' friction as a generalised force at ``(p, v, t)``, shape ``(2n,)``."""
    setup = setup.at_time(t)
    cs, metric = setup.constraints, setup.metric
    force = forces.conservative(metric, p) + forces.dissipative(metric, p, v)
    if forces.extra is not None:
        force = force + forces.extra(p, v, t)
    b = -cs.second_derivative(p, v, v) if np.any(v) else None
    fac = setup.mass_factor(p)
    units = _unit_forces(slides, p.size)  # (k, 2n): a unit push along each slide
    a0, lam0 = fac.solve(force, b)
    first = cs.n_constraints - cs.drives.n_rows - cs.guides.n_rows  # the first slider row
    rows = first + np.array([s.slider for s in slides], dtype=np.int64)
    responses = [fac.solve(u) for u in units]  # linear in f: no curvature term
    big_r = np.array([lam[rows] for _, lam in responses]).T  # (k, k): d lambda_s / d f
    big_c = np.array([units @ a for a, _ in responses]).T  # (k, k): d a_u / d f
    w = units @ v
    rest = np.abs(w) <= REST_SPEED * cs.length_scale
    return units.T @ _fixed_point(slides, lam0[rows], units @ a0, big_r, big_c, w, rest)


def _unit_forces(slides: tuple[SlideFriction, ...], size: int) -> np.ndarray:
    """A unit force along each slide's direction on its joint, ``(k, 2n)``."""
    out = np.zeros((len(slides), size))
    for k, s in enumerate(slides):
        out[k, 2 * s.joint : 2 * s.joint + 2] = s.direction
    return out


def _fixed_point(
    slides: tuple[SlideFriction, ...],
    lam0: np.ndarray,
    a0: np.ndarray,
    big_r: np.ndarray,
    big_c: np.ndarray,
    w: np.ndarray,
    rest: np.ndarray,
) -> np.ndarray:
    r"""Friction forces ``(k,)`` meeting the law with :math:`N = \lambda_0 + R f` (see module)."""
    f = np.zeros(len(slides))
    for _ in range(ITERATIONS):
        normal = np.abs(lam0 + big_r @ f)
        new = np.array([_law(s, float(w[k]), float(normal[k])) for k, s in enumerate(slides)])
        if rest.any():  # held: the force that keeps a_u = 0 on the resting slides, clipped
            r = np.flatnonzero(rest)
            drive = a0[r] + big_c[np.ix_(r, ~rest)] @ new[~rest]
            hold = np.linalg.solve(big_c[np.ix_(r, r)], -drive)
            limit = np.array([slides[k].mu_s for k in r]) * normal[r]
            new[r] = np.clip(hold, -limit, limit)
        if np.allclose(new, f, rtol=1e-14, atol=0.0):
            return new
        f = new
    return f


def _law(s: SlideFriction, w: float, normal: float) -> float:
    """The kinetic friction of slide ``s`` at slip speed ``w`` pressed by ``normal``."""
    return -(s.level(w) * normal * math.copysign(1.0, w) * (w != 0.0) + s.sigma * w)
