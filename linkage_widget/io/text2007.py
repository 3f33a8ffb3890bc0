"""The 2007 program's linkage text format: reading, writing, atomic saving.

The format has four sections, each started by a line whose first character is
``v``, ``f``, ``e`` or ``a``::

    v
    50.0 300.0        one vertex per line: x y
    f
    0                 a pinned vertex index
    e
    0 3               a rod between two vertices
    a
    2 1 3             a fixed angle at 2 between rods 2-1 and 2-3

Reading rules (decided once, documented in the README):

* Blank lines, surrounding white space (tabs too), CRLF line ends and a UTF-8
  byte-order mark are accepted. Text after ``#`` on a line is a comment (the
  2007 program never wrote one; we never write one either).
* A header line is recognised by its first character, exactly as the 2007
  program did, so ``vertices`` also starts the ``v`` section. Any other letter
  is an error (the 2007 program could not read such a file either), except
  that a line which starts with a number Python reads (``nan 1``, ``inf 0``)
  is data, and then rejected as non-finite.
* Sections may come in any order and more than once; indices refer to the
  vertex list as a whole. A file must contain a ``v`` header.
* Errors raise :class:`LinkageFormatError` naming the file and line: a wrong
  number of fields, a non-numeric or non-finite number, a non-integer index,
  an index out of range or negative, a rod from a vertex to itself, a repeated
  rod (in either order), a zero-length rod, a repeated pin or angle, and a
  fixed angle whose two rods do not both exist. The 2007 program took the
  angle constraint's rods for granted; we reject such a file rather than
  invent rods, because the angle alone would not hold the joints together the
  way the picture suggests.

Writing: all four headers, always in the order ``v f e a``; floats with
``repr`` (shortest exact form), so ``loads(dumps(x)) == x`` bit for bit; a
trailing newline. Extensions the 2007 program does not know (tracked
vertices, springs, masses) are never written into this file; they live in a
JSON sibling ``<name>.json`` written by the widget.
"""

from __future__ import annotations

import math
import os
import tempfile
from os import PathLike
from pathlib import Path

import numpy as np

from ..errors import LinkageFormatError
from ..model import MAX_ROD_LENGTH, MIN_ROD_LENGTH, Linkage

__all__ = [
    "parse_linkage",
    "parse_linkage_bytes",
    "format_linkage",
    "read_linkage",
    "write_linkage",
    "atomic_write_text",
]

_SECTIONS = {"v": 2, "f": 1, "e": 2, "a": 3}
_SECTION_NAMES = {"v": "vertex", "f": "pinned vertex", "e": "rod", "a": "fixed angle"}


def _number(field: str, source: str, line: int) -> float:
    try:
        value = float(field)
    except ValueError:
        raise LinkageFormatError(f"{field!r} is not a number", source, line) from None
    if not math.isfinite(value):
        raise LinkageFormatError(f"coordinate {field!r} is not finite", source, line)
    return value


def _is_number(field: str) -> bool:
    """Whether ``field`` parses as a float (``nan 1`` is data, not a section header)."""
    try:
        float(field)
    except ValueError:
        return False
    return True


def _index(field: str, source: str, line: int) -> int:
    try:
        return int(field)
    except ValueError:
        raise LinkageFormatError(
            f"{field!r} is not a vertex index (a whole number)", source, line
        ) from None


