"""Stateful property test: motors and loads through random edits, motions, undo, redo, files.

A hypothesis ``RuleBasedStateMachine`` drives a headless :class:`LinkageSession` on the
bundled four-bar and Hoekens linkages: it adds motors on random rods and loads on random
joints (refused ones must change nothing), deletes vertices and rods, runs the motors in
either mode, undoes and redoes, and saves and reloads. After every rule every motor turns
a rod that exists, every load sits on a joint that exists (one per joint), the picture and
the readout build, and undo followed by redo returns exactly to the same document.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from linkage_widget import Linkage
from linkage_widget.session import LinkageSession

sys.path.insert(0, str(Path(__file__).parents[1]))  # tests/: conftest and shared helpers
from conftest import in_ci  # noqa: E402

forces = st.tuples(st.floats(-5, 5, allow_nan=False), st.floats(-5, 5, allow_nan=False)).filter(
    lambda f: f != (0.0, 0.0)
)


class DrivesMachine(RuleBasedStateMachine):
    @initialize(name=st.sampled_from(["four_bar.txt", "hoeken.txt"]))
    def start(self, name):
        self.s = LinkageSession(Linkage.load(name))
        self.dir = Path(tempfile.mkdtemp())

    def teardown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def unchanged_after(self, call):
        before = self.s.document.snapshot()
        try:
            call()
        except (ValueError, IndexError):
            assert self.s.document.snapshot() == before  # refused: nothing changed

    @precondition(lambda self: self.s.linkage.n_rods > 0)
    @rule(data=st.data(), speed=st.floats(-3, 3, allow_nan=False), flip=st.booleans())
    def add_motor(self, data, speed, flip):
        r = data.draw(st.integers(0, self.s.linkage.n_rods - 1))
        a, b = (int(v) for v in self.s.linkage.rods[r])
        self.unchanged_after(lambda: self.s.add_motor(*((b, a) if flip else (a, b)), speed))

    @rule(v=st.integers(-1, 6), force=forces)
    def add_load(self, v, force):
        self.unchanged_after(lambda: self.s.add_load(v, force))

    @rule(v=st.integers(0, 6))
    def remove_load(self, v):
        self.unchanged_after(lambda: self.s.remove_load(v))

    @precondition(lambda self: self.s.linkage.n_vertices > 2)
    @rule(data=st.data())
    def delete_vertex(self, data):
        self.s.selected_vertex = data.draw(st.integers(0, self.s.linkage.n_vertices - 1))
        self.s.key("d")

    @precondition(lambda self: self.s.linkage.n_rods > 1)
    @rule(data=st.data())
    def delete_rod(self, data):
        self.s.selected_rod = data.draw(st.integers(0, self.s.linkage.n_rods - 1))
        self.s.key("d")

    @rule(mode=st.sampled_from(["kinematic", "dynamic"]), frames=st.integers(1, 6))
    def run_motors(self, mode, frames):
        self.s.mode = mode
        self.s.key("o")
        self.s.advance(frames)
        assert np.all(np.isfinite(self.s.linkage.vertices))

    @rule()
    def reverse(self):
        self.s.key("n")

    @rule()
    def undo_redo(self):
        self.s.running = False  # the motion so far becomes one undo step
        now = self.s.document.snapshot()
        if self.s.undo():
            assert self.s.redo()
            assert self.s.document.snapshot() == now

    @rule()
    def undo(self):
        self.s.undo()

    @rule()
    def save_and_load(self):
        path = self.s.save(self.dir / "l.txt")
        t = LinkageSession.load(path)
        assert t.motors == self.s.motors and t.loads == self.s.loads
        assert t.springs == self.s.springs

    @invariant()
    def drives_point_at_what_exists(self):
        link = self.s.linkage
        pairs = {frozenset(map(int, r)) for r in link.rods}
        for m in self.s.motors:
            assert frozenset((m.pivot, m.tip)) in pairs
        loads = self.s.document.drives.loads
        assert len({x.vertex for x in loads}) == len(loads)
        assert all(0 <= x.vertex < link.n_vertices for x in loads)

    @invariant()
    def picture_and_readout_build(self):
        scene = self.s.scene()
        assert len(scene.by_role("loads")) == (1 if self.s.loads else 0)
        assert all(isinstance(line, str) for line in self.s.drive_lines())
        if self.s.loads and not self.s.running:
            assert np.all(np.isfinite(self.s.statics.rod_forces))


TestDrives = DrivesMachine.TestCase
TestDrives.settings = settings(
    max_examples=60,
    stateful_step_count=20,
    deadline=None,
    derandomize=in_ci(),
    suppress_health_check=[HealthCheck.too_slow],
)
