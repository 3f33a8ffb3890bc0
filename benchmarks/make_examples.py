"""Regenerate the bundled example linkages from their definitions.

Every ``linkage_widget/examples/<name>.txt`` listed in :data:`EXAMPLES` is built
here from the mechanism's defining lengths (closed-form circle intersections,
so the files hold full-precision floats) and written with ``Linkage.save``.
The ``<name>.md`` notes beside them are written by hand.

Usage::

    .venv/bin/python benchmarks/make_examples.py           # rewrite the files
    .venv/bin/python benchmarks/make_examples.py --check   # exit 1 if any is stale

``peaucellier.txt`` is not generated here (it predates this script) and is
left alone. Sliders, slots and the kinds of cables and struts go into each file's JSON
sibling ``<name>.txt.json`` (``Linkage.save`` writes it, keeping any other keys there, such
as joint names).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # run as a script from a fresh clone
    sys.path.insert(0, str(REPO))

from linkage_widget import Linkage  # noqa: E402
from linkage_widget.examples.penrose import penrose_tiling  # noqa: E402
from linkage_widget.io.sidecar import Extensions, read_extensions, write_extensions  # noqa: E402

EXAMPLES_DIR = REPO / "linkage_widget" / "examples"


def circle_intersection(
    p: np.ndarray, r: float, q: np.ndarray, s: float, key: Callable[[np.ndarray], float]
) -> np.ndarray:
    """The intersection of circles ``(p, r)`` and ``(q, s)`` minimising ``key``.

    Choosing the branch by a key ("the upper one", "the left one") reads like the
    description of the mechanism and does not depend on the order of ``p``, ``q``.
    """
    p, q = np.asarray(p, dtype=float), np.asarray(q, dtype=float)
    d = q - p
    dist = float(np.hypot(*d))
    along = (r * r - s * s + dist * dist) / (2.0 * dist)
    h2 = r * r - along * along
    if h2 < 0:
        raise ValueError("the circles do not meet: the mechanism cannot be assembled")
    u = d / dist
    normal = np.array([-u[1], u[0]])
    both = [p + along * u + sign * np.sqrt(h2) * normal for sign in (1.0, -1.0)]
    return min(both, key=key)


def upper(z: np.ndarray) -> float:
    return -float(z[1])


def lower(z: np.ndarray) -> float:
    return float(z[1])


def left(z: np.ndarray) -> float:
    return float(z[0])


def four_bar() -> Linkage:
    """Grashof crank-rocker: ground 200, crank 60, coupler 180, rocker 150.

    Shortest + longest = 60 + 200 <= 180 + 150 and the shortest link is the
    crank, so the crank turns fully while the rocker swings.
    Vertices: 0 crank pivot, 1 rocker pivot (both pinned), 2 crank pin, 3 rocker end.
    """
    o, q = np.array([0.0, 0.0]), np.array([200.0, 0.0])
    a = o + 60.0 * np.array([np.cos(np.pi / 3), np.sin(np.pi / 3)])
    b = circle_intersection(a, 180.0, q, 150.0, upper)
    return Linkage([o, q, a, b], rods=[(0, 2), (2, 3), (3, 1)], pinned=[0, 1])


def watt() -> Linkage:
    """Watt's linkage: levers 150 from pivots (-150, 50) and (150, -50), coupler 100.

    The coupler is two rods through its midpoint with a fixed straight angle, so
    the midpoint is a joint whose path can be tracked.
    Vertices: 0 left pivot, 1 left lever end, 2 coupler midpoint, 3 right lever end,
    4 right pivot.
    """
    verts = [[-150.0, 50.0], [0.0, 50.0], [0.0, 0.0], [0.0, -50.0], [150.0, -50.0]]
    return Linkage(verts, rods=[(0, 1), (1, 2), (2, 3), (3, 4)], angles=[(2, 1, 3)], pinned=[0, 4])


def chebyshev() -> Linkage:
    """Chebyshev's straight-line linkage: ground 200, crossed rockers 250, coupler 100.

    The classical proportions 4 : 5 : 2 (times 50); the coupler midpoint moves
    nearly along y = 200.
    Vertices: 0, 1 pivots, 2 end of the rocker from 0, 3 end of the rocker from 1,
    4 coupler midpoint.
    """
    verts = [[0.0, 0.0], [200.0, 0.0], [150.0, 200.0], [50.0, 200.0], [100.0, 200.0]]
    return Linkage(verts, rods=[(0, 2), (1, 3), (2, 4), (4, 3)], angles=[(4, 2, 3)], pinned=[0, 1])


def hoeken() -> Linkage:
    """Hoekens linkage: crank 50, ground 100, rocker 125, coupler 125 + 125.

    Proportions 1 : 2 : 2.5 : 5. The rocker holds the middle of the coupler; the
    coupler's far end traces a path whose lower half is nearly the line y = 200.
    Vertices: 0 crank pivot, 1 rocker pivot, 2 crank pin, 3 coupler middle, 4 tip.
    """
    verts = [[0.0, 0.0], [100.0, 0.0], [-50.0, 0.0], [25.0, 100.0], [100.0, 200.0]]
    return Linkage(verts, rods=[(0, 2), (2, 3), (3, 4), (1, 3)], angles=[(3, 2, 4)], pinned=[0, 1])


def roberts() -> Linkage:
    """Roberts' linkage: ground 200, rockers 130, coupler triangle 100/130/130.

    The apex of the coupler triangle sits at the middle of the ground line and
    moves nearly along it (y = 0).
    Vertices: 0, 1 pivots, 2, 3 rocker ends, 4 triangle apex.
    """
    verts = [[0.0, 0.0], [200.0, 0.0], [50.0, 120.0], [150.0, 120.0], [100.0, 0.0]]
    return Linkage(verts, rods=[(0, 2), (1, 3), (2, 3), (2, 4), (3, 4)], pinned=[0, 1])


def hart() -> Linkage:
    """Hart's inversor: a crossed parallelogram with bars 234 and 150.

    The four joints W, X (top) and Z, Y (bottom) form an isosceles trapezoid
    whose diagonals W-Y, X-Z are the long bars (234) and whose legs W-Z, X-Y are
    the short bars (150). The midpoints O of W-Z, P of W-Y and Q of X-Z are
    collinear on a line parallel to the bases, and stay so, with
    ``OP * OQ = (234**2 - 150**2) / 4 = 8064``. O is pinned; a crank from F, the
    midpoint of O and P, keeps P on a circle through O, so Q moves on the line
    x = -60. Bars carrying a midpoint are two rods with a fixed straight angle.
    Vertices: 0 O, 1 F (pinned), 2 P (crank pin), 3 Q (output), 4 W, 5 X, 6 Y, 7 Z.
    """
    w, x, y, z = [-48.0, 90.0], [48.0, 90.0], [168.0, 0.0], [-168.0, 0.0]
    o, p, q = [-108.0, 45.0], [60.0, 45.0], [-60.0, 45.0]
    f = [-24.0, 45.0]
    rods = [(4, 0), (0, 7), (4, 2), (2, 6), (5, 3), (3, 7), (5, 6), (1, 2)]
    angles = [(0, 4, 7), (2, 4, 6), (3, 5, 7)]
    return Linkage([o, f, p, q, w, x, y, z], rods=rods, angles=angles, pinned=[0, 1])


# Theo Jansen's "holy numbers" (Strandbeest leg), in his units.
HOLY = dict(
    a=38.0, b=41.5, c=39.3, d=40.1, e=55.8, f=39.4, g=36.7,
    h=65.7, i=49.0, j=50.0, k=61.9, l=7.8, m=15.0,
)  # fmt: skip


def jansen(scale: float = 3.0, crank_angle: float = 0.0) -> Linkage:
    """Theo Jansen's leg with the holy numbers, times ``scale``.

    Crank m about the axle O; fixed pivot B at (-a, -l) from the axle; the crank
    pin drives the upper joint J1 (j, with rocker b from B) and the lower joint J2
    (k, with rocker c). The triangle B-J1-J3 (b, e, d) and the foot triangle
    J2-J4-F (g, h, i) are rigid triangles of rods; f joins J3 and J4.
    Vertices: 0 O, 1 B (pinned), 2 crank pin, 3 J1, 4 J2, 5 J3, 6 J4, 7 foot F.
    """
    n = {key: value * scale for key, value in HOLY.items()}
    o = np.array([0.0, 0.0])
    b = np.array([-n["a"], -n["l"]])
    a = n["m"] * np.array([np.cos(crank_angle), np.sin(crank_angle)])
    j1 = circle_intersection(a, n["j"], b, n["b"], upper)
    j2 = circle_intersection(a, n["k"], b, n["c"], lower)
    j3 = circle_intersection(b, n["d"], j1, n["e"], left)
    j4 = circle_intersection(j2, n["g"], j3, n["f"], left)
    foot = circle_intersection(j2, n["i"], j4, n["h"], lower)
    rods = [
        (0, 2),  # m: crank
        (2, 3), (1, 3),  # j, b
        (2, 4), (1, 4),  # k, c
        (1, 5), (3, 5),  # d, e: triangle B-J1-J3 with b
        (5, 6),  # f
        (4, 6), (6, 7), (4, 7),  # g, h, i: foot triangle
    ]  # fmt: skip
    return Linkage([o, b, a, j1, j2, j3, j4, foot], rods=rods, pinned=[0, 1])


def pantograph() -> Linkage:
    """Pantograph, scale factor 2: parallelogram A-C-B-T with bars O-A-C and C-B-P.

    O-A-C (100 + 100) and C-B-P (75 + 75) are straight bars (two rods and a
    fixed straight angle each); A-T = 75 and B-T = 100 close the parallelogram,
    so O, T, P stay collinear with OP = 2 OT.
    Vertices: 0 O (pinned), 1 A, 2 C, 3 B, 4 P (pen), 5 T (tracer).
    """
    verts = [[0.0, 0.0], [60.0, 80.0], [120.0, 160.0], [180.0, 115.0], [240.0, 70.0], [120.0, 35.0]]
    rods = [(0, 1), (1, 2), (2, 3), (3, 4), (1, 5), (3, 5)]
    return Linkage(verts, rods=rods, angles=[(1, 0, 2), (3, 2, 4)], pinned=[0])


def peaucellier_attia() -> Linkage:
    """Peaucellier-Lipkin straight-line generator with small coordinates (after Attia).

    O(0,0), A(-2,0), B(2,4), C(6,0), D(2,-4), E(2,0); pins O and E; rods OA,
    AB, BC, CD, DE, BE, AD. A turns on a circle through E, the inversion centre,
    so C stays on x = 6.
    """
    verts = [[0.0, 0.0], [-2.0, 0.0], [2.0, 4.0], [6.0, 0.0], [2.0, -4.0], [2.0, 0.0]]
    rods = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (2, 5), (1, 4)]
    return Linkage(verts, rods=rods, pinned=[0, 5])


# ------------------------------------------------------------- sliders and slots
# The 2007 text holds the joints and rods; ``Linkage.save`` writes the sliders and
# slots into the JSON sibling ``<name>.txt.json``.
#: Slider-crank proportions shared by the in-line and offset examples: crank r, rod l.
CRANK, ROD = 50.0, 150.0


def slider_crank(offset: float = 0.0, crank_angle: float = np.pi / 3) -> Linkage:
    """Slider-crank: crank 50 about the pinned O, connecting rod 150, piston on y = -offset.

    The piston's line runs along x through ``(0, -offset)``: 0 is the in-line
    engine, a non-zero offset the offset slider-crank (a small quick return).
    Vertices: 0 O (pinned), 1 crank pin A, 2 piston B (slider).
    """
    a = CRANK * np.array([np.cos(crank_angle), np.sin(crank_angle)])
    b = np.array([a[0] + np.sqrt(ROD**2 - (a[1] + offset) ** 2), -offset])
    slider = (2, (0.0, -offset), (1.0, 0.0))
    return Linkage([[0.0, 0.0], a, b], rods=[(0, 1), (1, 2)], pinned=[0], sliders=[slider])


def slider_crank_offset() -> Linkage:
    """The offset slider-crank: the piston's line 20 below the crank pivot."""
    return slider_crank(offset=20.0)


