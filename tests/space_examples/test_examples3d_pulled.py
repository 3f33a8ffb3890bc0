"""The package's Simulator in 3-D, a joint pulled like a pointer would: Bricard moves, Cauchy not.

The ground is pinned (the face A B C, joints 0, 2, 4, of an octahedron; link 3 of
Bennett's linkage) and a free joint (A', joint 1; Bennett's Q_1, joint 3) is
attracted to a target 30 % of the longest rod away along its own flex direction
(or, for the rigid octahedron, straight out). Kinematic mode, 150 steps. Bricard's octahedra
must carry the joint at least 10 % of the longest rod with every rod length kept
to 1e-10 relative (checked with our own arithmetic, not the simulator's); the
regular octahedron must not move at all.
"""

from __future__ import annotations

import numpy as np
import pytest
from space_flex import nontrivial_flexes, rod_lengths

from linkage_widget.examples import space
from linkage_widget.motion import Simulator

BUILDERS = {
    "bricard_line": space.bricard_line_symmetric,
    "bricard_plane": space.bricard_plane_symmetric,
    "bricard_type3": space.bricard_type3,
    "bennett": space.bennett_linkage,
    "octahedron": space.octahedron,
}


def _pull(name: str, joint: int = 1, steps: int = 150):
    link = BUILDERS[name](ground=True)
    p, rods = np.array(link.vertices), np.array(link.rods)
    lengths = rod_lengths(p, rods)
    flexes, _ = nontrivial_flexes(p, rods)
    if flexes.shape[1]:
        direction = flexes[:, 0].reshape(p.shape)[joint]
    else:
        direction = p[joint] - p.mean(axis=0)
    target = p[joint] + 0.3 * lengths.max() * direction / np.linalg.norm(direction)
    sim = Simulator(link, step_size=0.01 * lengths.max())
    worst = 0.0
    for _ in range(steps):
        sim.attract(joint, target)
        sim.step()
        q = np.array(sim.positions).reshape(p.shape)
        worst = max(worst, float(np.max(np.abs(rod_lengths(q, rods) - lengths) / lengths)))
    return p, q, lengths, worst, link


@pytest.mark.parametrize(
    ("name", "joint"),
    [("bricard_line", 1), ("bricard_plane", 1), ("bricard_type3", 1), ("bennett", 3)],
)
def test_a_pulled_joint_flexes_the_mechanism(name, joint):
    p, q, lengths, worst, link = _pull(name, joint)
    assert np.linalg.norm(q[joint] - p[joint]) >= 0.10 * lengths.max()
    assert worst <= 1e-10
    assert np.allclose(q[link.pinned], p[link.pinned])  # the ground stayed put


def test_a_pulled_joint_of_the_regular_octahedron_does_not_move():
    p, q, lengths, worst, _ = _pull("octahedron")
    assert np.linalg.norm(q - p) < 1e-9 * lengths.max() and worst <= 1e-12
