"""What is drawn of the linkage, where and in which colour: one function per layer.

Each layer takes the vertices already in pixels (``P``, shape ``(n, 2)``, from
the one :class:`~linkage_widget.draw.view.ViewTransform`), the few inputs it
shows and the :class:`~linkage_widget.draw.theme.Theme`, and returns its
primitives (a list, possibly empty). Layers know nothing about one another or
about the UI state object; :func:`~linkage_widget.draw.scene.build_scene`
picks their inputs and stacks them in draw order. The texts that were drawn over
the drawing (legend, readout, error, hint) are HTML beside the canvas now.

Inputs from the UI may be stale for a frame while the user edits (an index
past the end, a per-rod array of the old length): layers skip them instead of
raising, so a drawing error never freezes the canvas.

Examples
--------
>>> import numpy as np
>>> from linkage_widget.draw.theme import DEFAULT_THEME
>>> P = np.array([[10.0, 10.0], [50.0, 10.0]])
>>> [item.role for item in pins(P, [0], DEFAULT_THEME)]
['pins', 'pins']
>>> rods(P[[[0, 1]]], None, None, DEFAULT_THEME)[0].points.shape
(1, 2, 2)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .fields import ColorSpec, FloatSpec
from .primitives import (
    Arcs,
    Arrows,
    Disks,
    Polygons,
    Polylines,
    Primitive,
    Segments,
    unit_normals,
)
from .theme import Theme
from .view import ViewTransform

__all__ = [
    "angles",
    "attracted_ring",
    "attractor",
    "attractor_link",
    "per_rod",
    "pins",
    "rod_highlight",
    "rods",
    "selection_ring",
    "springs",
    "track_colors",
    "tracks",
    "thinned",
    "valid_index",
    "velocity_arrows",
    "vertices",
]


# ------------------------------------------------------------------ inputs
def valid_index(i: Any, n: int) -> bool:
    """Whether ``i`` is an integer index in ``range(n)`` (``None``, bools, 2.5 are not).

    >>> valid_index(2, 3), valid_index(3, 3), valid_index(True, 3), valid_index(None, 3)
    (True, False, False, False)
    """
    if i is None or isinstance(i, bool):
        return False
    try:
        j = int(i)
    except (TypeError, ValueError):
        return False
    return j == i and 0 <= j < n


def per_rod(values: Any, m: int, dtype: Any) -> np.ndarray | None:
    """``values`` as an ``(m,)`` array, or ``None`` when absent or stale (wrong length)."""
    if values is None:
        return None
    arr = np.asarray(values, dtype=dtype).reshape(-1)
    return arr if arr.shape == (m,) else None


def track_colors(tracked: Sequence[Any], n: int, theme: Theme) -> dict[int, str]:
    """Colour of each valid tracked vertex, from ``theme.track_colors`` in tracked order."""
    valid = [int(v) for v in tracked if valid_index(v, n)]
    palette = theme.track_colors
    return {v: palette[i % len(palette)] for i, v in enumerate(valid)}


# -------------------------------------------------------------------- rods
def rod_highlight(
    P: np.ndarray, rod_ends: np.ndarray, selected: Any, theme: Theme
) -> list[Primitive]:
    """A wide amber band under the selected rod (``rod_ends``: ``(m, 2)`` vertex indices)."""
    if selected is None or not valid_index(selected, len(rod_ends)):
        return []
    seg = P[rod_ends[int(selected)]][None]
    return [
        Segments(seg, theme.rod_highlight, theme.rod_highlight_width, 0.9, role="rod-highlight")
    ]


def rods(
    seg: np.ndarray, stress: np.ndarray | None, redundant: np.ndarray | None, theme: Theme
) -> list[Primitive]:
    r"""Rods: plain, by stress (sign -> colour, size -> width and opacity) or by pebble game.

    Parameters
    ----------
    seg : ndarray, shape (m, 2, 2)
        Rod end points in pixels.
    stress : ndarray, shape (m,), or None
        Signed self-stress, tension > 0, any scale; drawn when all finite.
    redundant : ndarray, shape (m,), bool, or None
        Rods the pebble game finds redundant (coloured; dashed over a stress colouring).
    theme : Theme

    Notes
    -----
    A stress is defined up to scale, so it is shown relative to its largest entry
    :math:`r_k = |s_k| / \max_j |s_j|`: width :math:`2 + 7 r_k` px (rounded to half
    pixels, so the canvas groups rods into a few width classes) and opacity
    :math:`0.45 + 0.55 r_k`; rods with :math:`r_k \le 10^{-6}` count as unstressed.
    """
    m = len(seg)
    if m == 0:
        return []
    if stress is not None and np.all(np.isfinite(stress)):
        big = float(np.max(np.abs(stress)))
        rel = np.abs(stress) / big if big > 0 else np.zeros(m)
        on = rel > 1e-6
        colors = np.where(stress > 0, theme.tension, theme.compression)
        colors = np.where(on, colors, theme.unstressed)
        width = np.where(on, np.round((2.0 + 7.0 * rel) * 2.0) / 2.0, 2.0)
        alpha = np.where(on, 0.45 + 0.55 * rel, 1.0)
        items: list[Primitive] = [Segments(seg, tuple(colors.tolist()), width, alpha, role="rods")]
        if redundant is not None and redundant.any():
            dashed = Segments(
                seg[redundant], theme.redundant, 2.0, dash=(5.0, 4.0), role="rods-redundant"
            )
            items.append(dashed)
        return items
    if redundant is not None:
        colors = np.where(redundant, theme.redundant, theme.rod)
        return [Segments(seg, tuple(colors.tolist()), theme.rod_width, role="rods")]
    return [Segments(seg, theme.rod, theme.rod_width, role="rods")]


def springs(P: np.ndarray, pairs: Sequence[tuple[int, int]], theme: Theme) -> list[Primitive]:
    """Zigzag polylines: straight leads (20 % each end) and 10 alternating teeth.

    Pairs with an index out of range, a vertex twice or coincident ends are skipped.
    """
    n = len(P)
    ij = np.array(
        [(int(i), int(j)) for i, j in pairs if valid_index(i, n) and valid_index(j, n) and i != j],
        dtype=np.int64,
    ).reshape(-1, 2)
    d = P[ij[:, 1]] - P[ij[:, 0]]
    length, _, perp = unit_normals(d)
    ij, d, length, perp = ij[length > 0], d[length > 0], length[length > 0], perp[length > 0]
    if len(ij) == 0:
        return []
    teeth = 10
    s = np.concatenate([[0.0, 0.2], 0.2 + 0.6 * (np.arange(teeth) + 0.5) / teeth, [0.8, 1.0]])
    side = np.concatenate([[0.0, 0.0], np.where(np.arange(teeth) % 2 == 0, 1.0, -1.0), [0.0, 0.0]])
    amp = np.minimum(6.0, 0.2 * length)  # short springs get flatter teeth
    pts = (
        P[ij[:, 0]][:, None, :]
        + d[:, None, :] * s[None, :, None]
        + perp[:, None, :] * (amp[:, None] * side[None, :])[:, :, None]
    )  # (q, len(s), 2)
    return [
        Polylines(pts.reshape(-1, 2), np.full(len(ij), len(s)), theme.spring, 1.8, role="springs")
    ]


# ------------------------------------------------------------------ angles
def angles(P: np.ndarray, triples: Any, theme: Theme) -> list[Primitive]:
    r"""Per fixed angle ``(apex, a, b)``: a translucent wedge and an arc between the arms.

    The arc takes the short way round (sweep :math:`\le \pi`). The wedge makes the
    marked angle readable from the back of a lecture room; the arc is the classic
    textbook mark. Short arms get a smaller mark so it stays between the arms.
    """
    triples = np.asarray(triples, dtype=np.int64).reshape(-1, 3)
    if len(triples) == 0:
        return []
    apex = P[triples[:, 0]]
    a = P[triples[:, 1]] - apex
    b = P[triples[:, 2]] - apex
    ta = np.arctan2(a[:, 1], a[:, 0])
    tb = np.arctan2(b[:, 1], b[:, 0])
    delta = np.mod(tb - ta + np.pi, 2 * np.pi) - np.pi  # in [-pi, pi)
    start = np.mod(np.where(delta >= 0, ta, tb), 2 * np.pi)
    sweep = np.abs(delta)
    arm = np.minimum(np.hypot(a[:, 0], a[:, 1]), np.hypot(b[:, 0], b[:, 1]))
    radius = np.clip(0.45 * arm, 4.0, theme.angle_radius)
    # Wedge: apex + 13 points along the arc, the same count for every angle (one array).
    t = start[:, None] + sweep[:, None] * np.linspace(0.0, 1.0, 13)[None, :]  # (k, 13)
    rim = apex[:, None, :] + radius[:, None, None] * np.stack([np.cos(t), np.sin(t)], axis=-1)
    wedge = np.concatenate([apex[:, None, :], rim], axis=1)  # (k, 14, 2)
    k = len(triples)
    return [
        Polygons(
            wedge.reshape(-1, 2),
            np.full(k, 14),
            theme.angle,
            alpha=theme.angle_fill_alpha,
            role="angles",
        ),
        Arcs(apex, radius, start, start + sweep, theme.angle, theme.angle_width, role="angles"),
    ]


# ----------------------------------------------------------- pins, vertices
def pins(P: np.ndarray, pinned: Any, theme: Theme) -> list[Primitive]:
    """A support triangle hanging from each pinned vertex, on a short ground line."""
    pinned = np.asarray(pinned, dtype=np.int64)
    pinned = pinned[(pinned >= 0) & (pinned < len(P))]
    if len(pinned) == 0:
        return []
    c = P[pinned]  # (q, 2)
    h = theme.pin_size
    tri = np.stack([c, c + [-0.7 * h, h], c + [0.7 * h, h]], axis=1).reshape(-1, 2)
    ground = np.stack([c + [-h, h + 1.5], c + [h, h + 1.5]], axis=1)
    return [
        Polygons(tri, np.full(len(c), 3), theme.pin, role="pins"),
        Segments(ground, theme.pin, 3.0, role="pins"),
    ]


def vertices(P: np.ndarray, tracked: Mapping[int, str], theme: Theme) -> list[Primitive]:
    """Outlined disks; tracked vertices larger and in their track's colour."""
    n = len(P)
    if n == 0:
        return []
    fill: ColorSpec = theme.vertex
    radius: FloatSpec = theme.vertex_radius
    if tracked:
        which = np.fromiter(tracked, dtype=np.intp, count=len(tracked))
        colors = np.full(n, theme.vertex, dtype=object)
        colors[which] = np.array(list(tracked.values()), dtype=object)
        fill = tuple(colors.tolist())
        radius = np.full(n, theme.vertex_radius)
        radius[which] = theme.tracked_radius
    return [Disks(P, radius, fill, theme.vertex_outline, 1.5, role="vertices")]


