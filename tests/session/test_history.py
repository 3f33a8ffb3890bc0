"""Undo/redo stacks and model snapshots."""

import pytest

from linkage_widget import Linkage
from linkage_widget.elements import Spring
from linkage_widget.session.history import History, Snapshot


def test_undo_redo_order():
    h = History()
    for state in "abc":
        h.record(state)
    assert h.undo("d") == "c"
    assert h.undo("c") == "b"
    assert h.redo("b") == "c"
    assert h.redo("c") == "d"
    assert h.redo("d") is None
    assert h.can_undo and not h.can_redo


def test_new_edit_forgets_redo():
    h = History()
    h.record("a")
    assert h.undo("b") == "a"
    assert h.can_redo
    h.record("a2")
    assert not h.can_redo
    assert h.redo("x") is None


def test_bounded_drops_oldest():
    h = History(limit=3)
    for i in range(10):
        h.record(i)
    assert len(h) == 3
    assert [h.undo(None) for _ in range(4)] == [9, 8, 7, None]


def test_empty_and_clear():
    h = History()
    assert h.undo("x") is None and h.redo("x") is None
    h.record(1)
    h.clear()
    assert not h.can_undo and not h.can_redo and len(h) == 0


def test_limit_validated():
    with pytest.raises(ValueError, match="limit"):
        History(limit=0)


def test_snapshot_equality_covers_model_tracked_springs():
    link = Linkage([[0, 0], [1, 0]], rods=[(0, 1)])
    a = Snapshot(link.copy(), (0,), (Spring(0, 1, 2.0),))
    assert a == Snapshot(link.copy(), (0,), (Spring(0, 1, 2.0),))
    assert a != Snapshot(link.copy(), (), (Spring(0, 1, 2.0),))
    assert a != Snapshot(link.copy(), (0,), ())
    moved = link.copy()
    moved.move_vertex(1, [2, 0])
    assert a != Snapshot(moved, (0,), (Spring(0, 1, 2.0),))
