"""Stateful property tests: random sessions never raise, dangle, turn NaN or drift.

Two hypothesis ``RuleBasedStateMachine`` s, this file holding the first (and the
checks both use), ``tests/widget/test_stateful_widget.py`` the second:

* :class:`ModelMachine` edits a :class:`Linkage` (add/remove vertex, rod, angle, pin,
  split, free moves), moves it with a :class:`Simulator` rebuilt after each edit the
  way the widget does (kinematic attractor steps, dynamic steps, slider-range
  parameters), undoes and redoes through :class:`History` snapshots and saves/loads
  through files.
* :class:`WidgetMachine` drives a :class:`LinkageWidget` only through synthetic
  frontend events (canvas and ipyevents messages, keys, buttons, sliders, uploads),
  as ``tests/widget/test_widget.py`` does, and runs frames with ``advance``.

After every rule: the model validates (no dangling index), every coordinate is
finite, UI state points at things that exist, and the simulator's constraint error
is at its tolerance: the round-off floor for an exact linkage (motion/tolerances.py:
PROJECTION_TOL, or CONDITIONED_ROUNDOFF x ROUNDOFF_FACTOR ulps of the largest
coordinate over the shortest rod or fixed-angle arm), relaxed to :data:`SINGULAR_TOL` at singular
placements (see ``tests/motion/test_robustness_numerics.py``: a step at a self-stressed
placement may keep a residual along the self-stress, a dynamic one up to DATA_TOL).
Exceptions that ipywidgets' callback dispatcher would only log count as failures.

Under CI the runs are derandomised (the same examples every time); locally each run
explores new ones.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from linkage_widget import Linkage, LinkageFormatError
from linkage_widget.motion import (
    CONDITIONED_ROUNDOFF,
    DATA_TOL,
    PROJECTION_TOL,
    ROUNDOFF_FACTOR,
    Simulator,
)
from linkage_widget.rigidity import analyze
from linkage_widget.session.history import History
from linkage_widget.session.motion_driver import STEP_SLIDER

sys.path.insert(0, str(Path(__file__).parents[1]))  # tests/: conftest and shared helpers
from conftest import CORPUS_DIR as CORPUS  # noqa: E402  (tests/io/corpus)
from conftest import in_ci, planar_corpus_names  # noqa: E402

EPS = float(np.finfo(float).eps)
#: At a singular placement a step may leave a residual along a self-stress (kinematic:
#: 1.5e-10 for a unit collinear chain); a RATTLE step that cannot converge there may leave
#: up to DATA_TOL, the largest residual (motion/tolerances.py) a step may leave (a chain stretched
#: straight between pins sits near 1e-6). A strain of 1e-6 is far below a pixel.
SINGULAR_TOL = DATA_TOL
#: Relative singular value below which a placement counts as (nearly) singular. Near a
#: flat polygon (a split rod's chain folded along a rod, sagged by gravity: 2e-4) RATTLE's
#: smallest sub-steps may not converge, and the simulator then accepts up to DATA_TOL.
NEAR_SINGULAR = 1e-3

# Coordinates: snapped values make coincident and collinear joints common; the others
# have the resolution of a pointer at any sane zoom (1e-6), so rods are either zero
# (refused) or at least 1e-6 long in a drawing 100 wide. (A rod 1e-100 long among
# coordinates of 100 is refused by nothing but overflows the motion: see the report.)
SNAPPED = st.sampled_from([-40.0, -10.0, 0.0, 10.0, 20.0, 40.0])
FREE = st.floats(-60.0, 60.0, allow_nan=False, allow_infinity=False).map(lambda v: round(v, 6))
COORD = st.one_of(SNAPPED, FREE)
POINT = st.tuples(COORD, COORD)

worst = {"model": 0.0, "widget": 0.0}  # largest constraint errors seen, for the report


def tolerance(sim: Simulator, singular: bool) -> float:
    """The constraint error allowed at the simulator's current placement."""
    cs = sim.constraints
    big = max(float(np.abs(sim.positions).max(initial=0.0)), cs.length_scale)
    short = cs.shortest_length(sim.positions)  # the shortest rod or fixed-angle arm
    floor = max(PROJECTION_TOL, CONDITIONED_ROUNDOFF * ROUNDOFF_FACTOR * EPS * big / short)
    return max(floor, SINGULAR_TOL) if singular else floor


