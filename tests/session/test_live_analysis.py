"""The analysis stays live while dragging, at any size (issue 14), through the session's API.

Only ``press``/``drag``/``release``, ``advance``, the traits, :meth:`readout` and
:attr:`live_analysis` drive and read the session. The counts are checked against an
independent dense SVD of the rigidity matrix (numpy) where that is affordable, the
redundant rods against the full pebble game, and the incremental pebble game of the
document against a new game after every edit.
"""

from __future__ import annotations

import numpy as np
import pytest

from linkage_widget import Linkage
from linkage_widget.constraints import ConstraintSet
from linkage_widget.rigidity import RANK_RTOL, OrderedInertia, generic_analysis
from linkage_widget.rigidity.tolerances import ARROW_DRIFT
from linkage_widget.session import LinkageSession
from linkage_widget.session.document import Document
from linkage_widget.session.live import LIVE_SYNC_MAX_JOINTS


def grid(nx: int, ny: int, brace_every: int = 7, jitter: float = 0.0, seed: int = 0) -> Linkage:
    """An ``nx`` x ``ny`` grid of unit squares, every ``brace_every``-th square braced.

    Pinned at its two bottom-left joints; ``jitter`` moves the joints randomly (a
    generic placement: no aligned rows, rank = generic rank).
    """
    xs, ys = np.meshgrid(np.arange(nx, dtype=float), np.arange(ny, dtype=float))
    pts = np.column_stack([xs.ravel(), ys.ravel()])
    pts += jitter * np.random.default_rng(seed).uniform(-1, 1, pts.shape)
    idx = np.arange(nx * ny).reshape(ny, nx)
    rods = [
        *zip(idx[:, :-1].ravel(), idx[:, 1:].ravel(), strict=True),
        *zip(idx[:-1, :].ravel(), idx[1:, :].ravel(), strict=True),
    ]
    sq = idx[:-1, :-1].ravel()
    braced = sq[np.arange(len(sq)) % brace_every == 0]
    rods += [(int(v), int(v) + nx + 1) for v in braced]
    return Linkage(pts, rods=[(int(a), int(b)) for a, b in rods], pinned=[0, 1])


def dense_counts(link: Linkage) -> tuple[int, int]:
    """DOF and self-stress count from numpy's SVD of the scaled rigidity matrix."""
    a = ConstraintSet.from_linkage(link).jacobian(link.vertices).toarray()
    s = np.linalg.svd(a, compute_uv=False)
    rank = int(np.sum(s > RANK_RTOL * s[0]))
    return a.shape[1] - rank, a.shape[0] - rank


def dense_kernel(link: Linkage) -> np.ndarray:
    a = ConstraintSet.from_linkage(link).jacobian(link.vertices).toarray()
    _, s, vt = np.linalg.svd(a)
    rank = int(np.sum(s > RANK_RTOL * s[0]))
    return vt[rank:].T


def start_drag(s: LinkageSession, v: int) -> tuple[float, float]:
    x, y = (float(c) for c in s.view.to_pixel(s.linkage.vertices[v]))
    s.press(x, y)
    return x, y


def drag_frames(s: LinkageSession, v: int, frames: int, dx: float = 4.0, dy: float = -3.0):
    """Drag joint ``v`` one step per frame; yield after each drawn frame."""
    x, y = start_drag(s, v)
    for k in range(1, frames + 1):
        s.drag(x + dx * k, y + dy * k)
        s.advance(1)
        yield k


# ----------------------------------------------------------- the readout each frame
def test_a_small_grid_keeps_exact_counts_on_every_frame():
    s = LinkageSession(grid(12, 10))
    seen = 0
    for _ in drag_frames(s, s.linkage.n_vertices - 1, 6):
        live = s.live_analysis
        if live is None:  # the pointer has not moved the joint yet
            continue
        seen += 1
        assert live.frame == s._live_analyst.drawn  # the analysis is of the drawn frame
        assert f"analysis live: frame {live.frame}" in s.readout()[-1]
        dof, stresses = dense_counts(s.linkage)
        assert (live.dof, live.self_stresses) == (dof, stresses)
        assert s.readout()[0] == f"DOF {dof} = {live.trivial_dof} trivial + {dof} internal"
        assert "analysis off" not in " ".join(s.readout())
    assert seen >= 4


