"""Cables and struts in the session (issue 26): the rod tool draws them, a click or b changes
a rod's kind (undoable), the drawing, legend and readout show them, and delete, undo, merge,
save and load keep them."""

from __future__ import annotations

import numpy as np
import pytest

from linkage_widget import Linkage
from linkage_widget.draw.theme import DEFAULT_THEME as T
from linkage_widget.session import LinkageSession


def click(s: LinkageSession, xy) -> None:
    x, y = s.view.to_pixel(np.asarray(xy, dtype=float))
    s.press(x, y)
    s.release(x, y)


def triangle(**kw) -> LinkageSession:
    link = Linkage([[0, 0], [2, 0], [1, 2]], rods=[(0, 1), (1, 2), (0, 2)], **kw)
    return LinkageSession(link)


def test_the_rod_tool_draws_the_chosen_kind() -> None:
    s = LinkageSession(Linkage([[0, 0], [2, 0], [1, 2]]))
    s.tool, s.rod_kind = "rod", "cable"
    click(s, (0, 0))
    click(s, (2, 0))
    s.rod_kind = "strut"
    click(s, (1, 2))
    assert s.linkage.rods.tolist() == [[0, 1], [1, 2]]
    assert s.linkage.rod_kinds.tolist() == ["cable", "strut"]


def test_a_click_on_a_rod_changes_its_kind_one_undo_step() -> None:
    s = triangle()
    s.tool, s.rod_kind = "rod", "strut"
    click(s, (1.5, 1.0))  # the middle of rod 1-2
    assert s.linkage.rod_kinds.tolist() == ["rod", "strut", "rod"]
    assert s.undo() and s.linkage.rod_kinds.tolist() == ["rod", "rod", "rod"]
    assert s.redo() and s.linkage.rod_kinds.tolist() == ["rod", "strut", "rod"]
    click(s, (1.5, 1.0))  # of that kind already: selected, not changed
    assert s.selected_rod == 1 and s.linkage.rod_kinds[1] == "strut"


def test_key_b_cycles_the_selected_rods_kind_else_the_tools() -> None:
    s = triangle()
    s.key("b")
    assert s.rod_kind == "cable" and s.linkage.rod_kinds.tolist() == ["rod"] * 3
    s.selected_rod = 0
    s.key("b")
    s.key("b")
    assert s.linkage.rod_kinds.tolist() == ["strut", "rod", "rod"]
    s.undo()
    assert s.linkage.rod_kinds.tolist() == ["cable", "rod", "rod"]
    with pytest.raises(Exception, match="rod_kind"):
        s.rod_kind = "rope"


def test_cables_and_struts_are_drawn_in_their_strokes_and_named_in_the_legend() -> None:
    s = triangle()
    s.linkage.set_rod_kind(0, "cable")
    s.linkage.set_rod_kind(2, "strut")
    s.refresh()
    scene = s.scene()
    (rods,) = scene.by_role("rods")
    (cables,) = scene.by_role("cables")
    strut, core = scene.by_role("struts")
    P = s.view.to_pixel(s.linkage.vertices)
    np.testing.assert_allclose(rods.points, P[[[1, 2]]])
    np.testing.assert_allclose(cables.points, P[[[0, 1]]])
    assert cables.dash and float(cables.width) < T.rod_width  # thin and dashed
    assert float(strut.width) > T.rod_width and core.color == T.background  # a double line
    labels = [e.label for e in scene.legend]
    assert "cable: may shorten, not lengthen" in labels
    assert "strut: may lengthen, not shorten" in labels
    assert any(line.startswith("cables: 1 · struts: 1") for line in s.readout())


def test_a_bar_framework_draws_as_before() -> None:
    scene = triangle().scene()
    assert not scene.by_role("cables") and not scene.by_role("struts")
    assert len(scene.by_role("rods")[0]) == 3


def test_delete_keeps_the_other_kinds_and_merge_save_load_keep_them(tmp_path) -> None:
    s = triangle()
    s.linkage.set_rod_kind(1, "cable")
    s.linkage.set_rod_kind(2, "strut")
    s.refresh()
    path = s.save(tmp_path / "tense.txt")
    s.selected_rod = 0
    s.key("d")
    assert s.linkage.rod_kinds.tolist() == ["cable", "strut"]
    s.undo()
    s.merge_file(path)
    assert s.linkage.n_rods == 6
    assert s.linkage.rod_kinds.tolist() == ["rod", "cable", "strut"] * 2  # the file's too
    assert LinkageSession.load(path).linkage.rod_kinds.tolist() == ["rod", "cable", "strut"]
    files = {"up.txt": path.read_bytes(), "up.txt.json": (tmp_path / "tense.txt.json").read_bytes()}
    assert s.load_bytes(files), s.error  # an upload with its sibling keeps them
    assert s.linkage.rod_kinds.tolist() == ["rod", "cable", "strut"]


