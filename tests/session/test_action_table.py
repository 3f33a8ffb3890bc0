"""Actions are carried out through a table built once per session, not found by name."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import linkage_widget
from linkage_widget.examples.space import octahedron
from linkage_widget.session import LinkageSession
from linkage_widget.session.actions import ESCAPE
from linkage_widget.session.keymap import SHIFTED_KEYS, SIMPLE_KEYS
from linkage_widget.session.outcome import Outcome
from linkage_widget.session.tools import Action

PACKAGE = Path(linkage_widget.__file__).parent


def _kinds_in_the_package() -> set[str]:
    """Every literal kind of an ``Action("kind", ...)`` written in the package."""
    kinds = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Action":
                first = node.args[0] if node.args else None
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    kinds.add(first.value)
    return kinds


def test_every_kind_the_input_can_make_has_a_handler() -> None:
    table = LinkageSession()._actions
    made = _kinds_in_the_package() | set(SIMPLE_KEYS.values()) | set(SHIFTED_KEYS.values())
    missing = made - set(table) - {"error"}  # an error is raised, not handled
    assert not missing


def test_the_table_is_built_once_and_its_handlers_return_outcomes() -> None:
    s = LinkageSession()
    table = s._actions
    s.key("i")
    assert s._actions is table
    # the controller's handlers take the session's situation and return what changes
    assert table["escape"]() == Outcome(ESCAPE)
    shown = s.show_info
    assert table["toggle_info"]() == Outcome({"show_info": not shown})
    assert s.show_info is shown  # the handler changed nothing: _apply applies its outcome
    s._apply(Action("toggle_info"))
    assert s.show_info is not shown


def test_an_unknown_kind_is_not_looked_up_by_name() -> None:
    s = LinkageSession()
    with pytest.raises(KeyError):
        s._apply(Action("_frame"))  # a method of the session, but no action


def test_the_3d_overrides_are_the_ones_the_table_calls() -> None:
    s = LinkageSession(octahedron())
    s.run_action("toggle_motors")
    assert "planar" in s.error  # the space view's refusal, through the table
