"""The normal force each slider and slot carries (issue 25), checked by hand.

The oracle is the piston's own equilibrium, written out below: the connecting rod's
force along the rod, the guide's normal to the line, the load; and the crank held by a
load on its tip that does no work with them (virtual work from the closed-form piston
velocity :math:`dx/d\\theta`).
"""

from __future__ import annotations

import numpy as np
import pytest

from linkage_widget import Linkage, analyze
from linkage_widget.rigidity import static_forces


def slider_crank(theta: float, r: float = 1.0, rod: float = 3.0, way=(1.0, 0.0)) -> Linkage:
    """Crank O-A pinned at O, rod A-B, piston B on the line through O along ``way``."""
    u = np.asarray(way, float) / np.hypot(*way)
    n = np.array([-u[1], u[0]])
    a = r * np.array([np.cos(theta), np.sin(theta)])
    along, off = a @ u, a @ n  # the crank tip in the line's frame
    b = (along + np.sqrt(rod**2 - off**2)) * u
    return Linkage(
        [[0.0, 0.0], a, b], rods=[(0, 1), (1, 2)], pinned=[0], sliders=[(2, (0.0, 0.0), u)]
    )


@pytest.mark.parametrize("theta", [0.4, 1.2, 2.5, 5.0])
def test_slider_crank_normal_force_is_the_rods_vertical_pull(theta):
    r, rod, push = 1.0, 3.0, -2.0  # a horizontal load on the piston
    link = slider_crank(theta, r, rod)
    _, a, b = link.vertices
    # crank rate 1: v_A = (-a_y, a_x), v_B = (dx/dtheta, 0) from the closed form
    dx = -r * np.sin(theta) - r**2 * np.sin(theta) * np.cos(theta) / np.sqrt(
        rod**2 - r**2 * np.sin(theta) ** 2
    )
    v_a = np.array([-a[1], a[0]])
    hold = -(push * dx) / (v_a @ v_a) * v_a  # on the crank tip: no work with the load
    report = static_forces(link, {2: (push, 0.0), 1: tuple(hold)})
    assert report.balanced
    # piston B: load + rod force + N n = 0, with the tension T pulling B towards A
    t = push * rod / (b[0] - a[0])
    normal = t * (b[1] - a[1]) / rod  # n = (0, 1): N balances the rod's vertical pull
    assert report.rod_forces[1] == pytest.approx(t, rel=1e-9)
    assert report.slider_forces.shape == (1,)
    assert report.slider_forces[0] == pytest.approx(normal, rel=1e-9, abs=1e-12)
    assert report.reactions.shape == (1, 2)  # the pin's reaction only, not the slider's row
    np.testing.assert_allclose(
        report.reactions[0] + report.slider_forces[0] * np.array([0.0, 1.0]),
        -np.array([push, 0.0]) - hold,
        atol=1e-9,
    )  # the ground's forces balance the loads


def test_slider_force_sign_follows_the_normal_of_a_tilted_line():
    # the same mechanism turned by 30 degrees: the normal force is the same number
    theta, turn = 1.1, np.pi / 6
    flat = slider_crank(theta)
    tilted = slider_crank(theta + turn, way=(np.cos(turn), np.sin(turn)))
    c, s = np.cos(turn), np.sin(turn)
    rot = np.array([[c, -s], [s, c]])
    load = np.array([0.3, -1.0])
    f_flat = static_forces(flat, {2: tuple(load)})
    f_tilt = static_forces(tilted, {2: tuple(rot @ load)})
    assert f_tilt.slider_forces[0] == pytest.approx(f_flat.slider_forces[0], rel=1e-9)


def test_a_weight_on_a_slot_joint_is_carried_by_the_slot():
    # joint 2 in the horizontal slot of the pinned bar 0-1, a weight on it
    link = Linkage(
        [[0.0, 0.0], [4.0, 0.0], [1.0, 0.0]], pinned=[0, 1], slots=[(0, 1, 2)]
    )  # fmt: skip
    report = static_forces(link, {2: (0.0, -3.0)})
    assert report.balanced
    # the axis 0 -> 1 turned counter-clockwise is +y: the slot pushes up with 3
    assert report.slot_forces.tolist() == pytest.approx([3.0])
    # the lever rule: the supports at 0 and 1 take 3/4 and 1/4 of it
    np.testing.assert_allclose(report.reactions, [[0.0, 2.25], [0.0, 0.75]], atol=1e-12)


def test_self_stress_through_a_slider_names_its_row():
    # joint 2 held by two rods from pins and by a slider as well: one self-stress
    link = Linkage(
        [[0.0, 0.0], [2.0, 0.0], [1.0, 1.0]], rods=[(0, 2), (1, 2)], pinned=[0, 1],
        sliders=[(2, (1.0, 1.0), (1.0, 0.3))],
    )  # fmt: skip
    report = analyze(link)
    assert report.self_stresses == 1
    assert report.row_kinds.tolist() == ["rod", "rod", "pin", "pin", "pin", "pin", "slider"]
    stress = report.stresses[0]
    assert abs(stress[report.row_kinds == "slider"][0]) > 0.1
    statics = static_forces(link, {2: (0.0, -1.0)})
    assert not statics.determinate
    assert statics.row_kinds.tolist() == report.row_kinds.tolist()
    assert "guides" in statics.explanation
