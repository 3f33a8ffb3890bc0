"""Masses per joint and per rod in the model: checked, kept through edits, copies and undo."""

from __future__ import annotations

import pytest

from linkage_widget import Linkage
from linkage_widget.element_masses import ElementMasses, RodMass


def _triangle() -> Linkage:
    return Linkage([[0, 0], [2, 0], [0, 1]], rods=[(0, 1), (1, 2), (0, 2)], pinned=[0])


def test_a_new_linkage_has_no_own_masses() -> None:
    link = _triangle()
    assert link.masses.is_default()
    assert [link.masses.joint(i) for i in range(3)] == [None, None, None]
    assert link.masses.rod(2) is None


def test_joint_and_rod_masses_are_set_and_read_back() -> None:
    link = _triangle()
    link.masses.set_joint(1, 2.5)
    link.masses.set_rod(0, 3.0, centre=0.25, inertia=0.1)
    assert link.masses.joint(1) == 2.5
    assert link.masses.rod(0) == RodMass(3.0, 0.25, 0.1)
    assert not link.masses.is_default()
    link.masses.set_joint(1, None)
    link.masses.set_rod(0, None)
    assert link.masses.is_default()


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda m: m.set_joint(1, -1.0), "joint 1 mass must be a finite number >= 0"),
        (lambda m: m.set_joint(7, 1.0), "joint 7 out of range (there are 3 joints)"),
        (lambda m: m.set_joint(0, float("nan")), "joint 0 mass"),
        (lambda m: m.set_rod(1, 1.0, centre=1.5), "rod 1: rod centre of mass must be a number in"),
        (lambda m: m.set_rod(1, 1.0, inertia=-2), "rod 1: rod moment of inertia"),
        (lambda m: m.set_rod(1, "heavy"), "rod 1: rod mass must be"),
        (lambda m: m.set_rod(1, 0.0, inertia=1.0), "a rod of mass 0 has no moment of inertia"),
        (lambda m: m.set_rod(3, 1.0), "rod 3 out of range (there are 3 rods)"),
    ],
)
def test_bad_masses_say_what_and_change_nothing(call, message) -> None:
    link = _triangle()
    link.masses.set_joint(1, 2.0)
    link.masses.set_rod(1, 1.0, 0.75)
    before = link.copy()
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        call(link.masses)
    assert link == before
    assert link.masses.joint(1) == 2.0 and link.masses.rod(1) == RodMass(1.0, 0.75)


def test_masses_follow_removals_and_additions() -> None:
    link = _triangle()
    link.masses.set_joint(2, 4.0)
    link.masses.set_rod(1, 1.0, 0.2)  # rod 1-2
    link.masses.set_rod(2, 2.0, 0.6)  # rod 0-2
    link.remove_vertex(1)  # takes rods 0-1 and 1-2 along
    assert link.masses.n_vertices == 2 and link.masses.n_rods == 1
    assert link.masses.joint(1) == 4.0  # joint 2 is now joint 1
    assert link.masses.rod(0) == RodMass(2.0, 0.6)  # rod 0-2 is now rod 0
    v = link.add_vertex(3, 3)
    r = link.add_rod(0, v)
    assert link.masses.joint(v) is None and link.masses.rod(r) is None
    link.remove_rod(0)
    assert link.masses.n_rods == 1 and link.masses.rod(0) is None


def test_a_split_rod_gives_two_uniform_halves() -> None:
    link = _triangle()
    link.masses.set_rod(0, 3.0, 0.1)
    link.masses.set_rod(1, 5.0)
    link.split_rod(0)
    assert link.masses.n_vertices == 4 and link.masses.n_rods == 4
    assert link.masses.rod(0) is None and link.masses.rod(3) is None
    assert link.masses.rod(1) == RodMass(5.0)


def test_copies_are_independent_and_equality_sees_masses() -> None:
    link = _triangle()
    link.masses.set_joint(0, 1.0)
    twin = link.copy()
    assert twin == link
    twin.masses.set_joint(0, 2.0)
    assert link.masses.joint(0) == 1.0
    assert twin != link
    link.replace_with(twin)
    assert link.masses.joint(0) == 2.0 and link == twin
    link.clear()
    assert link.masses.n_vertices == 0 and link.masses.is_default()


def test_rod_mass_reversed_and_default_inertia() -> None:
    rod = RodMass(6.0, 0.25)
    assert rod.reversed() == RodMass(6.0, 0.75)
    assert rod.inertia_at(2.0) == pytest.approx(2.0)  # 6 * 4 / 12
    assert RodMass(6.0, 0.25, 0.5).inertia_at(2.0) == 0.5
    table = ElementMasses(2, 1)
    table.set_joint(0, 1.0)
    assert repr(table) == "ElementMasses(1 joints and 0 rods with their own mass)"
