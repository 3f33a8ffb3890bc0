"""A tablet and a projector in JupyterLab + headless Chromium, at device pixel ratio 1 and 2.

The Peaucellier linkage in a notebook made at test time, opened at 1024 x 768 (a common
projector) in a browser context with touch (``has_touch``) and the device pixel ratio
of the parameter. Fingers are real touch events from Chromium's DevTools protocol
(``Input.dispatchTouchEvent``: one touch point for a tap or a drag, two for a pinch),
so they pass through ipycanvas' touch listeners exactly as a tablet's would. Checked
from the kernel and the page:

- a tap on empty canvas adds a joint where the finger was; a tap on a joint selects it;
- a one-finger drag of the output joint moves the mechanism (the joint runs up its
  line, every rod keeps its length), and so does a pen (mouse events of pointer type pen);
- two fingers spreading from 60 to 150 px zoom the view 2.5 times about their centre,
  the world point under the centre stays under it;
- ``m`` puts the widget over the whole window (presentation mode), ``m`` again and Esc
  take it back;
- the toolbar is one line and the DOF readout is above the fold at 1024 x 768 with
  JupyterLab's file browser open.

Each test writes its screenshot to ``docs/img/`` at pixel ratio 1 (the docs' pictures;
``docs/peaucellier.png`` is the whole widget at pixel ratio 2).
"""

import math
import time

import pytest

from .helpers import (
    REPO,
    canvas_locator,
    canvas_selector,
    kernel_exec,
    kernel_json,
    one_cell_notebook,
    poll,
)

pytestmark = pytest.mark.browser

DOCS_IMG = REPO / "docs" / "img"
VIEWPORT = {"width": 1024, "height": 768}
SETUP = """\
from linkage_widget.widget import LinkageWidget

w = LinkageWidget.load("peaucellier.txt", tracked=(5,))
w"""


@pytest.fixture(scope="module", params=[1, 2], ids=["dpr1", "dpr2"])
def page(request, open_notebook, tmp_path_factory):
    path = one_cell_notebook(tmp_path_factory.mktemp("nb"), "tablet.ipynb", SETUP)
    pg = open_notebook(path, viewport=VIEWPORT, device_scale_factor=request.param, has_touch=True)
    canvas_locator(pg).wait_for(state="visible")
    assert pg.evaluate("window.devicePixelRatio") == request.param
    pg.dpr = request.param
    pg.cdp = pg.context.new_cdp_session(pg)
    pg.has_ratio = kernel_json(pg, "w.has_trait('pixel_ratio')")
    if pg.has_ratio:  # the canvas draws at the device's pixel ratio
        kernel_exec(pg, f"w.pixel_ratio = {request.param}")
    return pg


@pytest.fixture
def fresh(page):
    """The Peaucellier linkage as loaded, fitted, nothing selected, not presenting."""
    kernel_exec(
        page,
        "w.presentation = False; w.running = False; w.attractor = None; w.tool = 'select';"
        "w.load_file('peaucellier.txt'); w.selected_vertex = None; w.error = ''; w.fit()",
    )
    widget_to_top(page)
    return page


def widget_to_top(pg):
    """Scroll the notebook so that the widget's top is at the top of the notebook area."""
    pg.evaluate("document.querySelector('.linkage-widget').scrollIntoView({block: 'start'})")
    time.sleep(0.2)


def page_pos(pg, x, y):
    """The session's (CSS) canvas pixel ``(x, y)`` in viewport coordinates.

    Not helpers.page_pos: that one counts backing-store pixels, which are the session's
    pixels times the pixel ratio on a hi-DPI canvas.
    """
    r = pg.evaluate(
        "(sel) => { const r = document.querySelector(sel).getBoundingClientRect();"
        " return [r.left, r.top, r.width]; }",
        canvas_selector(pg),
    )
    k = r[2] / kernel_json(pg, "w.view.width")
    return r[0] + x * k, r[1] + y * k


