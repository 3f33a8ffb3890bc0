"""LinkageWidget in JupyterLab + headless Chromium: real mouse, keys and slider.

The Peaucellier notebook runs top to bottom; then the tests drive the canvas with
Playwright's mouse and check the effect from the kernel (``kernel_json``) and in the canvas
pixels. Pixel positions come from the widget's own view transform, so the tests do not
depend on where the canvas sits on the page or how it is scaled.
"""

import hashlib
import time

import pytest

from .helpers import (
    ART,
    canvas_locator,
    canvas_selector,
    css_pos,
    drag_output_joint,
    kernel_exec,
    kernel_json,
    page_pos,
    poll,
)

pytestmark = pytest.mark.browser

NOTEBOOK = "notebooks/01_peaucellier.ipynb"


@pytest.fixture(scope="module")
def page(open_notebook):
    pg = open_notebook(NOTEBOOK)
    canvas_locator(pg).wait_for(state="visible")
    # the first frame arrives after the cell output: wait until something is drawn
    assert poll(lambda: drawn(pg), timeout=20)
    # a widget callback that raises is only shown in JupyterLab's log console: keep it
    kernel_exec(pg, TRACEBACKS)
    return pg


TRACEBACKS = """
import traceback as _tb
_TB = []
_showtraceback = get_ipython().showtraceback
def _keep_traceback(*args, **kwargs):
    _TB.append(_tb.format_exc())
    return _showtraceback(*args, **kwargs)
get_ipython().showtraceback = _keep_traceback
"""


@pytest.fixture
def fresh(page):
    """Stop any motion and reload the Peaucellier linkage between tests.

    Afterwards: no widget callback raised during the test.
    """
    kernel_exec(
        page,
        "w.running = False; w.attractor = None; w.tool = 'select'; "
        "w.load_file('peaucellier.txt'); w.tracked = (5,); w.selected_vertex = None;"
        "w.error = ''",
    )
    yield page
    assert kernel_json(page, "_TB") == []


def canvas_digest(pg):
    """Hash of every pixel of the main canvas."""
    data = pg.evaluate(
        """(sel) => { const c = document.querySelector(sel);
        return Array.from(c.getContext('2d').getImageData(0, 0, c.width, c.height).data
            .filter((_, i) => i % 7 === 0)).join(','); }""",
        canvas_selector(pg),
    )
    return hashlib.sha1(data.encode()).hexdigest()


def drawn(pg):
    """Whether the canvas shows anything (an undrawn canvas is fully transparent)."""
    return pg.evaluate(
        """(sel) => { const c = document.querySelector(sel);
        return c.getContext('2d').getImageData(0, 0, c.width, c.height).data
            .some((v, i) => i % 4 === 3 && v !== 0); }""",
        canvas_selector(pg),
    )


def events(pg):
    """The widget's last raw input events and state (for failure messages)."""
    log = kernel_json(pg, "list(w.canvas_input.log)[-25:]")
    state = kernel_json(
        pg,
        "[w.selected_vertex, w.selected_rod, w.tool, w._message, "
        "w._pointer.vertex, list(w.error_log)]",
    )
    return "\n".join(map(str, [*log, state, *kernel_json(pg, "_TB")]))


def vertex_px(pg, v):
    return kernel_json(pg, f"w.view.to_pixel(w.linkage.vertices[{v}]).tolist()")


def test_canvas_is_the_widget_canvas(page):
    size = kernel_json(page, "[w.canvas.width, w.canvas.height]")
    got = page.evaluate(
        "(sel) => { const c = document.querySelector(sel); return [c.width, c.height]; }",
        canvas_selector(page),
    )
    assert got == size
    # plain words first (issue 15); the technical "DOF 1" line a click away
    readout = page.locator(".linkage-readout")
    assert "1 way to move" in readout.inner_text() and "DOF 1" not in readout.inner_text()
    page.locator(".linkage-show-info").click()
    assert poll(lambda: "DOF 1" in readout.inner_text())
    page.locator(".linkage-show-info").click()
    assert poll(lambda: "DOF 1" not in readout.inner_text())


def test_drag_output_vertex_moves_along_its_line(fresh):
    pg = fresh
    x0, y0 = kernel_json(pg, "w.linkage.vertices[5].tolist()")
    assert x0 == 128.0
    before = canvas_digest(pg)
    drag_output_joint(pg)
    state = poll(
        lambda: (
            (s := kernel_json(pg, "[w.linkage.vertices[5].tolist(), w.running]")) and not s[1] and s
        ),
        timeout=10,
    )
    (x1, y1), running = state
    assert not running
    assert abs(x1 - 128.0) <= 1e-9 * 128.0, x1
    assert y1 > y0 + 10, (y0, y1)
    assert kernel_json(pg, "w.selected_vertex") == 5
    lengths_ok = kernel_json(
        pg,
        "bool(abs(w.linkage.rod_lengths() - "
        "__import__('linkage_widget').Linkage.load('peaucellier.txt')"
        ".rod_lengths()).max() < 1e-9)",
    )
    assert lengths_ok
    assert poll(lambda: canvas_digest(pg) != before)
    ART.mkdir(parents=True, exist_ok=True)
    canvas_locator(pg).screenshot(path=str(ART / "widget-drag-peaucellier.png"))
    pg.screenshot(path=str(ART / "widget-drag-page.png"), full_page=False)


