"""Exported SVG, PNG and GIF files: ordinary permissions, atomic replacement, no temp files.

Exports go through the package's one atomic writer (``linkage_widget.io.atomic``): a
new file gets what ``open()`` would give it (``0o666 & ~umask``, no longer owner-only
0600), and an export that fails half-way leaves the previous file as it was.
"""

import os

import pytest
from PIL import Image

from linkage_widget import Linkage
from linkage_widget.draw import SceneState, ViewTransform, build_scene, save_gif, save_png, save_svg


@pytest.fixture
def scene():
    link = Linkage.load("peaucellier.txt")
    return build_scene(link, ViewTransform.fit(link.vertices, 160, 120), SceneState(hint="x"))


@pytest.fixture
def umask():
    """Run the test under umask 022, whatever the caller's; restore it afterwards."""
    old = os.umask(0o022)
    try:
        yield 0o022
    finally:
        os.umask(old)


EXPORTS = {
    "svg": lambda scene, path: save_svg(scene, path),
    "png": lambda scene, path: save_png(scene, path),
    "gif": lambda scene, path: save_gif([scene, scene], path),
}


@pytest.mark.parametrize("kind", sorted(EXPORTS))
def test_exports_get_ordinary_permissions(scene, tmp_path, umask, kind):
    path = tmp_path / f"out.{kind}"
    EXPORTS[kind](scene, path)
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask == 0o644
    os.umask(0o027)  # a stricter umask is honoured too
    other = tmp_path / f"other.{kind}"
    EXPORTS[kind](scene, other)
    assert other.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([path.name, other.name])


@pytest.mark.parametrize("kind", sorted(EXPORTS))
def test_a_failing_write_keeps_the_old_file_and_leaves_no_temp(scene, tmp_path, monkeypatch, kind):
    path = tmp_path / f"keep.{kind}"
    path.write_bytes(b"the old picture")

    def disk_full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)  # fails after the bytes were written
    with pytest.raises(OSError, match="cannot save"):
        EXPORTS[kind](scene, path)
    assert path.read_bytes() == b"the old picture"
    assert [p.name for p in tmp_path.iterdir()] == [path.name]


def test_an_encoder_error_half_way_keeps_the_old_png(scene, tmp_path, monkeypatch):
    path = tmp_path / "shot.png"
    save_png(scene, path)
    before = path.read_bytes()

    def broken_save(self, fp, *args, **kwargs):
        fp.write(b"\x89PNG truncated")
        raise ValueError("encoder failed")

    monkeypatch.setattr(Image.Image, "save", broken_save)
    with pytest.raises(ValueError, match="encoder failed"):
        save_png(scene, path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["shot.png"]
