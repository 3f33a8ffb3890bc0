r"""Frameworks in space: Cauchy's rigid polyhedra, Bricard's flexible octahedra and company.

Each function returns a 3-D :class:`~linkage_widget.Linkage` (joints ``(n, 3)``,
rods, optionally a pinned ground). A framework of :math:`n` joints and :math:`m`
rods in space has the six rigid motions as trivial motions; Maxwell's count
:math:`m \ge 3n - 6` is necessary for rigidity but, unlike Laman's count in the
plane, not sufficient — these examples are the classical witnesses.

=============================  ====  ====  =========  ===================================
example                         n     m    3n-6-m     what it shows
=============================  ====  ====  =========  ===================================
:func:`octahedron`              6     12   0          rigid (Cauchy–Dehn: convex, triangulated)
:func:`icosahedron`             12    30   0          rigid (Cauchy–Dehn)
:func:`cube`                    8     12   6          6 internal degrees of freedom
:func:`triangulated_cube`       8     18   0          one diagonal per face: rigid
Bricard type 1, 2, 3            6     12   0          count says rigid, flexes (finite)
:func:`bennett_linkage`         8     20   -2         count says rigid, moves (mobility 1)
Bricard 6R, three cases         12    30   0          count says rigid, moves (mobility 1)
:func:`generic_6r`              12    30   0          six hinges in a loop: rigid
:func:`double_banana`           8     18   0          counts hold everywhere, yet flexes
:func:`jessen_icosahedron`      12    30   0          infinitesimally flexible, yet rigid
:func:`tensegrity_prism`        6     12   0          9 cables, 3 struts: prestress stable
=============================  ====  ====  =========  ===================================

The Bricard octahedra, Bennett's linkage and Bricard's loops of six hinges
(:func:`bricard_6r_line_symmetric`, :func:`bricard_6r_plane_symmetric`,
:func:`bricard_6r_trihedral`; their Denavit–Hartenberg parameters from
:func:`bricard_6r_loop`, a :class:`DHLoop`) are documented in
:mod:`._bricard`, :mod:`._bennett` and :mod:`._bricard_6r`. The double banana and
Jessen's icosahedron:

**Double banana.** Two triangular bipyramids ("bananas", 5 joints, 9 rods,
:math:`3 \cdot 5 - 6 = 9`, each rigid) share their two tips :math:`N, S`. 8
joints, 18 rods: :math:`3n - 6 = m`, and every subset of :math:`n' \ge 2` joints
spans at most :math:`3n' - 6` rods (Laman's condition lifted to space), yet the
two bananas turn against each other about the line :math:`NS` — a finite flex in
*every* placement, so generic rigidity in 3-D is not decided by counting. The
missing rod :math:`NS`, implied by both bananas, is where the self-stress lives.

**Jessen's orthogonal icosahedron.** The icosahedron's graph on
:math:`(0, \pm t, \pm 1)` and its cyclic shifts: :math:`t = 1/\varphi` (the golden
ratio) is a regular icosahedron, :math:`t = 2` Jessen's (1967), whose dihedral
angles are all right angles. It is *infinitesimally flexible*: the rigidity
matrix (30 × 36) has rank 29, one non-trivial infinitesimal flex :math:`p'`
and one self-stress :math:`\omega`. It is nonetheless *rigid*: the stress
energy of the flex, :math:`\sum_{ij} \omega_{ij} |p'_i - p'_j|^2`, is not zero,
so (choosing the sign of :math:`\omega`) the stress is positive definite on the
flexes — the framework is *prestress stable*, hence second-order rigid and
rigid (Connelly–Whiteley 1996). Equivalently, :math:`R(p')p'` is not in the
column space of :math:`R(p)`: the flex has no second-order extension.

The same examples ship as 3-D text files (scale 100, ground pinned) in the
folder ``space_files`` beside this module: :func:`list_space_examples`,
:func:`load_space_example`, :func:`describe_space_example`.

>>> octahedron().dim, icosahedron().n_rods, cube().n_rods, triangulated_cube().n_rods
(3, 30, 12, 18)
>>> sorted(list_space_examples())[:3]
['bennett', 'bricard_6r_line', 'bricard_6r_plane']
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import numpy as np

from .. import _checks
from ..io.bundled import SPACE_DIR, describe, example_path, list_examples
from ..model import Linkage
from ._bennett import bennett_frames, bennett_linkage, bennett_partner_angle
from ._bricard import (
    bricard_line_symmetric,
    bricard_plane_symmetric,
    bricard_type3,
    bricard_type3_flat,
)
from ._bricard_6r import (
    BRICARD_6R_CASES,
    DHLoop,
    bricard_6r_line_symmetric,
    bricard_6r_loop,
    bricard_6r_plane_symmetric,
    bricard_6r_trihedral,
    generic_6r,
    generic_6r_loop,
    revolute_loop_linkage,
)
from ._space_geometry import OPPOSITE, as_linkage, octahedron_rods

__all__ = [
    "BRICARD_6R_CASES",
    "OPPOSITE",
    "DHLoop",
    "SPACE_DIR",
    "SPACE_EXAMPLES",
    "bennett_frames",
    "bennett_linkage",
    "bennett_partner_angle",
    "bricard_6r_line_symmetric",
    "bricard_6r_loop",
    "bricard_6r_plane_symmetric",
    "bricard_6r_trihedral",
    "bricard_line_symmetric",
    "bricard_plane_symmetric",
    "bricard_type3",
    "bricard_type3_flat",
    "build_space_example",
    "cube",
    "describe_space_example",
    "double_banana",
    "generic_6r",
    "generic_6r_loop",
    "icosahedron",
    "jessen_icosahedron",
    "list_space_examples",
    "load_space_example",
    "octahedron",
    "octahedron_rods",
    "revolute_loop_linkage",
    "space_example_path",
    "space_example_texts",
    "tensegrity_prism",
    "triangulated_cube",
]

_GOLDEN = (1.0 + 5.0**0.5) / 2.0


def octahedron(*, scale: float = 1.0, ground: bool = False) -> Linkage:
    r"""The regular octahedron: joints :math:`\pm e_x, \pm e_y, \pm e_z` (opposite: 0-1, 2-3, 4-5).

    Convex with triangular faces, hence infinitesimally rigid (Dehn 1916) and
    rigid (Cauchy 1813): 0 internal degrees of freedom. ``ground`` pins the face
    of joints 0, 2, 4.

    >>> octahedron().rod_lengths().round(6).tolist() == [1.414214] * 12
    True
    """
    p = np.repeat(np.eye(3), 2, axis=0) * np.tile([1.0, -1.0], 3)[:, None]
    return as_linkage(p, octahedron_rods(), scale, (0, 2, 4) if ground else ())


def _icosahedron_points(t: float) -> np.ndarray:
    """(0, ±t, ±1) and its cyclic shifts, shape (12, 3)."""
    base = [(0.0, s1 * t, s2) for s1 in (1.0, -1.0) for s2 in (1.0, -1.0)]
    return np.array([np.roll(v, k) for k in range(3) for v in base])


def _icosahedron_rods() -> np.ndarray:
    """The 30 edges of the icosahedron's graph: the closest pairs when t = 1/golden ratio."""
    p = _icosahedron_points(1.0 / _GOLDEN)
    i, j = np.triu_indices(12, k=1)
    d = np.linalg.norm(p[i] - p[j], axis=1)
    close = d < d.min() * (1 + 1e-9)
    return np.column_stack([i[close], j[close]])


