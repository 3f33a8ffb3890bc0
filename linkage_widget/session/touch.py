r"""Touch and pen on a tablet: what the fingers' positions mean, as pure functions.

What the browser libraries deliver (checked in their sources, ipycanvas 0.14.3 and
ipyevents 2.0.4):

- ipycanvas sends ``touch_start``, ``touch_move``, ``touch_end`` and ``touch_cancel``
  with ``touches``: the position of **every finger still down** (the DOM's
  ``event.touches``), in canvas pixels, exact, but without the touches' identifiers.
  It calls ``preventDefault`` on them, so the browser sends no emulated mouse events
  and does not scroll or zoom the page under a gesture on the canvas.
- ipyevents can watch ``touchstart`` ... too, with identifiers, but its 2.0.4 frontend
  fills every entry of a touch list from one reused object: all entries carry the last
  finger's fields, so two fingers look like one finger twice. It is not used for touch.
- A pen (and a mouse) arrives as mouse events in both libraries (Chromium sends a
  pen's compatibility mouse events); neither library forwards ``pointer*`` events. A pen
  therefore works as a mouse: a tap clicks, a drag drags.

Without identifiers the pinch must not depend on the order of the fingers, and it does
not: it uses only the fingers' centroid and spread. With finger positions
:math:`p_1, \dots, p_k` (canvas pixels, :math:`k \ge 2`)

.. math::

    c = \frac{1}{k} \sum_i p_i, \qquad r = \frac{1}{k} \sum_i \lVert p_i - c \rVert ,

and between two touch events the view zooms by :math:`r' / r` about :math:`c` and pans
by :math:`c' - c` (:func:`pinch_step`). The world point under the old centroid lands
under the new one, and for two fingers that do not turn, the world points under both
fingers stay under them: the similarity :math:`x \mapsto c' + (r'/r)(x - c)` maps
:math:`p_i` to :math:`p'_i` exactly. The zoom itself is the one view transform's
(:meth:`~linkage_widget.draw.ViewTransform.zoomed` then
:meth:`~linkage_widget.draw.ViewTransform.panned`).

Examples
--------
>>> a = pinch_of([(100.0, 100.0), (140.0, 100.0)])
>>> b = pinch_of([(90.0, 110.0), (170.0, 110.0)])
>>> a
Pinch(x=120.0, y=100.0, spread=20.0, fingers=2)
>>> pinch_step(a, b)
PinchStep(x=120.0, y=100.0, dx=10.0, dy=10.0, factor=2.0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

__all__ = [
    "MIN_SPREAD_PX",
    "TOUCH_DRAG_PX",
    "TOUCH_HIT_PX",
    "TOUCH_ROD_PX",
    "Pinch",
    "PinchStep",
    "pinch_of",
    "pinch_step",
]

#: Pixels a finger may wander before a touch counts as a drag: a fingertip is less
#: steady than a mouse (the mouse's threshold is ``gestures.DRAG_THRESHOLD``, 4 px).
TOUCH_DRAG_PX = 10.0
#: A joint within this many pixels of a finger is touched (a fingertip is ~ 1 cm wide;
#: the mouse's grab radius is 8 px).
TOUCH_HIT_PX = 18.0
#: A rod within this many pixels of a finger is touched (the mouse's tolerance is 5 px).
TOUCH_ROD_PX = 12.0
#: Below this spread (pixels) the fingers are almost on one spot: their ratio is noise,
#: so the step pans only.
MIN_SPREAD_PX = 4.0


class Pinch(NamedTuple):
    """Fingers on the screen: centroid ``(x, y)``, mean distance to it, how many."""

    x: float
    y: float
    spread: float
    fingers: int


class PinchStep(NamedTuple):
    """Zoom by ``factor`` about pixel ``(x, y)``, then pan by ``(dx, dy)`` pixels."""

    x: float
    y: float
    dx: float
    dy: float
    factor: float


def pinch_of(touches: Sequence[tuple[float, float]]) -> Pinch:
    """The centroid and spread of the finger positions ``touches`` (pixels, any order).

    >>> pinch_of([(0.0, 0.0), (6.0, 8.0)])
    Pinch(x=3.0, y=4.0, spread=5.0, fingers=2)
    """
    k = len(touches)
    if k == 0:
        raise ValueError("pinch_of needs at least one finger position")
    cx = sum(float(x) for x, _ in touches) / k
    cy = sum(float(y) for _, y in touches) / k
    spread = sum(math.hypot(float(x) - cx, float(y) - cy) for x, y in touches) / k
    return Pinch(cx, cy, spread, k)


def pinch_step(before: Pinch, after: Pinch) -> PinchStep | None:
    """How the view follows the fingers from ``before`` to ``after`` (module docstring).

    ``None`` when a finger came or went in between (the centroid jumps then without any
    finger moving); a factor of 1 when the fingers were almost on one spot.

    >>> pinch_step(pinch_of([(0, 0), (10, 0)]), pinch_of([(0, 0), (10, 0), (5, 9)])) is None
    True
    """
    if before.fingers != after.fingers or before.fingers < 2:
        return None
    factor = after.spread / before.spread if before.spread >= MIN_SPREAD_PX else 1.0
    if not (math.isfinite(factor) and factor > 0.0):
        factor = 1.0
    return PinchStep(before.x, before.y, after.x - before.x, after.y - before.y, factor)
