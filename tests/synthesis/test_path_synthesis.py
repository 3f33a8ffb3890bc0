"""Path synthesis: a four-bar's own coupler curve recovered, and candidates that keep their word.

Oracles: the target is traced from a hand-made four-bar by the package's ``kinematics``
(Newton continuation on its rods, not the closed form the search uses); the recovered
design is compared with the three Roberts–Chebyshev cognates of that four-bar
(``cognates``, the complex-number construction); every candidate is driven by
``kinematics`` at its own crank angles and its tracer's RMS distance from the target
recomputed here.
"""

from __future__ import annotations

import numpy as np
import pytest

from linkage_widget import Linkage, cognates, kinematics, path_synthesis
from linkage_widget.synthesis import PathCandidate

N = 50


def _pins(theta: float, lengths=(3.0, 1.0, 3.5, 3.2), sigma: float = 1.0) -> tuple:
    """Pivots and pins of a four-bar (ground d along 36.87 degrees from (1, -2)), by hand."""
    d, crank, b, c = lengths
    a0 = np.array([1.0, -2.0])
    b0 = a0 + d * np.array([0.8, 0.6])
    a = a0 + crank * np.array([np.cos(theta), np.sin(theta)])
    e = b0 - a
    r = np.linalg.norm(e)
    along = (b * b - c * c + r * r) / (2 * r)
    pin = a + along * e / r + sigma * np.sqrt(b * b - along**2) * np.array([-e[1], e[0]]) / r
    return a0, b0, a, pin


def _known(u: float = 0.4 * 3.5, v: float = 0.9) -> Linkage:
    """A crank-rocker (ground 3, crank 1, coupler 3.5, rocker 3.2), coupler point (u, v)."""
    a0, b0, a, b = _pins(0.4)
    e = (b - a) / 3.5
    p = a + u * e + v * np.array([-e[1], e[0]])
    return Linkage([a0, b0, a, b, p], rods=[(0, 2), (2, 3), (3, 1), (2, 4), (3, 4)], pinned=[0, 1])


def _traced(linkage: Linkage, motor, angles, joint: int) -> np.ndarray:
    k = kinematics(linkage, *motor, angles)
    assert k.valid.all()
    return k.positions[:, joint]


def _rms(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.sqrt(np.mean(np.sum((a - b) ** 2, axis=1))))


@pytest.fixture(scope="module")
def known_curve() -> tuple[Linkage, np.ndarray]:
    link = _known()
    angles = 0.4 + 2 * np.pi * np.arange(N) / N
    return link, _traced(link, (0, 2), angles, 4)


@pytest.fixture(scope="module")
def recovered(known_curve) -> list[PathCandidate]:
    return path_synthesis(known_curve[1], k=3, seed=1)


def test_a_four_bars_curve_is_recovered_as_one_of_its_cognates(known_curve, recovered):
    link, target = known_curve
    best = recovered[0]
    assert best.kind == "four-bar" and best.error < 1e-6
    # placed at the first target point, the design is one of the three cognates placed there
    placed = [fb.linkage.vertices for fb in cognates(link, 4)]
    mine = best.linkage.vertices
    gaps = [max(np.min(np.linalg.norm(c[:, None] - mine[None], axis=2), 1)) for c in placed]
    assert min(gaps) < 1e-5, gaps
    assert best.grashof == "crank-rocker" and best.traverses and best.note == ""


def test_candidates_traced_by_kinematics_meet_the_target_with_their_error(known_curve, recovered):
    target = known_curve[1]
    for c in recovered:
        traced = _traced(c.linkage, c.motor, c.angles, c.coupler)
        assert _rms(traced, target) == pytest.approx(c.error, abs=1e-9)
        assert np.allclose(c.linkage.vertices[c.coupler], traced[0], atol=1e-9)


def test_the_same_seed_gives_the_same_designs(known_curve, recovered):
    again = path_synthesis(known_curve[1], k=3, seed=1)
    assert len(again) == len(recovered)
    for one, other in zip(again, recovered, strict=True):
        assert np.array_equal(one.linkage.vertices, other.linkage.vertices)
        assert np.array_equal(one.angles, other.angles) and one.error == other.error


