"""Henneberg moves and other placements in the session (issue 26): each move one undo step,
nothing changed on bad input; ghosts drawn faint, a jump puts the linkage at one (undoable)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from linkage_widget import Linkage
from linkage_widget.session import LinkageSession


def click(s: LinkageSession, xy) -> None:
    x, y = s.view.to_pixel(np.asarray(xy, dtype=float))
    s.press(x, y)
    s.release(x, y)


def triangle() -> LinkageSession:
    return LinkageSession(Linkage([[0, 0], [4, 0], [1, 3]], rods=[(0, 1), (1, 2), (0, 2)]))


def lengths(link: Linkage, placement=None) -> np.ndarray:
    P = link.vertices if placement is None else np.asarray(placement)
    return np.linalg.norm(P[link.rods[:, 0]] - P[link.rods[:, 1]], axis=1)


def laman(n: int, m: int) -> bool:
    """Laman's count m = 2n - 3 (the moves keep it: +2 rods and +1 joint, or +3 - 1 and +1)."""
    return m == 2 * n - 3


def test_zero_extension_adds_a_joint_with_two_rods_one_undo_step() -> None:
    s = triangle()
    v = s.zero_extension(0, 1, (2.0, -2.0))
    assert v == 3 and s.linkage.n_vertices == 4
    assert s.linkage.rods.tolist()[-2:] == [[0, 3], [1, 3]]
    np.testing.assert_allclose(s.linkage.vertices[3], (2.0, -2.0))
    assert laman(s.linkage.n_vertices, s.linkage.n_rods)
    assert s.undo() and s.linkage.n_vertices == 3 and s.linkage.n_rods == 3
    assert not s.undo()  # one step


def test_one_extension_replaces_a_rod_by_a_joint_with_three_rods() -> None:
    s = triangle()
    s.zero_extension(0, 1, (2.0, -2.0))
    v = s.one_extension(0, 2, (2.0, 1.0))  # rod 0 is 0-1
    assert v == 4
    edges = {tuple(sorted(r)) for r in s.linkage.rods.tolist()}
    assert (0, 1) not in edges and {(0, 4), (1, 4), (2, 4)} <= edges
    assert s.linkage.n_rods == 7 and laman(5, 7)
    s.undo()
    assert {tuple(sorted(r)) for r in s.linkage.rods.tolist()} >= {(0, 1)}
    assert s.linkage.n_vertices == 4


@pytest.mark.parametrize(
    "move",
    [
        lambda s: s.zero_extension(0, 0, (5.0, 5.0)),  # the same joint twice
        lambda s: s.zero_extension(0, 7, (5.0, 5.0)),  # no joint 7
        lambda s: s.zero_extension(0, 1, (0.0, 0.0)),  # on joint 0: a rod of no length
        lambda s: s.one_extension(0, 1, (5.0, 5.0)),  # k is an end of the rod
        lambda s: s.one_extension(9, 2, (5.0, 5.0)),  # no rod 9
    ],
)
def test_a_bad_henneberg_move_changes_nothing_and_says_why(move) -> None:
    s = triangle()
    before = s.linkage.copy()
    with pytest.raises(ValueError):
        move(s)
    assert s.linkage == before and s.error and not s.history.can_undo


def test_the_henneberg_tools_build_by_clicks() -> None:
    s = triangle()
    s.tool = "0-extension"
    for xy in ((0, 0), (4, 0), (2, -2)):
        click(s, xy)
    assert s.linkage.n_vertices == 4 and s.linkage.rods.tolist()[-2:] == [[0, 3], [1, 3]]
    s.tool = "1-extension"
    click(s, (2.5, 1.5))  # the middle of rod 1-2
    click(s, (2, -2))  # joint 3
    click(s, (3, 1.5))
    edges = {tuple(sorted(r)) for r in s.linkage.rods.tolist()}
    assert (1, 2) not in edges and {(1, 4), (2, 4), (3, 4)} <= edges
    s.undo()
    assert s.linkage.n_vertices == 4


def test_a_fold_shown_as_a_ghost_and_a_jump_to_it_is_undoable() -> None:
    # two triangles on rod 0-1: folding the second over it keeps every length
    link = Linkage([[0, 0], [4, 0], [1, 3], [3, 2]], rods=[(0, 1), (0, 2), (1, 2), (0, 3), (1, 3)])
    s = LinkageSession(link)
    start = link.vertices.copy()
    s.key("u")
    assert s.ghosts.shown(s.linkage), s.error
    ghosts = s.scene().by_role("ghosts")
    assert ghosts and all(float(g.alpha) < 1 for g in ghosts)
    others = s.ghosts.shown(s.linkage)
    pairs = list(itertools.combinations(range(4), 2))
    d0 = [np.linalg.norm(start[i] - start[j]) for i, j in pairs]
    folded = []
    for k, other in enumerate(others):  # the same lengths; the fold is not congruent
        np.testing.assert_allclose(lengths(link, other), lengths(link, start), atol=1e-9)
        d = [np.linalg.norm(other[i] - other[j]) for i, j in pairs]
        folded += [k] if not np.allclose(d, d0, atol=1e-6) else []
    assert folded  # (the whole mirror image is another placement too, as counts count it)
    s.jump_to_ghost(folded[0])
    assert not np.allclose(s.linkage.vertices, start)
    np.testing.assert_allclose(lengths(s.linkage), lengths(link, start), atol=1e-9)
    assert any(np.allclose(g, start) for g in s.ghosts.shown(s.linkage))  # the one it left
    s.undo()
    np.testing.assert_allclose(s.linkage.vertices, start)


