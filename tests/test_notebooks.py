"""Every notebook in notebooks/ runs top to bottom in a real kernel (no browser: widgets
don't render, but all Python runs). The browser tests in tests/browser/ cover rendering.

A notebook passes when nbclient executes every cell: nbclient raises CellExecutionError on
the first exception (a failed ``assert`` included), so no end-of-notebook marker is needed.
The structural tests keep the notebooks fit for a class (issue 15): each "Your turn" is
followed by its answer in a collapsed solution cell, checks of the notebook's own claims sit
in hidden cells, nothing prints test scaffolding, and notebooks are stored without outputs.
"""

import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))
SOLUTION_HEADER = "**Solution (click to expand)**"
# test scaffolding that once ended every notebook, and its likely cousins
SCAFFOLDING = re.compile(r"""print\(\s*["'](ALL CELLS DONE|done|ok|passed)[.!]*["']\s*\)""", re.I)

pytestmark = pytest.mark.notebook


def _hidden(cell) -> bool:
    return bool(cell.metadata.get("jupyter", {}).get("source_hidden"))


def _tags(cell) -> list:
    return list(cell.metadata.get("tags", []))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(path, tmp_path):
    nb = nbformat.read(path, as_version=4)
    kernelspec = nb.metadata.get("kernelspec", {})
    # without it JupyterLab (and Binder) open the notebook on a blocking "Select Kernel" dialog
    assert kernelspec.get("name") == "python3", f"{path.name}: kernelspec metadata {kernelspec}"
    # cwd = a temp dir, so files the notebook writes don't land in the repo; any exception in
    # any cell (a failing check included) raises CellExecutionError here
    NotebookClient(
        nb,
        timeout=300,
        kernel_name=kernelspec["name"],
        resources={"metadata": {"path": str(tmp_path)}},
    ).execute()


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_your_turn_answers_are_collapsed(path):
    cells = nbformat.read(path, as_version=4).cells
    turns = [
        i
        for i, c in enumerate(cells)
        if c.cell_type == "markdown" and "your turn" in c.source.lower()
    ]
    assert turns, f"{path.name}: no 'Your turn' section"
    for i in turns:
        header, answer = cells[i + 1 : i + 3]
        assert header.cell_type == "markdown" and header.source.strip() == SOLUTION_HEADER, (
            f"{path.name} cell {i + 1}: 'Your turn' must be followed by {SOLUTION_HEADER!r}, "
            f"got {header.source[:60]!r}"
        )
        assert answer.cell_type == "code" and answer.source.strip(), f"{path.name} cell {i + 2}"
        assert "solution" in _tags(answer) and _hidden(answer), (
            f"{path.name} cell {i + 2}: the answer must be tagged 'solution' with "
            f"metadata jupyter.source_hidden (collapsed by default), got {answer.metadata}"
        )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_checks_are_out_of_view(path):
    """An ``assert`` in a visible cell is a check students should not have to read."""
    for i, cell in enumerate(nbformat.read(path, as_version=4).cells):
        if cell.cell_type != "code":
            continue
        assert not SCAFFOLDING.search(cell.source), f"{path.name} cell {i}: test scaffolding"
        assert not cell.outputs and cell.execution_count is None, (
            f"{path.name} cell {i}: notebooks are stored without outputs"
        )
        if {"check", "solution"} & set(_tags(cell)):
            assert _hidden(cell), f"{path.name} cell {i}: a check/solution cell must be hidden"
            continue
        top_asserts = [ln for ln in cell.source.splitlines() if ln.lstrip().startswith("assert ")]
        assert not top_asserts, (
            f"{path.name} cell {i}: move {top_asserts[0]!r} into a hidden cell tagged 'check'"
        )
