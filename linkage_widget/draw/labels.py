r"""Joint labels: each joint's index (or name) beside it, off its rods where it can be.

The notebooks speak of "vertex 5" and of joints O, Q, A, B, D, C; a label puts that
name on the canvas. Each label goes in the one of eight directions round its joint
that is farthest, in angle, from the joint's rods:

.. math::
    k^* = \arg\min_k \max_{r \ni v} \; \hat c_k \cdot \hat d_r

with :math:`\hat c_k` the candidate directions (up-right first, so a free joint
gets the textbook place) and :math:`\hat d_r` the unit vectors along the rods at
joint :math:`v` (a pinned joint's support counts as a rod straight down). The
label's centre sits :math:`r_v + g + \tfrac12(|c_x| w + |c_y| h)` from the joint
(joint radius, gap, half the text box along the direction), so the box clears the
joint whatever the direction. All joints at once: one
``np.maximum.at`` over the rod ends.

Examples
--------
>>> import numpy as np
>>> from linkage_widget.draw.theme import DEFAULT_THEME
>>> P = np.array([[100.0, 100.0], [200.0, 100.0]])
>>> item = joint_labels(P, np.array([[0, 1]]), (), DEFAULT_THEME)[0]
>>> item.texts, item.role
(('0', '1'), 'labels')
>>> bool(item.positions[0, 0] < 200 and item.positions[1, 0] > 100)  # off the rod's line
True
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .primitives import Primitive, Texts
from .theme import Theme

__all__ = ["CANDIDATES", "joint_labels", "label_texts"]

#: Directions tried round a joint, in pixel axes (y down): up-right first, then round.
_ANGLES = np.deg2rad([-45.0, 45.0, 135.0, -135.0, -90.0, 0.0, 90.0, 180.0])
CANDIDATES = np.stack([np.cos(_ANGLES), np.sin(_ANGLES)], axis=1)  # (8, 2)


def label_texts(n: int, names: Sequence[str] = ()) -> tuple[str, ...]:
    """Each joint's label: its name when ``names`` gives one (non-empty), else its index.

    >>> label_texts(3, ("O", "", "A"))
    ('O', '1', 'A')
    """
    given = [str(x) for x in names][:n]
    given += [""] * (n - len(given))
    return tuple(name or str(i) for i, name in enumerate(given))


def _directions(P: np.ndarray, rod_ends: np.ndarray, pinned: np.ndarray) -> np.ndarray:
    """The chosen direction of each joint's label, shape (n, 2) (module docstring)."""
    n = len(P)
    worst = np.full((n, len(CANDIDATES)), -1.0)  # max cosine to a rod; -1: no rod
    down = CANDIDATES @ np.array([0.0, 1.0])  # the support triangle hangs below a pin
    worst[pinned] = np.maximum(worst[pinned], down)
    if len(rod_ends):
        d = P[rod_ends[:, 1]] - P[rod_ends[:, 0]]
        length = np.hypot(d[:, 0], d[:, 1])
        ok = length > 0
        u = d[ok] / length[ok, None]
        ends = rod_ends[ok]
        # Each rod leaves its first end along u and its second along -u.
        joints = np.concatenate([ends[:, 0], ends[:, 1]])
        dirs = np.concatenate([u, -u])
        np.maximum.at(worst, joints, dirs @ CANDIDATES.T)
    # Round so that near ties go to the earlier (preferred) direction.
    return CANDIDATES[np.argmin(np.round(worst, 6), axis=1)]


def joint_labels(
    P: np.ndarray,
    rod_ends: np.ndarray,
    names: Sequence[str],
    theme: Theme,
    pinned: Sequence[int] = (),
) -> list[Primitive]:
    """One label per joint beside it, on a halo, off the rods (module docstring).

    Parameters
    ----------
    P : ndarray, shape (n, 2)
        Joints in pixels.
    rod_ends : ndarray, shape (m, 2)
        Rods as joint index pairs.
    names : sequence of str
        Joint names (may be shorter than ``n`` or empty: indices fill in).
    theme : Theme
        ``label``, ``label_halo``, ``label_size``, ``label_gap``, ``tracked_radius``.
    pinned : sequence of int
        Pinned joints: their support is below them, so is not their label.
    """
    n = len(P)
    if n == 0:
        return []
    texts = label_texts(n, names)
    pins = np.asarray(pinned, dtype=np.intp).reshape(-1)
    c = _directions(P, rod_ends, pins[(pins >= 0) & (pins < n)])
    size = theme.label_size
    w = 0.6 * size * np.fromiter((len(t) for t in texts), dtype=np.float64, count=n)
    reach = (
        theme.tracked_radius
        + theme.label_gap
        + 0.5 * (np.abs(c[:, 0]) * w + np.abs(c[:, 1]) * size)
    )
    pos = P + c * reach[:, None]
    return [
        Texts(
            texts,
            pos,
            theme.label,
            size,
            theme.font,
            bold=True,
            align="center",
            baseline="middle",
            role="labels",
            halo=theme.label_halo,
        )
    ]