def touch(pg, kind, points):
    """One DevTools touch event: ``kind`` touchStart/Move/End, ``points`` viewport (x, y)."""
    pts = [{"x": x, "y": y, "id": i, "radiusX": 4, "radiusY": 4} for i, (x, y) in enumerate(points)]
    pg.cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": pts})


def finger_path(pg, a, b, steps=12):
    """A one-finger press at canvas pixel ``a``, moves to ``b`` in ``steps``, lift."""
    (x0, y0), (x1, y1) = page_pos(pg, *a), page_pos(pg, *b)
    touch(pg, "touchStart", [(x0, y0)])
    for k in range(1, steps + 1):
        t = k / steps
        touch(pg, "touchMove", [(x0 + t * (x1 - x0), y0 + t * (y1 - y0))])
        time.sleep(0.03)
    touch(pg, "touchEnd", [])


def vertex_px(pg, i):
    return kernel_json(pg, f"w.view.to_pixel(w.linkage.vertices[{i}]).tolist()")


def shot(pg, name, whole_page=False):
    """Save docs/img/<name>.png at pixel ratio 1: the page, or toolbar to readout."""
    if pg.dpr != 1:
        return
    DOCS_IMG.mkdir(parents=True, exist_ok=True)
    path = str(DOCS_IMG / f"{name}.png")
    if whole_page:
        pg.screenshot(path=path)
        return
    widget_to_top(pg)
    top = pg.locator(".linkage-toolbar").first.bounding_box()
    low = pg.locator(".linkage-readout").first.bounding_box()
    wide = pg.locator(".linkage-widget").first.bounding_box()
    bottom = min(low["y"] + low["height"], VIEWPORT["height"])
    clip = {"x": wide["x"], "y": top["y"], "width": wide["width"], "height": bottom - top["y"]}
    pg.screenshot(path=path, clip=clip)


def readme_picture(pg):
    """docs/peaucellier.png: the whole widget at pixel ratio 2 (a taller window for it)."""
    pg.set_viewport_size({"width": VIEWPORT["width"], "height": 1700})
    try:
        widget_to_top(pg)
        pg.locator(".linkage-widget").first.screenshot(path=str(REPO / "docs" / "peaucellier.png"))
    finally:
        pg.set_viewport_size(VIEWPORT)


def test_canvas_draws_at_the_device_pixel_ratio(fresh):
    pg = fresh
    if not pg.has_ratio:
        pytest.skip("no pixel_ratio trait yet")
    width, height = kernel_json(pg, "[w.view.width, w.view.height]")
    got = pg.evaluate(
        "(sel) => { const c = document.querySelector(sel); return [c.width, c.height]; }",
        canvas_selector(pg),
    )
    assert got == [width * pg.dpr, height * pg.dpr]


def test_tap_adds_a_joint_and_selects(fresh):
    pg = fresh
    n = kernel_json(pg, "w.linkage.n_vertices")
    x, y = page_pos(pg, 60, 60)
    touch(pg, "touchStart", [(x, y)])
    touch(pg, "touchEnd", [])
    assert poll(lambda: kernel_json(pg, "w.linkage.n_vertices") == n + 1), kernel_json(
        pg, "list(w.canvas_input.log)[-10:]"
    )
    wx, wy = kernel_json(pg, f"w.linkage.vertices[{n}].tolist()")
    ex, ey = kernel_json(pg, "w.view.to_world([60, 60]).tolist()")
    scale = kernel_json(pg, "w.view.scale")
    assert math.hypot(wx - ex, wy - ey) * scale <= 1.5  # where the finger was, to a pixel
    # a tap beside joint 3 (within a fingertip, beyond the mouse's 8 px) selects it
    px, py = vertex_px(pg, 3)
    touch(pg, "touchStart", [page_pos(pg, px + 12, py)])
    touch(pg, "touchEnd", [])
    assert poll(lambda: kernel_json(pg, "w.selected_vertex") == 3)
    assert kernel_json(pg, "w.linkage.n_vertices") == n + 1  # no joint added
    shot(pg, "touch_tap")


