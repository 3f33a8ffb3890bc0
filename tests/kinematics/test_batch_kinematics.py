"""kinematics(..., lengths=...): many designs and crank angles at once, vectorised.

Oracles: the continuation of today's ``kinematics`` (one design, Newton along the crank),
run design by design on a linkage built at that design's lengths; the four-bar's closed
form in sympy; pylinkage's numba solver on the same four-bar and crank angles.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from kinematic_cases import closed_form, four_bar, slider_crank

from linkage_widget import Linkage
from linkage_widget.examples import load_example
from linkage_widget.kinematics import MechanismError, kinematics
from linkage_widget.kinematics._dyadic import dyadic_order


def _triad() -> Linkage:
    """Pins 0, 1, 2; crank 0-3; a rigid triangle 4-5-6 tied to 3, 1 and 2: no dyad."""
    v = [[0, 0], [4, 0], [2, 4], [1, 0.3], [1.8, 1.2], [2.8, 1.0], [2.2, 2.0]]
    rods = [(0, 3), (3, 4), (4, 5), (5, 6), (4, 6), (5, 1), (6, 2)]
    return Linkage(v, rods=rods, pinned=[0, 1, 2])


def _peaucellier() -> tuple[Linkage, np.ndarray]:
    link = load_example("peaucellier")
    d = link.vertices[2] - link.vertices[1]
    return link, np.arctan2(d[1], d[0]) + np.linspace(-0.5, 0.5, 41)


CASES = {
    "four-bar": (four_bar(), 0, 1, np.linspace(0.0, 2 * np.pi, 73)),
    "rocking four-bar": (four_bar(2.0, 2.0, 3.0, 4.0), 0, 1, np.linspace(0, 2 * np.pi, 73)),
    "offset slider-crank": (slider_crank(offset=0.3, theta=0.5), 0, 1, np.linspace(0, 7, 60)),
    "peaucellier": (*_peaucellier()[:1], 1, 2, _peaucellier()[1]),
    "triad (not dyadic)": (_triad(), 0, 3, 0.2915 + np.linspace(0.0, 1.0, 41)),
}


@pytest.mark.parametrize("name", CASES)
def test_one_design_equals_the_continuation(name):
    link, c, t, angles = CASES[name]
    assert (dyadic_order(link, c, t) is None) == (name == "triad (not dyadic)")
    want = kinematics(link, c, t, angles)
    got = kinematics(link, c, t, angles, lengths=link.rod_lengths()[None])
    assert got.positions.shape == (1, len(angles), link.n_vertices, 2)
    assert got.valid.shape == (1, len(angles))
    assert 0 < want.valid.sum() and np.array_equal(got.valid[0], want.valid)
    scale = np.median(link.rod_lengths())
    assert np.array_equal(np.isnan(got.positions[0]), np.isnan(want.positions))
    assert np.nanmax(np.abs(got.positions[0] - want.positions)) <= 1e-12 * scale
    ok = want.valid
    assert np.abs(got.velocities[0, ok] - want.velocities[ok]).max() <= 1e-8 * scale
    assert np.abs(got.accelerations[0, ok] - want.accelerations[ok]).max() <= 1e-5 * scale


def test_designs_of_a_four_bar_each_equal_their_own_linkage():
    base = four_bar()
    designs = [
        (1.0, 3.5, 2.5, 4.0),
        (1.2, 3.3, 2.6, 4.0),
        (0.8, 3.8, 2.2, 4.0),
        (1.5, 3.0, 3.0, 4.0),
    ]
    angles = np.linspace(0.0, 2 * np.pi, 61)
    table = np.array([d[:3] for d in designs])
    got = kinematics(base, 0, 1, angles, lengths=table)
    assert got.positions.shape == (4, 61, 4, 2) and got.valid.shape == (4, 61)
    assert np.array_equal(got.lengths, table)
    for i, design in enumerate(designs):
        want = kinematics(four_bar(*design), 0, 1, angles)
        assert np.array_equal(got.valid[i], want.valid)
        assert np.nanmax(np.abs(got.positions[i] - want.positions)) <= 1e-12
    # the first design against sympy's closed form, derivatives included
    pos, vel, acc = closed_form()(angles)
    assert np.abs(got.positions[0, :, 2] - pos).max() < 1e-12
    assert np.abs(got.velocities[0, :, 2] - vel).max() < 1e-10
    assert np.abs(got.accelerations[0, :, 2] - acc).max() < 1e-8


def test_a_design_that_does_not_assemble_is_invalid_throughout():
    table = np.array([[1.0, 3.5, 2.5], [1.0, 1.0, 1.0]])  # 1 + 1 < 4 - 1: the coupler misses
    got = kinematics(four_bar(), 0, 1, [0.0, 1.0], lengths=table)
    assert got.valid[0].all() and not got.valid[1].any()
    assert np.isnan(got.positions[1]).all()


def test_designs_of_a_triad_keep_their_rods():
    link = _triad()
    table = np.tile(link.rod_lengths(), (3, 1))
    table[1:, 0] *= [1.003, 0.997]  # the crank a little longer, a little shorter
    angles = 0.2915 + np.linspace(0.0, 0.4, 13)  # its crank is at 0.2915 rad, near a limit
    got = kinematics(link, 0, 3, angles, lengths=table)
    assert got.valid[0].all() and (got.valid.sum(axis=1) >= 3).sum() >= 2
    for i in np.flatnonzero(got.valid.any(axis=1)):
        p = got.positions[i][got.valid[i]]
        d = p[:, link.rods[:, 0]] - p[:, link.rods[:, 1]]
        assert np.abs(np.hypot(d[..., 0], d[..., 1]) - table[i]).max() < 1e-12
        crank = p[:, 3] - p[:, 0]
        wrap = np.angle(np.exp(1j * (np.arctan2(crank[:, 1], crank[:, 0]) - angles[got.valid[i]])))
        assert np.abs(wrap).max() < 1e-12


def test_bad_lengths_say_what_is_wrong():
    link = four_bar()
    with pytest.raises(ValueError, match=r"lengths must be an array \(b, 3\)"):
        kinematics(link, 0, 1, [0.0], lengths=[1.0, 3.5, 2.5])
    with pytest.raises(ValueError, match=r"lengths\[0, 2\] \(rod 2\)"):
        kinematics(link, 0, 1, [0.0], lengths=[[1.0, 3.5, -2.5]])


def test_same_positions_as_pylinkage_on_the_four_bar():
    pylinkage = pytest.importorskip("pylinkage")
    from pylinkage.simulation import Linkage as SimLinkage

    k = 360
    w = 2 * np.pi / k
    a, d = pylinkage.Ground(0.0, 0.0, name="A"), pylinkage.Ground(4.0, 0.0, name="D")
    crank = pylinkage.Crank(anchor=a, radius=1.0, angular_velocity=w, initial_angle=0.0)
    c = pylinkage.RRRDyad(anchor1=crank.output, anchor2=d, distance1=3.5, distance2=2.5)
    theirs = SimLinkage([a, d, crank, c]).step_fast(iterations=k)  # joints A, D, B, C
    link = four_bar()
    ours = kinematics(link, 0, 1, w * np.arange(1, k + 1), lengths=link.rod_lengths()[None])
    assert ours.valid.all()
    assert np.abs(ours.positions[0][:, [0, 3, 1, 2]] - theirs).max() < 1e-9


def test_designs_are_refused_as_the_continuation_refuses():
    dead = Linkage([[0, 0], [1, 0], [2, 0], [4, 0]], rods=[(0, 1), (1, 2), (2, 3)], pinned=[0, 3])
    five_bar = Linkage(
        [[0, 0], [1, 0], [2, 1.5], [3, 1], [4, 0]],
        rods=[(0, 1), (1, 2), (2, 3), (3, 4)],
        pinned=[0, 4],
    )
    for link, words in ((dead, "dead point"), (five_bar, "1 free degree")):
        table = link.rod_lengths()[None]
        with pytest.raises(MechanismError, match=words):
            kinematics(link, 0, 1, [0.0])
        with pytest.raises(MechanismError, match=words):
            kinematics(link, 0, 1, [0.0], lengths=table)


def test_an_angle_a_hair_below_zero_is_the_angle_zero():
    # np.mod(-1e-17, 2 pi) is 2 pi itself: the sample fell off the end of the grid
    # (IndexError; review of issue 27). theta + linspace(-pi, pi, ...) met it in practice.
    fb = four_bar()
    lengths = fb.rod_lengths()[None]
    tiny = kinematics(fb, 0, 1, [0.0, -1e-17, -1e-300], lengths=lengths)
    assert tiny.valid.all()
    np.testing.assert_array_equal(tiny.positions[0, 1], tiny.positions[0, 0])
    np.testing.assert_array_equal(tiny.positions[0, 2], tiny.positions[0, 0])


def _slider_root(lengths: np.ndarray, theta: np.ndarray, offset: float) -> np.ndarray:
    """The piston's x on the + side (the side of ``slider_crank``'s placement), ``(b, k)``."""
    r, rod = lengths[:, :1], lengths[:, 1:]
    return r * np.cos(theta) + np.sqrt(rod**2 - (r * np.sin(theta) - offset) ** 2)


def _coupler_root(lengths: np.ndarray, theta: np.ndarray, ground: float) -> np.ndarray:
    """The coupler joint left of crank tip → pivot 3 (``four_bar``'s side), ``(b, k, 2)``."""
    r, cp, rk = (lengths[:, i, None] for i in range(3))
    bx, by = r * np.cos(theta), r * np.sin(theta)
    ex, ey = ground - bx, -by
    dist = np.hypot(ex, ey)
    x = (cp**2 - rk**2 + dist**2) / (2 * dist)
    h = np.sqrt(cp**2 - x**2)
    return np.stack([bx + (x * ex - h * ey) / dist, by + (x * ey + h * ex) / dist], axis=-1)


def test_the_batch_keeps_the_placement_s_root_next_to_a_limit():
    # review of issue 27: 0.006 rad from the limit the walk's predictor (velocity ~ 1/sqrt)
    # overshot and the whole far end of the arc took the - root of the piston
    base = slider_crank(offset=0.3, theta=0.5)
    table = np.array([[1.9027, 1.2944]])
    angles = 0.5 + np.linspace(0, 2 * np.pi, 73)
    got = kinematics(base, 0, 1, angles, lengths=table)
    ok = got.valid[0]
    assert ok[60] and ok.sum() >= 10
    want = _slider_root(table, angles, 0.3)[0]
    assert np.abs(got.positions[0, ok, 2, 0] - want[ok]).max() < 1e-9


def test_every_valid_batch_position_is_the_closed_form_root_of_its_branch():
    rng = np.random.default_rng(7)
    sc = rng.uniform(0.2, 4, (150, 2))
    angles = 0.5 + np.linspace(0, 2 * np.pi, 73)
    got = kinematics(slider_crank(offset=0.3, theta=0.5), 0, 1, angles, lengths=sc)
    ok = got.valid
    assert ok.sum() > 1000
    assert np.abs(got.positions[..., 2, 0][ok] - _slider_root(sc, angles, 0.3)[ok]).max() < 1e-9
    fb = rng.uniform(0.3, 5, (150, 3))
    angles = np.linspace(0, 2 * np.pi, 73)
    got = kinematics(four_bar(), 0, 1, angles, lengths=fb)
    ok = got.valid
    assert ok.sum() > 1000
    assert np.abs(got.positions[:, :, 2][ok] - _coupler_root(fb, angles, 4.0)[ok]).max() < 1e-9


def test_both_routes_keep_the_samples_on_the_branch_when_the_first_is_off_it(monkeypatch):
    # review of issue 27: the continuation route started at angles[0]; off the branch
    # there it marked the whole design invalid, the closed form 17 samples valid
    driven = importlib.import_module("linkage_widget.kinematics.driven")  # the module
    link = load_example("peaucellier")
    d = link.vertices[3] - link.vertices[0]
    angles = np.arctan2(d[1], d[0]) + np.linspace(-np.pi, np.pi, 37)[1:]
    table = link.rod_lengths()[None]
    closed = kinematics(link, 0, 3, angles, lengths=table)
    monkeypatch.setattr(driven, "dyadic_order", lambda *args: None)
    traced = kinematics(link, 0, 3, angles, lengths=table)
    assert not closed.valid[0, 0] and closed.valid.sum() >= 10
    np.testing.assert_array_equal(traced.valid, closed.valid)
    ok = closed.valid
    assert np.abs(traced.positions[ok] - closed.positions[ok]).max() < 1e-9
    p = traced.positions[ok]  # every rod at its length: the oracle that is neither route
    e = p[:, link.rods[:, 0]] - p[:, link.rods[:, 1]]
    assert np.abs(np.hypot(e[..., 0], e[..., 1]) - table[0]).max() < 1e-12 * table.max()
