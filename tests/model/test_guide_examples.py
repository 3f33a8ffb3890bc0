"""The bundled examples with sliders and slots: their guides, their freedom, their motion.

The oracles are the mechanisms' closed forms (the slider-crank's piston, the Scotch
yoke's cosine, the Whitworth dead centres and quick-return ratio, the trammel's
ellipse), set against positions re-solved from scratch on the constraint rows by
``scipy.optimize.least_squares`` (``kinematics.hold``/``drive``), not the simulator.
"""

import re

import numpy as np
import pytest
from kinematics import dof, drive, hold, rank
from test_examples import GUIDED

from linkage_widget import Simulator, analyze
from linkage_widget.constraints import ConstraintSet
from linkage_widget.examples import describe, example_path, load_example
from linkage_widget.io.sidecar import read_extensions

ROUND_OFF = 1e-9  # of the drawing's size, for positions re-solved by Newton steps
STEP = np.radians(2.0)


def crank_turn(link, pivot, driven, extra=()):
    """Positions over a full turn of the crank, and the absolute crank angle of each."""
    start = np.arctan2(*(link.vertices[driven] - link.vertices[pivot])[::-1])
    rel = np.mod(np.asarray(extra, dtype=float) - start, 2 * np.pi)
    t = np.unique(np.concatenate([np.arange(STEP, 2 * np.pi, STEP), rel]))
    return drive(link, pivot, driven, t), start + t


def size(link) -> float:
    return float(np.ptp(link.vertices))


def slider_crank_x(theta, r, rod, e):
    r"""Piston position on the line :math:`y = -e`, crank ``r``, connecting rod ``rod`` (:math:`l`).

    .. math:: x = r\cos\theta + \sqrt{l^2 - (r\sin\theta + e)^2}
    """
    return r * np.cos(theta) + np.sqrt(rod**2 - (r * np.sin(theta) + e) ** 2)


# ------------------------------------------------------------------ every guided example
@pytest.mark.parametrize("name", list(GUIDED))
def test_guides_hold_at_the_stored_positions(name):
    """Each slider's joint on its line and each slot's pin on its axis, measured directly."""
    link = load_example(name)
    assert example_path(name).with_name(f"{name}.txt.json").is_file()
    assert len(link.sliders) + len(link.slots) > 0
    p, tol = link.vertices, 1e-12 * size(link)
    for joint, point, direction in link.sliders:
        d = p[joint] - point
        assert abs(d[0] * direction[1] - d[1] * direction[0]) <= tol, (joint, point, direction)
    for a, b, c in link.slots.tolist():
        e, w = p[b] - p[a], p[c] - p[a]
        assert abs(e[0] * w[1] - e[1] * w[0]) / np.hypot(*e) <= tol, (a, b, c)


@pytest.mark.parametrize("name", list(GUIDED))
def test_dof_counts_the_sliders_and_slots(name):
    """2n - rank of the rows (dense SVD) is the Grübler count; the analysis says the same."""
    want, why = GUIDED[name]
    link = load_example(name)
    cs = ConstraintSet.from_linkage(link)
    kinds = cs.row_kinds().tolist()
    assert kinds.count("slider") == len(link.sliders) and kinds.count("slot") == len(link.slots)
    assert rank(link) == cs.n_constraints  # independent rows: a regular placement
    assert dof(link) == want, why
    assert analyze(link).dof == want, why


@pytest.mark.parametrize("name", list(GUIDED))
def test_the_sibling_tracks_the_outputs_the_note_names(name):
    """Loaded in the widget, the output's path is drawn from the start."""
    link = load_example(name)
    ext = read_extensions(example_path(name), link.n_vertices, link.rods)
    note = describe(name)
    assert ext.tracked
    for v in ext.tracked:
        assert re.search(rf"\b{v}\b", note), (name, v)
    assert ext.names == () or len(ext.names) == link.n_vertices


# ------------------------------------------------------------------ slider-cranks
@pytest.mark.parametrize(("name", "e"), [("slider_crank", 0.0), ("slider_crank_offset", 20.0)])
def test_piston_follows_the_closed_form(name, e):
    link = load_example(name)
    r, rod = link.rod_lengths()
    assert (r, rod) == (50.0, 150.0)
    path, theta = crank_turn(link, 0, 1)
    piston = path[:, 2]
    tol = ROUND_OFF * size(link)
    assert np.abs(piston[:, 1] + e).max() <= tol
    assert np.abs(piston[:, 0] - slider_crank_x(theta, r, rod, e)).max() <= tol
    if e == 0.0:  # the note: speed -r (sin + (r / 2l) sin 2 theta) to first order in r / l
        x = np.concatenate([[link.vertices[2, 0]], piston[:, 0]])
        angle = np.concatenate([[theta[0] - STEP], theta])
        a1, a2 = (2.0 * np.mean(x * np.cos(k * angle)) for k in (1, 2))
        assert a1 == pytest.approx(r, rel=1e-9)
        assert 2.0 * a2 / a1 == pytest.approx(r / (2.0 * rod), rel=0.05)


