"""SVG output: golden files, well-formed XML, determinism, geometry of the written elements.

Golden files live in ``tests/draw/golden/*.svg``. After an intended change to the drawing,
regenerate them and review the diff (open the SVGs in a browser):

    UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/draw/test_render_svg.py
"""

import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from linkage_widget import Linkage
from linkage_widget.draw import (
    Scene,
    SceneState,
    ViewTransform,
    build_scene,
    save_svg,
    scene_to_svg,
)
from linkage_widget.draw.primitives import Arcs, Texts

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("UPDATE_GOLDEN", "").strip() not in ("", "0")
NS = {"svg": "http://www.w3.org/2000/svg"}


def triangle():
    return Linkage(
        [[0.0, 0.0], [4.0, 0.0], [1.0, 3.0]],
        rods=[(0, 1), (1, 2), (2, 0)],
        angles=[(0, 1, 2)],
        pinned=[1],
    )


def golden_scenes():
    """name -> Scene; inputs are fixed arrays, independent of the analysis modules."""
    p = Linkage.load("peaucellier.txt")
    view = ViewTransform.fit(p.vertices, 480, 360)
    t = triangle()
    n, m = p.n_vertices, p.n_rods
    basis = np.zeros((2, n, 2))
    basis[0, 2:] = [[0.3, 0.1], [0.2, -0.4], [-0.1, 0.5], [0.35, 0.0]]
    basis[1, 3:] = [[0.0, 0.5], [0.5, 0.0], [-0.3, -0.3]]
    overlays = SceneState(
        selected_vertex=2,
        selected_rod=3,
        attractor=(170.0, 60.0),
        attracted_vertex=5,
        tracked=[5, 3],
        tracks={5: np.array([[128.0, 128.0], [140.0, 118.0], [152.0, 110.0], [160.0, 100.0]])},
        velocity_basis=basis,
        show_stresses=True,
        rod_stress=np.array([1.0, -0.5, 0.25, 0.0, -1.0, 0.75, 0.5]),
        show_pebbles=True,
        redundant_rods=np.arange(m) == 6,
        springs=[(0, 5)],
        info_lines=["DOF 1 = 0 trivial + 1 internal", "self-stresses: 1"],
        hint="drag a vertex; right-click places the attractor",
        error="step rejected: <too large> & blocked",
        show_labels=True,
        joint_names=["O", "Q", "A <1> & 2"],  # the rest by index
    )
    return {
        "peaucellier": build_scene(p, view, SceneState(hint="Peaucellier-Lipkin linkage")),
        "peaucellier_overlays": build_scene(p, view, overlays),
        "triangle": build_scene(
            t,
            ViewTransform.fit(t.vertices, 320, 240),
            SceneState(selected_vertex=0, info_lines=["DOF 0", "rigid"], hint="a fixed angle"),
        ),
        "empty": build_scene(
            Linkage(),
            ViewTransform.fit(np.empty((0, 2)), 300, 200),
            SceneState(hint="click to add a vertex"),
        ),
    }


SCENES = golden_scenes()


@pytest.mark.parametrize("name", sorted(SCENES))
def test_golden(name):
    svg = scene_to_svg(SCENES[name])
    path = GOLDEN / f"{name}.svg"
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(svg, encoding="utf-8", newline="\n")
    assert path.is_file(), f"missing {path}; create it with UPDATE_GOLDEN=1"
    expected = path.read_text(encoding="utf-8")
    assert svg == expected, f"{name}.svg differs; if intended, regenerate with UPDATE_GOLDEN=1"


@pytest.mark.parametrize("name", sorted(SCENES))
def test_parses_as_standalone_svg(name):
    scene = SCENES[name]
    root = ET.fromstring(scene_to_svg(scene))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.get("width") == str(scene.width) and root.get("height") == str(scene.height)
    assert root.get("viewBox") == f"0 0 {scene.width} {scene.height}"
    background = root.find("svg:rect", NS)
    assert background.get("fill") == scene.background
    classes = [g.get("class") for g in root.findall("svg:g", NS)]
    assert classes == scene.roles()


def test_deterministic_number_format():
    scene = SCENES["peaucellier_overlays"]
    svg = scene_to_svg(scene)
    assert svg == scene_to_svg(golden_scenes()["peaucellier_overlays"])
    numbers = re.findall(r"-?\d+\.\d+", svg)
    assert numbers and all(len(x.split(".")[1]) <= 2 and not x.endswith("0") for x in numbers)
    assert not re.search(r"[^\w.]-0[^.\d]", svg)  # no negative zero


