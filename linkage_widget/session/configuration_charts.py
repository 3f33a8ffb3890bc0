r"""What the configuration-space panel charts: the model of a linkage's chart, pure.

:func:`panel_model` decides what the panel of a linkage shows and computes what does not
change while the linkage moves (the sphere's coordinate lines, the curve's branches, the
torus chart); a linkage it cannot chart gets a :class:`PanelModel` of kind ``"none"``
whose ``message`` says why, never an exception. The functions below it take a model and
placements and return numbers: the current point, a flick's initial state, a path to
animate. The session (:mod:`.configuration_panel`) keeps the state and draws.

The kinds (:func:`~linkage_widget.configuration.chart_kind`)

sphere
    :class:`~linkage_widget.configuration.SphereChart` with latitude :math:`\varphi` and
    longitude :math:`t`; the panel's unit sphere is ``chart.embed(phi, t)``.
curve
    one internal degree of freedom: :func:`~linkage_widget.configuration.trace_curve` in two
    angle coordinates, all branches and the singular placements.
surface
    two: :func:`~linkage_widget.configuration.sample_surface`, a torus chart of two angles.

:func:`static_items` and :func:`dynamic_items` turn a model and the current state into the
panel's two layers (through :mod:`linkage_widget.draw.configuration_panel` and
:mod:`linkage_widget.draw.angle_charts`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..configuration import (
    AngleCoordinate,
    ConfigurationCurve,
    ConfigurationError,
    ConfigurationSurface,
    Similarity,
    SphereChart,
    angle_coordinates,
    chart_kind,
    default_coordinates,
    sample_surface,
    trace_curve,
)
from ..draw.angle_charts import AnglePlot, chart_dynamic, curve_static, surface_static
from ..draw.configuration_panel import (
    SphereProjection,
    message_items,
    sphere_dynamic,
    sphere_static,
)
from ..draw.primitives import Primitive
from ..model import Linkage

__all__ = [
    "FLICK_GAIN",
    "SURFACE_RESOLUTION",
    "PanelModel",
    "chart_point",
    "coordinate_choices",
    "curve_path",
    "dynamic_items",
    "flick_state",
    "panel_model",
    "sphere_path",
    "sphere_point",
    "static_items",
]

#: Speed on the panel's unit sphere (radians per second) per sphere radius of flick arrow.
FLICK_GAIN = 1.5
#: Latitudes and longitudes drawn on the sphere (degrees), and samples per line.
LATITUDES = (-60.0, -30.0, 30.0, 60.0)
LONGITUDES = tuple(range(-180, 180, 30))
LINE_SAMPLES = 73
#: Grid points per angle of a torus chart (sample_surface's resolution).
SURFACE_RESOLUTION = 48


@dataclass(frozen=True, eq=False)
class PanelModel:
    """What the panel shows for one linkage (module docstring).

    Attributes
    ----------
    kind : {"sphere", "curve", "surface", "none"}
    message : str
        Why there is no chart (kind ``"none"``), else empty.
    coords : tuple of AngleCoordinate
        The two angles of a curve or a surface (empty for the sphere).
    choices : tuple of str
        Labels of every angle the curve or surface could be charted in.
    curve : ConfigurationCurve or None
    surface : ConfigurationSurface or None
    title : tuple of str
        The panel's heading lines.
    chart : SphereChart or None
    similarity : Similarity or None
        Chart frame to the linkage's frame (sphere).
    grid : ndarray, shape (L, k, 3)
        The sphere's latitude and longitude lines on the unit sphere.
    equator : ndarray, shape (k, 3)
    poles : ndarray, shape (2, 3)
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


def panel_model(linkage: Linkage, labels: tuple[str, ...] = ()) -> PanelModel:
    """The chart of ``linkage`` in the angles named ``labels`` (default pair when empty).

    Never raises for a linkage it cannot chart: the model's kind is then ``"none"`` and
    its message says why, in words a student understands.
    """
    try:
        kind = chart_kind(linkage)
        if kind == "sphere":
            return _sphere_model(*SphereChart.for_linkage(linkage))
        coords = _coordinates(linkage, labels)
        choices = coordinate_choices(linkage)
        if kind == "curve":
            curve = trace_curve(linkage, coords)
            title = (f"configuration curve: {len(curve.branches)} branch(es), "
                     f"{len(curve.singular_angles)} singular",)  # fmt: skip
            return PanelModel("curve", title=title, coords=coords, choices=choices, curve=curve)
        surface = sample_surface(linkage, coords, SURFACE_RESOLUTION)
        title = ("configuration surface (2 DOF): torus chart, reachable part shaded",)
        return PanelModel("surface", title=title, coords=coords, choices=choices, surface=surface)
    except ConfigurationError as exc:
        return PanelModel("none", message=f"no configuration space chart: {exc}")
    except (ValueError, ArithmeticError, np.linalg.LinAlgError) as exc:
        # numerical trouble in the charting maths: say so on the panel, keep the session
        return PanelModel("none", message=f"could not chart the configuration space: {exc}")


def _sphere_model(chart: SphereChart, sim: Similarity) -> PanelModel:
    """The sphere's coordinate lines, computed once per chart."""
    t = np.linspace(-math.pi, math.pi, LINE_SAMPLES)
    lat = np.radians(LATITUDES)[:, None]
    latitudes = chart.embed(lat, t[None, :])
    phi = np.linspace(-0.5 * math.pi, 0.5 * math.pi, LINE_SAMPLES)
    lon = np.radians(LONGITUDES)[:, None]
    longitudes = chart.embed(phi[None, :], lon)
    return PanelModel(
        "sphere",
        title=(f"sphere: 4 rods, ends {chart.L:.3g} apart", "φ latitude, t longitude"),
        chart=chart,
        similarity=sim,
        grid=np.concatenate([latitudes, longitudes]),
        equator=chart.embed(0.0, t),
        poles=np.array([[0.0, 0.0, 1.0], [0.0, 0.0, -1.0]]),
    )


