"""Merging planar and 3-D files (issue 22, item 9): a clear refusal, nothing changed; two
3-D linkages (or a 3-D file into an empty session) merge.
"""

from __future__ import annotations

import numpy as np
import pytest

from linkage_widget.session import LinkageSession


@pytest.mark.parametrize(
    ("current", "merged", "said"),
    [
        ("four_bar.txt", "bricard_line.txt", "a 3-D linkage cannot be merged into a planar one"),
        ("bricard_line.txt", "four_bar.txt", "a planar linkage cannot be merged into a 3-D one"),
    ],
)
def test_planar_and_3d_are_not_merged_and_nothing_changes(current, merged, said):
    s = LinkageSession.load(current)
    before, view, undo = s.document.snapshot(), s.view, len(s.history)
    with pytest.raises(ValueError, match=f"could not merge {merged}: {said}"):
        s.merge_file(merged)
    assert s.error.startswith(f"could not merge {merged}: {said}")
    assert s.document.snapshot() == before and s.view == view
    assert len(s.history) == undo
    s.error = ""
    s.file_name = merged
    s.key("L", shift=True)  # the key: the message, no exception
    assert said in s.error and s.document.snapshot() == before


def test_two_3d_linkages_merge_side_by_side():
    s = LinkageSession.load("bricard_line.txt")
    mine = s.linkage.vertices.copy()
    other = LinkageSession.load("bricard_plane.txt").linkage
    added = s.merge_file("bricard_plane.txt")
    assert added == range(6, 12) and s.linkage.dim == 3
    V = s.linkage.vertices
    assert np.array_equal(V[:6], mine)
    shift = V[6:] - other.vertices
    assert np.allclose(shift, shift[0]) and shift[0][2] == 0.0  # one shift, not along z
    assert V[6:, 0].min() > mine[:, 0].max()  # to the right
    assert V[6:, 1].min() == pytest.approx(mine[:, 1].min())  # bottoms aligned
    assert s.undo() and s.linkage.n_vertices == 6


def test_a_3d_file_merges_into_an_empty_session_as_it_is():
    s = LinkageSession()
    s.merge_file("bricard_plane.txt")
    other = LinkageSession.load("bricard_plane.txt")
    assert s.linkage == other.linkage and s.camera is not None
    assert "<svg" in s.to_svg()
    assert s.undo() and s.linkage.n_vertices == 0