def test_transmission_range_of_the_recovered_crank_rocker(recovered):
    best = recovered[0]
    d, a, b, c = 3.0, 1.0, 3.5, 3.2
    # over a full turn mu runs between its values at the crank along the ground, both ways
    lo = np.degrees(np.arccos((b * b + c * c - (d - a) ** 2) / (2 * b * c)))
    hi = np.degrees(np.arccos((b * b + c * c - (d + a) ** 2) / (2 * b * c)))
    # the best is the hand-made four-bar itself (not a cognate, whose lengths differ)
    v = best.linkage.vertices
    ground = np.linalg.norm(v[1] - v[0])
    assert [ground, *best.linkage.rod_lengths()[:3]] == pytest.approx([d, a, b, c], abs=1e-6)
    assert best.transmission == pytest.approx((lo, hi), abs=1e-3)


def test_k_distinct_designs_sorted_by_error():
    t = np.linspace(0, 2 * np.pi, 40, endpoint=False)
    egg = np.column_stack([3 * np.cos(t) + 0.6 * np.cos(2 * t), 2 * np.sin(t)]) + [7, 1]
    found = path_synthesis(egg, k=4, seed=2)
    assert len(found) == 4
    errors = [c.error for c in found]
    assert errors == sorted(errors)
    for i, one in enumerate(found):
        for other in found[:i]:
            assert np.abs(one.linkage.vertices - other.linkage.vertices).max() > 1e-3
        traced = _traced(one.linkage, one.motor, one.angles, one.coupler)
        assert _rms(traced, egg) == pytest.approx(one.error, abs=1e-9)


def test_a_square_is_flagged_as_a_poor_fit():
    side = np.linspace(0, 1, 8, endpoint=False)
    square = np.concatenate(
        [
            np.column_stack([side, 0 * side]),
            np.column_stack([1 + 0 * side, side]),
            np.column_stack([1 - side, 1 + 0 * side]),
            np.column_stack([0 * side, 1 - side]),
        ]
    )
    best = path_synthesis(square, k=1, seed=0)[0]
    assert best.error > 0.02 * 0.5  # no four-bar turns a sharp corner
    assert "poor fit" in best.note


@pytest.mark.parametrize(
    ("points", "kwargs", "message"),
    [
        (np.zeros((20, 3)), {}, r"shape \(N, 2\)"),
        ([[0.0, 1.0], [np.nan, 2.0]] * 10, {}, "target point 1 has a non-finite"),
        (np.ones((20, 2)), {}, "coincide"),
        (np.column_stack([np.arange(20.0), 2 * np.arange(20.0)]), {"closed": True}, "collinear"),
        (np.random.default_rng(0).random((6, 2)), {}, "too few.*at least 9"),
        (np.random.default_rng(0).random((4, 2)), {"timing": np.arange(4.0)}, "at least 5"),
        (np.random.default_rng(0).random((20, 2)), {"kind": "five-bar"}, "unknown kind"),
        (np.random.default_rng(0).random((20, 2)), {"k": 0}, "k must be"),
        (np.random.default_rng(0).random((20, 2)), {"timing": np.zeros(19)}, "timing must"),
        (np.random.default_rng(0).random((20, 2)), {"timing": [np.inf] * 20}, "timing 0"),
        (np.random.default_rng(0).random((20, 2)), {"timing": [0.7] * 20}, "one crank angle"),
        (np.random.default_rng(0).random((20, 2)), {"kind": ["four-bar"]}, "unknown kind"),
        (np.random.default_rng(0).random((20, 2)), {"closed": "no"}, "closed must be"),
        (np.random.default_rng(0).random((20, 2)) * (1 + 1j), {}, "complex"),
        (np.random.default_rng(0).random((20, 2)).tolist() + [[1j, 0]], {}, "complex"),
        (np.random.default_rng(0).random((20, 2)), {"seed": "x"}, "seed must be"),
        (np.random.default_rng(0).random((20, 2)), {"seed": 1.5}, "seed must be"),
        (np.random.default_rng(0).random((20, 2)), {"seed": -1}, "seed must be"),
    ],
)
def test_bad_input_is_refused_clearly(points, kwargs, message):
    with pytest.raises(ValueError, match=message):
        path_synthesis(points, **kwargs)


