"""A recording exported from a real kernel in JupyterLab: the export process, the bar, its ✕.

The kernel records a motion of the Peaucellier (fake clock, so the count is known), and
``r`` stops it: the export runs in a spawned process from inside the kernel while the
kernel stays free (it answers at once), the export bar shows under the canvas with its
progress, and the files come out whole; a second export is cancelled by clicking ✕ in
the page: nothing written, the recording kept.
"""

import pytest

from .helpers import kernel_exec, kernel_json, one_cell_notebook, poll, screenshot

pytestmark = pytest.mark.browser

CELL = """\
from linkage_widget import LinkageWidget
import tempfile, pathlib
folder = pathlib.Path(tempfile.mkdtemp())
w = LinkageWidget.load("peaucellier.txt")
w.file_name = str(folder / "peau.txt")
w
"""

RECORD = """\
t = [0.0]
w.recorder.clock = lambda: t[0]
w.selected_vertex = 5
w.key("r")
start = w.linkage.vertices[5].copy()
for k in range(1, 120):
    t[0] += 0.1
    w.attractor = tuple(start + [0.0, 0.02 * k])
    w.running = True
    w.advance()
print(len(w.recorder.frames))
"""


@pytest.fixture(scope="module")
def page(open_notebook, tmp_path_factory):
    path = one_cell_notebook(tmp_path_factory.mktemp("export"), "export_bar.ipynb", CELL)
    return open_notebook(path)


def test_r_exports_in_the_background_with_the_bar_under_the_canvas(page):
    assert kernel_exec(page, RECORD).strip() == "120"
    kernel_exec(page, 'w.key("r")')  # returns at once: the export runs in its process
    bar = page.locator(".linkage-export-bar")
    bar.wait_for(state="visible", timeout=30_000)
    assert kernel_json(page, "w.exporting") in (True, False)  # the kernel answers meanwhile
    screenshot(page, "export-bar")
    assert poll(lambda: not kernel_json(page, "w.exporting"), timeout=120)
    job = "[w._exporter.job.state, w.recording_progress, w._exporter.job.done_frames]"
    assert kernel_json(page, job) == ["done", 1.0, 120]
    info = kernel_json(
        page,
        "(lambda p: [p.name, p.read_bytes()[:3].decode(), "
        "__import__('PIL.Image').Image.open(p).n_frames])(folder / 'exports' / 'peau.gif')",
    )
    # Pillow merges identical successive frames (the motion's end): not every one is stored
    assert info[:2] == ["peau.gif", "GIF"] and info[2] >= 50
    bar.wait_for(state="detached", timeout=30_000)  # the bar leaves with the export
    assert "GIF saved" in kernel_exec(page, "print(w._hint())")


def test_the_cancel_button_in_the_page_stops_the_export(page):
    kernel_exec(page, 'w.export_recording("png", folder / "frames.zip")')
    button = page.locator(".linkage-export-bar button", has_text="cancel")
    button.wait_for(state="visible", timeout=30_000)
    button.click()
    assert poll(lambda: not kernel_json(page, "w.exporting"), timeout=120)
    state = kernel_json(
        page, "[w._exporter.job.state, (folder / 'frames.zip').exists(), len(w.recorder.frames)]"
    )
    assert state == ["cancelled", False, 120]
    assert "export cancelled" in kernel_exec(page, "print(w._hint())")
