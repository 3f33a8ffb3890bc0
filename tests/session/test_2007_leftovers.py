"""The 2007 program's leftovers (issue 15): counted load/save messages, merging a file
into the current linkage (``merge_file``, key ``L``) and the ``max-step`` argument
(``max_step``), all through the session's public API.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from linkage_widget import Linkage, LinkageWidget
from linkage_widget.errors import LinkageFormatError
from linkage_widget.examples import example_path, space
from linkage_widget.session import LinkageSession
from linkage_widget.session.motion_driver import ATTRACTOR_REACHED
from linkage_widget.session.tools import EXAMPLE_KEYS, MAC_OPTION_DIGITS

WIDE = {"width": 1600, "height": 900}  # room for a long temporary path in the hint line


def hint(s: LinkageSession) -> str:
    return s.scene().hint


def copy_example(name: str, folder: Path) -> Path:
    target = folder / f"{name}.txt"
    shutil.copy(example_path(name), target)
    return target


# ------------------------------------------------------------------ messages
def test_load_key_and_load_file_say_the_counts(tmp_path: Path) -> None:
    peau = copy_example("peaucellier", tmp_path)
    s = LinkageSession(**WIDE)
    s.file_name = str(peau)
    s.key("l")
    assert hint(s) == f"loaded {peau}: 6 joints, 7 rods, 2 pins, 0 fixed angles"
    watt = copy_example("watt", tmp_path)
    s.load_file(watt)
    assert hint(s) == f"loaded {watt}: 5 joints, 4 rods, 2 pins, 1 fixed angle"


def test_an_upload_says_the_counts() -> None:
    s = LinkageSession()
    assert s.load_bytes({"w.txt": example_path("watt").read_bytes()})
    assert hint(s) == "loaded w.txt: 5 joints, 4 rods, 2 pins, 1 fixed angle"


def test_save_key_says_the_counts_of_what_it_wrote(tmp_path: Path) -> None:
    s = LinkageSession(Linkage([[0, 0], [1, 0], [0, 1]], rods=[(0, 1)], pinned=[0]), **WIDE)
    s.file_name = str(tmp_path / "mine.txt")
    s.key("s")
    assert hint(s) == f"saved {tmp_path / 'mine.txt'}: 3 joints, 1 rod, 1 pin, 0 fixed angles"
    again = Linkage.load(tmp_path / "mine.txt")
    assert (again.n_vertices, again.n_rods, len(again.pinned)) == (3, 1, 1)


# --------------------------------------------------------------------- merge
def test_merge_appends_the_file_beside_the_drawing_as_one_undo_step(tmp_path: Path) -> None:
    s = LinkageSession.load("four_bar.txt", **WIDE)
    before = s.linkage.copy()
    peau = Linkage.load(example_path("peaucellier"))
    added = s.merge_file(example_path("peaucellier"))
    n = before.n_vertices
    assert added == range(n, n + peau.n_vertices)
    link = s.linkage
    assert (link.n_vertices, link.n_rods, len(link.pinned), link.n_angles) == (10, 10, 4, 0)
    np.testing.assert_array_equal(link.vertices[:n], before.vertices)
    np.testing.assert_array_equal(link.rods[before.n_rods :], peau.rods + n)
    assert sorted(link.pinned.tolist()) == sorted([*before.pinned, *(peau.pinned + n)])
    # a rigid shift: the merged rods keep their lengths, the shapes do not overlap
    shift = link.vertices[n:] - peau.vertices
    np.testing.assert_allclose(shift, np.broadcast_to(shift[0], shift.shape))
    np.testing.assert_allclose(link.rod_lengths()[before.n_rods :], peau.rod_lengths())
    assert link.vertices[n:, 0].min() > before.vertices[:, 0].max()
    assert hint(s).startswith("merged ") and "6 joints, 7 rods, 2 pins" in hint(s)
    assert "as joints 4-9" in hint(s)
    assert s.undo() and s.linkage == before
    assert s.redo() and s.linkage.n_vertices == 10


def test_merge_into_an_empty_session_keeps_the_files_coordinates() -> None:
    s = LinkageSession()
    s.merge_file(example_path("watt"))
    assert s.linkage == Linkage.load(example_path("watt"))


def test_merge_brings_tracked_joints_and_springs_renumbered(tmp_path: Path) -> None:
    src = LinkageSession.load("four_bar.txt")
    src.tracked = (2,)
    src.add_spring(1, 2, stiffness=3.0)
    src.save(tmp_path / "sprung.txt")
    s = LinkageSession.load("watt.txt")
    s.merge_file(tmp_path / "sprung.txt")
    assert s.tracked == (7,)
    assert [(sp.i, sp.j, sp.stiffness) for sp in s.springs] == [(6, 7, 3.0)]


def test_shift_l_merges_the_named_file_and_plain_l_still_replaces(tmp_path: Path) -> None:
    s = LinkageSession.load("four_bar.txt")
    s.file_name = str(copy_example("watt", tmp_path))
    s.key("L", shift=True)
    assert s.linkage.n_vertices == 4 + 5 and s.error == ""
    s.key("l")
    assert s.linkage.n_vertices == 5


@pytest.mark.parametrize(
    ("content", "error"), [(None, FileNotFoundError), ("not a linkage\n", LinkageFormatError)]
)
def test_a_failed_merge_changes_nothing_and_says_why(
    tmp_path: Path, content: str | None, error: type[Exception]
) -> None:
    path = tmp_path / "bad.txt"
    if content is not None:
        path.write_text(content)
    s = LinkageSession.load("four_bar.txt")
    before = s.linkage.copy()
    with pytest.raises(error):
        s.merge_file(path)
    assert s.linkage == before and "could not merge" in s.error and str(path) in s.error
    assert not s.undo()  # no undo step was made
    s.file_name = str(path)
    s.key("L", shift=True)  # from the keyboard: shown, not raised
    assert s.linkage == before and "could not merge" in s.error


# ------------------------------------------------------------------ max_step
def test_max_step_bounds_the_kinematic_step_size() -> None:
    s = LinkageSession.load("four_bar.txt", max_step=0.5)
    assert s.max_step == 0.5 and s.step_size == 0.5  # the default 1.0 lowered to it
    s.step_size = 5.0
    assert s.step_size == 0.5
    s.step_size = 0.2
    assert s.step_size == 0.2
    s.mode = "dynamic"  # a time step, not bounded by a length
    assert s.step_size == pytest.approx(1 / 60)
    s.mode = "kinematic"
    assert s.step_size == 0.2
    assert LinkageSession(max_step=3.0, step_size=2.0).step_size == 2.0
    assert LinkageSession().max_step == float("inf")  # no bound unless asked for
    assert LinkageSession(step_size=50.0).step_size == 50.0  # a value set in code is kept


@pytest.mark.parametrize("bad", [0.0, -1.0, float("nan"), "big"])
def test_a_bad_max_step_is_refused(bad: object) -> None:
    with pytest.raises(ValueError, match="max_step"):
        LinkageSession(max_step=bad)
    s = LinkageSession(max_step=2.0)
    with pytest.raises(ValueError, match="max_step"):
        s.max_step = bad
    assert s.max_step == 2.0


def first_move(**kwargs: float) -> float:
    """How far the pulled joint of the four-bar moves in the first frame of an attraction."""
    s = LinkageSession.load("four_bar.txt", **kwargs)
    v = next(i for i in range(s.linkage.n_vertices) if not s.linkage.is_pinned(i))
    start = s.linkage.vertices[v].copy()
    s.selected_vertex = v
    s.attractor = (float(start[0]) + 50.0, float(start[1]) + 50.0)
    s.running = True
    s.advance(1)
    return float(np.hypot(*(s.linkage.vertices[v] - start)))


def test_the_pulled_joint_moves_at_most_max_step_per_frame() -> None:
    # a step is a tangent move of step_size, then projected back onto the constraints:
    # the chord differs from it by second order (here 2e-4 relative)
    assert 0.049 < first_move(max_step=0.05, step_size=10.0) <= 0.05 * 1.01
    assert first_move(step_size=1.0) > 0.5  # without the bound the same pull goes far


def test_the_widget_takes_max_step_too() -> None:
    w = LinkageWidget.load("four_bar.txt", max_step=0.25)
    assert w.max_step == 0.25 and w.step_size == 0.25


# ------------------------------------------------------------- example keys
@pytest.mark.parametrize(("number", "name"), list(enumerate(EXAMPLE_KEYS, start=1)))
def test_alt_digit_loads_the_numbered_example_undoably(number: int, name: str) -> None:
    s = LinkageSession(Linkage([[0, 0], [1, 0]], rods=[(0, 1)]), **WIDE)
    before = s.linkage.copy()
    s.key(str(number), alt=True)
    assert s.linkage == Linkage.load(example_path(name)) and s.error == ""
    assert hint(s).startswith(f"example {number}: loaded {name}.txt: ")
    assert s.undo() and s.linkage == before


def test_the_mac_option_digit_counts_and_a_plain_digit_does_not_load() -> None:
    s = LinkageSession()
    s.key("3")  # plain digits pick a branch at a singular stop; here there is none
    assert s.linkage.n_vertices == 0
    s.key(MAC_OPTION_DIGITS[2], alt=True)  # Option-3 on a Mac
    assert s.linkage == Linkage.load(example_path(EXAMPLE_KEYS[2]))


# ----------------------------------------------------------- the attractor (issue 24, 12a)
def attract(s: LinkageSession, v: int, goal: tuple[float, float]) -> None:
    """Select joint ``v`` and right-click at pixel ``goal``: the 2007 way to attract it."""
    x, y = s.view.to_pixel(s.linkage.vertices[v])
    s.press(x, y)
    s.release(x, y)
    s.press(*goal, 2)
    s.release(*goal)


def test_the_attractor_goes_when_its_joint_arrives_and_the_hint_says_so() -> None:
    s = LinkageSession.load("peaucellier.txt")
    x, y = s.view.to_pixel(s.linkage.vertices[5])
    attract(s, 5, (x, y - 20.0))
    assert s.attractor is not None and s.running
    for _ in range(400):
        s.advance()
        if not s.running:
            break
    assert not s.running and s.status == "reached target"
    assert np.allclose(s.view.to_pixel(s.linkage.vertices[5]), [x, y - 20.0], atol=1e-6)
    assert s.attractor is None  # removed on arrival, as the 2007 program did
    assert hint(s) == ATTRACTOR_REACHED
    assert not s.scene().by_role("attractor")  # and it is no longer drawn
    before = s.linkage.vertices.copy()
    s.advance(5)  # nothing pulls any more: the motion stays stopped
    assert not s.running and np.array_equal(s.linkage.vertices, before)


def test_an_attractor_the_joint_cannot_reach_stays() -> None:
    s = LinkageSession.load("peaucellier.txt")
    attract(s, 5, (5.0, 5.0))  # far off the joint's straight line
    for _ in range(400):
        s.advance()
        if not s.running:
            break
    assert s.status != "reached target" and s.attractor is not None


# ----------------------------------------------------- v: eight views (issue 24, 12b)
#: The eye's direction (the screen's out axis) and the screen's up of each view, by hand.
EIGHT_VIEWS = [
    ("front", (0, -1, 0), (0, 0, 1)),
    ("right", (1, 0, 0), (0, 0, 1)),
    ("back", (0, 1, 0), (0, 0, 1)),
    ("left", (-1, 0, 0), (0, 0, 1)),
    ("top", (0, 0, 1), (0, 1, 0)),
    ("bottom", (0, 0, -1), (0, -1, 0)),
    ("isometric", np.array([1, -1, 1]) / np.sqrt(3), np.array([-1, 1, 2]) / np.sqrt(6)),
]


def test_v_turns_a_3d_linkage_through_eight_views_and_back() -> None:
    s = LinkageSession(space.bennett_linkage(ground=True))
    opening = s.camera.rotation.copy()
    shown = (s.show_velocities, s.show_stresses, s.show_pebbles)
    seen = []
    for k, (name, out, up) in enumerate(EIGHT_VIEWS):
        s.key("v")
        R = s.camera.rotation
        assert np.allclose(R[2], out, atol=1e-12) and np.allclose(R[1], up, atol=1e-12)
        assert np.allclose(R @ R.T, np.eye(3), atol=1e-12) and np.linalg.det(R) > 0
        assert hint(s).startswith(f"view {k + 1}/8: {name}")
        # the picture is the projection through the new camera: a joint's pixel, by hand
        x = R @ (s.linkage.vertices[3] - s.camera.centre)
        assert np.allclose(s.joint_pixels()[0][3], s.view.to_pixel(x[:2]), atol=1e-9)
        seen.append(R.copy())
    s.key("v")  # the eighth: the view it opened with
    assert np.allclose(s.camera.rotation, opening) and hint(s).startswith("view 8/8: oblique")
    assert len({tuple(np.round(R.ravel(), 9)) for R in seen + [opening]}) == 8
    assert (s.show_velocities, s.show_stresses, s.show_pebbles) == shown  # v shows the same
    s.key("V", shift=True)  # shift-v: what is shown, as v does in the plane
    assert not s.show_velocities and np.allclose(s.camera.rotation, opening)


def test_v_in_the_plane_still_cycles_what_is_shown() -> None:
    s = LinkageSession.load("four_bar.txt")
    view = s.view
    s.key("v")
    assert not s.show_velocities and s.view == view and s.camera is None
    s.key("V", shift=True)
    assert s.show_stresses
