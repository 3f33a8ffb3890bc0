"""The backend-neutral drawing primitives: small frozen values in canvas pixels.

A picture is a background colour and a list of primitives in draw order
(:class:`Picture`; :func:`~linkage_widget.draw.scene.build_scene` makes one).
The renderers (:mod:`~linkage_widget.draw.svg`, :mod:`~linkage_widget.draw.raster`,
:mod:`~linkage_widget.draw.canvas`) only translate primitives; they decide
nothing about what is drawn, where or in which colour (the pymunk debug-draw idea).

Conventions of every primitive

- Coordinates are canvas pixels (x right, y down), read-only float64 arrays.
- Colours are CSS hex strings ``"#rrggbb"``; opacity is a separate ``alpha``.
  A style field holds either one value for all items or a tuple/array with one
  value per item (``color``, ``width``, ``alpha``, ``fill`` …); use
  :func:`per_item` to broadcast.
- ``role`` names what the primitive shows (``"rods"``, ``"vertices"``,
  ``"velocities"`` …), for tests, SVG classes and debugging.
- ``len(primitive)`` is its number of items; pictures leave empty ones out.

Examples
--------
>>> seg = Segments([[[0, 0], [10, 0]], [[0, 5], [10, 5]]], "#37474f", (2.0, 4.0))
>>> len(seg), per_item(seg.width, 2).tolist()
(2, [2.0, 4.0])
>>> Polylines([[0, 0], [1, 1], [2, 0], [5, 5], [6, 6]], [3, 2]).split()[1].tolist()
[[5.0, 5.0], [6.0, 6.0]]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from .fields import (
    ColorSpec,
    FloatSpec,
    frozen_copy,
    init_flat,
    is_uniform,
    per_item,
    point_array,
    split_flat,
    style_field,
)

__all__ = [
    "Arcs",
    "Arrows",
    "Disks",
    "Picture",
    "Polygons",
    "Polylines",
    "Primitive",
    "Rects",
    "Segments",
    "Texts",
    "is_uniform",
    "per_item",
    "unit_normals",
]


def unit_normals(
    d: np.ndarray, fallback: tuple[float, float] = (0.0, 0.0)
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""Lengths, unit directions and left normals of pixel vectors (arrows, springs, wide rods).

    Parameters
    ----------
    d : ndarray, shape (k, 2)
        Vectors in pixels.
    fallback : (float, float)
        Direction given to zero vectors.

    Returns
    -------
    length : ndarray, shape (k,)
        :math:`|d_k|`.
    u : ndarray, shape (k, 2)
        :math:`d_k / |d_k|` (``fallback`` where :math:`|d_k| = 0`).
    normal : ndarray, shape (k, 2)
        :math:`(-u_y, u_x)`, :math:`u` turned by a quarter turn.

    Examples
    --------
    >>> length, u, normal = unit_normals(np.array([[3.0, 4.0], [0.0, 0.0]]))
    >>> length.tolist(), u.tolist(), normal[0].tolist()
    ([5.0, 0.0], [[0.6, 0.8], [0.0, 0.0]], [-0.8, 0.6])
    """
    length = np.hypot(d[:, 0], d[:, 1])
    with np.errstate(invalid="ignore", divide="ignore"):
        u = np.where(length[:, None] > 0, d / length[:, None], fallback)
    return length, u, np.column_stack([-u[:, 1], u[:, 0]])


@dataclass(frozen=True, eq=False)
class Segments:
    """Straight line segments (rods, crosshairs, dashed links).

    Attributes
    ----------
    points : ndarray, shape (k, 2, 2)
        ``points[s] = [[x0, y0], [x1, y1]]`` in pixels.
    color : str or tuple of k str
        Stroke colour(s).
    width : float or ndarray, shape (k,)
        Line width(s) in pixels.
    alpha : float or ndarray, shape (k,)
        Opacity in ``[0, 1]``.
    dash : tuple of float
        Dash pattern in pixels (on, off, …); empty for solid lines.
    role : str
    """

    points: np.ndarray
    color: ColorSpec = "#000000"
    width: FloatSpec = 1.0
    alpha: FloatSpec = 1.0
    dash: tuple[float, ...] = ()
    role: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "points", point_array(self.points, (2, 2)))
        object.__setattr__(self, "width", style_field(self.width))
        object.__setattr__(self, "alpha", style_field(self.alpha))

    def __len__(self) -> int:
        return len(self.points)