def test_with_timing_the_curve_and_its_timing_are_recovered(known_curve):
    link = known_curve[0]
    angles = 0.4 + np.linspace(0.0, 2 * np.pi, N, endpoint=False) ** 1.2 / (2 * np.pi) ** 0.2
    target = _traced(link, (0, 2), angles, 4)
    found = path_synthesis(target, timing=angles - 2.0, k=2, seed=3)
    best = found[0]
    assert best.error < 1e-6
    # the crank angles are the timing up to one offset, the crank turning the same way
    assert np.ptp(best.angles - angles) < 1e-6
    traced = _traced(best.linkage, best.motor, best.angles, best.coupler)
    assert _rms(traced, target) == pytest.approx(best.error, abs=1e-9)


def test_an_open_arc_is_fitted_by_an_arc_of_crank_angle(known_curve):
    link = known_curve[0]
    angles = np.linspace(0.9, 3.4, 30)  # 143 degrees of crank: an open arc
    target = _traced(link, (0, 2), angles, 4)
    found = path_synthesis(target, k=3, seed=4)
    size = np.sqrt(np.mean(np.sum((target - target.mean(0)) ** 2, axis=1)))
    best = found[0]
    # an arc pins a four-bar down far less than a loop: many fit it to ~1e-4 of its size
    assert best.error < 1e-3 * size and best.traverses and best.note == ""
    assert abs(best.angles[-1] - best.angles[0]) < 2 * np.pi  # an arc, not a turn
    for c in found:
        traced = _traced(c.linkage, c.motor, c.angles, c.coupler)
        assert _rms(traced, target) == pytest.approx(c.error, abs=1e-9)


def test_an_open_straight_line_is_accepted():
    line = np.column_stack([np.linspace(0.0, 4.0, 20), np.full(20, 1.0)])
    best = path_synthesis(line, k=1, seed=5)[0]
    assert best.error < 0.01 * 4.0  # four-bars draw straight lines to 1% (Chebyshev, Watt)


def test_a_self_intersecting_coupler_curve_is_not_refused():
    link = _known(2.0, -2.0)  # this coupler point draws a figure eight
    target = _traced(link, (0, 2), 0.4 + 2 * np.pi * np.arange(N) / N, 4)
    seg = [(target[i], target[(i + 1) % N]) for i in range(N)]

    def crosses(p, q, r, s):
        def side(o, x, y):
            (dx, dy), (ex, ey) = x - o, y - o
            return np.sign(dx * ey - dy * ex)

        return side(p, q, r) * side(p, q, s) < 0 and side(r, s, p) * side(r, s, q) < 0

    assert any(crosses(*seg[i], *seg[j]) for i in range(N) for j in range(i + 2, N - (i == 0)))
    assert path_synthesis(target, k=1, seed=6)[0].error < 1e-6


def test_a_curve_needing_a_change_of_branch_is_flagged():
    # a triple rocker (ground 3, crank 1, coupler 1.8, rocker 2: 1 + 3 > 1.8 + 2) draws a
    # closed curve only by rocking there on one branch and back on the other; its
    # cognates are triple rockers too, so no crank turning fully traces it
    lengths = (3.0, 1.0, 1.8, 2.0)
    ends = [np.arccos((1 + 9 - 3.8**2) / 6) - 1e-6]  # the crank's limit: |A - B0| = b + c
    swing = np.linspace(-ends[0], ends[0], 26)[:-1]
    loop = [_pins(t + np.arctan2(0.6, 0.8), lengths, +1.0) for t in swing]
    loop += [_pins(t + np.arctan2(0.6, 0.8), lengths, -1.0) for t in swing[::-1]]
    target = np.array(
        [a + 0.5 * (b - a) + 0.7 * np.array([-(b - a)[1], (b - a)[0]]) / 1.8 for _, _, a, b in loop]
    )
    best = path_synthesis(target, k=1, seed=7)[0]
    size = np.sqrt(np.mean(np.sum((target - target.mean(axis=0)) ** 2, axis=1)))
    # a crank turning fully traces the loop only with its angles going back and forth
    assert not best.traverses and "not in order" in best.note
    assert best.error > 0.02 * size and "poor fit" in best.note


