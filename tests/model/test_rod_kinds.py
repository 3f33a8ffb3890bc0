"""Cables and struts in the model: kinds follow every edit, bad kinds are refused unchanged."""

import numpy as np
import pytest

from linkage_widget import Linkage, LinkageFormatError


def square() -> Linkage:
    return Linkage(
        [[0, 0], [1, 0], [1, 1], [0, 1]],
        rods=[(0, 1), (1, 2)],
        cables=[(2, 3), (3, 0)],
        struts=[(0, 2)],
    )


def test_constructor_appends_cables_then_struts_to_the_rods():
    link = square()
    assert link.rods.tolist() == [[0, 1], [1, 2], [2, 3], [3, 0], [0, 2]]
    assert link.rod_kinds.tolist() == ["rod", "rod", "cable", "cable", "strut"]
    assert "2 cables, 1 struts" in repr(link)
    assert "cables" not in repr(Linkage([[0, 0], [1, 0]], rods=[(0, 1)]))


def test_kinds_follow_edits():
    link = square()
    assert link.add_rod(1, 3, kind="strut") == 5
    link.set_rod_kind(0, "cable")
    link.split_rod(2)  # a split cable is two cables
    assert link.rod_kinds.tolist()[-1] == "cable"
    link.remove_rod(1)
    link.remove_vertex(0)  # takes 0-1 (cable), 3-0 (cable), 0-2 (strut); 4 becomes 3
    assert link.n_rods == len(link.rod_kinds)
    kinds = dict(zip(map(tuple, link.rods.tolist()), link.rod_kinds.tolist(), strict=True))
    assert kinds == {(1, 3): "cable", (0, 2): "strut", (3, 2): "cable"}
    copy = link.copy()
    assert copy == link
    copy.set_rod_kind(0, "rod")
    assert copy != link and link.rod_kinds[0] == "cable"
    link.clear()
    assert link.rod_kinds.shape == (0,)


def test_bad_kind_changes_nothing():
    link = square()
    before = link.copy()
    with pytest.raises(ValueError, match="rod 1: unknown kind 'rope'"):
        link.set_rod_kind(1, "rope")
    with pytest.raises(ValueError, match="unknown kind 'wire'"):
        link.add_rod(1, 3, kind="wire")
    with pytest.raises(IndexError, match="rod"):
        link.set_rod_kind(9, "cable")
    assert link == before


def test_kinds_survive_the_data_round_trip_and_a_bad_count_is_a_format_error():
    link = square()
    data = link._to_data()
    assert data.kinds == ("rod", "rod", "cable", "cable", "strut")
    assert Linkage._from_data(data, "x") == link
    assert Linkage([[0, 0], [1, 0]], rods=[(0, 1)])._to_data().kinds == ()
    with pytest.raises(LinkageFormatError, match="4 rod kinds for 5 rods"):
        Linkage._from_data(data._replace(kinds=data.kinds[:4]), "x")
    # The 2007 text holds bars only: the tensegrity reads back as its bar framework.
    bars = Linkage.loads(link.dumps())
    assert np.array_equal(bars.rods, link.rods) and set(bars.rod_kinds) == {"rod"}