@dataclass(frozen=True, eq=False)
class Polylines:
    """Open polylines (tracks, springs) stored flat.

    Attributes
    ----------
    points : ndarray, shape (N, 2)
        All vertices of all polylines, one after the other, in pixels.
    counts : ndarray, shape (k,), int
        Points per polyline (each >= 2); ``counts.sum() == N``.
    color, width, alpha, dash, role
        As for :class:`Segments` (per polyline).
    """

    points: np.ndarray
    counts: np.ndarray
    color: ColorSpec = "#000000"
    width: FloatSpec = 1.0
    alpha: FloatSpec = 1.0
    dash: tuple[float, ...] = ()
    role: str = ""

    def __post_init__(self) -> None:
        init_flat(self, minimum=2)
        object.__setattr__(self, "width", style_field(self.width))
        object.__setattr__(self, "alpha", style_field(self.alpha))

    def __len__(self) -> int:
        return len(self.counts)

    def split(self) -> list[np.ndarray]:
        """The polylines as a list of ``(c, 2)`` arrays."""
        return split_flat(self.points, self.counts)


@dataclass(frozen=True, eq=False)
class Polygons:
    """Closed polygons (pin supports, arrow heads) stored flat.

    Attributes
    ----------
    points : ndarray, shape (N, 2)
        All corners, polygon after polygon, in pixels.
    counts : ndarray, shape (k,), int
        Corners per polygon (each >= 3).
    fill : str, tuple of k str, or None
        Fill colour(s); ``None`` for no fill.
    stroke : str or None
        Outline colour; ``None`` for no outline.
    width : float
        Outline width in pixels.
    alpha : float or ndarray, shape (k,)
    role : str
    """

    points: np.ndarray
    counts: np.ndarray
    fill: ColorSpec | None = "#000000"
    stroke: str | None = None
    width: float = 1.0
    alpha: FloatSpec = 1.0
    role: str = ""

    def __post_init__(self) -> None:
        init_flat(self, minimum=3)
        object.__setattr__(self, "alpha", style_field(self.alpha))

    def __len__(self) -> int:
        return len(self.counts)

    def split(self) -> list[np.ndarray]:
        """The polygons as a list of ``(c, 2)`` arrays."""
        return split_flat(self.points, self.counts)


@dataclass(frozen=True, eq=False)
class Disks:
    """Circles, filled and/or outlined (vertices, selection rings).

    Attributes
    ----------
    centers : ndarray, shape (k, 2)
        Centres in pixels.
    radius : float or ndarray, shape (k,)
        Radii in pixels.
    fill : str, tuple of k str, or None
        Fill colour(s); ``None`` for rings.
    stroke : str or None
        Outline colour; ``None`` for no outline.
    width : float
        Outline width in pixels.
    alpha : float
    role : str
    """

    centers: np.ndarray
    radius: FloatSpec = 5.0
    fill: ColorSpec | None = "#000000"
    stroke: str | None = None
    width: float = 1.0
    alpha: float = 1.0
    role: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "centers", point_array(self.centers, (2,)))
        object.__setattr__(self, "radius", style_field(self.radius))

    def __len__(self) -> int:
        return len(self.centers)


@dataclass(frozen=True, eq=False)
class Arrows:
    """Arrows with filled triangular heads; geometry precomputed (see :meth:`from_vectors`).

    Attributes
    ----------
    shafts : ndarray, shape (k, 2, 2)
        Tail to the base of the head, in pixels.
    heads : ndarray, shape (k, 3, 2)
        Triangle corners: tip, then the two base corners.
    color : str or tuple of k str
        One colour per arrow (shaft and head).
    width : float
        Shaft width in pixels.
    alpha : float
    role : str
    """

    shafts: np.ndarray
    heads: np.ndarray
    color: ColorSpec = "#000000"
    width: float = 2.0
    alpha: float = 1.0
    role: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "shafts", point_array(self.shafts, (2, 2)))
        object.__setattr__(self, "heads", point_array(self.heads, (3, 2)))
        if len(self.shafts) != len(self.heads):
            raise ValueError("shafts and heads must have the same length")

    def __len__(self) -> int:
        return len(self.shafts)

    @property
    def tails(self) -> np.ndarray:
        """Arrow tails, shape ``(k, 2)``."""
        return self.shafts[:, 0]

    @property
    def tips(self) -> np.ndarray:
        """Arrow tips, shape ``(k, 2)``."""
        return self.heads[:, 0]

    @classmethod
    def from_vectors(
        cls,
        tails: Any,
        vectors: Any,
        *,
        head_length: float = 10.0,
        head_width: float = 8.0,
        **style: Any,
    ) -> Arrows:
        """Arrows from tails and pixel vectors, heads computed for all arrows at once.

        Parameters
        ----------
        tails, vectors : array_like, shape (k, 2)
            Start points and displacements in pixels (non-zero vectors).
        head_length, head_width : float
            Head size in pixels; short arrows get proportionally smaller heads
            (at most 45 % of the arrow) so the head never overshoots the tail.
        **style
            ``color``, ``width``, ``alpha``, ``role``.
        """
        p = point_array(tails, (2,))
        v = point_array(vectors, (2,))
        length, u, normal = unit_normals(v)
        hl = np.minimum(head_length, 0.45 * length)
        hw = head_width * hl / head_length
        tip = p + v
        base = tip - u * hl[:, None]
        perp = normal * (hw / 2.0)[:, None]
        heads = np.stack([tip, base + perp, base - perp], axis=1)
        shafts = np.stack([p, base], axis=1)
        return cls(shafts, heads, **style)


