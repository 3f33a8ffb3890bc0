"""The help table under the widget: every mouse gesture, tool and key, in a few words.

Kept beside :mod:`.controls` (which shows it) so the table can grow with the tools; the
key map itself is :mod:`linkage_widget.session.keymap`'s and the interaction map
:mod:`linkage_widget.session.tools`'.
"""

__all__ = ["HELP_HTML"]

HELP_HTML = """
<details><summary>mouse, touch and keys</summary>
<table style="font-size:90%">
<tr><td>click empty space (tap)</td><td>add a vertex</td></tr>
<tr><td>click vertex / rod (tap)</td><td>select (again: deselect)</td></tr>
<tr><td>drag a vertex (one finger)</td>
<td>move the mechanism (shift-drag: move the vertex freely)</td></tr>
<tr><td>drag empty space / wheel</td><td>pan / zoom</td></tr>
<tr><td>two fingers</td><td>pan; pinch to zoom</td></tr>
<tr><td>3-D: drag empty space, e</td><td>turn the view (shift-drag: pan);
perspective / orthographic</td></tr>
<tr><td>middle- or alt-click</td><td>vertex: rod from the selected vertex, and the clicked
one is selected (select 0, alt-click 1 2 3 0: the quadrilateral 0-1-2-3-0);
rod: fix the angle with the selected rod</td></tr>
<tr><td>right- or ctrl-click</td>
<td>place / remove the attractor (pulls the selected vertex)</td></tr>
<tr><td>angle tool</td><td>click two adjacent rods, or three joints (the apex first, then
the arms' ends; no rods needed; a selected joint is the apex): fix / free the angle</td></tr>
<tr><td>slider tool</td><td>drag from a joint along a line: the joint slides on it (within
5° of a multiple of 15°: exactly that); click a joint: a horizontal line (again: no more
sliding); a pinned joint cannot slide</td></tr>
<tr><td>slot tool</td><td>click the two joints of the slot's axis, then the joint that slides
on their line (a pin in a slot; the same clicks again: the slot goes)</td></tr>
<tr><td>delete tool</td><td>click a joint, a rod, a slider's track or block, a slot</td></tr>
<tr><td>f t d z c</td><td>pin, track, delete, split rod, clear</td></tr>
<tr><td>rod tool, b</td><td>the rod tool draws rods, cables (thin, dashed: may shorten, not
lengthen) or struts (a double line: may lengthen, not shorten), as chosen beside the tools
or by b; a click on a rod makes it that kind; b with a rod selected changes its kind</td></tr>
<tr><td>0-extension / 1-extension tools</td><td>Henneberg moves: click two joints, then a
place (a new joint with two rods); click a rod, a third joint, then a place (the rod goes, a
new joint with three rods)</td></tr>
<tr><td>u U</td><td>other placements with the same rod lengths, drawn faint (a small Laman
linkage: every real one; else the one global rigidity finds, or why there is none); U puts
the linkage at the next of them (ctrl-z: back)</td></tr>
<tr><td>N B y</td><td>NAC-colourings: the next / previous one (after the last: none), its
rods in two colours and the linkage at its flexible placement (ctrl-z: back); y flexes the
linkage along it, one turn (leaving the view keeps the placement)</td></tr>
<tr><td>synthesis tool, S</td><td>drag the pointer along a curve (a closed loop for a
crank): on release, the linkages whose coupler traces it appear as thumbnails beside the
canvas (each: the linkage, its coupler's path over the curve, its RMS error and Grashof
class); click one to load it, its motor turning and its coupler tracked (ctrl-z: back).
The panel's <i>cognates</i> button shows the loaded four-bar and its two
Roberts–Chebyshev cognates (three four-bars, one curve) the same way.
S switches to the tool and back to select</td></tr>
<tr><td>[ ]</td><td>previous / next tool</td></tr>
<tr><td>spring / motor / load tools</td><td>click two vertices: spring; click a rod: motor
(pivot: the pinned end, else the end nearer the click); click a vertex: downward load
(again: remove), drag from it: a load along the drag</td></tr>
<tr><td>o n</td><td>motors start/stop, reverse</td></tr>
<tr><td>k</td><td>kinematic / dynamic mode</td></tr>
<tr><td>s l</td><td>save / load the file named in the file box</td></tr>
<tr><td>L (shift-l)</td><td>merge the file named in the file box into the linkage</td></tr>
<tr><td>Alt+1 … Alt+9</td><td>load a bundled example (four-bar, Watt, Chebyshev, Hoeken,
Roberts, Peaucellier, Hart, Jansen, Penrose)</td></tr>
<tr><td>v V i</td><td>view options (3-D: the next of 8 views; V what is shown), info</td></tr>
<tr><td>a j # g F</td><td>show/hide fixed angles, joints, joint labels, configuration space,
forces</td></tr>
<tr><td>p P r T</td><td>PNG picture, SVG picture, record GIF, tracks CSV</td></tr>
<tr><td>m</td><td>presentation mode: the whole window, large type (m or Esc leaves)</td></tr>
<tr><td>space, Esc</td><td>start/stop the motion; deselect</td></tr>
<tr><td>ctrl-z, ctrl-shift-z</td><td>undo, redo (Home: fit)</td></tr>
<tr><td>Tab, arrow keys</td><td>reach the sliders, boxes and the upload button</td></tr>
</table></details>
"""
