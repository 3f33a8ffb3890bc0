"""Follow-up counts by a dense SVD on small rigidity matrices (issue 15: drag at display rate).

penrose2t (81 joints, 169 x 162) sits at a special placement where the inertia has no
probe: every drawn frame of a drag made a new sparse report. A dense SVD at the report's
own threshold counts the same at a quarter of the cost; the counts must stay exact on
every frame, against an independent numpy SVD.
"""

from __future__ import annotations

import math

import numpy as np
from conftest import reference_linkage
from test_live_analysis import grid, start_drag

from linkage_widget.constraints import ConstraintSet
from linkage_widget.rigidity.rank_tracking import DENSE_COUNT_MAX
from linkage_widget.session import LinkageSession


def counts_at(s: LinkageSession, rtol: float) -> tuple[int, int]:
    """(DOF, self-stresses) of the current placement from numpy's SVD at ``rtol``."""
    a = ConstraintSet.from_linkage(s.linkage).jacobian(s.linkage.vertices).toarray()
    sv = np.linalg.svd(a, compute_uv=False)
    rank = int(np.sum(sv > rtol * sv[0]))
    return a.shape[1] - rank, a.shape[0] - rank


def test_penrose2t_drag_counts_densely_and_exactly_on_every_frame():
    s = LinkageSession.load(reference_linkage("penrose2t.txt"))
    assert max(2 * s.linkage.n_vertices, s.linkage.n_rods) <= DENSE_COUNT_MAX
    pixels = s.view.to_pixel(s.linkage.vertices)
    v = int(((pixels - [320, 240]) ** 2).sum(1).argmin())
    x0, y0 = pixels[v]
    s.press(x0, y0)
    kinds = []
    for k in range(1, 25):
        a = math.pi * k / 30
        s.drag(x0 + 40 * math.sin(a), y0 - 40 * (1 - math.cos(a)))
        s.advance()
        live = s.live_analysis
        if live is None or live.frame != s._live_analyst.drawn:
            continue
        kinds.append(live.kind)
        tol = s._live_analyst._ref.report.tolerance
        assert (live.dof, live.self_stresses) == counts_at(s, tol)
    s.release(x0, y0)
    assert len(kinds) >= 10
    assert kinds.count("recounted") <= 2 and kinds.count("inertia") >= len(kinds) - 2
    assert s._live_analyst.recounts <= 2  # it made a new report on every frame before


def test_stress_colours_shown_get_a_new_report_once_drifted():
    # a braced grid with self-stresses flexes as it is dragged: the colours must follow
    s = LinkageSession(grid(8, 6), show_stresses=True)
    x, y = start_drag(s, s.linkage.n_vertices - 1)
    for k in range(1, 9):
        s.drag(x + 4.0 * k, y - 3.0 * k)
        s.advance()
        live = s.live_analysis
        if live is None or live.rod_stress is None:
            continue
        # within STRESS_DRIFT of the current placement: nearly in the left null space of A
        a = ConstraintSet.from_linkage(s.linkage).jacobian(s.linkage.vertices).toarray()
        u, sv, _ = np.linalg.svd(a)
        left = u[:, int(np.sum(sv > 1e-9 * sv[0])) :][: s.linkage.n_rods]
        coef = np.linalg.lstsq(left, live.rod_stress, rcond=None)[0]
        assert np.linalg.norm(left @ coef - live.rod_stress) <= 0.05 * np.linalg.norm(
            live.rod_stress
        )
    assert s._live_analyst.recounts >= 2
