"""Backend-neutral drawing primitives for a linkage, in pixel coordinates.

:func:`build_scene` turns a :class:`~linkage_widget.model.Linkage`, a
:class:`~linkage_widget.draw.view.ViewTransform` and the UI state
(:class:`SceneState`) into a :class:`Scene`: a background colour and a list of
small frozen primitives, in draw order. The backends
(:mod:`~linkage_widget.draw.canvas`, :mod:`~linkage_widget.draw.svg`,
:mod:`~linkage_widget.draw.raster`) only translate primitives; every
decision about what is drawn, where and in which colour is made here, once
(the pymunk debug-draw idea). Tests assert on the primitive stream.

Conventions of every primitive

- Coordinates are canvas pixels (x right, y down), float64 NumPy arrays.
- Colours are CSS hex strings ``"#rrggbb"``; opacity is a separate ``alpha``.
  A style field holds either one value for all items or a tuple/array with one
  value per item (``color``, ``width``, ``alpha``, ``fill`` …); use
  :func:`per_item` to broadcast.
- ``role`` names what the primitive shows (``"rods"``, ``"vertices"``,
  ``"velocities"`` …; see :data:`ROLES`), for tests, SVG classes and
  debugging. :meth:`Scene.by_role` finds them.

Draw order (bottom to top): tracks, selected-rod highlight, springs, rods,
redundant-rod overlay, angle wedges and arcs, attractor link, pins, vertices, selection
rings, velocity arrows, attractor, legend, info panel, error, hint.

Examples
--------
>>> from linkage_widget import Linkage
>>> from linkage_widget.draw.view import ViewTransform
>>> link = Linkage([[0, 0], [1, 0], [0, 1]], rods=[(0, 1), (1, 2)], pinned=[0])
>>> view = ViewTransform.fit(link.vertices, 400, 300)
>>> scene = build_scene(link, view, SceneState(hint="drag a vertex"))
>>> [item.role for item in scene.items]
['rods', 'pins', 'pins', 'vertices', 'hint']
>>> scene.by_role("rods")[0].points.shape
(2, 2, 2)
>>> hit_test(link, view, *view.to_pixel([1, 0]))
('vertex', 1)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .view import ViewTransform

if TYPE_CHECKING:  # pragma: no cover
    from ..model import Linkage

__all__ = [
    "Arcs",
    "Arrows",
    "Disks",
    "Polygons",
    "Polylines",
    "Primitive",
    "ROLES",
    "Rects",
    "Scene",
    "SceneState",
    "Segments",
    "Texts",
    "Theme",
    "DEFAULT_THEME",
    "build_scene",
    "hit_test",
    "per_item",
]

#: Every role :func:`build_scene` emits, in draw order.
ROLES = (
    "tracks",
    "rod-highlight",
    "springs",
    "rods",
    "rods-redundant",
    "angles",
    "attractor-link",
    "pins",
    "vertices",
    "selected-vertex",
    "attracted-vertex",
    "velocities",
    "attractor",
    "legend",
    "info",
    "error",
    "hint",
)

ColorSpec = str | tuple[str, ...]
FloatSpec = float | np.ndarray


# ============================================================== primitives
def per_item(value: Any, k: int) -> np.ndarray:
    """Broadcast a style field (one value, or one per item) to an array of ``k`` items.

    Parameters
    ----------
    value : str, float, tuple or ndarray
        A scalar style value or a sequence of ``k`` values.
    k : int
        Number of items.

    Returns
    -------
    ndarray, shape (k,)
        Object array for strings, float64 otherwise.

    Examples
    --------
    >>> per_item("#ff0000", 2).tolist()
    ['#ff0000', '#ff0000']
    >>> per_item(2.0, 3).tolist()
    [2.0, 2.0, 2.0]
    """
    if isinstance(value, str):
        out = np.empty(k, dtype=object)
        out[:] = value
        return out
    if isinstance(value, tuple) and value and isinstance(value[0], str):
        if len(value) != k:
            raise ValueError(f"expected {k} per-item values, got {len(value)}")
        out = np.empty(k, dtype=object)
        out[:] = value
        return out
    arr = np.asarray(value, dtype=np.float64)
    if arr.ndim == 0:
        return np.full(k, float(arr))
    if arr.shape != (k,):
        raise ValueError(f"expected {k} per-item values, got shape {arr.shape}")
    return arr


def is_uniform(value: Any) -> bool:
    """Whether a style field holds one value for all items (a scalar or a string)."""
    return isinstance(value, str) or np.ndim(value) == 0


def _frozen(arr: np.ndarray) -> np.ndarray:
    # Primitives are values: a recorded frame must not change when the caller's array does.
    arr = np.array(arr, copy=True)
    arr.flags.writeable = False
    return arr


def _points(a: Any, tail: tuple[int, ...]) -> np.ndarray:
    arr = np.asarray(a, dtype=np.float64)
    if arr.size == 0:
        arr = arr.reshape((0, *tail))
    if arr.shape[1:] != tail:
        raise ValueError(f"expected shape (k, {', '.join(map(str, tail))}), got {arr.shape}")
    return _frozen(arr)


def _style(value: Any) -> Any:
    """A style field as stored: strings and scalars as given, tuples as tuples, arrays frozen."""
    if isinstance(value, str | tuple) or value is None or np.ndim(value) == 0:
        return value
    return _frozen(np.asarray(value, dtype=np.float64))


def _init_flat(item: Any, minimum: int) -> None:
    """Freeze ``item.points`` (N, 2) and ``item.counts`` (k,) of a flat list of point runs."""
    object.__setattr__(item, "points", _points(item.points, (2,)))
    counts = np.asarray(item.counts, dtype=np.int64).reshape(-1)
    if counts.sum() != len(item.points) or np.any(counts < minimum):
        raise ValueError(f"counts must be >= {minimum} and sum to the number of points")
    object.__setattr__(item, "counts", _frozen(counts))


def _split_flat(points: np.ndarray, counts: np.ndarray) -> list[np.ndarray]:
    """A flat list of point runs as a list of ``(c, 2)`` arrays."""
    return np.split(points, np.cumsum(counts)[:-1]) if len(counts) else []


@dataclass(frozen=True, eq=False)
class Segments:
    """Straight line segments (rods, crosshairs, dashed links).

    Attributes
    ----------
    points : ndarray, shape (k, 2, 2)
        ``points[s] = [[x0, y0], [x1, y1]]`` in pixels.
    color : str or tuple of k str
        Stroke colour(s).
    width : float or ndarray, shape (k,)
        Line width(s) in pixels.
    alpha : float or ndarray, shape (k,)
        Opacity in ``[0, 1]``.
    dash : tuple of float
        Dash pattern in pixels (on, off, …); empty for solid lines.
    role : str
    """

    points: np.ndarray
    color: ColorSpec = "#000000"
    width: FloatSpec = 1.0
    alpha: FloatSpec = 1.0
    dash: tuple[float, ...] = ()
    role: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "points", _points(self.points, (2, 2)))
        object.__setattr__(self, "width", _style(self.width))
        object.__setattr__(self, "alpha", _style(self.alpha))

    def __len__(self) -> int:
        return len(self.points)


@dataclass(frozen=True, eq=False)
class Polylines:
    """Open polylines (tracks, springs) stored flat.

    Attributes
    ----------
    points : ndarray, shape (N, 2)
        All vertices of all polylines, one after the other, in pixels.
    counts : ndarray, shape (k,), int
        Points per polyline (each >= 2); ``counts.sum() == N``.
    color, width, alpha, dash, role
        As for :class:`Segments` (per polyline).
    """

    points: np.ndarray
    counts: np.ndarray
    color: ColorSpec = "#000000"
    width: FloatSpec = 1.0
    alpha: FloatSpec = 1.0
    dash: tuple[float, ...] = ()
    role: str = ""

    def __post_init__(self) -> None:
        _init_flat(self, minimum=2)
        object.__setattr__(self, "width", _style(self.width))
        object.__setattr__(self, "alpha", _style(self.alpha))

    def __len__(self) -> int:
        return len(self.counts)

    def split(self) -> list[np.ndarray]:
        """The polylines as a list of ``(c, 2)`` arrays."""
        return _split_flat(self.points, self.counts)


@dataclass(frozen=True, eq=False)
class Polygons:
    """Closed polygons (pin supports, arrow heads) stored flat.

    Attributes
    ----------
    points : ndarray, shape (N, 2)
        All corners, polygon after polygon, in pixels.
    counts : ndarray, shape (k,), int
        Corners per polygon (each >= 3).
    fill : str, tuple of k str, or None
        Fill colour(s); ``None`` for no fill.
    stroke : str or None
        Outline colour; ``None`` for no outline.
    width : float
        Outline width in pixels.
    alpha : float or ndarray, shape (k,)
    role : str
    """

    points: np.ndarray
    counts: np.ndarray
    fill: ColorSpec | None = "#000000"
    stroke: str | None = None
    width: float = 1.0
    alpha: FloatSpec = 1.0
    role: str = ""

    def __post_init__(self) -> None:
        _init_flat(self, minimum=3)
        object.__setattr__(self, "alpha", _style(self.alpha))

    def __len__(self) -> int:
        return len(self.counts)

    def split(self) -> list[np.ndarray]:
        """The polygons as a list of ``(c, 2)`` arrays."""
        return _split_flat(self.points, self.counts)


@dataclass(frozen=True, eq=False)
class Disks:
    """Circles, filled and/or outlined (vertices, selection rings).

    Attributes
    ----------
    centers : ndarray, shape (k, 2)
        Centres in pixels.
    radius : float or ndarray, shape (k,)
        Radii in pixels.
    fill : str, tuple of k str, or None
        Fill colour(s); ``None`` for rings.
    stroke : str or None
        Outline colour; ``None`` for no outline.
    width : float
        Outline width in pixels.
    alpha : float
    role : str
    """

    centers: np.ndarray
    radius: FloatSpec = 5.0
    fill: ColorSpec | None = "#000000"
    stroke: str | None = None
    width: float = 1.0
    alpha: float = 1.0
    role: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "centers", _points(self.centers, (2,)))
        object.__setattr__(self, "radius", _style(self.radius))

    def __len__(self) -> int:
        return len(self.centers)


@dataclass(frozen=True, eq=False)
class Arrows:
    """Arrows with filled triangular heads; geometry precomputed (see :meth:`from_vectors`).

    Attributes
    ----------
    shafts : ndarray, shape (k, 2, 2)
        Tail to the base of the head, in pixels.
    heads : ndarray, shape (k, 3, 2)
        Triangle corners: tip, then the two base corners.
    color : str or tuple of k str
        One colour per arrow (shaft and head).
    width : float
        Shaft width in pixels.
    alpha : float
    role : str
    """

    shafts: np.ndarray
    heads: np.ndarray
    color: ColorSpec = "#000000"
    width: float = 2.0
    alpha: float = 1.0
    role: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "shafts", _points(self.shafts, (2, 2)))
        object.__setattr__(self, "heads", _points(self.heads, (3, 2)))
        if len(self.shafts) != len(self.heads):
            raise ValueError("shafts and heads must have the same length")

    def __len__(self) -> int:
        return len(self.shafts)

    @property
    def tails(self) -> np.ndarray:
        """Arrow tails, shape ``(k, 2)``."""
        return self.shafts[:, 0]

    @property
    def tips(self) -> np.ndarray:
        """Arrow tips, shape ``(k, 2)``."""
        return self.heads[:, 0]

    @classmethod
    def from_vectors(
        cls,
        tails: Any,
        vectors: Any,
        *,
        head_length: float = 10.0,
        head_width: float = 8.0,
        **style: Any,
    ) -> Arrows:
        """Arrows from tails and pixel vectors, heads computed for all arrows at once.

        Parameters
        ----------
        tails, vectors : array_like, shape (k, 2)
            Start points and displacements in pixels (non-zero vectors).
        head_length, head_width : float
            Head size in pixels; short arrows get proportionally smaller heads
            (at most 45 % of the arrow) so the head never overshoots the tail.
        **style
            ``color``, ``width``, ``alpha``, ``role``.
        """
        p = _points(tails, (2,))
        v = _points(vectors, (2,))
        length = np.hypot(v[:, 0], v[:, 1])
        with np.errstate(invalid="ignore", divide="ignore"):
            u = np.where(length[:, None] > 0, v / length[:, None], 0.0)
        hl = np.minimum(head_length, 0.45 * length)
        hw = head_width * hl / head_length
        tip = p + v
        base = tip - u * hl[:, None]
        perp = np.column_stack([-u[:, 1], u[:, 0]]) * (hw / 2.0)[:, None]
        heads = np.stack([tip, base + perp, base - perp], axis=1)
        shafts = np.stack([p, base], axis=1)
        return cls(shafts, heads, **style)


@dataclass(frozen=True, eq=False)
class Arcs:
    """Circular arcs (fixed angles).

    Each arc runs from ``start`` to ``end`` through increasing angle; angles are
    radians in the pixel frame (0 along +x, increasing clockwise on screen since
    y points down), as canvas ``arc(..., anticlockwise=False)`` and Pillow's
    ``ImageDraw.arc`` use them. ``0 <= end - start <= 2*pi``.

    Attributes
    ----------
    centers : ndarray, shape (k, 2)
    radius : ndarray, shape (k,)
    start, end : ndarray, shape (k,)
    color : str
    width : float
    alpha : float
    role : str
    """

    centers: np.ndarray
    radius: np.ndarray
    start: np.ndarray
    end: np.ndarray
    color: str = "#000000"
    width: float = 1.0
    alpha: float = 1.0
    role: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "centers", _points(self.centers, (2,)))
        k = len(self.centers)
        for name in ("radius", "start", "end"):
            object.__setattr__(self, name, _frozen(per_item(getattr(self, name), k)))

    def __len__(self) -> int:
        return len(self.centers)


@dataclass(frozen=True, eq=False)
class Texts:
    """Text lines sharing one style.

    Attributes
    ----------
    texts : tuple of str
    positions : ndarray, shape (k, 2)
        Anchor points in pixels.
    color : str
    size : float
        Font size in pixels.
    font : {"sans-serif", "monospace"}
    bold : bool
    align : {"left", "center", "right"}
        Horizontal anchor.
    baseline : {"top", "middle", "bottom"}
        Vertical anchor.
    role : str
    """

    texts: tuple[str, ...]
    positions: np.ndarray
    color: str = "#000000"
    size: float = 14.0
    font: str = "sans-serif"
    bold: bool = False
    align: str = "left"
    baseline: str = "top"
    role: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "texts", tuple(str(t) for t in self.texts))
        object.__setattr__(self, "positions", _points(self.positions, (2,)))
        if len(self.texts) != len(self.positions):
            raise ValueError("one position per text")
        if self.align not in ("left", "center", "right"):
            raise ValueError(f"align must be left, center or right, got {self.align!r}")
        if self.baseline not in ("top", "middle", "bottom"):
            raise ValueError(f"baseline must be top, middle or bottom, got {self.baseline!r}")
        if self.font not in ("sans-serif", "monospace"):
            raise ValueError(f"font must be sans-serif or monospace, got {self.font!r}")

    def __len__(self) -> int:
        return len(self.texts)

    @property
    def css_font(self) -> str:
        """The CSS ``font`` shorthand, e.g. ``"bold 14px sans-serif"``."""
        return f"{'bold ' if self.bold else ''}{_fmt_px(self.size)}px {self.font}"


@dataclass(frozen=True, eq=False)
class Rects:
    """Axis-aligned rectangles (panel backgrounds).

    Attributes
    ----------
    rects : ndarray, shape (k, 4)
        ``x, y, width, height`` in pixels (top-left corner).
    fill : str or None
    stroke : str or None
    width : float
        Outline width.
    alpha : float
    role : str
    """

    rects: np.ndarray
    fill: str | None = "#ffffff"
    stroke: str | None = None
    width: float = 1.0
    alpha: float = 1.0
    role: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "rects", _points(self.rects, (4,)))

    def __len__(self) -> int:
        return len(self.rects)


Primitive = Segments | Polylines | Polygons | Disks | Arrows | Arcs | Texts | Rects


def _fmt_px(x: float) -> str:
    return f"{x:g}"


@dataclass
class Scene:
    """What to draw: canvas size, background and primitives in draw order.

    Attributes
    ----------
    width, height : int
        Canvas size in pixels.
    background : str
        Background colour (``"#rrggbb"``); backends paint it first.
    items : list of Primitive
        Bottom to top.
    """

    width: int
    height: int
    background: str = "#ffffff"
    items: list[Primitive] = field(default_factory=list)

    def by_role(self, role: str) -> list[Primitive]:
        """All primitives with this role, in draw order."""
        return [item for item in self.items if item.role == role]

    def roles(self) -> list[str]:
        """The role of every primitive, in draw order (repeats kept)."""
        return [item.role for item in self.items]

    def _repr_svg_(self) -> str:
        # Jupyter shows a Scene as its SVG picture (handy when debugging a drawing).
        from .svg import scene_to_svg

        return scene_to_svg(self)

    def add(self, item: Primitive) -> None:
        """Append ``item`` unless it has no elements (backends never see empty primitives)."""
        if len(item):
            self.items.append(item)


# ================================================================== state
@dataclass
class SceneState:
    """Everything the drawing needs besides the linkage and the view.

    All fields are optional. Indices that are out of range and per-rod or
    per-vertex arrays whose length does not match the linkage are ignored
    rather than raised: the widget may hold a stale analysis for one frame
    while the user edits, and a drawing error would freeze the canvas.

    Attributes
    ----------
    selected_vertex, selected_rod : int or None
        Highlighted with an amber ring / an amber band under the rod.
    attractor : (float, float) or None
        World coordinates of the attractor (crosshair).
    attracted_vertex : int or None
        Vertex pulled toward the attractor (ring + dashed link).
    tracked : sequence of int
        Tracked vertices, coloured from :attr:`Theme.track_colors` in this order.
    tracks : mapping int -> ndarray, shape (k, 2)
        World polylines traced by tracked vertices.
    velocity_basis : ndarray, shape (d, n, 2), or None
        Orthonormal basis of infinitesimal motions (world units); drawn as
        arrows, one shade of green per basis vector, scaled so the longest
        arrow is :attr:`Theme.velocity_arrow_px` pixels.
    show_velocities, show_vertices, show_angles, show_info : bool
    show_stresses : bool
        Colour rods by ``rod_stress`` (tension / compression, width and opacity by size).
    show_pebbles : bool
        Colour rods by ``redundant_rods`` (pebble game).
    rod_stress : ndarray, shape (m,), or None
        Signed self-stress per rod, tension > 0 (any scale).
    redundant_rods : ndarray, shape (m,), bool, or None
    springs : sequence of (int, int)
        Drawn as zigzags.
    info_lines : sequence of str
        Readout, top left (when ``show_info``).
    hint : str
        One line at the bottom.
    error : str
        Shown in red above the hint when non-empty.
    """

    selected_vertex: int | None = None
    selected_rod: int | None = None
    attractor: tuple[float, float] | None = None
    attracted_vertex: int | None = None
    tracked: Sequence[int] = ()
    tracks: Mapping[int, np.ndarray] = field(default_factory=dict)
    velocity_basis: np.ndarray | None = None
    show_velocities: bool = True
    show_vertices: bool = True
    show_angles: bool = True
    show_info: bool = True
    show_stresses: bool = False
    show_pebbles: bool = False
    rod_stress: np.ndarray | None = None
    redundant_rods: np.ndarray | None = None
    springs: Sequence[tuple[int, int]] = ()
    info_lines: Sequence[str] = ()
    hint: str = ""
    error: str = ""


@dataclass(frozen=True)
class Theme:
    """Colours and sizes (pixels), chosen for legibility on a projector."""

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
    text: str = "#212121"
    hint_text: str = "#546e7a"
    error_text: str = "#c62828"
    panel: str = "#ffffff"
    panel_alpha: float = 0.85
    font_size: float = 15.0
    hint_size: float = 14.0


DEFAULT_THEME = Theme()


# ================================================================ building
def overlay_insets(info_lines: int, theme: Theme = DEFAULT_THEME) -> tuple[float, float]:
    """Pixels the info panel covers at the top and the hint and error lines at the bottom.

    For fitting a view so that no joint hides under them (``ViewTransform.fit``'s
    ``top``/``bottom``). Matches the layout of :func:`build_scene`.

    >>> overlay_insets(0)[0], overlay_insets(4)[0] > 80
    (0.0, True)
    """
    top = 10.0 + (theme.font_size + 4.0) * info_lines + 14.0 if info_lines else 0.0
    return top, 2.0 * (theme.hint_size + 8.0)


def build_scene(
    linkage: Linkage,
    view: ViewTransform,
    state: SceneState | None = None,
    *,
    theme: Theme = DEFAULT_THEME,
) -> Scene:
    """The primitives that draw ``linkage`` under ``view`` with UI ``state``.

    Parameters
    ----------
    linkage : Linkage
        ``n`` vertices (any ``n >= 0``), ``m`` rods, fixed angles, pins.
    view : ViewTransform
        World -> pixel transform; also gives the canvas size.
    state : SceneState, optional
        Selection, overlays and texts; defaults to ``SceneState()``.
    theme : Theme, optional
        Colours and sizes.

    Returns
    -------
    Scene
        ``view.width`` x ``view.height``, primitives in draw order (see the
        module docstring); empty primitives are left out.
    """
    st = SceneState() if state is None else state
    scene = Scene(view.width, view.height, theme.background)
    P = view.to_pixel(linkage.vertices)  # (n, 2)
    n = len(P)
    rods = np.asarray(linkage.rods, dtype=np.int64).reshape(-1, 2)
    m = len(rods)

    tracked = [int(v) for v in st.tracked if _valid(v, n)]
    track_color = {
        v: theme.track_colors[i % len(theme.track_colors)] for i, v in enumerate(tracked)
    }

    scene.add(_tracks(view, st, n, track_color, theme))
    if st.selected_rod is not None and _valid(st.selected_rod, m):
        r = int(st.selected_rod)
        scene.add(
            Segments(
                P[rods[r]][None],
                theme.rod_highlight,
                theme.rod_highlight_width,
                alpha=0.9,
                role="rod-highlight",
            )
        )
    scene.add(_springs(P, st.springs, theme))
    for item in _rods(P, rods, st, theme):
        scene.add(item)
    if st.show_angles:
        for item in _angle_arcs(
            P, np.asarray(linkage.angles, dtype=np.int64).reshape(-1, 3), theme
        ):
            scene.add(item)

    attracted = st.attracted_vertex if _valid(st.attracted_vertex, n) else None
    attractor_px = (
        view.to_pixel(np.asarray(st.attractor, dtype=np.float64))
        if st.attractor is not None and np.all(np.isfinite(st.attractor))
        else None
    )
    if attractor_px is not None and attracted is not None:
        scene.add(
            Segments(
                np.stack([P[attracted], attractor_px])[None],
                theme.attractor,
                1.5,
                dash=(6.0, 4.0),
                role="attractor-link",
            )
        )

    for item in _pins(P, np.asarray(linkage.pinned, dtype=np.int64), theme):
        scene.add(item)
    if st.show_vertices and n:
        colors = [theme.vertex] * n
        radius = np.full(n, theme.vertex_radius)
        for v, c in track_color.items():
            colors[v] = c
            radius[v] = theme.tracked_radius
        fill: ColorSpec = tuple(colors) if track_color else theme.vertex
        rad: FloatSpec = radius if track_color else theme.vertex_radius
        scene.add(Disks(P, rad, fill, theme.vertex_outline, 1.5, role="vertices"))
    if st.selected_vertex is not None and _valid(st.selected_vertex, n):
        v = int(st.selected_vertex)
        scene.add(
            Disks(
                P[v][None], theme.selected_radius, None, theme.selected, 3.0, role="selected-vertex"
            )
        )
    if attracted is not None:
        scene.add(
            Disks(
                P[attracted][None],
                theme.vertex_radius + 3.5,
                None,
                theme.attractor,
                2.0,
                role="attracted-vertex",
            )
        )
    if st.show_velocities:
        for item in _velocity_arrows(view, P, st.velocity_basis, theme):
            scene.add(item)
    if attractor_px is not None:
        for item in _attractor(attractor_px, theme):
            scene.add(item)
    for item in _legend(view, st, m, theme):
        scene.add(item)
    if st.show_info and len(st.info_lines):
        for item in _info_panel(list(st.info_lines), theme):
            scene.add(item)
    for item in _bottom_texts(view, st, theme):
        scene.add(item)
    return scene


def _valid(i: Any, n: int) -> bool:
    """Whether ``i`` is an integer index in ``range(n)``."""
    if i is None or isinstance(i, bool):
        return False
    try:
        j = int(i)
    except (TypeError, ValueError):
        return False
    return j == i and 0 <= j < n


def _per_rod(values: Any, m: int, dtype: Any) -> np.ndarray | None:
    """``values`` as an ``(m,)`` array, or ``None`` when absent or stale (wrong length)."""
    if values is None:
        return None
    arr = np.asarray(values, dtype=dtype).reshape(-1)
    return arr if arr.shape == (m,) else None


def _rods(P: np.ndarray, rods: np.ndarray, st: SceneState, theme: Theme) -> list[Primitive]:
    """Rods: plain, by stress (sign -> colour, size -> width and opacity) or by pebble game."""
    m = len(rods)
    if m == 0:
        return []
    seg = P[rods]  # (m, 2, 2)
    stress = _per_rod(st.rod_stress, m, np.float64) if st.show_stresses else None
    redundant = _per_rod(st.redundant_rods, m, bool) if st.show_pebbles else None
    if stress is not None and np.all(np.isfinite(stress)):
        big = float(np.max(np.abs(stress)))
        # A stress is defined up to scale: show it relative to the largest entry.
        rel = np.abs(stress) / big if big > 0 else np.zeros(m)
        on = rel > 1e-6
        colors = np.where(stress > 0, theme.tension, theme.compression)
        colors = np.where(on, colors, theme.unstressed)
        # Quantised to half pixels so the canvas backend groups rods into a few width classes.
        width = np.where(on, np.round((2.0 + 7.0 * rel) * 2.0) / 2.0, 2.0)
        alpha = np.where(on, 0.45 + 0.55 * rel, 1.0)
        items: list[Primitive] = [Segments(seg, tuple(colors.tolist()), width, alpha, role="rods")]
        if redundant is not None and redundant.any():
            items.append(
                Segments(
                    seg[redundant], theme.redundant, 2.0, dash=(5.0, 4.0), role="rods-redundant"
                )
            )
        return items
    if redundant is not None:
        colors = np.where(redundant, theme.redundant, theme.rod)
        return [Segments(seg, tuple(colors.tolist()), theme.rod_width, role="rods")]
    return [Segments(seg, theme.rod, theme.rod_width, role="rods")]


def _angle_arcs(P: np.ndarray, angles: np.ndarray, theme: Theme) -> list[Primitive]:
    """Per fixed angle: a translucent wedge and an arc at the apex, between the arms (< pi).

    The wedge makes the marked angle readable from the back of a lecture room; the
    arc is the classic textbook mark.
    """
    if len(angles) == 0:
        return []
    apex = P[angles[:, 0]]
    a = P[angles[:, 1]] - apex
    b = P[angles[:, 2]] - apex
    ta = np.arctan2(a[:, 1], a[:, 0])
    tb = np.arctan2(b[:, 1], b[:, 0])
    delta = np.mod(tb - ta + np.pi, 2 * np.pi) - np.pi  # in [-pi, pi)
    start = np.mod(np.where(delta >= 0, ta, tb), 2 * np.pi)
    sweep = np.abs(delta)
    arm = np.minimum(np.hypot(a[:, 0], a[:, 1]), np.hypot(b[:, 0], b[:, 1]))
    # Short arms get a smaller mark so it stays between the arms.
    radius = np.clip(0.45 * arm, 4.0, theme.angle_radius)
    # Wedge: apex + 13 points along the arc, the same count for every angle (one array).
    t = start[:, None] + sweep[:, None] * np.linspace(0.0, 1.0, 13)[None, :]  # (k, 13)
    rim = apex[:, None, :] + radius[:, None, None] * np.stack([np.cos(t), np.sin(t)], axis=-1)
    wedge = np.concatenate([apex[:, None, :], rim], axis=1)  # (k, 14, 2)
    return [
        Polygons(
            wedge.reshape(-1, 2),
            np.full(len(angles), 14),
            theme.angle,
            alpha=theme.angle_fill_alpha,
            role="angles",
        ),
        Arcs(apex, radius, start, start + sweep, theme.angle, theme.angle_width, role="angles"),
    ]


def _pins(P: np.ndarray, pinned: np.ndarray, theme: Theme) -> list[Primitive]:
    """A support triangle under each pinned vertex, on a short ground line."""
    pinned = pinned[(pinned >= 0) & (pinned < len(P))]
    if len(pinned) == 0:
        return []
    c = P[pinned]  # (q, 2)
    h = theme.pin_size
    tri = np.stack([c, c + [-0.7 * h, h], c + [0.7 * h, h]], axis=1).reshape(-1, 2)
    ground = np.stack([c + [-h, h + 1.5], c + [h, h + 1.5]], axis=1)
    return [
        Polygons(tri, np.full(len(c), 3), theme.pin, role="pins"),
        Segments(ground, theme.pin, 3.0, role="pins"),
    ]


def _velocity_arrows(
    view: ViewTransform, P: np.ndarray, basis: Any, theme: Theme
) -> list[Primitive]:
    """Arrows for every basis vector at every vertex that moves, one green per basis vector.

    All arrows share one scale (the longest is ``theme.velocity_arrow_px``), so
    their lengths compare across vertices and basis vectors. Beyond
    ``theme.max_velocity_arrows`` arrows only the leading basis vectors are drawn,
    with a note saying so: thousands of arrows are unreadable and cost bandwidth
    on every frame.
    """
    n = len(P)
    if basis is None:
        return []
    B = np.asarray(basis, dtype=np.float64)
    if B.size == 0 or B.ndim != 3 or B.shape[1:] != (n, 2) or not np.all(np.isfinite(B)):
        return []
    d = B.shape[0]
    V = view.vector_to_pixel(B)  # (d, n, 2)
    length = np.hypot(V[..., 0], V[..., 1])
    biggest = float(length.max())
    if biggest <= 0:
        return []
    V = V * (theme.velocity_arrow_px / biggest)
    length = length * (theme.velocity_arrow_px / biggest)
    # Below a pixel an arrow is invisible anyway (pinned vertices have exactly zero).
    keep = length >= 1.0  # (d, n)
    per_vector = keep.sum(axis=1)
    shown = max(1, int(np.searchsorted(np.cumsum(per_vector), theme.max_velocity_arrows, "right")))
    keep[shown:] = False
    which, vert = np.nonzero(keep)
    palette = theme.velocity_colors
    items: list[Primitive] = [
        Arrows.from_vectors(
            P[vert],
            V[which, vert],
            color=tuple(palette[b % len(palette)] for b in which.tolist()),
            width=theme.velocity_width,
            role="velocities",
        )
    ]
    if shown < d:
        note = f"velocity arrows: {shown} of {d} basis vectors shown"
        items.append(
            Texts(
                (note,),
                [[view.width - 10.0, view.height - 10.0]],
                palette[0],
                theme.hint_size,
                align="right",
                baseline="bottom",
                role="velocities",
            )
        )
    return items


def _springs(P: np.ndarray, springs: Sequence[tuple[int, int]], theme: Theme) -> Polylines:
    """Zigzag polylines: straight leads (20 % each end) and 10 alternating teeth."""
    n = len(P)
    pairs = np.array(
        [(int(i), int(j)) for i, j in springs if _valid(i, n) and _valid(j, n) and i != j],
        dtype=np.int64,
    ).reshape(-1, 2)
    if len(pairs):
        d = P[pairs[:, 1]] - P[pairs[:, 0]]
        length = np.hypot(d[:, 0], d[:, 1])
        pairs, d, length = pairs[length > 0], d[length > 0], length[length > 0]
    if len(pairs) == 0:
        return Polylines(np.empty((0, 2)), np.empty(0, dtype=np.int64), role="springs")
    teeth = 10
    s = np.concatenate([[0.0, 0.2], 0.2 + 0.6 * (np.arange(teeth) + 0.5) / teeth, [0.8, 1.0]])
    side = np.concatenate([[0.0, 0.0], np.where(np.arange(teeth) % 2 == 0, 1.0, -1.0), [0.0, 0.0]])
    u = d / length[:, None]
    perp = np.column_stack([-u[:, 1], u[:, 0]])
    amp = np.minimum(6.0, 0.2 * length)  # short springs get flatter teeth
    pts = (
        P[pairs[:, 0]][:, None, :]
        + d[:, None, :] * s[None, :, None]
        + perp[:, None, :] * (amp[:, None] * side[None, :])[:, :, None]
    )  # (q, len(s), 2)
    return Polylines(
        pts.reshape(-1, 2), np.full(len(pairs), len(s)), theme.spring, 1.8, role="springs"
    )


def _tracks(
    view: ViewTransform, st: SceneState, n: int, track_color: dict[int, str], theme: Theme
) -> Polylines:
    """Traced paths: tracked vertices first (in tracked order), then any other recorded track."""
    order = list(track_color) + [int(v) for v in st.tracks if int(v) not in track_color]
    lines, colors = [], []
    for i, v in enumerate(order):
        if v not in st.tracks:
            continue
        pts = np.asarray(st.tracks[v], dtype=np.float64).reshape(-1, 2)
        pts = pts[np.all(np.isfinite(pts), axis=1)]
        if len(pts) < 2:
            continue
        lines.append(view.to_pixel(pts))
        colors.append(track_color.get(v, theme.track_colors[i % len(theme.track_colors)]))
    if not lines:
        return Polylines(np.empty((0, 2)), np.empty(0, dtype=np.int64), role="tracks")
    return Polylines(
        np.concatenate(lines),
        [len(line) for line in lines],
        tuple(colors),
        theme.track_width,
        0.85,
        role="tracks",
    )


def _attractor(c: np.ndarray, theme: Theme) -> list[Primitive]:
    """Crosshair with a ring: visible on top of rods and vertices."""
    s = theme.attractor_size
    cross = np.array([[[-s, 0.0], [s, 0.0]], [[0.0, -s], [0.0, s]]]) + c
    return [
        Segments(cross, theme.attractor, 2.5, role="attractor"),
        Disks(c[None], 0.55 * s, None, theme.attractor, 2.5, role="attractor"),
    ]


def _text_width(text: str, size: float, font: str) -> float:
    """Estimated text width in pixels (no font metrics here; backends differ slightly anyway)."""
    return len(text) * size * (0.6 if font == "monospace" else 0.55)


def _legend(view: ViewTransform, st: SceneState, m: int, theme: Theme) -> list[Primitive]:
    """Top-right key for stress and pebble colours, when those colourings are on."""
    entries: list[tuple[str, str, tuple[float, ...]]] = []
    if m == 0:
        return []
    if st.show_stresses and _per_rod(st.rod_stress, m, np.float64) is not None:
        entries += [(theme.tension, "tension", ()), (theme.compression, "compression", ())]
        if st.show_pebbles and _per_rod(st.redundant_rods, m, bool) is not None:
            entries.append((theme.redundant, "redundant", (5.0, 4.0)))
    elif st.show_pebbles and _per_rod(st.redundant_rods, m, bool) is not None:
        entries += [(theme.rod, "independent", ()), (theme.redundant, "redundant", ())]
    if not entries:
        return []
    size = theme.font_size - 1
    row = size + 6
    swatch = 24.0
    text_w = max(_text_width(label, size, "sans-serif") for _, label, _ in entries)
    panel_w = 10 + swatch + 8 + text_w + 10
    panel_h = 8 + row * len(entries) + 2
    x0 = view.width - 10 - panel_w
    y0 = 10.0
    ys = y0 + 8 + row * (np.arange(len(entries)) + 0.5)
    items: list[Primitive] = [
        Rects(
            [[x0, y0, panel_w, panel_h]],
            theme.panel,
            "#cfd8dc",
            1.0,
            theme.panel_alpha,
            role="legend",
        )
    ]
    for dash in sorted({e[2] for e in entries}):
        idx = [i for i, e in enumerate(entries) if e[2] == dash]
        segs = np.array([[[x0 + 10, ys[i]], [x0 + 10 + swatch, ys[i]]] for i in idx])
        items.append(
            Segments(segs, tuple(entries[i][0] for i in idx), 5.0, dash=dash, role="legend")
        )
    items.append(
        Texts(
            tuple(label for _, label, _ in entries),
            np.column_stack([np.full(len(entries), x0 + 10 + swatch + 8), ys]),
            theme.text,
            size,
            baseline="middle",
            role="legend",
        )
    )
    return items


def _info_panel(lines: list[str], theme: Theme) -> list[Primitive]:
    """Readout lines top-left on a translucent panel (legible over rods)."""
    size = theme.font_size
    row = size + 4
    w = max(_text_width(line, size, "monospace") for line in lines) + 16
    h = row * len(lines) + 10
    pos = np.column_stack([np.full(len(lines), 18.0), 15.0 + row * np.arange(len(lines))])
    return [
        Rects([[10.0, 10.0, w, h]], theme.panel, None, 1.0, theme.panel_alpha, role="info"),
        Texts(tuple(lines), pos, theme.text, size, "monospace", role="info"),
    ]


def _bottom_texts(view: ViewTransform, st: SceneState, theme: Theme) -> list[Primitive]:
    """Error lines (red, bold) stacked above the hint line at the bottom."""
    items: list[Primitive] = []
    y = view.height - 10.0
    if st.hint:
        hint = Texts(
            (st.hint,),
            [[10.0, y]],
            theme.hint_text,
            theme.hint_size,
            baseline="bottom",
            role="hint",
        )
        y -= theme.hint_size + 8
    if st.error:
        lines = str(st.error).splitlines() or [str(st.error)]
        row = theme.font_size + 4
        ys = y - row * np.arange(len(lines))[::-1]
        w = max(_text_width(line, theme.font_size, "sans-serif") for line in lines) + 16
        items.append(
            Rects(
                [[4.0, ys[0] - row, w, row * len(lines) + 4]],
                theme.panel,
                None,
                1.0,
                theme.panel_alpha,
                role="error",
            )
        )
        items.append(
            Texts(
                tuple(lines),
                np.column_stack([np.full(len(lines), 10.0), ys]),
                theme.error_text,
                theme.font_size,
                bold=True,
                baseline="bottom",
                role="error",
            )
        )
    if st.hint:
        items.append(hint)
    return items


# ============================================================== hit testing
def hit_test(
    linkage: Linkage,
    view: ViewTransform,
    px: float,
    py: float,
    *,
    vertex_radius_px: float = 8,
    rod_tolerance_px: float = 5,
) -> tuple[str, int] | None:
    """What is under the pixel ``(px, py)``: the nearest vertex, else the nearest rod.

    Parameters
    ----------
    linkage : Linkage
    view : ViewTransform
    px, py : float
        Pixel position (e.g. of a mouse event).
    vertex_radius_px : float
        A vertex within this distance (pixels) is hit; vertices win over rods.
    rod_tolerance_px : float
        A rod whose segment passes within this distance is hit.

    Returns
    -------
    ("vertex", i) or ("rod", r) or None
        The nearest hit (lowest index on ties).
    """
    q = np.array([px, py], dtype=np.float64)
    P = view.to_pixel(linkage.vertices)
    if len(P) == 0 or not np.all(np.isfinite(q)):
        return None
    dv = np.hypot(*(P - q).T)
    i = int(np.argmin(dv))
    if dv[i] <= vertex_radius_px:
        return ("vertex", i)
    rods = np.asarray(linkage.rods, dtype=np.int64).reshape(-1, 2)
    if len(rods) == 0:
        return None
    a, b = P[rods[:, 0]], P[rods[:, 1]]
    ab = b - a
    denom = np.einsum("ij,ij->i", ab, ab)
    # Distance to the segment, not the infinite line: clamp the projection to [0, 1].
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.where(denom > 0, np.einsum("ij,ij->i", q - a, ab) / denom, 0.0)
    t = np.clip(t, 0.0, 1.0)
    dr = np.hypot(*(a + t[:, None] * ab - q).T)
    r = int(np.argmin(dr))
    if dr[r] <= rod_tolerance_px:
        return ("rod", r)
    return None
