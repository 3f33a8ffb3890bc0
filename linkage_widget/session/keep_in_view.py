"""Keep the mechanism in view: when it moves out of the canvas, the view follows.

Part of :class:`~linkage_widget.session.LinkageSession` (a mixin over its state).

A teacher found the Peaucellier's top joint cut by the canvas edge after a drag, and
the output joint half under the button row; code that moves the linkage
(``w.linkage.set_positions(...)`` then ``w.refresh()``) could take it out of view
altogether. The policy, checked before every draw:

* Only a **move of the joints** can change the view: a user's pan or zoom moves no
  joint, so it is never undone; the view a user chose is kept as long as the joints
  they can see stay in it.
* The joints that count are those that were **visible** (inside the canvas) before the
  move. When one of them moved and is now outside the canvas less a margin of
  :data:`MARGIN_PX` pixels (a joint's disk, its halo and label), the view changes by the
  least that shows them all again (:meth:`~linkage_widget.draw.ViewTransform.showing`):
  a pan when they fit at the current zoom, else a zoom out; never a zoom in. Joints the
  user had panned out of sight stay out of sight.
* **Not while the user acts**: during a drag of a joint, a pan (a drag of the
  background) or a pinch the view stays put (moving it under the pointer would fight
  the hand); the move is judged when the gesture ends, against the joints' places
  before it began. A running motion (attractor, motors, dynamics) is followed frame by
  frame.

``keep_in_view = False`` switches it off.

>>> from linkage_widget.session import LinkageSession
>>> s = LinkageSession.load("four_bar.txt")
>>> s.linkage.set_positions(s.linkage.vertices + [5000.0, 0.0])  # far to the right
>>> s.refresh(); _ = s.advance(1)
>>> bool(s._joints_in_view().all())
True
"""

from __future__ import annotations

from typing import Any

import numpy as np
from traitlets import Bool, HasTraits

from ..draw import ViewTransform

__all__ = ["MARGIN_PX", "KeepInViewMixin", "inside"]

#: Pixels kept free inside the canvas edge for a joint brought back into view: its
#: disk and halo (about 10 px at the default theme) and room for its label.
MARGIN_PX = 24.0


def inside(view: ViewTransform, points: np.ndarray, margin: float = 0.0) -> np.ndarray:
    """Which world ``points`` ``(n, 2)`` lie in the canvas less ``margin`` pixels: ``(n,)`` bool."""
    px = view.to_pixel(points)
    lo = np.array([margin, margin])
    hi = np.array([view.width - margin, view.height - margin])
    return np.all((px >= lo) & (px <= hi) & np.isfinite(px), axis=-1)


class KeepInViewMixin(HasTraits):
    """Bring the mechanism back into view when it moves out (module docstring)."""

    keep_in_view = Bool(True, help="bring the mechanism back into view when it moves out")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        #: the joints' places when the view was last judged (None: not yet)
        self._kept_places: np.ndarray | None = None
        super().__init__(*args, **kwargs)

    def _request_draw(self) -> None:
        # the first request (the end of construction) sets the places to judge moves against
        if self._kept_places is None and getattr(self, "_ready", False):
            self._kept_places = self.linkage.vertices.copy()  # type: ignore[attr-defined]
        super()._request_draw()  # type: ignore[misc]

    def _draw(self) -> None:
        self._keep_mechanism_in_view()
        super()._draw()  # type: ignore[misc]

    def _user_acting(self) -> bool:
        """A drag of a joint, a pan or a pinch under way: the view is the user's."""
        merger = getattr(self, "_merger", None)
        gesture = merger is not None and (merger.gesture is not None or merger.pinch is not None)
        return gesture or getattr(self, "_drag_vertex", None) is not None

    def _joints_in_view(self, margin: float = MARGIN_PX) -> np.ndarray:
        """Which joints the current view shows clear of the edge; ``(n,)`` bool."""
        return inside(self._view, self.linkage.vertices, margin)  # type: ignore[attr-defined]

    def _keep_mechanism_in_view(self) -> None:
        """Change the view by the least that shows again the joints a move took out of it."""
        if self._user_acting():
            return  # judged after the gesture, against the places before it
        places = self.linkage.vertices  # type: ignore[attr-defined]
        before, self._kept_places = self._kept_places, places.copy()
        if not self.keep_in_view or before is None or before.shape != places.shape:
            return
        if np.array_equal(before, places):
            return  # nothing moved: a pan or zoom of the user's stays as it is
        view: ViewTransform = self._view  # type: ignore[attr-defined]
        seen = inside(view, before)
        moved = np.any(before != places, axis=1)  # a joint that stood still is not news
        if not np.any(seen & moved & ~inside(view, places, MARGIN_PX)):
            return
        self._view = view.showing(places[seen], MARGIN_PX)
