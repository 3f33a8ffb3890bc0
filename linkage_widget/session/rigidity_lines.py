"""The readout's lines on global rigidity and on a tensegrity, when they are cheap.

* **Global rigidity**, for a graph that is generically rigid: whether it is generically
  globally rigid (in the plane: :math:`K_2` or :math:`K_3`, or 3-connected and redundantly
  rigid, Jackson–Jordán: ``rigidity.global_rigidity.generic_global_verdict``); when not, a
  generic placement has another with the same rod lengths (key ``u`` shows it). Only this
  combinatorial verdict is computed (the separating pair and the pebble game's circuits,
  milliseconds), not :func:`~linkage_widget.rigidity.global_rigidity`'s search for this
  placement. Two or more pins count as one body, as in ``global_rigidity``: the graph read
  is the rods plus a bar between every two pins, and the line says so. The verdict is of
  the graph, so it is kept per graph (joints, rods, pins): a motion never recomputes it.
* **Tensegrity** (:func:`~linkage_widget.rigidity.tensegrity_rigidity`, only with
  cables or struts): rigid as a tensegrity (Roth–Whiteley: the bar framework rigid and
  a proper self-stress) or not. It depends on the placement, so it is kept per
  placement, and it is computed only when the joints are not moving (one linear
  program, ~30 ms on 12 joints: not on every frame of a drag): while they move, the
  line found last for this graph and these kinds is shown, marked as of the placement
  before the drag, and a placement found after the release is recomputed.

Both run in the readout's thread, so only for linkages of at most
:data:`READOUT_MAX_JOINTS` joints (the tensegrity line solves a linear program): planar,
without fixed angles, sliders or slots (which neither reads).
Each is remembered by the values it reads (a small table, cleared when it grows).

>>> from linkage_widget import Linkage
>>> k4 = Linkage([[0, 0], [4, 0], [1, 3], [1.3, 1.1]],
...              rods=[(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)])
>>> rigidity_lines(k4)
['globally rigid (generically: 3-connected and redundantly rigid)']
"""

from __future__ import annotations

from collections.abc import Callable

from ..model import Linkage
from ..rigidity import tensegrity_rigidity
from ..rigidity.global_rigidity import generic_global_verdict

__all__ = ["READOUT_MAX_JOINTS", "rigidity_lines"]

#: The readout says global and tensegrity rigidity for linkages up to this many joints.
READOUT_MAX_JOINTS = 12


#: The lines found, by the values they read (kept small: cleared past 64 entries).
_MEMO: dict[tuple[object, ...], str] = {}


def _remembered(key: tuple[object, ...], find: Callable[[], str]) -> str:
    if key not in _MEMO:
        if len(_MEMO) >= 64:
            _MEMO.clear()
        _MEMO[key] = find()
    return _MEMO[key]


def _global_line(linkage: Linkage) -> str:
    ggr = generic_global_verdict(linkage)
    if ggr is None:
        return ""  # the graph flexes: whether it is globally rigid is moot
    held = " with the pins as one body" if len(set(linkage.pinned.tolist())) >= 2 else ""
    if ggr:
        return f"globally rigid{held} (generically: 3-connected and redundantly rigid)"
    return (
        f"not globally rigid{held}: a generic placement has another with the same rod"
        " lengths (u shows one)"
    )


def _tensegrity_line(linkage: Linkage) -> str:
    report = tensegrity_rigidity(linkage)
    if report.rigid:
        return "tensegrity: rigid (a proper self-stress: cables in tension, struts compressed)"
    if not report.bar_framework_rigid:
        return "tensegrity: not rigid (the bar framework flexes)"
    return "tensegrity: not rigid (no self-stress with the cables' and struts' signs)"


#: The last tensegrity line, by graph and kinds: shown (marked) while the joints move.
_LAST: dict[tuple[object, ...], str] = {}


def rigidity_lines(linkage: Linkage, moving: bool = False) -> list[str]:
    """The readout's global-rigidity line, and the tensegrity line with cables or struts.

    ``moving``: the joints are moving, so the tensegrity line is not recomputed (the last
    one of this graph and these kinds, marked; none if there is none).
    """
    n = linkage.n_vertices
    plain_bars = not (linkage.n_angles or len(linkage.sliders) or len(linkage.slots))
    if linkage.dim != 2 or not 2 <= n <= READOUT_MAX_JOINTS or not plain_bars:
        return []
    graph = (n, linkage.rods.tobytes(), linkage.pinned.tobytes())
    # the generic verdict reads the graph only: a motion never asks again
    line = _remembered(("global", *graph), lambda: _global_line(linkage))
    lines = [line] if line else []
    kinds = tuple(linkage.rod_kinds.tolist())
    if any(k != "rod" for k in kinds):
        shape = ("tensegrity", *graph, kinds)
        if moving:
            last = _LAST.get(shape)
            return lines + (
                [f"{last} (as before the motion; rechecked when it stops)"] if last else []
            )
        line = _remembered((*shape, linkage.vertices.tobytes()), lambda: _tensegrity_line(linkage))
        if len(_LAST) >= 64:
            _LAST.clear()
        _LAST[shape] = line
        lines.append(line)
    return lines
