r"""Singular placements and branches: the public branch methods of the Simulator.

A mixin of :class:`~linkage_widget.motion.Simulator` (kept apart so that each
module stays short). With :attr:`BranchMixin.stop_at_singular` on (the default),
after every step that moved the
:class:`~linkage_widget.motion._singular.SingularWatch` looks for a drop of the
rank of the constraint Jacobian (motor rows included) along the step; when it
finds one, the step is cut back to the singular placement (located by bisection,
or by golden-section search for a rank drop by two), the velocity is set to zero
and the status is ``"singular"``. The simulator stays there, step after step,
until :meth:`BranchMixin.follow_branch` chooses how to go on.

Unless there is no choice to make (:mod:`~linkage_widget.motion._pass_through`): the
motion arrived along a branch line and every other line there welds two joints that
meet (Peaucellier's rhombus folded flat with its output on the crank end), or the rank
drop is no bifurcation (one line). Then the step goes on along that branch (a
kinematic step that turned off it is brought back onto it), as a pull blocked just
before such a placement does (it creeps past it by up to a step).

Two blocked motions offer branches too, keeping their status ``"blocked"`` (and
the linkage where it stopped, so that pulled back it returns the way it came):
a motor at its dead point (the driven rod at its limit, the other two in line:
the Jacobian with the motor row loses rank there; the motor is turned as far as
it goes first), and a pull blocked next to a singular placement (Peaucellier's
crank at the end of its arc, the flat rhombus just beyond:
:func:`~linkage_widget.motion._singular.creep` finds it).
:attr:`BranchMixin.singular_placement` is the placement the branches belong to.

Branches
    :meth:`BranchMixin.branches` returns one unit direction per branch *line* through
    the placement (the tangent cone of the constraints without the motor rows,
    :func:`linkage_widget.rigidity.second_order.tangent_cone`; a cone containing a plane is
    offered as a few spread-out lines, :func:`spread_lines`): two lines (the
    parallelogram and the antiparallelogram) at a flat parallelogram; one line at a
    motor's fold, where the motion can only go back or on to the other assembly.
    ``follow_branch(k, sense)`` moves by a predictor step of
    :data:`~linkage_widget.motion.tolerances.BRANCH_STEP` length scales along
    ``sense * directions[k]`` from the singular placement, projects onto the
    constraints and resumes: kinematic motion goes on from there; dynamic motion gets
    back the kinetic energy it had at the stop, directed along the branch; motors
    turn the way the branch turns them (a motor that would have to turn backward is
    reversed, its speed kept).
"""

from __future__ import annotations

import dataclasses
from typing import NamedTuple

import numpy as np

from .. import _checks
from ..rigidity import tangent_cone
from ._drive_step import kinematic_motor_step
from ._drives import Actuators
from ._pass_through import creep_onward, landed_on, pass_line, projected
from ._setup import Setup
from ._singular import SingularWatch, creep, locate, locate_dip, smallest_ratio
from .tolerances import (
    BRANCH_FLEX_RTOL,
    BRANCH_STEP,
    FOLD_RTOL,
    LOCATE_ITERATIONS,
    MAX_BRANCH_LINES,
    SAME_LINE_COS,
)

__all__ = ["BranchMixin", "spread_lines"]


def spread_lines(lines: np.ndarray, limit: int = MAX_BRANCH_LINES) -> np.ndarray:
    r"""At most ``limit`` of the unit ``lines`` (k, n, 2), isolated ones first, then spread out.

    A tangent cone that contains a plane (a component of dimension two through the
    placement: Peaucellier's flat rhombus with its two joints welded) comes as many
    sampled lines; a student can pick among a few. Lines closer than
    :data:`~linkage_widget.motion.tolerances.SAME_LINE_COS` are one line. Order: by
    isolation :math:`1 - \max_{j \ne i} |\cos(d_i, d_j)|`, then farthest-point:
    each next line the one whose largest :math:`|\cos|` with those kept is smallest.
    """
    k = len(lines)
    if k <= 1:
        return lines
    flat = lines.reshape(k, -1)
    cos = np.abs(flat @ flat.T)
    np.fill_diagonal(cos, 0.0)
    isolation = 1.0 - cos.max(axis=1)
    kept = [int(np.argmax(isolation))]
    while len(kept) < min(limit, k):
        nearest = cos[:, kept].max(axis=1)
        nearest[kept] = np.inf
        i = int(np.argmin(nearest))
        if nearest[i] >= SAME_LINE_COS:
            break
        kept.append(i)
    return lines[sorted(kept, key=lambda i: -isolation[i])]


