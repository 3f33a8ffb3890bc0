"""Where the bundled example linkages live, and how a bare file name finds one.

The files sit in the package folder ``linkage_widget/examples/`` (``<name>.txt``
in the 2007 format, with an optional one-paragraph note ``<name>.md``). This
module finds that folder by its path beside ``io/``, not by importing
:mod:`linkage_widget.examples`, which sits higher up the layers (it builds
:class:`~linkage_widget.Linkage` objects); that package re-exports the
functions below.

A name may be given with or without ``.txt``.

>>> "peaucellier" in list_examples()
True
>>> example_path("peaucellier").name
'peaucellier.txt'
>>> resolve_path("peaucellier.txt") == example_path("peaucellier")  # no such local file
True
"""

from __future__ import annotations

from os import PathLike
from pathlib import Path

__all__ = [
    "EXAMPLES_DIR",
    "describe",
    "example_path",
    "has_example",
    "list_examples",
    "resolve_path",
]

#: The folder of the bundled linkages (the package is installed as plain files).
EXAMPLES_DIR = Path(__file__).resolve().parents[1] / "examples"

#: The bundled 3-D linkages (:mod:`linkage_widget.examples.space`: ``<name>.txt`` with
#: ``x y z`` vertex lines and a ``<name>.md`` note), found by bare name too; kept apart so
#: that :func:`list_examples` stays the planar list.
SPACE_DIR = EXAMPLES_DIR / "space_files"


def _stem(name: str) -> str:
    return name.removesuffix(".txt")


def list_examples(folder: Path = EXAMPLES_DIR) -> list[str]:
    """Names of the bundled linkages in ``folder`` (without ``.txt``), sorted."""
    return sorted(p.stem for p in folder.glob("*.txt"))


def has_example(name: str, folder: Path = EXAMPLES_DIR) -> bool:
    """Whether ``name`` (with or without ``.txt``) is a bundled linkage in ``folder``."""
    return (folder / f"{_stem(name)}.txt").is_file()


def example_path(name: str, folder: Path = EXAMPLES_DIR, what: str = "linkage") -> Path:
    """Path of the bundled linkage ``name`` (with or without ``.txt``) in ``folder``.

    ``folder`` is :data:`EXAMPLES_DIR` (planar) or :data:`SPACE_DIR` (3-D, ``what``
    ``"3-D linkage"`` in the message).

    Raises
    ------
    FileNotFoundError
        Listing the bundled names, when there is no such example.
    """
    path = folder / f"{_stem(name)}.txt"
    if not path.is_file():
        raise FileNotFoundError(
            f"no bundled {what} {name!r}; bundled: {', '.join(list_examples(folder))}"
        )
    return path


def describe(name: str, folder: Path = EXAMPLES_DIR) -> str:
    """The one-paragraph description of a bundled linkage (from its ``.md`` note, if any)."""
    note = folder / f"{_stem(name)}.md"
    return note.read_text(encoding="utf-8").strip() if note.is_file() else ""


def resolve_path(path: str | PathLike[str]) -> Path:
    """The file ``path`` names, falling back to a bundled example for a bare name.

    A file that exists wins; otherwise a name without a folder (``"watt"``,
    ``"watt.txt"``) is looked up among the bundled examples, then among the bundled 3-D
    examples (``"bricard_line.txt"``: :data:`SPACE_DIR`, kept out of :func:`list_examples`).

    Raises
    ------
    FileNotFoundError
        Listing the bundled examples, when neither exists.
    """
    p = Path(path)
    if p.is_file():
        return p
    if p.parent == Path(".") and has_example(p.name):
        return example_path(p.name)
    if p.parent == Path(".") and has_example(p.name, SPACE_DIR):
        return example_path(p.name, SPACE_DIR)
    raise FileNotFoundError(
        f"no linkage file {str(path)!r} (and no bundled example of that name; "
        f"bundled: {', '.join(list_examples())})"
    )
