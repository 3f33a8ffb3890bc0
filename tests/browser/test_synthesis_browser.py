"""The synthesis tool in Chromium (issue 28): a curve drawn with the real mouse on the canvas
becomes candidates shown as thumbnails beside it; a click on a thumbnail loads that linkage,
whose motor runs and whose coupler, tracked, traces the drawn curve.

The curve is the coupler curve of a known four-bar (computed in the kernel by ``kinematics``),
drawn as a mouse path through its pixels. Every wait is on a condition read from the kernel
(the candidates found, the candidate chosen, the path traced so far), scaled by the machine's
load (:func:`.helpers.patience`), never a fixed sleep.
"""

import time

import pytest

from .helpers import kernel_exec, kernel_json, one_cell_notebook, page_pos, poll, screenshot

pytestmark = pytest.mark.browser

SHEET = "canvas.linkage-synthesis-canvas, .linkage-synthesis-canvas canvas"

SOURCE = """import numpy as np
from linkage_widget import LinkageWidget
from linkage_widget.draw import ViewTransform
from linkage_widget.kinematics import kinematics
from linkage_widget.synthesis._four_bar import four_bar

# a crank-rocker with a coupler point: its coupler curve is the curve the test draws
pts = 40.0 * np.array([(0, 0), (4, 0), (1, 1), (3.5, 3), (2, 3)], dtype=float)
known = four_bar(*pts)
curve = kinematics(known.linkage, 0, 2, np.pi / 4 + np.linspace(0, 2 * np.pi, 400)).positions[:, 4]
size = float(np.ptp(curve, axis=0).max())

def on_curve(points):
    '''Each point's distance to the polyline of the curve (closed).'''
    line = np.vstack([curve, curve[:1]])
    a, d = line[:-1], np.diff(line, axis=0)
    a, d = a[(d != 0).any(axis=1)], d[(d != 0).any(axis=1)]  # its end meets its start
    t = np.clip(np.einsum("pkj,kj->pk", points[:, None] - a, d) / np.einsum("kj,kj->k", d, d), 0, 1)
    return np.linalg.norm(points[:, None] - (a + t[..., None] * d), axis=-1).min(axis=1)

w = LinkageWidget.load("four_bar.txt", width=640, height=480)
w.view = ViewTransform.fit(curve, 640, 480, margin=0.25)  # the curve fills the canvas
w.tool = "synthesis"
w"""


@pytest.fixture(scope="module")
def page(open_notebook, tmp_path_factory):
    path = one_cell_notebook(tmp_path_factory.mktemp("synthesis"), "synthesis.ipynb", SOURCE)
    return open_notebook(path)


def draw_curve(pg, pixels):
    """Press at the first pixel, move the real mouse through the others, release at the last."""
    pg.mouse.move(*page_pos(pg, *pixels[0]))
    pg.mouse.down()
    for x, y in pixels[1:]:
        pg.mouse.move(*page_pos(pg, x, y), steps=2)
        time.sleep(0.01)
    pg.mouse.up()


def test_a_drawn_curve_becomes_a_linkage_tracing_it(page):
    pg = page
    assert kernel_json(pg, "w.tool") == "synthesis"
    # the thumbnails' panel is beside the canvas as soon as the tool is chosen
    pg.locator(SHEET).first.wait_for(state="visible", timeout=30_000)
    # the curve closed once round, 80 points, as a mouse path in canvas pixels
    pixels = kernel_json(pg, "w.view.to_pixel(np.vstack([curve[::5], curve[:1]])).tolist()")
    draw_curve(pg, pixels)
    found = poll(
        lambda: (
            kernel_json(pg, "[len(w.synthesis.candidates), w.error]")[0]
            or kernel_json(pg, "w.error")
        ),
        timeout=90,
    )
    assert isinstance(found, int) and found > 0, f"no candidates: {found!r}"
    # the target the search got is the drawn curve (in world units, to a pixel's rounding)
    gap = kernel_json(pg, "float(on_curve(w.synthesis.target).max() / w.view.scale)")
    assert gap < 2.0, f"the target is {gap:.2f} px off the drawn curve"
    best = kernel_json(pg, "[w.synthesis.candidates[0].error / size, w.synthesis.version]")
    assert best[0] < 0.01, best
    # the thumbnails are drawn; click the first one (the best) on its canvas
    poll(lambda: kernel_json(pg, "w.synthesis_view._drawn") == [best[1], None], timeout=30)
    pg.mouse.click(*page_pos(pg, 85, 60, canvas=SHEET))
    chosen = poll(
        lambda: kernel_json(pg, "[w.synthesis.chosen, w.motors_running, list(w.tracked)]")[0] == 0,
        timeout=30,
    )
    assert chosen, kernel_json(pg, "[w.synthesis.chosen, w.error]")
    state = kernel_json(
        pg,
        "[w.motors_running, list(w.tracked), int(w.synthesis.candidates[0].coupler),"
        " [[m.pivot, m.tip] for m in w.motors], w.linkage.n_vertices]",
    )
    running, tracked, coupler, motors, n = state
    assert running and tracked == [coupler] and motors == [[0, 2]] and n == 5
    # the motor turns the crank: its angle changes as frames go by
    crank = "float(np.arctan2(*(w.linkage.vertices[2] - w.linkage.vertices[0])[::-1]))"
    a0 = kernel_json(pg, crank)
    assert poll(lambda: abs(kernel_json(pg, crank) - a0) > 0.2, timeout=30), "the crank is still"
    # ... and the coupler, tracked, traces the drawn curve: a good part of a turn, on it
    span = "float(np.ptp(w.tracks[{c}], axis=0).max() / size) if {c} in w.tracks else 0.0"
    assert poll(lambda: kernel_json(pg, span.format(c=coupler)) > 0.5, timeout=60), "no path"
    rms = kernel_json(pg, f"float(np.sqrt(np.mean(on_curve(w.tracks[{coupler}]) ** 2)) / size)")
    assert rms < 0.01, f"the traced path is {rms:.3%} of the curve's size off it"
    screenshot(pg, "synthesis")
    kernel_exec(pg, "w.motors_running = False")