def test_rods_one_path_segment_each_at_the_pixels():
    p = Linkage.load("peaucellier.txt")
    scene = SCENES["peaucellier"]
    root = ET.fromstring(scene_to_svg(scene))
    rods = root.find("svg:g[@class='rods']", NS)
    d = rods.find("svg:path", NS).get("d")
    segs = np.array(re.findall(r"M(\S+) (\S+)L(\S+) (\S+)", d), dtype=float).reshape(-1, 2, 2)
    view = ViewTransform.fit(p.vertices, 480, 360)
    np.testing.assert_allclose(segs, view.to_pixel(p.vertices[p.rods]), atol=0.006)
    assert rods.get("stroke-width") == "5"


def test_per_item_styles_become_element_attributes():
    root = ET.fromstring(scene_to_svg(SCENES["peaucellier_overlays"]))
    lines = root.findall("svg:g[@class='rods']/svg:line", NS)
    assert len(lines) == 7
    # Okabe-Ito tension blue, compression vermillion, a neutral grey without stress (issue 15)
    assert {ln.get("stroke") for ln in lines} == {"#0072b2", "#d55e00", "#c4c4c4"}
    arrows = root.find("svg:g[@class='velocities']", NS)
    assert len(arrows.findall("svg:line", NS)) == len(arrows.findall("svg:polygon", NS)) == 7
    assert root.find("svg:g[@class='error']", NS) is None  # beside the canvas, not over it
    labels = root.find("svg:g[@class='labels']", NS)
    texts = [t.text for t in labels.findall("svg:text", NS)]
    assert texts == ["O", "Q", "A <1> & 2", "3", "4", "5"]  # escaped and parsed back
    assert labels.get("paint-order") == "stroke" and labels.get("stroke") == "#ffffff"


def test_angle_arc_path_ends_on_the_arms():
    t = triangle()
    view = ViewTransform.fit(t.vertices, 320, 240)
    root = ET.fromstring(scene_to_svg(SCENES["triangle"]))
    d = root.find("svg:g[@class='angles']/svg:path", NS).get("d")
    m = re.fullmatch(r"M(\S+) (\S+)A(\S+) (\S+) 0 (\d) 1 (\S+) (\S+)", d)
    assert m, d
    x0, y0, r, _, large, x1, y1 = m.groups()
    assert large == "0"
    P = view.to_pixel(t.vertices)
    for x, y in ((x0, y0), (x1, y1)):
        v = np.array([float(x), float(y)]) - P[0]
        assert np.linalg.norm(v) == pytest.approx(float(r), abs=0.02)
        # on one of the two arms: parallel to P1 - P0 or P2 - P0
        cos = [
            v @ (P[j] - P[0]) / (np.linalg.norm(v) * np.linalg.norm(P[j] - P[0])) for j in (1, 2)
        ]
        assert max(cos) == pytest.approx(1.0, abs=1e-4)


def test_full_circle_arc_and_empty_scene():
    scene = Scene(50, 50, "#000000", [Arcs([[25, 25]], [10], [0.0], [2 * np.pi], role="x")])
    d = ET.fromstring(scene_to_svg(scene)).find("svg:g/svg:path", NS).get("d")
    assert d.count("A") == 2
    root = ET.fromstring(scene_to_svg(Scene(10, 20)))
    assert len(root) == 1 and root[0].get("fill") == "#ffffff"


def test_texts_keep_spaces_and_style():
    scene = Scene(100, 50, items=[Texts(("a  b",), [[1, 2]], "#123456", 12, "monospace", True)])
    g = ET.fromstring(scene_to_svg(scene)).find("svg:g", NS)
    assert g.get("font-weight") == "bold" and g.get("font-size") == "12"
    assert "monospace" in g.get("font-family")
    assert g.find("svg:text", NS).text == "a  b"


def test_repr_svg_and_atomic_save(tmp_path):
    scene = SCENES["triangle"]
    assert scene._repr_svg_() == scene_to_svg(scene)
    path = tmp_path / "out.svg"
    save_svg(scene, path)
    assert path.read_text(encoding="utf-8") == scene_to_svg(scene)
    bad = Scene(10, 10, items=[object()])
    with pytest.raises(KeyError):
        save_svg(bad, path)
    assert path.read_text(encoding="utf-8") == scene_to_svg(scene)  # old file intact
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.svg"]  # no temp left
