"""Keep every link to the project's repository derived from one place.

The repository's address lives only in ``pyproject.toml`` under ``[project.urls]``
(key ``Repository``). The Binder badge in README.md and the install/launch links in
docs/ are built from it here, so that changing the address is a one-line edit plus::

    python tools/sync_urls.py          # rewrite README.md and docs/frontends.md
    python tools/sync_urls.py --check  # exit 1 and name the files that are out of date

tests/test_project_urls.py runs the check, so a stale badge fails the test suite.
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = REPO_ROOT / "pyproject.toml"
# files whose repository links are generated; paths relative to the repository root
SYNCED_FILES = ("README.md", "docs/frontends.md")
BRANCH = "main"
BINDER_NOTEBOOK = "notebooks/01_peaucellier.ipynb"
BADGE_IMAGE = "https://mybinder.org/badge_logo.svg"
# Binder's GitHub provider and pip's git URLs both need github.com/OWNER/NAME
_GITHUB = re.compile(r"^https://github\.com/(?P<owner>[A-Za-z0-9_.-]+)/(?P<name>[A-Za-z0-9_.-]+)$")
# what a generated link looks like whatever owner/name it was generated from
_BINDER_LINK = re.compile(r"https://mybinder\.org/v2/gh/[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+/")
_GIT_LINK = re.compile(
    r"git\+https://github\.com/[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+?(?=[\s\"'`)@#]|$)"
)


def repository_url(pyproject: Path = PYPROJECT) -> str:
    """Return ``[project.urls].Repository`` from ``pyproject`` (no trailing slash or .git).

    Raises
    ------
    ValueError
        When the key is missing or is not ``https://github.com/OWNER/NAME``.
    """
    data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    url = data.get("project", {}).get("urls", {}).get("Repository")
    if not url:
        raise ValueError(f"{pyproject}: [project.urls] has no 'Repository' key")
    url = url.rstrip("/").removesuffix(".git")
    if not _GITHUB.match(url):
        raise ValueError(
            f"{pyproject}: [project.urls] Repository = {url!r} is not "
            "https://github.com/OWNER/NAME (Binder and the git install need GitHub)"
        )
    return url


def owner_name(url: str) -> tuple[str, str]:
    """Split ``https://github.com/OWNER/NAME`` into ``(OWNER, NAME)``."""
    match = _GITHUB.match(url)
    if match is None:
        raise ValueError(f"{url!r} is not https://github.com/OWNER/NAME")
    return match["owner"], match["name"]


def binder_url(url: str, notebook: str = BINDER_NOTEBOOK, branch: str = BRANCH) -> str:
    """Binder launch URL opening ``notebook`` in JupyterLab for repository ``url``."""
    owner, name = owner_name(url)
    return f"https://mybinder.org/v2/gh/{owner}/{name}/{branch}?urlpath=lab/tree/{notebook}"


def badge(url: str) -> str:
    """The README's Binder badge line (Markdown) for repository ``url``."""
    return f"[![Binder]({BADGE_IMAGE})]({binder_url(url)})"


def sync_text(text: str, url: str) -> str:
    """Rewrite every generated link in ``text`` to point at repository ``url``.

    Binder links keep their branch and ``urlpath``; only ``OWNER/NAME`` changes. ``git+``
    install URLs are replaced whole. Other GitHub links (third-party issues) are untouched.
    """
    owner, name = owner_name(url)
    text = _BINDER_LINK.sub(f"https://mybinder.org/v2/gh/{owner}/{name}/", text)
    return _GIT_LINK.sub(f"git+{url}", text)


def stale_files(root: Path = REPO_ROOT) -> list[str]:
    """Names of the synced files whose links do not match pyproject's Repository."""
    url = repository_url(root / "pyproject.toml")
    stale = []
    for rel in SYNCED_FILES:
        path = root / rel
        if path.exists():
            text = path.read_text(encoding="utf-8")
            if sync_text(text, url) != text:
                stale.append(rel)
    return stale


def main(argv: list[str] | None = None) -> int:
    """Command line: rewrite the synced files, or with ``--check`` only report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="report, do not rewrite")
    args = parser.parse_args(argv)
    stale = stale_files()
    if args.check:
        for rel in stale:
            print(f"{rel}: links do not match pyproject's Repository; run tools/sync_urls.py")
        return 1 if stale else 0
    url = repository_url()
    for rel in stale:
        path = REPO_ROOT / rel
        path.write_text(sync_text(path.read_text(encoding="utf-8"), url), encoding="utf-8")
        print(f"updated {rel}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
