"""The slider-crank against its closed form, over a full turn."""

from __future__ import annotations

import numpy as np
import pytest
from kinematic_cases import piston, slider_crank

from linkage_widget.kinematics import kinematics

ANGLES = np.linspace(0.0, 2 * np.pi, 361)


@pytest.mark.parametrize("offset", [0.0, 0.4])
def test_piston_position_velocity_acceleration_are_the_closed_form(offset):
    # x = r cos θ + sqrt(l² - r² sin² θ) in line (the offset e: (r sin θ - e)² under the root)
    k = kinematics(slider_crank(offset=offset), 0, 1, ANGLES)
    assert k.valid.all()
    for got, want in zip(
        (k.positions, k.velocities, k.accelerations), piston(offset=offset), strict=True
    ):
        exact = want(ANGLES) * np.ones_like(ANGLES)
        assert np.abs(got[:, 2, 0] - exact).max() <= 1e-9 * np.abs(exact).max()
        assert np.abs(got[:, 2, 1] - (offset if got is k.positions else 0.0)).max() <= 1e-12
