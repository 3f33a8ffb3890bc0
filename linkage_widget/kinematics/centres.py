r"""Bodies of a mechanism and the instant centre of every pair of them.

A *body* is a rigid cluster: rods that move as one rigid body in every infinitesimal
motion the linkage allows at a generic placement (a triangle's three rods, two rods
held at a fixed angle).
Each rod's rigid motion is a linear function of the joint velocities :math:`v`: with
:math:`d = p_b - p_a` and :math:`J` the quarter turn,

.. math:: \omega = \frac{d \times (v_b - v_a)}{|d|^2}, \qquad
          t_0 = v_a - \omega J p_a, \qquad v(x) = t_0 + \omega J x ,

so two rods are one body when their :math:`(t_0, \omega)` agree on every vector of a
basis of the flexes (:math:`\ker A`). The *ground* (body 0) is the cluster that does not
move: the pinned joints and the rods between them. The block of a slider is a body of
its own that slides without turning (:math:`\omega = 0`, :math:`t_0 = v_j`); the block
of a slot :math:`(a, b, c)` slides along the line :math:`a b` and turns with it
(:math:`\omega` the line's, :math:`t_0 = v_c - \omega J p_c`).

The instant centre of bodies :math:`i` and :math:`j` is the point with no velocity in
their relative motion, :math:`\Delta t_0 + \Delta\omega\,J x = 0`; in homogeneous
coordinates

.. math:: I_{ij} = (-\Delta t_{0,y},\ \Delta t_{0,x},\ \Delta\omega),

a point at infinity (the direction perpendicular to :math:`\Delta t_0`) when the
relative motion is a translation. It comes from the velocity field in general, for any
number of bodies; Kennedy's theorem (the three centres of any three bodies lie on one
line) is then a property it has, checked in the tests, not an assumption it uses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..constraints import ConstraintSet
from ..model import Linkage
from ..rigidity import RANK_RTOL

__all__ = ["Bodies", "InstantCentres", "bodies", "instant_centres"]

#: Two rods are one body when their rigid motions differ by at most this fraction of the
#: largest over a unit basis of flexes (a rank-rule scale: flexes are exact to ~1e-12).
SAME_MOTION = 1e-6


@dataclass(frozen=True)
class Bodies:
    """The rigid clusters of a linkage: body 0 is the ground.

    Attributes
    ----------
    joints : tuple of tuple of int
        The joints of each body (a joint shared by two bodies is the pin between them).
    rods : tuple of tuple of int
        The rod indices of each body (the ground's: rods between pinned joints; none
        for a block).
    blocks : tuple of (str, int)
        What each body is: ``("ground", -1)``, ``("link", -1)``, or the block of slider
        ``s`` ``("slider", s)`` or of slot ``t`` ``("slot", t)``.
    """

    joints: tuple[tuple[int, ...], ...]
    rods: tuple[tuple[int, ...], ...]
    blocks: tuple[tuple[str, int], ...] = ()

    def __len__(self) -> int:
        return len(self.joints)

    def of_rod(self, r: int) -> int:
        """The body rod ``r`` belongs to."""
        return next(b for b, rods in enumerate(self.rods) if r in rods)


def _generic(linkage: Linkage) -> tuple[np.ndarray, np.ndarray]:
    """A generic nearby placement ``(n, 2)`` and an orthonormal basis of its flexes ``(2n, f)``.

    Bodies are a property of the structure, not of the placement: at a special one (a
    crank along the ground line) the coupler and the rocker of a four-bar share one
    instantaneous motion, yet are two bodies. A small seeded jitter of every joint (the
    rows measure their targets there) makes the placement generic.
    """
    cs = ConstraintSet.from_linkage(linkage)
    jitter = np.random.default_rng(0).normal(size=linkage.vertices.shape)
    p = linkage.vertices + 0.01 * cs.length_scale * jitter
    a = ConstraintSet.from_linkage(linkage, p).jacobian(p).toarray()
    if not a.size:
        return p, np.eye(2 * linkage.n_vertices)
    _, s, vt = np.linalg.svd(a, full_matrices=True)
    rank = int(np.sum(s > RANK_RTOL * s[0]))
    return p, vt[rank:].T


def rod_motions(p: np.ndarray, v: np.ndarray, rods: np.ndarray) -> np.ndarray:
    r"""Rigid motion :math:`(t_{0x}, t_{0y}, \omega)` of each rod, ``(m, 3, ...)``.

    ``p`` ``(n, 2)``; ``v`` ``(n, 2)`` or ``(n, 2, f)`` (a velocity per column).
    """
    d = p[rods[:, 1]] - p[rods[:, 0]]
    dv = v[rods[:, 1]] - v[rods[:, 0]]
    sq = (d * d).sum(axis=1)
    shape = (-1,) + (1,) * (v.ndim - 2)
    omega = (d[:, 0].reshape(shape) * dv[:, 1] - d[:, 1].reshape(shape) * dv[:, 0]) / sq.reshape(
        shape
    )
    pa = p[rods[:, 0]]
    tx = v[rods[:, 0], 0] + omega * pa[:, 1].reshape(shape)
    ty = v[rods[:, 0], 1] - omega * pa[:, 0].reshape(shape)
    return np.stack([tx, ty, omega], axis=1)


def bodies(linkage: Linkage) -> Bodies:
    """The rigid clusters of ``linkage`` at its placement, the ground first.

    >>> from linkage_widget import Linkage
    >>> four_bar = Linkage([[0, 0], [1, 0], [3, 2], [4, 0]],
    ...                    rods=[(0, 1), (1, 2), (2, 3)], pinned=[0, 3])
    >>> bodies(four_bar).joints
    ((0, 3), (0, 1), (1, 2), (2, 3))
    """
    rods = linkage.rods
    if linkage.dim != 2:
        raise ValueError("bodies: instant centres are planar; this linkage is 3-D")
    p, flex = _generic(linkage)
    flex = flex.reshape(linkage.n_vertices, 2, -1)
    motion = rod_motions(p, flex, rods).reshape(len(rods), -1)
    motion[:, : 2 * flex.shape[2]] /= ConstraintSet.from_linkage(linkage).length_scale
    tol = SAME_MOTION * max(float(np.abs(motion).max(initial=0.0)), 1.0)
    groups: list[list[int]] = [[]]  # the ground first
    for r in range(len(rods)):
        if np.abs(motion[r]).max(initial=0.0) <= tol:
            groups[0].append(r)
            continue
        same = [g for g in groups[1:] if np.abs(motion[g[0]] - motion[r]).max() <= tol]
        if same:
            same[0].append(r)
        else:
            groups.append([r])
    ground = set(linkage.pinned.tolist()) | set(rods[groups[0]].reshape(-1).tolist())
    joints = [tuple(sorted(ground))]
    joints += [tuple(sorted(set(rods[g].reshape(-1).tolist()))) for g in groups[1:]]
    blocks = [("ground", -1)] + [("link", -1)] * (len(groups) - 1)
    for s, slider in enumerate(linkage.sliders):
        joints.append((int(slider.joint),))
        blocks.append(("slider", s))
    for t, slot in enumerate(linkage.slots.tolist()):
        joints.append((int(slot[2]),))
        blocks.append(("slot", t))
    rod_sets = [tuple(g) for g in groups] + [()] * (len(joints) - len(groups))
    return Bodies(tuple(joints), tuple(rod_sets), tuple(blocks))


def body_motions(linkage: Linkage, of: Bodies, p: np.ndarray, v: np.ndarray) -> np.ndarray:
    r"""Each body's rigid motion :math:`(t_{0x}, t_{0y}, \omega)`, ``(b, 3)``: the ground's 0."""
    motions = np.zeros((len(of), 3))
    for b, (kind, index) in enumerate(of.blocks or (("link", -1),) * len(of)):
        if kind == "link" and b > 0:
            motions[b] = rod_motions(p, v, linkage.rods[list(of.rods[b][:1])])[0]
        elif kind == "slider":
            motions[b, :2] = v[linkage.sliders[index].joint]
        elif kind == "slot":
            a, e, c = linkage.slots[index]
            line = rod_motions(p, v, np.array([[a, e]]))[0]
            motions[b] = [v[c, 0] + line[2] * p[c, 1], v[c, 1] - line[2] * p[c, 0], line[2]]
    return motions


@dataclass(frozen=True, eq=False)
class InstantCentres:
    r"""The instant centre of every pair of bodies at one placement.

    Attributes
    ----------
    bodies : Bodies
    homogeneous : ndarray, shape (b, b, 3)
        :math:`I_{ij}` in homogeneous coordinates :math:`(x w, y w, w)`; antisymmetric in
        :math:`i, j` (the point is the same); zero on the diagonal.
    motions : ndarray, shape (b, 3)
        Each body's rigid motion :math:`(t_{0x}, t_{0y}, \omega)` (the ground's is zero).
    """

    bodies: Bodies
    homogeneous: np.ndarray
    motions: np.ndarray

    @property
    def at_infinity(self) -> np.ndarray:
        """``(b, b)`` bool: the pairs whose relative motion is a translation (off-diagonal)."""
        h = self.homogeneous
        size = np.hypot(h[..., 0], h[..., 1])
        far = np.abs(h[..., 2]) <= SAME_MOTION * size
        return far & ~np.eye(len(h), dtype=bool)

    @property
    def points(self) -> np.ndarray:
        """``(b, b, 2)`` the centres; NaN on the diagonal and for centres at infinity."""
        h = self.homogeneous
        with np.errstate(divide="ignore", invalid="ignore"):
            pts = h[..., :2] / h[..., 2:]
        pts[self.at_infinity | np.eye(len(h), dtype=bool)] = np.nan
        return pts


def instant_centres(
    linkage: Linkage, positions: Any, velocities: Any, of: Bodies | None = None
) -> InstantCentres:
    r"""The instant centres of every pair of bodies of ``linkage`` moving with ``velocities``.

    Parameters
    ----------
    linkage : Linkage
        Its rods and pins say what the bodies are (:func:`bodies`, at its own placement,
        unless ``of`` is given).
    positions, velocities : array_like, shape (n, 2)
        A placement and a velocity of the joints there, e.g. ``k.positions[i]`` and
        ``k.velocities[i]`` of :func:`~linkage_widget.kinematics.kinematics`.
    of : Bodies, optional

    Examples
    --------
    >>> from linkage_widget import Linkage
    >>> from linkage_widget.kinematics import kinematics
    >>> four_bar = Linkage([[0, 0], [1, 0], [3, 2], [4, 0]],
    ...                    rods=[(0, 1), (1, 2), (2, 3)], pinned=[0, 3])
    >>> k = kinematics(four_bar, 0, 1, [0.0])
    >>> ic = instant_centres(four_bar, k.positions[0], k.velocities[0])
    >>> (ic.points[[0, 1], [1, 2]].round(12) + 0.0).tolist()  # the crank's pivot, its pin
    [[0.0, 0.0], [1.0, 0.0]]
    """
    of = bodies(linkage) if of is None else of
    p = np.asarray(positions, dtype=np.float64).reshape(-1, 2)
    v = np.asarray(velocities, dtype=np.float64).reshape(-1, 2)
    motions = body_motions(linkage, of, p, v)
    dt = motions[:, None, :] - motions[None, :, :]
    homogeneous = np.stack([-dt[..., 1], dt[..., 0], dt[..., 2]], axis=-1)
    return InstantCentres(of, homogeneous, motions)
