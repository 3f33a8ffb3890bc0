r"""The camera of a 3-D linkage: space -> the image plane, then the one 2-D view to pixels.

A spatial linkage is drawn in two steps, each in one place. :class:`Camera` turns
world points :math:`X \in \mathbb{R}^3` into image-plane points (world units) and a
depth; the session's :class:`~linkage_widget.draw.view.ViewTransform` then turns the
image plane into pixels exactly as it does a planar linkage's world, so zoom (wheel,
pinch) and pan stay the 2-D view's. With the rotation :math:`R` (rows: the screen's
right, up and toward-the-viewer axes in world coordinates) and the centre :math:`c`:

.. math::

    (u, v, w) = R\,(X - c), \qquad
    \text{orthographic: } (u, v), \qquad
    \text{perspective: } \frac{D}{D - w}\,(u, v),

where :math:`w` is the depth (larger is nearer the viewer) and :math:`D` the eye's
distance from :math:`c`. Both projections agree on the plane :math:`w = 0` through the
centre, so switching keeps the picture's size. :meth:`Camera.from_pixel` inverts the
projection on a plane :math:`w = w_0` parallel to the screen (where a dragged joint's
pointer pulls it); :meth:`Camera.rotated_by_drag` is Bell's virtual trackball.

Examples
--------
>>> import numpy as np
>>> from linkage_widget.draw.view import ViewTransform
>>> cam = Camera.looking_at([[0, 0, 0], [2, 0, 0]], rotation=np.eye(3))
>>> cam.image([[2, 0, 0], [1, 0, 5]])[0].tolist()
[[1.0, 0.0], [0.0, 0.0]]
>>> view = ViewTransform(100.0, 200.0, 150.0, 400, 300)
>>> p, depth = cam.to_pixel([[1.0, 0.5, 0.25]], view)
>>> p.round(6).tolist(), depth.tolist()
([[200.0, 100.0]], [0.25])
>>> cam.from_pixel(view, 200.0, 100.0, 0.25).tolist()
[1.0, 0.5, 0.25]
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from .view import ViewTransform

__all__ = [
    "CAMERA_VIEWS",
    "EYE_DISTANCE",
    "PROJECTIONS",
    "TRACKBALL_RADIUS",
    "Camera",
    "camera_view",
    "default_rotation",
]

#: The two projections a camera knows.
PROJECTIONS = ("orthographic", "perspective")

#: The perspective eye's distance from the centre, in radii of the linkage's bounding
#: sphere: 3 radii give a visible but not distorting foreshortening (a 40° field).
EYE_DISTANCE = 3.0

#: The trackball's radius as a fraction of the canvas's smaller side (Bell's sphere).
TRACKBALL_RADIUS = 0.4

#: Points at least this fraction of D in front of the eye keep a finite perspective
#: factor (a point behind the eye would flip through infinity).
_NEAR = 0.05


def default_rotation(azimuth_deg: float = -30.0, elevation_deg: float = 25.0) -> np.ndarray:
    r"""A rotation looking at the world with z up, from ``azimuth`` round z and ``elevation`` above.

    :math:`R = R_x(\varepsilon - 90°)\,R_z(\alpha)`: world z points up on the screen
    tilted toward the viewer by the elevation.

    >>> R = default_rotation(0.0, 0.0)
    >>> R.round(12).tolist()
    [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, -1.0, 0.0]]
    """
    a, e = math.radians(azimuth_deg), math.radians(elevation_deg - 90.0)
    rz = np.array([[math.cos(a), -math.sin(a), 0.0], [math.sin(a), math.cos(a), 0.0], [0, 0, 1]])
    rx = np.array([[1.0, 0, 0], [0, math.cos(e), -math.sin(e)], [0, math.sin(e), math.cos(e)]])
    out: np.ndarray = rx @ rz
    return out


#: The eight views key ``v`` turns a 3-D linkage to, as ``(name, azimuth°, elevation°)`` of
#: :func:`default_rotation`: the six views along the axes (front from -y, z up), the
#: isometric view (the eye on the diagonal (1, -1, 1): elevation atan(1/sqrt 2) = 35.26°,
#: the three axes foreshortened alike) and the oblique view a 3-D linkage opens with.
CAMERA_VIEWS = (
    ("front (from -y)", 0.0, 0.0),
    ("right (from +x)", -90.0, 0.0),
    ("back (from +y)", 180.0, 0.0),
    ("left (from -x)", 90.0, 0.0),
    ("top (from +z)", 0.0, 90.0),
    ("bottom (from -z)", 0.0, -90.0),
    ("isometric (from +x -y +z)", -45.0, math.degrees(math.atan(1.0 / math.sqrt(2.0)))),
    ("oblique (the opening view)", -30.0, 25.0),
)


def camera_view(k: int) -> tuple[str, np.ndarray]:
    """The name and rotation ``(3, 3)`` of view ``k`` of :data:`CAMERA_VIEWS` (modulo 8).

    >>> name, R = camera_view(4)
    >>> name, R[2].round(12).tolist()  # the top view looks down: the screen's out is +z
    ('top (from +z)', [0.0, 0.0, 1.0])
    """
    name, azimuth, elevation = CAMERA_VIEWS[int(k) % len(CAMERA_VIEWS)]
    return name, default_rotation(azimuth, elevation)


def _orthonormal(R: np.ndarray) -> np.ndarray:
    """The rotation nearest ``R`` (polar factor by SVD): a trackball's products drift."""
    U, _, Vt = np.linalg.svd(R)
    Q: np.ndarray = U @ Vt
    if np.linalg.det(Q) < 0:  # never a reflection
        Q = U @ np.diag([1.0, 1.0, -1.0]) @ Vt
    return Q


