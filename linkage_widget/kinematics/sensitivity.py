r"""Design sensitivity: how a tracked joint's path moves when a rod length or a pin moves.

The constraints :math:`g(p, \theta; q) = 0` (with the motor row) depend on the design
parameters :math:`q`: the rod lengths :math:`L_r` and the pin anchors :math:`a_i`.
By the implicit function theorem, at a crank angle held fixed,

.. math:: A\,\frac{\partial p}{\partial q} = -\frac{\partial g}{\partial q},

and the scaled rows of :mod:`linkage_widget.constraints` make the right-hand side a
unit vector: a rod row :math:`g = (|d|^2 - L^2)/(2L)` has
:math:`\partial g/\partial L = -(|d|^2 + L^2)/(2L^2) = -1` on the mechanism, a pin row
:math:`g = p_i - a_i` has :math:`\partial g/\partial a_i = -I`. So
:math:`\partial p/\partial L_r = A^{+} e_r`, the column of the pseudo-inverse for the
rod's row, and likewise for each pin coordinate (least squares where rows are redundant).

*Tolerance band.* With lengths within :math:`\pm\delta_r` of nominal, to first order the
tracked joint moves by :math:`\Delta p = \sum_r \varepsilon_r\, \partial p/\partial L_r`,
:math:`|\varepsilon_r| \le \delta_r`: a zonotope, whose extent across the path (along
its unit normal :math:`n`) is

.. math:: w = \sum_r \delta_r\,\Big|n\cdot\frac{\partial p}{\partial L_r}\Big| ,

reached at a corner of the box of tolerances (pin tolerances add their terms alike).
The band is the path :math:`\pm w\,n`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import _checks
from ..model import Linkage
from .driven import Kinematics, drive_of

__all__ = ["Sensitivity", "ToleranceBand", "sensitivity", "tolerance_band"]


@dataclass(frozen=True, eq=False)
class Sensitivity:
    r"""Derivatives of one joint's path with respect to the design, over a cycle.

    Attributes
    ----------
    joint : int
    lengths : ndarray, shape (k, m, 2)
        :math:`\partial p_{joint}/\partial L_r` per sample and rod (NaN where not valid).
    pins : ndarray, shape (k, q, 2, 2)
        :math:`\partial p_{joint}/\partial a_{i,c}`: sample, pin (``linkage.pinned``
        order), anchor coordinate ``c`` (x, y), then the joint's (x, y).
    """

    joint: int
    lengths: np.ndarray
    pins: np.ndarray


@dataclass(frozen=True, eq=False)
class ToleranceBand:
    """The first-order envelope of a tracked joint's path under length tolerances.

    Attributes
    ----------
    path : ndarray, shape (k, 2)
        The nominal path.
    normals : ndarray, shape (k, 2)
        Unit normals of the path (the velocity turned a quarter counter-clockwise); NaN
        where the joint stops (a cusp of the path), where the band has no direction.
    half_width : ndarray, shape (k,)
        :math:`w`, the largest first-order deviation across the path.
    """

    path: np.ndarray
    normals: np.ndarray
    half_width: np.ndarray

    @property
    def outer(self) -> np.ndarray:
        """``(k, 2)``: the path moved by ``+w`` along its normal."""
        return self.path + self.half_width[:, None] * self.normals

    @property
    def inner(self) -> np.ndarray:
        """``(k, 2)``: the path moved by ``-w`` along its normal."""
        return self.path - self.half_width[:, None] * self.normals


def sensitivity(linkage: Linkage, k: Kinematics, joint: int) -> Sensitivity:
    r"""The derivatives of ``joint``'s path over the cycle ``k`` in each rod length and pin.

    Examples
    --------
    >>> from linkage_widget import Linkage
    >>> from linkage_widget.kinematics import kinematics
    >>> four_bar = Linkage([[0, 0], [1, 0], [3, 2], [4, 0]],
    ...                    rods=[(0, 1), (1, 2), (2, 3)], pinned=[0, 3])
    >>> s = sensitivity(four_bar, kinematics(four_bar, 0, 1, [0.5]), 1)
    >>> s.lengths[0, 0].round(12).tolist() == np.round([np.cos(0.5), np.sin(0.5)], 12).tolist()
    True
    """
    j = _checks.vertex_index(joint, linkage.n_vertices, "tracked joint")
    cs = drive_of(linkage, k).cs
    kinds = cs.row_kinds()
    rod_rows = np.flatnonzero(kinds == "rod")
    pin_rows = np.flatnonzero(kinds == "pin")
    lengths = np.full((len(k), len(rod_rows), 2), np.nan)
    pins = np.full((len(k), len(pin_rows) // 2, 2, 2), np.nan)
    for i in np.flatnonzero(k.valid):
        pinv = np.linalg.pinv(cs.jacobian(k.positions[i].reshape(-1)).toarray())
        rows = pinv[2 * j : 2 * j + 2]  # the tracked joint's x, y
        lengths[i] = rows[:, rod_rows].T
        pins[i] = rows[:, pin_rows].T.reshape(-1, 2, 2)
    return Sensitivity(j, lengths, pins)


def _tolerances(values: Any, n: int, what: str) -> np.ndarray:
    """``values`` as ``n`` finite tolerances >= 0 (one for all, or one each)."""
    try:
        out = np.broadcast_to(np.asarray(values, dtype=np.float64), (n,))
    except ValueError:
        out = np.full(n, np.nan)
    if not np.isfinite(out).all() or (out < 0).any():
        raise ValueError(f"{what} tolerances must be finite and >= 0, one or one each ({n})")
    return out


def tolerance_band(
    linkage: Linkage, k: Kinematics, joint: int, tolerances: Any, *, pins: Any = 0.0
) -> ToleranceBand:
    r"""The band that ``joint``'s path stays in when rod lengths vary by ``± tolerances``.

    Parameters
    ----------
    linkage, k
        The mechanism and its cycle (:func:`~linkage_widget.kinematics.kinematics`).
    joint : int
        The tracked joint (a coupler point).
    tolerances : float or array_like, shape (m,)
        :math:`\delta_r \ge 0`, one for every rod or one per rod (lengths' units).
    pins : float or array_like, shape (q,), keyword-only
        :math:`\pm` on each coordinate of the pins' anchors (``linkage.pinned`` order),
        added to the band the same way: :math:`\sum_{i,c} \delta_i |n\cdot\partial
        p/\partial a_{i,c}|`.
    """
    s = sensitivity(linkage, k, joint)
    delta = _tolerances(tolerances, s.lengths.shape[1], "rod")
    pin_delta = _tolerances(pins, s.pins.shape[1], "pin")
    v = k.velocities[:, s.joint]
    speed = np.hypot(v[:, 0], v[:, 1])
    with np.errstate(invalid="ignore", divide="ignore"):
        normals = np.column_stack([-v[:, 1], v[:, 0]]) / speed[:, None]
    across = np.abs(np.einsum("kmc,kc->km", s.lengths, normals)) @ delta
    across += np.abs(np.einsum("kqac,kc->kqa", s.pins, normals)).sum(axis=2) @ pin_delta
    return ToleranceBand(k.positions[:, s.joint], normals, across)
