"""Who owns what: the rules of issue 23, checked on the source (AST) and on the classes.

A feature is an object the facade holds, never a base class: no ``*Mixin`` class; the
session's and the simulator's private fields are each assigned in one module; only
``simulator.py`` assigns a simulator's positions, velocities, time and status; no
``__dict__`` writes, no traitlets ``_trait_values``, no ``getattr(self, "_…", default)``;
a controller in ``session/`` takes no session; ``widget/`` uses the session through its
public names and the view hooks; one class per name; classes under a line budget.

What is not met yet is stated, with the reason, and checked to be still true
(``SESSION_OVER_BUDGET``), so the statement flips when the work lands, never rots.
"""

from __future__ import annotations

import ast
import inspect
from collections import defaultdict
from pathlib import Path

import pytest

import linkage_widget
from linkage_widget import LinkageWidget, Simulator
from linkage_widget.session import LinkageSession

PACKAGE = Path(linkage_widget.__file__).resolve().parent

#: the documented view hooks: the only session methods ``widget/`` overrides or calls
#: although they start with an underscore (docs/architecture.md, session.py docstring)
VIEW_HOOKS = frozenset(
    {
        "_schedule_draw",
        "_pointer_input",
        "_start_animation",
        "_controls_changed",
        "_show",
        "_offer_file",
        "_show_panel",
        "_batch_drawing",
    }
)


#: the class budget of LinkageSession (800 with its in-package bases) is not met: no base
#: is left but SessionTraits, yet ~75 public names as thin delegates, the undo/edit core and
#: the one place each object's result is applied come to ~1,390 lines; the test checks it is
#: still over, so this flips when met
SESSION_OVER_BUDGET = True

BUDGET = {"LinkageSession": 800, "Simulator": 600}
OTHER_BUDGET = 500


def _trees() -> dict[Path, ast.Module]:
    return {p: ast.parse(p.read_text(encoding="utf-8")) for p in sorted(PACKAGE.rglob("*.py"))}


TREES = _trees()


def _rel(path: Path) -> str:
    return str(path.relative_to(PACKAGE.parent))


def _in_package(cls: type) -> bool:
    return cls.__module__.startswith("linkage_widget")


def test_no_mixin_classes():
    mixins = {
        node.name: _rel(path)
        for path, tree in TREES.items()
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef) and node.name.endswith("Mixin")
    }
    assert not mixins, f"mixin classes (a feature is an object the facade holds): {mixins}"


def test_the_session_has_no_in_package_base_but_its_traits():
    bases = [b.__name__ for b in LinkageSession.__bases__ if _in_package(b)]
    extra = [b for b in bases if b != "SessionTraits"]
    assert not extra, f"LinkageSession's in-package bases beyond SessionTraits: {extra}"


def test_a_method_is_defined_once_in_the_widget_mro():
    owners: dict[str, list[str]] = defaultdict(list)
    for cls in LinkageWidget.__mro__:
        if not _in_package(cls):
            continue
        for name, value in vars(cls).items():
            if inspect.isfunction(value) or isinstance(value, property | staticmethod):
                owners[name].append(cls.__name__)
    twice = {
        name: classes
        for name, classes in owners.items()
        if len(classes) > 1
        and not (name in VIEW_HOOKS and classes[0] == "LinkageWidget")
        and name not in {"__init__"}
    }
    assert not twice, f"methods defined more than once along LinkageWidget's MRO: {twice}"


def _assigned_names(target: ast.AST):
    """``self.<name>`` assigned by ``target`` itself (not ``self.x.y = …``, not ``self.x[k] = …``:
    those change an object the field holds, they do not assign the field)."""
    if isinstance(target, ast.Tuple | ast.List):
        for elt in target.elts:
            yield from _assigned_names(elt)
    elif isinstance(target, ast.Starred):
        yield from _assigned_names(target.value)
    elif (
        isinstance(target, ast.Attribute)
        and isinstance(target.value, ast.Name)
        and target.value.id == "self"
    ):
        yield target.attr


def _self_assignments(tree: ast.AST, attr_test) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        for t in targets:
            names |= {n for n in _assigned_names(t) if attr_test(n)}
    return names


def _class_modules(cls: type) -> set[Path]:
    return {Path(inspect.getsourcefile(c)).resolve() for c in cls.__mro__ if _in_package(c)}


@pytest.mark.parametrize("facade", [LinkageSession, Simulator], ids=lambda c: c.__name__)
def test_each_private_field_is_assigned_in_one_module(facade):
    where: dict[str, set[str]] = defaultdict(set)
    for path in _class_modules(facade):
        for name in _self_assignments(TREES[path], lambda a: a.startswith("_")):
            where[name].add(_rel(path))
    spread = {n: sorted(m) for n, m in where.items() if len(m) > 1}
    assert not spread, f"{facade.__name__}: private fields assigned in several modules: {spread}"


def test_only_simulator_py_assigns_the_simulators_state():
    state = {"positions", "velocities", "time", "status", "_positions", "_velocities"}
    state |= {"_time", "_status"}
    outside = {
        _rel(path): sorted(names)
        for path, tree in TREES.items()
        if path.parent.name == "motion" and path.name != "simulator.py"
        for names in [_self_assignments(tree, lambda a: a in state)]
        if names
    }
    assert not outside, f"motion/ modules besides simulator.py assign the state: {outside}"


