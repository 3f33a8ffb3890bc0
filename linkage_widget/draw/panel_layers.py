"""The configuration panel's two layers, from a configuration chart and the panel's state.

Pure: a :class:`~linkage_widget.configuration.ConfigurationChart`, the panel's size, its
:class:`~.configuration_panel.SphereProjection` and the current point in, a
:class:`~.configuration_panel.PanelPicture` out. The *static* layer
(:func:`panel_static`) is the shaded sphere, the curve, the torus chart or a message; the
*dynamic* one (:func:`panel_dynamic`) the current configuration, its trail and the flick
arrow, on a transparent background, so that a frame redraws only what moves.
:func:`point_pixel` says where the current configuration is drawn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .angle_charts import AnglePlot, chart_dynamic, curve_static, surface_static
from .configuration_panel import (
    PanelPicture,
    SphereProjection,
    message_items,
    panel_picture,
    sphere_dynamic,
    sphere_static,
)
from .primitives import Primitive

if TYPE_CHECKING:
    from ..configuration import ConfigurationChart

__all__ = ["panel_dynamic", "panel_static", "point_pixel"]


def panel_static(
    chart: ConfigurationChart, size: tuple[int, int], proj: SphereProjection
) -> PanelPicture:
    """The static layer: the shaded sphere, the curve, the torus chart or a message."""
    return panel_picture(*size, _static_items(chart, size, proj))


def _static_items(
    chart: ConfigurationChart, size: tuple[int, int], proj: SphereProjection
) -> list[Primitive]:
    w, h = size
    if chart.kind == "sphere":
        return sphere_static(proj, chart.grid, chart.equator, chart.poles, chart.title)
    plot = AnglePlot.fit(w, h)
    labels = (chart.coords[0].label, chart.coords[1].label) if chart.coords else ("", "")
    if chart.curve is not None:
        branches = [(b.angles, b.closed) for b in chart.curve.branches]
        return curve_static(plot, branches, chart.curve.singular_angles, labels, chart.title)
    if chart.surface is not None:
        s = chart.surface
        return surface_static(plot, s.a, s.b, s.reachable, s.boundary, labels, chart.title)
    # no chart (its message says why), or one being computed (its title says so)
    return message_items(w, h, chart.message or " ".join(chart.title) or "(no chart)")


def panel_dynamic(
    chart: ConfigurationChart,
    size: tuple[int, int],
    proj: SphereProjection,
    point: tuple[float, float] | None,
    trail: np.ndarray,
    flick: np.ndarray | None,
) -> PanelPicture:
    """The dynamic layer: the point, its trail ``(k, 2)`` (chart coordinates), the flick.

    ``flick`` ``(2, 2)``: pixels of the flick arrow under way (sphere), else None.
    """
    items: list[Primitive] = []
    if chart.kind == "sphere":
        assert chart.chart is not None
        trail3 = chart.chart.embed(trail[:, 0], trail[:, 1])
        point3 = None if point is None else chart.chart.embed(*point)
        items = sphere_dynamic(proj, point3, trail3, flick)
    elif chart.kind in ("curve", "surface"):
        p = None if point is None else np.asarray(point)
        items = chart_dynamic(AnglePlot.fit(*size), p, trail)
    return panel_picture(*size, items, background="transparent")


def point_pixel(
    chart: ConfigurationChart,
    size: tuple[int, int],
    proj: SphereProjection,
    point: tuple[float, float] | None,
) -> tuple[float, float] | None:
    """Where the panel draws ``point`` (chart coordinates), in panel pixels; None: no point."""
    if point is None:
        return None
    if chart.kind == "sphere":
        assert chart.chart is not None
        px, _ = proj.project(chart.chart.embed(*point))
    else:
        px = AnglePlot.fit(*size).to_pixel(np.angle(np.exp(1j * np.array(point))))
    return float(px[0]), float(px[1])
