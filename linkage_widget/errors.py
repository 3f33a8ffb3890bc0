"""Exceptions of the package, and the one way their messages quote what was read.

A message quotes the offending text (a line, a field, a JSON value) through
:func:`quoted`, which cuts it at :data:`QUOTE_LIMIT` characters and says how long
it was: a 100 MB bad line must not become a 100 MB message (a session sends its
error to the browser). :class:`LinkageFormatError` bounds its whole message too
(:data:`MESSAGE_LIMIT`), whatever a caller put in it.
"""

from __future__ import annotations

import reprlib
from typing import Any

__all__ = ["MESSAGE_LIMIT", "QUOTE_LIMIT", "LinkageFormatError", "quoted"]

#: Characters of a quoted value (a line, a field, a JSON value) kept in a message.
QUOTE_LIMIT = 80
#: Characters of a :class:`LinkageFormatError`'s message kept (the file and line come on top).
MESSAGE_LIMIT = 400

# reprlib cuts containers and strings while it builds the text, so a huge or deeply
# nested value costs no more than its first few items to quote
_REPR = reprlib.Repr()
_REPR.maxlevel = 3
_REPR.maxstring = _REPR.maxother = _REPR.maxlong = QUOTE_LIMIT


def quoted(value: Any, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)``, cut to about ``limit`` characters with an ellipsis and the length.

    A string longer than ``limit`` keeps its first ``limit`` characters and says how
    many it had; any other value is shown as :mod:`reprlib` shows it (the first items
    of a long list, ``...`` for deep nesting), then cut to ``limit`` as well.

    Examples
    --------
    >>> quoted("0 1 2")
    "'0 1 2'"
    >>> quoted("x" * 1000, limit=5)
    "'xxxxx'... (1000 characters)"
    >>> quoted([[[[1]]]])
    '[[[[...]]]]'
    """
    if isinstance(value, str):
        if len(value) <= limit:
            return repr(value)
        return f"{value[:limit]!r}... ({len(value)} characters)"
    try:
        text = _REPR.repr(value)
    except (ValueError, RecursionError):  # an int beyond Python's digit limit, a cycle
        text = f"<{type(value).__name__}>"
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({type(value).__name__})"


def _bounded(message: str) -> str:
    if len(message) <= MESSAGE_LIMIT:
        return message
    return f"{message[:MESSAGE_LIMIT]}... (message cut: {len(message)} characters)"


class LinkageFormatError(ValueError):
    """A linkage file (or text) that cannot be read.

    Parameters
    ----------
    message : str
        What is wrong; cut at :data:`MESSAGE_LIMIT` characters.
    source : str
        The file name, or ``"<string>"`` for text.
    line : int or None
        1-based line number, when the problem sits on one line.

    Examples
    --------
    >>> str(LinkageFormatError("'x' is not a number", "a.txt", 3))
    "a.txt, line 3: 'x' is not a number"
    """

    def __init__(self, message: str, source: str = "<string>", line: int | None = None) -> None:
        self.message = _bounded(str(message))
        self.source = source
        self.line = line
        where = f"{source}, line {line}" if line is not None else source
        super().__init__(f"{where}: {self.message}")

    def __reduce__(self):  # keep pickling (multiprocessing, nbclient) working
        return (type(self), (self.message, self.source, self.line))
