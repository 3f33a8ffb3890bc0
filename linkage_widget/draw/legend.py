"""The legend: one entry for every colour and mark the canvas shows now, as HTML beside it.

Nothing is written over the drawing: :func:`legend_entries` reads a scene's
primitives (what is really drawn, so the key never lists a colour that is not
there) and names each colour from the :class:`~linkage_widget.draw.theme.Theme`;
:func:`legend_html` draws each entry's mark as a small inline SVG (a line, a dashed
line, an arrow, a ring, ...) in its colour, beside its words. The widget shows it
in an HTML box next to the canvas.

Examples
--------
>>> import numpy as np
>>> from linkage_widget.draw.primitives import Segments
>>> from linkage_widget.draw.theme import DEFAULT_THEME as T
>>> rods = Segments(np.zeros((2, 2, 2)), (T.tension, T.compression), 4.0, role="rods")
>>> [e.label for e in legend_entries([rods], T)]
['rod in tension', 'rod in compression']
>>> "rod in tension" in legend_html(legend_entries([rods], T))
True
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from .fields import per_item
from .kinematic_layers import KINEMATIC_LEGEND
from .primitives import Primitive
from .theme import Theme

__all__ = ["LegendEntry", "legend_entries", "legend_html"]


class LegendEntry(NamedTuple):
    """One row of the legend.

    Attributes
    ----------
    color : str
        ``"#rrggbb"``, as on the canvas.
    label : str
        What it means, in words.
    mark : str
        The swatch: ``"line"``, ``"dashed"``, ``"cable"``, ``"strut"``, ``"ghost"``, ``"band"``,
        ``"zigzag"``, ``"wedge"``, ``"arrow"``, ``"curve"``, ``"ring"``, ``"dot"``, ``"pin"``,
        ``"block"``, ``"slot"`` or ``"cross"``.
    """

    color: str
    label: str
    mark: str


def _colours(item: Primitive) -> list[str]:
    """The distinct colours of a primitive's items, in draw order."""
    field = getattr(item, "color", None)
    if field is None:
        field = getattr(item, "fill", None) or getattr(item, "stroke", None)
    if field is None:
        return []
    return list(dict.fromkeys(per_item(field, len(item)).tolist()))


def _rod_entries(colours: list[str], t: Theme) -> list[LegendEntry]:
    names = {
        t.rod: "rod",
        t.tension: "rod in tension",
        t.compression: "rod in compression",
        t.unstressed: "rod without stress",
        t.redundant: "redundant rod",
    }
    return [LegendEntry(c, names[c], "line") for c in colours if c in names]


def _velocity_entries(colours: list[str], t: Theme, total: int) -> list[LegendEntry]:
    palette = list(t.velocity_colors)
    if len(colours) == 1 and total <= 1:
        return [LegendEntry(colours[0], "velocity: how the joints can move", "arrow")]
    out = [
        LegendEntry(c, f"velocity of way to move {palette.index(c) + 1}", "arrow")
        for c in colours
        if c in palette
    ]
    if total > len(out):
        out.append(LegendEntry(colours[0], f"(arrows of {len(out)} of {total} ways shown)", ""))
    return out


#: Roles with one fixed entry: role -> (theme field, label, mark).
_FIXED = {
    "rods-redundant": ("redundant", "redundant rod", "dashed"),
    "rod-highlight": ("rod_highlight", "selected rod", "band"),
    "cables": ("cable", "cable: may shorten, not lengthen", "cable"),
    "struts": ("strut", "strut: may lengthen, not shorten", "strut"),
    "ghosts": ("ghost", "another placement with the same rod lengths", "ghost"),
    "springs": ("spring", "spring", "zigzag"),
    "angles": ("angle", "fixed angle", "wedge"),
    "motors": ("motor", "motor", "curve"),
    "pins": ("pin", "pinned joint", "pin"),
    "slider-blocks": ("pin", "slider: a joint on a fixed line", "block"),
    "slots": ("rod", "slot: a joint on the line of two others", "slot"),
    "selected-vertex": ("selected", "selected joint", "ring"),
    "attractor": ("attractor", "attractor: pulls the selected joint", "cross"),
    "loads": ("load", "load on a joint", "arrow"),
    "reactions": ("reaction", "reaction at a pin", "arrow"),
}


