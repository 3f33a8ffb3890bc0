"""The readout's lines on global rigidity and on a tensegrity, when they are cheap.

* **Global rigidity** (:func:`~linkage_widget.rigidity.global_rigidity`), for a graph
  that is generically rigid (pins aside): whether it is generically globally rigid (in
  the plane 3-connected and redundantly rigid, Jackson–Jordán); when not, a generic
  placement has another with the same rod lengths (key ``u`` shows it). The verdict is
  of the graph, so it is kept per graph (joints, rods, pins): a motion never recomputes it.
* **Tensegrity** (:func:`~linkage_widget.rigidity.tensegrity_rigidity`, only with
  cables or struts): rigid as a tensegrity (Roth–Whiteley: the bar framework rigid and
  a proper self-stress) or not. It depends on the placement, so it is kept per
  placement.

Both run in the readout's thread, so only for linkages of at most
:data:`READOUT_MAX_JOINTS` joints (a 31-joint framework's global verdict takes about
0.6 s here): planar, without fixed angles, sliders or slots (which neither reads).
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
from ..rigidity import generic_rank, global_rigidity, tensegrity_rigidity

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
    n = linkage.n_vertices
    if generic_rank(n, linkage.rods) < 2 * n - 3:
        return ""  # the graph flexes (pins aside): whether it is globally rigid is moot
    report = global_rigidity(linkage, seed=0)
    if report.generically_globally_rigid:
        return "globally rigid (generically: 3-connected and redundantly rigid)"
    return "not globally rigid: another placement has the same rod lengths (u shows it)"


def _tensegrity_line(linkage: Linkage) -> str:
    report = tensegrity_rigidity(linkage)
    if report.rigid:
        return "tensegrity: rigid (a proper self-stress: cables in tension, struts compressed)"
    if not report.bar_framework_rigid:
        return "tensegrity: not rigid (the bar framework flexes)"
    return "tensegrity: not rigid (no self-stress with the cables' and struts' signs)"


def rigidity_lines(linkage: Linkage) -> list[str]:
    """The readout's global-rigidity line, and the tensegrity line with cables or struts."""
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
        placed = ("tensegrity", *graph, kinds, linkage.vertices.tobytes())
        lines.append(_remembered(placed, lambda: _tensegrity_line(linkage)))
    return lines
