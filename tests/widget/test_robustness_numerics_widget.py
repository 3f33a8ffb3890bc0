"""Numerical edge cases: nothing raises, nothing turns NaN, nothing jitters or loops.

Each case names the documented behaviour it checks (motion/simulator.py's module notes and
tolerances): a kinematic step that cannot make progress reports ``"blocked"`` and
leaves the positions exactly as they were; an exact linkage keeps its constraint
error at the round-off floor; a step always returns (promptly) with finite positions.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from linkage_widget import Linkage, LinkageFormatError
from linkage_widget.motion import (
    CORRECTOR_DEVIATION,
    DATA_TOL,
    Simulator,
)
from linkage_widget.rigidity import analyze
from linkage_widget.session.motion_driver import STEP_SLIDER
from linkage_widget.widget import LinkageWidget

sys.path.insert(0, str(Path(__file__).parents[1]))  # tests/: conftest and shared helpers
from motion_checks import (  # noqa: E402
    assert_frozen,
    exact_tolerance,
    run_until_settled,
)
from test_widget import click, drag, key, px, rod_mid  # noqa: E402  (event helpers)


def test_widget_unreachable_attractor_stops_and_stays_still():
    w = LinkageWidget(Linkage([[0.0, 0.0], [100.0, 0.0]], rods=[(0, 1)], pinned=[0]))
    click(w, *px(w, 1))
    w.attractor = (300.0, 100.0)
    assert w.running
    for _ in range(2000):
        w.advance()
        if not w.running:
            break
    assert not w.running and w.status == "blocked"
    before = w.linkage.copy()
    history = len(w.history)
    for _ in range(200):
        w.running = True  # a student pressing space again and again
        w.advance()
    assert w.linkage == before  # bit for bit: no jitter
    assert len(w.history) == history  # no empty motions recorded
    assert w.error == ""


def test_coincident_joints_that_share_no_rod():
    # A triangle and a separate rod whose end lies exactly on a triangle joint.
    link = Linkage(
        [[0.0, 0.0], [1.0, 0.0], [0.5, 1.0], [1.0, 0.0], [2.0, 0.5]],
        rods=[(0, 1), (1, 2), (0, 2), (3, 4)],
        pinned=[0],
    )
    report = analyze(link)
    assert report.dof == 4  # triangle about its pin (1) + the free rod (3)
    assert np.all(np.isfinite(report.velocity_basis))
    sim = Simulator(link, step_size=0.2)
    sim.attract(4, (3.0, 3.0))
    run_until_settled(sim)
    assert sim.status == "reached target"
    # the triangle did not move (corrections touch it at round-off level only)
    assert np.abs(sim.positions[:3] - link.vertices[:3]).max() < 1e-12
    assert sim.constraint_error() <= exact_tolerance(sim)
    dyn = Simulator(link, mode="dynamic", step_size=1 / 60, gravity=10.0)
    dyn.step(60)
    assert np.all(np.isfinite(dyn.positions)) and dyn.constraint_error() <= 1e-12

    w = LinkageWidget(link)
    click(w, *px(w, 3))
    assert w.selected_vertex == 1  # the lower index wins on a tie
    w.selected_vertex = 3
    w.key("d")
    assert w.linkage.n_vertices == 4 and w.linkage.n_rods == 3
    assert w.error == ""


def test_zero_length_rod_is_refused_in_the_widget_with_a_clear_message():
    w = LinkageWidget(Linkage([[0.0, 0.0], [100.0, 0.0], [50.0, 80.0]], rods=[(0, 1), (1, 2)]))
    on_zero = px(w, 0)
    drag(w, px(w, 2), on_zero, shiftKey=True)  # shift-drag: move vertex 2 onto vertex 0
    assert np.array_equal(w.linkage.vertices[2], w.linkage.vertices[0])
    assert w.selected_vertex == 2
    before, history = w.linkage.copy(), len(w.history)
    click(w, *on_zero, altKey=True)  # alt-click vertex 0: rod 2-0
    assert w.linkage == before and len(w.history) == history
    assert "zero length" in w.error and "coincide" in w.error
    assert "zero length" in w.controls.readout.value
    w.tool = "rod"  # the rod tool takes the same path
    w.selected_vertex = 2
    click(w, *on_zero)
    assert w.linkage == before
    with pytest.raises(ValueError, match="zero length"):
        Linkage([[1.0, 1.0], [1.0, 1.0]], rods=[(0, 1)])


def test_everything_pinned():
    link = Linkage([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]], rods=[(0, 1), (1, 2)], pinned=[0, 1, 2])
    assert analyze(link).dof == 0
    sim = Simulator(link)
    sim.attract(1, (5.0, 5.0))
    sim.step()
    assert sim.status == "blocked" and np.array_equal(sim.positions, link.vertices)
    assert_frozen(sim, 20)
    dyn = Simulator(link, mode="dynamic", step_size=1 / 60, gravity=100.0)
    dyn.attract(2, (5.0, 5.0))
    dyn.step(60)
    assert np.abs(dyn.positions - link.vertices).max() <= 1e-12

    w = LinkageWidget(link)
    click(w, *px(w, 1))
    w.attractor = (5.0, 5.0)
    w.advance(5)
    assert not w.running and w.status == "blocked" and w.linkage == link
    w.mode = "dynamic"
    w.gravity = 1000.0
    w.running = True
    w.advance(30)
    assert np.abs(w.linkage.vertices - link.vertices).max() <= 1e-12


def test_empty_linkage():
    for mode in ("kinematic", "dynamic"):
        sim = Simulator(Linkage(), mode=mode, gravity=9.81)
        sim.step(10)
        assert sim.status == "idle" and sim.constraint_error() == 0.0
        assert sim.positions.shape == (0, 2)
        with pytest.raises(IndexError):
            sim.attract(0, (1.0, 1.0))
    report = analyze(Linkage())
    assert report.dof == 0
    w = LinkageWidget()
    for k in ("f", "t", "d", "z", "c", " ", "v", "i", "Escape", "Home"):
        key(w, k)
    w.attractor = (1.0, 2.0)
    w.running = True
    w.advance(5)
    w.mode = "dynamic"
    w.running = True
    w.advance(5)
    assert w.linkage == Linkage()
    assert not w.error.startswith(("motion stopped", "analysis failed"))


@pytest.mark.parametrize("mode", ["kinematic", "dynamic"])
@pytest.mark.parametrize("end", ["min", "max"])
def test_step_size_at_the_slider_extremes(mode, end):
    lo, hi = STEP_SLIDER[mode][:2]
    w = LinkageWidget.load("peaucellier.txt")
    w.mode = mode
    slider = w.controls.sliders["step_size"]
    assert (slider.min, slider.max) == (lo, hi)
    slider.value = lo if end == "min" else hi
    assert w.step_size == slider.value
    lengths = w.linkage.rod_lengths()
    click(w, *px(w, 5))
    y0 = w.linkage.vertices[5, 1]
    w.attractor = (128.0, y0 + 40.0)
    if mode == "dynamic":
        w.gravity = w.controls.sliders["gravity"].max
    last = w.linkage.vertices.copy()
    for _ in range(150):
        w.advance()
        P = w.linkage.vertices
        assert np.all(np.isfinite(P))
        if mode == "kinematic":
            # a frame is one step: the predictor moves the pulled vertex by step_size, the
            # corrector by at most CORRECTOR_DEVIATION of that more
            move = np.linalg.norm(P[5] - last[5])
            assert move <= w.step_size * (1 + CORRECTOR_DEVIATION)
        last = P.copy()
    assert w.error == ""
    sim = w.simulator
    assert sim.constraint_error() <= exact_tolerance(sim)
    assert np.allclose(w.linkage.rod_lengths(), lengths, rtol=1e-9)
    assert w.linkage.vertices[5, 0] == pytest.approx(128.0, abs=1e-7)  # still on its line
    if mode == "kinematic":
        moved = w.linkage.vertices[5, 1] - y0
        if 150 * w.step_size < 40.0:  # a full step every frame
            assert 150 * w.step_size <= moved <= 150 * w.step_size * (1 + CORRECTOR_DEVIATION)
        else:
            assert moved == pytest.approx(40.0, abs=1e-6) and w.status == "reached target"


@pytest.mark.parametrize("alpha", [5e-324, 2.2e-311, 1e-300])
def test_a_vanishing_mass_distribution_moves_like_zero(alpha):
    # Found by the stateful tests: the rod-middle particles' inverse masses overflowed
    # for a subnormal alpha; dynamic positions turned NaN, kinematic steps were 'blocked'.
    link = Linkage([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]], rods=[(0, 1), (1, 2)], pinned=[0])
    for mode in ("kinematic", "dynamic"):
        runs = []
        for a in (alpha, 0.0):
            sim = Simulator(link, mode=mode, mass_distribution=a, gravity=10.0, step_size=0.05)
            sim.attract(2, (3.0, 1.0))
            sim.step(20)
            runs.append(sim.positions.copy())
            assert np.all(np.isfinite(sim.positions)) and sim.status != "blocked"
        assert np.allclose(runs[0], runs[1], rtol=0.0, atol=1e-12)
    w = LinkageWidget(link, mode="dynamic", gravity=100.0)
    w.mass_distribution = alpha
    w.running = True
    w.advance(10)
    assert w.error == "" and np.all(np.isfinite(w.linkage.vertices))


def test_splitting_a_pinned_rod_then_dynamics_keeps_the_rods_in_the_widget():
    # What a student does: pin both ends of a rod, split it (z) four times, switch to
    # dynamic mode and press play. The rods used to stretch by 27% within a second.
    w = LinkageWidget(Linkage([[0.0, 0.0], [120.0, 0.0]], rods=[(0, 1)], pinned=[0, 1]))
    for _ in range(4):
        click(w, *rod_mid(w, 0))
        key(w, "z")
    assert w.linkage.n_rods == 5 and w.analysis.status == "rigid but infinitesimally flexible"
    lengths = w.linkage.rod_lengths()
    w.controls.modes.value = "dynamic"
    w.controls.sliders["gravity"].value = 100.0
    key(w, " ")
    assert w.running
    w.advance(20)
    assert w.error == ""
    strain = np.abs(w.linkage.rod_lengths() / lengths - 1.0).max()
    assert strain <= DATA_TOL


@pytest.mark.parametrize("gap", [5e-324, 4.962243475981511e-167, 1e-151])
def test_an_almost_zero_rod_is_refused_everywhere(gap, tmp_path):
    # Found by the stateful tests: a vertex moved to (0, 5e-167) beside one at the
    # origin made a rod that passed the exact zero-length check; its squared length
    # underflowed to 0 and the motion divided by it (inf, then NaN).
    with pytest.raises(ValueError, match="zero length"):
        Linkage([[0.0, 0.0], [0.0, gap]], rods=[(0, 1)])
    link = Linkage([[0.0, 0.0], [0.0, gap], [5.0, 5.0]], rods=[(0, 2)])
    with pytest.raises(ValueError, match="zero length"):
        link.add_rod(0, 1)
    link = Linkage([[0.0, 0.0], [3.0, 4.0]], rods=[(0, 1)])
    with pytest.raises(ValueError, match="zero-length"):
        link.move_vertex(1, (0.0, gap))
    path = tmp_path / "tiny.txt"
    path.write_text(f"v\n0 0\n0 {gap!r}\ne\n0 1\n")
    with pytest.raises(LinkageFormatError, match="zero length") as info:
        Linkage.load(path)
    assert info.value.line == 5
    w = LinkageWidget.load("peaucellier.txt")
    before = w.linkage.copy()
    with pytest.raises(LinkageFormatError, match="line 5"):
        w.load_file(path)
    assert w.linkage == before and "line 5" in w.error


@pytest.mark.parametrize("short", [1e-3, 1e-6])
def test_a_nearly_massless_pinned_joint_does_not_break_the_factorisation(short):
    # Found by the stateful tests: with all mass in the rods (the mass slider at 1), a
    # pinned joint whose only rod is short and ends at another pin is nearly massless;
    # the banded Cholesky of the Schur complement failed and LinAlgError escaped step().
    link = Linkage(
        [[-short, 0.0], [0.0, 0.0], [0.4, 0.9], [1.7, 1.1], [1.5, 0.0]],
        rods=[(0, 1), (1, 2), (2, 3), (3, 4)],
        pinned=[0, 1, 4],
    )
    sim = Simulator(link, mass_distribution=1.0, step_size=0.01)
    sim.attract(2, (-1.0, 1.0))
    sim.step(20)
    assert sim.status == "moved" and sim.constraint_error() <= exact_tolerance(sim)
    dyn = Simulator(link, mode="dynamic", step_size=1 / 60, mass_distribution=1.0, gravity=10.0)
    dyn.step(30)
    assert np.all(np.isfinite(dyn.positions)) and dyn.constraint_error() <= exact_tolerance(dyn)
    assert dyn.positions[2, 1] < 0.85  # the four-bar swings down
    w = LinkageWidget(link, mode="dynamic", gravity=100.0)
    w.controls.sliders["mass_distribution"].value = 1.0
    w.running = True
    w.advance(10)
    assert w.error == "" and w.linkage.vertices[2, 1] < 0.85
