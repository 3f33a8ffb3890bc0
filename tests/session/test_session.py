"""LinkageSession without a browser: a script loads, gestures, keys, steps, undoes and exports.

Only public methods: ``press``/``drag``/``release``/``wheel``/``key`` for input,
``advance`` for frames, and the traits. No widget library is needed (the first test
proves it in a fresh interpreter).
"""

import asyncio
import json
import subprocess
import sys

import numpy as np
import pytest

from linkage_widget import Linkage
from linkage_widget.elements import Spring
from linkage_widget.session import LinkageSession


def px(s, v):
    return tuple(float(c) for c in s.view.to_pixel(s.linkage.vertices[v]))


def rod_mid(s, r):
    mid = s.linkage.vertices[s.linkage.rods[r]].mean(axis=0)
    return tuple(float(c) for c in s.view.to_pixel(mid))


def click(s, x, y, button=0, **mods):
    s.press(x, y, button, **mods)
    s.release(x, y)


def drag(s, start, end, moves=10, frames=3, **mods):
    s.press(*start, **mods)
    for t in np.linspace(0, 1, moves + 1)[1:]:
        s.drag(*((1 - t) * np.asarray(start) + t * np.asarray(end)))
        s.advance(frames)
    s.release(*end)


@pytest.fixture
def peau():
    return LinkageSession.load("peaucellier.txt")


SCRIPT = """
import sys
from itertools import count
from linkage_widget.session import LinkageSession
ticks = count()  # a fake clock, 1 ms a reading: the frames' step budget is not the machine's load
s = LinkageSession.load("peaucellier.txt", clock=lambda: next(ticks) * 1e-3)
y0 = float(s.linkage.vertices[5, 1])
x, y = s.view.to_pixel(s.linkage.vertices[5])
s.press(x, y)
for k in range(1, 9):
    s.drag(x, y - 5 * k)
    s.advance(2)
s.release()
moved = s.linkage.vertices[5, 1] - y0
s.key("t")
s.key("z", ctrl=True)
s.key("z", ctrl=True)
s.to_png(sys.argv[1] + "/a.png")
svg = s.to_svg()
print(round(float(moved), 3), s.linkage.vertices[5, 1] - y0, s.running, svg[:4],
      sorted(m for m in sys.modules if m.split(".")[0] in ("ipywidgets", "ipycanvas", "ipyevents")))
"""


def test_a_script_runs_without_widget_libraries(tmp_path):
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout.split()
    moved, back, running, svg, modules = float(out[0]), float(out[1]), out[2], out[3], out[4]
    assert moved > 20.0 and back == 0.0 and running == "False"
    assert svg.startswith("<") and modules == "[]"
    assert (tmp_path / "a.png").read_bytes()[:4] == b"\x89PNG"


def test_clicks_keys_and_undo(peau):
    before = peau.linkage.copy()
    click(peau, *px(peau, 2))
    assert peau.selected_vertex == 2
    peau.key("f")
    assert peau.linkage.is_pinned(2)
    click(peau, *rod_mid(peau, 6))  # rod 4-5
    peau.key("z")
    assert peau.linkage.n_vertices == 7 and peau.selected_vertex == 6
    peau.key("Delete")
    assert peau.linkage.n_vertices == 6
    click(peau, 20.0, 20.0)  # empty space: a vertex
    assert peau.linkage.n_vertices == 7 and peau.selected_vertex == 6
    click(peau, *px(peau, 0), alt=True)  # alt-click: rod to the selected vertex
    assert peau.linkage.find_rod(6, 0) is not None
    while peau.undo():
        pass
    assert peau.linkage == before and not peau.history.can_undo


def test_keys_without_a_selection_explain(peau):
    peau.key("f")
    assert "select a vertex" in peau.error
    peau.key("d")
    assert peau.scene().hint == "select a vertex or rod to delete"


def test_drag_pulls_the_mechanism_and_is_one_undo_step(peau):
    before = peau.linkage.copy()
    lengths = peau.linkage.rod_lengths()
    start = px(peau, 5)
    drag(peau, start, (start[0], start[1] - 40))
    assert peau.linkage.vertices[5, 1] > before.vertices[5, 1] + 10
    assert np.allclose(peau.linkage.rod_lengths(), lengths, rtol=1e-9)
    assert not peau.running and peau.status in ("moved", "reached target")
    assert peau.undo() and peau.linkage == before


def test_shift_drag_edits_and_pan_and_wheel_move_the_view(peau):
    start = px(peau, 5)
    drag(peau, start, (start[0] + 30, start[1]), shift=True)
    assert peau.linkage.vertices[5, 0] > 128.0 + 5
    view = peau.view
    drag(peau, (10.0, 10.0), (50.0, 30.0), frames=0)
    assert peau.view.offset_x == pytest.approx(view.offset_x + 40)
    peau.wheel(200.0, 100.0, -100.0)
    assert peau.view.scale > view.scale