def scotch_yoke(crank_angle: float = np.pi / 3) -> Linkage:
    """Scotch yoke: crank 50; its pin runs in the vertical slot of a yoke that slides along x.

    The yoke is one rigid body of four joints (five rods): the slot's ends T and U
    (140 apart, the crank pin between them on the slot's line) and the ram's joints
    R, S, both on the slider line y = 0 (a rod in a guide: two joints on one line keep
    the yoke from turning). R's x is 120 + 50 cos(theta): simple harmonic motion.
    Vertices: 0 O (pinned), 1 crank pin A, 2 T, 3 U, 4 R, 5 S.
    """
    a = CRANK * np.array([np.cos(crank_angle), np.sin(crank_angle)])
    x = a[0]
    verts = [[0.0, 0.0], a, [x, 70.0], [x, -70.0], [x + 120.0, 0.0], [x + 220.0, 0.0]]
    rods = [(0, 1), (2, 3), (2, 4), (3, 4), (4, 5), (2, 5)]
    line = ((0.0, 0.0), (1.0, 0.0))
    return Linkage(
        verts, rods=rods, pinned=[0], slots=[(2, 3, 1)], sliders=[(4, *line), (5, *line)]
    )


#: Whitworth: crank r about O2, lever pivot O4 a distance d below O2, lever arm, link.
WHITWORTH = dict(r=60.0, d=30.0, lever=100.0, link=200.0)


