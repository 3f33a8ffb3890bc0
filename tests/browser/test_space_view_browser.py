"""The 3-D view in JupyterLab + headless Chromium (issue 16).

``LinkageWidget.load("bricard_line.txt")`` (Bricard's line-symmetric flexible octahedron,
a bundled 3-D example) on the same ipycanvas as a planar linkage. With a real mouse:

- a drag on the background turns the camera: the kernel's rotation changed and stays
  orthonormal, the joints' pixels follow it, the canvas's pixels changed, the
  mechanism did not move;
- a drag from a joint pulls it along its flex as seen on the screen: the kernel's joint
  moved, every rod kept to 1e-10 relative, the pinned joints still;
- the mode toggle is on: a click on "dynamic" with gravity makes the pinned-face
  octahedron fall along -z in the page, every rod kept to 1e-10 relative;
- screenshots of the view (orthographic and perspective) into docs/img/.
"""

import numpy as np
import pytest

from .helpers import (
    REPO,
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
import numpy as np
from linkage_widget.draw import hit_test
from linkage_widget.widget import LinkageWidget

w = LinkageWidget.load("bricard_line.txt")


def seen_flex(v):
    '''The flex of the pinned octahedron at joint v, in pixels (kernel of the rods' rows).'''
    L = w.linkage
    X, E, n = L.vertices, np.asarray(L.rods), L.n_vertices
    A = np.zeros((len(E), 3 * n))
    for r, (i, j) in enumerate(E):
        A[r, 3 * i : 3 * i + 3] = X[i] - X[j]
        A[r, 3 * j : 3 * j + 3] = X[j] - X[i]
    keep = np.ones(3 * n, bool)
    for p in L.pinned:
        keep[3 * p : 3 * p + 3] = False
    f = np.zeros(3 * n)
    f[keep] = np.linalg.svd(A[:, keep])[2][-1]
    d = w.camera.project_vectors(X, f.reshape(n, 3))[v] * [1.0, -1.0]
    return (d / np.linalg.norm(d)).tolist()


w"""

DOCS = REPO / "docs" / "img"


@pytest.fixture(scope="module")
def page(open_notebook, tmp_path_factory):
    path = one_cell_notebook(tmp_path_factory.mktemp("nb"), "space_view.ipynb", SETUP)
    pg = open_notebook(path, viewport={"width": 1280, "height": 1000})
    canvas_locator(pg).wait_for(state="visible")
    return pg


@pytest.fixture
def fresh(page):
    kernel_exec(
        page,
        "w.running = False; w.mode = 'kinematic'; w.gravity = 0.0;"
        "w.load_file('bricard_line.txt'); w.selected_vertex = None;"
        "w.error = ''; w.projection = 'orthographic'; w.fit()",
    )
    return page


def canvas_sum(pg):
    """A fingerprint of the canvas's backing store: the sum of its pixels' bytes, weighted."""
    return pg.evaluate(
        """(sel) => { const c = document.querySelector(sel);
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let s = 0; for (let i = 0; i < d.length; i += 4) s += (i % 997) * (d[i] + 3 * d[i + 1]);
        return s; }""",
        canvas_selector(pg),
    )


def mouse_drag(pg, start, end, steps=12):
    """A real mouse drag in canvas pixels, in ``steps`` moves."""
    pg.mouse.move(*page_pos(pg, *start))
    pg.mouse.down()
    for k in range(1, steps + 1):
        t = k / steps
        pg.mouse.move(
            *page_pos(pg, start[0] + t * (end[0] - start[0]), start[1] + t * (end[1] - start[1]))
        )
        pg.wait_for_timeout(30)
    pg.mouse.up()


def test_a_background_drag_turns_the_view(fresh):
    pg = fresh
    R0 = np.array(kernel_json(pg, "w.camera.rotation.tolist()"))
    X0 = np.array(kernel_json(pg, "w.linkage.vertices.tolist()"))
    P0 = np.array(kernel_json(pg, "w.joint_pixels()[0].tolist()"))
    cx, cy = kernel_json(pg, "w.view.to_pixel([0.0, 0.0]).tolist()")
    start = (cx, 40.0)
    keywords = "**w._viewer.hit_pixels(w.linkage.vertices, w.view)"
    hit = f"hit_test(w.linkage, w.view, {cx}, 40.0, {keywords})"
    assert kernel_json(pg, hit) is None  # the background
    before = canvas_sum(pg)
    mouse_drag(pg, start, (cx + 120.0, 70.0))
    assert poll(lambda: not np.allclose(kernel_json(pg, "w.camera.rotation.tolist()"), R0))
    R = np.array(kernel_json(pg, "w.camera.rotation.tolist()"))
    assert np.allclose(R @ R.T, np.eye(3), atol=1e-12) and np.linalg.det(R) > 0
    assert np.array_equal(kernel_json(pg, "w.linkage.vertices.tolist()"), X0)  # nothing moved
    P = np.array(kernel_json(pg, "w.joint_pixels()[0].tolist()"))
    assert np.abs(P - P0).max() > 10.0
    assert poll(lambda: canvas_sum(pg) != before), "the canvas did not redraw the turned view"
    canvas_locator(pg).screenshot(path=str(DOCS / "space_view.png"))
    turned = canvas_sum(pg)
    kernel_exec(pg, "w.projection = 'perspective'")
    assert poll(lambda: canvas_sum(pg) != turned)
    canvas_locator(pg).screenshot(path=str(DOCS / "space_view_perspective.png"))


def test_a_joint_drags_and_keeps_every_rod(fresh):
    pg = fresh
    lengths = np.array(kernel_json(pg, "w.linkage.rod_lengths().tolist()"))
    X0 = np.array(kernel_json(pg, "w.linkage.vertices.tolist()"))
    pinned = kernel_json(pg, "w.linkage.pinned.tolist()")
    P, depth = kernel_json(pg, "[a.tolist() for a in w.joint_pixels()]")
    free = [v for v in range(len(P)) if v not in pinned]
    v = max(free, key=lambda i: depth[i])  # the front free joint
    d = np.array(kernel_json(pg, f"seen_flex({v})"))
    start = np.array(P[v])
    mouse_drag(pg, tuple(start), tuple(start + 70.0 * d), steps=14)

    def travelled():
        X = np.array(kernel_json(pg, "w.linkage.vertices.tolist()"))
        return np.linalg.norm(X[v] - X0[v]) > 0.05 * lengths.max()

    assert poll(travelled, timeout=20), kernel_json(pg, "list(w.canvas_input.log)[-8:]")
    X = np.array(kernel_json(pg, "w.linkage.vertices.tolist()"))
    L = np.array(kernel_json(pg, "w.linkage.rod_lengths().tolist()"))
    assert np.abs(L - lengths).max() / lengths.max() < 1e-10
    assert np.array_equal(X[pinned], X0[pinned])
    now = np.array(kernel_json(pg, f"w.joint_pixels()[0][{v}].tolist()"))
    assert np.linalg.norm(now - (start + 70.0 * d)) < 70.0  # toward the pointer
    canvas_locator(pg).screenshot(path=str(DOCS / "space_view_dragged.png"))


def test_dynamic_mode_in_space_falls_under_gravity(fresh):
    pg = fresh
    assert kernel_json(pg, "w.mode_refusal()") == ""
    assert kernel_json(pg, "w.controls.modes.disabled") is False
    lengths = np.array(kernel_json(pg, "w.linkage.rod_lengths().tolist()"))
    X0 = np.array(kernel_json(pg, "w.linkage.vertices.tolist()"))
    pinned = kernel_json(pg, "w.linkage.pinned.tolist()")
    kernel_exec(pg, "w.gravity = 500.0")
    button = pg.locator(".widget-toggle-buttons button", has_text="dynamic").first
    assert not button.is_disabled()
    button.click()  # the real toggle, in the page
    assert poll(lambda: kernel_json(pg, "w.mode") == "dynamic")
    assert "-z" in kernel_json(pg, "w._message")  # gravity's direction in space, said
    kernel_exec(pg, "w.running = True")

    def fell():
        X = np.array(kernel_json(pg, "w.linkage.vertices.tolist()"))
        return np.linalg.norm(X - X0, axis=1).max() > 0.1 * lengths.max()

    assert poll(fell, timeout=20), kernel_json(pg, "[w.status, w.error]")
    kernel_exec(pg, "w.running = False")
    X = np.array(kernel_json(pg, "w.linkage.vertices.tolist()"))
    L = np.array(kernel_json(pg, "w.linkage.rod_lengths().tolist()"))
    assert np.abs(L - lengths).max() / lengths.max() < 1e-10
    assert np.array_equal(X[pinned], X0[pinned])
    free = [v for v in range(len(X)) if v not in pinned]
    assert X[free, 2].mean() < X0[free, 2].mean()  # down along -z
    assert kernel_json(pg, "w.error") == ""
    kernel_exec(pg, "w.mode = 'kinematic'; w.gravity = 0.0")
