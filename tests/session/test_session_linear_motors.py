"""Linear motors and friction along a slide in the session (issue 25: the widget's part).

The motor tool on a sliding joint (or its slider's track) puts a linear motor on the
slider, run by the same motors key/button; undo, delete and clear handle it; the JSON
sibling keeps it (``linear_motors``, ``slider_frictions``, version 3) and refuses a
slider index out of range.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from linkage_widget import Linkage
from linkage_widget.elements import LinearMotor, SliderFriction
from linkage_widget.errors import LinkageFormatError
from linkage_widget.io import Extensions
from linkage_widget.session import LinkageSession


def slider_crank() -> Linkage:
    """Crank 0-1 (length 1) about the pinned 0, rod 1-2 (length 3), piston 2 on y = 0."""
    link = Linkage([[0.0, 0.0], [0.0, 1.0], [np.sqrt(8.0), 0.0]], rods=[(0, 1), (1, 2)], pinned=[0])
    link.add_slider(2, (1.0, 0.0))
    return link


def px(s: LinkageSession, world) -> tuple[float, float]:
    x, y = s.view.to_pixel(np.asarray(world, dtype=np.float64))
    return float(x), float(y)


def click(s: LinkageSession, at) -> None:
    s.press(*at)
    s.release()


def test_the_motor_tool_on_the_piston_adds_a_linear_motor_that_the_motors_key_runs():
    s = LinkageSession(slider_crank(), step_size=0.05)  # 10 frames: 0.5 of the 1.17 to go
    s.tool = "motor"
    click(s, px(s, s.linkage.vertices[2]))
    assert s.error == "" and s.motors == ()
    assert s.document.drives.linear_motors == (LinearMotor(0, 1.0),)
    assert "linear motor on slider 0" in s.scene().hint
    x0 = float(s.linkage.vertices[2, 0])
    assert s.toggle_motors() and s.motors_driving
    s.advance(10)
    p = s.linkage.vertices
    assert abs(p[2, 1]) < 1e-9  # the piston stays on its line
    assert p[2, 0] > x0 + 1e-3  # pushed along +x (speed > 0)
    assert np.hypot(*(p[1] - p[0])) == pytest.approx(1.0, abs=1e-9)
    assert np.hypot(*(p[2] - p[1])) == pytest.approx(3.0, abs=1e-9)
    assert "motors: 1 running" in "\n".join(s.drive_lines())


def test_the_linear_motor_is_drawn_as_an_arrow_along_the_track_the_way_it_pushes():
    from linkage_widget.draw.primitives import Arrows

    s = LinkageSession(slider_crank())
    s.add_linear_motor(0, -1.0)
    (arrow,) = [p for p in s.scene().items if isinstance(p, Arrows) and p.role == "motors"]
    piston = np.array(px(s, s.linkage.vertices[2]))
    tail, tip = arrow.shafts[0]
    assert tip[0] < tail[0] < piston[0]  # pushing -x: leftward, from the block
    assert tail[1] == pytest.approx(piston[1]) and tip[1] == pytest.approx(piston[1])


def test_the_motor_tool_on_a_joint_that_does_not_slide_still_selects_it():
    s = LinkageSession(slider_crank())
    s.tool = "motor"
    click(s, px(s, s.linkage.vertices[1]))
    assert s.selected_vertex == 1 and s.document.drives.linear_motors == ()


def test_reverse_undo_delete_and_clear_handle_the_linear_motor():
    s = LinkageSession(slider_crank())
    assert s.add_linear_motor(0, 0.5) == 0
    s.reverse_motors()
    assert s.document.drives.linear_motors == (LinearMotor(0, -0.5),)
    assert s.undo() and s.document.drives.linear_motors == (LinearMotor(0, 0.5),)
    s.tool = "slider"
    click(s, px(s, s.linkage.vertices[2]))  # the slider goes: its motor with it
    assert s.linkage.sliders == () and s.document.drives.linear_motors == ()
    assert s.undo() and s.document.drives.linear_motors == (LinearMotor(0, 0.5),)
    s.tool = "delete"
    click(s, px(s, s.linkage.vertices[0]))  # the crank's pivot goes: joint 2 is joint 1 now
    (slider,) = s.linkage.sliders
    assert slider.joint == 1 and s.document.drives.linear_motors == (LinearMotor(0, 0.5),)
    s.tool = "delete"
    click(s, px(s, s.linkage.vertices[1]))  # the piston goes: its slider and motor with it
    assert s.linkage.sliders == () and s.document.drives.linear_motors == ()
    assert s.undo() and s.document.drives.linear_motors == (LinearMotor(0, 0.5),)
    s.key("c")  # clear: everything goes, the linear motor too; undo brings it back
    assert s.linkage.n_vertices == 0 and s.document.drives.linear_motors == ()
    assert s.undo() and s.document.drives.linear_motors == (LinearMotor(0, 0.5),)


def test_bad_linear_motors_and_slider_frictions_raise_and_change_nothing():
    s = LinkageSession(slider_crank())
    with pytest.raises(IndexError, match="slider 3 out of range"):
        s.add_linear_motor(3)
    with pytest.raises(ValueError, match="speed"):
        s.add_linear_motor(0, float("nan"))
    with pytest.raises(ValueError, match="mu_s"):
        s.add_slider_friction(0, 0.3, mu_s=0.1)
    assert s.document.drives.is_empty() and not s.history.can_undo


def test_linear_motors_and_slider_friction_are_saved_and_loaded_back(tmp_path):
    s = LinkageSession(slider_crank())
    s.add_linear_motor(0, -0.25)
    s.add_slider_friction(0, 0.2, mu_s=0.3, sigma=0.1)
    path = tmp_path / "piston.txt"
    s.save(path)
    data = json.loads((tmp_path / "piston.txt.json").read_text())
    assert data["linkage_widget_extensions"] == 3
    assert data["linear_motors"] == [{"slider": 0, "speed": -0.25}]
    assert data["slider_frictions"][0]["mu_s"] == 0.3
    back = LinkageSession.load(path)
    assert back.document.drives.linear_motors == (LinearMotor(0, -0.25),)
    assert back.document.drives.slider_frictions == (SliderFriction(0, 0.2, 0.3, None, 0.1),)


@pytest.mark.parametrize(
    ("entry", "match"),
    [
        ({"linear_motors": [{"slider": 1, "speed": 1.0}]}, "slider 1 out of range"),
        ({"slider_frictions": [{"slider": -1, "mu_k": 0.1}]}, "slider"),
        ({"linear_motors": [{"slider": 0, "speed": 1.0}] * 2}, "linear_motors: slider 0 has two"),
        ({"slider_frictions": [{"slider": 0, "mu_k": 0.1}] * 2}, "slider_frictions: slider 0 has"),
        ({"slider_frictions": [{"slider": 0, "mu_k": 0.1, "foo": 1}]}, "unknown key 'foo'"),
        ({"linear_motors": [{"slider": 0}], "linkage_widget_extensions": 2}, "version 3"),
    ],
)
def test_the_sibling_checks_the_slider_of_each_entry(entry, match):
    data = {
        "linkage_widget_extensions": 3,
        "sliders": [{"joint": 2, "point": [0.0, 0.0], "direction": [1.0, 0.0]}],
        **entry,
    }
    with pytest.raises(LinkageFormatError, match=match):
        Extensions.from_json(json.dumps(data), n_vertices=3)


def test_slider_friction_slows_a_joint_sliding_down_an_incline_by_coulomb_law():
    """On a 45 degree line under gravity: a = g (sin - mu cos) = (1 - mu) of the free one."""

    def slid(friction: bool) -> float:
        link = Linkage([[0.0, 0.0], [5.0, 5.0]], rods=[])
        link.add_slider(0, (1.0, 1.0))
        s = LinkageSession(link, mode="dynamic", gravity=1.0)
        if friction:
            s.add_slider_friction(0, 0.5)
        sim = s.driver.current(s._setup())
        sim.step(200)
        return float(np.hypot(*sim.positions[0]))

    free, rubbed = slid(False), slid(True)
    assert free > 0.1
    assert rubbed / free == pytest.approx(0.5, rel=0.05)


def test_a_merged_file_s_linear_motor_is_not_merged_and_the_message_says_so():
    from linkage_widget.session.document import Document

    doc = Document(slider_crank())
    ext = Extensions(sliders=((2, (0.0, 0.0), (1.0, 0.0)),), linear_motors=(LinearMotor(0),))
    said = doc.merge(slider_crank(), ext, (10.0, 0.0))
    assert "not merged" in said and doc.drives.linear_motors == ()
    assert len(doc.linkage.sliders) == 2


def test_the_json_document_of_a_session_keeps_the_linear_motor_and_the_friction(tmp_path):
    from linkage_widget.session.document_file import load_document, save_document

    s = LinkageSession(slider_crank())
    s.add_linear_motor(0, 0.75)
    s.add_slider_friction(0, 0.1)
    path = save_document(s, tmp_path / "piston.json")
    back = LinkageSession()
    assert load_document(back, path) is True
    assert back.document.drives.linear_motors == (LinearMotor(0, 0.75),)
    assert back.document.drives.slider_frictions == (SliderFriction(0, 0.1),)


def test_the_readout_gives_the_linear_motor_s_force_in_dynamic_mode():
    """A rod held upright on a vertical slider, pushed up at constant speed: F = M g."""
    link = Linkage([[0.0, 0.0], [0.0, 3.0]], rods=[(0, 1)])
    link.add_slider(0, (0.0, 1.0))
    s = LinkageSession(link, mode="dynamic", gravity=2.0)
    s.add_linear_motor(0, 0.1)
    s.toggle_motors()
    s.running = True
    s.advance(30)
    sim = s.driver.simulator
    assert s.linkage.vertices[0, 1] > 0.04  # it rose
    assert sim.constraint_forces.pushes[0] == pytest.approx(2.0 * sim.total_mass, rel=1e-9)
    line = f"linear motor forces (along the line): {2.0 * sim.total_mass:.4g}"
    assert line in s.drive_lines()


def test_the_session_lists_and_removes_linear_motors_and_takes_numpy_indices():
    """Review: no way to list or remove them; ``np.int64(0)`` was refused as out of range."""
    s = LinkageSession(slider_crank())
    assert s.add_linear_motor(np.int64(0), speed=0.5) == 0
    assert s.linear_motors == (LinearMotor(0, 0.5),)
    s.remove_linear_motor(0)
    assert s.linear_motors == ()
    assert s.undo() and s.linear_motors == (LinearMotor(0, 0.5),)
    with pytest.raises(IndexError):
        s.remove_linear_motor(3)


def test_a_save_leaves_out_a_drive_whose_slider_the_model_lost_and_the_file_loads(tmp_path):
    """Review: a motor on a slider removed in code was saved and the file would not load."""
    s = LinkageSession(slider_crank())
    s.add_linear_motor(0)
    s.add_slider_friction(0, 0.2)
    s.linkage.remove_guide("slider", 0)  # the model edited in code, past the session
    path = s.save(tmp_path / "cut.txt")
    back = LinkageSession.load(path)
    assert back.document.drives.linear_motors == () and back.linkage.sliders == ()