def whitworth(crank_angle: float = np.pi / 3) -> Linkage:
    """Whitworth quick return: crank 60, lever pivot 30 below the crank's, lever 100, link 200.

    The lever pivot O4 lies inside the crank circle, so the slotted lever turns all
    the way round (unevenly); the crank pin A slides in its slot (A on the line O4-C).
    The link C-D drives the ram D along the line y = -30 through O4, an in-line
    slider-crank on the lever. Ram strokes end when the lever lies along that line,
    i.e. when A crosses it: the crank turns 360 - 2 acos(d/r) = 240 degrees on one
    stroke and 120 on the other (ratio 2).
    Vertices: 0 O2, 1 O4 (both pinned), 2 crank pin A, 3 lever end C, 4 ram D (slider).
    """
    w = WHITWORTH
    o2, o4 = np.array([0.0, 0.0]), np.array([0.0, -w["d"]])
    a = o2 + w["r"] * np.array([np.cos(crank_angle), np.sin(crank_angle)])
    c = o4 + w["lever"] * (a - o4) / np.hypot(*(a - o4))
    d = np.array([c[0] + np.sqrt(w["link"] ** 2 - (c[1] - o4[1]) ** 2), o4[1]])
    return Linkage(
        [o2, o4, a, c, d],
        rods=[(0, 2), (1, 3), (3, 4)],
        pinned=[0, 1],
        slots=[(1, 3, 2)],
        sliders=[(4, (0.0, -w["d"]), (1.0, 0.0))],
    )


