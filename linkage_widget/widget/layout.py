"""Where the controls go: the control sets (full, compact, none) and presentation mode's CSS.

The rows of a widget, top to bottom (``controls="full"``):

1. the toolbar, one line (it fits the 592 px a notebook output has at 1024 x 768 in
   JupyterLab with the file browser open): the tool chooser, undo, redo, fit, play,
   motors, reverse, record, configuration space, presentation;
2. the tool line: the current tool, what a click does, the keys that change it;
3. the canvas, then at once the readout (degrees of freedom above the fold);
4. the sliders, the mode, the check boxes, the file row and the help table
   (collapsed in presentation mode).

``"compact"`` keeps rows 1-3 with fewer buttons (undo, redo, play, fit,
presentation): for a small example in a notebook. ``"none"`` is the canvas alone;
the keys still work (the help table of a full widget lists them).

Presentation mode (key ``m``) cannot use the browser's Fullscreen API: that needs a
user gesture in the page's own script, and the kernel sends no script (but for one
constant handler that reports the device pixel ratio, :data:`RATIO_PROBE`). A CSS class
does it instead: :data:`STYLE` (a ``<style>`` in a hidden HTML widget every widget
carries) makes ``.linkage-presenting`` cover the browser window (``position: fixed``),
hides the collapsible rows, stretches the canvas to the window's height and enlarges
the toolbar and the readout. JupyterLab's panels confine a fixed element (Lumino sets
``contain: strict`` on them), so while a widget presents, the panels that hold it drop
that (a ``:has()`` rule: Chromium 105, Firefox 121, Safari 15.4 and later). The
browser's own full screen (F11) makes it a projector view. Where the output sits in an
iframe (Colab, VS Code) it covers the output's frame only.
"""

from __future__ import annotations

import ipywidgets as W

__all__ = [
    "CONTROL_SETS",
    "PRESENTATION_CLASS",
    "RATIO_KEY_PREFIX",
    "RATIO_PROBE",
    "STYLE",
    "check_control_set",
    "style_widget",
]

#: The choices of ``LinkageWidget(controls=...)``.
CONTROL_SETS = ("full", "compact", "none")
#: CSS class of a widget in presentation mode.
PRESENTATION_CLASS = "linkage-presenting"
#: Rows hidden in presentation mode carry this class.
COLLAPSIBLE_CLASS = "linkage-collapsible"

#: The widget's own CSS: the one-line toolbar, the tool line and presentation mode.
STYLE = """<style>
.linkage-toolbar { flex-wrap: nowrap; align-items: center; gap: 0 2px; }
.linkage-toolbar > * { flex: 0 0 auto; }
.linkage-toolbar .widget-button, .linkage-toolbar .widget-toggle-button {
  min-width: 34px; padding: 0 8px; margin: 2px 1px; }
.linkage-tool-line { color: #37474f; white-space: nowrap; overflow: hidden;
  text-overflow: ellipsis; max-width: 100%; }
.linkage-tool-line .widget-html-content { white-space: nowrap; overflow: hidden;
  text-overflow: ellipsis; line-height: 20px; }
.linkage-files, .linkage-checks { flex-wrap: wrap; }
/* the readout's "the numbers" toggle reads as a link, pressed or not */
.linkage-show-info.widget-toggle-button { background: none; box-shadow: none; border: none;
  color: #0072b2; padding: 0; height: auto; width: auto; text-align: left;
  text-decoration: underline dotted; }
.linkage-show-info.widget-toggle-button::before { content: "▸ "; }
.linkage-show-info.widget-toggle-button.mod-active::before { content: "▾ "; }
.linkage-widget.linkage-presenting {
  position: fixed !important; top: 0; left: 0; right: 0; bottom: 0;
  width: 100vw !important; height: 100vh !important; margin: 0 !important;
  z-index: 10000; box-sizing: border-box; padding: 8px 16px; overflow: auto;
  background: var(--jp-layout-color0, #fff); align-items: center; }
/* JupyterLab's panels contain their children (contain: strict: a fixed child would be
   fixed to the panel) and stack them (z-index 0): around a presenting widget they don't */
.lm-Widget:has(.linkage-presenting) { contain: none !important; z-index: auto !important; }
.linkage-presenting .linkage-collapsible { display: none !important; }
.linkage-presenting .linkage-toolbar { zoom: 1.35; }
.linkage-presenting .linkage-tool-line { zoom: 1.35; }
.linkage-presenting .linkage-readout { zoom: 1.5; }
.linkage-presenting .linkage-canvas {
  width: auto !important; height: calc(100vh - 210px) !important;
  max-width: 100% !important; object-fit: contain; }
</style>"""


#: The ``key`` of the keydown event by which :data:`RATIO_PROBE` reports the ratio.
RATIO_KEY_PREFIX = "linkage-device-pixel-ratio:"

# An image that cannot load runs its onerror handler, the one script ipywidgets' HTML
# widget lets through (a <script> element inside it never runs). The handler finds the
# main canvas of the widget it sits in and dispatches on it a keydown event whose key is
# RATIO_KEY_PREFIX + window.devicePixelRatio: ipycanvas (or ipyevents, while the pointer
# is over the canvas) sends it to the kernel like any key. It reports again when the
# ratio changes (the window moved to another screen, the browser zoomed). A constant:
# nothing of the user's or the model's goes into it. No double quotes inside.
_RATIO_JS = (
    "var img=this,n=0;function send(){"
    "var box=img.closest('.linkage-widget'),c=box&&box.querySelector('canvas.linkage-canvas');"
    "if(!c){if(++n<300)setTimeout(send,100);return;}"
    "var r=window.devicePixelRatio||1;"
    f"c.dispatchEvent(new KeyboardEvent('keydown',{{key:'{RATIO_KEY_PREFIX}'+r}}));"
    "matchMedia('(resolution: '+r+'dppx)').addEventListener('change',send,{once:true});}"
    "send();"
)
#: Reports the browser's ``window.devicePixelRatio`` to the widget (see :data:`RATIO_KEY_PREFIX`).
RATIO_PROBE = f'<img alt="" src="data:," style="display:none" onerror="{_RATIO_JS}">'


def style_widget() -> W.HTML:
    """A hidden HTML widget holding :data:`STYLE` and :data:`RATIO_PROBE`.

    A ``<style>`` applies while hidden, and a hidden image still loads (and fails).
    """
    html = W.HTML(STYLE + RATIO_PROBE, layout=W.Layout(display="none"))
    html.add_class("linkage-style")
    return html


def check_control_set(controls: object) -> str:
    """``controls`` if it names a control set, else a ``ValueError`` naming the choices.

    >>> check_control_set("compact")
    'compact'
    """
    if not isinstance(controls, str) or controls not in CONTROL_SETS:
        raise ValueError(f"controls must be one of {', '.join(CONTROL_SETS)}; got {controls!r}")
    return controls