def selection_ring(P: np.ndarray, selected: Any, theme: Theme) -> list[Primitive]:
    """An amber ring round the selected vertex."""
    if not valid_index(selected, len(P)):
        return []
    center = P[int(selected)][None]
    width = theme.selected_width
    return [
        Disks(center, theme.selected_radius, None, theme.selected, width, role="selected-vertex")
    ]


# ---------------------------------------------------------------- attractor
def attractor_link(
    P: np.ndarray, vertex: int | None, at: np.ndarray | None, theme: Theme
) -> list[Primitive]:
    """A dashed line from the attracted vertex to the attractor (pixel ``at``)."""
    if vertex is None or at is None:
        return []
    link = np.stack([P[vertex], at])[None]
    return [Segments(link, theme.attractor, 1.5, dash=(6.0, 4.0), role="attractor-link")]


def attracted_ring(P: np.ndarray, vertex: int | None, theme: Theme) -> list[Primitive]:
    """A ring in the attractor's colour round the vertex it pulls."""
    if vertex is None:
        return []
    r = theme.vertex_radius + 3.5
    return [Disks(P[vertex][None], r, None, theme.attractor, 2.0, role="attracted-vertex")]


def attractor(at: np.ndarray | None, theme: Theme) -> list[Primitive]:
    """Crosshair with a ring at pixel ``at``: visible on top of rods and vertices."""
    if at is None:
        return []
    s = theme.attractor_size
    cross = np.array([[[-s, 0.0], [s, 0.0]], [[0.0, -s], [0.0, s]]]) + at
    return [
        Segments(cross, theme.attractor, 2.5, role="attractor"),
        Disks(at[None], 0.55 * s, None, theme.attractor, 2.5, role="attractor"),
    ]


