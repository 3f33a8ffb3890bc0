r"""The kinematics plots beside the canvas: velocity and acceleration against the crank angle.

Pure: the cycle of a driven mechanism (a :class:`~linkage_widget.kinematics.Kinematics`:
crank angles :math:`\theta` ``(k,)``, velocities :math:`p' = dp/d\theta` and accelerations
:math:`p'' = d^2p/d\theta^2` ``(k, n, 2)``, ``valid`` ``(k,)``) in, a
:class:`~.configuration_panel.PanelPicture` out. Two charts share the crank-angle axis
(0° to 360°): the velocity per unit crank speed on top, the acceleration at unit constant
crank speed below (at a crank speed :math:`\omega` the joint moves at :math:`\omega p'`
with :math:`\omega^2 p''`). Each tracked joint is one curve in its track colour.

What is plotted of a joint (:func:`plot_series`) is what a kinematics course plots:

- a joint on a slider (a piston): the signed component along its line,
  :math:`u \cdot p'` and :math:`u \cdot p''` (:math:`u` the slider's unit direction), whose
  zeros are the dead centres and whose sign says which way the piston goes;
- any other joint (a coupler point): the speed :math:`|p'|` and the size of the
  acceleration :math:`|p''|`.

The current crank angle is a vertical line with a dot on each curve where the mechanism
is now (:func:`cycle_value`, periodic linear interpolation between samples). Samples
where the mechanism does not assemble or is at a dead point (``valid`` False) leave gaps.

Examples
--------
>>> angles = np.linspace(0.0, 2.0 * np.pi, 5)
>>> cycle_value(angles, np.array([0.0, 1.0, 2.0, 3.0, 0.0]), 0.25 * np.pi)
0.5
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .configuration_panel import (
    DEFAULT_PANEL_THEME,
    PanelPicture,
    PanelTheme,
    message_items,
    panel_picture,
)
from .primitives import Disks, Primitive, Rects, Segments, Texts

__all__ = ["PLOT_ROLES", "PlotSeries", "cycle_value", "kinematic_plot", "plot_series"]

#: Every role :func:`kinematic_plot` emits, in draw order (``"message"`` instead when empty).
PLOT_ROLES = (
    "plot-frame",
    "plot-zero",
    "plot-ticks",
    "plot-names",
    "plot-velocity",
    "plot-acceleration",
    "plot-now",
    "plot-labels",
)


@dataclass(frozen=True, eq=False)
class PlotSeries:
    r"""One tracked joint's curves over the cycle.

    Attributes
    ----------
    joint : int
    label : str
        How the plot names it (``"joint 3"``, ``"joint 3 along its slide"``).
    velocity, acceleration : ndarray, shape (k,)
        :math:`u \cdot p'` and :math:`u \cdot p''` on a slider, else :math:`|p'|` and
        :math:`|p''|`; NaN where the sample is not valid.
    along : bool
        Whether the values are signed components along a slider's line.
    """

    joint: int
    label: str
    velocity: np.ndarray
    acceleration: np.ndarray
    along: bool = False


def plot_series(
    velocities: Any,
    accelerations: Any,
    valid: Any,
    tracked: Sequence[int],
    slides: Mapping[int, Any],
) -> list[PlotSeries]:
    r"""What the plots show of each tracked joint (module docstring), in ``tracked`` order.

    Parameters
    ----------
    velocities, accelerations : array_like, shape (k, n, 2)
        :math:`p'` and :math:`p''` of the cycle.
    valid : array_like of bool, shape (k,)
    tracked : sequence of int
        The joints to plot; indices out of range are skipped.
    slides : mapping int -> (float, float)
        A joint on a slider -> the slider's direction (normalised here).
    """
    v = np.asarray(velocities, dtype=np.float64)
    a = np.asarray(accelerations, dtype=np.float64)
    ok = np.asarray(valid, dtype=bool)
    out = []
    for j in tracked:
        if not 0 <= int(j) < v.shape[1]:
            continue
        j = int(j)
        if j in slides:
            u = np.asarray(slides[j], dtype=np.float64)
            u = u / np.hypot(*u)
            vel, acc, label = v[:, j] @ u, a[:, j] @ u, f"joint {j} along its slide"
        else:
            vel, acc, label = np.hypot(*v[:, j].T), np.hypot(*a[:, j].T), f"joint {j}"
        vel, acc = np.where(ok, vel, np.nan), np.where(ok, acc, np.nan)
        out.append(PlotSeries(j, label, vel, acc, j in slides))
    return out


def cycle_value(angles: Any, values: Any, theta: float, slopes: Any = None) -> Any:
    r"""``values`` ``(k, ...)`` sampled at increasing ``angles`` ``(k,)``, at angle ``theta``.

    ``theta`` is taken modulo :math:`2\pi` into the cycle :math:`[\theta_0, \theta_0 + 2\pi)`
    and the value interpolated between the two samples round it (the last sample to the
    first one a turn later when the samples do not close the turn): linearly, or with
    ``slopes`` (the derivatives in :math:`\theta`, shaped as ``values``) by the cubic
    Hermite polynomial, exact to :math:`O(h^4)` on a step :math:`h` instead of
    :math:`O(h^2)`. NaN next to an invalid sample.
    """
    t = np.asarray(angles, dtype=np.float64)
    y = np.asarray(values, dtype=np.float64)
    m = np.zeros_like(y) if slopes is None else np.asarray(slopes, dtype=np.float64)
    x = t[0] + float(np.remainder(theta - t[0], 2.0 * math.pi))
    if t[-1] - t[0] < 2.0 * math.pi - 1e-12:  # the turn closes on the first sample
        t = np.append(t, t[0] + 2.0 * math.pi)
        y, m = np.concatenate([y, y[:1]]), np.concatenate([m, m[:1]])
    i = int(np.clip(np.searchsorted(t, x, side="right") - 1, 0, len(t) - 2))
    h = t[i + 1] - t[i]
    s = (x - t[i]) / h if h > 0 else 0.0
    if slopes is None:
        out = (1.0 - s) * y[i] + s * y[i + 1]
    else:
        h00, h10 = 2 * s**3 - 3 * s**2 + 1, s**3 - 2 * s**2 + s
        h01, h11 = -2 * s**3 + 3 * s**2, s**3 - s**2
        out = h00 * y[i] + h10 * h * m[i] + h01 * y[i + 1] + h11 * h * m[i + 1]
    return float(out) if np.ndim(out) == 0 else out


@dataclass(frozen=True)
class _Chart:
    """One chart's box in pixels and its value range: angle in degrees right, value up."""

    x0: float
    y0: float
    w: float
    h: float
    lo: float
    hi: float

    def to_pixel(self, degrees: Any, value: Any) -> np.ndarray:
        x = self.x0 + self.w * np.asarray(degrees, dtype=np.float64) / 360.0
        y = self.y0 + self.h * (self.hi - np.asarray(value, dtype=np.float64)) / (self.hi - self.lo)
        return np.stack(np.broadcast_arrays(x, y), axis=-1)


