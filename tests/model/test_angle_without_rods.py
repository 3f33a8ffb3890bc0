"""A fixed angle between joints without rods (issue 15; the 2007 page's "more motion
possible": "if there were no rods but the angle was still fixed, then vertex 2 could move
freely to the left and right and similarly vertex 3 could move freely up and down, since
those motions wouldn't change the angle")."""

from __future__ import annotations

import numpy as np
import pytest

from linkage_widget import Linkage, Simulator, analyze
from linkage_widget.constraints import ConstraintSet

# The page's right-angle example, numbered from 0: apex 0 pinned (its vertex 1), arm
# joint 1 to the right (its vertex 2), arm joint 2 above (its vertex 3).
APEX, RIGHT, UP = 0, 1, 2


def right_angle(rods: bool = False) -> Linkage:
    link = Linkage([[0.0, 0.0], [100.0, 0.0], [0.0, 100.0]], pinned=[APEX])
    if rods:
        link.add_rod(APEX, RIGHT)
        link.add_rod(APEX, UP)
    link.add_angle(APEX, RIGHT, UP)
    return link


def unit(vertex: int, axis: int, n: int = 3) -> np.ndarray:
    v = np.zeros(2 * n)
    v[2 * vertex + axis] = 1.0
    return v


def test_the_angle_needs_no_rods_and_leaves_the_page_s_motions_free() -> None:
    link = right_angle()
    assert link.n_rods == 0 and link.angles.tolist() == [[APEX, RIGHT, UP]]
    jac = ConstraintSet.from_linkage(link).jacobian(link.vertices).toarray()
    assert jac.shape == (1 + 2, 6)  # the angle's row and the pin's two
    # the page's matrix row for the angle: v2y + v3x = 0 (here scaled by 1/100)
    angle_row = jac[0]
    assert angle_row @ unit(RIGHT, 0) == 0.0  # vertex 2 left-right: the angle stays
    assert angle_row @ unit(UP, 1) == 0.0  # vertex 3 up-down: the angle stays
    assert angle_row @ unit(RIGHT, 1) == pytest.approx(angle_row @ unit(UP, 0))  # equal weights
    assert angle_row @ unit(RIGHT, 1) != 0.0
    r = analyze(link)
    # 4 free coordinates, 1 angle: 3 motions, 1 of them the turn about the pin
    assert (r.dof, r.trivial_dof, r.internal_dof) == (3, 1, 2)


@pytest.mark.parametrize(("vertex", "target"), [(RIGHT, (250.0, 0.0)), (UP, (0.0, 30.0))])
def test_each_arm_joint_slides_along_its_arm_and_the_angle_stays(vertex, target) -> None:
    link = right_angle()
    sim = Simulator(link, step_size=5.0)
    sim.attract(vertex, target)
    for _ in range(200):
        sim.step()
        if sim.status != "moved":
            break
    assert sim.status == "reached target"
    p = sim.positions
    np.testing.assert_allclose(p[vertex], target, atol=1e-6)
    other = UP if vertex == RIGHT else RIGHT
    np.testing.assert_allclose(p[other], link.vertices[other], atol=1e-9)  # untouched
    moved = Linkage(p, angles=link.angles, pinned=[APEX])
    assert moved.angle_values() == pytest.approx(link.angle_values(), abs=1e-12)


def test_with_both_rods_the_same_pull_is_blocked() -> None:
    sim = Simulator(right_angle(rods=True), step_size=5.0)
    start = sim.positions.copy()
    sim.attract(RIGHT, (250.0, 0.0))
    sim.step(20)
    assert sim.status == "blocked"  # a rigid joint: equivalent to a third rod
    np.testing.assert_array_equal(sim.positions, start)


def test_the_file_format_keeps_an_angle_without_rods(tmp_path) -> None:
    link = right_angle()
    text = link.dumps()
    assert text.endswith("e\na\n0 1 2\n")  # no rods, the angle as apex and arm joints
    assert Linkage.loads(text) == link
    link.save(tmp_path / "right_angle.txt")
    assert Linkage.load(tmp_path / "right_angle.txt") == link


def test_removing_a_rod_keeps_the_angle() -> None:
    link = right_angle(rods=True)
    link.remove_rod(link.find_rod(APEX, RIGHT))
    assert link.angles.tolist() == [[APEX, RIGHT, UP]] and link.n_rods == 1


def test_coincident_joints_make_no_angle() -> None:
    link = Linkage([[0.0, 0.0], [100.0, 0.0], [0.0, 0.0]])
    before = link.copy()
    with pytest.raises(ValueError, match="joints 0 and 2 coincide: the arm 0-2 has no direction"):
        link.add_angle(0, 1, 2)
    assert link == before
    with pytest.raises(ValueError, match="coincide"):
        Linkage([[0.0, 0.0], [100.0, 0.0], [0.0, 0.0]], angles=[(0, 1, 2)])


def test_an_arm_pulled_through_the_apex_blocks_short_of_it() -> None:
    # without a rod the arm can shrink; at zero length the angle has no direction: the
    # motion blocks just short of the apex, finite (a RuntimeWarning here is an error)
    sim = Simulator(right_angle(), step_size=5.0)
    sim.attract(RIGHT, (-50.0, 0.0))
    for _ in range(100):
        sim.step()
        if sim.status != "moved":
            break
    assert sim.status == "blocked"
    p = sim.positions
    assert np.all(np.isfinite(p)) and 0.0 < p[RIGHT, 0] < 1.0 and p[RIGHT, 1] == 0.0


def test_the_pebble_game_applies_exactly_when_every_angle_has_both_rods():
    """``pebble_game_applies`` (vectorised: it runs on every drawn frame) against the
    definition, one ``find_rod`` per arm, on random graphs with random angles."""
    from linkage_widget.rigidity import pebble_game_applies

    rng = np.random.default_rng(3)
    verdicts = set()
    for _ in range(200):
        n = int(rng.integers(3, 8))
        link = Linkage(rng.uniform(0, 10, (n, 2)))
        pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
        for p in rng.permutation(len(pairs))[: int(rng.integers(0, len(pairs) + 1))]:
            i, j = pairs[p]
            link.add_rod(*((j, i) if rng.random() < 0.5 else (i, j)))  # either order
        for _ in range(int(rng.integers(0, 3))):
            apex, a, b = (int(v) for v in rng.choice(n, 3, replace=False))
            try:
                link.add_angle(apex, a, b)
            except ValueError:  # that angle is fixed already
                pass
        expected = all(
            link.find_rod(i, j) is not None and link.find_rod(i, k) is not None
            for i, j, k in link.angles.tolist()
        )
        assert pebble_game_applies(link) == expected
        verdicts.add(expected)
    assert verdicts == {True, False}