def test_offset_dead_centres_stroke_and_quick_return():
    """Dead centres where crank and rod line up; the note's stroke and ratio are these."""
    link = load_example("slider_crank_offset")
    r, rod, e = 50.0, 150.0, 20.0
    stretched = -np.arcsin(e / (rod + r))  # crank along the rod, piston farthest
    folded = np.pi - np.arcsin(e / (rod - r))  # crank folded back over the rod, nearest
    path, theta = crank_turn(link, 0, 1, extra=(stretched, folded))
    x = path[:, 2, 0]
    tol = ROUND_OFF * size(link)
    far, near = np.sqrt((rod + r) ** 2 - e**2), np.sqrt((rod - r) ** 2 - e**2)
    assert np.isclose(np.mod(theta[np.argmax(x)], 2 * np.pi), np.mod(stretched, 2 * np.pi))
    assert np.isclose(np.mod(theta[np.argmin(x)], 2 * np.pi), folded)
    assert abs(x.max() - far) <= tol and abs(x.min() - near) <= tol
    toward = np.degrees(np.mod(folded - stretched, 2 * np.pi))  # counterclockwise
    note = describe("slider_crank_offset")
    assert f"{far - near:.2f}" in note and f"{toward:.2f}°" in note
    assert f"{360 - toward:.2f}°" in note and f"{(360 - toward) / toward:.3f}" in note


# ------------------------------------------------------------------ Scotch yoke
def test_scotch_yoke_ram_moves_as_a_pure_cosine():
    link = load_example("scotch_yoke")
    path, theta = crank_turn(link, 0, 1)
    tol = ROUND_OFF * size(link)
    o, a, top, bottom, ram, rod = (path[:, k] for k in range(6))
    assert np.abs(ram[:, 0] - (120.0 + 50.0 * np.cos(theta))).max() <= tol
    assert np.abs(np.column_stack([ram[:, 1], rod[:, 1]])).max() <= tol  # on y = 0
    assert np.abs(top[:, 0] - bottom[:, 0]).max() <= tol  # the yoke never turns
    assert np.abs(a[:, 0] - top[:, 0]).max() <= tol  # the pin in the slot
    assert np.ptp(ram[:, 0]) == pytest.approx(100.0, abs=1e-6)


# ------------------------------------------------------------------ Whitworth
def test_whitworth_dead_centres_and_quick_return_ratio():
    """Ram strokes end where the crank pin crosses the ram's line: cos(beta) = d / r."""
    link = load_example("whitworth")
    o2, o4 = link.vertices[0], link.vertices[1]
    r, lever, rod = link.rod_lengths()
    d = float(o2[1] - o4[1])
    assert np.allclose([r, d, lever, rod], [60.0, 30.0, 100.0, 200.0], rtol=1e-15)
    beta = np.arccos(d / r)
    right, left = -np.pi / 2 + beta, 3 * np.pi / 2 - beta  # the pin on y = -d
    path, theta = crank_turn(link, 0, 2, extra=(right, left))
    x = path[:, 4, 0]
    tol = ROUND_OFF * size(link)
    assert np.abs(path[:, 4, 1] - o4[1]).max() <= tol
    assert abs(x.max() - (lever + rod)) <= tol and abs(x.min() - (rod - lever)) <= tol
    at = np.mod(theta, 2 * np.pi)
    assert np.isclose(at[np.argmax(x)], np.mod(right, 2 * np.pi))
    assert np.isclose(at[np.argmin(x)], left)
    # the slotted lever turns all the way round with the crank
    arm = path[:, 3] - o4
    assert np.ptp(np.unwrap(np.arctan2(arm[:, 1], arm[:, 0]))) > np.radians(350.0)
    slow = np.degrees(np.mod(left - right, 2 * np.pi))  # counterclockwise, toward O4
    assert slow == pytest.approx(240.0) and slow / (360.0 - slow) == pytest.approx(2.0)
    note = describe("whitworth")
    assert re.search(r"240/120 = 2\b", note) and "x = 300 and x = 100" in note


def stroke_times(name, pivot, tip, out, steps):
    """Run the widget's motor (kinematic mode, 0.02 rad a step) on the crank and time the strokes.

    Returns the times between successive dead centres of ``out``'s x (a turning point of
    the ram), ``sim.time`` read at each step (crank radians at unit speed).
    """
    sim = Simulator(load_example(name), step_size=0.02)
    sim.add_motor(pivot, tip, 1.0)  # counterclockwise
    times, xs = [], []
    for _ in range(steps):
        sim.step(1)
        times.append(sim.time)
        xs.append(sim.positions[out, 0])
    x = np.array(xs)
    turning = np.flatnonzero(np.diff(np.sign(np.diff(x))) != 0) + 1
    assert sim.constraint_error() < 1e-9
    return np.diff(np.array(times)[turning]), x


