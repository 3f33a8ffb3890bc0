"""The configuration-space panel of a session: its state and policy, as one object.

With :attr:`~linkage_widget.session.LinkageSession.show_configuration` on, the session
keeps a second, square picture beside the linkage: the linkage's configuration space with
the current configuration as a point that follows the linkage as it moves, and its trail.
What is charted comes from :func:`linkage_widget.configuration.chart_linkage` (a linkage
that cannot be charted gets a plain message, not an exception); the pixels from
:mod:`linkage_widget.draw` (:func:`~linkage_widget.draw.panel_static`,
:func:`~linkage_widget.draw.panel_dynamic`). A curve or a torus chart is drawn in the two
angles named by the session's ``configuration_coordinates`` (None: the default pair).

:class:`ConfigurationPanel` is built by the session (``session.panel``) and holds no
reference to it: it takes values (the chart, the linkage's positions, a gesture's pixels)
and returns values (the two layers, a :class:`PanelIntent`, a message); the session
applies them. Gestures on the panel (panel pixels; the session's ``panel_press``,
``panel_drag``, ``panel_release``, the same path as the widget's second canvas):

- sphere: press on the point, drag and release: a *flick*. The arrow from the point to
  the release sets the velocity (:data:`FLICK_GAIN` radians per second on the unit
  sphere per sphere radius), the session switches to dynamic mode with gravity 0 and the
  linkage and the point follow the geodesic of the kinetic metric (the mass-distribution
  slider changes the metric, hence the path). A drag anywhere else turns the sphere; a
  click on the sphere moves the linkage there along the great circle, animated.
- curve: a click moves the linkage to the curve point nearest the click through the
  motion (:meth:`~linkage_widget.configuration.ConfigurationCurve.path`, animated, one
  undo step); a point the motion cannot reach (another assembly mode) is refused with a
  message.
- torus chart: the point follows the linkage; a click only says so.

The view hook is the session's ``_show_panel(static, dynamic)``: ``static`` is the cached
layer (``None`` when unchanged since the last call), ``dynamic`` the point, trail and
arrow of this frame, so a frame redraws only what moves.
"""

from __future__ import annotations

import asyncio
import math
from collections import deque
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..configuration import (
    ConfigurationChart,
    chart_linkage,
    chart_point,
    coordinate_choices,
    curve_path,
    flick_state,
    sphere_path,
    unit_sphere_point,
)
from ..draw import (
    AnglePlot,
    PanelPicture,
    SphereProjection,
    panel_dynamic,
    panel_picture,
    panel_static,
    point_pixel,
)
from ..model import Linkage

__all__ = [
    "FLICK_GAIN",
    "PANEL_MAX_SIZE",
    "POINT_HIT_PX",
    "TRAIL_LENGTH",
    "ConfigurationPanel",
    "PanelIntent",
    "chart_message",
    "checked_coordinates",
]

PANEL_MAX_SIZE = 420  # the panel is a square as high as the canvas, at most this
POINT_HIT_PX = 14.0  # a press this close to the point grabs it (a flick)
FLICK_MIN_PX = 6.0  # a shorter flick arrow is a click, not a velocity
#: Speed on the panel's unit sphere (radians per second) per sphere radius of flick arrow.
FLICK_GAIN = 1.5
TRAIL_LENGTH = 400  # configurations kept in the trail
PATH_STEP = 0.05  # an animated move advances about this far (radians) per frame ...
PATH_FRAMES = (6, 90)  # ... in this many frames at least and at most
PENDING_TITLE = "computing the configuration space …"


@dataclass(frozen=True, eq=False)
class PanelIntent:
    """What a gesture on the panel asks of the session, which carries it out.

    Attributes
    ----------
    message : str
        What to say; alone when nothing else is to be done.
    path : ndarray, shape (k, n, 2), or None
        Placements to animate the linkage through, one undo step
        (:meth:`ConfigurationPanel.animate` keeps them).
    flick : (ndarray, ndarray) or None
        Start the geodesic: dynamic mode without gravity, the linkage at the placement
        ``(n, 2)`` moving at the velocity ``(n, 2)``.
    """

    message: str = ""
    path: np.ndarray | None = None
    flick: tuple[np.ndarray, np.ndarray] | None = None


