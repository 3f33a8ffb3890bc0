"""The actuation controller alone: values in (a Stage), values out (an Actuated), no session."""

import numpy as np
import pytest

from linkage_widget import Linkage
from linkage_widget.draw import Camera, ViewTransform
from linkage_widget.elements import Load, Motor
from linkage_widget.session import Drives
from linkage_widget.session.actuation import Actuated, Actuation, Stage
from linkage_widget.session.space_view import PlaneView, SpaceView


def stage(linkage=None, drives=None, viewer=None, **kwargs):
    linkage = linkage if linkage is not None else Linkage.load("four_bar.txt")
    values = dict(
        drives=drives if drives is not None else Drives(),
        linkage=linkage,
        viewer=viewer if viewer is not None else PlaneView(),
        view=ViewTransform.fit(linkage.vertices[:, :2], 640, 480),
        load_size=2.0,
        motors_running=False,
        versions=(0, 0),
        show_forces=True,
        dynamics=None,
        running=False,
    )
    return Stage(**{**values, **kwargs})


def test_an_edit_returns_new_drives_and_its_message_and_changes_nothing():
    act, st = Actuation(lambda: 0.0), stage()
    done = act.add_motor(st, 0, 2, 3.0)
    assert done == Actuated(Drives(motors=(Motor(0, 2, 3.0),)), "motor on rod 0-2 (o starts it)")
    assert st.drives == Drives()  # the stage is a value: nothing of it changed
    assert act.add_load(st, 3).drives.loads == (Load(3, 0.0, -2.0),)  # load_size down


def test_a_bad_edit_raises():
    act = Actuation(lambda: 0.0)
    with pytest.raises(ValueError, match="no rod"):
        act.add_motor(stage(), 0, 3)
    with pytest.raises(IndexError):
        act.add_load(stage(), 99)
    with pytest.raises(ValueError, match="no load"):
        act.remove_load(stage(), 3)


def test_toggling_without_a_motor_says_how_and_with_one_says_whether_they_run():
    act = Actuation(lambda: 0.0)
    assert act.toggle_motors(stage()).running is None
    running = stage(drives=Drives(motors=(Motor(0, 2, 1.0),)), motors_running=True)
    assert act.toggle_motors(running) == Actuated(message="motors off", running=False)


def test_in_space_motors_and_loads_are_refused():
    link = Linkage([[0, 0, 0], [1, 0, 0], [0, 1, 1]], rods=[(0, 1), (1, 2)], pinned=[0])
    st = stage(link, viewer=SpaceView(Camera.looking_at(link.vertices)))
    with pytest.raises(ValueError, match="planar"):
        Actuation(lambda: 0.0).add_motor(st, 0, 1)
    with pytest.raises(ValueError, match="planar"):
        Actuation(lambda: 0.0).key_toggle_motors(st)


def test_the_aimed_load_is_drawn_until_the_drag_ends():
    act, st = Actuation(lambda: 0.0), stage()
    x, y = st.view.to_pixel(st.linkage.vertices[3])
    assert act.aim_load(st, 3, x, y + 60.0) == Actuated()  # a redraw, nothing else
    assert act.shown_loads(st) == [(3, 0.0, -2.0)]
    done = act.set_load(st, 3, x, y + 60.0)
    assert act.load_aim is None and done.drives.loads == (Load(3, 0.0, -2.0),)


def test_the_statics_are_kept_by_versions_and_loads():
    act = Actuation(lambda: 0.0)
    st = stage(drives=Drives(loads=(Load(3, 0.0, -1.0),)))
    first = act.statics(st)
    assert act.statics(st) is first
    assert act.statics(stage(drives=st.drives, versions=(0, 1))) is not first
    forces, reactions, source = act.force_view(st)
    assert source == "statics" and np.allclose(forces, act.statics(st).rod_forces)