def test_a_frame_drawn_while_nothing_moved_is_not_behind():
    """Only a frame at another placement puts the analysis behind (a browser drag draws
    frames for the pointer's hint while the joint waits)."""
    s = LinkageSession(grid(12, 10))
    for _ in drag_frames(s, s.linkage.n_vertices - 1, 3):
        pass
    for _ in range(100):  # the held joint catches up with the pointer, then waits there
        placement = s.linkage.vertices.copy()
        s.advance(1)
        if np.array_equal(s.linkage.vertices, placement):
            break
    live = s.live_analysis
    assert s.running and live is not None
    s.request_draw()  # something else (the hint line) asks for a frame
    s.advance(1)
    assert np.array_equal(s.linkage.vertices, placement)
    assert s._live_analyst.drawn > live.frame and s.live_analysis is live
    assert s._live_analyst.behind(s._version) == 0
    assert f"analysis live: frame {live.frame}" in s.readout()[-1]
    s.drag(*s.view.to_pixel(placement[-1] + [0.5, 0.5]))  # the pull moves it on
    s.advance(1)
    assert s.live_analysis.frame == s._live_analyst.drawn > live.frame


def test_the_arrows_show_the_flex_the_drag_excites():
    s = LinkageSession(grid(8, 6))
    s.show_stresses = True
    before = s.linkage.vertices.copy()
    for _ in drag_frames(s, s.linkage.n_vertices - 1, 4):
        step, before = s.linkage.vertices - before, s.linkage.vertices.copy()
    live = s.live_analysis
    assert live is not None and live.excited is not None
    # On a frame that counted again the arrows are the frame's own step, a chord of the
    # motion: a flex of the current placement up to first order in the step (how many
    # kinematic steps fit in a frame depends on the machine's load, so the bound scales
    # with the frame's step, relative to the rod length). Independent: the dense kernel.
    k = dense_kernel(s.linkage)
    got = live.excited.reshape(-1)
    relative_step = np.abs(step).max() / s.linkage.rod_lengths().min()
    assert 0 < relative_step < 0.2
    assert np.linalg.norm(got - k @ (k.T @ got)) <= max(1e-3, 0.5 * relative_step)
    assert np.linalg.norm(got) == pytest.approx(1.0)
    # ... drawn as the scene's one arrow field
    assert np.allclose(s._scene_state().velocity_basis[0], live.excited)
    # the stress colours are the rod part of a self-stress (pins carry the rest): they lie
    # in the rod coordinates of the dense left null space of A
    a = ConstraintSet.from_linkage(s.linkage).jacobian(s.linkage.vertices).toarray()
    u, sv, _ = np.linalg.svd(a)
    left = u[:, int(np.sum(sv > RANK_RTOL * sv[0])) :][: s.linkage.n_rods]
    coef = np.linalg.lstsq(left, live.rod_stress, rcond=None)[0]
    assert np.linalg.norm(left @ coef - live.rod_stress) <= 1e-8
    assert np.max(live.rod_stress) == pytest.approx(np.max(np.abs(live.rod_stress)))


def test_a_rigid_body_dragged_about_its_pin_reuses_the_count():
    # A jittered, fully braced grid is generic: its count equals the graph's generic rank
    # (the rank cannot rise), and turning it about its one pin changes no singular value
    # (Weyl's bound is measured after the Procrustes fit), so frames reuse the count.
    link = grid(8, 8, brace_every=1, jitter=0.2, seed=3)
    link.unpin(1)
    link.remove_rod(0)
    s = LinkageSession(link)
    frames = 0
    for _ in drag_frames(s, s.linkage.n_vertices - 1, 10, dx=1.0, dy=-0.5):
        live = s.live_analysis
        if live is None:
            continue
        frames += 1
        assert (live.dof, live.self_stresses) == dense_counts(s.linkage)
        # the arrows of a reused frame: the dense kernel's projection of the pull, within the
        # angle Wedin's bound allows (ARROW_DRIFT), cos >= 1 - ARROW_DRIFT^2 / 2
        k = dense_kernel(s.linkage)
        v = s.linkage.n_vertices - 1
        pull = np.zeros(2 * s.linkage.n_vertices)
        pull[2 * v : 2 * v + 2] = np.asarray(s._pointer.goal) - s.linkage.vertices[v]
        ref = k @ (k.T @ pull)
        cos = abs(live.excited.reshape(-1) @ ref) / np.linalg.norm(ref)
        assert cos >= 1.0 - ARROW_DRIFT**2 / 2
    analyst = s._live_analyst
    assert frames >= 6
    assert analyst.recounts == 1  # one count, then only the Jacobian's values and a norm
    assert "reused" in s.readout()[-1] and s.live_analysis.reused


