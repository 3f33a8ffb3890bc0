"""Configuration charts of pinned 3-D linkages (issue 24 item 1): Bennett, Bricard's octahedra.

References are independent of the code under test: Bennett's closed form
:math:`\\tan\\frac{\\theta}{2}\\tan\\frac{\\varphi}{2} = \\sin\\frac{\\beta+\\alpha}{2} /
\\sin\\frac{\\beta-\\alpha}{2}` with :math:`\\theta_2 = -\\theta_0`, :math:`\\theta_3 = -\\theta_1`,
its Denavit–Hartenberg hinge angles measured here from the joints (the angle about hinge
:math:`i` from the common normal :math:`P_{i-1}P_i` to :math:`P_iP_{i+1}`), rod lengths, and
central differences for the dihedral's gradient.
"""

from __future__ import annotations

import numpy as np
import pytest

import linkage_widget.configuration.charting as charting
from linkage_widget import Linkage
from linkage_widget.configuration import (
    AngleCoordinate,
    angle_coordinates,
    chart_linkage,
    trace_curve,
)
from linkage_widget.configuration._system import LinkageSystem
from linkage_widget.examples import space

ALPHA, BETA = np.radians(45.0), np.radians(75.0)  # bennett_linkage's defaults
RATIO = np.sin((BETA + ALPHA) / 2) / np.sin((BETA - ALPHA) / 2)


def _wrap(x):
    return np.angle(np.exp(1j * np.asarray(x)))


def dh_hinge_angles(p):
    """Bennett's DH hinge angles ``(4, k)`` of placements ``(k, 8, 3)``, by hand."""
    feet, tips = p[:, 0::2], p[:, 1::2]
    out = []
    for i in range(4):
        u = tips[:, i] - feet[:, i]
        u = u / np.linalg.norm(u, axis=-1, keepdims=True)
        x_in = feet[:, i] - feet[:, i - 1]
        x_out = feet[:, (i + 1) % 4] - feet[:, i]
        # project both normals on the plane of the axis, then the signed angle about u
        x_in = x_in - (x_in * u).sum(-1, keepdims=True) * u
        x_out = x_out - (x_out * u).sum(-1, keepdims=True) * u
        out.append(np.arctan2((np.cross(x_in, x_out) * u).sum(-1), (x_in * x_out).sum(-1)))
    return np.array(out)


def test_bennett_is_charted_as_a_curve_in_two_hinge_angles_that_follows_the_closed_form():
    link = space.bennett_linkage(ground=True)
    chart = chart_linkage(link)
    assert chart.kind == "curve", chart.message
    assert [c.label for c in chart.coords] == [
        "dihedral at rod 0–1 (2→6)",
        "dihedral at rod 6–7 (0→4)",
    ]
    assert chart.title[0].startswith("curve in dihedral (hinge) angles")
    here = chart.curve.branches[0]  # the branch through the linkage's placement
    assert here.closed
    th = dh_hinge_angles(here.positions)
    assert np.abs(np.tan(th[0] / 2) * np.tan(th[1] / 2) - RATIO).max() < 1e-8
    assert np.abs(_wrap(th[2] + th[0])).max() < 1e-9
    assert np.abs(_wrap(th[3] + th[1])).max() < 1e-9
    assert np.ptp(np.unwrap(th[0])) > 2 * np.pi - 0.2  # the whole turn of hinge 0
    # the chart's angles are the hinge angles: about hinge 0 from P1 to P3 is pi - theta_0,
    # about hinge 3 from P0 to P2 is pi - theta_3 = pi + theta_1
    assert np.abs(_wrap(here.angles[:, 0] - (np.pi - th[0]))).max() < 1e-9
    assert np.abs(_wrap(here.angles[:, 1] - (np.pi + th[1]))).max() < 1e-9
    lengths = link.rod_lengths()
    for branch in chart.curve.branches:
        d = branch.positions[:, link.rods[:, 0]] - branch.positions[:, link.rods[:, 1]]
        assert np.abs(np.linalg.norm(d, axis=-1) - lengths).max() < 1e-9
        assert np.array_equal(branch.positions[:, link.pinned], np.broadcast_to(
            link.vertices[link.pinned], branch.positions[:, link.pinned].shape))  # fmt: skip


@pytest.mark.parametrize(
    "name", ["bricard_line_symmetric", "bricard_plane_symmetric", "bricard_type3"]
)
def test_bricards_octahedra_are_charted_as_curves_of_rod_placements(name):
    link = getattr(space, name)(ground=True)
    chart = chart_linkage(link)
    assert chart.kind == "curve", chart.message
    assert all(c.kind == "dihedral" for c in chart.coords)
    lengths = link.rod_lengths()
    for branch in chart.curve.branches:
        d = branch.positions[:, link.rods[:, 0]] - branch.positions[:, link.rods[:, 1]]
        assert np.abs(np.linalg.norm(d, axis=-1) - lengths).max() < 1e-9
        assert np.ptp(branch.angles, axis=0).min() > 0.1  # both angles move along it


