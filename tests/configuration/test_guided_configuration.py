"""The configuration panel on linkages with sliders: their rows are in its system."""

from __future__ import annotations

import numpy as np

from linkage_widget import Linkage, analyze
from linkage_widget.configuration import chart_linkage, internal_dimension, sample_surface


def off_line(link: Linkage, positions: np.ndarray) -> float:
    """Largest distance of a sliding joint from its line over ``positions`` ``(k, n, 2)``."""
    worst = 0.0
    for s in link.sliders:
        normal = np.array([-s.direction[1], s.direction[0]])
        worst = max(worst, float(np.abs((positions[:, s.joint] - s.point) @ normal).max()))
    return worst


def test_a_slider_crank_is_charted_as_a_curve_with_the_piston_on_its_line():
    link = Linkage.load("slider_crank.txt")
    chart = chart_linkage(link)
    assert chart.kind == "curve", chart.message
    for branch in chart.curve.branches:
        assert off_line(link, np.asarray(branch.positions)) < 1e-9


def test_the_dimension_counts_the_sliders():
    for name in ("slider_crank.txt", "whitworth.txt", "slider_crank_offset.txt"):
        link = Linkage.load(name)
        assert internal_dimension(link) == analyze(link).internal_dof == 1, name


def test_a_five_bar_with_a_slider_samples_placements_on_its_line():
    # pinned at 0 and 4, joint 2 on the line y = 2.5: two degrees of freedom left
    pts = [[0, 0], [0.5, 2.0], [2.0, 2.5], [3.5, 2.0], [4, 0]]
    rods = [(0, 1), (1, 2), (2, 3), (3, 4)]
    link = Linkage(pts, rods=rods, pinned=[0, 4], sliders=[(2, (0, 2.5), (1, 0))])
    assert internal_dimension(link) == analyze(link).internal_dof == 1
    six = Linkage(pts + [[2.0, 4.0]], rods=rods + [(2, 5)], pinned=[0, 4],
                  sliders=[(5, (0, 4.0), (1, 0))])  # fmt: skip
    assert internal_dimension(six) == analyze(six).internal_dof == 2
    surface = sample_surface(six, resolution=12)
    placed = np.asarray(surface.positions)[np.asarray(surface.reachable)]
    assert len(placed) >= 5
    assert off_line(six, placed) < 1e-9
