"""The JSON sibling with what the 2007 format cannot hold."""

import json

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


def test_a_load_of_the_other_dimension_is_refused_when_read(tmp_path):
    """A planar linkage's sibling with a 3-component load (or the reverse) names the load.

    Read as it was, it loaded and then failed at every draw and every motion.
    """
    from linkage_widget import Linkage
    from linkage_widget.session import LinkageSession

    def sibling(force):
        return json.dumps(
            {"linkage_widget_extensions": 2, "loads": [{"vertex": 1, "force": force}]}
        )

    planar = tmp_path / "four.txt"
    Linkage([[0, 0], [1, 0], [1, 1]], rods=[(0, 1), (1, 2)], pinned=[0]).save(planar)
    sibling_path(planar).write_text(sibling([0, 0, -1]))
    with pytest.raises(LinkageFormatError, match=r"four\.txt\.json.*loads: load on vertex 1 has 3"):
        LinkageSession.load(planar)
    sibling_path(planar).write_text(sibling([0, -1]))
    assert LinkageSession.load(planar).loads == {1: (0.0, -1.0)}

    space = tmp_path / "space.txt"
    Linkage([[0, 0, 0], [1, 0, 0], [1, 1, 1]], rods=[(0, 1), (1, 2)], pinned=[0]).save(space)
    sibling_path(space).write_text(sibling([0, -1]))
    with pytest.raises(LinkageFormatError, match=r"loads: .* but the linkage is 3-D"):
        LinkageSession.load(space)
