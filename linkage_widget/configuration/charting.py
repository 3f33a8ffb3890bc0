r"""What a linkage's configuration space is charted as, and how a chart is travelled.

:func:`chart_linkage` decides which chart a linkage gets and computes what does not
change while the linkage moves (the sphere's coordinate lines, the curve's branches, the
torus chart); a linkage it cannot chart gets a :class:`ConfigurationChart` of kind
``"none"`` whose ``message`` says why, never an exception. The functions below it take a
chart and placements and return numbers: the current point (:func:`chart_point`), a
flick's initial state (:func:`flick_state`), a path to animate (:func:`sphere_path`,
:func:`curve_path`). The session's configuration panel keeps the state; ``draw/`` draws.

The kinds (:func:`~linkage_widget.configuration.chart_kind`)

sphere
    :class:`~linkage_widget.configuration.SphereChart` with latitude :math:`\varphi` and
    longitude :math:`t`; the panel's unit sphere is ``chart.embed(phi, t)``.
curve
    one internal degree of freedom: :func:`~linkage_widget.configuration.trace_curve` in two
    angle coordinates, all branches and the singular placements. In space (Bennett's
    linkage, Bricard's octahedra, pinned by three joints not on one line) the angles are
    dihedral angles at hinges (:class:`~linkage_widget.configuration.AngleCoordinate`).
surface
    two: :func:`~linkage_widget.configuration.sample_surface`, a torus chart of two angles.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..model import Linkage
from ._errors import ConfigurationError
from .angles import AngleCoordinate, angle_coordinates, default_coordinates
from .curves import ConfigurationCurve, trace_curve
from .kind import chart_kind
from .sphere import Similarity, SphereChart
from .surface import ConfigurationSurface, sample_surface

__all__ = [
    "NUMERICAL_TROUBLE",
    "SURFACE_RESOLUTION",
    "ConfigurationChart",
    "chart_linkage",
    "chart_point",
    "coordinate_choices",
    "curve_path",
    "flick_state",
    "sphere_path",
    "sphere_point",
    "unit_sphere_point",
]

#: Latitudes and longitudes drawn on the sphere (degrees), and samples per line.
LATITUDES = (-60.0, -30.0, 30.0, 60.0)
LONGITUDES = tuple(range(-180, 180, 30))
LINE_SAMPLES = 73
#: What the panel says when the charting maths itself failed (a bug or a placement it
#: cannot handle), rather than numpy's words.
NUMERICAL_TROUBLE = (
    "could not chart the configuration space: the numerical tracing of its placements "
    "failed here; move the linkage a little, or pick other angles, and try again"
)
#: Grid points per angle of a torus chart (sample_surface's resolution).
SURFACE_RESOLUTION = 48


@dataclass(frozen=True, eq=False)
class ConfigurationChart:
    """What a linkage's configuration space is charted as (module docstring).

    Attributes
    ----------
    kind : {"sphere", "curve", "surface", "none", "pending"}
        ``"pending"``: a placeholder while the chart is computed elsewhere.
    message : str
        Why there is no chart (kind ``"none"``), else empty.
    title : tuple of str
        The chart's heading lines.
    chart : SphereChart or None
    similarity : Similarity or None
        Chart frame to the linkage's frame (sphere).
    grid : ndarray, shape (L, k, 3)
        The sphere's latitude and longitude lines on the unit sphere.
    equator : ndarray, shape (k, 3)
    poles : ndarray, shape (2, 3)
    coords : tuple of AngleCoordinate
        The two angles of a curve or a surface (empty for the sphere).
    choices : tuple of str
        Labels of every angle the curve or surface could be charted in.
    curve : ConfigurationCurve or None
    surface : ConfigurationSurface or None
    """

    kind: str
    message: str = ""
    title: tuple[str, ...] = ()
    chart: SphereChart | None = None
    similarity: Similarity | None = None
    grid: np.ndarray = field(default_factory=lambda: np.zeros((0, 2, 3)))
    equator: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    poles: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    coords: tuple[AngleCoordinate, ...] = ()
    choices: tuple[str, ...] = ()
    curve: ConfigurationCurve | None = None
    surface: ConfigurationSurface | None = None


def coordinate_choices(linkage: Linkage) -> tuple[str, ...]:
    """Labels of the angle coordinates a curve or surface chart of ``linkage`` may use."""
    return tuple(c.label for c in angle_coordinates(linkage))


def _coordinates(linkage: Linkage, labels: tuple[str, ...]) -> tuple[AngleCoordinate, ...]:
    """The coordinates named by ``labels`` (two labels), else the default pair."""
    if not labels:
        return tuple(default_coordinates(linkage))
    by_label = {c.label: c for c in angle_coordinates(linkage)}
    missing = [label for label in labels if label not in by_label]
    if missing:
        raise ConfigurationError(f"no angle coordinate {missing[0]!r} in this linkage")
    return tuple(by_label[label] for label in labels)


def chart_linkage(linkage: Linkage, labels: tuple[str, ...] = ()) -> ConfigurationChart:
    """The chart of ``linkage`` in the angles named ``labels`` (default pair when empty).

    Never raises for a linkage it cannot chart: the chart's kind is then ``"none"`` and
    its message says why, in words a student understands.
    """
    try:
        kind = chart_kind(linkage)
        if kind == "sphere":
            return _sphere_chart(*SphereChart.for_linkage(linkage))
        coords = _coordinates(linkage, labels)
        choices = coordinate_choices(linkage)
        if kind == "curve":
            curve = trace_curve(linkage, coords)
            what = "curve in dihedral (hinge) angles" if linkage.dim == 3 else "configuration curve"
            title = (f"{what}: {len(curve.branches)} branch(es), "
                     f"{len(curve.singular_angles)} singular",)  # fmt: skip
            return ConfigurationChart(
                "curve", title=title, coords=coords, choices=choices, curve=curve
            )
        surface = sample_surface(linkage, coords, SURFACE_RESOLUTION)
        title = ("configuration surface (2 DOF): torus chart, reachable part shaded",)
        return ConfigurationChart(
            "surface", title=title, coords=coords, choices=choices, surface=surface
        )
    except ConfigurationError as exc:
        return ConfigurationChart("none", message=f"no configuration space chart: {exc}")
    except (ValueError, ArithmeticError, np.linalg.LinAlgError):
        # numerical trouble in the charting maths: say so in words on the chart (numpy's
        # own text, "cannot reshape array ...", tells a student nothing), keep going
        return ConfigurationChart("none", message=NUMERICAL_TROUBLE)


def _sphere_chart(chart: SphereChart, sim: Similarity) -> ConfigurationChart:
    """The sphere's coordinate lines, computed once per chart."""
    t = np.linspace(-math.pi, math.pi, LINE_SAMPLES)
    lat = np.radians(LATITUDES)[:, None]
    latitudes = chart.embed(lat, t[None, :])
    phi = np.linspace(-0.5 * math.pi, 0.5 * math.pi, LINE_SAMPLES)
    lon = np.radians(LONGITUDES)[:, None]
    longitudes = chart.embed(phi[None, :], lon)
    return ConfigurationChart(
        "sphere",
        title=(f"sphere: 4 rods, ends {chart.L:.3g} apart", "φ latitude, t longitude"),
        chart=chart,
        similarity=sim,
        grid=np.concatenate([latitudes, longitudes]),
        equator=chart.embed(0.0, t),
        poles=np.array([[0.0, 0.0, 1.0], [0.0, 0.0, -1.0]]),
    )