@dataclass(frozen=True, eq=False)
class Camera:
    """Rotation, centre and eye distance of the view of a 3-D linkage (module docstring).

    Attributes
    ----------
    rotation : ndarray, shape (3, 3)
        Orthonormal, determinant +1; rows are the screen's right, up and out axes.
    centre : ndarray, shape (3,)
        The world point the camera turns about (image-plane origin).
    distance : float
        Perspective eye distance :math:`D` from the centre, world units (> 0).
    projection : {"orthographic", "perspective"}
    """

    rotation: np.ndarray
    centre: np.ndarray
    distance: float = 1.0
    projection: str = "orthographic"

    def __post_init__(self) -> None:
        R = np.asarray(self.rotation, dtype=np.float64).reshape(3, 3)
        if not np.allclose(R @ R.T, np.eye(3), atol=1e-9) or np.linalg.det(R) < 0:
            raise ValueError("camera rotation must be orthonormal with determinant +1")
        c = np.asarray(self.centre, dtype=np.float64).reshape(3)
        if not np.all(np.isfinite(c)):
            raise ValueError(f"camera centre must be finite, got {c.tolist()}")
        if not (math.isfinite(self.distance) and self.distance > 0):
            raise ValueError(f"camera distance must be finite and > 0, got {self.distance!r}")
        if self.projection not in PROJECTIONS:
            raise ValueError(
                f"projection must be one of {', '.join(PROJECTIONS)}; got {self.projection!r}"
            )
        object.__setattr__(self, "rotation", R)
        object.__setattr__(self, "centre", c)
        object.__setattr__(self, "distance", float(self.distance))

    @classmethod
    def looking_at(
        cls, points: Any, rotation: Any = None, projection: str = "orthographic"
    ) -> Camera:
        """A camera turning about the centre of ``points``' bounding box, eye at 3 radii.

        ``rotation`` defaults to :func:`default_rotation` (z up, seen from above and aside).
        """
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 3)
        pts = pts[np.all(np.isfinite(pts), axis=1)]
        centre = (pts.min(axis=0) + pts.max(axis=0)) / 2.0 if len(pts) else np.zeros(3)
        radius = float(np.linalg.norm(pts - centre, axis=1).max(initial=0.0)) or 1.0
        R = default_rotation() if rotation is None else rotation
        return cls(R, centre, EYE_DISTANCE * radius, projection)

    def with_projection(self, projection: str) -> Camera:
        """The same camera with the other projection."""
        return replace(self, projection=projection)

    # ---------------------------------------------------------- projecting
    def image(self, points: Any) -> tuple[np.ndarray, np.ndarray]:
        """World points ``(n, 3)`` -> image-plane points ``(n, 2)`` (world units) and depths."""
        X = np.asarray(points, dtype=np.float64).reshape(-1, 3)
        c = (X - self.centre) @ self.rotation.T
        return c[:, :2] * self._factor(c[:, 2])[:, None], c[:, 2].copy()

    def _factor(self, w: np.ndarray) -> np.ndarray:
        """The perspective factor ``D / (D - w)`` (1 in orthographic projection)."""
        if self.projection == "orthographic":
            return np.ones_like(w)
        D = self.distance
        return D / np.maximum(D - w, _NEAR * D)

    def to_pixel(self, points: Any, view: ViewTransform) -> tuple[np.ndarray, np.ndarray]:
        """World points ``(n, 3)`` -> pixels ``(n, 2)`` through ``view``, and depth ``(n,)``."""
        Q, depth = self.image(points)
        return view.to_pixel(Q), depth

    def from_pixel(self, view: ViewTransform, x: float, y: float, depth: float) -> np.ndarray:
        """World point ``(3,)`` at pixel ``(x, y)`` on the screen-parallel plane ``w = depth``."""
        u, v = view.to_world([x, y])
        w = float(depth)
        if self.projection == "perspective":
            s = max(self.distance - w, _NEAR * self.distance) / self.distance
            u, v = u * s, v * s
        out: np.ndarray = self.centre + self.rotation.T @ np.array([u, v, w])
        return out

    def depth(self, point: Any) -> float:
        """The depth ``w`` of one world point (larger: nearer the viewer)."""
        return float(self.rotation[2] @ (np.asarray(point, dtype=np.float64) - self.centre))

    def project_vectors(self, points: Any, vectors: Any) -> np.ndarray:
        r"""Velocities ``(..., n, 3)`` at ``points`` ``(n, 3)`` -> the image plane, ``(..., n, 2)``.

        The derivative of the projection: orthographic :math:`\dot u, \dot v`;
        perspective :math:`f(\dot u, \dot v) + (f^2/D)\,\dot w\,(u, v)` with :math:`f = D/(D-w)`.
        """
        X = np.asarray(points, dtype=np.float64).reshape(-1, 3)
        V = np.asarray(vectors, dtype=np.float64)
        c = (X - self.centre) @ self.rotation.T
        dc = V @ self.rotation.T
        f = self._factor(c[:, 2])[:, None]
        out = dc[..., :2] * f
        if self.projection == "perspective":
            out = out + (f * f / self.distance) * dc[..., 2:3] * c[:, :2]
        result: np.ndarray = out
        return result

    # ------------------------------------------------------------ turning
    def rotated_by_drag(
        self, view: ViewTransform, x0: float, y0: float, x1: float, y1: float
    ) -> Camera:
        r"""The camera after the pointer dragged the background from ``(x0, y0)`` to ``(x1, y1)``.

        Bell's virtual trackball: a pixel maps onto a sphere of radius
        :data:`TRACKBALL_RADIUS` x the canvas's smaller side about the centre's pixel
        (a hyperbolic sheet :math:`z = r^2 / (2 |p|)` outside :math:`|p| = r/\sqrt 2`, so a
        drag off the ball still turns smoothly), and the rotation :math:`S` taking the
        first point to the second (axis :math:`p_0 \times p_1`, angle between them) is
        applied in camera coordinates: :math:`R \leftarrow S R`. A drag through the
        middle by :math:`\delta` pixels turns by :math:`\arcsin(\delta / r)` about the
        screen's perpendicular axis.
        """
        cx, cy = view.to_pixel([0.0, 0.0])
        r = TRACKBALL_RADIUS * min(view.width, view.height)
        p0 = _ball((x0 - cx) / r, (cy - y0) / r)
        p1 = _ball((x1 - cx) / r, (cy - y1) / r)
        S = _rotation_between(p0, p1)
        return replace(self, rotation=_orthonormal(S @ self.rotation))


def _ball(a: float, b: float) -> np.ndarray:
    """Bell's trackball: the unit vector over image point ``(a, b)`` (radii)."""
    d2 = a * a + b * b
    z = math.sqrt(1.0 - d2) if d2 <= 0.5 else 0.5 / math.sqrt(d2)
    p = np.array([a, b, z])
    out: np.ndarray = p / np.linalg.norm(p)
    return out


def _rotation_between(p0: np.ndarray, p1: np.ndarray) -> np.ndarray:
    r"""The rotation about :math:`p_0 \times p_1` taking unit ``p0`` to unit ``p1`` (Rodrigues)."""
    axis = np.cross(p0, p1)
    s, c = float(np.linalg.norm(axis)), float(np.clip(p0 @ p1, -1.0, 1.0))
    if s < 1e-15:
        return np.eye(3)
    k = axis / s
    K = np.array([[0.0, -k[2], k[1]], [k[2], 0.0, -k[0]], [-k[1], k[0], 0.0]])
    out: np.ndarray = np.eye(3) + s * K + (1.0 - c) * (K @ K)
    return out
