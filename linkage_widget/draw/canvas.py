"""Draw a scene on an ipycanvas ``Canvas``, one message per frame.

:func:`draw_scene` takes any :class:`~linkage_widget.draw.primitives.Picture`
(a :class:`~linkage_widget.draw.scene.Scene`), clears the canvas, paints the
background and translates each primitive into one or a few *vectorised* ipycanvas calls
(``stroke_line_segments``, ``fill_circles``, ``stroke_arcs``,
``fill_styled_polygons`` …), all inside one batch. Without the batch every call
is its own comm message, and jupyter_server's IOPub rate limit silently drops
them (``../shared/browser-testing.md`` §5); with per-vertex Python loops a
frame of a few hundred rods would cost hundreds of commands.

The batch is :func:`held_canvas`, a ``hold_canvas`` with ``try/finally``:
ipycanvas's own ``hold_canvas`` leaves batching switched on when the body
raises, after which nothing is ever drawn again. Ours restores the previous
batching state whatever happens and drops the commands of a frame that
failed half-way, so the canvas keeps showing the last complete frame. Each
batch also names its canvas first (``switchCanvas``): ipycanvas sends the switch
only when the kernel's idea of the current canvas changes, and a reloaded page
(a notebook reopened while its kernel runs) starts with none, so its first
``clear`` ran on ``undefined`` and broke the page's command queue for good.

This is the only module of the package (besides the widget) that imports ipycanvas.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
from ipycanvas import Canvas

from .primitives import (
    Arcs,
    Arrows,
    Disks,
    Picture,
    Polygons,
    Polylines,
    Rects,
    Segments,
    Texts,
    is_uniform,
    per_item,
    unit_normals,
)
from .view import device_matrix

__all__ = ["draw_scene", "held_canvas", "hex_to_rgb"]


@contextmanager
def held_canvas(canvas: Canvas) -> Iterator[None]:
    """Batch every canvas command of the body into one comm message, exception-safe.

    Like ``ipycanvas.hold_canvas()`` (and nestable like it: only the outermost
    level sends), but:

    - batching is switched back off in a ``finally``, so an exception in the
      body cannot leave the canvas manager caching forever;
    - when the body raises, the commands it queued are discarded (and the
      manager's notion of the current canvas restored), so no half-drawn
      frame is sent; the exception propagates;
    - the batch begins with ``switchCanvas`` to its first canvas, whatever the
      kernel drew last: a front end that connected since (a reloaded page, a
      reopened notebook) has no current canvas, and a batch without the switch
      failed there on its first command (``clearCanvas`` of ``undefined``) and
      stopped every later one. It costs one short command per frame.

    Parameters
    ----------
    canvas : ipycanvas.Canvas
        Any canvas; its (global) canvas manager does the batching.
    """
    # ipycanvas 0.13/0.14 batch through the private _CanvasManager: its _caching flag,
    # command/buffer caches and _current_canvas are what hold_canvas() manipulates too.
    mgr = canvas._canvas_manager
    was_caching = bool(mgr._caching)
    n_commands = len(mgr._commands_cache)
    n_buffers = len(mgr._buffers_cache)
    current = mgr._current_canvas
    if not was_caching:
        # no "current canvas" carried over between batches: each names its canvas
        mgr._current_canvas = None
    mgr._caching = True
    completed = False
    try:
        yield
        completed = True
    finally:
        if not completed:
            del mgr._commands_cache[n_commands:]
            del mgr._buffers_cache[n_buffers:]
            mgr._current_canvas = current
        if not was_caching:
            try:
                if completed:
                    mgr.flush()
            finally:
                # Even if sending failed: never leave caching on or stale commands queued.
                mgr._caching = False
                mgr._commands_cache = []
                mgr._buffers_cache = []


def hex_to_rgb(colors: Any) -> np.ndarray:
    """CSS ``"#rrggbb"`` (or ``"#rgb"``) strings to an ``(k, 3)`` uint8 array.

    Examples
    --------
    >>> hex_to_rgb(["#ff8000", "#fff"]).tolist()
    [[255, 128, 0], [255, 255, 255]]
    """
    out = []
    for c in colors:
        h = str(c).lstrip("#")
        if len(h) == 3:
            h = "".join(ch * 2 for ch in h)
        if len(h) != 6:
            raise ValueError(f"expected a '#rrggbb' colour, got {c!r}")
        out.append((int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)))
    return np.array(out, dtype=np.uint8).reshape(-1, 3)


def draw_scene(canvas: Canvas, scene: Picture, pixel_ratio: float | None = None) -> None:
    """Draw ``scene`` on ``canvas``: one batched message, replacing what was there.

    Parameters
    ----------
    canvas : ipycanvas.Canvas
        Target, with a backing store of ``scene.width`` x ``scene.height`` times the
        pixel ratio (:func:`~linkage_widget.draw.view.backing_size`).
    scene : Scene or Picture
        From :func:`~linkage_widget.draw.scene.build_scene`, in CSS pixels.
    pixel_ratio : float, optional
        Device pixels per CSS pixel; default the scene's ``pixel_ratio`` (1 for a
        picture without one). The drawing is scaled once by
        :func:`~linkage_widget.draw.view.device_matrix`, so every width and radius
        is sharp on a hi-DPI screen.
    """
    r = float(getattr(scene, "pixel_ratio", 1.0) if pixel_ratio is None else pixel_ratio)
    with held_canvas(canvas):
        canvas = _StateSkipping(canvas)
        canvas.set_transform(*device_matrix(1.0))  # clear the whole backing store
        canvas.clear()
        canvas.set_transform(*device_matrix(r))
        canvas.global_alpha = 1.0
        canvas.set_line_dash([])
        canvas.line_cap = "round"
        canvas.line_join = "round"
        canvas.fill_style = scene.background
        canvas.fill_rect(0, 0, scene.width, scene.height)
        for item in scene.items:
            _DRAW[type(item)](canvas, item)
        canvas.global_alpha = 1.0
        canvas.set_line_dash([])


class _StateSkipping:
    """The canvas, leaving out a state setting that repeats the batch's current value.

    The drawing of each primitive sets its style (colour, alpha, width …) and often
    resets it after; a quarter of a frame's commands set what was already set. Every
    command costs the kernel a trait validation and an encoding, and the browser an
    awaited step of ipycanvas's command queue. Only the settings made through this
    wrapper are known, and only within one batch (a batch starts by setting every
    state it relies on): nothing is skipped on the strength of an earlier frame, whose
    canvas state a reloaded page would not have.
    """

    __slots__ = ("_canvas", "_state")

    def __init__(self, canvas: Canvas) -> None:
        object.__setattr__(self, "_canvas", canvas)
        object.__setattr__(self, "_state", {})

    def __getattr__(self, name: str) -> Any:
        return getattr(self._canvas, name)

    def __setattr__(self, name: str, value: Any) -> None:
        if name in self._state and type(self._state[name]) is type(value):
            if self._state[name] == value:
                return
        self._state[name] = value
        setattr(self._canvas, name, value)

    def set_line_dash(self, segments: list[float]) -> None:
        """The canvas's ``set_line_dash``, unless the dash is already ``segments``."""
        if self._state.get("line_dash") == list(segments):
            return
        self._state["line_dash"] = list(segments)
        self._canvas.set_line_dash(segments)


