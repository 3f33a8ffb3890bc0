"""Dragging (the kinematic pull the widget's drag runs) with cables and struts.

A joint tied to a pinned anchor by one cable only: pulled toward the anchor it goes
there (the cable goes slack); pulled away it stops where the cable is taut, at the
cable's length, and slides on that circle to the point nearest the target (the
closest point of a disc: ``L t / |t|``, worked by hand). A strut the other way round.
"""

from __future__ import annotations

import numpy as np
import pytest

from linkage_widget import Linkage
from linkage_widget.motion import Simulator


def _pulled(sim: Simulator, joint: int, target: tuple[float, ...], steps: int = 300) -> float:
    """Pull ``joint`` toward ``target``; the largest distance to the origin on the way."""
    sim.attract(joint, target)
    far = 0.0
    for _ in range(steps):
        sim.step()
        far = max(far, float(np.linalg.norm(sim.positions[joint])))
        if sim.status in ("reached target", "blocked"):
            break
    return far


def test_drag_toward_the_anchor_lets_the_cable_go_slack() -> None:
    sim = Simulator(Linkage([[0.0, 0.0], [1.0, 0.0]], cables=[(0, 1)], pinned=[0]), step_size=0.05)
    _pulled(sim, 1, (0.3, 0.2))
    assert sim.status == "reached target"
    np.testing.assert_allclose(sim.positions[1], [0.3, 0.2], atol=1e-8)
    assert sim.constraint_error() == 0.0  # a slack cable is no error


@pytest.mark.parametrize("target", [(3.0, 0.0), (2.0, 2.0), (-1.0, 3.0)])
def test_drag_away_stops_at_the_cable_length(target: tuple[float, float]) -> None:
    sim = Simulator(Linkage([[0.0, 0.0], [1.0, 0.0]], cables=[(0, 1)], pinned=[0]), step_size=0.05)
    _pulled(sim, 1, (0.3, 0.2))  # slack first: the cable becomes taut on the way out
    far = _pulled(sim, 1, target, steps=600)
    assert far <= 1.0 + 1e-12  # never longer than the cable
    nearest = np.asarray(target) / np.linalg.norm(target)
    np.testing.assert_allclose(sim.positions[1], nearest, atol=1e-4)
    assert np.linalg.norm(sim.positions[1]) == pytest.approx(1.0, abs=1e-12)
    assert sim.status == "blocked"


def test_drag_a_strut_in_stops_at_its_length_and_out_is_free() -> None:
    sim = Simulator(Linkage([[0.0, 0.0], [1.0, 0.0]], struts=[(0, 1)], pinned=[0]), step_size=0.05)
    _pulled(sim, 1, (3.0, 1.0))
    assert sim.status == "reached target"  # lengthening a strut: free
    sim.attract(1, (0.1, 0.0))
    near = np.inf
    for _ in range(600):
        sim.step()
        near = min(near, float(np.linalg.norm(sim.positions[1])))
        if sim.status == "blocked":
            break
    assert near >= 1.0 - 1e-12  # never shorter than the strut
    np.testing.assert_allclose(sim.positions[1], [1.0, 0.0], atol=1e-4)


def test_the_widget_drag_lets_a_cable_go_slack_and_stops_at_it() -> None:
    # The session's drag runs the kinematic pull: no change on the session's side.
    from linkage_widget.session import LinkageSession

    link = Linkage([[0.0, 0.0], [100.0, 0.0]], cables=[(0, 1)], pinned=[0])
    s = LinkageSession(link, width=600, height=400)

    def drag_to(xy: tuple[float, float]) -> None:
        x, y = s.view.to_pixel(s.linkage.vertices[1].copy())
        tx, ty = s.view.to_pixel(np.array(xy))
        s.press(x, y)
        for i in range(1, 11):
            s.drag(x + (tx - x) * i / 10, y + (ty - y) * i / 10)
            s.advance(5)
        s.advance(60)
        s.release()

    drag_to((30.0, 20.0))
    np.testing.assert_allclose(s.linkage.vertices[1], [30.0, 20.0], atol=1.0)  # slack
    drag_to((160.0, 0.0))
    assert np.linalg.norm(s.linkage.vertices[1]) == pytest.approx(100.0, rel=1e-12)
    assert s.linkage.vertices[1][0] > 99.0  # stopped at the cable's length, toward the pointer


def test_drag_in_space_stops_at_the_cable_length() -> None:
    link = Linkage([[0.0, 0.0, 0.0], [0.0, 0.0, -1.0]], cables=[(0, 1)], pinned=[0])
    sim = Simulator(link, step_size=0.05)
    _pulled(sim, 1, (0.2, 0.1, -0.3))
    np.testing.assert_allclose(sim.positions[1], [0.2, 0.1, -0.3], atol=1e-8)
    far = _pulled(sim, 1, (0.0, 3.0, 0.0), steps=600)
    assert far <= 1.0 + 1e-12
    np.testing.assert_allclose(sim.positions[1], [0.0, 1.0, 0.0], atol=1e-4)
