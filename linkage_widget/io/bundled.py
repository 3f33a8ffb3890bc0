"""Where the bundled example linkages live, and how a bare file name finds one.

The files sit in the package folder ``linkage_widget/examples/`` (``<name>.txt``
in the 2007 format, with an optional one-paragraph note ``<name>.md``). This
module finds that folder by its path beside ``io/``, not by importing
:mod:`linkage_widget.examples`, which sits higher up the layers (it builds
:class:`~linkage_widget.Linkage` objects); that package re-exports the
functions below.

A name may be given with or without ``.txt``. A name is a file in the folder, never a
path out of it: ``"../x"``, ``"/etc/x"`` or ``"space_files/x"`` name no bundled linkage
(:func:`has_example` is False, :func:`example_path` raises, :func:`describe` gives ``""``),
and nothing outside the folder is read.

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


def _inside(folder: Path, name: str, suffix: str) -> Path | None:
    """``folder/<name><suffix>`` (``.txt`` dropped from ``name``), if it is a file in ``folder``.

    ``None`` for a name that resolves elsewhere (``..``, an absolute path, a sub-folder,
    a link out of the folder), so that no bundled-name function reads outside it.

    >>> _inside(EXAMPLES_DIR, "watt", ".md").name, _inside(EXAMPLES_DIR, "../io/atomic", ".py")
    ('watt.md', None)
    """
    path = folder / f"{_stem(str(name))}{suffix}"
    try:
        inside = path.resolve().parent == folder.resolve()
    except (OSError, RuntimeError, ValueError):  # a link loop, a NUL in the name
        return None
    return path if inside and path.is_file() else None


def list_examples(folder: Path = EXAMPLES_DIR) -> list[str]:
    """Names of the bundled linkages in ``folder`` (without ``.txt``), sorted."""
    return sorted(p.stem for p in folder.glob("*.txt"))


def has_example(name: str, folder: Path = EXAMPLES_DIR) -> bool:
    """Whether ``name`` (with or without ``.txt``) is a bundled linkage in ``folder``."""
    return _inside(folder, name, ".txt") is not None


def example_path(name: str, folder: Path = EXAMPLES_DIR, what: str = "linkage") -> Path:
    """Path of the bundled linkage ``name`` (with or without ``.txt``) in ``folder``.

    ``folder`` is :data:`EXAMPLES_DIR` (planar) or :data:`SPACE_DIR` (3-D, ``what``
    ``"3-D linkage"`` in the message).

    Raises
    ------
    FileNotFoundError
        Listing the bundled names, when there is no such example.
    """
    path = _inside(folder, name, ".txt")
    if path is None:
        raise FileNotFoundError(
            f"no bundled {what} {name!r}; bundled: {', '.join(list_examples(folder))}"
        )
    return path


def describe(name: str, folder: Path = EXAMPLES_DIR) -> str:
    """The one-paragraph description of a bundled linkage (from its ``.md`` note, if any)."""
    note = _inside(folder, name, ".md")
    return note.read_text(encoding="utf-8").strip() if note is not None else ""


def resolve_path(path: str | PathLike[str]) -> Path:
    """The file ``path`` names, falling back to a bundled example for a bare name.

    ``~`` is the home folder. A file that exists wins; otherwise a name without a folder
    (``"watt"``, ``"watt.txt"``) is looked up among the bundled examples, then among the
    bundled 3-D examples (``"bricard_line.txt"``: :data:`SPACE_DIR`, kept out of
    :func:`list_examples`).

    Raises
    ------
    FileNotFoundError
        Listing the bundled examples, when neither exists.
    """
    p = Path(path).expanduser()
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
