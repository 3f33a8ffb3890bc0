r"""The configuration-space panel in pixels: its picture, theme and the sphere.

Pure: numbers in, :class:`PanelPicture` s (a :class:`~.primitives.Picture`) out. The
session's :class:`~linkage_widget.session.configuration_panel.ConfigurationPanel` decides
what is shown and :mod:`.panel_layers` stacks a chart's layers; this module only knows
where it goes on the panel and in which colour.

A panel is drawn as two layers so that a frame redraws only what moves:

- the *static* layer (:func:`sphere_static`; :mod:`.angle_charts` for the curve and the
  torus chart): the shaded sphere and its latitude/longitude lines;
- the *dynamic* layer (:func:`sphere_dynamic`; :func:`.angle_charts.chart_dynamic`): the
  current configuration as a point, its trail and the flick arrow.

:class:`SphereProjection` places the sphere: orthographic projection of a rotated unit
sphere (Lambert-shaded, the light fixed in the view).

Examples
--------
>>> proj = SphereProjection.fit(200, 200, rotation=np.eye(3))
>>> proj.project(np.array([0.0, 0.0, 1.0]))[0].tolist()   # body z faces the viewer
[100.0, 100.0]
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .primitives import Arrows, Disks, Polygons, Primitive, Segments, Texts

__all__ = [
    "DEFAULT_PANEL_THEME",
    "PanelPicture",
    "PanelTheme",
    "SphereProjection",
    "label_lines",
    "message_items",
    "panel_picture",
    "sphere_dynamic",
    "sphere_static",
]


@dataclass(frozen=True)
class PanelTheme:
    """Colours and sizes of the panel (pixels; CSS ``"#rrggbb"``).

    ``sphere_light``/``sphere_dark`` are the lit and the unlit side of the Lambert
    shading, ``light`` the direction of the light in the view frame (x right, y up,
    z toward the viewer), ``shades`` the number of shading levels.
    """

    background: str = "#ffffff"
    frame: str = "#90a4ae"
    text: str = "#37474f"
    font_size: float = 13.0
    sphere_light: str = "#e3f2fd"
    sphere_dark: str = "#1e3a5f"
    light: tuple[float, float, float] = (-0.45, 0.55, 0.70)
    ambient: float = 0.18
    shades: int = 48
    grid: str = "#eceff1"
    grid_alpha: float = 0.55
    equator: str = "#ffd54f"
    branch_colors: tuple[str, ...] = ("#1565c0", "#2e7d32", "#6a1b9a", "#ef6c00", "#00838f")
    curve_width: float = 2.5
    singular: str = "#c62828"
    singular_radius: float = 6.0
    reachable: str = "#bbdefb"
    boundary: str = "#e65100"
    point: str = "#d81b60"
    point_radius: float = 6.5
    trail: str = "#ad1457"
    trail_alpha: float = 0.7
    trail_width: float = 2.0
    flick: str = "#00897b"


DEFAULT_PANEL_THEME = PanelTheme()


@dataclass(frozen=True, eq=False)
class PanelPicture:
    """A panel layer: what a renderer draws (satisfies :class:`~.primitives.Picture`)."""

    width: int
    height: int
    background: str
    items: list[Primitive] = field(default_factory=list)

    def by_role(self, role: str) -> list[Primitive]:
        """The primitives showing ``role`` (tests, debugging)."""
        return [item for item in self.items if item.role == role]


def panel_picture(
    width: int, height: int, *layers: list[Primitive], background: str = "#ffffff"
) -> PanelPicture:
    """Stack layers (lists of primitives, bottom first) into one picture; empty ones dropped."""
    items = [item for layer in layers for item in layer if len(item)]
    return PanelPicture(int(width), int(height), background, items)


# ================================================================ sphere
def _rotation(axis: int, angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    i, j = [k for k in range(3) if k != axis]
    r = np.eye(3)
    r[i, i], r[i, j], r[j, i], r[j, j] = c, -s, s, c
    return r


#: The first view: the equator tilted toward the viewer, so both poles' sides show.
DEFAULT_ROTATION = _rotation(0, -1.15) @ _rotation(2, -0.6)


@dataclass(frozen=True, eq=False)
class SphereProjection:
    r"""Orthographic projection of the unit sphere, rotated, onto a disc of the panel.

    A body point :math:`q` (on the unit sphere the chart embeds into) goes to the view
    frame :math:`v = R q` (x right, y up, z toward the viewer), then to the pixel
    :math:`(c_x + r v_x,\ c_y - r v_y)`; :math:`v_z > 0` is the visible side.

    Attributes
    ----------
    rotation : ndarray, shape (3, 3)
        :math:`R`, orthogonal with determinant 1.
    center : (float, float)
        The disc's centre in pixels.
    radius : float
        The disc's radius in pixels.
    """

    rotation: np.ndarray
    center: tuple[float, float]
    radius: float

    @classmethod
    def fit(
        cls, width: int, height: int, rotation: np.ndarray | None = None, margin: float = 0.08
    ) -> SphereProjection:
        """The sphere centred on a ``width`` x ``height`` panel with a margin (fraction)."""
        r = DEFAULT_ROTATION if rotation is None else np.asarray(rotation, dtype=np.float64)
        radius = 0.5 * min(width, height) * (1.0 - 2.0 * margin)
        return cls(r.copy(), (0.5 * width, 0.5 * height), radius)

    @classmethod
    def facing(cls, width: int, height: int, point: Any, tilt: float = 0.45) -> SphereProjection:
        r"""The sphere turned so that body ``point`` ``(3,)`` faces the viewer, pole axis up.

        Longitude :math:`t` turns about the pole axis, latitude :math:`\varphi` tilts about
        the view's x axis; ``tilt`` more shows the north pole's side a little from above.
        """
        q = np.asarray(point, dtype=np.float64)
        lon = math.atan2(q[1], q[0])
        lat = math.asin(max(-1.0, min(1.0, q[2] / max(np.linalg.norm(q), 1e-300))))
        upright = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, -1.0, 0.0]])
        rot = _rotation(0, lat + tilt) @ upright @ _rotation(2, -0.5 * math.pi - lon)
        return cls.fit(width, height, rot)

    def project(self, points: Any) -> tuple[np.ndarray, np.ndarray]:
        """Pixels ``(..., 2)`` and depth :math:`v_z` ``(...)`` of body points ``(..., 3)``."""
        v = np.asarray(points, dtype=np.float64) @ self.rotation.T
        cx, cy = self.center
        px = np.stack([cx + self.radius * v[..., 0], cy - self.radius * v[..., 1]], axis=-1)
        return px, v[..., 2]

    def unproject(self, x: float, y: float) -> np.ndarray | None:
        """The visible body point under pixel ``(x, y)``, shape ``(3,)``; None off the disc."""
        vx = (x - self.center[0]) / self.radius
        vy = (self.center[1] - y) / self.radius
        rr = vx * vx + vy * vy
        if rr > 1.0:
            return None
        return self.rotation.T @ np.array([vx, vy, math.sqrt(1.0 - rr)])

    def tangent(self, body_point: Any, dx: float, dy: float) -> np.ndarray:
        r"""A pixel displacement at ``body_point`` as a body tangent vector ``(3,)``.

        The screen vector :math:`(dx, -dy)/r` is lifted to the tangent plane at the
        view point :math:`v` (the component along the view axis chosen so that
        :math:`\langle w, v \rangle = 0`, clamped near the rim), then rotated back.
        """
        v = self.rotation @ np.asarray(body_point, dtype=np.float64)
        w = np.array([dx, -dy, 0.0]) / self.radius
        w[2] = -(w[0] * v[0] + w[1] * v[1]) / max(v[2], 0.2)
        w -= (w @ v) * v  # exactly tangent
        return self.rotation.T @ w

    def rotated(self, dx: float, dy: float) -> SphereProjection:
        """Turned by a drag of ``(dx, dy)`` pixels (a drag of one radius turns one radian)."""
        turn = _rotation(1, -dx / self.radius) @ _rotation(0, dy / self.radius)
        return SphereProjection(turn @ self.rotation, self.center, self.radius)


def _hex(rgb: np.ndarray) -> list[str]:
    return [f"#{r:02x}{g:02x}{b:02x}" for r, g, b in np.clip(np.rint(rgb), 0, 255).astype(int)]


def _rgb(color: str) -> np.ndarray:
    h = color.lstrip("#")
    return np.array([int(h[i : i + 2], 16) for i in (0, 2, 4)], dtype=np.float64)


def _shading(proj: SphereProjection, theme: PanelTheme, samples: int = 120) -> Polygons:
    r"""The lit disc: nested caps of equal Lambert shade, darkest first.

    The light :math:`l` is fixed in the view frame, so the shading does not depend on the
    rotation. The shade :math:`a + (1 - a) \max(0, n \cdot l)` is constant on the circles
    :math:`n \cdot l = c` of the sphere, so the region brighter than :math:`c` is a cap
    about :math:`l`. Its visible part, projected, is the front arc of that circle (an
    ellipse arc) closed along the rim: a point of the arc behind the sphere is pushed
    radially onto the rim, which stays inside the cap for :math:`c > 0` since
    :math:`l_z > 0`. Cap :math:`k` of ``theme.shades`` has :math:`c_k = k / K` and the
    shade of its band's middle; painted in order they give a smooth shading without seams.
    """
    light = np.asarray(theme.light, dtype=np.float64)
    light /= np.linalg.norm(light)
    e1 = np.cross(light, [0.0, 0.0, 1.0] if abs(light[2]) < 0.9 else [1.0, 0.0, 0.0])
    e1 /= np.linalg.norm(e1)
    e2 = np.cross(light, e1)
    k = theme.shades
    c = np.arange(k) / k  # (K,)
    theta = np.linspace(0.0, 2.0 * math.pi, samples, endpoint=False)
    ring = np.cos(theta)[:, None] * e1 + np.sin(theta)[:, None] * e2  # (S, 3)
    n = c[:, None, None] * light + np.sqrt(1.0 - c * c)[:, None, None] * ring  # (K, S, 3)
    xy = n[..., :2]
    behind = n[..., 2] < 0.0
    rim = xy / np.maximum(np.linalg.norm(xy, axis=-1, keepdims=True), 1e-12)
    xy = np.where(behind[..., None], rim, xy)
    shade = theme.ambient + (1.0 - theme.ambient) * (c + 0.5 / k)
    t = ((shade - theme.ambient) / (1.0 - theme.ambient))[:, None]
    palette = _hex((1 - t) * _rgb(theme.sphere_dark) + t * _rgb(theme.sphere_light))
    cx, cy = proj.center
    px = np.stack([cx + proj.radius * xy[..., 0], cy - proj.radius * xy[..., 1]], -1)
    return Polygons(px.reshape(-1, 2), np.full(k, samples), tuple(palette), role="sphere")


def _visible_segments(px: np.ndarray, depth: np.ndarray) -> np.ndarray:
    """Consecutive-point segments of polylines ``(L, k, 2)`` whose both ends face the viewer."""
    seg = np.stack([px[:, :-1], px[:, 1:]], axis=2).reshape(-1, 2, 2)
    front = ((depth[:, :-1] > 0) & (depth[:, 1:] > 0)).reshape(-1)
    return seg[front]


def sphere_static(
    proj: SphereProjection,
    grid: np.ndarray,
    equator: np.ndarray | None = None,
    poles: np.ndarray | None = None,
    labels: tuple[str, ...] = (),
    theme: PanelTheme = DEFAULT_PANEL_THEME,
) -> list[Primitive]:
    """The shaded sphere, its coordinate lines (front side only), poles and labels.

    Parameters
    ----------
    proj : SphereProjection
    grid : ndarray, shape (L, k, 3)
        Coordinate lines (latitudes, longitudes) as body points on the unit sphere.
    equator : ndarray, shape (k, 3), optional
        A line drawn in the highlight colour (latitude 0).
    poles : ndarray, shape (p, 3), optional
        Points where the chart is singular, marked by small rings when visible.
    labels : tuple of str
        Text lines at the top left (what the panel shows).
    theme : PanelTheme
    """
    items: list[Primitive] = [
        Disks([proj.center], proj.radius + 0.5, fill=theme.sphere_dark, role="sphere-rim"),
        _shading(proj, theme),
    ]
    px, depth = proj.project(grid)
    items.append(
        Segments(_visible_segments(px, depth), theme.grid, 1.0, theme.grid_alpha, role="grid")
    )
    if equator is not None:
        epx, edepth = proj.project(np.asarray(equator)[None])
        items.append(Segments(_visible_segments(epx, edepth), theme.equator, 1.8, role="equator"))
    if poles is not None and len(poles):
        ppx, pdepth = proj.project(poles)
        items.append(Disks(ppx[pdepth > 0], 3.5, fill=None, stroke=theme.grid, role="poles"))
    items.append(label_lines(labels, theme))
    return items


def sphere_dynamic(
    proj: SphereProjection,
    point: np.ndarray | None,
    trail: np.ndarray,
    flick: np.ndarray | None = None,
    theme: PanelTheme = DEFAULT_PANEL_THEME,
) -> list[Primitive]:
    """The current configuration on the sphere, its trail (front side) and the flick arrow.

    Parameters
    ----------
    point : ndarray, shape (3,) or None
        The configuration's body point; drawn hollow when on the far side.
    trail : ndarray, shape (k, 3)
        Earlier body points, oldest first.
    flick : ndarray, shape (2, 2), optional
        Pixels of the flick under way: from the point to the pointer.
    """
    items: list[Primitive] = []
    if len(trail) >= 2:
        px, depth = proj.project(np.asarray(trail)[None])
        seg = _visible_segments(px, depth)
        items.append(Segments(seg, theme.trail, theme.trail_width, theme.trail_alpha, role="trail"))
    if point is not None:
        ppx, pdepth = proj.project(point)
        front = float(pdepth) > 0
        items.append(
            Disks(
                [ppx],
                theme.point_radius,
                fill=theme.point if front else None,
                stroke="#ffffff" if front else theme.point,
                width=2.0,
                role="point",
            )
        )
    items.extend(_flick_arrow(flick, theme))
    return items


def _flick_arrow(flick: np.ndarray | None, theme: PanelTheme) -> list[Primitive]:
    if flick is None:
        return []
    tail, tip = np.asarray(flick, dtype=np.float64)
    if np.hypot(*(tip - tail)) < 1.0:
        return []
    return [Arrows.from_vectors([tail], [tip - tail], color=theme.flick, width=2.5, role="flick")]


def label_lines(lines: tuple[str, ...], theme: PanelTheme, x: float = 6.0) -> Texts:
    """Heading lines at the panel's top left."""
    pos = [(x, 6.0 + (theme.font_size + 3.0) * i) for i in range(len(lines))]
    return Texts(lines, np.reshape(pos, (-1, 2)), theme.text, theme.font_size, role="labels")


def message_items(
    width: int, height: int, text: str, theme: PanelTheme = DEFAULT_PANEL_THEME
) -> list[Primitive]:
    """A plain message in the middle of the panel, wrapped to its width (no chart)."""
    words, lines, line = text.split(), [], ""
    per_line = max(12, int(width / (0.55 * theme.font_size)))
    for w in words:
        if line and len(line) + 1 + len(w) > per_line:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}".strip()
    lines.append(line)
    y0 = 0.5 * height - 0.5 * len(lines) * (theme.font_size + 4)
    pos = [(0.5 * width, y0 + i * (theme.font_size + 4)) for i in range(len(lines))]
    return [Texts(tuple(lines), pos, theme.text, theme.font_size, align="center", role="message")]
