"""Keep the mechanism in view: when it moves out of the canvas, the view follows.

A :class:`ViewKeeper` the :class:`~linkage_widget.session.LinkageSession` holds: it keeps the
joints' places the view was last judged against and says which view shows them again;
the session applies it before every draw.

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

from collections.abc import Sequence

import numpy as np

from ..draw import ViewTransform

__all__ = ["MARGIN_PX", "ViewKeeper", "inside"]

#: Pixels kept free inside the canvas edge for a joint brought back into view: its
#: disk and halo (about 10 px at the default theme) and room for its label.
MARGIN_PX = 24.0


def inside(view: ViewTransform, points: np.ndarray, margin: float = 0.0) -> np.ndarray:
    """Which world ``points`` ``(n, 2)`` lie in the canvas less ``margin`` pixels: ``(n,)`` bool."""
    px = view.to_pixel(points)
    lo = np.array([margin, margin])
    hi = np.array([view.width - margin, view.height - margin])
    return np.all((px >= lo) & (px <= hi) & np.isfinite(px), axis=-1)


class ViewKeeper:
    """The joints' places when the view was last judged, and the view a move calls for.

    Parameters
    ----------
    places : ndarray, shape (n, 2)
        The joints' places at the start (copied): the first move is judged against them.
    """

    def __init__(self, places: np.ndarray) -> None:
        self._places = np.array(places, dtype=float)

    def judge(
        self, places: np.ndarray, view: ViewTransform, enabled: bool, held: Sequence[object] = ()
    ) -> ViewTransform | None:
        """The view that shows again the joints a move took out of ``view``, or ``None``.

        Asked before each draw. ``held``: what holds the view now (the session's gesture,
        pinch and pulled joint): while any is set (not ``None``) nothing is judged, nor
        remembered: a gesture is judged when it ends. ``places`` ``(n, 2)`` are the
        joints' places now; they become the places the next move is judged against.
        ``None`` when switched off (``enabled`` false; the session's in space too, where
        the user turns the view), when nothing moved (a pan or zoom of the user's stays),
        when the joints changed in number, or when every joint that was visible and moved
        is still clear of the edge (:data:`MARGIN_PX`).
        """
        if any(h is not None for h in held):
            return None
        before, self._places = self._places, places.copy()
        if not enabled or before.shape != places.shape or np.array_equal(before, places):
            return None
        seen = inside(view, before)
        moved = np.any(before != places, axis=1)  # a joint that stood still is not news
        if not np.any(seen & moved & ~inside(view, places, MARGIN_PX)):
            return None
        return view.showing(places[seen], MARGIN_PX)