def test_click_adds_vertex_and_alt_click_adds_rod(fresh):
    pg = fresh
    canvas = canvas_locator(pg)
    canvas.click(position=css_pos(pg, 40, 40))
    n = poll(lambda: (k := kernel_json(pg, "w.linkage.n_vertices")) == 7 and k)
    assert n == 7, events(pg)
    wx, wy = kernel_json(pg, "w.linkage.vertices[6].tolist()")
    ex, ey = kernel_json(pg, "w.view.to_world([40, 40]).tolist()")
    scale = kernel_json(pg, "w.view.scale")
    assert abs(wx - ex) * scale <= 1.0 and abs(wy - ey) * scale <= 1.0  # within a pixel
    px, py = vertex_px(pg, 3)
    canvas.click(position=css_pos(pg, px, py), modifiers=["Alt"])
    rods = poll(lambda: (r := kernel_json(pg, "w.linkage.rods.tolist()")) and len(r) == 8 and r)
    assert rods and rods[-1] == [6, 3]
    pg.keyboard.press("Control+z")
    assert poll(lambda: kernel_json(pg, "w.linkage.n_rods") == 7)


def test_key_f_pins_selected_vertex(fresh):
    pg = fresh
    px, py = vertex_px(pg, 2)
    canvas_locator(pg).click(position=css_pos(pg, px, py))
    assert poll(lambda: kernel_json(pg, "w.selected_vertex") == 2), events(pg)
    pg.keyboard.press("f")
    assert poll(lambda: kernel_json(pg, "bool(w.linkage.is_pinned(2))"))
    n_cells = pg.locator(".jp-Notebook .jp-Cell").count()
    pg.keyboard.press("a")  # no JupyterLab shortcut (insert cell) while over the canvas
    time.sleep(0.3)
    assert pg.locator(".jp-Notebook .jp-Cell").count() == n_cells


def test_step_size_slider(fresh):
    pg = fresh
    assert kernel_json(pg, "w.step_size") == 1.0
    handle = pg.locator(".linkage-step-size-kinematic .noUi-handle")
    # keys go to the canvas while the pointer is over it (ipyevents): point at the slider
    handle.hover()
    handle.focus()
    pg.keyboard.press("ArrowRight")
    pg.keyboard.press("ArrowRight")
    # two steps of 0.05 (the slider's step), each a message from the browser
    v = poll(lambda: (v := kernel_json(pg, "w.step_size")) > 1.09 and v)
    assert v == pytest.approx(1.1), kernel_json(pg, "w.step_size")
    assert kernel_json(pg, "w.controls.sliders['step_size'].value") == v
    kernel_exec(pg, "w.step_size = 1.0")


def test_right_click_places_attractor_without_context_menu(fresh):
    pg = fresh
    kernel_exec(pg, "w.selected_vertex = 5")
    pg.evaluate(
        """(sel) => { const c = document.querySelector(sel);
        window.__ctx = [];
        c.addEventListener('contextmenu', (e) => window.__ctx.push(e.defaultPrevented)); }""",
        canvas_selector(pg),
    )
    x, y = 500.0, 80.0
    canvas_locator(pg).click(position=css_pos(pg, x, y), button="right")
    attractor = poll(lambda: kernel_json(pg, "w.attractor"))
    assert attractor
    ex, ey = kernel_json(pg, f"w.view.to_world([{x}, {y}]).tolist()")
    scale = kernel_json(pg, "w.view.scale")
    assert abs(attractor[0] - ex) * scale <= 1.5 and abs(attractor[1] - ey) * scale <= 1.5
    assert pg.evaluate("window.__ctx") == [True]  # the browser's menu was suppressed
    assert pg.locator(".lm-Menu").count() == 0  # and JupyterLab's did not open either
    # the attractor pulls vertex 5 up its line until it is blocked or reached
    assert poll(lambda: not kernel_json(pg, "w.running"), timeout=20)
    x5, _ = kernel_json(pg, "w.linkage.vertices[5].tolist()")
    assert abs(x5 - 128.0) <= 1e-9 * 128
    canvas_locator(pg).screenshot(path=str(ART / "widget-attractor.png"))


def test_wheel_zooms_at_pointer_and_drag_pans(fresh):
    pg = fresh
    scroller = ".jp-WindowedPanel-outer"
    scroll0 = pg.evaluate(f"document.querySelector('{scroller}').scrollTop")
    s0 = kernel_json(pg, "w.view.scale")
    world = kernel_json(pg, "w.view.to_world([320, 240]).tolist()")
    pg.mouse.move(*page_pos(pg, 320, 240))
    pg.mouse.wheel(0, -300)
    s1 = poll(lambda: (s := kernel_json(pg, "w.view.scale")) > 1.05 * s0 and s)
    assert s1, events(pg)
    px, py = kernel_json(pg, f"w.view.to_pixel({world}).tolist()")
    assert abs(px - 320) < 2 and abs(py - 240) < 2  # the point under the pointer stays
    # the page did not scroll (ipyevents prevented the wheel's default action)
    assert pg.evaluate(f"document.querySelector('{scroller}').scrollTop") == scroll0
    ox = kernel_json(pg, "w.view.offset_x")
    pg.mouse.move(*page_pos(pg, 20, 20))
    pg.mouse.down()
    pg.mouse.move(*page_pos(pg, 80, 20), steps=6)
    pg.mouse.up()
    assert poll(lambda: abs(kernel_json(pg, "w.view.offset_x") - ox - 60) < 2), events(pg)
    assert kernel_json(pg, "w.linkage.n_vertices") == 6  # a pan adds no vertex
    kernel_exec(pg, "w.fit()")
