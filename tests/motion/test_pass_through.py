"""Singular placements the motion passes through on its own (issue 22, items 2 and 10).

Notebook 01 drives Peaucellier's crank through the flat rhombus P = Q (|OP| = |OQ| = sqrt(k)
on the circle of inversion): the only other branch there welds the output Q to the crank
end P, a coincidence of two joints and not a motion the inversor makes, so the motion goes
on along the branch it arrived on. A flat parallelogram's two branches are both real
motions: there it stops and offers them, and every branch offered can be followed.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from linkage_widget import Linkage, Simulator

K = 200.0**2 - 120.0**2  # the inversor's L^2 - s^2
LINE_X = K / (2 * 100.0)  # the output's line x = 128


def notebook_drive(linkage, driven, pivot, angles_deg, output, step_size=2.0, max_steps=400):
    """Notebook 01's ``drive``, copied as it is there."""
    sim = Simulator(linkage, mode="kinematic", step_size=step_size)
    centre = linkage.vertices[pivot]
    radius = np.linalg.norm(linkage.vertices[driven] - centre)
    path, steps = [sim.positions[output].copy()], 0
    for a in np.radians(angles_deg):
        sim.attract(driven, centre + radius * np.array([np.cos(a), np.sin(a)]))
        for _ in range(max_steps):
            sim.step()
            steps += 1
            path.append(sim.positions[output].copy())
            if str(sim.status) != "moved":
                break
    sim.release()
    return np.array(path), sim, steps


def test_notebook_01_drives_the_inversor_through_its_whole_stroke_on_its_line():
    crank = np.r_[np.arange(90, -121, -5), np.arange(-120, 121, 5)]
    path, sim, _ = notebook_drive(
        Linkage.load("peaucellier.txt"), driven=2, pivot=1, angles_deg=crank, output=5
    )
    assert sim.status != "singular"
    # the output passed y = +-96 (the flat rhombus P = Q) both ways: the whole stroke,
    # out to the crank at +-120 degrees (P = 100 (1 + cos a, sin a), Q = k P / |P|^2)
    end = K * 100.0 * math.sin(math.radians(120)) / (200.0**2 * math.cos(math.radians(60)) ** 2)
    assert path[:, 1].max() == pytest.approx(end, rel=1e-9)
    assert path[:, 1].min() == pytest.approx(-end, rel=1e-9)
    assert np.ptp(path[:, 1]) > 400.0
    assert np.abs(path[:, 0] - LINE_X).max() < 1e-9
    assert sim.constraint_error() < 1e-12
