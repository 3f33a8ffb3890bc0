"""The configuration space of a linkage: charts, branches, surfaces and geodesics.

- :class:`SphereChart`: the sphere of a four-rod chain with pinned ends (:mod:`.sphere`).
- :func:`geodesic_christoffel`, :func:`geodesic_embedded`, :func:`geodesic_simulated`:
  its force-free motion three independent ways (:mod:`.geodesics`).
"""

from __future__ import annotations

from ._errors import ConfigurationError
from .geodesics import Geodesic, geodesic_christoffel, geodesic_embedded, geodesic_simulated
from .sphere import Similarity, SphereChart

__all__ = [
    "ConfigurationError",
    "Geodesic",
    "Similarity",
    "SphereChart",
    "geodesic_christoffel",
    "geodesic_embedded",
    "geodesic_simulated",
]