def _value_range(curves: list[np.ndarray]) -> tuple[float, float]:
    """Low and high ends of a chart: every finite value and zero, with a margin."""
    finite = [c[np.isfinite(c)] for c in curves]
    values = np.concatenate([np.zeros(1), *finite])
    lo, hi = float(values.min()), float(values.max())
    pad = 0.08 * (hi - lo) if hi > lo else 1.0
    return lo - pad if lo < 0 else 0.0, hi + pad


def _curve_segments(chart: _Chart, degrees: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Segments ``(s, 2, 2)`` between consecutive finite samples (none across 360° to 0°)."""
    px = chart.to_pixel(degrees, values)
    keep = np.isfinite(values[:-1]) & np.isfinite(values[1:]) & (degrees[1:] > degrees[:-1])
    return np.stack([px[:-1], px[1:]], axis=1)[keep]


def _chart_axes(chart: _Chart, name: str, ticks: bool, theme: PanelTheme) -> list[Primitive]:
    """The frame, the zero line, the value ticks, the name, and the angle ticks if ``ticks``."""
    f = theme.font_size - 2
    x0, y0, w, h = chart.x0, chart.y0, chart.w, chart.h
    zero = chart.to_pixel([0.0, 360.0], [0.0, 0.0])
    n_ticks = 3 if chart.lo < 0 else 2  # the zero line gets its 0 when it is not the bottom
    items: list[Primitive] = [
        Rects([[x0, y0, w, h]], fill=None, stroke=theme.frame, width=1.0, role="plot-frame"),
        Segments(zero[None], theme.frame, 1.0, 0.8, dash=(4.0, 4.0), role="plot-zero"),
        Texts(
            (f"{chart.hi:.3g}", f"{chart.lo:.3g}", "0")[:n_ticks],
            [(x0 - 4, y0), (x0 - 4, y0 + h), (x0 - 4, zero[0, 1])][:n_ticks],
            theme.text,
            f,
            align="right",
            baseline="middle",
            role="plot-ticks",
        ),  # fmt: skip
        Texts((name,), [(x0 + 4, y0 + 2)], theme.text, f, role="plot-names"),
    ]
    if ticks:
        marks = ("0°", "90°", "180°", "270°", "360°")
        pos = [(x0 + w * i / 4.0, y0 + h + 3) for i in range(5)]
        items.append(Texts(marks, pos, theme.text, f, align="center", role="plot-ticks"))
        items.append(
            Texts(("crank angle θ →",), [(x0 + w, y0 + h + f + 6)], theme.text, f,
                  align="right", role="plot-names")
        )  # fmt: skip
    return items


def _charts(width: int, height: int) -> tuple[_Chart, _Chart, float]:
    """The two chart boxes (value ranges unset) and the legend line's height."""
    left, right, top, gap, bottom = 56.0, 12.0, 28.0, 22.0, 40.0
    w = max(width - left - right, 10.0)
    h = max((height - top - gap - bottom) / 2.0, 10.0)
    return _Chart(left, top, w, h, 0.0, 1.0), _Chart(left, top + h + gap, w, h, 0.0, 1.0), top


def kinematic_plot(
    angles: Any,
    series: Sequence[PlotSeries],
    current: float | None,
    size: tuple[int, int],
    colors: Sequence[str],
    message: str = "",
    theme: PanelTheme = DEFAULT_PANEL_THEME,
) -> PanelPicture:
    r"""The velocity and acceleration charts of ``series`` against the crank angle.

    Parameters
    ----------
    angles : array_like, shape (k,)
        The cycle's crank angles (radians, increasing, one turn).
    series : sequence of PlotSeries
        One per tracked joint (:func:`plot_series`).
    current : float or None
        The crank angle now (radians): the vertical line and a dot on each curve.
    size : (int, int)
        The picture's width and height in pixels.
    colors : sequence of str
        One colour per series (the joint's track colour on the canvas).
    message : str
        Shown instead of the charts when there is nothing to plot (why not).
    """
    w, h = size
    if not series:
        return panel_picture(w, h, message_items(w, h, message or "(nothing to plot)", theme))
    t = np.asarray(angles, dtype=np.float64)
    turn = t - 2.0 * math.pi * math.floor(t[0] / (2.0 * math.pi))  # starts in [0, 2π)
    degrees = np.where(turn > 2.0 * math.pi + 1e-9, turn - 2.0 * math.pi, turn) * (180 / math.pi)
    top, bottom, head = _charts(w, h)
    items: list[Primitive] = []
    for box, field, name, role, ticks in (
        (top, "velocity", "velocity dp/dθ", "plot-velocity", False),
        (bottom, "acceleration", "acceleration d²p/dθ²", "plot-acceleration", True),
    ):
        curves = [getattr(s, field) for s in series]
        chart = _Chart(box.x0, box.y0, box.w, box.h, *_value_range(curves))
        items += _chart_axes(chart, name, ticks, theme)
        items += [
            Segments(_curve_segments(chart, degrees, c), colors[i % len(colors)],
                     theme.curve_width, role=role)
            for i, c in enumerate(curves)
        ]  # fmt: skip
        items += _now(chart, t, curves, current, colors, theme)
    items += _series_labels(series, colors, head, theme)
    return panel_picture(w, h, items)


def _now(
    chart: _Chart,
    t: np.ndarray,
    curves: list[np.ndarray],
    current: float | None,
    colors: Sequence[str],
    theme: PanelTheme,
) -> list[Primitive]:
    """The current angle's vertical line and each curve's value there."""
    if current is None or not math.isfinite(current):
        return []
    d = float(np.degrees(np.remainder(current, 2.0 * math.pi)))
    line = chart.to_pixel([d, d], [chart.lo, chart.hi])[None]
    values = np.array([cycle_value(t, c, current) for c in curves])
    shown = np.isfinite(values)
    fill = tuple(colors[i % len(colors)] for i in np.flatnonzero(shown))
    return [
        Segments(line, theme.point, 1.5, 0.8, role="plot-now"),
        Disks(chart.to_pixel(np.full(int(shown.sum()), d), values[shown]), 4.5,
              fill=fill, stroke="#ffffff", width=1.5, role="plot-now"),
    ]  # fmt: skip


def _series_labels(
    series: Sequence[PlotSeries], colors: Sequence[str], head: float, theme: PanelTheme
) -> list[Primitive]:
    """Each series' name in its colour along the top, left to right."""
    out: list[Primitive] = []
    x = 6.0
    for i, s in enumerate(series):
        text = f"● {s.label}"
        out.append(
            Texts((text,), [(x, 0.5 * head)], colors[i % len(colors)], theme.font_size - 1,
                  baseline="middle", role="plot-labels")
        )  # fmt: skip
        x += 0.6 * (theme.font_size - 1) * len(text) + 14.0
    return out
