r"""The web page a save writes beside the linkage file, as the 2007 program's ``s`` did.

The 2007 program's ``s`` wrote ``saved_linkage.txt`` and, beside it,
``saved_linkage.txt.js``: the same linkage as a JavaScript object (vertices, fixed
joints, edges, angles) for the program's web version to load. That web version is
gone; what a teacher wants from such a file now is a page to put on a course site or
send to a student: it opens in any browser, with no kernel, server or library, and
gives the linkage back. So the save writes ``<file>.html``, one self-contained page:

* the picture as the widget draws it now (the session's SVG, inline; no script needed);
* the linkage as data, like the 2007 ``.js``: ``<script type="application/json"
  id="linkage">`` holding ``{"dim", "vertices", "pinned", "rods", "angles"}`` in world
  coordinates (a web page's script reads it with ``JSON.parse``);
* the linkage file itself, as a download link (a ``data:`` address carrying the 2007
  text, with the file's name): the page is the file too.

>>> page = linkage_page("<svg></svg>", "v\n0 0\ne\n", {"rods": [[0, 1]]}, "a</title>.txt")
>>> page.startswith("<!DOCTYPE html>"), "a&lt;/title&gt;.txt" in page, 'id="linkage"' in page
(True, True, True)
"""

from __future__ import annotations

import html
import json
from os import PathLike
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ..io import atomic_write
from ..model import Linkage

__all__ = ["linkage_data", "linkage_page", "page_path", "write_linkage_page"]

_STYLE = "body{font-family:sans-serif;margin:1.5em;color:#222}svg{max-width:100%;height:auto}"


def page_path(path: str | PathLike[str]) -> Path:
    """The page beside the linkage file ``path``: ``a/b.txt`` -> ``a/b.txt.html``.

    The name appends, as the 2007 ``.js`` and the JSON sibling do: a file named
    ``b.html`` never has its page written over itself.
    """
    p = Path(path)
    return p.with_name(p.name + ".html")


def linkage_data(linkage: Linkage) -> dict[str, Any]:
    """The linkage as the page's data, as the 2007 ``.js`` held it (world coordinates).

    ``{"dim": d, "vertices": (n, d), "pinned": (p,), "rods": (m, 2), "angles": (k, 3)}``,
    and, when it has any, ``"sliders"`` (``[joint, [x, y], [dx, dy]]`` each) and ``"slots"``
    (``(t, 3)``), which the 2007 ``.js`` could not hold.
    """
    data: dict[str, Any] = {
        "dim": linkage.dim,
        "vertices": linkage.vertices.tolist(),
        "pinned": linkage.pinned.tolist(),
        "rods": linkage.rods.tolist(),
        "angles": linkage.angles.tolist(),
    }
    if not linkage.guides.is_empty():
        data["sliders"] = [[j, list(p), list(d)] for j, p, d in linkage.sliders]
        data["slots"] = linkage.slots.tolist()
    return data


def _script_json(data: Any) -> str:
    """JSON that cannot end its ``<script>`` element early (``</`` escaped, as JSON allows)."""
    return json.dumps(data, separators=(",", ":")).replace("</", "<\\/")


def linkage_page(svg: str, text: str, data: dict[str, Any], name: str, summary: str = "") -> str:
    """The page (module docstring): the picture ``svg``, the ``data``, the file ``text``.

    ``name`` is the linkage file's name (the title and the download's name); ``summary``
    a line under the title (the counts).
    """
    picture = svg[svg.find("<svg") :] if "<svg" in svg else ""  # no XML declaration inline
    title = html.escape(name)
    href = "data:text/plain;charset=utf-8," + quote(text, safe="")
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{title}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n"
        f"<h1>{title}</h1>\n<p>{html.escape(summary)}</p>\n{picture}\n"
        f'<p><a id="download" download="{title}" href="{html.escape(href)}">download {title}</a>'
        " (the linkage file; <code>LinkageWidget.load</code> opens it)</p>\n"
        f'<script type="application/json" id="linkage">{_script_json(data)}</script>\n'
        "</body>\n</html>\n"
    )


def write_linkage_page(path: str | PathLike[str], page: str) -> Path:
    """Write ``page`` to ``path`` atomically (:func:`~linkage_widget.io.atomic_write`)."""
    return atomic_write(path, page)
