r"""The configuration surface of a linkage with two internal degrees of freedom, on a torus chart.

Two angle coordinates :math:`(a, b)` (two cranks of a five-bar, say) hold a 2-DOF
linkage still up to finitely many assembly modes. :func:`sample_surface` marks, on an
:math:`N \times N` grid of the torus :math:`[-\pi, \pi)^2`, where some placement exists:

Solving
    At every grid point damped Gauss-Newton (:mod:`._system`) runs from the current
    placement and from random placements, all cells at once. Then continuation over the
    grid: an unreached cell next to a reached one is tried again from its neighbours'
    placements, until nothing changes (a region that random starts missed is filled in
    from its edge).
Boundary
    Where the region ends the placement degenerates: two assembly modes meet because a
    pair of rods straightens or folds (a five-bar's coupler stretched out or folded
    back). Marching squares on the reached mask give the boundary's crossings of grid
    edges; each is then located by bisection along its edge (Newton from the reached
    end's placement, 30 halvings, so to ~1e-9 of a cell), and the crossings are linked
    into polylines, split where they wrap around the torus.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..model import Linkage
from ..rigidity import require_linkage
from ._errors import ConfigurationError
from ._system import LinkageSystem
from .angles import AngleCoordinate, default_coordinates
from .kind import internal_dimension

__all__ = ["ConfigurationSurface", "sample_surface"]

#: Marching squares: for each case (bit k set when corner k is reached; corners 0 (i, j),
#: 1 (i+1, j), 2 (i+1, j+1), 3 (i, j+1)), the pairs of crossed edges joined by a segment.
#: Edge k joins corner k to corner k+1 (mod 4). Saddles (5, 10) join as two segments.
_CASES = {
    1: [(3, 0)],
    2: [(0, 1)],
    3: [(3, 1)],
    4: [(1, 2)],
    5: [(3, 0), (1, 2)],
    6: [(0, 2)],
    7: [(3, 2)],
    8: [(2, 3)],
    9: [(2, 0)],
    10: [(0, 1), (2, 3)],
    11: [(2, 1)],
    12: [(1, 3)],
    13: [(1, 0)],
    14: [(0, 3)],
}
_CORNERS = np.array([(0, 0), (1, 0), (1, 1), (0, 1)])


@dataclass(frozen=True, eq=False)
class ConfigurationSurface:
    r"""Result of :func:`sample_surface`.

    Attributes
    ----------
    coords : tuple of AngleCoordinate
    a, b : ndarray, shape (N,)
        Grid angles of the two coordinates, :math:`-\pi` to :math:`\pi` (exclusive).
    reachable : ndarray of bool, shape (N, N)
        ``reachable[i, j]``: a placement exists with angles ``(a[i], b[j])``.
    positions : ndarray, shape (N, N, n, 2)
        One such placement per reachable cell (NaN elsewhere).
    boundary : list of ndarray, each (k, 2)
        Polylines :math:`(a, b)` of the reachable region's boundary (a rod pair straight).
    """

    coords: tuple[AngleCoordinate, AngleCoordinate]
    a: np.ndarray
    b: np.ndarray
    reachable: np.ndarray
    positions: np.ndarray
    boundary: list[np.ndarray]


def _solve_cells(system, coords, targets, starts):
    """Solve each target (B, 2) from each start (B, G, 2f): ``(X (B, 2f), ok (B,))``."""
    count, guesses = starts.shape[:2]
    x, ok = system.solve(
        starts.reshape(-1, system.size), coords, np.repeat(targets, guesses, axis=0)
    )
    x, ok = x.reshape(count, guesses, -1), ok.reshape(count, guesses)
    first = np.argmax(ok, axis=1)
    return x[np.arange(count), first], ok.any(axis=1)


def _fill(system, coords, grid, xs, ok):
    """Continuation over the torus grid: retry unreached cells from reached neighbours."""
    n = ok.shape[0]
    for _ in range(4 * n):
        todo, starts = [], []
        for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nb_ok = np.roll(ok, (di, dj), axis=(0, 1))
            cells = np.argwhere(~ok & nb_ok)
            todo.append(cells)
            starts.append(np.roll(xs, (di, dj), axis=(0, 1))[cells[:, 0], cells[:, 1]])
        cells, starts = np.concatenate(todo), np.concatenate(starts)
        if not len(cells):
            return xs, ok
        x, good = _solve_cells(system, coords, grid[cells[:, 0], cells[:, 1]], starts[:, None])
        if not good.any():
            return xs, ok
        hit = cells[good]
        xs[hit[:, 0], hit[:, 1]] = x[good]
        ok[hit[:, 0], hit[:, 1]] = True
    return xs, ok


def _edge_crossings(system, coords, grid, xs, ok):
    """Refined boundary crossings on grid edges: dict ``edge key -> (a, b)``."""
    n = ok.shape[0]
    keys, inside, outside = [], [], []
    for axis in (0, 1):
        step = (1, 0) if axis == 0 else (0, 1)
        nxt = np.roll(ok, (-step[0], -step[1]), axis=(0, 1))
        for cell in np.argwhere(ok != nxt):
            i, j = cell
            other = ((i + step[0]) % n, (j + step[1]) % n)
            keys.append((int(i), int(j), axis))
            src = (i, j) if ok[i, j] else other
            dst = other if ok[i, j] else (i, j)
            inside.append(src)
            outside.append(dst)
    if not keys:
        return {}
    inside, outside = np.array(inside), np.array(outside)
    a0 = grid[inside[:, 0], inside[:, 1]]
    delta = np.angle(np.exp(1j * (grid[outside[:, 0], outside[:, 1]] - a0)))
    x0 = xs[inside[:, 0], inside[:, 1]]
    lo, hi = np.zeros(len(keys)), np.ones(len(keys))
    for _ in range(30):
        mid = 0.5 * (lo + hi)
        _, good = system.solve(x0, coords, a0 + mid[:, None] * delta)
        lo, hi = np.where(good, mid, lo), np.where(good, hi, mid)
    point = np.angle(np.exp(1j * (a0 + lo[:, None] * delta)))
    return dict(zip(keys, point, strict=True))


def _edge_key(i: int, j: int, edge: int, n: int) -> tuple[int, int, int]:
    """Key of edge ``edge`` of the square at ``(i, j)``: its lower corner and axis."""
    c0, c1 = _CORNERS[edge], _CORNERS[(edge + 1) % 4]
    lo = np.minimum(c0, c1)
    axis = 0 if c0[1] == c1[1] else 1
    return (int((i + lo[0]) % n), int((j + lo[1]) % n), axis)


def _segments(ok: np.ndarray) -> list[tuple[tuple, tuple]]:
    """Marching squares on the periodic mask: pairs of crossed edge keys."""
    n = ok.shape[0]
    bits = sum(
        np.roll(ok, (-c[0], -c[1]), axis=(0, 1)).astype(int) << k for k, c in enumerate(_CORNERS)
    )
    out = []
    for i, j in np.argwhere((bits > 0) & (bits < 15)).tolist():
        for e0, e1 in _CASES[int(bits[i, j])]:
            out.append((_edge_key(i, j, e0, n), _edge_key(i, j, e1, n)))
    return out


def _polylines(segments, points) -> list[np.ndarray]:
    """Chain segments sharing edge keys into polylines of points, split at the torus seam."""
    links: dict[tuple, list[int]] = {}
    for s, (k0, k1) in enumerate(segments):
        links.setdefault(k0, []).append(s)
        links.setdefault(k1, []).append(s)
    used, lines = set(), []
    for start in range(len(segments)):
        if start in used:
            continue
        used.add(start)
        chain = list(segments[start])
        for end in (1, 0):  # grow forward from the last key, then backward from the first
            while True:
                key = chain[-1] if end else chain[0]
                nxt = [s for s in links[key] if s not in used]
                if not nxt:
                    break
                used.add(nxt[0])
                k0, k1 = segments[nxt[0]]
                new = k1 if k0 == key else k0
                chain = chain + [new] if end else [new] + chain
        pts = np.array([points[k] for k in chain])
        cut = np.flatnonzero(np.abs(np.diff(pts, axis=0)).max(axis=1) > np.pi) + 1
        lines.extend(p for p in np.split(pts, cut) if len(p) > 1)
    return lines


def sample_surface(
    linkage: Linkage,
    coords: Sequence[AngleCoordinate] | None = None,
    resolution: int = 48,
    *,
    guesses: int = 6,
    seed: int = 0,
) -> ConfigurationSurface:
    """Sample the configuration surface of a 2-DOF pinned linkage on a torus grid.

    Parameters
    ----------
    linkage : Linkage
    coords : pair of AngleCoordinate, optional
        Default :func:`~.angles.default_coordinates` (a five-bar's two cranks).
    resolution : int
        ``N``, grid points per angle (4 to 512).
    guesses : int
        Random starting placements per cell (besides the current placement).
    seed : int

    Raises
    ------
    ConfigurationError
        Bad coordinates or resolution, not pinned, or not two internal degrees of freedom.
    """
    require_linkage(linkage, "sample_surface")
    coords = tuple(default_coordinates(linkage) if coords is None else coords)
    if len(coords) != 2 or not all(isinstance(c, AngleCoordinate) for c in coords):
        raise ConfigurationError("sample_surface needs two AngleCoordinate objects")
    n = int(resolution)
    if not 4 <= n <= 512:
        raise ConfigurationError(f"resolution must be between 4 and 512, got {resolution}")
    dim = internal_dimension(linkage)
    if dim != 2:
        raise ConfigurationError(
            "sample_surface charts linkages with two internal degrees of freedom; this one "
            f"has {dim}" + (" (use trace_curve)" if dim == 1 else "")
        )
    system = LinkageSystem.build(linkage)
    rng = np.random.default_rng(seed)
    angles = np.linspace(-np.pi, np.pi, n, endpoint=False)
    grid = np.stack(np.meshgrid(angles, angles, indexing="ij"), axis=-1)  # (N, N, 2)
    flat = grid.reshape(-1, 2)
    now = system.unknowns(linkage.vertices)
    starts = np.concatenate(
        [
            np.broadcast_to(now, (len(flat), 1, system.size)),
            system.random_guesses(len(flat) * guesses, rng).reshape(len(flat), guesses, -1),
        ],
        axis=1,
    )
    xs, ok = _solve_cells(system, coords, flat, starts)
    xs, ok = _fill(system, coords, grid, xs.reshape(n, n, -1), ok.reshape(n, n))
    points = _edge_crossings(system, coords, grid, xs, ok)
    boundary = _polylines(_segments(ok), points)
    pos = np.where(ok[..., None, None], system.positions(xs), np.nan)
    return ConfigurationSurface(coords, angles, angles.copy(), ok, pos, boundary)
