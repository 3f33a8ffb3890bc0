"""kinematics(linkage, pivot, tip, angles): positions, velocities, accelerations of a drive.

The oracle is the four-bar in closed form, written in sympy: the coupler joint is the
intersection of two circles, and its first two derivatives in the crank angle are
sympy's, not the constraint Jacobian's.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from kinematic_cases import closed_form, four_bar

import linkage_widget
from linkage_widget import Linkage
from linkage_widget.kinematics import Kinematics, MechanismError, kinematics


def test_four_bar_against_the_closed_form_over_a_full_turn():
    angles = np.linspace(0.0, 2 * np.pi, 181)
    k = kinematics(four_bar(), 0, 1, angles)
    assert isinstance(k, Kinematics)
    assert k.positions.shape == (181, 4, 2) and k.valid.shape == (181,)
    assert k.valid.all()
    pos, vel, acc = closed_form()(angles)
    for got, want in ((k.positions, pos), (k.velocities, vel), (k.accelerations, acc)):
        scale = np.abs(want).max()
        assert np.abs(got[:, 2] - want).max() <= 1e-9 * scale
    crank = np.c_[np.cos(angles), np.sin(angles)]
    assert np.allclose(k.positions[:, 1], crank, atol=1e-12)
    assert np.allclose(k.velocities[:, 1], crank @ [[0, 1], [-1, 0]], atol=1e-12)
    assert np.allclose(k.accelerations[:, 1], -crank, rtol=0, atol=1e-9)
    assert np.allclose(k.velocities[:, [0, 3]], 0.0, atol=1e-12)


def test_it_is_the_top_level_name_and_starts_from_any_placement():
    link = four_bar()
    # the linkage's crank is at 0; the first angle asked is 2 rad: it is driven there
    k = linkage_widget.kinematics(link, 0, 1, [2.0, 2.5])
    pos = closed_form()(np.array([2.0, 2.5]))[0]
    assert np.abs(k.positions[:, 2] - pos).max() < 1e-10
    assert linkage_widget.Kinematics is Kinematics


def test_a_rocking_crank_is_invalid_where_it_does_not_assemble():
    # Non-Grashof (2 + 4 > 2 + 3): the "crank" only rocks; the far side never assembles
    link = four_bar(r=2.0, coupler=2.0, rocker=3.0, ground=4.0)
    angles = np.linspace(0.0, 2 * np.pi, 73)
    k = kinematics(link, 0, 1, angles)
    # the crank reaches the angles θ where |B(θ) - D| <= coupler + rocker = 5
    dist = np.hypot(2 * np.cos(angles) - 4.0, 2 * np.sin(angles))
    reach, beyond = dist < 5 - 1e-6, dist > 5 + 1e-6
    assert k.valid[reach].all() and not k.valid[beyond].any()
    assert np.isnan(k.positions[beyond]).all() and np.isnan(k.velocities[beyond]).all()
    # back on the branch it left: the coupler joint C on the same side of B -> D throughout
    b, c, d = (k.positions[reach, j] for j in (1, 2, 3))
    e, w = d - b, c - b
    assert (e[:, 0] * w[:, 1] - e[:, 1] * w[:, 0] > 0).all()


def test_free_degrees_of_freedom_are_refused_with_their_count():
    five_bar = Linkage(
        [[0, 0], [1, 0], [2, 2], [3, 0], [4, 0]],
        rods=[(0, 1), (1, 2), (2, 3), (3, 4)],
        pinned=[0, 4],
    )
    with pytest.raises(MechanismError, match="1 free degree of freedom"):
        kinematics(five_bar, 0, 1, [0.0])
    floating = Linkage([[0, 0], [1, 0], [1, 1]], rods=[(0, 1), (1, 2), (0, 2)])
    with pytest.raises(ValueError, match="2 free degrees of freedom"):
        kinematics(floating, 0, 1, [0.0])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((0, 2, [0.0]), "no rod 0-2"),
        ((0, 9, [0.0]), "tip"),
        ((0, 1, []), "non-empty"),
        ((0, 1, [0.0, np.nan]), "finite"),
    ],
)
def test_bad_input_says_what(args, message):
    with pytest.raises(ValueError, match=message):
        kinematics(four_bar(), *args)


def test_a_pinned_rod_cannot_turn():
    link = Linkage([[0, 0], [1, 0]], rods=[(0, 1)], pinned=[0, 1])
    with pytest.raises(ValueError, match="both ends pinned"):
        kinematics(link, 0, 1, [0.0])


def test_a_point_on_a_body_moves_with_it():
    # the coupler point of a triangle 1-2-4, computed as a joint and as a point of body 1-2
    link = four_bar()
    p = link.vertices
    apex = 0.5 * (p[1] + p[2]) + np.array([-1.0, 1.5])
    tri = Linkage([*p, apex], rods=[(0, 1), (1, 2), (2, 3), (1, 4), (2, 4)], pinned=[0, 3])
    d = p[2] - p[1]
    along, across = np.linalg.solve(np.c_[d, [-d[1], d[0]]], apex - p[1])
    k = kinematics(tri, 0, 1, np.linspace(0.0, 2 * np.pi, 37))
    for got, joint in zip(
        k.body_point(1, 2, along, across), (k.positions, k.velocities, k.accelerations), strict=True
    ):
        assert np.abs(got - joint[:, 4]).max() < 1e-9


def test_the_face_keeps_the_function_whatever_is_imported_first():
    code = (
        "import linkage_widget.kinematics.centres, linkage_widget.kinematics.stroke;"
        "import linkage_widget;"
        "from linkage_widget.kinematics import instant_centres;"
        "print(callable(linkage_widget.kinematics), linkage_widget.kinematics.__name__)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "kinematics"]
