"""The configuration panel on 3-D linkages (issue 24 item 1), headless, public names only.

Bennett's linkage with its ground link pinned is charted as a curve in two hinge angles;
the panel draws it, and its point moves along the curve when a joint is pulled. The
references: Bennett's closed form :math:`\\tan\\frac{\\theta}{2}\\tan\\frac{\\varphi}{2} =
\\sin\\frac{\\beta+\\alpha}{2} / \\sin\\frac{\\beta-\\alpha}{2}` checked on the placement the
drag reached, and the rod lengths.
"""

from __future__ import annotations

import numpy as np
import pytest

from linkage_widget.draw.angle_charts import AnglePlot
from linkage_widget.examples import space
from linkage_widget.session import LinkageSession

ALPHA, BETA = np.radians(45.0), np.radians(75.0)
RATIO = np.sin((BETA + ALPHA) / 2) / np.sin((BETA - ALPHA) / 2)


class Recording(LinkageSession):
    """A session that keeps what its panel hook was given (the widget's hook, headless)."""

    def _show_panel(self, static, dynamic):
        self.shown = [*getattr(self, "shown", []), (static, dynamic)]


def hinge_angle(p, i):
    """Bennett's DH angle at hinge ``i`` of one placement ``(8, 3)``, by hand."""
    u = p[2 * i + 1] - p[2 * i]
    u = u / np.linalg.norm(u)
    a, b = p[2 * i] - p[2 * (i - 1) % 8], p[2 * (i + 1) % 8] - p[2 * i]
    a, b = a - (a @ u) * u, b - (b @ u) * u
    return np.arctan2(np.cross(a, b) @ u, a @ b)


def test_bennett_pinned_is_charted_and_drawn_as_a_curve_in_hinge_angles():
    s = Recording(space.bennett_linkage(ground=True), show_configuration=True)
    assert s.configuration_message == ""
    assert s.configuration_kind == "curve"
    static, dynamic = s.shown[-1]
    assert static.by_role("branch-0")  # the curve is drawn
    names = " ".join(t for item in static.by_role("axis-labels") for t in item.texts)
    assert "dihedral at rod 0–1" in names and "dihedral at rod 6–7" in names
    (point,) = dynamic.by_role("point")
    assert np.allclose(point.centers[0], s.configuration_point_px)


def test_pulling_a_joint_of_bennett_moves_the_point_along_the_curve():
    s = Recording(space.bennett_linkage(ground=True), show_configuration=True)
    link = s.linkage
    lengths = link.rod_lengths().copy()
    before, before_px = s.configuration_point, s.configuration_point_px
    pixels, depth = s.joint_pixels()
    v = max((2, 3, 4, 5), key=lambda i: depth[i])  # a free joint in front
    x0, y0 = pixels[v]
    s.press(x0, y0)
    for k in range(1, 16):
        s.drag(x0 + 4 * k, y0 + 3 * k)
        s.advance(1)
    s.release()
    s.advance(2)
    assert np.abs(s.linkage.rod_lengths() - lengths).max() < 1e-8 * lengths.max()
    after = s.configuration_point
    assert np.abs(np.angle(np.exp(1j * (np.array(after) - before)))).max() > 0.05
    assert np.hypot(*np.subtract(s.configuration_point_px, before_px)) > 2.0
    (point,) = s.shown[-1][1].by_role("point")
    assert np.allclose(point.centers[0], s.configuration_point_px)
    p = s.linkage.vertices  # the new placement is Bennett's: on the closed-form curve
    assert np.tan(hinge_angle(p, 0) / 2) * np.tan(hinge_angle(p, 1) / 2) == pytest.approx(
        RATIO, rel=1e-6
    )
    curve = np.concatenate([b.angles for b in s.configuration_chart.curve.branches])
    gap = np.angle(np.exp(1j * (curve - np.array(after))))
    assert np.sqrt((gap**2).sum(-1)).min() < 0.05  # the point lies on the drawn curve


def test_a_free_bennett_is_told_what_holds_a_linkage_in_space():
    s = Recording(space.bennett_linkage(), show_configuration=True)
    assert s.configuration_kind == "none"
    assert "three joints not on one line" in s.configuration_message
    assert "reshape" not in s.configuration_message
    (msg,) = s.shown[-1][0].by_role("message")
    assert " ".join(msg.texts).split() == s.configuration_message.split()


def test_a_click_on_bennetts_curve_moves_the_linkage_there_through_its_motion():
    s = Recording(space.bennett_linkage(ground=True), show_configuration=True)
    rest = s.linkage.rod_lengths().copy()
    start = s.linkage.vertices.copy()
    target = s.configuration_chart.curve.branches[0].angles[40]
    x, y = AnglePlot.fit(*s.panel_size).to_pixel(target)
    s.panel_press(x, y)
    s.panel_release(x, y)
    frames, previous = 0, start
    while s.panel_animating and frames < 200:
        s.advance()
        frames += 1
        assert np.allclose(s.linkage.rod_lengths(), rest, rtol=1e-6)
        assert np.abs(s.linkage.vertices - previous).max() < 0.2 * rest.max()  # no jump
        previous = s.linkage.vertices.copy()
    assert frames > 3
    gap = np.angle(np.exp(1j * (np.array(s.configuration_point) - target)))
    assert np.abs(gap).max() < 0.02
    assert s.undo() and np.allclose(s.linkage.vertices, start)
