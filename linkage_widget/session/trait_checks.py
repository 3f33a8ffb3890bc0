"""The values a session's traits may take: plain checks that return the value or raise.

Each check takes the proposed value and the trait's name (plus what it depends on: the
linkage's counts, the choices) and returns the value in its kept form, or raises a
``ValueError`` naming the trait; :class:`~.traits.SessionTraits` turns it into the
``TraitError`` traitlets expects, with the same message. Numbers go through
:mod:`linkage_widget._checks` (one check per parameter).

>>> number("2", "step_size")
2.0
>>> choice("fast", "mode")
Traceback (most recent call last):
...
ValueError: mode must be one of kinematic, dynamic; got 'fast'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import _checks
from ..draw import MAX_PIXEL_RATIO
from ..draw.view3d import PROJECTIONS
from ..model import Linkage
from ..motion import MODES
from ..rod_kinds import KINDS
from .configuration_panel import checked_coordinates
from .tools import TOOLS

__all__ = [
    "CHOICES",
    "NUMBERS",
    "choice",
    "coordinates",
    "names",
    "number",
    "pixel_ratio",
    "point",
    "selection",
    "tracked",
]

#: the number traits and the check of each
NUMBERS: dict[str, Callable[[Any, str], float]] = {
    "step_size": _checks.positive,
    "mass_distribution": _checks.unit_interval,
    "table_friction": _checks.non_negative,
    "load_size": _checks.positive,
    "gravity": _checks.finite,
}

#: the text traits with a fixed set of values
CHOICES: dict[str, tuple[str, ...]] = {
    "mode": tuple(MODES),
    "tool": tuple(TOOLS),
    "rod_kind": KINDS,
    "projection": tuple(PROJECTIONS),
}


def number(value: Any, name: str) -> float:
    """``value`` as the float the number trait ``name`` may take (:data:`NUMBERS`)."""
    return NUMBERS[name](value, name)


def pixel_ratio(value: Any, name: str) -> float:
    """``value`` as a device pixel ratio in ``[0.5, MAX_PIXEL_RATIO]``."""
    r = _checks.positive(value, name)
    if not 0.5 <= r <= MAX_PIXEL_RATIO:
        raise ValueError(f"{name} must be in [0.5, {MAX_PIXEL_RATIO:g}], got {r!r}")
    return r


def names(value: Any, name: str) -> tuple[str, ...]:
    """``value`` as a tuple of strings (joint names)."""
    if not all(isinstance(x, str) for x in value):
        raise ValueError(f"{name} must be strings, got {value!r}")
    return tuple(value)


def choice(value: Any, name: str) -> str:
    """``value`` when it is one of the choices of ``name`` (:data:`CHOICES`)."""
    choices = CHOICES[name]
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(choices)}; got {value!r}")
    return str(value)


def selection(value: Any, name: str, linkage: Linkage) -> int | None:
    """``value`` as None or an index of ``linkage``'s vertices (``selected_vertex``) or rods."""
    if value is None:
        return None
    if name == "selected_vertex":
        return _checks.vertex_index(value, linkage.n_vertices, name)
    if not 0 <= value < linkage.n_rods:  # an Int trait: no type check needed
        raise ValueError(f"{name} must be None or in range({linkage.n_rods}), got {value!r}")
    return int(value)


def point(value: Any, name: str) -> tuple[float, float] | None:
    """``value`` as None or a finite ``(x, y)``."""
    if value is None:
        return None
    x, y = _checks.finite_point(value, name)
    return (float(x), float(y))


def tracked(value: Any, name: str, linkage: Linkage) -> tuple[int, ...]:
    """``value`` as distinct vertex indices of ``linkage``."""
    out = tuple(_checks.vertex_index(v, linkage.n_vertices, name) for v in value)
    if len(set(out)) != len(out):
        twice = next(v for v in out if out.count(v) > 1)
        raise ValueError(f"{name} lists vertex {twice} twice")
    return out


def coordinates(value: Any, name: str, linkage: Linkage) -> tuple[str, str] | None:
    """``value`` as two different angle labels of ``linkage``, or None (the default pair)."""
    return checked_coordinates(value, linkage)