class _Stop(NamedTuple):
    """A stop at (or next to) a singular placement, and what it keeps."""

    p: np.ndarray
    at: np.ndarray  # the singular placement (p itself, or where a blocked pull creeps to)
    energy: float
    status: str  # "singular", or "blocked" for a motor at a fold
    reason: str | None  # the blocked motor's reason, said again at every step
    motors: tuple  # the motors it stopped with: a change of motors leaves the stop
    directions: list[np.ndarray]  # one slot, filled by the first branches() call
    arriving: np.ndarray | None = None  # a blocked pull's way toward ``at`` (creep)


class BranchMixin:
    """Singular stops, :meth:`branches` and :meth:`follow_branch` (see the module)."""

    # provided by the facade
    _n: int
    _dim: int
    _p: np.ndarray
    _v: np.ndarray
    _time: float
    _mode: str
    _status: str
    _step_size: float
    _actuators: Actuators
    _stop: _Stop | None
    _reason: str | None
    _watch: SingularWatch
    _trail: np.ndarray | None  # the positions before the last step that moved

    def _current_setup(self) -> Setup:  # pragma: no cover - the facade's
        raise NotImplementedError

    def _one_step(self) -> None:  # pragma: no cover - the facade's
        raise NotImplementedError

    def _after_change(self, *, project: bool) -> None:  # pragma: no cover - DriveMixin's
        raise NotImplementedError

    def _blocked_text(self, t: float) -> str:  # pragma: no cover - DriveMixin's
        raise NotImplementedError

    def kinetic_energy(self) -> float:  # pragma: no cover - the facade's
        raise NotImplementedError

    def potential_energy(self) -> float:  # pragma: no cover - the facade's
        raise NotImplementedError

    # ---------------------------------------------------------------- public
    @property
    def stop_at_singular(self) -> bool:
        """Whether the motion stops at singular placements (default ``True``).

        On, each step is watched (see the module), for
        linkages of up to
        :data:`~linkage_widget.motion.tolerances.SINGULAR_WATCH_MAX_COLUMNS` / 2 joints.
        Off, the simulator keeps to whatever branch its steps land on (as the 2007
        program did); turning it off leaves a stop.
        """
        return self._watch.enabled

    @stop_at_singular.setter
    def stop_at_singular(self, value: bool) -> None:
        if not isinstance(value, bool | np.bool_):
            raise TypeError(f"stop_at_singular must be True or False, got {value!r}")
        self._watch.enabled = bool(value)
        self._watch.reset()
        if not value:
            self._stop = None

    @property
    def singular_placement(self) -> np.ndarray | None:
        """The singular placement the :meth:`branches` belong to, ``(n, 2)``, or ``None``.

        The current positions at a ``"singular"`` stop; for a pull blocked next to a
        singular placement, that placement (a little beyond where the linkage stopped).
        """
        if not self.singular or self._stop is None:
            return None
        view = self._stop.at.reshape(-1, self._dim).view()
        view.flags.writeable = False
        return view

    @property
    def singular(self) -> bool:
        """Whether the motion stopped at a singular placement (until a branch is followed).

        Status ``"singular"``, or ``"blocked"`` for a motor at a fold (its dead point),
        where :meth:`branches` offers the way back and the way on to the other assembly.
        """
        stop = self._stop
        return (
            stop is not None and stop.p is self._p and stop.motors == tuple(self._actuators.motors)
        )

    def branches(self) -> np.ndarray:
        r"""Unit tangent directions of the branch lines through the placement, ``(k, n, 2)``.

        At a singular stop (:attr:`status` ``"singular"``): the tangent cone of the
        constraints (motor rows left out), one direction per line, each usable in
        both senses; empty ``(0, n, 2)`` anywhere else. Directions are Euclidean unit
        vectors of the stacked coordinates, orthogonal to the trivial motions.
        """
        stop = self._stop
        if stop is None or not self.singular:
            return np.zeros((0, self._n, self._dim))
        if not stop.directions:
            stop.directions.append(self._lines_at(stop.at))
        return stop.directions[0].copy()

    def follow_branch(self, k: int, sense: int = +1) -> None:
        """Leave a singular stop along branch line ``k`` in direction ``sense`` (+1 or -1).

        Raises ``ValueError`` when the simulator is not at a singular stop or
        ``sense`` is not ±1, ``IndexError`` when ``k`` is not a branch (the
        simulator unchanged). See the module for what happens in each mode.
        """
        if not self.singular:
            raise ValueError(
                f"follow_branch: the simulator is not at a singular placement (status "
                f"{self._status!r}); branches exist only where the motion stopped at one"
            )
        directions = self.branches()
        k = _checks.item_index(k, len(directions), "branch", "branches")
        if sense not in (1, -1):
            raise ValueError(f"follow_branch: sense must be +1 or -1, got {sense!r}")
        stop = self._stop
        assert stop is not None
        d = float(sense) * directions[k].reshape(-1)
        q = self._branch_predictor(stop.at, d)
        self._turn_motors(stop.at, q)
        self._p, self._stop = q, None
        self._watch.reset()
        self._v = np.zeros(self._p.size)
        if self._mode == "dynamic":
            self._v = self._branch_velocity(d, stop.energy)
        if self._actuators.motors:  # the motors' speed on their new rows
            self._after_change(project=self._mode == "dynamic")
        self._status = "moved"

    # --------------------------------------------------------------- helpers
    def _watched_step(self) -> None:
        """One step, cut back to a singular placement if it crossed one (see the module).

        A ``"singular"`` stop holds until a branch is followed; a ``"blocked"`` one (a
        motor's fold, a pull blocked next to a singular placement) steps as any blocked
        motion does: it stays while the pull and the motors stay.
        """
        if self.singular and self._stop is not None and self._stop.status == "singular":
            self._status, self._reason = "singular", None  # until a choice
            return
        p0, t0 = self._p, self._time
        self._one_step()
        stop = self._stop
        if self.singular and stop is not None:  # still blocked where it stopped
            if stop.arriving is not None and stop.directions:  # a pull blocked next to it
                self._creep_through(
                    self._current_setup(), stop.at, stop.arriving, stop.directions[0]
                )
            return
        if self._status == "blocked" and self._actuators.motors:
            self._fold_stop()
        elif self._status == "blocked" and self._mode == "kinematic":
            self._creep_stop()
        elif self._p is not p0 and self._status in ("moved", "reached target"):
            self._trail = p0
            self._watch_step(p0, t0)

    def _watch_setup(self) -> Setup:
        """The setup the watch reads: the constraints and the motor rows (no stick rows)."""
        base = self._current_setup()
        if not self._actuators.motors:
            return base
        return self._actuators.setup(base, self._p, None)

    def _watch_step(self, p0: np.ndarray, t0: float) -> None:
        setup = self._watch_setup()
        if not self._watch.watches(setup):
            return
        t1 = self._time
        crossing = self._watch.crossed(setup, p0, t0, self._p, t1)
        if crossing is None:
            return
        start, ts = crossing.start, crossing.t_start
        find = locate if crossing.kind == "sign" else locate_dip
        found = find(
            lambda tau: setup.at_time(ts + tau * (t1 - ts)), start, self._p, crossing.borders
        )
        self._watch.reset()
        if found is None:
            return
        q, tau = found
        lines = self._lines_at(q)
        if self._goes_through(setup.at_time(t1), p0, start, q, lines):
            return
        energy = self._energy_at(q)
        self._p, self._v = q, np.zeros(q.size)
        self._time = ts + tau * (t1 - ts)
        self._stop_here(energy)
        assert self._stop is not None
        self._stop.directions.append(lines)

    def _lines_at(self, at: np.ndarray) -> np.ndarray:
        """The branch lines through the singular placement ``at`` (motor rows left out)."""
        setup = self._current_setup()
        cone = tangent_cone(
            setup.linkage,
            positions=at.reshape(-1, self._dim),
            constraints=setup.constraints,
            flex_rtol=BRANCH_FLEX_RTOL,
        )
        return spread_lines(np.asarray(cone.directions, dtype=np.float64))

    def _goes_through(
        self, setup: Setup, p0: np.ndarray, start: np.ndarray, q: np.ndarray, lines: np.ndarray
    ) -> bool:
        """Whether the step goes on through the singular placement ``q`` (see ``_pass_through``).

        It does when the motion arrived (from ``start``) along the one line there that is
        not welded, and the step keeps to it; a kinematic step that turned onto another
        line is brought back onto it (``setup``: the step's end, motor rows included).
        """
        k = pass_line(lines, q, q - start, self._current_setup().constraints.length_scale)
        if k is None:
            return False
        if landed_on(lines, k, q, self._p):
            return True
        if self._mode != "kinematic":
            return False  # a dynamic step's velocity belongs to where it landed: stop
        onward = self._onto_line(setup, q, lines[k].reshape(-1))
        if onward is None or not landed_on(lines, k, q, onward):
            return False
        self._p, self._v = onward, onward - p0
        return True

    def _onto_line(self, setup: Setup, q: np.ndarray, d: np.ndarray) -> np.ndarray | None:
        """The step's end moved onto the line ``q + s d`` as far along it, projected."""
        s = float(d @ (self._p - q))
        if abs(s) <= BRANCH_FLEX_RTOL * setup.constraints.length_scale:
            return None  # the step ended at the placement: which way is not known yet
        return projected(setup, q, q + s * d)

    def _stop_here(
        self, energy: float, status: str = "singular", at: np.ndarray | None = None
    ) -> None:
        if status == "singular":
            self._reason = None
        motors = tuple(self._actuators.motors)
        place = self._p if at is None else at
        self._stop = _Stop(self._p, place, energy, status, self._reason, motors, [])
        self._status = status
        self._after_change(project=False)

    def _energy_at(self, q: np.ndarray) -> float:
        """Kinetic energy the motion would have at ``q`` (energy balance of the step)."""
        if self._mode != "dynamic":
            return 0.0
        total = self.kinetic_energy() + self.potential_energy()
        p = self._p
        self._p = q
        try:
            potential = self.potential_energy()
        finally:
            self._p = p
        return max(total - potential, 0.0)

    def _fold_stop(self) -> None:
        """A blocked motor at a fold (the Jacobian with motor rows nearly loses rank) stops."""
        setup = self._watch_setup()
        if not self._watch.watches(setup):
            return
        a = setup.constraints.jacobian(self._p).toarray()
        base = self._current_setup().constraints.jacobian(self._p).toarray()
        rank = np.linalg.matrix_rank(base) + len(self._actuators.motors)
        if smallest_ratio(a, min(rank, *a.shape)) > FOLD_RTOL:
            return
        if self._mode == "kinematic":
            self._to_fold(setup)
            self._reason = self._blocked_text(self._time)
        self._stop_here(0.0, "blocked")

    def _creep_stop(self) -> None:
        """A pull blocked next to a singular placement: blocked, with that placement's branches.

        The linkage stays where the pull blocked (pulled back it returns the way it came);
        :meth:`branches` and :meth:`follow_branch` are those of the singular placement
        ``creep`` finds just beyond (Peaucellier's crank at its end: the flat rhombus).
        """
        trail, p = self._trail, self._p
        setup = self._current_setup()
        if trail is None or trail is p or not self._watch.watches(setup):
            return
        self._trail = p  # one try per blocked placement
        v = setup.mass_factor(p).minimize(setup.metric.matrix @ (p - trail))
        size = float(np.linalg.norm(v))
        if size == 0.0:
            return
        q = creep(setup, p, v / size, self._step_size)
        if q is None:
            return
        lines = self._lines_at(q)
        if self._creep_through(setup, q, v, lines):
            return
        self._stop_here(0.0, "blocked", at=q)
        assert self._stop is not None
        self._stop = self._stop._replace(directions=[lines], arriving=v)

    def _creep_through(
        self, setup: Setup, q: np.ndarray, arriving: np.ndarray, lines: np.ndarray
    ) -> bool:
        """A pull blocked just before a singular placement ``q`` it passes through: go on.

        The steps stall next to ``q`` (their linearisation mixes the branch lines), but
        where the motion arrived (``arriving``: the way it crept) along the one line that
        is not welded (``_pass_through``) it goes on along it past ``q``: by the step
        size, halved until the pulled joint ends nearer its target than it is here (a
        target at ``q`` itself is not passed back and forth; a later pull, tried again).
        """
        k = pass_line(lines, q, arriving, setup.constraints.length_scale)
        if k is None or self._attractor is None:
            return False
        d = lines[k].reshape(-1)
        p = self._p
        onward = creep_onward(
            setup,
            p,
            q,
            d if d @ arriving >= 0.0 else -d,
            self._attractor,
            self._step_size,
            lambda x: landed_on(lines, k, q, x),
        )
        if onward is None:
            return False
        self._p, self._v, self._status = onward, onward - p, "moved"
        self._trail, self._stop = p, None
        self._watch.reset()  # its borders were made before the placement
        return True

    def _to_fold(self, setup: Setup) -> None:
        """Turn the motors as far as they go within the blocked step (bisection on time)."""
        lo, hi, p, t = 0.0, self._step_size, self._p, self._time
        for _ in range(LOCATE_ITERATIONS):
            mid = 0.5 * (lo + hi)
            q = kinematic_motor_step(setup, p, t, mid)
            if q is None:
                hi = mid
            else:
                lo, self._p, self._time = mid, q, t + mid

    def _branch_predictor(self, at: np.ndarray, d: np.ndarray) -> np.ndarray:
        """``at + delta d`` projected onto the constraints without motor rows."""
        setup = self._current_setup()
        q = projected(setup, at, at + BRANCH_STEP * setup.constraints.length_scale * d)
        if q is None:
            raise ValueError("follow_branch: the branch could not be followed (no placement)")
        return q

    def _turn_motors(self, at: np.ndarray, q: np.ndarray) -> None:
        """Re-anchor each motor at ``q`` (now), turning the way the branch turned it from ``at``."""
        act = self._actuators
        if not act.motors:
            return
        now = act.setup(self._current_setup(), at, None).at_time(self._time)
        drives = now.constraints.drives
        before = drives.motor_angles(at.reshape(-1, 2))
        after = drives.motor_angles(q.reshape(-1, 2))
        for i, m in enumerate(act.motors):
            turn = float(after[i] - before[i])
            speed = abs(m.speed) if turn >= 0.0 else -abs(m.speed)
            phase = float(after[i]) - speed * self._time
            act.motors[i] = dataclasses.replace(m, speed=speed, phase=phase)

    def _branch_velocity(self, d: np.ndarray, energy: float) -> np.ndarray:
        r"""The allowed velocity along ``d`` at the new placement with kinetic energy ``energy``."""
        setup = self._current_setup()
        metric = setup.metric
        v = setup.mass_factor(self._p).minimize(metric.matrix @ d)
        t = 0.5 * float(v @ (metric.matrix @ v))
        if t <= 0.0 or energy <= 0.0:
            return np.zeros_like(v)
        return v * np.sqrt(energy / t)
