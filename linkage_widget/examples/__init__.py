"""Linkages bundled with the package, loadable by name.

>>> "peaucellier" in list_examples()
True
>>> example_path("peaucellier.txt").name
'peaucellier.txt'
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

__all__ = ["list_examples", "example_path", "has_example", "load_example", "describe"]

_DIR = Path(str(resources.files(__name__)))


def _stem(name: str) -> str:
    return name[:-4] if name.endswith(".txt") else name


def list_examples() -> list[str]:
    """Names of the bundled linkages (without ``.txt``), sorted."""
    return sorted(p.stem for p in _DIR.glob("*.txt"))


def has_example(name: str) -> bool:
    """Whether ``name`` (with or without ``.txt``) is a bundled linkage."""
    return (_DIR / f"{_stem(name)}.txt").is_file()


def example_path(name: str) -> Path:
    """Path of the bundled linkage ``name`` (with or without ``.txt``)."""
    path = _DIR / f"{_stem(name)}.txt"
    if not path.is_file():
        raise FileNotFoundError(
            f"no bundled linkage {name!r}; bundled: {', '.join(list_examples())}"
        )
    return path


def describe(name: str) -> str:
    """The one-paragraph description of a bundled linkage (from its ``.md`` note, if any)."""
    note = _DIR / f"{_stem(name)}.md"
    return note.read_text(encoding="utf-8").strip() if note.is_file() else ""


def load_example(name: str):
    """Load the bundled linkage ``name`` as a :class:`~linkage_widget.Linkage`."""
    from ..io.text2007 import read_linkage

    return read_linkage(example_path(name))
