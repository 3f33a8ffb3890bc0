"""Pillow rendering: pixels where the scene says, PNG and animated GIF files written atomically."""

import numpy as np
import pytest
from PIL import Image

from linkage_widget import Linkage
from linkage_widget.draw import (
    DEFAULT_THEME,
    Scene,
    SceneState,
    ViewTransform,
    build_scene,
    save_gif,
    save_png,
    scene_to_image,
)

T = DEFAULT_THEME


def rgb(hex_color):
    return tuple(int(hex_color[i : i + 2], 16) for i in (1, 3, 5))


@pytest.fixture
def peaucellier():
    return Linkage.load("peaucellier.txt")


def scene_of(link, state=None, w=400, h=300):
    view = ViewTransform.fit(link.vertices, w, h)
    return view, build_scene(link, view, state or SceneState())


def rod_midpoints(view, link, t=0.3):
    """A point on each rod (at 30 %: peaucellier's rods 1 and 2 cross near their middles)."""
    ends = link.vertices[link.rods]
    return view.to_pixel((1 - t) * ends[:, 0] + t * ends[:, 1])


@pytest.mark.parametrize("supersample", [1, 2, 3])
def test_background_in_the_corner_and_rods_drawn(peaucellier, supersample):
    view, scene = scene_of(peaucellier)
    img = scene_to_image(scene, supersample=supersample)
    assert img.size == (400, 300) and img.mode == "RGB"
    for corner in [(0, 0), (399, 0), (0, 299), (399, 299)]:
        assert img.getpixel(corner) == rgb(T.background)
    a = np.asarray(img)
    for x, y in rod_midpoints(view, peaucellier):
        px = a[int(round(y)), int(round(x))]
        # on a rod: close to the rod colour, far from the white background
        assert np.abs(px.astype(int) - rgb(T.rod)).max() < 60, (x, y, px)


def test_stress_colours_reach_the_pixels(peaucellier):
    stress = np.array([1.0, -1.0, 1.0, -1.0, 1.0, -1.0, 1.0])
    view, scene = scene_of(peaucellier, SceneState(show_stresses=True, rod_stress=stress))
    a = np.asarray(scene_to_image(scene)).astype(int)
    mids = rod_midpoints(view, peaucellier)
    for (x, y), s in zip(mids, stress, strict=True):
        r, g, b = a[int(round(y)), int(round(x))]
        if s > 0:
            assert b > r + 60, (r, g, b)  # tension: blue
        else:
            assert r > b + 60, (r, g, b)  # compression: orange


def test_every_primitive_kind_paints(peaucellier):
    n, m = peaucellier.n_vertices, peaucellier.n_rods
    state = SceneState(
        selected_vertex=1,
        attractor=(60.0, 150.0),
        attracted_vertex=5,
        tracked=[5],
        tracks={5: np.array([[128.0, 128.0], [150.0, 100.0]])},
        velocity_basis=np.ones((1, n, 2)),
        show_pebbles=True,
        redundant_rods=np.arange(m) == 0,
        springs=[(0, 5)],
        info_lines=["DOF 1"],
        hint="hint",
        error="error",
    )
    tri = Linkage([[0, 0], [4, 0], [1, 3]], rods=[(0, 1), (1, 2), (2, 0)], angles=[(0, 1, 2)])
    for link, st in ((peaucellier, state), (tri, SceneState())):
        _, scene = scene_of(link, st)
        assert scene_to_image(scene).getbbox() is not None  # renders without error
    # the attractor crosshair centre is painted in the attractor colour
    view, scene = scene_of(peaucellier, state)
    x, y = view.to_pixel([60.0, 150.0])
    px = np.asarray(scene_to_image(scene))[int(round(y)), int(round(x) + 6)].astype(int)
    assert np.abs(px - rgb(T.attractor)).max() < 60, px


def test_empty_scene_is_background():
    img = scene_to_image(Scene(30, 20, "#102030"))
    assert np.all(np.asarray(img) == [16, 32, 48])
    with pytest.raises(ValueError, match="supersample"):
        scene_to_image(Scene(30, 20), supersample=0)


def test_save_png_round_trip_and_atomic(peaucellier, tmp_path):
    _, scene = scene_of(peaucellier)
    path = tmp_path / "shot.png"
    save_png(scene, path)
    with Image.open(path) as im:
        assert im.format == "PNG"
        np.testing.assert_array_equal(
            np.asarray(im.convert("RGB")), np.asarray(scene_to_image(scene))
        )
    before = path.read_bytes()
    with pytest.raises(KeyError):
        save_png(Scene(10, 10, items=[object()]), path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["shot.png"]


def test_save_gif_frames_timing_and_loop(peaucellier, tmp_path):
    view = ViewTransform.fit(peaucellier.vertices, 200, 150)
    frames = []
    for k in range(6):
        link = peaucellier.copy()
        link.move_vertex(5, link.vertices[5] + [4.0 * k, 0.0])
        frames.append(build_scene(link, view, SceneState()))
    path = tmp_path / "motion.gif"
    save_gif(iter(frames), path, fps=25)
    with Image.open(path) as im:
        assert im.format == "GIF" and im.size == (200, 150)
        assert im.n_frames == 6
        assert im.info["duration"] == 40 and im.info["loop"] == 0
        im.seek(5)
        last = np.asarray(im.convert("RGB")).astype(int)
    expected = np.asarray(scene_to_image(frames[-1])).astype(int)
    # one shared palette of the most frequent colours: flat colours exact, shades close
    assert np.all(last[0, 0] == rgb(T.background))
    err = np.abs(last - expected).max(axis=2)
    assert (err == 0).mean() > 0.99 and err.max() <= 16
    assert [p.name for p in tmp_path.iterdir()] == ["motion.gif"]


def test_save_gif_rejects_bad_input_without_leaving_files(peaucellier, tmp_path):
    path = tmp_path / "bad.gif"
    with pytest.raises(ValueError, match="at least one frame"):
        save_gif([], path)
    with pytest.raises(ValueError, match="fps"):
        save_gif([Scene(10, 10)], path, fps=0)
    with pytest.raises(ValueError, match="frame 1"):
        save_gif([Scene(10, 10), Scene(20, 10)], path)
    assert list(tmp_path.iterdir()) == []
