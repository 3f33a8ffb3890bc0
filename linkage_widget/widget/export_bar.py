"""The export bar: a progress bar and a cancel button while a recording is exported.

The session runs the export in a background thread and keeps
:attr:`~linkage_widget.session.LinkageSession.recording_progress` and
:attr:`~linkage_widget.session.LinkageSession.exporting` current in its own thread
(:mod:`linkage_widget.session.export_session`); this bar only shows them: linked
traits, no numbers of its own. It is hidden while nothing is exported.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as W
from traitlets import HasTraits

__all__ = ["ExportBar"]


class ExportBar:
    """``box``: an ``HBox`` of the progress bar (``progress``) and the ✕ button (``cancel``).

    Parameters
    ----------
    session : HasTraits
        The session (its ``recording_progress`` and ``exporting`` traits).
    run : callable(kind)
        Carries out a session action: the button runs ``"cancel_export"``.
    """

    def __init__(self, session: HasTraits, run: Callable[[str], Any]) -> None:
        self.progress = W.FloatProgress(
            value=0.0, min=0.0, max=1.0, description="exporting", bar_style="info"
        )
        self.cancel = W.Button(
            description="✕ cancel",
            tooltip="stop the export: nothing is written, the recording is kept (r goes on)",
            layout=W.Layout(width="auto"),
        )
        self.cancel.on_click(lambda _b: run("cancel_export"))
        self.box = W.HBox([self.progress, self.cancel], layout=W.Layout(display="none"))
        self.box.add_class("linkage-export-bar")
        W.dlink((session, "recording_progress"), (self.progress, "value"))
        W.dlink((session, "exporting"), (self.box.layout, "display"), _display)


def _display(exporting: bool) -> str:
    """CSS ``display`` of the bar: shown only while an export runs."""
    return "flex" if exporting else "none"