def test_a_long_target_gets_an_angle_per_point(known_curve):
    # 240 points: the polish works on 64 of them, every point then gets its own angle
    link = known_curve[0]
    target = _traced(link, (0, 2), 0.4 + 2 * np.pi * np.arange(240) / 240, 4)
    best = path_synthesis(target, k=1, seed=8)[0]
    assert best.angles.shape == (240,) and best.error < 1e-6
    traced = _traced(best.linkage, best.motor, best.angles, best.coupler)
    assert _rms(traced, target) == pytest.approx(best.error, abs=1e-9)


def _random_curve(rng: np.random.Generator, closed: bool) -> tuple[np.ndarray, np.ndarray]:
    """Three harmonics with random weights and a little noise: a curve few four-bars trace."""
    n = int(rng.integers(12, 80))
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    c = rng.normal(size=(4, 2))
    t = t if closed else t * rng.uniform(0.3, 0.8)
    x = c[0, 0] * np.cos(t) + c[1, 0] * np.cos(2 * t) + c[2, 0] * np.sin(t)
    y = c[0, 1] * np.sin(t) + c[1, 1] * np.sin(2 * t) + c[3, 1] * np.cos(3 * t)
    return np.column_stack([x, y]) + rng.normal(scale=0.01, size=(n, 2)), t


def test_a_timed_target_no_four_bar_traces_comes_back_flagged_not_crashing():
    # the global search matches a timed target on 12 of its points; a seed that came
    # apart at the others had a NaN shift, and least_squares raised deep in scipy
    rng = np.random.default_rng(42)
    for _ in range(4):
        target, t = _random_curve(rng, True)
    found = path_synthesis(target, timing=t, k=3, seed=6)
    size = np.sqrt(np.mean(np.sum((target - target.mean(axis=0)) ** 2, axis=1)))
    assert len(found) == 3
    assert [c.error for c in found] == sorted(c.error for c in found)
    for c in found:
        assert np.isfinite(c.error) and c.error > 0.02 * size and "poor fit" in c.note
        assert c.angles == pytest.approx(c.angles[0] + t - t[0], abs=1e-12)  # timing kept
        if c.traverses:
            traced = _traced(c.linkage, c.motor, c.angles, c.coupler)
            assert _rms(traced, target) == pytest.approx(c.error, abs=1e-9 * size)


def _harmonic_target(seed: int, i: int) -> tuple[np.ndarray, np.ndarray | None, float]:
    """The ``i``-th of a seeded stream of random curves: points, timing (or None), size.

    Closed or open (an arc of 0.3 to 0.8 of the turn), some timed, of random scale and
    position: the shapes few four-bars trace, whose polishes end near dead points.
    """
    rng = np.random.default_rng(seed)
    for _ in range(i + 1):
        n = int(rng.integers(12, 60))
        closed, timed = bool(rng.integers(2)), bool(rng.random() < 0.3)
        t = np.linspace(0, 2 * np.pi, n, endpoint=False) * (1 if closed else rng.uniform(0.3, 0.8))
        c = rng.normal(size=(4, 2))
        x = c[0, 0] * np.cos(t) + c[1, 0] * np.cos(2 * t) + c[2, 0] * np.sin(t)
        y = c[0, 1] * np.sin(t) + c[1, 1] * np.sin(2 * t) + c[3, 1] * np.cos(3 * t)
        p = np.column_stack([x, y]) * rng.uniform(0.1, 100) + rng.normal(size=2) * 50
    size = float(np.sqrt(np.mean(np.sum((p - p.mean(axis=0)) ** 2, axis=1))))
    return p, (t if timed else None), size


