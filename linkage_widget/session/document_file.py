"""A session as one JSON document (:mod:`linkage_widget.io.document_json`), and back.

Everything the document holds comes from, and goes through, the session's public
face: the linkage, :meth:`Document.extensions` (tracked vertices, joint names, springs,
mass distribution, motors, loads, path forces and friction, table friction) and
:attr:`LinkageSession.view`. Loading goes through :meth:`LinkageSession.load_bytes`
(the upload path: one undo step, the selection cleared, the motion stopped), then
sets the saved view, so a loaded document behaves exactly as a loaded 2007 file
with its JSON sibling, plus the view.

>>> from linkage_widget.session import LinkageSession
>>> s = LinkageSession.load("peaucellier.txt")
>>> t = LinkageSession()
>>> load_document(t, dumps_session(s))
True
>>> t.linkage == s.linkage, t.view == s.view, t.joint_names == s.joint_names
(True, True, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, replace
from os import PathLike
from pathlib import Path
from typing import Any

from ..draw.view import ViewTransform
from ..errors import LinkageFormatError
from ..io import LinkageData, format_linkage
from ..io.document_json import DocumentData, dumps_document, loads_document, write_document
from ..io.limits import read_bounded
from ..io.sidecar_kinds import kinds_of_rods, pairs_of_kinds
from .document import load_failure
from .session import LinkageSession

__all__ = ["dumps_session", "load_document", "load_upload", "save_document", "session_document"]


def session_document(session: LinkageSession) -> DocumentData:
    """What a document of ``session`` holds: linkage, extensions and view, as plain data."""
    ext = session.document.extensions(session.mass_distribution, session.table_friction)
    link = session.linkage
    kinds = kinds_of_rods(link.rods, ext.cables, ext.struts)
    data = LinkageData(
        link.vertices, link.pinned, link.rods, link.angles, ext.sliders, ext.slots, kinds
    )  # the document keeps the sliders, slots and kinds under its linkage
    return DocumentData(data, ext, asdict(session.view))


def dumps_session(session: LinkageSession) -> str:
    """The JSON document text of ``session``."""
    return dumps_document(session_document(session))


def save_document(session: LinkageSession, path: str | PathLike[str]) -> Path:
    """Write ``session`` as one JSON document, atomically; return the path written."""
    target = Path(path)
    write_document(session_document(session), target)
    return target


def load_document(
    session: LinkageSession, source: str | bytes | PathLike[str], *, name: str | None = None
) -> bool:
    """Load a JSON document into ``session`` (undoable); return True.

    Parameters
    ----------
    source : str, bytes or path
        The document's text (a ``str`` starting with ``{``), an upload's bytes, or a
        path to read.
    name : str, optional
        What messages call it (default: the path, or ``"document"``).

    Raises
    ------
    LinkageFormatError, OSError
        Not a document, a newer version, a bad value, too big a file, a file that
        cannot be read: :attr:`LinkageSession.error` says so and nothing in the
        session changes.
    """
    label = _label(source, name)
    try:
        doc = loads_document(_read(source, label), source=label)
        view = _view(doc.view, label)  # checked before anything changes
    except (LinkageFormatError, OSError) as exc:
        session.error = load_failure(label, exc)
        raise
    key = f"{label} document"  # not "*.json": upload_name takes that for the sibling
    files = {key: format_linkage(doc.linkage).encode()}
    guides = {"sliders": doc.linkage.sliders, "slots": doc.linkage.slots}
    guides["cables"], guides["struts"] = pairs_of_kinds(doc.linkage.rods, doc.linkage.kinds)
    files[key + ".json"] = replace(doc.extensions, **guides).to_json().encode()  # as a sibling
    if not session.load_bytes(files):  # pragma: no cover - the document was checked
        raise LinkageFormatError(session.error, label)
    if view is not None:
        session.view = view
    return True


def _view(view: dict[str, Any] | None, label: str) -> ViewTransform | None:
    """The document's view, or ``LinkageFormatError`` naming the file and ``'view'``.

    The reader checks each number; the transform adds the range of the scale
    (:data:`~linkage_widget.draw.view.MIN_SCALE` to ``MAX_SCALE``), beyond which a later
    zoom or pan would overflow.
    """
    if view is None:
        return None
    try:
        return ViewTransform(**view)
    except ValueError as exc:
        raise LinkageFormatError(f"'view': {exc}", label) from None


def _is_text(source: str | bytes | PathLike[str]) -> bool:
    """Whether ``source`` is the document itself (bytes, or a str starting with ``{``)."""
    if isinstance(source, bytes | bytearray):
        return True
    return isinstance(source, str) and source.lstrip().startswith("{")


def _label(source: str | bytes | PathLike[str], name: str | None) -> str:
    """What messages call the document: ``name``, else the path, else ``"document"``."""
    if name:
        return name
    return "document" if _is_text(source) else str(Path(source))


def _read(source: str | bytes | PathLike[str], label: str) -> str | bytes:
    """The document's text or bytes; a path above the size limit is refused unread."""
    if isinstance(source, bytes | bytearray):
        return bytes(source)
    if _is_text(source):
        return str(source)
    return read_bounded(Path(source).expanduser(), label)  # ~: the home folder


def load_upload(session: LinkageSession, files: Mapping[str, bytes]) -> bool:
    """Load what the widget's upload delivered, ``{name: bytes}``; return whether it worked.

    One ``.json`` file alone is a JSON document (:func:`load_document`), unless its
    name says it is a sibling (``*.txt.json``: then the linkage file is asked for);
    anything else is a linkage text file with, maybe, its ``.json`` sibling
    (:meth:`LinkageSession.load_bytes`). On any error (binary or non-UTF-8 bytes, a
    truncated or invalid document, a bad line) :attr:`LinkageSession.error` names the
    file and line, and the session is untouched: the linkage, the view and the undo
    history stay as they were.

    >>> from linkage_widget.session import LinkageSession
    >>> s = LinkageSession.load("four_bar.txt")
    >>> load_upload(s, {"mine.json": b'{"version": 1, "linkage": {'})
    False
    >>> s.error.startswith("could not load mine.json, line 1")
    True
    """
    names = list(files)
    lone = names[0].lower() if len(names) == 1 else ""
    if lone.endswith(".json") and not lone.endswith(".txt.json"):
        try:
            return load_document(session, files[names[0]], name=names[0])
        except LinkageFormatError:  # load_document has put the message into session.error
            return False
    return session.load_bytes(files)
