"""The Jupyter view of a linkage session."""

from .widget import LinkageWidget

__all__ = ["LinkageWidget"]
