"""The repository's address lives only in pyproject's [project.urls]; README's Binder badge
and the docs' install links are generated from it by tools/sync_urls.py (issue 15)."""

import importlib.util
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

REPO = Path(__file__).resolve().parent.parent
SCRIPT = REPO / "tools" / "sync_urls.py"


def _load_sync():
    spec = importlib.util.spec_from_file_location("sync_urls", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


sync = _load_sync()


def _pyproject_url():
    with open(REPO / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["project"]["urls"]["Repository"]


def test_readme_badge_matches_pyproject_repository():
    url = _pyproject_url()
    owner, name = urlsplit(url).path.strip("/").split("/")
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    badge_lines = [line for line in readme.splitlines() if "mybinder.org/badge" in line]
    assert badge_lines == [sync.badge(url)], badge_lines
    # an independent parse of the badge's target: Binder's GitHub provider, this repo, main,
    # opening a notebook that exists
    target = badge_lines[0].rsplit("](", 1)[1].rstrip(")")
    parts = urlsplit(target)
    assert parts.netloc == "mybinder.org"
    assert parts.path == f"/v2/gh/{owner}/{name}/main"
    urlpath = parse_qs(parts.query)["urlpath"][0]
    assert urlpath.startswith("lab/tree/")
    assert (REPO / urlpath.removeprefix("lab/tree/")).is_file(), urlpath


def test_synced_files_are_up_to_date():
    assert sync.stale_files(REPO) == []
    for rel in [r for r in sync.SYNCED_FILES if (REPO / r).exists()]:
        text = (REPO / rel).read_text(encoding="utf-8")
        for line in text.splitlines():
            if "mybinder.org/v2/gh/" in line or "git+https://github.com/" in line:
                assert _pyproject_url().split("github.com/")[1] in line, (rel, line)


def test_changing_pyproject_rebuilds_the_badge(tmp_path):
    # a copy of the repo's three inputs with another address: --check fails, a run fixes it
    (tmp_path / "docs").mkdir()
    (tmp_path / "tools").mkdir()
    synced = [rel for rel in sync.SYNCED_FILES if (REPO / rel).exists()]
    for rel in [*synced, "tools/sync_urls.py"]:
        shutil.copy(REPO / rel, tmp_path / rel)
    text = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    moved = "https://github.com/some-school/linkages"
    (tmp_path / "pyproject.toml").write_text(text.replace(_pyproject_url(), moved))
    script = tmp_path / "tools" / "sync_urls.py"
    check = subprocess.run([sys.executable, script, "--check"], capture_output=True, text=True)
    assert check.returncode == 1
    assert all(rel in check.stdout for rel in synced), check.stdout
    subprocess.run([sys.executable, script], check=True, capture_output=True)
    readme = (tmp_path / "README.md").read_text(encoding="utf-8")
    assert sync.badge(moved) in readme
    assert _pyproject_url() not in readme
    if "docs/frontends.md" in synced:
        docs = (tmp_path / "docs" / "frontends.md").read_text(encoding="utf-8")
        assert f"git+{moved}" in docs and "mybinder.org/v2/gh/some-school/linkages/" in docs
    again = subprocess.run([sys.executable, script, "--check"], capture_output=True)
    assert again.returncode == 0


def test_sync_leaves_other_github_links_alone():
    url = "https://github.com/a/b"
    text = (
        "see https://github.com/googlecolab/colabtools/issues/498 and git+https://github.com/x/y@v1"
    )
    assert sync.sync_text(text, url) == (
        "see https://github.com/googlecolab/colabtools/issues/498 and git+https://github.com/a/b@v1"
    )


@pytest.mark.parametrize(
    "bad", ["", "https://gitlab.com/a/b", "https://github.com/a", "https://github.com/a/b/c"]
)
def test_repository_must_be_a_github_repo(tmp_path, bad):
    (tmp_path / "pyproject.toml").write_text(f'[project.urls]\nRepository = "{bad}"\n')
    with pytest.raises(ValueError, match="Repository"):
        sync.repository_url(tmp_path / "pyproject.toml")
