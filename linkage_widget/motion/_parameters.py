"""The simulator's validated numbers as descriptors: one line each on the class.

A :class:`Parameter` checks every assignment with a function of :mod:`linkage_widget._checks`
(which names the parameter in its error) and keeps the value in the owner's
``_parameters`` dict, which the owner creates; reading is a lookup. Like a traitlets
``@validate``: the value is valid from the moment it is set, and takes effect on the
next step.

>>> from linkage_widget import _checks
>>> class Thing:
...     size = Parameter(_checks.positive, "How big.")
...     def __init__(self):
...         self._parameters = {}
>>> t = Thing()
>>> t.size = 2
>>> t.size
2.0
>>> t.size = -1.0
Traceback (most recent call last):
...
ValueError: size must be a positive finite number, got -1.0
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["Parameter"]


class Parameter:
    """A number checked by ``check(value, name)`` on every assignment (see the module)."""

    def __init__(self, check: Callable[[Any, str], float], doc: str) -> None:
        self._check = check
        self.__doc__ = doc
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            return self
        return obj._parameters[self.name]

    def __set__(self, obj: Any, value: Any) -> None:
        obj._parameters[self.name] = self._check(value, self.name)
