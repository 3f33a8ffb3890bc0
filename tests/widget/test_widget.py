"""LinkageWidget without a browser: synthetic frontend events, assertions on model and scene.

Events go in as the frontend sends them, through ``feed_canvas_event`` (an ipycanvas
message, dispatched by the canvas) and ``feed_dom_event`` (an ipyevents message,
dispatched by the widget's ``dom_events``); controls are reached by name through
``widget.controls``. Without a running event loop the widget does not
animate by itself; ``widget.advance(frames)`` runs the frames the asyncio task would run.
"""

import json

import numpy as np
import pytest
from traitlets import TraitError

from linkage_widget import Linkage, LinkageFormatError
from linkage_widget.widget import LinkageWidget

W, H = 640, 480


class RecordingComm:
    """Stands in for a kernel comm: records every message (the ipywidgets testing idiom)."""

    kernel = "recording"
    comm_id = "recording-comm"

    def __init__(self):
        self.messages = []

    def send(self, data=None, metadata=None, buffers=None):
        self.messages.append((data, list(buffers or [])))

    def on_msg(self, callback):
        pass

    def close(self, *args, **kwargs):
        pass


# ------------------------------------------------------------------ event helpers
def canvas_msg(w, event, **kw):
    """An ipycanvas message as the browser sends it: positions in the canvas's backing-store
    pixels, CSS pixels times the pixel ratio (ipycanvas scales by width / CSS width)."""
    r = w.canvas.width / w.view.width
    if "x" in kw:
        kw["x"], kw["y"] = kw["x"] * r, kw["y"] * r
    if "touches" in kw:
        kw["touches"] = [{**t, "x": t["x"] * r, "y": t["y"] * r} for t in kw["touches"]]
    w.feed_canvas_event({"event": event, **kw})


def dom_msg(w, kind, x=0.0, y=0.0, css_scale=1.0, **kw):
    """An ipyevents message as the browser sends it: rounded CSS pixels + bounding rect."""
    content = {
        "type": kind,
        "relativeX": round(x * css_scale),
        "relativeY": round(y * css_scale),
        "boundingRectWidth": W * css_scale,
        "boundingRectHeight": H * css_scale,
        **kw,
    }
    w.feed_dom_event(content)


def press(w, x, y, button=0, canvas_first=True, **mods):
    canvas_msg(w, "mouse_move", x=x, y=y)
    if canvas_first:
        canvas_msg(w, "mouse_down", x=x, y=y)
    dom_msg(w, "mousedown", x, y, button=button, **mods)
    if not canvas_first:
        canvas_msg(w, "mouse_down", x=x, y=y)


def release(w, x, y, button=0):
    canvas_msg(w, "mouse_up", x=x, y=y)
    dom_msg(w, "mouseup", x, y, button=button)


def click(w, x, y, button=0, canvas_first=True, **mods):
    press(w, x, y, button, canvas_first, **mods)
    release(w, x, y, button)


def key(w, k, **mods):
    dom_msg(w, "keydown", key=k, **mods)


def drag(w, start, end, moves=10, frames_per_move=3, **mods):
    """Press at start, move in steps to end (running frames between moves), release."""
    press(w, *start, **mods)
    for t in np.linspace(0, 1, moves + 1)[1:]:
        x, y = (1 - t) * np.asarray(start) + t * np.asarray(end)
        canvas_msg(w, "mouse_move", x=float(x), y=float(y))
        w.advance(frames_per_move)
    release(w, *end)


def px(w, v):
    """Pixel position of vertex v."""
    return tuple(float(c) for c in w.view.to_pixel(w.linkage.vertices[v]))


def rod_mid(w, r):
    mid = w.linkage.vertices[w.linkage.rods[r]].mean(axis=0)
    return tuple(float(c) for c in w.view.to_pixel(mid))


@pytest.fixture
def peau():
    return LinkageWidget.load("peaucellier.txt")


@pytest.fixture
def empty():
    return LinkageWidget()


@pytest.fixture
def messages():
    """Record what the canvas sends; yields a function returning the messages so far."""
    from ipycanvas.canvas import _CANVAS_MANAGER

    old = _CANVAS_MANAGER.comm
    _CANVAS_MANAGER.comm = RecordingComm()
    yield lambda: _CANVAS_MANAGER.comm.messages
    _CANVAS_MANAGER.comm = old


