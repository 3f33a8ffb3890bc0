"""The synthesis tool in the widget, without a browser (issue 28): key S and the tool chooser
show the thumbnails beside the canvas; a search draws them; a press on a thumbnail loads
that candidate (one undo step) and outlines it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from linkage_widget.draw.synthesis_layers import CELL_SIZE
from linkage_widget.kinematics import kinematics
from linkage_widget.model import Linkage
from linkage_widget.synthesis._four_bar import four_bar
from linkage_widget.widget import LinkageWidget
from linkage_widget.widget.synthesis_panel import SYNTHESIS_CSS_CLASS


@dataclass
class Candidate:
    linkage: Linkage
    coupler: int
    motor: tuple[int, int]
    error: float
    curve: np.ndarray
    angles: np.ndarray
    grashof: str = "crank-rocker"
    note: str = ""


def found(points: np.ndarray, *, kind: str, k: int) -> list[Candidate]:
    """Two four-bars, the second one scaled: a stand-in for path_synthesis (fast)."""
    out = []
    for s in (40.0, 30.0):
        pts = [(0.0, 0.0), (4.0, 0.0), (1.0, 1.0), (3.5, 3.0), (2.0, 3.0)]
        fb = four_bar(*(s * np.array(p) for p in pts))
        angles = np.pi / 4 + np.linspace(0.0, 2 * np.pi, 60)
        curve = kinematics(fb.linkage, 0, 2, angles).positions[:, 4]
        out.append(Candidate(fb.linkage, 4, (0, 2), s / 100, curve, angles))
    return out


@pytest.fixture
def w() -> Any:
    widget = LinkageWidget.load("four_bar.txt", width=500, height=360)
    widget.synthesis.search = found
    return widget


def row_of(w: Any) -> list[Any]:
    (row,) = [c for c in w.children if w.canvas in getattr(c, "children", ())]
    return list(row.children)


def test_key_s_shows_the_panel_and_a_search_draws_the_thumbnails(w: Any, monkeypatch: Any) -> None:
    from linkage_widget.widget import synthesis_panel

    seen: list[Any] = []
    real = synthesis_panel.draw_scene
    monkeypatch.setattr(
        synthesis_panel, "draw_scene", lambda c, pic, **kw: (seen.append(pic), real(c, pic, **kw))
    )
    view = w.synthesis_view
    assert view.box.layout.display == "none" and w.canvas in w.children
    w.key("S", shift=True)
    assert w.tool == "synthesis" and row_of(w) == [w.canvas, view.box]
    assert SYNTHESIS_CSS_CLASS in view.canvas._dom_classes
    assert "drag a curve" in view.title.value
    w.synthesize(found(None, kind="", k=0)[0].curve)
    assert "2 candidates" in view.title.value
    assert len(seen[-1].by_role("thumb-curve")) == 2
    w.key("S", shift=True)  # back to select: the candidates stay shown
    assert w.tool == "select" and view.box.layout.display != "none"


def test_a_press_on_a_thumbnail_loads_it(w: Any) -> None:
    w.tool = "synthesis"
    w.synthesize(found(None, kind="", k=0)[0].curve)
    before = w.document.snapshot()
    view = w.synthesis_view
    k = view.canvas.width / view.size[0]  # backing-store pixels per CSS pixel
    x, y = 1.5 * CELL_SIZE[0] * k, 0.5 * CELL_SIZE[1] * k  # the second cell
    view.canvas._handle_frontend_event(None, {"event": "mouse_down", "x": x, "y": y}, [])
    assert w.synthesis.chosen == 1 and not w.error
    np.testing.assert_allclose(w.linkage.vertices, w.synthesis.candidates[1].linkage.vertices)
    assert w.motors_running and w.tracked == (4,)
    assert view._drawn == (w.synthesis.version, 1)  # outlined
    w.undo()
    assert w.document.snapshot() == before


def test_the_cognates_button_shows_three_four_bars_of_the_loaded_curve(w: Any) -> None:
    w.tool = "synthesis"
    w.synthesize(found(None, kind="", k=0)[0].curve)
    assert w.choose_candidate(0), w.error  # the four-bar, its coupler point tracked
    view = w.synthesis_view
    view.cognates.click()
    assert w.error == ""
    assert len(w.synthesis.candidates) == 3 and w.synthesis.version == view._drawn[0]
    assert "Roberts–Chebyshev cognates" in w.scene().hint  # the hint line says so
    w.tracked = ()
    w.selected_vertex = None
    view.cognates.click()  # nothing to take the cognates of: said, nothing changed
    assert "coupler point" in w.error and len(w.synthesis.candidates) == 3
