"""Files in the browser: what an upload delivers, and download links for written files.

On Binder or JupyterHub the kernel's files are not the user's: a file the
widget writes (save, PNG, SVG, GIF) is also offered as a link with a data URI,
and files come in through the FileUpload control.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Iterable
from pathlib import Path
from typing import Any

__all__ = ["DOWNLOAD_MAX_BYTES", "Downloads", "uploaded_files"]

DOWNLOAD_MAX_BYTES = 8_000_000  # bigger files: no data-URI link (the browser would choke)


def uploaded_files(value: Iterable[Any]) -> dict[str, bytes]:
    """``{name: bytes}`` of an ipywidgets 8 ``FileUpload.value``."""
    return {f["name"]: bytes(f["content"]) for f in value}


class Downloads:
    """The last few download links, newest last.

    Parameters
    ----------
    keep : int
        Links kept (one per file name).
    """

    def __init__(self, keep: int = 4) -> None:
        self.keep = int(keep)
        self._links: dict[str, str] = {}

    def add(self, path: Path, mime: str) -> bool:
        """Offer the file just written at ``path``; return whether it got a link (not too big)."""
        data = path.read_bytes()
        if len(data) > DOWNLOAD_MAX_BYTES:
            return False
        uri = f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"
        name = html.escape(path.name, quote=True)
        self._links[path.name] = (
            f"<a download='{name}' href='{uri}' target='_blank' "
            f"style='margin-right:1em'>⬇ {html.escape(path.name)}</a>"
        )
        self._links = dict(list(self._links.items())[-self.keep :])
        return True

    def html(self) -> str:
        """The links as HTML."""
        return "".join(self._links.values())
