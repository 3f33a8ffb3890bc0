"""draw_scene on a real ipycanvas Canvas, with a recording comm instead of a kernel.

ipycanvas sends drawing commands through one global ``_CanvasManager`` widget. We replace
its comm by a recorder (the ipywidgets testing idiom) and decode what would go to the
browser: a JSON command list plus binary buffers.
"""

import dataclasses
import json

import numpy as np
import pytest
from ipycanvas import Canvas, hold_canvas
from ipycanvas.canvas import _CMD_LIST

from linkage_widget import Linkage
from linkage_widget.draw import DEFAULT_THEME, Scene, SceneState, ViewTransform, build_scene
from linkage_widget.draw import canvas as rc
from linkage_widget.draw.canvas import draw_scene, held_canvas, hex_to_rgb
from linkage_widget.draw.primitives import Disks, Rects, Segments


class RecordingComm:
    """Stands in for a kernel comm: records every message the widget sends."""

    kernel = "recording"  # truthy: ipywidgets only sends when the comm has a kernel
    comm_id = "recording-comm"

    def __init__(self):
        self.messages = []

    def send(self, data=None, metadata=None, buffers=None):
        self.messages.append((data, list(buffers or [])))

    def on_msg(self, callback):
        pass

    def close(self, *args, **kwargs):
        pass


@pytest.fixture
def canvas():
    c = Canvas(width=500, height=400)
    mgr = c._canvas_manager
    old = mgr.comm
    mgr.comm = RecordingComm()
    assert not mgr._caching
    yield c
    mgr._caching = False
    mgr._commands_cache, mgr._buffers_cache = [], []
    mgr.comm = old


def sent(canvas):
    return canvas._canvas_manager.comm.messages


def decode(message):
    """One batched message -> list of (command name, decoded args) with arrays for buffers."""
    data, buffers = message
    assert data["method"] == "custom"
    commands = json.loads(bytes(buffers[0]))
    if commands and not isinstance(commands[0], list):
        commands = [commands]  # an unbatched single command
    out, cursor = [], 1
    for cmd in commands:
        name, args = _CMD_LIST[cmd[0]], cmd[1]
        n_buf = cmd[2] if len(cmd) > 2 else 0
        own = buffers[cursor : cursor + n_buf]
        cursor += n_buf
        decoded = []
        for a in args:
            if isinstance(a, dict) and "idx" in a:
                arr = np.frombuffer(bytes(own[a["idx"]]), dtype=a["dtype"]).reshape(a["shape"])
                decoded.append(arr)
            else:
                decoded.append(a)
        out.append((name, decoded))
    assert cursor == len(buffers)
    return out


def full_state(link):
    n, m = link.n_vertices, link.n_rods
    rng = np.random.default_rng(0)
    return SceneState(
        selected_vertex=1,
        selected_rod=0,
        attractor=(50.0, 50.0),
        attracted_vertex=n - 1,
        tracked=[n - 1],
        tracks={n - 1: rng.normal(size=(20, 2)) * 10 + 100},
        velocity_basis=rng.normal(size=(2, n, 2)),
        show_stresses=True,
        rod_stress=rng.normal(size=m),
        show_pebbles=True,
        redundant_rods=np.arange(m) % 3 == 0,
        springs=[(0, n - 1)],
        info_lines=["DOF 1 (0 trivial + 1 internal)", "self-stresses 0"],
        hint="drag a vertex",
        error="an error",
        show_labels=True,
    )


#: The renderer is under test here, not the field's thinning on dense linkages (issue 15):
#: every arrow of every way to move stays.
WHOLE_FIELD = dataclasses.replace(DEFAULT_THEME, velocity_thin_above=10**9)


def scene_for(link, state=None, theme=WHOLE_FIELD):
    view = ViewTransform.fit(link.vertices, 500, 400)
    return build_scene(link, view, state or SceneState(), theme=theme)


def grid_linkage(k):
    """A k x k grid of vertices with horizontal and vertical rods (2k(k-1) rods)."""
    xy = np.array([(i, j) for i in range(k) for j in range(k)], dtype=float)
    rods = [(i * k + j, i * k + j + 1) for i in range(k) for j in range(k - 1)]
    rods += [(i * k + j, (i + 1) * k + j) for i in range(k - 1) for j in range(k)]
    angles = [(0, 1, k)]
    return Linkage(xy, rods=rods, angles=angles, pinned=[0, 1])