@dataclass(frozen=True, eq=False)
class Arcs:
    """Circular arcs (fixed angles).

    Each arc runs from ``start`` to ``end`` through increasing angle; angles are
    radians in the pixel frame (0 along +x, increasing clockwise on screen since
    y points down), as canvas ``arc(..., anticlockwise=False)`` and Pillow's
    ``ImageDraw.arc`` use them. ``0 <= end - start <= 2*pi``.

    Attributes
    ----------
    centers : ndarray, shape (k, 2)
    radius : ndarray, shape (k,)
    start, end : ndarray, shape (k,)
    color : str
    width : float
    alpha : float
    role : str
    """

    centers: np.ndarray
    radius: np.ndarray
    start: np.ndarray
    end: np.ndarray
    color: str = "#000000"
    width: float = 1.0
    alpha: float = 1.0
    role: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "centers", point_array(self.centers, (2,)))
        k = len(self.centers)
        for name in ("radius", "start", "end"):
            object.__setattr__(self, name, frozen_copy(per_item(getattr(self, name), k)))

    def __len__(self) -> int:
        return len(self.centers)


@dataclass(frozen=True, eq=False)
class Texts:
    """Text lines sharing one style.

    Attributes
    ----------
    texts : tuple of str
    positions : ndarray, shape (k, 2)
        Anchor points in pixels.
    color : str
    size : float
        Font size in pixels.
    font : {"sans-serif", "monospace"}
    bold : bool
    align : {"left", "center", "right"}
        Horizontal anchor.
    baseline : {"top", "middle", "bottom"}
        Vertical anchor.
    role : str
    halo : str or None
        Colour of an outline round each glyph (a quarter of the size wide, under the
        fill): keeps a label legible where it touches a rod.
    """

    texts: tuple[str, ...]
    positions: np.ndarray
    color: str = "#000000"
    size: float = 14.0
    font: str = "sans-serif"
    bold: bool = False
    align: str = "left"
    baseline: str = "top"
    role: str = ""
    halo: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "texts", tuple(str(t) for t in self.texts))
        object.__setattr__(self, "positions", point_array(self.positions, (2,)))
        if len(self.texts) != len(self.positions):
            raise ValueError("one position per text")
        if self.align not in ("left", "center", "right"):
            raise ValueError(f"align must be left, center or right, got {self.align!r}")
        if self.baseline not in ("top", "middle", "bottom"):
            raise ValueError(f"baseline must be top, middle or bottom, got {self.baseline!r}")
        if self.font not in ("sans-serif", "monospace"):
            raise ValueError(f"font must be sans-serif or monospace, got {self.font!r}")

    def __len__(self) -> int:
        return len(self.texts)

    @property
    def css_font(self) -> str:
        """The CSS ``font`` shorthand, e.g. ``"bold 14px sans-serif"``."""
        return f"{'bold ' if self.bold else ''}{_fmt_px(self.size)}px {self.font}"


@dataclass(frozen=True, eq=False)
class Rects:
    """Axis-aligned rectangles (panel backgrounds).

    Attributes
    ----------
    rects : ndarray, shape (k, 4)
        ``x, y, width, height`` in pixels (top-left corner).
    fill : str or None
    stroke : str or None
    width : float
        Outline width.
    alpha : float
    role : str
    """

    rects: np.ndarray
    fill: str | None = "#ffffff"
    stroke: str | None = None
    width: float = 1.0
    alpha: float = 1.0
    role: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "rects", point_array(self.rects, (4,)))

    def __len__(self) -> int:
        return len(self.rects)


Primitive = Segments | Polylines | Polygons | Disks | Arrows | Arcs | Texts | Rects


def _fmt_px(x: float) -> str:
    return f"{x:g}"


class Picture(Protocol):
    """What a renderer draws: a canvas size, a background and primitives, bottom to top.

    :class:`~linkage_widget.draw.scene.Scene` is the picture
    :func:`~linkage_widget.draw.scene.build_scene` makes; the renderers take any
    object with these attributes, so they need nothing above this module.

    Attributes
    ----------
    width, height : int
        Canvas size in pixels.
    background : str
        Background colour ``"#rrggbb"``; renderers paint it first.
    items : list of Primitive
        Bottom to top, none of them empty.
    """

    width: int
    height: int
    background: str
    items: list[Primitive]