def is_singular(linkage: Linkage) -> bool:
    """A special placement, or nearly one: a singular value the motion treats as a flex.

    The rank is lower than a generic placement's, or one of the generic rank's singular
    values is below NEAR_SINGULAR of the largest (motion/simulator.py treats singular values below
    sqrt(REGULARIZATION) ~ 3e-7, normalised, as motions, and its dynamic sub-steps may
    fail to converge well before that).
    """
    if linkage.n_vertices == 0:
        return False
    r = analyze(linkage)
    k = r.generic_rank
    sv = r.singular_values
    return r.rank < k or (k > 0 and sv[k - 1] < NEAR_SINGULAR * sv[0])


def check_constraint_error(sim: Simulator, singular_at_start: bool, who: str) -> None:
    """The error is at the round-off floor, or at SINGULAR_TOL for a singular placement."""
    assert np.all(np.isfinite(sim.positions))
    err = sim.constraint_error()
    worst[who] = max(worst[who], err)
    if err <= tolerance(sim, singular=False):
        return
    singular = singular_at_start or is_singular(sim.linkage)
    assert singular and err <= tolerance(sim, singular=True), (err, singular, sim.linkage)


def check_linkage(link: Linkage) -> None:
    link.validate()  # every index in range, no zero-length or repeated rod ...
    assert np.all(np.isfinite(link.vertices))
    assert link.vertices.dtype == np.float64 and link.rods.dtype == np.int64