# ------------------------------------------------------------------ motion
def velocity_arrows(
    view: ViewTransform, P: np.ndarray, basis: Any, theme: Theme
) -> list[Primitive]:
    """Arrows for every basis vector at every vertex that moves, one colour per basis vector.

    Parameters
    ----------
    view : ViewTransform
        Turns world velocities into pixel vectors.
    P : ndarray, shape (n, 2)
        Vertices in pixels (the arrow tails).
    basis : array_like, shape (d, n, 2), or None
        Infinitesimal motions in world units; skipped when stale or not finite.
    theme : Theme

    Notes
    -----
    All arrows share one scale (the longest is ``theme.velocity_arrow_px``), so
    their lengths compare across vertices and basis vectors; arrows under a pixel
    are left out. At most ``theme.max_velocity_ways`` basis vectors are drawn, and
    ``theme.max_velocity_ways_dense`` on a dense linkage (a Penrose tiling has dozens
    of ways to move: a tangle of colours says nothing; the legend says how many). On a dense linkage
    (more than ``theme.velocity_thin_above`` moving joints) the field is thinned
    (:func:`thinned`): at most one joint per square of ``theme.velocity_spacing_px``,
    the fastest, keeps its arrows. Beyond
    ``theme.max_velocity_arrows`` arrows only the leading basis vectors are drawn
    (the legend says how many): thousands of arrows are unreadable and cost
    bandwidth on every frame.
    """
    B = None if basis is None else np.asarray(basis, dtype=np.float64)
    if B is None or B.size == 0 or B.ndim != 3 or B.shape[1:] != (len(P), 2):
        return []
    if not np.all(np.isfinite(B)):
        return []
    V = view.vector_to_pixel(B)  # (d, n, 2)
    length = np.hypot(V[..., 0], V[..., 1])
    biggest = float(length.max())
    if biggest <= 0:
        return []
    V = V * (theme.velocity_arrow_px / biggest)
    length = length * (theme.velocity_arrow_px / biggest)
    keep = length >= 1.0  # (d, n); pinned vertices have exactly zero
    moving = keep.any(axis=0)
    dense = int(moving.sum()) > theme.velocity_thin_above
    keep &= thinned(P, length.max(axis=0), moving, theme)[None, :]
    per_vector = keep.sum(axis=1)
    shown = max(1, int(np.searchsorted(np.cumsum(per_vector), theme.max_velocity_arrows, "right")))
    shown = min(shown, theme.max_velocity_ways_dense if dense else theme.max_velocity_ways)
    keep[shown:] = False
    which, vert = np.nonzero(keep)
    palette = theme.velocity_colors
    colors = tuple(np.asarray(palette, dtype=object)[which % len(palette)].tolist())
    arrows = Arrows.from_vectors(
        P[vert], V[which, vert], color=colors, width=theme.velocity_width, role="velocities"
    )
    return [arrows]


