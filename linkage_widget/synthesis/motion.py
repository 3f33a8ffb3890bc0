r"""Motion generation: a four-bar whose coupler carries a body through given poses.

Two dyads (see :mod:`~linkage_widget.synthesis.burmester` for the equations) whose
moving pivots are fixed to the body make a four-bar with the body as its coupler. A
circle point :math:`m` of the body is at :math:`Z_i = d_i + R_i m` in pose :math:`i`.

* **Two poses**: the centre point is any point of the perpendicular bisector of
  :math:`Z_1 Z_2`; by default the one from which :math:`Z_1 Z_2` is seen under 60°, on
  the side of the pole :math:`P_{12}` (or the point of it nearest a given hint).
* **Three poses**: the centre point is the one point equidistant from
  :math:`Z_1, Z_2, Z_3`, where two perpendicular bisectors meet,

  .. math:: 2 (Z_i - Z_1) \cdot c = |Z_i|^2 - |Z_1|^2, \qquad i = 2, 3;

  or, given the centre point, the circle point is where the bisectors of its images in
  the body's frame, :math:`R_i^T (c - d_i)`, meet (the same construction, inverted).
* **Four poses**: the centre-point and circle-point curves, sampled.
* **Five poses**: the Burmester points, at most four pairs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import _checks
from ._four_bar import FourBar, branch_sign, four_bar, rocker_pin
from .burmester import burmester_curves, burmester_points, pole, rotations, scale_of

__all__ = ["MotionSynthesis", "motion_synthesis"]


@dataclass(frozen=True, eq=False)
class MotionSynthesis:
    r"""Dyads that guide a body through poses, and the four-bars they make in pairs.

    Attributes
    ----------
    poses : ndarray, shape (n, 3)
        The poses :math:`(x, y, \theta)` asked for.
    centre_points : ndarray, shape (k, 2)
        The fixed pivots :math:`c` (world).
    circle_points : ndarray, shape (k, 2)
        The moving pivots, row by row with ``centre_points``, where they are in the
        first pose (world). For four poses both are samples of the Burmester curves.
    """

    poses: np.ndarray
    centre_points: np.ndarray
    circle_points: np.ndarray

    def four_bar(self, i: int = 0, j: int = 1) -> FourBar:
        r"""The four-bar of dyads ``i`` (the crank, 0 → 2) and ``j`` (the rocker, 1 → 3).

        Drawn in the first pose; the body's origin :math:`(x_1, y_1)` is its coupler
        point (vertex 4) unless it lies on the line of the two moving pivots.
        """
        k = len(self.centre_points)
        i = _checks.item_index(i, k, "dyad i", "dyads")
        j = _checks.item_index(j, k, "dyad j", "dyads")
        if i == j:
            raise ValueError("motion_synthesis: a four-bar needs two different dyads")
        a0, b0 = self.centre_points[i], self.centre_points[j]
        a, b = self.circle_points[i], self.circle_points[j]
        p = self.poses[0, :2]
        u, v = b - a, p - a
        flat = abs(u[0] * v[1] - u[1] * v[0]) <= 1e-9 * (u @ u + v @ v)
        return four_bar(a0, b0, a, b, None if flat else p.copy())

    @property
    def linkage(self):
        """The first two dyads' four-bar's linkage (``four_bar(0, 1).linkage``)."""
        return self.four_bar(0, 1).linkage

    def branch_defect(self, i: int = 0, j: int = 1) -> bool:
        r"""Whether no one motion of the four-bar of dyads ``i``, ``j`` meets every pose.

        Either defect counts (:meth:`defect` says which): a *branch* defect, the assembly
        branch :math:`\sigma_k`, the turn :math:`Z^i_k \to c_j \to Z^j_k`
        (:func:`~linkage_widget.synthesis._four_bar.branch_sign`), not the same in every
        pose; or a *circuit* defect, the crank unable to turn from one pose's angle to
        the next's either way round without the four-bar coming apart.
        """
        return self.defect(i, j) is not None

    def defect(self, i: int = 0, j: int = 1) -> str | None:
        r"""``"branch"``, ``"circuit"`` or None: why the four-bar of ``i``, ``j`` misses a pose.

        The crank :math:`c_i \to Z^i` turns from pose :math:`k`'s angle to pose
        :math:`k+1`'s along either arc; the rocker pin on branch :math:`\sigma` must exist
        all along one of them (:func:`~linkage_widget.synthesis._four_bar.rocker_pin`,
        sampled every quarter degree), else the poses lie on different circuits.
        """
        zi, zj = self.circle_positions(i), self.circle_positions(j)
        a0, b0 = self.centre_points[i], self.centre_points[j]
        signs = branch_sign(zi, b0, zj)
        if np.any(signs != signs[0]):
            return "branch"
        b, c = np.linalg.norm(zj[0] - zi[0]), np.linalg.norm(zj[0] - b0)
        crank = np.arctan2(zi[:, 1] - a0[1], zi[:, 0] - a0[0])
        radius = np.linalg.norm(zi[0] - a0)
        for start, end in zip(crank[:-1], crank[1:], strict=True):
            ccw = np.mod(end - start, 2 * np.pi)
            if not any(
                _assembles(a0, b0, radius, b, c, signs[0], start, sweep)
                for sweep in (ccw, ccw - 2 * np.pi)
            ):
                return "circuit"
        return None

    def circle_positions(self, i: int) -> np.ndarray:
        r"""Where dyad ``i``'s moving pivot is in every pose, :math:`Z_1 \dots Z_n`: ``(n, 2)``."""
        m = _body(self.poses, self.circle_points[i])
        return self.poses[:, :2] + rotations(self.poses[:, 2]) @ m


