"""The headless session: every trait, validator and policy of the widget, no ipywidgets.

:class:`LinkageSession` can be driven from a script or a test (gestures, keys,
frames, undo, export) without a browser; the widget
(:class:`linkage_widget.widget.LinkageWidget`) is a view over it.
"""

from .session import LinkageSession

__all__ = ["LinkageSession"]
