"""The bundled tensegrities do what their pages say; the grid against Baglivo–Graver.

Oracles: the stresses by hand (Snelson's X: a corner's equilibrium; the prism: the closed
form 1 : sqrt(3) : -sqrt(3)), and for cable-braced grids the combinatorial theorem of
Baglivo and Graver: a grid of rods whose braced cells each hold one cable is
infinitesimally rigid iff the bipartite digraph of rows and columns (a cell's cable an
arc between its row and column, its direction given by the diagonal) is strongly
connected; as reversing every arc keeps strong connectivity, the convention does not matter.
"""

import importlib.util
import itertools
from pathlib import Path

import networkx as nx
import numpy as np
import pytest

from linkage_widget import Linkage, tensegrity_rigidity
from linkage_widget.examples import describe, load_example
from linkage_widget.examples.space import describe_space_example, load_space_example

REPO = Path(__file__).resolve().parents[2]


def make_examples():
    path = REPO / "benchmarks" / "make_examples.py"
    spec = importlib.util.spec_from_file_location("make_examples", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def braced_grid(rows, cols, pattern, size=100.0):
    """Rods on the grid lines, a cable per braced cell: ``pattern[(i, j)]`` is '/' or '\\'."""
    at = lambda i, j: i * (cols + 1) + j  # noqa: E731
    pts = [[size * j, size * i] for i in range(rows + 1) for j in range(cols + 1)]
    rods = [(at(i, j), at(i, j + 1)) for i in range(rows + 1) for j in range(cols)]
    rods += [(at(i, j), at(i + 1, j)) for i in range(rows) for j in range(cols + 1)]
    cables = [
        (at(i, j), at(i + 1, j + 1)) if d == "/" else (at(i, j + 1), at(i + 1, j))
        for (i, j), d in pattern.items()
    ]
    return Linkage(pts, rods=rods, cables=cables)


def strongly_connected(rows, cols, pattern):
    g = nx.DiGraph()
    g.add_nodes_from([("r", i) for i in range(rows)] + [("c", j) for j in range(cols)])
    for (i, j), d in pattern.items():
        g.add_edge(*((("r", i), ("c", j)) if d == "/" else (("c", j), ("r", i))))
    return nx.is_strongly_connected(g)


def test_snelson_x_is_rigid_with_the_stress_its_page_gives():
    link = load_example("snelson_x")
    assert link.rod_kinds.tolist() == ["cable"] * 4 + ["strut"] * 2
    report = tensegrity_rigidity(link)
    assert report.rigid
    np.testing.assert_allclose(report.proper_stress, [1, 1, 1, 1, -1, -1], atol=1e-12)
    assert "+1 on every side" in describe("snelson_x")
    for r in range(6):  # "make any one cable a strut, or a strut a cable"
        other = load_example("snelson_x")
        other.set_rod_kind(r, "strut" if r < 4 else "cable")
        assert not tensegrity_rigidity(other).rigid


def test_cable_grid_is_rigid_and_one_turned_cable_makes_it_shear():
    link = load_example("cable_grid")
    assert (link.rod_kinds == "cable").sum() == 4
    report = tensegrity_rigidity(link)
    assert report.rigid and np.all(report.proper_stress[link.rod_kinds == "cable"] > 0)
    pattern = {(0, 0): "/", (0, 1): "\\", (1, 0): "\\", (1, 1): "/"}  # as its page says
    assert braced_grid(2, 2, pattern) == link
    assert strongly_connected(2, 2, pattern)
    for cell in pattern:
        turned = {**pattern, cell: "/" if pattern[cell] == "\\" else "\\"}
        assert not tensegrity_rigidity(braced_grid(2, 2, turned)).rigid


def test_cable_braced_grids_agree_with_baglivo_graver():
    cells = [(i, j) for i in range(2) for j in range(2)]
    verdicts = set()
    for choice in itertools.product(["", "/", "\\"], repeat=4):  # all 81 bracings of 2 x 2
        pattern = {c: d for c, d in zip(cells, choice, strict=True) if d}
        want = strongly_connected(2, 2, pattern)
        assert tensegrity_rigidity(braced_grid(2, 2, pattern)).rigid == want, pattern
        verdicts.add(want)
    rng = np.random.default_rng(3)
    cells = [(i, j) for i in range(2) for j in range(3)]
    for _ in range(30):  # 2 x 3 grids, random bracings
        choice = rng.choice(["", "/", "\\"], size=6, p=[0.15, 0.425, 0.425])
        pattern = {c: str(d) for c, d in zip(cells, choice, strict=True) if d}
        want = strongly_connected(2, 3, pattern)
        assert tensegrity_rigidity(braced_grid(2, 3, pattern)).rigid == want, pattern
        verdicts.add(want)
    assert verdicts == {True, False}


def test_tensegrity_prism_file_is_prestress_stable_as_its_page_says():
    link = load_space_example("tensegrity_prism")
    assert link.dim == 3 and (link.rod_kinds == "strut").sum() == 3
    report = tensegrity_rigidity(link)
    assert report.rigid and not report.infinitesimally_rigid and report.prestress_stable is True
    # The bottom ring (rods 0-2) joins pinned joints: each of its cables carries a stress of
    # its own against the pins, so its share is not fixed (it moved with the BLAS from one
    # CPU to another). The free members' ratios are: top ring 1, verticals and struts +-sqrt 3.
    omega = report.proper_stress / report.proper_stress[3]
    assert (report.proper_stress[:3] >= 0).all()  # a cable is never compressed
    np.testing.assert_allclose(omega[3:6], 1.0, rtol=1e-9)
    np.testing.assert_allclose(omega[6:9], np.sqrt(3), rtol=1e-9)
    np.testing.assert_allclose(omega[9:], -np.sqrt(3), rtol=1e-9)
    assert "prestress stable" in describe_space_example("tensegrity_prism")
    flipped = load_space_example("tensegrity_prism")
    flipped.set_rod_kind(6, "strut")
    assert tensegrity_rigidity(flipped).proper_stress is None


@pytest.mark.parametrize("name", ["snelson_x", "cable_grid"])
def test_generated_files_are_what_make_examples_builds(name):
    built = make_examples().EXAMPLES[name]()
    assert load_example(name) == built  # kinds included, from the sibling


def test_a_cable_of_the_pinned_base_made_a_strut_is_carried_by_the_pins():
    # the page said any cable made a strut leaves no proper stress: not the pinned base's
    link = load_space_example("tensegrity_prism")
    assert "the pins carry them" in describe_space_example("tensegrity_prism")
    for cable in np.flatnonzero(np.isin(link.rods, link.pinned).all(axis=1)):
        flipped = link.copy()
        flipped.set_rod_kind(int(cable), "strut")
        report = tensegrity_rigidity(flipped)
        assert report.rigid and report.proper_stress[cable] < 0, cable


def test_reversing_any_cable_of_the_prism_to_a_strut_leaves_no_proper_stress():
    link = load_space_example("tensegrity_prism")
    held = np.isin(link.rods, link.pinned).all(axis=1)  # the pinned base: the pins carry it
    assert held.sum() == 3
    for cable in np.flatnonzero((link.rod_kinds == "cable") & ~held):
        flipped = link.copy()
        flipped.set_rod_kind(int(cable), "strut")
        report = tensegrity_rigidity(flipped)
        assert report.proper_stress is None and not report.rigid, cable
        # a first-order flex and no certificate: "not certified", not a proof of motion
        assert report.flex is not None and report.prestress_stable is not True
        assert "not certified rigid" in report.explanation
