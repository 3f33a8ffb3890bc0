"""Choosing a branch where the motion stopped at a singular placement.

Part of :class:`~linkage_widget.session.LinkageSession` (a mixin over its state).
When the simulator stops at a singular placement (status ``"singular"``: a flat
parallelogram, Peaucellier's flat rhombus), the canvas shows its :math:`k` branch
lines as :math:`2k` numbered arrows (both senses of each line,
:mod:`~linkage_widget.draw.branches`) and the hint says so in plain words. The
student picks a way by clicking its arrow (or label) or by pressing its number key;
the simulator follows that branch
(:meth:`~linkage_widget.motion.Simulator.follow_branch`) and a drag under way goes
on along it. A press anywhere else does what it always does.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..draw import DEFAULT_THEME
from ..draw.branches import BranchHandles, branch_handles, pick_handle
from .gestures import Gesture

__all__ = ["BRANCH_PICK_PX", "BranchingMixin"]

#: A press within this many pixels of an arrow tip or its label picks that way.
BRANCH_PICK_PX = 16.0


class BranchingMixin:
    """The branch arrows, their clicks and number keys (module docstring)."""

    # ------------------------------------------------------------ state
    def _branch_directions(self) -> np.ndarray | None:
        """The branch lines ``(k, n, 2)`` when the motion waits at a singular stop, else None."""
        sim = self.driver.simulator
        if self._status != "singular" or sim is None or not sim.singular:
            return None
        directions = sim.branches()
        if directions.shape[1] != self.linkage.n_vertices:
            return None
        return directions

    def _branch_count(self) -> int:
        """Branch lines offered now (0 when not at a singular stop)."""
        directions = self._branch_directions()
        return 0 if directions is None else len(directions)

    def _branch_handles(self) -> BranchHandles | None:
        directions = self._branch_directions()
        if directions is None:
            return None
        return branch_handles(self._view, self.linkage.vertices, directions, DEFAULT_THEME)

    # ------------------------------------------------------------ input
    def _on_press(self, g: Gesture) -> None:
        """A press on a branch arrow picks that way; any other press goes on as usual."""
        if g.button == 0:
            way = pick_handle(self._branch_handles(), g.x, g.y, BRANCH_PICK_PX)
            if way is not None:
                assert g.data is not None
                g.data.update(action="branch", hit=None)  # its drag and release do nothing
                self._message = ""
                self._guarded(lambda: self._do_pick_branch(way + 1))
                self._request_draw()
                return
        super()._on_press(g)  # type: ignore[misc]

    def _do_pick_branch(self, way: int) -> None:
        """Follow way ``way`` (1-based: ``2j + 1`` is line ``j`` forward, ``2j + 2`` back)."""
        directions = self._branch_directions()
        if directions is None:
            self._message = (
                "number keys pick the way on where the motion stops at a singular placement"
            )
            return
        if not 1 <= way <= 2 * len(directions):
            raise ValueError(f"there are {2 * len(directions)} ways on here; {way} is not one")
        line, back = divmod(way - 1, 2)
        positions = self.driver.follow_branch(line, -1 if back else 1)
        self.linkage.set_positions(positions)
        self._pos_version += 1
        self._tracks.append(positions)
        self._status = "moved"
        self._message = f"branch {way}: the motion goes on along it"
        self.running = True
        self._start_animation()

    # provided by the session (annotations only: a stub here would shadow the real one)
    driver: Any
    linkage: Any
    running: bool
    _status: str
    _message: str
    _view: Any
    _pos_version: int
    _tracks: Any
    _guarded: Any
    _request_draw: Any
    _start_animation: Any