def jessen_icosahedron(t: float = 2.0, *, scale: float = 1.0, ground: bool = False) -> Linkage:
    r"""The icosahedron's graph on :math:`(0, \pm t, \pm 1)` and cyclic shifts; ``t=2``: Jessen's.

    ``t`` = 1/golden ratio gives a regular icosahedron (:func:`icosahedron`);
    ``t = 2`` Jessen's orthogonal icosahedron (all dihedral angles right),
    infinitesimally flexible yet rigid (see the module notes). ``ground`` pins
    the face of joints 0, 4, 8 — :math:`(0, t, 1), (1, 0, t), (t, 1, 0)`.

    >>> link = jessen_icosahedron()
    >>> sorted(set(np.round(link.rod_lengths() ** 2, 9).tolist()))  # 24 rods √6, 6 rods 4
    [6.0, 16.0]
    """
    tt = _checks.positive(t, "t")
    pins = (0, 4, 8) if ground else ()
    return as_linkage(_icosahedron_points(tt), _icosahedron_rods(), scale, pins)


def icosahedron(*, scale: float = 1.0, ground: bool = False) -> Linkage:
    r"""The regular icosahedron on :math:`(0, \pm 1, \pm\varphi)` and cyclic shifts (edge 2).

    Convex with triangular faces: rigid by Cauchy and Dehn, 0 internal degrees of freedom.
    ``ground`` pins the face of joints 0, 4, 8.
    """
    pins = (0, 4, 8) if ground else ()
    return as_linkage(
        _icosahedron_points(1.0 / _GOLDEN) * _GOLDEN, _icosahedron_rods(), scale, pins
    )


