"""Motion on the constraint manifold: the :class:`Simulator` and its steppers."""

from .simulator import MODES, STATUSES, Simulator, Spring

__all__ = ["MODES", "STATUSES", "Simulator", "Spring"]
