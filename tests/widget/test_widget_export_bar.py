"""The widget's export bar: the progress of a background export and its ✕ (issue 15).

A real widget in a real asyncio loop (as in the kernel), a real export process.
"""

import asyncio

from linkage_widget import LinkageWidget


def recorded_widget(frames: int) -> LinkageWidget:
    w = LinkageWidget.load("peaucellier.txt", width=200, height=150)
    t = [0.0]
    w.recorder.clock = lambda: t[0]
    w.selected_vertex = 5
    w.recording = True
    start = w.linkage.vertices[5].copy()
    for k in range(1, frames):
        t[0] += 0.1
        w.attractor = tuple(start + [0.0, 0.2 * k])
        w.running = True
        w.advance()
    w.recording = False
    return w


def test_the_bar_shows_progress_while_exporting_and_hides_after(tmp_path):
    w = recorded_widget(8)
    bar = w.export_bar
    before = list(w.children)
    assert bar.box not in before
    shown = []

    async def main():
        w.export_recording("png", tmp_path / "frames.zip")
        while w.exporting:
            rows = list(w.children)
            shown.append((rows.index(bar.box) == rows.index(w.canvas) + 1, bar.progress.value))
            await asyncio.sleep(0.01)

    asyncio.run(main())
    assert shown and all(under for under, _ in shown)  # right under the canvas
    values = [v for _, v in shown]
    assert values == sorted(values)
    assert bar.progress.value == 1.0 and list(w.children) == before  # gone again
    assert (tmp_path / "frames.zip").stat().st_size > 0


def test_the_cancel_button_stops_the_export_and_keeps_the_recording(tmp_path):
    w = recorded_widget(40)
    frames = list(w.recorder.frames)

    async def main():
        w.export_recording("gif", tmp_path / "motion.gif")
        w.export_bar.cancel.click()  # as the user's click: the session's cancel_export
        while w.exporting:
            await asyncio.sleep(0.01)

    asyncio.run(main())
    assert w._exporter.job.state == "cancelled" and not (tmp_path / "motion.gif").exists()
    assert w.recorder.frames == frames and w.export_bar.box not in w.children
    assert "export cancelled" in w._hint()
