"""Reading and writing linkages: the 2007 text format, the JSON sibling, atomic saves.

The names below are the layer's face; the layers above import them from here.
"""

from .atomic import atomic_write, atomic_writer
from .sidecar import Extensions, read_extensions, sibling_path, write_extensions
from .text2007 import resolve_path

__all__ = [
    "Extensions",
    "atomic_write",
    "atomic_writer",
    "read_extensions",
    "resolve_path",
    "sibling_path",
    "write_extensions",
]
