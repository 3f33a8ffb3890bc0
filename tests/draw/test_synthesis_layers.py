"""The synthesis tool's pixels (issue 28): the target curve dashed under the tracks, the
candidates as small multiples (one cell each, on its own scale, captioned with the error and
the Grashof class), and which cell a pixel of the sheet is in."""

from __future__ import annotations

import numpy as np

from linkage_widget.draw import SceneState, ViewTransform, build_scene
from linkage_widget.draw.synthesis_layers import (
    CELL_SIZE,
    SHEET_COLUMNS,
    CandidateThumb,
    candidate_sheet,
    sheet_cell,
    sheet_size,
    target_curves,
)
from linkage_widget.draw.theme import DEFAULT_THEME as T
from linkage_widget.model import Linkage

RING = np.c_[np.cos(np.linspace(0, 2 * np.pi, 40)), np.sin(np.linspace(0, 2 * np.pi, 40))]


def thumb(size: float, error: float = 0.5, note: str = "") -> CandidateThumb:
    """A made-up mechanism of ``size`` about a unit ring (its 'curve', the target's frame)."""
    p = size * np.array([[-2.0, -2.0], [2.0, -2.0], [-1.0, 0.0], [1.0, 0.5], [0.0, 1.0]])
    rods = np.array([[0, 2], [2, 3], [3, 1], [2, 4], [3, 4]])
    return CandidateThumb(p, rods, [0, 1], 4, RING, error, "crank-rocker", note)


def test_the_target_is_dashed_in_pixels_under_the_tracks() -> None:
    view = ViewTransform.fit(RING, 300, 200)
    (line,) = target_curves(view, [RING, RING[:1]], T)  # a single point draws nothing
    assert line.role == "synthesis-target" and line.dash
    np.testing.assert_allclose(line.points, view.to_pixel(RING))
    link = Linkage([[0.0, 0.0], [1.0, 0.0]], rods=[(0, 1)])
    tracks = {1: RING[:10]}
    roles = build_scene(link, view, SceneState(synthesis_curves=[RING], tracks=tracks)).roles()
    assert roles.index("synthesis-target") < roles.index("tracks")


def test_each_candidate_has_its_cell_its_scale_and_its_caption() -> None:
    thumbs = [thumb(1.0, 1e-9), thumb(30.0, 0.25), thumb(0.1, 3.0, "poor")]
    sheet = candidate_sheet(thumbs, RING, chosen=1)
    assert (
        (sheet.width, sheet.height)
        == sheet_size(3)
        == (SHEET_COLUMNS * CELL_SIZE[0], 2 * CELL_SIZE[1])
    )
    curves = sheet.by_role("thumb-curve")
    rods = sheet.by_role("thumb-rods")
    assert len(curves) == len(rods) == 3
    for k, (curve, rod) in enumerate(zip(curves, rods, strict=True)):
        x0, y0 = (k % SHEET_COLUMNS) * CELL_SIZE[0], (k // SHEET_COLUMNS) * CELL_SIZE[1]
        everything = np.vstack([curve.points, rod.points.reshape(-1, 2)])
        assert (everything >= [x0, y0]).all()  # inside its cell, above the caption
        assert (everything <= [x0 + CELL_SIZE[0], y0 + CELL_SIZE[1] - 30]).all()
        # its own scale: a large candidate and a small one both fill their cells
        assert np.ptp(everything, axis=0).max() > 0.6 * (CELL_SIZE[1] - 30)
    captions = [" / ".join(t.texts) for t in sheet.by_role("thumb-caption")]
    assert captions == [
        "1. RMS 1e-09 / crank-rocker",
        "2. RMS 0.25 / crank-rocker",
        "3. RMS 3 / crank-rocker · poor fit",
    ]
    (ring,) = sheet.by_role("thumb-chosen")
    np.testing.assert_allclose(ring.rects[0, :2], [CELL_SIZE[0] + 2.0, 2.0])


def test_the_target_lies_under_the_curve_in_each_cell() -> None:
    (first,) = candidate_sheet([thumb(1.0)], RING).by_role("thumb-target")
    (curve,) = candidate_sheet([thumb(1.0)], RING).by_role("thumb-curve")
    # the thumbnail's curve is the target here: the same pixels
    np.testing.assert_allclose(first.points, curve.points, atol=1e-9)
    open_ring = RING[:-1]  # its end a step from its start: drawn closed
    (closed,) = candidate_sheet([thumb(1.0)], open_ring).by_role("thumb-target")
    np.testing.assert_allclose(closed.points, first.points, atol=1e-9)


def test_a_pixel_names_its_cell() -> None:
    w, h = CELL_SIZE
    assert sheet_cell(5, 5, 3) == 0
    assert sheet_cell(w + 5, 5, 3) == 1
    assert sheet_cell(5, h + 5, 3) == 2
    assert sheet_cell(w + 5, h + 5, 3) is None  # no fourth candidate
    assert sheet_cell(-1, 5, 3) is None and sheet_cell(SHEET_COLUMNS * w + 1, 5, 3) is None


def test_without_candidates_the_sheet_says_what_to_do() -> None:
    sheet = candidate_sheet([], None)
    (text,) = sheet.by_role("thumb-message")
    assert "draw a curve" in text.texts[0]
    assert sheet_size(0) == (SHEET_COLUMNS * CELL_SIZE[0], CELL_SIZE[1])
