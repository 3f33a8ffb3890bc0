"""The configuration-space panel in JupyterLab + headless Chromium, driven with the real mouse.

A notebook made at test time shows the four-rod chain with pinned ends (the seed's sphere)
with the panel on. The tests check that the panel appears and is drawn, that dragging a
joint of the linkage moves the point on the sphere (the kernel's coordinates and the
panel's pixels), and that a flick on the sphere (press on the point, drag, release) starts
a geodesic: dynamic mode without gravity, and the point and the linkage keep moving after
the mouse is released. The last test saves the screenshot used in the docs.
"""

import math
import shutil
import time

import pytest

from .helpers import (
    ART,
    REPO,
    canvas_locator,
    kernel_exec,
    kernel_json,
    one_cell_notebook,
    page_pos,
    pixel,
    poll,
)

pytestmark = pytest.mark.browser

# ipycanvas 0.14 composites a MultiCanvas' layers into one <canvas> (the view's element)
PANEL = "canvas.linkage-configuration-canvas, .linkage-configuration-canvas canvas"
SETUP = """\
from linkage_widget.configuration import SphereChart
from linkage_widget.widget import LinkageWidget

w = LinkageWidget(SphereChart(3.0).linkage(0.35, 0.6), width=480, height=400,
                  show_configuration=True, show_velocities=False, tracked=(2,))
w"""


@pytest.fixture(scope="module")
def page(open_notebook, tmp_path_factory):
    path = one_cell_notebook(tmp_path_factory.mktemp("nb"), "configuration_panel.ipynb", SETUP)
    pg = open_notebook(path, viewport={"width": 1600, "height": 1000})  # room beside
    canvas_locator(pg).wait_for(state="visible")
    pg.locator(PANEL).first.wait_for(state="visible")
    assert poll(lambda: drawn(pg, PANEL), timeout=20)
    return pg


@pytest.fixture
def fresh(page):
    kernel_exec(
        page,
        "w.running = False; w.mode = 'kinematic'; "
        "w.linkage.set_positions(SphereChart(3.0).linkage(0.35, 0.6).vertices); w.refresh(); "
        "w.show_configuration = False; w.show_configuration = True; w.tracked = (2,)",
    )
    return page


def drawn(pg, selector):
    """Whether the canvas ``selector`` shows anything (an undrawn canvas is transparent)."""
    return pg.evaluate(
        """(sel) => { const c = document.querySelector(sel);
        return c.getContext('2d').getImageData(0, 0, c.width, c.height).data
            .some((v, i) => i % 4 === 3 && v !== 0); }""",
        selector,
    )


def point_on_panel(pg):
    return kernel_json(pg, "list(w.configuration_point_px)")


