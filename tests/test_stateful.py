"""Stateful property tests: random sessions never raise, dangle, turn NaN or drift.

Two hypothesis ``RuleBasedStateMachine`` s:

* :class:`ModelMachine` edits a :class:`Linkage` (add/remove vertex, rod, angle, pin,
  split, free moves), moves it with a :class:`Simulator` rebuilt after each edit the
  way the widget does (kinematic attractor steps, dynamic steps, slider-range
  parameters), undoes and redoes through :class:`History` snapshots and saves/loads
  through files.
* :class:`WidgetMachine` drives a :class:`LinkageWidget` only through synthetic
  frontend events (canvas and ipyevents messages, keys, buttons, sliders, uploads),
  as ``tests/test_widget.py`` does, and runs frames with ``advance``.

After every rule: the model validates (no dangling index), every coordinate is
finite, UI state points at things that exist, and the simulator's constraint error
is at its tolerance: the round-off floor for an exact linkage (motion.py:
PROJECTION_TOL, or CONDITIONED_ROUNDOFF x ROUNDOFF_FACTOR ulps of the largest
coordinate over the shortest rod), relaxed to :data:`SINGULAR_TOL` at singular
placements (see ``tests/test_robustness_numerics.py``: a step at a self-stressed
placement may keep a residual along the self-stress, a dynamic one up to DATA_TOL).
Exceptions that ipywidgets' callback dispatcher would only log count as failures.

Under CI the runs are derandomised (the same examples every time); locally each run
explores new ones.
"""

from __future__ import annotations

import logging
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
from linkage_widget.motion.simulator import (
    CONDITIONED_ROUNDOFF,
    DATA_TOL,
    PROJECTION_TOL,
    ROUNDOFF_FACTOR,
    Simulator,
)
from linkage_widget.rigidity import analyze
from linkage_widget.session.history import History
from linkage_widget.widget.widget import STEP_SLIDER, TOOLS, LinkageWidget

sys.path.insert(0, str(Path(__file__).parent))
from conftest import CORPUS_DIR as CORPUS  # noqa: E402  (tests/io/corpus)
from conftest import in_ci  # noqa: E402
from test_widget import canvas_msg, dom_msg, key, upload, uploaded  # noqa: E402

EPS = float(np.finfo(float).eps)
#: At a singular placement a step may leave a residual along a self-stress (kinematic:
#: 1.5e-10 for a unit collinear chain); a RATTLE step that cannot converge there may leave
#: up to DATA_TOL, motion.py's largest residual a step may leave (a chain stretched
#: straight between pins sits near 1e-6). A strain of 1e-6 is far below a pixel.
SINGULAR_TOL = DATA_TOL
#: Relative singular value below which a placement counts as (nearly) singular. Near a
#: flat polygon (a split rod's chain folded along a rod, sagged by gravity: 2e-4) RATTLE's
#: smallest sub-steps may not converge, and motion.py then accepts up to DATA_TOL.
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
    short = float(cs.lengths.min()) if len(cs.lengths) else cs.length_scale
    floor = max(PROJECTION_TOL, CONDITIONED_ROUNDOFF * ROUNDOFF_FACTOR * EPS * big / short)
    return max(floor, SINGULAR_TOL) if singular else floor


def is_singular(linkage: Linkage) -> bool:
    """A special placement, or nearly one: a singular value the motion treats as a flex.

    The rank is lower than a generic placement's, or one of the generic rank's singular
    values is below NEAR_SINGULAR of the largest (motion.py treats singular values below
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
        self.edit(lambda: self.link.move_vertex(i, xy), "zero-length rod")

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
        assert sim.status in ("moved", "reached target", "blocked")
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

    @rule(name=st.sampled_from(sorted(p.name for p in CORPUS.glob("*.txt"))))
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


# ====================================================================== widget
class _CallbackErrors(logging.Handler):
    """ipywidgets' CallbackDispatcher logs exceptions of callbacks instead of raising them."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if "Exception in callback" in record.getMessage() or record.exc_info:
            self.records.append(record)


W, H = 640, 480
PIXEL = st.tuples(st.floats(0.0, W - 1.0), st.floats(0.0, H - 1.0))
KEYS = ["f", "t", "d", "z", "c", "v", "i", " ", "Escape", "Home", "s", "l"]


