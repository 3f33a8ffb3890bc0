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
from typing import Any

import numpy as np

from .primitives import Polylines, Primitive
from .theme import Theme
from .view import ViewTransform

__all__ = ["target_curves"]

#: The target curve's dash pattern (pixels): long dashes, clearly not a track.
TARGET_DASH = (9.0, 6.0)
#: Cells per row of the sheet of candidates.
SHEET_COLUMNS = 2
#: A cell's size in CSS pixels (the caption below the drawing included).
CELL_SIZE = (170, 150)
#: Height of a cell's caption (two lines of small text).
CAPTION_PX = 30


def _polylines(curves: Sequence[Any], to_pixel: Any) -> tuple[list[np.ndarray], list[int]]:
    lines = []
    for curve in curves:
        pts = np.asarray(curve, dtype=np.float64).reshape(-1, 2)
        pts = pts[np.all(np.isfinite(pts), axis=1)]
        if len(pts) >= 2:
            lines.append(to_pixel(pts))
    return lines, [len(line) for line in lines]


def target_curves(view: ViewTransform, curves: Sequence[Any], theme: Theme) -> list[Primitive]:
    """Each world polyline ``(k, 2)`` of ``curves`` dashed (the target, the stroke drawn)."""
    lines, counts = _polylines(curves, view.to_pixel)
    if not lines:
        return []
    width = theme.track_width
    return [
        Polylines(
            np.concatenate(lines), counts, theme.text, width, 0.7, TARGET_DASH, "synthesis-target"
        )
    ]
