"""Widget messages on one thread under JupyterLab's stock setting (comms over subshells).

JupyterLab 4.4+ sends comm messages over a kernel subshell by default, and ipykernel 7
then handles one widget's messages on two threads: a click's press and release
interleaved and the click was lost (CI, before ``widget/one_thread.py``). ``make lab`` and
Binder turn the setting off (``binder/overrides.json``); a user's own JupyterLab may not,
so this module's server keeps JupyterLab's default, and the widget must serialise its
messages itself.
"""

import pytest

from .helpers import canvas_locator, css_pos, drag_output_joint, kernel_exec, kernel_json, poll

pytestmark = pytest.mark.browser

NOTEBOOK = "notebooks/01_peaucellier.ipynb"

# every input event the merger notes, with the thread that handled it
THREADS = """
import threading
_threads = set()
_note = w.canvas_input._note
def _note_thread(*args, **kwargs):
    _threads.add(threading.current_thread().name)
    return _note(*args, **kwargs)
w.canvas_input._note = _note_thread
"""


def test_clicks_right_after_a_drag_all_count_and_run_on_the_widget_thread(open_notebook):
    pg = open_notebook(NOTEBOOK, comms_over_subshells="perCommTarget")
    canvas_locator(pg).wait_for(state="visible")
    kernel_exec(pg, THREADS)
    for _ in range(3):
        kernel_exec(pg, "w.running = False; w.load_file('peaucellier.txt')")
        drag_output_joint(pg, steps=9, hold=0.0)
        for c in range(4):  # four clicks on empty canvas: four new joints
            canvas_locator(pg).click(position=css_pos(pg, 40 + 30 * c, 40))
        added = poll(lambda: kernel_json(pg, "w.linkage.n_vertices") == 10, timeout=10)
        assert added, kernel_json(pg, "list(w.canvas_input.log)[-20:]")
    names = kernel_json(
        pg,
        "[sorted(_threads), w.message_thread.thread.name, [t.name for t in threading.enumerate()]]",
    )
    handled, widget_thread, alive = names
    # the setting is in force: the frontend made a subshell for the widgets' comms ...
    assert any(name.startswith("subshell") for name in alive), alive
    # ... and yet every event was handled on the thread that built the widget
    assert handled == [widget_thread] == ["MainThread"]
