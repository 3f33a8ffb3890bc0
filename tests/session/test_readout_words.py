"""The readout in plain words, joint labels and the pixel ratio on a headless session (issue 15)."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image
from traitlets import TraitError

from linkage_widget import Linkage, analyze
from linkage_widget.examples import space
from linkage_widget.session import LinkageSession
from linkage_widget.session.words import plain_words, report_words


def test_peaucellier_reads_one_way_to_move_with_the_numbers_a_click_away():
    s = LinkageSession.load("peaucellier.txt")
    r = s.readout_words()
    assert r.words == ["1 way to move"]
    assert r.details[0] == "DOF 1 = 0 trivial + 1 internal"
    assert any(line.startswith("Maxwell count") for line in r.details)
    assert r.details[-1] == "rank 11 of 11 constraints, dense-svd"
    assert r.explanation == s.analysis.explanation


def test_a_braced_square_is_rigid_with_its_redundant_rods_and_stress_counted():
    # a square with both diagonals: rigid, one rod too many, the self-stress in all six
    pts = [[0, 0], [1, 0], [1, 1], [0, 1]]
    rods = [(0, 1), (1, 2), (2, 3), (3, 0), (0, 2), (1, 3)]
    link = Linkage(pts, rods=rods, pinned=[0])
    r = analyze(link)
    words = report_words(r).words
    redundant = int(np.count_nonzero(r.redundant_rods))
    assert r.internal_dof == 0 and r.self_stresses == 1 and redundant >= 1
    assert words[0] == "rigid"
    assert f"{redundant} rod{' is' if redundant == 1 else 's are'} redundant" in words
    assert "6 rods carry a self-stress" in words


def test_plain_words_for_each_status():
    assert plain_words(2, 0, "flexible") == ["2 ways to move"]
    assert plain_words(1, 0, "rigid but infinitesimally flexible")[0].startswith("rigid, but")
    assert plain_words(3, 0, "undecided") == ["3 possible ways to move (not certain)"]
    assert plain_words(0, 0, "infinitesimally rigid", redundant=1, stressed=1) == [
        "rigid",
        "1 rod is redundant",
        "1 rod carries a self-stress",
    ]


def test_labels_come_from_names_or_indices():
    s = LinkageSession.load("watt.txt")  # no names in its sibling: the indices
    assert not s.show_labels and "labels" not in s.scene().roles()
    s.show_labels = True
    assert s.scene().by_role("labels")[0].texts == ("0", "1", "2", "3", "4")
    # the bundled Peaucellier names its joints as notebook 01 does (its JSON sibling)
    s = LinkageSession.load("peaucellier.txt", show_labels=True)
    assert s.joint_names == ("O", "Q", "A", "B", "D", "C")
    assert s.scene().by_role("labels")[0].texts == ("O", "Q", "A", "B", "D", "C")
    assert ">C</text>" in s.to_svg()
    s.joint_names = ("", "", "", "", "", "P")
    assert s.scene().by_role("labels")[0].texts == ("0", "1", "2", "3", "4", "P")
    with pytest.raises(TraitError, match="joint_names"):
        s.joint_names = (1, 2)


def test_pixel_ratio_sets_the_png_size_and_is_checked(tmp_path):
    s = LinkageSession.load("peaucellier.txt", width=320, height=240)
    assert s.pixel_ratio == 2.0 and s.scene().pixel_ratio == 2.0
    assert Image.open(s.to_png(tmp_path / "a.png")).size == (640, 480)
    s.pixel_ratio = 1
    assert Image.open(s.to_png(tmp_path / "b.png")).size == (320, 240)
    for bad in (0.0, -1.0, 9.0, float("nan")):
        with pytest.raises(TraitError, match="pixel_ratio"):
            s.pixel_ratio = bad
    assert s.pixel_ratio == 1.0


def _without_held(link: Linkage) -> Linkage:
    """``link`` without the rods between two pinned joints (what the readout counts)."""
    held = np.isin(link.rods, link.pinned).all(axis=1)
    return Linkage(link.vertices, rods=link.rods[~held], pinned=link.pinned)


def _words_from(r) -> tuple[int, int]:
    """(redundant rods, rods carrying a self-stress) of a report, all stresses together."""
    rods = len(r.redundant_rods)
    stressed = 0
    if r.self_stresses:
        size = np.abs(r.stresses[:, :rods]).max(axis=0)
        stressed = int(np.count_nonzero(size > 1e-9 * size.max()))
    return int(np.count_nonzero(r.redundant_rods)), stressed


@pytest.mark.parametrize(
    "build",
    [
        lambda: space.octahedron(scale=100, ground=True),
        lambda: space.bricard_line_symmetric(scale=100, ground=True),
        lambda: space.double_banana(scale=100, ground=True),
        lambda: space.bennett_linkage(scale=100, ground=True),
        lambda: space.jessen_icosahedron(ground=True),
    ],
    ids=["octahedron", "bricard", "double banana", "bennett", "jessen"],
)
def test_readout_counts_what_analyze_counts_without_the_rods_the_pins_hold(build):
    """Issue 22: notebook 08's grounded double banana read "10 rods are redundant, 18 rods
    carry a self-stress" beside its one self-stress: the rods between pinned joints (each a
    combination of the pin rows) were counted. The readout's numbers are analyze's for the
    linkage without them, and it says how many rods the pins hold."""
    link = build()
    held = int(np.isin(link.rods, link.pinned).all(axis=1).sum())
    assert held > 0  # every one of these is grounded on a face or a link
    reduced = analyze(_without_held(link))
    redundant, stressed = _words_from(reduced)
    readout = LinkageSession(link).readout_words()
    want = plain_words(
        reduced.internal_dof,
        reduced.trivial_dof,
        reduced.status,
        redundant=redundant,
        stressed=stressed,
        held=held,
    )
    assert readout.words == want
    full = analyze(link)
    assert full.self_stresses == reduced.self_stresses + held  # one stress per held rod
    line = f"self-stresses: {full.self_stresses} ({held} of them in rods between pinned joints)"
    assert line in readout.details


def test_the_grounded_double_banana_reads_one_redundant_rod_and_one_stress():
    readout = LinkageSession(space.double_banana(scale=100, ground=True)).readout_words()
    assert readout.words == [
        "1 way to move",
        "1 rod is redundant",
        "9 rods carry a self-stress",
        "9 rods join two pinned joints: the pins hold them",
    ]
    # the notebook prints the unpinned banana's one self-stress beside it
    assert analyze(space.double_banana()).self_stresses == 1
