"""Texts over the drawing: the colour key, the readout panel, the error and hint lines.

The layout of the panels lives here once; :func:`overlay_insets` reports the
pixels they cover so that fitting the view keeps joints out from under them
(``ViewTransform.fit(..., top=, bottom=)``).

Layout (pixels, canvas y down)::

    10 ┌ info panel (monospace readout) ┐          ┌ legend ┐ 10 from the right
       │ one row of font_size + 4 each   │          └────────┘
       └─────────────────────────────────┘
       ...
       error lines (bold, red), rows of font_size + 4
       hint line (hint_size), 10 above the bottom edge

Examples
--------
>>> from linkage_widget.draw.theme import DEFAULT_THEME
>>> [item.role for item in info_panel(["DOF 1"], DEFAULT_THEME)]
['info', 'info']
>>> overlay_insets(0)[0], overlay_insets(4)[0] > 80
(0.0, True)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .primitives import Primitive, Rects, Segments, Texts
from .theme import DEFAULT_THEME, Theme

__all__ = ["error_and_hint", "info_panel", "legend", "overlay_insets", "text_width"]

#: Distance of panels and texts from the canvas edges, in pixels.
EDGE = 10.0
#: Legend entry: (colour, label, dash pattern).
_Entry = tuple[str, str, tuple[float, ...]]


def text_width(text: str, size: float, font: str) -> float:
    r"""Estimated width in pixels of ``text`` at font ``size``.

    There are no font metrics here (and the backends differ slightly anyway):
    :math:`w \approx 0.55\,\text{size}` per character, :math:`0.6` for monospace.
    """
    return len(text) * size * (0.6 if font == "monospace" else 0.55)


def _info_row(theme: Theme) -> float:
    return theme.font_size + 4


def _hint_row(theme: Theme) -> float:
    return theme.hint_size + 8


def overlay_insets(info_lines: int, theme: Theme = DEFAULT_THEME) -> tuple[float, float]:
    """Pixels the info panel covers at the top and the hint and error lines at the bottom.

    For fitting a view so that no joint hides under them (``ViewTransform.fit``'s
    ``top``/``bottom``). Matches the layout of :func:`info_panel` (plus a 4 px gap)
    and :func:`error_and_hint` (room for the hint and one more line).

    Parameters
    ----------
    info_lines : int
        Lines of the readout; 0 when it is hidden.
    theme : Theme, optional

    Returns
    -------
    (top, bottom) : tuple of float
    """
    top = EDGE + _info_row(theme) * info_lines + 14.0 if info_lines else 0.0
    return top, 2.0 * _hint_row(theme)


def info_panel(lines: Sequence[str], theme: Theme) -> list[Primitive]:
    """Readout lines top-left on a translucent panel (legible over rods)."""
    lines = list(lines)
    if not lines:
        return []
    size = theme.font_size
    row = _info_row(theme)
    w = max(text_width(line, size, "monospace") for line in lines) + 16
    h = row * len(lines) + 10
    pos = np.column_stack([np.full(len(lines), 18.0), 15.0 + row * np.arange(len(lines))])
    return [
        Rects([[EDGE, EDGE, w, h]], theme.panel, None, 1.0, theme.panel_alpha, role="info"),
        Texts(tuple(lines), pos, theme.text, size, "monospace", role="info"),
    ]


def _legend_entries(stress: bool, pebbles: bool, theme: Theme) -> list[_Entry]:
    """The key's rows: stress colours (with the dashed redundant overlay), or pebble colours."""
    if stress:
        entries = [(theme.tension, "tension", ()), (theme.compression, "compression", ())]
        if pebbles:
            entries.append((theme.redundant, "redundant", (5.0, 4.0)))
        return entries
    if pebbles:
        return [(theme.rod, "independent", ()), (theme.redundant, "redundant", ())]
    return []


