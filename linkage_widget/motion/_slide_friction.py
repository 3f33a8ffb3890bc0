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
``1 + k``). It is an explicit force of the RATTLE step, its direction
:math:`\operatorname{sign}(w)` fixed for the step (``StickState.slide_sign``, as a
pathway's). Friction dissipates: no potential.

Sticking, as pathways and table joints do (:mod:`._friction`,
:mod:`._drive_step`): a slide whose speed reverses within a step stops there if the
kinetic energy that removes is at most the work friction could do in the step; it is
then held by a temporary push row of speed 0 (:class:`~linkage_widget.constraints.Push`,
at the place it stopped), whose multiplier is the force that holds it, and it slides
again, the way that force pulled, once the force exceeds :math:`\mu_s |N|`. A slide
with no direction yet and not held (a state never stepped) meets the static force
that keeps it at rest, up to :math:`\mu_s |N|`.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ..constraints import ConstraintSet, Push
from ._friction import StickState
from ._rattle import Forces
from ._reactions import applied
from ._setup import Setup

__all__ = [
    "SlideFriction",
    "slide_places",
    "slide_speeds",
    "stick_slides",
    "stuck_pushes",
    "stuck_rows",
    "with_slide_friction",
]

#: fixed-point iterations of the friction and normal forces (the map contracts by about
#: mu times the side thrust per unit push: a few reach round-off for any sensible mu)
ITERATIONS = 30


@dataclass(frozen=True)
class SlideFriction:
    r"""Friction along slider ``slider`` (joint ``joint`` on the line through ``point``).

    ``direction`` the slider's unit :math:`u`; coefficients as
    :class:`~linkage_widget.elements.SliderFriction`: :math:`\mu_k`, :math:`\mu_s \ge
    \mu_k`, the Stribeck speed ``v_s`` (``None``: none) and ``sigma``.
    """

    slider: int
    joint: int
    point: tuple[float, float]
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


def slide_speeds(slides: tuple[SlideFriction, ...], v: np.ndarray) -> np.ndarray:
    r"""Slip speed :math:`w = u \cdot \dot p_j` of each slide, ``(k,)``; ``v`` ``(2n,)``."""
    return _unit_forces(slides, v.size) @ v


def slide_places(slides: tuple[SlideFriction, ...], p: np.ndarray) -> np.ndarray:
    r"""Place :math:`u \cdot (p_j - P)` of each slide's joint along its line, ``(k,)``."""
    pts = p.reshape(-1, 2)
    return np.array([np.dot(pts[s.joint] - s.point, s.direction) for s in slides], dtype=float)


def _padded(state: StickState | None, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(stuck, sign, places)`` of ``k`` slides (nothing known: free, no sign)."""
    if state is None or len(state.slides) != k:
        return np.zeros(k, bool), np.zeros(k), np.zeros(k)
    return state.slides, state.slide_sign, state.slide_places


def stick_slides(
    slides: tuple[SlideFriction, ...], state: StickState, p: np.ndarray, mask: np.ndarray
) -> StickState:
    """``state`` with the slides ``mask`` stuck where they are at ``p``."""
    stuck, sign, places = (x.copy() for x in _padded(state, len(slides)))
    places[mask] = slide_places(slides, p)[mask]
    return state.with_slides(stuck | mask, sign, places)


def stuck_pushes(slides: tuple[SlideFriction, ...], state: StickState | None) -> list[Push]:
    """The temporary push rows (speed 0) of the stuck slides of ``state``."""
    stuck, _, places = _padded(state, len(slides))
    return [
        Push(s.joint, s.point, s.direction, float(places[k]), 0.0)
        for k, s in enumerate(slides)
        if stuck[k]
    ]


def stuck_rows(cs: ConstraintSet, slides: tuple[SlideFriction, ...], stuck: np.ndarray):
    """Rows of the slides' sliders ``(k,)`` and of the stuck ones' push rows ``(r,)`` in ``cs``.

    The stuck slides' push rows are the last pushes (after the linear motors').
    """
    dr = cs.drives
    first_slider = cs.n_constraints - dr.n_rows - cs.guides.n_rows
    sliders = first_slider + np.array([s.slider for s in slides], dtype=np.int64)
    last_push = cs.n_constraints - dr.n_rows + dr.n_timed
    pushes = last_push - int(stuck.sum()) + np.arange(int(stuck.sum()))
    return sliders, pushes


def with_slide_friction(
    setup: Setup, forces: Forces, slides: tuple[SlideFriction, ...], state: StickState
) -> Forces:
    """``forces`` with the friction of the sliding ``slides`` of ``state`` added."""
    base = forces.extra
    stuck, sign, _ = _padded(state, len(slides))

    def extra(p: np.ndarray, v: np.ndarray, t: float) -> np.ndarray:
        out = np.zeros(p.size) if base is None else base(p, v, t)
        return out + _friction(setup, forces, slides, (stuck, sign), p, v, t)

    return dataclasses.replace(forces, extra=extra)


def _friction(
    setup: Setup,
    forces: Forces,
    slides: tuple[SlideFriction, ...],
    held: tuple[np.ndarray, np.ndarray],
    p: np.ndarray,
    v: np.ndarray,
    t: float,
) -> np.ndarray:
    """The slides' friction as a generalised force at ``(p, v, t)``, shape ``(2n,)``."""
    cs, force, b = applied(setup, forces, p, v, t)
    fac = setup.at_time(t).mass_factor(p)
    units = _unit_forces(slides, p.size)  # (k, 2n): a unit push along each slide
    a0, lam0 = fac.solve(force, b)
    rows, _ = stuck_rows(cs, slides, held[0])
    responses = [fac.solve(u) for u in units]  # linear in f: no curvature term
    big_r = np.array([lam[rows] for _, lam in responses]).T  # (k, k): d lambda_s / d f
    big_c = np.array([units @ a for a, _ in responses]).T  # (k, k): d a_u / d f
    laws = _Laws(slides, units @ v, held[1], held[0])
    return units.T @ laws.fixed_point(lam0[rows], units @ a0, big_r, big_c)


def _unit_forces(slides: tuple[SlideFriction, ...], size: int) -> np.ndarray:
    """A unit force along each slide's direction on its joint, ``(k, 2n)``."""
    out = np.zeros((len(slides), size))
    for k, s in enumerate(slides):
        out[k, 2 * s.joint : 2 * s.joint + 2] = s.direction
    return out


class _Laws(NamedTuple):
    """The slides with their slip speeds ``w``, step directions ``sign`` and ``stuck`` flags."""

    slides: tuple[SlideFriction, ...]
    w: np.ndarray
    sign: np.ndarray
    stuck: np.ndarray

    def fixed_point(
        self, lam0: np.ndarray, a0: np.ndarray, big_r: np.ndarray, big_c: np.ndarray
    ) -> np.ndarray:
        r"""Friction forces ``(k,)`` meeting the law with :math:`N = \lambda_0 + R f` (see module).

        A stuck slide's row holds it (no force here); a slide with no direction yet
        meets the static force that keeps :math:`a_u = 0`, up to :math:`\mu_s |N|`.
        """
        rest = (self.sign == 0) & ~self.stuck
        f = np.zeros(len(self.slides))
        for _ in range(ITERATIONS):
            normal = np.abs(lam0 + big_r @ f)
            new = np.array([self._law(k, float(normal[k])) for k in range(len(self.slides))])
            if rest.any():  # the force that keeps a_u = 0 on the resting slides, clipped
                r, moving = np.flatnonzero(rest), ~rest
                drive = a0[r] + big_c[np.ix_(r, moving)] @ new[moving]
                hold = np.linalg.solve(big_c[np.ix_(r, r)], -drive)
                limit = np.array([self.slides[k].mu_s for k in r]) * normal[r]
                new[r] = np.clip(hold, -limit, limit)
            if np.allclose(new, f, rtol=1e-14, atol=0.0):
                return new
            f = new
        return f

    def _law(self, k: int, normal: float) -> float:
        """The kinetic friction of slide ``k`` pressed by ``normal`` (0 while stuck)."""
        if self.stuck[k]:
            return 0.0
        s, w = self.slides[k], float(self.w[k])
        return -(s.level(w) * normal * float(self.sign[k]) + s.sigma * w)
