r"""The rows of sliders and slots: a joint held on a line (planar).

Part of the constraint math (:mod:`linkage_widget.constraints`, whose face lists every
row); :class:`~linkage_widget.constraints.ConstraintSet` puts these rows after the pins
and before the drive rows. Both rows are lengths (a distance from the line), like a
pin's, and their gradients are unit-free:

* slider: joint :math:`j` on the ground line through :math:`P` along the unit :math:`u`,
  :math:`n = (-u_y, u_x)`:

  .. math:: g = n \cdot (p_j - P) - h_0, \qquad \nabla_{p_j} g = n

  (linear in the coordinates; :math:`h_0` is the offset at the positions the set is
  built at: round-off, the model keeps a slider's joint on its line);
* slot :math:`(a, b, c)`: joint :math:`c` on the line through :math:`a` and :math:`b`,
  with :math:`e = p_b - p_a`, :math:`w = p_c - p_a` and :math:`L_0 = |e|` when built:

  .. math:: g = \frac{e \times w}{L_0} - h_0, \quad
            \nabla_{p_c} g = \frac{(-e_y, e_x)}{L_0}, \quad
            \nabla_{p_b} g = \frac{(w_y, -w_x)}{L_0}, \quad
            \nabla_{p_a} g = -\nabla_{p_b} g - \nabla_{p_c} g

  (quadratic: seed 003's (16b); two slots on one axis give its (16a) as well, the
  prismatic joint). The model keeps :math:`c` on the line (:math:`h_0` is round-off),
  so near the set the row is the distance from the line times :math:`|e|/L_0`.

>>> import numpy as np
>>> rows = GuideRows.build(np.array([[0.0, 0.0], [2.0, 0.0], [1.0, 0.5]]),
...                        [1], [[0.0, 0.0]], [[1.0, 0.0]], [[0, 1, 2]])
>>> rows.residuals(np.array([[0.0, 0.0], [2.0, 0.3], [1.0, 0.5]])).round(3).tolist()
[0.3, -0.15]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._checks import row_norms

__all__ = ["GuideRows"]


@dataclass(frozen=True, eq=False)
class GuideRows:
    r"""Slider and slot rows with their targets (see the module docstring).

    Attributes
    ----------
    joints : ndarray of int, shape (s,)
    points, normals : ndarray, shape (s, 2)
        A point of each slider's line and its unit normal :math:`n`.
    offsets : ndarray, shape (s,)
        :math:`h_0` of each slider.
    slots : ndarray of int, shape (t, 3)
    slot_lengths, slot_offsets : ndarray, shape (t,)
        :math:`L_0` and :math:`h_0` of each slot.
    """

    joints: np.ndarray
    points: np.ndarray
    normals: np.ndarray
    offsets: np.ndarray
    slots: np.ndarray
    slot_lengths: np.ndarray
    slot_offsets: np.ndarray

    @classmethod
    def build(
        cls, p: np.ndarray, joints: Any, points: Any, directions: Any, slots: Any
    ) -> GuideRows:
        """Rows at positions ``p`` ``(n, 2)``: offsets and slot lengths measured there."""
        joints = np.asarray(joints, dtype=np.int64).reshape(-1)
        points = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        u = np.asarray(directions, dtype=np.float64).reshape(-1, 2)
        normals = np.column_stack([-u[:, 1], u[:, 0]])
        offsets = ((p[joints] - points) * normals).sum(axis=1)
        slots = np.asarray(slots, dtype=np.int64).reshape(-1, 3)
        e = p[slots[:, 1]] - p[slots[:, 0]]
        w = p[slots[:, 2]] - p[slots[:, 0]]
        lengths = row_norms(e)
        cross = e[:, 0] * w[:, 1] - e[:, 1] * w[:, 0]
        return cls(joints, points, normals, offsets, slots, lengths, cross / lengths)

    @classmethod
    def none(cls) -> GuideRows:
        """No slider, no slot."""
        z = np.zeros(0)
        return cls(np.zeros(0, np.int64), np.zeros((0, 2)), np.zeros((0, 2)), z,
                   np.zeros((0, 3), np.int64), z, z)  # fmt: skip

    @property
    def n_rows(self) -> int:
        """One row per slider and per slot."""
        return len(self.joints) + len(self.slots)

    def residuals(self, pts: np.ndarray) -> np.ndarray:
        """Scaled residuals (distances from the lines), shape ``(n_rows,)``."""
        g_slide = ((pts[self.joints] - self.points) * self.normals).sum(axis=1) - self.offsets
        t = self.slots
        e = pts[t[:, 1]] - pts[t[:, 0]]
        w = pts[t[:, 2]] - pts[t[:, 0]]
        g_slot = (e[:, 0] * w[:, 1] - e[:, 1] * w[:, 0]) / self.slot_lengths - self.slot_offsets
        return np.concatenate([g_slide, g_slot])

    def jacobian_values(self, pts: np.ndarray) -> np.ndarray:
        """Non-zeros in the order of :meth:`pattern`: a slider's 2, a slot's 6 (a, b, c)."""
        t = self.slots
        e = pts[t[:, 1]] - pts[t[:, 0]]
        w = pts[t[:, 2]] - pts[t[:, 0]]
        inv = 1.0 / self.slot_lengths[:, None]
        gc = inv * np.column_stack([-e[:, 1], e[:, 0]])
        gb = inv * np.column_stack([w[:, 1], -w[:, 0]])
        slot = np.column_stack([-gb - gc, gb, gc]).reshape(-1)
        return np.concatenate([self.normals.reshape(-1), slot])

    def pattern(self, first: int) -> tuple[np.ndarray, np.ndarray]:
        """Row and column indices of the non-zeros, rows numbered from ``first``."""
        s, t = len(self.joints), self.slots
        s_rows = np.repeat(first + np.arange(s), 2)
        s_cols = (2 * self.joints[:, None] + np.arange(2)).reshape(-1)
        t_rows = np.repeat(first + s + np.arange(len(t)), 6)
        t_cols = (2 * t[:, :, None] + np.arange(2)).reshape(-1)
        rows = np.concatenate([s_rows, t_rows]).astype(np.int64)
        return rows, np.concatenate([s_cols, t_cols]).astype(np.int64)

    def kinds(self) -> list[str]:
        """``"slider"`` per slider row, then ``"slot"`` per slot row."""
        return ["slider"] * len(self.joints) + ["slot"] * len(self.slots)
