"""The JSON sibling keeps a spring's Duffing coefficient (issue 12)."""

import json

import pytest

from linkage_widget.elements import Spring
from linkage_widget.io.sidecar import Extensions, read_extensions, write_extensions


def test_nonlinear_stiffness_round_trips(tmp_path):
    ext = Extensions((), (Spring(0, 3, 2.5, 4.0, 0.1, nonlinear_stiffness=-0.25),), 0.0)
    path = tmp_path / "a.txt"
    write_extensions(path, ext)
    back = read_extensions(path, n_vertices=4)
    assert back == ext
    assert back.springs[0].nonlinear_stiffness == -0.25


def test_linear_springs_are_written_as_before():
    text = Extensions((), (Spring(0, 1, 2.0),), 0.0).to_json()
    assert "nonlinear_stiffness" not in text
    assert json.loads(text)["springs"][0]["damping"] == 0.0


def test_spring_refuses_a_non_finite_duffing_coefficient():
    with pytest.raises(ValueError, match="nonlinear_stiffness"):
        Spring(0, 1, 1.0, nonlinear_stiffness=float("nan"))
    assert Spring(2, 5, 1.0, None, 0.0, 3.0).renumbered(0).nonlinear_stiffness == 3.0
