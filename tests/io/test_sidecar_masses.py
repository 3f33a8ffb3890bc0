"""Joints' and rods' own masses in the JSON sibling (keys ``joint_masses``, ``rod_masses``).

They round-trip; a file with them is version 2; a bad value is refused naming the file
and the key; a 2007 file without a sibling loads as before, with no own masses.
"""

from __future__ import annotations

import json

import pytest

from linkage_widget import Linkage, RodMass
from linkage_widget.errors import LinkageFormatError
from linkage_widget.io.sidecar import (
    Extensions,
    apply_masses,
    mass_entries,
    read_extensions,
    sibling_path,
    write_extensions,
)

RODS = [(0, 1), (1, 2), (2, 3)]
EXT = Extensions(
    joint_masses=((1, 0.5), (2, 0.0)),
    rod_masses=((0, 1, RodMass(2.0, 0.25, 0.1)), (2, 1, RodMass(1.0, 0.9))),
)


def test_masses_round_trip_and_make_a_version_2_file(tmp_path):
    path = tmp_path / "chain.txt"
    write_extensions(path, EXT)
    data = json.loads(sibling_path(path).read_text())
    assert data == {
        "linkage_widget_extensions": 2,
        "joint_masses": [{"vertex": 1, "mass": 0.5}, {"vertex": 2, "mass": 0.0}],
        "rod_masses": [
            {"i": 0, "j": 1, "mass": 2.0, "centre": 0.25, "inertia": 0.1},
            {"i": 2, "j": 1, "mass": 1.0, "centre": 0.9, "inertia": None},
        ],
    }
    assert read_extensions(path, 4, rods=RODS) == EXT
    assert not EXT.is_empty()


def test_a_rod_named_backwards_gets_its_centre_from_the_other_end():
    link = Linkage([[0, 0], [1, 0], [2, 0], [3, 0]], rods=RODS)
    apply_masses(EXT, link.masses, link.rods)
    assert link.masses.joint(1) == 0.5 and link.masses.joint(2) == 0.0
    assert link.masses.rod(0) == RodMass(2.0, 0.25, 0.1)
    assert link.masses.rod(1).centre == pytest.approx(0.1)  # 0.9 from joint 2 = 0.1 from 1
    joints, rods = mass_entries(link.masses, link.rods)
    assert joints == EXT.joint_masses and rods[0] == EXT.rod_masses[0]


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"joint_masses": [{"vertex": 1, "mass": -2}]}, "joint_masses: joint 1 mass must be"),
        ({"joint_masses": [{"vertex": 9, "mass": 1}]}, "joint_masses: 9 is not a vertex index"),
        ({"joint_masses": [{"vertex": 1}]}, "missing key 'mass'"),
        (
            {"joint_masses": [{"vertex": 1, "mass": 1}, {"vertex": 1, "mass": 2}]},
            "a joint has two masses",
        ),
        ({"rod_masses": [{"i": 0, "j": 2, "mass": 1}]}, "rod_masses: there is no rod 0-2"),
        (
            {"rod_masses": [{"i": 0, "j": 1, "mass": 1, "centre": 2}]},
            "rod_masses: rod 0-1: rod centre of mass must be a number in",
        ),
        (
            {"rod_masses": [{"i": 0, "j": 1, "mass": 1, "inertia": "big"}]},
            "rod_masses: rod 0-1: rod moment of inertia",
        ),
        ({"rod_masses": {"i": 0}}, "rod_masses: expected a list"),
    ],
)
def test_a_bad_mass_names_the_file_and_the_key(tmp_path, entry, message):
    path = tmp_path / "chain.txt"
    sibling_path(path).write_text(json.dumps({"linkage_widget_extensions": 2, **entry}))
    with pytest.raises(LinkageFormatError) as err:
        read_extensions(path, 4, rods=RODS)
    assert str(sibling_path(path)) in str(err.value) and message in str(err.value)


def test_masses_in_a_version_1_file_are_refused(tmp_path):
    text = json.dumps({"linkage_widget_extensions": 1, "joint_masses": []})
    with pytest.raises(LinkageFormatError, match="joint_masses: needs version 2"):
        Extensions.from_json(text, n_vertices=4, source="old.json")
