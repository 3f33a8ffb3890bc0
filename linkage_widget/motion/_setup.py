r"""What both steppers share: the constraints, the metric, the factorisations and their memo.

A :class:`Setup` is built by the :class:`~linkage_widget.motion.Simulator` facade and
handed to the steppers; they read it and never hold on to the simulator. It is
frozen: a new mass distribution or total mass gives a new setup
(:meth:`Setup.with_mass`) that shares the factorisation patterns and the memo.

The memo keeps the last evaluations at a placement, keyed by the identity of the
position array (every step makes a new array, and the facade assigns it):

* the mass-metric factorisation at the current positions (a kinematic step that
  made one at its new point hands it to the next step, and RATTLE's velocity
  stage makes the next position stage's);
* the residuals :math:`g(q)` of the last projection, which the next step's held
  residual starts from.

>>> from linkage_widget import Linkage
>>> from linkage_widget.constraints import as_flat
>>> watt = Linkage.load("watt.txt")
>>> setup = Setup.build(watt, 0.0, 1.0)
>>> p = as_flat(watt.vertices)
>>> bool(setup.error(setup.residuals(p)) < 1e-12), setup.mass_factor(p) is setup.mass_factor(p)
(True, True)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ..constraints import ConstraintSet, DriveRows
from ..constraints.members import member_sides
from ..model import Linkage
from ._friction import StickState
from ._linalg import ConstrainedFactor
from ._metric import Factoriser, Layout, Metric
from .tolerances import ROUNDOFF_FACTOR

__all__ = ["Memo", "Setup", "State", "mode_error", "read_only"]


class State(NamedTuple):
    """A simulator's state: what a stepper or watcher returns and only the facade assigns.

    Positions and velocities ``(dn,)``, time, the last step's status, why it was
    blocked or refused (``None``), and which friction elements stick.
    """

    p: np.ndarray
    v: np.ndarray
    time: float
    status: str
    reason: str | None
    stick: StickState


def mode_error(value: object, modes: tuple[str, ...]) -> Exception:
    """The error for a mode the simulator does not know (both modes run in 2-D and 3-D)."""
    return ValueError(f"mode must be one of {modes}, got {value!r}")


def read_only(x: np.ndarray, dim: int) -> np.ndarray:
    """The flat state array ``x`` as a read-only ``(n, dim)`` view (the state is the facade's)."""
    view = x.reshape(-1, dim).view()
    view.flags.writeable = False
    return view


class Memo:
    """One-slot caches of evaluations at a placement, keyed by the position array's identity."""

    def __init__(self) -> None:
        self._factor: tuple[np.ndarray, Metric, ConstrainedFactor] | None = None
        self._residuals: tuple[np.ndarray, np.ndarray] | None = None
        #: (p, v, forces, omega): the stiffest frequency at the end of the last dynamic step
        self.frequency: tuple[np.ndarray, np.ndarray, object, float] | None = None
        #: (p, v, forces, reason): a step from this state was refused (asked again: at once)
        self.refusal: tuple[np.ndarray, np.ndarray, object, str] | None = None

    def factor(self, p: np.ndarray, metric: Metric) -> ConstrainedFactor | None:
        """The mass-metric factorisation remembered for ``p`` and ``metric``, if any."""
        slot = self._factor
        if slot is not None and slot[0] is p and slot[1] is metric:
            return slot[2]
        return None

    def remember_factor(self, p: np.ndarray, metric: Metric, fac: ConstrainedFactor) -> None:
        """Remember ``fac`` as the mass-metric factorisation to use at ``p``."""
        self._factor = (p, metric, fac)

    def residuals(self, p: np.ndarray) -> np.ndarray | None:
        """The residuals remembered for ``p``, if any."""
        slot = self._residuals
        return slot[1] if slot is not None and slot[0] is p else None

    def remember_residuals(self, p: np.ndarray, g: np.ndarray) -> None:
        """Remember the residuals ``g`` at ``p``."""
        self._residuals = (p, g)

    def forget_residuals(self) -> None:
        """Forget the residuals: a motor's target moved, so those at ``p`` changed."""
        self._residuals = None


@dataclass(frozen=True, eq=False)
class Setup:
    """The constraints, mass metric and factorisation machinery of one simulator.

    Attributes
    ----------
    linkage : Linkage
        The simulator's template (its positions define the constraint targets).
    constraints : ConstraintSet
        The constraints enforced.
    pinned : ndarray of bool, shape (n,)
        Pinned vertices.
    metric : Metric
        Mass data for the current mass distribution and total mass.
    factoriser : Factoriser
        Schur patterns per layout (shared by every setup of the simulator).
    memo : Memo
        Evaluations at the current placement (shared likewise).
    inv_row_scale : ndarray, shape (n_constraints,)
        Reciprocal of each constraint row's scale (rod length, angle scale, length
        scale for pins): scaled residuals times this are relative residuals.
    """

    linkage: Linkage
    constraints: ConstraintSet
    pinned: np.ndarray
    metric: Metric
    factoriser: Factoriser
    memo: Memo
    inv_row_scale: np.ndarray

    @classmethod
    def build(cls, linkage: Linkage, alpha: float, total_mass: float) -> Setup:
        """The setup of ``linkage`` with mass distribution ``alpha`` and ``total_mass``.

        ``linkage`` is kept, not copied, and never modified: its positions define
        the constraint targets.
        """
        cs = ConstraintSet.from_linkage(linkage)
        sides = member_sides(linkage.rod_kinds)
        if sides.any():  # cables or struts: one-sided rows (motion._members)
            cs = cs.with_members(sides)
        pinned = np.zeros(linkage.n_vertices, dtype=bool)
        pinned[np.asarray(linkage.pinned, dtype=np.int64)] = True
        inv_row_scale = 1.0 / cs.row_scales()
        metric = Metric.build(linkage, cs.lengths, pinned, alpha, total_mass)
        return cls(linkage, cs, pinned, metric, Factoriser(cs), Memo(), inv_row_scale)

    def with_mass(self, alpha: float, total_mass: float) -> Setup:
        """The setup with the metric of ``alpha`` and ``total_mass`` (itself if unchanged)."""
        if (alpha, total_mass) == (self.metric.alpha, self.metric.total_mass):
            return self
        cs = self.constraints
        metric = Metric.build(self.linkage, cs.lengths, self.pinned, alpha, total_mass)
        return dataclasses.replace(self, metric=metric)

    def pin_exactly(self, p: np.ndarray, v: np.ndarray) -> np.ndarray:
        """Put pinned joints bitwise at their anchors in ``p`` (shape ``(dn,)``, in place).

        The steppers' solves leave pins off by round-off (a pin at 0.0 was saved as
        -2.18e-19). ``p`` stays the same object: the simulator recognises a stop by the
        identity of its positions. Returns ``v`` with the pinned joints at rest (a new
        array when that changes it).
        """
        cs = self.constraints
        idx = (cs.dim * cs.pinned[:, None] + np.arange(cs.dim)).ravel()
        if not np.array_equal(p[idx], cs.anchors.ravel()):
            p[idx] = cs.anchors.ravel()
        if v[idx].any():
            v = v.copy()
            v[idx] = 0.0
        return v

    def with_drives(self, drives: DriveRows) -> Setup:
        """The setup with the drive rows ``drives`` (motors, links, holds) appended.

        A new row pattern: new factorisation patterns and a new memo; the metric stays.
        """
        cs = self.constraints.with_drives(drives)
        return dataclasses.replace(
            self,
            constraints=cs,
            factoriser=Factoriser(cs),
            memo=Memo(),
            inv_row_scale=1.0 / cs.row_scales(),
        )

    def with_slack(self, slack: np.ndarray) -> Setup:
        """The setup with the rods ``slack`` (bool ``(m,)``) let go (cables and struts).

        The same metric and factorisation patterns (a let-go row is zero, not gone); a new
        memo (the rows' values differ).
        """
        cs = self.constraints.with_members(self.constraints.sides, slack)
        factoriser = self.factoriser.sharing(cs)
        return dataclasses.replace(self, constraints=cs, factoriser=factoriser, memo=Memo())

    def at_time(self, t: float) -> Setup:
        r"""The setup whose motor rows hold the targets :math:`\theta_0 + \omega t` of time ``t``.

        Itself without motors. The Jacobian does not depend on time, so the
        factorisations stay valid; remembered residuals do not and are forgotten.
        """
        cs = self.constraints
        if not cs.drives.n_timed:  # no motor or push rows
            return self
        self.memo.forget_residuals()
        return dataclasses.replace(self, constraints=cs.at_time(t))

    # -------------------------------------------------------------- residuals
    def residuals(self, p: np.ndarray) -> np.ndarray:
        """:math:`g(p)`, reusing the last projection's evaluation when ``p`` is its point."""
        g = self.memo.residuals(p)
        return self.constraints.residuals(p) if g is None else g

    def error(self, g: np.ndarray) -> float:
        """Largest relative residual from the scaled residuals ``g`` (to first order in g).

        Equal to :meth:`ConstraintSet.relative_error` up to a factor 1 + O(g), and it
        needs no second evaluation of the constraints.
        """
        return float(np.max(np.abs(g) * self.inv_row_scale)) if g.size else 0.0

    def roundoff(self, p: np.ndarray) -> float:
        r"""Smallest relative residual worth iterating for at ``p``.

        :math:`\text{ROUNDOFF\_FACTOR}\cdot\epsilon\cdot\max(|p|_\infty, L)/\ell_{min}`:
        a few ulps of the largest coordinate over the shortest rod or fixed-angle arm
        (:meth:`~linkage_widget.constraints.ConstraintSet.shortest_length`; an ulp moves an
        arm of length :math:`\ell` by ulp / :math:`\ell` radians: with an arm 3e-4 long at
        coordinates of 50, a floor from the rods alone, 7e-15, was four orders of magnitude
        below what float64 can reach there, SHAKE could not reach it, and a dynamic step was
        split ``MAX_SUBSTEP_DEPTH`` deep and then taken unconverged). It follows the
        coordinates: a linkage falling for minutes under gravity ends up far from the
        origin, where a floor measured at the start is below what float64 can reach.
        """
        cs = self.constraints
        big = max(float(np.max(np.abs(p))) if p.size else 0.0, cs.length_scale)
        return ROUNDOFF_FACTOR * float(np.finfo(float).eps) * big / cs.shortest_length(p)

    # -------------------------------------------------------------- factors
    def factor(
        self, p: np.ndarray, weights: np.ndarray | None = None, layout: Layout | None = None
    ) -> ConstrainedFactor:
        """A new factorisation at ``p`` for ``weights`` of ``layout`` (default: the mass metric)."""
        if weights is None or layout is None:
            weights, layout = self.metric.weights, self.metric.layout
        return self.factoriser.factor(p, weights, layout, self.metric.norm)

    def mass_factor(self, p: np.ndarray) -> ConstrainedFactor:
        """The mass-metric factorisation at ``p``, remembered while ``p`` and the metric stay."""
        fac = self.memo.factor(p, self.metric)
        if fac is None:
            fac = self.factor(p)
            self.memo.remember_factor(p, self.metric, fac)
        return fac
