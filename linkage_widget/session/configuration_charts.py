r"""What the configuration-space panel charts: the model of a linkage's chart, pure.

:func:`panel_model` decides what the panel of a linkage shows and computes what does not
change while the linkage moves (the sphere's coordinate lines, the curve's branches, the
torus chart); a linkage it cannot chart gets a :class:`PanelModel` of kind ``"none"``
whose ``message`` says why, never an exception. The functions below it take a model and
placements and return numbers: the current point, a flick's initial state, a path to
animate. The session (:mod:`.configuration_panel`) keeps the state and draws.

The sphere
    :class:`~linkage_widget.configuration.SphereChart` with latitude :math:`\varphi` and
    longitude :math:`t`; the panel's unit sphere is ``chart.embed(phi, t)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..configuration import ConfigurationError, Similarity, SphereChart
from ..model import Linkage

__all__ = [
    "FLICK_GAIN",
    "PanelModel",
    "flick_state",
    "panel_model",
    "sphere_path",
    "sphere_point",
]

#: Speed on the panel's unit sphere (radians per second) per sphere radius of flick arrow.
FLICK_GAIN = 1.5
#: Latitudes and longitudes drawn on the sphere (degrees), and samples per line.
LATITUDES = (-60.0, -30.0, 30.0, 60.0)
LONGITUDES = tuple(range(-180, 180, 30))
LINE_SAMPLES = 73


@dataclass(frozen=True, eq=False)
class PanelModel:
    """What the panel shows for one linkage (module docstring).

    Attributes
    ----------
    kind : {"sphere", "curve", "surface", "none"}
    message : str
        Why there is no chart (kind ``"none"``), else empty.
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


def panel_model(linkage: Linkage) -> PanelModel:
    """The chart of ``linkage``, or a model of kind ``"none"`` saying why there is none."""
    try:
        chart, sim = SphereChart.for_linkage(linkage)
    except ConfigurationError as exc:
        return PanelModel("none", message=f"no configuration space chart: {exc}")
    return _sphere_model(chart, sim)


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