def elliptic_trammel() -> Linkage:
    """Trammel of Archimedes: a rod 180 with its ends on the x and y axes (two sliders).

    The rod P-Q carries T, 120 from Q and 60 from P (two rods and a fixed straight
    angle), so T traces x^2/120^2 + y^2/60^2 = 1; placed at cos = 0.8, sin = 0.6.
    Vertices: 0 P (on the x axis), 1 T (tracer), 2 Q (on the y axis).
    """
    verts = [[144.0, 0.0], [96.0, 36.0], [0.0, 108.0]]
    sliders = [(0, (0.0, 0.0), (1.0, 0.0)), (2, (0.0, 0.0), (0.0, 1.0))]
    return Linkage(verts, rods=[(0, 1), (1, 2)], angles=[(1, 0, 2)], sliders=sliders)


def merged(parts: list[tuple[Linkage, tuple[float, float]]]) -> Linkage:
    """The linkages side by side: each moved by its offset, joints numbered in order."""
    verts, rods, angles, pinned, sliders, slots, first = [], [], [], [], [], [], 0
    for link, offset in parts:
        shift = np.asarray(offset, dtype=float)
        verts.append(link.vertices + shift)
        rods += (link.rods + first).tolist()
        angles += (link.angles + first).tolist()
        pinned += (link.pinned + first).tolist()
        slots += (link.slots + first).tolist()
        sliders += [(j + first, tuple(np.add(p, shift)), d) for j, p, d in link.sliders]
        first += link.n_vertices
    return Linkage(np.vstack(verts), rods, angles, pinned, sliders=sliders, slots=slots)


