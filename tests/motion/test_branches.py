"""Singular placements and branches (issue 13): the motion stops, offers the branches, follows one.

References are closed forms: the branch directions of a flat parallelogram from the
second-order expansion of its coupler's length, the parallelogram law and Ptolemy's
equality telling a parallelogram from an antiparallelogram by distances, the inversor's
product |OP| |OQ| = a^2 - s^2 and its flat rhombus at |OP| = a - s, and the law of cosines
for the input limit of a triple rocker.
"""

from __future__ import annotations

import numpy as np
import pytest

from linkage_widget import Linkage
from linkage_widget.motion import STATUSES, Simulator
from linkage_widget.motion._branches import spread_lines
from linkage_widget.motion.tolerances import MAX_BRANCH_LINES

# Parallelogram: ground 0-3 of length 2 (pinned), crank 0-1 and rocker 3-2 of length 1,
# coupler 1-2 of length 2. Flat at crank angle 0.
GROUND, CRANK = 2.0, 1.0


def parallelogram(angle: float) -> Linkage:
    c, s = np.cos(angle), np.sin(angle)
    return Linkage(
        [[0.0, 0.0], [c, s], [GROUND + c, s], [GROUND, 0.0]],
        rods=[(0, 1), (1, 2), (2, 3)],
        pinned=[0, 3],
    )


def watched(sim: Simulator) -> Simulator:
    sim.stop_at_singular = True
    return sim


def run_until_stop(sim: Simulator, steps: int = 400) -> int:
    for i in range(steps):
        sim.step()
        if sim.status != "moved":
            return i
    return steps


def flat_stop(mode: str = "kinematic") -> Simulator:
    if mode == "kinematic":
        sim = watched(Simulator(parallelogram(1.0), step_size=0.05))
        sim.attract(1, (1.0, -2.0))  # pull the crank tip down through the flat placement
    else:
        sim = Simulator(parallelogram(0.8), mode="dynamic", step_size=1 / 60, gravity=9.81)
        watched(sim)
    run_until_stop(sim)
    return sim


def diagonals(p: np.ndarray) -> tuple[float, float]:
    return float(np.linalg.norm(p[0] - p[2])), float(np.linalg.norm(p[1] - p[3]))


def is_parallelogram(p: np.ndarray) -> bool:
    # parallelogram law: |02|^2 + |13|^2 = 2 (ground^2 + crank^2)
    a, b = diagonals(p)
    return abs(a * a + b * b - 2 * (GROUND**2 + CRANK**2)) < 1e-9


def is_antiparallelogram(p: np.ndarray) -> bool:
    # an isosceles trapezoid 0-1-3-2 with legs = crank, diagonals = ground: Ptolemy |02||13|
    # + crank^2 = ground^2
    a, b = diagonals(p)
    return abs(a * b + CRANK**2 - GROUND**2) < 1e-9


def closed_form_branches() -> np.ndarray:
    r"""Crank angle phi, rocker angle psi near flat: the coupler keeps its length iff
    :math:`(\psi - \phi)(\psi + 3\phi) = 0` to second order, so the tips move with
    :math:`(0, \dot\phi)` and :math:`(0, \dot\psi)`, :math:`\dot\psi = \dot\phi` or
    :math:`-3\dot\phi`."""
    out = np.zeros((2, 4, 2))
    out[0, 1, 1], out[0, 2, 1] = 1.0, 1.0
    out[1, 1, 1], out[1, 2, 1] = 1.0, -3.0
    return out / np.linalg.norm(out.reshape(2, -1), axis=1)[:, None, None]


def match(directions: np.ndarray, expected: np.ndarray) -> list[int]:
    """Index into ``directions`` of each expected line (up to sign), asserting a close match."""
    order = []
    for e in expected:
        cos = np.abs(directions.reshape(len(directions), -1) @ e.reshape(-1))
        k = int(np.argmax(cos))
        assert cos[k] == pytest.approx(1.0, abs=1e-6)
        order.append(k)
    assert sorted(order) == list(range(len(expected)))
    return order


