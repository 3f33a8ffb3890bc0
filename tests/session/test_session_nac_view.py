"""The NAC view in the session (issue 26): pick a colouring (N/B), its rods in two colours,
the linkage at the start of its flex (one undo step; the model's lengths the motion's), y plays
one turn (positions change, every rod keeps its length), leaving keeps the placement."""

from __future__ import annotations

import numpy as np
import pytest

from linkage_widget import Linkage, rigidity
from linkage_widget.draw.theme import DEFAULT_THEME as T
from linkage_widget.session import LinkageSession

pytestmark = pytest.mark.skipif(
    not hasattr(rigidity, "nac_colourings"), reason="the NAC part (rigidity.nac) is not merged"
)


def prism() -> LinkageSession:
    """The triangular prism: a Laman graph (6 joints, 9 rods) with a NAC-colouring."""
    p = [[0, 0], [4, 0], [2, 3], [0.6, 0.8], [3.3, 0.7], [2.1, 2.2]]
    rods = [(0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 3), (0, 3), (1, 4), (2, 5)]
    return LinkageSession(Linkage(p, rods=rods))


def lengths(link: Linkage) -> np.ndarray:
    P = link.vertices
    return np.linalg.norm(P[link.rods[:, 0]] - P[link.rods[:, 1]], axis=1)


def test_a_colouring_is_drawn_in_two_colours_at_its_flexible_placement() -> None:
    s = prism()
    start = s.linkage.vertices.copy()
    s.key("N", shift=True)
    assert not s.error, s.error
    colouring = s.nac.shown(s.linkage)
    assert colouring is not None and colouring.dtype == bool and 0 < colouring.sum() < 9
    np.testing.assert_allclose(s.linkage.vertices, s.nac.motion.start)
    np.testing.assert_allclose(lengths(s.linkage), s.nac.motion.lengths, rtol=1e-9)
    (rods,) = s.scene().by_role("nac-rods")
    assert set(rods.color) == set(T.nac_colors)
    assert s.undo()
    np.testing.assert_allclose(s.linkage.vertices, start)


def test_play_flexes_one_turn_keeping_every_length_and_undo_goes_back() -> None:
    s = prism()
    s.run_action("nac_colouring", 0)
    at_start, kept = s.linkage.vertices.copy(), lengths(s.linkage)
    s.key("y")
    assert s.panel_animating
    moved = 0.0
    for _ in range(400):
        if not s.frame():
            break
        moved = max(moved, float(np.abs(s.linkage.vertices - at_start).max()))
        np.testing.assert_allclose(lengths(s.linkage), kept, rtol=1e-8)
    assert moved > 1e-2 and not s.panel_animating
    s.undo()  # the turn was one undo step
    np.testing.assert_allclose(s.linkage.vertices, at_start)


def test_leaving_keeps_the_placement_and_y_without_a_colouring_says_why() -> None:
    s = prism()
    s.run_action("nac_colouring", 0)
    placed = s.linkage.vertices.copy()
    s.run_action("nac_colouring", None)
    assert s.nac.shown(s.linkage) is None and not s.scene().by_role("nac-rods")
    np.testing.assert_allclose(s.linkage.vertices, placed)
    s.key("y")
    assert "show a NAC-colouring first" in s.error


def test_a_graph_without_a_nac_colouring_says_so() -> None:
    k4 = Linkage([[0, 0], [4, 0], [1, 3], [1.3, 1.1]],
                 rods=[(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)])  # fmt: skip
    s = LinkageSession(k4)
    s.key("N", shift=True)
    assert "no NAC-colouring" in s._hint() and s.nac.shown(s.linkage) is None


def test_one_rod_has_no_nac_colouring_and_b_says_so() -> None:
    s = LinkageSession(Linkage([[0, 0], [1, 0]], rods=[(0, 1)]))
    s.key("B", shift=True)
    assert "no NAC-colouring" in s._hint() and "two rods" in s._hint()


def test_a_pinned_joint_stays_put_through_the_flex() -> None:
    s = prism()
    s.linkage.pin(0)
    pin = s.linkage.vertices[0].copy()
    s.run_action("nac_colouring", 0)
    assert not s.error, s.error
    np.testing.assert_allclose(s.linkage.vertices[0], pin, atol=1e-12)
    kept = lengths(s.linkage)
    s.key("y")
    for _ in range(400):
        if not s.frame():
            break
        np.testing.assert_allclose(s.linkage.vertices[0], pin, atol=1e-9)
        np.testing.assert_allclose(lengths(s.linkage), kept, rtol=1e-8)


def test_pins_whose_distance_the_flex_changes_are_refused_nothing_changed() -> None:
    s = prism()
    s.linkage.pin(0)
    s.linkage.pin(4)  # joints 0 and 4 share no rod: every flex moves them
    before = s.linkage.copy()
    s.run_action("nac_colouring", 0)
    assert "pinned joints" in s.error and s.linkage == before
    assert s.nac.shown(s.linkage) is None


def test_fixed_angles_and_3d_are_refused_with_the_reason() -> None:
    s = prism()
    s.linkage.add_angle(0, 1, 2)
    before = s.linkage.copy()
    s.key("N", shift=True)
    assert "fixed angles" in s.error and s.linkage == before
    s3 = LinkageSession(Linkage([[0, 0, 0], [1, 0, 0], [0, 1, 0]], rods=[(0, 1), (1, 2), (0, 2)]))
    s3.key("N", shift=True)
    assert "planar" in s3.error


def test_a_colouring_number_out_of_range_is_refused_not_wrapped() -> None:
    s = prism()
    before = s.linkage.copy()
    s.run_action("nac_colouring", 99)
    assert "no NAC-colouring 99" in s.error and s.linkage == before
    assert s.nac.shown(s.linkage) is None


def test_too_many_colourings_is_said_plainly(monkeypatch) -> None:
    import linkage_widget.session.nac_view as view

    def capped(_link):
        raise ValueError(
            "nac_colourings: more than max_colourings=10 colourings; raise max_colourings"
        )

    monkeypatch.setattr(view, "nac_colourings", capped)
    s = prism()
    s.key("N", shift=True)
    assert "too many NAC-colourings" in s.error and "raise max_colourings" not in s.error


def test_the_colours_go_when_the_joints_leave_the_motion() -> None:
    s = prism()
    s.key("N", shift=True)
    assert s.nac.shown(s.linkage) is not None
    s.key("y")
    for _ in range(30):  # drawn through the play: every frame is on the motion
        s.frame()
        assert s.scene().by_role("nac-rods")
    while s.frame():
        pass
    assert s.nac.shown(s.linkage) is not None
    s.undo()  # the turn
    s.undo()  # the colouring's start: back at the placement before it
    assert s.nac.shown(s.linkage) is None and not s.scene().by_role("nac-rods")
