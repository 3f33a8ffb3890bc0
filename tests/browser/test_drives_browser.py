"""Motors and loads in JupyterLab + headless Chromium: the motor and load tools, keys o/n,
the motors button, and the force readout, driven with Playwright's mouse and keyboard."""

import math
import time

import pytest

from .helpers import ART, canvas_locator, css_pos, kernel_exec, kernel_json, poll

pytestmark = pytest.mark.browser

NOTEBOOK = "notebooks/01_peaucellier.ipynb"


@pytest.fixture(scope="module")
def page(open_notebook):
    pg = open_notebook(NOTEBOOK)
    canvas_locator(pg).wait_for(state="visible")
    return pg


@pytest.fixture
def four_bar(page):
    kernel_exec(
        page,
        "w.running = False; w.motors_running = False; w.attractor = None; "
        "w.load_file('four_bar.txt'); w.tracked = (3,); w.selected_vertex = None; w.error = ''",
    )
    return page


def point_px(pg, expr):
    return kernel_json(pg, f"w.view.to_pixel({expr}).tolist()")


def crank_angle(pg):
    dx, dy = kernel_json(pg, "(w.linkage.vertices[2] - w.linkage.vertices[0]).tolist()")
    return math.atan2(dy, dx)


def test_motor_tool_click_and_keys_turn_the_crank(four_bar):
    pg = four_bar
    kernel_exec(pg, "w.tool = 'motor'")
    x, y = point_px(pg, "0.5 * (w.linkage.vertices[0] + w.linkage.vertices[2])")
    canvas_locator(pg).click(position=css_pos(pg, x, y))
    motors = poll(lambda: (m := kernel_json(pg, "[[m.pivot, m.tip] for m in w.motors]")) and m)
    assert motors == [[0, 2]]
    a0 = crank_angle(pg)
    canvas_locator(pg).hover(position=css_pos(pg, 20, 20))
    pg.keyboard.press("o")
    assert poll(lambda: kernel_json(pg, "w.motors_running"))
    time.sleep(0.5)
    assert poll(lambda: crank_angle(pg) > a0 + 0.05), kernel_json(pg, "[w.status, w.running]")
    pg.keyboard.press("o")
    assert poll(lambda: not kernel_json(pg, "w.motors_running"))
    pg.keyboard.press("n")
    assert poll(lambda: kernel_json(pg, "w.motors[0].speed") == -1.0)
    assert len(kernel_json(pg, "w.tracks[3].tolist()")) > 2
    pg.locator(".linkage-button-motors").click()  # label ⟳
    assert poll(lambda: kernel_json(pg, "w.motors_running"))
    pg.locator(".linkage-button-motors").click()  # label ■ ⟳
    assert poll(lambda: not kernel_json(pg, "w.motors_running"))
    ART.mkdir(parents=True, exist_ok=True)
    canvas_locator(pg).screenshot(path=str(ART / "widget-motor-four-bar.png"))


def test_load_tool_click_shows_forces(four_bar):
    pg = four_bar
    kernel_exec(
        pg,
        "w.load_file('four_bar.txt'); w.linkage.toggle_pin(2); w.refresh(); w.tool = 'load'",
    )
    x, y = point_px(pg, "w.linkage.vertices[3]")
    canvas_locator(pg).click(position=css_pos(pg, x, y))
    assert poll(lambda: kernel_json(pg, "list(w.loads)") == [3])
    readout = pg.locator(".linkage-readout")
    assert poll(lambda: "statics: rod forces" in readout.inner_text()), readout.inner_text()
    canvas_locator(pg).screenshot(path=str(ART / "widget-load-four-bar.png"))
    kernel_exec(pg, "w.tool = 'select'")