def test_singular_is_a_status_and_stopping_is_on_by_default():
    assert "singular" in STATUSES
    assert Simulator(parallelogram(1.0)).stop_at_singular is True
    sim = Simulator(parallelogram(1.0), step_size=0.05)
    sim.stop_at_singular = False  # off: the motion keeps to a branch, as in 2007
    sim.attract(1, (1.0, -2.0))
    statuses = {sim.status for _ in range(60) if sim.step() is None}
    assert "singular" not in statuses and sim.positions[1, 1] < -0.5
    with pytest.raises(TypeError, match="stop_at_singular"):
        sim.stop_at_singular = "yes"


def test_switching_it_off_leaves_the_stop():
    sim = flat_stop()
    assert sim.singular
    sim.stop_at_singular = False
    assert not sim.singular and len(sim.branches()) == 0
    sim.step(5)
    assert sim.status == "moved"


def test_a_dragged_parallelogram_stops_flat_with_the_two_closed_form_branches():
    sim = flat_stop()
    assert sim.status == "singular" and sim.singular
    assert np.max(np.abs(sim.positions[:, 1])) < 1e-9  # flat
    assert np.all(sim.velocities == 0.0)
    assert sim.constraint_error() < 1e-12
    directions = sim.branches()
    assert directions.shape == (2, 4, 2)
    match(directions, closed_form_branches())
    frozen = sim.positions.copy()
    sim.step(5)  # it waits for a choice
    assert sim.status == "singular" and np.array_equal(sim.positions, frozen)


@pytest.mark.parametrize("sense", [1, -1])
@pytest.mark.parametrize("line", ["parallelogram", "antiparallelogram"])
def test_follow_branch_continues_on_the_chosen_branch(line, sense):
    sim = flat_stop()
    k = match(sim.branches(), closed_form_branches())[0 if line == "parallelogram" else 1]
    sim.follow_branch(k, sense)
    assert sim.status == "moved" and not sim.singular
    assert len(sim.branches()) == 0
    sim.step(30)
    p = sim.positions
    assert np.max(np.abs(p[:, 1])) > 0.1  # it went on, off the flat placement
    assert is_parallelogram(p) == (line == "parallelogram")
    assert is_antiparallelogram(p) == (line == "antiparallelogram")
    assert sim.constraint_error() < 1e-12


def test_a_falling_parallelogram_stops_flat_and_keeps_its_energy_on_the_branch():
    sim = flat_stop("dynamic")
    assert sim.status == "singular"
    assert np.max(np.abs(sim.positions[:, 1])) < 1e-9 and sim.kinetic_energy() == 0.0
    # energy: from rest at 0.8 rad down to flat, the crank and rocker tips fall sin(0.8)
    # (unit hinge masses, total mass 1: the two moving joints weigh 1/4 each)
    expected = 2 * 0.25 * 9.81 * np.sin(0.8)
    k = match(sim.branches(), closed_form_branches())[1]
    sim.follow_branch(k, -1)
    assert sim.kinetic_energy() == pytest.approx(expected, rel=1e-3)
    for _ in range(20):
        sim.step()
        assert sim.status == "moved"
    assert is_antiparallelogram(sim.positions)


@pytest.mark.parametrize("mode", ["kinematic", "dynamic"])
def test_a_motor_turns_a_parallelogram_into_flat_and_on_along_either_branch(mode):
    for line in ("parallelogram", "antiparallelogram"):
        sim = watched(Simulator(parallelogram(0.5), mode=mode, step_size=0.01))
        sim.add_motor(0, 1, -1.0)
        run_until_stop(sim)
        assert sim.status == "singular"
        assert sim.time == pytest.approx(0.5, abs=1e-9)  # the crank angle reached 0
        k = match(sim.branches(), closed_form_branches())[0 if line == "parallelogram" else 1]
        sim.follow_branch(k, 1)
        for _ in range(60):
            sim.step()
            assert sim.status == "moved"
        assert is_parallelogram(sim.positions) == (line == "parallelogram")
        assert sim.constraint_error() < 1e-10