def _cube_points() -> np.ndarray:
    return np.array(list(itertools.product((-0.5, 0.5), repeat=3)))


def _cube_rods(diagonals: bool) -> np.ndarray:
    p = _cube_points()
    i, j = np.triu_indices(8, k=1)
    differ = np.sum(p[i] != p[j], axis=1)
    even = np.sum(p > 0, axis=1) % 2 == 0
    keep = (differ == 1) | (diagonals & (differ == 2) & even[i] & even[j])
    return np.column_stack([i[keep], j[keep]])


def cube(*, scale: float = 1.0, ground: bool = False) -> Linkage:
    r"""The unit cube of rods: :math:`3 \cdot 8 - 6 - 12 = 6` internal degrees of freedom.

    Its 12 rods are independent (no self-stress), so each of the six square
    faces adds one shear. ``ground`` pins the face :math:`x = -1/2` (joints 0-3),
    which leaves 4 degrees of freedom (12 free coordinates, 8 rods).
    """
    return as_linkage(_cube_points(), _cube_rods(False), scale, (0, 1, 2, 3) if ground else ())


def triangulated_cube(*, scale: float = 1.0, ground: bool = False) -> Linkage:
    r"""The cube with one diagonal per face: 18 rods, infinitesimally rigid.

    The six diagonals join the four joints of even coordinate parity — the
    edges of a regular tetrahedron inscribed in the cube, rigid on its own; each
    of the other four joints hangs on three tetrahedron joints by three rods not
    in a plane with it, so it is fixed too. ``ground`` pins joints 0-3.
    """
    return as_linkage(_cube_points(), _cube_rods(True), scale, (0, 1, 2, 3) if ground else ())


def double_banana(
    height: float = 2.0,
    radius: float = 0.6,
    offset: float = 1.0,
    *,
    scale: float = 1.0,
    ground: bool = False,
) -> Linkage:
    r"""Two bipyramids sharing their tips: counts say rigid, it flexes about :math:`NS`.

    Joints: 0 = :math:`N = (0, 0, h/2)`, 1 = :math:`S = (0, 0, -h/2)`; 2-4 the
    first banana's waist, a triangle of circumradius ``radius`` about
    :math:`(-\text{offset}, 0, 0)` in the plane :math:`z = 0`; 5-7 the second's
    about :math:`(+\text{offset}, 0, 0)`. ``ground`` pins the first banana
    (joints 0-4): the second then turns about the line :math:`NS`.

    >>> link = double_banana()
    >>> link.n_vertices, link.n_rods, 3 * link.n_vertices - 6 - link.n_rods
    (8, 18, 0)
    """
    h = _checks.positive(height, "height")
    r = _checks.positive(radius, "radius")
    d = _checks.positive(offset, "offset")
    ang = np.radians([90.0, 210.0, 330.0])
    ring = np.column_stack([r * np.cos(ang), r * np.sin(ang), np.zeros(3)])
    p = np.vstack([[0, 0, h / 2], [0, 0, -h / 2], ring - [d, 0, 0], ring + [d, 0, 0]])
    rods = []
    for waist in ((2, 3, 4), (5, 6, 7)):
        rods += list(itertools.combinations(waist, 2))
        rods += [(tip, w) for w in waist for tip in (0, 1)]
    return as_linkage(p, rods, scale, range(5) if ground else ())


