r"""Singular placements and branches: the :class:`BranchWatch` a Simulator holds.

A watcher, built by :class:`~linkage_widget.motion.Simulator` and holding no reference
to it: it takes the state before and after a step (a :class:`~._setup.State`) and
returns the state to keep, like the steppers; only the simulator assigns it. Its own
memory is the stop it made, the last trail and the rank-drop watch.
With :attr:`~linkage_widget.motion.Simulator.stop_at_singular` on (the default),
after every step that moved the
:class:`~linkage_widget.motion._singular.SingularWatch` looks for a drop of the
rank of the constraint Jacobian (motor rows included) along the step; when it
finds one, the step is cut back to the singular placement (located by bisection,
or by golden-section search for a rank drop by two), the velocity is set to zero
and the status is ``"singular"``. The simulator stays there, step after step,
until :meth:`~linkage_widget.motion.Simulator.follow_branch` chooses how to go on.

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
:attr:`~linkage_widget.motion.Simulator.singular_placement` is the placement the branches belong to.

Branches
    :meth:`~linkage_widget.motion.Simulator.branches` returns one unit direction per
    branch *line* through the placement (the tangent cone of the constraints without the motor rows,
    :func:`linkage_widget.second_order.tangent_cone`; a cone containing a plane is
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

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from .. import _checks
from ..rigidity import tangent_cone
from ._drive_step import blocked_text, kinematic_motor_step
from ._element_set import ElementSet, RunningMotor
from ._pass_through import creep_onward, landed_on, pass_line, projected
from ._setup import Setup, State
from ._singular import Measured, SingularWatch, creep, locate, locate_dip, smallest_ratio
from .tolerances import (
    BRANCH_FLEX_RTOL,
    BRANCH_STEP,
    FOLD_RTOL,
    LOCATE_ITERATIONS,
    MAX_BRANCH_LINES,
    SAME_LINE_COS,
)

__all__ = ["BranchView", "BranchWatch", "branch_velocity", "spread_lines"]


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


class BranchView(NamedTuple):
    """What the watch reads of the simulator (values; ``elements`` builds the motor rows)."""

    base: Setup  # the constraints and the metric of the current mass parameters
    elements: ElementSet
    mode: str
    step_size: float
    attractor: tuple[int, np.ndarray] | None
    dim: int

    @property
    def motors(self) -> tuple[RunningMotor, ...]:
        return self.elements.motors

    def watch_setup(self, p: np.ndarray) -> Setup:
        """The setup the watch reads: the constraints and the motor rows (no stick rows)."""
        if not self.elements.motors:
            return self.base
        return self.elements.setup(self.base, p, None)


#: ``energy_at(state, q)``: the kinetic energy the motion would have at ``q``.
EnergyAt = Callable[[State, np.ndarray], float]


class BranchWatch:
    """Singular stops, the branches there and the way onto one (see the module).

    :meth:`after_step` returns the state to keep after a step and whether the friction
    stick state is to be made afresh (a stop); :meth:`follow` the placement and motors
    to go on from. Nothing here assigns the simulator's state.
    """

    def __init__(self) -> None:
        self.watch = SingularWatch()
        self.stop: _Stop | None = None
        self.trail: np.ndarray | None = None  # the positions before the last step that moved

    # ---------------------------------------------------------------- reads
    @property
    def enabled(self) -> bool:
        """Whether the motion stops at singular placements."""
        return self.watch.enabled

    def enable(self, value: Any) -> None:
        """Turn the watch on or off (off leaves a stop); ``value``: a bool (checked)."""
        if not isinstance(value, bool | np.bool_):
            raise TypeError(f"stop_at_singular must be True or False, got {value!r}")
        value = bool(value)
        self.watch.enabled = value
        self.watch.reset()
        if not value:
            self.stop = None

    def leave(self) -> None:
        """Forget the stop (the mode changed: the motion restarts from rest)."""
        self.stop = None

    def singular(self, p: np.ndarray, motors: tuple) -> bool:
        """Whether the motion stopped at ``p`` with ``motors`` (until a branch is followed)."""
        stop = self.stop
        return stop is not None and stop.p is p and stop.motors == motors

    def placement(self, p: np.ndarray, motors: tuple, dim: int) -> np.ndarray | None:
        """The singular placement the branches belong to, ``(n, dim)`` read-only, or ``None``."""
        if not self.singular(p, motors) or self.stop is None:
            return None
        view = self.stop.at.reshape(-1, dim).view()
        view.flags.writeable = False
        return view

    def branches(self, view: BranchView, p: np.ndarray, n: int) -> np.ndarray:
        """Unit directions of the branch lines at the stop, ``(k, n, dim)`` (empty elsewhere)."""
        stop = self.stop
        if stop is None or not self.singular(p, view.motors):
            return np.zeros((0, n, view.dim))
        if not stop.directions:
            stop.directions.append(self._lines_at(view, stop.at))
        return stop.directions[0].copy()

    def direction(self, view: BranchView, p: np.ndarray, k: Any, sense: Any, status: str):
        """Branch line ``k`` at the stop at ``p`` in direction ``sense`` (+1 or -1), flat.

        Raises ``ValueError`` (not at a stop, ``sense`` not ±1) or ``IndexError`` (no
        branch ``k``); ``status``: the simulator's, for the message.
        """
        if not self.singular(p, view.motors):
            raise ValueError(
                f"follow_branch: the simulator is not at a singular placement (status "
                f"{status!r}); branches exist only where the motion stopped at one"
            )
        directions = self.branches(view, p, p.size // view.dim)
        k = _checks.item_index(k, len(directions), "branch", "branches")
        if sense not in (1, -1):
            raise ValueError(f"follow_branch: sense must be +1 or -1, got {sense!r}")
        return float(sense) * directions[k].reshape(-1)

    # ---------------------------------------------------------------- steps
    def held(self, s: State, motors: tuple) -> State | None:
        """A ``"singular"`` stop holds until a branch is followed: the state to keep, or None."""
        if self.singular(s.p, motors) and self.stop is not None and self.stop.status == "singular":
            return s._replace(status="singular", reason=None)
        return None

    def after_step(
        self,
        view: BranchView,
        before: State,
        after: State,
        energy_at: EnergyAt,
        measured: Measured | None = None,
    ) -> tuple[State, bool]:
        """The state after the step ``before`` → ``after``, cut back to a singular placement.

        A ``"blocked"`` stop (a motor's fold, a pull blocked next to a singular
        placement) steps as any blocked motion does: it stays while the pull and the
        motors stay. The flag: the step stopped (the stick state is made afresh).
        ``measured``: the step's Jacobians when the small-linkage lane took it.
        """
        stop, motors = self.stop, view.motors
        if self.singular(after.p, motors) and stop is not None:  # still blocked where it stopped
            if stop.arriving is not None and stop.directions:  # a pull blocked next to it
                onward = self._creep_through(
                    view, after, stop.at, stop.arriving, stop.directions[0]
                )
                return (after if onward is None else onward), False
            return after, False
        if after.status == "blocked" and motors:
            return self._fold_stop(view, after)
        if after.status == "blocked" and view.mode == "kinematic":
            return self._creep_stop(view, after)
        if after.p is not before.p and after.status in ("moved", "reached target"):
            self.trail = before.p
            return self._watch_step(view, before, after, energy_at, measured)
        return after, False

    def follow(
        self, view: BranchView, d: np.ndarray, time: float
    ) -> tuple[np.ndarray, list[RunningMotor], float]:
        """Leave the stop along ``d``: the placement, the motors re-anchored there, the energy.

        Raises ``ValueError`` (nothing changed) when no placement is found along ``d``.
        """
        stop = self.stop
        assert stop is not None
        q = _branch_predictor(view.base, stop.at, d)
        motors = _turned_motors(view, stop.at, q, time)
        self.stop = None
        self.watch.reset()
        return q, motors, stop.energy

    # -------------------------------------------------------------- helpers
    def _watch_step(
        self,
        view: BranchView,
        before: State,
        after: State,
        energy_at: EnergyAt,
        measured: Measured | None = None,
    ) -> tuple[State, bool]:
        setup = view.watch_setup(after.p)
        if not self.watch.watches(setup):
            return after, False
        p0, t0, t1 = before.p, before.time, after.time
        crossing = self.watch.crossed(setup, p0, t0, after.p, t1, measured)
        if crossing is None:
            return after, False
        start, ts = crossing.start, crossing.t_start
        find = locate if crossing.kind == "sign" else locate_dip
        found = find(
            lambda tau: setup.at_time(ts + tau * (t1 - ts)), start, after.p, crossing.borders
        )
        self.watch.reset()
        if found is None:
            return after, False
        q, tau = found
        lines = self._lines_at(view, q)
        onward = self._goes_through(view, setup.at_time(t1), p0, start, q, lines, after)
        if onward is not None:
            return onward, False
        energy = energy_at(after, q)
        s = after._replace(p=q, v=np.zeros(q.size), time=ts + tau * (t1 - ts))
        s = self._stop_here(s, view.motors, energy)
        assert self.stop is not None
        self.stop.directions.append(lines)
        return s, True

    def _lines_at(self, view: BranchView, at: np.ndarray) -> np.ndarray:
        """The branch lines through the singular placement ``at`` (motor rows left out)."""
        setup = view.base
        cone = tangent_cone(
            setup.linkage,
            positions=at.reshape(-1, view.dim),
            constraints=setup.constraints,
            flex_rtol=BRANCH_FLEX_RTOL,
        )
        return spread_lines(np.asarray(cone.directions, dtype=np.float64))

    def _goes_through(
        self,
        view: BranchView,
        setup: Setup,
        p0: np.ndarray,
        start: np.ndarray,
        q: np.ndarray,
        lines: np.ndarray,
        after: State,
    ) -> State | None:
        """The state going on through the singular placement ``q``, or ``None`` (stop there).

        It goes on when the motion arrived (from ``start``) along the one line there that
        is not welded (``_pass_through``), and the step keeps to it; a kinematic step
        that turned onto another line is brought back onto it (``setup``: the step's
        end, motor rows included).
        """
        k = pass_line(lines, q, q - start, view.base.constraints.length_scale)
        if k is None:
            return None
        if landed_on(lines, k, q, after.p):
            return after
        if view.mode != "kinematic":
            return None  # a dynamic step's velocity belongs to where it landed: stop
        onward = _onto_line(setup, q, lines[k].reshape(-1), after.p)
        if onward is None or not landed_on(lines, k, q, onward):
            return None
        return after._replace(p=onward, v=onward - p0)

    def _stop_here(
        self, s: State, motors: tuple, energy: float, status: str = "singular", at=None
    ) -> State:
        """Stop at ``s`` (the branches are those at ``at``, default ``s.p``)."""
        if status == "singular":
            s = s._replace(reason=None)
        place = s.p if at is None else at
        self.stop = _Stop(s.p, place, energy, status, s.reason, motors, [])
        return s._replace(status=status)

    def _fold_stop(self, view: BranchView, s: State) -> tuple[State, bool]:
        """A blocked motor at a fold (the Jacobian with motor rows nearly loses rank) stops."""
        setup = view.watch_setup(s.p)
        if not self.watch.watches(setup):
            return s, False
        a = setup.constraints.jacobian(s.p).toarray()
        base = view.base.constraints.jacobian(s.p).toarray()
        motors = view.motors
        rank = np.linalg.matrix_rank(base) + len(motors)
        if smallest_ratio(a, min(rank, *a.shape)) > FOLD_RTOL:
            return s, False
        if view.mode == "kinematic":
            s = _to_fold(setup, s, view.step_size)
            s = s._replace(reason=blocked_text(motors, s.time))
        return self._stop_here(s, motors, 0.0, "blocked"), True

    def _creep_stop(self, view: BranchView, s: State) -> tuple[State, bool]:
        """A pull blocked next to a singular placement: blocked, with that placement's branches.

        The linkage stays where the pull blocked (pulled back it returns the way it came);
        the branches are those of the singular placement ``creep`` finds just beyond
        (Peaucellier's crank at its end: the flat rhombus).
        """
        trail, p = self.trail, s.p
        setup = view.base
        if trail is None or trail is p or not self.watch.watches(setup):
            return s, False
        self.trail = p  # one try per blocked placement
        v = setup.mass_factor(p).minimize(setup.metric.matrix @ (p - trail))
        size = float(np.linalg.norm(v))
        if size == 0.0:
            return s, False
        q = creep(setup, p, v / size, view.step_size)
        if q is None:
            return s, False
        lines = self._lines_at(view, q)
        onward = self._creep_through(view, s, q, v, lines)
        if onward is not None:
            return onward, False
        s = self._stop_here(s, view.motors, 0.0, "blocked", at=q)
        assert self.stop is not None
        self.stop = self.stop._replace(directions=[lines], arriving=v)
        return s, True

    def _creep_through(
        self, view: BranchView, s: State, q: np.ndarray, arriving: np.ndarray, lines: np.ndarray
    ) -> State | None:
        """A pull blocked just before a singular placement ``q`` it passes through: go on.

        The steps stall next to ``q`` (their linearisation mixes the branch lines), but
        where the motion arrived (``arriving``: the way it crept) along the one line that
        is not welded (``_pass_through``) it goes on along it past ``q``: by the step
        size, halved until the pulled joint ends nearer its target than it is here (a
        target at ``q`` itself is not passed back and forth; a later pull, tried again).
        """
        setup = view.base
        k = pass_line(lines, q, arriving, setup.constraints.length_scale)
        if k is None or view.attractor is None:
            return None
        d = lines[k].reshape(-1)
        p = s.p
        onward = creep_onward(
            setup,
            p,
            q,
            d if d @ arriving >= 0.0 else -d,
            view.attractor,
            view.step_size,
            lambda x: landed_on(lines, k, q, x),
        )
        if onward is None:
            return None
        self.trail, self.stop = p, None
        self.watch.reset()  # its borders were made before the placement
        return s._replace(p=onward, v=onward - p, status="moved")


def _onto_line(setup: Setup, q: np.ndarray, d: np.ndarray, p: np.ndarray) -> np.ndarray | None:
    """The step's end ``p`` moved onto the line ``q + s d`` as far along it, projected."""
    s = float(d @ (p - q))
    if abs(s) <= BRANCH_FLEX_RTOL * setup.constraints.length_scale:
        return None  # the step ended at the placement: which way is not known yet
    return projected(setup, q, q + s * d)


def _to_fold(setup: Setup, s: State, step_size: float) -> State:
    """Turn the motors as far as they go within the blocked step (bisection on time)."""
    lo, hi, p, t = 0.0, step_size, s.p, s.time
    for _ in range(LOCATE_ITERATIONS):
        mid = 0.5 * (lo + hi)
        q = kinematic_motor_step(setup, p, t, mid)
        if q is None:
            hi = mid
        else:
            lo, s = mid, s._replace(p=q, time=t + mid)
    return s


def _branch_predictor(setup: Setup, at: np.ndarray, d: np.ndarray) -> np.ndarray:
    """``at + delta d`` projected onto the constraints without motor rows."""
    q = projected(setup, at, at + BRANCH_STEP * setup.constraints.length_scale * d)
    if q is None:
        raise ValueError("follow_branch: the branch could not be followed (no placement)")
    return q


def _turned_motors(
    view: BranchView, at: np.ndarray, q: np.ndarray, time: float
) -> list[RunningMotor]:
    """Each motor re-anchored at ``q`` (now), turning the way the branch turned it from ``at``."""
    act = view.elements
    if not act.motors:
        return list(act.motors)
    now = act.setup(view.base, at, None).at_time(time)
    drives = now.constraints.drives
    before = drives.motor_angles(at.reshape(-1, view.dim))
    after = drives.motor_angles(q.reshape(-1, view.dim))
    out = []
    for i, m in enumerate(act.motors):
        turn = float(after[i] - before[i])
        speed = abs(m.speed) if turn >= 0.0 else -abs(m.speed)
        out.append(m.turning(speed, float(after[i]) - speed * time))
    return out


def branch_velocity(setup: Setup, p: np.ndarray, d: np.ndarray, energy: float) -> np.ndarray:
    r"""The allowed velocity along ``d`` at ``p`` with kinetic energy ``energy``."""
    metric = setup.metric
    v = setup.mass_factor(p).minimize(metric.matrix @ d)
    t = 0.5 * float(v @ (metric.matrix @ v))
    if t <= 0.0 or energy <= 0.0:
        return np.zeros_like(v)
    return v * np.sqrt(energy / t)
