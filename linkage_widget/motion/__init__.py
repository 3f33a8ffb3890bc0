"""Motion on the constraint manifold: the :class:`Simulator` facade and its steppers.

The package face: :class:`Simulator`, the names of its modes and statuses, and the
tolerances the tests use (all thresholds live in :mod:`.tolerances`).
"""

from ._drives import Motor
from ._reactions import ConstraintForces
from .simulator import MODES, STATUSES, Simulator
from .tolerances import (
    CONDITIONED_ROUNDOFF,
    CORRECTOR_DEVIATION,
    DATA_TOL,
    PROJECTION_TOL,
    ROUNDOFF_FACTOR,
)

__all__ = [
    "CONDITIONED_ROUNDOFF",
    "ConstraintForces",
    "CORRECTOR_DEVIATION",
    "DATA_TOL",
    "MODES",
    "Motor",
    "PROJECTION_TOL",
    "ROUNDOFF_FACTOR",
    "STATUSES",
    "Simulator",
]