def test_the_panel_appears_beside_the_linkage(page):
    box = page.locator(".linkage-configuration-canvas").first.bounding_box()
    main = canvas_locator(page).bounding_box()
    assert box["x"] >= main["x"] + main["width"] - 1  # beside, to the right
    size, ratio = kernel_json(page, "[list(w.panel_size), w.pixel_ratio]")
    # shown at its CSS size, its backing store at the widget's pixel ratio (crisp on hi-DPI)
    assert [round(box["width"]), round(box["height"])] == size
    assert page.evaluate(
        "(sel) => { const c = document.querySelector(sel); return [c.width, c.height]; }", PANEL
    ) == [round(ratio * size[0]), round(ratio * size[1])]
    # the sphere is shaded: its centre is neither white nor transparent
    r, g, b, a = pixel(page, size[0] // 2, size[1] // 2, canvas=PANEL)
    assert a == 255 and (r, g, b) != (255, 255, 255)
    assert kernel_json(page, "w.configuration_kind") == "sphere"
    assert page.locator(".linkage-show-configuration").first.is_visible()


def test_dragging_the_linkage_moves_the_point(fresh):
    pg = fresh
    before = kernel_json(pg, "list(w.configuration_point)")
    x, y = kernel_json(pg, "w.view.to_pixel(w.linkage.vertices[2]).tolist()")
    pg.mouse.move(*page_pos(pg, x, y))
    pg.mouse.down()
    for k in range(1, 16):
        pg.mouse.move(*page_pos(pg, x + 3 * k, y - 4 * k))
        time.sleep(0.03)
    time.sleep(0.3)
    pg.mouse.up()
    assert poll(lambda: not kernel_json(pg, "w.running"), timeout=10)
    after = kernel_json(pg, "list(w.configuration_point)")
    assert math.dist(before, after) > 0.05, (before, after)
    # the panel shows the point where the kernel says it is
    px, py = point_on_panel(pg)
    point = [0xD8, 0x1B, 0x60]  # the point's colour, drawn where the kernel says it is
    assert poll(lambda: _near(pixel(pg, round(px), round(py), canvas=PANEL)[:3], point))
    assert kernel_json(pg, "len(w.configuration_trail)") > 3


def _near(rgb, want, tol=40):
    return all(abs(a - b) <= tol for a, b in zip(rgb, want, strict=True))


def test_a_flick_on_the_sphere_starts_a_geodesic(fresh):
    pg = fresh
    px, py = point_on_panel(pg)
    top = PANEL
    start_point = kernel_json(pg, "list(w.configuration_point)")
    start_joint = kernel_json(pg, "w.linkage.vertices[2].tolist()")
    pg.mouse.move(*page_pos(pg, px, py, canvas=top))
    pg.mouse.down()
    for k in range(1, 11):
        pg.mouse.move(*page_pos(pg, px - 8 * k, py - 6 * k, canvas=top))
        time.sleep(0.02)
    pg.mouse.up()
    state = poll(lambda: (s := kernel_json(pg, "[w.mode, w.gravity, w.running]"))[2] and s)
    assert state == ["dynamic", 0.0, True], kernel_json(pg, "list(w.error_log)")
    released = kernel_json(pg, "list(w.configuration_point)")
    # the mouse is up: the geodesic goes on by itself (polled: a loaded machine draws slowly)
    later = poll(
        lambda: (
            math.dist(p := kernel_json(pg, "list(w.configuration_point)"), released) > 0.05 and p
        ),
        timeout=30,
    )
    fps = kernel_json(pg, "len([t for t in w.frame_times if t > w.frame_times[-1] - 1])")
    assert later, (start_point, released, f"{fps} frames in the last second")
    print(f"browser flick: {fps} frames in the last second")
    joint = kernel_json(pg, "w.linkage.vertices[2].tolist()")
    assert math.dist(joint, start_joint) > 0.05
    energy = kernel_json(pg, "w.simulator.kinetic_energy()")
    assert energy > 0
    time.sleep(1.5)
    # force-free: no damping, no gravity (RATTLE keeps the energy to O(h^2) at h = 1/60 s)
    assert kernel_json(pg, "w.simulator.kinetic_energy()") == pytest.approx(energy, rel=1e-2)
    # the slider's echo of the time step did not slow the motion (it snapped 1/60 to 0.001)
    assert kernel_json(pg, "w.step_size") == pytest.approx(1 / 60)
    # the screenshot of the docs: linkage and sphere with the geodesic's trail
    ART.mkdir(parents=True, exist_ok=True)
    shot = ART / "configuration_panel.png"
    time.sleep(1.5)  # a longer trail
    pg.evaluate("document.activeElement && document.activeElement.blur()")  # no focus ring
    row = ".linkage-widget > .widget-hbox:has(.linkage-configuration-canvas)"
    pg.locator(row).first.screenshot(path=str(shot))
    docs = REPO / "docs" / "img"
    docs.mkdir(parents=True, exist_ok=True)
    shutil.copy(shot, docs / "configuration_panel.png")
    kernel_exec(pg, "w.running = False")


def test_a_click_on_the_curve_moves_the_four_bar_through_the_motion(page):
    pg = page
    kernel_exec(pg, "w.running = False; w.mode = 'kinematic'; w.load_file('four_bar.txt')")
    # the widget charts the curve in a thread: the panel says so meanwhile
    assert poll(lambda: kernel_json(pg, "w.configuration_kind") == "curve", timeout=60)
    kernel_exec(
        pg,
        "from linkage_widget.draw.angle_charts import AnglePlot as _P\n"
        "_c = w.configuration_chart.curve\n"
        "_b, _ = _c.locate(w.linkage.vertices)\n"
        "_target = _c.branches[_b].angles[60]\n"
        "_rest = w.linkage.rod_lengths().copy()",
    )
    x, y = kernel_json(pg, "_P.fit(*w.panel_size).to_pixel(_target).tolist()")
    start = kernel_json(pg, "w.linkage.vertices.tolist()")
    canvas = pg.locator(PANEL).first
    g = canvas.bounding_box()
    size = kernel_json(pg, "list(w.panel_size)")
    canvas.click(position={"x": x * g["width"] / size[0], "y": y * g["height"] / size[1]})
    assert poll(lambda: kernel_json(pg, "w.linkage.vertices.tolist()") != start, timeout=20)
    assert poll(lambda: not kernel_json(pg, "w.panel_animating"), timeout=30)
    reached = kernel_json(
        pg,
        "[abs(float(a)) for a in __import__('numpy').angle(__import__('numpy').exp("
        "1j * (__import__('numpy').array(w.configuration_point) - _target)))]",
    )
    assert max(reached) < 0.02, reached
    assert kernel_json(pg, "bool(abs(w.linkage.rod_lengths() - _rest).max() < 1e-6 * _rest.max())")
