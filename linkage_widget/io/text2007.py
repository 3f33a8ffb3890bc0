r"""The 2007 program's linkage text format: a codec between text and plain arrays.

This module knows the file format and nothing of :class:`~linkage_widget.Linkage`
(which sits a layer above and builds itself from a :class:`LinkageData`). It
checks everything a file can get wrong, so that every error names the file and
the line.

The format has four sections, each started by a header line that is a single
word whose first character is ``v``, ``f``, ``e`` or ``a``::

    v
    50.0 300.0        one vertex per line: x y  (or x y z in a 3-D file)
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
* A header is recognised by its first character, exactly as the 2007 program
  did, so the one word ``vertices`` also starts the ``v`` section. A header is
  alone on its line: a line that starts with a section letter and has more
  fields (``v 3``, ``e 0 1``, ``abc 1``) is a malformed header and an error —
  the 2007 program took it for a header and silently dropped the rest of the
  line, and ours used to as well. A word starting with any other letter is an
  unknown section (the 2007 program could not read such a file either),
  except that a line which starts with a number Python reads (``nan 1``,
  ``inf 0``) is data, and then rejected as non-finite.
* A vertex line has two numbers (a planar linkage, the 2007 program's files) or
  three (a spatial linkage, the obvious extension): the first vertex line decides
  the file's dimension and every other vertex line must agree — a 2-number line in
  a 3-D file or a 3-number line in a 2-D file is an error naming that line and the
  line that decided. A file without vertices is planar.
* Sections may come in any order and more than once; indices refer to the
  vertex list as a whole. A file must contain a ``v`` header.
* Errors raise :class:`~linkage_widget.LinkageFormatError` naming the file and
  line: a malformed or unknown header, a wrong number of fields, a
  non-numeric or non-finite number, a non-integer index, an index out of range
  or negative, a rod from a vertex to itself, a repeated rod (in either
  order), a rod of zero length or too long to square (the bounds of
  :data:`~linkage_widget._checks.MIN_ROD_LENGTH` and ``MAX_ROD_LENGTH``, which
  the model applies too), a repeated pin or angle, and a fixed angle with an arm
  of zero length (its joint on the apex: no direction, no angle). A fixed angle
  needs no rods: it is one constraint on three joints (the 2007 page's "more
  motion possible"; its program took the rods for granted, and with them the
  angle is a rigid joint).
* A message quotes at most :data:`~linkage_widget.errors.QUOTE_LIMIT` characters of a
  bad line or field (:func:`~linkage_widget.errors.quoted`). A file above the size
  limit is refused before it is read, and one with more vertices than the vertex
  limit at the line that passes it (:mod:`.limits`).

Writing: all four headers, always in the order ``v f e a``; a vertex line with
two or three numbers as the linkage has (a planar file is written byte for byte as
before); floats with
``repr`` (shortest exact form), so ``parse(format(x)) == x`` bit for bit; a
trailing newline; saved through the one atomic writer (:mod:`.atomic`).
Extensions the 2007 program does not know (tracked vertices, springs, masses)
are never written into this file; they live in a JSON sibling (:mod:`.sidecar`).

>>> data = parse_linkage("v\n0 0\n3 4\nf\n0\ne\n0 1\na\n")
>>> data.vertices.tolist(), data.pinned.tolist(), data.rods.tolist(), data.angles.shape
([[0.0, 0.0], [3.0, 4.0]], [0], [[0, 1]], (0, 3))
>>> format_linkage(data) == "v\n0.0 0.0\n3.0 4.0\nf\n0\ne\n0 1\na\n"
True
"""

from __future__ import annotations

from os import PathLike
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from .. import _checks
from .._linkage_checks import degenerate_angle
from ..errors import LinkageFormatError, quoted
from . import limits
from .atomic import atomic_write
from .bundled import resolve_path

__all__ = [
    "LinkageData",
    "format_linkage",
    "parse_linkage",
    "parse_linkage_bytes",
    "read_linkage",
    "write_linkage",
]

_SECTIONS = {"v": 2, "f": 1, "e": 2, "a": 3}
_SECTION_NAMES = {"v": "vertex", "f": "pinned vertex", "e": "rod", "a": "fixed angle"}

_INDEX_MIN, _INDEX_MAX = -(2**63), 2**63 - 1

#: Pins, rods or angles as read: the indices and the line they came from.
_Items = list[tuple[tuple[int, ...], int]]