# ------------------------------------------------------------------------ building
def test_container_parts():
    w = LinkageWidget(width=500, height=300)
    assert w.canvas in w.children
    assert "linkage-canvas" in w.canvas._dom_classes
    # a backing store at the default pixel ratio 2 (issue 15), shown at 500 CSS pixels
    assert (w.canvas.width, w.canvas.height) == (1000, 600) and w.pixel_ratio == 2.0
    assert w.canvas.layout.width == "500px"
    assert w.linkage == Linkage()
    ev = w.dom_events
    assert ev.source is w.canvas and ev.prevent_default_action
    assert {"mousedown", "mouseup", "contextmenu", "wheel", "keydown"} <= set(ev.watched_events)
    sliders = {s.description: s for s in _all_children(w) if hasattr(s, "readout_format")}
    assert {"step size", "mass distribution", "gravity"} <= set(sliders)


def _all_children(widget):
    out = []
    for child in getattr(widget, "children", ()):
        out.append(child)
        out += _all_children(child)
    return out


def test_load_fits_view_and_analyses(peau):
    P = peau.view.to_pixel(peau.linkage.vertices)
    assert P.min() >= 0 and P[:, 0].max() <= W and P[:, 1].max() <= H
    assert peau.analysis.dof == 1
    assert "1 way to move" in peau.controls.readout.value
    peau.show_info = True  # the technical lines
    assert "DOF 1" in peau.controls.readout.value
    assert peau.scene().by_role("rods")


def test_kwargs_set_traits():
    w = LinkageWidget(Linkage.load("peaucellier.txt"), step_size=2.5, tracked=(5,))
    assert w.step_size == 2.5 and w.controls.sliders["step_size"].value == 2.5
    assert w.tracked == (5,)


def test_repaints_when_a_view_connects(peau, messages):
    canvas_msg(peau, "client_ready")
    assert len(messages()) == 1


# ------------------------------------------------------------------------- clicks
@pytest.mark.parametrize("canvas_first", [True, False])
def test_click_empty_space_adds_vertex_at_world_position(empty, canvas_first):
    x, y = 123.37, 87.61
    click(empty, x, y, canvas_first=canvas_first)
    assert empty.linkage.n_vertices == 1
    expected = empty.view.to_world([x, y])
    # exact ipycanvas position whichever stream came first (the CSS estimate is rounded)
    assert np.allclose(empty.linkage.vertices[0], expected, atol=1e-9)
    assert empty.selected_vertex == 0


def test_click_with_stretched_canvas_uses_exact_position(empty):
    # CSS twice the pixel size: ipyevents rounds in CSS px, ipycanvas reports canvas px
    x, y = 200.25, 100.75
    canvas_msg(empty, "mouse_move", x=x, y=y)
    dom_msg(empty, "mousedown", x, y, css_scale=2.0, button=0)
    dom_msg(empty, "mouseup", x, y, css_scale=2.0, button=0)
    assert np.allclose(empty.view.to_pixel(empty.linkage.vertices[0]), [x, y])


def test_click_selects_and_click_again_deselects(peau):
    click(peau, *px(peau, 2))
    assert peau.selected_vertex == 2 and peau.linkage.n_vertices == 6
    click(peau, *px(peau, 2))
    assert peau.selected_vertex is None
    click(peau, *rod_mid(peau, 0))
    assert peau.selected_rod == 0 and peau.selected_vertex is None
    assert peau.scene().by_role("rod-highlight")
    click(peau, *rod_mid(peau, 0))
    assert peau.selected_rod is None


@pytest.mark.parametrize("how", [{"button": 1}, {"button": 0, "altKey": True}])
def test_middle_or_alt_click_adds_then_removes_rod(empty, how):
    click(empty, 100, 100)
    click(empty, 300, 200)
    click(empty, 100, 100)  # reselect vertex 0 ...
    click(empty, 100, 100)
    assert empty.selected_vertex is None
    click(empty, 100, 100)
    assert empty.selected_vertex == 0
    click(empty, 300, 200, **how)  # ... and link it to vertex 1
    assert empty.linkage.rods.tolist() == [[0, 1]]
    assert empty.analysis.dof == 3
    # vertex 1 is selected now (alt-clicks in turn draw a path, issue 22): alt-clicking
    # back along the rod removes it
    assert empty.selected_vertex == 1
    click(empty, 100, 100, **how)
    assert empty.linkage.n_rods == 0