def test_a_flexing_drag_recounts_and_stays_exact():
    link = grid(8, 8, brace_every=1, jitter=0.2, seed=3)
    diagonals = np.flatnonzero(link.rods[:, 1] - link.rods[:, 0] == 9)
    for r in sorted(diagonals[-8:], reverse=True):
        link.remove_rod(int(r))
    s = LinkageSession(link)
    for _ in drag_frames(s, s.linkage.n_vertices - 1, 6):
        live = s.live_analysis
        if live is not None:
            assert (live.dof, live.self_stresses) == dense_counts(s.linkage)
            assert live.internal_dof == 1


@pytest.mark.slow
def test_a_5000_joint_grid_keeps_its_readout_current_on_every_frame():
    link = grid(100, 50)
    assert link.n_vertices == LIVE_SYNC_MAX_JOINTS
    s = LinkageSession(link)
    frames = []
    for _ in drag_frames(s, s.linkage.n_vertices - 1, 4):
        live = s.live_analysis
        if live is None:
            continue
        frames.append(live.frame)
        assert live.frame == s._live_analyst.drawn
        lines = s.readout()
        assert lines[0].startswith(f"DOF {live.dof} = ")
        assert f"self-stresses: {live.self_stresses}" in lines
        assert f"analysis live: frame {live.frame}" in lines[-1]
    assert len(frames) >= 3 and frames == sorted(set(frames))


@pytest.mark.slow
def test_above_the_limit_the_analysis_is_throttled_and_says_how_far_behind():
    s = LinkageSession(grid(110, 50))  # 5 500 joints
    assert s.linkage.n_vertices > LIVE_SYNC_MAX_JOINTS
    behind_seen = set()
    for _ in drag_frames(s, s.linkage.n_vertices - 1, 6):
        live = s.live_analysis
        if live is None:
            continue
        behind = s._live_analyst.drawn - live.frame
        text = " ".join(s.readout())
        assert "analysis off" not in text
        if behind:
            assert f"analysis {behind} frame{'s' * (behind != 1)} behind" in text
        else:
            assert f"analysis live: frame {live.frame}" in text
        behind_seen.add(behind)
    assert 0 in behind_seen  # it did analyse while dragging


# ------------------------------------------------- redundant rods: incremental game
def full_game(link: Linkage) -> tuple[int, np.ndarray]:
    return generic_analysis(link)


def test_edits_update_the_pebble_game_incrementally_and_agree_with_a_new_game():
    rng = np.random.default_rng(7)
    doc = Document(Linkage(rng.uniform(0, 10, (9, 2))))
    rank, redundant = doc.generic()
    assert doc.replays == 1
    for step in range(120):
        n = doc.linkage.n_vertices
        kind = rng.integers(0, 10)
        if kind < 6:
            i, j = (int(x) for x in rng.choice(n, 2, replace=False))
            doc.toggle_rod(i, j)
        elif kind < 8:
            doc.toggle_pin(int(rng.integers(n)))
        elif kind < 9:
            doc.add_vertex(rng.uniform(0, 10, 2))
        elif doc.linkage.n_rods:
            doc.delete_rod(int(rng.integers(doc.linkage.n_rods)))
        rank, redundant = doc.generic()
        ref_rank, ref_redundant = full_game(doc.linkage)
        assert rank == ref_rank, step
        assert np.array_equal(redundant, ref_redundant), step
    assert doc.replays == 1  # never a new game: every edit was a few pebble searches


