"""The configuration-space panel of a session: its traits, its gestures, its frames.

Part of :class:`~linkage_widget.session.LinkageSession` (a mixin over its state). With
:attr:`~ConfigurationPanelMixin.show_configuration` on, the session keeps a second,
square picture beside the linkage: the linkage's configuration space with the current
configuration as a point that follows the linkage as it moves, and its trail.
What is charted comes from :mod:`.configuration_charts` (a linkage that cannot be charted
gets a plain message there, not an exception); the pixels from
:mod:`linkage_widget.draw.configuration_panel` and :mod:`linkage_widget.draw.angle_charts`.
A curve or a torus chart is drawn in the two angles named by
:attr:`~ConfigurationPanelMixin.configuration_coordinates` (labels from
:attr:`~ConfigurationPanelMixin.configuration_choices`; None: the default pair).

Gestures on the panel (panel pixels; :meth:`~ConfigurationPanelMixin.panel_press`,
:meth:`~ConfigurationPanelMixin.panel_drag`, :meth:`~ConfigurationPanelMixin.panel_release`,
the same path as the widget's second canvas):

- sphere: press on the point, drag and release: a *flick*. The arrow from the point to
  the release sets the velocity (:data:`~.configuration_charts.FLICK_GAIN` radians per
  second on the unit sphere per sphere radius), the session switches to dynamic mode
  with gravity 0 and the linkage and the point follow the geodesic of the kinetic
  metric (the mass-distribution slider changes the metric, hence the path). A drag
  anywhere else turns the sphere; a click on the sphere moves the linkage there along
  the great circle, animated.
- curve: a click moves the linkage to the curve point nearest the click through the
  motion (:meth:`~linkage_widget.configuration.ConfigurationCurve.path`, animated, one
  undo step); a point the motion cannot reach (another assembly mode) is refused with a
  message.
- torus chart: the point follows the linkage; a click only says so.

The widget overrides one hook, ``_show_panel(static, dynamic)``: ``static`` is the
cached layer (``None`` when unchanged since the last call), ``dynamic`` the point, trail
and arrow of this frame, so a frame redraws only what moves.
"""

from __future__ import annotations

import math
from collections import deque
from typing import Any

import numpy as np
from traitlets import Bool, HasTraits, TraitError, Tuple, Unicode, observe, validate

from ..draw.angle_charts import AnglePlot
from ..draw.configuration_panel import PanelPicture, SphereProjection, panel_picture
from .analysis import running_loop
from .configuration_charts import (
    FLICK_GAIN,
    PanelModel,
    chart_point,
    coordinate_choices,
    curve_path,
    dynamic_items,
    flick_state,
    panel_model,
    sphere_path,
    sphere_point,
    static_items,
)
from .gestures import EventMerger, Gesture
from .traits import SessionTraits

__all__ = ["PANEL_MAX_SIZE", "POINT_HIT_PX", "TRAIL_LENGTH", "ConfigurationPanelMixin"]

PANEL_MAX_SIZE = 420  # the panel is a square as high as the canvas, at most this
POINT_HIT_PX = 14.0  # a press this close to the point grabs it (a flick)
FLICK_MIN_PX = 6.0  # a shorter flick arrow is a click, not a velocity
TRAIL_LENGTH = 400  # configurations kept in the trail
PATH_STEP = 0.05  # an animated move advances about this far (radians) per frame ...
PATH_FRAMES = (6, 90)  # ... in this many frames at least and at most
PENDING_TITLE = "computing the configuration space …"


