"""The edit part's controllers on their own: values in, values out, no session (issue 23).

:class:`ViewKeeper`, :class:`AngleTool` and :class:`Exporter` keep their own state and
return what the session applies; :mod:`.merge` and :mod:`.joint_names` are functions.
"""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

from linkage_widget import Linkage
from linkage_widget.draw import ViewTransform
from linkage_widget.session import export_session, joint_angle, joint_names, keep_in_view, merge
from linkage_widget.session.joint_angle import AngleTool, toggle_joint_angle
from linkage_widget.session.keep_in_view import MARGIN_PX, ViewKeeper, inside

MODULES = [merge, keep_in_view, joint_angle, joint_names, export_session]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_a_controller_imports_neither_the_session_nor_its_traits(module) -> None:
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert not imported & {"session", "traits", ".session", ".traits"}


def test_the_view_keeper_returns_the_view_that_shows_the_moved_joints() -> None:
    view = ViewTransform.fit(np.array([[0.0, 0.0], [100.0, 100.0]]), 400, 300)
    places = np.array([[0.0, 0.0], [100.0, 100.0]])
    keeper = ViewKeeper(places)
    assert keeper.judge(places.copy(), view, enabled=True) is None  # nothing moved
    far = places + [5000.0, 0.0]
    shown = keeper.judge(far, view, enabled=True)
    assert shown is not None and inside(shown, far, MARGIN_PX).all()
    assert keeper.judge(far + 5000.0, view, enabled=False) is None  # switched off


def test_the_angle_tool_chooses_an_arm_then_names_the_angle() -> None:
    tool = AngleTool()
    first = tool.click(0, 1, 3)
    assert first.angle is None and "arm 0-1 chosen" in first.message
    assert tool.click(0, 2, 3).angle == (0, 1, 2)
    link = Linkage([[0, 0], [100, 0], [0, 100]])
    assert toggle_joint_angle(link, 0, 1, 2).endswith("fixed") and link.n_angles == 1
    assert toggle_joint_angle(link, 0, 2, 1).endswith("freed") and link.n_angles == 0


def test_max_step_bounds_a_kinematic_step_only() -> None:
    assert merge.bounded_step("kinematic", 3.0, 0.5) == 0.5
    assert merge.bounded_step("dynamic", 3.0, 0.5) == 3.0
    assert merge.step_slider_range("kinematic", 0.01)[:2] == (0.01, 0.01)


def test_a_merge_plan_places_the_file_and_refuses_a_mix_of_dimensions(tmp_path) -> None:
    path = tmp_path / "two.txt"
    Linkage([[0, 0], [10, 0]], rods=[(0, 1)]).save(path)
    current = Linkage([[0, 0], [20, 0], [0, 20]])
    plan = merge.plan_merge(path, current)
    assert plan.added == range(3, 5) and plan.offset[0] > 20.0
    assert merge.merged_message(path, plan, "").endswith("as joints 3-4")
    space = Linkage([[0, 0, 0], [1, 0, 0]])
    with pytest.raises(merge.MergeMismatch) as refused:
        merge.plan_merge(path, space)
    assert merge.merge_failure(path, refused.value).startswith(f"could not merge {path}")


def test_names_edit_ignores_trailing_unnamed_joints() -> None:
    assert not joint_names.names_edit(("A", ""), ("A",))
    assert joint_names.names_edit(("A", "B"), ("A",))


def test_the_exporter_says_how_its_job_ended(tmp_path) -> None:
    exporter = export_session.Exporter()
    assert exporter.state == "idle" and exporter.end() is None and not exporter.cancel(False)
    with pytest.raises(ValueError, match="format"):
        export_session.checked_format("mp4", False)
    with pytest.raises(RuntimeError):
        export_session.checked_format("gif", True)
    with pytest.raises(ValueError, match="nothing recorded"):
        export_session.recorded([])
    target = tmp_path / "missing-folder" / "a.gif"  # the writer fails: no such folder
    exporter.start("gif", ("not a scene",), target, 10.0, False, None)
    exporter.wait(60)
    end = exporter.end()
    assert end is not None and end.state == "failed" and end.error.startswith("export failed")
