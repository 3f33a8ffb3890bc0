"""Choosing a branch where the motion stopped at a singular placement.

When the simulator stops at a singular placement (status ``"singular"``: a flat
parallelogram, Peaucellier's flat rhombus), the canvas shows its :math:`k` branch
lines as :math:`2k` numbered arrows (both senses of each line,
:mod:`~linkage_widget.draw.branches`) and the hint says so in plain words. The
student picks a way by clicking its arrow (or label) or by pressing its number key;
the simulator follows that branch
(:meth:`~linkage_widget.motion.Simulator.follow_branch`) and a drag under way goes
on along it. A press anywhere else does what it always does.

:class:`BranchChoice` is the session's controller for this: it takes values (the
status, the simulator, the view, a press, a number) and returns values (the lines
offered, the way a press picks, the line and sense to follow); the session applies
them and holds no branch state of its own.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..draw import DEFAULT_THEME, ViewTransform
from ..draw.branches import BranchHandles, branch_handles, pick_handle

__all__ = ["BRANCH_PICK_PX", "NO_BRANCH", "BranchChoice"]

#: A press within this many pixels of an arrow tip or its label picks that way.
BRANCH_PICK_PX = 16.0

#: What a number key says when the motion is not stopped at a singular placement.
NO_BRANCH = "number keys pick the way on where the motion stops at a singular placement"


class BranchChoice:
    """The ways on at a singular stop: which are offered, which a press or a key picks."""

    def directions(self, status: str, simulator: Any, n_vertices: int) -> np.ndarray | None:
        """The branch lines ``(k, n, d)`` when the motion waits at a singular stop, else None.

        ``simulator`` is the driver's (``None`` before a motion needed one).
        """
        if status != "singular" or simulator is None or not simulator.singular:
            return None
        directions: np.ndarray = simulator.branches()
        if directions.shape[1] != n_vertices:
            return None
        return directions

    def handles(
        self, view: ViewTransform, positions: np.ndarray, directions: np.ndarray | None
    ) -> BranchHandles | None:
        """The arrows drawn for ``directions`` (``None``: none offered)."""
        if directions is None:
            return None
        return branch_handles(view, positions, directions, DEFAULT_THEME)

    def pressed(
        self,
        button: int,
        xy: tuple[float, float],
        view: ViewTransform,
        positions: np.ndarray,
        directions: np.ndarray | None,
    ) -> int | None:
        """The way (1-based) a press of ``button`` at pixel ``xy`` picks, else ``None``."""
        if button != 0 or directions is None:
            return None
        handles = self.handles(view, positions, directions)
        way = pick_handle(handles, xy[0], xy[1], BRANCH_PICK_PX)
        return None if way is None else way + 1

    def way(self, directions: np.ndarray | None, way: int) -> tuple[int, int] | None:
        """``(line, sense)`` of way ``way`` (``2j + 1`` is line ``j`` forward, ``2j + 2`` back).

        ``None`` when no branch is offered (the caller says :data:`NO_BRANCH`).

        Raises
        ------
        ValueError
            For a way that is not offered here.
        """
        if directions is None:
            return None
        if not 1 <= way <= 2 * len(directions):
            raise ValueError(f"there are {2 * len(directions)} ways on here; {way} is not one")
        line, back = divmod(way - 1, 2)
        return line, -1 if back else 1