def straight_lines() -> Linkage:
    """Peaucellier's and Hart's inversors beside a slider-crank: three vertical lines.

    peaucellier.txt as it is (output 5 on x = 128), hart.txt moved 460 right
    (output 9 on x = 400), and a slider-crank (crank 50, rod 150) whose piston 16
    slides on x = 760. Vertices 0-5 Peaucellier, 6-13 Hart, 14 O, 15 A, 16 piston.
    """
    o = np.array([760.0, 0.0])
    a = o + CRANK * np.array([np.cos(np.pi / 6), np.sin(np.pi / 6)])
    b = o + [0.0, a[1] - o[1] + np.sqrt(ROD**2 - (a[0] - o[0]) ** 2)]
    crank = Linkage(
        [o, a, b], rods=[(0, 1), (1, 2)], pinned=[0], sliders=[(2, tuple(o), (0.0, 1.0))]
    )
    peaucellier = Linkage.load(EXAMPLES_DIR / "peaucellier.txt")
    return merged([(peaucellier, (0.0, 0.0)), (hart(), (460.0, 0.0)), (crank, (0.0, 0.0))])


# Tensegrities: cables and struts are rods of a kind; Linkage.save writes the kinds into the
# JSON sibling ``<name>.txt.json`` (the 2007 text holds them as bars).
def snelson_x(side: float = 100.0) -> Linkage:
    """Snelson's X: a square of four cables held out by its two crossing struts.

    Vertices 0-3 the corners (0, 0), (side, 0), (side, side), (0, side), counter-clockwise.
    """
    corners = [[0.0, 0.0], [side, 0.0], [side, side], [0.0, side]]
    return Linkage(corners, cables=[(0, 1), (1, 2), (2, 3), (3, 0)], struts=[(0, 2), (1, 3)])


def cable_grid(rows: int = 2, cols: int = 2, size: float = 100.0) -> Linkage:
    """A grid of square cells of rods, each cell braced by one cable diagonal.

    Joint ``i (cols + 1) + j`` at ``(size j, size i)``; rods along the grid lines (rows
    first); the cell ``(i, j)`` has the cable ``/`` (lower left to upper right) when
    ``i + j`` is even, else ``\\``: the bracing digraph of rows and columns is then one
    cycle through all of them (Baglivo–Graver: strongly connected, so rigid).
    """
    pts = [[size * j, size * i] for i in range(rows + 1) for j in range(cols + 1)]

    def at(i: int, j: int) -> int:
        return i * (cols + 1) + j

    rods = [(at(i, j), at(i, j + 1)) for i in range(rows + 1) for j in range(cols)]
    rods += [(at(i, j), at(i + 1, j)) for i in range(rows) for j in range(cols + 1)]
    cables = [
        (at(i, j), at(i + 1, j + 1)) if (i + j) % 2 == 0 else (at(i, j + 1), at(i + 1, j))
        for i in range(rows)
        for j in range(cols)
    ]
    return Linkage(pts, rods=rods, cables=cables)


EXAMPLES: dict[str, Callable[[], Linkage]] = {
    "four_bar": four_bar,
    "watt": watt,
    "chebyshev": chebyshev,
    "hoeken": hoeken,
    "roberts": roberts,
    "hart": hart,
    "jansen": jansen,
    "pantograph": pantograph,
    "peaucellier_attia": peaucellier_attia,
    "slider_crank": slider_crank,
    "slider_crank_offset": slider_crank_offset,
    "scotch_yoke": scotch_yoke,
    "whitworth": whitworth,
    "elliptic_trammel": elliptic_trammel,
    "straight_lines": straight_lines,
    "snelson_x": snelson_x,
    "cable_grid": cable_grid,
    **{f"penrose{k}": (lambda k=k: penrose_tiling(k)) for k in range(1, 5)},
}