def peaucellier_arms() -> tuple[Linkage, float, float]:
    link = Linkage.load("peaucellier.txt")  # O = 0, crank pivot 1, P = 2, rhombus 2-3-5-4
    lengths = link.rod_lengths()
    return link, float(lengths[0]), float(lengths[3])  # arm 0-3, side 2-3


def inversion_product(p: np.ndarray) -> float:
    return float(np.linalg.norm(p[2] - p[0]) * np.linalg.norm(p[5] - p[0]))


def welded_peaucellier(angle: float) -> Linkage:
    """The inversor on its other branch: Q welded to P, at crank angle ``angle`` (radians)."""
    link, arm, side = peaucellier_arms()
    a = np.array([100.0, 0.0]) + 100.0 * np.array([np.cos(angle), np.sin(angle)])
    oa = np.linalg.norm(a)
    u = a / oa
    n = np.array([-u[1], u[0]])
    m = oa / 2 + (arm**2 - side**2) / (2 * oa)  # B and D project onto OA at m
    h = np.sqrt(arm**2 - m**2)
    link.set_positions([[0, 0], [100, 0], a, m * u + h * n, m * u - h * n, a])
    return link


def test_peaucellier_passes_its_flat_rhombus_p_equals_q_on_its_own_branch():
    # dragging joint 3 round, P crosses the circle of inversion |OP| = sqrt(a^2 - s^2): the
    # rhombus is flat with P = Q. The only other branch there welds Q to P (issue 22):
    # the motion goes on along the inversor's own branch, Q on its line
    link, arm, side = peaucellier_arms()
    sim = watched(Simulator(link, step_size=2.0))
    sim.attract(3, (128.6, 153.2))
    line_x, radius = link.vertices[5, 0], np.sqrt(arm**2 - side**2)
    seen = []
    for _ in range(400):
        sim.step()
        assert sim.status != "singular"
        q = sim.positions
        seen.append(np.linalg.norm(q[2] - q[0]))
        assert abs(q[5, 0] - line_x) < 1e-9 * line_x
        assert inversion_product(q) == pytest.approx(arm**2 - side**2, rel=1e-9)
        if sim.status != "moved":
            break
    assert max(seen) > radius + 10 and min(seen) < radius - 10  # through P = Q
    assert sim.constraint_error() < 1e-12


def test_peaucellier_arriving_with_q_welded_to_p_stops_and_offers_both_branches():
    # on the welded branch (Q on P) the flat rhombus is a real choice: the inversor's
    # branch leaves it there, and the motion stops and offers both lines
    link, arm, side = peaucellier_arms()
    target = np.array([100.0, 0.0]) + 100.0 * np.array([np.cos(1.0), np.sin(1.0)])

    def stopped() -> Simulator:
        s = watched(Simulator(welded_peaucellier(1.6), step_size=2.0))
        s.attract(2, target)  # P round its crank circle, out through |OP| = sqrt(k)
        run_until_stop(s)
        return s

    sim = stopped()
    p = sim.positions
    assert sim.status == "singular"
    assert np.linalg.norm(p[2] - p[5]) < 1e-6 * side
    assert np.linalg.norm(p[2] - p[0]) == pytest.approx(np.sqrt(arm**2 - side**2), rel=1e-9)
    directions = sim.branches()
    assert directions.shape == (2, 6, 2)
    # the inversor's own branch keeps Q on its line (no x motion); the other carries Q with P
    on_line = [k for k in range(2) if abs(directions[k, 5, 0]) < 1e-6]
    with_p = [k for k in range(2) if np.allclose(directions[k, 5], directions[k, 2], atol=1e-6)]
    assert len(on_line) == 1 and len(with_p) == 1 and on_line != with_p
    line_x = link.vertices[5, 0]
    for k, kind in ((on_line[0], "inversor"), (with_p[0], "P = Q")):
        s = stopped()
        # the sense that carries P on toward the target
        sense = 1 if directions[k, 2] @ (target - s.positions[2]) > 0 else -1
        s.follow_branch(k, sense)
        for _ in range(10):
            s.step()
            assert s.status in ("moved", "reached target")
        q = s.positions
        if kind == "inversor":
            assert abs(q[5, 0] - line_x) < 1e-9 * line_x
            assert inversion_product(q) == pytest.approx(arm**2 - side**2, rel=1e-9)
            assert np.linalg.norm(q[2] - q[5]) > 1.0
        else:
            assert np.linalg.norm(q[2] - q[5]) < 1e-9 * side and abs(q[5, 0] - line_x) > 1.0
        assert s.constraint_error() < 1e-12