def _source_hits(pattern_test) -> list[str]:
    hits = []
    for path, tree in TREES.items():
        for node in ast.walk(tree):
            hit = pattern_test(node)
            if hit:
                hits.append(f"{_rel(path)}:{node.lineno}: {hit}")
    return hits


def _dict_or_trait_values(node: ast.AST) -> str | None:
    if isinstance(node, ast.Attribute) and node.attr in {"__dict__", "_trait_values"}:
        return node.attr
    return None


def _getattr_private_default(node: ast.AST) -> str | None:
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in {"getattr", "hasattr"}
        and len(node.args) >= 2
        and isinstance(node.args[0], ast.Name)
        and node.args[0].id == "self"
        and isinstance(node.args[1], ast.Constant)
        and str(node.args[1].value).startswith("_")
    ):
        return f"{node.func.id}(self, {node.args[1].value!r})"
    return None


def test_no_state_tricks():
    hits = _source_hits(_dict_or_trait_values) + _source_hits(_getattr_private_default)
    assert not hits, "state created behind the class's back:\n" + "\n".join(hits)


#: modules of ``session/`` that are clients of the session, not parts of it: functions
#: over its public names (the face exports them), so they may import session.py
SESSION_CLIENTS = frozenset({"__init__.py", "document_file.py", "replay.py"})


def test_controllers_take_no_session():
    bad = []
    for path, tree in TREES.items():
        if path.parent.name != "session" or path.name in SESSION_CLIENTS | {"session.py"}:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module == "session":
                bad.append(f"{_rel(path)}:{node.lineno}: imports session.py")
            if isinstance(node, ast.FunctionDef) and node.name == "__init__":
                names = [a.arg for a in node.args.args + node.args.kwonlyargs]
                if "session" in names:
                    bad.append(f"{_rel(path)}:{node.lineno}: __init__ takes a session")
    assert not bad, "\n".join(bad)


def test_session_clients_use_public_names():
    hits = []
    for path, tree in TREES.items():
        if path.parent.name == "session" and path.name in SESSION_CLIENTS:
            for node in ast.walk(tree):
                if (
                    isinstance(node, ast.Attribute)
                    and isinstance(node.value, ast.Name)
                    and node.value.id == "session"
                    and node.attr.startswith("_")
                ):
                    hits.append(f"{_rel(path)}:{node.lineno}: session.{node.attr}")
    assert not hits, "\n".join(hits)


def _session_private_names() -> set[str]:
    names = set()
    for cls in LinkageSession.__mro__:
        if _in_package(cls):
            names |= {n for n in vars(cls) if n.startswith("_") and not n.startswith("__")}
    for path in _class_modules(LinkageSession):
        names |= _self_assignments(TREES[path], lambda a: a.startswith("_"))
    return names - VIEW_HOOKS


def test_the_widget_uses_public_session_names():
    """A private session name in ``widget/`` is a reach into the session, unless the same
    module defines it (``loop.FrameLoop``'s own ``_frame`` is not the session's)."""
    private = _session_private_names()
    hits = []
    for path, tree in TREES.items():
        if path.parent.name != "widget":
            continue
        own = {
            node.name
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        }
        assigned = _self_assignments(tree, lambda a: a.startswith("_"))
        if path.name == "widget.py":  # LinkageWidget *is* the session: a session field it
            assigned -= private  # assigns stays the session's (it overrides hooks only)
        own |= assigned
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in private - own:
                hits.append(f"{_rel(path)}:{node.lineno}: {node.attr}")
    assert not hits, "widget/ reaches into session internals:\n" + "\n".join(hits)


def test_one_class_per_name():
    where: dict[str, list[str]] = defaultdict(list)
    for path, tree in TREES.items():
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                where[node.name].append(_rel(path))
    twice = {n: p for n, p in where.items() if len(p) > 1}
    assert not twice, f"one name, several classes: {twice}"


def _class_lines(cls: type) -> int:
    lines, _ = inspect.getsourcelines(cls)
    return len(lines)


def _all_classes() -> dict[tuple[Path, str], int]:
    seen = {}
    for path, tree in TREES.items():
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                seen[(path, node.name)] = node.end_lineno - node.lineno + 1
    return seen


def _facade_lines(facade: type) -> int:
    return sum(_class_lines(c) for c in facade.__mro__ if _in_package(c))


def test_the_simulator_stays_under_its_budget():
    assert _facade_lines(Simulator) <= BUDGET["Simulator"]


def test_the_session_budget_is_stated_honestly():
    lines = _facade_lines(LinkageSession)
    over = lines > BUDGET["LinkageSession"]
    assert over == SESSION_OVER_BUDGET, (
        f"LinkageSession with its in-package bases: {lines} lines (budget "
        f"{BUDGET['LinkageSession']}); set SESSION_OVER_BUDGET = {over}"
    )


def test_other_classes_stay_under_their_line_budget():
    over = [
        f"{_rel(path)}: {name}: {n} lines"
        for (path, name), n in _all_classes().items()
        if name not in BUDGET and n > OTHER_BUDGET
    ]
    assert not over, "classes over budget:\n" + "\n".join(over)


def test_no_type_ignores_without_a_type_checker():
    """No type checker runs in ``make test`` (``make typecheck`` runs mypy, off: its errors
    are not worked through yet), so a ``type: ignore`` would silence nothing."""
    marker = "type: " + "ignore"
    hits = [
        f"{_rel(path)}:{n}"
        for path in TREES
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if marker in line
    ]
    assert not hits, f"{marker} without a checker to tell: {hits}"
