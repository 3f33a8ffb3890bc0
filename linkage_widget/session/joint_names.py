"""Joint names: the ``joint_names`` trait as the public face of the document's names.

Part of :class:`~linkage_widget.session.LinkageSession` (a mixin over its state,
carried into the session's bases by :class:`~.merge.MergeMixin`).

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

from typing import Any

from traitlets import HasTraits, TraitError, observe

from ..io import Extensions
from ..io.sidecar import trimmed_names

__all__ = ["JointNamesMixin"]


class JointNamesMixin(HasTraits):
    """Keep the ``joint_names`` trait and the document's names one (module docstring)."""

    @observe("joint_names")
    def _on_joint_names_set(self, change: Any) -> None:
        """A name set from code or the UI: one undoable edit of the document."""
        doc = getattr(self, "document", None)  # None under construction: Document takes it
        if doc is None:
            return
        if trimmed_names(change["new"]) == doc.names:  # no edit; the trait in the kept form
            self._follow_document()
            return
        new, edit = change["new"], self._edit  # type: ignore[attr-defined]
        if not edit(lambda: setattr(doc, "names", new), "joint names"):
            raise TraitError(f"joint_names: {self.error}")  # type: ignore[attr-defined]

    def _follow_document(self) -> None:
        """Set the traits that mirror the document (tracked joints, joint names) from it."""
        doc = self.document  # type: ignore[attr-defined]
        self.tracked = doc.tracked  # type: ignore[attr-defined]
        if tuple(self.joint_names) != doc.names:  # type: ignore[attr-defined]
            self.joint_names = doc.names  # type: ignore[attr-defined]

    def _follow_file(self, ext: Extensions) -> None:
        """Take the tracked joints and joint names of a loaded file's extensions."""
        self.document.names = ext.names  # type: ignore[attr-defined]
        self.document.tracked = ext.tracked  # type: ignore[attr-defined]
        self._follow_document()
