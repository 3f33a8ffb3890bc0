"""Degrees of freedom and self-stresses of the 3-D examples: hand counts, numpy, PyRigi.

The expected numbers are the theorems (Cauchy–Dehn, the cube's shears, Bricard,
Bennett, the double banana, Jessen), not read off our own code. They are checked
twice, independently: the plain numerical rank of a numpy rigidity matrix
(``space_flex``) and PyRigi 1.3 (``pyrigi.Framework``, exact sympy arithmetic where
the coordinates are integers or halves, else ``numerical=True``).
"""

from __future__ import annotations

import numpy as np
import pytest
from space_flex import counts, nontrivial_flexes

from linkage_widget.examples import space

pyrigi = pytest.importorskip("pyrigi")
frameworkDB = pytest.importorskip("pyrigi.frameworkDB")

# name: (builder, internal DOF, self-stresses, 3n - 6 - m, exact coordinates?)
EXPECTED = {
    "octahedron": (space.octahedron, 0, 0, 0, True),
    "icosahedron": (space.icosahedron, 0, 0, 0, False),
    "cube": (space.cube, 6, 0, 6, True),
    "triangulated_cube": (space.triangulated_cube, 0, 0, 0, True),
    "bricard_line": (space.bricard_line_symmetric, 1, 1, 0, False),
    "bricard_plane": (space.bricard_plane_symmetric, 1, 1, 0, False),
    "bricard_type3": (space.bricard_type3, 1, 1, 0, False),
    "bennett": (space.bennett_linkage, 1, 3, -2, False),
    "double_banana": (space.double_banana, 1, 1, 0, False),
    "jessen": (space.jessen_icosahedron, 1, 1, 0, True),
}


def _arrays(link):
    return np.array(link.vertices), np.array(link.rods)


def _framework(p, rods, exact):
    graph = pyrigi.Graph([tuple(map(int, r)) for r in rods])
    if exact:  # integers or halves: PyRigi computes with exact rationals
        import sympy as sp

        place = {i: [sp.Rational(str(x)) for x in v] for i, v in enumerate(p)}
    else:
        place = {i: [float(x) for x in v] for i, v in enumerate(p)}
    return pyrigi.Framework(graph, place)


@pytest.mark.parametrize("name", EXPECTED)
def test_counts_against_hand_and_numpy(name):
    builder, dof, stresses, maxwell, _ = EXPECTED[name]
    link = builder()
    p, rods = _arrays(link)
    assert link.dim == 3 and p.shape == (link.n_vertices, 3)
    assert 3 * len(p) - 6 - len(rods) == maxwell
    assert counts(p, rods) == (dof, stresses)
    # Maxwell-Calladine: internal DOF - self-stresses = 3n - 6 - m
    assert dof - stresses == maxwell


@pytest.mark.parametrize("name", EXPECTED)
def test_counts_against_pyrigi(name):
    builder, dof, stresses, _, exact = EXPECTED[name]
    p, rods = _arrays(builder())
    fw = _framework(p, rods, exact)
    num = {} if exact else {"numerical": True}
    assert fw.is_inf_rigid(**num) == (dof == 0)
    assert len(fw.inf_flexes(**num)) == dof  # nontrivial ones only
    assert len(fw.stresses(**num)) == stresses


def test_pyrigi_octahedra_of_its_database_agree():
    """PyRigi's own regular and Bricard octahedra: 0 and 1 internal DOF in our numpy oracle too."""
    for realization, dof in (("regular", 0), ("Bricard_line", 1), ("Bricard_plane", 1)):
        fw = frameworkDB.Octahedron(realization)
        verts = sorted(fw.graph.nodes)
        place = fw.realization(as_points=True, numerical=True)
        p = np.array([place[v] for v in verts], dtype=float)
        rods = np.array([(verts.index(a), verts.index(b)) for a, b in fw.graph.edges])
        assert counts(p, rods)[0] == dof


def test_the_icosahedron_family_is_shaky_only_at_jessen():
    """(0, ±t, ±1): one nontrivial flex at t = 2, none at the regular t = 1/φ nor nearby t."""
    for t, flexes in ((2.0, 1), (1.9, 0), (2.1, 0), ((5**0.5 - 1) / 2, 0)):
        p, rods = _arrays(space.jessen_icosahedron(t))
        assert nontrivial_flexes(p, rods)[0].shape[1] == flexes, t


def test_jessen_dihedral_angles_are_right_angles():
    """Jessen's icosahedron is 'orthogonal': faces that share a rod have perpendicular normals."""
    p, rods = _arrays(space.jessen_icosahedron())
    edge = {tuple(sorted(map(int, r))) for r in rods}
    faces = [
        f
        for f in ((i, j, k) for i in range(12) for j in range(i + 1, 12) for k in range(j + 1, 12))
        if {(f[0], f[1]), (f[0], f[2]), (f[1], f[2])} <= edge
    ]
    assert len(faces) == 20
    normal = {f: np.cross(p[f[1]] - p[f[0]], p[f[2]] - p[f[0]]) for f in faces}
    shared = [(f, g) for f in faces for g in faces if f < g and len(set(f) & set(g)) == 2]
    assert len(shared) == 30
    cosines = [
        abs(normal[f] @ normal[g]) / np.linalg.norm(normal[f]) / np.linalg.norm(normal[g])
        for f, g in shared
    ]
    assert max(cosines) < 1e-12


def test_regular_examples_are_regular():
    for link, length in ((space.octahedron(), 2**0.5), (space.icosahedron(), 2.0)):
        assert np.allclose(link.rod_lengths(), length, rtol=1e-14)
    cube = space.cube(scale=3.0)
    assert np.allclose(cube.rod_lengths(), 3.0)
    tri = space.triangulated_cube().rod_lengths()
    assert np.isclose(tri, 1.0).sum() == 12 and np.isclose(tri, 2**0.5).sum() == 6
