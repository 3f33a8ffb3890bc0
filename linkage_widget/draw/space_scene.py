r"""A 3-D linkage in the 2-D scene: its image plane, and depth cues on rods and joints.

:func:`~linkage_widget.draw.scene.build_scene` draws a spatial linkage with the same
layers as a planar one: :func:`flatten` projects every world-space input of the scene
state through the :class:`~linkage_widget.draw.view3d.Camera` (joints, tracks, the
attractor, the velocity basis and branch directions by the projection's derivative) into
the image plane, which the one 2-D view then maps to pixels. Loads, reactions and motors
are planar ideas and are left out in space.

Depth cues (:func:`depth_cued`): the painter's order, far to near, for rods and joints,
and nearer rods thicker and darker. With :math:`t \in [0, 1]` the depth rank's share
between the farthest (0) and the nearest (1) rod midpoint, a rod's width is
:math:`w\,(0.55 + 0.9\,t)` and its colour the theme's rod colour mixed with the
background by :math:`0.6\,(1 - t)`; joints' radii scale by :math:`0.75 + 0.5\,t`.

>>> import numpy as np
>>> depth_share(np.array([2.0, -1.0, 0.5])).tolist()
[1.0, 0.0, 0.5]
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from .primitives import Disks, Primitive, Segments
from .theme import Theme
from .view3d import Camera

__all__ = ["depth_cued", "depth_share", "flatten", "mix"]


def depth_share(depth: np.ndarray) -> np.ndarray:
    """Depths rescaled to ``[0, 1]``: 0 the farthest, 1 the nearest (all 1 when flat)."""
    d = np.asarray(depth, dtype=np.float64)
    if len(d) == 0:
        return d
    lo, hi = float(d.min()), float(d.max())
    return (d - lo) / (hi - lo) if hi > lo else np.ones_like(d)


def mix(color: str, background: str, amount: np.ndarray) -> tuple[str, ...]:
    """``#rrggbb`` ``color`` mixed toward ``background`` by each of ``amount`` (0: the colour)."""
    a = np.array([int(color[i : i + 2], 16) for i in (1, 3, 5)], dtype=np.float64)
    b = np.array([int(background[i : i + 2], 16) for i in (1, 3, 5)], dtype=np.float64)
    rgb = np.rint(a + np.asarray(amount, dtype=np.float64)[:, None] * (b - a)).astype(int)
    return tuple(f"#{r:02x}{g:02x}{bl:02x}" for r, g, bl in rgb)


def flatten(camera: Camera, vertices: np.ndarray, state: Any) -> tuple[Any, np.ndarray, np.ndarray]:
    """The scene state with world-space inputs in the image plane, image points, depths.

    Parameters
    ----------
    camera : Camera
    vertices : ndarray, shape (n, 3)
    state : SceneState
        Its ``tracks`` (``(k, 3)`` each), ``attractor`` (3 numbers), ``velocity_basis``
        (``(d, n, 3)``) and ``branches`` (``(k, n, 3)``) are projected; ``loads``,
        ``reactions`` and ``motors`` dropped.

    Returns
    -------
    state : SceneState
    image : ndarray, shape (n, 2)
        Image-plane points, world units.
    depth : ndarray, shape (n,)
        Larger is nearer the viewer.
    """
    image, depth = camera.image(vertices)
    tracks = {v: camera.image(p)[0] for v, p in state.tracks.items() if np.shape(p)[-1:] == (3,)}
    at = state.attractor
    at = tuple(camera.image(at)[0][0]) if at is not None and len(at) == 3 else None
    flat = replace(
        state,
        tracks=tracks,
        attractor=at,
        velocity_basis=_vectors(camera, vertices, state.velocity_basis),
        branches=_vectors(camera, vertices, state.branches),
        loads=(),
        reactions=(),
        motors=(),
        synthesis_curves=(),  # a planar tool's curves (in the plane of a planar linkage)
    )
    return flat, image, depth


def _vectors(camera: Camera, vertices: np.ndarray, basis: Any) -> np.ndarray | None:
    """A ``(k, n, 3)`` set of motions in the image plane, ``None`` when absent or misshapen."""
    if basis is None:
        return None
    B = np.asarray(basis, dtype=np.float64)
    if B.ndim != 3 or B.shape[1:] != vertices.shape:
        return None
    return camera.project_vectors(vertices, B)


def depth_cued(
    items: list[Primitive], rod_ends: np.ndarray, depth: np.ndarray, theme: Theme
) -> list[Primitive]:
    """Rods and joints of ``items`` painted far to near, nearer rods thicker and darker.

    ``rods`` are re-ordered by the depth of their midpoints (a plain colour is mixed
    toward the background; a stress or pebble colouring keeps its colours and only
    thickens); ``vertices`` are re-ordered by depth with radii scaled. Other items pass.
    """
    out: list[Primitive] = []
    for item in items:
        if isinstance(item, Segments) and item.role == "rods" and len(rod_ends):
            out.append(_cued_rods(item, depth[rod_ends].mean(axis=1), theme))
        elif isinstance(item, Disks) and item.role == "vertices":
            out.append(_cued_joints(item, depth))
        else:
            out.append(item)
    return out


def _cued_rods(rods: Segments, mid_depth: np.ndarray, theme: Theme) -> Segments:
    order = np.argsort(mid_depth, kind="stable")  # far first: the painter's order
    t = depth_share(mid_depth)[order]
    m = len(order)
    if isinstance(rods.color, str):
        color: Any = mix(rods.color, theme.background, 0.6 * (1.0 - t))
    else:
        color = tuple(np.asarray(rods.color, dtype=object)[order].tolist())
    width = np.broadcast_to(np.asarray(rods.width, dtype=np.float64), (m,))[order]
    alpha = np.broadcast_to(np.asarray(rods.alpha, dtype=np.float64), (m,))[order]
    return Segments(
        rods.points[order], color, width * (0.55 + 0.9 * t), alpha, rods.dash, role=rods.role
    )


def _cued_joints(joints: Disks, depth: np.ndarray) -> Disks:
    order = np.argsort(depth, kind="stable")
    t = depth_share(depth)[order]
    n = len(order)
    radius = np.broadcast_to(np.asarray(joints.radius, dtype=np.float64), (n,))[order]
    fill = joints.fill
    if fill is not None and not isinstance(fill, str):
        fill = tuple(np.asarray(fill, dtype=object)[order].tolist())
    return Disks(
        joints.centers[order],
        radius * (0.75 + 0.5 * t),
        fill,
        joints.stroke,
        joints.width,
        joints.alpha,
        role=joints.role,
    )
