"""The configuration space of a linkage: charts, branches, surfaces and geodesics.

- :class:`SphereChart`: the sphere of a four-rod chain with pinned ends (:mod:`.sphere`).
"""

from __future__ import annotations

from ._errors import ConfigurationError
from .sphere import Similarity, SphereChart

__all__ = ["ConfigurationError", "Similarity", "SphereChart"]
