r"""Issue 26's views of a framework, as action handlers: other placements, NAC-colourings.

**Other placements** (key ``u``): a small Laman linkage (at most
:data:`~linkage_widget.rigidity.realizations.REAL_REALIZATIONS_MAX_JOINTS` joints)
shows every real placement with its rod lengths
(:func:`~linkage_widget.rigidity.real_realizations`) as ghosts; any other planar
framework the other placement :func:`~linkage_widget.rigidity.global_rigidity` finds
when it is not globally rigid (a fold across a separating pair, or a solve), or says
why there is none. Key ``U`` puts the linkage at the next ghost (one undo step;
:mod:`.ghosts`).

**NAC-colourings** (:mod:`.nac_view`): keys ``N``/``B`` show the next or previous
colouring, the linkage at the start of its flex, ``space`` ... see there.

Every handler takes the object that holds the state it changes (a
:class:`~.ghosts.Ghosts`, its own state only), the :class:`~.outcome.Situation` and the
action's arguments, and returns an :class:`~.outcome.Outcome` the session applies.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

import numpy as np

from ..rigidity import generic_rank, global_rigidity, real_realizations
from ..rigidity.realizations import REAL_REALIZATIONS_MAX_JOINTS
from .document import Document
from .ghosts import Ghosts
from .outcome import Outcome, Situation

__all__ = ["GHOST_ACTIONS", "Ghosts", "jump_to_ghost", "other_placements", "place", "show_ghosts"]


def show_ghosts(ghosts: Ghosts, now: Situation, placements: Sequence[Any], label: str) -> Outcome:
    """Show ``placements`` as ghosts (none: clear them); the hint says how many."""
    return Outcome(message=ghosts.show(placements, now.linkage, label), finish="draw")


def place(positions: np.ndarray, said: str, doc: Document) -> str:
    """Put the joints at ``positions`` (an edit: one undo step); ``said`` is the message."""
    doc.linkage.set_positions(positions)
    return said


def jump_to_ghost(ghosts: Ghosts, now: Situation, k: int | None = None) -> Outcome:
    """Key ``U``: the linkage at ghost ``k`` (default: the next one), undoably."""
    k, target = ghosts.jump(k, now.linkage)
    others = len(ghosts.shown(now.linkage))
    said = f"at placement {k + 1} of {others} others (U: the next; ctrl-z: back)"
    return Outcome(edit=partial(place, target, said))


def _laman_small(linkage: Any) -> bool:
    """A Laman graph (the pebble game: :math:`m = 2n - 3` independent rods), unpinned, small."""
    n, m = linkage.n_vertices, linkage.n_rods
    if not (2 <= n <= REAL_REALIZATIONS_MAX_JOINTS and m == 2 * n - 3 and not linkage.pinned.size):
        return False
    return generic_rank(n, linkage.rods) == m  # the count alone passes K4 plus a pendant rod


def other_placements(ghosts: Ghosts, now: Situation) -> Outcome:
    """Key ``u``: the other placements with the same rod lengths, as ghosts (module docstring)."""
    link = now.linkage
    if link.dim != 2:
        raise ValueError("other placements are shown for planar linkages")
    if _laman_small(link):
        try:
            with_lengths = real_realizations(link)
        except ValueError:  # refused (too many, a degenerate placement): the search below
            with_lengths = []
        if len(with_lengths) > 1:  # the first is the placement itself
            label = f"every real placement of these lengths ({len(with_lengths)})"
            return show_ghosts(ghosts, now, with_lengths[1:], label)
    try:
        report = global_rigidity(link, seed=0)
    except ValueError as exc:  # fixed angles, sliders, slots; too large
        ghosts.show((), link)
        return Outcome(message=f"no other placements searched: {exc}", finish="draw")
    if report.other_placement is not None:
        return show_ghosts(ghosts, now, [report.other_placement[:, :2]], "not globally rigid")
    ghosts.show((), link)
    verdict = {True: "globally rigid", False: "not globally rigid", None: "undecided"}
    said = f"no other placement found: {verdict[report.globally_rigid]}"
    return Outcome(message=said, finish="draw")


#: The action kinds of the ghosts and their handlers (each takes the ``Ghosts`` first).
GHOST_ACTIONS = {
    "show_ghosts": show_ghosts,
    "jump_to_ghost": jump_to_ghost,
    "other_placements": other_placements,
}
