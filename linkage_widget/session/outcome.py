"""What an action handler reads and what it returns: :class:`Situation` and :class:`Outcome`.

The handlers of the action table (:class:`~.actions.Actions`, the drag's in
:class:`~.pointer.Pointer`) take a :class:`Situation`, values the session reads for
them, and return an :class:`Outcome`, values the session applies in one place
(``LinkageSession._carry_out``): so no handler holds or changes the session.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from ..draw import ViewTransform
from ..model import Linkage
from .document import Document
from .vocabulary import Selection

__all__ = ["NOTHING", "Finish", "Outcome", "Situation"]

#: What an outcome asks for last: ``"edit"`` the model changed (a free move ended),
#: ``"analysis"`` analyse and draw, ``"draw"`` draw, ``"animate"`` start the motion's frames
Finish = Literal["", "edit", "analysis", "draw", "animate"]


@dataclass(frozen=True)
class Situation:
    """What the handlers read: the session's traits and model, the view, the motion.

    ``world(x, y, depth=0)`` is the world point under pixel ``(x, y)`` (in space on the
    screen-parallel plane at ``depth``); ``idle``: nothing pulls and no motor drives.
    """

    traits: Mapping[str, Any]
    linkage: Linkage
    view: ViewTransform
    viewer: Any
    world: Callable[..., Any]
    branches: Any
    idle: bool
    motors_on: bool

    @property
    def selection(self) -> Selection:
        """The selected vertex and rod."""
        return Selection(self.traits["selected_vertex"], self.traits["selected_rod"])

    @property
    def attractor(self) -> Any:
        """The attractor's world point, or ``None``."""
        return self.traits["attractor"]

    @property
    def mode(self) -> str:
        """``"kinematic"`` or ``"dynamic"``."""
        return str(self.traits["mode"])

    @property
    def tool(self) -> str:
        """The toolbar's tool."""
        return str(self.traits["tool"])


@dataclass(frozen=True)
class Outcome:
    """What an action changes, for the session to apply (in this order).

    Attributes
    ----------
    traits : mapping
        Trait values to set, in order (with an ``edit``: after it, when it succeeded).
    edit : callable(Document) -> str or None, optional
        One undoable edit; it returns the message shown.
    undo_point : bool
        A free move begins: the motion so far is committed and the document recorded.
    branch : (line, sense) or None
        Follow this branch of a singular stop.
    then : Outcome or None
        Applied after ``edit`` succeeded (a vertex added, then linked).
    message : str or None
        The hint line's message (``None``: unchanged).
    view : ViewTransform or None
        The new view transform (a pan, a zoom, a pinch): a frame soon.
    turn : ndarray, shape (3, 3), or None
        The 3-D camera's new rotation (key ``v``'s views in space): a frame soon.
    move : (vertex, world point) or None
        Move a vertex freely (an edit, not a motion); a place onto a neighbour is skipped.
    pulled : bool
        The pull's target moved: the motion goes on, a frame soon.
    finish : str
        What follows last (:data:`Finish`).
    after : callable or None
        A session service run last (the recording's export).
    """

    traits: Mapping[str, Any] = field(default_factory=dict)
    edit: Callable[[Document], str | None] | None = None
    undo_point: bool = False
    branch: tuple[int, int] | None = None
    then: Outcome | None = None
    message: str | None = None
    view: ViewTransform | None = None
    turn: Any = None
    move: tuple[int, Any] | None = None
    pulled: bool = False
    finish: Finish = ""
    after: Callable[[], object] | None = None


NOTHING = Outcome()
