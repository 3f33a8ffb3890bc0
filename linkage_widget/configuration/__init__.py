"""The configuration space of a linkage: charts, branches, surfaces and geodesics.

- :class:`SphereChart`: the sphere of a four-rod chain with pinned ends (:mod:`.sphere`).
- :func:`geodesic_christoffel`, :func:`geodesic_embedded`, :func:`geodesic_simulated`:
  its force-free motion three independent ways (:mod:`.geodesics`).
- :class:`AngleCoordinate`, :func:`angle_coordinates`, :func:`default_coordinates`: the
  angles a chart plots (:mod:`.angles`).
- :func:`trace_curve`: every branch of a 1-DOF linkage's configuration curve, its singular
  placements, paths along it (:mod:`.curves`).
- :func:`sample_surface`: a 2-DOF linkage's configuration surface on a torus chart
  (:mod:`.surface`).
- :func:`chart_kind`: ``"curve"``, ``"surface"`` or ``"sphere"`` (:mod:`.kind`).
- :func:`chart_linkage`: the :class:`ConfigurationChart` a linkage gets (a message when
  none), the point of a placement on it, a flick's initial state and the paths a click
  animates (:mod:`.charting`; the configuration panel's maths).
"""

from __future__ import annotations

from ._errors import ConfigurationError
from .angles import AngleCoordinate, angle_coordinates, default_coordinates
from .charting import (
    ConfigurationChart,
    chart_linkage,
    chart_point,
    coordinate_choices,
    curve_path,
    flick_state,
    sphere_path,
    sphere_point,
    unit_sphere_point,
)
from .curves import Branch, ConfigurationCurve, trace_curve
from .geodesics import Geodesic, geodesic_christoffel, geodesic_embedded, geodesic_simulated
from .kind import chart_kind, internal_dimension
from .sphere import Similarity, SphereChart
from .surface import ConfigurationSurface, sample_surface

__all__ = [
    "AngleCoordinate",
    "Branch",
    "ConfigurationChart",
    "ConfigurationCurve",
    "ConfigurationError",
    "ConfigurationSurface",
    "Geodesic",
    "Similarity",
    "SphereChart",
    "angle_coordinates",
    "chart_kind",
    "chart_linkage",
    "chart_point",
    "coordinate_choices",
    "curve_path",
    "default_coordinates",
    "flick_state",
    "geodesic_christoffel",
    "geodesic_embedded",
    "geodesic_simulated",
    "internal_dimension",
    "sample_surface",
    "sphere_path",
    "sphere_point",
    "trace_curve",
    "unit_sphere_point",
]
