"""The configuration package's error type."""

from __future__ import annotations

__all__ = ["ConfigurationError"]


class ConfigurationError(ValueError):
    """A linkage or parameter the configuration-space tools cannot chart; the message says why.

    A :class:`ValueError`, so callers that guard input with ``except ValueError`` catch it.
    """
