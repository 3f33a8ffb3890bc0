"""The widget draws at the page's device pixel ratio, and a drag shows at once (issue 22, 15).

In JupyterLab + headless Chromium at ``device_scale_factor`` 1 and 2:

- ``w.pixel_ratio`` becomes the page's ``window.devicePixelRatio`` (it was fixed at 2),
  reported by the style widget's probe (:data:`~linkage_widget.widget.layout.RATIO_PROBE`),
  and the canvas's backing store follows; a ratio set by the user wins over it;
- with the joint pressed, the first move past the drag threshold is followed by a
  canvas change within a generous bound, and the kernel's first drag frame draws
  before it analyses (frame order, not wall time, is what the session test asserts;
  the wall time is printed, and bounded loosely for a busy 2-core machine).
"""

import time

import pytest

from .helpers import (
    canvas_locator,
    canvas_selector,
    kernel_exec,
    kernel_json,
    one_cell_notebook,
    page_pos,
    poll,
)

pytestmark = pytest.mark.browser

SETUP = """\
from linkage_widget.widget import LinkageWidget

w = LinkageWidget.load("peaucellier.txt")
w"""

# every drawImage on the visible canvas is one frame shown (ipycanvas copies its model
# canvas there once per batched message)
MONITOR_JS = """(sel) => {
    const c = document.querySelector(sel), ctx = c.getContext('2d');
    const M = window.__mon = {draws: []};
    if (!ctx.__wrapped) {
        const orig = ctx.drawImage.bind(ctx);
        ctx.drawImage = (...a) => { orig(...a); window.__mon.draws.push(performance.now()); };
        ctx.__wrapped = true;
    }
}"""

# A generous bound on press + first move past the threshold -> first canvas change: the
# first drag frame took up to ~0.37 s of wall time on this machine under a load of 8
# before the change; with the change it draws before the drag's first analysis.
FIRST_CHANGE_S = 1.5


def _open(open_notebook, tmp_path_factory, scale):
    path = one_cell_notebook(tmp_path_factory.mktemp("nb"), f"dpr{scale}.ipynb", SETUP)
    pg = open_notebook(path, viewport={"width": 1280, "height": 1000}, device_scale_factor=scale)
    canvas_locator(pg).wait_for(state="visible")
    assert pg.evaluate("window.devicePixelRatio") == scale
    return pg


@pytest.fixture(scope="module", params=[1, 2])
def page(request, open_notebook, tmp_path_factory):
    return _open(open_notebook, tmp_path_factory, request.param)


def _backing(pg):
    return pg.evaluate(
        """(sel) => { const c = document.querySelector(sel);
        return [c.width, c.height, parseFloat(c.style.width) || c.getBoundingClientRect().width];
        }""",
        canvas_selector(pg),
    )


def test_pixel_ratio_follows_the_page_and_a_set_ratio_wins(page):
    pg = page
    dpr = pg.evaluate("window.devicePixelRatio")
    assert poll(lambda: kernel_json(pg, "w.pixel_ratio") == dpr, timeout=30), kernel_json(
        pg, "[w.pixel_ratio, w.device_pixel_ratio, w.follow_device_ratio]"
    )
    assert kernel_json(pg, "[w.device_pixel_ratio, w.follow_device_ratio]") == [dpr, True]
    width, height = kernel_json(pg, "[w.view.width, w.view.height]")
    assert poll(lambda: _backing(pg)[:2] == [dpr * width, dpr * height], timeout=10)
    # the user's choice wins: the page's next report changes nothing
    kernel_exec(pg, "w.pixel_ratio = 3.0")
    pg.evaluate(
        """(sel) => document.querySelector(sel).dispatchEvent(new KeyboardEvent('keydown',
            {key: 'linkage-device-pixel-ratio:' + window.devicePixelRatio}))""",
        canvas_selector(pg),
    )
    time.sleep(1.0)
    assert kernel_json(pg, "[w.pixel_ratio, w.follow_device_ratio]") == [3.0, False]
    assert poll(lambda: _backing(pg)[:2] == [3 * width, 3 * height], timeout=10)
    # following again: the next report is taken
    kernel_exec(pg, "w.follow_device_ratio = True")
    pg.evaluate(
        """(sel) => document.querySelector(sel).dispatchEvent(new KeyboardEvent('keydown',
            {key: 'linkage-device-pixel-ratio:' + window.devicePixelRatio}))""",
        canvas_selector(pg),
    )
    assert poll(lambda: kernel_json(pg, "w.pixel_ratio") == dpr, timeout=10)
    assert kernel_json(pg, "w.error") == ""  # the report was no key press


def test_the_first_move_past_the_threshold_changes_the_canvas_soon(page):
    pg = page
    kernel_exec(pg, "w.running = False; w.load_file('peaucellier.txt'); w.selected_vertex = 5")
    time.sleep(1.0)  # the load's frames are drawn
    pg.evaluate(MONITOR_JS, canvas_selector(pg))
    px, py = kernel_json(pg, "w.view.to_pixel(w.linkage.vertices[5]).tolist()")
    y0 = kernel_json(pg, "float(w.linkage.vertices[5][1])")
    pg.mouse.move(*page_pos(pg, px, py))
    pg.mouse.down()
    time.sleep(0.5)  # the press's own frame (if any) is drawn
    t0 = pg.evaluate("(window.__mon.draws = [], performance.now())")
    pg.mouse.move(*page_pos(pg, px, py - 10))  # one move, past the 4 px threshold
    assert poll(lambda: pg.evaluate("window.__mon.draws.length") > 0, timeout=10)
    first = pg.evaluate("window.__mon.draws[0]") - t0
    moved = kernel_json(pg, "float(w.linkage.vertices[5][1])") - y0
    pg.mouse.up()
    print(
        f"device ratio {pg.evaluate('window.devicePixelRatio')}: first canvas change "
        f"{first:.0f} ms after the move"
    )
    assert moved > 0  # the drag pulled the joint up (world y up)
    assert first < FIRST_CHANGE_S * 1000
