r"""The dihedral (hinge) angle of four joints in space, and its gradient.

In space a rod's direction is two angles and the angle between two rods has no sign, so
neither charts a motion well. The angle that does is the one a door turns through: rod
:math:`i \to j` is the hinge's axis :math:`e = p_j - p_i`, and joints :math:`k` and
:math:`l` sit on two leaves hinged there (triangles :math:`ijk` and :math:`ijl`). With
:math:`a = p_k - p_i`, :math:`b = p_l - p_i` and :math:`\hat e = e / |e|`, the signed
angle from leaf :math:`k` to leaf :math:`l`, right-handed about :math:`\hat e`, is

.. math:: \psi = \operatorname{atan2}\big(\hat e \cdot (a \times b),\;
          a \cdot b - (\hat e \cdot a)(\hat e \cdot b)\big) \in (-\pi, \pi],

the angle between the projections of :math:`a` and :math:`b` on the plane normal to the
axis. Turning leaf :math:`k` by :math:`\delta` about the axis lowers :math:`\psi` by
:math:`\delta`; joint :math:`k` then moves :math:`\delta\,\hat e \times a`, so with
:math:`m = e \times a`, :math:`n = e \times b`

.. math:: \nabla_{p_k}\psi = -\frac{|e|}{|m|^2}\,m, \qquad
          \nabla_{p_l}\psi = \frac{|e|}{|n|^2}\,n ,

and, :math:`\psi` being unchanged by a rigid motion (forces balance, moments balance about
:math:`p_i`), with :math:`s_k = a \cdot e / |e|^2`, :math:`s_l = b \cdot e / |e|^2`

.. math:: \nabla_{p_j}\psi = -s_k \nabla_{p_k}\psi - s_l \nabla_{p_l}\psi, \qquad
          \nabla_{p_i}\psi = -\nabla_{p_j}\psi - \nabla_{p_k}\psi - \nabla_{p_l}\psi .

A leaf lying along the axis (:math:`m = 0`) has no dihedral angle; its gradient is 0 there.
"""

from __future__ import annotations

import numpy as np

__all__ = ["dihedral_gradient", "dihedral_value"]


def _arms(p: np.ndarray, v: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    base = p[..., v[0], :]
    return p[..., v[1], :] - base, p[..., v[2], :] - base, p[..., v[3], :] - base


def dihedral_value(p: np.ndarray, v: tuple[int, ...]) -> np.ndarray:
    """The dihedral angle about rod ``v[0]→v[1]`` from joint ``v[2]`` to ``v[3]``, ``(...)``.

    ``p``: placements ``(..., n, 3)``.
    """
    e, a, b = _arms(p, v)
    u = e / np.linalg.norm(e, axis=-1, keepdims=True)
    sine = (u * np.cross(a, b)).sum(axis=-1)
    cosine = (a * b).sum(axis=-1) - (u * a).sum(axis=-1) * (u * b).sum(axis=-1)
    return np.arctan2(sine, cosine)


def _over(v: np.ndarray, e_len: np.ndarray) -> np.ndarray:
    """``|e| v / |v|^2``, 0 where ``v`` vanishes (a leaf along the axis)."""
    sq = (v * v).sum(axis=-1, keepdims=True)
    return np.divide(e_len * v, sq, out=np.zeros_like(v), where=sq > 0.0)


def dihedral_gradient(p: np.ndarray, v: tuple[int, ...]) -> np.ndarray:
    """Its gradient with respect to the placements ``(..., n, 3)`` (module docstring)."""
    e, a, b = _arms(p, v)
    e_len = np.linalg.norm(e, axis=-1, keepdims=True)
    gk = -_over(np.cross(e, a), e_len)
    gl = _over(np.cross(e, b), e_len)
    sk = (a * e).sum(axis=-1, keepdims=True) / e_len**2
    sl = (b * e).sum(axis=-1, keepdims=True) / e_len**2
    gj = -sk * gk - sl * gl
    out = np.zeros_like(p)
    out[..., v[2], :] += gk
    out[..., v[3], :] += gl
    out[..., v[1], :] += gj
    out[..., v[0], :] -= gj + gk + gl
    return out
