"""Dead centres and the quick-return ratio against the closed forms."""

from __future__ import annotations

import numpy as np
import pytest
from kinematic_cases import slider_crank, whitworth

from linkage_widget.kinematics import kinematics, stroke

TURN = np.linspace(0.0, 2 * np.pi, 181)


def test_offset_slider_crank_dead_centres():
    # offset e: the piston's ends are where crank and rod line up, x = sqrt((l ± r)^2 - e^2)
    r, rod, e = 1.0, 3.0, 0.6
    s = stroke(kinematics(slider_crank(r, rod, e), 0, 1, TURN), 2)
    assert s.travel[1] == pytest.approx(np.sqrt((rod + r) ** 2 - e**2), abs=1e-9)
    assert s.travel[0] == pytest.approx(np.sqrt((rod - r) ** 2 - e**2), abs=1e-9)
    # crank angles there: along the rod (asin(e/(l+r))) and against it (pi + asin(e/(l-r)))
    assert s.angles[1] == pytest.approx(np.arcsin(e / (rod + r)), abs=1e-8)
    assert s.angles[0] == pytest.approx(np.pi + np.arcsin(e / (rod - r)), abs=1e-8)
    # quick return of an offset slider-crank: (pi + b) / (pi - b), b the difference
    b = np.arcsin(e / (rod - r)) - np.arcsin(e / (rod + r))
    assert s.ratio == pytest.approx((np.pi + b) / (np.pi - b), abs=1e-7)  # 5° steps: O(h^4)


def test_whitworth_quick_return_ratio():
    # the ram's ends: the lever along the ram's line, the crank pin on it at y = -d:
    # crank angles -asin(d/r) and pi + asin(d/r), so the ratio is (pi + 2a) / (pi - 2a)
    r, d = 2.0, 1.0
    k = kinematics(whitworth(r, d), 0, 1, TURN)
    assert k.valid.all()
    s = stroke(k, 4)
    a = np.arcsin(d / r)
    assert s.ratio == pytest.approx((np.pi + 2 * a) / (np.pi - 2 * a), abs=1e-8)  # 2
    assert s.length == pytest.approx(2 * 1.5, abs=1e-9)  # the lever's ends, 2 b apart
    # the slot keeps the crank pin on the lever's line all the way round
    o4, b, pin = k.positions[:, 2], k.positions[:, 3], k.positions[:, 1]
    e, w = b - o4, pin - o4
    assert np.abs(e[:, 0] * w[:, 1] - e[:, 1] * w[:, 0]).max() < 1e-12


def test_a_stroke_needs_a_full_turn():
    k = kinematics(slider_crank(), 0, 1, np.linspace(0.0, np.pi, 20))
    with pytest.raises(ValueError, match="full crank turn"):
        stroke(k, 2)


@pytest.mark.parametrize("way", [1.0, -1.0])
def test_a_dead_centre_in_the_gap_that_closes_the_turn(way):
    # 72 samples a turn without the end point: the extended dead centre asin(e/(l+r))
    # = 0.15056 lies between the last sample and the first one a turn on
    r, rod, e = 1.0, 3.0, 0.6
    start = 0.1507 if way > 0 else 0.1504
    th = start + way * np.linspace(0.0, 2 * np.pi, 72, endpoint=False)
    s = stroke(kinematics(slider_crank(r, rod, e), 0, 1, th), 2)
    assert s.travel[1] == pytest.approx(np.sqrt((rod + r) ** 2 - e**2), abs=1e-9)
    assert s.travel[0] == pytest.approx(np.sqrt((rod - r) ** 2 - e**2), abs=1e-9)
    high = np.remainder(s.angles[1] - np.arcsin(e / (rod + r)) + np.pi, 2 * np.pi) - np.pi
    assert abs(high) < 1e-8
    b = np.arcsin(e / (rod - r)) - np.arcsin(e / (rod + r))
    assert s.ratio == pytest.approx((np.pi + b) / (np.pi - b), abs=1e-7)  # 5° steps: O(h^4)
