"""A step the simulator refuses stops the motion with its reason (issue 22, item 5)."""

from __future__ import annotations

import numpy as np

from linkage_widget.model import Linkage
from linkage_widget.session import LinkageSession


def test_a_spring_too_stiff_for_the_frame_stops_the_motion_with_the_reason():
    link = Linkage([[0, 0], [1, 0], [2, 0.5], [3, 0]], rods=[(0, 1), (1, 2), (2, 3)], pinned=[0, 3])
    s = LinkageSession(link, width=600, height=400, mode="dynamic")
    s.add_spring(1, 3, 1e8, rest_length=1.0)
    before = s.linkage.vertices.copy()
    s.key(" ")
    assert s.running
    status = s.advance(3)
    assert status == "refused" and not s.running
    assert np.array_equal(s.linkage.vertices, before)  # nothing moved, nothing flew off
    assert s._hint().startswith("motion refused: the time step")
