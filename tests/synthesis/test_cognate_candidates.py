"""The three cognates as path candidates: each traces the original's coupler curve.

Oracles: the original's coupler curve traced by ``kinematics`` (its dyads in closed form,
not the complex-number construction); each candidate driven by ``kinematics`` at its own crank
angles; the Grashof rule and the third pivot written out here by hand.
"""

from __future__ import annotations

import numpy as np
import pytest

from linkage_widget import Linkage, cognate_candidates, kinematics


def _crank_rocker() -> Linkage:
    """Ground 4, crank 2, coupler 3.16, rocker 3.16 (a crank-rocker), coupler point (2, 4)."""
    return Linkage([[0, 0], [4, 0], [0, 2], [3, 3], [2, 4]],
                   rods=[(0, 2), (2, 3), (3, 1), (2, 4), (3, 4)], pinned=[0, 1])  # fmt: skip


def _lengths(link: Linkage) -> np.ndarray:
    """Ground, crank, coupler, rocker of a candidate (the layout of ``four_bar.txt``)."""
    v = link.vertices
    return np.hypot(*(v[[1, 2, 3, 3]] - v[[0, 0, 2, 1]]).T)


def _grashof_crank(lengths: np.ndarray) -> bool:
    """Grashof (s + l <= p + q) with the crank the shortest link: the crank turns fully."""
    short, long = lengths.min(), lengths.max()
    grashof = short + long <= lengths.sum() - short - long + 1e-12
    return bool(grashof and np.argmin(lengths) == 1)


#: The original's curve samples (1 441 over a turn) are at most 0.0163 apart, so a point
#: of the curve is within 0.0082 of one of them.
SPACING = 0.009


@pytest.fixture(scope="module")
def case():
    link = _crank_rocker()
    turn = np.pi / 2 + np.linspace(0, 2 * np.pi, 1441)
    curve = kinematics(link, 0, 2, turn, lengths=link.rod_lengths()[None]).positions[0, :, 4]
    return link, curve, cognate_candidates(link, 4)


def test_three_four_bars_one_curve(case):
    link, curve, found = case
    assert len(found) == 3
    np.testing.assert_allclose(found[0].linkage.vertices, link.vertices, atol=1e-12)
    o_c = 0.8 + 0.4j  # z = (P - A)/(B - A) = (2 + 2j)/(3 + 1j); O_C = O_A + z (O_B - O_A)
    for c in found:
        assert c.coupler == 4
        np.testing.assert_allclose(c.linkage.vertices[4], [2, 4], atol=1e-12)  # P where it is
        assert c.error < 1e-12 * np.ptp(curve)
        pivots = {complex(*np.round(c.linkage.vertices[i], 12)) for i in c.linkage.pinned}
        assert pivots != {0j, 4 + 0j} or c is found[0]
        assert c is found[0] or 4 * o_c in pivots  # the third pivot, O_C = (3.2, 1.6)
        gaps = np.linalg.norm(c.curve[:, None] - curve[None], axis=2).min(axis=1)
        assert gaps.max() < SPACING  # its own drawn curve lies on the original's
    assert len({tuple(np.round(c.linkage.vertices.ravel(), 9)) for c in found}) == 3


def test_a_cognate_with_a_crank_is_driven_by_it_along_the_whole_curve(case):
    link, curve, found = case
    turning = [c for c in found if c.traverses]
    assert len(turning) == 2  # a crank-rocker's cognates: another crank-rocker, a double-rocker
    for c in turning:
        assert _grashof_crank(_lengths(c.linkage)) and c.grashof == "crank-rocker"
        k = kinematics(c.linkage, *c.motor, c.angles)
        assert k.valid.all()
        traced = k.positions[:, c.coupler]
        gaps = np.linalg.norm(traced[:, None] - curve[None], axis=2).min(axis=1)
        assert gaps.max() < SPACING  # on the original's curve
        assert np.ptp(np.unwrap(c.angles)) > 6.0  # its crank turns round


def test_the_cognate_without_a_crank_says_so(case):
    _, _, found = case
    (rocking,) = [c for c in found if not c.traverses]
    assert not _grashof_crank(_lengths(rocking.linkage))
    assert rocking.grashof == "double-rocker"
    assert "rocks" in rocking.note


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="four-bar with a coupler point"):
        cognate_candidates(Linkage([[0, 0], [1, 0]], rods=[(0, 1)], pinned=[0]), 1)
    with pytest.raises(ValueError, match="samples"):
        cognate_candidates(_crank_rocker(), 4, samples=3)
