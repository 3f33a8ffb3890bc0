"""The small-linkage lane (``motion._small``) takes the general path's kinematic step.

Two simulators pull the same joint toward the same targets, one on the general path and
one on the lane (compiled by numba, and the same kernels uncompiled): every step ends at
the same positions to round-off and with the same status. In lockstep the lane's
simulator is put back on the general one's state after each step, so each step is
compared from the same start; whole drags are compared too where the motion is
well-conditioned (near a flat rhombus the general path itself turns a difference of one
ulp into 1e-10 within three steps: no two factorisations agree there to 1e-12).
Linkages or settings the lane does not take go to the general path: that is tested too.
"""

from __future__ import annotations

import copy
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from linkage_widget import Linkage
from linkage_widget.examples import load_example
from linkage_widget.motion import Simulator, _small
from linkage_widget.motion._linalg import ConstrainedFactor

#: Largest difference of a step's end, relative to the largest coordinate (or the length
#: scale): the lane's dense Cholesky and the general path's banded/sparse one round apart.
STEP_RTOL = 1e-12
#: Where the general path's own step moves by more than that under one ulp of round-off
#: in its factorisation (near a dead point), the lane's may differ by this many times as
#: much: two Cholesky factorisations of the same S differ by O(rows) ulps, not one (a
#: wrong step differs by far more: 1e4 times, the bugs these tests caught).
ROUNDOFF_SPREAD = 100.0
#: A step the halving cut short ends near a dead point, where the projection is
#: ill-conditioned: both paths stop their Newton iterations at a residual of 1e-12, which
#: there leaves the point free by more (measured up to 7e-12 on random mechanisms).
FOLD_RTOL = 1e-10


@pytest.fixture(params=["compiled", "python"])
def kernels(request):
    """The lane's kernels compiled (numba) or as Python; the lane back as it was after."""
    if request.param == "compiled" and not _small.compiled_available():
        pytest.skip("numba is not installed (the fast extra)")
    yield request.param
    _small.use_kernels("compiled" if _small.compiled_available() else "off")


def _lane(sim: Simulator) -> int:
    """Steps the simulator's lane has taken."""
    return sim._stepping._small.taken


def _gap(a: np.ndarray, b: np.ndarray, scale: float) -> float:
    return float(np.max(np.abs(a - b), initial=0.0)) / max(float(np.max(np.abs(a))), scale)


def _lockstep(link: Linkage, pulls, kernels: str, **kwargs) -> tuple[float, int]:
    """Largest step gap over ``pulls`` [(joint, target)...]; the steps the lane took.

    Before each step the general simulator is copied whole (positions, memos, trust
    region, branch watch): the copy takes the step on the lane, from the same state. A
    gap counts as ``STEP_RTOL`` times its ratio to what is allowed: :data:`STEP_RTOL`, or
    :data:`ROUNDOFF_SPREAD` times what the general path's own step changes by with its
    factorisation one ulp off in every entry (near a dead point the Schur complement is
    nearly singular and the general path itself is that sensitive to round-off), or
    :data:`FOLD_RTOL` for a step the halving cut short. Every step that moved must have
    been the lane's (the general path did not take over a step the lane found blocked).
    """
    general = Simulator(link, **kwargs)
    worst, taken = 0.0, 0
    free = int(np.flatnonzero(~np.isin(np.arange(link.n_vertices), link.pinned))[0])
    for s, target in pulls:
        general.attract(s, target)
        lane, nudged = copy.deepcopy(general), _nudged(general, free)
        _small.use_kernels("off")
        general.step()
        nudged.step()
        _small.use_kernels(kernels)
        lane.step()
        took = _lane(lane) - _lane(general)
        taken += took
        assert lane.status == general.status
        assert took == 1 or general.status != "moved"
        scale = max(float(np.max(np.abs(general.positions))), general.constraints.length_scale)
        gap = float(np.max(np.abs(general.positions - lane.positions))) / scale
        # the velocity is the step's displacement: the same gap, on the same scale
        gap = max(gap, float(np.max(np.abs(general.velocities - lane.velocities))) / scale)
        sensitive = float(np.max(np.abs(general.positions - nudged.positions))) / scale
        # beyond STEP_RTOL: how far beyond the general path's own sensitivity (times
        # ROUNDOFF_SPREAD: two factorisations of S differ by O(rows) ulps, the probe by one),
        # or, for a step the halving cut short (a dead point near), beyond FOLD_RTOL
        allowed = max(ROUNDOFF_SPREAD * sensitive, STEP_RTOL)
        if general._stepping._kinematic.trust < np.inf:
            allowed = max(allowed, FOLD_RTOL)
        worst = max(worst, STEP_RTOL * gap / allowed)
    return worst, taken


