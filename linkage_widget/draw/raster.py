"""Draw a scene (any :class:`~linkage_widget.draw.primitives.Picture`) with Pillow: PNG and GIF.

Pillow comes with ipycanvas, so this works in Binder and in plain scripts
(no browser, no canvas). Pillow does not antialias lines, so the scene is
drawn ``supersample`` times larger and reduced by box averaging; flat areas
such as the background keep their exact colour.

Files are written through the package's one atomic writer
(:func:`linkage_widget.io.atomic_writer`: a temporary file in the same folder,
fsync, rename), so an interrupted export never leaves a truncated picture where
a good one was, and exports get the permissions of an ordinary new file.

Examples
--------
>>> from linkage_widget import Linkage
>>> from linkage_widget.draw import ViewTransform, build_scene
>>> link = Linkage([[0, 0], [1, 0]], rods=[(0, 1)])
>>> img = scene_to_image(build_scene(link, ViewTransform.fit(link.vertices, 120, 80)))
>>> img.size, img.mode, img.getpixel((0, 0))
((120, 80), 'RGB', (255, 255, 255))
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from functools import lru_cache
from os import PathLike
from typing import Any

import numpy as np
from PIL import Image, ImageColor, ImageDraw, ImageFont

from .._checks import positive
from ..io import atomic_writer
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
    per_item,
)
from .view import backing_size

__all__ = ["scene_to_image", "save_png", "save_gif"]

#: Font files tried in order (found through Pillow's font search path); Pillow's
#: built-in font is the fallback where none is installed.
_FONT_FILES = {
    ("sans-serif", False): ("DejaVuSans.ttf", "LiberationSans-Regular.ttf", "Arial.ttf"),
    ("sans-serif", True): ("DejaVuSans-Bold.ttf", "LiberationSans-Bold.ttf", "Arial Bold.ttf"),
    ("monospace", False): ("DejaVuSansMono.ttf", "LiberationMono-Regular.ttf", "Menlo.ttc"),
    ("monospace", True): ("DejaVuSansMono-Bold.ttf", "LiberationMono-Bold.ttf", "Menlo.ttc"),
}
_ANCHOR_X = {"left": "l", "center": "m", "right": "r"}
# Canvas "top"/"bottom" baselines are the em box edges: Pillow's ascender/descender anchors.
_ANCHOR_Y = {"top": "a", "middle": "m", "bottom": "d"}


def scene_to_image(
    scene: Picture, *, supersample: int = 2, pixel_ratio: float = 1.0
) -> Image.Image:
    """Render ``scene`` to an RGB image of ``scene.width`` x ``scene.height`` x ``pixel_ratio``.

    Parameters
    ----------
    scene : Scene or Picture
        In CSS pixels.
    supersample : int
        Draw this many times larger, then box-reduce (antialiasing); 1 is
        fastest and exactly aliased.
    pixel_ratio : float
        Image pixels per CSS pixel (2: the crisp picture a retina screen shows);
        the size is :func:`~linkage_widget.draw.view.backing_size`.

    Returns
    -------
    PIL.Image.Image
        Mode ``"RGB"``.
    """
    ss = int(supersample)
    if ss < 1:
        raise ValueError(f"supersample must be >= 1, got {supersample!r}")
    w, h = backing_size(int(scene.width), int(scene.height), positive(pixel_ratio, "pixel_ratio"))
    img = Image.new("RGB", (w * ss, h * ss), _rgb(scene.background))
    # "RGBA" draw mode blends translucent colours into the RGB image.
    draw = ImageDraw.Draw(img, "RGBA")
    scale = ss * float(pixel_ratio)  # CSS pixels to supersampled image pixels
    for item in scene.items:
        _PAINT[type(item)](draw, item, scale)
    return img.reduce(ss) if ss > 1 else img


def save_png(
    scene: Picture,
    path: str | PathLike[str],
    *,
    supersample: int = 2,
    pixel_ratio: float | None = None,
) -> None:
    """Write ``scene`` as a PNG file, atomically (see :func:`linkage_widget.io.atomic_writer`).

    At ``pixel_ratio`` (default: the scene's own, 1 for a picture without one), so an
    export is as crisp as the canvas. The image is rendered first, so a scene that
    cannot be drawn leaves no file.
    """
    r = getattr(scene, "pixel_ratio", 1.0) if pixel_ratio is None else pixel_ratio
    img = scene_to_image(scene, supersample=supersample, pixel_ratio=r)
    with atomic_writer(path) as fh:
        img.save(fh, format="PNG", optimize=True)


def save_gif(
    frames: Iterable[Picture],
    path: str | PathLike[str],
    fps: float = 25,
    *,
    supersample: int = 2,
    loop: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> None:
    """Write recorded frames as an animated GIF, atomically.

    All frames share one 256-colour palette: the most frequent colours of up to
    eight frames spread over the recording (background, rods and vertices keep
    their exact colours; antialiasing shades map to the nearest entry). Each
    frame is mapped onto it without dithering. That is several times faster than
    Pillow's per-frame adaptive palette, which dominated export time, and keeps
    colours steady from frame to frame.
    Images are rendered one at a time while the file is written, so a long
    recording does not hold every image in memory.

    Parameters
    ----------
    frames : iterable of Scene (or Picture)
        At least one; all of the same size.
    path : str or path-like
    fps : float
        Frames per second (GIF stores delays in 1/100 s, so e.g. 25 or 50 are exact).
    supersample : int
        As for :func:`scene_to_image`.
    loop : int
        Number of repeats; 0 loops forever.
    progress : callable(done, total), optional
        Called after each frame is encoded (a background export's progress bar); an
        exception it raises (a cancel) aborts the export and leaves no file.
    """
    if not (math.isfinite(fps) and fps > 0):
        raise ValueError(f"fps must be a positive number, got {fps!r}")
    scenes = list(frames)
    if not scenes:
        raise ValueError("save_gif needs at least one frame")
    w, h = scenes[0].width, scenes[0].height
    for i, scene in enumerate(scenes):
        if (scene.width, scene.height) != (w, h):
            raise ValueError(f"frame {i} is {scene.width}x{scene.height}, frame 0 is {w}x{h}")
    picks = sorted(set(np.linspace(0, len(scenes) - 1, min(8, len(scenes))).round().astype(int)))
    strip = Image.new("RGB", (w, h * len(picks)))
    for row, i in enumerate(picks):
        strip.paste(scene_to_image(scenes[i], supersample=supersample), (0, row * h))
    to_indexed = _PaletteMapper(strip)

    def indexed(k: int) -> Image.Image:
        img = to_indexed(scene_to_image(scenes[k], supersample=supersample))
        if progress is not None:
            progress(k + 1, len(scenes))
        return img

    first = indexed(0)
    rest = (indexed(k) for k in range(1, len(scenes)))
    duration = max(1, round(1000.0 / fps))
    with atomic_writer(path) as fh:
        first.save(
            fh, format="GIF", save_all=True, append_images=rest, duration=duration, loop=loop
        )


class _PaletteMapper:
    """RGB image -> "P" image on one fixed palette: the 256 most frequent colours of a sample.

    Popularity rather than median cut: median cut averages the background with its
    antialiasing neighbours (an off-white background); a diagram's flat colours are
    its most frequent ones and should come out exact.

    Pillow maps RGB to a palette through a cache of 64 levels per channel, choosing
    for each cache cell the entry nearest the cell's *lower corner*: white (255)
    would go to a near-white entry such as 251. So the mapping runs on colours
    floored to multiples of 4 (every cell corner then is the colour itself), with
    at most one palette entry per cell (the most frequent), and the exact colours
    are written back as the palette afterwards.
    """

    def __init__(self, sample: Image.Image) -> None:
        counts = sample.getcolors(sample.width * sample.height) or []
        top: list[tuple[int, int, int]] = []
        seen: set[tuple[int, int, int]] = set()
        for _, rgb in sorted(counts, key=lambda c: -c[0]):
            cell = (rgb[0] >> 2, rgb[1] >> 2, rgb[2] >> 2)
            if cell not in seen:
                seen.add(cell)
                top.append(rgb)
                if len(top) == 256:
                    break
        pad = [top[0]] * (256 - len(top))
        self.exact = [v for rgb in top + pad for v in rgb]
        self.snapped = Image.new("P", (1, 1))
        self.snapped.putpalette([v & 0xFC for v in self.exact])

    def __call__(self, img: Image.Image) -> Image.Image:
        snapped = img.point([v & 0xFC for v in range(256)] * 3)
        out = snapped.quantize(palette=self.snapped, dither=Image.Dither.NONE)
        out.putpalette(self.exact)
        return out


# ---------------------------------------------------------------- helpers
def _rgb(color: str) -> tuple[int, int, int]:
    r, g, b = ImageColor.getrgb(color)[:3]
    return (r, g, b)


def _rgba(color: str, alpha: float = 1.0) -> tuple[int, int, int, int]:
    r, g, b = _rgb(color)
    return (r, g, b, int(round(255 * min(max(float(alpha), 0.0), 1.0))))


def _w(width: float, ss: float) -> int:
    return max(1, int(round(float(width) * ss)))


@lru_cache(maxsize=32)
def _font(family: str, bold: bool, size: int) -> Any:
    for name in _FONT_FILES[(family, bold)]:
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # pragma: no cover - Pillow < 10.1: fixed-size bitmap font only
        return ImageFont.load_default()


def _dashed(p0: np.ndarray, p1: np.ndarray, dash: tuple[float, ...]) -> list[np.ndarray]:
    """The 'on' pieces of a dashed segment, shape (2, 2) each (pattern in the same units)."""
    d = p1 - p0
    length = float(np.hypot(*d))
    if length == 0 or not dash or sum(dash) <= 0:
        return [np.stack([p0, p1])]
    pieces, t, i = [], 0.0, 0
    while t < length:
        step = float(dash[i % len(dash)])
        if i % 2 == 0:
            t1 = min(t + step, length)
            pieces.append(np.stack([p0 + d * (t / length), p0 + d * (t1 / length)]))
        t += step
        i += 1
    return pieces


def _paint_line(
    draw: ImageDraw.ImageDraw, pts: np.ndarray, rgba: tuple[int, ...], width: int, caps: bool
) -> None:
    draw.line([tuple(p) for p in pts.tolist()], fill=rgba, width=width, joint="curve")
    if caps and width >= 3:
        # Pillow lines have butt ends; round caps as on the canvas (opaque lines only,
        # or the overlap would show darker).
        r = width / 2.0
        for x, y in (pts[0], pts[-1]):
            draw.ellipse([x - r, y - r, x + r, y + r], fill=rgba)


# ---------------------------------------------------------------- painters
def _segments(draw: ImageDraw.ImageDraw, item: Segments, ss: float) -> None:
    k = len(item)
    colors, widths, alphas = (per_item(v, k) for v in (item.color, item.width, item.alpha))
    dash = tuple(d * ss for d in item.dash)
    for (p0, p1), c, w, a in zip(item.points * ss, colors, widths, alphas, strict=True):
        rgba = _rgba(c, a)
        for piece in _dashed(p0, p1, dash):
            _paint_line(draw, piece, rgba, _w(w, ss), caps=a >= 1.0)


def _polylines(draw: ImageDraw.ImageDraw, item: Polylines, ss: float) -> None:
    k = len(item)
    colors, widths, alphas = (per_item(v, k) for v in (item.color, item.width, item.alpha))
    dash = tuple(d * ss for d in item.dash)
    for line, c, w, a in zip(item.split(), colors, widths, alphas, strict=True):
        rgba, width = _rgba(c, a), _w(w, ss)
        pts = line * ss
        if dash:
            for p0, p1 in zip(pts[:-1], pts[1:], strict=True):
                for piece in _dashed(p0, p1, dash):
                    _paint_line(draw, piece, rgba, width, caps=False)
        else:
            _paint_line(draw, pts, rgba, width, caps=a >= 1.0)


def _polygons(draw: ImageDraw.ImageDraw, item: Polygons, ss: float) -> None:
    k = len(item)
    fills = per_item(item.fill, k) if item.fill is not None else [None] * k
    alphas = per_item(item.alpha, k)
    for poly, c, a in zip(item.split(), fills, alphas, strict=True):
        xy = [tuple(p) for p in (poly * ss).tolist()]
        draw.polygon(
            xy,
            fill=None if c is None else _rgba(c, a),
            outline=None if item.stroke is None else _rgba(item.stroke, a),
            width=_w(item.width, ss) if item.stroke is not None else 0,
        )


def _disks(draw: ImageDraw.ImageDraw, item: Disks, ss: float) -> None:
    k = len(item)
    fills = per_item(item.fill, k) if item.fill is not None else [None] * k
    radii = per_item(item.radius, k) * ss
    outline = None if item.stroke is None else _rgba(item.stroke, item.alpha)
    width = _w(item.width, ss)
    for (x, y), r, c in zip(item.centers * ss, radii, fills, strict=True):
        if c is not None:
            draw.ellipse([x - r, y - r, x + r, y + r], fill=_rgba(c, item.alpha))
        if outline is not None:
            # Centre the outline on the radius, as a canvas stroke is (Pillow draws it inside).
            ro = r + width / 2.0
            draw.ellipse([x - ro, y - ro, x + ro, y + ro], outline=outline, width=width)


def _arrows(draw: ImageDraw.ImageDraw, item: Arrows, ss: float) -> None:
    colors = per_item(item.color, len(item))
    width = _w(item.width, ss)
    for shaft, head, c in zip(item.shafts * ss, item.heads * ss, colors, strict=True):
        rgba = _rgba(c, item.alpha)
        draw.line([tuple(p) for p in shaft.tolist()], fill=rgba, width=width)
        draw.polygon([tuple(p) for p in head.tolist()], fill=rgba)


def _arcs(draw: ImageDraw.ImageDraw, item: Arcs, ss: float) -> None:
    rgba = _rgba(item.color, item.alpha)
    width = _w(item.width, ss)
    for (x, y), r, a0, a1 in zip(
        item.centers * ss, item.radius * ss, item.start, item.end, strict=True
    ):
        if a1 - a0 <= 1e-9:
            continue
        ro = r + width / 2.0  # Pillow grows arc width inwards from the box
        # Pillow's arc angles: degrees, clockwise from 3 o'clock, as the scene's pixel frame.
        draw.arc(
            [x - ro, y - ro, x + ro, y + ro],
            math.degrees(a0),
            math.degrees(a1),
            fill=rgba,
            width=width,
        )


def _texts(draw: ImageDraw.ImageDraw, item: Texts, ss: float) -> None:
    font = _font(item.font, item.bold, max(1, int(round(item.size * ss))))
    anchor = _ANCHOR_X[item.align] + _ANCHOR_Y[item.baseline]
    fill = _rgba(item.color)
    halo = {} if item.halo is None else {"stroke_width": _w(item.size / 8.0, ss)}
    if item.halo is not None:
        halo["stroke_fill"] = _rgba(item.halo)
    for text, (x, y) in zip(item.texts, (item.positions * ss).tolist(), strict=True):
        try:
            draw.text((x, y), text, fill=fill, font=font, anchor=anchor, **halo)
        except ValueError:  # pragma: no cover - bitmap fallback font: no anchors
            draw.text((x, y), text, fill=fill, font=font)


def _rects(draw: ImageDraw.ImageDraw, item: Rects, ss: float) -> None:
    fill = None if item.fill is None else _rgba(item.fill, item.alpha)
    outline = None if item.stroke is None else _rgba(item.stroke, item.alpha)
    for x, y, w, h in (item.rects * ss).tolist():
        draw.rectangle(
            [x, y, x + w, y + h],
            fill=fill,
            outline=outline,
            width=_w(item.width, ss) if outline is not None else 0,
        )


_PAINT: dict[type, Callable[[ImageDraw.ImageDraw, Any, float], None]] = {
    Segments: _segments,
    Polylines: _polylines,
    Polygons: _polygons,
    Disks: _disks,
    Arrows: _arrows,
    Arcs: _arcs,
    Texts: _texts,
    Rects: _rects,
}