# ======================================================================= model
class ModelMachine(RuleBasedStateMachine):
    """Edits, motion, undo/redo and files on the model and the simulator."""

    def __init__(self) -> None:
        super().__init__()
        self.link = Linkage()
        self.history: History[Linkage] = History(limit=50)
        self.sim: Simulator | None = None
        self.singular = False
        self.folder = Path(tempfile.mkdtemp(prefix="linkage-stateful-"))

    def teardown(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)

    # ------------------------------------------------------------- helpers
    def edit(self, change, *allowed: str) -> None:
        """Apply an undoable edit; a ValueError must be one of ``allowed`` and change nothing."""
        before = self.link.copy()
        try:
            change()
        except ValueError as exc:
            assert any(a in str(exc) for a in allowed), f"unexpected refusal: {exc}"
            assert self.link == before
            return
        if self.link != before:
            self.history.record(before)
            self.sim = None  # the widget rebuilds its simulator after an edit

    def simulator(self, **params) -> Simulator:
        if self.sim is None:
            self.sim = Simulator(self.link)
            self.singular = is_singular(self.link)
        for name, value in params.items():
            setattr(self.sim, name, value)
        return self.sim

    def index(self, data, n: int) -> int:
        return data.draw(st.integers(0, n - 1))

    # --------------------------------------------------------------- edits
    @initialize(start=st.sampled_from(["empty", "peaucellier.txt", "watt.txt", "four_bar.txt"]))
    def start(self, start: str) -> None:
        if start != "empty":
            self.link = Linkage.load(start)

    @rule(xy=POINT)
    def add_vertex(self, xy) -> None:
        self.edit(lambda: self.link.add_vertex(xy))

    @precondition(lambda self: self.link.n_vertices > 0)
    @rule(data=st.data())
    def remove_vertex(self, data) -> None:
        i = self.index(data, self.link.n_vertices)
        self.edit(lambda: self.link.remove_vertex(i))

    @precondition(lambda self: self.link.n_vertices > 0)
    @rule(data=st.data())
    def toggle_pin(self, data) -> None:
        i = self.index(data, self.link.n_vertices)
        self.edit(lambda: self.link.toggle_pin(i))

    @precondition(lambda self: self.link.n_vertices > 1)
    @rule(data=st.data())
    def add_rod(self, data) -> None:
        n = self.link.n_vertices
        i, j = self.index(data, n), self.index(data, n)
        self.edit(lambda: self.link.add_rod(i, j), "distinct", "exists already", "coincide")

    @precondition(lambda self: self.link.n_rods > 0)
    @rule(data=st.data())
    def remove_rod(self, data) -> None:
        r = self.index(data, self.link.n_rods)
        self.edit(lambda: self.link.remove_rod(r))

    @precondition(lambda self: self.link.n_rods > 0)
    @rule(data=st.data())
    def split_rod(self, data) -> None:
        r = self.index(data, self.link.n_rods)
        self.edit(lambda: self.link.split_rod(r))

    @precondition(lambda self: self.link.n_rods > 1)
    @rule(data=st.data())
    def fix_angle(self, data) -> None:
        rods = self.link.rods
        apex = int(rods[self.index(data, len(rods))][0])
        arms = self.link.neighbors(apex)
        if len(arms) < 2:
            return
        j, k = (int(arms[self.index(data, len(arms))]) for _ in range(2))
        self.edit(lambda: self.link.add_angle(apex, j, k), "distinct", "fixed already")

    @precondition(lambda self: self.link.n_angles > 0)
    @rule(data=st.data())
    def free_angle(self, data) -> None:
        a = self.index(data, self.link.n_angles)
        self.edit(lambda: self.link.remove_angle(a))

    @precondition(lambda self: self.link.n_vertices > 0)
    @rule(data=st.data(), xy=POINT)
    def move_freely(self, data, xy) -> None:  # shift-drag: an edit, lengths change
        i = self.index(data, self.link.n_vertices)
        self.edit(lambda: self.link.move_vertex(i, xy), "zero-length rod", "has no direction")

    @precondition(lambda self: self.link.n_vertices > 8)  # not so often that nothing grows
    @rule()
    def clear(self) -> None:
        self.edit(self.link.clear)

    @rule()
    def undo(self) -> None:
        back = self.history.undo(self.link.copy())
        if back is not None:
            self.link.replace_with(back)
            self.sim = None

    @rule()
    def redo(self) -> None:
        again = self.history.redo(self.link.copy())
        if again is not None:
            self.link.replace_with(again)
            self.sim = None

    # -------------------------------------------------------------- motion
    @precondition(lambda self: self.link.n_vertices > 0)
    @rule(
        data=st.data(),
        goal=POINT,
        steps=st.integers(1, 25),
        step_size=st.sampled_from(STEP_SLIDER["kinematic"][:2] + (1.0, 5.0)),
        alpha=st.sampled_from([0.0, 0.5, 1.0]),
    )
    def attract_and_step(self, data, goal, steps, step_size, alpha) -> None:
        s = self.index(data, self.link.n_vertices)
        sim = self.simulator(mode="kinematic", step_size=step_size, mass_distribution=alpha)
        sim.attract(s, goal)
        sim.step(steps)
        assert sim.status in ("moved", "reached target", "blocked", "singular")
        self.link.set_positions(sim.positions)  # as the widget does after a frame

    @precondition(lambda self: self.link.n_vertices > 0)
    @rule(
        steps=st.integers(1, 10),
        dt=st.sampled_from(STEP_SLIDER["dynamic"][:2] + (1 / 60,)),
        gravity=st.sampled_from([0.0, 100.0, 1000.0]),
        alpha=st.sampled_from([0.0, 1.0]),
        attract=st.booleans(),
    )
    def dynamic_steps(self, steps, dt, gravity, alpha, attract) -> None:
        sim = self.simulator(mode="dynamic", step_size=dt, gravity=gravity, mass_distribution=alpha)
        if not attract:
            sim.release()
        sim.step(steps)
        assert np.all(np.isfinite(sim.velocities))
        self.link.set_positions(sim.positions)

    # --------------------------------------------------------------- files
    @precondition(lambda self: self.link.n_vertices > 0)
    @rule()
    def save_and_load(self) -> None:
        path = self.folder / "model.txt"
        self.link.save(path)
        again = Linkage.load(path)
        assert again == self.link  # exact round trip, bit for bit

    @rule(name=st.sampled_from(planar_corpus_names()))
    def load_corpus_file(self, name) -> None:
        try:
            loaded = Linkage.load(CORPUS / name)
        except LinkageFormatError as exc:
            assert exc.source.endswith(name)
            return
        self.edit(lambda: self.link.replace_with(loaded))

    # ---------------------------------------------------------- invariants
    @invariant()
    def model_is_valid(self) -> None:
        check_linkage(self.link)

    @invariant()
    def motion_keeps_the_constraints(self) -> None:
        if self.sim is not None:
            check_constraint_error(self.sim, self.singular, "model")


