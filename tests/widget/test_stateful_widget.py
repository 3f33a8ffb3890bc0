"""Stateful property tests of the widget: random sessions never raise, dangle, turn NaN or drift.

:class:`WidgetMachine` drives a :class:`LinkageWidget` only through synthetic frontend
events (canvas and ipyevents messages, keys, buttons, sliders, uploads), as
``tests/widget/test_widget.py`` does, and runs frames with ``advance``. The checks
after every rule, and their tolerances, are those of the model machine in
``tests/session/test_stateful_model.py`` (see its docstring). Exceptions that
ipywidgets' callback dispatcher would only log count as failures.
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

from linkage_widget.session.tools import TOOLS
from linkage_widget.widget import LinkageWidget

sys.path.insert(0, str(Path(__file__).parents[1]))  # tests/: conftest and shared helpers
sys.path.insert(0, str(Path(__file__).parents[1] / "session"))
from conftest import CORPUS_DIR as CORPUS  # noqa: E402  (tests/io/corpus)
from conftest import in_ci, planar_corpus_names  # noqa: E402
from test_stateful_model import check_constraint_error, check_linkage  # noqa: E402
from test_widget import canvas_msg, dom_msg, key, upload, uploaded  # noqa: E402


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
KEYS = ["f", "t", "d", "z", "c", "v", "i", " ", "Escape", "Home", "s", "l", "o", "n", "m"]


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
        x, y = self.w.joint_pixels()[0][v]  # projected when the linkage is 3-D
        return float(x), float(y)

    def rod_px(self, data) -> tuple[float, float]:
        link = self.w.linkage
        r = data.draw(st.integers(0, link.n_rods - 1))
        x, y = self.w.joint_pixels()[0][link.rods[r]].mean(axis=0)
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
        self.w.controls.file_box.value = str(self.folder / "saved.txt")

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
        self.w.controls.tools.value = tool

    @rule(where=st.floats(0.0, 1.0))
    def step_slider(self, where) -> None:
        s = self.w.controls.sliders["step_size"]
        s.value = s.min + where * (s.max - s.min)

    @rule(alpha=st.floats(0.0, 1.0), gravity=st.sampled_from([0.0, 10.0, 1000.0]))
    def mass_and_gravity_sliders(self, alpha, gravity) -> None:
        self.w.controls.sliders["mass_distribution"].value = alpha
        self.w.controls.sliders["gravity"].value = gravity

    @rule(
        button=st.sampled_from(["motors", "reverse", "csv"]),
        mu=st.sampled_from([0.0, 0.3, 2.0]),
        load=st.sampled_from([0.5, 1.0, 100.0]),
    )
    def drive_controls(self, button, mu, load) -> None:
        self.w.controls.sliders["table_friction"].value = mu
        self.w.controls.load_size.value = load
        self.w.controls.buttons[button].click()

    @rule(mode=st.sampled_from(["kinematic", "dynamic"]))
    def mode_buttons(self, mode) -> None:
        self.w.controls.modes.value = mode

    @rule(frames=st.integers(1, 12))
    def frames(self, frames) -> None:
        self.w.advance(frames)

    # ---------------------------------------------------------------- files
    @rule(name=st.sampled_from(planar_corpus_names()), up=st.booleans())
    def load_corpus_file(self, name, up) -> None:
        before = self.w.linkage.copy()
        if up:
            data = (CORPUS / name).read_bytes()
            upload(self.w, {**uploaded(name, ""), "content": memoryview(data), "size": len(data)})
        else:
            self.w.controls.file_box.value = str(CORPUS / name)
            key(self.w, "l")
            self.w.controls.file_box.value = str(self.folder / "saved.txt")
        if self.w.error:
            assert self.w.linkage == before and name in self.w.error

    @precondition(lambda self: self.w.linkage.n_vertices > 0)
    @rule()
    def save_then_load_back(self) -> None:
        w = self.w
        w.controls.file_box.value = str(self.folder / "saved.txt")
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
        rods = {frozenset(map(int, r)) for r in link.rods}
        assert all(frozenset((mo.pivot, mo.tip)) in rods for mo in w.motors)
        assert all(0 <= v < n for v in w.loads)
        assert w.attractor is None or np.all(np.isfinite(w.attractor))
        assert np.isfinite(w.view.scale) and w.view.scale > 0
        # the catch-alls around motion and analysis report bugs, not user mistakes
        assert not w.error.startswith(("motion stopped", "analysis failed")), w.error

    @invariant()
    def motion_keeps_the_constraints(self) -> None:
        w = self.w
        if w.driver.simulator is None or w.linkage.n_vertices == 0:
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