def test_attractor_by_right_click_runs_until_reached(peau):
    click(peau, *px(peau, 5))
    x, y = px(peau, 5)
    click(peau, x, y - 20.0, button=2)
    assert peau.attractor is not None and peau.running
    for _ in range(400):
        peau.advance()
        if not peau.running:
            break
    assert not peau.running and peau.status == "reached target"
    assert np.allclose(peau.view.to_pixel(peau.linkage.vertices[5]), [x, y - 20.0], atol=1e-6)


def test_delete_vertex_renumbers_springs_tracked_and_selection(peau):
    peau.add_spring(4, 5, stiffness=2.0)
    peau.add_spring(1, 3)
    peau.tracked = (5, 3)
    peau.selected_vertex = 3
    peau.key("d")
    assert peau.linkage.n_vertices == 5 and peau.selected_vertex is None
    assert peau.tracked == (4,)
    assert [(s.i, s.j) for s in peau.springs] == [(3, 4)]
    assert isinstance(peau.springs[0], Spring) and peau.springs[0].stiffness == 2.0
    assert peau.undo() and peau.tracked == (5, 3) and len(peau.springs) == 2


def test_files_through_the_file_name(peau, tmp_path):
    peau.file_name = str(tmp_path / "mine.txt")
    peau.tracked = (5,)
    peau.key("s")
    assert json.loads((tmp_path / "mine.txt.json").read_text())["tracked"] == [5]
    peau.key("c")
    assert peau.linkage.n_vertices == 0
    peau.key("l")
    assert peau.linkage == Linkage.load("peaucellier.txt") and peau.tracked == (5,)
    peau.key("p")
    assert (tmp_path / "exports" / "mine.png").exists()


def test_load_bytes_as_an_upload(peau):
    assert peau.load_bytes({"two.txt": b"v\n0 0\n10 0\ne\n0 1\n"})
    assert peau.linkage.n_rods == 1
    assert not peau.load_bytes({"bad.txt": b"v\n0 0\ne\n0 5\n"})
    assert "bad.txt" in peau.error and peau.linkage.n_rods == 1
    assert not peau.load_bytes({"x.json": b"{}"})
    assert "upload a linkage text file" in peau.error
    assert peau.undo() and peau.linkage.n_vertices == 6


def test_recording_a_gif_with_a_fake_clock(peau, tmp_path):
    t = [0.0]
    peau.recorder.clock = lambda: t[0]
    peau.file_name = str(tmp_path / "rec.txt")
    peau.key("r")
    click(peau, *px(peau, 5))
    peau.attractor = (128.0, 300.0)
    for _ in range(5):
        t[0] += 0.1
        peau.advance()
    peau.key("r")
    assert not peau.recording and len(peau.recorder.frames) >= 5
    assert (tmp_path / "exports" / "rec.gif").read_bytes()[:3] == b"GIF"


def test_dynamic_mode_and_step_sizes_per_mode(peau):
    peau.step_size = 2.0
    peau.mode = "dynamic"
    assert peau.step_size == pytest.approx(1 / 60)
    peau.gravity = 100.0
    peau.key(" ")
    assert peau.running
    y = peau.linkage.vertices[5, 1]
    peau.advance(20)
    assert peau.linkage.vertices[5, 1] < y
    peau.key("Escape")
    assert not peau.running
    peau.mode = "kinematic"
    assert peau.step_size == 2.0


class CountingSession(LinkageSession):
    """A view in miniature: counts what the session asks of its hooks."""

    def __init__(self, *args, **kwargs):
        self.calls = {"show": 0, "controls": 0, "offer": []}
        super().__init__(*args, **kwargs)

    def _show(self, scene):
        self.calls["show"] += 1

    def _controls_changed(self):
        self.calls["controls"] += 1

    def _offer_file(self, path, mime):
        self.calls["offer"].append(mime)


def test_hooks_are_called_by_the_session(tmp_path):
    s = CountingSession(Linkage.load("peaucellier.txt"))
    click(s, *px(s, 5))
    s.attractor = (128.0, 400.0)
    shown = s.calls["show"]
    s.advance(4)
    assert s.calls["show"] == shown + 4  # one draw per frame that moved
    s.save(tmp_path / "a.txt")
    assert s.calls["offer"] == ["text/plain"] and s.calls["controls"] > 0


def test_big_linkages_are_analysed_in_a_thread():
    n = 40
    grid = [(float(i % 10) * 10, float(i // 10) * 10) for i in range(2 * n)]
    rods = [(i, i + 1) for i in range(2 * n - 1) if (i + 1) % 10]
    link = Linkage(grid, rods=rods)

    async def main():
        s = LinkageSession(link, show_info=True)  # over 60 vertices: not analysed at once
        first = info(s)
        for _ in range(500):
            if info(s) != first:
                break
            await asyncio.sleep(0.01)
        return s, first

    s, first = asyncio.run(main())
    assert first == ["analysing ..."]
    assert info(s)[0].startswith("DOF") and s.analysis.dof > 0


def info(s):
    return s.readout()  # the readout is HTML beside the canvas now (issue 15)
