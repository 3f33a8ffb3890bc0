"""The public face of ``LinkageWidget``: every name it had before the session/widget split.

The list was taken with ``dir()`` on the one-class widget (commit c4e25b6); the split
may add names (the session's gestures, ``controls`` ...) but must not lose any.
"""

import ipywidgets as W
import pytest

import linkage_widget
from linkage_widget import LinkageWidget
from linkage_widget.session import LinkageSession

#: Public names of LinkageWidget beyond VBox's, before the split.
BEFORE = [
    "add_spring", "advance", "analysis", "attractor", "canvas", "error", "error_log", "fit",
    "frame_times", "gravity", "history", "linkage", "load", "load_file", "mass_distribution",
    "mode", "recording", "redo", "refresh", "running", "save", "save_gif", "scene",
    "selected_rod", "selected_vertex", "show_angles", "show_info", "show_pebbles",
    "show_stresses", "show_velocities", "show_vertices", "simulator", "springs", "status",
    "step_size", "to_png", "to_svg", "tool", "tracked", "undo", "view",
]  # fmt: skip
TRAITS = [
    "attractor", "error", "gravity", "mass_distribution", "mode", "recording", "running",
    "selected_rod", "selected_vertex", "show_angles", "show_info", "show_pebbles",
    "show_stresses", "show_velocities", "show_vertices", "step_size", "tool", "tracked",
]  # fmt: skip
#: The view's own public surface (documented in linkage_widget/widget/widget.py).
VIEW = ["canvas", "controls", "dom_events", "feed_canvas_event", "feed_dom_event"]


def test_every_public_name_is_still_there():
    w = LinkageWidget()
    missing = [name for name in BEFORE if not hasattr(w, name)]
    assert not missing
    assert set(TRAITS) <= set(w.trait_names()) - set(W.VBox().trait_names())
    assert isinstance(w, W.VBox) and isinstance(w, LinkageSession)


def test_the_session_has_all_but_the_view():
    s = LinkageSession()
    for name in BEFORE:
        if name != "canvas":
            assert hasattr(s, name), name
    for name in VIEW:
        assert not hasattr(s, name), name
    assert set(TRAITS) <= set(s.trait_names())


def test_the_faces():
    assert linkage_widget.LinkageWidget is LinkageWidget
    assert LinkageWidget.__module__ == "linkage_widget.widget.widget"
    w = LinkageWidget.load("peaucellier.txt")
    assert type(w) is LinkageWidget and w.linkage.n_vertices == 6


@pytest.mark.parametrize("name", ["mode", "tool"])
def test_choice_traits_name_their_choices(name):
    with pytest.raises(Exception, match=name):
        setattr(LinkageWidget(), name, "nonsense")


#: Public names added by issue 12 (motors, loads, forces, friction, tracks), on both faces.
DRIVES = [
    "add_force", "add_friction", "add_load", "add_motor", "loads", "motors", "remove_load",
    "remove_motor", "reverse_motors", "save_tracks_csv", "statics", "toggle_motors", "tracks",
]  # fmt: skip
DRIVE_TRAITS = ["load_size", "motors_running", "show_forces", "table_friction"]


@pytest.mark.parametrize("cls", [LinkageSession, LinkageWidget])
def test_the_drive_names_are_public(cls):
    obj = cls()
    missing = [name for name in DRIVES if not hasattr(obj, name)]
    assert not missing
    assert set(DRIVE_TRAITS) <= set(obj.trait_names())
