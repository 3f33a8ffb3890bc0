"""What the 2007 file format cannot hold, kept in a JSON file beside it.

The widget saves ``name.txt`` in the 2007 format, which the old program still
reads, and, only when there is something to keep, ``name.txt.json`` with the
extensions: tracked vertices, springs and the mass distribution. Loading
``name.txt`` reads the sibling when it exists. The sibling is named after the
whole file name (not the stem), so ``a.txt`` and ``a.dat`` never share one.

Format (``version`` 1)::

    {"linkage_widget_extensions": 1,
     "tracked": [5],
     "springs": [{"i": 0, "j": 3, "stiffness": 2.0, "rest_length": null, "damping": 0.0}],
     "mass_distribution": 0.25}

Every key but the version is optional.

Examples
--------
>>> ext = Extensions(tracked=(5,), mass_distribution=0.25)
>>> Extensions.from_json(ext.to_json(), n_vertices=6) == ext
True
>>> Extensions().is_empty()
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Any

from .. import _checks
from ..errors import LinkageFormatError
from ..springs import Spring
from .atomic import atomic_write

__all__ = ["Extensions", "Spring", "sibling_path", "read_extensions", "write_extensions"]

VERSION = 1
_KEY = "linkage_widget_extensions"


@dataclass(frozen=True)
class Extensions:
    """The extensions of one linkage file.

    Attributes
    ----------
    tracked : tuple of int
    springs : tuple of Spring
    mass_distribution : float
        In ``[0, 1]``; 0 (all mass at the joints) is the default.
    """

    tracked: tuple[int, ...] = ()
    springs: tuple[Spring, ...] = field(default=())
    mass_distribution: float = 0.0

    def is_empty(self) -> bool:
        """Whether there is nothing the 2007 file does not say already."""
        return not self.tracked and not self.springs and self.mass_distribution == 0.0

    def to_json(self) -> str:
        """The JSON text (stable key order, one trailing newline)."""
        data: dict[str, Any] = {_KEY: VERSION}
        if self.tracked:
            data["tracked"] = [int(v) for v in self.tracked]
        if self.springs:
            data["springs"] = [
                {
                    "i": int(s.i),
                    "j": int(s.j),
                    "stiffness": float(s.stiffness),
                    "rest_length": None if s.rest_length is None else float(s.rest_length),
                    "damping": float(s.damping),
                    # written only when set, so files of linear springs stay as they were
                    **(
                        {"nonlinear_stiffness": float(s.nonlinear_stiffness)}
                        if s.nonlinear_stiffness
                        else {}
                    ),
                }
                for s in self.springs
            ]
        if self.mass_distribution:
            data["mass_distribution"] = float(self.mass_distribution)
        return json.dumps(data, indent=1) + "\n"

    @classmethod
    def from_bytes(cls, data: bytes, *, n_vertices: int, source: str = "<bytes>") -> Extensions:
        """Parse the bytes of a sibling file (UTF-8): :meth:`from_json` after decoding.

        Raises
        ------
        LinkageFormatError
            Also when the bytes are not UTF-8 text (naming ``source`` and the line).
        """
        try:
            text = bytes(data).decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            line = bytes(data)[: exc.start].count(b"\n") + 1
            raise LinkageFormatError(
                f"byte {exc.start} is not UTF-8 text: not an extensions file", source, line
            ) from None
        return cls.from_json(text, n_vertices=n_vertices, source=source)

    @classmethod
    def from_json(cls, text: str, *, n_vertices: int, source: str = "<string>") -> Extensions:
        """Parse and check against a linkage of ``n_vertices`` vertices.

        Raises
        ------
        LinkageFormatError
            On invalid JSON, a wrong version, or any value out of range; the
            message names the key.
        """
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise LinkageFormatError(f"not valid JSON: {exc.msg}", source, exc.lineno) from None
        if not isinstance(data, dict) or data.get(_KEY) != VERSION:
            raise LinkageFormatError(
                f"not a linkage_widget extensions file (expected {{'{_KEY}': {VERSION}, ...}})",
                source,
            )
        try:
            tracked = tuple(_index(v, n_vertices, "tracked") for v in data.get("tracked", []))
            if len(set(tracked)) != len(tracked):
                raise ValueError("tracked: a vertex is listed twice")
            springs = tuple(_spring(s, n_vertices) for s in data.get("springs", []))
            alpha = _checks.unit_interval(data.get("mass_distribution", 0.0), "mass_distribution")
        except (TypeError, ValueError, KeyError) as exc:
            raise LinkageFormatError(str(exc), source) from None
        return cls(tracked, springs, alpha)


def _index(value: Any, n: int, what: str) -> int:
    try:
        return _checks.vertex_index(value, n, what)
    except ValueError:  # say which key of the file holds it
        raise ValueError(
            f"{what}: {value!r} is not a vertex index (there are {n} vertices)"
        ) from None


def _spring(data: Any, n: int) -> Spring:
    if not isinstance(data, dict):
        raise ValueError(f"springs: expected an object, got {data!r}")
    # Spring checks its numbers itself (linkage_widget._checks), naming the field.
    return Spring(
        _index(data["i"], n, "springs"),
        _index(data["j"], n, "springs"),
        data.get("stiffness", 1.0),
        data.get("rest_length"),
        data.get("damping", 0.0),
        data.get("nonlinear_stiffness", 0.0),
    )


def sibling_path(path: str | PathLike[str]) -> Path:
    """``path`` with ``.json`` appended: ``a/b.txt`` -> ``a/b.txt.json``."""
    p = Path(path)
    return p.with_name(p.name + ".json")


def read_extensions(path: str | PathLike[str], n_vertices: int) -> Extensions:
    """The extensions beside the linkage file ``path``; empty when there is no sibling."""
    sib = sibling_path(path)
    if not sib.is_file():
        return Extensions()
    return Extensions.from_bytes(sib.read_bytes(), n_vertices=n_vertices, source=str(sib))


def write_extensions(path: str | PathLike[str], ext: Extensions) -> None:
    """Write (atomically) or remove the sibling of ``path``.

    An empty :class:`Extensions` removes a stale sibling, so a later load does
    not pick up tracked vertices or springs this linkage no longer has.
    """
    sib = sibling_path(path)
    if ext.is_empty():
        sib.unlink(missing_ok=True)
    else:
        atomic_write(sib, ext.to_json())
