"""Drag at display rate: frames/s and mouse-move -> canvas-change latency in real Chromium.

Starts JupyterLab (this interpreter, temp state) and headless Chromium (``/usr/bin/chromium``,
or env ``CHROMIUM``) through Playwright, opens a notebook whose one cell shows
``LinkageWidget.load(<file>)``, and for each linkage measures, as a student drags a joint:

- **frames/s**: a joint near the canvas centre is pressed with the real mouse and dragged
  along a circle for ``--seconds`` s, one ``mousemove`` per display refresh (60 Hz).
  Printed: the frames the kernel drew and sent (one batched canvas message each; the
  paced loop allows at most 60 a second), the ``drawImage`` calls on the visible canvas
  (wrapped in the page: ipycanvas copies its model canvas there per message, twice since
  the hi-DPI canvas) and the display refreshes that showed a new frame;
- **latency**: with the joint held down the page dispatches single ``mousemove`` s 120 ms
  apart and times each to the next ``drawImage``: browser -> kernel (event, step, scene,
  canvas commands) -> browser. The median is printed;
- the kernel's own view: median and 90th percentile of the cost of one drawn frame in
  the kernel (motion, live analysis, scene, canvas commands; idle ticks left out), in
  wall-clock time (``kernel ms``, which a loaded machine stretches) and in the CPU time of
  the frame's thread (``cpu ms``, as ``bench_drag.py`` counts it headless).

The method (and its JavaScript) is the one of ``tests/browser/test_widget_bench.py``, which
this script imports; this script needs no pytest and prints one table::

    .venv/bin/python benchmarks/bench_drag_browser.py            # peaucellier + penrose2t
    .venv/bin/python benchmarks/bench_drag_browser.py --seconds 6 --samples 60 penrose4t.txt

Linkage names are bundled examples or files of ``../shared/reference-linkages`` (where
``penrose2t.txt``, the 81-joint tiling, lives). Targets (issue 15): >= 50 frames/s and a
median latency <= 30 ms on both. Figures depend on the machine and its load: the load
average is printed beside them.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import nbformat

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests")]

from linkage_widget.io import resolve_path  # noqa: E402
from tests.browser import test_widget_bench as bench  # noqa: E402 - after the path
from tests.browser.conftest import CHROME_FLAGS, CHROMIUM, TOKEN, start_lab  # noqa: E402
from tests.browser.helpers import canvas_locator, kernel_exec, kernel_json  # noqa: E402

REFERENCE = REPO.parent / "shared" / "reference-linkages"
DEFAULT = ("peaucellier.txt", "penrose2t.txt")
# Like the test's instrument, but the frame costs kept are those of frames that drew
# (during a drag the paced loop also ticks idle, which cost nothing and hid the median).
INSTRUMENT = """
import time as _t
w.frame_times.clear()
_bench_costs, _bench_cpu, _bench_analyses = [], [], [0]
def _timed_frame(_orig=w.frame):  # the class's, or the profiling wrapper below
    n = w._live_analyst.drawn
    t0, c0 = _t.perf_counter(), _t.thread_time()
    busy = _orig()
    dt, dc = _t.perf_counter() - t0, _t.thread_time() - c0
    if w._live_analyst.drawn > n:
        _bench_costs.append(dt)
        _bench_cpu.append(dc)
    return busy
def _counted_store(*a, _orig=w._analyst.store):  # every analysis kept (.analysis)
    _bench_analyses[0] += 1; return _orig(*a)
w.frame, w._analyst.store = _timed_frame, _counted_store
"""
# cProfile sees one thread; the frames of a drag run where the comm messages are
# handled, so the profiler is switched on around each frame, whichever thread runs it.
PROFILE_FRAMES = """
import cProfile as _cp, threading as _th
_P, _threads = _cp.Profile(), set()
def _profiled_frame(_orig=type(w).frame.__get__(w)):
    _threads.add(_th.current_thread().name)
    _P.enable()
    try:
        return _orig()
    finally:
        _P.disable()
