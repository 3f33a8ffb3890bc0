r"""The NAC view: a NAC-colouring's rods in two colours, and the flex it gives, played.

A graph has a flexible placement (a quasi-injective one) iff it has a *NAC-colouring*
(Grasegger, Legerský & Schicho 2019): each rod red or blue, both colours used, every
cycle either one colour or with at least two rods of each. A colouring gives the
motion explicitly (:func:`~linkage_widget.rigidity.nac_motion`): the red components
turn against the blue ones, :math:`p(t)` for :math:`t \in [0, 2\pi)`.

Keys ``N`` and ``B`` show the next and the previous colouring (after the last: the view
is left); the rods are drawn in the two colours of
:attr:`~linkage_widget.draw.Theme.nac_colors`. Showing a colouring puts the linkage at
the start of its motion (:attr:`NACMotion.start`, one undo step): the motion keeps
*its* rod lengths, so the model's lengths become the motion's. ``y`` plays one turn of
the flex (one undo step). The flex moves rods only: a pinned joint stays put (each frame
moved rigidly onto the pins; refused when the flex changes the pins' distances), and a
linkage with fixed angles, sliders or slots, or in 3-D, is refused with the reason,
nothing changed. **Leaving keeps the placement** the linkage is at (it is a
placement of the linkage like any other); ctrl-z goes back to the placement before the
colouring was shown.

:class:`NACView` holds the colourings of the graph (found once per graph), the one shown
and its motion; it holds no reference to the session. The handlers take it, the
:class:`~.outcome.Situation` and the action's arguments and return an
:class:`~.outcome.Outcome`; the play hands the placements to the session's animation
(``animate``: the configuration panel's move, one placement a frame).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from ..model import Linkage

try:  # issue 26's NAC part (rigidity/nac): without it the view says so, nothing else changes
    from ..rigidity import nac_colourings, nac_motion
except ImportError:  # pragma: no cover - the part not merged yet
    nac_colourings = nac_motion = None
from .configuration_panel import PanelIntent
from .document import Document
from .ghosts import aligned
from .outcome import NOTHING, Outcome, Situation

__all__ = ["NAC_FRAMES", "NACView", "nac_handlers", "pinned_frames", "refusal"]

#: Frames of one turn of a NAC flex (:math:`t` from 0 to :math:`2\pi`).
NAC_FRAMES = 240

#: The colouring is drawn while the joints are at a frame of its motion, within this
#: (relative to the placement's size).
FRAME_ATOL = 1e-9

#: The pins hold when their distances stay within this (relative) over the motion.
PIN_RTOL = 1e-6


def refusal(linkage: Linkage) -> str | None:
    """Why the NAC view cannot show ``linkage`` (a flex of its rods only), or ``None``.

    The motion moves the rods alone: a fixed angle, a slider or a slot would be broken.
    """
    if linkage.dim != 2 or nac_colourings is None:
        return "NAC-colourings give flexes of planar linkages only (this one is 3-D)"
    held = [
        name
        for name, count in (
            ("fixed angles", len(linkage.angles)),
            ("sliders", len(linkage.sliders)),
            ("slots", len(linkage.slots)),
        )
        if count
    ]
    if held:
        return (
            f"the NAC view flexes rods only, and this linkage has {', '.join(held)}:"
            " remove them to see its NAC-colourings"
        )
    return None


def pinned_frames(frames: np.ndarray, current: np.ndarray, pins: np.ndarray) -> np.ndarray:
    r"""``frames`` ``(k, n, 2)`` moved rigidly so the pinned joints stay at ``current``'s.

    One pin: a translation. Two or more: each frame by the Kabsch rotation and
    translation on the pins (:func:`.ghosts.aligned`). Raises ``ValueError`` when the
    pins' pairwise distances :math:`|p_a(t) - p_b(t)|` differ from their distances
    now: no rigid move keeps them all in place.
    """
    if not len(pins):
        return frames
    if len(pins) == 1:
        return frames - frames[:, pins[:1]] + current[pins[:1]]
    a, b = np.triu_indices(len(pins), 1)
    now = np.linalg.norm(current[pins[a]] - current[pins[b]], axis=-1)
    moving = np.linalg.norm(frames[:, pins[a]] - frames[:, pins[b]], axis=-1)
    scale = max(float(now.max(initial=0.0)), 1.0)
    if not np.allclose(moving, now, rtol=0.0, atol=PIN_RTOL * scale):
        raise ValueError(
            "this NAC-colouring's flex moves the pinned joints apart or together:"
            " unpin all but one joint to see it"
        )
    return np.stack([aligned(f, current, pins) for f in frames])


def _key(linkage: Linkage) -> tuple[Any, ...]:
    return linkage.dim, linkage.n_vertices, linkage.rods.tobytes()


class NACView:
    """The colourings of the graph, the one shown and its motion (module docstring)."""

    def __init__(self) -> None:
        self.colourings: list[np.ndarray] = []
        self.index: int | None = None  # the colouring shown, None: the view is left
        self.motion: Any = None
        self._key: tuple[Any, ...] | None = None
        self._pins: tuple[np.ndarray, np.ndarray] = (np.zeros(0, np.int64), np.zeros((0, 2)))
        self._frames: np.ndarray | None = None  # one turn, (NAC_FRAMES + 1, n, 2)

    def of(self, linkage: Linkage) -> list[np.ndarray]:
        """The NAC-colourings of ``linkage``'s graph (found once per graph)."""
        if self._key != _key(linkage):
            if (why := refusal(linkage)) is not None:
                raise ValueError(why)
            try:
                found = nac_colourings(linkage)
            except ValueError as exc:  # past the search's caps: said plainly, not its keywords
                raise ValueError(
                    "this graph has too many NAC-colourings to list them in the widget"
                    " (rigidity.nac_colourings with a larger max_colourings lists them)"
                ) from exc
            self.colourings, self.index, self.motion = found, None, None
            self._key = _key(linkage)
        return self.colourings

    def shown(self, linkage: Linkage) -> np.ndarray | None:
        """The colouring to draw, ``(m,)`` bool (True: red), or ``None``.

        ``None`` when the view is left, the graph edited, or the joints are at none of the
        motion's frames (an undo of ``N``, a drag): the colours belong to the motion.
        """
        if self.index is None or self._key != _key(linkage) or self._frames is None:
            return None
        p = np.asarray(linkage.vertices, dtype=np.float64)
        if self._frames.shape[1:] != p.shape:
            return None
        scale = max(float(np.abs(self._frames[0]).max(initial=0.0)), 1.0)
        off = np.abs(self._frames - p).reshape(len(self._frames), -1).max(axis=1)
        return self.colourings[self.index] if off.min() <= FRAME_ATOL * scale else None

    def choose(self, linkage: Linkage, k: int | None) -> tuple[np.ndarray, str] | None:
        """Show colouring ``k`` (``None``: leave); its motion's start and what to say."""
        found = self.of(linkage)
        if (why := refusal(linkage)) is not None and k is not None:
            raise ValueError(why)  # an angle, slider or slot added since the graph was read
        if k is None or not found:
            self.index, self.motion = None, None
            return None
        if not 0 <= int(k) < len(found):
            raise IndexError(
                f"no NAC-colouring {k}: this graph has {len(found)} (0 to {len(found) - 1})"
            )
        k = int(k)
        motion = nac_motion(linkage, found[k], seed=0)
        pins = np.asarray(linkage.pinned, dtype=np.int64)
        self._pins = (pins, np.asarray(linkage.vertices, dtype=np.float64).copy())
        frames = pinned_frames(self._turn(motion), self._pins[1], pins)  # refuses first
        self.motion, self.index, self._frames, start = motion, k, frames, frames[0]
        red = int(found[k].sum())
        said = (
            f"NAC-colouring {k + 1} of {len(found)}: {red} red rods, {len(found[k]) - red} blue;"
            " the linkage at its flexible placement (y: flex it · N/B: next/previous)"
        )
        return start, said

    @staticmethod
    def _turn(motion: Any, frames: int = NAC_FRAMES) -> np.ndarray:
        return np.asarray(motion.placement(np.linspace(0.0, 2 * np.pi, frames + 1)))

    def placements(self, frames: int = NAC_FRAMES) -> np.ndarray:
        r"""One turn of the motion, ``(frames + 1, n, 2)``: :math:`t = 0 \ldots 2\pi`.

        Moved rigidly, frame by frame, so the pinned joints stay where they were
        (:func:`pinned_frames`).
        """
        if frames == NAC_FRAMES and self._frames is not None:
            return self._frames.copy()  # the frames the colouring is drawn at
        pins, current = self._pins
        return pinned_frames(self._turn(self.motion, frames), current, pins)


