"""The synthesis tool's pixels: the target curve on the canvas, the candidates as thumbnails.

:func:`target_curves` draws the curve the linkage should trace (and the stroke being
drawn) dashed under the tracks, so the tracked coupler's path is seen running along
it. :func:`candidate_sheet` draws the candidates of a search as *small multiples*: one
cell each, in a grid, every cell on its own scale — the candidate's linkage, the path
its coupler traces (``candidate.curve``) over the target, and its RMS error and Grashof
class. :func:`sheet_cell` says which cell a pixel of the sheet is in (a click picks
it). Plain inputs (pixels or world arrays, the theme), as :mod:`.layers`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .configuration_panel import PanelPicture
from .primitives import Disks, Polylines, Primitive, Rects, Segments, Texts
from .theme import DEFAULT_THEME, Theme
from .view import ViewTransform

__all__ = [
    "CELL_SIZE",
    "SHEET_COLUMNS",
    "CandidateThumb",
    "candidate_sheet",
    "sheet_cell",
    "sheet_size",
    "target_curves",
]

#: The target curve's dash pattern (pixels): long dashes, clearly not a track.
TARGET_DASH = (9.0, 6.0)
#: Cells per row of the sheet of candidates.
SHEET_COLUMNS = 2
#: A cell's size in CSS pixels (the caption below the drawing included).
CELL_SIZE = (170, 150)
#: Height of a cell's caption (two lines of small text).
CAPTION_PX = 30


#: A curve whose end is within this many of its steps (the median) of its start is a loop.
LOOP_STEPS = 3.0


def looped(curve: np.ndarray) -> np.ndarray:
    """``curve`` ``(k, 2)`` with its start appended when its end comes back near it (a loop)."""
    if len(curve) < 3:
        return curve
    gap = float(np.linalg.norm(curve[-1] - curve[0]))
    step = float(np.median(np.linalg.norm(np.diff(curve, axis=0), axis=1)))
    closes = 1e-9 * step < gap <= LOOP_STEPS * step  # not when it is closed already
    return np.vstack([curve, curve[:1]]) if closes else curve


def _polylines(curves: Sequence[Any], to_pixel: Any) -> tuple[list[np.ndarray], list[int]]:
    lines = []
    for curve in curves:
        pts = np.asarray(curve, dtype=np.float64).reshape(-1, 2)
        pts = looped(pts[np.all(np.isfinite(pts), axis=1)])
        if len(pts) >= 2:
            lines.append(to_pixel(pts))
    return lines, [len(line) for line in lines]


def target_curves(view: ViewTransform, curves: Sequence[Any], theme: Theme) -> list[Primitive]:
    """Each world polyline ``(k, 2)`` of ``curves`` dashed (the target, the stroke drawn).

    A curve whose end comes back near its start (:func:`looped`) is drawn closed.
    """
    lines, counts = _polylines(curves, view.to_pixel)
    if not lines:
        return []
    width = theme.track_width
    return [
        Polylines(
            np.concatenate(lines), counts, theme.text, width, 0.7, TARGET_DASH, "synthesis-target"
        )
    ]


# ============================================================ small multiples
@dataclass(frozen=True)
class CandidateThumb:
    """What a cell of the sheet shows of one candidate (plain values, world units).

    Attributes
    ----------
    vertices : ndarray, shape (n, 2)
        The candidate's joints as loaded.
    rods : ndarray, shape (m, 2), int
    pinned : sequence of int
    coupler : int
        The tracing joint.
    curve : ndarray, shape (K, 2)
        The path the coupler traces over the crank's range.
    error : float
        RMS distance from the target (the target's units).
    grashof : str or None
        The Grashof class (``None``: not a four-bar's).
    note : str
        Why the fit is poor (``""``: it is not).
    """

    vertices: np.ndarray
    rods: np.ndarray
    pinned: Sequence[int]
    coupler: int
    curve: np.ndarray
    error: float
    grashof: str | None = None
    note: str = ""


def sheet_size(
    count: int, columns: int = SHEET_COLUMNS, cell: tuple[int, int] = CELL_SIZE
) -> tuple[int, int]:
    """The sheet's width and height in pixels for ``count`` cells (one row at least)."""
    rows = max(1, -(-int(count) // columns))
    return columns * cell[0], rows * cell[1]


def sheet_cell(
    x: float, y: float, count: int, columns: int = SHEET_COLUMNS, cell: tuple[int, int] = CELL_SIZE
) -> int | None:
    """The cell under pixel ``(x, y)`` of a sheet of ``count`` cells, or ``None``."""
    col, row = int(x // cell[0]), int(y // cell[1])
    if x < 0 or y < 0 or col >= columns:
        return None
    k = row * columns + col
    return k if k < count else None


def _cell_view(points: np.ndarray, cell: tuple[int, int]) -> ViewTransform:
    """The view fitting ``points`` into a cell's drawing (above its caption)."""
    return ViewTransform.fit(points, cell[0], cell[1] - CAPTION_PX, margin=0.12)


def _cell(
    k: int, thumb: CandidateThumb, target: np.ndarray | None, origin: np.ndarray, theme: Theme
) -> list[Primitive]:
    """Cell ``k``: the target dashed, the coupler's path, the linkage, the caption."""
    cw, ch = CELL_SIZE
    P = np.asarray(thumb.vertices, dtype=np.float64)
    shown = [P, thumb.curve] + ([] if target is None else [target])
    view = _cell_view(
        np.vstack([np.asarray(s, np.float64).reshape(-1, 2) for s in shown]), (cw, ch)
    )

    def px(w: np.ndarray) -> np.ndarray:
        return view.to_pixel(w) + origin

    out: list[Primitive] = []
    if target is not None:
        lines, counts = _polylines([target], px)
        if lines:
            out.append(
                Polylines(lines[0], counts, theme.text, 1.5, 0.6, (5.0, 4.0), "thumb-target")
            )
    lines, counts = _polylines([thumb.curve], px)
    colour = theme.track_colors[0]
    if lines:
        out.append(Polylines(lines[0], counts, colour, 2.0, 0.9, role="thumb-curve"))
    rods = np.asarray(thumb.rods, dtype=np.int64).reshape(-1, 2)
    Q = px(P)
    if len(rods):
        out.append(Segments(Q[rods], theme.rod, 2.0, role="thumb-rods"))
    pins = [int(v) for v in thumb.pinned if 0 <= int(v) < len(Q)]
    if pins:
        out.append(Disks(Q[pins], 4.0, theme.pin, role="thumb-pins"))
    if 0 <= thumb.coupler < len(Q):
        out.append(
            Disks(Q[[thumb.coupler]], 3.5, colour, theme.vertex_outline, role="thumb-coupler")
        )
    kind = thumb.grashof or "—"
    first = f"{k + 1}. RMS {thumb.error:.3g}"
    second = kind if not thumb.note else f"{kind} · poor fit"
    at = origin + [[6.0, ch - CAPTION_PX + 2.0], [6.0, ch - CAPTION_PX / 2 + 1.0]]
    out.append(Texts((first, second), at, theme.text, 11.0, role="thumb-caption"))
    return out


def candidate_sheet(
    thumbs: Sequence[CandidateThumb],
    target: np.ndarray | None,
    chosen: int | None = None,
    message: str = "",
    theme: Theme | None = None,
) -> PanelPicture:
    """The candidates as small multiples, ``SHEET_COLUMNS`` a row, best first.

    Each cell on its own scale: the ``target`` (world ``(K, 2)``) dashed, the candidate's
    coupler path over it, its linkage (pins, the coupler joint in the track colour) and
    the caption (its number, RMS error, Grashof class; "poor fit" with a note). The
    ``chosen`` cell is outlined. Without candidates, ``message`` says what to do.
    """
    theme = DEFAULT_THEME if theme is None else theme
    w, h = sheet_size(len(thumbs))
    sheet = PanelPicture(w, h, theme.background)
    if not thumbs:
        text = message or "draw a curve with the synthesis tool: its linkages appear here"
        sheet.items.append(
            Texts((text,), [[8.0, 8.0]], theme.hint_text, 12.0, role="thumb-message")
        )
        return sheet
    cw, ch = CELL_SIZE
    corners = np.array(
        [[(k % SHEET_COLUMNS) * cw, (k // SHEET_COLUMNS) * ch] for k in range(len(thumbs))]
    )
    frames = np.column_stack([corners + 2.0, np.full((len(thumbs), 2), [cw - 4.0, ch - 4.0])])
    sheet.items.append(Rects(frames, theme.background, theme.unstressed, 1.0, role="thumb-frames"))
    target = None if target is None else np.asarray(target, dtype=np.float64)
    for k, thumb in enumerate(thumbs):
        sheet.items.extend(_cell(k, thumb, target, corners[k].astype(np.float64), theme))
    if chosen is not None and 0 <= chosen < len(thumbs):
        ring = frames[chosen : chosen + 1]
        sheet.items.append(Rects(ring, None, theme.selected, 3.0, role="thumb-chosen"))
    return sheet
