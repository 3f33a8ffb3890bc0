"""Defects a teacher met running the notebooks (issue 15): load_file, exports, blocked motion."""

import shutil
import subprocess
import tomllib
from pathlib import Path

import numpy as np
import pytest

from linkage_widget import Linkage, LinkageFormatError
from linkage_widget.session import DEFAULT_FILE, LinkageSession


def peaucellier() -> LinkageSession:
    return LinkageSession.load("peaucellier.txt")


# ------------------------------------------------------------------ load_file from code
def test_load_file_of_a_missing_file_raises_and_keeps_the_linkage(tmp_path):
    s = peaucellier()
    before = s.linkage.copy()
    with pytest.raises(FileNotFoundError):
        s.load_file(tmp_path / "nope.txt")
    assert s.linkage == before and "nope.txt" in s.error


def test_load_file_of_a_malformed_file_raises_with_file_and_line(tmp_path):
    s = peaucellier()
    before = s.linkage.copy()
    bad = tmp_path / "bad.txt"
    bad.write_text("v\n0 0\n1 zero\n")
    with pytest.raises(LinkageFormatError, match="line 3") as info:
        s.load_file(bad)
    assert info.value.line == 3 and "bad.txt" in info.value.source
    assert s.linkage == before and "line 3" in s.error


def test_the_load_key_shows_the_error_instead_of_raising(tmp_path):
    s = peaucellier()
    before = s.linkage.copy()
    s.file_name = str(tmp_path / "nope.txt")
    s.key("l")  # the UI path: no exception reaches the front end
    assert s.linkage == before and "nope.txt" in s.error


def test_load_file_of_a_good_file_loads_it():
    s = LinkageSession(linkage=Linkage())
    assert s.load_file("peaucellier.txt")
    assert s.linkage == Linkage.load("peaucellier.txt")


# ------------------------------------------------------------------ blocked motion
def pinned_triangle() -> LinkageSession:
    link = Linkage([[0, 0], [100, 0], [50, 80]], rods=[(0, 1), (1, 2), (0, 2)], pinned=[0])
    s = LinkageSession(linkage=link)
    s.fit()
    return s


def pixel(s: LinkageSession, xy) -> tuple[float, float]:
    return tuple(float(c) for c in s.view.to_pixel(np.asarray(xy, dtype=float)))


def test_a_drag_to_an_unreachable_point_says_blocked():
    s = pinned_triangle()
    start, far = pixel(s, s.linkage.vertices[1]), pixel(s, (400.0, 0.0))
    s.press(*start)
    for t in np.linspace(0, 1, 11)[1:]:
        s.drag(*((1 - t) * np.asarray(start) + t * np.asarray(far)))
        s.advance(3)
    s.advance(20)
    # the rigid triangle turned about its pin towards the pointer and stopped there
    assert np.linalg.norm(s.linkage.vertices[1]) == pytest.approx(100.0, rel=1e-6)
    assert s._hint().startswith("blocked: vertex 1 cannot get closer to the pointer")
    s.release(*far)


def test_an_attractor_out_of_reach_says_blocked():
    s = pinned_triangle()
    s.selected_vertex = 2
    s.attractor = (500.0, 500.0)
    s.running = True
    s.advance(200)
    assert s._hint().startswith("blocked: vertex 2 cannot get closer to the attractor")


# ------------------------------------------------------------------ exports
@pytest.mark.parametrize(
    ("key", "suffix", "magic"), [("p", ".png", b"\x89PNG"), ("r", ".gif", b"GIF")]
)
def test_p_and_r_write_into_exports_beside_the_notebook(tmp_path, monkeypatch, key, suffix, magic):
    monkeypatch.chdir(tmp_path)  # the kernel's working directory: the notebook's folder
    s = peaucellier()  # file_name is the bare default name
    t = [0.0]
    s.recorder.clock = lambda: t[0]
    s.key(key)
    if key == "r":  # record a few frames, then stop: the GIF is written
        s.selected_vertex = 5
        s.attractor = (128.0, 300.0)
        for _ in range(4):
            t[0] += 0.1
            s.advance()
        s.key("r")
    out = tmp_path / "exports" / Path(DEFAULT_FILE).with_suffix(suffix).name
    assert out.read_bytes()[: len(magic)] == magic
    assert [p.name for p in tmp_path.iterdir()] == ["exports"]  # nothing beside the notebook
    assert str(out) in s._hint()  # the message names the full path


def test_an_export_goes_beside_the_file_in_the_file_box(tmp_path):
    s = peaucellier()
    s.file_name = str(tmp_path / "course" / "mine.txt")
    s.key("p")
    assert (tmp_path / "course" / "exports" / "mine.png").exists()


# ------------------------------------------------------------------ setup files
ROOT = Path(__file__).resolve().parents[2]


def pip_installs(target: str, venv: Path) -> list[str]:
    """The pip lines ``make -n <target>`` would run on a fresh clone (no .venv yet)."""
    out = subprocess.run(
        ["make", "-n", target, f"VENV={venv}"], cwd=ROOT, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    return [line for line in out.stdout.splitlines() if "pip install" in line]


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_lab_installs_no_test_tools_and_make_test_does(tmp_path):
    venv = tmp_path / "venv"
    assert pip_installs("lab", venv) == [f"{venv}/bin/python -m pip install -e '.[lab]'"]
    assert pip_installs("test", venv) == [f"{venv}/bin/python -m pip install -e '.[lab,test]'"]
    # after the test install, make lab has nothing to install
    venv.mkdir()
    (venv / "bin").mkdir()
    (venv / "bin" / "python").touch()
    for stamp in (".linkage-widget-lab", ".linkage-widget-lab-test"):
        (venv / stamp).touch()
    assert pip_installs("lab", venv) == [] and pip_installs("test", venv) == []


def test_the_licence_is_the_mit_text_pyproject_names():
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License") and "the linkage_widget authors" in text
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert meta["project"]["license"] == "MIT"
