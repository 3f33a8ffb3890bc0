"""The headless session: every trait, validator and policy of the widget, no ipywidgets.

:class:`LinkageSession` can be driven from a script or a test (gestures, keys,
frames, undo, export) without a browser; the widget
(:class:`linkage_widget.widget.LinkageWidget`) is a view over it and imports
what it needs of this layer from here.

Modules: :mod:`.session` (the facade; :mod:`.traits` its one base, the traits),
:mod:`.pointer` (the ``Pointer``: gestures and the drag), :mod:`.actions` (the
``Actions`` controller and the action table; :mod:`.outcome`, what a handler reads
and returns), :mod:`.actuation` (motors,
loads, forces and friction: the ``Actuation`` controller the session holds), :mod:`.shown`
(what a frame shows: the analysis, live or full, and the scene state),
:mod:`.tools` (input -> actions, pure; with :mod:`.vocabulary`, the actions and tools,
and :mod:`.keymap`, the keys), :mod:`.touch` (the pinch, pure), :mod:`.keyboard` (the
keyboard-only actions: presentation mode, tools, mode, shown parts), :mod:`.document`
(index-safe edits),
:mod:`.drives` (motors, loads, path forces and friction of the document, and their
pure policy), :mod:`.motion_driver` (simulator lifecycle, drag and motor step policy,
what a frame did and ends), :mod:`.analysis` (sync/threaded, throttled), :mod:`.live`
(the analysis of each drawn frame of a drag), :mod:`.recording` (tracks, GIF
frames), :mod:`.history`, :mod:`.gestures`, :mod:`.space_view` (``PlaneView`` / ``SpaceView``: a 3-D
linkage's camera turned by a background drag, a pulled joint's plane, the projection).
"""

from .analysis import running_loop
from .document import DEFAULT_FILE
from .document_file import load_upload
from .drives import Drives
from .gestures import EventMerger, Gesture, Key
from .history import History, Snapshot
from .motion_driver import PARAMETER_RANGES, STEP_SLIDER
from .recording import TRACK_CAP, Tracks
from .session import LinkageSession
from .tools import TOOL_TIPS, TOOLS, Action, tool_line
from .words import Readout

__all__ = [
    "DEFAULT_FILE",
    "PARAMETER_RANGES",
    "STEP_SLIDER",
    "TOOLS",
    "TOOL_TIPS",
    "TRACK_CAP",
    "Action",
    "Drives",
    "EventMerger",
    "Gesture",
    "History",
    "Key",
    "LinkageSession",
    "Readout",
    "Snapshot",
    "Tracks",
    "load_upload",
    "running_loop",
    "tool_line",
]