def test_one_batched_message_per_frame(canvas):
    link = Linkage.load("peaucellier.txt")
    scene = scene_for(link, full_state(link))
    draw_scene(canvas, scene)
    assert len(sent(canvas)) == 1
    assert not canvas._canvas_manager._caching
    names = [name for name, _ in decode(sent(canvas)[0])]
    assert names[0] == "switchCanvas" or names[0] == "clear"
    assert "clear" in names and "fillRect" in names
    draw_scene(canvas, scene)
    assert len(sent(canvas)) == 2


def test_no_state_setting_repeats_the_current_value_within_a_frame(canvas):
    # Styles are set per primitive and reset after it; a setting equal to the batch's
    # current value is left out. Every frame still sets every state it relies on first:
    # a reloaded page starts with a fresh context, whatever the kernel sent before.
    link = Linkage.load("peaucellier.txt")
    scene = scene_for(link, full_state(link))
    attr = {index: name for name, index in Canvas.ATTRS.items()}
    firsts = []
    for _ in range(2):
        draw_scene(canvas, scene)
        current, first = {}, []
        for name, args in decode(sent(canvas)[-1]):
            if name in ("set", "setLineDash"):
                key, value = (attr[args[0]], args[1]) if name == "set" else ("dash", args[0])
                assert current.get(key, object()) != value, (key, value)
                current[key] = value
                first += [key] if key not in first else []
        firsts.append(first)
    assert firsts[0] == firsts[1]
    assert {"dash", "global_alpha", "line_cap", "line_join", "fill_style"} <= set(firsts[1])


def test_rods_are_sent_as_one_vectorised_call(canvas):
    link = Linkage.load("peaucellier.txt")
    scene = scene_for(link)
    draw_scene(canvas, scene)
    commands = decode(sent(canvas)[0])
    rods = scene.by_role("rods")[0].points
    calls = [args for name, args in commands if name == "strokeLineSegments"]
    # args: (number of segments, flat points, points per segment)
    hits = [a for a in calls if a[0] == len(rods) and np.allclose(a[1], rods.ravel())]
    assert len(hits) == 1
    vertices = scene.by_role("vertices")[0]
    circles = [args for name, args in commands if name == "fillCircles"]
    assert any(
        np.allclose(a[0], vertices.centers[:, 0]) and np.allclose(a[1], vertices.centers[:, 1])
        for a in circles
    )
    assert "strokeLine" not in [name for name, _ in commands]


def test_command_count_does_not_grow_with_the_linkage(canvas):
    counts = []
    for k in (3, 12):
        link = grid_linkage(k)
        state = full_state(link)
        state.show_labels = False  # text has no vectorised call: a label costs a call
        draw_scene(canvas, scene_for(link, state))
        commands = decode(sent(canvas)[-1])
        per_item_calls = {"strokeLine", "fillCircle", "strokeCircle", "strokeArc", "fillPolygon"}
        assert not per_item_calls & {name for name, _ in commands}
        state_changes = ("set", "setLineDash", "switchCanvas")
        counts.append(sum(1 for name, _ in commands if name not in state_changes))
    assert counts[0] == counts[1], counts


def test_every_primitive_kind_draws(canvas):
    link = grid_linkage(4)
    scene = scene_for(link, full_state(link))
    # the scene draws no panels any more (issue 15); the renderer still draws Rects
    scene.items.append(Rects([[0.0, 0.0, 10.0, 10.0]], role="extra"))
    kinds = {type(item).__name__ for item in scene.items}
    assert kinds == {
        "Segments",
        "Polylines",
        "Polygons",
        "Disks",
        "Arrows",
        "Arcs",
        "Texts",  # the joint labels, on a halo
        "Rects",
    }
    draw_scene(canvas, scene)
    names = {name for name, _ in decode(sent(canvas)[0])}
    expected = {
        "strokeLineSegments",
        "fillPolygons",
        "fillCircles",
        "strokeCircles",
        "fillStyledPolygons",  # stressed rods of different widths: quads
        "strokeArcs",
        "strokeText",
        "fillText",
        "fillRects",
    }
    assert expected <= names, expected - names


