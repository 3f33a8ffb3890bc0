"""A fixed angle between joints without rods, made with the angle tool.

An :class:`AngleTool` the :class:`~linkage_widget.session.LinkageSession` holds: it keeps the
first arm chosen and says what a click means; the session shows its message or makes
the edit (:func:`toggle_joint_angle`, one undo step).

The 2007 program fixed an angle only between two adjacent rods, though "if we had no
rods but only a fixed angle, more motion would be possible" (its page): the angle at
apex :math:`i` between the arms to :math:`j` and :math:`k` is one constraint
(:meth:`~linkage_widget.Linkage.add_angle`), and :math:`j` may slide along its arm, and
:math:`k` along its own. With the angle tool:

1. click the apex joint (it becomes selected; a joint selected before the tool was
   chosen is the apex, and the hint line says so: "apex: joint 2 (selected)");
2. click the joint at the end of the first arm (the apex stays selected; the hint says
   the apex and which arm was chosen);
3. click the joint at the end of the second arm: the angle is fixed, one undo step (the
   same three clicks on a fixed angle free it).

Clicking two adjacent rods still fixes the angle between them, as before.

>>> from linkage_widget import Linkage
>>> from linkage_widget.session import LinkageSession
>>> s = LinkageSession(Linkage([[0, 0], [100, 0], [0, 100]], pinned=[0]))
>>> s.tool = "angle"
>>> for v in (0, 1, 2):
...     s.press(*s.view.to_pixel(s.linkage.vertices[v])); s.release()
>>> s.linkage.angles.tolist(), s.linkage.n_rods
([[0, 1, 2]], 0)
"""

from __future__ import annotations

from typing import NamedTuple

from ..model import Linkage
from .outcome import Outcome, Situation

__all__ = ["AngleClick", "AngleTool", "angle_arm", "toggle_joint_angle"]


class AngleClick(NamedTuple):
    """What a click of the angle tool means: a message to show, or an angle to toggle."""

    message: str  #: the hint after the first arm was chosen ("" when ``angle`` is set)
    angle: tuple[int, int, int] | None  #: ``(apex, j, k)`` to fix or free, or None


class AngleTool:
    """The angle tool's joint clicks: apex, first arm, second arm (module docstring)."""

    def __init__(self) -> None:
        #: ``(apex, j)``: the first arm chosen, waiting for the second (None: none)
        self._arm: tuple[int, int] | None = None

    def click(self, apex: int, joint: int, n_vertices: int) -> AngleClick:
        """The selected ``apex`` and a clicked ``joint``: the first arm, or the second.

        A click that cannot be the second arm (another apex, the same joint, a joint
        gone since) chooses the first arm anew.
        """
        arm = self._arm
        if arm is None or arm[0] != apex or arm[1] in (joint, apex) or max(arm) >= n_vertices:
            self._arm = (apex, joint)
            return AngleClick(
                f"apex: joint {apex} (selected), arm {apex}-{joint} chosen; click the joint "
                f"at the other arm's end · click {apex} again: another apex",
                None,
            )
        self._arm = None
        return AngleClick("", (apex, arm[1], joint))


def toggle_joint_angle(link: Linkage, i: int, j: int, k: int) -> str:
    """Fix the angle at ``i`` between the arms to ``j`` and ``k``, or free it when fixed.

    Edits ``link`` (inside the session's undoable edit) and returns the message.
    """
    found = link.find_angle(i, j, k)
    if found is None:
        link.add_angle(i, j, k)  # a ValueError (coincident joints) undoes the edit
        return f"angle at {i} between joints {j} and {k} fixed"
    link.remove_angle(found)
    return f"angle at {i} between joints {j} and {k} freed"


def angle_arm(tool: AngleTool, now: Situation, apex: int, joint: int) -> Outcome:
    """The angle tool's click on ``joint``, ``apex`` selected: an arm, or the angle toggled."""
    said, angle = tool.click(apex, joint, now.linkage.n_vertices)
    if angle is None:
        return Outcome(message=said)
    return Outcome(edit=lambda doc: toggle_joint_angle(doc.linkage, *angle))
