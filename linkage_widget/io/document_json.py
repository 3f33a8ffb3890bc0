"""The JSON document: a whole linkage session in one file (linkage, extensions, view).

Layer 2, like the 2007 codec: plain arrays in and out
(:class:`~linkage_widget.io.LinkageData`, :class:`~linkage_widget.io.Extensions`, a
view as plain numbers), never a :class:`~linkage_widget.Linkage`. Unlike the
2007 text file and its JSON sibling, one document holds everything, so it can
be handed on (a course page, another tool) as one file.

Schema (``version`` 1)::

    {"format": "linkage_widget document",
     "version": 1,
     "linkage": {"vertices": [[0.0, 0.0], [3.0, 4.0]],    # (n, 2) world units, y up
                 "rods": [[0, 1]],                         # (m, 2) vertex indices
                 "angles": [],                             # (k, 3) (apex, j, k)
                 "pinned": [0]},                           # (q,)
     "extensions": {...},     # optional: exactly the JSON sibling's object
                              # (io/sidecar.py: tracked, names, springs, mass_distribution,
                              # motors, loads, forces, frictions, table_friction)
     "view": {"scale": 50.0, "offset_x": 350.0,           # optional: pixels per world
              "offset_y": 250.0, "width": 700,             # unit, the origin's pixel,
              "height": 500}}                              # the canvas size

Sliders and slots (version 2: written only when the linkage has any, so a document
without them is version 1 byte for byte as before, and an older reader refuses one
with them, naming both versions, rather than move another linkage) are the linkage's,
under its object, as the JSON sibling writes them::

     "linkage": {...,
                 "sliders": [{"joint": 1, "point": [3.0, 4.0], "direction": [1.0, 0.0]}],
                 "slots": [[0, 1, 2]]}              # joint 2 on the line 0-1

and never in ``extensions`` (one home: an ``extensions`` object holding them, which
this module never writes, is read as if they were under the linkage). The linear motors
and slide friction in ``extensions`` (``linear_motors``, ``slider_frictions``) name the
linkage's sliders by index.

Cables and struts (version 3, written only when the linkage has any: an older reader
would move them as bars) are the linkage's too, as the JSON sibling writes them
(:mod:`.sidecar_kinds`: rods named by their joints)::

     "linkage": {...,
                 "cables": [[0, 1], [1, 2]],
                 "struts": [[0, 2]]}

A spatial linkage has ``[x, y, z]`` vertices, all of one width, and its linkage object
carries ``"dim": 3`` (so that a 3-D linkage without vertices stays 3-D); a planar
document has no ``dim`` key and is written byte for byte as before.

Floats are written in their shortest exact form, so reading a document gives the
same float64 values bit for bit; non-finite numbers are refused on writing and on
reading. Every index is checked against the vertices, every rod and angle as the
model checks them (:mod:`linkage_widget._linkage_checks`), before anything is
returned.

Versions: a reader reads every version up to :data:`VERSION`; a document from a
newer version raises :class:`~linkage_widget.LinkageFormatError` naming both
versions (nothing is returned, so nothing the caller holds changes).

>>> import numpy as np
>>> data = LinkageData(np.array([[0.0, 0.0], [0.1, 2.0]]), np.array([0]),
...                    np.array([[0, 1]]), np.zeros((0, 3), np.int64))
>>> doc = DocumentData(data, Extensions(tracked=(1,)), {"scale": 2.0, "offset_x": 0.0,
...                    "offset_y": 0.0, "width": 10, "height": 10})
>>> back = loads_document(dumps_document(doc))
>>> back.linkage.vertices.tolist(), back.extensions.tracked, back.view["width"]
([[0.0, 0.0], [0.1, 2.0]], (1,), 10)
>>> named = DocumentData(data, Extensions(names=("O", "A")))
>>> loads_document(dumps_document(named)).extensions.names
('O', 'A')
"""

from __future__ import annotations

import json
import math
import numbers
from dataclasses import dataclass, field, replace
from os import PathLike
from typing import Any

import numpy as np

from .. import _checks, _linkage_checks
from ..errors import LinkageFormatError, quoted
from ..guides import Guides
from . import limits
from .atomic import atomic_write
from .json_read import decode_utf8, load_json
from .sidecar import Extensions
from .sidecar_entries import read_sliders, read_slots, said
from .sidecar_kinds import KIND_KEYS, kinds_json, kinds_of_rods, pairs_of_kinds, read_kind_pairs
from .text2007 import LinkageData

__all__ = [
    "FORMAT",
    "VERSION",
    "DocumentData",
    "dumps_document",
    "loads_document",
    "read_document",
    "write_document",
]

FORMAT = "linkage_widget document"
VERSION = 3  # the newest version this code reads; written when the linkage has kinds
GUIDES_VERSION = 2  # written when the linkage has guides (and no kinds)
VIEW_KEYS = ("scale", "offset_x", "offset_y", "width", "height")
_SIBLING_KEY = "linkage_widget_extensions"  # the version key of a sibling's object