class LinkageData(NamedTuple):
    """The contents of a linkage file, as plain arrays (the model builds itself from them).

    Attributes
    ----------
    vertices : ndarray, shape (n, 2) or (n, 3), float64
        Joint positions, in file order; three columns in a 3-D file.
    pinned : ndarray, shape (q,), int64
        Pinned vertex indices, in file order.
    rods : ndarray, shape (m, 2), int64
        Rods ``(i, j)``, in file order and in the vertex order the file gives.
    angles : ndarray, shape (k, 3), int64
        Fixed angles ``(apex, j, k)``.
    sliders : tuple of (j, (x, y), (dx, dy))
        Joints held on a fixed line; slots: tuple of ``(a, b, c)``. The 2007 text holds
        neither: they come from and go to the JSON sibling (:mod:`.sidecar`).
    kinds : tuple of str
        The kind of each rod (``'rod'``, ``'cable'``, ``'strut'``; :mod:`..rod_kinds`), or
        ``()`` when all are rods. The 2007 text holds bars only: kinds live in the sibling.
    """

    vertices: np.ndarray
    pinned: np.ndarray
    rods: np.ndarray
    angles: np.ndarray
    sliders: tuple[Any, ...] = ()
    slots: tuple[Any, ...] = ()
    kinds: tuple[str, ...] = ()

    @property
    def dim(self) -> int:
        """The dimension: 2 (planar) or 3 (spatial), the number of columns of ``vertices``."""
        return int(np.shape(self.vertices)[1])


def _is_number(field: str) -> bool:
    """Whether ``field`` parses as a float (``nan 1`` is data, not a section header)."""
    try:
        float(field)
    except ValueError:
        return False
    return True


def _number(field: str, source: str, line: int) -> float:
    try:
        return _checks.finite(field, "coordinate")
    except ValueError:
        problem = "is not finite" if _is_number(field) else "is not a number"
        raise LinkageFormatError(f"coordinate {quoted(field)} {problem}", source, line) from None


def _index(field: str, source: str, line: int) -> int:
    if len(field) > 20 and field.lstrip("+-").isdigit():  # beyond int64 (and int()'s digit limit)
        raise LinkageFormatError(f"vertex {quoted(field)} does not exist", source, line)
    try:
        value = int(field)
    except ValueError:
        raise LinkageFormatError(
            f"{quoted(field)} is not a vertex index (a whole number)", source, line
        ) from None
    if not _INDEX_MIN <= value <= _INDEX_MAX:  # the checks hold indices in int64 arrays
        raise LinkageFormatError(f"vertex {value} does not exist", source, line)
    return value


def _header(line: str, source: str, lineno: int) -> str | None:
    """The section that ``line`` (stripped, not blank) starts, or ``None`` for a data line."""
    if not line[0].isalpha():
        return None
    words = line.split()
    if _is_number(words[0]):
        return None
    if line[0] not in _SECTIONS:
        raise LinkageFormatError(
            f"unknown section {quoted(words[0])} (sections are v, f, e and a)", source, lineno
        )
    if len(words) > 1:
        raise LinkageFormatError(
            f"malformed section header {quoted(line)}: a header is one word alone on its line "
            f"('{line[0]}'), the {_SECTION_NAMES[line[0]]} lines follow it",
            source,
            lineno,
        )
    return line[0]


