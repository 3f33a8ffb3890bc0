"""Version 2 of the JSON sibling: motors, loads, path forces, friction, table friction."""

import json

import pytest

from linkage_widget import LinkageFormatError
from linkage_widget.elements import Load, Motor, PathForce, PathFriction, Spring
from linkage_widget.io.sidecar import Extensions, read_extensions, sibling_path, write_extensions

RODS = [(0, 1), (1, 2), (2, 3)]
FULL = Extensions(
    tracked=(2,),
    springs=(Spring(0, 3, 2.0, 1.5, 0.1, 0.5),),
    mass_distribution=0.5,
    motors=(Motor(0, 1, 2.0), Motor(2, 3, -1.0, reference=(1, 2))),
    loads=(Load(2, 0.0, -3.0), Load(3, 1.0, 0.5)),
    forces=(PathForce(0, 2, 4.0),),
    frictions=(PathFriction(1, 3, 2.0, 0.3, mu_s=0.5, v_s=0.1, sigma=0.2),),
    table_friction=0.25,
)


def test_round_trip_of_every_drive(tmp_path):
    path = tmp_path / "a.txt"
    write_extensions(path, FULL)
    data = json.loads(sibling_path(path).read_text())
    assert data["linkage_widget_extensions"] == 2
    assert data["motors"][1] == {"pivot": 2, "tip": 3, "speed": -1.0, "reference": [1, 2]}
    assert data["loads"][0] == {"vertex": 2, "force": [0.0, -3.0]}
    assert read_extensions(path, 4, rods=RODS) == FULL


def test_without_drives_the_file_is_version_1_as_before(tmp_path):
    ext = Extensions((1,), (Spring(0, 1, 2.0, None, 0.0),), 0.25)
    text = ext.to_json()
    assert json.loads(text)["linkage_widget_extensions"] == 1
    assert "motors" not in text and "table_friction" not in text
    old = '{"linkage_widget_extensions": 1, "tracked": [1], "mass_distribution": 0.5}'
    assert Extensions.from_json(old, n_vertices=3) == Extensions((1,), (), 0.5)


def test_each_drive_alone_makes_version_2():
    for ext in (
        Extensions(motors=(Motor(0, 1),)),
        Extensions(loads=(Load(0, 1.0, 0.0),)),
        Extensions(forces=(PathForce(0, 1, 1.0),)),
        Extensions(frictions=(PathFriction(0, 1, 1.0, 0.1),)),
        Extensions(table_friction=0.1),
    ):
        assert not ext.is_empty() and ext.has_drives()
        assert json.loads(ext.to_json())["linkage_widget_extensions"] == 2
        assert Extensions.from_json(ext.to_json(), n_vertices=2) == ext


V2 = '{"linkage_widget_extensions": 2, '


@pytest.mark.parametrize(
    "text, match",
    [
        ('{"linkage_widget_extensions": 1, "motors": []}', "motors: needs version 2"),
        ('{"linkage_widget_extensions": 5}', "not a linkage_widget extensions file"),
        (V2 + '"motors": [{"pivot": 0, "tip": 9}]}', "motors: 9 is not a vertex"),
        (V2 + '"motors": [{"pivot": 1, "tip": 1}]}', "distinct"),
        (V2 + '"motors": [{"pivot": 0, "tip": 2}]}', "no rod 0-2"),
        (V2 + '"motors": [{"pivot": 0, "tip": 1, "speed": "fast"}]}', "motor speed"),
        (V2 + '"motors": [{"pivot": 0, "tip": 1, "reference": [0]}]}', "reference"),
        (V2 + '"motors": [{"tip": 1}]}', "missing key 'pivot'"),
        (V2 + '"loads": [{"vertex": 0, "force": [0, NaN]}]}', "load on vertex 0"),
        (V2 + '"loads": [{"vertex": 0, "force": 1}]}', r"force must be \[fx, fy\]"),
        (V2 + '"loads": [{"vertex": 0, "force": [0, 1]}, {"vertex": 0, "force": [1, 1]}]}',
         "two loads"),
        (V2 + '"forces": [{"i": 0, "j": 1, "force": Infinity}]}', "path force"),
        (V2 + '"frictions": [{"i": 0, "j": 1, "normal_force": 1, "mu_k": -0.1}]}', "mu_k"),
        (V2 + '"frictions": [{"i": 0, "j": 1, "normal_force": 1, "mu_k": 0.5, "mu_s": 0.1}]}',
         "mu_s"),
        (V2 + '"table_friction": -1}', "table_friction"),
        (V2 + '"loads": {"vertex": 0}}', "loads: expected a list"),
    ],
)  # fmt: skip
def test_errors_name_the_key_and_the_file(text, match):
    with pytest.raises(LinkageFormatError, match=match) as info:
        Extensions.from_json(text, n_vertices=3, source="x.txt.json", rods=[(0, 1), (1, 2)])
    assert info.value.source == "x.txt.json"


def test_read_names_the_sibling(tmp_path):
    path = tmp_path / "b.txt"
    sibling_path(path).write_text(V2 + '"table_friction": -1}')
    with pytest.raises(LinkageFormatError) as info:
        read_extensions(path, 3)
    assert info.value.source == str(sibling_path(path))


def test_renumbering_follows_a_deleted_vertex():
    assert Motor(0, 3, 1.0, (3, 4)).renumbered(1) == Motor(0, 2, 1.0, (2, 3))
    assert Motor(0, 3).renumbered(3) is None
    assert Motor(0, 3, 1.0, (3, 4)).renumbered(4) is None
    assert Load(4, 1.0, 2.0).renumbered(2) == Load(3, 1.0, 2.0)
    assert Load(4).renumbered(4) is None
    assert PathForce(1, 4, 2.0).renumbered(0) == PathForce(0, 3, 2.0)
    assert PathFriction(1, 4, 1.0, 0.2).renumbered(4) is None
    assert Motor(0, 1, 2.0).reversed().reversed() == Motor(0, 1, 2.0)


def test_a_motor_measured_from_its_own_rod_is_refused():
    with pytest.raises(ValueError, match="relative to itself"):
        Motor(0, 1, 1.0, reference=(1, 0))
    with pytest.raises(LinkageFormatError, match="relative to itself"):
        text = V2 + '"motors": [{"pivot": 0, "tip": 1, "reference": [0, 1]}]}'
        Extensions.from_json(text, n_vertices=3, source="x.txt.json", rods=[(0, 1), (1, 2)])
