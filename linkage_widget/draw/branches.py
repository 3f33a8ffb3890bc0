r"""The branches through a singular placement: numbered arrows and faint previews.

At a singular stop the simulator offers :math:`k` branch lines, each a unit motion
:math:`d_j` of the whole linkage, shape ``(n, 2)``, usable in both senses: :math:`2k`
ways on. Each way gets an arrow, labelled ``1 .. 2k`` (way :math:`2j + 1` is
:math:`+d_j`, way :math:`2j + 2` is :math:`-d_j`, the numbering of the session's keys),
at the joint that moves most along :math:`d_j` (a joint not taken by an earlier line
when one moves comparably, so that two lines moving the same joint alike do not hide
each other), and a dashed preview of the rods moved a little along it.
:func:`branch_handles` is the geometry, shared by the drawing and the session's
click test; :func:`branch_layers` draws it.

Examples
--------
>>> import numpy as np
>>> from linkage_widget.draw.theme import DEFAULT_THEME
>>> from linkage_widget.draw.view import ViewTransform
>>> view = ViewTransform(scale=10.0, offset_x=0.0, offset_y=100.0)
>>> d = np.array([[[0.0, 0.0], [0.0, 1.0]]])           # one line: joint 1 up
>>> h = branch_handles(view, np.array([[0.0, 0.0], [1.0, 0.0]]), d, DEFAULT_THEME)
>>> h.labels, h.vertices.tolist(), h.tips.round(1).tolist()
(('1', '2'), [1, 1], [[10.0, 40.0], [10.0, 160.0]])
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .primitives import Arrows, Primitive, Segments, Texts
from .theme import Theme
from .view import ViewTransform

__all__ = ["BRANCH_ROLES", "BranchHandles", "branch_handles", "branch_layers", "pick_handle"]

#: Roles of the branch layers, in draw order (above the reactions, below the attractor).
BRANCH_ROLES = ("branch-previews", "branches", "branch-labels")
#: A line takes a joint already used by an earlier one only if no free joint moves at
#: least this fraction as much.
COMPARABLE = 0.5


class BranchHandles(NamedTuple):
    """The ``2k`` ways on, in label order.

    Attributes
    ----------
    labels : tuple of str
        ``"1" .. "2k"``.
    lines, senses : ndarray, shape (2k,), int
        Branch line index and sense (+1 / -1) of each way.
    vertices : ndarray, shape (2k,), int
        The joint each arrow starts at.
    tails, tips : ndarray, shape (2k, 2)
        Arrow ends in pixels.
    previews : ndarray, shape (2k, n, 2)
        The joints moved along each way, in pixels.
    """

    labels: tuple[str, ...]
    lines: np.ndarray
    senses: np.ndarray
    vertices: np.ndarray
    tails: np.ndarray
    tips: np.ndarray
    previews: np.ndarray


def _arrow_joints(moves: np.ndarray) -> np.ndarray:
    """One joint per line, ``(k,)``: the one moving most, preferring joints not yet taken."""
    taken: set[int] = set()
    out = np.zeros(len(moves), dtype=np.int64)
    for j, m in enumerate(moves):  # k lines, a handful
        order = np.argsort(-m, kind="stable")
        free = [int(i) for i in order if int(i) not in taken and m[i] >= COMPARABLE * m[order[0]]]
        out[j] = free[0] if free else int(order[0])
        taken.add(int(out[j]))
    return out


def branch_handles(
    view: ViewTransform, positions: Any, directions: Any, theme: Theme
) -> BranchHandles | None:
    """Arrows and previews of the branch ``directions`` (k, n, 2) at world ``positions`` (n, 2).

    ``None`` when there is nothing to show (none given, no lines, stale shapes, not finite).
    """
    if directions is None:
        return None
    D = np.asarray(directions, dtype=np.float64)
    X = np.asarray(positions, dtype=np.float64)
    if D.ndim != 3 or len(D) == 0 or D.shape[1:] != X.shape or not np.all(np.isfinite(D)):
        return None
    V = view.vector_to_pixel(D)  # (k, n, 2)
    moves = np.hypot(V[..., 0], V[..., 1])
    biggest = moves.max(axis=1)
    if not np.all(biggest > 0):
        return None
    V = V / biggest[:, None, None]  # the joint that moves most: one unit
    joints = _arrow_joints(moves)
    k = len(D)
    lines = np.repeat(np.arange(k), 2)
    senses = np.tile([1, -1], k)
    vertices = joints[lines]
    P = view.to_pixel(X)
    vec = senses[:, None] * V[lines, vertices] * theme.branch_arrow_px
    previews = P[None] + senses[:, None, None] * V[lines] * theme.branch_preview_px
    labels = tuple(str(i + 1) for i in range(2 * k))
    return BranchHandles(labels, lines, senses, vertices, P[vertices], P[vertices] + vec, previews)


def pick_handle(handles: BranchHandles | None, x: float, y: float, radius: float) -> int | None:
    """Index of the way whose arrow tip or label is within ``radius`` px of ``(x, y)``."""
    if handles is None:
        return None
    label_at = _label_positions(handles, 0.6 * radius)
    gap = np.minimum(
        np.hypot(*(handles.tips - (x, y)).T), np.hypot(*(label_at - (x, y)).T)
    )  # (2k,)
    i = int(np.argmin(gap))
    return i if gap[i] <= radius else None


def _label_positions(handles: BranchHandles, beyond: float) -> np.ndarray:
    """Labels just beyond each arrow tip, ``(2k, 2)`` pixels."""
    v = handles.tips - handles.tails
    u = v / np.maximum(np.hypot(v[:, 0], v[:, 1]), 1e-12)[:, None]
    return handles.tips + beyond * u


def branch_layers(handles: BranchHandles | None, rods: Any, theme: Theme) -> list[Primitive]:
    """Dashed rod previews, arrows and labels of the ways on (roles :data:`BRANCH_ROLES`)."""
    if handles is None:
        return []
    ends = np.asarray(rods, dtype=np.int64).reshape(-1, 2)
    palette = theme.branch_colors
    colors = tuple(palette[int(j) % len(palette)] for j in handles.lines)
    items: list[Primitive] = []
    if len(ends):
        segs = handles.previews[:, ends].reshape(-1, 2, 2)  # (2k * m, 2, 2)
        seg_colors = tuple(c for c in colors for _ in range(len(ends)))
        items.append(
            Segments(
                segs,
                seg_colors,
                theme.branch_preview_width,
                theme.branch_preview_alpha,
                (6.0, 4.0),
                "branch-previews",
            )  # fmt: skip
        )
    items.append(
        Arrows.from_vectors(
            handles.tails,
            handles.tips - handles.tails,
            color=colors,
            width=theme.branch_width,
            role="branches",
        )  # fmt: skip
    )
    items.append(
        Texts(
            handles.labels,
            _label_positions(handles, theme.branch_label_gap),
            theme.text,
            theme.font_size,
            bold=True,
            align="center",
            baseline="middle",
            role="branch-labels",
        )  # fmt: skip
    )
    return items