def test_outlined_opaque_disks_are_two_fills_translucent_ones_a_fill_and_a_stroke(canvas):
    centers = np.array([[10.0, 20.0], [30.0, 40.0]])
    ring = Disks(centers, 6.0, fill="#263238", stroke="#ffffff", width=1.5, role="vertices")
    draw_scene(canvas, Scene(100, 100, items=[ring]))
    commands = [(n, a) for n, a in decode(sent(canvas)[0]) if "Circle" in n or n == "set"]
    circles = [(n, a) for n, a in commands if "Circle" in n]
    # the outline colour as a disk of radius r + w/2 under the fill colour's r - w/2
    assert [n for n, _ in circles] == ["fillCircles", "fillCircles"]
    (_, outer), (_, inner) = circles
    np.testing.assert_allclose(outer[0], centers[:, 0])
    np.testing.assert_allclose(outer[2], [6.75, 6.75])
    np.testing.assert_allclose(inner[2], [5.25, 5.25])
    styles = [a[1] for n, a in commands if n == "set" and a[0] == 0]  # 0: fillStyle
    assert styles[-2:] == ["#ffffff", "#263238"]
    # translucent: a fill under a stroke would show through, so it is stroked
    draw_scene(
        canvas,
        Scene(
            100,
            100,
            items=[Disks(centers, 6.0, fill="#263238", stroke="#ffffff", width=1.5, alpha=0.5)],
        ),
    )
    names = [n for n, _ in decode(sent(canvas)[-1]) if "Circle" in n]
    assert names == ["fillCircles", "strokeCircles"]


def test_many_colours_go_in_one_styled_call_with_rgb_bytes(canvas):
    k = 12
    colors = tuple(f"#{i:02x}{255 - i:02x}80" for i in range(k))
    points = np.arange(k * 4, dtype=float).reshape(k, 2, 2)
    draw_scene(canvas, Scene(100, 100, items=[Segments(points, colors, 2.0, role="x")]))
    styled = [a for n, a in decode(sent(canvas)[0]) if n == "strokeStyledLineSegments"]
    assert len(styled) == 1
    n_seg, flat, _, rgb, alpha = styled[0]
    assert n_seg == k
    np.testing.assert_array_equal(flat, points.ravel())
    np.testing.assert_array_equal(rgb.reshape(-1, 3), hex_to_rgb(colors))
    np.testing.assert_array_equal(alpha, np.ones(k))


