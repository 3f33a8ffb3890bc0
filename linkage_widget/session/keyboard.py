"""The session's keyboard-only actions: presentation mode, tools, mode and shown parts by key.

:mod:`.keymap` says which key means which action kind; :class:`Keyboard` decides what
the kinds that have no button of their own change, so that everything the toolbar can
do the keyboard can do too. It takes the current values and returns a
:class:`KeyChange` (the traits to set and the message); the session applies it:

- ``m`` toggles :attr:`presentation` (the 2007 program's key); ``Esc`` leaves it, and
  only outside presentation mode stops the motion and deselects;
- ``[`` / ``]`` choose the previous / next toolbar tool, ``k`` switches kinematic and
  dynamic mode;
- ``a``, ``j``, ``#``, ``g`` and ``F`` show or hide the angles, the joints, the joints'
  labels, the configuration space and the forces.

>>> Keyboard().change("toggle_mode", {"mode": "kinematic"})
KeyChange(traits={'mode': 'dynamic'}, message='dynamic mode (k switches)', escape=False)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from .vocabulary import TOOL_TIPS, next_tool

__all__ = ["KEY_KINDS", "SHOWN_NAMES", "KeyChange", "Keyboard"]

#: What a toggled part is called in the message.
SHOWN_NAMES = {
    "show_angles": "fixed angles",
    "show_vertices": "joints",
    "show_configuration": "configuration space",
    "show_forces": "forces",
    "show_labels": "joint labels",
}

#: The action kinds :class:`Keyboard` decides.
KEY_KINDS = (
    "toggle_presentation",
    "leave_or_escape",
    "next_tool",
    "previous_tool",
    "toggle_mode",
    "toggle_trait",
    "toggle_forces",
    "synthesis_tool",
)


class KeyChange(NamedTuple):
    """What a keyboard-only action changes: traits to set, the message, whether to escape.

    ``message`` ``None`` leaves the session's message as it is; ``escape`` asks for
    the session's plain Esc (stop the motion and deselect).
    """

    traits: dict[str, Any]
    message: str | None = None
    escape: bool = False


class Keyboard:
    """The keyboard-only actions of the session (module docstring)."""

    def change(self, kind: str, now: Mapping[str, Any], *args: Any) -> KeyChange:
        """What action ``kind`` (one of :data:`KEY_KINDS`) changes, given the traits ``now``.

        ``now`` maps trait names to their current values (``presentation``, ``tool``,
        ``mode``, and the ``show_*`` trait toggled); ``args`` are the action's.
        """
        if kind == "toggle_trait":
            return self.toggled(args[0], now)
        if kind == "toggle_forces":
            return self.toggled("show_forces", now)
        if kind == "synthesis_tool":  # key S: draw a curve, or back to select
            tool = "select" if now["tool"] == "synthesis" else "synthesis"
            return KeyChange({"tool": tool}, TOOL_TIPS[tool])
        if kind in ("next_tool", "previous_tool"):
            return KeyChange({"tool": next_tool(now["tool"], 1 if kind == "next_tool" else -1)})
        if kind == "toggle_mode":
            mode = "dynamic" if now["mode"] == "kinematic" else "kinematic"
            return KeyChange({"mode": mode}, f"{mode} mode (k switches)")
        if kind == "toggle_presentation" and not now["presentation"]:
            return KeyChange({"presentation": True}, "presentation mode: m or Esc leaves")
        if kind in ("toggle_presentation", "leave_or_escape") and now["presentation"]:
            return KeyChange({"presentation": False}, "presentation mode off")
        if kind == "leave_or_escape":
            return KeyChange({}, escape=True)
        raise KeyError(kind)

    def toggled(self, name: str, now: Mapping[str, Any]) -> KeyChange:
        """Show or hide the part that the Bool trait ``name`` switches."""
        on = not now[name]
        return KeyChange({name: on}, f"{SHOWN_NAMES.get(name, name)} {'shown' if on else 'hidden'}")
