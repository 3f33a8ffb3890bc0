"""The readout's markup: plain words first, the technical lines a click away.

What the readout says is the session's (``LinkageSession.readout_words``,
:mod:`linkage_widget.session.words`); this module only lays it out as HTML under the
canvas: the words large, the technical lines (DOF, status, self-stresses,
Maxwell–Calladine count, rank, method) and the explanation only while ``show_info``
is on: the "the numbers" toggle under the readout, key ``i`` or the "info" box.
A ``<details>`` element did that in the page, but its open state lived in the
browser, and the next update of the text (several a second while the linkage
moves) closed it again. Everything wraps as prose (a proportional font, breaks
between words only): no long monospace line breaks mid-word on a narrow screen.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from ..session import Readout

__all__ = ["readout_html"]

_PROSE = "overflow-wrap:normal;word-break:normal;white-space:normal;max-width:46em"


def _words(words: Sequence[str]) -> str:
    if not words:
        return "<div class='linkage-words'><i>analysing ...</i></div>"
    head, *rest = (html.escape(w) for w in words)
    more = "".join(f"<li>{w}</li>" for w in rest)
    more = f"<ul style='margin:2px 0 0 0;padding-left:1.2em'>{more}</ul>" if more else ""
    return (
        "<div class='linkage-words'>"
        f"<div style='font-size:1.35em;font-weight:600'>{head}</div>{more}</div>"
    )


def _numbers(lines: Sequence[str], explanation: str, shown: bool) -> str:
    if not shown or (not lines and not explanation):
        return ""
    body = "<br>".join(html.escape(line) for line in lines)
    if explanation:
        body += f"<p style='margin:4px 0 0 0;color:#333'>{html.escape(explanation)}</p>"
    return f"<div class='linkage-numbers' style='margin:4px 0 0 1em'>{body}</div>"


def readout_html(
    readout: Readout | Sequence[str],
    error: str = "",
    forces: Sequence[str] = (),
    *,
    explanation: str = "",
    details_open: bool = False,
) -> str:
    """The readout under the canvas: words, the numbers a click away, forces, the error.

    Parameters
    ----------
    readout : Readout or sequence of str
        From the session; a plain list of lines is taken as the technical lines
        (the readout before plain words, kept for callers).
    error : str
        Shown in red, bold, last.
    forces : sequence of str
        Lines about rod forces, motors and the selected joint's motion.
    explanation : str
        With a plain list of lines: the prose under them.
    details_open : bool
        Whether the technical lines and the explanation are shown (``show_info``).
    """
    if not isinstance(readout, Readout):
        lines = list(readout)
        readout = Readout([] if not lines else [lines[0]], lines, explanation)
    body = _words(readout.words) + _numbers(readout.details, readout.explanation, details_open)
    if forces:
        body += "<div class='linkage-forces' style='color:#1a1a1a;margin-top:4px'>"
        body += "<br>".join(html.escape(line) for line in forces) + "</div>"
    if error:
        body += f"<div style='color:#b00020;font-weight:bold'>{html.escape(error)}</div>"
    return f"<div style='font-family:sans-serif;line-height:1.4;{_PROSE}'>{body}</div>"
