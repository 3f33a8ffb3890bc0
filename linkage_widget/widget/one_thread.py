"""Every frontend message of a widget handled on one thread: the thread that made it.

JupyterLab (4.4 and later) may send comm messages over kernel *subshells* (its
setting ``commsOverSubshells``, by default one subshell per comm target), and
ipykernel 7 handles each comm's next message on the thread of the subshell that
last published on that comm, or on the main thread. One widget's messages then
arrive on two threads at once: measured in headless Chromium, a click's
ipyevents ``mousedown`` was still being handled on the main thread when its
ipycanvas ``mouse_up`` was handled on the subshell's, and the click was lost
(it added no joint); paced frames ran on both threads too. The session's state
(the model, the drag, the undo history) is not meant to be shared between threads.

:class:`MessageThread` hands every message of the widgets it adopts to the
event loop of the thread that built them (the kernel's main loop, for a widget
made in a notebook cell), one at a time in the order they reach it, each in a
copy of the receiving thread's context, so that the message's parent header
(where ``print`` output goes, where the reply is routed) comes along. Messages
from two threads reach it in the order those threads got to them; the
:class:`~linkage_widget.session.EventMerger` accepts the canvas's two streams in
either order. Messages wait while that thread runs a cell, as they always did
before subshells. Without a running event loop (plain scripts, tests) it adopts
nothing: messages are handled where they arrive, synchronously.

With JupyterLab's setting off (``make lab`` and Binder install
``binder/overrides.json``) every message arrives on the main thread in the first
place, and the hand-over only queues it once on the same loop: a drag's median
latency was 20-34 ms there, against ~51 ms with comms over a subshell
(``docs/benchmarks.md``).
"""

from __future__ import annotations

import contextvars
import threading
from collections.abc import Callable, Iterable
from typing import Any

import ipywidgets as W
from ipywidgets.widgets.widget import _instances

from ..session import running_loop

__all__ = ["MessageThread", "open_widget_ids", "widgets_since"]

Handler = Callable[[dict[str, Any]], Any]


class MessageThread:
    """The thread (and its event loop) that handles the messages of adopted widgets.

    Made on the thread that builds the widgets, with its running loop (none: a
    synchronous use, and :meth:`adopt` leaves the widgets as they are).
    """

    def __init__(self) -> None:
        self.thread = threading.current_thread()
        self.loop = running_loop()

    def adopt(self, widgets: Iterable[W.Widget]) -> int:
        """Route the frontend messages of ``widgets`` to this thread; return how many.

        A widget without a comm (closed, or made without a kernel) is skipped.
        """
        if self.loop is None:
            return 0
        n = 0
        for widget in widgets:
            comm = getattr(widget, "comm", None)
            if comm is None or getattr(comm, "_msg_callback", None) is None:
                continue
            comm.on_msg(self._handed_over(widget._handle_msg))
            n += 1
        return n

    def _handed_over(self, handler: Handler) -> Handler:
        loop = self.loop
        assert loop is not None

        def on_message(msg: dict[str, Any]) -> None:
            if loop.is_closed():  # the kernel is shutting down: nothing to keep in order
                handler(msg)
                return
            # Always queued, also on this very thread: a message handled at once would
            # overtake one queued a moment earlier from the other thread.
            loop.call_soon_threadsafe(handler, msg, context=contextvars.copy_context())

        return on_message


def open_widget_ids() -> frozenset[str]:
    """The model ids of every open widget (to tell, later, which ones are new)."""
    return frozenset(_instances)


def widgets_since(ids: frozenset[str]) -> list[W.Widget]:
    """The open widgets whose ids are not in ``ids`` (those made since), oldest first."""
    return [w for key, w in list(_instances.items()) if key not in ids]