def sphere_point(model: PanelModel, positions: Any) -> tuple[float, float]:
    r"""The chart coordinates :math:`(\varphi, t)` of linkage ``positions`` ``(n, 2)``."""
    assert model.chart is not None and model.similarity is not None
    phi, t = model.chart.coordinates(model.similarity.interior(positions))
    return float(phi), float(t)


def _unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v, axis=-1, keepdims=True)


def _interior_at(model: PanelModel, q: np.ndarray) -> np.ndarray:
    r"""Chart hinges ``(..., 3, 2)`` at unit-sphere points ``q`` ``(..., 3)``.

    :math:`\varphi = \arcsin q_z`, :math:`t = \operatorname{atan2}(q_y, q_x)`: the inverse
    of ``embed``. At a pole ``t`` is arbitrary and every ``t`` gives the same placement.
    """
    assert model.chart is not None
    phi = np.arcsin(np.clip(q[..., 2], -1.0, 1.0))
    t = np.arctan2(q[..., 1], q[..., 0])
    return model.chart.positions(phi, t)


def flick_state(
    model: PanelModel, positions: Any, tangent: Any, step: float = 1e-5
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
    assert model.chart is not None and model.similarity is not None
    sim = model.similarity
    base = np.asarray(positions, np.float64)
    phi, t = sphere_point(model, base)
    q = model.chart.embed(phi, t)
    placement = sim.placement(model.chart.positions(phi, t), base)
    w = np.asarray(tangent, np.float64)
    speed = float(np.linalg.norm(w))
    velocity = np.zeros_like(base)
    if speed > 0.0:
        u = w / speed
        ends = _interior_at(model, _unit(np.stack([q + step * u, q - step * u])))
        dq = speed * (ends[0] - ends[1]) / (2.0 * step)
        velocity[list(sim.order[1:4])] = sim.scale * dq @ sim.rotation.T
    return placement, velocity


def sphere_path(model: PanelModel, positions: Any, target: Any, frames: int) -> np.ndarray:
    r"""Placements ``(frames, n, 2)`` along the great circle from the current point to ``target``.

    ``target`` ``(3,)`` is a point of the panel's unit sphere; the path is the spherical
    interpolation :math:`\hat q(s) = \sin((1-s)\omega) q_0 + \sin(s \omega) q_1) /
    \sin\omega`, mapped through the chart: a continuous motion of the linkage, never a
    jump (the sphere is its whole configuration space).
    """
    assert model.similarity is not None
    base = np.asarray(positions, np.float64)
    q0 = model.chart.embed(*sphere_point(model, base))  # type: ignore[union-attr]
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
    return model.similarity.placement(_interior_at(model, _unit(q)), base)


# ============================================================ angle charts
def chart_point(model: PanelModel, positions: Any) -> tuple[float, float]:
    """The two chart angles of ``positions`` ``(n, 2)`` (a curve or a surface)."""
    a, b = (float(c.value(positions)) for c in model.coords)
    return a, b


def curve_path(
    model: PanelModel, positions: Any, target: Any, max_frames: int
) -> np.ndarray | None:
    """Placements ``(k, n, 2)`` to animate along the curve toward ``target`` angles ``(2,)``.

    :meth:`~linkage_widget.configuration.ConfigurationCurve.path` (along branches, changing
    branch only at a shared singular placement), thinned to at most ``max_frames``
    placements, the last one exact. None when the motion cannot reach the point.
    """
    assert model.curve is not None
    path = model.curve.path(positions, target)
    if path is None:
        return None
    path = path[1:] if len(path) > 1 else path  # the first placement is the current one
    stride = max(1, math.ceil(len(path) / max(int(max_frames), 1)))
    keep = np.unique(np.r_[np.arange(0, len(path), stride), len(path) - 1])
    return path[keep]


# ================================================================ pictures
def static_items(
    model: PanelModel, size: tuple[int, int], proj: SphereProjection
) -> list[Primitive]:
    """The panel's static layer: the shaded sphere, the curve, the torus chart or a message."""
    w, h = size
    if model.kind == "sphere":
        return sphere_static(proj, model.grid, model.equator, model.poles, model.title)
    plot = AnglePlot.fit(w, h)
    labels = (model.coords[0].label, model.coords[1].label) if model.coords else ("", "")
    if model.curve is not None:
        branches = [(b.angles, b.closed) for b in model.curve.branches]
        return curve_static(plot, branches, model.curve.singular_angles, labels, model.title)
    if model.surface is not None:
        s = model.surface
        return surface_static(plot, s.a, s.b, s.reachable, s.boundary, labels, model.title)
    # no chart (its message says why), or one being computed (its title says so)
    return message_items(w, h, model.message or " ".join(model.title) or "(no chart)")


def dynamic_items(
    model: PanelModel,
    size: tuple[int, int],
    proj: SphereProjection,
    point: tuple[float, float] | None,
    trail: np.ndarray,
    flick: np.ndarray | None,
) -> list[Primitive]:
    """The panel's dynamic layer: the point, its trail ``(k, 2)`` (chart coordinates), the flick."""
    if model.kind == "sphere":
        assert model.chart is not None
        trail3 = model.chart.embed(trail[:, 0], trail[:, 1])
        point3 = None if point is None else model.chart.embed(*point)
        return sphere_dynamic(proj, point3, trail3, flick)
    if model.kind in ("curve", "surface"):
        p = None if point is None else np.asarray(point)
        return chart_dynamic(AnglePlot.fit(*size), p, trail)
    return []
