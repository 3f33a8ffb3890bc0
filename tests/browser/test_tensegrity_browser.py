"""Cables and NAC-colourings in JupyterLab + headless Chromium (issue 26).

A pinned square with a diagonal: the kind chooser beside the tools picks "cable", the rod
tool's click on the top rod makes it a cable, and the canvas shows it dashed: along the
rod's line, where the solid rod's grey was, the pixels now alternate between the cable's
dark stroke and the white of its gaps. Then (when the NAC part is there) the NAC button
shows a colouring of a prism's rods in two colours and the flex button plays it: the
joints move, every rod keeps its length, and the canvas changes from frame to frame.
All waits poll the kernel or the pixels (a busy machine draws late, never wrongly).
"""

import hashlib
import time

import numpy as np
import pytest

from linkage_widget import rigidity

from .helpers import (
    ART,
    canvas_locator,
    canvas_selector,
    css_pos,
    kernel_exec,
    kernel_json,
    one_cell_notebook,
    patience,
    pixel,
    poll,
)

pytestmark = pytest.mark.browser

SOURCE = """from linkage_widget import Linkage, LinkageWidget
square = Linkage([[0, 0], [4, 0], [4, 3], [0, 3]],
                 rods=[(0, 1), (1, 2), (2, 3), (3, 0), (0, 2)], pinned=[0, 1])
w = LinkageWidget(square, width=560, height=420, show_velocities=False)
w"""

WHITE = [255, 255, 255]


@pytest.fixture(scope="module")
def page(open_notebook, tmp_path_factory):
    path = one_cell_notebook(tmp_path_factory.mktemp("tense"), "tensegrity.ipynb", SOURCE)
    pg = open_notebook(str(path))
    canvas_locator(pg).wait_for(state="visible")
    return pg


def joint_px(pg, v):
    return kernel_json(pg, f"w.view.to_pixel(w.linkage.vertices[{v}]).tolist()")


def along(pg, i, j, count=60):
    """The canvas's colours at ``count`` points of the segment between joints i and j,
    leaving out 20 % at each end (the joints' disks)."""
    (x0, y0), (x1, y1) = joint_px(pg, i), joint_px(pg, j)
    ts = np.linspace(0.2, 0.8, count)
    return [pixel(pg, x0 + t * (x1 - x0), y0 + t * (y1 - y0))[:3] for t in ts]


def dashed(colours) -> bool:
    """Some pixels are the light of the gaps (white, or nearly: a gap's edge is smoothed),
    some the dark of the cable's stroke."""
    light = sum(min(c) > 180 for c in colours)
    dark = sum(max(c) < 110 for c in colours)
    return light >= len(colours) // 8 and dark >= len(colours) // 4


def canvas_digest(pg):
    data = pg.evaluate(
        """(sel) => { const c = document.querySelector(sel);
        return Array.from(c.getContext('2d').getImageData(0, 0, c.width, c.height).data
            .filter((_, i) => i % 7 === 0)).join(','); }""",
        canvas_selector(pg),
    )
    return hashlib.sha1(data.encode()).hexdigest()


def test_a_rod_clicked_with_the_cable_kind_becomes_a_dashed_cable(page):
    pg = page
    assert poll(lambda: not dashed(along(pg, 2, 3)))  # a solid rod to begin with
    solid = along(pg, 2, 3)
    assert all(c != WHITE for c in solid), solid
    pg.locator(".linkage-rod-kind select").select_option("cable")
    assert poll(lambda: kernel_json(pg, "w.rod_kind") == "cable")
    pg.locator(".linkage-tools select").select_option("rod")
    assert poll(lambda: kernel_json(pg, "w.tool") == "rod")
    (x0, y0), (x1, y1) = joint_px(pg, 2), joint_px(pg, 3)
    canvas_locator(pg).click(position=css_pos(pg, (x0 + x1) / 2, (y0 + y1) / 2))
    kinds = "w.linkage.rod_kinds.tolist()"
    assert poll(lambda: kernel_json(pg, kinds) == ["rod", "rod", "cable", "rod", "rod"]), (
        kernel_json(pg, "w.error")
    )
    assert poll(lambda: dashed(along(pg, 2, 3)), timeout=20), along(pg, 2, 3)
    assert not dashed(along(pg, 0, 1))  # the other rods are still solid
    assert "cable: may shorten, not lengthen" in kernel_json(pg, "w.controls.legend.value")
    ART.mkdir(parents=True, exist_ok=True)
    canvas_locator(pg).screenshot(path=str(ART / "widget-cable.png"))
    kernel_exec(pg, "w.undo()")  # one undo step: the rod again, drawn solid
    assert poll(lambda: kernel_json(pg, kinds) == ["rod"] * 5)
    assert poll(lambda: not dashed(along(pg, 2, 3)), timeout=20)


@pytest.mark.skipif(not hasattr(rigidity, "nac_colourings"), reason="no rigidity.nac yet")
def test_a_nac_colouring_picked_and_played_flexes_the_prism(page):
    pg = page
    kernel_exec(
        pg,
        "w.linkage = Linkage([[0, 0], [4, 0], [2, 3], [0.6, 0.8], [3.3, 0.7], [2.1, 2.2]],"
        " rods=[(0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 3), (0, 3), (1, 4), (2, 5)])",
    )
    assert poll(lambda: kernel_json(pg, "w.linkage.n_rods") == 9)
    pg.locator(".linkage-button-nac_next").click()
    assert poll(lambda: kernel_json(pg, "w.nac.index") == 0), kernel_json(pg, "w.error")
    assert poll(lambda: "NAC-colouring: red rods" in kernel_json(pg, "w.controls.legend.value"))
    lengths = "np.linalg.norm(np.diff(w.linkage.vertices[w.linkage.rods], axis=1)[:, 0], axis=1)"
    kernel_exec(pg, "import numpy as np")
    kept = kernel_json(pg, f"{lengths}.tolist()")
    start = kernel_json(pg, "w.linkage.vertices.tolist()")
    pg.locator(".linkage-button-flex").click()
    samples, digests = [], set()
    t0 = time.time()
    while (len(digests) < 3 or len(samples) < 5) and time.time() - t0 < patience(60):
        samples.append(kernel_json(pg, f"[w.linkage.vertices.tolist(), {lengths}.tolist()]"))
        digests.add(canvas_digest(pg))
        time.sleep(0.3)
    assert any(np.abs(np.subtract(p, start)).max() > 1e-2 for p, _ in samples), "no flex"
    for _, got in samples:  # a flex: every rod keeps its length
        np.testing.assert_allclose(got, kept, rtol=1e-6)
    assert len(digests) >= 3, "the drawing did not follow the flex"
    assert kernel_json(pg, "w.error") == ""
