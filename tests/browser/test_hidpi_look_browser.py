"""The projector look in JupyterLab + headless Chromium at device pixel ratio 2 (issue 15).

A Peaucellier widget at its default ``pixel_ratio`` (2) in a browser context whose
``window.devicePixelRatio`` is 2, as on a retina screen. Checked in the page:

- the canvas's backing store is ``pixel_ratio`` times its CSS size, the element
  keeps its CSS size, and the drawing is scaled once: a joint's centre pixel has the
  joint's colour at twice its canvas coordinates (and at ratio 1 at once);
- a real mouse click (Playwright, CSS pixels) on joint 3 selects joint 3, so input
  maps right; the selection ring is drawn in the theme's orange at its radius;
- no text is drawn over the drawing: the hint is in the tool line, the legend (with
  the selected joint's entry) and the readout's plain words ("1 way to move") are HTML
  under the canvas, the technical numbers shown by a click on "the numbers" (and still
  shown after the readout's text changes);
- ``show_labels`` writes the joint names beside the joints (dark glyph pixels appear
  near a joint, none on it).
"""

import pytest

from .helpers import (
    ART,
    canvas_locator,
    canvas_selector,
    kernel_exec,
    kernel_json,
    one_cell_notebook,
    page_pos,
    pixel,
    poll,
)

pytestmark = pytest.mark.browser

SETUP = """\
from linkage_widget.widget import LinkageWidget

w = LinkageWidget.load("peaucellier.txt")
w"""


def _rgb(hex_colour):
    h = hex_colour.lstrip("#")
    return [int(h[i : i + 2], 16) for i in (0, 2, 4)]


@pytest.fixture(scope="module")
def page(open_notebook, tmp_path_factory):
    path = one_cell_notebook(tmp_path_factory.mktemp("nb"), "hidpi.ipynb", SETUP)
    pg = open_notebook(path, viewport={"width": 1280, "height": 1000}, device_scale_factor=2)
    canvas_locator(pg).wait_for(state="visible")
    assert pg.evaluate("window.devicePixelRatio") == 2
    return pg


@pytest.fixture
def fresh(page):
    kernel_exec(
        page,
        "w.running = False; w.attractor = None; w.tool = 'select'; w.show_labels = False;"
        "w.load_file('peaucellier.txt'); w.selected_vertex = None; w.error = '';"
        "w.pixel_ratio = 2.0; w.fit()",
    )
    return page


def joint_px(pg, v):
    return kernel_json(pg, f"w.view.to_pixel(w.linkage.vertices[{v}]).tolist()")


def test_backing_store_is_ratio_times_css_and_a_click_selects_the_right_joint(fresh):
    pg = fresh
    width, height, ratio = kernel_json(pg, "[w.view.width, w.view.height, w.pixel_ratio]")
    assert ratio == 2.0
    got = pg.evaluate(
        """(sel) => { const c = document.querySelector(sel); const r = c.getBoundingClientRect();
        return [c.width, c.height, r.width, r.height]; }""",
        canvas_selector(pg),
    )
    assert got[:2] == [2 * width, 2 * height]  # the backing store
    assert got[2:] == pytest.approx([width, height], abs=0.5)  # the CSS size stays
    # the drawing is scaled once: the pinned joint 1's centre (no velocity arrow starts
    # there), read at twice its coordinates in the backing store, is a joint
    vertex = _rgb(kernel_json(pg, "__import__('linkage_widget').draw.DEFAULT_THEME.vertex"))
    x1, y1 = joint_px(pg, 1)
    assert poll(lambda: pixel(pg, x1, y1)[:3] == vertex), pixel(pg, x1, y1)
    x, y = joint_px(pg, 3)
    # a real mouse click in CSS pixels lands on joint 3
    pg.mouse.click(*page_pos(pg, x + 2, y - 1))
    assert poll(lambda: kernel_json(pg, "w.selected_vertex") == 3), kernel_json(
        pg, "list(w.canvas_input.log)[-8:]"
    )
    ring, radius = kernel_json(
        pg,
        "[__import__('linkage_widget').draw.DEFAULT_THEME.selected,"
        " __import__('linkage_widget').draw.DEFAULT_THEME.selected_radius]",
    )
    # the ring's stroke, sampled on the side away from the rods at joint 3 (x + r or x - r)
    on_ring = [pixel(pg, x + s * radius, y)[:3] for s in (1, -1)] + [
        pixel(pg, x, y + s * radius)[:3] for s in (1, -1)
    ]
    assert poll(lambda: _rgb(ring) in [pixel(pg, x + radius, y)[:3], *on_ring]), on_ring