def parse_linkage(text: str, *, source: str = "<string>") -> Linkage:
    r"""Parse linkage text; raise :class:`LinkageFormatError` with the line on bad input.

    Parameters
    ----------
    text : str
        File contents.
    source : str
        Name used in error messages (a file path, or ``"<string>"``).

    Examples
    --------
    >>> link = parse_linkage("v\n0 0\n3 4\nf\n0\ne\n0 1\na\n")
    >>> link.rod_lengths().tolist()
    [5.0]
    >>> try:
    ...     parse_linkage("v\n0 0\ne\n0 7\n", source="my.txt")
    ... except LinkageFormatError as err:
    ...     print(err)
    my.txt, line 4: rod 0-7: vertex 7 does not exist (the file has 1 vertex)
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\x00" in text:
        raise LinkageFormatError("contains NUL bytes: not a linkage text file", source)
    section: str | None = None
    seen_v = False
    verts: list[tuple[float, float]] = []
    items: dict[str, list[tuple[tuple[int, ...], int]]] = {"f": [], "e": [], "a": []}
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        head = line[0]
        if head.isalpha() and not _is_number(line.split()[0]):
            if head not in _SECTIONS:
                raise LinkageFormatError(
                    f"unknown section {line.split()[0]!r} (sections are v, f, e and a)",
                    source,
                    lineno,
                )
            section = head
            seen_v = seen_v or head == "v"
            continue
        if section is None:
            raise LinkageFormatError(
                "data before the first section header (expected a line 'v')", source, lineno
            )
        fields = line.split()
        want = _SECTIONS[section]
        if len(fields) != want:
            raise LinkageFormatError(
                f"a {_SECTION_NAMES[section]} line needs {want} field{'s' * (want > 1)}, "
                f"got {len(fields)}: {line!r}",
                source,
                lineno,
            )
        if section == "v":
            verts.append((_number(fields[0], source, lineno), _number(fields[1], source, lineno)))
        else:
            items[section].append((tuple(_index(f, source, lineno) for f in fields), lineno))
    if not seen_v:
        what = "is empty" if not text.strip() else "has no 'v' section"
        raise LinkageFormatError(f"{what}: not a linkage file", source)

    vertices = np.array(verts, dtype=np.float64).reshape(-1, 2)
    _check_items(vertices, items, source)
    try:
        return Linkage(
            vertices,
            rods=[r for r, _ in items["e"]],
            angles=[a for a, _ in items["a"]],
            pinned=[p[0] for p, _ in items["f"]],
        )
    except ValueError as exc:  # pragma: no cover - _check_items catches these first
        raise LinkageFormatError(str(exc), source) from exc


def _check_items(
    vertices: np.ndarray, items: dict[str, list[tuple[tuple[int, ...], int]]], source: str
) -> None:
    """Check every pin, rod and angle against the vertices; errors name the line."""
    n = len(vertices)
    plural = "vertex" if n == 1 else "vertices"

    def in_range(idx: tuple[int, ...], what: str, line: int) -> None:
        for v in idx:
            if not 0 <= v < n:
                raise LinkageFormatError(
                    f"{what}: vertex {v} does not exist (the file has {n} {plural})", source, line
                )

    pins: dict[int, int] = {}
    for (v,), line in items["f"]:
        in_range((v,), "pin", line)
        if v in pins:
            raise LinkageFormatError(f"vertex {v} is pinned already (line {pins[v]})", source, line)
        pins[v] = line
    rods: dict[frozenset[int], int] = {}
    for (i, j), line in items["e"]:
        what = f"rod {i}-{j}"
        in_range((i, j), what, line)
        if i == j:
            raise LinkageFormatError(f"{what} joins a vertex to itself", source, line)
        key = frozenset((i, j))
        if key in rods:
            raise LinkageFormatError(f"{what} repeats the rod on line {rods[key]}", source, line)
        with np.errstate(over="ignore"):
            length = float(np.hypot(*(vertices[i] - vertices[j])))
        if not length <= MAX_ROD_LENGTH:
            raise LinkageFormatError(
                f"{what} is too long: its length overflows (or its square does: rods must be "
                f"shorter than {MAX_ROD_LENGTH:g})",
                source,
                line,
            )
        if length < MIN_ROD_LENGTH:
            almost = "" if length == 0.0 else f" (almost: {length:.3g})"
            raise LinkageFormatError(
                f"{what} has zero length{almost}: vertices {i} and {j} are at the same place",
                source,
                line,
            )
        rods[key] = line
    angles: dict[tuple[int, frozenset[int]], int] = {}
    for (i, j, k), line in items["a"]:
        what = f"angle ({i}, {j}, {k})"
        in_range((i, j, k), what, line)
        if len({i, j, k}) != 3:
            raise LinkageFormatError(f"{what} repeats a vertex", source, line)
        for arm in (j, k):
            if frozenset((i, arm)) not in rods:
                raise LinkageFormatError(
                    f"{what} at vertex {i} needs a rod {i}-{arm}, which the file does not have",
                    source,
                    line,
                )
        key = (i, frozenset((j, k)))
        if key in angles:
            raise LinkageFormatError(
                f"{what} repeats the angle on line {angles[key]}", source, line
            )
        angles[key] = line


def format_linkage(linkage: Linkage) -> str:
    """Serialise to the 2007 text format; floats in ``repr`` form for an exact round trip.

    Examples
    --------
    >>> print(format_linkage(Linkage([[0.1, 2.0], [3.0, -4.5]], rods=[(1, 0)])), end="")
    v
    0.1 2.0
    3.0 -4.5
    f
    e
    1 0
    a
    """
    out = ["v"]
    out += [f"{float(x)!r} {float(y)!r}" for x, y in linkage.vertices.tolist()]
    out.append("f")
    out += [str(int(i)) for i in linkage.pinned.tolist()]
    out.append("e")
    out += [f"{i} {j}" for i, j in linkage.rods.tolist()]
    out.append("a")
    out += [f"{i} {j} {k}" for i, j, k in linkage.angles.tolist()]
    return "\n".join(out) + "\n"


def _decode(data: bytes, source: str) -> str:
    if b"\x00" in data:
        raise LinkageFormatError("contains NUL bytes: a binary file, not linkage text", source)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise LinkageFormatError(
            f"byte {exc.start} is not UTF-8 text: this is not a linkage text file", source, line
        ) from None


def resolve_path(path: str | PathLike[str]) -> Path:
    """The file ``path`` names, falling back to a bundled example for a bare name.

    Raises ``FileNotFoundError`` listing the bundled examples when neither exists.
    """
    p = Path(path)
    if p.is_file():
        return p
    from .. import examples

    if p.parent == Path(".") and examples.has_example(p.name):
        return examples.example_path(p.name)
    raise FileNotFoundError(
        f"no linkage file {str(path)!r} (and no bundled example of that name; "
        f"bundled: {', '.join(examples.list_examples())})"
    )


def parse_linkage_bytes(data: bytes, *, source: str = "<bytes>") -> Linkage:
    r"""Parse the bytes of a linkage file (UTF-8, BOM allowed), as :func:`read_linkage` does.

    For files that arrive as bytes rather than by path (an upload): binary or
    non-UTF-8 data is rejected with the same :class:`LinkageFormatError`.

    Examples
    --------
    >>> parse_linkage_bytes(b"v\n0 0\n3 4\ne\n0 1\n").rod_lengths().tolist()
    [5.0]
    """
    return parse_linkage(_decode(bytes(data), source), source=source)


def read_linkage(path: str | PathLike[str]) -> Linkage:
    """Read a linkage file (or a bundled example by bare name)."""
    p = resolve_path(path)
    return parse_linkage_bytes(p.read_bytes(), source=str(path))


def atomic_write_text(path: str | PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` atomically: temporary file beside it, fsync, rename.

    The old file, if any, is either fully replaced or untouched; its permission
    bits carry over. Raises ``OSError`` naming the path when it cannot be written.
    """
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    try:
        mode = target.stat().st_mode & 0o777
    except OSError:  # no such file yet (or no such folder: mkstemp below says so)
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise OSError(exc.errno, f"cannot save {str(target)!r}: {exc.strerror}") from exc
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise OSError(exc.errno, f"cannot save {str(target)!r}: {exc.strerror}") from exc
        raise


def write_linkage(linkage: Linkage, path: str | PathLike[str]) -> None:
    """Save ``linkage`` to ``path`` in the 2007 format, atomically."""
    atomic_write_text(path, format_linkage(linkage))
