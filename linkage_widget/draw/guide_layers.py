r"""Sliders and slots drawn as a textbook draws them: a track with a block, a slotted bar.

A **slider** (joint ``j`` on a fixed line through :math:`P` along :math:`u`) is a
ground track, two rails along the line with hatching on the outer side of one (the
ground's mark, as under a pin), and a block between the rails at the joint. The track
is fixed (it does not follow the joint while the mechanism moves) and long enough for
the joint's whole travel: :func:`slider_reach` is the sum of the rod lengths of the
joint's connected part, which bounds how far the joint can get from anything it is
joined to. For a slider-crank with crank :math:`r` and rod :math:`l \ge r` built with
the piston at :math:`x_0`, the track :math:`x_0 \pm (r + l)` covers the stroke
:math:`[l - r, l + r]`.

A **slot** ``(a, b, c)`` (joint ``c`` on the line through ``a`` and ``b``) is a
slotted bar along ``a``-``b``: a bar, and the slot cut through it, long enough to hold
``a``, ``b`` and ``c`` with a joint's radius to spare; the pin is the joint ``c`` drawn
in it.

Like every layer (:mod:`.layers`) these take pixels and the theme and return
primitives; stale indices (an edit under way) are skipped.

>>> from linkage_widget.draw.theme import DEFAULT_THEME
>>> P = np.array([[0.0, 0.0], [40.0, 0.0], [100.0, 0.0]])
>>> items = sliders(P, [2], np.array([[100.0, 0.0]]), np.array([[1.0, 0.0]]), [80.0],
...                 DEFAULT_THEME)
>>> [i.role for i in items]
['sliders', 'sliders', 'slider-blocks']
>>> items[0].points[:, :, 0].min().item(), items[0].points[:, :, 0].max().item()  # 100 +- 80
(20.0, 180.0)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .primitives import Polygons, Primitive, Segments
from .theme import DEFAULT_THEME, Theme
from .view import ViewTransform

if TYPE_CHECKING:  # pragma: no cover
    from ..model import Linkage

__all__ = ["GUIDE_ROLES", "guide_hit", "linkage_sliders", "slider_reach", "sliders", "slots"]

#: The roles drawn here: the tracks (rails and hatching), the blocks, the slotted bars.
GUIDE_ROLES = ("sliders", "slots", "slider-blocks")

HATCH_PX = 9.0  # the spacing of the ground's hatch marks along a track
_MAX_HATCHES = 400  # per track: a long track at a large zoom is not drawn tick by tick


def slider_reach(rods: np.ndarray, vertices: np.ndarray, joints: Any) -> np.ndarray:
    """How far each slider's joint can travel along its line, at most (world units), ``(s,)``.

    The sum of the rod lengths of the joint's connected part (rods only; a joint
    without rods: 0), which no path of the joint away from a joint of that part can exceed.
    """
    n = len(vertices)
    parent = np.arange(n)

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = int(parent[i])
        return i

    rods = np.asarray(rods, dtype=np.int64).reshape(-1, 2)
    for i, j in rods.tolist():
        parent[root(i)] = root(j)
    lengths = np.hypot(*(vertices[rods[:, 0]] - vertices[rods[:, 1]]).T)
    part = np.array([root(i) for i in rods[:, 0].tolist()], dtype=np.int64)
    return np.array([float(lengths[part == root(int(j))].sum()) for j in joints], dtype=np.float64)


def _frames(direction: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Unit directions and their left normals of ``(k, 2)`` pixel vectors."""
    d = np.asarray(direction, dtype=np.float64).reshape(-1, 2)
    length = np.hypot(d[:, 0], d[:, 1])
    u = d / np.where(length > 0, length, 1.0)[:, None]
    return u, np.stack([-u[:, 1], u[:, 0]], axis=1)


def _boxes(centre: np.ndarray, u: np.ndarray, v: np.ndarray, half: Any, width: Any) -> Any:
    """Rectangles along ``u``: ``centre +- half u +- width v``, flat ``(4k, 2)`` corners."""
    h = np.asarray(half, dtype=np.float64).reshape(-1, 1) * u
    w = np.asarray(width, dtype=np.float64).reshape(-1, 1) * v
    corners = [centre - h - w, centre + h - w, centre + h + w, centre - h + w]
    return np.stack(corners, axis=1).reshape(-1, 2)


def sliders(
    P: np.ndarray,
    joints: Any,
    points: np.ndarray,
    directions: np.ndarray,
    reach: Any,
    theme: Theme,
) -> list[Primitive]:
    """Each slider's track (rails, hatching) and its block at the joint, in pixels.

    The block (role ``slider-blocks``) comes last: the scene draws it over the rods.

    Parameters
    ----------
    P : ndarray, shape (n, 2)
        The joints in pixels.
    joints : sequence of int, length s
        The joint of each slider.
    points, directions : ndarray, shape (s, 2)
        A point of each line and its direction, in pixels (the direction need not be unit).
    reach : sequence of float, length s
        Half the track's length in pixels (:func:`slider_reach` times the scale).
    """
    joints = np.asarray(joints, dtype=np.int64).reshape(-1)
    ok = (joints >= 0) & (joints < len(P))
    if not ok.any():
        return []
    u, v = _frames(np.asarray(directions)[ok])
    at, centre = P[joints[ok]], np.asarray(points, dtype=np.float64).reshape(-1, 2)[ok]
    block_h = theme.vertex_radius + 1.0  # half the block's height
    half = np.maximum(np.asarray(reach, dtype=np.float64).reshape(-1)[ok], 4.0 * block_h)
    gap = block_h + 1.5  # the rails just clear the block
    ends = half[:, None] * u
    rails = [np.stack([centre - ends + s * v, centre + ends + s * v], 1) for s in (gap, -gap)]
    hatch = []
    for c, uk, vk, hk in zip(centre, u, v, half, strict=True):
        k = min(int(2.0 * hk / HATCH_PX), _MAX_HATCHES)
        out = vk if (vk[1], -vk[0]) > (0.0, 0.0) else -vk  # the lower rail (pixels: y down)
        foot = c + gap * out + (np.linspace(-hk, hk, k + 1)[:, None] * uk)
        hatch.append(np.stack([foot, foot + 6.0 * (out - uk)], axis=1))  # slanted, outside
    block = _boxes(at, u, v, 1.6 * block_h, block_h)
    fill, k = theme.unstressed, np.full(len(at), 4)
    return [
        Segments(np.concatenate(rails), theme.pin, 2.0, role="sliders"),
        Segments(np.concatenate(hatch), theme.pin, 1.2, role="sliders"),
        Polygons(block, k, fill, theme.pin, 2.0, role="slider-blocks"),
    ]


