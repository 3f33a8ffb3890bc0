r"""Constraint forces and accelerations at a state, from the acceleration-level equations.

At :math:`(p, \dot p, t)` the accelerations and multipliers solve

.. math:: M \ddot p = F(p, \dot p, t) - A(p)^T \lambda, \qquad
          A(p)\,\ddot p = -g''(p)[\dot p, \dot p]

(differentiate :math:`A\dot p = -\partial g/\partial t` once more; the motor rows'
:math:`\partial^2 g/\partial t^2` vanishes at constant speed). This is the exact
Lagrange-multiplier solution at the state, not a by-product of the integrator's
multipliers (which approximate it to :math:`O(h)`). The generalised constraint force
on the vertices is :math:`-A^T\lambda`; read row by row (scaled rows, see
:mod:`linkage_widget.constraints`):

* rod :math:`(i, j)`: the force on :math:`i` is :math:`-\lambda\,(p_i - p_j)/L`, so
  the **tension** (positive when the rod pulls its ends together) is
  :math:`T = \lambda\,|p_i - p_j|/L`;
* pin: the **reaction** on the joint is :math:`-\lambda` (a hanging mass's pin
  pushes up: reaction = minus its weight);
* slider (row :math:`n\cdot(p_j - P) - h_0`): the guide pushes its joint with
  :math:`-\lambda n`, the **normal force** :math:`N = -\lambda` along the line's
  normal :math:`n = (-u_y, u_x)`; slot :math:`(a, b, c)`: the force on :math:`c` is
  :math:`-\lambda (-e_y, e_x)/L_0`, the normal force :math:`N = -\lambda |e|/L_0`
  along the left normal of :math:`a \to b` (and :math:`-N` shared by :math:`a, b`);
* fixed angle :math:`(i, j, k)` and motor: the force on the second arm's end is
  :math:`-\lambda\,\ell\,J b/|b|^2`, a **torque** :math:`\tau = -\ell\lambda` about the
  corner, counter-clockwise positive, exerted on the arm :math:`i \to k` (the motor's
  driven rod), and :math:`-\tau` on the other arm (the reference, or the ground).

>>> import numpy as np
>>> from linkage_widget import Linkage
>>> from linkage_widget.motion._rattle import Forces
>>> from linkage_widget.motion._setup import Setup
>>> link = Linkage([[0, 0], [0, -2]], rods=[(0, 1)], pinned=[0])
>>> setup = Setup.build(link, 0.0, 1.0)     # half the mass in each joint
>>> p, v = np.array([0.0, 0.0, 0.0, -2.0]), np.array([0.0, 0.0, 3.0, 0.0])
>>> cf, a = reactions(setup, Forces(9.81, 0.0, None, 0.0, 0.0, None), p, v, 0.0)
>>> round(float(cf.rods[0]), 9)              # m g + m v^2 / l = 0.5 (9.81 + 9 / 2)
7.155
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

import numpy as np

from .._checks import row_norms
from ..constraints import ConstraintSet, GuideRows
from ._friction import (
    FrictionPath,
    StickState,
    joint_directions,
    oriented_signs,
    path_speeds,
    sliding_direction,
)
from ._rattle import Forces
from ._setup import Setup

__all__ = [
    "ConstraintForces",
    "FrictionInput",
    "applied",
    "multipliers",
    "reactions",
    "stick_multipliers",
]


@dataclass(frozen=True, eq=False)
class ConstraintForces:
    r"""The forces the constraints exert at one state (see the module docstring for signs).

    Attributes
    ----------
    rods : ndarray, shape (m,)
        Tension of each rod, in rod order (compression negative); force units.
    pins : ndarray, shape (q, dim)
        Reaction force on each pinned joint, in the order of ``linkage.pinned``.
    angles : ndarray, shape (k,)
        Torque each fixed angle exerts on its second arm (counter-clockwise positive).
    motors : ndarray, shape (k_m,)
        Torque each motor exerts on its driven rod (counter-clockwise positive).
    pushes : ndarray, shape (k_p,)
        Force each linear motor exerts on its joint along its slider's direction :math:`u`
        (the push row's :math:`-\lambda`).
    sliders, slots : ndarray, shapes (s,) and (t,)
        Normal force each slider and slot exerts on its joint, signed along the normal of
        its line (:math:`n = (-u_y, u_x)`; a slot: the left normal of :math:`a \to b`).
    frictions : ndarray, shape (k_f,)
        Expansile force of each pathway friction element (dynamic mode): while stuck
        the force that holds it, while sliding the kinetic force at the state.
    table : ndarray, shape (n, 2)
        Force of the table on each joint (dynamic mode): on a held joint the force
        that holds it, on a sliding one :math:`-\mu N_i` along its velocity.
    """

    rods: np.ndarray
    pins: np.ndarray
    angles: np.ndarray
    motors: np.ndarray
    sliders: np.ndarray = field(default_factory=lambda: np.zeros(0))
    slots: np.ndarray = field(default_factory=lambda: np.zeros(0))
    pushes: np.ndarray = field(default_factory=lambda: np.zeros(0))
    frictions: np.ndarray = field(default_factory=lambda: np.zeros(0))
    table: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))


class ReactionMemo:
    """The last constraint forces, for the state (by identity) and forces they were made for."""

    def __init__(self) -> None:
        self._slot: tuple[tuple, Any, tuple] | None = None

    def clear(self) -> None:
        """Forget them (a step, or an edit of the elements)."""
        self._slot = None

    def get(self, key: tuple, parameters: tuple, compute: Callable[[], Any]) -> Any:
        """The value remembered for ``key`` (by identity) and ``parameters``, or ``compute()``."""
        slot = self._slot
        if slot is not None and all(a is b for a, b in zip(slot[0], key, strict=True)):
            if slot[2] == parameters:
                return slot[1]
        out = compute()
        self._slot = (key, out, parameters)
        return out


class FrictionInput(NamedTuple):
    r"""What :func:`reactions` needs to report friction forces.

    ``limits`` (shape ``(n,)``): :math:`\mu N_i` of each joint on the table, 0 where
    no table friction acts (pinned joints).
    """

    frictions: tuple[FrictionPath, ...]
    state: StickState
    limits: np.ndarray


def reactions(
    setup: Setup,
    forces: Forces,
    p: np.ndarray,
    v: np.ndarray,
    t: float,
    friction: FrictionInput | None = None,
) -> tuple[ConstraintForces, np.ndarray]:
    """Constraint forces and accelerations (shape ``(dn,)``) at ``(p, v, t)``.

    ``setup`` carries the rows enforced (with motors and stuck friction elements);
    ``friction`` the elements whose forces to report (``None``: none).
    """
    cs, a, lam = _solve(setup, forces, p, v, t)
    m, k, q = len(cs.rods), len(cs.angles), len(cs.pinned)
    pts = p.reshape(-1, cs.dim)
    tension = lam[:m] * row_norms(pts[cs.rods[:, 0]] - pts[cs.rods[:, 1]]) / cs.lengths
    first, gr = m + k + cs.dim * q, cs.guides
    drive = first + gr.n_rows
    dr = cs.drives
    motors = -dr.motor_scales * lam[drive : drive + len(dr.motors)]
    out = ConstraintForces(
        rods=tension,
        pins=-lam[m + k : first].reshape(-1, cs.dim),
        angles=-cs.angle_scales * lam[m : m + k],
        motors=motors,
        sliders=-lam[first : first + len(gr.joints)],
        slots=-lam[first + len(gr.joints) : drive] * _slot_stretch(gr, pts),
        pushes=-lam[drive + len(dr.motors) : drive + dr.n_timed],
    )
    if friction is not None:
        frictions, table = _friction_forces(cs, lam, friction, p, v)
        out = replace(out, frictions=frictions, table=table)
    return out, a


def _slot_stretch(guides: GuideRows, pts: np.ndarray) -> np.ndarray:
    r""":math:`|e|/L_0` of each slot ``(t,)``: its row's gradient at c over the unit normal."""
    e = pts[guides.slots[:, 1]] - pts[guides.slots[:, 0]]
    return row_norms(e) / guides.slot_lengths


def _friction_forces(
    cs: ConstraintSet, lam: np.ndarray, friction: FrictionInput, p: np.ndarray, v: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Pathway friction forces ``(k,)`` and table forces ``(n, 2)`` at the state."""
    dr, state = cs.drives, friction.state
    first = cs.n_constraints - dr.n_rows + dr.n_timed
    links = lam[first : first + len(dr.links)]
    holds = lam[first + len(dr.links) :].reshape(-1, 2)
    u = path_speeds(friction.frictions, p, v, cs.dim)
    s = sliding_direction(u, oriented_signs(friction.frictions, p, state, cs.dim))
    out = np.array([f.kinetic(float(u[k]), float(s[k])) for k, f in enumerate(friction.frictions)])
    pts = p.reshape(-1, cs.dim)
    e = pts[dr.links[:, 0]] - pts[dr.links[:, 1]]
    out[np.flatnonzero(state.paths)] = -links * row_norms(e) / dr.link_lengths
    sliding = (friction.limits > 0) & ~state.joints
    if cs.dim != 2:  # no table in space (joints slide on the plane of the drawing)
        return out.reshape(-1), np.zeros((len(sliding), 2))
    table = -(friction.limits * sliding)[:, None] * joint_directions(v, state)
    table[state.joints] = -holds
    return out.reshape(-1), table


def stick_multipliers(
    setup: Setup, forces: Forces, p: np.ndarray, v: np.ndarray, t: float
) -> tuple[np.ndarray, np.ndarray]:
    """Multipliers of the link rows (tension) and hold rows (``(r, 2)``) at ``(p, v, t)``."""
    cs, _, lam = _solve(setup, forces, p, v, t)
    dr = cs.drives
    first = cs.n_constraints - dr.n_rows + dr.n_timed
    links = lam[first : first + len(dr.links)]
    holds = lam[first + len(dr.links) :].reshape(-1, 2)
    return links, holds


def applied(
    setup: Setup, forces: Forces, p: np.ndarray, v: np.ndarray, t: float
) -> tuple[ConstraintSet, np.ndarray, np.ndarray | None]:
    r"""The constraints at ``t``, the applied force :math:`F`, :math:`b = -g''[v, v]` at ``(p, v)``.

    ``b`` is ``None`` at rest (the acceleration-level right-hand side vanishes).
    """
    setup = setup.at_time(t)
    cs, metric = setup.constraints, setup.metric
    force = forces.conservative(metric, p) + forces.dissipative(metric, p, v)
    if forces.extra is not None:
        force = force + forces.extra(p, v, t)
    b = -cs.second_derivative(p, v, v) if np.any(v) else None
    return cs, force, b


def multipliers(setup: Setup, forces: Forces, p: np.ndarray, v: np.ndarray, t: float) -> np.ndarray:
    r"""The multipliers :math:`\lambda` of every row at ``(p, v, t)``, ``(n_constraints,)``."""
    return _solve(setup, forces, p, v, t)[2]


def _solve(
    setup: Setup, forces: Forces, p: np.ndarray, v: np.ndarray, t: float
) -> tuple[ConstraintSet, np.ndarray, np.ndarray]:
    """The constraints at ``t``, the accelerations and the multipliers at ``(p, v, t)``."""
    cs, force, b = applied(setup, forces, p, v, t)
    a, lam = setup.at_time(t).mass_factor(p).solve(force, b)
    return cs, a, lam
