"""What is under the pointer: the nearest vertex, else the nearest rod, in pixels.

Distances are measured on screen (through the one
:class:`~linkage_widget.draw.view.ViewTransform`), so the grab radius is the same
at every zoom level.

Examples
--------
>>> from linkage_widget import Linkage
>>> link = Linkage([[0, 0], [10, 0]], rods=[(0, 1)])
>>> view = ViewTransform(10.0, 0.0, 100.0, 300, 200)
>>> hit_test(link, view, 1.0, 99.0), hit_test(link, view, 50.0, 103.0)
(('vertex', 0), ('rod', 0))
>>> hit_test(link, view, 50.0, 150.0) is None
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .view import ViewTransform

if TYPE_CHECKING:  # pragma: no cover
    from ..model import Linkage

__all__ = ["hit_test"]


def hit_test(
    linkage: Linkage,
    view: ViewTransform,
    px: float,
    py: float,
    *,
    vertex_radius_px: float = 8,
    rod_tolerance_px: float = 5,
    pixels: np.ndarray | None = None,
    depth: np.ndarray | None = None,
) -> tuple[str, int] | None:
    r"""What is under the pixel ``(px, py)``: the nearest vertex, else the nearest rod.

    Parameters
    ----------
    linkage : Linkage
    view : ViewTransform
    px, py : float
        Pixel position (e.g. of a mouse event).
    vertex_radius_px : float
        A vertex within this distance (pixels) is hit; vertices win over rods.
    rod_tolerance_px : float
        A rod whose segment passes within this distance is hit.
    pixels : ndarray, shape (n, 2), optional
        The joints' pixels when they are not ``view.to_pixel(linkage.vertices)`` (a 3-D
        linkage's projection, :mod:`~linkage_widget.draw.view3d`).
    depth : ndarray, shape (n,), optional
        With ``pixels``: among joints within reach the nearest the viewer (largest depth)
        is hit, as it is the one drawn on top.

    Returns
    -------
    ("vertex", i) or ("rod", r) or None
        The nearest hit (lowest index on ties).

    Notes
    -----
    The distance from :math:`q` to the rod :math:`ab` is to the segment, not to its
    line: :math:`t = \operatorname{clip}((q - a)\cdot(b - a) / |b - a|^2, 0, 1)`,
    :math:`d = |a + t (b - a) - q|`.
    """
    q = np.array([px, py], dtype=np.float64)
    P = view.to_pixel(linkage.vertices) if pixels is None else np.asarray(pixels, np.float64)
    if len(P) == 0 or not np.all(np.isfinite(q)):
        return None
    dv = np.hypot(*(P - q).T)
    i = int(np.argmin(dv))
    if dv[i] <= vertex_radius_px:
        if depth is not None:  # the front one of the joints under the pointer
            near = np.flatnonzero(dv <= vertex_radius_px)
            i = int(near[np.argmax(np.asarray(depth)[near])])
        return ("vertex", i)
    rods = np.asarray(linkage.rods, dtype=np.int64).reshape(-1, 2)
    if len(rods) == 0:
        return None
    a, b = P[rods[:, 0]], P[rods[:, 1]]
    ab = b - a
    denom = np.einsum("ij,ij->i", ab, ab)
    # Distance to the segment, not the infinite line: clamp the projection to [0, 1].
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.where(denom > 0, np.einsum("ij,ij->i", q - a, ab) / denom, 0.0)
    t = np.clip(t, 0.0, 1.0)
    dr = np.hypot(*(a + t[:, None] * ab - q).T)
    r = int(np.argmin(dr))
    if dr[r] <= rod_tolerance_px:
        return ("rod", r)
    return None
