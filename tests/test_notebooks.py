"""Every notebook in notebooks/ runs top to bottom in a real kernel (no browser: widgets
don't render, but all Python runs). The browser tests in tests/browser/ cover rendering.

A notebook passes when nbclient executes every cell: nbclient raises CellExecutionError on
the first exception (a failed ``assert`` included), so no end-of-notebook marker is needed.
The structural tests keep the notebooks fit for a class (issue 15): each "Your turn" is
followed by its answer in a collapsed solution cell, checks of the notebook's own claims sit
in hidden cells, nothing prints test scaffolding, and notebooks are stored without outputs.

Issue 22: a solution or check cell hides its code *and* its output (JupyterLab shows a
collapsed cell as a one-line placeholder: the first line of the code, the first line of the
output, so those lines name no answer); after Run All no widget is left animating; and every
widget fits the ~650 px a notebook's output has on a 1366 x 768 laptop (measured by a probe
cell the run appends, against widths measured in Chromium).
"""

import json
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

#: What JupyterLab shows of a collapsed cell's code and output: their first lines. A solution
#: cell starts with a comment and prints SOLUTION_FIRST_LINE first, a check cell with a comment.
SOLUTION_FIRST_LINE = "The solution:"
#: A notebook's output area on a 1366 x 768 laptop in JupyterLab, with the file browser open.
NOTEBOOK_WIDTH_PX = 650
#: Widths of a LinkageWidget's rows measured in Chromium (JupyterLab 4.6, ipywidgets 8.1), apart
#: from the canvas: the compact toolbar; the full set's widest row that does not wrap (a slider
#: with its readout; the file row wraps); the gap between the canvas and the configuration panel.
COMPACT_BAR_PX, FULL_ROWS_PX, PANEL_GAP_PX = 321, 606, 8
#: A cell the run appends: every LinkageWidget alive in the kernel, and the rows side by side.
PROBE = """
import gc as _gc, json as _json
from ipywidgets import HBox as _HBox
from linkage_widget import LinkageWidget as _LW
_objects = _gc.get_objects()
print("PROBE" + _json.dumps({
    "widgets": {str(id(o)): {"canvas": int(o.canvas.layout.width.removesuffix("px")),
                             "panel": o.panel_size[0] if o.show_configuration else 0,
                             "controls": o.control_set, "running": bool(o.running),
                             "motors": bool(o.motors_running)}
                for o in _objects if isinstance(o, _LW)},
    "rows": [[str(id(c)) for c in o.children if isinstance(c, _LW)]
             for o in _objects if isinstance(o, _HBox) and not isinstance(o, _LW)],
}))
"""


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
    nb.cells.append(nbformat.v4.new_code_cell(PROBE))
    # cwd = a temp dir, so files the notebook writes don't land in the repo; any exception in
    # any cell (a failing check included) raises CellExecutionError here
    NotebookClient(
        nb,
        timeout=300,
        kernel_name=kernelspec["name"],
        resources={"metadata": {"path": str(tmp_path)}},
    ).execute()
    probe = json.loads(nb.cells.pop().outputs[0]["text"].removeprefix("PROBE"))
    _no_widget_left_running(path, probe)
    _widgets_fit(path, probe)
    _collapsed_solutions_show_no_answer(path, nb)


def _no_widget_left_running(path, probe):
    """Issue 22: notebook 07 left its sphere animating for ever after Run All (half a core)."""
    for w in probe["widgets"].values():
        assert not w["running"] and not w["motors"], f"{path.name}: a widget is left running: {w}"


def _natural_width(w) -> int:
    """A widget's width in the browser, from its canvas, panel and control set (module doc)."""
    drawing = w["canvas"] + (w["panel"] + PANEL_GAP_PX if w["panel"] else 0)
    controls = {"compact": COMPACT_BAR_PX, "full": FULL_ROWS_PX}.get(w["controls"], 0)
    return max(drawing, controls)


def _widgets_fit(path, probe):
    """Issue 22: the full widget (660-865 px) did not fit a laptop's ~650 px notebook."""
    widgets = probe["widgets"]
    assert widgets, f"{path.name}: the probe found no widget"
    side_by_side = [row for row in probe["rows"] if row]
    rows = side_by_side + [[k] for k in widgets if not any(k in row for row in side_by_side)]
    for row in rows:
        width = sum(_natural_width(widgets[k]) for k in row) + 4 * (len(row) - 1)
        assert width <= NOTEBOOK_WIDTH_PX, (
            f"{path.name}: {[widgets[k] for k in row]} take {width} px, more than "
            f"{NOTEBOOK_WIDTH_PX}: use controls='compact' or a smaller width"
        )


def _collapsed_solutions_show_no_answer(path, nb):
    """The first output line of a solution cell is what a collapsed output shows: no answer."""
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code" or "solution" not in _tags(cell) or not cell.outputs:
            continue
        first = cell.outputs[0]
        text = first.get("text") or first.get("data", {}).get("text/plain", "")
        first_line = next((ln for ln in text.splitlines() if ln.strip()), "")
        assert first_line == SOLUTION_FIRST_LINE, (
            f"{path.name} cell {i}: a collapsed solution shows its first output line "
            f"{first_line!r}; print({SOLUTION_FIRST_LINE!r}) first"
        )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_answers_and_checks_are_hidden_code_and_output(path):
    """Issue 22: after Run All the answers showed (only the solution code was collapsed)."""
    for i, cell in enumerate(nbformat.read(path, as_version=4).cells):
        if cell.cell_type != "code" or not {"check", "solution"} & set(_tags(cell)):
            continue
        jupyter = cell.metadata.get("jupyter", {})
        assert jupyter.get("source_hidden") and jupyter.get("outputs_hidden"), (
            f"{path.name} cell {i}: a check/solution cell must have jupyter.source_hidden and "
            f"jupyter.outputs_hidden, got {cell.metadata}"
        )
        # a collapsed cell shows its first line: a comment, never an answer or an assert
        assert cell.source.lstrip().startswith("#"), f"{path.name} cell {i}: {cell.source[:60]!r}"
        if "solution" in _tags(cell):
            code = [ln for ln in cell.source.splitlines() if ln.strip() and not ln.startswith("#")]
            first = f'print("{SOLUTION_FIRST_LINE}")'
            assert code[0] == first, f"{path.name} cell {i}: {code[0]!r}, not {first}"


def test_no_static_copy_of_a_live_panel():
    """Issue 22: notebook 07 showed a static SVG of the sphere above the live widget."""
    for path in NOTEBOOKS:
        for i, cell in enumerate(nbformat.read(path, as_version=4).cells):
            assert "panel_scene()" not in cell.source or "LinkageWidget(" not in cell.source, (
                f"{path.name} cell {i}: a static picture of the panel beside the live one"
            )


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
