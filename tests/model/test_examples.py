"""The bundled example library: loading by name, exact round trip, notes, DOF, motion.

Expected DOF are mechanism facts (Grübler's count for the classical linkages,
the ribbon count for rhombus tilings), not numbers read off our own analysis;
the analysis used here is the plain numerical rank in ``kinematics.py``.
"""

import importlib.util
import re
from pathlib import Path

import numpy as np
import pytest
from kinematics import dof, drive, internal_dof, rank, ribbons, sweep

from linkage_widget import Linkage
from linkage_widget.constraints import ConstraintSet
from linkage_widget.examples import describe, example_path, has_example, list_examples, load_example

REPO = Path(__file__).resolve().parents[2]


# name: (dof, internal dof, why). Grübler/Kutzbach for a planar linkage of pin
# joints: M = 3 (links - 1) - 2 (joints), ground counted as a link; a fixed
# angle welds two rods into one link.
EXPECTED = {
    "four_bar": (1, 1, "four-bar: 4 links, 4 joints -> 3*3 - 2*4 = 1"),
    "watt": (1, 1, "a four-bar whose coupler carries its midpoint -> 1"),
    "chebyshev": (1, 1, "a crossed four-bar, coupler with its midpoint -> 1"),
    "hoeken": (1, 1, "a crank-rocker four-bar with an extended coupler -> 1"),
    "roberts": (1, 1, "a four-bar whose coupler is a rigid triangle -> 1"),
    "hart": (1, 1, "antiparallelogram (4 links) + crank + ground: 6 links, 7 joints -> 1"),
    "jansen": (1, 1, "Jansen's leg: 8 links (2 triangles), 10 joints -> 3*7 - 2*10 = 1"),
    "pantograph": (2, 1, "pantograph: 5 links, 6 joints -> 2; one is the turn about the pin"),
    "peaucellier_attia": (1, 1, "Peaucellier: 8 links, 10 joints -> 3*7 - 2*10 = 1"),
    "peaucellier": (1, 1, "Peaucellier: 8 links, 10 joints -> 1"),
}
# The examples with sliders and slots (their own tests: test_guide_examples.py). A slider
# or a slot takes one freedom, like a rod: dof = 2 (joints) - rows.
GUIDED = {
    "slider_crank": (1, "3 joints, 2 rods, 1 pin, 1 slider -> 6 - 5 = 1"),
    "slider_crank_offset": (1, "3 joints, 2 rods, 1 pin, 1 slider -> 6 - 5 = 1"),
    "scotch_yoke": (1, "6 joints, crank + 5 yoke rods, 1 pin, 2 sliders, 1 slot -> 12 - 11 = 1"),
    "whitworth": (1, "5 joints, 3 rods, 2 pins, 1 slider, 1 slot -> 10 - 9 = 1"),
    "elliptic_trammel": (1, "3 joints, 2 rods, 1 fixed angle, 2 sliders -> 6 - 5 = 1"),
    "straight_lines": (3, "three one-freedom mechanisms side by side -> 3"),
}
PENROSE = [f"penrose{k}" for k in range(1, 5)]
# The tensegrities (their own tests: tests/tensegrity): read as bars each has a self-stress
# on purpose, the stress that makes it rigid with its cables and struts.
TENSEGRITY = ["snelson_x", "cable_grid"]
ALL = [*EXPECTED, *GUIDED, *PENROSE, *TENSEGRITY]


def test_every_expected_example_is_bundled_and_nothing_else():
    assert sorted(ALL) == list_examples()