# ------------------------------------------------------------------ helpers
#: Up to this many distinct (colour, alpha) pairs, a primitive is drawn with one plain call
#: per pair; beyond, with one "styled" call (per-item colours). Plain calls are about twice
#: as fast in the browser (browser-testing.md §5): the styled ones build a CSS colour per item.
MAX_PLAIN_GROUPS = 8


def _a(x: Any) -> np.ndarray:
    """Pixel data as contiguous float32 (ipycanvas sends the dtype along).

    Half the bytes of float64 on every frame; ~1e-4 px precision at canvas sizes.
    """
    return np.ascontiguousarray(x, dtype=np.float32)


def _f(x: Any) -> float:
    # ipycanvas JSON-encodes scalar arguments: plain floats, never NumPy scalars.
    return float(x)


def _first_seen(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct values of ``keys`` (numbers) in first-seen order, and each item's index into them.

    ``np.unique`` sorts; ranking the distinct values by their first occurrence keeps
    the draw order of the items (the first colour seen is painted first).
    """
    distinct, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    order = np.argsort(first)
    rank = np.empty(len(order), dtype=np.intp)
    rank[order] = np.arange(len(order))
    return distinct[order], rank[inverse.reshape(-1)]


def _palette(colors: np.ndarray) -> tuple[list[str], np.ndarray]:
    """Distinct colours in first-seen order and each item's index into them.

    A dict lookup per item: hashing the strings is several times faster than
    ``np.unique``, which sorts them (measured at 600 and 5000 rods).
    """
    lookup: dict[str, int] = {}
    inverse = np.fromiter(
        (lookup.setdefault(c, len(lookup)) for c in colors.tolist()),
        dtype=np.intp,
        count=len(colors),
    )
    return list(lookup), inverse


def _rgb(color: Any, k: int) -> np.ndarray:
    """Per-item ``(k, 3)`` uint8 colours (parsing each distinct colour once)."""
    names, inverse = _palette(per_item(color, k))
    return hex_to_rgb(names)[inverse]


def _style_groups(
    color: Any, alpha: Any, k: int
) -> list[tuple[str, float, np.ndarray | slice]] | None:
    """``[(colour, alpha, items)]`` for a few plain calls, or ``None`` for one styled call."""
    if is_uniform(color) and is_uniform(alpha):
        return [(str(color), float(alpha), slice(None))]
    names, cidx = _palette(per_item(color, k))
    alphas, aidx = _first_seen(per_item(alpha, k))
    # One integer per (colour, alpha) pair, so the pairs are found by one np.unique on ints.
    pairs, group = _first_seen(cidx * len(alphas) + aidx)
    if len(pairs) > MAX_PLAIN_GROUPS:
        return None
    return [
        (names[c // len(alphas)], float(alphas[c % len(alphas)]), np.flatnonzero(group == g))
        for g, c in enumerate(pairs.tolist())
    ]


def _take(points: np.ndarray, counts: np.ndarray | None, idx: np.ndarray | slice) -> tuple:
    """Items ``idx`` of a (points, counts) pair; ``counts`` None means one item per row."""
    if counts is None or isinstance(idx, slice):
        return (points[idx], counts if counts is None else counts[idx])
    starts = np.cumsum(counts) - counts
    c = counts[idx]
    # Row r of the output belongs to item j = idx[i]: starts[j] + (r - rows before item i).
    rows = np.repeat(starts[idx] - (np.cumsum(c) - c), c) + np.arange(c.sum())
    return points[rows], c


def _stroke_segments(
    canvas: Canvas, points: np.ndarray, color: Any, alpha: Any, counts: np.ndarray | None = None
) -> None:
    """Stroke segments/polylines (current width and dash): a few plain calls or one styled."""
    k = len(points) if counts is None else len(counts)
    groups = _style_groups(color, alpha, k)
    if groups is None:
        canvas.stroke_styled_line_segments(
            _a(points),
            color=_rgb(color, k),
            alpha=_a(per_item(alpha, k)),
            points_per_line_segment=counts,
        )
        return
    for c, a, idx in groups:
        pts, cnt = _take(points, counts, idx)
        canvas.stroke_style = c
        canvas.global_alpha = a
        canvas.stroke_line_segments(_a(pts), points_per_line_segment=cnt)
    canvas.global_alpha = 1.0


def _fill_polygons(
    canvas: Canvas, points: np.ndarray, color: Any, alpha: Any, counts: np.ndarray | None = None
) -> None:
    """Fill polygons ``(k, c, 2)`` (or flat with ``counts``): a few plain calls or one styled."""
    k = len(points) if counts is None else len(counts)
    groups = _style_groups(color, alpha, k)
    if groups is None:
        canvas.fill_styled_polygons(
            _a(points),
            color=_rgb(color, k),
            alpha=_a(per_item(alpha, k)),
            points_per_polygon=counts,
        )
        return
    for c, a, idx in groups:
        pts, cnt = _take(points, counts, idx)
        canvas.fill_style = c
        canvas.global_alpha = a
        canvas.fill_polygons(_a(pts), points_per_polygon=cnt)
    canvas.global_alpha = 1.0


def _segments(canvas: Canvas, item: Segments) -> None:
    width = per_item(item.width, len(item))
    if np.ptp(width) > 0:
        _variable_width_segments(canvas, item)
        return
    canvas.set_line_dash(list(item.dash))
    canvas.line_width = _f(width[0])
    _stroke_segments(canvas, item.points, item.color, item.alpha)
    canvas.set_line_dash([])


def _variable_width_segments(canvas: Canvas, item: Segments) -> None:
    """Segments of different widths as filled quads: one call instead of one per width.

    The canvas line width is a single state per call, so stroking would need a call
    per distinct width. A rectangle of the segment's width around it is the same
    picture (butt caps; vertex disks cover the rod ends). Dashes are not supported
    on this path; the scene only varies widths for solid rods (stress colouring).
    """
    k = len(item)
    a, b = item.points[:, 0], item.points[:, 1]
    _, _, normal = unit_normals(b - a, fallback=(1.0, 0.0))
    half = (per_item(item.width, k) / 2.0)[:, None]
    n = normal * half
    quads = np.stack([a + n, b + n, b - n, a - n], axis=1)  # (k, 4, 2)
    _fill_polygons(canvas, quads, item.color, item.alpha)


def _polylines(canvas: Canvas, item: Polylines) -> None:
    k = len(item)
    canvas.set_line_dash(list(item.dash))
    width = per_item(item.width, k)
    # The scene uses one width per Polylines; differing widths cost one call per width.
    for w in dict.fromkeys(width.tolist()):
        idx = np.flatnonzero(width == w)
        pts, cnt = _take(item.points, item.counts, idx)
        canvas.line_width = _f(w)
        _stroke_segments(canvas, pts, _subset(item.color, idx), _subset(item.alpha, idx), cnt)
    canvas.set_line_dash([])


def _subset(value: Any, idx: np.ndarray) -> Any:
    """A style field restricted to items ``idx`` (uniform fields stay as they are)."""
    if is_uniform(value):
        return value
    if isinstance(value, tuple):
        return tuple(value[i] for i in idx.tolist())
    return np.asarray(value)[idx]


def _polygons(canvas: Canvas, item: Polygons) -> None:
    if item.fill is not None:
        _fill_polygons(canvas, item.points, item.fill, item.alpha, item.counts)
    if item.stroke is not None:
        canvas.stroke_style = item.stroke
        canvas.line_width = _f(item.width)
        canvas.stroke_polygons(_a(item.points), points_per_polygon=item.counts)


def _disks(canvas: Canvas, item: Disks) -> None:
    k = len(item)
    x, y, r = _a(item.centers[:, 0]), _a(item.centers[:, 1]), _a(per_item(item.radius, k))
    if item.fill is not None and item.stroke is not None and _f(item.alpha) == 1.0:
        # An opaque disk with an outline is a disk of the outline's colour under a smaller
        # one of the fill colour. Two fills cost half of a fill and a stroke in Chromium's
        # software rasteriser (penrose4t's 571 joints: 2.1 instead of 4.2 ms per frame).
        half = 0.5 * _f(item.width)
        canvas.fill_style = item.stroke
        canvas.fill_circles(x, y, r + half)
        _fill_disks(canvas, x, y, np.maximum(r - half, 0.0), item.fill, 1.0)
        return
    if item.fill is not None:
        _fill_disks(canvas, x, y, r, item.fill, item.alpha)
    canvas.global_alpha = _f(item.alpha)
    if item.stroke is not None:
        canvas.stroke_style = item.stroke
        canvas.line_width = _f(item.width)
        canvas.stroke_circles(x, y, r)
    canvas.global_alpha = 1.0


def _fill_disks(
    canvas: Canvas, x: np.ndarray, y: np.ndarray, r: np.ndarray, fill: Any, alpha: Any
) -> None:
    """Fill disks: a few plain calls or one styled (per-item colours)."""
    k = len(x)
    groups = _style_groups(fill, alpha, k)
    if groups is None:
        canvas.fill_styled_circles(x, y, r, color=_rgb(fill, k), alpha=_a(np.full(k, _f(alpha))))
        return
    for c, a, idx in groups:
        canvas.fill_style = c
        canvas.global_alpha = a
        canvas.fill_circles(x[idx], y[idx], r[idx])
    canvas.global_alpha = 1.0


def _arrows(canvas: Canvas, item: Arrows) -> None:
    k = len(item)
    canvas.line_width = _f(item.width)
    canvas.line_cap = "butt"  # a round cap would poke through the head
    groups = _style_groups(item.color, item.alpha, k)
    if groups is None:
        rgb, alpha = _rgb(item.color, k), _a(np.full(k, _f(item.alpha)))
        canvas.stroke_styled_line_segments(_a(item.shafts), color=rgb, alpha=alpha)
        canvas.fill_styled_polygons(_a(item.heads), color=rgb, alpha=alpha)
    else:
        # One shade per basis vector: a couple of plain calls per shade.
        for c, a, idx in groups:
            canvas.global_alpha = a
            canvas.stroke_style = c
            canvas.fill_style = c
            canvas.stroke_line_segments(_a(item.shafts[idx]))
            canvas.fill_polygons(_a(item.heads[idx]))
        canvas.global_alpha = 1.0
    canvas.line_cap = "round"


def _arcs(canvas: Canvas, item: Arcs) -> None:
    canvas.stroke_style = item.color
    canvas.line_width = _f(item.width)
    canvas.global_alpha = _f(item.alpha)
    canvas.stroke_arcs(
        _a(item.centers[:, 0]),
        _a(item.centers[:, 1]),
        _a(item.radius),
        # angles stay float64: few values, and full circles stay exactly closed
        item.start,
        item.end,
        False,
    )
    canvas.global_alpha = 1.0


def _texts(canvas: Canvas, item: Texts) -> None:
    canvas.font = item.css_font
    canvas.fill_style = item.color
    canvas.text_align = item.align
    canvas.text_baseline = item.baseline
    # Text has no vectorised call; a scene holds a few labels.
    xy = item.positions.tolist()
    if item.halo is not None:
        canvas.stroke_style = item.halo
        canvas.line_width = _f(item.size / 4.0)
        for text, (x, y) in zip(item.texts, xy, strict=True):
            canvas.stroke_text(text, _f(x), _f(y))
    for text, (x, y) in zip(item.texts, xy, strict=True):
        canvas.fill_text(text, _f(x), _f(y))


def _rects(canvas: Canvas, item: Rects) -> None:
    x, y, w, h = (_a(item.rects[:, i]) for i in range(4))
    canvas.global_alpha = _f(item.alpha)
    if item.fill is not None:
        canvas.fill_style = item.fill
        canvas.fill_rects(x, y, w, h)
    if item.stroke is not None:
        canvas.stroke_style = item.stroke
        canvas.line_width = _f(item.width)
        canvas.stroke_rects(x, y, w, h)
    canvas.global_alpha = 1.0


_DRAW: dict[type, Callable[[Canvas, Any], None]] = {
    Segments: _segments,
    Polylines: _polylines,
    Polygons: _polygons,
    Disks: _disks,
    Arrows: _arrows,
    Arcs: _arcs,
    Texts: _texts,
    Rects: _rects,
}
