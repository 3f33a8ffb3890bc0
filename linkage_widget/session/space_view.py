r"""The session's view of a 3-D linkage: the camera, turning it, a joint pulled in the view plane.

Part of :class:`~linkage_widget.session.LinkageSession` (a mixin over its state). A
spatial linkage (``linkage.dim == 3``) is seen through a
:class:`~linkage_widget.draw.view3d.Camera` (rotation, centre, eye distance) and then
the session's one 2-D :class:`~linkage_widget.draw.view.ViewTransform` (zoom and pan
of the image plane: wheel, pinch, shift-drag). The policy here:

* a drag on the background turns the camera (Bell's trackball); in the plane it stays a
  pan, and in space a shift-drag on the background pans;
* a pulled joint's target is the pointer unprojected onto the plane through the joint
  parallel to the screen, at the joint's depth when the drag began,

  .. math:: X = c + R^{\mathsf T}\bigl(s\,u,\; s\,v,\; w_0\bigr),
            \qquad s = 1 \text{ (orthographic)},\quad s = (D - w_0)/D \text{ (perspective)},

  so the kinematic attract pulls it toward ``(x, y, z)``;
* :attr:`projection` chooses orthographic or perspective;
* dynamic mode works in space: gravity pulls along :math:`-z` (the view's up is
  :math:`+z`, the simulator's :math:`-g M e_z`), springs and dampers act, a dragged joint
  pulls like in the plane (:data:`DYNAMIC_IN_SPACE` says so when the mode changes);
* motors and loads are planar: in space they are refused with a message that says so
  (:data:`PLANAR_ONLY`), the linkage unchanged; so is the right-click attractor, a
  point of the plane (:data:`ATTRACTOR_IN_SPACE`);
* table friction is planar (nothing rests on a table in space): the slider keeps its value
  for a planar linkage, a 3-D linkage's motion ignores it and says so once per value
  (:data:`TABLE_FRICTION_IN_SPACE`); the driver never hands it to a 3-D simulator.

Examples
--------
>>> from linkage_widget.session import LinkageSession
>>> from linkage_widget.examples.space import octahedron
>>> s = LinkageSession(octahedron())
>>> R0 = s.camera.rotation.copy()
>>> x, y = s.view.to_pixel([0.0, 0.0])     # the image plane's centre
>>> s.press(x + 150, y + 150); s.drag(x + 100, y + 150); s.release()
>>> bool(abs(s.camera.rotation - R0).max() > 0.1)
True
"""

from __future__ import annotations

from typing import Any

import numpy as np
from traitlets import HasTraits, TraitError, Unicode, observe, validate

from ..draw import Camera, SceneState
from ..draw.view3d import PROJECTIONS
from .gestures import Gesture
from .motion_driver import Target
from .tools import Action, drag_kind

__all__ = [
    "ATTRACTOR_IN_SPACE",
    "DYNAMIC_IN_SPACE",
    "DYNAMIC_SPACE_HINT",
    "PLANAR_ONLY",
    "SPACE_HINT",
    "TABLE_FRICTION_IN_SPACE",
    "SpaceViewMixin",
]

#: What dynamic mode does with a 3-D linkage (said when the mode changes to dynamic).
DYNAMIC_IN_SPACE = (
    "in space gravity points along -z (the view's up is +z); springs and dampers act; "
    "motors, loads and friction are planar"
)

#: Why motors and loads are refused in space ({what}: the tool's object).
PLANAR_ONLY = (
    "{what} are planar: a 3-D linkage has none (in space dynamic mode has gravity "
    "along -z, springs and dampers)"
)

#: Why the table-friction slider does nothing to a 3-D linkage (said once per value).
TABLE_FRICTION_IN_SPACE = (
    "table friction is planar: a 3-D linkage ignores it (nothing rests on a table in space)"
)

