"""The package's ``analyze`` on the 3-D examples says what the theorems say.

Trivial motions 6, internal DOF and self-stresses as in ``test_examples3d_counts``;
the generic answer (a random placement's rank, not a count) tells the double banana
and the cube apart from the generically rigid graphs; the status separates real
motions (Bricard, Bennett, the double banana) from Jessen's second-order rigidity.
"""

from __future__ import annotations

import pytest

from linkage_widget import analyze
from linkage_widget.examples import space
from linkage_widget.rigidity.local_dimension import mobility

# name: (internal DOF, self-stresses, generically rigid graph, status)
EXPECTED = {
    "octahedron": (0, 0, True, "infinitesimally rigid"),
    "icosahedron": (0, 0, True, "infinitesimally rigid"),
    "cube": (6, 0, False, "flexible"),
    "triangulated_cube": (0, 0, True, "infinitesimally rigid"),
    "bricard_line": (1, 1, True, "flexible"),
    "bricard_plane": (1, 1, True, "flexible"),
    "bricard_type3": (1, 1, True, "flexible"),
    "bennett": (1, 3, True, "flexible"),
    "double_banana": (1, 1, False, "flexible"),
    "jessen": (1, 1, True, "rigid but infinitesimally flexible"),
}


@pytest.mark.parametrize("name", EXPECTED)
def test_analyze_agrees_with_the_theorems(name):
    builder, _ = space.SPACE_EXAMPLES[name]
    report = analyze(builder())
    dof, stresses, generic, status = EXPECTED[name]
    assert report.dim == 3 and report.trivial_dof == 6
    assert (report.internal_dof, report.self_stresses) == (dof, stresses)
    assert report.generically_rigid is generic
    assert report.status == status
    assert report.generic_method.startswith("random placement")  # not the planar pebble game


def test_counting_is_what_fails():
    """Maxwell's count says rigid (or overbraced) for every example that moves."""
    for name in ("bricard_line", "bricard_plane", "bricard_type3", "bennett", "double_banana"):
        report = analyze(space.SPACE_EXAMPLES[name][0]())
        assert report.maxwell_count <= 0 < report.internal_dof, name


@pytest.mark.parametrize(
    ("name", "dimension", "status"),
    [
        ("bennett", 1, "moves (dimension 1)"),
        ("bricard_type3", 1, "moves (dimension 1)"),
        ("double_banana", 1, "moves (dimension 1)"),
        ("jessen", 0, "rigid although infinitesimally flexible"),
        ("octahedron", 0, "rigid"),
    ],
)
def test_mobility_is_the_local_dimension(name, dimension, status):
    """mobility() in 3-D: sampled for the movers (its Gröbner route is planar-only; the
    exact Bennett curve is test_bennett_mobility's sympy basis), second order for Jessen."""
    report = mobility(space.SPACE_EXAMPLES[name][0]())
    assert report.dimension == dimension and report.status == status
