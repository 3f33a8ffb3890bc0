"""Fixtures for real-browser tests: JupyterLab + headless Chromium driven by Playwright.

Use (see test_lab_smoke.py)::

    import pytest
    from .helpers import canvas_locator, css_pos, kernel_json, wait_pixel

    pytestmark = pytest.mark.browser

    @pytest.fixture(scope="module")
    def page(open_notebook):          # one notebook session shared by the module's tests
        return open_notebook("notebooks/01_peaucellier.ipynb")

    def test_drag(page): ...

``open_notebook(path, python=None)`` serves the notebook from JupyterLab, opens it in
Chromium, waits for an idle kernel, runs all cells and waits for the sentinel cell it
appended to its private copy. ``python`` is the interpreter that runs the server and the kernel
(default: env ``LAB_PYTHON``, else this interpreter); pass the ``binder_python`` fixture to run
against the simulated Binder environment.

Env: ``CHROMIUM`` (default /usr/bin/chromium; empty = Playwright's own download, which needs
internet), ``LAB_PYTHON``, ``BROWSER_TEST_ARTIFACTS`` (default browser-test-artifacts/: PNGs,
including one per open page of a failed test, and the JupyterLab logs),
``BINDER_VENV_CACHE`` (where the simulated Binder venv is cached).
"""

import fcntl
import hashlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from itertools import count
from pathlib import Path

import nbformat
import pytest

from .helpers import ART, REPO, SENTINEL, patience

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROME_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
LAB_PYTHON = os.environ.get("LAB_PYTHON") or sys.executable
TOKEN = "browser-test-token"
_OPEN_PAGES = []  # pages of the running test module, screenshotted when a test fails
_COPY_IDS = count(1)


# --- JupyterLab server --------------------------------------------------------------------


@dataclass
class LabServer:
    """A running ``jupyter lab`` on 127.0.0.1 serving ``root`` (a temp copy of notebooks/)."""

    python: str
    base: str
    root: Path
    proc: subprocess.Popen
    log: Path

    def api(self, path, method="GET"):
        req = urllib.request.Request(
            f"{self.base}{path}", method=method, headers={"Authorization": f"token {TOKEN}"}
        )
        with urllib.request.urlopen(req, timeout=10) as r:
            body = r.read()
        return json.loads(body) if body else None

    def shutdown_kernels_of(self, nb_path):
        """Stop the kernel of every session of ``nb_path`` (relative to ``root``)."""
        for s in self.api("/api/sessions"):
            if s.get("path") == nb_path:
                self.api(f"/api/sessions/{s['id']}", method="DELETE")

    def stop(self):
        self.proc.terminate()  # SIGTERM: the server shuts its kernels down
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        ART.mkdir(parents=True, exist_ok=True)
        shutil.copy(self.log, ART / f"lab-{Path(self.python).parent.parent.name}.log")
        shutil.rmtree(self.root, ignore_errors=True)


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_lab(python, comms_over_subshells=None):
    """Start JupyterLab with ``python``; the server and its kernels see only temp state.

    ``comms_over_subshells``: JupyterLab's setting of that name for this server
    (``"perCommTarget"``, its stock default; ``"disabled"``); ``None``: what the
    environment's ``overrides.json`` says (``make`` installs ``binder/overrides.json``:
    disabled).
    """
    tmp = Path(tempfile.mkdtemp(prefix="labtest-"))
    shutil.copytree(
        REPO / "notebooks", tmp / "notebooks", ignore=shutil.ignore_patterns(".ipynb_checkpoints")
    )
    for plugin, value in {
        # no "Would you like to get notified about official Jupyter news?" toast
        "apputils-extension/notification": {"fetchNews": "false"},
        # defensive: keep every cell attached to the DOM
        "notebook-extension/tracker": {"windowingMode": "none"},
        "docmanager-extension/plugin": {"autosave": False},
        **(
            {"apputils-extension/kernels-settings": {"commsOverSubshells": comms_over_subshells}}
            if comms_over_subshells
            else {}
        ),
    }.items():
        f = tmp / "lab-settings" / "@jupyterlab" / f"{plugin}.jupyterlab-settings"
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(json.dumps(value))
    env = dict(
        os.environ,
        PATH=os.pathsep.join([str(Path(python).parent), os.environ.get("PATH", "")]),
        JUPYTERLAB_SETTINGS_DIR=str(tmp / "lab-settings"),
        JUPYTERLAB_WORKSPACES_DIR=str(tmp / "lab-workspaces"),
        JUPYTER_RUNTIME_DIR=str(tmp / "runtime"),
        # hide the user's ~/.jupyter config and ~/.local/share/jupyter kernels/extensions
        JUPYTER_CONFIG_DIR=str(tmp / "config"),
        JUPYTER_DATA_DIR=str(tmp / "data"),
    )
    env.pop("VIRTUAL_ENV", None)
    port = _free_port()
    log = tmp / "lab.log"
    with open(log, "w") as log_f:
        proc = subprocess.Popen(
            [
                python,
                "-m",
                "jupyterlab",
                "--no-browser",
                "--allow-root",
                "--ip=127.0.0.1",
                f"--port={port}",
                "--ServerApp.port_retries=0",
                f"--IdentityProvider.token={TOKEN}",
                f"--ServerApp.root_dir={tmp}",
                "--LabApp.expose_app_in_browser=True",
            ],  # -> window.jupyterapp
            cwd=tmp,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log_f,
            stderr=subprocess.STDOUT,
        )
    server = LabServer(python, f"http://127.0.0.1:{port}", tmp, proc, log)
    deadline = time.time() + 90
    while True:
        try:
            server.api("/api/status")
            return server
        except OSError:
            if proc.poll() is not None or time.time() > deadline:
                server.stop()
                raise RuntimeError(
                    f"jupyter lab ({python}) did not start:\n" + log.read_text()[-5000:]
                ) from None
            time.sleep(0.2)


