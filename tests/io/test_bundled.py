"""io.bundled: the examples folder found by path (io sits below the examples package)."""

from pathlib import Path

import pytest

import linkage_widget.examples as examples
from linkage_widget.io import bundled, resolve_path


def test_the_folder_is_the_examples_package():
    assert bundled.EXAMPLES_DIR == Path(examples.__file__).resolve().parent
    assert bundled.list_examples() == examples.list_examples()
    assert "peaucellier" in bundled.list_examples()


def test_names_with_or_without_txt():
    assert bundled.has_example("watt") and bundled.has_example("watt.txt")
    assert bundled.example_path("watt") == bundled.example_path("watt.txt")
    assert not bundled.has_example("no_such")
    with pytest.raises(FileNotFoundError, match="bundled: .*peaucellier"):
        bundled.example_path("no_such")
    assert bundled.describe("no_such") == ""
    assert "Watt" in bundled.describe("watt")


def test_resolve_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert resolve_path("watt") == bundled.example_path("watt")
    Path("watt.txt").write_text("v\n0 0\n")
    assert resolve_path("watt.txt") == Path("watt.txt")  # a local file wins
    # a path with a folder never falls back to the bundled examples
    with pytest.raises(FileNotFoundError, match="no linkage file"):
        resolve_path(tmp_path / "sub" / "peaucellier.txt")


@pytest.mark.parametrize(
    "name",
    [
        "../io/atomic",  # a .txt/.md beside the folder would be read
        "../../README",
        "space_files/bennett",  # a sub-folder is not a bundled name of this folder
        "/etc/hostname",
        "~/watt",
        "..",
        "watt\0",
    ],
)
def test_a_name_out_of_the_examples_folder_reads_nothing(name):
    assert not bundled.has_example(name)
    with pytest.raises(FileNotFoundError, match="no bundled linkage"):
        bundled.example_path(name)
    with pytest.raises(FileNotFoundError, match="no bundled linkage"):
        examples.load_example(name)
    assert bundled.describe(name) == ""


def test_files_just_outside_the_folder_are_not_reached(tmp_path):
    folder = tmp_path / "examples"
    folder.mkdir()
    (folder / "inside.txt").write_text("v\n0 0\n")
    (tmp_path / "outside.txt").write_text("v\n0 0\n")
    (tmp_path / "outside.md").write_text("secret")
    (folder / "linked.txt").symlink_to(tmp_path / "outside.txt")  # a link out of it
    assert bundled.has_example("inside", folder)
    for name in ("../outside", "../outside.txt", "linked", str(tmp_path / "outside")):
        assert not bundled.has_example(name, folder), name
        assert bundled.describe(name, folder) == ""
        with pytest.raises(FileNotFoundError):
            bundled.example_path(name, folder)
    assert bundled.describe("../outside", folder) == ""
