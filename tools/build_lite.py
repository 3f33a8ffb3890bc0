"""Build a JupyterLite site (the widget in the browser, no server) into ``_site/``.

Run by ``make lite`` with the interpreter of a separate venv that has jupyterlite-core,
jupyterlite-pyodide-kernel and the widget libraries installed (their labextensions go into
the site). Steps:

1. stage ``<build>/lite`` as the JupyterLite project folder;
2. ``pypi/``: linkage_widget's wheel (``pip wheel --no-deps .``) and the pure-Python wheels
   Pyodide does not ship (ipycanvas, ipyevents, ipywidgets, jupyterlab_widgets,
   threadpoolctl), pinned to the versions of this venv so the kernel side matches the
   labextensions in the site; numpy, scipy, pillow, sympy and traitlets come from Pyodide;
3. ``files/``: copies of notebooks/*.ipynb, each with a first cell
   ``%pip install -q linkage_widget`` (piplite installs it from the site's own ``pypi/``);
4. ``jupyter lite build`` into the output folder.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
# wheels piplite must find locally: not in Pyodide's own distribution, pure Python
EXTRA_WHEELS = ("ipycanvas", "ipyevents", "ipywidgets", "jupyterlab_widgets", "threadpoolctl")
INSTALL_CELL = {
    "cell_type": "code",
    "execution_count": None,
    "id": "jupyterlite-install",
    "metadata": {"tags": ["jupyterlite"]},
    "outputs": [],
    "source": [
        "# JupyterLite only: install the widget from this site's own wheel index\n",
        "%pip install -q linkage_widget",
    ],
}


def _pip(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "pip", *args], check=True)


def stage_wheels(pypi: Path) -> list[Path]:
    """Put linkage_widget's wheel and :data:`EXTRA_WHEELS` (pinned) into ``pypi``."""
    pypi.mkdir(parents=True, exist_ok=True)
    _pip("wheel", "--no-deps", "--quiet", "-w", str(pypi), str(REPO_ROOT))
    pins = [f"{name}=={version(name)}" for name in EXTRA_WHEELS]
    _pip("download", "--no-deps", "--only-binary=:all:", "--quiet", "-d", str(pypi), *pins)
    return sorted(pypi.glob("*.whl"))


def stage_notebooks(files: Path) -> list[Path]:
    """Copy notebooks/*.ipynb into ``files`` with the install cell first."""
    files.mkdir(parents=True, exist_ok=True)
    staged = []
    for src in sorted((REPO_ROOT / "notebooks").glob("*.ipynb")):
        nb = json.loads(src.read_text(encoding="utf-8"))
        nb["cells"] = [INSTALL_CELL, *nb["cells"]]
        dst = files / src.name
        dst.write_text(json.dumps(nb, indent=1), encoding="utf-8")
        staged.append(dst)
    return staged


def main(argv: list[str] | None = None) -> int:
    """Command line: stage wheels and notebooks, then run ``jupyter lite build``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=REPO_ROOT / "_site")
    parser.add_argument("--build-dir", type=Path, default=REPO_ROOT / "build" / "lite")
    args = parser.parse_args(argv)
    lite = args.build_dir.resolve()
    shutil.rmtree(lite, ignore_errors=True)
    wheels = stage_wheels(lite / "pypi")
    notebooks = stage_notebooks(lite / "files")
    output = args.output.resolve()
    shutil.rmtree(output, ignore_errors=True)
    jupyter = Path(sys.executable).parent / "jupyter"
    subprocess.run(
        [
            str(jupyter),
            "lite",
            "build",
            "--lite-dir",
            str(lite),
            "--contents",
            str(lite / "files"),
            "--output-dir",
            str(output),
        ],
        check=True,
        cwd=lite,
    )
    print(f"JupyterLite site: {output} ({len(wheels)} wheels, {len(notebooks)} notebooks)")
    print(f"serve it with: {sys.executable} -m http.server -d {output} 8000")
    return 0


if __name__ == "__main__":
    sys.exit(main())
