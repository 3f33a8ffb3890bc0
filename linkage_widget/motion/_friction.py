r"""Coulomb friction with a real stick phase: along pathways, and of the joints on the table.

Sliding (the seed's ``CoulombKineticFriction``)
    Along the pathway :math:`i`–:math:`j` with extension velocity :math:`u`, the
    expansile friction force is

    .. math:: f = -\Big(\big(\mu_k + (\mu_s - \mu_k)\,e^{-(u/v_s)^2}\big) N\,
              \operatorname{sign}(u) + \sigma u\Big),

    opposite to :math:`u` (Stribeck term only when :math:`v_s` is given; with
    :math:`\mu_s = \mu_k` it vanishes). Within a step :math:`\operatorname{sign}(u)` is the
    direction at the start of the step (the Stribeck and viscous terms follow
    :math:`u`): a Coulomb force that flipped inside a step would make the block creep
    back and forth; a reversal within the step is the stick event instead. The
    direction is kept *in the plane*, not along the pathway: :math:`s` refers to the
    pathway's unit vector :math:`e_0` at the start of the step, and at :math:`p` the
    force uses

    .. math:: s(p) = s\,\operatorname{sign}\big(e(p)\cdot e_0\big),

    so a pathway that passes through zero length within the step (the block sliding
    through its anchor: :math:`e` flips while the relative velocity does not) keeps
    pushing against the motion. Holding the scalar sign instead would push *with* the
    motion for the rest of that step, an :math:`O(h)` error in the velocity that made
    the rest position first-order accurate; with :math:`s(p)` the force is smooth in
    the plane through zero length and RATTLE stays second order. A joint
    sliding on the table feels
    :math:`-\mu N_i\,\dot p_i/|\dot p_i|` with :math:`N_i = m_i g_n`, :math:`m_i` its
    lumped mass (the row sum of :math:`M`) and :math:`g_n = |g|`, or 1 when
    :math:`g = 0` (then :math:`\mu` is a deceleration). Both are explicit forces of
    the RATTLE step. Friction dissipates: it is no part of the potential energy.

Sticking
    A sliding element whose speed reverses within a step (:math:`u_{n+1}\,s \le 0`,
    :math:`s` the direction it was sliding in) sticks: it becomes a temporary
    bilateral constraint — the pathway's length frozen like a rod, a joint held like
    a pin — and the velocities are projected onto the motions it allows. The
    projection is accepted only when the kinetic energy it removes is at most the
    work friction could have done in the step (a block that stops loses
    :math:`\tfrac12 m u_{n+1}^2 \le \mu N |u_{n+1}| h`); a rocker joint reversing in
    a swinging mechanism does not stick, because stopping it would stop everything.
    While stuck, the constraint's multiplier (from the acceleration-level solve at
    the start of each step) is the friction force needed to hold it; the element
    releases when that exceeds the static limit :math:`\mu_s N` (table:
    :math:`\mu N_i`), and then slides in the direction the multiplier pulled, at
    first with the full static force. A stopped mass therefore stays exactly where it
    is (no chatter, no creep), and starts only when the driving force exceeds the
    static limit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from .._checks import row_norms
from ._actuators import scalar

__all__ = [
    "FrictionPath",
    "StickState",
    "joint_friction",
    "oriented_signs",
    "path_axes",
    "path_speeds",
]


@dataclass(frozen=True)
class FrictionPath:
    r"""A path friction element as the steps use it: ``CoulombKineticFriction`` along ``i``–``j``.

    Built from a checked :class:`~linkage_widget.elements.PathFriction` (which holds the
    parameters and their meaning): ``normal_force`` :math:`N \ge 0`; ``mu_k``, ``mu_s``
    (default ``mu_k``) with :math:`\mu_s \ge \mu_k \ge 0`; ``v_s`` the Stribeck speed
    (``None``: no Stribeck term); ``sigma`` the viscous coefficient (force per speed).
    ``rigid``: a rod joins ``i`` and ``j`` (or both are pinned), so nothing slides along
    the pathway and the element never acts (neither sticks nor pushes: the rod or the
    supports carry the load).
    """

    i: int
    j: int
    normal_force: float
    mu_k: float
    mu_s: float
    v_s: float | None
    sigma: float
    rigid: bool = False

    @property
    def limit(self) -> float:
        r"""Largest force the element can hold while stuck, :math:`\mu_s N` (0 if rigid)."""
        return 0.0 if self.rigid else self.mu_s * self.normal_force

    def kinetic(self, u: float, s: float) -> float:
        """Expansile friction force while sliding at ``u`` in direction ``s`` (±1)."""
        if self.rigid:  # u is round-off: no force
            return 0.0
        level = self.mu_k
        if self.v_s is not None:
            level += (self.mu_s - self.mu_k) * math.exp(-((u / self.v_s) ** 2))
        f = -(level * self.normal_force * s + self.sigma * u)
        return scalar(f, (), f"friction {self.i}-{self.j}")


@dataclass(frozen=True, eq=False)
class StickState:
    """Which friction elements stick, and the direction each slides in.

    Attributes
    ----------
    paths : ndarray of bool, shape (k,)
        Pathway ``k`` is stuck.
    path_sign : ndarray, shape (k,)
        Direction of sliding (or of the slide a release starts), ±1; 0 unknown.
    joints : ndarray of bool, shape (n,)
        Joint held on the table.
    joint_dir : ndarray, shape (n, 2)
        Unit direction each joint slides in (or a released joint's first slide; 0 unknown).
    path_axis : ndarray, shape (k, dim)
        The pathway's unit vector :math:`e_0` that ``path_sign`` refers to (set at the
        start of each step; 0: unknown, the sign is taken as it is).
    lengths : ndarray, shape (k,); anchors : ndarray, shape (n, 2)
        Where each element stuck: the pathway's length, the joint's place (the
        targets of its temporary row; meaningful where stuck).
    slides : ndarray of bool, shape (k_s,); slide_sign, slide_places : ndarray, (k_s,)
        Friction along sliders (:mod:`._slide_friction`): stuck, the direction it slides
        in (0 unknown), and where a stuck one holds its joint along the line (the target
        of its temporary push row). Empty when the simulator has none.
    """

    paths: np.ndarray
    path_sign: np.ndarray
    joints: np.ndarray
    joint_dir: np.ndarray
    lengths: np.ndarray
    anchors: np.ndarray
    path_axis: np.ndarray
    slides: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))
    slide_sign: np.ndarray = field(default_factory=lambda: np.zeros(0))
    slide_places: np.ndarray = field(default_factory=lambda: np.zeros(0))

    @classmethod
    def free(cls, k: int, n: int, dim: int = 2, slides: int = 0) -> StickState:
        """Nothing stuck (``dim``: of the pathways' axes; joints slide on a plane table)."""
        b, z = np.zeros, np.zeros
        out = cls(b(k, bool), z(k), b(n, bool), z((n, 2)), z(k), z((n, 2)), z((k, dim)))
        return out.with_slides(b(slides, bool), z(slides), z(slides))

    def key(self) -> tuple:
        """What the constraint rows depend on (which elements, and where they stuck)."""
        paths, joints = np.flatnonzero(self.paths), np.flatnonzero(self.joints)
        slides = np.flatnonzero(self.slides)
        return (
            tuple(paths),
            tuple(joints),
            self.lengths[paths].tobytes(),
            self.anchors[joints].tobytes(),
            tuple(slides),
            self.slide_places[slides].tobytes(),
        )

    def with_slides(self, stuck: np.ndarray, sign: np.ndarray, places: np.ndarray) -> StickState:
        """The state with new slider-friction flags, directions and places."""
        return replace(self, slides=stuck, slide_sign=sign, slide_places=places)

    def with_paths(
        self, paths: np.ndarray, sign: np.ndarray, axis: np.ndarray | None = None
    ) -> StickState:
        """The state with new pathway flags and directions (and the axes they refer to)."""
        axis = self.path_axis if axis is None else axis
        return replace(self, paths=paths, path_sign=sign, path_axis=axis)

    def with_joints(self, joints: np.ndarray, direction: np.ndarray) -> StickState:
        """The state with new joint flags and directions."""
        return replace(self, joints=joints, joint_dir=direction)

    def stuck_at(
        self,
        frictions: tuple[FrictionPath, ...],
        p: np.ndarray,
        paths: np.ndarray,
        joints: np.ndarray,
    ) -> StickState:
        """The state with the pathways ``paths`` and joints ``joints`` (masks) stuck at ``p``."""
        lengths, anchors = self.lengths.copy(), self.anchors.copy()
        pts = p.reshape(-1, p.size // len(joints) if len(joints) else 2)  # (n, 2); (n, 3) in 3-D
        if paths.any():
            ij = np.array([(f.i, f.j) for f in frictions], dtype=np.int64)[paths]
            lengths[paths] = row_norms(pts[ij[:, 0]] - pts[ij[:, 1]])
        if joints.any():  # table friction is planar: no joint sticks in 3-D
            anchors[joints] = pts[joints]
        return replace(
            self,
            paths=self.paths | paths,
            joints=self.joints | joints,
            lengths=lengths,
            anchors=anchors,
        )


def path_speeds(
    frictions: tuple[FrictionPath, ...], p: np.ndarray, v: np.ndarray, dim: int = 2
) -> np.ndarray:
    """Extension velocity :math:`u` of each friction pathway, ``(k,)``; ``p``, ``v``: ``(dn,)``."""
    if not frictions:
        return np.zeros(0)
    ij = np.array([(f.i, f.j) for f in frictions], dtype=np.int64)
    pts, vel = p.reshape(-1, dim), v.reshape(-1, dim)
    d = pts[ij[:, 0]] - pts[ij[:, 1]]
    e = d / row_norms(d)[:, None]
    return np.sum(e * (vel[ij[:, 0]] - vel[ij[:, 1]]), axis=1)


def oriented_signs(
    frictions: tuple[FrictionPath, ...], p: np.ndarray, state: StickState, dim: int = 2
) -> np.ndarray:
    r"""``state.path_sign`` along each pathway's direction at ``p``, shape ``(k,)``.

    :math:`s\,\operatorname{sign}(e(p)\cdot e_0)`, :math:`e_0` = ``state.path_axis``:
    the sign flips exactly when the pathway passed through zero length since
    :math:`e_0` was taken (where :math:`e_0` is unknown, or at zero length, the sign
    as it is).
    """
    if not frictions:
        return np.zeros(0)
    e = path_axes(frictions, p, dim)
    turn = np.sign(np.sum(e * state.path_axis, axis=1))
    return np.where(turn != 0.0, state.path_sign * turn, state.path_sign)


def path_axes(frictions: tuple[FrictionPath, ...], p: np.ndarray, dim: int = 2) -> np.ndarray:
    """Unit vector of each friction pathway (``j`` to ``i``; 0 at zero length), ``(k, dim)``."""
    if not frictions:
        return np.zeros((0, dim))
    ij = np.array([(f.i, f.j) for f in frictions], dtype=np.int64)
    pts = p.reshape(-1, dim)
    d = pts[ij[:, 0]] - pts[ij[:, 1]]
    length = np.linalg.norm(d, axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(length[:, None] > 0, d / length[:, None], 0.0)


def sliding_direction(speed: np.ndarray, remembered: np.ndarray) -> np.ndarray:
    """``sign(speed)``, or the remembered direction where the speed is exactly zero."""
    return np.where(speed != 0.0, np.sign(speed), remembered)


def joint_friction(
    normal: np.ndarray, mu: float, v: np.ndarray, state: StickState, movable: np.ndarray
) -> np.ndarray:
    r"""Table friction :math:`-\mu N_i\,s_i` on the sliding joints, shape ``(2n,)``.

    ``normal`` :math:`N_i` shape ``(n,)``; ``movable`` masks the joints friction acts on
    (not pinned, not stuck); :math:`s_i` is ``state.joint_dir``, the direction each
    joint slides in at the start of the step (fixed for the step, like a pathway's
    ``path_sign``: a reversal within the step is a stick event, never a flip of the
    force). ``v`` is not used.
    """
    force = -(mu * normal * movable)[:, None] * state.joint_dir
    return force.reshape(-1)


def joint_directions(v: np.ndarray, state: StickState) -> np.ndarray:
    """Unit sliding direction of every joint (release direction where at rest), ``(n, 2)``."""
    vel = v.reshape(-1, 2)
    speed = np.hypot(vel[:, 0], vel[:, 1])
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where((speed > 0)[:, None], vel / speed[:, None], state.joint_dir)
