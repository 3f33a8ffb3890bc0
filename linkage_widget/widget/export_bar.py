"""The export bar: a progress bar and a cancel button while a recording is exported.

The session runs the export in a background thread and keeps
:attr:`~linkage_widget.session.LinkageSession.recording_progress` and
:attr:`~linkage_widget.session.LinkageSession.exporting` current in its own thread
(:mod:`linkage_widget.session.export_session`); this bar only shows them: linked
traits, no numbers of its own. It is among the widget's rows only while an export runs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as W

__all__ = ["ExportBar"]


class ExportBar:
    """``box``: an ``HBox`` of the progress bar (``progress``) and the ✕ button (``cancel``).

    The box is one of ``host``'s children, right under the canvas, only while an
    export runs: the rows the user set up stay as they are otherwise.

    Parameters
    ----------
    host : LinkageWidget
        The widget: a session (``recording_progress``, ``exporting``) and a ``VBox``
        whose children hold ``host.canvas`` (alone, or in a row beside a panel).
    run : callable(kind)
        Carries out a session action: the button runs ``"cancel_export"``.
    """

    def __init__(self, host: Any, run: Callable[[str], Any]) -> None:
        self._host = host
        self.progress = W.FloatProgress(
            value=0.0, min=0.0, max=1.0, description="exporting", bar_style="info"
        )
        self.cancel = W.Button(
            description="✕ cancel",
            tooltip="stop the export: nothing is written, the recording is kept (r goes on)",
            layout=W.Layout(width="auto"),
        )
        self.cancel.on_click(lambda _b: run("cancel_export"))
        self.box = W.HBox([self.progress, self.cancel])
        self.box.add_class("linkage-export-bar")
        W.dlink((host, "recording_progress"), (self.progress, "value"))
        host.observe(self._place, names="exporting")

    def _place(self, change: Any) -> None:
        """Put the bar under the canvas when an export starts; take it away when it ends."""
        rows = [row for row in self._host.children if row is not self.box]
        if change["new"]:
            canvas = self._host.canvas
            at = next(
                (i for i, row in enumerate(rows) if row is canvas or canvas in _children(row)),
                len(rows) - 1,
            )
            rows.insert(at + 1, self.box)
        self._host.children = tuple(rows)


def _children(row: Any) -> tuple[Any, ...]:
    return tuple(getattr(row, "children", ()))
