"""Colours and sizes of the drawing: one frozen :class:`Theme`.

Every colour and pixel size the layers use is a field here, so a projector
theme, a print theme or a test that shrinks ``max_velocity_arrows`` is one
``dataclasses.replace`` away.

>>> import dataclasses
>>> dataclasses.replace(DEFAULT_THEME, rod_width=6.0).rod_width
6.0
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFAULT_THEME", "Theme"]


@dataclass(frozen=True)
class Theme:
    """Colours and sizes (pixels), chosen for legibility on a projector.

    Colours are CSS ``"#rrggbb"`` strings, sizes are pixels. Fields come in groups
    named after the layer that uses them: ``rod*`` (rods, the selected-rod band),
    ``vertex*``, ``tracked_radius``, ``pin*``, ``selected*`` (selection ring),
    ``angle*`` (wedge and arc), ``attractor*``, ``tension``/``compression``/
    ``unstressed`` (stress and rod-force colouring: a blue/orange pair that
    colour-blind readers tell apart), ``redundant`` (pebble game), ``spring``,
    ``load``/``reaction``/``force_*`` (force arrows), ``motor*`` (motor marks),
    ``velocity_*`` (one colour per basis vector, the longest arrow's length, the
    cap on the number of arrows), ``branch_*`` (the ways on at a singular
    placement: one colour per branch line, arrow length, dashed previews),
    ``track_*`` (one colour per tracked vertex),
    and the overlays' ``text``, ``hint_text``, ``error_text``, ``panel*``,
    ``font_size`` and ``hint_size``.
    """

    background: str = "#ffffff"
    rod: str = "#37474f"
    rod_width: float = 4.0
    rod_highlight: str = "#ffc107"
    rod_highlight_width: float = 12.0
    vertex: str = "#263238"
    vertex_outline: str = "#ffffff"
    vertex_radius: float = 6.0
    tracked_radius: float = 7.5
    pin: str = "#546e7a"
    pin_size: float = 13.0
    selected: str = "#ffb300"
    selected_radius: float = 12.0
    angle: str = "#8e24aa"
    angle_radius: float = 16.0
    angle_width: float = 2.5
    angle_fill_alpha: float = 0.16
    attractor: str = "#d81b60"
    attractor_size: float = 10.0
    tension: str = "#1565c0"
    compression: str = "#e65100"
    unstressed: str = "#b0bec5"
    redundant: str = "#c2185b"
    spring: str = "#6d4c41"
    load: str = "#212121"
    reaction: str = "#7b1fa2"
    force_arrow_px: float = 60.0
    force_arrow_min_px: float = 12.0
    force_width: float = 3.0
    motor: str = "#009e73"
    motor_radius: float = 15.0
    motor_width: float = 2.5
    velocity_colors: tuple[str, ...] = (
        "#1b5e20",
        "#43a047",
        "#00c853",
        "#7cb342",
        "#2e7d32",
        "#66bb6a",
        "#33691e",
        "#9ccc65",
    )
    velocity_arrow_px: float = 40.0
    max_velocity_arrows: int = 2000
    velocity_width: float = 2.5
    track_colors: tuple[str, ...] = (
        "#1f77b4",
        "#ff7f0e",
        "#9467bd",
        "#17becf",
        "#8c564b",
        "#e377c2",
        "#bcbd22",
        "#7f7f7f",
    )
    track_width: float = 2.0
    branch_colors: tuple[str, ...] = ("#0072b2", "#d55e00", "#cc79a7", "#e69f00", "#56b4e9")
    branch_arrow_px: float = 55.0
    branch_width: float = 3.5
    branch_preview_px: float = 28.0
    branch_preview_width: float = 2.0
    branch_preview_alpha: float = 0.55
    branch_label_gap: float = 12.0
    text: str = "#212121"
    hint_text: str = "#546e7a"
    error_text: str = "#c62828"
    panel: str = "#ffffff"
    panel_alpha: float = 0.85
    font_size: float = 15.0
    hint_size: float = 14.0


DEFAULT_THEME = Theme()