@pytest.mark.parametrize("name", ALL)
def test_loads_by_bare_name_from_any_directory(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert has_example(name) and has_example(f"{name}.txt")
    a, b, c = Linkage.load(f"{name}.txt"), Linkage.load(name), load_example(name)
    for other in (b, c):
        assert a.dumps() == other.dumps()


@pytest.mark.parametrize("name", ALL)
def test_round_trips_exactly(name):
    text = example_path(name).read_text(encoding="utf-8")
    link = Linkage.loads(text)
    assert link.dumps() == text
    assert np.array_equal(Linkage.loads(link.dumps()).vertices, link.vertices)


@pytest.mark.parametrize("name", ALL)
def test_has_a_description_of_two_to_five_sentences(name):
    note = describe(name)
    sentences = re.findall(r"[.!?](?:\s|$)", note)
    assert 2 <= len(sentences) <= 5, note


@pytest.mark.parametrize("name", [n for n in [*EXPECTED, *GUIDED] if n != "peaucellier"])
def test_description_names_pinned_vertices(name):
    # the notes say which vertices are pinned, driven and output, by index
    note = describe(name)
    for v in load_example(name).pinned.tolist():
        assert re.search(rf"\b{v}\b", note), f"{name}.md does not mention pinned vertex {v}"


@pytest.mark.parametrize("name", list(EXPECTED))
def test_mechanism_dof(name):
    want_dof, want_internal, why = EXPECTED[name]
    link = load_example(name)
    assert (dof(link), internal_dof(link)) == (want_dof, want_internal), why


@pytest.mark.parametrize("name", PENROSE)
def test_penrose_dof_is_ribbons_minus_one(name):
    link = load_example(name)
    assert len(link.pinned) == 0
    assert internal_dof(link) == ribbons(link) - 1


@pytest.mark.parametrize("name", [n for n in ALL if n not in TENSEGRITY])
def test_valid_regular_assembly(name):
    """Lengths are non-zero, and the constraints are independent at this placement.

    Independent rows mean the placement is a regular point of the configuration
    space: the motion through it is smooth, not a bifurcation or a dead centre.
    """
    link = load_example(name)
    cs = ConstraintSet.from_linkage(link)
    assert cs.relative_error(link.vertices) == 0.0
    assert link.rod_lengths().min() > 0
    assert rank(link) == cs.n_constraints


@pytest.mark.parametrize("name", [n for n in ALL if n != "peaucellier_attia"])
def test_world_scale(name):
    lengths = load_example(name).rod_lengths()
    assert 5 <= lengths.min() and lengths.max() <= 300


def test_attia_coordinates_exactly():
    link = load_example("peaucellier_attia")
    assert link.vertices.tolist() == [[0, 0], [-2, 0], [2, 4], [6, 0], [2, -4], [2, 0]]
    assert sorted(link.pinned.tolist()) == [0, 5]
    rods = {frozenset(r) for r in link.rods.tolist()}
    o, a, b, c, d, e = range(6)
    assert rods == {frozenset(r) for r in [(o, a), (a, b), (b, c), (c, d), (d, e), (b, e), (a, d)]}


# ------------------------------------------------------------------ motion
# name: (crank pivot, driven vertex, output, coordinate held (0 x, 1 y), half range of
# the driver in degrees, largest deviation). Exact straight-line linkages hold the
# coordinate to round-off (None: 1e-9 of the drawing's size); the approximate ones
# to their classical accuracy, in world units, over the stated range.
STRAIGHT = {
    "peaucellier_attia": (0, 1, 3, 0, 60.0, None),
    "hart": (1, 2, 3, 0, 90.0, None),
    "peaucellier": (1, 2, 5, 0, 40.0, None),
    "watt": (0, 1, 2, 0, 15.0, 0.15),
    "chebyshev": (0, 2, 4, 1, 15.0, 0.6),
    "roberts": (0, 2, 4, 1, 15.0, 1.2),
    "hoeken": (0, 2, 4, 1, 60.0, 0.6),
}


@pytest.mark.parametrize("name", list(STRAIGHT))
def test_output_moves_on_its_line(name):
    pivot, driven, out, axis, degrees, tol = STRAIGHT[name]
    link = load_example(name)
    size = np.ptp(link.vertices)
    path = sweep(link, pivot, driven, degrees)[:, out]
    assert np.ptp(path[:, 1 - axis]) > 0.2 * size  # it really travels along the line
    deviation = np.abs(path[:, axis] - link.vertices[out, axis]).max()
    assert deviation <= (1e-9 * size if tol is None else tol), deviation


@pytest.mark.parametrize(
    ("name", "driven", "output"), [("four_bar", 2, 3), ("hoeken", 2, 4), ("jansen", 2, 7)]
)
def test_crank_turns_full_circle(name, driven, output):
    """Crank-rockers: the crank (pivot 0) goes all the way round and the linkage closes."""
    link = load_example(name)
    path = drive(link, 0, driven, np.radians(np.arange(3.0, 360.5, 3.0)))
    assert np.allclose(path[-1], link.vertices, atol=1e-9 * np.ptp(link.vertices))
    assert np.all(np.ptp(path[:, output], axis=0) > 10)


def test_four_bar_is_grashof_crank_rocker():
    lengths = sorted(load_example("four_bar").rod_lengths().tolist() + [200.0])
    assert lengths[0] + lengths[-1] <= lengths[1] + lengths[2]
    link = load_example("four_bar")
    rocker = drive(link, 0, 2, np.radians(np.arange(5.0, 360.5, 5.0)))[:, 3] - link.vertices[1]
    swing = np.ptp(np.arctan2(rocker[:, 1], rocker[:, 0]))
    assert 0 < swing < np.pi  # the rocker only rocks


def test_jansen_holy_numbers():
    link = load_example("jansen")
    holy = sorted([41.5, 39.3, 40.1, 55.8, 39.4, 36.7, 65.7, 49.0, 50.0, 61.9, 15.0])
    assert np.allclose(sorted(link.rod_lengths() / 3.0), holy)
    o, b = link.vertices[0], link.vertices[1]
    assert np.allclose((b - o) / 3.0, [-38.0, -7.8])


def test_pantograph_doubles():
    """Hold the tracer at points of a small circle: the pen is at twice the distance from O."""
    link = load_example("pantograph")
    o, tracer, pen = 0, 5, 4
    p0 = link.vertices
    # the tracer as the driven vertex, turned about a point beside it
    centre = p0[tracer] + [10.0, 0.0]
    moved = Linkage(np.vstack([p0, centre]), link.rods, link.angles, link.pinned)
    path = drive(moved, 6, tracer, np.radians(np.arange(10.0, 361.0, 10.0)))
    assert np.allclose(path[:, pen] - p0[o], 2 * (path[:, tracer] - p0[o]), atol=1e-9)


def _make_examples():
    """``benchmarks/make_examples.py`` as a module (benchmarks/ is not a package)."""
    path = REPO / "benchmarks" / "make_examples.py"
    spec = importlib.util.spec_from_file_location("make_examples", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_example_files_are_up_to_date():
    """The shipped files are what ``benchmarks/make_examples.py`` builds."""
    module = _make_examples()
    assert module.stale(exact=False) == []
    assert set(module.EXAMPLES) | {"peaucellier"} == set(list_examples())


def _copy_examples(module, folder):
    for name in module.EXAMPLES:
        for path in example_path(name).parent.glob(f"{name}.txt*"):  # with the JSON sibling
            (folder / path.name).write_bytes(path.read_bytes())


def test_stale_check_notices_a_changed_file(tmp_path):
    module = _make_examples()
    _copy_examples(module, tmp_path)
    link = load_example("watt")
    link.move_vertex(2, [1e-6, 0.0])
    link.save(tmp_path / "watt.txt")
    assert module.stale(tmp_path, exact=False) == ["watt"]


def test_stale_check_notices_a_changed_slider(tmp_path):
    # the sliders live in the JSON sibling: a stale one there is stale too
    module = _make_examples()
    _copy_examples(module, tmp_path)
    link = load_example("slider_crank")
    link.remove_guide("slider", 0)
    link.add_slider(2, (1.0, 1e-6))
    link.save(tmp_path / "slider_crank.txt")
    assert module.stale(tmp_path, exact=False) == ["slider_crank"]


def test_stale_check_notices_a_lost_tracked_joint(tmp_path):
    module = _make_examples()
    _copy_examples(module, tmp_path)
    (tmp_path / "whitworth.txt.json").unlink()
    load_example("whitworth").save(tmp_path / "whitworth.txt")  # the guides without the rest
    assert module.stale(tmp_path, exact=False) == ["whitworth"]


def test_readme_names_every_example():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`(\w+)`", readme)) | {f"penrose{k}" for k in range(1, 5)}
    assert set(list_examples()) <= named, set(list_examples()) - named
