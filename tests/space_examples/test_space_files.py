"""The bundled 3-D files: what the functions build, exact round trip, notes, kept apart."""

from __future__ import annotations

import numpy as np
import pytest
from space_flex import counts, rank, rigidity_matrix

from linkage_widget import Linkage
from linkage_widget.examples import list_examples, space

# name: pinned-ground degrees of freedom of the file (free coordinates minus rank)
GROUNDED_DOF = {
    "octahedron": 0,
    "icosahedron": 0,
    "cube": 4,
    "triangulated_cube": 0,
    "bricard_line": 1,
    "bricard_plane": 1,
    "bricard_type3": 1,
    "bennett": 1,
    "bricard_6r_line": 1,
    "bricard_6r_plane": 1,
    "bricard_6r_trihedral": 1,
    "generic_6r": 0,
    "double_banana": 1,
    "jessen": 1,  # its infinitesimal flex; it is rigid (test_banana_jessen)
    "tensegrity_prism": 1,  # its infinitesimal flex; prestress stable (tests/tensegrity)
}


def test_every_function_example_has_a_file_and_a_note():
    assert space.list_space_examples() == sorted(space.SPACE_EXAMPLES) == sorted(GROUNDED_DOF)
    for name in space.list_space_examples():
        assert len(space.describe_space_example(name)) > 200, name


@pytest.mark.parametrize("name", sorted(GROUNDED_DOF))
def test_file_is_what_the_function_builds(name):
    text = space.space_example_path(name).read_text(encoding="utf-8")
    loaded, built = Linkage.loads(text), space.build_space_example(name)
    assert loaded.dim == 3 and loaded.dumps() == text  # exact round trip
    np.testing.assert_allclose(loaded.vertices, built.vertices, rtol=1e-9, atol=1e-9)
    assert loaded.rods.tolist() == built.rods.tolist()
    assert sorted(loaded.pinned.tolist()) == sorted(built.pinned.tolist())
    file = space.load_space_example(f"{name}.txt")  # with the sibling: a tensegrity's kinds
    assert file.dumps() == text and file.rod_kinds.tolist() == built.rod_kinds.tolist()


@pytest.mark.parametrize("name", sorted(GROUNDED_DOF))
def test_grounded_file_keeps_the_examples_motion(name):
    link = space.load_space_example(name)
    p, rods = np.array(link.vertices), np.array(link.rods)
    free = np.setdiff1d(np.arange(len(p)), link.pinned)
    cols = (3 * free[:, None] + np.arange(3)).ravel()
    assert len(cols) - rank(rigidity_matrix(p, rods)[:, cols]) == GROUNDED_DOF[name]
    assert counts(p, rods)[0] >= GROUNDED_DOF[name]


def test_planar_example_list_is_unchanged_by_the_3d_files():
    assert not set(space.list_space_examples()) & set(list_examples())


def test_unknown_3d_example_names_the_bundled_ones():
    with pytest.raises(FileNotFoundError, match="bundled: bennett, bricard_6r_line"):
        space.load_space_example("tetrahedron")
    with pytest.raises(FileNotFoundError, match="no bundled 3-D linkage 'nope'"):
        space.build_space_example("nope")