@dataclass(frozen=True)
class DocumentData:
    """The contents of a JSON document, as plain data.

    Attributes
    ----------
    linkage : LinkageData
        Vertices ``(n, 2)``, pins ``(q,)``, rods ``(m, 2)``, angles ``(k, 3)``.
    extensions : Extensions
        Tracked vertices, joint names, springs, mass distribution, motors, loads, path
        forces and friction, table friction (the JSON sibling's contents).
    view : dict or None
        ``{"scale", "offset_x", "offset_y", "width", "height"}`` (the session's
        :class:`~linkage_widget.draw.view.ViewTransform` fields) or ``None``.
    """

    linkage: LinkageData
    extensions: Extensions = field(default_factory=Extensions)
    view: dict[str, Any] | None = None


def dumps_document(doc: DocumentData) -> str:
    """The document as JSON text (stable key order, one trailing newline)."""
    link = doc.linkage
    cables, struts = pairs_of_kinds(link.rods, link.kinds)
    guides = json.loads(Extensions(sliders=link.sliders, slots=link.slots).to_json())
    guides.pop(_SIBLING_KEY)
    kinds = kinds_json(cables, struts)
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION if kinds else GUIDES_VERSION if guides else 1,
        "linkage": {
            "vertices": np.asarray(link.vertices, dtype=np.float64).tolist(),
            "rods": np.asarray(link.rods, dtype=np.int64).tolist(),
            "angles": np.asarray(link.angles, dtype=np.int64).tolist(),
            "pinned": np.asarray(link.pinned, dtype=np.int64).tolist(),
        },
    }
    if link.dim == 3:
        data["linkage"]["dim"] = 3
    data["linkage"].update(guides)
    data["linkage"].update(kinds)
    # the linkage's, not twice
    ext = replace(doc.extensions, sliders=(), slots=(), cables=(), struts=())
    if not ext.is_empty():
        data["extensions"] = json.loads(ext.to_json())
    if doc.view is not None:
        data["view"] = _view(doc.view)
    try:
        return json.dumps(data, indent=1, allow_nan=False) + "\n"
    except ValueError:
        raise ValueError("a document cannot hold a non-finite number (NaN or infinity)") from None


def loads_document(text: str | bytes, *, source: str = "<string>") -> DocumentData:
    """Parse and check a JSON document (text, or UTF-8 bytes as an upload gives them).

    Raises
    ------
    LinkageFormatError
        Not JSON (too deeply nested too), not a document, a newer version (naming
        both versions), above the size or vertex limit (:mod:`.limits`), or any
        value out of range (an integer beyond int64 too); the message names the key
        and ``source``. Nothing else escapes.
    """
    if isinstance(text, bytes | bytearray):
        raw = bytes(text)
        if b"\x00" in raw:  # UTF-16 or a binary file: NUL never occurs in UTF-8 JSON
            raise LinkageFormatError(
                "contains NUL bytes: a binary file, not a JSON document", source
            )
        text = decode_utf8(raw, source, "a JSON document")
    data = load_json(text, source, parse_constant=_no_constant)
    _check_header(data, source)
    try:
        link = _linkage(_object(data, "linkage"), source)
        view = _view(_object(data, "view")) if data.get("view") is not None else None
        extensions = _object(data, "extensions") if data.get("extensions") is not None else None
    # ArithmeticError: a number too big for a float or an int (OverflowError)
    except (TypeError, ValueError, KeyError, ArithmeticError, RecursionError) as exc:
        raise LinkageFormatError(said(exc), source) from None
    ext = Extensions()
    if extensions is not None:
        on_sliders = {"linear_motors", "slider_frictions"} & set(extensions)
        if on_sliders and "sliders" not in extensions:  # the linkage's: what they index
            extensions = {**extensions, "sliders": _object(data, "linkage").get("sliders", [])}
        ext = Extensions.from_dict(
            extensions,
            n_vertices=len(link.vertices),
            source=f"{source} (extensions)",
            rods=link.rods.tolist(),
            dim=link.dim,
        )
    if not (link.sliders or link.slots) and (ext.sliders or ext.slots):
        link = link._replace(sliders=ext.sliders, slots=ext.slots)
    if not link.kinds and (ext.cables or ext.struts):  # checked against the rods by the read
        link = link._replace(kinds=kinds_of_rods(link.rods, ext.cables, ext.struts))
    link = _guided(link, source)
    return DocumentData(link, replace(ext, sliders=(), slots=(), cables=(), struts=()), view)


def read_document(path: str | PathLike[str]) -> DocumentData:
    """Read a JSON document file (see :func:`loads_document`); too big a file is not read."""
    return loads_document(limits.read_bounded(path, str(path)), source=str(path))


def write_document(doc: DocumentData, path: str | PathLike[str]) -> None:
    """Write a JSON document atomically (the one atomic writer)."""
    atomic_write(path, dumps_document(doc))


# ----------------------------------------------------------------- checks
def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a finite number; a document holds only finite numbers")


