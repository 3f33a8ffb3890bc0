"""Every notebook in notebooks/ runs top to bottom in a real kernel (no browser: widgets
don't render, but all Python runs). The browser tests in tests/browser/ cover rendering."""

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))

pytestmark = pytest.mark.notebook


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(path, tmp_path):
    nb = nbformat.read(path, as_version=4)
    kernelspec = nb.metadata.get("kernelspec", {})
    # without it JupyterLab (and Binder) open the notebook on a blocking "Select Kernel" dialog
    assert kernelspec.get("name") == "python3", f"{path.name}: kernelspec metadata {kernelspec}"
    # cwd = a temp dir, so files the notebook writes don't land in the repo
    NotebookClient(
        nb,
        timeout=300,
        kernel_name=kernelspec["name"],
        resources={"metadata": {"path": str(tmp_path)}},
    ).execute()
