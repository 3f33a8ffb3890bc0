r"""The kinematic step: pull one vertex toward a target along the least-kinetic-energy motion.

The pulled vertex :math:`s` is drawn toward the target :math:`t` along

.. math:: v = \arg\min_v \tfrac12 v^T M v - f^T v
          \quad\text{s.t.}\quad A(p)\, v = 0, \qquad
          f = e_s \otimes \frac{t - p_s}{|t - p_s|},

then a predictor :math:`p + h v` is projected back onto :math:`g = 0`
(:func:`~linkage_widget.motion._projection.project`). :math:`h` moves the pulled
vertex by ``step_size`` at most (not past the target, and at most
:data:`~linkage_widget.motion.tolerances.STEP_GROWTH` times the last move that
trouble limited), halved until (1) the corrector converges, (2) it moves the
predicted point by at most ``CORRECTOR_DEVIATION`` of the step, (3) the squared
distance to the target falls by at least ``DESCENT_RATIO`` of its linear
prediction, and (4) the drive direction at the new point does not reverse
(:math:`v_{new}^T M v > 0`; a reversal is a step through a dead point). When no
step of useful size passes the status is ``"blocked"`` and the positions stay.

:class:`KinematicStepper` returns ``(positions, status)`` and never touches the
simulator; its own memory is what carries from one step to the next (the trust
region, a blocked verdict, the drive direction computed at the new point).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._linalg import ConstrainedFactor
from ._projection import held_residual, project
from ._setup import Setup
from .tolerances import (
    BLOCK_FRACTION,
    CORRECTOR_DEVIATION,
    DESCENT_RATIO,
    DRIVE_TOL,
    MAX_HALVINGS,
    STEP_GROWTH,
    TARGET_TOL,
)

__all__ = ["KinematicStepper", "drive"]

#: A pull: the vertex and its target ``(x, y)`` (``(x, y, z)`` in 3-D).
Attractor = tuple[int, np.ndarray]


def _at(p: np.ndarray, s: int, d: int) -> np.ndarray:
    """The ``d`` coordinates of vertex ``s`` in flat positions ``p`` (a view)."""
    return p[d * s : d * s + d]


def _length(d: np.ndarray) -> float:
    """``|d|`` of a 2- or 3-vector (``hypot``: in 2-D exactly as before)."""
    return float(np.hypot(d[0], d[1]) if len(d) == 2 else np.hypot(np.hypot(d[0], d[1]), d[2]))


def drive(fac: ConstrainedFactor, s: int, direction: np.ndarray) -> np.ndarray:
    r"""Least-kinetic-energy velocity for a unit pull on ``s``, shape ``(dn,)``.

    :math:`v = \arg\min \tfrac12 v^T M v - f^T v` s.t. :math:`A v = 0`, with
    :math:`f = e_s \otimes` ``direction`` (2 or 3 components: the dimension).
    """
    f = np.zeros(fac.n_v)
    _at(f, s, len(direction))[:] = direction
    return fac.minimize(f)


class _Pull(NamedTuple):
    """What the halving loop of one step needs, fixed for the step."""

    setup: Setup
    p: np.ndarray
    s: int
    t: np.ndarray
    v: np.ndarray  # drive velocity at p
    vmax: float  # max |v|
    m_v: np.ndarray  # M v, for the reversal test
    dist: float  # |t - p_s|
    rate: float  # -d/dh |p_s - t| along v
    held: np.ndarray
    floor: float


class KinematicStepper:
    """Kinematic steps with a trust region; ``step`` returns ``(positions, status)``."""

    def __init__(self) -> None:
        self.trust = np.inf  # the last accepted move of the pulled vertex, if trouble limited it
        self._blocked: tuple[np.ndarray, tuple] | None = None
        self._drive: tuple[np.ndarray, tuple, np.ndarray] | None = None

    def reset_trust(self) -> None:
        """Forget the trust region (a new vertex is pulled)."""
        self.trust = np.inf

    def blocked_for(
        self, setup: Setup, p: np.ndarray, s: int, t: np.ndarray, step_size: float
    ) -> bool:
        """Whether the last blocked verdict holds: the same pull from the same ``p``."""
        blocked = self._blocked
        return (
            blocked is not None
            and blocked[0] is p
            and blocked[1] == self._key(setup, s, t, step_size)
        )

    @staticmethod
    def _key(setup: Setup, s: int, t: np.ndarray, step_size: float) -> tuple:
        """What a blocked verdict depends on besides the positions."""
        metric = setup.metric
        return (s, *t.tolist(), step_size, metric.alpha, metric.total_mass)

    def step(
        self, setup: Setup, p: np.ndarray, attractor: Attractor | None, step_size: float
    ) -> tuple[np.ndarray, str]:
        """One step from ``p``, shape ``(dn,)``: new positions (``p`` itself if none), status."""
        if attractor is None:
            return p, "idle"
        s, t = attractor
        d = t - _at(p, s, len(t))
        dist = _length(d)
        if dist <= TARGET_TOL * setup.constraints.length_scale:
            return p, "reached target"
        if setup.pinned[s] or self.blocked_for(setup, p, s, t, step_size):
            return p, "blocked"
        q, status = self._pull(setup, p, s, t, d, dist, step_size)
        if status == "blocked":
            self._blocked = (p, self._key(setup, s, t, step_size))
        return q, status

    def _pull(
        self,
        setup: Setup,
        p: np.ndarray,
        s: int,
        t: np.ndarray,
        d: np.ndarray,
        dist: float,
        step_size: float,
    ) -> tuple[np.ndarray, str]:
        """Find the largest acceptable step toward ``t`` by halving; ``(q, status)``."""
        fac = setup.mass_factor(p)
        v = self.remembered_drive(setup, p, s, t)
        if v is None:
            v = drive(fac, s, d / dist)
        vs = _at(v, s, len(t))
        speed = _length(vs)
        rate = float(vs @ d) / dist  # -d/dh of |p_s - t| along v
        # v is M^-1-sized: speed * mean mass is dimensionless (1 for a free vertex)
        if not (speed * setup.metric.norm > DRIVE_TOL and rate > 0.0):
            return p, "blocked"
        least_move = BLOCK_FRACTION * min(step_size, dist)
        h_free = min(step_size / speed, dist * rate / speed**2)  # step size, target
        h = min(h_free, STEP_GROWTH * max(self.trust, least_move) / speed)
        floor = setup.roundoff(p)
        held = held_residual(setup, p, fac, floor)
        m_v = setup.metric.matrix @ v
        pull = _Pull(setup, p, s, t, v, float(np.max(np.abs(v))), m_v, dist, rate, held, floor)
        for _ in range(MAX_HALVINGS):
            if h * speed < least_move:
                self.trust = least_move
                break
            landing = _land(pull, fac, h)
            if landing is not None:
                q, dist1, fresh = landing
                moved = _length(_at(q, s, len(t)) - _at(p, s, len(t)))
                if moved < least_move:
                    self.trust = least_move
                    break
                # remember the move only if trouble limited it (halving or the trust region)
                self.trust = np.inf if h >= h_free else h * speed
                if dist1 <= TARGET_TOL * setup.constraints.length_scale:
                    return q, "reached target"
                if self._keeps_direction(pull, q, dist1, fresh):
                    return q, "moved"
            h *= 0.5
        return p, "blocked"

    def _keeps_direction(
        self, pull: _Pull, q: np.ndarray, dist1: float, fresh: ConstrainedFactor | None
    ) -> bool:
        r"""Whether the drive at ``q`` still points along the step (no fold crossed).

        A reversal, :math:`v_{new}^T M v \le 0`, means the step went through a fold
        of the pulled vertex's path (a dead point) to its far side. When it does not
        reverse, the factorisation and drive at ``q`` are remembered for the next step.
        """
        setup, s = pull.setup, pull.s
        fac_q = fresh or setup.factor(q)
        v_q = drive(fac_q, s, (pull.t - _at(q, s, len(pull.t))) / dist1)
        if not float(v_q @ pull.m_v) > 0.0:
            return False
        setup.memo.remember_factor(q, setup.metric, fac_q)
        self._drive = (q, self._drive_key(setup, s, pull.t), v_q)
        return True

    @staticmethod
    def _drive_key(setup: Setup, s: int, t: np.ndarray) -> tuple:
        # the rows: a cable let go makes another drive (the slack mask: an id can be reused
        # once a kept setup is dropped)
        slack = setup.constraints.slack
        rows = (id(setup.factoriser), b"" if slack is None else slack.tobytes())
        return (s, *t.tolist(), setup.metric.alpha, setup.metric.total_mass, *rows)

    def remembered_drive(
        self, setup: Setup, p: np.ndarray, s: int, t: np.ndarray
    ) -> np.ndarray | None:
        """The drive at ``p`` computed by the last step's direction check, if it applies."""
        memo = self._drive
        if memo is not None and memo[0] is p and memo[1] == self._drive_key(setup, s, t):
            return memo[2]
        return None

    def remember_drive(
        self, setup: Setup, p: np.ndarray, s: int, t: np.ndarray, v: np.ndarray
    ) -> None:
        """Remember ``v`` as the drive at ``p`` toward ``t`` (the small-linkage lane's)."""
        self._drive = (p, self._drive_key(setup, s, t), v)


def _land(
    pull: _Pull, fac: ConstrainedFactor, h: float
) -> tuple[np.ndarray, float, ConstrainedFactor | None] | None:
    """Predict with step ``h`` and project; ``(q, |t - q_s|, fresh factor)`` or ``None``.

    ``None`` when the projection fails, the corrector moves the predicted point by
    more than ``CORRECTOR_DEVIATION`` of the step (it may have landed on another
    branch), or the squared distance to the target falls by less than
    ``DESCENT_RATIO`` of its linear prediction (an overshoot along the path).
    """
    p, s = pull.p, pull.s
    predicted = p + h * pull.v
    q, ok, fresh = project(pull.setup, predicted, fac, pull.held, pull.floor, allow_refactor=True)
    if not (ok and np.max(np.abs(q - predicted)) <= CORRECTOR_DEVIATION * h * pull.vmax):
        return None
    dist1 = _length(pull.t - _at(q, s, len(pull.t)))
    # the squared distance falls as predicted: no overshoot along the path
    if not 0.5 * (pull.dist**2 - dist1**2) >= DESCENT_RATIO * h * pull.dist * pull.rate:
        return None
    return q, dist1, fresh