def test_the_dihedral_gradient_matches_central_differences():
    link = space.bennett_linkage(ground=True)
    rng = np.random.default_rng(3)
    p = link.vertices + 0.1 * rng.normal(size=link.vertices.shape)
    h = 1e-6
    for c in angle_coordinates(link) + [AngleCoordinate("dihedral", (2, 3, 0, 5))]:
        d = rng.normal(size=p.shape)
        numeric = (c.value(p + h * d) - c.value(p - h * d)) / (2 * h)
        assert (c.gradient(p) * d).sum() == pytest.approx(numeric, abs=1e-7)


def test_a_dihedral_inside_a_rigid_link_is_not_a_choice():
    link = space.bennett_linkage(ground=True)
    labels = [c.label for c in angle_coordinates(link)]
    # one angle per hinge rod 0-1, 2-3, 4-5, 6-7; a tetrahedron's own angles never move
    assert sorted(label.split(" (")[0] for label in labels) == [
        f"dihedral at rod {2 * i}–{2 * i + 1}" for i in range(4)
    ]


def _said_in_words(message):
    assert message and "reshape" not in message and "array" not in message
    assert "shape" not in message


@pytest.mark.parametrize("name", ["bennett_linkage", "bricard_line_symmetric", "octahedron"])
def test_a_free_3d_linkage_is_told_what_holds_it_in_space(name):
    message = chart_linkage(getattr(space, name)()).message
    _said_in_words(message)
    assert "three joints not on one line" in message
    assert "two joints" not in message.split("(")[0]


def test_two_pins_in_space_do_not_hold_it_and_the_message_says_why():
    link = space.bennett_linkage()
    two = Linkage(link.vertices, link.rods, pinned=[0, 1], dim=3)
    message = chart_linkage(two).message
    _said_in_words(message)
    assert "turn about that line" in message
    three_on_a_line = Linkage(
        [[0, 0, 0], [1, 0, 0], [2, 0, 0], [1, 1, 0], [1, 1, 1]],
        rods=[(0, 3), (1, 3), (2, 3), (3, 4), (0, 4)],
        pinned=[0, 1, 2],
    )
    assert "not on one line" in chart_linkage(three_on_a_line).message


def test_a_pinned_3d_linkage_it_cannot_chart_says_so_in_words():
    # a joint on a circle about the ground's edge 0-1: one degree of freedom, and one hinge
    # angle only (about rod 0-1): no second angle to chart it in
    swing = Linkage(
        [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0.5, 0.3, 0.8]],
        rods=[(0, 1), (1, 2), (0, 2), (0, 3), (1, 3)],
        pinned=[0, 1, 2],
    )
    chart = chart_linkage(swing)
    assert chart.kind == "none"
    _said_in_words(chart.message)
    assert "dihedral" in chart.message and "1 such angle" in chart.message
    loose = Linkage(swing.vertices, [(0, 1), (1, 2), (0, 2)], pinned=[0, 1, 2])  # 3 DOF
    assert "1 or 2 internal degrees of freedom; this one has" in chart_linkage(loose).message
    rigid = chart_linkage(space.octahedron(ground=True))
    assert rigid.kind == "none" and "cannot move" in rigid.message


def test_trace_curve_takes_a_3d_linkage_and_its_own_coordinates():
    link = space.bricard_line_symmetric(ground=True)
    coords = angle_coordinates(link)[1:3]
    curve = trace_curve(link, coords)
    assert curve.coords == tuple(coords)
    p = curve.branches[0].positions
    assert p.shape[1:] == (6, 3)
    assert np.allclose(curve.branches[0].angles[:, 0], coords[0].value(p))


def test_a_fixed_angle_in_space_is_held_by_its_cosine_row():
    base = space.bricard_line_symmetric(ground=True)
    i, j = base.rods[base.rods[:, 0] != base.rods[:, 1]][-1]
    k = next(int(v) for v in base.neighbors(int(i)) if int(v) != int(j))
    link = Linkage(base.vertices, base.rods, angles=[(int(i), int(j), k)], pinned=base.pinned)
    system = LinkageSystem.build(link)
    rng = np.random.default_rng(5)
    x = system.unknowns(link.vertices)[None] + 0.05 * rng.normal(size=(1, system.size))
    f, jac = system.residual_and_jacobian(x)
    d, h = rng.normal(size=system.size), 1e-6
    numeric = (system.residual_and_jacobian(x + h * d)[0] - system.residual_and_jacobian(
        x - h * d)[0]) / (2 * h)  # fmt: skip
    assert np.allclose(jac[0] @ d, numeric[0], atol=1e-7)
    assert system.solved(system.unknowns(link.vertices)[None])[0]
    assert f[0, -1] != 0.0  # the angle row is there and moved with the nudge


def test_numerical_trouble_is_said_in_words_not_numpys(monkeypatch):
    def broken(*args, **kwargs):
        raise ValueError("cannot reshape array of size 12 into shape (8,)")

    monkeypatch.setattr(charting, "trace_curve", broken)
    chart = chart_linkage(space.bennett_linkage(ground=True))
    assert chart.kind == "none" and chart.message == charting.NUMERICAL_TROUBLE
    _said_in_words(chart.message)
