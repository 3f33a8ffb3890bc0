"""What covers the drawing: nothing any more, by design — and the room it would take.

The readout, the legend, the hint line and the error lines used to be drawn over
the linkage, where they hid rods and arrows. They are HTML beside the canvas now
(the legend: :mod:`~linkage_widget.draw.legend`; the hint and the error travel on
the :class:`~linkage_widget.draw.scene.Scene` as text for the view to show). Only
the joint labels (:mod:`~linkage_widget.draw.labels`) are written on the canvas,
each beside its joint.

:func:`overlay_insets` stays the one place that says how much of the canvas is
covered, for ``ViewTransform.fit(..., top=, bottom=)``: none of it.

Examples
--------
>>> overlay_insets(5)
(0.0, 0.0)
>>> text_width("ABCD", 10.0, "sans-serif")
22.0
"""

from __future__ import annotations

from .theme import DEFAULT_THEME, Theme

__all__ = ["INFO_PANEL_LINES", "overlay_insets", "text_width"]

#: Lines of the rigidity readout (``RigidityReport.summary_lines()`` with "motion:"): a
#: fitted view keeps the joints clear of them where the readout covers the canvas.
INFO_PANEL_LINES = 5


def text_width(text: str, size: float, font: str) -> float:
    r"""Estimated width in pixels of ``text`` at font ``size``.

    There are no font metrics here (and the backends differ slightly anyway):
    :math:`w \approx 0.55\,\text{size}` per character, :math:`0.6` for monospace.
    """
    return len(text) * size * (0.6 if font == "monospace" else 0.55)


def overlay_insets(info_lines: int, theme: Theme = DEFAULT_THEME) -> tuple[float, float]:
    """Pixels covered at the top and the bottom of the canvas: ``(0.0, 0.0)``.

    Nothing is drawn over the linkage (module docstring), so a fitted view may use
    the whole canvas whether or not the readout (``info_lines`` lines) is shown.
    The signature stays for callers that reserve room for overlays.
    """
    del info_lines, theme  # the readout and the hint are beside the canvas now
    return 0.0, 0.0
