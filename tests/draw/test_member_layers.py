"""Cables, struts, ghosts and NAC-colourings in the drawing (issue 26): their strokes, the
legend's words, and the two NAC colours apart for colour-blind readers."""

from __future__ import annotations

import numpy as np

from linkage_widget import Linkage
from linkage_widget.draw import SceneState, ViewTransform, build_scene
from linkage_widget.draw.colour_vision import DEFICIENCIES, delta_e
from linkage_widget.draw.primitives import per_item
from linkage_widget.draw.svg import scene_to_svg
from linkage_widget.draw.theme import DEFAULT_THEME as T


def square(**kw) -> Linkage:
    return Linkage([[0, 0], [1, 0], [1, 1], [0, 1]], **kw)


def scene(link: Linkage, **state):
    return build_scene(link, ViewTransform.fit(link.vertices, 400, 300), SceneState(**state))


def test_a_tensegrity_square_draws_cables_dashed_and_struts_double() -> None:
    link = square(rods=[(0, 1)], cables=[(1, 2), (2, 3), (3, 0)], struts=[(0, 2)])
    sc = scene(link)
    (cables,) = sc.by_role("cables")
    wide, core = sc.by_role("struts")
    assert len(sc.by_role("rods")[0]) == 1 and len(cables) == 3 and len(wide) == 1
    assert cables.dash and per_item(cables.width, 3).max() < T.rod_width < float(wide.width)
    assert core.color == T.background and float(core.width) < float(wide.width)
    svg = scene_to_svg(sc)
    assert "stroke-dasharray" in svg  # the renderers draw the dash
    labels = [e.label for e in sc.legend]
    assert labels[:3] == [
        "rod",
        "cable: may shorten, not lengthen",
        "strut: may lengthen, not shorten",
    ]


def test_a_stress_colours_cables_and_struts_by_sign() -> None:
    link = square(rods=[(0, 1)], cables=[(1, 2)], struts=[(0, 2)])
    sc = scene(link, show_stresses=True, rod_stress=np.array([1.0, 2.0, -3.0]))
    assert sc.by_role("cables")[0].color == (T.tension,)
    assert sc.by_role("struts")[0].color == (T.compression,)


def test_ghosts_are_faint_under_the_rods_and_stale_ones_are_skipped() -> None:
    link = square(rods=[(0, 1), (1, 2), (2, 3), (3, 0)])
    other = link.vertices + [0.5, 0.0]
    sc = scene(link, ghosts=[other, np.zeros((2, 2))])
    (ghost,) = sc.by_role("ghosts")
    assert float(ghost.alpha) < 0.5 and sc.roles().index("ghosts") < sc.roles().index("rods")
    view = ViewTransform.fit(link.vertices, 400, 300)
    np.testing.assert_allclose(ghost.points, view.to_pixel(other)[link.rods])


def test_a_nac_colouring_draws_two_colours_named_in_the_legend() -> None:
    link = square(rods=[(0, 1), (1, 2), (2, 3), (3, 0)])
    sc = scene(link, nac_colouring=np.array([False, True, False, True]))
    (rods,) = sc.by_role("nac-rods")
    blue, red = T.nac_colors
    assert rods.color == (blue, red, blue, red)
    labels = [e.label for e in sc.legend][:2]
    assert labels == ["NAC-colouring: blue rods", "NAC-colouring: red rods"]
    assert not sc.by_role("rods")


def test_the_nac_colours_stay_apart_for_every_reader() -> None:
    blue, red = T.nac_colors
    for deficiency in DEFICIENCIES:  # an independent check of the pair (CIE76 in CIELAB)
        assert delta_e(blue, red, deficiency) > 20, deficiency
        # the selection (orange) is drawn over either colour: it stays apart from both
        assert delta_e(T.selected, red, deficiency) >= 20, deficiency
        assert delta_e(T.selected, blue, deficiency) >= 20, deficiency


def test_the_legend_strut_core_is_the_canvas_background() -> None:
    from linkage_widget.draw.legend import legend_html

    link = square(rods=[(0, 1)], struts=[(0, 2)])
    strut = [e for e in scene(link).legend if e.label.startswith("strut")]
    html = legend_html(strut, background="#101418")  # a dark theme's canvas
    assert 'stroke="#101418"' in html and "#ffffff" not in html
