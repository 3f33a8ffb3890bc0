"""Bundled mechanisms driven by their cranks: closure after a turn, straight lines held."""

from __future__ import annotations

import numpy as np
import pytest

from linkage_widget import Linkage
from linkage_widget.kinematics import kinematics


@pytest.mark.parametrize(
    ("name", "pivot", "tip"), [("four_bar", 0, 2), ("hoeken", 0, 2), ("jansen", 0, 2)]
)
def test_a_crank_rocker_closes_after_a_full_turn(name, pivot, tip):
    link = Linkage.load(f"{name}.txt")
    start = np.arctan2(*(link.vertices[tip] - link.vertices[pivot])[::-1])
    angles = start + np.linspace(0.0, 2 * np.pi, 121)
    k = kinematics(link, pivot, tip, angles)
    size = np.ptp(link.vertices)
    assert k.valid.all()
    assert np.abs(k.positions[0] - link.vertices).max() < 1e-9 * size  # the drawing itself
    assert np.abs(k.positions[-1] - k.positions[0]).max() < 1e-9 * size  # and back again
    assert np.abs(k.velocities[-1] - k.velocities[0]).max() < 1e-9 * size


@pytest.mark.parametrize(
    ("name", "pivot", "tip", "out", "half"),
    [("peaucellier", 1, 2, 5, 40.0), ("hart", 1, 2, 3, 60.0)],
)
def test_an_exact_straight_line_has_no_velocity_or_acceleration_across_it(
    name, pivot, tip, out, half
):
    link = Linkage.load(f"{name}.txt")
    start = np.arctan2(*(link.vertices[tip] - link.vertices[pivot])[::-1])
    k = kinematics(link, pivot, tip, start + np.radians(np.linspace(-half, half, 41)))
    assert k.valid.all()
    size = np.ptp(link.vertices)
    assert np.ptp(k.positions[:, out, 0]) < 1e-9 * size  # x held: the line is vertical
    assert np.abs(k.velocities[:, out, 0]).max() < 1e-9 * size
    assert np.abs(k.accelerations[:, out, 0]).max() < 1e-7 * size
    assert np.ptp(k.positions[:, out, 1]) > 0.1 * size  # while it travels along it