@pytest.fixture(scope="session")
def lab_server():
    """Factory ``lab_server(python=None, comms_over_subshells=None) -> LabServer``.

    One server per interpreter and setting per session (see :func:`start_lab`).
    """
    servers = {}

    def get(python=None, comms_over_subshells=None):
        key = (str(python or LAB_PYTHON), comms_over_subshells)
        if key not in servers:
            servers[key] = start_lab(*key)
        return servers[key]

    yield get
    for server in servers.values():
        server.stop()


# --- browser and notebook pages -----------------------------------------------------------


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium, one per test module.

    Module scope (not session): Playwright's sync API keeps an asyncio loop in this thread
    while it runs, which must not outlive the browser tests into other tests.
    """
    from playwright.sync_api import sync_playwright

    if CHROMIUM and not os.access(CHROMIUM, os.X_OK):
        pytest.skip(
            f"no Chromium at {CHROMIUM} (Debian: apt-get install chromium; or set "
            "CHROMIUM=/path/to/chrome)"
        )
    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=CHROMIUM or None, headless=True, args=CHROME_FLAGS
        )  # playwright adds a fresh --user-data-dir
        yield b
        b.close()


def _served_copy(server, notebook):
    """Copy ``notebook`` into the served notebooks/ under a fresh name, plus a sentinel cell.

    A fresh name gives every page its own kernel session (JupyterLab keys sessions by path).
    Returns the path relative to the server root.
    """
    src = Path(notebook)
    src = src if src.is_absolute() else REPO / src
    nb = nbformat.read(src, as_version=4)
    assert nb.metadata.get("kernelspec"), f"{src}: no kernelspec metadata (blocks on a dialog)"
    cell = nbformat.v4.new_code_cell(f"print({SENTINEL!r})")
    cell.metadata["tags"] = ["test-sentinel"]
    nb.cells.append(cell)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")  # two workers, two servers, one tree
    rel = f"notebooks/{src.stem}--{worker}-t{next(_COPY_IDS)}.ipynb"
    nbformat.write(nb, server.root / rel)
    return rel


_KERNEL_IDLE_JS = """() => { const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
    const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
    return k && k.connectionStatus === 'connected' && k.status === 'idle'; }"""


@pytest.fixture(scope="module")
def open_notebook(lab_server, browser):
    """Factory ``open_notebook(path, python=None, viewport=..., **context) -> playwright Page``.

    ``comms_over_subshells``: a server with JupyterLab's setting of that name
    (:func:`start_lab`). ``context``: more keywords for Playwright's ``browser.new_context`` (e.g.
    ``device_scale_factor=2``, ``has_touch=True``).

    ``path`` is relative to the repo root (e.g. ``notebooks/01_peaucellier.ipynb``) or
    absolute. The page has run all cells and shows the sentinel output; a cell that raised
    fails the test with the error text. Pages close, and their kernels stop, at module end.
    """
    opened = []

    def open_(
        path,
        python=None,
        viewport=None,
        timeout_ms=120_000,
        comms_over_subshells=None,
        **context_options,
    ):
        server = lab_server(python, comms_over_subshells)
        rel = _served_copy(server, path)
        context = browser.new_context(
            viewport=viewport or {"width": 1280, "height": 1000}, **context_options
        )  # context_options: e.g. device_scale_factor=2, has_touch=True
        pg = context.new_page()
        opened.append((server, rel, pg))
        _OPEN_PAGES.append(pg)
        pg.set_default_timeout(patience(timeout_ms))  # Playwright waits, scaled by load
        pg.goto(f"{server.base}/lab/tree/{rel}?token={TOKEN}&reset")
        pg.wait_for_function(_KERNEL_IDLE_JS)  # run-all before idle can be lost
        pg.evaluate("window.__testPanel = window.jupyterapp.shell.currentWidget")
        ok = pg.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
        if not ok:
            errors = pg.locator(".jp-OutputArea-output[data-mime-type$='stderr']")
            raise AssertionError(
                f"{path}: a cell failed in JupyterLab:\n"
                + "\n".join(errors.all_inner_texts())[-5000:]
            )
        pg.locator(".jp-OutputArea-output", has_text=SENTINEL).wait_for()
        return pg

    yield open_
    for server, rel, pg in opened:
        _OPEN_PAGES.remove(pg)
        pg.context.close()
        try:
            server.shutdown_kernels_of(rel)
        except OSError:
            pass


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Save a screenshot of every open page when a browser test fails."""
    outcome = yield
    report = outcome.get_result()
    if report.failed and report.when in ("setup", "call"):
        for i, pg in enumerate(_OPEN_PAGES):
            try:
                ART.mkdir(parents=True, exist_ok=True)
                pg.screenshot(path=str(ART / f"FAILED-{item.name}-{i}.png"), timeout=10_000)
            except Exception as e:  # noqa: BLE001 - best effort, never mask the failure
                report.sections.append(("screenshot", f"page {i}: {e}"))


