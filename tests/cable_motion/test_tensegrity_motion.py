"""Snelson's X under gravity, a taut cable that moves as a rod, and a set velocity.

Snelson's X: a unit square whose four sides are cables and whose two diagonals are struts,
the bottom two joints pinned. Its statics is worked by hand (no code under test): each
top joint carries its weight ``m g`` on its strut, the strut's compression ``sqrt(2) m g``
pushes it outward by ``m g``, and the top cable pulls it back with tension ``m g``; the
side cables carry nothing. Every member then has the sign it may have, so the X stands
still. With the top cable made a strut (a strut cannot pull) there is no such balance: the
top joints fall outward, each on the circle its diagonal strut allows, and no cable ever
lengthens nor any strut shortens on the way.
"""

from __future__ import annotations

import numpy as np

from linkage_widget import Linkage
from linkage_widget.motion import Simulator

G = 9.81
SQUARE = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]
SIDES, DIAGONALS = [(0, 1), (1, 2), (2, 3), (3, 0)], [(0, 2), (1, 3)]
ROUNDOFF = 1e-12


def _strain(link: Linkage, positions: np.ndarray) -> np.ndarray:
    """Each member's relative strain ``|p_i - p_j| / L - 1`` at ``positions``, ``(m,)``."""
    rods = np.asarray(link.rods)
    rest = np.linalg.norm(np.subtract(*np.asarray(link.vertices)[rods.T]), axis=1)
    now = np.linalg.norm(np.subtract(*positions[rods.T]), axis=1)
    return now / rest - 1.0


def _within_kinds(link: Linkage, positions: np.ndarray) -> bool:
    """No cable longer, no strut shorter than its length (to round-off)."""
    strain, kinds = _strain(link, positions), link.rod_kinds
    return bool(
        np.all(strain[kinds == "cable"] <= ROUNDOFF)
        and np.all(strain[kinds == "strut"] >= -ROUNDOFF)
        and np.all(np.abs(strain[kinds == "rod"]) <= ROUNDOFF)
    )


def test_snelson_x_stands_under_gravity() -> None:
    link = Linkage(SQUARE, cables=SIDES, struts=DIAGONALS, pinned=[0, 1])
    sim = Simulator(link, mode="dynamic", step_size=1 / 60, gravity=G)
    for _ in range(120):
        sim.step()
        assert _within_kinds(link, np.asarray(sim.positions))
    assert np.max(np.abs(sim.positions - np.array(SQUARE))) < 1e-9
    # the hand-worked forces (module docstring): top cable m g, struts -sqrt(2) m g
    mass = 0.25  # total mass 1 over four joints (alpha = 0)
    tension = sim.constraint_forces.rods
    assert abs(tension[2] - mass * G) < 1e-6
    np.testing.assert_allclose(tension[4:], -np.sqrt(2.0) * mass * G, rtol=1e-6)
    np.testing.assert_allclose(tension[[1, 3]], 0.0, atol=1e-6)


def test_x_with_a_strut_on_top_falls_within_its_members() -> None:
    cables, struts = [(0, 1), (1, 2), (3, 0)], [(2, 3), *DIAGONALS]
    link = Linkage(SQUARE, cables=cables, struts=struts, pinned=[0, 1])
    sim = Simulator(link, mode="dynamic", step_size=1 / 240, gravity=G)
    for _ in range(120):
        sim.step()
        assert _within_kinds(link, np.asarray(sim.positions))
    top = np.asarray(sim.positions)[2:]
    assert top[0, 0] > 1.05 and top[1, 0] < -0.05  # opened outward
    assert top[0, 1] < 0.95 and top[1, 1] < 0.95  # and fell
    # the top strut pulls nothing: it is let go (longer than its length)
    assert np.linalg.norm(top[0] - top[1]) > 1.1


def test_taut_cable_swings_as_a_rod_bit_for_bit() -> None:
    # Released at 60 degrees the tension stays >= m g / 2: the cable holds throughout, and
    # the step is RATTLE's on the bar framework, bit for bit.
    bob = [np.sin(np.pi / 3), -np.cos(np.pi / 3)]
    runs = []
    for kind in ("rods", "cables"):
        link = Linkage([[0.0, 0.0], bob], **{kind: [(0, 1)]}, pinned=[0])
        sim = Simulator(link, mode="dynamic", step_size=1 / 120, gravity=G)
        track = []
        for _ in range(240):
            sim.step()
            track.append(np.array(sim.positions))
        runs.append(np.array(track))
    assert np.ptp(runs[0][:, 1, 0]) > 1.5  # it swings
    assert np.array_equal(runs[0], runs[1])


def test_set_velocity_lets_a_cable_shorten_not_lengthen() -> None:
    link = Linkage([[0.0, 0.0], [1.0, 0.0]], cables=[(0, 1)], pinned=[0])
    sim = Simulator(link, mode="dynamic")
    sim.set_velocity([[0.0, 0.0], [-1.0, 0.5]])  # toward the pin: allowed as it is
    np.testing.assert_array_equal(sim.velocities[1], [-1.0, 0.5])
    sim.set_velocity([[0.0, 0.0], [1.0, 0.5]])  # away: the part along the cable goes
    np.testing.assert_allclose(sim.velocities[1], [0.0, 0.5], atol=1e-12)


def test_dragging_snelson_x_is_blocked_and_its_flexible_twin_slides_on_a_cable() -> None:
    # Snelson's X is rigid as a tensegrity: no pull moves its top joint. With the top
    # cable made a strut it is not: pulled toward (2, 1), joint 2 goes as far as its
    # cable to joint 1 allows, to the nearest point of that circle, (1, 0) + (1, 1)/sqrt(2).
    rigid = Linkage(SQUARE, cables=SIDES, struts=DIAGONALS, pinned=[0, 1])
    for target in [(0.5, 0.5), (2.0, 2.0), (2.0, 1.0), (1.0, 3.0)]:
        sim = Simulator(rigid, step_size=0.05)
        sim.attract(2, target)
        sim.step(50)
        assert sim.status == "blocked"
        assert np.array_equal(sim.positions, SQUARE)
    cables, struts = [(0, 1), (1, 2), (3, 0)], [(2, 3), *DIAGONALS]
    twin = Linkage(SQUARE, cables=cables, struts=struts, pinned=[0, 1])
    sim = Simulator(twin, step_size=0.05)
    sim.attract(2, (2.0, 1.0))
    for _ in range(200):
        sim.step()
        assert _within_kinds(twin, np.asarray(sim.positions))
    nearest = np.array([1.0, 0.0]) + np.array([1.0, 1.0]) / np.sqrt(2)
    np.testing.assert_allclose(sim.positions[2], nearest, atol=1e-4)
    np.testing.assert_allclose(sim.positions[3], SQUARE[3], atol=1e-12)