def _slot_frames(P: np.ndarray, triples: Any, theme: Theme) -> tuple[np.ndarray, ...]:
    """Each valid slot's index, the slot's centre, direction, normal and half-length (pixels)."""
    abc = np.asarray(triples, dtype=np.int64).reshape(-1, 3)
    ok = np.flatnonzero(np.all((abc >= 0) & (abc < len(P)), axis=1))
    abc = abc[ok]
    pa, pb, pc = P[abc[:, 0]], P[abc[:, 1]], P[abc[:, 2]]
    u, v = _frames(pb - pa)
    ends = np.stack([np.zeros(len(abc)), ((pb - pa) * u).sum(1), ((pc - pa) * u).sum(1)], 1)
    r = theme.vertex_radius + 2.0  # room for a joint at either end
    lo, hi = ends.min(axis=1) - r, ends.max(axis=1) + r
    return ok, pa + (0.5 * (lo + hi))[:, None] * u, u, v, 0.5 * (hi - lo)


def slots(P: np.ndarray, triples: Any, theme: Theme) -> list[Primitive]:
    """Each slot ``(a, b, c)`` as a bar along ``a``-``b`` with the slot ``c`` slides in."""
    ok, centre, u, v, half = _slot_frames(P, triples, theme)
    if len(ok) == 0:
        return []
    k = np.full(len(ok), 4)
    bar = _boxes(centre, u, v, half + 3.0, theme.vertex_radius + 3.0)
    cut = _boxes(centre, u, v, half, theme.vertex_radius - 1.0)
    return [
        Polygons(bar, k, theme.rod, theme.rod, 1.0, alpha=0.35, role="slots"),
        Polygons(cut, k, theme.background, theme.rod, 1.5, role="slots"),
    ]


def _slider_frames(linkage: Linkage, view: ViewTransform) -> tuple[np.ndarray, ...]:
    """The sliders' joints, and their lines' points, directions and reach in pixels."""
    g = linkage.guides
    points = g.slider_points
    at = view.to_pixel(points)
    along = view.to_pixel(points + g.slider_directions) - at  # the y axis flips
    reach = slider_reach(linkage.rods, linkage.vertices, g.slider_joints) * view.scale
    return g.slider_joints, at, along, reach


def linkage_sliders(
    linkage: Linkage, view: ViewTransform, P: np.ndarray, theme: Theme
) -> list[Primitive]:
    """:func:`sliders` of ``linkage`` under ``view`` (``P``: its joints in pixels)."""
    if linkage.guides.n_sliders == 0:
        return []
    return sliders(P, *_slider_frames(linkage, view), theme)


def guide_hit(
    linkage: Linkage,
    view: ViewTransform,
    px: float,
    py: float,
    *,
    tolerance_px: float = 4.0,
    theme: Theme = DEFAULT_THEME,
) -> tuple[str, int] | None:
    """The slider (its track or block) or the slot (its bar) drawn under pixel ``(px, py)``.

    ``("slider", s)``, ``("slot", t)`` or ``None``; a slider wins over a slot, the
    lowest index on ties. Planar linkages only (a 3-D one has neither).
    """
    if linkage.guides.is_empty() or linkage.dim != 2:
        return None
    q = np.array([px, py], dtype=np.float64)
    P = view.to_pixel(linkage.vertices)
    block_h = theme.vertex_radius + 1.0
    if linkage.guides.n_sliders:
        joints, at, along, reach = _slider_frames(linkage, view)
        u, v = _frames(along)
        half = np.maximum(reach, 4.0 * block_h) + tolerance_px
        side = block_h + 7.5 + tolerance_px  # the rails and the hatching
        on = _inside(q - at, u, v, half, side)
        on |= _inside(q - P[joints], u, v, 1.6 * block_h + tolerance_px, block_h + tolerance_px)
        if on.any():
            return ("slider", int(np.flatnonzero(on)[0]))
    ok, centre, u, v, half = _slot_frames(P, linkage.slots, theme)
    on = _inside(
        q - centre, u, v, half + 3.0 + tolerance_px, theme.vertex_radius + 3.0 + tolerance_px
    )
    return ("slot", int(ok[np.flatnonzero(on)[0]])) if on.any() else None


def _inside(d: np.ndarray, u: np.ndarray, v: np.ndarray, half: Any, side: Any) -> np.ndarray:
    """Whether offsets ``d`` ``(k, 2)`` lie in rectangles ``half`` along ``u``, ``side`` across."""
    return (np.abs((d * u).sum(axis=1)) <= half) & (np.abs((d * v).sum(axis=1)) <= side)