def thinned(P: np.ndarray, speed: np.ndarray, moving: np.ndarray, theme: Theme) -> np.ndarray:
    """Which joints keep their velocity arrows on a dense linkage, shape (n,) bool.

    With at most ``theme.velocity_thin_above`` moving joints, all of them. Else the
    canvas is cut into squares of ``s = theme.velocity_spacing_px`` pixels and in each
    square only the fastest moving joint (largest ``speed``) keeps its arrows, so
    arrow tails are about ``s`` apart and the field reads as a field. One sort and
    one ``np.unique``, no loop over joints.
    """
    if int(moving.sum()) <= theme.velocity_thin_above:
        return moving
    cells = np.floor(P / theme.velocity_spacing_px).astype(np.int64)
    idx = np.flatnonzero(moving)
    order = idx[np.argsort(-speed[idx], kind="stable")]  # fastest first
    key = cells[order, 0] * 1_000_003 + cells[order, 1]
    _, first = np.unique(key, return_index=True)  # the first of each cell: its fastest
    keep = np.zeros(len(P), dtype=bool)
    keep[order[first]] = True
    return keep


def tracks(
    view: ViewTransform, paths: Mapping[int, Any], tracked: Mapping[int, str], theme: Theme
) -> list[Primitive]:
    """Traced paths: tracked vertices first (in tracked order), then any other recorded path.

    ``paths`` maps a vertex to its world polyline ``(k, 2)``; non-finite points are
    dropped and paths of fewer than two points draw nothing.
    """
    order = list(tracked) + [int(v) for v in paths if int(v) not in tracked]
    lines, colors = [], []
    for i, v in enumerate(order):
        if v not in paths:
            continue
        pts = np.asarray(paths[v], dtype=np.float64).reshape(-1, 2)
        pts = pts[np.all(np.isfinite(pts), axis=1)]
        if len(pts) < 2:
            continue
        lines.append(view.to_pixel(pts))
        colors.append(tracked.get(v, theme.track_colors[i % len(theme.track_colors)]))
    if not lines:
        return []
    counts = [len(line) for line in lines]
    return [
        Polylines(
            np.concatenate(lines), counts, tuple(colors), theme.track_width, 0.85, role="tracks"
        )
    ]