def test_one_finger_drag_moves_the_mechanism(fresh):
    pg = fresh
    before = kernel_json(pg, "w.linkage.vertices.tolist()")
    lengths = kernel_json(pg, "w.linkage.rod_lengths().tolist()")
    px, py = vertex_px(pg, 5)
    finger_path(pg, (px, py), (px + 10, py - 60))

    def moved():
        v = kernel_json(pg, "w.linkage.vertices[5].tolist()")
        return v[1] > before[5][1] + 5 and v

    v5 = poll(moved)
    assert v5, kernel_json(pg, "list(w.canvas_input.log)[-10:]")
    assert abs(v5[0] - before[5][0]) < 1e-6  # the Peaucellier's output stays on its line
    now = kernel_json(pg, "w.linkage.rod_lengths().tolist()")
    assert max(abs(a - b) for a, b in zip(now, lengths, strict=True)) < 1e-6 * max(lengths)
    assert kernel_json(pg, "w.linkage.n_vertices") == len(before)  # a drag adds nothing
    shot(pg, "touch_drag")


def test_a_pen_drags_like_a_mouse(fresh):
    """A pen (CDP mouse events with pointerType pen) pulls the output joint up its line."""
    pg = fresh
    y0 = kernel_json(pg, "w.linkage.vertices[5][1]")
    px, py = vertex_px(pg, 5)
    x, y = page_pos(pg, px, py)

    def pen(kind, x, y, buttons):
        pg.cdp.send(
            "Input.dispatchMouseEvent",
            {"type": kind, "x": x, "y": y, "button": "left", "buttons": buttons,
             "clickCount": 1, "pointerType": "pen"},
        )  # fmt: skip

    pen("mouseMoved", x, y, 0)
    pen("mousePressed", x, y, 1)
    for k in range(1, 13):
        pen("mouseMoved", x + k * 0.5, y - 4 * k, 1)
        time.sleep(0.03)
    time.sleep(0.3)
    pen("mouseReleased", x + 6, y - 48, 0)
    assert poll(lambda: kernel_json(pg, "w.linkage.vertices[5][1]") > y0 + 5)


def test_two_finger_pinch_zooms_about_its_centre(fresh):
    pg = fresh
    s0 = kernel_json(pg, "w.view.scale")
    cx, cy = 320.0, 240.0
    world = kernel_json(pg, f"w.view.to_world([{cx}, {cy}]).tolist()")
    n = kernel_json(pg, "w.linkage.n_vertices")
    x, y = page_pos(pg, cx, cy)
    k = page_pos(pg, cx + 1, cy)[0] - x  # CSS pixels per canvas pixel
    for step in range(0, 13):
        half = (30 + 45 * step / 12) * k  # 60 -> 150 canvas px between the fingers
        pts = [(x - half, y), (x + half, y)]
        touch(pg, "touchStart" if step == 0 else "touchMove", pts)
        time.sleep(0.03)
    touch(pg, "touchEnd", [])
    ratio = poll(lambda: (r := kernel_json(pg, "w.view.scale") / s0) > 2.4 and r)
    assert ratio == pytest.approx(2.5, rel=0.03), kernel_json(pg, "w.view.scale") / s0
    px, py = kernel_json(pg, f"w.view.to_pixel({world}).tolist()")
    assert abs(px - cx) < 2 and abs(py - cy) < 2  # the point under the fingers stayed
    assert kernel_json(pg, "w.linkage.n_vertices") == n  # no tap, no joint
    shot(pg, "touch_pinch")
    # two fingers moving together pan
    before = kernel_json(pg, "w.view.to_pixel([0, 0]).tolist()")
    for step in range(0, 7):
        d = 10 * step * k
        touch(pg, "touchStart" if step == 0 else "touchMove", [(x - 40, y + d), (x + 40, y + d)])
        time.sleep(0.03)
    touch(pg, "touchEnd", [])
    after = poll(
        lambda: (a := kernel_json(pg, "w.view.to_pixel([0, 0]).tolist()"))[1] > before[1] + 50 and a
    )
    assert after and after[1] - before[1] == pytest.approx(60, abs=2)
    assert abs(kernel_json(pg, "w.view.scale") / s0 - ratio) < 1e-9  # no zoom


