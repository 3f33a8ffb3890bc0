r"""Angle charts of the configuration-space panel: the curve (1 DOF) and the torus (2 DOF).

Pure, like :mod:`.configuration_panel` (whose theme and picture it uses): :class:`AnglePlot`
places two angles :math:`(a, b) \in [-\pi, \pi]^2` on a square, opposite sides identified;
:func:`curve_static` draws every branch of a configuration curve and rings its singular
points, :func:`surface_static` shades the reachable cells of a torus chart and draws the
boundaries where a rod straightens, :func:`chart_dynamic` the current point and its trail.
A polyline that crosses the chart's seam is cut there (:func:`wrapped_segments`), never
drawn across the chart.

Examples
--------
>>> plot = AnglePlot.fit(200, 200)
>>> bool(np.allclose(plot.to_angles(plot.to_pixel([0.5, -1.0])), [0.5, -1.0]))
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .configuration_panel import DEFAULT_PANEL_THEME, PanelTheme, label_lines
from .primitives import Disks, Primitive, Rects, Segments, Texts

__all__ = ["AnglePlot", "chart_dynamic", "curve_static", "surface_static", "wrapped_segments"]


@dataclass(frozen=True)
class AnglePlot:
    r"""Pixel frame of a chart in two angles :math:`(a, b) \in [-\pi, \pi]^2`.

    :math:`a` runs right, :math:`b` up; the square ``(x0, y0, size)`` (top-left corner
    and side in pixels) is the whole torus chart, opposite sides identified.
    """

    x0: float
    y0: float
    size: float

    @classmethod
    def fit(cls, width: int, height: int) -> AnglePlot:
        """The largest square that leaves room for the title, the ticks and the names."""
        top, bottom, side = 44.0, 40.0, 30.0
        size = max(min(width - 2.0 * side, height - top - bottom), 10.0)
        return cls(0.5 * (width - size), top, size)

    def to_pixel(self, ab: Any) -> np.ndarray:
        """Angles ``(..., 2)`` to pixels ``(..., 2)``."""
        ab = np.asarray(ab, dtype=np.float64)
        u = (ab + math.pi) / (2.0 * math.pi)
        x = self.x0 + self.size * u[..., 0]
        y = self.y0 + self.size * (1.0 - u[..., 1])
        return np.stack([x, y], axis=-1)

    def to_angles(self, xy: Any) -> np.ndarray:
        """Pixels ``(..., 2)`` to angles ``(..., 2)`` (inverse of :meth:`to_pixel`)."""
        xy = np.asarray(xy, dtype=np.float64)
        a = (xy[..., 0] - self.x0) / self.size
        b = 1.0 - (xy[..., 1] - self.y0) / self.size
        return np.stack([a, b], axis=-1) * (2.0 * math.pi) - math.pi

    def inside(self, x: float, y: float) -> bool:
        """Whether pixel ``(x, y)`` lies on the chart."""
        return self.x0 <= x <= self.x0 + self.size and self.y0 <= y <= self.y0 + self.size


def wrapped_segments(ab: np.ndarray, closed: bool = False) -> np.ndarray:
    r"""Consecutive-point segments ``(s, 2, 2)`` of an angle polyline ``(k, 2)``, torus-aware.

    Angles are wrapped into :math:`(-\pi, \pi]`; a step that crosses the seam (jumps by
    more than :math:`\pi` in either angle) is left out instead of drawn across the chart.

    >>> wrapped_segments(np.array([[3.0, 0.0], [3.2, 0.0], [3.3, 0.0]])).shape
    (1, 2, 2)
    """
    ab = np.asarray(ab, dtype=np.float64)
    if closed and len(ab) > 2:
        ab = np.concatenate([ab, ab[:1]])
    w = np.angle(np.exp(1j * ab))
    seg = np.stack([w[:-1], w[1:]], axis=1)
    keep = np.all(np.abs(w[1:] - w[:-1]) < math.pi, axis=1)
    return seg[keep]


def _axes(plot: AnglePlot, labels: tuple[str, str], theme: PanelTheme) -> list[Primitive]:
    """The chart's frame, zero lines, tick labels and the two coordinate names."""
    x0, y0, s = plot.x0, plot.y0, plot.size
    zero = plot.to_pixel([[0.0, -math.pi], [0.0, math.pi], [-math.pi, 0.0], [math.pi, 0.0]])
    f = theme.font_size
    pi = ("-π", "0", "π")
    x_ticks = Texts(
        pi, [(x0, y0 + s + 3), (x0 + s / 2, y0 + s + 3), (x0 + s, y0 + s + 3)],
        theme.text, f - 2, align="center", role="ticks",
    )  # fmt: skip
    y_ticks = Texts(
        pi, [(x0 - 4, y0 + s), (x0 - 4, y0 + s / 2), (x0 - 4, y0)],
        theme.text, f - 2, align="right", baseline="middle", role="ticks",
    )  # fmt: skip
    a_name = Texts(
        (f"{labels[0]} →",), [(x0 + s, y0 + s + f + 4)], theme.text, f, align="right",
        role="axis-labels",
    )  # fmt: skip
    b_name = Texts(
        (f"↑ {labels[1]}",), [(x0, y0 - 3)], theme.text, f, baseline="bottom", role="axis-labels"
    )
    return [
        Rects([[x0, y0, s, s]], fill=None, stroke=theme.frame, width=1.0, role="frame"),
        Segments(zero.reshape(2, 2, 2), theme.frame, 1.0, 0.6, dash=(4.0, 4.0), role="zero"),
        x_ticks,
        y_ticks,
        a_name,
        b_name,
    ]


