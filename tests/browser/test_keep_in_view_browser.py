"""Keep the mechanism in view, in Chromium (issue 15): a drag of the Peaucellier's output
joint up to the canvas's top edge (the joint half cut by it) is followed, once released,
by a pan that shows every joint clear of the edge; the view does not move under the drag."""

import time

import nbformat
import pytest

from .helpers import kernel_json, page_pos, poll

pytestmark = pytest.mark.browser

SOURCE = """from linkage_widget import LinkageWidget
w = LinkageWidget.load("peaucellier.txt")
w"""


@pytest.fixture(scope="module")
def page(open_notebook, tmp_path_factory):
    path = tmp_path_factory.mktemp("keep") / "keep_in_view.ipynb"
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nb.cells.append(nbformat.v4.new_code_cell(SOURCE))
    nbformat.write(nb, path)
    return open_notebook(str(path))


def test_a_drag_to_the_edge_is_brought_back_into_view_after_release(page):
    pg = page
    poll(lambda: kernel_json(pg, "bool(w._joints_in_view().all())"))
    view0 = kernel_json(pg, "[w.view.offset_x, w.view.offset_y, w.view.scale]")
    px, py = kernel_json(pg, "w.view.to_pixel(w.linkage.vertices[5]).tolist()")
    y0 = kernel_json(pg, "w.linkage.vertices[5, 1]")
    pg.mouse.move(*page_pos(pg, px, py))
    pg.mouse.down()
    steps = 30
    for k in range(1, steps + 1):  # straight up its line, to 2 px below the top edge
        pg.mouse.move(*page_pos(pg, px, py + (2.0 - py) * k / steps))
        time.sleep(0.03)
    # the joint has followed the pointer to the edge; the view has not moved under the hand
    top = poll(
        lambda: (
            (p := kernel_json(pg, "w.view.to_pixel(w.linkage.vertices[5]).tolist()"))[1] < 12.0
            and p
        ),
        timeout=15,
    )
    assert top, "the output joint did not reach the top edge"
    assert kernel_json(pg, "[w.view.offset_x, w.view.offset_y, w.view.scale]") == view0
    pg.mouse.up()
    assert poll(lambda: kernel_json(pg, "bool(w._joints_in_view().all())"), timeout=15), (
        kernel_json(pg, "w.view.to_pixel(w.linkage.vertices).tolist()")
    )
    view1 = kernel_json(pg, "[w.view.offset_x, w.view.offset_y, w.view.scale]")
    assert view1[2] == view0[2] and view1[1] > view0[1]  # panned down, not zoomed
    assert kernel_json(pg, "w.linkage.vertices[5, 1]") > y0 + 10  # it did move up