# --- simulated Binder environment ---------------------------------------------------------

BINDER = REPO / "binder"
# what repo2docker's base environment has before binder/requirements.txt (recipe section 7)
BINDER_BASE = ["jupyterlab==4.*", "ipywidgets==8.*", "notebook==7.*", "jupyter_server==2.*"]


def _binder_interpreter():
    """An interpreter of the version in binder/runtime.txt (``python-3.11``)."""
    want = (BINDER / "runtime.txt").read_text().strip().removeprefix("python-")
    if ".".join(map(str, sys.version_info[:2])) == want:
        return sys.executable
    found = shutil.which(f"python{want}")
    if not found:
        pytest.fail(f"binder/runtime.txt asks for Python {want}; no python{want} on PATH")
    return found


def _repo_copy(dest):
    """Copy the repo's files as git would commit them (tracked + untracked, not ignored)."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=REPO,
            check=True,
            capture_output=True,
        ).stdout
        files = [f for f in out.decode().split("\0") if f]
    except (OSError, subprocess.CalledProcessError):
        files = None
    if files is None:
        shutil.copytree(
            REPO,
            dest,
            symlinks=True,
            ignore=shutil.ignore_patterns(
                ".git",
                ".venv*",
                "build",
                "dist",
                "*.egg-info",
                "__pycache__",
                "browser-test-artifacts",
                ".*_cache",
            ),
        )
        return
    for f in files:
        src = REPO / f
        if src.is_file():
            (dest / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / f)


def _run_logged(cmd, log, **kw):
    with open(log, "a") as f:
        f.write(f"\n$ {' '.join(map(str, cmd))}\n")
        f.flush()
        t0 = time.time()
        r = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=f, stderr=subprocess.STDOUT, **kw)
        f.write(f"# exit {r.returncode} after {time.time() - t0:.1f} s\n")
    if r.returncode:
        raise RuntimeError(f"{cmd} failed ({r.returncode}):\n" + log.read_text()[-5000:])


@pytest.fixture(scope="session")
def binder_python():
    """Python of a venv built like mybinder.org builds this repo (recipe section 7).

    fresh venv -> repo2docker's base packages -> ``pip install -r binder/requirements.txt``
    -> ``binder/postBuild`` (run from a temp copy of the repo, the venv first on PATH).
    Everything up to requirements.txt is cached, keyed by the Binder files, pyproject.toml and
    the Python version; postBuild (``pip install .``) runs again in every session, so the venv
    always has the current package code. Build log: ``<cache>/build.log``.
    """
    interpreter = _binder_interpreter()
    key = hashlib.sha256()
    for part in [*BINDER_BASE, os.path.realpath(interpreter), sys.version]:
        key.update(part.encode())
    for f in (BINDER / "runtime.txt", BINDER / "requirements.txt", REPO / "pyproject.toml"):
        key.update(f.read_bytes())
    cache = Path(
        os.environ.get("BINDER_VENV_CACHE")
        or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
        / "linkage_widget"
        / "binder"
    )
    cache.mkdir(parents=True, exist_ok=True)
    venv = cache / f"venv-{key.hexdigest()[:16]}"
    py, log = venv / "bin" / "python", venv.with_suffix(".log")
    env = dict(
        os.environ,
        VIRTUAL_ENV=str(venv),
        PATH=os.pathsep.join([str(venv / "bin"), os.environ.get("PATH", "")]),
    )
    env.pop("PYTHONPATH", None)
    with open(cache / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # two pytest runs must not build the same venv
        if not (venv / ".base-complete").exists():
            for old in cache.glob("venv-*"):  # previous keys: stale, and large
                shutil.rmtree(old) if old.is_dir() else old.unlink()
            t0 = time.time()
            _run_logged([interpreter, "-m", "venv", venv], log)
            _run_logged([py, "-m", "pip", "install", "--no-cache-dir", *BINDER_BASE], log, env=env)
            _run_logged(
                [py, "-m", "pip", "install", "--no-cache-dir", "-r", BINDER / "requirements.txt"],
                log,
                env=env,
            )
            (venv / ".base-complete").write_text(f"{time.time() - t0:.1f} s\n")
        with tempfile.TemporaryDirectory(prefix="binder-repo-") as tmp:
            _repo_copy(Path(tmp))
            _run_logged(["./binder/postBuild"], log, cwd=tmp, env=env)
    return str(py)