def prism(kinds: dict[int, str]) -> LinkageSession:
    """A tensegrity triangle in a triangle: the outer triangle and the inner one of cables,
    three struts across (the planar analogue of the prism), each member's kind given."""
    outer = [[np.cos(a), np.sin(a)] for a in np.radians([90, 210, 330])]
    inner = [[0.45 * np.cos(a), 0.45 * np.sin(a)] for a in np.radians([150, 270, 30])]
    rods = [(0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 3), (0, 4), (1, 5), (2, 3)]
    link = Linkage(outer + inner, rods=rods)
    for r, kind in kinds.items():
        link.set_rod_kind(r, kind)
    return LinkageSession(link)


def test_the_readout_says_global_and_tensegrity_rigidity() -> None:
    from linkage_widget.rigidity import global_rigidity, tensegrity_rigidity

    s = prism({})
    g = global_rigidity(s.linkage, seed=0)  # the oracle's verdict, in the readout's words
    said = "globally rigid" if g.generically_globally_rigid else "not globally rigid"
    assert any(line.startswith(said) for line in s.readout())
    assert not any(line.startswith("tensegrity") for line in s.readout())
    s.selected_rod = 6
    s.key("b")  # rod 6 a cable now
    t = tensegrity_rigidity(s.linkage)
    want = "tensegrity: rigid" if t.rigid else "tensegrity: not rigid"
    assert any(line.startswith(want) for line in s.readout())


def test_the_readout_leaves_global_rigidity_out_for_a_mechanism() -> None:
    s = LinkageSession(Linkage([[0, 0], [1, 0], [1, 1], [0, 1]], rods=[(0, 1), (1, 2), (2, 3)]))
    assert not any("globally" in line for line in s.readout())


def test_the_global_line_is_the_graph_verdict_on_hand_known_cases(monkeypatch) -> None:
    import linkage_widget.session.rigidity_lines as lines

    def searched(*_a, **_k):
        raise AssertionError("the readout runs the full global_rigidity search")

    monkeypatch.setattr(lines, "global_rigidity", searched, raising=False)
    k4 = Linkage([[0, 0], [4, 0], [1, 3], [1.3, 1.1]],
                 rods=[(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)])  # fmt: skip
    kite = Linkage([[0, 0], [4, 0], [1, 3], [1.3, -1.1]],
                   rods=[(0, 1), (0, 2), (1, 2), (0, 3), (1, 3)])  # fmt: skip
    assert lines.rigidity_lines(k4) == [
        "globally rigid (generically: 3-connected and redundantly rigid)"
    ]
    (line,) = lines.rigidity_lines(kite)  # folds over rod 0-1
    assert line.startswith("not globally rigid:")
    kite.pin(2)
    kite.pin(3)  # a bar 2-3 by the ground: K4
    (line,) = lines.rigidity_lines(kite)
    assert line.startswith("globally rigid with the pins as one body")


def test_a_drag_does_not_solve_the_tensegrity_lp_on_every_frame(monkeypatch) -> None:
    import linkage_widget.session.rigidity_lines as lines

    link = Linkage([[0, 0], [3, 0], [3.5, 2.5], [0.3, 2]],
                   rods=[(0, 1), (1, 2), (2, 3), (3, 0)], pinned=[0, 1])  # fmt: skip
    link.add_rod(0, 2, kind="cable")  # a pinned four-bar, a cable across: it may shorten
    s = LinkageSession(link)
    solved = []
    real = lines._tensegrity_line
    monkeypatch.setattr(lines, "_tensegrity_line", lambda link: solved.append(1) or real(link))
    lines._MEMO.clear()
    (before,) = [x for x in s.readout() if x.startswith("tensegrity")]
    assert len(solved) == 1
    x, y = (float(c) for c in s.view.to_pixel(s.linkage.vertices[2]))
    s.press(x, y)
    live_frames = 0
    for k in range(1, 9):
        s.drag(x - 4.0 * k, y - 1.0 * k)
        s.advance(1)
        if s.live_analysis is not None:
            live_frames += 1
            (said,) = [x for x in s.readout() if x.startswith("tensegrity")]
            assert said.startswith(before) and "rechecked when it stops" in said
    assert live_frames >= 3 and len(solved) == 1  # none while the joints moved
    s.release(x - 32.0, y - 8.0)
    for _ in range(200):
        if s.live_analysis is None and not s.running:
            break
        s.advance(1)
    (after,) = [x for x in s.readout() if x.startswith("tensegrity")]
    assert "when it stops" not in after and len(solved) == 2  # once, at the new placement
