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
