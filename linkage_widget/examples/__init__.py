"""Linkages bundled with the package, loadable by name.

The files are found by :mod:`linkage_widget.io.bundled` (which also lets
:meth:`Linkage.load <linkage_widget.Linkage.load>` take a bare name); this
package adds :func:`load_example`, which builds the :class:`~linkage_widget.Linkage`.

>>> "peaucellier" in list_examples()
True
>>> example_path("peaucellier.txt").name
'peaucellier.txt'
>>> load_example("watt").n_vertices
5
"""

from __future__ import annotations

from ..io.bundled import describe, example_path, has_example, list_examples
from ..model import Linkage

__all__ = ["list_examples", "example_path", "has_example", "load_example", "describe"]


def load_example(name: str) -> Linkage:
    """Load the bundled linkage ``name`` (with or without ``.txt``) as a :class:`Linkage`."""
    return Linkage.load(example_path(name))