def _nudged(sim: Simulator, free: int) -> Simulator:
    """A copy of ``sim`` round-off apart: every entry of the factorisation its next step
    reuses one ulp up or down (what the lane computes apart from the general path), or,
    without one, joint ``free``'s x one ulp off."""
    out = copy.deepcopy(sim)
    memo = out._stepping.base.memo
    fac = memo.factor(out._p, out._stepping.base.metric)
    if fac is None:
        out._p[2 * free] = np.nextafter(out._p[2 * free], np.inf)  # in place: memos stay
        return out
    sense = np.random.default_rng(len(fac.data)).choice([-np.inf, np.inf], len(fac.data))
    data = np.nextafter(fac.data, sense)
    nudged = ConstrainedFactor(fac.pattern, data, fac.w_inv, fac.norm, fac.n_v, fac.n_a)
    memo.remember_factor(out._p, out._stepping.base.metric, nudged)
    return out


def _drag(link: Linkage, pulls, kernels: str, **kwargs) -> tuple[list, list]:
    """Positions and statuses of one simulator along ``pulls`` on ``kernels``."""
    _small.use_kernels(kernels)
    sim = Simulator(link, **kwargs)
    positions, statuses = [], []
    for s, target in pulls:
        sim.attract(s, target)
        sim.step()
        positions.append(sim.positions.copy())
        statuses.append(sim.status)
    return positions, statuses


def _circle(link: Linkage, s: int, steps: int, radius: float, per_step: float = 0.1):
    """Targets around a circle through joint ``s``, ``per_step`` radians a step."""
    start = link.vertices[s]
    return [
        (s, start + radius * np.array([np.cos(k * per_step) - 1.0, np.sin(k * per_step)]))
        for k in range(1, steps + 1)
    ]


def _peaucellier() -> Linkage:
    return load_example("peaucellier")


def _four_bar() -> Linkage:
    return load_example("four_bar")


def _unpinned_four_bar() -> Linkage:
    link = _four_bar()
    return Linkage(link.vertices, rods=link.rods)


# ---------------------------------------------------------------- step by step
@pytest.mark.parametrize(
    ("make", "joint", "kwargs", "rtol"),
    [
        (_peaucellier, 5, {"step_size": 1.0}, STEP_RTOL),
        (_peaucellier, 3, {"step_size": 5.0, "mass_distribution": 0.5}, STEP_RTOL),
        (_four_bar, 2, {"step_size": 3.0}, STEP_RTOL),
        (_unpinned_four_bar, 2, {"step_size": 3.0, "mass_distribution": 1.0}, STEP_RTOL),
    ],
)
def test_each_step_is_the_general_step(make, joint, kwargs, rtol, kernels):
    link = make()
    scale = float(np.median(link.rod_lengths()))
    steps = 150 if kernels == "compiled" else 25
    pulls = _circle(link, joint, steps, radius=2.0 * scale, per_step=0.15)
    worst, taken = _lockstep(link, pulls, kernels, **kwargs)
    assert worst <= rtol
    assert taken >= 5  # the lane took the steps that moved (see _lockstep)


def test_peaucellier_drag_as_the_benchmark(reference_dir):
    """The benchmark's drag: 300 steps, each from the general path's state; statuses too."""
    if not _small.compiled_available():
        pytest.skip("numba is not installed (the fast extra)")
    link = Linkage.load(reference_dir / "peaucellier.txt")
    start = link.vertices[5]
    pulls = [
        (5, start + 10.0 * np.array([np.cos(k / 10) - 1.0, np.sin(k / 10)])) for k in range(1, 301)
    ]
    worst, taken = _lockstep(link, pulls, "compiled", step_size=1.0)
    _small.use_kernels("compiled")
    assert worst <= STEP_RTOL
    assert taken == 300


