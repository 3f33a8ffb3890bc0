"""The JSON sibling with what the 2007 format cannot hold."""

import pytest

from linkage_widget import LinkageFormatError
from linkage_widget.elements import Spring
from linkage_widget.io.sidecar import Extensions, read_extensions, sibling_path, write_extensions


def test_round_trip(tmp_path):
    ext = Extensions((5, 2), (Spring(0, 3, 2.5, None, 0.1), Spring(1, 2, 1.0, 7.0)), 0.3)
    path = tmp_path / "a.txt"
    write_extensions(path, ext)
    assert sibling_path(path) == tmp_path / "a.txt.json"
    assert read_extensions(path, n_vertices=6) == ext


def test_empty_writes_nothing_and_removes_stale(tmp_path):
    path = tmp_path / "a.txt"
    write_extensions(path, Extensions(tracked=(1,)))
    assert sibling_path(path).exists()
    write_extensions(path, Extensions())
    assert not sibling_path(path).exists()
    assert read_extensions(path, n_vertices=3) == Extensions()


@pytest.mark.parametrize(
    "text, match",
    [
        ("{", "not valid JSON"),
        ('{"tracked": [1]}', "not a linkage_widget extensions file"),
        ('{"linkage_widget_extensions": 1, "tracked": [9]}', "tracked: 9"),
        ('{"linkage_widget_extensions": 1, "tracked": [1, 1]}', "twice"),
        ('{"linkage_widget_extensions": 1, "mass_distribution": 2}', "mass_distribution"),
        ('{"linkage_widget_extensions": 1, "springs": [{"i": 0, "j": 0}]}', "distinct"),
        (
            '{"linkage_widget_extensions": 1, "springs": [{"i": 0, "j": 1, "stiffness": -1}]}',
            "stiffness",
        ),
    ],
)
def test_errors_name_the_problem(text, match):
    with pytest.raises(LinkageFormatError, match=match) as info:
        Extensions.from_json(text, n_vertices=3, source="x.txt.json")
    assert info.value.source == "x.txt.json"


def test_spring_renumbered():
    assert Spring(0, 3).renumbered(1) == Spring(0, 2)
    assert Spring(0, 3).renumbered(3) is None