def _place(positions: np.ndarray, said: str, doc: Document) -> str:
    doc.linkage.set_positions(positions)
    return said


def nac_colouring(nac: NACView, now: Situation, k: int | None) -> Outcome:
    """Show NAC-colouring ``k`` (``None``: leave the view, the placement kept)."""
    chosen = nac.choose(now.linkage, k)
    if chosen is None:
        if nac.colourings:
            said = "NAC view left: the linkage stays where it is (ctrl-z: back)"
        elif now.linkage.n_rods < 2:
            said = "no NAC-colouring: a NAC-colouring needs two rods or more"
        else:
            said = "no NAC-colouring: no placement of this graph flexes with distinct joints"
        return Outcome(message=said, finish="draw")
    return Outcome(edit=partial(_place, *chosen))


def nac_step(nac: NACView, now: Situation, step: int) -> Outcome:
    """Keys ``N`` (+1) and ``B`` (-1): the next or previous colouring; past the end: leave."""
    count = len(nac.of(now.linkage))
    shown = nac.shown(now.linkage)
    index = -1 if shown is None else nac.index
    if shown is None and step < 0:
        index = count
    k = index + step
    return nac_colouring(nac, now, k if 0 <= k < count else None)


def play_nac(nac: NACView, animate: Callable[[PanelIntent], None], now: Situation) -> Outcome:
    """Key ``y``: the linkage flexes along the shown colouring's motion, one turn."""
    if nac.shown(now.linkage) is None or nac.motion is None:
        raise ValueError("show a NAC-colouring first (N), then y flexes the linkage along it")
    said = f"flexing along NAC-colouring {nac.index + 1} (one turn; ctrl-z: back)"
    animate(PanelIntent(message=said, path=nac.placements()))
    return NOTHING


def nac_handlers(
    now: Callable[[], Situation], nac: NACView, animate: Callable[[PanelIntent], None]
) -> dict[str, Callable[..., object]]:
    """The NAC view's action kinds and their handlers (for :func:`.actions.action_table`)."""
    return {
        "nac_colouring": lambda k=0: nac_colouring(nac, now(), k),
        "nac_next": lambda: nac_step(nac, now(), 1),
        "nac_previous": lambda: nac_step(nac, now(), -1),
        "play_nac": lambda: play_nac(nac, animate, now()),
    }
