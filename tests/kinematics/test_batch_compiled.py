"""The compiled batch (numba, one loop a design) against the NumPy batch and the rods themselves.

Oracles: the NumPy route of ``kinematics(..., lengths=...)`` (:func:`._dyadic.solve`, every
step a whole-array pass), and, independent of both, every rod at its design's length at
every valid placement and the closed-form velocity of the crank tip.
"""

from __future__ import annotations

import numpy as np
import pytest
from kinematic_cases import four_bar, slider_crank

from linkage_widget import Linkage
from linkage_widget.kinematics import _dyadic_fast, kinematics
from linkage_widget.kinematics._batch import _grid, ground_fits, guide_rows
from linkage_widget.kinematics._dyadic import dyadic_order, modes_at

pytest.importorskip("numba", reason="the compiled batch needs numba (the fast/test extras)")


def _bundled(name: str, pivot: int, tip: int, half: float | None = None):
    link = Linkage.load(f"{name}.txt")
    start = np.arctan2(*(link.vertices[tip] - link.vertices[pivot])[::-1])
    span = np.linspace(-np.pi, np.pi, 91) if half is None else np.linspace(-half, half, 61)
    return link, pivot, tip, start + span


CASES = {
    "four-bar": (four_bar(), 0, 1, np.linspace(0.0, 2 * np.pi, 121)),
    "offset slider-crank": (slider_crank(offset=0.3, theta=0.5), 0, 1, np.linspace(0, 7, 90)),
    "roberts": _bundled("roberts", 0, 2),
    "slider-crank (bundled)": _bundled("slider_crank_offset", 0, 1),
    "jansen": _bundled("jansen", 0, 2),
    "peaucellier (walked)": _bundled("peaucellier", 1, 2, half=0.8),
}


def _route(monkeypatch, compiled: bool) -> None:
    floor = 0 if compiled else 10**15
    monkeypatch.setattr(_dyadic_fast, "COMPILED_MIN_PLACEMENTS", floor)
    monkeypatch.setattr(_dyadic_fast, "LOADED_MIN_PLACEMENTS", floor)
    assert _dyadic_fast.compiled_ready(10) is compiled


def _designs(link: Linkage, count: int, seed: int) -> np.ndarray:
    """Rod lengths 0.85-1.15 times the linkage's, the rods between pins kept (they must fit)."""
    rng = np.random.default_rng(seed)
    base = link.rod_lengths()
    pinned = set(link.pinned.tolist())
    ground = np.array([{int(i), int(j)} <= pinned for i, j in link.rods])
    scale = np.where(ground, 1.0, rng.uniform(0.85, 1.15, (count, len(base))))
    return np.vstack([base, base * scale[1:]])


@pytest.mark.parametrize("name", CASES)
def test_the_compiled_batch_equals_the_numpy_batch(name, monkeypatch):
    link, pivot, tip, angles = CASES[name]
    assert dyadic_order(link, pivot, tip) is not None
    table = _designs(link, 60, seed=len(name))
    _route(monkeypatch, compiled=False)
    want = kinematics(link, pivot, tip, angles, lengths=table)
    _route(monkeypatch, compiled=True)
    got = kinematics(link, pivot, tip, angles, lengths=table)
    assert want.valid[0].sum() > len(angles) // 3  # the drawing's own design moves
    assert 0.2 < want.valid.mean() and np.array_equal(got.valid, want.valid)
    scale = np.median(link.rod_lengths())
    for field, tol in (("positions", 1e-12), ("velocities", 1e-10), ("accelerations", 1e-8)):
        g, w = getattr(got, field), getattr(want, field)
        assert np.array_equal(np.isnan(g), np.isnan(w)), field
        assert np.nanmax(np.abs(g - w)) <= tol * scale, field
    p = got.positions[got.valid]  # neither route: every rod at its design's length
    e = p[:, link.rods[:, 0]] - p[:, link.rods[:, 1]]
    rows = np.nonzero(got.valid)[0]
    assert np.abs(np.hypot(e[..., 0], e[..., 1]) - table[rows]).max() < 1e-12 * table.max()


def test_a_design_near_a_touching_is_walked_and_the_others_are_compiled(monkeypatch):
    link, pivot, tip, angles = CASES["peaucellier (walked)"]
    table = _designs(link, 40, seed=3)
    _route(monkeypatch, compiled=True)
    steps = dyadic_order(link, pivot, tip)
    guides = guide_rows(link)
    theta = float(np.arctan2(*(link.vertices[tip] - link.vertices[pivot])[::-1]))
    grid, where = _grid(theta, angles)
    *_, valid, walk = _dyadic_fast.solve_designs(
        steps, modes_at(steps, link.vertices, guides), link.vertices, grid, where, table,
        ground_fits(link, table), guides,
    )  # fmt: skip
    assert walk.any()  # the inversor's dyad passes near straight: NumPy walks those
    assert not valid[walk].any()  # and the compiled loop left them to it


def test_the_crank_tip_moves_on_its_circle_at_unit_crank_speed(monkeypatch):
    link = four_bar()
    table = _designs(link, 200, seed=9)
    angles = np.linspace(0.0, 2 * np.pi, 361)
    _route(monkeypatch, compiled=True)
    got = kinematics(link, 0, 1, angles, lengths=table)
    r = table[:, 0, None]
    tip_v = got.velocities[:, :, 1]
    want = np.stack([-r * np.sin(angles), r * np.cos(angles)], axis=-1)
    ok = got.valid
    assert ok.mean() > 0.5
    assert np.abs(tip_v[ok] - want[ok]).max() < 1e-14 * table.max()


def _two_arc_four_bar() -> Linkage:
    """Crank 1, coupler 3.8, rocker 0.4, ground 4: it assembles where the crank pin is 3.4 to
    4.2 from the rocker's pivot, two arcs of the crank circle, 1.2 rad on one of them."""
    a = np.array([np.cos(1.2), np.sin(1.2)])
    e = np.array([4.0, 0.0]) - a
    dist = np.hypot(*e)
    x = (3.8**2 - 0.4**2 + dist**2) / (2 * dist)
    c = a + x * e / dist + np.sqrt(3.8**2 - x**2) * np.array([-e[1], e[0]]) / dist
    return Linkage([[0, 0], a, c, [4, 0]], rods=[(0, 1), (1, 2), (2, 3)], pinned=[0, 3])


def test_only_the_arc_of_the_placement_is_valid_when_the_crank_circle_has_two(monkeypatch):
    link = _two_arc_four_bar()
    angles = np.linspace(-np.pi, np.pi, 181)[1:]
    table = _designs(link, 30, seed=5)
    _route(monkeypatch, compiled=False)
    want = kinematics(link, 0, 1, angles, lengths=table)
    _route(monkeypatch, compiled=True)
    got = kinematics(link, 0, 1, angles, lengths=table)
    np.testing.assert_array_equal(got.valid, want.valid)
    r = np.hypot(np.cos(angles) - 4.0, np.sin(angles))  # crank pin to the rocker's pivot
    assembles = (r >= 3.4) & (r <= 4.2)
    assert (angles[assembles] < 0).any()  # the other arc assembles too ...
    assert not got.valid[0, angles < 0].any()  # ... and is not on the placement's branch
    assert got.valid[0, assembles & (angles > 0)].mean() > 0.9