@pytest.mark.parametrize(
    ("seed", "i"),
    # closed timed, closed, closed timed, open, open timed
    [(0, 0), (5, 0), (9, 0), (12, 0), (7, 4)],
)
def test_a_candidate_that_traverses_keeps_the_kinematics_contract(seed, i, kind="four-bar"):
    # the closed form runs on along one branch through a flat dyad, where the linkage
    # driven by kinematics stops or changes branch: such a candidate must not claim to
    # traverse; one that does is driven through its traced points, at RMS error .error
    target, timing, size = _harmonic_target(seed, i)
    many = 3 if kind == "four-bar" else 2
    found = path_synthesis(target, timing=timing, k=many, seed=0, kind=kind)
    assert found
    for c in found:
        lo, hi = c.transmission
        if not c.traverses:
            assert "one branch" in c.note
            continue
        assert 1.0 <= lo <= hi <= 179.0  # MARGIN degrees from flat
        k = kinematics(c.linkage, *c.motor, c.angles)
        assert k.valid.all()
        assert _rms(k.positions[:, c.coupler], target) == pytest.approx(c.error, abs=1e-9 * size)


def test_a_six_bar_with_a_flat_dyad_does_not_traverse():
    # an open timed target whose second Watt candidate's dyad reaches 179.9999 degrees:
    # kinematics stops there (NaN), so it may not claim to traverse; the other keeps the contract
    test_a_candidate_that_traverses_keeps_the_kinematics_contract(2, 0, kind="watt")


def test_a_closed_targets_polish_keeps_off_change_point_designs():
    # the wall of a closed target's polish (a full crank turn) kept no margin: poor fits
    # ended on the Grashof boundary, change-point four-bars with a flat dyad
    target, _, _ = _harmonic_target(1, 0)
    found = path_synthesis(target, k=3, seed=0)
    for c in found:
        assert c.grashof != "change-point" and c.transmission[0] >= 2.0 - 1e-6


@pytest.mark.parametrize("repeat", [1, 2])
def test_a_circle_gives_designs_with_no_vanishing_rod(repeat):
    # a circle is the crank pin's own path: the tracer sat on the pin (a rod of 1e-14),
    # and with each point twice the degenerate design was refused by Linkage as "zero length"
    t = np.linspace(0, 2 * np.pi, 20, endpoint=False)
    circle = np.repeat(np.column_stack([3 * np.cos(t), 3 * np.sin(t)]) + [5, -1], repeat, axis=0)
    found = path_synthesis(circle, k=3, seed=0)
    assert found
    for c in found:
        assert c.linkage.rod_lengths().min() > 1e-3 * 3.0
        assert c.error < 0.01 * 3.0


def test_no_design_found_is_an_error_not_an_empty_list(monkeypatch):
    # a search whose every seed fails the polish returned [] silently
    import linkage_widget.synthesis.path as path

    monkeypatch.setattr(path, "global_search", lambda *args: [])
    t = np.linspace(0, 2 * np.pi, 20, endpoint=False)
    with pytest.raises(ValueError, match="no four-bar could be fitted"):
        path_synthesis(np.column_stack([np.cos(t), 2 * np.sin(t)]), k=2)


@pytest.mark.parametrize(("radius", "centre"), [(1e-10, (0.0, 0.0)), (0.1, (1e9, 1e9))])
def test_a_tiny_or_far_away_circle_is_a_curve_not_coincident_points(radius, centre):
    # the check compared the spread with an absolute 1e-9 (times the coordinates when
    # past 1): a circle of radius 1e-10, or of 0.1 at (1e9, 1e9), was "all points coincide";
    # at 1e9 the coordinates hold the circle to ~1e-7, a part in a million of its radius
    t = np.linspace(0, 2 * np.pi, 20, endpoint=False)
    circle = radius * np.column_stack([np.cos(t), np.sin(t)]) + centre
    best = path_synthesis(circle, k=1, seed=0)[0]
    assert best.error < 1e-3 * radius
    assert np.linalg.norm(best.curve.mean(axis=0) - centre) < 0.5 * radius
