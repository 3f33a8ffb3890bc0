"""Reading and writing linkages: the 2007 text format, the JSON sibling, atomic saves.

Layer 2, below the model: this package deals in plain arrays
(:class:`LinkageData`) and never imports :mod:`linkage_widget.model`; the
model builds itself from what :func:`parse_linkage` returns.

* :mod:`.text2007`: the 2007 program's text format (parse and format, every check
  of the file with its line);
* :mod:`.sidecar`: the JSON sibling ``<name>.json`` with what that format cannot hold;
* :mod:`.bundled`: where the bundled examples live, and how a bare name finds one;
* :mod:`.atomic`: the one atomic writer, which every save and export uses;
* :mod:`.limits`: the size and vertex limits of every reader, and how to raise them;
* :mod:`.json_read`: the JSON parsing both JSON readers share (every failure a
  :class:`~linkage_widget.LinkageFormatError`).

The names below are the layer's face; the layers above import them from here.
"""

from .atomic import atomic_write, atomic_write_pair, atomic_writer
from .bundled import resolve_path
from .sidecar import (
    Extensions,
    read_extensions,
    read_guides,
    save_linkage,
    sibling_path,
    write_extensions,
)
from .text2007 import (
    LinkageData,
    format_linkage,
    parse_linkage,
    parse_linkage_bytes,
    read_linkage,
    write_linkage,
)

__all__ = [
    "Extensions",
    "LinkageData",
    "atomic_write",
    "atomic_write_pair",
    "atomic_writer",
    "format_linkage",
    "parse_linkage",
    "parse_linkage_bytes",
    "read_extensions",
    "read_guides",
    "read_linkage",
    "resolve_path",
    "save_linkage",
    "sibling_path",
    "write_extensions",
    "write_linkage",
]