def test_m_toggles_presentation_mode(fresh):
    pg = fresh
    widget = pg.locator(".linkage-widget").first
    canvas_locator(pg).hover()
    pg.keyboard.press("m")
    assert poll(lambda: kernel_json(pg, "w.presentation"))
    pg.wait_for_function(
        "() => document.querySelector('.linkage-widget').classList.contains('linkage-presenting')"
    )
    box = widget.bounding_box()
    assert box["x"] == 0 and box["y"] == 0  # over the whole window
    assert box["width"] == VIEWPORT["width"] and box["height"] == VIEWPORT["height"]
    assert not pg.locator(".linkage-collapsible").first.is_visible()  # sliders, files, help
    canvas = canvas_locator(pg).bounding_box()
    assert canvas["height"] > 480  # stretched to the window
    assert pg.locator(".linkage-readout").first.bounding_box()["y"] + 20 < VIEWPORT["height"]
    shot(pg, "presentation", whole_page=True)
    canvas_locator(pg).hover()
    pg.keyboard.press("m")
    assert poll(lambda: not kernel_json(pg, "w.presentation"))
    pg.keyboard.press("m")
    assert poll(lambda: kernel_json(pg, "w.presentation"))
    pg.keyboard.press("Escape")
    assert poll(lambda: not kernel_json(pg, "w.presentation"))
    pg.wait_for_function(
        "() => !document.querySelector('.linkage-widget').classList.contains('linkage-presenting')"
    )
    assert widget.bounding_box()["width"] < VIEWPORT["width"]
    assert pg.locator(".linkage-collapsible").first.is_visible()


def test_toolbar_is_one_line_and_the_dof_above_the_fold(fresh):
    pg = fresh
    assert pg.locator("#jp-left-stack").is_visible()  # the file browser takes its 250 px
    tops = pg.evaluate(
        """() => Array.from(document.querySelector('.linkage-toolbar').children)
        .map((c) => { const r = c.getBoundingClientRect(); return [r.top, r.bottom, r.right]; })"""
    )
    bar = pg.locator(".linkage-toolbar").first.bounding_box()
    assert len({round(t) for t, _, _ in tops}) == 1, tops  # one line
    assert max(r for _, _, r in tops) <= bar["x"] + bar["width"] + 0.5  # nothing cut off
    assert bar["height"] < 45
    line = pg.locator(".linkage-tool-line").first
    assert line.inner_text().startswith("tool: select ([ ] other tool) · loaded peaucellier")
    canvas_locator(pg).hover()
    pg.keyboard.press("]")  # a key clears the message: the line says what the tool does
    want = "tool: vertex ([ ] other tool) · click adds a vertex"
    assert poll(lambda: line.inner_text() == want), line.inner_text()
    assert kernel_json(pg, "w.tool") == "vertex"
    pg.keyboard.press("[")
    assert poll(lambda: line.inner_text().startswith("tool: select ([ ] other tool) · click"))
    # the degrees of freedom, in words first ("1 way to move"), the numbers a click away
    dof = pg.locator(".linkage-readout .linkage-words").first
    assert "1 way to move" in dof.inner_text()
    box = dof.bounding_box()
    assert box["y"] + box["height"] <= VIEWPORT["height"] - 25, box  # above the status bar
    shot(pg, "toolbar_1024x768", whole_page=True)
    if pg.dpr == 2:  # the README's picture: the whole widget, crisp
        readme_picture(pg)
