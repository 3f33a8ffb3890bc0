"""Joint names: the ``joint_names`` trait as the public face of the document's names.

The session's ``joint_names`` trait (:class:`~.traits.SessionTraits`) and the names of its
:class:`~.document.Document`; :func:`names_edit` says whether a value set is an edit.

The notebooks speak of joints O, Q, A, B, D, C of the Peaucellier inversor; with
``show_labels`` on, the canvas writes those names beside the joints (the index for an
unnamed one). The names live in the :class:`~.document.Document` beside the linkage,
like the tracked joints, so they

* come from the file's JSON sibling (``"names"``) or the JSON document on load, and go
  back into them on save;
* follow the joints: deleting joint ``v`` drops its name and moves the later names
  down one, a new joint is unnamed, a merged file's names follow the current ones;
* are part of every undo step.

Setting :attr:`joint_names` is one undoable edit; after a load, an undo or a deletion
the trait follows the document (without the trailing ``""`` it does not keep).

>>> from linkage_widget.session import LinkageSession
>>> s = LinkageSession.load("four_bar.txt")
>>> s.joint_names = ("A", "B")
>>> s.undo(), s.joint_names
(True, ())
>>> s.redo(), s.joint_names
(True, ('A', 'B'))
"""

from __future__ import annotations

from collections.abc import Sequence

from ..io.sidecar import trimmed_names

__all__ = ["names_edit"]


def names_edit(new: Sequence[str], kept: tuple[str, ...]) -> bool:
    """Whether setting the trait to ``new`` edits the document's names ``kept``.

    ``False`` when ``new`` is ``kept`` in another form (with trailing ``""``): the
    trait then takes the kept form, and no undo step is made.

    >>> names_edit(("A", ""), ("A",)), names_edit(("A", "B"), ("A",))
    (False, True)
    """
    return trimmed_names(new) != kept
