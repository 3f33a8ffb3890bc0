"""Reading JSON text for the sidecar and the document: every failure a LinkageFormatError.

Python's :func:`json.loads` raises more than :class:`json.JSONDecodeError`: a
:class:`RecursionError` for deep nesting, a bare :class:`ValueError` for an integer
beyond its 4300-digit limit; and a big integer it does read later overflows a float
or an int64 (an :class:`OverflowError`). Both JSON readers go through here, so that
a file gets a :class:`~linkage_widget.LinkageFormatError` naming it (and the line)
for all of them:

* the size is checked first (:mod:`.limits`);
* an integer beyond int64 is read as a float (a huge one as infinity), so the
  checks that follow refuse it, naming the key, as a non-index or a non-finite number;
* nesting deeper than Python's recursion limit is refused as such.

>>> load_json('{"a": 1' + '0' * 400 + '}', "x.json")
{'a': inf}
>>> try:
...     load_json("[" * 100000, "x.json")
... except LinkageFormatError as err:
...     print(err)
x.json: nested too deeply (more than Python's recursion limit of lists and objects)
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from ..errors import LinkageFormatError
from . import limits

__all__ = ["decode_utf8", "load_json"]

_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


def _number_int(text: str) -> int | float:
    """A JSON integer: an ``int`` where it fits int64, else the nearest float (maybe inf)."""
    if len(text) <= 20:
        value = int(text)
        if _INT64_MIN <= value <= _INT64_MAX:
            return value
    return float(text)  # no digit limit here; 1e400 becomes inf, refused later by key


def decode_utf8(raw: bytes, source: str, what: str) -> str:
    """``raw`` (bytes of a JSON file) as text, after the size check; UTF-8 with an optional BOM."""
    limits.check_size(len(raw), source)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise LinkageFormatError(
            f"byte {exc.start} is not UTF-8 text: not {what}", source, line
        ) from None


def load_json(text: str, source: str, parse_constant: Callable[[str], Any] | None = None) -> Any:
    """The JSON value of ``text``, or :class:`LinkageFormatError` naming ``source`` and the line."""
    limits.check_size(len(text), source)
    try:
        return json.loads(text, parse_int=_number_int, parse_constant=parse_constant)
    except json.JSONDecodeError as exc:
        # an upload cut short ends inside an object: say so, not only what JSON expected
        cut = " (the text ends early: a truncated file?)" if exc.pos >= len(text.rstrip()) else ""
        raise LinkageFormatError(
            f"not valid JSON: {exc.msg} at column {exc.colno}{cut}", source, exc.lineno
        ) from None
    except RecursionError:
        raise LinkageFormatError(
            "nested too deeply (more than Python's recursion limit of lists and objects)", source
        ) from None
    except ValueError as exc:  # parse_constant's refusal
        raise LinkageFormatError(str(exc), source) from None