def test_alt_click_adjacent_rod_fixes_and_frees_angle(peau):
    # rods 0 (0-3) and 1 (0-4) meet at vertex 0
    click(peau, *rod_mid(peau, 0))
    click(peau, *rod_mid(peau, 1), altKey=True)
    assert peau.linkage.angles.tolist() == [[0, 3, 4]]
    assert peau.analysis.internal_dof == 0
    click(peau, *rod_mid(peau, 1), altKey=True)
    assert peau.linkage.n_angles == 0


def test_angle_between_rods_that_do_not_meet_is_an_error(peau):
    before = peau.linkage.copy()
    click(peau, *rod_mid(peau, 2))  # 1-2
    click(peau, *rod_mid(peau, 0), altKey=True)  # 0-3
    assert peau.linkage == before
    assert "do not share a vertex" in peau.error


def test_keys_pin_track_delete_split_and_undo_each_exactly(peau):
    states = [peau.linkage.copy()]
    click(peau, *px(peau, 2))
    key(peau, "f")
    assert peau.linkage.is_pinned(2)
    states.append(peau.linkage.copy())
    key(peau, "t")
    assert peau.tracked == (2,)
    click(peau, *rod_mid(peau, 6))  # rod 4-5
    key(peau, "z")
    assert peau.linkage.n_vertices == 7 and peau.selected_vertex == 6
    states.append(peau.linkage.copy())
    key(peau, "d")  # delete the new midpoint vertex
    assert peau.linkage.n_vertices == 6 and peau.linkage.n_rods == 6
    key(peau, "z", ctrlKey=True)
    assert peau.linkage == states[2]
    key(peau, "z", ctrlKey=True)
    assert peau.linkage == states[1]
    key(peau, "z", ctrlKey=True)  # untrack
    assert peau.tracked == ()
    key(peau, "z", ctrlKey=True)
    assert peau.linkage == states[0]
    key(peau, "Z", ctrlKey=True, shiftKey=True)
    assert peau.linkage == states[1]


def test_clear_then_undo(peau):
    before = peau.linkage.copy()
    key(peau, "c")
    assert peau.linkage.n_vertices == 0
    assert peau.undo()
    assert peau.linkage == before
    assert peau.redo() and peau.linkage.n_vertices == 0
    assert not peau.redo()


def test_key_without_selection_explains(peau):
    key(peau, "f")
    assert "select a vertex" in peau.error
    assert peau.scene().error == peau.error


def test_undo_buttons_follow_history(empty):
    assert empty.controls.buttons["undo"].disabled and empty.controls.buttons["redo"].disabled
    click(empty, 50, 50)
    assert not empty.controls.buttons["undo"].disabled
    empty.controls.buttons["undo"].click()
    assert empty.linkage.n_vertices == 0 and not empty.controls.buttons["redo"].disabled


def test_v_cycles_view_options_and_i_toggles_info(peau):
    assert peau.show_velocities and not peau.show_stresses
    key(peau, "v")
    assert not peau.show_velocities
    key(peau, "v")
    assert peau.show_stresses
    key(peau, "v")
    assert peau.show_pebbles and not peau.show_stresses
    key(peau, "i")
    assert peau.show_info and not peau.scene().by_role("info")  # the readout is beside it


def test_arrows_show_internal_flexes_else_rigid_motions():
    w = LinkageWidget(
        Linkage([[0, 0], [100, 0], [100, 100], [0, 100]], rods=[(0, 1), (1, 2), (2, 3), (3, 0)])
    )
    assert (w.analysis.trivial_dof, w.analysis.internal_dof) == (3, 1)
    colors = set(w.scene().by_role("velocities")[0].color)
    assert len(colors) == 1  # one basis vector: the flex, not the 3 rigid motions
    rod = LinkageWidget(Linkage([[0, 0], [100, 0]], rods=[(0, 1)]))
    assert len(rod.scene().by_role("velocities")[0]) >= 4  # 3 rigid motions, 2 vertices


