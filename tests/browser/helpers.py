"""Helpers for browser tests: talk to the notebook's kernel, find and read the canvas.

Every helper takes the Playwright ``Page`` opened by the ``open_notebook`` fixture. Canvas
helpers work in **canvas pixels** (the coordinates the widget's view transform gives and its
input arrives in), whatever CSS size the canvas is stretched to. On a hi-DPI canvas
(``pixel_ratio``) the backing store has ratio times as many pixels; the canvas pixels are
then the CSS width the widget gives the element (``style.width``), and :func:`pixel` reads
the backing store at ratio times the position. They use the main canvas: the ``<canvas>``
of the ipycanvas widget carrying the CSS class ``linkage-canvas``
(``canvas.add_class("linkage-canvas")``; a container with that class works too), else the
first ``<canvas>`` on the page. Pass ``canvas="<css selector>"`` to use another one.
"""

import json
import os
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ART = Path(os.environ.get("BROWSER_TEST_ARTIFACTS", REPO / "browser-test-artifacts"))
MAIN_CANVAS = "canvas.linkage-canvas, .linkage-canvas canvas"
# the open_notebook fixture appends a cell printing this; tests may wait on it too
SENTINEL = "LINKAGE-WIDGET-TEST: ALL CELLS DONE"


def patience(seconds):
    """``seconds`` scaled by how busy the machine is: waits must hold on a loaded machine.

    The factor is the load per core, at least 1 (an idle machine waits exactly ``seconds``)
    and at most 6 (a hang still fails, later). The load is the larger of the last minute's
    average and the processes runnable right now (other than this one): the average lags a
    load that has just come (busy loops started a few seconds ago count at once).
    """
    return seconds * min(6.0, max(1.0, _load() / (os.cpu_count() or 1)))


def _load():
    try:
        average = os.getloadavg()[0]
    except OSError:  # no load average on this platform
        return 1.0
    try:  # Linux: "0.52 0.58 0.59 3/912 12345", the 4th field is runnable/total
        runnable = int(Path("/proc/loadavg").read_text().split()[3].split("/")[0]) - 1
    except (OSError, ValueError, IndexError):
        runnable = 0
    return max(average, runnable)


def one_cell_notebook(folder, name, source):
    """Write ``folder/name``: a notebook of one code cell ``source`` on the python3 kernel."""
    import nbformat

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source)])
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
    }
    path = Path(folder) / name
    nbformat.write(nb, path)
    return path


def kernel_exec(pg, code, timeout=60):
    """Execute ``code`` in the notebook's own kernel (where the widgets live); return stdout.

    Raises ``AssertionError`` with the kernel's error if the code raised, or if no reply
    came within :func:`patience` of ``timeout`` seconds.
    """
    timeout = patience(timeout)
    res = pg.evaluate(
        """async ([code, timeout]) => {
        const w = window.__testPanel || window.jupyterapp.shell.currentWidget;
        const k = w.sessionContext.session.kernel;
        const f = k.requestExecute({code, store_history: false});
        let out = '', err = '';
        f.onIOPub = (m) => { const t = m.header.msg_type;
            if (t === 'stream') out += m.content.text;
            if (t === 'error') err += m.content.ename + ': ' + m.content.evalue; };
        const timer = new Promise((ok) => setTimeout(() => ok('timeout'), timeout * 1000));
        if (await Promise.race([f.done, timer]) === 'timeout')
            err += 'kernel_exec: no reply within ' + timeout + ' s';
        return {out, err}; }""",
        [code, timeout],
    )
    assert not res["err"], res["err"]
    return res["out"]


def kernel_json(pg, expr, timeout=60):
    """Value of the Python expression ``expr`` in the notebook's kernel, through JSON."""
    out = kernel_exec(pg, f"import json as _j; print(_j.dumps({expr}))", timeout)
    return json.loads(out)


def canvas_selector(pg, canvas=None):
    """CSS selector of the canvas the helpers use (see the module docstring)."""
    if canvas:
        return canvas
    return MAIN_CANVAS if pg.locator(MAIN_CANVAS).count() else "canvas"