def chart_message(chart: ConfigurationChart) -> str:
    """What the session says when a chart is shown: why there is none, or what it is."""
    if chart.message:
        return chart.message
    return PENDING_TITLE if chart.kind == "pending" else f"configuration space: {chart.kind}"


def checked_coordinates(labels: Any, linkage: Linkage) -> tuple[str, str] | None:
    """``labels`` as two different angle labels of ``linkage`` (None: the default pair).

    Raises
    ------
    ValueError
        When a label names no angle of the linkage, or both name the same one.
    """
    if labels is None:
        return None
    choices = coordinate_choices(linkage)
    for label in labels:
        if label not in choices:
            raise ValueError(
                f"configuration_coordinates: {label!r} is not an angle of this linkage; "
                f"choose from {', '.join(choices) or '(none)'}"
            )
    if labels[0] == labels[1]:
        raise ValueError("configuration_coordinates: choose two different angles")
    return (str(labels[0]), str(labels[1]))


class ConfigurationPanel:
    """The configuration-space panel's state and policy (module docstring).

    Parameters
    ----------
    height : int
        The canvas height in pixels: the panel is a square as high, at most
        :data:`PANEL_MAX_SIZE`.

    Attributes
    ----------
    size : (int, int)
        The panel's width and height in pixels.
    projection : SphereProjection
        How the sphere is turned and placed on the panel (replaced when it turns).
    """

    def __init__(self, height: int) -> None:
        side = min(int(height), PANEL_MAX_SIZE)
        self.size = (side, side)
        self.projection = SphereProjection.fit(side, side)
        self._chart: tuple[Any, ConfigurationChart] | None = None  # (key, chart)
        self._job: Any = None  # key of the chart being computed in a thread
        # what the panel shows meanwhile: one object per job, kept alive, so that the
        # static layer's cache (keyed by the chart's id) never mistakes the chart that
        # arrives for a freed placeholder whose memory it reuses
        self._pending = ConfigurationChart("pending", title=(PENDING_TITLE,))
        self._trail: deque[tuple[float, float]] = deque(maxlen=TRAIL_LENGTH)
        self._seen = -1  # position version of the last point in the trail
        self._static: tuple[Any, PanelPicture] | None = None  # (key, picture)
        self._shown: Any = None  # key of the static layer the view shows
        self._path: deque[np.ndarray] = deque()  # placements still to animate
        self._flick: np.ndarray | None = None  # (2, 2) pixels of the flick arrow
        self._grip = "none"  # what the press under way holds: flick, rotate, chart, none

    # ================================================================ chart
    def chart(
        self, key: Any, linkage: Linkage, loop: asyncio.AbstractEventLoop | None
    ) -> tuple[ConfigurationChart, asyncio.Future[ConfigurationChart] | None]:
        """The chart of ``linkage`` for ``key`` (its version and the angles' labels).

        Without an event ``loop`` (headless) computed at once. With one (a widget in
        Jupyter) in a thread, since a curve takes about a second, a surface a few: the
        placeholder (kind ``"pending"``) meanwhile, and the job just started, if any, for
        the caller to hear of its end (:meth:`finish`). Returns ``(chart, job)``.
        """
        if self._chart is not None and self._chart[0] == key:
            return self._chart[1], None
        if loop is None:
            return self._store(key, chart_linkage(linkage, key[1])), None
        job = None
        if self._job != key:
            self._job = key
            self._pending = ConfigurationChart("pending", title=(PENDING_TITLE,))
            job = loop.run_in_executor(None, chart_linkage, linkage.copy(), key[1])
        return self._pending, job

    def finish(self, key: Any, job: Any, now: Any) -> ConfigurationChart | None:
        """Keep the chart ``job`` computed for ``key``; None when it is stale (``now``)."""
        if self._job == key:
            self._job = None
        if job.cancelled() or key != now:
            return None
        exc = job.exception()
        if exc is None:
            return self._store(key, job.result())
        return self._store(
            key, ConfigurationChart("none", message=f"no configuration space chart: {exc}")
        )

    def _store(self, key: Any, chart: ConfigurationChart) -> ConfigurationChart:
        self._chart = (key, chart)
        self._trail.clear()
        self._path.clear()
        self._seen = -1
        return chart

    # ================================================================ state
    @property
    def trail(self) -> np.ndarray:
        """The trail's chart coordinates, oldest first, shape ``(k, 2)`` (updated when drawn)."""
        return np.array(self._trail, dtype=np.float64).reshape(-1, 2)

    @property
    def animating(self) -> bool:
        """Whether a move started on the panel has placements left to show."""
        return bool(self._path)

    @property
    def gripped(self) -> bool:
        """Whether the press under way took hold of a chart (not of nothing)."""
        return self._grip != "none"

    def face(self, chart: ConfigurationChart, positions: Any) -> None:
        """Turn the sphere so that the configuration at ``positions`` faces the viewer."""
        point = unit_sphere_point(chart, positions)
        if point is not None:
            self.projection = SphereProjection.facing(*self.size, point)

    def note(self, chart: ConfigurationChart, positions: Any, version: int) -> None:
        """Add the configuration to the trail when the linkage moved (a new ``version``)."""
        if self._seen == version or chart.kind in ("none", "pending"):
            return
        self._seen = version
        point = chart_point(chart, positions)
        if point is not None:
            self._trail.append(point)

    def point_px(self, chart: ConfigurationChart, positions: Any) -> tuple[float, float] | None:
        """Where the panel draws the configuration at ``positions``; None: no chart."""
        return point_pixel(chart, self.size, self.projection, chart_point(chart, positions))

    def animate(self, placements: np.ndarray) -> None:
        """Keep ``placements`` ``(k, n, 2)`` to show one a frame (:meth:`next_placement`)."""
        self._path = deque(np.asarray(placements, np.float64))

    def next_placement(self) -> np.ndarray | None:
        """The next placement of the move started on the panel; None when there is none."""
        return self._path.popleft() if self._path else None

    # ============================================================= pictures
    def layers(
        self, chart: ConfigurationChart, positions: Any
    ) -> tuple[PanelPicture, PanelPicture]:
        """The two layers now: ``(static, dynamic)`` (the dynamic one transparent)."""
        return self._static_layer(chart)[1], self._dynamic_layer(chart, positions)

    def scene(self, chart: ConfigurationChart, positions: Any) -> PanelPicture:
        """The whole panel as one picture (both layers), e.g. for ``save_png``."""
        static, dynamic = self.layers(chart, positions)
        return panel_picture(*self.size, static.items, dynamic.items)

    def frame(
        self, chart: ConfigurationChart, positions: Any, version: int, force: bool = False
    ) -> tuple[PanelPicture | None, PanelPicture]:
        """The layers a view shows now: the static one only when it changed (or ``force``).

        Notes the configuration in the trail first (``version``: see :meth:`note`).
        """
        if force:
            self._shown = None
        self.note(chart, positions, version)
        key, static = self._static_layer(chart)
        fresh = key != self._shown
        self._shown = key
        return (static if fresh else None), self._dynamic_layer(chart, positions)

    def _static_layer(self, chart: ConfigurationChart) -> tuple[Any, PanelPicture]:
        """The static layer, cached by (chart, rotation, size)."""
        # the sphere's turn matters only to the sphere: a chart keeps its layer while turning
        turn = id(self.projection) if chart.kind == "sphere" else None
        key = (id(chart), turn, self.size)
        if self._static is None or self._static[0] != key:
            self._static = (key, panel_static(chart, self.size, self.projection))
        return self._static

    def _dynamic_layer(self, chart: ConfigurationChart, positions: Any) -> PanelPicture:
        point = chart_point(chart, positions)
        return panel_dynamic(chart, self.size, self.projection, point, self.trail, self._flick)

    # ============================================================= gestures
    def press(
        self, chart: ConfigurationChart, positions: Any, x: float, y: float, shown: bool
    ) -> None:
        """A press at panel pixel ``(x, y)``: on the point a flick, elsewhere a turn or a click."""
        if not shown or chart.kind in ("none", "pending"):
            self._grip = "none"
            return
        if chart.kind != "sphere":
            self._grip = "chart"
            return
        point = self.point_px(chart, positions)
        near = point is not None and math.hypot(x - point[0], y - point[1]) <= POINT_HIT_PX
        front = near and self._in_front(chart, positions)
        self._grip = "flick" if front else "rotate"
        if front:
            assert point is not None
            self._flick = np.array([point, point])

    def _in_front(self, chart: ConfigurationChart, positions: Any) -> bool:
        point = unit_sphere_point(chart, positions)
        return point is not None and float(self.projection.project(point)[1]) > 0.0

    def drag(self, x: float, y: float, dx: float, dy: float) -> bool:
        """The pointer moved to ``(x, y)``, by ``(dx, dy)``; returns whether to redraw."""
        if self._grip == "flick" and self._flick is not None:
            self._flick[1] = (x, y)
        elif self._grip == "rotate":
            self.projection = self.projection.rotated(dx, dy)
        else:
            return False
        return True

    def release(
        self, chart: ConfigurationChart, positions: Any, x: float, y: float, dragged: bool
    ) -> PanelIntent:
        """The press ended at ``(x, y)`` (``dragged``: after a drag): what it asks for."""
        grip, flick = self._grip, self._flick
        self._grip, self._flick = "none", None
        if grip == "flick" and flick is not None:
            return self._flicked(chart, positions, flick[0], (x, y))
        if grip == "rotate" and not dragged:
            return self._sphere_click(chart, positions, x, y)
        if grip == "chart" and not dragged:
            return self._chart_click(chart, positions, x, y)
        return PanelIntent()

    def _sphere_click(
        self, chart: ConfigurationChart, positions: Any, x: float, y: float
    ) -> PanelIntent:
        """A click on the sphere: move the linkage there along the great circle."""
        target = self.projection.unproject(x, y)
        point = unit_sphere_point(chart, positions)
        if target is None or point is None:
            return PanelIntent()
        angle = math.acos(float(np.clip(point @ target, -1.0, 1.0)))
        frames = int(np.clip(math.ceil(angle / PATH_STEP), *PATH_FRAMES))
        path = sphere_path(chart, positions, target, frames)
        return PanelIntent("moving to the configuration clicked on the sphere", path=path)

    def _chart_click(
        self, chart: ConfigurationChart, positions: Any, x: float, y: float
    ) -> PanelIntent:
        """A click on a curve's chart: move the linkage there through the motion."""
        plot = AnglePlot.fit(*self.size)
        if not plot.inside(x, y):
            return PanelIntent()
        if chart.kind != "curve":
            return PanelIntent("two degrees of freedom: drag the linkage, the point follows")
        path = curve_path(chart, positions, plot.to_angles([x, y]), PATH_FRAMES[1])
        if path is None:
            return PanelIntent(
                "that part of the curve cannot be reached by moving the linkage "
                "(another assembly mode): reassemble it to get there"
            )
        return PanelIntent("moving along the configuration curve", path=path)

    def _flicked(
        self, chart: ConfigurationChart, positions: Any, tail: np.ndarray, tip: tuple[float, float]
    ) -> PanelIntent:
        """The geodesic's start: position and velocity from the flick arrow ``tail -> tip``."""
        dx, dy = tip[0] - tail[0], tip[1] - tail[1]
        if math.hypot(dx, dy) < FLICK_MIN_PX:
            return PanelIntent("drag from the point and release: the arrow is the velocity")
        point = unit_sphere_point(chart, positions)
        assert point is not None
        tangent = FLICK_GAIN * self.projection.tangent(point, dx, dy)
        start = flick_state(chart, positions, tangent)
        self._path.clear()  # a move under way gives way to the geodesic
        return PanelIntent("geodesic: dynamic mode without gravity (space stops)", flick=start)
