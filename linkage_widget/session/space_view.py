r"""The session's view of the plane or of space: a camera, turned, a joint pulled in its plane.

The session holds the camera and asks one of two views, chosen by the linkage's
dimension: :class:`PlaneView` (a planar linkage) or :class:`SpaceView` (one with
``linkage.dim == 3``). Each takes values (pixels, joints, the camera) and returns values
(a world point, the joint pixels, an action, a refusal); neither holds the session. A
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
* loads (``add_load(v, (fx, fy, fz))``), path forces and path friction act in space;
  motors and torques (they turn a rod in the plane of the drawing) and the load tool's
  clicks (a click aims in the plane of the screen) are refused with a message that says
  so (:data:`PLANAR_ONLY`), the linkage unchanged; so is the right-click attractor, a
  point of the plane (:data:`ATTRACTOR_IN_SPACE`);
* table friction is planar (nothing rests on a table in space): the slider keeps its value
  for a planar linkage, a 3-D linkage's motion ignores it and says so once per value
  (:data:`TABLE_FRICTION_IN_SPACE`); the driver never hands it to a 3-D simulator;
* the hint line's idle and running-dynamic texts are :data:`~.tools.SPACE_HINT` and
  :data:`~.tools.DYNAMIC_SPACE_HINT` (:class:`~.tools.HintState` ``space``).

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

from dataclasses import dataclass

import numpy as np

from ..draw import Camera, ViewTransform, overlay_insets
from .gestures import Gesture
from .tools import Action, drag_kind

__all__ = [
    "ATTRACTOR_IN_SPACE",
    "DYNAMIC_IN_SPACE",
    "PLANAR_ONLY",
    "TABLE_FRICTION_IN_SPACE",
    "PlaneView",
    "SpaceView",
    "current_camera",
    "fitted_view",
]

#: What dynamic mode does with a 3-D linkage (said when the mode changes to dynamic).
DYNAMIC_IN_SPACE = (
    "in space gravity points along -z (the view's up is +z); springs, dampers, loads, "
    "path forces and path friction act; motors and torques are planar"
)

#: Why motors, torques and the load tool's clicks are refused in space ({what}: the object).
PLANAR_ONLY = (
    "{what} are planar here: a 3-D linkage has none from the widget (in space: gravity "
    "along -z, springs, dampers, add_load(v, (fx, fy, fz)), path forces and friction; "
    "the Simulator turns hinges with HingeTorque and HingeMotor)"
)

#: Why the table-friction slider does nothing to a 3-D linkage (said once per value).
TABLE_FRICTION_IN_SPACE = (
    "table friction is planar: a 3-D linkage ignores it (nothing rests on a table in space)"
)

#: Why a right-click places no attractor in space.
ATTRACTOR_IN_SPACE = "in 3-D there is no attractor: drag a joint (it moves in the screen's plane)"


def current_camera(camera: Camera | None, vertices: np.ndarray, projection: str) -> Camera:
    """The camera on the joints ``vertices`` seen in ``projection``: ``camera``, else a new one."""
    if camera is None:
        return Camera.looking_at(vertices, projection=projection)
    return camera if camera.projection == projection else camera.with_projection(projection)


def fitted_view(points: np.ndarray, width: int, height: int, info_lines: int) -> ViewTransform:
    """The view fitting ``points`` (a viewer's ``fit_points``) clear of the overlays.

    That is the info panel's ``info_lines`` at the top and the hint line at the bottom.
    """
    top, bottom = overlay_insets(info_lines)
    return ViewTransform.fit(points, width, height, margin=0.1, top=top, bottom=bottom)


class PlaneView:
    """A planar linkage's view: the 2-D view transform alone; every action is allowed."""

    space = False
    camera: Camera | None = None

    def joint_pixels(
        self, vertices: np.ndarray, view: ViewTransform
    ) -> tuple[np.ndarray, np.ndarray | None]:
        """Every joint's pixel ``(n, 2)``; no depth."""
        return view.to_pixel(vertices), None

    def hit_pixels(self, vertices: np.ndarray, view: ViewTransform) -> dict[str, np.ndarray]:
        """``hit_test``'s extra keywords: none (it projects the joints itself)."""
        return {}

    def fit_points(self, vertices: np.ndarray) -> np.ndarray:
        """What a fit must show: the joints."""
        return vertices

    def depth(self, point: np.ndarray) -> float:
        """The depth of a pulled joint's plane: none in the plane."""
        return 0.0

    def world_point(
        self, view: ViewTransform, x: float, y: float, depth: float = 0.0
    ) -> np.ndarray:
        """The world point under pixel ``(x, y)``."""
        out: np.ndarray = view.to_world([x, y])
        return out

    def drag_action(self, g: Gesture, dx: float, dy: float) -> Action | None:
        """A drag the view takes for itself: none (a background drag pans)."""
        return None

    def toggled(self, projection: str) -> tuple[str, str]:
        """Key e: the projection unchanged (a planar linkage has none) and why."""
        return projection, "e switches the projection of a 3-D linkage"

    def refusal(self, what: str) -> str:
        """Why ``what`` (motors, loads, ...) is refused: it is not."""
        return ""

    def attractor_refusal(self) -> str:
        """Why a right-click places no attractor: it does."""
        return ""

    def table_friction(self, mu: float) -> float:
        """The table friction the simulator gets: the slider's."""
        return mu

    def friction_note(self, mu: float, mode: str) -> str:
        """What a frame says of the table friction: nothing."""
        return ""


@dataclass(frozen=True)
class SpaceView:
    """A 3-D linkage's view through ``camera`` (module docstring)."""

    camera: Camera
    space = True

    def joint_pixels(
        self, vertices: np.ndarray, view: ViewTransform
    ) -> tuple[np.ndarray, np.ndarray | None]:
        """Every joint's pixel ``(n, 2)`` and its depth ``(n,)`` (larger: nearer)."""
        pixels, depth = self.camera.to_pixel(vertices, view)
        return pixels, depth

    def hit_pixels(self, vertices: np.ndarray, view: ViewTransform) -> dict[str, np.ndarray]:
        """``hit_test``'s keywords: the projected joints and their depths."""
        pixels, depth = self.camera.to_pixel(vertices, view)
        return {"pixels": pixels, "depth": depth}

    def fit_points(self, vertices: np.ndarray) -> np.ndarray:
        r"""What a fit must show: the image of the joints' sphere about the camera's centre.

        The sphere (radius :math:`\rho`) projects inside the disc of radius :math:`\rho`
        (orthographic) or :math:`\rho D / (D - \rho)` (perspective), whatever the rotation:
        fitting its square keeps every turn in view.
        """
        cam = self.camera
        rho = float(np.linalg.norm(vertices - cam.centre, axis=1).max(initial=0.0))
        if cam.projection == "perspective":
            rho *= cam.distance / max(cam.distance - rho, 0.05 * cam.distance)
        return np.array([[-rho, -rho], [rho, rho]])

    def depth(self, point: np.ndarray) -> float:
        """The depth of the plane parallel to the screen through ``point`` (a pulled joint)."""
        return float(self.camera.depth(point))

    def world_point(
        self, view: ViewTransform, x: float, y: float, depth: float = 0.0
    ) -> np.ndarray:
        """The world point under pixel ``(x, y)`` on the screen-parallel plane at ``depth``."""
        out: np.ndarray = self.camera.from_pixel(view, x, y, depth)
        return out

    def drag_action(self, g: Gesture, dx: float, dy: float) -> Action | None:
        """A plain drag on the background turns the camera (shift: the pointer's pan)."""
        assert g.data is not None
        if drag_kind(g.data["action"], g.data["hit"]) != "pan" or g.shift:
            return None
        x1, y1 = g.last_x, g.last_y
        return Action("rotate_view", (x1 - dx, y1 - dy, x1, y1))

    def toggled(self, projection: str) -> tuple[str, str]:
        """Key e: the other projection (perspective <-> orthographic) and what to say."""
        other = "perspective" if projection == "orthographic" else "orthographic"
        return other, f"{other} projection (e switches)"

    def refusal(self, what: str) -> str:
        """Why ``what`` (motors, loads, pathway forces ...) is refused: it is planar."""
        return PLANAR_ONLY.format(what=what)

    def attractor_refusal(self) -> str:
        """Why a right-click places no attractor: one is a point of the plane."""
        return ATTRACTOR_IN_SPACE

    def table_friction(self, mu: float) -> float:
        """The table friction the simulator gets: none (the slider keeps its value)."""
        return 0.0

    def friction_note(self, mu: float, mode: str) -> str:
        """What a dynamic frame says of a table friction the 3-D motion ignores."""
        return TABLE_FRICTION_IN_SPACE if mode == "dynamic" and mu > 0.0 else ""
