"""The widget in Notebook 7 (not JupyterLab): a `jupyter notebook` server from the simulated
Binder venv (repo2docker's base has notebook 7), a notebook page in headless Chromium, the
widget drawn and a real mouse drag moving the Peaucellier linkage (docs/frontends.md)."""

import json
import os
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

import nbformat
import pytest

from .conftest import TOKEN, _free_port
from .helpers import ART, SENTINEL, drag_output_joint, kernel_json, poll, screenshot

pytestmark = pytest.mark.browser

CELLS = [
    "from linkage_widget import LinkageWidget\nw = LinkageWidget.load('peaucellier.txt')\nw",
    f"print({SENTINEL!r})",
]
WIDGET_EXTENSIONS = {"ipycanvas", "ipyevents", "@jupyter-widgets/jupyterlab-manager"}
_IDLE_JS = """() => { const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
    const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
    return k && k.connectionStatus === 'connected' && k.status === 'idle'; }"""


def _status_ok(base):
    req = urllib.request.Request(f"{base}/api/status", headers={"Authorization": f"token {TOKEN}"})
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status == 200
    except OSError:
        return False


@pytest.fixture(scope="module")
def notebook7(binder_python):
    """``(base_url, notebook name)`` of a running Notebook 7 server with a small notebook."""
    tmp = Path(tempfile.mkdtemp(prefix="nb7test-"))
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nbformat.write(nb, tmp / "nb7.ipynb")
    env = dict(
        os.environ,
        PATH=os.pathsep.join([str(Path(binder_python).parent), os.environ.get("PATH", "")]),
        JUPYTER_CONFIG_DIR=str(tmp / "config"),
        JUPYTER_DATA_DIR=str(tmp / "data"),
        JUPYTER_RUNTIME_DIR=str(tmp / "runtime"),
        JUPYTERLAB_SETTINGS_DIR=str(tmp / "settings"),
        JUPYTERLAB_WORKSPACES_DIR=str(tmp / "workspaces"),
    )
    env.pop("VIRTUAL_ENV", None)
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    log = tmp / "notebook7.log"
    with open(log, "w") as log_f:
        proc = subprocess.Popen(
            [binder_python, "-m", "notebook", "--no-browser", "--allow-root",
             "--ip=127.0.0.1", f"--port={port}", "--ServerApp.port_retries=0",
             f"--IdentityProvider.token={TOKEN}", f"--ServerApp.root_dir={tmp}",
             "--JupyterNotebookApp.expose_app_in_browser=True"],
            cwd=tmp, env=env, stdin=subprocess.DEVNULL, stdout=log_f, stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        deadline = time.time() + 90
        while not _status_ok(base):
            if proc.poll() is not None or time.time() > deadline:
                raise RuntimeError("jupyter notebook did not start:\n" + log.read_text()[-3000:])
            time.sleep(0.2)
        yield base, "nb7.ipynb"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        ART.mkdir(parents=True, exist_ok=True)
        (ART / "notebook7.log").write_text(log.read_text())


def test_widget_runs_and_drags_in_notebook7(notebook7, browser, binder_python):
    base, name = notebook7
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    pg = context.new_page()
    try:
        pg.set_default_timeout(120_000)
        pg.goto(f"{base}/notebooks/{name}?token={TOKEN}")
        pg.wait_for_function(_IDLE_JS)
        config = json.loads(pg.locator("#jupyter-config-data").text_content())
        assert config["appName"] == "Jupyter Notebook", config.get("appName")
        assert config["appVersion"].startswith("7."), config["appVersion"]
        assert WIDGET_EXTENSIONS <= {e["name"] for e in config["federated_extensions"]}
        pg.evaluate("window.__testPanel = window.jupyterapp.shell.currentWidget")
        assert pg.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
        pg.locator(".jp-OutputArea-output", has_text=SENTINEL).wait_for()
        canvas = pg.locator(".linkage-canvas canvas, canvas.linkage-canvas").first
        canvas.wait_for(state="visible")
        # the kernel is the Binder venv's python, where notebook 7 is installed
        assert (
            Path(kernel_json(pg, "__import__('sys').prefix")) == Path(binder_python).parent.parent
        )
        # a real drag of the output joint (vertex 5) moves it up its straight line
        x0, y0 = kernel_json(pg, "w.linkage.vertices[5].tolist()")
        drag_output_joint(pg)
        state = poll(
            lambda: (
                (s := kernel_json(pg, "[w.linkage.vertices[5].tolist(), w.running]"))
                and not s[1]
                and s
            ),
            timeout=10,
        )
        (x1, y1), _ = state
        assert abs(x1 - x0) <= 1e-9 * abs(x0), (x0, x1)
        assert y1 > y0 + 10, (y0, y1)
        screenshot(pg, "notebook7-widget")
    finally:
        context.close()