def legend_entries(
    items: Iterable[Primitive], theme: Theme, *, motions: int = 1
) -> tuple[LegendEntry, ...]:
    """An entry for every colour and mark among ``items`` (a scene's primitives).

    Parameters
    ----------
    items : iterable of Primitive
        What the canvas draws (roles as :data:`~linkage_widget.draw.scene.ROLES`).
    theme : Theme
    motions : int
        How many ways to move the velocity basis has (the arrows may show fewer).

    Returns
    -------
    tuple of LegendEntry
        In draw order of first appearance, no duplicates.
    """
    out: list[LegendEntry] = []
    for item in items:
        role, colours = item.role, _colours(item)
        if role == "rods":
            out += _rod_entries(colours, theme)
        elif role == "nac-rods":  # the two colours of a NAC-colouring (blue first)
            named = dict(zip(theme.nac_colors, ("blue", "red"), strict=True))
            out += [LegendEntry(c, f"NAC-colouring: {named[c]} rods", "line") for c in colours]
        elif role == "velocities":
            out += _velocity_entries(colours, theme, motions)
        elif role in ("tracks", "vertices"):
            out += [LegendEntry(c, "tracked joint and its path", "dot") for c in colours
                    if c in theme.track_colors]  # fmt: skip
        elif role == "branches":
            out += [LegendEntry(c, "a way on from the singular point", "arrow") for c in colours]
        elif role in _FIXED:
            field, label, mark = _FIXED[role]
            out.append(LegendEntry(getattr(theme, field), label, mark))
        elif role in KINEMATIC_LEGEND and colours:  # the plots' marks on the canvas
            label, mark, colour = KINEMATIC_LEGEND[role]
            out.append(LegendEntry(colour or colours[0], label, mark))
    return tuple(dict.fromkeys(out))


#: SVG bodies of the swatches (28 x 14 px), ``{c}`` the colour.
_MARKS = {
    "line": '<line x1="2" y1="7" x2="26" y2="7" stroke="{c}" stroke-width="5"/>',
    "dashed": '<line x1="2" y1="7" x2="26" y2="7" stroke="{c}" stroke-width="3" '
    'stroke-dasharray="5 4"/>',
    "cable": '<line x1="2" y1="7" x2="26" y2="7" stroke="{c}" stroke-width="2" '
    'stroke-dasharray="6 3"/>',
    "strut": '<line x1="2" y1="7" x2="26" y2="7" stroke="{c}" stroke-width="8"/>'
    '<line x1="2" y1="7" x2="26" y2="7" stroke="{bg}" stroke-width="3"/>',
    "ghost": '<line x1="2" y1="7" x2="26" y2="7" stroke="{c}" stroke-width="3" '
    'stroke-opacity="0.4"/>',
    "band": '<line x1="2" y1="7" x2="26" y2="7" stroke="{c}" stroke-width="12"/>',
    "zigzag": '<polyline points="2,7 6,7 9,2 13,12 17,2 21,12 23,7 26,7" fill="none" '
    'stroke="{c}" stroke-width="2"/>',
    "wedge": '<path d="M4,12 L24,12 A20,20 0 0,0 18,2 Z" fill="{c}" fill-opacity="0.3" '
    'stroke="{c}" stroke-width="2"/>',
    "arrow": '<line x1="2" y1="7" x2="18" y2="7" stroke="{c}" stroke-width="4"/>'
    '<polygon points="17,1 27,7 17,13" fill="{c}"/>',
    "curve": '<path d="M6,12 A8,8 0 1,1 20,10" fill="none" stroke="{c}" stroke-width="3"/>'
    '<polygon points="16,7 24,7 21,14" fill="{c}"/>',
    "ring": '<circle cx="14" cy="7" r="5" fill="none" stroke="{c}" stroke-width="3"/>',
    "dot": '<circle cx="14" cy="7" r="6" fill="{c}"/>',
    "pin": '<polygon points="14,2 8,12 20,12" fill="{c}"/>',
    "block": '<path d="M1,2 H27 M1,12 H27" stroke="{c}" stroke-width="2"/>'
    '<rect x="8" y="4" width="12" height="6" fill="#c4c4c4" stroke="{c}" stroke-width="2"/>',
    "slot": '<rect x="2" y="2" width="24" height="10" rx="1" fill="{c}" fill-opacity="0.35" '
    'stroke="{c}"/><rect x="5" y="5" width="18" height="4" fill="#ffffff" stroke="{c}"/>',
    "cross": '<path d="M6,7 H22 M14,1 V13" stroke="{c}" stroke-width="3"/>',
    "": "",
}


def legend_html(
    entries: Sequence[LegendEntry], *, font_px: float = 15.0, background: str = "#ffffff"
) -> str:
    """The legend as HTML: one item per entry, its mark drawn in its colour; ``""`` if none.

    ``background``: the canvas's (:attr:`Theme.background`), the core of a strut's
    double line, as the drawing has it.

    The items flow in a row and wrap (a line or two under the canvas, not a column).
    """
    if not entries:
        return ""
    rows = []
    for e in entries:
        swatch = _MARKS[e.mark].format(c=html.escape(e.color), bg=html.escape(background))
        svg = f'<svg width="28" height="14" viewBox="0 0 28 14" aria-hidden="true">{swatch}</svg>'
        rows.append(
            f"<li style='display:flex;align-items:center;gap:8px;margin:2px 0'>{svg}"
            f"<span>{html.escape(e.label)}</span></li>"
        )
    return (
        "<ul class='linkage-legend' aria-label='legend' style='list-style:none;margin:0;"
        "padding:4px 0;display:flex;flex-wrap:wrap;gap:2px 18px;"
        f"font-size:{font_px:g}px;line-height:1.3'>" + "".join(rows) + "</ul>"
    )
