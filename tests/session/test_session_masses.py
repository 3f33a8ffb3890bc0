"""Setting a joint's and a rod's own mass from the session: undoable, saved, used by the motion."""

from __future__ import annotations

import numpy as np
import pytest

from linkage_widget import Linkage, RodMass
from linkage_widget.io.sidecar import sibling_path
from linkage_widget.mass import mass_matrix
from linkage_widget.session import LinkageSession
from linkage_widget.session.document import read_linkage_file


def _session() -> LinkageSession:
    link = Linkage([[0, 0], [0, -1]], rods=[(0, 1)], pinned=[0])
    return LinkageSession(link)


def test_set_masses_undo_and_redo() -> None:
    s = _session()
    s.set_joint_mass(1, 0.0)
    s.set_rod_mass(0, 2.0, centre=0.75, inertia=0.05)
    assert s.linkage.masses.joint(1) == 0.0
    assert s.linkage.masses.rod(0) == RodMass(2.0, 0.75, 0.05)
    assert s.undo()
    assert s.linkage.masses.rod(0) is None and s.linkage.masses.joint(1) == 0.0
    assert s.undo()
    assert s.linkage.masses.is_default()
    assert s.redo() and s.redo()
    assert s.linkage.masses.rod(0) == RodMass(2.0, 0.75, 0.05)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda s: s.set_joint_mass(1, -1.0), "joint 1 mass"),
        (lambda s: s.set_joint_mass(5, 1.0), "joint 5 out of range"),
        (lambda s: s.set_rod_mass(0, 1.0, centre=-0.5), "rod 0: rod centre of mass"),
        (lambda s: s.set_rod_mass(3, 1.0), "rod 3 out of range"),
    ],
)
def test_bad_masses_raise_and_change_nothing(call, message) -> None:
    s = _session()
    s.set_rod_mass(0, 1.0)
    depth, before = len(s.history), s.linkage.copy()
    with pytest.raises(ValueError, match=message):
        call(s)
    assert s.linkage == before and len(s.history) == depth


def test_the_simulator_moves_with_the_masses_set() -> None:
    s = _session()
    s.set_joint_mass(1, 0.0)
    s.set_rod_mass(0, 3.0, centre=0.5, inertia=0.0)  # all 3 at the middle, as a point
    want = mass_matrix(s.linkage).toarray()
    assert want[2, 2] == pytest.approx(0.75)  # a point of 3 at the middle: 3/4 at each end
    sim = s.simulator
    v = np.array([[0.0, 0.0], [1.0, 0.0]])
    sim.set_velocity(v)
    assert sim.kinetic_energy() == pytest.approx(0.5 * 3.0 * 0.5**2)


def test_masses_are_saved_beside_the_file_and_loaded_back(tmp_path) -> None:
    s = _session()
    s.set_joint_mass(1, 0.25)
    s.set_rod_mass(0, 2.0, centre=0.3)
    path = tmp_path / "pendulum.txt"
    s.save(path)
    assert sibling_path(path).is_file()
    t = LinkageSession()
    assert t.load_file(path)
    assert t.linkage.masses == s.linkage.masses
    link, _ = read_linkage_file(path)
    assert link.masses.rod(0) == RodMass(2.0, 0.3) and link.masses.joint(1) == 0.25
    plain = Linkage.load(path)  # the 2007 text alone: as it always was, no own masses
    assert plain.masses.is_default() and plain.n_rods == 1


def test_a_merge_keeps_the_masses_of_both(tmp_path) -> None:
    other = _session()
    other.set_rod_mass(0, 4.0, centre=0.9)
    other.set_joint_mass(1, 0.5)
    path = tmp_path / "other.txt"
    other.save(path)
    s = _session()
    s.set_joint_mass(0, 2.0)
    s.set_rod_mass(0, 1.0, centre=0.2)
    added = s.merge_file(path)
    assert list(added) == [2, 3]
    table = s.linkage.masses
    assert table.joint(0) == 2.0 and table.rod(0) == RodMass(1.0, 0.2)
    assert table.joint(3) == 0.5 and table.rod(1) == RodMass(4.0, 0.9)
    assert table.joint(1) is None and table.joint(2) is None
