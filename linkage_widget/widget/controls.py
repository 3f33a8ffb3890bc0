"""The widget's controls, from tables: toolbar, action buttons, sliders, checkboxes, files, readout.

Each control is linked to a trait of the session (two-way) or runs an action
kind of :mod:`linkage_widget.session.tools`; the tables below are the whole
list. :class:`Controls` holds the built controls by name, which is also what
tests reach them by (``controls.buttons["undo"]``, ``controls.sliders["gravity"]``).
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any, NamedTuple

import ipywidgets as W
from traitlets import HasTraits, TraitError

from ..rod_kinds import KINDS
from ..session import DEFAULT_FILE, PARAMETER_RANGES, STEP_SLIDER, TOOLS, tool_line
from .help import HELP_HTML
from .layout import COLLAPSIBLE_CLASS, style_widget
from .readout import readout_html

__all__ = [
    "BUTTONS",
    "CHECKS",
    "SLIDERS",
    "TOGGLES",
    "Controls",
    "ControlsState",
    "SliderLink",
    "nearest_step",
    "readout_html",
]

#: Buttons: name, label, tooltip (with the key), action kind: the toolbar, then the file row.
#: Every button has a key (session/keymap.py); the tooltip names it.
BUTTONS = (
    ("undo", "↶", "undo (ctrl-z)", "undo"),
    ("redo", "↷", "redo (ctrl-shift-z)", "redo"),
    ("fit", "fit", "fit the linkage to the view (Home)", "fit"),
    ("play", "▶ play", "start/stop the motion (space)", "toggle_running"),
    ("motors", "⟳", "start/stop the motors (o)", "toggle_motors"),
    ("reverse", "⇄", "turn the motors the other way (n)", "reverse_motors"),
    ("record", "●", "record a GIF (r)", "toggle_recording"),
    ("svg", "SVG", "export an SVG picture (P)", "export_svg"),
    ("png", "PNG", "export a PNG picture (p)", "export_png"),
    ("csv", "tracks CSV", "save the loci of the tracked joints (t) as CSV (T)", "export_tracks"),
    ("save", "save", "save to the file named on the left (s)", "save"),
    ("load", "load", "load the file named on the left (l)", "load"),
    ("placements", "other placements", "other placements with the same rod lengths, faint (u)",
     "other_placements"),
    ("jump", "jump", "put the linkage at the next other placement (U)", "jump_to_ghost"),
    ("nac_previous", "◂ NAC", "the previous NAC-colouring (B)", "nac_previous"),
    ("nac_next", "NAC ▸", "the next NAC-colouring: its flexible placement (N)", "nac_next"),
    ("flex", "flex", "flex along the NAC-colouring shown, one turn (y)", "play_nac"),
)  # fmt: skip
#: The buttons of the file row (the rest are in the toolbar).
FILE_BUTTONS = ("svg", "png", "csv", "save", "load")
#: The buttons of the rigidity row (issue 26: other placements, NAC-colourings).
RIGIDITY_BUTTONS = ("placements", "jump", "nac_previous", "nac_next", "flex")
#: The toolbar of ``controls="compact"``: buttons, then toggles.
COMPACT_BAR = (("undo", "redo", "play", "fit"), ("presentation",))
#: Sliders: trait, description. Their ranges are the session's (STEP_SLIDER per mode for
#: the step size, PARAMETER_RANGES for the others): the view holds no numbers about motion.
SLIDERS = (
    ("step_size", "step size"),
    ("mass_distribution", "mass distribution"),
    ("gravity", "gravity"),
    ("table_friction", "table friction"),
)
#: Toggle buttons in the toolbar: trait, label, tooltip.
TOGGLES = (
    (
        "show_configuration",
        "◐",
        "configuration space beside the linkage: a curve, a torus chart or a sphere (g)",
    ),
    ("presentation", "⤢", "presentation mode: the whole window, large type (m; Esc leaves)"),
)
#: The toggle under the readout (every control set but "none"): trait, label, tooltip.
NUMBERS_TOGGLE = ("show_info", "the numbers: rank, Maxwell–Calladine count, self-stresses, method",
                  "show or hide the technical lines and why (i)")  # fmt: skip
#: Checkboxes: trait, label.
CHECKS = (
    ("show_velocities", "velocities"),
    ("show_vertices", "vertices"),
    ("show_angles", "angles"),
    ("show_info", "info"),
    ("show_stresses", "stresses"),
    ("show_pebbles", "pebble game"),
    ("show_forces", "forces"),
    ("show_labels", "labels"),
    ("show_plots", "plots"), ("show_centres", "instant centres"), ("show_band", "tolerance band"),
)  # fmt: skip
MODE_TIPS = ["follow the pointer/attractor", "physics: masses, gravity, inertia"]


class ControlsState(NamedTuple):
    """What the controls show besides the linked traits."""

    can_undo: bool
    can_redo: bool
    running: bool
    recording: bool
    motors_running: bool
    mode: str
    step_size: float
    readout: str
    mode_note: str = ""  # why dynamic mode is unavailable (session.mode_refusal()), or ""


class Controls:
    """The controls of one widget, linked to ``session``'s traits; buttons call ``run(kind)``.

    Attributes
    ----------
    tools : ipywidgets.Dropdown
        The toolbar's tool (linked to ``tool``).
    kinds : ipywidgets.Dropdown
        What the rod tool draws: a rod, a cable or a strut (linked to ``rod_kind``).
    tool_line : ipywidgets.HTML
        The current tool, the keys that change it, and the hint: what a click does,
        the last message (:meth:`show_status`).
    style : ipywidgets.HTML
        The hidden ``<style>`` of :mod:`.layout` (toolbar, presentation mode).
    modes : ipywidgets.ToggleButtons
    buttons : dict of str to ipywidgets.Button
    sliders : dict of str to ipywidgets.FloatSlider
        By trait name: ``step_size`` (the current mode's), ``mass_distribution``,
        ``gravity``, ``table_friction``.
    step_sliders : dict of str to ipywidgets.FloatSlider
        The step-size slider of each mode; only the current mode's is shown and linked.
    checks : dict of str to ipywidgets.Checkbox
    toggles : dict of str to ipywidgets.ToggleButton
        By trait name: ``show_configuration`` (the configuration-space panel),
        ``presentation`` (presentation mode).
    load_size : ipywidgets.BoundedFloatText
        The force of a load placed by a click of the load tool.
    file_box : ipywidgets.Text
    upload : ipywidgets.FileUpload
    downloads, readout, legend, help : ipywidgets.HTML
    numbers, readout_box : ipywidgets.ToggleButton, ipywidgets.VBox
        Under the readout, the toggle of its technical lines (``show_info``); both.
    """

    def __init__(self, session: HasTraits, run: Callable[[str], Any]) -> None:
        self._build_tools(session)
        self.style = style_widget()
        self.buttons = {name: _button(name, *rest, run) for name, *rest in BUTTONS}
        self.sliders = {name: _slider(session, name, text) for name, text in SLIDERS[1:]}
        #: one step slider per mode, only the mode's own shown: a switch changes no range
        self.step_sliders = {mode: _step_slider(session, mode) for mode in STEP_SLIDER}
        #: the session's slider ranges (max_step lowers the kinematic upper end)
        self._step_range = getattr(session, "step_slider_range", None)
        self.sliders = {"step_size": self.step_sliders[session.mode], **self.sliders}
        self.modes = W.ToggleButtons(
            options=["kinematic", "dynamic"],
            value=session.mode,
            style={"button_width": "92px"},
            tooltips=MODE_TIPS,
        )
        W.dlink((session, "mode"), (self.modes, "value"))  # back: _choose_mode (may refuse)
        self.modes.observe(lambda ch: _choose_mode(session, self.modes, ch["new"]), "value")
        self.checks = {name: _checkbox(session, name, label) for name, label in CHECKS}
        self.toggles = {name: _toggle(session, name, label, tip) for name, label, tip in TOGGLES}
        self.load_size = W.BoundedFloatText(
            value=session.load_size,
            min=1e-9,
            max=1e12,
            description="load",
            tooltip="force of a load placed by the load tool (downward)",
            layout=W.Layout(width="150px"),
        )
        W.link((session, "load_size"), (self.load_size, "value"))
        self.file_box = W.Text(
            value=DEFAULT_FILE, description="file", layout=W.Layout(width="260px")
        )
        W.link((session, "file_name"), (self.file_box, "value"))
        self.upload = W.FileUpload(
            accept=".txt,.json", multiple=True, description="upload", layout=W.Layout(width="auto")
        )
        self.downloads = W.HTML()
        self.readout = W.HTML()
        self.readout.add_class("linkage-readout")
        self.numbers = _toggle(session, *NUMBERS_TOGGLE)
        self.readout_box = W.VBox([self.readout, self.numbers])
        self.legend = W.HTML()  # the key of the canvas's colours, beside it (issue 15)
        self.legend.add_class("linkage-legend-box")
        self.help = W.HTML(HELP_HTML)

    def _build_tools(self, session: HasTraits) -> None:
        """The tool chooser and the tool line, following the session's ``tool``."""
        # a drop-down, not ten buttons: the toolbar fits one line at 1024 x 768
        self.tools = W.Dropdown(
            options=[(t, t) for t in TOOLS],
            value=session.tool,
            tooltip="the tool: what a click does ([ and ] change it)",
            layout=W.Layout(width="104px"),
        )
        self.tools.add_class("linkage-tools")
        W.link((session, "tool"), (self.tools, "value"))
        self.kinds = W.Dropdown(  # what the rod tool draws: a rod, a cable or a strut (b)
            options=list(KINDS), value=session.rod_kind, layout=W.Layout(width="80px"),
            tooltip="the rod tool draws rods, cables (may shorten) or struts (may lengthen) (b)",
        )  # fmt: skip
        self.kinds.add_class("linkage-rod-kind")
        W.link((session, "rod_kind"), (self.kinds, "value"))
        self.tool_line = W.HTML()
        self.tool_line.add_class("linkage-tool-line")
        self._tool, self._hint = session.tool, ""
        self.show_status(session.tool)
        session.observe(lambda c: self.show_status(c["new"]), "tool")

    def rows(self, canvas: W.DOMWidget, which: str = "full") -> list[W.Widget]:
        """The widget's children, top to bottom, for the control set ``which``.

        ``"full"``: toolbar, tool line, ``canvas``, readout, legend, then the sliders, mode,
        check boxes, file row and help (these collapse in presentation mode);
        ``"compact"``: toolbar (tools, undo, redo, play, fit, presentation), tool line,
        ``canvas``, readout, legend; ``"none"``: ``canvas`` alone (see :mod:`.layout`).
        """
        if which == "none":
            return [self.style, canvas]
        if which == "compact":
            names, toggles = COMPACT_BAR
            bar = [self.buttons[n] for n in names] + [self.toggles[n] for n in toggles]
            bar_row = self._bar(bar)
            return [self.style, bar_row, self.tool_line, canvas, self.readout_box, self.legend]
        b, s = self.buttons, self.sliders
        rows = (*FILE_BUTTONS, *RIGIDITY_BUTTONS)
        actions = [self.kinds, *(b[name] for name, *_ in BUTTONS if name not in rows)]
        actions += list(self.toggles.values())
        files = [self.file_box, *(b[n] for n in FILE_BUTTONS), self.upload, self.downloads]
        rest = [
            W.HBox([*self.step_sliders.values(), s["mass_distribution"]]),
            W.HBox([s["gravity"], self.modes]),
            W.HBox([s["table_friction"], self.load_size]),
            W.HBox(list(self.checks.values())),
            W.HBox(files),
            W.HBox([b[n] for n in RIGIDITY_BUTTONS]),
            self.help,
        ]
        rest[-3].add_class("linkage-files")
        rest[-4].add_class("linkage-checks")  # both wrap on a narrow page
        for row in rest:
            row.add_class(COLLAPSIBLE_CLASS)
        top = [self.style, self._bar(actions), self.tool_line, canvas, self.readout_box]
        return [*top, self.legend, *rest]

    def _bar(self, buttons: list[W.Widget]) -> W.HBox:
        """The toolbar: the tool chooser and ``buttons``, one line (CSS in :mod:`.layout`)."""
        bar = W.HBox([self.tools, *buttons])
        bar.add_class("linkage-toolbar")
        return bar

    def update(self, state: ControlsState) -> None:
        """Show ``state``: undo/redo enabled, play/record labels, the readout, the step range."""
        b = self.buttons
        b["undo"].disabled = not state.can_undo
        b["redo"].disabled = not state.can_redo
        b["play"].description = "■ stop" if state.running else "▶ play"
        b["record"].description = "■ rec" if state.recording else "●"
        b["record"].button_style = "danger" if state.recording else ""
        b["motors"].description = "■ ⟳" if state.motors_running else "⟳"
        b["motors"].button_style = "info" if state.motors_running else ""
        if self._step_range is not None:
            for mode, slider in self.step_sliders.items():
                slider.linkage_link.set_range(*self._step_range(mode)[:2])
        shown = self.step_sliders[state.mode]
        if self.sliders["step_size"] is not shown:
            self.sliders["step_size"].layout.display = "none"
            shown.layout.display = None
            self.sliders["step_size"] = shown
            shown.linkage_link.show(state.step_size)
        if self.modes.disabled != bool(state.mode_note):  # the toggle says why it is off
            self.modes.disabled = bool(state.mode_note)
            self.modes.tooltips = [MODE_TIPS[0], state.mode_note or MODE_TIPS[1]]
            self.modes.tooltip = state.mode_note or None
        if self.readout.value != state.readout:  # unchanged text: no message to the browser
            self.readout.value = state.readout

    def show_status(self, tool: str | None = None, hint: str | None = None) -> None:
        """The tool line: ``tool`` and the session's ``hint`` (``None``: as before).

        The hint (what to do now, the last message, "blocked: ...") is shown here, beside
        the drawing, never over it; unchanged text sends nothing to the browser.
        """
        self._tool = self._tool if tool is None else tool
        self._hint = self._hint if hint is None else hint
        self.tool_line.value = html.escape(tool_line(self._tool, self._hint))

    def show_legend(self, legend: str) -> None:
        """Show the legend (HTML from :func:`~linkage_widget.draw.legend_html`) when it changed."""
        if self.legend.value != legend:  # unchanged: no message to the browser
            self.legend.value = legend

    def show_downloads(self, links: str) -> None:
        """Show the download links (HTML)."""
        self.downloads.value = links


def _button(name: str, label: str, tip: str, kind: str, run: Callable[[str], Any]) -> W.Button:
    b = W.Button(description=label, tooltip=tip, layout=W.Layout(width="auto"))
    b.add_class(f"linkage-button-{name}")  # for tests and CSS: labels are glyphs
    b.on_click(lambda _b: run(kind))
    return b


def _choose_mode(session: HasTraits, modes: W.ToggleButtons, mode: str) -> None:
    """The toggle asks for ``mode``; a refused one (dynamic in space) says why, springs back."""
    try:
        session.mode = mode
    except TraitError as exc:
        session.error = str(exc)
        modes.value = session.mode


def _checkbox(session: HasTraits, name: str, label: str) -> W.Checkbox:
    box = W.Checkbox(
        value=getattr(session, name),
        description=label,
        indent=False,
        layout=W.Layout(width="auto", margin="0 12px 0 0"),
    )
    W.link((session, name), (box, "value"))
    return box


def _toggle(session: HasTraits, name: str, label: str, tip: str) -> W.ToggleButton:
    button = W.ToggleButton(
        value=getattr(session, name), description=label, tooltip=tip, layout=W.Layout(width="auto")
    )
    button.add_class("linkage-" + name.replace("_", "-"))
    W.link((session, name), (button, "value"))
    return button


def _slider(session: HasTraits, name: str, text: str, **extra: Any) -> W.FloatSlider:
    """The slider of trait ``name`` (range: ``PARAMETER_RANGES``), linked by :class:`SliderLink`."""
    lo, hi, step = extra.pop("range", None) or PARAMETER_RANGES[name]
    active = extra.pop("active", None)
    # an inactive slider (the other mode's step) is widened when its mode comes, not now
    value = getattr(session, name) if active is None or active() else lo
    slider = W.FloatSlider(
        min=min(lo, value),  # a value beyond the range widens it (as SliderLink.show does)
        max=max(hi, value),
        step=step,
        description=text,
        style={"description_width": "initial"},
        **extra,
    )
    slider.add_class("linkage-" + name.replace("_", "-"))
    SliderLink(session, name, slider, active)
    return slider


def _step_slider(session: HasTraits, mode: str) -> W.FloatSlider:
    """The step-size slider of ``mode`` (``STEP_SLIDER``), shown and linked only in ``mode``.

    One slider whose range changed with the mode lost the time step: a browser slider
    clamps its old value (1.0) into a new range (0.001 to 0.05) before the kernel's new
    value arrives and sends the clamp (0.05) back, which the kernel took for a user's move
    (a flaky browser test found 0.05 after a switch to dynamic mode). Two fixed sliders
    have nothing to clamp, and the hidden one is never sent anything.
    """
    lo, hi, step, fmt, tip = STEP_SLIDER[mode]
    if hasattr(session, "step_slider_range"):  # max_step lowers the kinematic upper end
        lo, hi, step = session.step_slider_range(mode)
    slider = _slider(
        session,
        "step_size",
        dict(SLIDERS)["step_size"],
        range=(lo, hi, step),
        active=lambda: session.mode == mode,
        readout_format=fmt,
        tooltip=tip,
        layout=W.Layout(display=None if session.mode == mode else "none"),
    )
    slider.add_class(f"linkage-step-size-{mode}")
    return slider


def nearest_step(slider: W.FloatSlider, value: float) -> float:
    r"""The value ``slider`` can show nearest to ``value``: ``min + k * step``, or an end.

    .. math:: s = \min\bigl(\max,\ m + \operatorname{round}((v - m)/h)\,h\bigr)

    with ``m`` the slider's min and ``h`` its step; a value at either end (a range widened
    to hold it) is shown as it is. Rounded to 12 decimals so that ``0.05 * 3`` is 0.15.
    """
    lo, hi, h = slider.min, slider.max, slider.step
    if value <= lo or value >= hi or not h:
        return min(max(value, lo), hi)
    return min(hi, round(lo + round((value - lo) / h) * h, 12))


class SliderLink:
    """Two-way link of a slider's value and the trait ``name``; the trait keeps what code set.

    A browser slider snaps a value between its steps and sends the snapped value back, so
    with ``ipywidgets.link`` ``w.gravity = 9.81`` became 10.0 once shown. Here the kernel
    sends the slider the nearest step itself (:func:`nearest_step`: the browser has nothing
    to snap and nothing to send back) and the trait keeps the exact value; a value from
    the slider other than the one last sent is a user's move and goes into the trait.
    A trait value beyond the slider's range widens the range instead of being clamped.
    """

    def __init__(
        self,
        obj: HasTraits,
        name: str,
        slider: W.FloatSlider,
        active: Callable[[], bool] | None = None,
    ) -> None:
        self.obj, self.name, self.slider = obj, name, slider
        self.active = active or (lambda: True)  # a hidden step slider of the other mode: off
        self.sent = float("nan")  # the value last put on the slider by the kernel
        self.busy = False  # True while the kernel itself sets slider.value
        slider.linkage_link = self  # for Controls.update
        if self.active():
            self.show(getattr(obj, name))
        obj.observe(self._to_slider, names=name)
        slider.observe(self._to_trait, names="value")

    def show(self, v: float) -> None:
        """Put the nearest step to ``v`` on the slider (its range widened to hold ``v``)."""
        s = self.slider
        with s.hold_sync():  # range and value in one message: no snap in between
            if v > s.max:
                s.max = v
            if v < s.min:
                s.min = v
            shown = nearest_step(s, v)
            self.sent, self.busy = shown, True
            try:
                s.value = shown
            finally:
                self.busy = False

    def set_range(self, lo: float, hi: float) -> None:
        """Give the slider the range ``[lo, hi]`` (no message when unchanged), then re-show."""
        s = self.slider
        if (s.min, s.max) == (lo, hi):
            return
        self.busy = True
        try:
            with s.hold_sync():  # a clamp of the value in between is not a user's move
                if lo > s.max:
                    s.max, s.min = hi, lo
                else:
                    s.min, s.max = lo, hi
        finally:
            self.busy = False
        if self.active():
            self.show(getattr(self.obj, self.name))

    def _to_slider(self, change: Any) -> None:
        # a user's move sets the trait: the slider already shows it
        if not self.busy and self.active():
            self.show(change["new"])

    def _to_trait(self, change: Any) -> None:
        new = change["new"]
        # what the kernel sent, maybe with a browser's last-bit rounding: not a move
        if (
            self.busy
            or not self.active()
            or abs(new - self.sent) <= 1e-9 * (self.slider.step or 1.0)
        ):
            return
        self.sent, self.busy = new, True
        try:
            setattr(self.obj, self.name, new)
        finally:
            self.busy = False
        kept = getattr(self.obj, self.name)
        if kept != new:  # the trait's validator changed the value: show what it kept
            self.show(kept)
