"""Recording exports off the frame loop: progress, cancel, numbered PNG frames (issue 15).

Real sessions, real threads, a real asyncio loop where the kernel would have one, real
files decoded with Pillow; nothing timed.
"""

import asyncio
import io
import threading
import zipfile

import pytest
from PIL import Image

from linkage_widget.session import LinkageSession
from linkage_widget.session.export import ExportJob, frame_name, save_png_frames


def recorded(frames: int = 12) -> LinkageSession:
    """A Peaucellier session that recorded ``frames`` frames of a motion (fake clock)."""
    s = LinkageSession.load("peaucellier.txt", width=200, height=150)
    t = [0.0]
    s.recorder.clock = lambda: t[0]
    s.selected_vertex = 5
    s.recording = True
    start = s.linkage.vertices[5].copy()
    for k in range(1, frames):
        t[0] += 0.1
        s.attractor = tuple(start + [0.0, 0.2 * k])  # up the output's straight line
        s.running = True
        s.advance()
    s.recording = False
    assert len(s.recorder.frames) == frames
    return s


def test_progress_rises_to_one_in_the_event_loop_and_the_gif_has_every_frame(tmp_path):
    s = recorded(12)
    seen, threads = [], []
    s.observe(lambda c: (seen.append(c["new"]), threads.append(threading.get_ident())),
              names="recording_progress")  # fmt: skip

    async def main():
        path = s.export_recording("gif", tmp_path / "motion.gif")
        assert s.exporting  # returned at once, the job runs
        while s.exporting:
            await asyncio.sleep(0.01)  # the loop stays free: the job hands progress over
        return path

    path = asyncio.run(main())
    assert seen == sorted(seen) and seen[-1] == 1.0 and len(seen) >= 2
    assert set(threads) == {threading.get_ident()}  # state assigned in the session's thread
    with Image.open(path) as gif:
        assert gif.format == "GIF" and gif.n_frames == 12
    assert "GIF saved" in s._hint() and "12 frames" in s._hint()


@pytest.mark.parametrize("separate_process", [True, False])
def test_cancel_stops_the_encoder_writes_nothing_and_keeps_the_recording(
    tmp_path, separate_process
):
    s = recorded(30)
    frames = list(s.recorder.frames)
    path = tmp_path / "motion.gif"
    s.export_recording("gif", path, separate_process=separate_process)
    s.cancel_export()
    assert s.wait_export(timeout=60) == "cancelled"
    assert not s.exporting and not path.exists()
    assert [p.name for p in tmp_path.iterdir()] == []  # no temporary file left either
    assert s.recorder.frames == frames  # nothing lost
    assert "export cancelled" in s._hint() and "kept" in s._hint()
    # the session is usable: it moves, draws, and the next recording resumes the kept one
    s.key("r")
    assert s.recording and s.recorder.frames[: len(frames)] == frames
    s.recording = False
    s.export_recording("png", tmp_path / "frames.zip")
    assert s.wait_export(timeout=120) == "done" and s.recording_progress == 1.0
    with zipfile.ZipFile(tmp_path / "frames.zip") as z:
        assert len(z.namelist()) == len(s.recorder.frames) >= len(frames)


def test_the_png_sequence_zip_has_numbered_frames_that_decode(tmp_path):
    s = recorded(5)
    s.record_format = "png"
    s.file_name = str(tmp_path / "peau.txt")
    s.recorder.resume_next()  # as after a cancelled export: r goes on after the frames kept
    s.key("r")
    assert s.recording and len(s.recorder.frames) == 6  # the five and the current one
    s.key("r")  # stop: no event loop here, so the export ends before r returns
    out = tmp_path / "exports" / "peau.zip"
    with zipfile.ZipFile(out) as z:
        names = z.namelist()
        assert names[:3] == ["frame_0001.png", "frame_0002.png", "frame_0003.png"]
        assert names == [frame_name(k) for k in range(len(names))] and len(names) >= 5
        for name in names:
            with Image.open(io.BytesIO(z.read(name))) as img:
                img.load()
                assert img.format == "PNG" and img.size == (200, 150)
        first = Image.open(io.BytesIO(z.read(names[0]))).convert("RGB")
        last = Image.open(io.BytesIO(z.read(names[-1]))).convert("RGB")
    assert first.tobytes() != last.tobytes()  # the motion is in the frames
    assert "PNG frames saved" in s._hint()


def test_bad_requests_say_what_and_change_nothing(tmp_path):
    s = LinkageSession.load("peaucellier.txt")
    with pytest.raises(ValueError, match="nothing recorded"):
        s.export_recording()
    s = recorded(4)
    with pytest.raises(ValueError, match="format must be one of"):
        s.export_recording("mp4")
    assert not s.exporting and s.wait_export() == "idle" and not s.cancel_export()
    s.export_recording("gif", tmp_path / "a.gif")
    with pytest.raises(RuntimeError, match="an export is running"):
        s.export_recording("gif", tmp_path / "b.gif")
    assert s.wait_export(timeout=60) == "done" and (tmp_path / "a.gif").exists()
    s.export_recording("gif", tmp_path / "no-such-folder" / "c.gif")
    assert s.wait_export(timeout=60) == "failed"
    assert "export failed" in s.error and "no-such-folder" in s.error
    assert not s.exporting and len(s.recorder.frames) == 4


def test_export_job_reports_frames_and_ends_once():
    ends = []
    buf = io.BytesIO()
    frames = recorded(3).recorder.frames
    job = ExportJob(lambda progress: save_png_frames(frames, buf, progress=progress),
                    notify=lambda: ends.append(job.ended))  # fmt: skip
    assert job.state == "idle" and job.progress == 0.0
    assert job.start().wait(60) and job.state == "done" and job.progress == 1.0
    assert job.done_frames == job.total_frames == 3 and ends[-1] is True
    assert ends.count(True) == 1 and job.seconds > 0
    with pytest.raises(ValueError, match="at least one frame"):
        save_png_frames([], io.BytesIO())