def test_whole_drags_agree_where_well_conditioned(kernels):
    """Without putting the lane back on the general path's state: the same drag."""
    link = _four_bar()
    steps = 120 if kernels == "compiled" else 30
    pulls = _circle(link, 2, steps, radius=0.5 * float(np.median(link.rod_lengths())))
    ours, our_status = _drag(link, pulls, kernels, step_size=0.2)
    theirs, their_status = _drag(link, pulls, "off", step_size=0.2)
    assert our_status == their_status
    scale = float(np.median(link.rod_lengths()))
    assert max(_gap(a, b, scale) for a, b in zip(theirs, ours, strict=True)) <= STEP_RTOL


def test_peaucellier_statuses_over_the_whole_circle(reference_dir):
    """The benchmark's 300 steps on their own: the same statuses; positions to round-off
    until the drag nears the flat rhombus, where the general path is itself that sensitive."""
    if not _small.compiled_available():
        pytest.skip("numba is not installed (the fast extra)")
    link = Linkage.load(reference_dir / "peaucellier.txt")
    start = link.vertices[5]
    pulls = [
        (5, start + 10.0 * np.array([np.cos(k / 10) - 1.0, np.sin(k / 10)])) for k in range(1, 301)
    ]
    ours, our_status = _drag(link, pulls, "compiled", step_size=1.0)
    theirs, their_status = _drag(link, pulls, "off", step_size=1.0)
    _small.use_kernels("compiled")
    assert our_status == their_status
    gaps = [_gap(a, b, 1.0) for a, b in zip(theirs, ours, strict=True)]
    assert max(gaps[:70]) <= STEP_RTOL
    assert max(gaps) <= 1e-7


# ---------------------------------------------------------------- random frameworks
@st.composite
def _frameworks(draw):
    """A Henneberg (Laman) framework less one rod: a mechanism; 0-2 pins; a joint to pull.

    Each new joint is placed off the line of the two it is hinged to (no joint meets the
    line of its rods: a flat triangle is a dead point, tested above), away from the others.
    """
    n = draw(st.integers(4, 8))
    coords = st.floats(-10.0, 10.0, allow_nan=False)
    pts = [np.array([0.0, 0.0]), np.array([draw(st.floats(2.0, 10.0)), draw(coords)])]
    rods = [(0, 1)]
    for k in range(2, n):
        a = draw(st.integers(0, k - 1))
        b = draw(st.integers(0, k - 2))
        b = b + 1 if b >= a else b
        new = np.array([draw(coords), draw(coords)])
        u, w = pts[a] - new, pts[b] - new
        ok = abs(u[0] * w[1] - u[1] * w[0]) >= 0.2 * np.hypot(*u) * np.hypot(*w)
        assume(ok and min(np.hypot(*(new - x)) for x in pts) >= 1.0)  # no joints together
        pts.append(new)
        rods += [(a, k), (b, k)]
    del rods[draw(st.integers(0, len(rods) - 1))]
    pinned = draw(st.sampled_from([[], [0], [0, 1]]))
    pull = draw(st.integers(0, n - 1).filter(lambda v: v not in pinned))
    angle = draw(st.floats(0.0, 2 * np.pi))
    return Linkage(np.array(pts), rods=rods, pinned=pinned), pull, angle


# The same examples every run (derandomize): round-off tolerances checked, not searched.
def _straight_pull(case, kernels: str, pulls: int) -> float:
    """The lane against the general path over ``pulls`` targets along a line from a joint."""
    link, joint, angle = case
    scale = float(np.median(link.rod_lengths()))
    start = link.vertices[joint]
    way = np.array([np.cos(angle), np.sin(angle)])
    targets = [(joint, start + scale * k * 0.05 * way) for k in range(1, pulls + 1)]
    return _lockstep(link, targets, kernels, step_size=0.05 * scale)[0]


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
@given(case=_frameworks())
def test_random_mechanisms(case):
    if not _small.compiled_available():
        pytest.skip("numba is not installed (the fast extra)")
    try:
        worst = _straight_pull(case, "compiled", 30)
    finally:
        _small.use_kernels("compiled")
    assert worst <= STEP_RTOL