def test_where_the_pebble_game_does_not_apply_the_document_asks_the_random_rank():
    """A 3-D double banana counts rigid (3n - 6 = 18 rods) but is generically flexible;
    an angle without its rods is no rod j-k. The document's kept planar game would say
    rank 18 and rank 2 with a redundant rod; both follow generic_analysis instead."""
    banana = Linkage(
        [
            [0, 0, 2],
            [0, 0, -2],
            [1, 0, 1],
            [-0.5, 0.9, 1],
            [-0.5, -0.9, 1.2],
            [1, 0, -1],
            [-0.5, 0.9, -1.1],
            [-0.5, -0.9, -1],
        ],
        rods=[(a, b) for a, b in [(2, 3), (3, 4), (2, 4)] + [(5, 6), (6, 7), (5, 7)]]
        + [(t, v) for t in (0, 1) for v in (2, 3, 4)]
        + [(t, v) for t in (0, 1) for v in (5, 6, 7)],
    )
    assert banana.n_rods == 18
    rank, redundant = Document(banana).generic()
    assert (rank, redundant.tolist()) == (17, generic_analysis(banana)[1].tolist())
    rodless = Linkage([[0, 0], [1, 0], [0, 1]], rods=[(1, 2)], angles=[(0, 1, 2)])
    rank, redundant = Document(rodless).generic()
    assert (
        (rank, redundant.tolist())
        == (2, [False])
        == (
            generic_analysis(rodless)[0],
            generic_analysis(rodless)[1].tolist(),
        )
    )


def test_adding_a_rod_is_one_pebble_search_not_a_new_game():
    link = grid(30, 30, brace_every=1)
    doc = Document(link)
    doc.generic()
    before = doc._game.searches
    doc.toggle_rod(0, 31 + 1)  # a second diagonal: redundant
    _, redundant = doc.generic()
    assert doc._game.searches - before <= 4  # the edge's pebble searches only
    assert redundant[-1] and doc.replays == 1
    assert np.array_equal(redundant, full_game(link)[1])


def test_angles_deletions_and_undo_replay_and_stay_correct():
    doc = Document(Linkage([[0, 0], [2, 0], [1, 1], [1, 3]], rods=[(0, 1), (1, 2), (0, 2)]))
    doc.toggle_rod(2, 3)
    doc.toggle_angle(1, 3)  # rods 1-2 and 2-3 at apex 2
    doc.toggle_rod(0, 3)  # with a fixed angle: the order of play changes, so a replay
    snap = doc.snapshot()
    doc.delete_vertex(1)
    doc.restore(snap)
    for _ in range(2):
        rank, redundant = doc.generic()
        assert (rank, redundant.tolist()) == tuple(
            (r, x.tolist()) for r, x in [full_game(doc.linkage)]
        )[0]
        doc.toggle_angle(1, 3)


def test_the_scene_draws_the_games_redundant_rods():
    k4 = Linkage([[0, 0], [2, 0], [0, 2], [1, 1.5]], rods=[(0, 1), (0, 2), (0, 3), (1, 2)])
    s = LinkageSession(k4)
    s.document.toggle_rod(1, 3)
    s.document.toggle_rod(2, 3)  # the sixth rod of K4: redundant
    s.refresh()
    assert s._scene_state().redundant_rods.tolist() == full_game(s.linkage)[1].tolist()
    assert s.document.replays == 1


# ------------------------------------------------- follow-up counts: the kept ordering
def test_the_inertia_in_the_kept_ordering_counts_as_the_dense_svd():
    # The ordering is made at the aligned grid (zero entries along the axes) and kept for
    # placements where those entries are not zero: the count must still be right.
    link = grid(9, 7)
    cs = ConstraintSet.from_linkage(link)
    rng = np.random.default_rng(5)
    for side in (False, True):
        counter = OrderedInertia(stress_side=side)
        for k in range(4):
            moved = link.copy()
            moved.set_positions(link.vertices + 0.05 * k * rng.standard_normal(link.vertices.shape))
            a = cs.jacobian(moved.vertices)
            smax = np.linalg.norm(a.toarray(), 2)
            dof, stresses = dense_counts(moved)
            assert counter.count(a, RANK_RTOL * smax) == (stresses if side else dof)


def test_a_drag_between_singular_placements_counts_by_inertia_only():
    # Jittered: a generic placement, so no singular placement lies along the drag whatever
    # distance the frames cover (an aligned grid starts at a special placement, and how
    # soon the drag leaves it depended on how many steps fitted in a frame).
    s = LinkageSession(grid(12, 10, jitter=0.05))
    kinds = []
    for _ in drag_frames(s, s.linkage.n_vertices - 1, 6):
        live = s.live_analysis
        if live is not None:
            kinds.append(live.kind)
            assert (live.dof, live.self_stresses) == dense_counts(s.linkage)
            assert f"({live.kind}, " in s.readout()[-1]
    assert kinds[0] == "recounted" and set(kinds[1:]) <= {"inertia", "reused"}
    assert len(kinds) >= 4