def chart_point(chart: ConfigurationChart, positions: Any) -> tuple[float, float] | None:
    r"""Where ``positions`` ``(n, d)`` lie on ``chart``: its two coordinates.

    The sphere's :math:`(\varphi, t)`, a curve's or a surface's two angles; None for a
    chart of kind ``"none"`` or ``"pending"``.
    """
    if chart.kind == "sphere":
        return sphere_point(chart, positions)
    if chart.kind in ("curve", "surface"):
        a, b = (float(c.value(positions)) for c in chart.coords)
        return a, b
    return None


def sphere_point(chart: ConfigurationChart, positions: Any) -> tuple[float, float]:
    r"""The sphere chart's coordinates :math:`(\varphi, t)` of linkage ``positions`` ``(n, 2)``."""
    assert chart.chart is not None and chart.similarity is not None
    phi, t = chart.chart.coordinates(chart.similarity.interior(positions))
    return float(phi), float(t)


def unit_sphere_point(chart: ConfigurationChart, positions: Any) -> np.ndarray | None:
    """The point ``(3,)`` of the panel's unit sphere at ``positions``; None unless a sphere."""
    if chart.kind != "sphere":
        return None
    assert chart.chart is not None
    return chart.chart.embed(*sphere_point(chart, positions))


def _unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v, axis=-1, keepdims=True)