def test_few_colours_go_in_plain_calls_per_colour(canvas):
    link = grid_linkage(5)
    n = link.n_vertices
    rng = np.random.default_rng(3)
    basis = rng.uniform(0.5, 1.0, size=(3, n, 2)) * rng.choice([-1, 1], size=(3, n, 2))
    scene = scene_for(link, SceneState(velocity_basis=basis))
    assert len(scene.by_role("velocities")[0]) == 3 * n
    draw_scene(canvas, scene)
    commands = decode(sent(canvas)[0])
    names = [name for name, _ in commands]
    assert "strokeStyledLineSegments" not in names and "fillStyledPolygons" not in names
    # the arrows: one shaft call and one head call per shade (basis vector)
    arrows = scene.by_role("velocities")[0]
    shafts = [a for name, a in commands if name == "strokeLineSegments" and a[0] == n]
    heads = [a for name, a in commands if name == "fillPolygons" and a[0] == n]
    assert len(shafts) == len(heads) == 3
    np.testing.assert_allclose(
        np.concatenate([a[1] for a in shafts]).reshape(-1, 2, 2), arrows.shafts
    )
    # stress colouring with equal sizes: two plain calls (tension, compression), no styling
    stress = np.where(np.arange(link.n_rods) % 2 == 0, 1.0, -1.0)
    draw_scene(canvas, scene_for(link, SceneState(show_stresses=True, rod_stress=stress)))
    commands = decode(sent(canvas)[-1])
    rods = [a for name, a in commands if name == "strokeLineSegments" and a[0] >= 10]
    assert sorted(a[0] for a in rods) == [link.n_rods // 2, link.n_rods - link.n_rods // 2]


def test_variable_width_rods_are_one_quad_call(canvas):
    link = grid_linkage(6)
    stress = np.linspace(-1.0, 1.0, link.n_rods)
    scene = scene_for(link, SceneState(show_stresses=True, rod_stress=stress))
    draw_scene(canvas, scene)
    commands = decode(sent(canvas)[0])
    quads = [a for name, a in commands if name == "fillStyledPolygons"]
    assert len(quads) == 1 and quads[0][0] == link.n_rods
    rods = scene.by_role("rods")[0]
    corners = quads[0][1].reshape(-1, 4, 2)
    # each quad is centred on its rod and as wide as the rod's width
    np.testing.assert_allclose(corners.mean(axis=1), rods.points.mean(axis=1), atol=1e-9)
    np.testing.assert_allclose(np.linalg.norm(corners[:, 0] - corners[:, 3], axis=1), rods.width)


def test_empty_linkage_frame(canvas):
    link = Linkage()
    draw_scene(canvas, scene_for(link, SceneState(hint="click to add a vertex")))
    names = [name for name, _ in decode(sent(canvas)[0])]
    # the hint is beside the canvas now (issue 15): only the background is painted
    assert names.count("fillText") == 0 and "fillRect" in names


def test_the_frame_is_scaled_once_to_the_pixel_ratio(canvas):
    link = Linkage.load("peaucellier.txt")
    scene = scene_for(link, SceneState(pixel_ratio=2.0))
    draw_scene(canvas, scene)
    calls = decode(sent(canvas)[0])
    transforms = [args for name, args in calls if name == "setTransform"]
    # identity to clear the whole backing store, then the device scale for the drawing
    assert transforms == [[1.0, 0.0, 0.0, 1.0, 0.0, 0.0], [2.0, 0.0, 0.0, 2.0, 0.0, 0.0]]
    names = [name for name, _ in calls]
    assert names.index("clear") < names.index("setTransform", names.index("clear"))
    draw_scene(canvas, scene, pixel_ratio=1.5)  # an explicit ratio wins
    calls = decode(sent(canvas)[1])
    assert [a for n, a in calls if n == "setTransform"][-1][0] == 1.5


def test_exception_leaves_batching_off_and_sends_nothing(canvas, monkeypatch):
    link = Linkage.load("peaucellier.txt")
    scene = scene_for(link, full_state(link))

    def boom(canvas, item):
        raise RuntimeError("drawing failed")

    monkeypatch.setitem(rc._DRAW, Segments, boom)
    with pytest.raises(RuntimeError, match="drawing failed"):
        draw_scene(canvas, scene)
    mgr = canvas._canvas_manager
    assert not mgr._caching
    assert mgr._commands_cache == [] and mgr._buffers_cache == []
    assert sent(canvas) == []  # the half-drawn frame was dropped
    monkeypatch.undo()
    draw_scene(canvas, scene)  # and drawing works again
    assert len(sent(canvas)) == 1


def test_bad_primitive_type_raises_cleanly(canvas):
    scene = Scene(100, 100, items=[object()])
    with pytest.raises(KeyError):
        draw_scene(canvas, scene)
    assert not canvas._canvas_manager._caching
    assert sent(canvas) == []


def test_nested_in_an_outer_batch_sends_once_at_the_end(canvas):
    link = Linkage.load("peaucellier.txt")
    scene = scene_for(link)
    with hold_canvas():
        draw_scene(canvas, scene)
        draw_scene(canvas, scene)
        assert sent(canvas) == []
        assert canvas._canvas_manager._caching
    assert len(sent(canvas)) == 1
    assert not canvas._canvas_manager._caching
    # a failing inner frame inside an outer batch drops only its own commands
    with held_canvas(canvas):
        canvas.fill_rect(0, 0, 1, 1)
        with pytest.raises(ZeroDivisionError), held_canvas(canvas):
            canvas.fill_rect(0, 0, 2, 2)
            _ = 1 / 0
        assert canvas._canvas_manager._caching
    names = [name for name, _ in decode(sent(canvas)[-1])]
    assert names.count("fillRect") == 1


def test_hex_to_rgb():
    np.testing.assert_array_equal(
        hex_to_rgb(["#000000", "#0a0B0c", "#f00"]), [[0, 0, 0], [10, 11, 12], [255, 0, 0]]
    )
    assert hex_to_rgb([]).shape == (0, 3)
    with pytest.raises(ValueError):
        hex_to_rgb(["red"])
