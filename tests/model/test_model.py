import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from linkage_widget import Linkage


def square():
    return Linkage(
        [[0, 0], [1, 0], [1, 1], [0, 1]],
        rods=[(0, 1), (1, 2), (2, 3), (3, 0)],
        angles=[(1, 0, 2), (3, 2, 0)],
        pinned=[0, 3],
    )


def test_construction_validates():
    with pytest.raises(ValueError, match="shape"):
        Linkage([1, 2, 3])
    with pytest.raises(ValueError, match="non-finite"):
        Linkage([[0, np.nan]])
    with pytest.raises(ValueError, match="out of range"):
        Linkage([[0, 0]], rods=[(0, 1)])
    with pytest.raises(ValueError, match="itself"):
        Linkage([[0, 0], [1, 1]], rods=[(1, 1)])
    with pytest.raises(ValueError, match="more than once"):
        Linkage([[0, 0], [1, 1]], rods=[(0, 1), (1, 0)])
    with pytest.raises(ValueError, match="zero length"):
        Linkage([[0, 0], [0, 0]], rods=[(0, 1)])
    with pytest.raises(ValueError, match="joints 0 and 2 coincide"):
        Linkage([[0, 0], [1, 0], [0, 0]], rods=[(0, 1)], angles=[(0, 1, 2)])
    with pytest.raises(ValueError, match="overflows"):
        Linkage([[-1e308, 0], [1e308, 0]], rods=[(0, 1)])
    with pytest.raises(ValueError, match="pinned twice"):
        Linkage([[0, 0]], pinned=[0, 0])


def test_remove_vertex_renumbers_everything():
    link = square()
    link.remove_vertex(1)
    assert link.n_vertices == 3
    assert link.rods.tolist() == [[1, 2], [2, 0]]
    assert link.angles.tolist() == [[2, 1, 0]]
    assert link.pinned.tolist() == [0, 2]
    link.validate()


def test_remove_rod_keeps_its_angles():
    # a fixed angle needs no rods (issue 15, the 2007 page's "more motion possible")
    link = square()
    angles = link.angles.tolist()
    link.remove_rod(0)  # 0-1 is an arm of the angle at 1
    link.remove_rod(2)  # 3-0 ... now index 2 is (3, 0): arm of the angle at 3
    assert link.angles.tolist() == angles
    link.validate()


def test_split_rod_keeps_angles_on_the_same_ray():
    link = square()
    before = link.angle_values()
    mid = link.split_rod(0)  # rod 0-1
    assert mid == 4
    np.testing.assert_array_equal(link.vertices[mid], [0.5, 0])
    assert link.find_rod(0, mid) is not None and link.find_rod(mid, 1) is not None
    assert link.find_rod(0, 1) is None
    np.testing.assert_allclose(link.angle_values(), before)
    link.validate()


def test_editing_errors_leave_the_model_unchanged():
    link = square()
    before = link.copy()
    for bad in (
        lambda: link.add_rod(0, 1),
        lambda: link.add_rod(2, 2),
        lambda: link.add_rod(0, 9),
        lambda: link.add_angle(0, 1, 1),
        lambda: link.add_angle(1, 0, 2),
        lambda: link.remove_rod(17),
        lambda: link.add_vertex([np.inf, 0]),
        lambda: link.move_vertex(1, [0, 0]),
    ):
        with pytest.raises((ValueError, IndexError)):
            bad()
        assert link == before


def test_moving_a_joint_onto_an_angle_arm_is_refused():
    """An angle needs no rods, so the rod check alone let an arm collapse (found by the
    stateful model test: the linkage then failed its own validate())."""
    link = Linkage([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]], angles=[(0, 1, 2)])
    before = link.copy()
    with pytest.raises(
        ValueError, match=r"moving vertex 2 there: angle 0 \(0, 1, 2\).*no direction"
    ):
        link.move_vertex(2, [0.0, 0.0])
    assert link == before
    link.move_vertex(2, [0.0, 2.0])  # anywhere else is an edit like any other
    link.validate()


def test_pin_toggle_and_copy_are_independent():
    link = square()
    copy = link.copy()
    assert link.toggle_pin(1) is True
    assert link.toggle_pin(0) is False
    assert link.pinned.tolist() == [3, 1]
    assert copy.pinned.tolist() == [0, 3]
    assert link != copy


def test_views_are_read_only():
    link = square()
    with pytest.raises(ValueError):
        link.vertices[0, 0] = 5.0
    with pytest.raises(ValueError):
        link.rods[0, 0] = 2


def test_clear_and_replace_with():
    link = square()
    other = link.copy()
    link.clear()
    assert (link.n_vertices, link.n_rods, link.n_angles, len(link.pinned)) == (0, 0, 0, 0)
    link.replace_with(other)
    assert link == other


class EditingMachine(RuleBasedStateMachine):
    """Random editing sequences never leave a dangling index."""

    def __init__(self):
        super().__init__()
        self.link = Linkage()

    @rule(x=st.integers(-100, 100), y=st.integers(-100, 100))
    def add_vertex(self, x, y):
        self.link.add_vertex([x + 0.123 * self.link.n_vertices, y])

    @precondition(lambda self: self.link.n_vertices > 0)
    @rule(data=st.data())
    def remove_vertex(self, data):
        self.link.remove_vertex(data.draw(st.integers(0, self.link.n_vertices - 1)))

    @precondition(lambda self: self.link.n_vertices > 1)
    @rule(data=st.data())
    def add_rod(self, data):
        i = data.draw(st.integers(0, self.link.n_vertices - 1))
        j = data.draw(st.integers(0, self.link.n_vertices - 1))
        try:
            self.link.add_rod(i, j)
        except ValueError:
            pass

    @precondition(lambda self: self.link.n_rods > 0)
    @rule(data=st.data())
    def remove_rod(self, data):
        self.link.remove_rod(data.draw(st.integers(0, self.link.n_rods - 1)))

    @precondition(lambda self: self.link.n_rods > 0)
    @rule(data=st.data())
    def split_rod(self, data):
        self.link.split_rod(data.draw(st.integers(0, self.link.n_rods - 1)))

    @precondition(lambda self: self.link.n_rods > 1)
    @rule(data=st.data())
    def add_angle(self, data):
        i = data.draw(st.integers(0, self.link.n_vertices - 1))
        nb = self.link.neighbors(i)
        if len(nb) >= 2:
            j, k = data.draw(
                st.lists(st.sampled_from(nb.tolist()), min_size=2, max_size=2, unique=True)
            )
            try:
                self.link.add_angle(i, j, k)
            except ValueError:
                pass

    @precondition(lambda self: self.link.n_vertices > 0)
    @rule(data=st.data())
    def toggle_pin(self, data):
        self.link.toggle_pin(data.draw(st.integers(0, self.link.n_vertices - 1)))

    @invariant()
    def consistent(self):
        self.link.validate()  # raises on any dangling index, self-loop, duplicate...
        assert self.link == self.link.copy()


TestEditing = EditingMachine.TestCase
TestEditing.settings = settings(max_examples=60, stateful_step_count=30, deadline=None)


@given(st.lists(st.tuples(st.floats(-1e6, 1e6), st.floats(-1e6, 1e6)), max_size=8))
def test_add_vertices_round_trip(points):
    link = Linkage()
    for p in points:
        link.add_vertex(p)
    np.testing.assert_array_equal(link.vertices, np.array(points, float).reshape(-1, 2))