w.frame = _profiled_frame
"""
PROFILE_REPORT = """
print("frames ran in threads:", sorted(_threads))
import pstats as _ps, io as _io
_s = _io.StringIO()
_st = _ps.Stats(_P, stream=_s)
_st.sort_stats("tottime").print_stats(25)
_st.sort_stats("cumulative").print_stats(40)
print(_s.getvalue())
"""

_IDLE_JS = """() => { const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
    const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
    return k && k.connectionStatus === 'connected' && k.status === 'idle'; }"""


def linkage_file(name: str) -> Path:
    """A bundled example, else a file of the shared reference linkages."""
    if (REFERENCE / name).is_file():
        return REFERENCE / name
    return resolve_path(name)


def open_widget(browser, server, name: str, ratio: float | None = None):
    """A page showing ``LinkageWidget.load(name)`` with all analyses done."""
    path = str(linkage_file(name))
    extra = "" if ratio is None else f", pixel_ratio={ratio!r}"
    cell = f"from linkage_widget import LinkageWidget\nw = LinkageWidget.load({path!r}{extra})\nw"
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(cell)])
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
    }
    rel = f"notebooks/bench_drag_{Path(name).stem}.ipynb"
    nbformat.write(nb, server.root / rel)
    pg = browser.new_context(viewport={"width": 1280, "height": 1000}).new_page()
    pg.set_default_timeout(120_000)
    pg.goto(f"{server.base}/lab/tree/{rel}?token={TOKEN}&reset")
    pg.wait_for_function(_IDLE_JS)
    pg.evaluate("window.__testPanel = window.jupyterapp.shell.currentWidget")
    pg.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
    canvas_locator(pg).wait_for(state="visible")
    t0 = time.time()  # the analysis of a big linkage runs in a thread after loading
    while time.time() - t0 < 120 and "analysing" in kernel_exec(
        pg, "print(w.controls.readout.value)"
    ):
        time.sleep(0.5)
    time.sleep(1.0)
    return pg


def central_vertex(pg) -> tuple[int, list[float]]:
    """The joint nearest the canvas centre and its position in the widget's CSS pixels.

    The session works in CSS pixels; the canvas's backing store has ``pixel_ratio`` as
    many (hi-DPI). ``page_pos`` takes CSS pixels, and so do the page scripts below.
    """
    return kernel_json(
        pg,
        """(lambda P, c: (lambda i: (i, P[i].tolist()))(int(((P - c) ** 2).sum(1).argmin())))(
        w.view.to_pixel(w.linkage.vertices), [w.view.width / 2, w.view.height / 2])""",
    )


def _css_scripts() -> None:
    """The test's page scripts, mapping the widget's CSS pixels (not the backing store's)."""
    css = "(parseFloat(c.style.width) || c.width)"
    for name in ("DRAG_JS", "LATENCY_JS"):
        js = getattr(bench, name)
        js = js.replace("r.width / c.width", f"r.width / {css}")
        js = js.replace("r.height / c.height", f"r.width / {css}")  # square pixels
        setattr(bench, name, js)


def measure(
    browser,
    server,
    name: str,
    seconds: float,
    samples: int,
    profile: bool = False,
    ratio: float | None = None,
) -> dict:
    """fps and latency of a drag of ``name``: one dict of figures."""
    bench.DRAG_S, bench.LATENCY_SAMPLES, bench.INSTRUMENT = seconds, samples, INSTRUMENT
    if bench._central_vertex is not central_vertex:  # hi-DPI safe (the test's is not)
        bench._central_vertex = central_vertex
        _css_scripts()
    pg = open_widget(browser, server, name, ratio)
    try:
        if profile:  # the kernel's main thread, all of it: comm messages, frames, drawing
            kernel_exec(pg, PROFILE_FRAMES)
        fps = bench._drag_fps(pg, name)
        cpu = kernel_json(pg, "sorted(_bench_cpu)")  # the frame's own thread's CPU time
        fps["kernel_frame_cpu_ms_median"] = round(1000 * cpu[len(cpu) // 2], 1) if cpu else None
        if profile:
            print(f"\n=== kernel profile of the {name} drag ({seconds} s) ===")
            print(kernel_exec(pg, PROFILE_REPORT))
        lat = bench._latency(pg, name)
    finally:
        pg.context.close()
    return {**fps, **lat}


def main(argv: list[str] | None = None) -> None:
    """Run the drags, print a table and the JSON of every figure."""
    from playwright.sync_api import sync_playwright

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("names", nargs="*", default=list(DEFAULT))
    ap.add_argument("--seconds", type=float, default=4.0, help="length of the fps drag")
    ap.add_argument("--samples", type=int, default=40, help="latency samples")
    ap.add_argument("--profile", action="store_true", help="print a kernel profile of each drag")
    ap.add_argument("--pixel-ratio", type=float, help="the widget's pixel_ratio (its default)")
    ap.add_argument(
        "--comms-over-subshells",
        choices=["disabled", "perComm", "perCommTarget"],
        help="JupyterLab's setting (default: this environment's overrides.json, which "
        "`make` installs from binder/overrides.json: disabled; JupyterLab's own default "
        "is perCommTarget)",
    )
    args = ap.parse_args(argv)
    server = start_lab(sys.executable, args.comms_over_subshells)
    rows = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=CHROMIUM or None, headless=True, args=CHROME_FLAGS
            )
            for name in args.names:
                rows.append(
                    measure(
                        browser,
                        server,
                        name,
                        args.seconds,
                        args.samples,
                        args.profile,
                        args.pixel_ratio,
                    )
                )
            browser.close()
    finally:
        server.stop()
    # frames/s: frames the kernel drew and sent (one canvas message each); drawImage
    # calls in the page (ipycanvas may copy twice a message); display refreshes showing
    # a new frame (at most the refresh rate; what a busy browser manages to present)
    print(
        f"\n{'linkage':<18}{'joints':>7}{'fps sent':>9}{'drawImage/s':>12}{'fps shown':>10}"
        f"{'latency ms':>11}{'p90 ms':>7}{'kernel ms':>10}{'cpu ms':>7}{'load':>6}"
    )
    for r in rows:
        print(
            f"{r['linkage']:<18}{r['vertices']:>7}{r['kernel_fps']:>9}{r['fps_drawn']:>12}"
            f"{r['fps_shown']:>10}{r['latency_ms_median']!s:>11}{r['latency_ms_p90']!s:>7}"
            f"{r['kernel_frame_ms_median']!s:>10}{r['kernel_frame_cpu_ms_median']!s:>7}"
            f"{r['load_avg']:>6.2f}"
        )
    print("\nJSON", json.dumps(rows))


if __name__ == "__main__":
    main()
