"""A headless session at a singular placement: numbered arrows, a plain-words hint, and the
student's pick (number key or click on an arrow) continuing the motion on that branch.

Which branch the linkage is on afterwards is read off distances: the parallelogram law
for the parallelogram, Ptolemy's equality for the antiparallelogram (crossed) branch.
"""

import numpy as np
import pytest

from linkage_widget import Linkage
from linkage_widget.draw.primitives import Arrows, Texts
from linkage_widget.session import LinkageSession


def parallelogram(angle: float = 1.0) -> Linkage:
    """Ground 0-3 = 2 (pinned), crank 0-1 = rocker 3-2 = 1, coupler 1-2 = 2."""
    c, s = np.cos(angle), np.sin(angle)
    return Linkage(
        [[0.0, 0.0], [c, s], [2.0 + c, s], [2.0, 0.0]],
        rods=[(0, 1), (1, 2), (2, 3)],
        pinned=[0, 3],
    )


def branch_kind(p: np.ndarray) -> str:
    a, b = np.linalg.norm(p[0] - p[2]), np.linalg.norm(p[1] - p[3])
    if abs(a * a + b * b - 10.0) < 1e-9:
        return "parallelogram"
    if abs(a * b - 3.0) < 1e-9:
        return "antiparallelogram"
    return "neither"


def drag_to_flat(s: LinkageSession) -> None:
    """Press on the crank tip and drag it down through the flat placement (kept pressed)."""
    x, y = s.view.to_pixel(s.linkage.vertices[1])
    tx, ty = s.view.to_pixel(np.array([1.0, -2.0]))
    s.press(x, y)
    for i in range(1, 11):
        s.drag(x + (tx - x) * i / 10, y + (ty - y) * i / 10)
    s.advance(60)


def arrows_and_labels(s: LinkageSession) -> tuple[Arrows, Texts]:
    scene = s.scene()
    (arrows,) = scene.by_role("branches")
    (labels,) = scene.by_role("branch-labels")
    assert isinstance(arrows, Arrows) and isinstance(labels, Texts)
    return arrows, labels


def test_a_drag_stops_at_the_flat_parallelogram_and_says_what_to_do():
    s = LinkageSession(parallelogram(), width=600, height=400)
    drag_to_flat(s)
    assert s.status == "singular"
    assert np.max(np.abs(s.linkage.vertices[:, 1])) < 1e-9
    hint = s.scene().hint
    assert hint == "singular placement: 2 ways on — pick an arrow or press 1-4"
    arrows, labels = arrows_and_labels(s)
    assert len(arrows) == 4 and labels.texts == ("1", "2", "3", "4")
    # both senses of each line: arrows 1 and 2 (3 and 4) point opposite ways
    v = arrows.tips - arrows.tails
    assert np.allclose(v[0], -v[1]) and np.allclose(v[2], -v[3])
    frozen = s.linkage.vertices.copy()
    s.advance(5)  # it waits for the student
    assert s.status == "singular" and np.array_equal(s.linkage.vertices, frozen)


@pytest.mark.parametrize("key", ["1", "2", "3", "4"])
def test_a_number_key_continues_the_drag_along_that_way(key):
    s = LinkageSession(parallelogram(), width=600, height=400)
    drag_to_flat(s)
    s.key(key)
    assert s.status == "moved"
    s.advance(40)
    p = s.linkage.vertices
    kinds = {branch_kind(p)}
    assert kinds <= {"parallelogram", "antiparallelogram"}
    # the scene's own numbering: ways 1-2 are one line, 3-4 the other
    s.release()
    assert len(s.scene().by_role("branches")) == 0  # arrows gone once it moved on
    assert s.linkage.vertices[1, 1] < -0.1  # the drag went on toward the pointer


def test_keys_1_and_3_are_the_two_different_branches():
    kinds = set()
    for key in ("1", "3"):
        s = LinkageSession(parallelogram(), width=600, height=400)
        drag_to_flat(s)
        s.key(key)
        s.advance(40)
        kinds.add(branch_kind(s.linkage.vertices))
    assert kinds == {"parallelogram", "antiparallelogram"}


def test_clicking_an_arrow_follows_it_and_the_next_drag_goes_on_from_there():
    s = LinkageSession(parallelogram(), width=600, height=400)
    drag_to_flat(s)
    s.release()  # let go: the stop stays, with its arrows
    s.advance(2)
    assert s.status == "singular"
    arrows, labels = arrows_and_labels(s)
    tip = arrows.tips[labels.texts.index("3")]
    s.press(*tip)
    s.release(*tip)
    assert s.status == "moved" and s.linkage.n_vertices == 4  # no vertex was added
    assert np.max(np.abs(s.linkage.vertices[:, 1])) > 1e-3  # off the flat placement
    kind = branch_kind(s.linkage.vertices)
    assert kind in ("parallelogram", "antiparallelogram")
    # drag the crank tip on, away from the flat placement: it stays on that branch
    x, y = s.view.to_pixel(s.linkage.vertices[1])
    side = np.sign(s.linkage.vertices[1, 1])
    tx, ty = s.view.to_pixel(np.array([0.0, 2.0 * side]))
    s.press(x, y)
    for i in range(1, 11):
        s.drag(x + (tx - x) * i / 10, y + (ty - y) * i / 10)
    s.advance(60)
    s.release()
    assert branch_kind(s.linkage.vertices) == kind
    assert abs(s.linkage.vertices[1, 1]) > 0.5


def test_a_number_key_elsewhere_only_says_what_it_is_for():
    s = LinkageSession(parallelogram(), width=600, height=400)
    before = s.linkage.vertices.copy()
    s.key("2")
    assert np.array_equal(s.linkage.vertices, before)
    hint = s.scene().hint
    assert "singular placement" in hint and s.error == ""


def test_a_falling_parallelogram_stops_flat_in_dynamic_mode_and_goes_on_when_picked():
    kinds = set()
    for key in ("1", "4"):
        s = LinkageSession(parallelogram(0.8), width=600, height=400, mode="dynamic", gravity=9.81)
        s.key(" ")  # start the motion
        for _ in range(200):
            s.advance(1)
            if s.status == "singular":
                break
        assert s.status == "singular"
        assert np.max(np.abs(s.linkage.vertices[:, 1])) < 1e-9
        s.key(key)
        s.advance(20)
        assert s.status == "moved" and s.simulator.kinetic_energy() > 0.1  # it kept its energy
        kinds.add(branch_kind(s.linkage.vertices))
    assert kinds == {"parallelogram", "antiparallelogram"}