@pytest.mark.parametrize(
    ("name", "pivot", "tip", "out", "ratio", "tol"),
    [("whitworth", 0, 2, 4, 2.0, 0.05), ("slider_crank_offset", 0, 1, 2, 1.0666, 0.02)],
)
def test_the_motor_times_the_quick_return(name, pivot, tip, out, ratio, tol):
    """What the notes suggest trying: a constant motor, and the strokes' times (one step 0.02)."""
    strokes, x = stroke_times(name, pivot, tip, out, 560)
    assert len(strokes) >= 2
    slow, fast = max(strokes[:2]), min(strokes[:2])
    assert abs(slow + fast - 2 * np.pi) < 0.05  # one turn of the crank
    assert abs(slow / fast - ratio) < tol, (slow, fast)


# ------------------------------------------------------------------ elliptic trammel
def test_trammel_points_trace_their_ellipses():
    """Q held at points of its axis past y = 0: T and every point of the rod on its ellipse."""
    link = load_example("elliptic_trammel")
    length, a, b = 180.0, 120.0, 60.0
    ys = np.arange(104.0, -171.0, -4.0)
    path = hold(link, 2, np.column_stack([np.zeros_like(ys), ys]))
    p, t, q = path[:, 0], path[:, 1], path[:, 2]
    tol = ROUND_OFF
    assert np.abs(p[:, 1]).max() <= tol * length and np.abs(q[:, 0]).max() <= tol * length
    assert np.abs(np.hypot(*(p - q).T) - length).max() <= tol * length
    assert np.abs((t[:, 0] / a) ** 2 + (t[:, 1] / b) ** 2 - 1.0).max() <= tol
    for s in (30.0, 90.0, 150.0):  # a point s from Q: semi-axes s and length - s
        z = q + (s / length) * (p - q)
        assert np.abs((z[:, 0] / s) ** 2 + (z[:, 1] / (length - s)) ** 2 - 1.0).max() <= tol
    assert t[:, 1].min() < -0.9 * b and t[:, 1].max() > 0.5 * b  # it went round past the axis


def test_trammel_dragged_by_the_simulator_stays_on_its_ellipse():
    """The widget's drag: the attractor pulls Q down its axis, past the origin, to y = -120."""
    sim = Simulator(load_example("elliptic_trammel"), step_size=2.0)
    sim.attract(2, (0.0, -120.0))
    tracer = []
    for _ in range(300):
        sim.step(1)
        tracer.append(sim.positions[1].copy())
        if sim.status == "reached target":
            break
    assert sim.status == "reached target"
    t = np.array(tracer)
    assert np.abs((t[:, 0] / 120.0) ** 2 + (t[:, 1] / 60.0) ** 2 - 1.0).max() <= 1e-12
    # Q at -120 is sin = -2/3: T = (120 cos, 60 sin) = (40 sqrt 5, -40), P on the x axis
    assert np.allclose(sim.positions[1], [40.0 * np.sqrt(5.0), -40.0], rtol=0, atol=1e-9)
    assert abs(sim.positions[0, 1]) <= 1e-12 and t[:, 0].max() > 119.99


# ------------------------------------------------------------------ three straight lines
def test_straight_lines_is_the_three_mechanisms_side_by_side():
    link = load_example("straight_lines")
    p = link.vertices
    peaucellier, hart = load_example("peaucellier"), load_example("hart")
    assert np.array_equal(p[:6], peaucellier.vertices)
    assert np.array_equal(p[6:14], hart.vertices + [460.0, 0.0])
    assert link.rods[: peaucellier.n_rods].tolist() == peaucellier.rods.tolist()
    assert link.rods[peaucellier.n_rods : -2].tolist() == (hart.rods + 6).tolist()
    assert link.angles.tolist() == (hart.angles + 6).tolist()
    assert link.pinned.tolist() == [0, 1, 6, 7, 14]
    assert link.sliders == ((16, (760.0, 0.0), (0.0, 1.0)),)
    assert np.allclose(np.hypot(*(p[15] - p[14])), 50.0) and np.allclose(
        np.hypot(*(p[16] - p[15])), 150.0
    )


@pytest.mark.parametrize(
    ("pivot", "driven", "out", "x", "degrees"),
    [(1, 2, 5, 128.0, 40.0), (7, 8, 9, 400.0, 80.0), (14, 15, 16, 760.0, 90.0)],
)
def test_straight_lines_each_output_keeps_its_x(pivot, driven, out, x, degrees):
    link = load_example("straight_lines")
    t = np.radians(np.arange(5.0, degrees + 1.0, 5.0))
    path = np.concatenate([drive(link, pivot, driven, -t)[::-1], drive(link, pivot, driven, t)])
    tol = ROUND_OFF * size(link)
    assert np.abs(path[:, out, 0] - x).max() <= tol
    assert np.ptp(path[:, out, 1]) > 50.0  # it really travels along its line