def curve_static(
    plot: AnglePlot,
    branches: list[tuple[np.ndarray, bool]],
    singular: np.ndarray,
    labels: tuple[str, str],
    title: tuple[str, ...] = (),
    theme: PanelTheme = DEFAULT_PANEL_THEME,
) -> list[Primitive]:
    """A configuration curve: every branch in its own colour, singular points ringed.

    Parameters
    ----------
    branches : list of (ndarray (k, 2), bool)
        Each branch's angles and whether it is closed.
    singular : ndarray, shape (s, 2)
        Angles of the singular placements (where branches cross).
    labels : (str, str)
        The two coordinates' names (horizontal, vertical).
    """
    items = _axes(plot, labels, theme)
    for i, (ab, closed) in enumerate(branches):
        seg = wrapped_segments(ab, closed)
        if len(seg):
            color = theme.branch_colors[i % len(theme.branch_colors)]
            items.append(Segments(plot.to_pixel(seg), color, theme.curve_width, role=f"branch-{i}"))
    sing = np.angle(np.exp(1j * np.reshape(singular, (-1, 2))))
    items.append(
        Disks(
            plot.to_pixel(sing),
            theme.singular_radius,
            fill=None,
            stroke=theme.singular,
            width=2.5,
            role="singular",
        )
    )
    items.append(label_lines(title, theme))
    return items


def _runs(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows, starts and (exclusive) ends of the runs of True along each row of ``mask``."""
    padded = np.pad(mask.astype(np.int8), ((0, 0), (1, 1)))
    d = np.diff(padded, axis=1)
    rows, starts = np.nonzero(d == 1)
    _, ends = np.nonzero(d == -1)
    return rows, starts, ends


def surface_static(
    plot: AnglePlot,
    a: np.ndarray,
    b: np.ndarray,
    reachable: np.ndarray,
    boundary: list[np.ndarray],
    labels: tuple[str, str],
    title: tuple[str, ...] = (),
    theme: PanelTheme = DEFAULT_PANEL_THEME,
) -> list[Primitive]:
    """A torus chart: the reachable cells shaded, the straight-rod boundaries drawn.

    Parameters
    ----------
    a, b : ndarray, shape (N,), (M,)
        Grid angles, increasing.
    reachable : ndarray of bool, shape (N, M)
        ``reachable[i, j]``: some placement has angles ``(a[i], b[j])``.
    boundary : list of ndarray (k, 2)
        Angle polylines where a rod straightens (the region's edges).
    """
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    da = 2.0 * math.pi / len(a) if len(a) else 0.0
    db = 2.0 * math.pi / len(b) if len(b) else 0.0
    # Runs along b (a column of cells at one a) become one rectangle each.
    rows, starts, ends = _runs(np.asarray(reachable, dtype=bool))
    lo = plot.to_pixel(np.stack([a[rows] - da / 2, b[ends - 1] + db / 2], -1))
    hi = plot.to_pixel(np.stack([a[rows] + da / 2, b[starts] - db / 2], -1))
    rects = np.column_stack([lo, hi - lo])
    items: list[Primitive] = [Rects(rects, fill=theme.reachable, role="reachable")]
    items.extend(_axes(plot, labels, theme))
    segs = [wrapped_segments(line) for line in boundary if len(line) >= 2]
    segs = [s for s in segs if len(s)]
    if segs:
        items.append(
            Segments(plot.to_pixel(np.concatenate(segs)), theme.boundary, 2.0, role="boundary")
        )
    items.append(label_lines(title, theme))
    return items


def chart_dynamic(
    plot: AnglePlot,
    point: np.ndarray | None,
    trail: np.ndarray,
    theme: PanelTheme = DEFAULT_PANEL_THEME,
) -> list[Primitive]:
    """The current point ``(2,)`` of an angle chart and its trail ``(k, 2)`` (seam-aware)."""
    items: list[Primitive] = []
    if len(trail) >= 2:
        seg = wrapped_segments(trail)
        items.append(
            Segments(
                plot.to_pixel(seg), theme.trail, theme.trail_width, theme.trail_alpha, role="trail"
            )
        )
    if point is not None:
        p = np.angle(np.exp(1j * np.asarray(point, dtype=np.float64)))
        items.append(
            Disks(
                [plot.to_pixel(p)],
                theme.point_radius,
                fill=theme.point,
                stroke="#ffffff",
                width=2.0,
                role="point",
            )
        )
    return items