class WidgetMachine(RuleBasedStateMachine):
    """A student at the widget: clicks, drags, keys, sliders, files; frames in between."""

    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp(prefix="linkage-stateful-widget-"))
        self.errors = _CallbackErrors()
        for name in ("", "traitlets"):
            logging.getLogger(name).addHandler(self.errors)
        self.w = LinkageWidget()

    def teardown(self) -> None:
        try:
            self.walk_history()
        finally:
            for name in ("", "traitlets"):
                logging.getLogger(name).removeHandler(self.errors)
            shutil.rmtree(self.folder, ignore_errors=True)

    def walk_history(self) -> None:
        """Undo to the start, redo back: every state valid, the final one restored exactly.

        Then redo what was undone before the end: those states must be valid too.
        """
        w = self.w
        w.running = False
        final = w.linkage.copy()
        undone = 0
        while w.undo():
            check_linkage(w.linkage)
            undone += 1
        for _ in range(undone):
            assert w.redo()
            check_linkage(w.linkage)
        assert w.linkage == final
        while w.redo():
            check_linkage(w.linkage)
        self.no_callback_errors()

    # ------------------------------------------------------------- helpers
    def vertex_px(self, data) -> tuple[float, float]:
        n = self.w.linkage.n_vertices
        v = data.draw(st.integers(0, n - 1))
        x, y = self.w.view.to_pixel(self.w.linkage.vertices[v])
        return float(x), float(y)

    def rod_px(self, data) -> tuple[float, float]:
        link = self.w.linkage
        r = data.draw(st.integers(0, link.n_rods - 1))
        x, y = self.w.view.to_pixel(link.vertices[link.rods[r]].mean(axis=0))
        return float(x), float(y)

    def press(self, x, y, button=0, **mods) -> None:
        canvas_msg(self.w, "mouse_move", x=x, y=y)
        canvas_msg(self.w, "mouse_down", x=x, y=y)
        dom_msg(self.w, "mousedown", x, y, button=button, **mods)

    def release(self, x, y, button=0) -> None:
        canvas_msg(self.w, "mouse_up", x=x, y=y)
        dom_msg(self.w, "mouseup", x, y, button=button)

    def click(self, x, y, button=0, **mods) -> None:
        self.press(x, y, button, **mods)
        self.release(x, y, button)

    # ------------------------------------------------------------ starting
    @initialize(start=st.sampled_from(["empty", "peaucellier.txt", "chebyshev.txt", "watt.txt"]))
    def start(self, start: str) -> None:
        if start != "empty":
            assert self.w.load_file(start)
        self.w._file_box.value = str(self.folder / "saved.txt")

    # --------------------------------------------------------------- mouse
    @rule(xy=PIXEL)
    def click_anywhere(self, xy) -> None:
        self.click(*xy)

    @precondition(lambda self: self.w.linkage.n_vertices > 0)
    @rule(data=st.data(), how=st.sampled_from([{}, {"altKey": True}, {"button": 1}]))
    def click_vertex(self, data, how) -> None:
        self.click(*self.vertex_px(data), **how)

    @precondition(lambda self: self.w.linkage.n_rods > 0)
    @rule(data=st.data(), how=st.sampled_from([{}, {"altKey": True}]))
    def click_rod(self, data, how) -> None:
        self.click(*self.rod_px(data), **how)

    @rule(xy=PIXEL, how=st.sampled_from([{"button": 2}, {"ctrlKey": True}]))
    def right_click(self, xy, how) -> None:
        self.click(*xy, **how)

    @precondition(lambda self: self.w.linkage.n_vertices > 0)
    @rule(
        data=st.data(),
        end=PIXEL,
        moves=st.integers(1, 6),
        frames=st.integers(0, 3),
        shift=st.booleans(),
    )
    def drag_vertex(self, data, end, moves, frames, shift) -> None:
        start = self.vertex_px(data)
        mods = {"shiftKey": True} if shift else {}
        self.press(*start, **mods)
        for t in np.linspace(0.0, 1.0, moves + 1)[1:]:
            x, y = (1 - t) * np.asarray(start) + t * np.asarray(end)
            canvas_msg(self.w, "mouse_move", x=float(x), y=float(y))
            self.w.advance(frames)
        self.release(*end)

    @rule(a=PIXEL, b=PIXEL)
    def drag_anywhere(self, a, b) -> None:  # pans on empty space
        self.press(*a)
        canvas_msg(self.w, "mouse_move", x=b[0], y=b[1])
        self.release(*b)

    @rule(xy=PIXEL, delta=st.sampled_from([-500.0, -100.0, 100.0, 500.0, 1e6]))
    def wheel(self, xy, delta) -> None:
        canvas_msg(self.w, "mouse_move", x=xy[0], y=xy[1])
        dom_msg(self.w, "wheel", *xy, deltaY=delta)

    @rule(touches=st.lists(PIXEL, min_size=1, max_size=3))
    def touch_drag(self, touches) -> None:
        msgs = [{"x": x, "y": y} for x, y in touches]
        canvas_msg(self.w, "touch_start", touches=msgs[:1])
        canvas_msg(self.w, "touch_move", touches=msgs)
        canvas_msg(self.w, "touch_end", touches=[])

    # ----------------------------------------------------------------- keys
    @rule(k=st.sampled_from(KEYS))
    def press_key(self, k) -> None:
        key(self.w, k)

    @rule(redo=st.booleans())
    def undo_redo_keys(self, redo) -> None:
        if redo:
            key(self.w, "Z", ctrlKey=True, shiftKey=True)
        else:
            key(self.w, "z", ctrlKey=True)

    # ------------------------------------------------------ toolbar, sliders
    @rule(tool=st.sampled_from(TOOLS))
    def choose_tool(self, tool) -> None:
        self.w._tool_buttons.value = tool

    @rule(where=st.floats(0.0, 1.0))
    def step_slider(self, where) -> None:
        s = self.w._step_slider
        s.value = s.min + where * (s.max - s.min)

    @rule(alpha=st.floats(0.0, 1.0), gravity=st.sampled_from([0.0, 10.0, 1000.0]))
    def mass_and_gravity_sliders(self, alpha, gravity) -> None:
        self.w._mass_slider.value = alpha
        self.w._gravity_slider.value = gravity

    @rule(mode=st.sampled_from(["kinematic", "dynamic"]))
    def mode_buttons(self, mode) -> None:
        self.w._mode_buttons.value = mode

    @rule(frames=st.integers(1, 12))
    def frames(self, frames) -> None:
        self.w.advance(frames)

    # ---------------------------------------------------------------- files
    @rule(name=st.sampled_from(sorted(p.name for p in CORPUS.glob("*.txt"))), up=st.booleans())
    def load_corpus_file(self, name, up) -> None:
        before = self.w.linkage.copy()
        if up:
            data = (CORPUS / name).read_bytes()
            upload(self.w, {**uploaded(name, ""), "content": memoryview(data), "size": len(data)})
        else:
            self.w._file_box.value = str(CORPUS / name)
            key(self.w, "l")
            self.w._file_box.value = str(self.folder / "saved.txt")
        if self.w.error:
            assert self.w.linkage == before and name in self.w.error

    @precondition(lambda self: self.w.linkage.n_vertices > 0)
    @rule()
    def save_then_load_back(self) -> None:
        w = self.w
        w._file_box.value = str(self.folder / "saved.txt")
        key(w, "s")
        assert w.error == "", w.error
        saved = w.linkage.copy()
        key(w, "l")
        assert w.linkage == saved

    # ----------------------------------------------------------- invariants
    def no_callback_errors(self) -> None:
        if self.errors.records:
            record = self.errors.records[0]
            raise AssertionError(f"a callback raised: {record.getMessage()}") from (
                record.exc_info[1] if record.exc_info else None
            )

    @invariant()
    def nothing_raised_in_callbacks(self) -> None:
        self.no_callback_errors()

    @invariant()
    def model_and_ui_state_are_valid(self) -> None:
        w = self.w
        link = w.linkage
        check_linkage(link)
        n, m = link.n_vertices, link.n_rods
        assert w.selected_vertex is None or 0 <= w.selected_vertex < n
        assert w.selected_rod is None or 0 <= w.selected_rod < m
        assert all(0 <= v < n for v in w.tracked) and len(set(w.tracked)) == len(w.tracked)
        assert all(0 <= s.i < n and 0 <= s.j < n for s in w.springs)
        assert w.attractor is None or np.all(np.isfinite(w.attractor))
        assert np.isfinite(w.view.scale) and w.view.scale > 0
        # the catch-alls around motion and analysis report bugs, not user mistakes
        assert not w.error.startswith(("motion stopped", "analysis failed")), w.error

    @invariant()
    def motion_keeps_the_constraints(self) -> None:
        w = self.w
        if w._sim is None or w.linkage.n_vertices == 0:
            return
        sim = w.simulator  # the running simulator while the model is unchanged
        assert np.array_equal(sim.positions, w.linkage.vertices)
        check_constraint_error(sim, False, "widget")


TestWidget = WidgetMachine.TestCase
TestWidget.settings = settings(
    max_examples=60,
    stateful_step_count=40,
    deadline=None,
    derandomize=in_ci(),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
