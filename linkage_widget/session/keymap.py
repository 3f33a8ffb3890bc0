"""What a key means: the keyboard map of the widget, as pure functions returning actions.

Every button and tool of the toolbar has a key (the help table under the widget lists
them; :data:`SIMPLE_KEYS`, :data:`TOGGLE_KEYS`, :data:`SHIFTED_KEYS`, :data:`EXAMPLE_KEYS`
here are the whole map). :func:`key_action` reads the key's normalised combo
(:attr:`~linkage_widget.session.gestures.Key.combo`) and the selection, and returns an
:class:`~.vocabulary.Action`; it changes nothing.

>>> key_action("o", Selection())
Action(kind='toggle_motors', args=(), message='')
>>> key_action("a", Selection())
Action(kind='toggle_trait', args=('show_angles',), message='')
"""

from __future__ import annotations

from .vocabulary import Action, Selection

__all__ = [
    "EXAMPLE_KEYS",
    "MAC_OPTION_DIGITS",
    "SHIFTED_KEYS",
    "SIMPLE_KEYS",
    "TOGGLE_KEYS",
    "example_key",
    "key_action",
]

#: Keys whose action does not depend on the selection: combo -> action kind.
SIMPLE_KEYS = {
    "c": "clear",
    "s": "save",
    "l": "load",
    "v": "view_preset",
    "i": "toggle_info",
    "p": "export_png",
    "r": "toggle_recording",
    "space": "toggle_running",
    "o": "toggle_motors",
    "n": "reverse_motors",
    "m": "toggle_presentation",
    "[": "previous_tool",
    "]": "next_tool",
    "k": "toggle_mode",
    "e": "toggle_projection",  # a 3-D linkage's eye: perspective / orthographic
    "b": "cycle_kind",  # rod, cable, strut: the selected rod's, else the rod tool's
    "u": "other_placements",  # the same rod lengths, other placements: ghosts
    "y": "play_nac",  # one turn of the shown NAC-colouring's flex
    "ctrl+z": "undo",
    "ctrl+shift+z": "redo",
    "ctrl+y": "redo",
    "home": "fit",
    "escape": "leave_or_escape",
}
#: Keys that switch a shown part on and off: combo -> the session's Bool trait.
TOGGLE_KEYS = {
    "g": "show_configuration",
    "a": "show_angles",
    "j": "show_vertices",
    "#": "show_labels",
}
#: Keys told apart from their plain key by shift (a DOM key name -> action kind):
#: ``L`` merges the file named in the file box into the linkage, as ``l`` loads it.
#: ``P`` and ``T`` export an SVG picture and the tracks' CSV (as ``p`` a PNG, ``t`` tracks),
#: ``F`` shows or hides the forces (as ``f`` pins: the capital is the drawing of it).
SHIFTED_KEYS = {
    "L": "merge",
    "P": "export_svg",
    "T": "export_tracks",
    "F": "toggle_forces",
    "V": "display_preset",
    "U": "jump_to_ghost",
    "N": "nac_next",  # the next NAC-colouring (after the last: the NAC view left)
    "B": "nac_previous",
    "S": "synthesis_tool",  # the synthesis tool, or back to select (the curve stays)
}

#: Alt + digit ``d`` loads bundled example ``EXAMPLE_KEYS[d - 1]``, as the 2007 web
#: version's number keys loaded its examples (plain digits pick the way on at a
#: singular placement here, so they cannot).
EXAMPLE_KEYS = (
    "four_bar",
    "watt",
    "chebyshev",
    "hoeken",
    "roberts",
    "peaucellier",
    "hart",
    "jansen",
    "penrose2",
)
#: What macOS's US layout sends for Option + 1 ... 9 (the key name is not the digit there).
MAC_OPTION_DIGITS = "\u00a1\u2122\u00a3\u00a2\u221e\u00a7\u00b6\u2022\u00aa"


def example_key(key: str, alt: bool) -> int | None:
    """The example number (1-9) an alt-key press asks for, else ``None``.

    >>> example_key("3", True), example_key("3", False), example_key("\u00a3", True)
    (3, None, 3)
    """
    if not alt or len(key) != 1:
        return None
    if key in "123456789":
        return int(key)
    way = MAC_OPTION_DIGITS.find(key)
    return way + 1 if way >= 0 else None


def key_action(combo: str, sel: Selection) -> Action | None:
    """What the key ``combo`` (:attr:`~linkage_widget.session.gestures.Key.combo`) does."""
    if combo in SIMPLE_KEYS:
        return Action(SIMPLE_KEYS[combo])
    if combo in TOGGLE_KEYS:
        return Action("toggle_trait", (TOGGLE_KEYS[combo],))
    if len(combo) == 1 and combo in "123456789":  # the numbered arrows of a singular placement
        return Action("pick_branch", (int(combo),))
    return _selection_key(combo, sel)


def _selection_key(combo: str, sel: Selection) -> Action | None:
    """The keys that act on the selected vertex or rod: ``f t d z`` (Delete, Backspace)."""
    if combo in ("f", "t"):
        what, kind = ("pin", "toggle_pin") if combo == "f" else ("track", "toggle_track")
        if sel.vertex is None:
            return Action("error", (), f"select a vertex first to {what} it")
        return Action(kind, (sel.vertex,))
    if combo in ("d", "delete", "backspace"):
        return _delete_key(sel)
    if combo == "z":
        if sel.rod is None:
            return Action("message", (), "select a rod to split (z)")
        return Action("split", (sel.rod,))
    return None


def _delete_key(sel: Selection) -> Action:
    if sel.vertex is not None:
        return Action("delete_vertex", (sel.vertex,))
    if sel.rod is not None:
        return Action("delete_rod", (sel.rod,))
    return Action("message", (), "select a vertex or rod to delete")