def _assembles(a0, b0, radius, b, c, sigma, start, sweep) -> bool:
    """Whether the rocker pin exists (branch ``sigma``) as the crank turns by ``sweep``."""
    theta = start + np.linspace(0.0, sweep, max(2, int(abs(sweep) / np.radians(0.25)) + 2))
    pins = a0 + radius * np.column_stack([np.cos(theta), np.sin(theta)])
    return bool(np.isfinite(rocker_pin(pins, b0, b, c, sigma)).all())


def _body(poses: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Body-frame coordinates of the world point ``w`` of the first pose."""
    return rotations(poses[:1, 2])[0].T @ (np.asarray(w) - poses[0, :2])


def _world(poses: np.ndarray, m: np.ndarray) -> np.ndarray:
    """Where the body point ``m`` ``(..., 2)`` is in the first pose."""
    return poses[0, :2] + m @ rotations(poses[:1, 2])[0].T


def _checked_poses(poses: Any) -> np.ndarray:
    p = np.asarray(poses, dtype=float) if _numeric(poses) else None
    if p is None or p.ndim != 2 or p.shape[1] != 3:
        raise ValueError("motion_synthesis: poses must be a sequence of (x, y, theta)")
    if not np.isfinite(p).all():
        row = int(np.flatnonzero(~np.isfinite(p).all(axis=1))[0])
        raise ValueError(f"motion_synthesis: pose {row} is not finite: {p[row].tolist()}")
    if not 2 <= len(p) <= 5:
        raise ValueError(
            f"motion_synthesis: give 2 to 5 poses (got {len(p)}): two or three choose the "
            "pivots, four give the Burmester curves, five the Burmester points"
        )
    scale = scale_of(p)
    turn = np.mod(p[:, 2, None] - p[None, :, 2] + np.pi, 2 * np.pi) - np.pi
    gap = np.hypot(*(p[:, None, :2] - p[None, :, :2]).transpose(2, 0, 1)) + scale * np.abs(turn)
    i, j = np.triu_indices(len(p), 1)
    close = np.flatnonzero(gap[i, j] <= 1e-9 * scale)
    if close.size:
        raise ValueError(
            f"motion_synthesis: poses {i[close[0]]} and {j[close[0]]} coincide: "
            "each pose must place the body elsewhere"
        )
    return p


def _numeric(value: Any) -> bool:
    try:
        np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        return False
    return True


def _points(value: Any, name: str, poses: np.ndarray) -> np.ndarray:
    if value is None:
        # two points of the body a spread apart along its own x-axis, about its origin
        half = 0.5 * scale_of(poses) * np.array([[-1.0, 0.0], [1.0, 0.0]])
        return _world(poses, half)
    pts = _checks.finite_points(value, f"motion_synthesis {name}")
    if pts.shape[0] != 2:
        raise ValueError(f"motion_synthesis: give two {name} (one per dyad), got {len(pts)}")
    return pts


def _circumcentre(z: np.ndarray, what: str) -> np.ndarray:
    """The point equidistant from the three points ``z``: two perpendicular bisectors meet."""
    a = 2 * (z[1:] - z[0])
    rhs = np.einsum("ij,ij->i", z[1:], z[1:]) - z[0] @ z[0]
    size = np.abs(a).max()
    gaps = np.linalg.norm(z[[0, 0, 1]] - z[[1, 2, 2]], axis=1)
    same = np.flatnonzero(gaps <= 1e-9 * max(float(gaps.max()), 1e-300))
    if same.size:
        i, j = ((0, 1), (0, 2), (1, 2))[int(same[0])]
        raise ValueError(
            f"motion_synthesis: {what} is the pole P{i + 1}{j + 1} (at one place in poses "
            f"{i} and {j}): three points do not fix its circle; choose another point"
        )
    if size == 0 or abs(np.linalg.det(a)) <= 1e-12 * size * size:
        raise ValueError(
            f"motion_synthesis: {what} is on one line in the three poses (the bisectors are "
            "parallel: its fixed pivot would be at infinity); choose another point"
        )
    return np.linalg.solve(a, rhs)


def _two(poses: np.ndarray, circles: np.ndarray, hints: Any) -> np.ndarray:
    """Centre points on the bisectors of two poses: at 60°, or nearest the hints."""
    rot = rotations(poses[:, 2])
    p12 = pole(poses, 0, 1)
    hint = None if hints is None else _checks.finite_points(hints, "motion_synthesis centre hints")
    if hint is not None and hint.shape[0] != len(circles):
        raise ValueError(
            f"motion_synthesis: with two poses give {len(circles)} centre_points (one hint "
            f"per dyad, its fixed pivot the nearest point of the bisector), got {len(hint)}"
        )
    out = []
    for k, w in enumerate(circles):
        z = poses[:, :2] + rot @ _body(poses, w)
        chord = z[1] - z[0]
        if np.linalg.norm(chord) <= 1e-12 * scale_of(poses):
            raise ValueError(f"motion_synthesis: circle point {k} is the pole; it does not move")
        n = np.array([-chord[1], chord[0]]) / np.linalg.norm(chord)
        mid = (z[0] + z[1]) / 2
        if hint is not None:
            t = (hint[k] - mid) @ n
        else:
            side = 1.0 if p12 is None or (p12 - mid) @ n >= 0 else -1.0
            t = side * np.linalg.norm(chord) * np.sqrt(3) / 2
        out.append(mid + t * n)
    return np.array(out)


def motion_synthesis(
    poses: Any, *, circle_points: Any = None, centre_points: Any = None, samples: int = 361
) -> MotionSynthesis:
    r"""Dyads guiding a body through 2 to 5 poses (Burmester), in pairs a four-bar.

    Parameters
    ----------
    poses : array_like, shape (n, 3)
        The body's poses :math:`(x, y, \theta)`, 2 ≤ n ≤ 5 (radians).
    circle_points : array_like, shape (2, 2), optional
        Two poses or three: the moving pivots, where they are in the first pose (default:
        the body's origin ± half the poses' spread along the body's x-axis).
    centre_points : array_like, shape (2, 2), optional
        Two poses: hints, the centre points taken the nearest points of the bisectors.
        Three poses: the fixed pivots, instead of ``circle_points`` (circle points then
        follow by inversion).
    samples : int
        Four poses: the directions of the line swept through the pole (two points each).

    Returns
    -------
    MotionSynthesis
        The dyads (``centre_points``, ``circle_points``); ``four_bar(i, j)`` and
        ``linkage`` the four-bars; ``branch_defect(i, j)`` whether no one motion of that
        four-bar passes through every pose (a branch or a circuit defect; ``defect(i, j)``
        says which).

    Raises
    ------
    ValueError
        Fewer than 2 or more than 5 poses, a pose not finite, two coincident poses, a
        circle point whose positions are collinear (its pivot at infinity), points given
        where the poses decide them, or five poses with no real Burmester point.

    Examples
    --------
    >>> s = motion_synthesis([(0, 0, 0), (1, 0.5, 0.4), (2, 0.4, 0.9)])
    >>> z = s.circle_positions(0)
    >>> np.ptp(np.linalg.norm(z - s.centre_points[0], axis=1)) < 1e-12
    np.True_
    """
    p = _checked_poses(poses)
    if len(p) >= 4 and (circle_points is not None or centre_points is not None):
        raise ValueError(
            f"motion_synthesis: with {len(p)} poses the pivots are Burmester's, not chosen: "
            "drop circle_points and centre_points"
        )
    if len(p) == 4:
        k = _checks.count(samples, "motion_synthesis: samples", 1)
        centres, circles = burmester_curves(p, k)
        return MotionSynthesis(p, centres, _world(p, circles))
    if len(p) == 5:
        centres, circles = burmester_points(p)
        if not len(centres):
            raise ValueError("motion_synthesis: these five poses have no real Burmester point")
        return MotionSynthesis(p, centres, _world(p, circles))
    if len(p) == 3 and centre_points is not None:
        if circle_points is not None:
            raise ValueError("motion_synthesis: give circle_points or centre_points, not both")
        return _by_centres(p, _checks.finite_points(centre_points, "motion_synthesis centres"))
    circles = _points(circle_points, "circle points", p)
    if len(p) == 2:
        return MotionSynthesis(p, _two(p, circles, centre_points), circles)
    rot = rotations(p[:, 2])
    centres = [
        _circumcentre(p[:, :2] + rot @ _body(p, w), f"circle point {k}")
        for k, w in enumerate(circles)
    ]
    return MotionSynthesis(p, np.array(centres), circles)


def _by_centres(p: np.ndarray, centres: np.ndarray) -> MotionSynthesis:
    """Three poses, fixed pivots given: each circle point by the inverted construction."""
    if centres.shape[0] != 2:
        raise ValueError(f"motion_synthesis: give two centre points, got {len(centres)}")
    rot = rotations(p[:, 2])
    circles = []
    for k, c in enumerate(centres):
        seen = np.einsum("ikj,ik->ij", rot, c - p[:, :2])  # R_i^T (c - d_i)
        circles.append(_world(p, _circumcentre(seen, f"centre point {k}")))
    return MotionSynthesis(p, centres, np.array(circles))
