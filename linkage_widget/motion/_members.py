r"""Cables and struts in motion: which one-sided rows hold at a step (an active set).

A cable's row :math:`g \le 0` and a strut's :math:`g \ge 0`
(:mod:`linkage_widget.constraints.members`) are unilateral: at each step a member either
*holds* (its row is an equality of the step, in RATTLE's position and velocity stages and
in the kinematic step's drive and projection) or is *slack* (its row is let go). As
friction's stick and slip, the choice is made from the multipliers, here the member's
force: the tension :math:`T = \lambda |p_i - p_j| / L`
(:mod:`~linkage_widget.motion._reactions`) of a holding member must have its side's sign,
:math:`s\,T \ge 0` (a cable only pulls, :math:`T \ge 0`; a strut only pushes,
:math:`T \le 0`: the sign of a proper stress, :mod:`linkage_widget.rod_kinds`).

One step (:meth:`Members.step`), deterministic and bounded:

1. *Release.* Every cable and strut that is not taut (beyond ``CONTACT_TOL`` of its
   limit), or that is leaving its limit at the step's start (dynamic: its length rate
   carries it more than ``CONTACT_TOL`` inside within the step), is slack. The taut ones
   hold; their forces are computed at the state with them holding (dynamic: the exact
   acceleration-level multipliers :math:`M\ddot p = F - A^T\lambda`,
   :math:`A\ddot p = -g''[\dot p,\dot p]`; kinematic: the drive's multipliers), and the
   one with the most wrong sign (beyond ``RELEASE_TOL``) is let go, again until none is
   wrong: at most one solve per taut member. Ties go to the lower member index. The
   members slack at the end of the last step start slack (a warm start: while the set
   stays, one solve per step; a cable-braced grid of 8 x 8 squares had 64 to let go).
2. *Reach.* The step is taken with these rows. A slack member it carries beyond its
   limit by more than ``REACH_TOL`` then holds, and the step's end point is projected
   onto the rows that now hold (dynamic with drives: the step is taken again);
   rows are only added here, so at most one retake per cable and strut.

The impact (dynamic). A slack cable that becomes taut inside a step is held from the
free step's end point: the positions are projected onto the rows that now hold (along
their directions there, in the mass metric) and the velocity is projected in the
kinetic-energy norm onto :math:`A\dot p = 0`: the ends' separating velocity is removed
by the least impulse, an orthogonal projection, so the kinetic energy cannot rise: a
**perfectly inelastic** impact (restitution 0), as a slack rope jerked taut. A guard
keeps the step's energy from rising beyond round-off (the projection's lift against
gravity is paid from the kinetic energy). With drives (motors, pushes) the step is
taken again from its start with the rows held.
Without impacts (members that stay taut or stay slack) the step is RATTLE's with the rows that
hold, and the energy is kept as well as for rods; while every member holds it is
RATTLE's step on the bar framework, bit for bit.

What waits one step: a member released at a step's start holds again only when a
later step carries it beyond its limit, and a holding member whose force turns to the
wrong sign inside a step is let go at the next one (an error of the step's order).
With motors in kinematic mode every member starts slack and the reach stage holds
those the motors carry beyond their limit (landing on the motors' rows too).
``Simulator.set_velocity`` keeps a taut cable from lengthening (:meth:`Members.velocity`)
except with drives or force elements (motors, actuators, loads, friction), where it
projects onto every row after the edit, the members' as equalities, as before.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np

from .._checks import row_norms
from ..constraints.members import overreach
from ._setup import Setup, State
from .tolerances import CONTACT_TOL, REACH_TOL, RELEASE_TOL

__all__ = ["Members"]

#: A step with the given setup (the rows that hold), from the step's start.
Take = Callable[[Setup], State]
#: The members' tensions ``(m,)`` at the step's start with the given rows holding, and the
#: size of the applied forces (below ``RELEASE_TOL`` of it a force's sign is round-off).
Tensions = Callable[[Setup], tuple[np.ndarray, float]]
#: The step taken again with more rows holding: ``(setup, the step as it was)``.
Retake = Callable[[Setup, State], State]

#: Setups kept per set of slack members (a pendulum needs two; a tensegrity a few).
_KEPT_SETUPS = 16


class Members:
    """The cables and struts of one simulator: their sides and the setups per slack set."""

    def __init__(self, sides: np.ndarray) -> None:
        self.sides = np.asarray(sides, dtype=np.int8)
        self.unilateral = self.sides != 0
        self._setups: dict[bytes, Setup] = {}
        self._last = np.zeros(len(self.sides), dtype=bool)  # slack at the end of the last step

    @classmethod
    def of(cls, setup: Setup) -> Members | None:
        """The members of ``setup``'s constraints; ``None`` when every member is a rod."""
        sides = setup.constraints.sides
        return cls(sides) if sides.any() else None

    def setup(self, base: Setup, slack: np.ndarray) -> Setup:
        """``base`` with the rows of ``slack`` (bool ``(m,)``) let go (``base`` when none)."""
        if not slack.any():
            return base
        key = slack.tobytes()
        kept = self._setups.pop(key, None)  # put back last: the least recently used first
        if kept is None:
            if len(self._setups) >= _KEPT_SETUPS:
                del self._setups[next(iter(self._setups))]
            kept = base.with_slack(slack)
        elif kept.metric is not base.metric:  # the mass parameters changed
            kept = dataclasses.replace(kept, metric=base.metric)
        self._setups[key] = kept
        return kept

    def overreach(self, base: Setup, p: np.ndarray) -> np.ndarray:
        """How far each member is beyond its limit (relative; positive: too far), ``(m,)``."""
        cs = base.constraints
        return overreach(p.reshape(-1, cs.dim), cs.rods, cs.lengths, self.sides)

    def tensions(self, base: Setup, p: np.ndarray, lam: np.ndarray) -> np.ndarray:
        r"""Tensions :math:`T = \lambda |p_i - p_j| / L` from the rod rows' multipliers."""
        cs = base.constraints
        pts = p.reshape(-1, cs.dim)
        m = len(cs.rods)
        return lam[:m] * row_norms(pts[cs.rods[:, 0]] - pts[cs.rods[:, 1]]) / cs.lengths

    def step(
        self, base: Setup, s: State, h: float, take: Take, tensions: Tensions, retake: Retake
    ) -> State:
        """One step from ``s`` with the members that hold (module docstring: release, reach).

        ``h``: the time step (dynamic; the length rate test), ``0`` in kinematic mode.
        """
        slack = self.released(base, s.p, s.v, h, tensions)
        new = take(self.setup(base, slack))
        for _ in range(int(np.count_nonzero(self.unilateral))):
            over = slack & (self.overreach(base, new.p) > REACH_TOL)
            if not over.any():
                break
            slack = slack & ~over
            new = retake(self.setup(base, slack), new)
        self._last = slack
        return new

    def released(
        self, base: Setup, p: np.ndarray, v: np.ndarray, h: float, tensions: Tensions
    ) -> np.ndarray:
        """The members slack at the start of a step, bool ``(m,)`` (step 1 of the module)."""
        # the last step's slack members start slack (a warm start): one solve per step
        # while the set stays; one that should hold again is caught by the reach stage
        slack = self._last | (self.unilateral & (self.overreach(base, p) < -CONTACT_TOL))
        if h > 0.0:  # leaving the limit within the step: let go
            slack |= self.unilateral & (self._rates(base, p, v) * h < -CONTACT_TOL)
        for _ in range(int(np.count_nonzero(self.unilateral & ~slack))):
            tension, scale = tensions(self.setup(base, slack))
            wider = self._let_go(slack, tension, scale)
            if wider is None:
                break
            slack = wider
        return slack

    def velocity(self, base: Setup, p: np.ndarray, v: np.ndarray) -> np.ndarray:
        r"""The allowed velocity nearest ``v`` in the kinetic-energy norm, shape ``(dn,)``.

        :math:`\min \tfrac12 (u - v)^T M (u - v)` over :math:`A u = 0` for rods and
        :math:`s\,\dot\ell \le 0` for taut cables and struts (a cable may not lengthen),
        with impulses :math:`M(u - v) = -A^T\mu` (a taut member's of its side's sign): a
        primal-dual active set. A holding member whose impulse has the wrong sign is let
        go; once none has, a let-go taut member that ``u`` carries beyond its limit holds
        again (the most violated first); the loop ends when both hold (the KKT point).
        """
        taut = self.unilateral & ~(self.overreach(base, p) < -CONTACT_TOL)
        slack = self.unilateral & ~taut
        mv = base.metric.matrix @ v
        scale, speed = float(np.max(np.abs(mv))), max(float(np.max(np.abs(v))), 1e-300)
        lengths = base.constraints.lengths
        for _ in range(4 * (int(np.count_nonzero(taut)) + 1)):
            u, mu = self.setup(base, slack).mass_factor(p).solve(mv)
            wider = self._let_go(slack, self.tensions(base, p, mu), scale)
            if wider is not None:
                slack = wider
                continue
            rate = np.where(taut & slack, self._rates(base, p, u) * lengths, -np.inf)
            if not np.max(rate, initial=-np.inf) > RELEASE_TOL * speed:
                break
            slack = slack.copy()
            slack[int(np.argmax(rate))] = False  # lengthening: it holds again
        return u

    def _let_go(self, slack: np.ndarray, tension: np.ndarray, scale: float) -> np.ndarray | None:
        """``slack`` and the holding member whose force is most wrong (a new mask; ``None``: none).

        Never edits ``slack``: a mask is the key of a kept setup.
        """
        signed = self.sides * tension
        floor = RELEASE_TOL * max(float(np.max(np.abs(signed))), scale, 1e-300)
        wrong = self.unilateral & ~slack & (signed < -floor)
        if not wrong.any():
            return None
        wider = slack.copy()
        wider[int(np.argmin(np.where(wrong, signed, np.inf)))] = True
        return wider

    def _rates(self, base: Setup, p: np.ndarray, v: np.ndarray) -> np.ndarray:
        r"""Each member's relative rate of going beyond its limit, :math:`s\,\dot\ell/L`."""
        cs = base.constraints
        pts, vel = p.reshape(-1, cs.dim), v.reshape(-1, cs.dim)
        i, j = cs.rods[:, 0], cs.rods[:, 1]
        d = pts[i] - pts[j]
        length = row_norms(d)
        rate = np.divide(
            np.sum(d * (vel[i] - vel[j]), axis=1), length, out=np.zeros(len(d)), where=length > 0
        )
        return self.sides * rate / cs.lengths