def _check_header(data: Any, source: str) -> None:
    """A document of a version this code reads, or LinkageFormatError naming both versions."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise LinkageFormatError(
            f"not a linkage_widget document (expected {{'format': '{FORMAT}', ...}})", source
        )
    version = data.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise LinkageFormatError(
            f"'version' must be a positive integer, got {quoted(version)}", source
        )
    obj = data.get("linkage")
    guided = [k for k in ("sliders", "slots") if isinstance(obj, dict) and k in obj]
    if guided and version < GUIDES_VERSION:
        raise LinkageFormatError(f"'linkage.{guided[0]}' needs version 2 of the document", source)
    kinds = [k for k in KIND_KEYS if isinstance(obj, dict) and k in obj]
    if kinds and version < VERSION:
        raise LinkageFormatError(f"'linkage.{kinds[0]}' needs version 3 of the document", source)
    if version > VERSION:
        raise LinkageFormatError(
            f"this document is version {version}, written by a newer linkage_widget; "
            f"this one reads versions up to {VERSION}: update linkage_widget to open it",
            source,
        )


def _object(data: dict[str, Any], key: str) -> dict[str, Any]:
    value = data[key]
    if not isinstance(value, dict):
        raise ValueError(f"'{key}' must be an object, got {type(value).__name__}")
    return value


def _indices(value: Any, width: int, key: str) -> np.ndarray:
    """A list of ``width``-lists of whole numbers as int64 ``(r, width)`` (``(r,)`` for 0)."""
    arr = np.asarray(value, dtype=object)
    shape_ok = arr.ndim == 1 if width == 0 else (arr.ndim == 2 and arr.shape[1] == width)
    if arr.size and not shape_ok:
        what = "a list of indices" if width == 0 else f"a list of {width}-lists of indices"
        raise ValueError(f"'linkage.{key}' must be {what}")
    flat = arr.reshape(-1).tolist()
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in flat):
        raise ValueError(f"'linkage.{key}' must hold whole-number vertex indices")
    return np.array(flat, dtype=np.int64).reshape((-1, width) if width else (-1,))


def _linkage(obj: dict[str, Any], source: str) -> LinkageData:
    """The linkage object as arrays, checked as the model checks them."""
    vertices, dim = obj["vertices"], obj.get("dim", 2)
    if isinstance(dim, bool) or dim not in (2, 3):
        raise ValueError(f"'linkage.dim' must be 2 or 3, got {quoted(dim)}")
    if isinstance(vertices, list):
        limits.check_vertices(len(vertices), source)
    try:
        width = len(vertices[0]) if vertices else dim
        pts = np.array(vertices, dtype=np.float64).reshape(-1, width)
        ok = width in (2, 3) and all(isinstance(p, list) and len(p) == width for p in vertices)
    except (TypeError, ValueError, KeyError, IndexError):
        ok = False
    if not isinstance(vertices, list) or not ok:
        raise ValueError(
            "'linkage.vertices' must be a list of [x, y] number pairs (2-D) "
            "or of [x, y, z] triples (3-D), all alike"
        )
    if "dim" in obj and width != dim:
        raise ValueError(f"'linkage.dim' is {dim} but the vertices have {width} coordinates")
    rods = _indices(obj.get("rods", []), 2, "rods")
    angles = _indices(obj.get("angles", []), 3, "angles")
    pinned = _indices(obj.get("pinned", []), 0, "pinned")
    _checks.finite_points(pts, "'linkage.vertices': vertex", dims=(2, 3))
    _linkage_checks.check_indices(rods, angles, pinned, len(pts))
    lengths = _checks.row_norms(pts[rods[:, 0]] - pts[rods[:, 1]])
    _linkage_checks.check_rods(rods, lengths)
    _linkage_checks.check_angles(angles, pts)  # a fixed angle needs no rods
    sliders, slots = read_sliders(obj, len(pts)), read_slots(obj, len(pts))
    try:
        kinds = kinds_of_rods(rods, *read_kind_pairs(obj, len(pts)))
    except ValueError as exc:
        raise ValueError(f"'linkage': {exc}") from None
    return LinkageData(pts, pinned, rods, angles, sliders, slots, kinds)


def _guided(link: LinkageData, source: str) -> LinkageData:
    """``link`` whose sliders and slots the model accepts (``LinkageFormatError`` naming one)."""
    try:
        Guides.build(link.sliders, link.slots, link.vertices, link.pinned)
    except ValueError as exc:
        raise LinkageFormatError(f"'linkage': {exc}", source) from None
    return link


def _view(view: dict[str, Any]) -> dict[str, Any]:
    """The view's five numbers, checked: scale > 0, offsets finite, sizes whole and >= 1."""
    missing = [k for k in VIEW_KEYS if k not in view]
    if missing:
        raise ValueError(f"'view' lacks {', '.join(missing)}")
    out: dict[str, Any] = {}
    for key in VIEW_KEYS:
        value = view[key]
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise ValueError(f"'view.{key}' must be a number, got {quoted(value)}")
        if not math.isfinite(value) or (key == "scale" and value <= 0):
            raise ValueError(
                f"'view.{key}' must be a finite{' positive' * (key == 'scale')} number"
            )
        if key in ("width", "height") and (value != int(value) or value < 1):
            raise ValueError(f"'view.{key}' must be a whole number >= 1, got {quoted(value)}")
        out[key] = int(value) if key in ("width", "height") else float(value)
    return out