def legend(
    width: int,
    stress: bool,
    pebbles: bool,
    theme: Theme,
    *,
    marks: Sequence[str] = (),
    free: tuple[int, int] | None = None,
    avoid: np.ndarray | None = None,
) -> list[Primitive]:
    """Top-right key for the rod colours and the marks drawn, when any is on.

    Parameters
    ----------
    width : int
        Canvas width in pixels (the key is right-aligned).
    stress, pebbles : bool
        Whether rods are coloured by stress or force (tension/compression) / by the
        pebble game.
    theme : Theme
    marks : sequence of str
        Further rows, from ``"load"``, ``"reaction"``, ``"motor"`` (in that order).
    free : (int, int), optional
        Canvas ``(width, height)`` when the key may move to another corner (the top
        left must then be free of the info panel).
    avoid : ndarray, shape (k, 2), optional
        Pixels the key should not cover (joints, arrow tips): when it covers some at
        the top right, it goes to the corner that covers fewest (see
        :func:`_legend_corner`).
    """
    mark_colors = {"load": theme.load, "reaction": theme.reaction, "motor": theme.motor}
    entries = _legend_entries(stress, pebbles, theme)
    entries += [(mark_colors[k], k, ()) for k in mark_colors if k in marks]
    if not entries:
        return []
    size = theme.font_size - 1
    row = size + 6
    swatch = 24.0
    text_w = max(text_width(label, size, "sans-serif") for _, label, _ in entries)
    panel_w = 10 + swatch + 8 + text_w + 10
    panel_h = 8 + row * len(entries) + 2
    x0, y0 = (width - EDGE - panel_w, EDGE)
    if free is not None:
        x0, y0 = _legend_corner(panel_w, panel_h, free, avoid, theme)
    ys = y0 + 8 + row * (np.arange(len(entries)) + 0.5)
    panel = [[x0, y0, panel_w, panel_h]]
    items: list[Primitive] = [
        Rects(panel, theme.panel, "#cfd8dc", 1.0, theme.panel_alpha, role="legend")
    ]
    for dash in sorted({e[2] for e in entries}):
        idx = [i for i, e in enumerate(entries) if e[2] == dash]
        segs = np.array([[[x0 + 10, ys[i]], [x0 + 10 + swatch, ys[i]]] for i in idx])
        colors = tuple(entries[i][0] for i in idx)
        items.append(Segments(segs, colors, 5.0, dash=dash, role="legend"))
    labels = tuple(label for _, label, _ in entries)
    pos = np.column_stack([np.full(len(entries), x0 + 10 + swatch + 8), ys])
    items.append(Texts(labels, pos, theme.text, size, baseline="middle", role="legend"))
    return items


def _legend_corner(
    w: float, h: float, size: tuple[int, int] | None, avoid: np.ndarray | None, theme: Theme
) -> tuple[float, float]:
    """Top-left pixel of the key: the top right, or the first other free corner.

    Tried in turn: top right, top left (``size`` and ``avoid`` given: the info panel
    is hidden), bottom right (above the hint and error lines); the one covering the
    fewest points of ``avoid`` wins, the earlier on a tie.
    """
    width = w + 2 * EDGE if size is None else size[0]
    top_right = (width - EDGE - w, EDGE)
    if size is None or avoid is None or len(avoid) == 0:
        return top_right
    low = size[1] - overlay_insets(0, theme)[1] - h - 4.0
    corners = [top_right, (EDGE, EDGE)] + ([(top_right[0], low)] if low > EDGE + h else [])
    pad = theme.vertex_radius

    def covered(corner: tuple[float, float]) -> int:
        x0, y0 = corner
        inside = (avoid[:, 0] >= x0 - pad) & (avoid[:, 0] <= x0 + w + pad)
        inside &= (avoid[:, 1] >= y0 - pad) & (avoid[:, 1] <= y0 + h + pad)
        return int(inside.sum())

    return min(corners, key=covered)  # min keeps the first of equals


def error_and_hint(height: int, error: str, hint: str, theme: Theme) -> list[Primitive]:
    """Error lines (red, bold, on a panel) stacked above the hint line at the bottom.

    Parameters
    ----------
    height : int
        Canvas height in pixels.
    error : str
        May hold several lines; nothing is drawn when empty.
    hint : str
        One line, nothing when empty.
    theme : Theme

    Returns
    -------
    list of Primitive
        Error panel and lines first, the hint last (draw order).
    """
    items: list[Primitive] = []
    y = height - EDGE
    if hint:
        y -= _hint_row(theme)
    if error:
        lines = str(error).splitlines() or [str(error)]
        row = _info_row(theme)
        ys = y - row * np.arange(len(lines))[::-1]
        w = max(text_width(line, theme.font_size, "sans-serif") for line in lines) + 16
        box = [[4.0, ys[0] - row, w, row * len(lines) + 4]]
        items.append(Rects(box, theme.panel, None, 1.0, theme.panel_alpha, role="error"))
        pos = np.column_stack([np.full(len(lines), EDGE), ys])
        items.append(
            Texts(
                tuple(lines),
                pos,
                theme.error_text,
                theme.font_size,
                bold=True,
                baseline="bottom",
                role="error",
            )
        )
    if hint:
        bottom = [[EDGE, height - EDGE]]
        items.append(
            Texts((hint,), bottom, theme.hint_text, theme.hint_size, baseline="bottom", role="hint")
        )
    return items
