"""Dragging Peaucellier's output down its line, as notebook 01 asks (issue 22, item 10).

At y = 96 the rhombus folds flat with the output Q on the crank end P (both on the circle
of inversion). The drag used to stop there with a four-way branch picker; the only other
branch there welds Q to P, so the drag goes on down the line.
"""

import numpy as np
import pytest

from linkage_widget.session import LinkageSession

LINE_X = 128.0


@pytest.mark.parametrize("moves", [20, 7])
def test_the_output_dragged_down_its_line_passes_y_96_without_a_branch_picker(moves):
    s = LinkageSession.load("peaucellier.txt", width=600, height=400)
    start = s.linkage.vertices[5].copy()
    assert start[0] == LINE_X and start[1] > 96.0
    x, y = s.view.to_pixel(start)
    tx, ty = s.view.to_pixel(np.array([LINE_X, 0.0]))  # 20 moves: one of them right at y = 96
    s.press(x, y)
    for i in range(1, moves + 1):
        s.drag(x + (tx - x) * i / moves, y + (ty - y) * i / moves)
        s.advance(3)
        assert s.status != "singular"
        assert len(s.scene().by_role("branches")) == 0
        assert "singular placement" not in s.scene().hint
    s.advance(30)
    s.release()
    q = s.linkage.vertices
    assert q[5, 1] < 1.0  # well past y = 96, down to the pointer
    assert abs(q[5, 0] - LINE_X) < 1e-9
    assert np.linalg.norm(q[2] - q[5]) > 1.0  # on the inversor's branch, not welded to P