def test_peaucellier_crank_at_its_end_is_blocked_next_to_its_other_flat_rhombus():
    # P pulled toward the centre stops at the end of its arc, |OP| = a - s, where joints
    # 3 and 4 meet: blocked as before (pulled back it returns), and that placement's
    # branches are offered
    link, arm, side = peaucellier_arms()
    sim = watched(Simulator(link, step_size=2.0))
    sim.attract(2, (10.0, 40.0))
    run_until_stop(sim)
    assert sim.status == "blocked" and sim.singular
    flat = sim.singular_placement
    assert np.linalg.norm(flat[3] - flat[4]) < 1e-5 * side
    assert np.linalg.norm(flat[2] - flat[0]) == pytest.approx(arm - side, rel=1e-9)
    assert inversion_product(flat) == pytest.approx(arm**2 - side**2, rel=1e-9)
    directions = sim.branches()
    # its curve, and the plane where 3 and 4 stay together (a 2-dimensional component
    # through the flat rhombus: Q swings about them), offered as a few spread-out lines
    assert 2 <= len(directions) <= MAX_BRANCH_LINES
    apart = np.linalg.norm(directions[:, 3] - directions[:, 4], axis=1)
    k = int(np.argmax(apart))
    assert apart[k] == pytest.approx(np.sqrt(2.0), abs=1e-6)  # only 3 and 4 move, opposite
    assert np.all(np.delete(apart, k) < 1e-6)  # on the plane they move together
    sim.follow_branch(k, 1)
    sim.attract(2, (200.0, 0.0))  # then the input P away from the centre
    sim.step(20)
    p = sim.positions
    assert sim.status == "moved" and np.linalg.norm(p[3] - p[4]) > 1.0
    assert inversion_product(p) == pytest.approx(arm**2 - side**2, rel=1e-9)
    assert sim.constraint_error() < 1e-12


def test_spread_lines_keeps_isolated_lines_and_a_few_spread_ones():
    plane = [np.array([np.cos(a), np.sin(a), 0.0]) for a in np.linspace(0, np.pi, 36)]
    lines = np.array([[0.0, 0.0, 1.0], *plane, plane[3]]).reshape(-1, 3, 1)
    kept = spread_lines(lines, 4).reshape(-1, 3)
    assert len(kept) == 4 and np.allclose(kept[0], [0.0, 0.0, 1.0])  # the isolated one first
    gram = np.abs(kept @ kept.T) - np.eye(4)
    assert gram.max() < 0.75  # spread out over the plane
    assert len(spread_lines(lines[:1], 4)) == 1


def triple_rocker(phi: float) -> Linkage:
    """Ground 0-3 = 4, input 0-1 = 2, coupler 1-2 = 1.5, rocker 3-2 = 2 (no link turns round)."""
    p1 = 2.0 * np.array([np.cos(phi), np.sin(phi)])
    p3 = np.array([4.0, 0.0])
    e = p3 - p1
    d = float(np.linalg.norm(e))
    x = (d * d + 1.5**2 - 2.0**2) / (2 * d)
    h = np.sqrt(1.5**2 - x * x)
    p2 = p1 + x * e / d + h * np.array([-e[1], e[0]]) / d
    return Linkage([[0.0, 0.0], p1, p2, p3], rods=[(0, 1), (1, 2), (2, 3)], pinned=[0, 3])


