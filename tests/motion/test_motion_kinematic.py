"""Kinematic mode: the attractor flow keeps every constraint, stops cleanly, follows the mass.

Constraint checks are computed here from positions (rod lengths, pin offsets,
the Peaucellier output's line), not through ``ConstraintSet``, so they test the
simulator rather than trust it.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import reference_linkage
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from linkage_widget import Linkage
from linkage_widget.constraints import ConstraintSet
from linkage_widget.mass import mass_matrix
from linkage_widget.motion import STATUSES, Simulator


def _rod_strain(link: Linkage, positions: np.ndarray) -> float:
    i, j = link.rods.T
    lengths = np.hypot(*(positions[i] - positions[j]).T)
    return float(np.max(np.abs(lengths / link.rod_lengths() - 1)))


def _pin_offset(link: Linkage, positions: np.ndarray) -> float:
    pins = link.pinned
    scale = float(np.median(link.rod_lengths()))
    return float(np.max(np.abs(positions[pins] - link.vertices[pins]), initial=0.0)) / scale


def _crank_point(centre, radius, angle):
    return centre + radius * np.array([np.cos(angle), np.sin(angle)])


# ------------------------------------------------------------------ Peaucellier
PEAUCELLIER = {
    # name: (loader, output line x, crank sweep half-range around angle 0, in degrees);
    # the cranks reach +-132.8 and +-46.5 degrees (|O2| >= R - r), the bundled one starts at 90
    "bundled": (lambda: Linkage.load("peaucellier.txt"), 128.0, 120.0),
    "reference": (lambda: Linkage.load(reference_linkage("peaucellier.txt")), 550.0, 40.0),
}


@pytest.fixture(params=sorted(PEAUCELLIER))
def peaucellier(request):
    load, line_x, sweep = PEAUCELLIER[request.param]
    link = load()
    assert link.vertices[5, 0] == line_x
    return link, line_x, sweep


@pytest.mark.slow
@pytest.mark.parametrize("step_size", [1.0, 5.0, 10.0])
def test_peaucellier_output_driven_back_and_forth(peaucellier, step_size):
    link, line_x, _ = peaucellier
    sim = Simulator(link, step_size=step_size)
    sim.stop_at_singular = False  # through the flat rhombus on purpose: drift-free motion
    y0 = link.vertices[5, 1]
    line, rods, pins = 0.0, 0.0, 0.0
    for k in range(2000):
        sim.attract(5, (line_x, y0 + 150.0 * np.sin(2 * np.pi * k / 300)))
        sim.step()
        pos = sim.positions
        line = max(line, abs(pos[5, 0] - line_x) / line_x)
        rods = max(rods, _rod_strain(link, pos))
        pins = max(pins, _pin_offset(link, pos))
    assert line <= 1e-9
    assert rods <= 1e-12
    assert pins <= 1e-12


@pytest.mark.slow
@pytest.mark.parametrize("step_size", [1.0, 5.0, 10.0])
def test_peaucellier_crank_driven_around_its_arc(peaucellier, step_size):
    link, line_x, sweep = peaucellier
    centre = link.vertices[1]
    radius = float(np.hypot(*(link.vertices[2] - centre)))
    sim = Simulator(link, step_size=step_size)
    sim.stop_at_singular = False  # through the flat rhombus on purpose: drift-free motion
    line, rods, pins, swept = 0.0, 0.0, 0.0, []
    for k in range(2000):
        angle = np.radians(sweep) * np.sin(2 * np.pi * k / 1000)  # slow enough for step 1
        sim.attract(2, _crank_point(centre, radius, angle))
        sim.step()
        pos = sim.positions
        line = max(line, abs(pos[5, 0] - line_x) / line_x)
        rods = max(rods, _rod_strain(link, pos))
        pins = max(pins, _pin_offset(link, pos))
        swept.append(np.arctan2(*(pos[2] - centre)[::-1]))
    assert np.degrees(np.ptp(swept)) > 1.95 * sweep  # the crank really went round
    assert line <= 1e-9
    assert rods <= 1e-12
    assert pins <= 1e-12


@pytest.mark.parametrize("step_size", [1.0, 5.0, 10.0])
def test_peaucellier_crank_pulled_past_its_end_blocks_without_jitter(peaucellier, step_size):
    link, line_x, _ = peaucellier
    centre = link.vertices[1]
    radius = float(np.hypot(*(link.vertices[2] - centre)))
    start = float(np.arctan2(*(link.vertices[2] - centre)[::-1]))
    sim = Simulator(link, step_size=step_size)
    sim.attract(2, _crank_point(centre, radius, start + np.radians(100.0)))  # beyond the arc
    statuses = []
    for _ in range(400):
        sim.step()
        statuses.append(sim.status)
    assert statuses[-1] == "blocked"
    first = statuses.index("blocked")
    assert set(statuses[first:]) == {"blocked"}
    # stopped: not a single bit changes any more, and no velocity is reported
    held = sim.positions.copy()
    sim.step(50)
    assert np.array_equal(sim.positions, held)
    assert not sim.velocities.any()
    # at the dead point, still on the line (no jump to the other branch)
    assert abs(held[5, 0] - line_x) / line_x <= 1e-9
    assert _rod_strain(link, held) <= 1e-12
    # pulled back, it returns the way it came: the same assembly, not a mirror image
    sim.attract(2, link.vertices[2])
    sim.step(400)
    assert sim.status == "reached target"
    assert np.abs(sim.positions - link.vertices).max() < 1e-5 * line_x


def test_peaucellier_output_pulled_off_its_line_stays_on_it(peaucellier):
    link, line_x, _ = peaucellier
    sim = Simulator(link, step_size=5.0)
    sim.attract(5, (line_x + 60.0, link.vertices[5, 1] + 40.0))
    sim.step(200)
    # it goes as close as it can (the foot of the target on the line) and stops there
    assert sim.status == "blocked"
    assert abs(sim.positions[5, 0] - line_x) / line_x <= 1e-9
    assert sim.positions[5, 1] == pytest.approx(link.vertices[5, 1] + 40.0, abs=1e-3)


def test_reached_target_stops():
    sim = Simulator(Linkage.load("peaucellier.txt"), step_size=5.0)
    sim.attract(5, (128.0, 150.0))
    sim.step(50)
    assert sim.status == "reached target"
    held = sim.positions.copy()
    sim.step(5)
    assert sim.status == "reached target"
    assert np.array_equal(sim.positions, held)


def test_full_speed_after_reaching_a_target():
    # A short final approach must not slow down the next pull (trust region memory).
    sim = Simulator(Linkage.load("peaucellier.txt"), step_size=3.0)
    sim.attract(5, (128.0, 128.0 + 1e-3))
    sim.step()
    assert sim.status == "reached target"
    sim.attract(5, (128.0, 250.0))
    before = sim.positions[5, 1]
    sim.step()
    assert sim.positions[5, 1] - before == pytest.approx(3.0, rel=0.02)


def test_step_size_limits_the_pulled_vertex():
    # The predictor moves the pulled vertex by step_size; the projection back onto the
    # constraints changes that by a second-order amount (at most CORRECTOR_DEVIATION).
    sim = Simulator(Linkage.load("peaucellier.txt"), step_size=2.5)
    sim.attract(5, (128.0, 300.0))
    before = sim.positions[5].copy()
    for _ in range(10):
        sim.step()
        moved = np.hypot(*(sim.positions[5] - before))
        assert moved == pytest.approx(2.5, rel=0.02)
        before = sim.positions[5].copy()
    assert sim.time == 10
    sim.step_size = 0.1
    sim.step()
    assert np.hypot(*(sim.positions[5] - before)) == pytest.approx(0.1, rel=1e-3)


# --------------------------------------------------------------- Penrose files
PENROSE = [
    "penrose1.txt",
    "penrose1t.txt",
    "penrose2.txt",
    "penrose2t.txt",
    "penrose2t-2.txt",
    "penrose3.txt",
    "penrose3t.txt",
    "penrose3t-2.txt",
    "penrose4.txt",
    pytest.param("penrose4t.txt", marks=pytest.mark.slow),
]


def _pull_setup(link: Linkage) -> tuple[int, np.ndarray]:
    p = link.vertices
    centre = p.mean(axis=0)
    dist = np.hypot(*(p - centre).T)
    dist[link.pinned] = -1.0
    s = int(np.argmax(dist))
    radial = (p[s] - centre) / dist[s]
    return s, p[s] + 25.0 * np.array([-radial[1], radial[0]])


@pytest.mark.parametrize("name", PENROSE)
def test_penrose_moves_when_pulled(name):
    link = Linkage.load(reference_linkage(name))
    s, target = _pull_setup(link)
    sim = Simulator(link, step_size=2.0)
    cs = ConstraintSet.from_linkage(link)
    worst = 0.0
    for _ in range(2):  # there and back, twice
        sim.attract(s, target)
        for _ in range(25):
            sim.step()
            worst = max(worst, cs.relative_error(sim.positions))
        moved = float(np.hypot(*(sim.positions[s] - link.vertices[s])))
        assert moved > 20.0  # most of the 25 units (a rounded flex may stop a little short)
        sim.attract(s, link.vertices[s])
        for _ in range(25):
            sim.step()
            worst = max(worst, cs.relative_error(sim.positions))
        assert np.all(np.isfinite(sim.positions))
    # Exact files hold to round-off; the "t" files flex only approximately (their data
    # has six decimals), so along the flex their error is what the data allows there.
    assert worst <= (1e-8 if "t" in name.removeprefix("penrose") else 1e-13)


@pytest.mark.parametrize("name", ["penrose2t-2.txt", "penrose3t-2.txt"])
def test_penrose_error_does_not_grow_with_the_number_of_steps(name):
    # Pinned so that the pulled vertex fixes the placement (penrose2t-2 only flexes,
    # penrose3t-2 also turns about its pin): the same place reached in 10x more steps
    # has the same error, and back home the error is round-off again.
    link = Linkage.load(reference_linkage(name))
    s, target = _pull_setup(link)
    cs = ConstraintSet.from_linkage(link)
    errors, places = [], []
    for step_size in (5.0, 0.5):
        sim = Simulator(link, step_size=step_size)
        sim.attract(s, target)
        sim.step(int(60 / step_size))
        errors.append(cs.relative_error(sim.positions))
        places.append(sim.positions.copy())
        for _ in range(3):  # round trips
            sim.attract(s, link.vertices[s])
            sim.step(int(60 / step_size))
            assert cs.relative_error(sim.positions) <= 1e-13
            sim.attract(s, target)
            sim.step(int(60 / step_size))
        errors.append(cs.relative_error(sim.positions))
    assert errors[0] > 1e-11  # approximate flex: a real, held, data error...
    assert max(errors) <= 1.2 * min(errors) + 1e-13  # ...the same every time
    # the same place (up to where each run stops short of an unreachable target)
    assert np.abs(places[0] - places[1]).max() < 1e-2


def test_locked_penrose_does_not_move():
    link = Linkage.load(reference_linkage("penrose1t-locked.txt"))
    s, target = _pull_setup(link)
    sim = Simulator(link, step_size=2.0)
    sim.attract(s, target)
    sim.step(5)
    assert sim.status == "blocked"
    assert np.abs(sim.positions - link.vertices).max() < 1e-9


# ------------------------------------------------------------- mass and motion
def _open_chain(n_links: int = 5) -> Linkage:
    """A chain of ``n_links`` rods with both ends pinned: ``n_links - 2`` internal DOF.

    Rods of alternating lengths 1 and 1.3 along an arch, so that rod mass matters.
    """
    headings = np.linspace(0.3, np.pi - 0.3, n_links)
    lengths = np.where(np.arange(n_links) % 2, 1.3, 1.0)
    steps = lengths[:, None] * np.column_stack([np.cos(headings), np.sin(headings)])
    pts = np.vstack([[0.0, 0.0], np.cumsum(steps, axis=0)])
    return Linkage(pts, rods=[(i, i + 1) for i in range(n_links)], pinned=[0, n_links])


def test_mass_distribution_changes_the_kinematic_motion():
    link = _open_chain(5)  # 3 internal DOF
    out = []
    for alpha in (0.0, 1.0):
        sim = Simulator(link, step_size=0.05, mass_distribution=alpha)
        sim.attract(2, link.vertices[2] + [0.6, -0.5])
        sim.step(8)
        out.append(sim.positions.copy())
        assert sim.constraint_error() <= 1e-12
    # the pulled vertex follows nearly the same path, but the rest moves differently
    assert np.abs(out[0] - out[1]).max() > 1e-2


@pytest.mark.parametrize("alpha", [0.0, 0.5, 1.0])
@pytest.mark.parametrize("name", ["chain", "peaucellier", "penrose4"])
def test_direction_is_the_least_kinetic_energy_motion(alpha, name):
    # v = N (N^T M N)^-1 N^T f with N a dense null-space basis: the exact minimiser of
    # 1/2 v^T M v - f^T v on the allowed motions, computed here independently.
    link = {
        "chain": lambda: _open_chain(5),
        "peaucellier": lambda: Linkage.load("peaucellier.txt"),
        "penrose4": lambda: Linkage.load("penrose4.txt"),
    }[name]()
    s = int(np.flatnonzero(~np.isin(np.arange(link.n_vertices), link.pinned))[0])
    target = link.vertices[s] + [3.0, 4.0]
    a = ConstraintSet.from_linkage(link).jacobian(link.vertices).toarray()
    _, sv, vt = np.linalg.svd(a)
    null = vt[np.sum(sv > 1e-9 * sv[0]) :].T
    m = mass_matrix(link, alpha).toarray()
    f = np.zeros(2 * link.n_vertices)
    f[2 * s : 2 * s + 2] = [0.6, 0.8]
    expected = null @ np.linalg.solve(null.T @ m @ null, null.T @ f)
    sim = Simulator(link, step_size=1e-4, mass_distribution=alpha)
    sim.attract(s, target)
    sim.step()
    moved = sim.velocities.reshape(-1)
    scale = np.abs(expected).max() / np.abs(moved).max()
    # the step's direction is v up to O(step) curvature (the corrector's share)
    assert np.abs(moved * scale - expected).max() < 1e-3 * np.abs(expected).max()


# ------------------------------------------------------------ random linkages
@st.composite
def small_linkages(draw):
    n = draw(st.integers(3, 7))
    coords = draw(
        st.lists(
            st.tuples(st.integers(-20, 20), st.integers(-20, 20)),
            min_size=n,
            max_size=n,
            unique=True,
        )
    )
    pts = np.array(coords, dtype=float) * 5.0
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    chosen = draw(st.lists(st.sampled_from(pairs), min_size=n - 1, max_size=2 * n, unique=True))
    pins = draw(st.lists(st.integers(0, n - 1), max_size=2, unique=True))
    link = Linkage(pts, rods=chosen, pinned=pins)
    angles = draw(st.lists(st.integers(0, n - 1), max_size=2, unique=True))
    for apex in angles:  # fix an angle where a vertex has two rods
        nb = link.neighbors(apex)
        if len(nb) >= 2:
            a0 = link.vertices[nb[0]] - link.vertices[apex]
            b0 = link.vertices[nb[1]] - link.vertices[apex]
            if abs(a0[0] * b0[1] - a0[1] * b0[0]) > 1e-9 * np.hypot(*a0) * np.hypot(*b0):
                link.add_angle(apex, int(nb[0]), int(nb[1]))
    vertex = draw(st.integers(0, n - 1))
    target = draw(st.tuples(st.floats(-150, 150), st.floats(-150, 150)))
    alpha = draw(st.sampled_from([0.0, 0.5, 1.0]))
    step = draw(st.sampled_from([0.5, 3.0, 20.0]))
    return link, vertex, target, alpha, step


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_linkages())
def test_random_linkages_keep_their_constraints(case):
    link, vertex, target, alpha, step = case
    sim = Simulator(link, step_size=step, mass_distribution=alpha)
    sim.attract(vertex, target)
    for _ in range(15):
        sim.step()
        assert sim.status in STATUSES
        assert np.all(np.isfinite(sim.positions))
        assert sim.constraint_error() <= 1e-9
        if sim.status != "moved":
            break
    if link.is_pinned(vertex):
        assert sim.status == "blocked"


# ------------------------------------------------------------------------ API
def test_simulator_owns_a_copy():
    link = Linkage.load("peaucellier.txt")
    original = link.vertices.copy()
    sim = Simulator(link, step_size=5.0)
    sim.attract(5, (128.0, 160.0))
    sim.step(10)
    assert np.array_equal(link.vertices, original)  # the input is never modified
    out = sim.linkage
    assert np.array_equal(out.vertices, sim.positions) and out.rods.tolist() == link.rods.tolist()
    sim.sync_to(link)
    assert np.array_equal(link.vertices, sim.positions)
    with pytest.raises(ValueError):
        sim.positions[0, 0] = 1.0  # read-only view


def test_status_idle_and_time():
    sim = Simulator(Linkage.load("peaucellier.txt"))
    assert sim.status == "idle"
    sim.step(3)
    assert sim.status == "idle" and sim.time == 3
    sim.attract(2, (0.0, 0.0))
    sim.release()
    sim.step()
    assert sim.status == "idle"
    sim.step(0)
    assert sim.attractor is None


def test_pinned_vertex_is_blocked():
    link = Linkage.load("peaucellier.txt")
    sim = Simulator(link)
    sim.attract(0, (50.0, 50.0))
    sim.step()
    assert sim.status == "blocked"
    assert np.array_equal(sim.positions, link.vertices)


@pytest.mark.parametrize(
    ("name", "value", "error"),
    [
        ("step_size", 0.0, ValueError),
        ("step_size", -1.0, ValueError),
        ("step_size", float("nan"), ValueError),
        ("step_size", "big", TypeError),
        ("mass_distribution", 1.5, ValueError),
        ("total_mass", 0.0, ValueError),
        ("gravity", float("inf"), ValueError),
        ("damping", -0.1, ValueError),
        ("mode", "fast", ValueError),
        ("attractor_stiffness", -1.0, ValueError),
        ("attractor_damping", -1.0, ValueError),
    ],
)
def test_parameters_are_validated_and_named(name, value, error):
    sim = Simulator(Linkage.load("peaucellier.txt"))
    with pytest.raises(error, match=name):
        setattr(sim, name, value)
    with pytest.raises(error, match=name):
        Simulator(Linkage.load("peaucellier.txt"), **{name: value}) if name in (
            "step_size",
            "mass_distribution",
            "total_mass",
            "gravity",
            "damping",
            "mode",
        ) else setattr(sim, name, value)


def test_parameters_take_effect_on_the_next_step():
    sim = Simulator(Linkage.load("peaucellier.txt"), step_size=1.0)
    sim.attract(5, (128.0, 300.0))
    sim.step()
    y = sim.positions[5, 1]
    sim.step_size = 4.0
    sim.mass_distribution = 1.0
    sim.step()
    assert sim.positions[5, 1] - y == pytest.approx(4.0, rel=0.02)  # was 1 per step


def test_attract_is_validated():
    sim = Simulator(Linkage.load("peaucellier.txt"))
    with pytest.raises(IndexError, match="vertex"):
        sim.attract(6, (0, 0))
    with pytest.raises(ValueError, match="target"):
        sim.attract(1, (0, float("nan")))
    with pytest.raises(TypeError, match="vertex"):
        sim.attract("a", (0, 0))


def test_mode_switch_resets_velocities():
    sim = Simulator(Linkage.load("peaucellier.txt"), step_size=5.0)
    sim.attract(5, (128.0, 200.0))
    sim.step()
    assert sim.velocities.any()
    sim.mode = "dynamic"
    assert not sim.velocities.any()
    sim.step_size = 1 / 60  # a time step now: 5 s with the attractor is refused (issue 22)
    sim.step()
    assert sim.status == "moved"


def test_empty_linkage():
    sim = Simulator(Linkage())
    sim.step(2)
    assert sim.status == "idle"
    assert sim.positions.shape == (0, 2)
    assert sim.constraint_error() == 0.0
