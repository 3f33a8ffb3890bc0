r"""Angle coordinates of a linkage: a rod's direction, the angle at a joint, a hinge's angle.

A configuration chart plots a placement by two angles. :class:`AngleCoordinate` is one
such angle, a smooth function of the positions with its gradient (for Newton's method
and continuation). :func:`angle_coordinates` lists the candidates of a linkage: in the
plane the rods at a pinned joint (cranks, rockers) first; in space the dihedral angles
at its hinges (:mod:`._dihedral`: a rod with two triangles on it), those about a pinned
axis first. :func:`default_coordinates` picks two that vary independently along the
linkage's motion at its current placement.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.linalg as sla

from ..constraints import ConstraintSet
from ..model import Linkage
from ..rigidity import require_linkage
from ._dihedral import dihedral_gradient, dihedral_value
from ._dyads import depends_on, dyad_chain
from ._errors import ConfigurationError

__all__ = ["AngleCoordinate", "angle_coordinates", "default_coordinates"]

#: An angle varies along a flex when its rate is at least this (radians per unit of flex,
#: the flex normalised to unit length over the median rod).
_VARIES = 1e-6


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]


@dataclass(frozen=True)
class AngleCoordinate:
    r"""One angle of a placement, radians in :math:`(-\pi, \pi]`.

    Attributes
    ----------
    kind : {"direction", "joint", "dihedral"}
        ``"direction"``: the direction of the rod from ``vertices[0]`` to ``vertices[1]``,
        :math:`\operatorname{atan2}(p_j - p_i)`. ``"joint"``: the signed angle at apex
        ``vertices[0]`` from the rod to ``vertices[1]`` to the rod to ``vertices[2]``,
        :math:`\operatorname{atan2}(a \times b, a \cdot b)`. Both planar. ``"dihedral"``
        (space): the hinge angle about the rod ``vertices[0]→vertices[1]`` from joint
        ``vertices[2]`` to joint ``vertices[3]`` (:mod:`._dihedral`).
    vertices : tuple of int
    label : str
        For axes, e.g. ``"direction of rod 0→1"``, ``"angle at 2 (1, 3)"`` or
        ``"dihedral at rod 0–1 (2→6)"``.
    """

    kind: str
    vertices: tuple[int, ...]
    label: str = ""

    def __post_init__(self) -> None:
        size = {"direction": 2, "joint": 3, "dihedral": 4}.get(self.kind)
        if size is None or len(self.vertices) != size or len(set(self.vertices)) != size:
            raise ConfigurationError(
                f"an angle coordinate is a 'direction' (2 distinct vertices), a 'joint' "
                f"(3) or a 'dihedral' (4); got {self.kind!r} with {self.vertices}"
            )
        if not self.label:
            v = self.vertices
            if size == 2:
                text = f"direction of rod {v[0]}→{v[1]}"
            elif size == 3:
                text = f"angle at {v[0]} {v[1:]}"
            else:
                text = f"dihedral at rod {v[0]}–{v[1]} ({v[2]}→{v[3]})"
            object.__setattr__(self, "label", text)

    def _arms(self, p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        v = self.vertices
        if self.kind == "direction":
            return np.broadcast_to([1.0, 0.0], p[..., 0, :].shape), p[..., v[1], :] - p[
                ..., v[0], :
            ]
        return p[..., v[1], :] - p[..., v[0], :], p[..., v[2], :] - p[..., v[0], :]

    def value(self, positions: Any) -> np.ndarray:
        """The angle at placements ``(..., n, d)``, shape ``(...)``."""
        if self.kind == "dihedral":
            return dihedral_value(np.asarray(positions, np.float64), self.vertices)
        a, b = self._arms(np.asarray(positions, np.float64))
        return np.arctan2(_cross(a, b), (a * b).sum(axis=-1))

    def gradient(self, positions: Any) -> np.ndarray:
        r"""Its derivative with respect to the positions, shape ``(..., n, d)``.

        For an arm :math:`b` the angle's gradient is :math:`b^\perp / |b|^2` with
        :math:`b^\perp = (-b_y, b_x)`; a dihedral's is in :mod:`._dihedral`.
        """
        p = np.asarray(positions, np.float64)
        if self.kind == "dihedral":
            return dihedral_gradient(p, self.vertices)
        a, b = self._arms(p)
        out = np.zeros_like(p)
        v = self.vertices
        db = np.stack([-b[..., 1], b[..., 0]], axis=-1) / (b * b).sum(axis=-1)[..., None]
        if self.kind == "direction":
            out[..., v[1], :] += db
            out[..., v[0], :] -= db
            return out
        da = np.stack([-a[..., 1], a[..., 0]], axis=-1) / (a * a).sum(axis=-1)[..., None]
        out[..., v[2], :] += db
        out[..., v[1], :] -= da
        out[..., v[0], :] += da - db
        return out


def _rigid_bodies(linkage: Linkage) -> list[int]:
    """A body label per rod: rods tied by a fixed angle share one (union-find)."""
    parent = list(range(linkage.n_rods))

    def root(r: int) -> int:
        while parent[r] != r:
            parent[r] = parent[parent[r]]
            r = parent[r]
        return r

    for apex, j, k in linkage.angles.tolist():
        a, b = linkage.find_rod(apex, j), linkage.find_rod(apex, k)
        if a is not None and b is not None:
            parent[root(a)] = root(b)
    return [root(r) for r in range(linkage.n_rods)]


def _hinges(linkage: Linkage) -> list[AngleCoordinate]:
    """Every dihedral of a 3-D linkage: a rod and two joints joined to both its ends.

    Rods with both ends pinned (a fixed hinge axis, like a crank's pivot) first.
    """
    pinned = set(linkage.pinned.tolist())
    fixed, moving = [], []
    for i, j in linkage.rods.tolist():
        leaves = sorted(set(linkage.neighbors(i).tolist()) & set(linkage.neighbors(j).tolist()))
        out = fixed if i in pinned and j in pinned else moving
        out += [
            AngleCoordinate("dihedral", (i, j, k, q))
            for n, k in enumerate(leaves)
            for q in leaves[n + 1 :]
        ]
    return fixed + moving


def _space_coordinates(linkage: Linkage) -> list[AngleCoordinate]:
    """The dihedrals of :func:`_hinges` that move here, one per hinge and rate.

    A dihedral inside a rigid part (a tetrahedron's) never moves: it is left out. Of the
    dihedrals about one rod that turn at the same rate (leaves on the same two bodies),
    the first is kept: the others differ from it by a constant.
    """
    candidates = _hinges(linkage)
    flexes = _internal_flexes(linkage)
    scale = float(np.median(linkage.rod_lengths())) if linkage.n_rods else 1.0
    kept: list[tuple[AngleCoordinate, np.ndarray]] = []
    for c in candidates:
        rate = flexes @ c.gradient(linkage.vertices).reshape(-1) * scale
        if np.abs(rate).max(initial=0.0) <= _VARIES:
            continue
        if not any(
            k.vertices[:2] == c.vertices[:2] and np.abs(np.abs(r) - np.abs(rate)).max() <= _VARIES
            for k, r in kept
        ):
            kept.append((c, rate))
    return [c for c, _ in kept]


def angle_coordinates(linkage: Linkage) -> list[AngleCoordinate]:
    """Candidate angle coordinates of ``linkage``, the most natural first.

    In the plane: directions of rods with exactly one pinned end, measured from that end
    (cranks and rockers); then the angle between each pair of consecutive rods at every
    joint without a fixed angle there; then the directions of the remaining rods. A rod
    tied by fixed angles to a rod listed before it (one rigid bar) is not listed again:
    its direction differs by a constant. In space: the dihedral angles that move at the
    current placement (:func:`_space_coordinates`), those about a pinned axis first.
    """
    if require_linkage(linkage, "angle_coordinates").dim == 3:
        return _space_coordinates(linkage)
    pinned = set(linkage.pinned.tolist())
    body = _rigid_bodies(linkage)
    cranks, others, seen = [], [], set()
    for r, (i, j) in enumerate(linkage.rods.tolist()):
        if body[r] in seen:  # a fixed angle ties it to a rod listed already: same direction
            continue
        seen.add(body[r])
        if (i in pinned) != (j in pinned):
            root, tip = (i, j) if i in pinned else (j, i)
            cranks.append(AngleCoordinate("direction", (root, tip)))
        elif not (i in pinned and j in pinned):
            others.append(AngleCoordinate("direction", (i, j)))
    fixed = {(int(a), int(min(b, c)), int(max(b, c))) for a, b, c in linkage.angles.tolist()}
    joints = []
    for apex in range(linkage.n_vertices):
        arms = sorted(int(v) for v in linkage.neighbors(apex))
        for j, k in zip(arms, arms[1:], strict=False):
            if (apex, j, k) not in fixed:
                joints.append(AngleCoordinate("joint", (apex, j, k)))
    return cranks + joints + others


def _internal_flexes(linkage: Linkage) -> np.ndarray:
    """Orthonormal infinitesimal flexes at the current placement, ``(k, d n)`` (pinned)."""
    a = ConstraintSet.from_linkage(linkage).jacobian(linkage.vertices).toarray()
    if a.shape[0] == 0:
        return np.eye(a.shape[1])
    return sla.null_space(a, rcond=1e-9).T


def _telling_apart(linkage: Linkage, candidates: list[AngleCoordinate]) -> AngleCoordinate:
    """The first candidate whose joints move with every dyad's mode (else the first).

    On a crank with dyads (:func:`._dyads.dyad_chain`), an angle that only joints placed
    early depend on is the same on branches that differ in a later dyad's mode: those
    branches would be drawn on top of each other (Jansen's leg in the crank and the
    rocker 1→3 showed 12 curves for its 24 branches; the foot's flip moves neither).
    """
    chain = dyad_chain(linkage)
    if chain is None:
        return candidates[0]
    deps, every = depends_on(chain), set(range(len(chain.dyads)))
    for c in candidates:
        if set().union(*(deps.get(v, set()) for v in c.vertices)) == every:
            return c
    return candidates[0]


def default_coordinates(linkage: Linkage) -> tuple[AngleCoordinate, AngleCoordinate]:
    """Two candidates of :func:`angle_coordinates` that move independently.

    With one internal degree of freedom: the first two whose rates along the flex are
    nonzero (a crank and the output rocker of a four-bar); on a crank with dyads the
    second is the first such angle that every dyad's assembly mode moves, so that no
    two branches are drawn on top of each other (Jansen's leg: the angle at 6 between 5
    and 7, the foot's triangle). With two: the first pair whose 2x2 rate matrix on the
    flexes is regular (the two cranks of a five-bar).

    Raises
    ------
    ConfigurationError
        When no such pair exists (a rigid linkage, or one whose angles do not move).
    """
    flexes = _internal_flexes(require_linkage(linkage, "default_coordinates"))
    candidates = angle_coordinates(linkage)
    p = linkage.vertices
    scale = float(np.median(linkage.rod_lengths())) if linkage.n_rods else 1.0
    rates = np.array([c.gradient(p).reshape(-1) @ flexes.T for c in candidates]) * scale
    rates = rates.reshape(len(candidates), len(flexes))
    if len(flexes) == 1:
        moving = [candidates[k] for k in range(len(candidates)) if abs(rates[k, 0]) > _VARIES]
        if len(moving) >= 2:
            return moving[0], _telling_apart(linkage, moving[1:])
    elif len(flexes) == 2:
        for i in range(len(candidates)):
            for j in range(i + 1, len(candidates)):
                if abs(np.linalg.det(rates[[i, j]])) > _VARIES:
                    return candidates[i], candidates[j]
    if linkage.dim == 3:
        raise ConfigurationError(
            "in space the panel charts hinge (dihedral) angles: the angle about a rod between "
            "two joints joined to both its ends; this linkage has "
            f"{len(candidates)} such angle(s) that move here, and needs two that move "
            "independently"
        )
    raise ConfigurationError(
        f"no two angles of this linkage move independently along its {len(flexes)} "
        "infinitesimal motion(s) here; pick the angle coordinates explicitly"
    )