#: The hint of a running 3-D linkage in dynamic mode (in place of the planar one).
DYNAMIC_SPACE_HINT = "dynamic: gravity along -z · space stops · drag a joint to pull it"
_PLANAR_DYNAMIC = "dynamic: space stops"  # how the planar running-dynamic hint begins

#: The idle hint of a 3-D linkage (in place of the planar "drag: move/pan ... attractor").
SPACE_HINT = (
    "drag empty space: turn (shift: pan) · drag a joint: move it · e: perspective · wheel: zoom"
)
_PLANAR_IDLE = "click: add/select · drag: move/pan"  # how the planar idle hint begins

#: Why a right-click places no attractor in space.
ATTRACTOR_IN_SPACE = "in 3-D there is no attractor: drag a joint (it moves in the screen's plane)"


class SpaceViewMixin(HasTraits):
    """The 3-D view of the :class:`~linkage_widget.session.LinkageSession` (module docstring)."""

    projection = Unicode(
        "orthographic", help='How a 3-D linkage is seen: "orthographic" or "perspective".'
    )

    # ------------------------------------------------------------ public
    @property
    def camera(self) -> Camera | None:
        """The camera on a 3-D linkage (``None`` for a planar one); settable."""
        if self.linkage.dim != 3:  # type: ignore[attr-defined]
            return None
        cam = self.__dict__.get("_camera")
        if cam is None:
            cam = Camera.looking_at(self.linkage.vertices, projection=self.projection)  # type: ignore[attr-defined]
            self.__dict__["_camera"] = cam
        return cam

    @camera.setter
    def camera(self, new: Camera) -> None:
        if not isinstance(new, Camera):
            raise TraitError(f"camera must be a Camera, got {type(new).__name__}")
        self.__dict__["_camera"] = new
        if new.projection != self.projection:
            self.projection = new.projection
        self._request_draw()  # type: ignore[attr-defined]

    def mode_refusal(self) -> str:
        """Why dynamic mode cannot be chosen now, or ``""``: always ``""`` (it works in space).

        Kept as the widget's hook: its mode toggle is off, with this as the tooltip, while
        the text is not empty.
        """
        return ""

    def joint_pixels(self) -> tuple[np.ndarray, np.ndarray | None]:
        """Every joint's pixel ``(n, 2)`` and, in 3-D, its depth ``(n,)`` (larger: nearer)."""
        cam = self.camera
        if cam is None:
            return self._view.to_pixel(self.linkage.vertices), None  # type: ignore[attr-defined]
        return cam.to_pixel(self.linkage.vertices, self._view)  # type: ignore[attr-defined]

    # ------------------------------------------------------------ traits
    @validate("projection")
    def _validate_projection(self, proposal: Any) -> str:
        v = proposal["value"]
        if v not in PROJECTIONS:
            raise TraitError(f"projection must be one of {', '.join(PROJECTIONS)}; got {v!r}")
        return str(v)

    @observe("projection")
    def _on_projection(self, change: Any) -> None:
        cam = self.__dict__.get("_camera")
        if cam is not None and cam.projection != change["new"]:
            self.__dict__["_camera"] = cam.with_projection(change["new"])
        if getattr(self, "_ready", False):
            self._request_draw()  # type: ignore[attr-defined]

    # -------------------------------------------------- hooks of the session
    def _fit_points(self) -> np.ndarray:
        r"""What a fit must show: the joints (plane), or in space the image of their sphere.

        The bounding sphere about the camera's centre (radius :math:`\rho`) projects inside
        the disc of radius :math:`\rho` (orthographic) or :math:`\rho D / (D - \rho)`
        (perspective), whatever the rotation: fitting its square keeps every turn in view.
        """
        cam = self.camera
        if cam is None:
            out: np.ndarray = self.linkage.vertices  # type: ignore[attr-defined]
            return out
        rho = float(np.linalg.norm(self.linkage.vertices - cam.centre, axis=1).max(initial=0.0))  # type: ignore[attr-defined]
        if cam.projection == "perspective":
            rho *= cam.distance / max(cam.distance - rho, 0.05 * cam.distance)
        return np.array([[-rho, -rho], [rho, rho]])

    def _recentre_camera(self) -> None:
        """Turn about the joints' centre again (a fit, a load), keeping rotation and projection."""
        cam = self.__dict__.get("_camera")
        if self.linkage.dim == 3 and cam is not None:  # type: ignore[attr-defined]
            self.__dict__["_camera"] = Camera.looking_at(
                self.linkage.vertices,  # type: ignore[attr-defined]
                rotation=cam.rotation,
                projection=self.projection,
            )

    def _space_state(self, state: SceneState) -> SceneState:
        """The scene state with the camera (in 3-D)."""
        cam = self.camera
        if cam is not None:
            state.camera = cam
        return state

    def _hit_pixels(self) -> dict[str, Any]:
        """``hit_test``'s keywords: the projected joints and their depths (only in 3-D)."""
        if self.camera is None:
            return {}
        pixels, depth = self.joint_pixels()
        return {"pixels": pixels, "depth": depth}

    def _pointer_world(self, x: float, y: float, vertex: int | None = None) -> np.ndarray:
        """The world point under pixel ``(x, y)``: in space on the plane through ``vertex``.

        The plane is parallel to the screen at the joint's depth when its drag began
        (the centre's plane without a joint), so a drag moves the target in the view plane.
        """
        cam = self.camera
        if cam is None:
            out: np.ndarray = self._view.to_world([x, y])  # type: ignore[attr-defined]
            return out
        depth = 0.0
        if vertex is not None:
            starting = self._drag_vertex is None and not self._free_drag  # type: ignore[attr-defined]
            if starting or self.__dict__.get("_plane_depth") is None:
                self.__dict__["_plane_depth"] = cam.depth(self.linkage.vertices[vertex])  # type: ignore[attr-defined]
            depth = self.__dict__["_plane_depth"]
        return cam.from_pixel(self._view, x, y, depth)  # type: ignore[attr-defined]

    # ------------------------------------------------------------ gestures
    def _on_drag(self, g: Gesture, dx: float, dy: float) -> None:
        assert g.data is not None
        background = drag_kind(g.data["action"], g.data["hit"]) == "pan"
        if self.camera is not None and background and not g.shift:
            x1, y1 = g.last_x, g.last_y
            self._apply(Action("rotate_view", (x1 - dx, y1 - dy, x1, y1)))  # type: ignore[attr-defined]
            return
        super()._on_drag(g, dx, dy)  # type: ignore[misc]

    def _hint(self) -> str:
        """The hint line; a 3-D linkage's idle hint says how to turn the view."""
        hint: str = super()._hint()  # type: ignore[misc]
        if self.camera is not None and hint.startswith(_PLANAR_IDLE):
            return SPACE_HINT
        if self.camera is not None and hint.startswith(_PLANAR_DYNAMIC):
            return DYNAMIC_SPACE_HINT  # no right-click attractor in space; gravity's way
        return hint

    def _setup(self) -> Any:
        """The simulator's setup; a 3-D linkage's without table friction (planar).

        The slider keeps its value (it is the planar linkages' too, and the document's).
        """
        setup = super()._setup()  # type: ignore[misc]
        if self.camera is None or setup.table_friction == 0.0:
            return setup
        return setup._replace(table_friction=0.0)

    def _step_motion(self) -> bool:
        """A frame's motion; in space, dynamic, it says once per value that table friction is off.

        (:data:`TABLE_FRICTION_IN_SPACE`: the slider's value does nothing to a 3-D linkage.)
        """
        mu = float(self.table_friction)  # type: ignore[attr-defined]
        space = self.camera is not None and self.mode == "dynamic"  # type: ignore[has-type]
        if space and mu > 0.0 and self.__dict__.get("_told_table") != mu:
            self.__dict__["_told_table"] = mu
            self._message = TABLE_FRICTION_IN_SPACE
        return bool(super()._step_motion())  # type: ignore[misc]

    def _do_rotate_view(self, x0: float, y0: float, x1: float, y1: float) -> None:
        """Turn the camera as the background was dragged from ``(x0, y0)`` to ``(x1, y1)``."""
        cam = self.camera
        if cam is None:
            return
        self.__dict__["_camera"] = cam.rotated_by_drag(self._view, x0, y0, x1, y1)  # type: ignore[attr-defined]
        self._dirty = True
        self._pointer_input()  # type: ignore[attr-defined]

    def _do_toggle_projection(self) -> None:
        """Key e: perspective <-> orthographic (a 3-D linkage's)."""
        if self.camera is None:
            self._message = "e switches the projection of a 3-D linkage"
            return
        self.projection = "perspective" if self.projection == "orthographic" else "orthographic"
        self._message = f"{self.projection} projection (e switches)"

    def _planar_only(self, what: str) -> None:
        """Refuse ``what`` (motors, loads) for a 3-D linkage, saying why."""
        if self.camera is not None:
            raise ValueError(PLANAR_ONLY.format(what=what))

    def add_motor(
        self, pivot: int, tip: int, speed: float = 1.0, *, reference: tuple[int, int] | None = None
    ) -> int:
        """The session's :meth:`add_motor`; refused for a 3-D linkage (planar), nothing changed."""
        self._planar_only("motors")
        return int(super().add_motor(pivot, tip, speed, reference=reference))  # type: ignore[misc]

    def add_load(self, vertex: int, force: Any = None) -> None:
        """The session's :meth:`add_load`; refused for a 3-D linkage (planar), nothing changed."""
        self._planar_only("loads")
        super().add_load(vertex, force)  # type: ignore[misc]

    def add_force(self, i: int, j: int, force: float) -> None:
        """The session's :meth:`add_force`; refused for a 3-D linkage (planar)."""
        self._planar_only("pathway forces")
        super().add_force(i, j, force)  # type: ignore[misc]

    def add_friction(self, i: int, j: int, *args: Any, **kw: Any) -> None:
        """The session's :meth:`add_friction`; refused for a 3-D linkage (planar)."""
        self._planar_only("pathway frictions")
        super().add_friction(i, j, *args, **kw)  # type: ignore[misc]

    def _do_motor_at(self, r: int, x: float, y: float) -> None:
        self._planar_only("motors")
        super()._do_motor_at(r, x, y)  # type: ignore[misc]

    def _do_toggle_motors(self) -> None:
        self._planar_only("motors")
        super()._do_toggle_motors()  # type: ignore[misc]

    def _do_toggle_load(self, v: int) -> None:
        self._planar_only("loads")
        super()._do_toggle_load(v)  # type: ignore[misc]

    def _do_aim_load(self, v: int, x: float, y: float) -> None:
        self._planar_only("loads")
        super()._do_aim_load(v, x, y)  # type: ignore[misc]

    def _do_set_load(self, v: int, x: float, y: float) -> None:
        self._planar_only("loads")
        super()._do_set_load(v, x, y)  # type: ignore[misc]

    def _do_place_attractor(self, x: float, y: float) -> None:
        if self.camera is not None:
            raise ValueError(ATTRACTOR_IN_SPACE)
        super()._do_place_attractor(x, y)  # type: ignore[misc]

    def _target(self) -> Any:
        """The motion's target; a 3-D drag pulls toward ``(x, y, z)``."""
        drag = self._drag_target  # type: ignore[attr-defined]
        if self.camera is not None and self._drag_vertex is not None and drag is not None:  # type: ignore[attr-defined]
            x, y, z = (float(c) for c in drag)
            return Target(self._drag_vertex, x, y, z)  # type: ignore[attr-defined]
        return super()._target()  # type: ignore[misc]