def test_a_ratio_of_one_draws_the_same_picture_on_fewer_pixels(fresh):
    pg = fresh
    x, y = joint_px(pg, 3)
    x1, y1 = joint_px(pg, 1)
    kernel_exec(pg, "w.pixel_ratio = 1.0")
    width = kernel_json(pg, "w.view.width")
    assert poll(
        lambda: (
            pg.evaluate("(sel) => document.querySelector(sel).width", canvas_selector(pg)) == width
        )
    )
    vertex = _rgb(kernel_json(pg, "__import__('linkage_widget').draw.DEFAULT_THEME.vertex"))
    assert poll(lambda: pixel(pg, x1, y1)[:3] == vertex), pixel(pg, x1, y1)
    # and a click still selects (positions now 1:1)
    pg.mouse.click(*page_pos(pg, x - 1, y + 2))
    assert poll(lambda: kernel_json(pg, "w.selected_vertex") == 3)
    kernel_exec(pg, "w.pixel_ratio = 2.0")


def test_no_text_over_the_canvas_legend_and_plain_words_beside_it(fresh):
    pg = fresh
    kernel_exec(pg, "w.selected_vertex = 3")
    legend = pg.locator(".linkage-legend-box")
    assert poll(lambda: "selected joint" in legend.inner_text()), legend.inner_text()
    text = legend.inner_text()
    assert "rod" in text and "pinned joint" in text and "velocity" in text
    # one coloured swatch per entry, in the theme's colours
    assert legend.locator("li").count() == kernel_json(pg, "len(w.scene().legend)")
    readout = pg.locator(".linkage-readout")
    assert poll(lambda: "1 way to move" in readout.inner_text())
    assert "Maxwell" not in readout.inner_text()  # the numbers are a click away
    pg.locator(".linkage-show-info").click()
    assert poll(lambda: "Maxwell" in readout.inner_text()) and kernel_json(pg, "w.show_info")
    kernel_exec(pg, "w.error = 'a new text'")  # the readout's text changes
    assert poll(lambda: "a new text" in readout.inner_text())
    assert "Maxwell" in readout.inner_text()  # and the numbers stay shown (no <details>)
    kernel_exec(pg, "w.error = ''")
    pg.locator(".linkage-show-info").click()
    assert poll(lambda: "Maxwell" not in readout.inner_text())
    # the scene has no text primitives: nothing is written over the linkage
    assert kernel_json(pg, "sorted({type(i).__name__ for i in w.scene().items})") == sorted(
        {"Arrows", "Disks", "Polygons", "Segments"}
    )
    assert kernel_json(pg, "w.scene().hint") != ""
    pg.locator(".linkage-widget").first.screenshot(path=str(ART / "hidpi_look.png"))


def test_labels_beside_the_joints(fresh):
    pg = fresh
    kernel_exec(pg, "w.joint_names = ('O', 'Q', 'A', 'B', 'D', 'C'); w.show_labels = True")
    pos = kernel_json(pg, "w.scene().by_role('labels')[0].positions.tolist()")

    def glyph_near(p):
        # some pixel of the label's box is (nearly) black text
        xs = [p[0] + dx for dx in (-4, -2, 0, 2, 4)]
        ys = [p[1] + dy for dy in (-5, -2, 0, 2, 5)]
        return any(max(pixel(pg, x, y)[:3]) < 60 for x in xs for y in ys)

    assert poll(lambda: all(glyph_near(p) for p in pos)), pos
    canvas_locator(pg).screenshot(path=str(ART / "hidpi_labels.png"))
    kernel_exec(pg, "w.show_labels = False; w.joint_names = ()")
