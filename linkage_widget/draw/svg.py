"""Draw a scene (any :class:`~linkage_widget.draw.primitives.Picture`) as a standalone SVG document.

The output is deterministic: numbers are written with at most two decimals
(trailing zeros dropped, ``-0`` written ``0``), attributes in a fixed order and
one element per line, so golden-file tests can compare text and diffs stay
readable. Each primitive becomes a ``<g class="ROLE">`` carrying the style
shared by its items; per-item styles go on the items.

Every text and attribute is well-formed XML 1.0 whatever a joint name or a file name
holds: characters XML does not allow (control characters, lone surrogates, U+FFFE,
U+FFFF) become U+FFFD, the replacement character (:func:`xml_text`).

Examples
--------
>>> from linkage_widget import Linkage
>>> from linkage_widget.draw import ViewTransform, build_scene
>>> link = Linkage([[0, 0], [1, 0]], rods=[(0, 1)])
>>> svg = scene_to_svg(build_scene(link, ViewTransform.fit(link.vertices, 200, 100)))
>>> svg.splitlines()[0]
'<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 200 100">'
>>> '<g class="rods"' in svg
True
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from os import PathLike
from typing import Any
from xml.sax.saxutils import escape, quoteattr

import numpy as np

from ..io import atomic_write
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
)

__all__ = ["scene_to_svg", "save_svg", "xml_text"]

_FONT_FAMILY = {
    "sans-serif": "DejaVu Sans, Helvetica, Arial, sans-serif",
    "monospace": "DejaVu Sans Mono, Menlo, Consolas, monospace",
}
_ANCHOR = {"left": "start", "center": "middle", "right": "end"}
_BASELINE = {"top": "text-before-edge", "middle": "central", "bottom": "text-after-edge"}


# What XML 1.0 allows (its production Char), as the complement of a class.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(text: object) -> str:
    r"""``text`` with each character XML 1.0 does not allow replaced by U+FFFD.

    Control characters (but tab, newline, carriage return), lone surrogates and U+FFFE,
    U+FFFF cannot appear in an XML document, not even as character references; the
    result also encodes to UTF-8.

    >>> xml_text("a\x01b\ud800c\td") == "a\ufffdb\ufffdc\td"
    True
    """
    return _NOT_XML.sub("\ufffd", str(text))


def _n(x: Any) -> str:
    """A number with at most two decimals, no trailing zeros, no ``-0``."""
    s = f"{float(x):.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _pts(points: np.ndarray) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in np.asarray(points).reshape(-1, 2).tolist())


def _attrs(**kw: Any) -> str:
    """``key="value"`` pairs in the given order; ``None`` values left out; ``_`` -> ``-``."""
    parts = []
    for key, value in kw.items():
        if value is None:
            continue
        if isinstance(value, float | int | np.floating | np.integer) and not isinstance(
            value, bool
        ):
            value = _n(value)
        parts.append(f"{key.rstrip('_').replace('_', '-')}={quoteattr(xml_text(value))}")
    return (" " + " ".join(parts)) if parts else ""


def _dash(dash: tuple[float, ...]) -> str | None:
    return " ".join(_n(d) for d in dash) if dash else None


def _uniform(value: Any) -> Any:
    """The shared value of a style field, or ``None`` if it varies per item."""
    if is_uniform(value):
        return value
    arr = np.asarray(value, dtype=object if isinstance(value, tuple) else np.float64)
    if len(arr) and all(v == arr[0] for v in arr.tolist()):
        return arr[0].item() if hasattr(arr[0], "item") else arr[0]
    return None


def _opacity(alpha: Any) -> float | None:
    return None if alpha is None or float(alpha) == 1.0 else float(alpha)


def scene_to_svg(scene: Picture) -> str:
    """The scene as an SVG document (a string ending in a newline).

    Parameters
    ----------
    scene : Scene or Picture

    Returns
    -------
    str
        ``<svg>`` with ``width``, ``height`` and ``viewBox`` in pixels, the
        background rectangle, then one ``<g>`` per primitive in draw order.
    """
    w, h = int(scene.width), int(scene.height)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">',
        f"<rect{_attrs(x=0, y=0, width=w, height=h, fill=scene.background)}/>",
    ]
    for item in scene.items:
        out.extend(_WRITE[type(item)](item))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def save_svg(scene: Picture, path: str | PathLike[str]) -> None:
    """Write :func:`scene_to_svg` to ``path`` (UTF-8) through the one atomic writer.

    The document is built first, so a scene that cannot be drawn leaves no file;
    the file gets the permissions of an ordinary new file (``0o666 & ~umask``).

    Raises
    ------
    OSError
        ``cannot save '<path>': ...``; an existing file is then untouched.
    """
    atomic_write(path, scene_to_svg(scene))


# ---------------------------------------------------------------- writers
def _group(role: str, **style: Any) -> str:
    return f"<g{_attrs(class_=role or None, **style)}>"


def _segments(item: Segments) -> Iterable[str]:
    k = len(item)
    color, width, alpha = _uniform(item.color), _uniform(item.width), _uniform(item.alpha)
    yield _group(
        item.role,
        fill="none",
        stroke=color,
        stroke_width=width,
        stroke_opacity=_opacity(alpha),
        stroke_linecap="round",
        stroke_dasharray=_dash(item.dash),
    )
    if color is not None and width is not None and alpha is not None:
        d = " ".join(
            f"M{_n(x0)} {_n(y0)}L{_n(x1)} {_n(y1)}" for (x0, y0), (x1, y1) in item.points.tolist()
        )
        yield f'<path d="{d}"/>'
    else:
        colors, widths, alphas = (per_item(v, k) for v in (item.color, item.width, item.alpha))
        for i, ((x0, y0), (x1, y1)) in enumerate(item.points.tolist()):
            yield (
                "<line"
                + _attrs(
                    x1=x0,
                    y1=y0,
                    x2=x1,
                    y2=y1,
                    stroke=None if color is not None else colors[i],
                    stroke_width=None if width is not None else float(widths[i]),
                    stroke_opacity=None if alpha is not None else _opacity(alphas[i]),
                )
                + "/>"
            )
    yield "</g>"


def _polylines(item: Polylines) -> Iterable[str]:
    k = len(item)
    color, width, alpha = _uniform(item.color), _uniform(item.width), _uniform(item.alpha)
    yield _group(
        item.role,
        fill="none",
        stroke=color,
        stroke_width=width,
        stroke_opacity=_opacity(alpha),
        stroke_linecap="round",
        stroke_linejoin="round",
        stroke_dasharray=_dash(item.dash),
    )
    colors, widths, alphas = (per_item(v, k) for v in (item.color, item.width, item.alpha))
    for i, line in enumerate(item.split()):
        yield (
            "<polyline"
            + _attrs(
                points=_pts(line),
                stroke=None if color is not None else colors[i],
                stroke_width=None if width is not None else float(widths[i]),
                stroke_opacity=None if alpha is not None else _opacity(alphas[i]),
            )
            + "/>"
        )
    yield "</g>"


def _polygons(item: Polygons) -> Iterable[str]:
    k = len(item)
    fill = "none" if item.fill is None else _uniform(item.fill)
    alpha = _uniform(item.alpha)
    yield _group(
        item.role,
        fill=fill,
        fill_opacity=_opacity(alpha),
        stroke=item.stroke,
        stroke_width=item.width if item.stroke is not None else None,
        stroke_linejoin="round" if item.stroke is not None else None,
    )
    fills = per_item(item.fill, k) if item.fill is not None else None
    alphas = per_item(item.alpha, k)
    for i, poly in enumerate(item.split()):
        yield (
            "<polygon"
            + _attrs(
                points=_pts(poly),
                fill=None if fill is not None else fills[i],
                fill_opacity=None if alpha is not None else _opacity(alphas[i]),
            )
            + "/>"
        )
    yield "</g>"


def _disks(item: Disks) -> Iterable[str]:
    k = len(item)
    fill = "none" if item.fill is None else _uniform(item.fill)
    radius = _uniform(item.radius)
    yield _group(
        item.role,
        fill=fill,
        stroke=item.stroke,
        stroke_width=item.width if item.stroke is not None else None,
        opacity=_opacity(item.alpha),
    )
    fills = per_item(item.fill, k) if item.fill is not None else None
    radii = per_item(item.radius, k)
    for i, (x, y) in enumerate(item.centers.tolist()):
        yield (
            "<circle"
            + _attrs(
                cx=x,
                cy=y,
                r=float(radius if radius is not None else radii[i]),
                fill=None if fill is not None else fills[i],
            )
            + "/>"
        )
    yield "</g>"


def _arrows(item: Arrows) -> Iterable[str]:
    k = len(item)
    color = _uniform(item.color)
    yield _group(
        item.role,
        stroke=color,
        fill=color,
        stroke_width=item.width,
        opacity=_opacity(item.alpha),
    )
    colors = per_item(item.color, k)
    for i in range(k):
        (x0, y0), (x1, y1) = item.shafts[i].tolist()
        c = None if color is not None else colors[i]
        yield "<line" + _attrs(x1=x0, y1=y0, x2=x1, y2=y1, stroke=c) + "/>"
        yield "<polygon" + _attrs(points=_pts(item.heads[i]), fill=c, stroke="none") + "/>"
    yield "</g>"


def _arc_path(cx: float, cy: float, r: float, a0: float, a1: float) -> str:
    """SVG path of the arc from angle ``a0`` to ``a1 >= a0`` (pixel frame, clockwise on screen)."""
    sweep = a1 - a0
    if sweep >= 2 * math.pi - 1e-9:  # one A command cannot draw a full circle: two halves
        return (
            f"M{_n(cx + r)} {_n(cy)}A{_n(r)} {_n(r)} 0 1 1 {_n(cx - r)} {_n(cy)}"
            f"A{_n(r)} {_n(r)} 0 1 1 {_n(cx + r)} {_n(cy)}"
        )
    large = 1 if sweep > math.pi else 0
    x0, y0 = cx + r * math.cos(a0), cy + r * math.sin(a0)
    x1, y1 = cx + r * math.cos(a1), cy + r * math.sin(a1)
    # sweep-flag 1 = increasing angle, which is clockwise on a y-down screen (as canvas arcs)
    return f"M{_n(x0)} {_n(y0)}A{_n(r)} {_n(r)} 0 {large} 1 {_n(x1)} {_n(y1)}"


def _arcs(item: Arcs) -> Iterable[str]:
    yield _group(
        item.role,
        fill="none",
        stroke=item.color,
        stroke_width=item.width,
        stroke_opacity=_opacity(item.alpha),
        stroke_linecap="round",
    )
    for (cx, cy), r, a0, a1 in zip(
        item.centers.tolist(),
        item.radius.tolist(),
        item.start.tolist(),
        item.end.tolist(),
        strict=True,
    ):
        yield f'<path d="{_arc_path(cx, cy, r, a0, a1)}"/>'
    yield "</g>"


def _texts(item: Texts) -> Iterable[str]:
    yield _group(
        item.role,
        fill=item.color,
        font_family=_FONT_FAMILY[item.font],
        font_size=item.size,
        font_weight="bold" if item.bold else None,
        text_anchor=_ANCHOR[item.align],
        dominant_baseline=_BASELINE[item.baseline],
        stroke=item.halo,
        stroke_width=None if item.halo is None else item.size / 4.0,
        stroke_linejoin=None if item.halo is None else "round",
        paint_order=None if item.halo is None else "stroke",
    )
    for text, (x, y) in zip(item.texts, item.positions.tolist(), strict=True):
        yield f'<text{_attrs(x=x, y=y)} xml:space="preserve">{escape(xml_text(text))}</text>'
    yield "</g>"


def _rects(item: Rects) -> Iterable[str]:
    yield _group(
        item.role,
        fill="none" if item.fill is None else item.fill,
        stroke=item.stroke,
        stroke_width=item.width if item.stroke is not None else None,
        opacity=_opacity(item.alpha),
    )
    for x, y, w, h in item.rects.tolist():
        yield f"<rect{_attrs(x=x, y=y, width=w, height=h)}/>"
    yield "</g>"


_WRITE: dict[type, Callable[[Any], Iterable[str]]] = {
    Segments: _segments,
    Polylines: _polylines,
    Polygons: _polygons,
    Disks: _disks,
    Arrows: _arrows,
    Arcs: _arcs,
    Texts: _texts,
    Rects: _rects,
}
