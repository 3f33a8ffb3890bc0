r"""Ghosts: other placements of the linkage shown faint, and a jump to one of them.

A rigid framework can have other placements with the same rod lengths (a triangle
folded over a rod; the real realizations of a Laman graph): the session shows them as
*ghosts* under the linkage (:mod:`~linkage_widget.draw.member_layers`), and a jump puts
the linkage at one of them (one undo step). The set shown is kept whole, with the
placement the linkage was at: the ghosts drawn are the ones the linkage is not at now
(:meth:`Ghosts.shown`), so after a jump the placement left is a ghost, and after an undo
of it every ghost is back.

:class:`Ghosts` holds the placements, each ``(n, 2)``, moved rigidly onto the linkage
as it is when they are shown (:func:`aligned`: the pinned joints, or all joints, by
the best rotation and translation, no reflection, so a mirror image stays a mirror
image), with the lengths of the rods they were shown for: they are drawn only while
the linkage has the same joints and rods of the same lengths (:meth:`Ghosts.shown`),
so an edit that changes a length hides them and a motion that keeps every length
keeps them (they are still placements of that linkage).

>>> import numpy as np
>>> from linkage_widget import Linkage
>>> link = Linkage([[0, 0], [2, 0], [1, 1]], rods=[(0, 1), (1, 2), (0, 2)], pinned=[0, 1])
>>> g = Ghosts()  # the fold over the pinned rod: fitted on the pins, so it stays
>>> g.show([[[0, 0], [2, 0], [1, -1]]], link, "the fold")
'1 other placement shown: the fold (U: jump to it)'
>>> g.shown(link)[0].round(6).tolist()
[[0.0, 0.0], [2.0, 0.0], [1.0, -1.0]]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..model import Linkage

__all__ = ["GHOST_LENGTH_RTOL", "Ghosts", "aligned", "rod_lengths"]

#: Ghosts are drawn while every rod length is within this (relative) of theirs: a motion's
#: round-off keeps them, an edit of a length does not.
GHOST_LENGTH_RTOL = 1e-6


def rod_lengths(positions: np.ndarray, rods: np.ndarray) -> np.ndarray:
    """The rods' lengths at ``positions`` ``(n, d)``, shape ``(m,)``."""
    rods = np.asarray(rods, dtype=np.int64).reshape(-1, 2)
    return np.linalg.norm(positions[rods[:, 0]] - positions[rods[:, 1]], axis=1)


def aligned(placement: np.ndarray, current: np.ndarray, pinned: Any = ()) -> np.ndarray:
    r"""``placement`` ``(n, 2)`` moved by the rotation and translation that best fit ``current``.

    Fitted on the pinned joints when there are two or more, else on all: Kabsch's
    :math:`R = V \operatorname{diag}(1, \det(VU^T)) U^T` from the SVD
    :math:`U \Sigma V^T` of the centred cross-covariance :math:`A^T B` (a proper
    rotation: a reflected placement is not reflected back).
    """
    pinned = np.asarray(pinned, dtype=np.int64).reshape(-1)
    on = pinned if len(pinned) >= 2 else np.arange(len(current))
    a, b = placement[on], current[on]
    ca, cb = a.mean(axis=0), b.mean(axis=0)
    u, _, vt = np.linalg.svd((a - ca).T @ (b - cb))
    flip = np.diag([1.0, np.sign(np.linalg.det(vt.T @ u.T)) or 1.0])
    rotation = vt.T @ flip @ u.T
    return (placement - ca) @ rotation.T + cb


class Ghosts:
    """The other placements shown (module docstring); no reference to the session."""

    def __init__(self) -> None:
        self.placements: list[np.ndarray] = []
        self.label = ""
        self._next = 0  # the ghost U jumps to
        self._rods = np.zeros((0, 2), np.int64)
        self._lengths = np.zeros(0)

    def show(self, placements: Sequence[Any], linkage: Linkage, label: str = "") -> str:
        """Show ``placements`` (each ``(n, 2)``) of ``linkage``; none: clear. What to say.

        Raises ``ValueError`` naming the placement that is not ``(n, 2)`` and finite; the
        ghosts shown before stay.
        """
        current, n = linkage.vertices, linkage.n_vertices
        checked = []
        for k, p in enumerate(placements):
            arr = np.asarray(p, dtype=np.float64)
            if linkage.dim != 2 or arr.shape != (n, 2) or not np.isfinite(arr).all():
                raise ValueError(f"placement {k}: want a finite ({n}, 2) array of a planar linkage")
            checked.append(aligned(arr, current, linkage.pinned))
        whole = [current.copy(), *checked] if checked else []
        self.placements, self.label, self._next = whole, str(label), 0
        self._rods = linkage.rods.copy()
        self._lengths = rod_lengths(current, self._rods)
        if not checked:
            return "no other placements shown"
        count = f"{len(checked)} other placement{'s' * (len(checked) > 1)} shown"
        return f"{count}{': ' + label if label else ''} (U: jump to it)"

    def shown(self, linkage: Linkage) -> list[np.ndarray]:
        """The placements to draw now: ``[]`` unless the linkage's rods and lengths are theirs.

        The one the linkage is at now (every joint within the length tolerance) is left out.
        """
        if not self.placements or not np.array_equal(linkage.rods, self._rods):
            return []
        if self.placements[0].shape != linkage.vertices.shape:
            return []
        lengths = rod_lengths(linkage.vertices, self._rods)
        scale = max(float(self._lengths.max(initial=0.0)), 1.0)
        if not np.allclose(lengths, self._lengths, rtol=0.0, atol=GHOST_LENGTH_RTOL * scale):
            return []
        at = GHOST_LENGTH_RTOL * scale
        return [p for p in self.placements if not np.allclose(p, linkage.vertices, atol=at)]

    def jump(self, k: int | None, linkage: Linkage) -> tuple[int, np.ndarray]:
        """Ghost ``k`` of :meth:`shown` (``None``: the next) and its placement.

        The set is not changed: once the linkage is there, the placement it left is drawn.

        Raises ``IndexError`` when no ghost ``k`` is shown now.
        """
        shown = self.shown(linkage)
        k = self._next % max(len(shown), 1) if k is None else int(k)
        if not 0 <= k < len(shown):
            raise IndexError(f"no other placement {k} to jump to ({len(shown)} shown)")
        target = shown[k]
        self._next = k + 1  # U again: the next one (the one left is drawn in its place)
        return k, target.copy()