def test_velocity_arrows_drawn(peau):
    arrows = peau.scene().by_role("velocities")
    assert arrows and len(arrows[0]) >= 3  # the moving joints of the one flex
    peau.show_velocities = False
    assert not peau.scene().by_role("velocities")


# ---------------------------------------------------------------------- tools
def test_rod_tool_draws_a_path(empty):
    empty.tool = "rod"
    for xy in [(100, 100), (200, 100), (200, 200)]:
        click(empty, *xy)
    assert empty.linkage.n_vertices == 3
    assert empty.linkage.rods.tolist() == [[0, 1], [1, 2]]
    click(empty, 100, 100)  # close the triangle
    assert empty.linkage.n_rods == 3 and empty.analysis.internal_dof == 0


def test_pin_angle_delete_tools(peau):
    peau.tool = "pin"
    click(peau, *px(peau, 5))
    assert peau.linkage.is_pinned(5)
    peau.tool = "angle"
    click(peau, *rod_mid(peau, 0))
    click(peau, *rod_mid(peau, 1))
    assert peau.linkage.n_angles == 1
    peau.tool = "delete"
    click(peau, *rod_mid(peau, 3))
    assert peau.linkage.n_rods == 6
    click(peau, *px(peau, 5))
    assert peau.linkage.n_vertices == 5 and not peau.linkage.is_pinned(4)


def test_toolbar_buttons_are_linked(peau):
    peau.controls.tools.value = "pin"
    assert peau.tool == "pin"
    with pytest.raises(TraitError, match="tool"):
        peau.tool = "hammer"


# ------------------------------------------------------------- attractor
@pytest.mark.parametrize("how", [{"button": 2}, {"button": 0, "ctrlKey": True}])
def test_right_or_ctrl_click_places_and_removes_attractor(peau, how):
    click(peau, *px(peau, 5))
    click(peau, 300, 100, **how)
    assert np.allclose(peau.attractor, peau.view.to_world([300, 100]))
    assert peau.running
    assert peau.scene().by_role("attractor") and peau.scene().by_role("attractor-link")
    click(peau, 302, 101, **how)  # on the attractor: removes it
    assert peau.attractor is None


def test_attractor_tool(peau):
    peau.tool = "attractor"
    click(peau, 100, 100)
    assert peau.attractor is not None
    assert peau.linkage.n_vertices == 6


# ----------------------------------------------------------------- view
def test_drag_empty_space_pans(peau):
    before = peau.view
    drag(peau, (20, 20), (60, 50), frames_per_move=0)
    assert peau.linkage.n_vertices == 6  # a drag adds nothing
    assert peau.view.offset_x == pytest.approx(before.offset_x + 40)
    assert peau.view.offset_y == pytest.approx(before.offset_y + 30)


def test_wheel_zooms_about_the_pointer(peau):
    x, y = 250.0, 200.0
    world = peau.view.to_world([x, y])
    canvas_msg(peau, "mouse_move", x=x, y=y)
    dom_msg(peau, "wheel", x, y, deltaY=-100)
    assert peau.view.scale > 1.1 * peau.view.fit([[0, 0]], W, H).scale
    assert np.allclose(peau.view.to_pixel(world), [x, y])


def test_fit(peau):
    original = peau.view
    dom_msg(peau, "wheel", 10, 10, deltaY=300)
    assert peau.view != original
    peau.fit()
    assert peau.view == original


def test_touch_drag_pans(peau):
    before = peau.view
    canvas_msg(peau, "touch_start", touches=[{"x": 20.0, "y": 20.0}])
    canvas_msg(peau, "touch_move", touches=[{"x": 40.0, "y": 20.0}])
    canvas_msg(peau, "touch_end", touches=[])
    assert peau.view.offset_x == pytest.approx(before.offset_x + 20)


# ------------------------------------------------------------------- traits
@pytest.mark.parametrize(
    "name, value",
    [
        ("step_size", -1.0),
        ("step_size", float("nan")),
        ("mass_distribution", 1.5),
        ("mode", "quantum"),
        ("gravity", float("inf")),
        ("selected_vertex", 6),
        ("selected_rod", 7),
        ("tracked", (9,)),
        ("tracked", (1, 1)),
        ("attractor", (0.0, float("nan"))),
    ],
)
def test_traits_validated_with_errors_naming_the_trait(peau, name, value):
    with pytest.raises(TraitError, match=name):
        setattr(peau, name, value)


