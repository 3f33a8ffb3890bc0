"""The one view transform: world coordinates (y up) to canvas pixels (y down) and back.

Every module that converts between world units and pixels goes through
:class:`ViewTransform`; nothing else knows the formula. With scale ``s`` and
offset ``(ox, oy)``::

    px = ox + s * x
    py = oy - s * y          # pixel y grows downwards, world y upwards

The transform is a frozen dataclass: zooming, panning and resizing return a
new transform, so a widget can keep the previous one (undo, animation) and
comparisons are plain ``==``.

Device pixels
-------------
The transform's pixels are CSS pixels (what the page lays out, what ipyevents
reports). A hi-DPI screen or a projector has ``r`` device pixels per CSS pixel
(``window.devicePixelRatio``); the canvas's backing store is then
:func:`backing_size` (``r`` times larger each way), the drawing is scaled once by
:func:`device_matrix`, and positions the canvas reports in backing-store pixels
(ipycanvas) come back to CSS pixels through :func:`css_from_device`::

    device = r * css

Examples
--------
>>> import numpy as np
>>> v = ViewTransform.fit([[0, 0], [100, 50]], width=400, height=300, margin=0.1)
>>> v.to_pixel([0, 0]).tolist(), v.to_pixel([100, 50]).tolist()
([40.0, 230.0], [360.0, 70.0])
>>> bool(np.allclose(v.to_world(v.to_pixel([12.5, -3.0])), [12.5, -3.0]))
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from .._checks import finite, non_negative, positive

__all__ = [
    "MAX_PIXEL_RATIO",
    "MAX_SCALE",
    "MIN_SCALE",
    "ViewTransform",
    "backing_size",
    "css_from_device",
    "device_matrix",
]

#: Bounds on ``scale`` (pixels per world unit). Wide enough for linkages in
#: metres (scale ~ 100s) and in the 2007 program's pixel-like units (scale ~ 1),
#: narrow enough that zooming cannot reach overflow or a degenerate transform.
MIN_SCALE = 1e-4
MAX_SCALE = 1e6


#: The largest device pixel ratio drawn at: 4 (a phone is 3); the backing store of a
#: 640 x 480 canvas is then 2560 x 1920 pixels, 20 MB of RGBA.
MAX_PIXEL_RATIO = 4.0


def backing_size(width: int, height: int, pixel_ratio: float) -> tuple[int, int]:
    """The canvas backing store for a ``width`` x ``height`` CSS-pixel canvas at ``pixel_ratio``.

    >>> backing_size(640, 480, 2.0), backing_size(640, 480, 1.5), backing_size(3, 3, 0.1)
    ((1280, 960), (960, 720), (1, 1))
    """
    r = float(pixel_ratio)
    return max(1, int(round(width * r))), max(1, int(round(height * r)))


def device_matrix(pixel_ratio: float) -> tuple[float, float, float, float, float, float]:
    """The canvas transform ``(a, b, c, d, e, f)`` that draws CSS pixels on the backing store.

    ``setTransform(a, b, c, d, e, f)`` maps ``(x, y)`` to ``(a x + c y + e, b x + d y + f)``:
    a uniform scale by the ratio.

    >>> device_matrix(2.0)
    (2.0, 0.0, 0.0, 2.0, 0.0, 0.0)
    """
    r = float(pixel_ratio)
    return (r, 0.0, 0.0, r, 0.0, 0.0)


def css_from_device(x: float, y: float, pixel_ratio: float) -> tuple[float, float]:
    """A backing-store position (what ipycanvas reports) in CSS pixels (what the view uses).

    >>> css_from_device(300.0, 101.0, 2.0)
    (150.0, 50.5)
    """
    r = float(pixel_ratio)
    return float(x) / r, float(y) / r


def _clamp_scale(scale: float) -> float:
    return float(min(max(scale, MIN_SCALE), MAX_SCALE))


@dataclass(frozen=True)
class ViewTransform:
    """World (y up) <-> pixel (y down) similarity transform of a ``width`` x ``height`` canvas.

    Parameters
    ----------
    scale : float
        Pixels per world unit, in ``[MIN_SCALE, MAX_SCALE]`` (else ``ValueError``).
    offset_x, offset_y : float
        Pixel position of the world origin.
    width, height : int
        Canvas size in pixels (>= 1).
    """

    scale: float = 1.0
    offset_x: float = 0.0
    offset_y: float = 0.0
    width: int = 700
    height: int = 500

    def __post_init__(self) -> None:
        if int(self.width) < 1 or int(self.height) < 1:
            raise ValueError(f"width and height must be >= 1, got {self.width}x{self.height}")
        # Normalise types so that equality and repr do not depend on what the caller passed.
        scale = positive(self.scale, "scale")
        if not MIN_SCALE <= scale <= MAX_SCALE:  # outside, a zoom or a pan overflows
            raise ValueError(
                f"scale must be in [{MIN_SCALE:g}, {MAX_SCALE:g}] pixels per world unit, "
                f"got {scale!r}"
            )
        object.__setattr__(self, "scale", scale)
        object.__setattr__(self, "offset_x", finite(self.offset_x, "offset_x"))
        object.__setattr__(self, "offset_y", finite(self.offset_y, "offset_y"))
        object.__setattr__(self, "width", int(self.width))
        object.__setattr__(self, "height", int(self.height))

    # ------------------------------------------------------------ building
    @classmethod
    def fit(
        cls,
        points: Any,
        width: int,
        height: int,
        margin: float = 0.1,
        *,
        top: float = 0.0,
        bottom: float = 0.0,
    ) -> ViewTransform:
        """The transform that shows all ``points`` centred, with a margin on every side.

        Parameters
        ----------
        points : array_like, shape (k, 2)
            World points to show; non-finite rows are ignored. ``k = 0`` gives
            scale 1 with the world origin at the canvas centre; a single point
            (or coincident points) gives scale 1 centred on it.
        width, height : int
            Canvas size in pixels.
        margin : float
            Fraction of the width (height) kept free on the left and right
            (top and bottom), in ``[0, 0.5)``.
        top, bottom : float, keyword-only
            Pixels reserved above and below (an info panel, a hint line); the
            margin applies to the height that is left.

        Returns
        -------
        ViewTransform
            Every point maps into ``[margin*width, (1-margin)*width] x
            [margin*height, (1-margin)*height]``; the tighter axis touches it.
        """
        if not non_negative(margin, "margin") < 0.5:
            raise ValueError(f"margin must be in [0, 0.5), got {margin!r}")
        width, height = int(width), int(height)
        top, bottom = non_negative(top, "top"), non_negative(bottom, "bottom")
        if not top + bottom < height:
            raise ValueError(f"top and bottom must leave room, got {top!r}, {bottom!r}")
        inner = height - top - bottom
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        pts = pts[np.all(np.isfinite(pts), axis=1)]
        if len(pts) == 0:
            return cls(1.0, width / 2.0, top + inner / 2.0, width, height)
        lo, hi = pts.min(axis=0), pts.max(axis=0)
        extent = hi - lo
        usable = np.array([width, inner], dtype=np.float64) * (1.0 - 2.0 * margin)
        # Subnormal extents overflow to inf; the clamp below turns that into MAX_SCALE.
        with np.errstate(divide="ignore", over="ignore"):
            ratios = np.where(extent > 0, usable / np.where(extent > 0, extent, 1.0), np.inf)
        scale = float(ratios.min())
        if not math.isfinite(scale):  # one point, or all points coincide
            scale = 1.0
        scale = _clamp_scale(scale)
        cx, cy = (lo + hi) / 2.0
        return cls(scale, width / 2.0 - scale * cx, top + inner / 2.0 + scale * cy, width, height)

    # ---------------------------------------------------------- converting
    def to_pixel(self, xy: Any) -> np.ndarray:
        """World points to pixels.

        Parameters
        ----------
        xy : array_like, shape (..., 2)
            World coordinates (y up).

        Returns
        -------
        ndarray, shape (..., 2), float64
            Pixel coordinates (y down).
        """
        p = np.asarray(xy, dtype=np.float64)
        out = np.empty(p.shape, dtype=np.float64)
        out[..., 0] = self.offset_x + self.scale * p[..., 0]
        out[..., 1] = self.offset_y - self.scale * p[..., 1]
        return out

    def to_world(self, px: Any) -> np.ndarray:
        """Pixels to world points; the inverse of :meth:`to_pixel`.

        Parameters
        ----------
        px : array_like, shape (..., 2)
            Pixel coordinates (y down).

        Returns
        -------
        ndarray, shape (..., 2), float64
            World coordinates (y up).
        """
        p = np.asarray(px, dtype=np.float64)
        out = np.empty(p.shape, dtype=np.float64)
        out[..., 0] = (p[..., 0] - self.offset_x) / self.scale
        out[..., 1] = (self.offset_y - p[..., 1]) / self.scale
        return out

    def vector_to_pixel(self, v: Any) -> np.ndarray:
        """World displacement vectors to pixel displacements (scale, flip y; no offset).

        Parameters
        ----------
        v : array_like, shape (..., 2)

        Returns
        -------
        ndarray, shape (..., 2), float64
        """
        d = np.asarray(v, dtype=np.float64)
        out = np.empty(d.shape, dtype=np.float64)
        out[..., 0] = self.scale * d[..., 0]
        out[..., 1] = -self.scale * d[..., 1]
        return out

    def length_to_pixel(self, length: float) -> float:
        """A world length (a distance, a radius) in pixels: ``scale * length``.

        >>> ViewTransform(scale=20.0).length_to_pixel(0.5)
        10.0
        """
        return self.scale * float(length)

    def length_to_world(self, pixels: float) -> float:
        """A pixel length (a grab radius, a drag step) in world units: ``pixels / scale``.

        >>> ViewTransform(scale=20.0).length_to_world(10.0)
        0.5
        """
        return float(pixels) / self.scale

    def world_bounds(self) -> tuple[float, float, float, float]:
        """The visible world rectangle ``(xmin, ymin, xmax, ymax)``."""
        (x0, y1), (x1, y0) = self.to_world([[0.0, 0.0], [self.width, self.height]])
        return float(x0), float(y0), float(x1), float(y1)

    # ------------------------------------------------------------ changing
    def zoomed(self, px: float, py: float, factor: float) -> ViewTransform:
        """Zoom by ``factor`` about the pixel ``(px, py)``.

        The world point under ``(px, py)`` stays under it. The new scale is
        clamped to ``[MIN_SCALE, MAX_SCALE]``, so zooming beyond the bounds
        just stops (still about the same point). So does a zoom whose offsets would
        overflow (a view whose origin lies ~1e308 pixels away): this view is returned.
        """
        factor = positive(factor, "zoom factor")
        with np.errstate(over="ignore", invalid="ignore"):
            wx, wy = self.to_world([px, py])
            scale = _clamp_scale(self.scale * factor)
            ox, oy = px - scale * wx, py + scale * wy
        if not (math.isfinite(ox) and math.isfinite(oy)):
            return self
        return replace(self, scale=scale, offset_x=ox, offset_y=oy)

    def panned(self, dx_px: float, dy_px: float) -> ViewTransform:
        """Move the picture by ``(dx_px, dy_px)`` pixels (what a drag of the background does).

        A pan whose offsets would overflow returns this view.
        """
        ox, oy = self.offset_x + float(dx_px), self.offset_y + float(dy_px)
        if not (math.isfinite(ox) and math.isfinite(oy)):
            return self
        return replace(self, offset_x=ox, offset_y=oy)

    def showing(
        self, points: Any, margin: float = 0.0, *, top: float = 0.0, bottom: float = 0.0
    ) -> ViewTransform:
        r"""The least change of this view that shows every one of ``points``.

        The box :math:`B = [m, w - m] \times [t + m, h - b - m]` (``m`` = ``margin``,
        ``t``/``b`` = ``top``/``bottom``, pixels) must hold the points' pixel bounding box
        :math:`[l, u]`. Already inside: this view, unchanged. Else, when the box fits at
        this scale (:math:`u - l \le` the box's size on both axes), a pan by the
        smallest shift; else a zoom out about the box's centre by
        :math:`f = \min_i (B_i / (u_i - l_i)) < 1`, then that shift. Never zooms in,
        so a user's zoom survives as long as the points fit.

        Parameters
        ----------
        points : array_like, shape (k, 2)
            World points; non-finite rows are ignored (none left: unchanged).
        margin, top, bottom : float
            Pixels kept free inside the edges, and reserved above and below.

        >>> v = ViewTransform(scale=2.0, width=100, height=100)
        >>> v.showing([[10.0, -10.0]]) == v     # pixel (20, 20): inside
        True
        >>> w = v.showing([[60.0, -10.0]], margin=10.0)   # pixel (120, 20): pan left
        >>> w.to_pixel([60.0, -10.0]).tolist(), w.scale
        ([90.0, 20.0], 2.0)
        >>> z = v.showing([[0.0, 0.0], [100.0, 0.0]], margin=10.0)  # 200 px wide: zoom
        >>> z.to_pixel([[0.0, 0.0], [100.0, 0.0]]).tolist(), z.scale   # out, centred
        ([[10.0, 50.0], [90.0, 50.0]], 0.8)
        """
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        pts = pts[np.all(np.isfinite(pts), axis=1)]
        if len(pts) == 0:
            return self
        m = non_negative(margin, "margin")
        top, bottom = non_negative(top, "top"), non_negative(bottom, "bottom")
        box_lo = np.array([m, top + m])
        box_hi = np.array([self.width - m, self.height - bottom - m])
        room = np.maximum(box_hi - box_lo, 1.0)
        px = self.to_pixel(pts)
        lo, hi = px.min(axis=0), px.max(axis=0)
        if np.all(lo >= box_lo) and np.all(hi <= box_hi):
            return self
        view, span = self, hi - lo
        if np.any(span > room):  # too big at this scale: centre the box, zoom out about it
            factor = float(np.min(room / np.maximum(span, 1e-300)))
            centre = (box_lo + box_hi) / 2.0
            view = self.panned(*(centre - (lo + hi) / 2.0)).zoomed(*centre, factor)
            px = view.to_pixel(pts)
            lo, hi = px.min(axis=0), px.max(axis=0)
        shift = np.where(lo < box_lo, box_lo - lo, np.where(hi > box_hi, box_hi - hi, 0.0))
        return view.panned(float(shift[0]), float(shift[1]))

    def resized(self, width: int, height: int) -> ViewTransform:
        """The same view on a canvas of a new size, keeping the world point at the centre."""
        dx = (int(width) - self.width) / 2.0
        dy = (int(height) - self.height) / 2.0
        return replace(
            self,
            offset_x=self.offset_x + dx,
            offset_y=self.offset_y + dy,
            width=int(width),
            height=int(height),
        )