class ConfigurationPanelMixin(HasTraits):
    """The configuration-space panel of a session (module docstring)."""

    show_configuration = Bool(False, help="Show the configuration-space panel.")
    configuration_coordinates = Tuple(
        Unicode(),
        Unicode(),
        default_value=None,
        allow_none=True,
        help="Labels of the two angles a curve or surface is charted in (None: the default).",
    )

    _OWN_TRAITS = [*SessionTraits._OWN_TRAITS, "show_configuration", "configuration_coordinates"]

    def _init_panel(self) -> None:
        side = min(int(self._view.height), PANEL_MAX_SIZE)
        self._panel_size = (side, side)
        self._panel_model: tuple[Any, PanelModel] | None = None  # (key, model)
        self._panel_job: Any = None  # key of the model being computed in a thread
        # what the panel shows meanwhile: one object per job, kept alive, so that the
        # static layer's cache (keyed by the model's id) never mistakes the chart that
        # arrives for a freed placeholder whose memory it reuses
        self._panel_pending = PanelModel("pending", title=(PENDING_TITLE,))
        self._panel_proj = SphereProjection.fit(side, side)
        self._panel_trail: deque[tuple[float, float]] = deque(maxlen=TRAIL_LENGTH)
        self._panel_seen = -1  # _pos_version of the last point in the trail
        self._panel_static: tuple[Any, PanelPicture] | None = None  # (key, picture)
        self._panel_shown: Any = None  # key of the static layer the view shows
        self._panel_path: deque[np.ndarray] = deque()  # placements still to animate
        self._panel_flick: np.ndarray | None = None  # (2, 2) pixels of the flick arrow
        self._panel_merger = EventMerger(
            side,
            side,
            on_press=self._on_panel_press,
            on_drag=self._on_panel_drag,
            on_release=self._on_panel_release,
            on_key=self._on_key,
        )

    # ================================================================ hooks
    def _show_panel(self, static: PanelPicture | None, dynamic: PanelPicture) -> None:
        """Put the panel on the screen; ``static`` None: unchanged (headless: nothing)."""

    # =========================================================== public API
    @property
    def panel_size(self) -> tuple[int, int]:
        """The panel's width and height in pixels."""
        return self._panel_size

    @property
    def configuration_kind(self) -> str:
        """What the panel charts: ``"sphere"``, ``"curve"``, ``"surface"`` or ``"none"``.

        ``"pending"`` while a widget computes the chart in a thread (never headless).
        """
        return self._panel_current().kind

    @property
    def configuration_choices(self) -> tuple[str, ...]:
        """Labels of the angles a curve or surface may be charted in (see the trait)."""
        return coordinate_choices(self.linkage)

    @property
    def configuration_chart(self) -> PanelModel:
        """What the panel charts now: kind, message, coordinates, the curve or surface."""
        return self._panel_current()

    @property
    def configuration_message(self) -> str:
        """Why the linkage has no chart (kind ``"none"``), else ``""``."""
        return self._panel_current().message

    @property
    def configuration_point(self) -> tuple[float, float] | None:
        """The current configuration's coordinates: sphere ``(phi, t)``, else the two angles.

        None without a chart.
        """
        model = self._panel_current()
        if model.kind == "sphere":
            return sphere_point(model, self.linkage.vertices)
        if model.kind in ("curve", "surface"):
            return chart_point(model, self.linkage.vertices)
        return None

    @property
    def configuration_point_px(self) -> tuple[float, float] | None:
        """Where the panel draws the current configuration (panel pixels); None: no chart."""
        point = self.configuration_point
        if point is None:
            return None
        if self._panel_current().kind == "sphere":
            px, _ = self._panel_proj.project(self._panel_point3())
        else:
            px = AnglePlot.fit(*self._panel_size).to_pixel(np.angle(np.exp(1j * np.array(point))))
        return float(px[0]), float(px[1])

    @property
    def configuration_trail(self) -> np.ndarray:
        """The trail's coordinates, oldest first, shape ``(k, 2)`` (updated when drawn)."""
        return np.array(self._panel_trail, dtype=np.float64).reshape(-1, 2)

    @property
    def panel_rotation(self) -> np.ndarray:
        """The sphere's rotation ``(3, 3)`` (body to view frame; a copy)."""
        return self._panel_proj.rotation.copy()

    @property
    def panel_animating(self) -> bool:
        """Whether a move started on the panel is still being animated."""
        return bool(self._panel_path)

    def panel_press(self, x: float, y: float) -> None:
        """Press the pointer at panel pixel ``(x, y)``."""
        self._panel_merger.press(Gesture(float(x), float(y)))

    def panel_drag(self, x: float, y: float) -> None:
        """Move the pressed pointer to panel pixel ``(x, y)``."""
        self._panel_merger.move(x, y)

    def panel_release(self, x: float | None = None, y: float | None = None) -> None:
        """Release the pointer (at ``(x, y)``, default: where it is): a click or a drag's end."""
        self._panel_merger.release(x, y)

    def panel_layers(self) -> tuple[PanelPicture, PanelPicture]:
        """The panel's two layers now: ``(static, dynamic)`` (the dynamic one transparent)."""
        model = self._panel_current()
        return self._panel_static_picture(model)[1], self._panel_dynamic_picture(model)

    def panel_scene(self) -> PanelPicture:
        """The whole panel as one picture (both layers), e.g. for ``save_png``."""
        static, dynamic = self.panel_layers()
        return panel_picture(*self._panel_size, static.items, dynamic.items)

    # ================================================================ model
    @validate("configuration_coordinates")
    def _validate_configuration_coordinates(self, proposal: Any) -> tuple[str, str] | None:
        labels = proposal["value"]
        if labels is None:
            return None
        choices = coordinate_choices(self.linkage)
        for label in labels:
            if label not in choices:
                raise TraitError(
                    f"configuration_coordinates: {label!r} is not an angle of this linkage; "
                    f"choose from {', '.join(choices) or '(none)'}"
                )
        if labels[0] == labels[1]:
            raise TraitError("configuration_coordinates: choose two different angles")
        return (str(labels[0]), str(labels[1]))

    @observe("configuration_coordinates")
    def _on_configuration_coordinates_change(self, change: Any) -> None:
        if self._ready and self.show_configuration:
            self._draw_panel()  # the model's key changed: it is charted again

    def _panel_key(self) -> tuple[int, tuple[str, ...]]:
        return (self._version, tuple(self.configuration_coordinates or ()))

    def _panel_current(self) -> PanelModel:
        """The chart of the linkage as edited now (recomputed after an edit).

        Headless, computed at once. With an event loop running (a widget in Jupyter), in a
        thread (a curve takes about a second, a surface a few): meanwhile the panel says so
        and the frames go on.
        """
        key = self._panel_key()
        if self._panel_model is not None and self._panel_model[0] == key:
            return self._panel_model[1]
        loop = running_loop()
        if loop is None:
            self._set_panel_model(key, panel_model(self.linkage, key[1]))
            return self._panel_model[1]  # type: ignore[index]
        if self._panel_job != key:
            self._panel_job = key
            self._panel_pending = PanelModel("pending", title=(PENDING_TITLE,))
            job = loop.run_in_executor(None, panel_model, self.linkage.copy(), key[1])
            job.add_done_callback(lambda f: self._panel_model_done(key, f))
        return self._panel_pending

    def _panel_model_done(self, key: Any, job: Any) -> None:
        if self._panel_job == key:
            self._panel_job = None
        if job.cancelled() or key != self._panel_key():
            return
        exc = job.exception()
        if exc is not None:
            model = PanelModel("none", message=f"no configuration space chart: {exc}")
        else:
            model = job.result()
        self._set_panel_model(key, model)
        if self.show_configuration:
            self._message = model.message or f"configuration space: {model.kind}"
            self._face_point()
            self._draw_panel()
            self._request_draw()

    def _face_point(self) -> None:
        """Turn the sphere so that the current configuration faces the viewer."""
        point = self._panel_point3()
        if point is not None:
            self._panel_proj = SphereProjection.facing(*self._panel_size, point)

    def _set_panel_model(self, key: Any, model: PanelModel) -> None:
        self._panel_model = (key, model)
        self._panel_trail.clear()
        self._panel_path.clear()
        self._panel_seen = -1

    def _panel_point3(self) -> np.ndarray | None:
        model = self._panel_current()
        if model.kind != "sphere":
            return None
        assert model.chart is not None
        return model.chart.embed(*sphere_point(model, self.linkage.vertices))

    def _note_panel_point(self) -> None:
        """Add the current configuration to the trail when the linkage moved."""
        model = self._panel_current()
        if self._panel_seen == self._pos_version or model.kind in ("none", "pending"):
            return
        self._panel_seen = self._pos_version
        point = self.configuration_point
        if point is not None:
            self._panel_trail.append(point)

    @observe("show_configuration")
    def _on_show_configuration_change(self, change: Any) -> None:
        if not self._ready:
            return
        if change["new"]:
            model = self._panel_current()
            self._message = model.message or (
                PENDING_TITLE if model.kind == "pending" else f"configuration space: {model.kind}"
            )
            self._face_point()
            self._panel_shown = None
            self._draw_panel()
        self._controls_changed()
        self._request_draw()

    # =============================================================== frames
    def _frame(self) -> bool:
        """A frame (:meth:`FramesMixin._frame`), after a step of the panel's animated move."""
        if self._panel_path:
            self._panel_path_step()
        busy = super()._frame()  # type: ignore[misc]
        return bool(busy or self._panel_path)

    def _panel_path_step(self) -> None:
        """Put the linkage at the next placement of the move started on the panel."""
        placement = self._panel_path.popleft()
        self.linkage.set_positions(placement)
        self._pos_version += 1
        self._tracks.append(placement)
        self._dirty = True
        if self._analyst.live(self.linkage.n_vertices):
            self._refresh_analysis(live=True)
        if not self._panel_path:
            self._commit_motion()
            if self._analyst.pos_version != self._pos_version:
                self._refresh_analysis()

    def _start_panel_path(self, placements: np.ndarray, message: str) -> None:
        """Animate the linkage through ``placements`` ``(k, n, 2)``, one undo step."""
        self.running = False  # commits a motion under way
        self.attractor = None
        self._commit_motion()
        self._motion_before = self.document.snapshot()
        self._panel_path = deque(np.asarray(placements, np.float64))
        self._message = message
        self._start_animation()
        self._request_draw()

    # ============================================================== drawing
    def _draw(self) -> None:
        """Draw the linkage (:meth:`FramesMixin._draw`), then the panel when it is shown."""
        super()._draw()  # type: ignore[misc]
        if self.show_configuration:
            self._draw_panel()

    def _draw_panel(self, force: bool = False) -> None:
        """Show the panel: the static layer when it changed (or ``force``), the dynamic one."""
        if force:
            self._panel_shown = None
        model = self._panel_current()
        self._note_panel_point()
        key, static = self._panel_static_picture(model)
        fresh = key != self._panel_shown
        self._panel_shown = key
        self._show_panel(static if fresh else None, self._panel_dynamic_picture(model))

    def _panel_static_picture(self, model: PanelModel) -> tuple[Any, PanelPicture]:
        """The static layer, cached by (model, rotation, size)."""
        # the sphere's turn matters only to the sphere: a chart keeps its layer while turning
        turn = id(self._panel_proj) if model.kind == "sphere" else None
        key = (id(model), turn, self._panel_size)
        if self._panel_static is None or self._panel_static[0] != key:
            items = static_items(model, self._panel_size, self._panel_proj)
            self._panel_static = (key, panel_picture(*self._panel_size, items))
        return self._panel_static

    def _panel_dynamic_picture(self, model: PanelModel) -> PanelPicture:
        """The point, its trail and the flick arrow, on a transparent layer."""
        items = dynamic_items(
            model,
            self._panel_size,
            self._panel_proj,
            self.configuration_point,
            self.configuration_trail,
            self._panel_flick,
        )
        return panel_picture(*self._panel_size, items, background="transparent")

    # ============================================================= gestures
    def _on_panel_press(self, g: Gesture) -> None:
        assert g.data is not None
        model = self._panel_current()
        if not self.show_configuration or model.kind in ("none", "pending"):
            g.data["kind"] = "none"
            return
        if model.kind != "sphere":
            g.data["kind"] = "chart"
            return
        point = self.configuration_point_px
        near = point is not None and math.hypot(g.x - point[0], g.y - point[1]) <= POINT_HIT_PX
        front = near and self._panel_front()
        g.data["kind"] = "flick" if front else "rotate"
        if front:
            assert point is not None
            self._panel_flick = np.array([point, point])

    def _panel_front(self) -> bool:
        point = self._panel_point3()
        return point is not None and float(self._panel_proj.project(point)[1]) > 0.0

    def _on_panel_drag(self, g: Gesture, dx: float, dy: float) -> None:
        assert g.data is not None
        kind = g.data.get("kind")
        if kind == "flick" and self._panel_flick is not None:
            self._panel_flick[1] = (g.last_x, g.last_y)
        elif kind == "rotate":
            self._panel_proj = self._panel_proj.rotated(dx, dy)
        else:
            return
        self._draw_panel()

    def _on_panel_release(self, g: Gesture, x: float, y: float) -> None:
        assert g.data is not None
        kind = g.data.get("kind")
        flick, self._panel_flick = self._panel_flick, None
        if kind == "flick" and flick is not None:
            self._guarded(lambda: self._flick(flick[0], (x, y)))
        elif kind == "rotate" and not g.dragged:
            self._guarded(lambda: self._panel_click(x, y))
        elif kind == "chart" and not g.dragged:
            self._guarded(lambda: self._chart_click(x, y))
        if kind != "none":
            self._draw_panel()
        self._request_draw()

    def _panel_click(self, x: float, y: float) -> None:
        """A click on the sphere: move the linkage there along the great circle."""
        model = self._panel_current()
        target = self._panel_proj.unproject(x, y)
        point = self._panel_point3()
        if target is None or point is None:
            return
        angle = math.acos(float(np.clip(point @ target, -1.0, 1.0)))
        frames = int(np.clip(math.ceil(angle / PATH_STEP), *PATH_FRAMES))
        path = sphere_path(model, self.linkage.vertices, target, frames)
        self._start_panel_path(path, "moving to the configuration clicked on the sphere")

    def _chart_click(self, x: float, y: float) -> None:
        """A click on a curve's chart: move the linkage there through the motion."""
        model = self._panel_current()
        plot = AnglePlot.fit(*self._panel_size)
        if not plot.inside(x, y):
            return
        if model.kind != "curve":
            self._message = "two degrees of freedom: drag the linkage, the point follows"
            return
        path = curve_path(model, self.linkage.vertices, plot.to_angles([x, y]), PATH_FRAMES[1])
        if path is None:
            self._message = (
                "that part of the curve cannot be reached by moving the linkage "
                "(another assembly mode): reassemble it to get there"
            )
            return
        self._start_panel_path(path, "moving along the configuration curve")

    def _flick(self, tail: np.ndarray, tip: tuple[float, float]) -> None:
        """Start the geodesic: position and velocity from the flick arrow ``tail -> tip``."""
        dx, dy = tip[0] - tail[0], tip[1] - tail[1]
        if math.hypot(dx, dy) < FLICK_MIN_PX:
            self._message = "drag from the point and release: the arrow is the velocity"
            return
        model = self._panel_current()
        point = self._panel_point3()
        assert point is not None
        tangent = FLICK_GAIN * self._panel_proj.tangent(point, dx, dy)
        placement, velocity = flick_state(model, self.linkage.vertices, tangent)
        self._panel_path.clear()
        self.running = False
        self.attractor = None
        self.mode = "dynamic"
        self.gravity = 0.0
        self._motion_before = self.document.snapshot()
        self.linkage.set_positions(placement)
        self._pos_version += 1
        self.simulator.set_velocity(velocity)
        self.running = True
        self._message = "geodesic: dynamic mode without gravity (space stops)"