def test_traits_observable(peau):
    seen = []
    peau.observe(lambda ch: seen.append((ch["name"], ch["new"])), names=["selected_vertex"])
    click(peau, *px(peau, 3))
    assert seen == [("selected_vertex", 3)]


def test_sliders_linked_both_ways(peau):
    peau.controls.sliders["step_size"].value = 3.0
    assert peau.step_size == 3.0
    peau.mass_distribution = 0.4
    assert peau.controls.sliders["mass_distribution"].value == 0.4
    peau.step_size = 50.0  # beyond the slider's range: the range widens
    assert peau.controls.sliders["step_size"].value == 50.0 and peau.step_size == 50.0
    peau.controls.sliders["gravity"].value = 100.0
    assert peau.gravity == 100.0
    peau.controls.modes.value = "dynamic"
    assert peau.mode == "dynamic"


# ------------------------------------------------------------------- files
def test_save_and_load_round_trip_with_extensions(peau, tmp_path):
    peau.tracked = (5,)
    peau.mass_distribution = 0.25
    path = peau.save(tmp_path / "p.txt")
    assert (tmp_path / "p.txt").read_text() == peau.linkage.dumps()
    ext = json.loads((tmp_path / "p.txt.json").read_text())
    assert ext["tracked"] == [5] and ext["mass_distribution"] == 0.25
    w2 = LinkageWidget.load(path)
    assert w2.linkage == peau.linkage
    assert w2.tracked == (5,) and w2.mass_distribution == 0.25
    assert not w2.history.can_undo
    assert "download" in peau.controls.downloads.value


def test_save_without_extensions_writes_no_json(tmp_path):
    w = LinkageWidget.load("watt.txt")  # nothing the 2007 file cannot say
    w.save(tmp_path / "p.txt")
    assert not (tmp_path / "p.txt.json").exists()


def test_the_bundled_peaucellier_saves_its_joint_names(peau, tmp_path):
    peau.save(tmp_path / "p.txt")
    again = LinkageWidget.load(tmp_path / "p.txt")
    assert again.joint_names == ("O", "Q", "A", "B", "D", "C")


def test_s_and_l_keys_use_the_file_box(peau, tmp_path):
    peau.controls.file_box.value = str(tmp_path / "mine.txt")
    key(peau, "s")
    assert (tmp_path / "mine.txt").exists()
    key(peau, "c")
    key(peau, "l")
    assert peau.linkage == Linkage.load("peaucellier.txt")
    assert peau.undo() and peau.linkage.n_vertices == 0  # loading is undoable