class _Reader:
    """Reads a file line by line into the sections; how they fit together is checked after."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.section: str | None = None
        self.seen_v = False
        self.vertices: list[tuple[float, ...]] = []
        #: the dimension and the line of the first vertex, which decided it
        self.dim: tuple[int, int] | None = None
        self.items: dict[str, _Items] = {"f": [], "e": [], "a": []}
        self.max_vertices = limits.max_vertices()

    def feed(self, line: str, lineno: int) -> None:
        """Take one stripped, non-blank line."""
        header = _header(line, self.source, lineno)
        if header is not None:
            self.section = header
            self.seen_v = self.seen_v or header == "v"
            return
        if self.section is None:
            raise LinkageFormatError(
                "data before the first section header (expected a line 'v')", self.source, lineno
            )
        fields = line.split()
        if self.section == "v":
            self.vertex(fields, line, lineno)
            return
        want = _SECTIONS[self.section]
        if len(fields) != want:
            raise LinkageFormatError(
                f"a {_SECTION_NAMES[self.section]} line needs {want} field{'s' * (want > 1)}, "
                f"got {len(fields)}: {quoted(line)}",
                self.source,
                lineno,
            )
        index = tuple(_index(f, self.source, lineno) for f in fields)
        self.items[self.section].append((index, lineno))

    def vertex(self, fields: list[str], line: str, lineno: int) -> None:
        """One vertex line: ``x y`` or ``x y z``, as many numbers as the first vertex line."""
        if len(fields) not in (2, 3):
            raise LinkageFormatError(
                f"a vertex line needs 2 fields (x y) or 3 (x y z), "
                f"got {len(fields)}: {quoted(line)}",
                self.source,
                lineno,
            )
        if self.dim is None:
            self.dim = (len(fields), lineno)
        elif len(fields) != self.dim[0]:
            dim, first = self.dim
            raise LinkageFormatError(
                f"a {dim}-D file's vertex line needs {dim} fields, "
                f"got {len(fields)}: {quoted(line)} "
                f"(the first vertex, on line {first}, has {dim} coordinates; one file holds "
                "one dimension, 2-D or 3-D)",
                self.source,
                lineno,
            )
        if len(self.vertices) >= self.max_vertices:
            limits.check_vertices(len(self.vertices) + 1, self.source, lineno)
        self.vertices.append(tuple(_number(f, self.source, lineno) for f in fields))


class _ItemChecks:
    """Checks the pins, rods and angles read against the vertices; errors name the line.

    Each kind is checked in file order, so the error reported is the first one in
    the file; the index ranges and rod lengths are tested for all items at once
    first (a million-line file stays fast), and the loop stops at the first bad one.
    """

    def __init__(self, vertices: np.ndarray, source: str) -> None:
        self.vertices = vertices
        self.source = source
        #: line of each rod, by its unordered pair of vertices (to name a repeated rod)
        self.rod_lines: dict[frozenset[int], int] = {}

    def error(self, message: str, line: int) -> LinkageFormatError:
        return LinkageFormatError(message, self.source, line)

    def first_out_of_range(self, indices: np.ndarray) -> int:
        """The first row of ``indices`` naming a vertex the file does not have (or their count)."""
        first = _checks.first_row_out_of_range(indices, len(self.vertices))
        return len(indices) if first is None else first

    def out_of_range(self, indices: tuple[int, ...], what: str, line: int) -> LinkageFormatError:
        n = len(self.vertices)
        v = indices[_checks.first_row_out_of_range(np.array(indices), n) or 0]
        plural = "vertex" if n == 1 else "vertices"
        return self.error(f"{what}: vertex {v} does not exist (the file has {n} {plural})", line)

    def pins(self, items: _Items) -> None:
        first_out = self.first_out_of_range(_indices(items, 1))
        seen: dict[int, int] = {}
        for row, ((v,), line) in enumerate(items):
            if row == first_out:
                raise self.out_of_range((v,), "pin", line)
            if v in seen:
                raise self.error(f"vertex {v} is pinned already (line {seen[v]})", line)
            seen[v] = line

    def rods(self, items: _Items) -> None:
        ends = _indices(items, 2)
        first_out = self.first_out_of_range(ends)
        with np.errstate(over="ignore", invalid="ignore"):
            d = self.vertices[ends[:first_out, 0]] - self.vertices[ends[:first_out, 1]]
            lengths = _checks.row_norms(d)
        first_bad_length = _checks.first_bad_rod_length(lengths)
        for row, ((i, j), line) in enumerate(items):
            if row == first_out:
                raise self.out_of_range((i, j), f"rod {i}-{j}", line)
            if i == j:
                raise self.error(f"rod {i}-{j} joins a vertex to itself", line)
            key = frozenset((i, j))
            if key in self.rod_lines:
                raise self.error(f"rod {i}-{j} repeats the rod on line {self.rod_lines[key]}", line)
            if row == first_bad_length:
                try:
                    _checks.rod_length(lengths[row], f"rod {i}-{j}")
                except ValueError as exc:
                    raise self.error(str(exc), line) from None
            self.rod_lines[key] = line

    def angles(self, items: _Items) -> None:
        first_out = self.first_out_of_range(_indices(items, 3))
        seen: dict[tuple[int, frozenset[int]], int] = {}
        for row, ((i, j, k), line) in enumerate(items):
            what = f"angle ({i}, {j}, {k})"
            if row == first_out:
                raise self.out_of_range((i, j, k), what, line)
            if len({i, j, k}) != 3:
                raise self.error(f"{what} repeats a vertex", line)
            why = degenerate_angle(self.vertices, i, j, k)
            if why is not None:
                raise self.error(f"{what}: {why}", line)
            key = (i, frozenset((j, k)))
            if key in seen:
                raise self.error(f"{what} repeats the angle on line {seen[key]}", line)
            seen[key] = line


def _indices(items: _Items, width: int) -> np.ndarray:
    return np.array([idx for idx, _ in items], dtype=np.int64).reshape(-1, width)


def parse_linkage(text: str, *, source: str = "<string>") -> LinkageData:
    r"""Parse linkage text; raise :class:`LinkageFormatError` with the line on bad input.

    Parameters
    ----------
    text : str
        File contents.
    source : str
        Name used in error messages (a file path, or ``"<string>"``).

    Returns
    -------
    LinkageData

    Examples
    --------
    >>> parse_linkage("v\n0 0\n3 4\nf\n0\ne\n0 1\na\n").rods.tolist()
    [[0, 1]]
    >>> try:
    ...     parse_linkage("v\n0 0\ne\n0 7\n", source="my.txt")
    ... except LinkageFormatError as err:
    ...     print(err)
    my.txt, line 4: rod 0-7: vertex 7 does not exist (the file has 1 vertex)
    >>> try:
    ...     parse_linkage("v\n0 0\nv 3\n", source="my.txt")
    ... except LinkageFormatError as err:
    ...     print(err.line, err.message[:30])
    3 malformed section header 'v 3'
    """
    limits.check_size(len(text), source)  # a str handed over is measured in characters
    text = text.removeprefix("\ufeff")
    if "\x00" in text:
        raise LinkageFormatError("contains NUL bytes: not a linkage text file", source)
    reader = _Reader(source)
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if line:
            reader.feed(line, lineno)
    if not reader.seen_v:
        what = "is empty" if not text.strip() else "has no 'v' section"
        raise LinkageFormatError(f"{what}: not a linkage file", source)
    dim = 2 if reader.dim is None else reader.dim[0]
    vertices = np.array(reader.vertices, dtype=np.float64).reshape(-1, dim)
    checks = _ItemChecks(vertices, source)
    checks.pins(reader.items["f"])
    checks.rods(reader.items["e"])
    checks.angles(reader.items["a"])
    return LinkageData(
        vertices=vertices,
        pinned=_indices(reader.items["f"], 1).reshape(-1),
        rods=_indices(reader.items["e"], 2),
        angles=_indices(reader.items["a"], 3),
    )


def format_linkage(data: LinkageData) -> str:
    r"""Serialise to the 2007 text format; floats in ``repr`` form for an exact round trip.

    Examples
    --------
    >>> data = LinkageData(np.array([[0.1, 2.0], [3.0, -4.5]]), np.zeros(0, int),
    ...                    np.array([[1, 0]]), np.zeros((0, 3), int))
    >>> print(format_linkage(data), end="")
    v
    0.1 2.0
    3.0 -4.5
    f
    e
    1 0
    a
    >>> print(format_linkage(parse_linkage("v\n0 0 0\n1 2 3\ne\n0 1\n")), end="")
    v
    0.0 0.0 0.0
    1.0 2.0 3.0
    f
    e
    0 1
    a
    """
    out = ["v"]
    out += [" ".join(repr(float(c)) for c in p) for p in np.asarray(data.vertices).tolist()]
    out.append("f")
    out += [str(int(i)) for i in np.asarray(data.pinned).tolist()]
    out.append("e")
    out += [f"{i} {j}" for i, j in np.asarray(data.rods).tolist()]
    out.append("a")
    out += [f"{i} {j} {k}" for i, j, k in np.asarray(data.angles).tolist()]
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


def parse_linkage_bytes(data: bytes, *, source: str = "<bytes>") -> LinkageData:
    r"""Parse the bytes of a linkage file (UTF-8, BOM allowed), as :func:`read_linkage` does.

    For files that arrive as bytes rather than by path (an upload): binary or
    non-UTF-8 data is rejected with the same :class:`LinkageFormatError`.

    Examples
    --------
    >>> parse_linkage_bytes(b"v\n0 0\n3 4\ne\n0 1\n").vertices.shape
    (2, 2)
    """
    limits.check_size(len(data), source)
    return parse_linkage(_decode(bytes(data), source), source=source)


def read_linkage(path: str | PathLike[str]) -> LinkageData:
    """Read a linkage file (or a bundled example by bare name, see :func:`.resolve_path`).

    Errors name ``path`` as given. A file above the size limit (:mod:`.limits`) is
    refused before it is read.
    """
    return parse_linkage_bytes(limits.read_bounded(resolve_path(path), str(path)), source=str(path))


def write_linkage(data: LinkageData, path: str | PathLike[str]) -> Path:
    """Save ``data`` to ``path`` in the 2007 format, atomically (see :mod:`.atomic`)."""
    return atomic_write(path, format_linkage(data))
