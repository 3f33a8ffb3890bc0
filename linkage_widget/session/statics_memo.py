"""The statics a session shows, solved again only when what it depends on changed.

:class:`Statics` is held by :class:`~.actuation.Actuation` (the session's motors, loads
and forces): the readout and the drawing ask for the rod forces and reactions of the
current loads on every frame, and a solve is kept until the structure, the positions
or the loads change — or, while the linkage moves after a slow solve, kept until it
stops.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..rigidity import StaticsReport, static_forces

__all__ = ["STATICS_LIVE_MAX_S", "Statics"]

#: While the linkage moves, statics are recomputed each frame only when the last solve took
#: at most this long (seconds); a slower one keeps showing the last forces until it stops.
STATICS_LIVE_MAX_S = 0.02


class Statics:
    """The statics of the linkage as it is, solved again only when what it depends on changed.

    ``key`` is ``(structure version, position version, loads)``; the cost of the last
    solve is measured with ``clock`` (the session's), so that a moving linkage whose
    solve is slow keeps showing the last forces instead of solving on every frame.
    """

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self._memo: tuple[Any, StaticsReport] | None = None
        self.cost = 0.0  # seconds the last solve took

    def report(self, key: Any, linkage: Any, loads: Any) -> StaticsReport:
        """:func:`~linkage_widget.static_forces` of ``linkage`` under ``loads``, kept by ``key``."""
        if self._memo is None or self._memo[0] != key:
            t0 = self.clock()
            self._memo = (key, static_forces(linkage, loads))
            self.cost = self.clock() - t0
        return self._memo[1]

    def live(self, key: Any, linkage: Any, loads: Any, running: bool) -> StaticsReport | None:
        """:meth:`report`, or while moving after a slow solve the last one (``None``: stale).

        The last one stays while the structure and the loads are those it was solved
        for (the joints moved since).
        """
        memo = self._memo
        if not running or memo is None or self.cost <= STATICS_LIVE_MAX_S:
            return self.report(key, linkage, loads)
        same = memo[0][0] == key[0] and memo[0][2] == key[2]
        return memo[1] if same else None
