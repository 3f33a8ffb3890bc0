"""End-to-end check of the browser harness: JupyterLab in headless Chromium runs the
notebook, in the dev environment and in the simulated Binder environment, and the canvas
helpers click, drag and read pixels on a plain ipycanvas canvas."""

import importlib.metadata
import os
from pathlib import Path

import nbformat
import pytest

from .helpers import (
    canvas_locator,
    css_pos,
    kernel_exec,
    kernel_json,
    page_pos,
    poll,
    screenshot,
    wait_pixel,
)

pytestmark = pytest.mark.browser

NOTEBOOK = "notebooks/01_peaucellier.ipynb"
VERSION = importlib.metadata.version("linkage_widget")
WIDGET_EXTENSIONS = {"ipycanvas", "ipyevents", "@jupyter-widgets/jupyterlab-manager"}


def _check_notebook_page(pg, name):
    pg.locator(".jp-OutputArea-output", has_text=VERSION).first.wait_for()
    extensions = pg.evaluate("""() => JSON.parse(document.getElementById('jupyter-config-data')
        .textContent).federated_extensions.map(e => e.name)""")
    assert WIDGET_EXTENSIONS <= set(extensions), extensions
    screenshot(pg, name)
    prefix = kernel_json(pg, "__import__('sys').prefix")
    return Path(prefix)


def test_notebook_runs_in_jupyterlab(open_notebook):
    pg = open_notebook(NOTEBOOK)
    prefix = _check_notebook_page(pg, "smoke-lab")
    lab_python = os.environ.get("LAB_PYTHON")
    if lab_python:  # the kernel runs in the LAB_PYTHON environment
        assert prefix == Path(lab_python).parent.parent, prefix


def test_notebook_runs_in_binder_env(open_notebook, binder_python):
    pg = open_notebook(NOTEBOOK, python=binder_python)
    prefix = _check_notebook_page(pg, "smoke-binder")
    venv = Path(binder_python).parent.parent
    assert prefix == venv, prefix  # the kernel is the Binder venv's python ...
    module = Path(kernel_json(pg, "__import__('linkage_widget').__file__"))
    assert venv in module.parents, module  # ... with the package installed by postBuild


# A throwaway notebook for the harness itself: a decoy canvas first, then the "main" canvas
# carrying the linkage-canvas class, which the helpers must pick.
HARNESS_CELL = """
import ipywidgets as W
from ipycanvas import Canvas

decoy = Canvas(width=50, height=50)
canvas = Canvas(width=400, height=300)
canvas.add_class("linkage-canvas")
canvas.fill_style = "#eeeeee"
canvas.fill_rect(0, 0, 400, 300)
clicks, moves = [], []

def on_down(x, y):
    clicks.append((x, y))
    canvas.fill_style = "red"
    canvas.fill_circle(x, y, 10)

def on_move(x, y):
    if clicks:
        moves.append((x, y))

def on_up(x, y):
    canvas.stroke_style = "blue"
    canvas.line_width = 5
    canvas.stroke_line(*clicks[-1], x, y)

canvas.on_mouse_down(on_down)
canvas.on_mouse_move(on_move)
canvas.on_mouse_up(on_up)
W.VBox([decoy, canvas])
"""


def test_canvas_helpers(open_notebook, tmp_path):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(HARNESS_CELL)])
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
    }
    nbformat.write(nb, tmp_path / "harness.ipynb")
    pg = open_notebook(tmp_path / "harness.ipynb")
    canvas = canvas_locator(pg)
    canvas.wait_for(state="visible")
    assert pg.locator("canvas").count() == 2
    assert "linkage-canvas" in canvas.get_attribute("class")

    canvas.click(position=css_pos(pg, 100, 50))
    ((x, y),) = poll(lambda: kernel_json(pg, "clicks"))
    assert abs(x - 100) < 1 and abs(y - 50) < 1, (x, y)
    wait_pixel(pg, 100, 50, (255, 0, 0))

    pg.mouse.move(*page_pos(pg, 50, 200))
    pg.mouse.down()
    pg.mouse.move(*page_pos(pg, 250, 250), steps=10)
    pg.mouse.up()
    wait_pixel(pg, 150, 225, (0, 0, 255))  # the stroke from (50, 200) to (250, 250)
    assert len(kernel_json(pg, "moves")) >= 5
    assert kernel_exec(pg, "print(len(clicks))").strip() == "2"
    screenshot(pg, "smoke-canvas-helpers")