#: What the guided examples' JSON siblings hold besides the sliders and slots: the
#: joints tracked on load (the outputs the notes name) and the joints' names.
SIBLINGS: dict[str, Extensions] = {
    "slider_crank": Extensions(tracked=(2,), names=("O", "A", "B")),
    "slider_crank_offset": Extensions(tracked=(2,), names=("O", "A", "B")),
    "scotch_yoke": Extensions(tracked=(4,), names=("O", "A", "T", "U", "R", "S")),
    "whitworth": Extensions(tracked=(4,), names=("O2", "O4", "A", "C", "D")),
    "elliptic_trammel": Extensions(tracked=(1,), names=("P", "T", "Q")),
    "straight_lines": Extensions(tracked=(5, 9, 16)),
}


def _sibling_extras(path: Path, built: Linkage) -> tuple[tuple[int, ...], tuple[str, ...]]:
    ext = read_extensions(path, built.n_vertices, built.rods)
    return ext.tracked, ext.names


def _write(name: str, built: Linkage) -> None:
    path = EXAMPLES_DIR / f"{name}.txt"
    built.save(path)  # the 2007 text and the sliders and slots in the sibling
    if name in SIBLINGS:
        extra = SIBLINGS[name]
        ext = read_extensions(path, built.n_vertices, built.rods)
        write_extensions(path, replace(ext, tracked=extra.tracked, names=extra.names))


def _same_guides(old: Linkage, built: Linkage, atol: float) -> bool:
    """Sliders (joints, points, directions to ``atol``) and slots alike."""
    if len(old.sliders) != len(built.sliders) or not np.array_equal(old.slots, built.slots):
        return False
    return all(
        j == k and np.allclose(p, q, rtol=0.0, atol=atol) and np.allclose(d, e, rtol=0.0, atol=atol)
        for (j, p, d), (k, q, e) in zip(old.sliders, built.sliders, strict=True)
    )


def _same(path: Path, built: Linkage, exact: bool, extra: Extensions) -> bool:
    saved = path.read_text(encoding="utf-8")
    if _sibling_extras(path, built) != (extra.tracked, extra.names):
        return False
    # the sliders and slots come from the JSON sibling: read the file as a whole
    if not np.array_equal(Linkage.load(path).rod_kinds, built.rod_kinds):  # from the sibling
        return False
    if exact:
        return saved == built.dumps() and _same_guides(Linkage.load(path), built, 0.0)
    # Coordinates may differ in the last bits between platforms (libm): compare
    # the structure exactly and the positions to 1e-12 of the drawing's size.
    old = Linkage.load(path)
    size = float(np.ptp(built.vertices)) or 1.0
    return (
        old.vertices.shape == built.vertices.shape
        and np.allclose(old.vertices, built.vertices, rtol=0.0, atol=1e-12 * size)
        and all(
            np.array_equal(getattr(old, what), getattr(built, what))
            for what in ("rods", "angles", "pinned")
        )
        and _same_guides(old, built, 1e-12 * size)
    )


def stale(folder: Path = EXAMPLES_DIR, *, exact: bool = True) -> list[str]:
    """Names whose file in ``folder`` differs from what :data:`EXAMPLES` builds.

    ``exact=False`` allows round-off differences in the coordinates.
    """
    out = []
    for name, build in EXAMPLES.items():
        path = folder / f"{name}.txt"
        extra = SIBLINGS.get(name, Extensions())
        if not path.is_file() or not _same(path, build(), exact, extra):
            out.append(name)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only report stale files")
    args = parser.parse_args(argv)
    if args.check:
        names = stale()
        for name in names:
            print(f"stale: {name}.txt (run benchmarks/make_examples.py)")
        return 1 if names else 0
    for name, build in EXAMPLES.items():
        _write(name, build())
        print(f"wrote {name}.txt")
    return 0


if __name__ == "__main__":
    sys.exit(main())
