"""How big a file this package reads: a byte limit and a vertex limit, and how to raise them.

Every reader (the 2007 text, its JSON sibling, the JSON document, an upload's
bytes) refuses a file above :data:`MAX_FILE_BYTES` before it reads it (a path is
measured with ``os.stat``, bytes by their length), and a linkage above
:data:`MAX_VERTICES` vertices as soon as the count is passed, with a
:class:`~linkage_widget.LinkageFormatError` that names the limit and how to raise
it. A file at the limits takes seconds, not minutes: the 2007 program's files are
a few hundred bytes, and a million-line file (half a million vertices) fits.

To read bigger files, set the environment variable ``LINKAGE_WIDGET_MAX_FILE_BYTES``
or ``LINKAGE_WIDGET_MAX_VERTICES`` (read at each load, so ``os.environ`` in a
running notebook works too), or assign the module constants.

>>> max_file_bytes() == MAX_FILE_BYTES, max_vertices() == MAX_VERTICES
(True, True)
"""

from __future__ import annotations

import os
from os import PathLike

from ..errors import LinkageFormatError

__all__ = [
    "BYTES_VARIABLE",
    "MAX_FILE_BYTES",
    "MAX_VERTICES",
    "VERTICES_VARIABLE",
    "check_size",
    "check_vertices",
    "max_file_bytes",
    "max_vertices",
    "read_bounded",
]

#: Largest file read, in bytes (16 MiB).
MAX_FILE_BYTES = 16 * 2**20
#: Most vertices a file may hold.
MAX_VERTICES = 1_000_000
BYTES_VARIABLE = "LINKAGE_WIDGET_MAX_FILE_BYTES"
VERTICES_VARIABLE = "LINKAGE_WIDGET_MAX_VERTICES"


def _setting(variable: str, default: int) -> int:
    """The environment's positive whole number ``variable``, else ``default``."""
    raw = os.environ.get(variable, "").strip().replace("_", "")
    if raw.isdigit() and int(raw) > 0:
        return int(raw)
    return default


def max_file_bytes() -> int:
    """The byte limit now: ``$LINKAGE_WIDGET_MAX_FILE_BYTES``, else :data:`MAX_FILE_BYTES`."""
    return _setting(BYTES_VARIABLE, MAX_FILE_BYTES)


def max_vertices() -> int:
    """The vertex limit now: ``$LINKAGE_WIDGET_MAX_VERTICES``, else :data:`MAX_VERTICES`."""
    return _setting(VERTICES_VARIABLE, MAX_VERTICES)


def check_size(size: int, source: str) -> None:
    """Refuse ``size`` bytes (or characters) above the byte limit, naming ``source``."""
    limit = max_file_bytes()
    if size > limit:
        raise LinkageFormatError(
            f"is {size:,} bytes, more than the limit of {limit:,} bytes "
            f"(set the environment variable {BYTES_VARIABLE} to read bigger files)",
            source,
        )


def check_vertices(count: int, source: str, line: int | None = None) -> None:
    """Refuse ``count`` vertices above the vertex limit, naming ``source`` (and the line)."""
    limit = max_vertices()
    if count > limit:
        raise LinkageFormatError(
            f"more than {limit:,} vertices, the limit "
            f"(set the environment variable {VERTICES_VARIABLE} to read bigger linkages)",
            source,
            line,
        )


def read_bounded(path: str | PathLike[str], source: str) -> bytes:
    """The bytes of the file ``path``, refused before reading when it is above the limit.

    The size is taken with ``os.stat`` first; the read itself stops one byte past
    the limit, so a file that grows meanwhile (or a device that reports no size)
    is refused as well.
    """
    check_size(os.stat(path).st_size, source)
    limit = max_file_bytes()
    with open(path, "rb") as fh:
        data = fh.read(limit + 1)
    check_size(len(data), source)
    return data