def canvas_locator(pg, canvas=None):
    """Playwright locator of that canvas."""
    return pg.locator(canvas_selector(pg, canvas)).first


def _geometry(pg, canvas):
    """Scroll the canvas fully into view; return its client rect and pixel size."""
    return pg.evaluate(
        """(sel) => { const c = document.querySelector(sel);
        c.scrollIntoView({block: 'center'});
        const r = c.getBoundingClientRect();
        const cw = parseFloat(c.style.width) || c.width;  // the widget's pixels, not the backing
        return {left: r.left, top: r.top, w: r.width, h: r.height, cw: cw,
                ch: cw * c.height / c.width}; }""",
        canvas_selector(pg, canvas),
    )


def css_pos(pg, x, y, canvas=None):
    """Canvas pixel coords -> CSS offset inside the ``<canvas>`` element (for ``click(position=)``).

    ipycanvas stretches the canvas with CSS and reports mouse positions in canvas pixels. The
    canvas is first scrolled fully into view: ipycanvas' mousedown handler calls el.focus()
    (which scrolls a partly hidden canvas) BEFORE it reads the coordinates.
    """
    g = _geometry(pg, canvas)
    return {"x": x * g["w"] / g["cw"], "y": y * g["h"] / g["ch"]}


def page_pos(pg, x, y, canvas=None):
    """Canvas pixel coords -> viewport coords for ``page.mouse`` (canvas scrolled into view)."""
    g = _geometry(pg, canvas)
    return g["left"] + x * g["w"] / g["cw"], g["top"] + y * g["h"] / g["ch"]


def drag_output_joint(pg, steps=20, hold=0.3, canvas=None):
    """Drag the Peaucellier's output joint (vertex 5) with the real mouse, up and right.

    Pressed at its pixel, moved ``(k, -3k)`` pixels for ``k = 1 .. steps`` (30 ms apart),
    held ``hold`` s (the motion catches up), released. Returns its pixel before the drag.
    """
    px, py = kernel_json(pg, "w.view.to_pixel(w.linkage.vertices[5]).tolist()")
    pg.mouse.move(*page_pos(pg, px, py, canvas))
    pg.mouse.down()
    for k in range(1, steps + 1):
        pg.mouse.move(*page_pos(pg, px + k, py - 3 * k, canvas))
        time.sleep(0.03)
    time.sleep(hold)
    pg.mouse.up()
    return px, py


def poll(fn, timeout=30):
    """Call ``fn`` every 0.1 s until it returns something truthy or ``timeout`` s pass.

    ``timeout`` is scaled by :func:`patience`.
    """
    timeout, t0 = patience(timeout), time.time()
    while True:
        v = fn()
        if v or time.time() - t0 > timeout:
            return v
        time.sleep(0.1)


def pixel(pg, x, y, canvas=None):
    """RGBA (list of 4 ints) of the visible canvas at canvas coordinates (x, y)."""
    return pg.evaluate(
        """([sel, x, y]) => { const c = document.querySelector(sel);
        const k = c.width / (parseFloat(c.style.width) || c.width);  // the pixel ratio
        return Array.from(c.getContext('2d').getImageData(Math.round(x * k),
            Math.round(y * k), 1, 1).data); }""",
        [canvas_selector(pg, canvas), x, y],
    )


def wait_pixel(pg, x, y, rgb, timeout=10, canvas=None):
    """Wait until the canvas pixel (x, y) has colour ``rgb`` (:func:`patience` of ``timeout`` s)."""
    timeout, t0 = patience(timeout), time.time()
    while time.time() - t0 < timeout:
        if pixel(pg, x, y, canvas)[:3] == list(rgb):
            return
        time.sleep(0.05)
    raise AssertionError(f"pixel {x},{y} = {pixel(pg, x, y, canvas)}, wanted {rgb}")


def screenshot(pg, name):
    """Save a full-page PNG as ``browser-test-artifacts/<name>.png``; return its path."""
    ART.mkdir(parents=True, exist_ok=True)
    path = ART / f"{name}.png"
    pg.screenshot(path=str(path), full_page=True)
    return path