def coupler_rocker_sine(p: np.ndarray) -> float:
    e1, e2 = p[2] - p[1], p[2] - p[3]
    return float((e1[0] * e2[1] - e1[1] * e2[0]) / (np.linalg.norm(e1) * np.linalg.norm(e2)))


def test_a_motor_at_its_dead_point_offers_the_way_back_and_the_way_on():
    sim = watched(Simulator(triple_rocker(0.6), step_size=0.01))
    sim.add_motor(0, 1, 1.0)
    run_until_stop(sim)
    # a dead point stays "blocked" (and says why), but it is a singular placement of the
    # constraints with the motor row: coupler and rocker in line
    assert sim.status == "blocked" and "dead point" in sim.blocked_reason and sim.singular
    limit = np.arccos((2.0**2 + 4.0**2 - 3.5**2) / (2 * 2.0 * 4.0))  # law of cosines
    assert sim.motor_angles[0] == pytest.approx(limit, abs=1e-4)
    assert abs(coupler_rocker_sine(sim.positions)) < 1e-2
    directions = sim.branches()
    assert directions.shape == (1, 4, 2)
    sides = set()
    for sense in (1, -1):
        s = watched(Simulator(triple_rocker(0.6), step_size=0.01))
        s.add_motor(0, 1, 1.0)
        run_until_stop(s)
        s.follow_branch(0, sense)
        assert s.motors[0].speed == -1.0  # away from its limit the input must turn back
        for _ in range(20):
            s.step()
            assert s.status == "moved"
        assert s.motor_angles[0] < limit - 0.1
        sides.add(np.sign(coupler_rocker_sine(s.positions)))
    assert sides == {1.0, -1.0}  # one sense goes back, the other on to the other assembly


def test_a_generic_four_bar_turns_round_without_a_false_singular_stop():
    # Grashof crank-rocker: ground 4, crank 1, coupler 3.5, rocker 3
    link = Linkage(
        [[0.0, 0.0], [1.0, 0.0], [1.0 + 2.4, 2.5], [4.0, 0.0]],
        rods=[(0, 1), (1, 2), (2, 3)],
        pinned=[0, 3],
    )
    # put 2 on both circles exactly
    p1, p3 = link.vertices[1], link.vertices[3]
    d = float(np.linalg.norm(p3 - p1))
    x = (d * d + 3.5**2 - 3.0**2) / (2 * d)
    p2 = p1 + x * (p3 - p1) / d + np.sqrt(3.5**2 - x * x) * np.array([0.0, 1.0])
    link = Linkage([[0.0, 0.0], p1, p2, p3], rods=[(0, 1), (1, 2), (2, 3)], pinned=[0, 3])
    for mode in ("kinematic", "dynamic"):
        sim = watched(Simulator(link, mode=mode, step_size=0.02))
        sim.add_motor(0, 1, 1.0)
        for _ in range(int(2 * 2 * np.pi / 0.02)):  # two full turns
            sim.step()
            assert sim.status == "moved"
    swing = watched(Simulator(link, mode="dynamic", step_size=1 / 60, gravity=9.81))
    for _ in range(300):
        swing.step()
        assert swing.status == "moved"


def test_branches_elsewhere_are_empty_and_follow_branch_refuses():
    sim = watched(Simulator(parallelogram(1.0), step_size=0.05))
    assert sim.branches().shape == (0, 4, 2) and sim.singular_placement is None
    with pytest.raises(ValueError, match="not at a singular placement"):
        sim.follow_branch(0)
    stop = flat_stop()
    frozen = stop.positions.copy()
    with pytest.raises(IndexError, match="branch"):
        stop.follow_branch(2)
    with pytest.raises(ValueError, match="sense"):
        stop.follow_branch(0, 0)
    assert stop.singular and np.array_equal(stop.positions, frozen)


def test_a_mode_change_leaves_the_stop():
    sim = flat_stop()
    sim.mode = "dynamic"
    assert not sim.singular and len(sim.branches()) == 0