def tensegrity_prism(
    twist: float = np.pi / 6,
    height: float = 1.0,
    *,
    scale: float = 1.0,
    ground: bool = False,
) -> Linkage:
    r"""Connelly's prismatic tensegrity: two cable triangles, three cable sides, three struts.

    Joints 0-2: an equilateral triangle of circumradius 1 in the plane :math:`z = 0`
    (joint :math:`k` at angle :math:`2\pi k/3`); 3-5: the same turned by ``twist`` at
    height ``height`` (joint :math:`3 + k` above joint :math:`k`). Cables: both triangles
    and the sides :math:`k, 3 + k`; struts :math:`k, 3 + (k + 1) \bmod 3`. At the twist
    :math:`\pi/2 - \pi/3 = \pi/6` (the default) its bar framework has a self-stress, and it
    is proper: the prism is prestress stable
    (:func:`~linkage_widget.rigidity.tensegrity_rigidity`). ``ground`` pins the bottom
    triangle.

    >>> prism = tensegrity_prism()
    >>> prism.rod_kinds.tolist().count("cable"), prism.rod_kinds.tolist().count("strut")
    (9, 3)
    """
    h = _checks.positive(height, "height")
    a = 2 * np.pi * np.arange(3) / 3
    t = a + float(twist)
    p = np.vstack([np.column_stack([np.cos(a), np.sin(a), np.zeros(3)]),
                   np.column_stack([np.cos(t), np.sin(t), np.full(3, h)])])  # fmt: skip
    cables = [(k, (k + 1) % 3) for k in range(3)] + [(3 + k, 3 + (k + 1) % 3) for k in range(3)]
    cables += [(k, 3 + k) for k in range(3)]
    struts = [(k, 3 + (k + 1) % 3) for k in range(3)]
    s = _checks.positive(scale, "scale")
    pinned = [0, 1, 2] if ground else []
    return Linkage(p * s, cables=cables, struts=struts, pinned=pinned, dim=3)


#: The bundled 3-D files: name -> (builder, keyword arguments). Scale 100, ground pinned.
SPACE_EXAMPLES: dict[str, tuple[Any, dict[str, Any]]] = {
    "octahedron": (octahedron, {}),
    "icosahedron": (icosahedron, {}),
    "cube": (cube, {}),
    "triangulated_cube": (triangulated_cube, {}),
    "bricard_line": (bricard_line_symmetric, {}),
    "bricard_plane": (bricard_plane_symmetric, {}),
    "bricard_type3": (bricard_type3, {}),
    "bennett": (bennett_linkage, {}),
    "bricard_6r_line": (bricard_6r_line_symmetric, {}),
    "bricard_6r_plane": (bricard_6r_plane_symmetric, {}),
    "bricard_6r_trihedral": (bricard_6r_trihedral, {}),
    "generic_6r": (generic_6r, {}),
    "double_banana": (double_banana, {}),
    "jessen": (jessen_icosahedron, {}),
    "tensegrity_prism": (tensegrity_prism, {}),
}


def build_space_example(name: str) -> Linkage:
    """The bundled 3-D example ``name`` built by its function (scale 100, ground pinned)."""
    if name not in SPACE_EXAMPLES:
        raise FileNotFoundError(
            f"no bundled 3-D linkage {name!r}; bundled: {', '.join(sorted(SPACE_EXAMPLES))}"
        )
    builder, kwargs = SPACE_EXAMPLES[name]
    return builder(**kwargs, scale=100.0, ground=True)


def space_example_texts() -> dict[str, str]:
    """The text of every bundled 3-D file, as :func:`build_space_example` makes it now."""
    return {name: build_space_example(name).dumps() for name in SPACE_EXAMPLES}


def list_space_examples() -> list[str]:
    """Names of the bundled 3-D linkages (without ``.txt``), sorted."""
    return list_examples(SPACE_DIR)


def space_example_path(name: str) -> Path:
    """Path of the bundled 3-D linkage ``name`` (with or without ``.txt``).

    Raises
    ------
    FileNotFoundError
        Listing the bundled names, when there is no such example.
    """
    return example_path(name, SPACE_DIR, "3-D linkage")


def load_space_example(name: str) -> Linkage:
    """Load the bundled 3-D linkage ``name`` from its file.

    >>> load_space_example("bricard_line").dim
    3
    """
    return Linkage.load(space_example_path(name))


def describe_space_example(name: str) -> str:
    """The one-paragraph note of a bundled 3-D linkage (its ``.md`` file, if any)."""
    return describe(space_example_path(name).stem, SPACE_DIR)


if __name__ == "__main__":  # python -m linkage_widget.examples.space: rewrite the files
    SPACE_DIR.mkdir(exist_ok=True)
    for _name in SPACE_EXAMPLES:  # save: a tensegrity's kinds go into its JSON sibling
        build_space_example(_name).save(SPACE_DIR / f"{_name}.txt")
