"""The session's keyboard-only actions: presentation mode, tools, mode and shown parts by key.

Part of :class:`~linkage_widget.session.LinkageSession` (a mixin over its traits,
inherited through :class:`~.pointer.PointerMixin`). :mod:`.keymap` says which key means
which action kind; the ``_do_<kind>`` here carry out the kinds that have no button of
their own, so that everything the toolbar can do the keyboard can do too:

- ``m`` toggles :attr:`presentation` (the 2007 program's key); ``Esc`` leaves it, and
  only outside presentation mode stops the motion and deselects;
- ``[`` / ``]`` choose the previous / next toolbar tool, ``k`` switches kinematic and
  dynamic mode;
- ``a``, ``j``, ``#``, ``g`` and ``F`` show or hide the angles, the joints, the joints'
  labels, the configuration space and the forces.
"""

from __future__ import annotations

from collections.abc import Callable

from .vocabulary import next_tool

__all__ = ["KeyboardMixin"]

#: What a toggled part is called in the message.
SHOWN_NAMES = {
    "show_angles": "fixed angles",
    "show_vertices": "joints",
    "show_configuration": "configuration space",
    "show_forces": "forces",
    "show_labels": "joint labels",
}


class KeyboardMixin:
    """Keyboard-only actions of the session (module docstring)."""

    presentation: bool
    tool: str
    mode: str
    _message: str
    _do_escape: Callable[[], None]  # the session's (actions): stop and deselect

    def _do_toggle_presentation(self) -> None:
        self.presentation = not self.presentation
        self._message = (
            "presentation mode: m or Esc leaves" if self.presentation else "presentation mode off"
        )

    def _do_leave_or_escape(self) -> None:
        """Esc: leave presentation mode; outside it, stop the motion and deselect."""
        if self.presentation:
            self.presentation = False
            self._message = "presentation mode off"
        else:
            self._do_escape()

    def _do_next_tool(self) -> None:
        self.tool = next_tool(self.tool, 1)  # the hint says what the tool does

    def _do_previous_tool(self) -> None:
        self.tool = next_tool(self.tool, -1)

    def _do_toggle_mode(self) -> None:
        self.mode = "dynamic" if self.mode == "kinematic" else "kinematic"
        self._message = f"{self.mode} mode (k switches)"

    def _do_toggle_trait(self, name: str) -> None:
        """Show or hide the part that the Bool trait ``name`` switches."""
        on = not getattr(self, name)
        setattr(self, name, on)
        self._message = f"{SHOWN_NAMES.get(name, name)} {'shown' if on else 'hidden'}"

    def _do_toggle_forces(self) -> None:
        self._do_toggle_trait("show_forces")