def test_bad_file_leaves_model_untouched_and_sets_error(peau, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("v\n0 0\n1 zero\n")
    before = peau.linkage.copy()
    with pytest.raises(LinkageFormatError, match="line 3"):
        peau.load_file(bad)
    assert peau.linkage == before
    assert "line 3" in peau.error and "bad.txt" in peau.error
    assert "line 3" in peau.controls.readout.value
    with pytest.raises(FileNotFoundError):
        peau.load_file(tmp_path / "missing.txt")
    assert peau.linkage == before and "missing.txt" in peau.error
    click(peau, *px(peau, 3))
    key(peau, "f")  # the next successful edit clears the error
    assert peau.error == ""


def uploaded(name, text):
    """One file as the browser sends it to an ipywidgets 8 FileUpload."""
    data = text.encode()
    return {
        "name": name,
        "type": "text/plain",
        "size": len(data),
        "content": memoryview(data),
        "last_modified": 1_700_000_000_000,
    }


def upload(w, *files):
    w.controls.upload.set_state({"value": list(files)})  # the frontend's message, deserialised


def test_upload(peau):
    text = "v\n0 0\n10 0\ne\n0 1\n"
    upload(peau, uploaded("two.txt", text))
    assert peau.linkage.n_vertices == 2 and peau.linkage.n_rods == 1
    assert peau.controls.upload.value == ()
    bad = "v\n0 0\ne\n0 5\n"
    upload(peau, uploaded("bad.txt", bad))
    assert peau.linkage.n_vertices == 2 and "bad.txt" in peau.error
    side = '{"linkage_widget_extensions": 1, "tracked": [1]}'
    upload(peau, uploaded("two.txt", text), uploaded("two.txt.json", side))
    assert peau.tracked == (1,)


def test_hint_fits_small_canvases():
    small = LinkageWidget(Linkage.load("peaucellier.txt"), width=300, height=200)
    hint = small.scene().hint
    assert hint and len(hint) * 7.8 <= 300 - 20
    big = LinkageWidget(Linkage.load("peaucellier.txt"))
    assert len(big.scene().hint) > len(hint)


def test_svg_is_deterministic():
    assert LinkageWidget.load("peaucellier.txt").to_svg() == (
        LinkageWidget.load("peaucellier.txt").to_svg()
    )


def test_dragging_a_pinned_vertex_explains(peau):
    start = px(peau, 0)
    drag(peau, start, (start[0] + 30, start[1]))
    assert np.array_equal(peau.linkage.vertices, Linkage.load("peaucellier.txt").vertices)
    assert "pinned" in peau.scene().hint


def test_exports(peau, tmp_path):
    svg = peau.to_svg()
    assert svg.startswith("<svg") or svg.startswith("<?xml")
    assert 'class="rods"' in svg or "rods" in svg
    png = peau.to_png(tmp_path / "a.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# ------------------------------------------------------------------- motion
def test_drag_output_vertex_moves_along_its_line(peau):
    x0, y0 = peau.linkage.vertices[5]
    assert x0 == 128.0
    lengths = peau.linkage.rod_lengths()
    start = px(peau, 5)
    drag(peau, start, (start[0] + 15, start[1] - 60), moves=12, frames_per_move=4)
    x1, y1 = peau.linkage.vertices[5]
    assert x1 == pytest.approx(128.0, rel=1e-9)
    assert y1 > y0 + 10  # moved up, following the pointer
    assert np.allclose(peau.linkage.rod_lengths(), lengths, rtol=1e-9)
    assert not peau.running  # kinematic: stops on release
    assert peau.selected_vertex == 5


def test_drag_is_one_undo_step_restoring_exactly(peau):
    before = peau.linkage.copy()
    start = px(peau, 5)
    drag(peau, start, (start[0], start[1] - 40))
    assert peau.linkage != before
    assert peau.undo()
    assert peau.linkage == before


def test_attractor_pulls_until_reached_then_stops(peau):
    click(peau, *px(peau, 5))
    target = peau.linkage.vertices[5] + [0.0, 20.0]
    peau.attractor = tuple(target)
    assert peau.running
    for _ in range(400):
        peau.advance()
        if not peau.running:
            break
    assert not peau.running
    assert np.allclose(peau.linkage.vertices[5], target, atol=1e-6)


def test_space_starts_and_stops(peau):
    click(peau, *px(peau, 5))
    peau.attractor = (128.0, 300.0)
    key(peau, " ")
    assert not peau.running
    key(peau, " ")
    assert peau.running
    y = peau.linkage.vertices[5, 1]
    peau.advance(3)
    assert peau.linkage.vertices[5, 1] > y


def test_step_size_slider_changes_the_running_motion(peau):
    click(peau, *px(peau, 5))
    peau.attractor = (128.0, 400.0)
    peau.advance(2)
    sim = peau.simulator
    y = peau.linkage.vertices[5, 1]
    peau.advance(1)
    slow = peau.linkage.vertices[5, 1] - y
    peau.controls.sliders["step_size"].value = 4.0
    assert peau.simulator is sim and sim.step_size == 4.0  # same simulator, new parameter
    y = peau.linkage.vertices[5, 1]
    peau.advance(1)
    fast = peau.linkage.vertices[5, 1] - y
    assert fast > 2.0 * slow
    peau.controls.sliders["mass_distribution"].value = 0.5
    assert sim.mass_distribution == 0.5
    peau.controls.sliders["gravity"].value = 50.0
    assert sim.gravity == 50.0


def test_tracking_draws_the_path(peau):
    peau.tracked = (5,)
    start = px(peau, 5)
    drag(peau, start, (start[0], start[1] - 50))
    path = peau.scene().by_role("tracks")
    assert path
    world = peau.view.to_world(path[0].points)
    assert np.allclose(world[:, 0], 128.0, rtol=1e-9)
    assert np.ptp(world[:, 1]) > 10


def test_track_buffer_is_capped(peau):
    from linkage_widget.session.recording import TRACK_CAP, Tracks

    t = Tracks((0, 2), cap=5)
    P = np.zeros((3, 2))
    for i in range(12):
        P[:, 0] = i
        t.append(P)
    tracks = t.as_dict()
    assert tracks[2][:, 0].tolist() == [7, 8, 9, 10, 11]
    assert TRACK_CAP >= 1000


def test_shift_drag_moves_vertex_freely(peau):
    before = peau.linkage.copy()
    start = px(peau, 5)
    drag(peau, start, (start[0] + 30, start[1]), shiftKey=True)
    assert peau.linkage.vertices[5, 0] > 128.0 + 5  # left its line: an edit
    assert peau.analysis.dof == 1
    assert peau.undo() and peau.linkage == before


def test_one_canvas_message_per_frame(peau, messages):
    click(peau, *px(peau, 5))
    peau.attractor = (128.0, 400.0)
    n = len(messages())
    peau.advance(5)
    assert len(messages()) - n == 5


def test_each_mode_keeps_its_step_size(peau):
    peau.step_size = 2.0
    peau.mode = "dynamic"
    assert peau.step_size == pytest.approx(1 / 60)
    slider = peau.controls.sliders["step_size"]
    # the slider shows the nearest of its steps; the trait keeps 1/60
    assert slider.max <= 0.05 and slider.value == pytest.approx(0.017, abs=1e-12)
    peau.step_size = 0.01
    peau.mode = "kinematic"
    assert peau.step_size == 2.0 and peau.controls.sliders["step_size"].value == 2.0
    assert slider.value == 0.01  # the dynamic slider, hidden, keeps what it showed
    peau.mode = "dynamic"
    assert peau.step_size == 0.01
    w = LinkageWidget(step_size=0.005, mode="dynamic")
    assert w.step_size == 0.005


def test_dynamic_mode_falls_under_gravity(peau):
    peau.mode = "dynamic"
    peau.gravity = 100.0
    peau.running = True
    y = peau.linkage.vertices[5, 1]
    lengths = peau.linkage.rod_lengths()
    peau.advance(30)
    assert peau.running  # dynamic motion runs until stopped
    assert peau.linkage.vertices[5, 1] < y
    assert np.allclose(peau.linkage.rod_lengths(), lengths, rtol=1e-6)
    peau.running = False
    assert not peau.running


def test_springs_pull_in_dynamic_mode_and_are_saved(peau, tmp_path):
    peau.add_spring(3, 4, stiffness=50.0, rest_length=10.0, damping=1.0)
    assert peau.springs[0].rest_length == 10.0
    assert peau.scene().by_role("springs")
    d0 = np.hypot(*(peau.linkage.vertices[3] - peau.linkage.vertices[4]))
    peau.mode = "dynamic"
    peau.running = True
    peau.advance(20)
    assert np.hypot(*(peau.linkage.vertices[3] - peau.linkage.vertices[4])) < d0
    peau.running = False
    peau.save(tmp_path / "s.txt")
    assert LinkageWidget.load(tmp_path / "s.txt").springs == peau.springs
    peau.add_spring(0, 5)  # rest length: the distance now
    assert peau.springs[1].rest_length == pytest.approx(
        np.hypot(*(peau.linkage.vertices[0] - peau.linkage.vertices[5]))
    )
    assert peau.undo() and len(peau.springs) == 1


def test_gif_recording(peau, tmp_path):
    t = [0.0]
    peau.recorder.clock = lambda: t[0]
    peau.controls.file_box.value = str(tmp_path / "rec.txt")
    key(peau, "r")
    assert peau.recording
    click(peau, *px(peau, 5))
    peau.attractor = (128.0, 300.0)
    for _ in range(5):
        t[0] += 0.1
        peau.advance()
    key(peau, "r")
    assert not peau.recording
    gif = tmp_path / "exports" / "rec.gif"
    assert gif.read_bytes()[:6] in (b"GIF89a", b"GIF87a")