def test_show_ghosts_checks_shapes_and_an_edit_of_a_length_hides_them() -> None:
    s = triangle()
    with pytest.raises(ValueError, match=r"placement 0: want a finite \(3, 2\)"):
        s.show_ghosts([np.zeros((2, 2))])
    mirror = s.linkage.vertices * [1, -1]
    s.show_ghosts([mirror], "the mirror image")
    assert len(s.scene().by_role("ghosts")) == 1
    (shown,) = s.ghosts.shown(s.linkage)  # moved rigidly onto the triangle, not reflected
    s.jump_to_ghost(0)
    np.testing.assert_allclose(s.linkage.vertices, shown, atol=1e-12)
    np.testing.assert_allclose(lengths(s.linkage), [4.0, np.sqrt(18), np.sqrt(10)])
    (a, b, c) = s.linkage.vertices
    u, w = b - a, c - a
    assert u[0] * w[1] - u[1] * w[0] < 0  # the mirror image: turned the other way
    s.zero_extension(0, 1, (2.0, 2.0))  # another linkage: the ghosts go
    assert not s.scene().by_role("ghosts")
    s.show_ghosts()
    assert s.ghosts.placements == []
    with pytest.raises(IndexError):
        s.jump_to_ghost(0)


def test_the_moves_keep_the_counts_the_drives_and_refuse_parallel_rods() -> None:
    from linkage_widget.rigidity import generic_analysis

    s = triangle()
    s.add_motor(0, 1)
    s.zero_extension(1, 2, (4.0, 3.0))
    assert s.document.generic()[0] == generic_analysis(s.linkage)[0] == 2 * 4 - 3
    s.one_extension(0, 3, (2.0, -1.0))  # rod 0 is 0-1, the motor's: it goes with it
    assert s.motors == () and "motor" not in " ".join(s.drive_lines())
    assert s.document.generic()[0] == generic_analysis(s.linkage)[0] == 2 * 5 - 3
    before = s.linkage.copy()
    with pytest.raises(ValueError, match="parallel"):
        s.zero_extension(0, 1, (8.0, 0.0))  # on the line through joints 0 and 1
    assert s.linkage == before


def test_u_on_two_k4s_sharing_a_rod_shows_the_fold_global_rigidity_finds() -> None:
    # not Laman (11 rods on 6 joints), rigid, but joints 0 and 1 separate it: a fold
    p = [[0, 0], [4, 0], [1, 3], [3, 2.5], [1.2, -2.0], [3.1, -2.6]]
    k4 = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    rods = [*k4, (0, 4), (0, 5), (1, 4), (1, 5), (4, 5)]
    s = LinkageSession(Linkage(p, rods=rods))
    start = s.linkage.vertices.copy()
    s.key("u")
    (other,) = s.ghosts.shown(s.linkage)
    np.testing.assert_allclose(lengths(s.linkage, other), lengths(s.linkage), atol=1e-9)
    pairs = list(itertools.combinations(range(6), 2))
    d = [np.linalg.norm(other[i] - other[j]) for i, j in pairs]
    d0 = [np.linalg.norm(start[i] - start[j]) for i, j in pairs]
    assert not np.allclose(d, d0, atol=1e-6)  # not congruent: a real other placement
    assert "not globally rigid" in s._hint()


def test_undoing_a_jump_brings_every_ghost_back_none_at_the_linkage() -> None:
    link = Linkage([[0, 0], [4, 0], [1, 3], [3, 2]], rods=[(0, 1), (0, 2), (1, 2), (0, 3), (1, 3)])
    s = LinkageSession(link)
    start = link.vertices.copy()
    s.key("u")
    before = [g.copy() for g in s.ghosts.shown(s.linkage)]
    assert before, s.error
    s.key("U", shift=True)
    assert not np.allclose(s.linkage.vertices, start)
    assert len(s.ghosts.shown(s.linkage)) == len(before)  # the one left is drawn instead
    s.undo()
    np.testing.assert_allclose(s.linkage.vertices, start)
    after = s.ghosts.shown(s.linkage)
    assert len(after) == len(before)
    for g, h in zip(before, after, strict=True):
        np.testing.assert_allclose(g, h)  # the same set, none of them at the linkage
        assert np.abs(g - start).max() > 1e-3


def test_u_on_k4_with_a_pendant_rod_is_not_taken_for_laman() -> None:
    # 5 joints, 7 = 2*5 - 3 rods, but K4 has a redundant rod and joint 4 dangles
    p = [[0, 0], [4, 0], [1, 3], [1.3, 1.1], [6, 1]]
    rods = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3), (1, 4)]
    s = LinkageSession(Linkage(p, rods=rods))
    s.key("u")
    assert not s.error, s.error
    assert "no other placement found" in s._hint() or s.ghosts.shown(s.linkage)


def test_u_with_a_fixed_angle_says_why_nothing_escapes() -> None:
    s = triangle()
    s.linkage.add_angle(0, 1, 2)
    before = s.linkage.copy()
    s.key("u")
    assert "fixed angles" in s._hint() + s.error and s.linkage == before
    assert not s.ghosts.shown(s.linkage)


def test_a_picked_rod_undone_away_is_forgotten_by_the_1_extension_tool() -> None:
    s = triangle()
    s.tool = "0-extension"
    for xy in ((0, 0), (4, 0), (2, -2)):
        click(s, xy)
    n_rods = s.linkage.n_rods
    s.tool = "1-extension"
    click(s, (3, -1))  # the middle of the new rod 1-3, the last one
    assert f"rod {n_rods - 1} picked" in s._hint()
    s.undo()  # the 0-extension: that rod is gone
    assert s.linkage.n_rods == n_rods - 2
    click(s, (1, 3))  # joint 2
    assert "picked" not in s._hint() and "click a rod" in s._hint()