TestModel = ModelMachine.TestCase
TestModel.settings = settings(
    max_examples=100,
    stateful_step_count=50,
    deadline=None,
    derandomize=in_ci(),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


class _Draws:
    """Stands in for ``st.data()``: hands out the recorded draws in order."""

    def __init__(self, *values: int) -> None:
        self.values = list(values)

    def draw(self, strategy) -> int:
        return self.values.pop(0)


def test_a_short_angle_arm_keeps_the_round_off_floor():
    """A case the machine found: a fixed angle whose arm (no rod) is 2.7e-4 long at
    coordinates of 50 after watt.txt is cut down and dragged. An ulp turns that arm by
    2.6e-11 rad; with a floor from the rods alone (7e-15) SHAKE could not converge, the
    dynamic steps were split MAX_SUBSTEP_DEPTH deep and taken unconverged, and the test's
    floor (1e-12) saw 4.5e-12 on a non-singular placement. Both floors now count the arms.
    """
    m = ModelMachine()
    try:
        m.start("watt.txt")
        m.load_corpus_file("zero_length_rod.txt")  # refused: nothing changes
        m.split_rod(_Draws(3))
        m.redo()
        m.remove_rod(_Draws(1))
        m.remove_rod(_Draws(3))
        m.attract_and_step(_Draws(3), (-60.0, 48.867899), steps=11, step_size=20.0, alpha=0.0)
        m.attract_and_step(_Draws(2), (10.0, 0.0), steps=17, step_size=20.0, alpha=1.0)
        m.fix_angle(_Draws(0))
        m.fix_angle(_Draws(2, 1, 0))
        m.dynamic_steps(steps=1, dt=0.001, gravity=0.0, alpha=0.0, attract=False)
        m.redo()
        m.redo()
        m.dynamic_steps(steps=3, dt=0.001, gravity=100.0, alpha=0.0, attract=False)
        m.split_rod(_Draws(2))
        m.split_rod(_Draws(3))
        m.attract_and_step(_Draws(0), (-40.0, -40.0), steps=3, step_size=0.05, alpha=0.0)
        m.redo()
        m.attract_and_step(_Draws(0), (-40.0, -40.0), steps=19, step_size=0.05, alpha=0.0)
        m.remove_rod(_Draws(0))
        m.move_freely(_Draws(0), (-40.0, -40.0))
        m.redo()
        m.redo()
        m.attract_and_step(_Draws(5), (-40.0, 40.0), steps=22, step_size=0.05, alpha=0.0)
        m.motion_keeps_the_constraints()
        assert m.link.n_angles == 2 and m.link.n_rods == 4
        for _ in range(10):
            m.dynamic_steps(steps=1, dt=0.05, gravity=1000.0, alpha=0.0, attract=False)
            m.model_is_valid()
            m.motion_keeps_the_constraints()
    finally:
        m.teardown()
