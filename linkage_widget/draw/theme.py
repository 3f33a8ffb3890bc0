"""Colours, widths and fonts of the drawing: one frozen :class:`Theme`, designed for a projector.

Every colour and pixel size the layers use is a field here, so a print theme or a
test that shrinks ``max_velocity_arrows`` is one ``dataclasses.replace`` away, and
the legend beside the canvas (:mod:`~linkage_widget.draw.legend`) names the colours
the canvas uses.

Design
------
- **Colour-blind safe.** The hues are Okabe & Ito's *Color Universal Design*
  palette (:data:`OKABE_ITO`), assigned so that the pairs a student must tell apart
  (:data:`DISTINCT_PAIRS`) stay apart under protanopia, deuteranopia and
  tritanopia: tension (blue) vs compression (vermillion), the selection (orange) vs
  every tracked joint, the velocity arrows (sky blue, then orange) vs the rods (a
  near-black grey). ``tests/draw/test_theme_colours.py`` simulates each deficiency
  (:mod:`~linkage_widget.draw.colour_vision`) and checks a least CIELAB difference
  for every pair.
- **Readable from the back of a room.** Rods 5 px, joints 7 px, arrows 4 px wide,
  the longest velocity arrow 64 px, labels 17 px: CSS pixels, which the canvas
  draws at the device pixel ratio (crisp on hi-DPI screens and projectors).
- **No text over the drawing.** Only the joint labels (on a white halo, beside
  the joint) are drawn on the canvas; the hint, the legend and the readout are HTML
  beside it.

>>> import dataclasses
>>> dataclasses.replace(DEFAULT_THEME, rod_width=6.0).rod_width
6.0
>>> DEFAULT_THEME.tension, DEFAULT_THEME.compression
('#0072b2', '#d55e00')
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFAULT_THEME", "DISTINCT_PAIRS", "OKABE_ITO", "Theme"]

#: Okabe & Ito (2008), *Color Universal Design*: eight colours that stay distinct
#: for the common colour-vision deficiencies.
OKABE_ITO = {
    "black": "#000000",
    "orange": "#e69f00",
    "sky_blue": "#56b4e9",
    "bluish_green": "#009e73",
    "yellow": "#f0e442",
    "blue": "#0072b2",
    "vermillion": "#d55e00",
    "reddish_purple": "#cc79a7",
}
_O = OKABE_ITO


@dataclass(frozen=True)
class Theme:
    """Colours (CSS ``"#rrggbb"``) and sizes (CSS pixels) of the drawing.

    Fields come in groups named after the layer that uses them: ``rod*`` (rods, the
    selected-rod band), ``vertex*``, ``tracked_radius``, ``pin*``, ``selected*``
    (selection ring), ``angle*`` (wedge and arc), ``attractor*``,
    ``tension``/``compression``/``unstressed`` (stress and rod-force colouring),
    ``redundant`` (pebble game), ``spring``, ``load``/``reaction``/``force_*`` (force
    arrows), ``motor*`` (motor marks), ``velocity_*`` (one colour per basis vector,
    the longest arrow's length, the width, the least spacing of arrow tails on a
    dense linkage, the caps on the number of arrows and of ways to move drawn),
    ``branch_*`` (the ways on at a singular placement), ``track_*`` (one colour per
    tracked vertex), ``label*`` (joint labels), ``font``, and the few texts the
    configuration panel and the branch numbers still draw (``text``, ``hint_text``,
    ``error_text``, ``panel*``, ``font_size``, ``hint_size``).
    """

    background: str = "#ffffff"
    rod: str = "#3c3c3c"
    rod_width: float = 5.0
    rod_highlight: str = _O["orange"]
    rod_highlight_width: float = 15.0
    vertex: str = "#1a1a1a"
    vertex_outline: str = "#ffffff"
    vertex_radius: float = 7.0
    tracked_radius: float = 9.0
    pin: str = "#5a5a5a"
    pin_size: float = 15.0
    selected: str = _O["orange"]
    selected_radius: float = 14.0
    selected_width: float = 4.0
    angle: str = "#8e3f8f"
    angle_radius: float = 18.0
    angle_width: float = 3.0
    angle_fill_alpha: float = 0.16
    attractor: str = _O["vermillion"]
    attractor_size: float = 12.0
    tension: str = _O["blue"]
    compression: str = _O["vermillion"]
    unstressed: str = "#c4c4c4"
    redundant: str = _O["reddish_purple"]
    # cables and struts (draw/member_layers): told apart by their stroke, not a hue
    cable: str = "#1a1a1a"
    cable_width: float = 2.5
    cable_dash: tuple[float, ...] = (7.0, 4.0)
    strut: str = "#3c3c3c"
    strut_width: float = 9.0
    strut_core: float = 3.0
    ghost: str = "#7a7a7a"
    ghost_width: float = 3.0
    ghost_alpha: float = 0.35
    # the red: Paul Tol's vibrant red, not vermillion, which is within 19.6 of the
    # selection's orange under deuteranopia (DISTINCT_PAIRS)
    nac_colors: tuple[str, str] = (_O["blue"], "#cc3311")
    spring: str = "#7a5a3a"
    load: str = _O["black"]
    reaction: str = _O["reddish_purple"]
    force_arrow_px: float = 64.0
    force_arrow_min_px: float = 14.0
    force_width: float = 4.0
    motor: str = _O["bluish_green"]
    motor_radius: float = 17.0
    motor_width: float = 3.0
    velocity_colors: tuple[str, ...] = (
        _O["sky_blue"],
        _O["orange"],
        _O["reddish_purple"],
        _O["bluish_green"],
        _O["blue"],
        _O["vermillion"],
    )
    velocity_arrow_px: float = 64.0
    velocity_width: float = 4.0
    velocity_spacing_px: float = 44.0
    velocity_thin_above: int = 24
    max_velocity_arrows: int = 400
    max_velocity_ways: int = 3
    max_velocity_ways_dense: int = 1
    track_colors: tuple[str, ...] = (
        _O["blue"],
        _O["bluish_green"],
        _O["reddish_purple"],
        _O["sky_blue"],
        _O["black"],
    )
    track_width: float = 3.0
    branch_colors: tuple[str, ...] = (
        _O["blue"],
        _O["vermillion"],
        _O["reddish_purple"],
        _O["orange"],
        _O["sky_blue"],
    )
    branch_arrow_px: float = 60.0
    branch_width: float = 4.0
    branch_preview_px: float = 30.0
    branch_preview_width: float = 2.5
    branch_preview_alpha: float = 0.55
    branch_label_gap: float = 13.0
    label: str = "#000000"
    label_halo: str = "#ffffff"
    label_size: float = 17.0
    label_gap: float = 6.0
    font: str = "sans-serif"
    text: str = "#1a1a1a"
    hint_text: str = "#4d4d4d"
    error_text: str = "#b00020"
    panel: str = "#ffffff"
    panel_alpha: float = 0.85
    font_size: float = 17.0
    hint_size: float = 16.0


DEFAULT_THEME = Theme()

#: Pairs of theme colours a student must tell apart, as ``(what, field_a, field_b)``;
#: a tuple field with an index names one of its colours (``"velocity_colors[0]"``).
#: ``tests/draw/test_theme_colours.py`` checks each under simulated colour-vision
#: deficiencies.
DISTINCT_PAIRS: tuple[tuple[str, str, str], ...] = (
    ("tension vs compression", "tension", "compression"),
    ("stressed vs unstressed rod", "tension", "unstressed"),
    ("stressed vs unstressed rod", "compression", "unstressed"),
    ("velocity arrow vs rod", "velocity_colors[0]", "rod"),
    ("velocity arrow vs rod", "velocity_colors[1]", "rod"),
    ("two velocity arrows", "velocity_colors[0]", "velocity_colors[1]"),
    ("velocity arrow vs motor", "velocity_colors[0]", "motor"),
    *(("selected vs tracked", "selected", f"track_colors[{i}]") for i in range(5)),
    ("two tracks", "track_colors[0]", "track_colors[1]"),
    ("redundant vs independent rod", "redundant", "rod"),
    ("load vs reaction", "load", "reaction"),
    ("selected vs rod", "selected", "rod"),
    ("the two colours of a NAC-colouring", "nac_colors[0]", "nac_colors[1]"),
    ("selected vs a NAC colour", "selected", "nac_colors[0]"),
    ("selected vs a NAC colour", "selected", "nac_colors[1]"),
)