def _interior_at(chart: ConfigurationChart, q: np.ndarray) -> np.ndarray:
    r"""Chart hinges ``(..., 3, 2)`` at unit-sphere points ``q`` ``(..., 3)``.

    :math:`\varphi = \arcsin q_z`, :math:`t = \operatorname{atan2}(q_y, q_x)`: the inverse
    of ``embed``. At a pole ``t`` is arbitrary and every ``t`` gives the same placement.
    """
    assert chart.chart is not None
    phi = np.arcsin(np.clip(q[..., 2], -1.0, 1.0))
    t = np.arctan2(q[..., 1], q[..., 0])
    return chart.chart.positions(phi, t)


def flick_state(
    chart: ConfigurationChart, positions: Any, tangent: Any, step: float = 1e-5
) -> tuple[np.ndarray, np.ndarray]:
    r"""Placement and velocity ``(n, 2)`` each that start the linkage along a flick.

    The placement is the chart's own at the current :math:`(\varphi, t)` (the motion's
    round-off removed). ``tangent`` ``(3,)`` is the velocity on the panel's unit sphere; the
    hinges' velocity is its image under the chart, by a central difference along the great
    circle through the point (well defined at the poles, where the chart's Jacobian is not):

    .. math:: \dot q \approx |w| \frac{P(\hat q_+) - P(\hat q_-)}{2h}, \qquad
              \hat q_\pm = \frac{q \pm h\,w/|w|}{|q \pm h\,w/|w||},

    then to the linkage's frame by the similarity, :math:`\dot x = s R \dot q`.
    """
    assert chart.chart is not None and chart.similarity is not None
    sim = chart.similarity
    base = np.asarray(positions, np.float64)
    phi, t = sphere_point(chart, base)
    q = chart.chart.embed(phi, t)
    placement = sim.placement(chart.chart.positions(phi, t), base)
    w = np.asarray(tangent, np.float64)
    speed = float(np.linalg.norm(w))
    velocity = np.zeros_like(base)
    if speed > 0.0:
        u = w / speed
        ends = _interior_at(chart, _unit(np.stack([q + step * u, q - step * u])))
        dq = speed * (ends[0] - ends[1]) / (2.0 * step)
        velocity[list(sim.order[1:4])] = sim.scale * dq @ sim.rotation.T
    return placement, velocity


def sphere_path(chart: ConfigurationChart, positions: Any, target: Any, frames: int) -> np.ndarray:
    r"""Placements ``(frames, n, 2)`` along the great circle from the current point to ``target``.

    ``target`` ``(3,)`` is a point of the panel's unit sphere; the path is the spherical
    interpolation :math:`\hat q(s) = \sin((1-s)\omega) q_0 + \sin(s \omega) q_1) /
    \sin\omega`, mapped through the chart: a continuous motion of the linkage, never a
    jump (the sphere is its whole configuration space).
    """
    assert chart.chart is not None and chart.similarity is not None
    base = np.asarray(positions, np.float64)
    q0 = chart.chart.embed(*sphere_point(chart, base))
    q1 = _unit(np.asarray(target, np.float64))
    omega = math.acos(float(np.clip(q0 @ q1, -1.0, 1.0)))
    s = np.linspace(0.0, 1.0, max(int(frames), 1) + 1)[1:, None]
    if omega < 1e-9:
        q = np.broadcast_to(q1, (len(s), 3))
    elif math.pi - omega < 1e-6:  # antipodal: any great circle; go through a side point
        side = _unit(np.cross(q0, [0.0, 0.0, 1.0] if abs(q0[2]) < 0.9 else [1.0, 0.0, 0.0]))
        ang = s * math.pi
        q = np.cos(ang) * q0 + np.sin(ang) * side
    else:
        q = (np.sin((1.0 - s) * omega) * q0 + np.sin(s * omega) * q1) / math.sin(omega)
    return chart.similarity.placement(_interior_at(chart, _unit(q)), base)


def curve_path(
    chart: ConfigurationChart, positions: Any, target: Any, max_frames: int
) -> np.ndarray | None:
    """Placements ``(k, n, 2)`` to animate along the curve toward ``target`` angles ``(2,)``.

    :meth:`~linkage_widget.configuration.ConfigurationCurve.path` (along branches, changing
    branch only at a shared singular placement), thinned to at most ``max_frames``
    placements, the last one exact. None when the motion cannot reach the point.
    """
    assert chart.curve is not None
    path = chart.curve.path(positions, target)
    if path is None:
        return None
    path = path[1:] if len(path) > 1 else path  # the first placement is the current one
    stride = max(1, math.ceil(len(path) / max(int(max_frames), 1)))
    keep = np.unique(np.r_[np.arange(0, len(path), stride), len(path) - 1])
    return path[keep]