@settings(
    max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
@given(case=_frameworks())
def test_random_mechanisms_uncompiled(case):
    try:
        worst = _straight_pull(case, "python", 5)
    finally:
        _small.use_kernels("compiled" if _small.compiled_available() else "off")
    assert worst <= STEP_RTOL


# ---------------------------------------------------------------- what the lane leaves
def _slider_crank() -> Linkage:
    pts = [[0.0, 0.0], [1.0, 1.0], [3.0, 0.0]]
    return Linkage(pts, rods=[(0, 1), (1, 2)], pinned=[0], sliders=[(2, (0.0, 0.0), (1, 0))])


def _cable_pendulum() -> Linkage:
    return Linkage([[0.0, 0.0], [1.0, -1.0], [2.0, 0.0]], rods=[(0, 1)], cables=[(1, 2)],
                   pinned=[0, 2])  # fmt: skip


def _big_ladder() -> Linkage:
    k = 20  # 42 joints, 84 coordinates: more than SMALL_MAX_COLUMNS
    verts = [[c, y] for c in range(k + 1) for y in (0.0, 1.0)]
    rods = [(2 * c, 2 * c + 1) for c in range(k + 1)]
    rods += [(2 * c, 2 * c + 2) for c in range(k)] + [(2 * c + 1, 2 * c + 3) for c in range(k)]
    rods += [(2 * c, 2 * c + 3) for c in range(1, k)]
    return Linkage(verts, rods=rods, pinned=[0, 1])


@pytest.mark.parametrize(
    ("make", "joint", "setup"),
    [
        (lambda: load_example("watt"), 4, None),  # a fixed angle
        (_slider_crank, 1, None),  # a slider
        (_cable_pendulum, 1, None),  # a cable
        (_big_ladder, 41, None),  # too many coordinates
        (_four_bar, 2, lambda sim: sim.add_motor(0, 2, 0.1)),  # a motor drives
        (_four_bar, 2, lambda sim: setattr(sim, "mode", "dynamic")),  # dynamics
        (_four_bar, 1, lambda sim: sim.release()),  # no pull
    ],
)
def test_what_the_lane_leaves_to_the_general_path(make, joint, setup):
    link = make()
    scale = float(np.median(link.rod_lengths())) if link.n_rods else 1.0
    pulls = _circle(link, joint, 8, radius=0.5 * scale, per_step=0.1)
    runs = []
    for kind in ("compiled" if _small.compiled_available() else "python", "off"):
        _small.use_kernels(kind)
        sim = Simulator(link, step_size=0.1 * scale, mass_distribution=0.5)
        sim.attract(*pulls[0])
        if setup is not None:
            setup(sim)
        out = []
        for s, target in pulls:
            if sim.attractor is not None:
                sim.attract(s, target)
            sim.step()
            out.append((sim.positions.copy(), sim.status))
        runs.append(out)
        assert _lane(sim) == 0
    _small.use_kernels("compiled" if _small.compiled_available() else "off")
    for (a, sa), (b, sb) in zip(*runs, strict=True):
        assert sa == sb
        assert np.array_equal(a, b)


def test_a_blocked_pull_and_a_pinned_joint_take_the_general_step(kernels):
    """Pulled beyond reach, the lane's blocked verdict is the general path's, taken there."""
    link = _four_bar()
    far = np.array([-5000.0, 0.0])  # joint 2 turns about joint 0 toward it, then stops
    pulls = [(2, far)] * 30 + [(0, link.vertices[0] + 1.0)] * 2
    steps = pulls
    worst, _ = _lockstep(link, steps, kernels, step_size=20.0)
    assert worst <= STEP_RTOL
    _small.use_kernels(kernels)
    sim = Simulator(link, step_size=20.0)
    statuses = []
    for s, target in steps:
        sim.attract(s, target)
        sim.step()
        statuses.append(sim.status)
    assert statuses[-1] == "blocked" and "blocked" in statuses[:-2]
    assert _lane(sim) == sum(st_ in ("moved", "reached target") for st_ in statuses)


def test_reached_target_and_the_exact_pins(kernels):
    link = _peaucellier()
    _small.use_kernels(kernels)
    sim = Simulator(link, step_size=5.0)
    sim.attract(5, (128.0, 200.0))  # up the output's line
    sim.step(100)
    assert sim.status == "reached target"
    assert np.array_equal(sim.positions[link.pinned], link.vertices[link.pinned])
    assert not sim.velocities[link.pinned].any()
    assert sim.constraint_error() < 1e-12
    assert _lane(sim) >= 4


def test_unknown_kernel_kind():
    with pytest.raises(ValueError, match="kind"):
        _small.use_kernels("fast")


@pytest.fixture
def undecided(monkeypatch):
    """The lane not decided yet in this process (as at its first step); as it was after."""
    saved = dict(_small._READY)
    _small._READY.clear()
    yield monkeypatch
    _small._READY.clear()
    _small._READY.update(saved)
    _small.use_kernels("compiled" if _small.compiled_available() else "off")


def test_without_the_cache_a_child_compiles_and_this_process_keeps_the_general_path(undecided):
    """No compile in this process: its steps never switch paths midway."""
    if not _small.compiled_available():
        pytest.skip("numba is not installed (the fast extra)")
    started = []
    undecided.setattr(_small, "_cached", lambda: False)
    undecided.setattr(_small, "_compile_elsewhere", lambda: started.append(1))
    undecided.setattr(_small, "_COMPILED_OK", {})  # as in a fresh process
    sim = Simulator(_peaucellier(), step_size=1.0)
    sim.attract(5, (128.0, 140.0))
    sim.step(3)
    assert sim.status == "moved" and _lane(sim) == 0
    assert started == [1] and not _small.lane_ready()  # decided once: still off
    sim.step()
    assert _lane(sim) == 0 and started == [1]


def test_a_fresh_cache_is_filled_by_a_child_and_loaded_by_the_next_process(tmp_path):
    """End to end, in real processes: the first exits at once (cleanly: a compile in a
    thread of an exiting interpreter aborted it), its child fills numba's cache, and the
    next process takes the lane from its first step."""
    if not _small.compiled_available():
        pytest.skip("numba is not installed (the fast extra)")
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(root)}
    env.pop("LINKAGE_WIDGET_GENERAL_MOTION", None)
    ask = (
        "from linkage_widget.motion import _small\n"
        "print(_small.lane_ready())\n"
        "print(len(_small._CHILD))"
    )
    first = subprocess.run(
        [sys.executable, "-c", ask], env=env, capture_output=True, text=True, timeout=120
    )
    assert first.returncode == 0, first.stderr
    assert first.stdout.split() == ["False", "1"]  # general path; a child compiling
    probe = "from linkage_widget.motion import _small\nprint(_small._cached())"
    deadline = time.monotonic() + 600  # a compile took 30-90 s on a loaded 2-core machine
    while time.monotonic() < deadline:  # asking lane_ready meanwhile would start more children
        cached = subprocess.run(
            [sys.executable, "-c", probe], env=env, capture_output=True, text=True, timeout=120
        )
        assert cached.returncode == 0, cached.stderr
        if cached.stdout.split() == ["True"]:
            break
        time.sleep(5.0)
    else:
        pytest.fail("the child process never filled numba's cache")
    later = subprocess.run(
        [sys.executable, "-c", ask], env=env, capture_output=True, text=True, timeout=120
    )
    assert later.returncode == 0, later.stderr
    assert later.stdout.split() == ["True", "0"]  # loaded from the cache, no child


def test_the_environment_keeps_the_general_path(undecided):
    undecided.setenv("LINKAGE_WIDGET_GENERAL_MOTION", "1")
    assert not _small.lane_ready()
    sim = Simulator(_peaucellier(), step_size=1.0)
    sim.attract(5, (128.0, 140.0))
    sim.step(3)
    assert sim.status == "moved" and _lane(sim) == 0
