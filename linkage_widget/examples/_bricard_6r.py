r"""Bricard's mechanism (1927): loops of six revolute hinges that move, and one that does not.

The loop
--------
Six bodies in a loop, consecutive ones joined by hinges with axes :math:`u_0, \dots,
u_5`. In Denavit–Hartenberg terms link :math:`i` carries the common normal of axes
:math:`i` and :math:`i+1`: its length :math:`a_i`, the twist :math:`\alpha_i` from
:math:`u_i` to :math:`u_{i+1}` about it, and the offset :math:`d_i` along axis
:math:`i` from the incoming normal's foot to the outgoing one's; :math:`\theta_i` is
the hinge angle from the incoming normal to the outgoing one. The loop closes when

.. math:: \prod_{i=0}^{5} R_z(\theta_i)\, T_z(d_i)\, T_x(a_i)\, R_x(\alpha_i) = I ,

six equations on six angles: a generic loop of six hinges is *rigid* (isolated
solutions; Grübler–Kutzbach: :math:`6 \cdot 5 - 5 \cdot 6 = 0`). Bricard's loops move
with one degree of freedom. Three of his cases, in this module's conventions
(indices mod 6):

* **Line-symmetric**: a half-turn about a line maps hinge :math:`i` to hinge
  :math:`i + 3`, so :math:`a_{i+3} = a_i,\ \alpha_{i+3} = \alpha_i,\ d_{i+3} = d_i` and
  along the motion :math:`\theta_{i+3} = \theta_i`. The half chain
  :math:`T_0 T_1 T_2` must then be a half-turn (its square is the loop): trace
  :math:`-1` and no slide along its axis, two equations on three angles, one motion.
* **Plane-symmetric**: a mirror maps hinge :math:`i` to hinge :math:`-i`; hinges 0
  and 3 lie in the mirror plane. With the mirrored axes oriented as mirror images,
  :math:`a_{5-i} = a_i,\ \alpha_{5-i} = -\alpha_i,\ d_0 = d_3 = 0,\ d_{6-i} = -d_i`
  and :math:`\theta_{6-i} = \theta_i`. Symmetric placements: the mirror's turn about
  axis 0 and two hinge angles, against "axis 3 lies in the mirror" (two equations).
* **Trihedral**: every twist a right angle, alternating
  :math:`\alpha_i = (-1)^i\, \pi / 2`, no offsets, and
  :math:`a_0^2 + a_2^2 + a_4^2 = a_1^2 + a_3^2 + a_5^2`. With all :math:`a_i` equal
  the loop passes through the hexagon of six edges of a cube (the hinges at its
  corners, each axis along the cube edge perpendicular to both link edges); the
  stored pose was followed from there while the lengths grew apart.

Each design here is *rational*: :math:`a_i`, :math:`d_i` and
:math:`\tan(\alpha_i / 2)` are fractions (:attr:`DHLoop.exact`), so
:math:`\cos\alpha_i = (1 - t^2)/(1 + t^2)` and :math:`\sin\alpha_i = 2t/(1 + t^2)`
are exact and the symmetry conditions hold exactly, as an exact (Gröbner) method
needs. :func:`generic_6r_loop` draws six random axis lines (which always close: the
loop *is* the placement), reads their DH parameters and rounds them to fractions.

From hinges to rods
-------------------
As for Bennett's linkage (:mod:`._bennett`): hinge :math:`i` is a rod :math:`P_i Q_i`
on its axis (:math:`P_i` the foot of the incoming common normal, :math:`Q_i = P_i +
h u_i`) and link :math:`i` the tetrahedron :math:`P_i Q_i P_{i+1} Q_{i+1}` (rigid:
consecutive axes are skew). 12 joints and :math:`6 + 6 \cdot 4 = 30` rods against
:math:`3 \cdot 12 - 6 = 30`: Maxwell's count says rigid; a Bricard loop has one
internal motion and one self-stress, a generic loop neither.

Placing on the motion
---------------------
A placement is the angle :math:`\theta_0` of hinge 0. From a stored reference pose,
:math:`\theta_0` is moved in steps of at most :data:`_STEP` radians and the other five
angles follow by Gauss–Newton on the 12 closure entries (least squares: the six
equations are dependent on the motion). A :math:`\theta_0` the motion does not reach
(past a turning point of :math:`\theta_0`) is refused.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np

from .. import _checks
from ..model import Linkage
from ._space_geometry import as_linkage, dh_transform

__all__ = [
    "BRICARD_6R_CASES",
    "DHLoop",
    "bricard_6r_line_symmetric",
    "bricard_6r_loop",
    "bricard_6r_plane_symmetric",
    "bricard_6r_trihedral",
    "generic_6r",
    "generic_6r_loop",
    "revolute_loop_linkage",
]

#: The largest change of theta_0 between two Newton solves along the motion (radians).
_STEP = 0.05
#: Closure is accepted when every entry of the top 3 x 4 block of the product is this close
#: to the identity's (lengths are of order 1 in every design).
_CLOSED = 1e-13


@dataclasses.dataclass(frozen=True)
class DHLoop:
    r"""A closed loop of six revolute hinges: Denavit–Hartenberg parameters and a pose.

    Attributes
    ----------
    a, alpha, d, theta : tuple of float, length 6
        Link lengths, twists (radians), offsets and hinge angles (radians), as in
        :math:`\prod_i R_z(\theta_i) T_z(d_i) T_x(a_i) R_x(\alpha_i) = I`.
    exact : tuple of (Fraction, Fraction, Fraction), length 6
        The design exactly: :math:`(a_i, \tan(\alpha_i / 2), d_i)`.
    case : str
        ``"line_symmetric"``, ``"plane_symmetric"``, ``"trihedral"`` or ``"generic"``.
    """

    a: tuple[float, ...]
    alpha: tuple[float, ...]
    d: tuple[float, ...]
    theta: tuple[float, ...]
    exact: tuple[tuple[Fraction, Fraction, Fraction], ...]
    case: str


def _design_floats(exact: tuple) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(a, alpha, d), each shape (6,), from the exact design."""
    a = np.array([float(x) for x, _, _ in exact])
    alpha = np.array([2.0 * np.arctan(float(t)) for _, t, _ in exact])
    d = np.array([float(x) for _, _, x in exact])
    return a, alpha, d


def _chain(theta: np.ndarray, design: tuple) -> list[np.ndarray]:
    """The partial products F_0 = I, F_1, ..., F_6 of the loop, each shape (4, 4)."""
    a, alpha, d = design
    frames = [np.eye(4)]
    for i in range(6):
        frames.append(frames[-1] @ dh_transform(theta[i], d[i], a[i], alpha[i]))
    return frames


def _residual_and_jacobian(theta: np.ndarray, design: tuple) -> tuple[np.ndarray, np.ndarray]:
    r"""Closure residual (12,) and its Jacobian (12, 6) in the hinge angles.

    :math:`\partial T_i / \partial \theta_i = Z T_i` with :math:`Z` the generator of
    turns about :math:`z`, so :math:`\partial \prod / \partial \theta_i =
    F_i Z F_i^{-1} \prod`.
    """
    frames = _chain(theta, design)
    total = frames[-1]
    z = np.zeros((4, 4))
    z[0, 1], z[1, 0] = -1.0, 1.0
    jac = [(f @ z @ np.linalg.inv(f) @ total)[:3].ravel() for f in frames[:6]]
    return (total - np.eye(4))[:3].ravel(), np.column_stack(jac)


def _newton(theta: np.ndarray, design: tuple, free: np.ndarray) -> np.ndarray | None:
    """Gauss–Newton (minimum-norm steps) on the angles ``free``; None when it does not close."""
    theta = np.array(theta, dtype=np.float64)
    for _ in range(40):
        res, jac = _residual_and_jacobian(theta, design)
        if np.abs(res).max() <= _CLOSED:
            return theta
        step = np.linalg.lstsq(jac[:, free], -res, rcond=1e-10)[0]
        if np.abs(step).max() > 0.5:  # a jump this large leaves the branch
            return None
        theta[free] += step
    return None


def _follow(theta: np.ndarray, design: tuple, target: float) -> np.ndarray | None:
    """Move theta_0 from the closed pose ``theta`` to ``target`` along the motion.

    Equal steps of at most ``_STEP``, each predicted by the secant of the last two
    poses and corrected by :func:`_newton` on the other five angles.
    """
    steps = int(np.ceil(abs(target - theta[0]) / _STEP))
    previous = theta
    for k in range(1, steps + 1):
        guess = 2.0 * theta - previous if k > 1 else theta.copy()
        guess[0] = theta[0] + (target - theta[0]) / (steps - k + 1)
        found = _newton(guess, design, np.arange(1, 6))
        if found is None:
            return None
        previous, theta = theta, found
    return theta


def _wrapped(angles: np.ndarray) -> np.ndarray:
    """Angles in [-pi, pi) (the continuation may carry a hinge once round)."""
    return (angles + np.pi) % (2.0 * np.pi) - np.pi


def _lines_to_dh(points: np.ndarray, axes: np.ndarray) -> tuple[np.ndarray, ...]:
    """DH parameters (a, alpha, d, theta), each (6,), of the loop of axis lines.

    Line ``i`` passes through ``points[i]`` along ``axes[i]`` (shapes (6, 3)); the
    common normal of lines i and i+1 is found from their closest points.
    """
    u = axes / np.linalg.norm(axes, axis=1, keepdims=True)
    feet_in, feet_out, normal = np.zeros((6, 3)), np.zeros((6, 3)), np.zeros((6, 3))
    a, alpha = np.zeros(6), np.zeros(6)
    for i in range(6):
        j = (i + 1) % 6
        w, c = points[i] - points[j], u[i] @ u[j]
        s = (c * (u[j] @ w) - u[i] @ w) / (1.0 - c * c)
        t = ((u[j] @ w) - c * (u[i] @ w)) / (1.0 - c * c)
        feet_out[i], feet_in[j] = points[i] + s * u[i], points[j] + t * u[j]
        a[i] = np.linalg.norm(feet_in[j] - feet_out[i])
        normal[i] = (feet_in[j] - feet_out[i]) / a[i]
        alpha[i] = np.arctan2(np.cross(u[i], u[j]) @ normal[i], c)
    d = np.einsum("ij,ij->i", feet_out - feet_in, u)
    before = np.roll(normal, 1, axis=0)
    theta = np.arctan2(
        np.einsum("ij,ij->i", np.cross(before, normal), u), np.einsum("ij,ij->i", before, normal)
    )
    return a, alpha, d, theta


def _fractions(*rows: tuple) -> tuple[tuple[Fraction, Fraction, Fraction], ...]:
    """Rows (a_i, tan(alpha_i / 2), d_i) as fractions."""
    return tuple((Fraction(a), Fraction(t), Fraction(d)) for a, t, d in rows)


_LINE = _fractions(("7/6", "4/5", "7/8"), ("9/8", "-4/7", "-1"), ("7/5", "15/8", "5/4")) * 2
_PLANE = _fractions(
    ("10/7", "6/7", "0"),
    ("4/3", "-5/3", "-2/3"),
    ("13/8", "-1/3", "9/8"),
    ("13/8", "1/3", "0"),
    ("4/3", "5/3", "-9/8"),
    ("10/7", "-6/7", "2/3"),
)
_TRIHEDRAL = _fractions(*((f"{x}/6", (-1) ** i, 0) for i, x in enumerate((6, 4, 3, 7, 6, 4))))

#: case -> (exact design, a closed pose to 1e-12, the default theta_0). The poses were found
#: from the symmetric constructions (the trihedral one by following the cube hexagon while
#: the lengths grew from all equal to these) and are refined by Newton on every call.
_DESIGNS: dict[str, tuple[tuple, tuple[float, ...], float]] = {
    "line_symmetric": (
        _LINE,
        (3.0, 2.742305504656, -2.988515511504, 3.0, 2.742305504656, -2.988515511504),
        1.0,
    ),
    "plane_symmetric": (
        _PLANE,
        (-2.3, -2.771549984554, -1.781712125558, 1.646403385463, -1.781712125558, -2.771549984554),
        -1.5,
    ),
    "trihedral": (
        _TRIHEDRAL,
        (-1.5, 1.415645556901, -1.260046136386, 1.686442491645, -1.696254907911, 1.894323905418),
        0.5,
    ),
}
#: The three cases of Bricard's mechanism this module builds.
BRICARD_6R_CASES = tuple(_DESIGNS)


def _loop(exact: tuple, theta: np.ndarray, case: str) -> DHLoop:
    a, alpha, d = _design_floats(exact)
    return DHLoop(
        tuple(a.tolist()),
        tuple(alpha.tolist()),
        tuple(d.tolist()),
        tuple(float(x) for x in theta),
        exact,
        case,
    )


def bricard_6r_loop(case: str, theta: float | None = None) -> DHLoop:
    r"""The DH parameters and pose of one of Bricard's loops, at hinge angle :math:`\theta_0`.

    The other five angles are given in :math:`[-\pi, \pi)`.

    Parameters
    ----------
    case : str
        One of :data:`BRICARD_6R_CASES`.
    theta : float or None
        The angle of hinge 0 (radians); ``None`` takes the case's default placement.

    Raises
    ------
    ValueError
        An unknown case, a non-finite ``theta``, or one the motion does not reach.

    Examples
    --------
    >>> loop = bricard_6r_loop("line_symmetric", 0.8)
    >>> loop.theta[0], bool(np.allclose(loop.theta[:3], loop.theta[3:]))
    (0.8, True)
    """
    if case not in _DESIGNS:
        raise ValueError(f"unknown Bricard case {case!r}; the cases: {', '.join(_DESIGNS)}")
    exact, reference, default = _DESIGNS[case]
    target = default if theta is None else _checks.finite(theta, "theta")
    design = _design_floats(exact)
    start = _newton(np.array(reference), design, np.arange(1, 6))
    found = None if start is None else _follow(start, design, target)
    if found is None:
        raise ValueError(
            f"theta = {target!r} is not on the motion of the {case.replace('_', '-')} Bricard "
            f"loop followed from theta = {reference[0]} (hinge 0 turns back before it)"
        )
    found = _wrapped(found)
    found[0] = target  # exactly the angle asked for (Newton kept it fixed)
    return _loop(exact, found, case)


def generic_6r_loop(seed: int = 0) -> DHLoop:
    r"""A generic loop of six hinges, closed and rigid: six random axis lines.

    The lines (points uniform in :math:`[-1, 1]^3`, directions normal) always close
    the loop; their DH parameters are rounded to fractions (denominators at most 8)
    and the six angles solved again by Newton. Draws that give a short common
    normal (:math:`a_i < 0.3`) or a small twist (:math:`|\sin\alpha_i| < 0.3`) are
    drawn again, so the loop is well away from any special (movable) family.

    >>> loop = generic_6r_loop(3)
    >>> loop.case, len(loop.theta)
    ('generic', 6)
    """
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    rng = np.random.default_rng(int(seed))
    while True:
        a, alpha, d, theta = _lines_to_dh(rng.uniform(-1, 1, (6, 3)), rng.normal(size=(6, 3)))
        if a.min() < 0.3 or np.abs(np.sin(alpha)).min() < 0.3:
            continue
        exact = tuple(
            tuple(Fraction(float(x)).limit_denominator(8) for x in row)
            for row in zip(a, np.tan(alpha / 2), d, strict=True)
        )
        found = _newton(theta, _design_floats(exact), np.arange(6))
        if found is not None:
            return _loop(exact, _wrapped(found), "generic")


def revolute_loop_linkage(
    loop: DHLoop, *, hinge: float = 0.5, scale: float = 1.0, ground: bool = False
) -> Linkage:
    r"""The rod framework of a closed loop of six hinges (see the module notes).

    Joints ``2 i`` and ``2 i + 1`` are :math:`P_i` (the origin of DH frame
    :math:`i`) and :math:`Q_i = P_i + h u_i`, :math:`h` = ``hinge`` times the mean
    :math:`a_i`; the joints are then centred on their mean. ``ground`` pins link 5
    (joints 10, 11, 0, 1).
    """
    h = _checks.positive(hinge, "hinge") * float(np.mean(loop.a))
    frames = _chain(np.array(loop.theta), (loop.a, loop.alpha, loop.d))[:6]
    joints = np.array([f[:3, 3] + k * h * f[:3, 2] for f in frames for k in (0.0, 1.0)])
    rods = [(2 * i, 2 * i + 1) for i in range(6)]
    for i in range(6):
        j = (i + 1) % 6
        rods += [(2 * i + s, 2 * j + t) for s in (0, 1) for t in (0, 1)]
    return as_linkage(joints - joints.mean(axis=0), rods, scale, (10, 11, 0, 1) if ground else ())


def bricard_6r_line_symmetric(
    theta: float = 1.0, *, hinge: float = 0.5, scale: float = 1.0, ground: bool = False
) -> Linkage:
    r"""Bricard's line-symmetric loop of six hinges as rods, hinge 0 at ``theta`` (radians).

    :math:`a = (7/6, 9/8, 7/5)`, :math:`\tan\frac{\alpha}{2} = (4/5, -4/7, 15/8)`,
    :math:`d = (7/8, -1, 5/4)`, each repeated: hinge :math:`i + 3` is the half-turn
    image of hinge :math:`i`. ``theta`` runs over about :math:`(-1.3, 3.45)`; ``hinge``,
    ``scale`` and ``ground`` as in :func:`revolute_loop_linkage`. The parameters:
    ``bricard_6r_loop("line_symmetric", theta)``.

    >>> link = bricard_6r_line_symmetric()
    >>> link.n_vertices, link.n_rods
    (12, 30)
    """
    loop = bricard_6r_loop("line_symmetric", theta)
    return revolute_loop_linkage(loop, hinge=hinge, scale=scale, ground=ground)


def bricard_6r_plane_symmetric(
    theta: float = -1.5, *, hinge: float = 0.5, scale: float = 1.0, ground: bool = False
) -> Linkage:
    r"""Bricard's plane-symmetric loop of six hinges as rods, hinge 0 at ``theta`` (radians).

    :math:`a = (10/7, 4/3, 13/8, 13/8, 4/3, 10/7)`,
    :math:`\tan\frac{\alpha}{2} = (6/7, -5/3, -1/3, 1/3, 5/3, -6/7)`,
    :math:`d = (0, -2/3, 9/8, 0, -9/8, 2/3)`: hinges 0 and 3 lie in the mirror, which
    swaps hinges :math:`i` and :math:`6 - i`. ``theta`` runs over about
    :math:`(-4.9, 1.4)`; the rest as in :func:`bricard_6r_line_symmetric`.
    """
    loop = bricard_6r_loop("plane_symmetric", theta)
    return revolute_loop_linkage(loop, hinge=hinge, scale=scale, ground=ground)


def bricard_6r_trihedral(
    theta: float = 0.5, *, hinge: float = 0.5, scale: float = 1.0, ground: bool = False
) -> Linkage:
    r"""Bricard's trihedral loop of six hinges as rods, hinge 0 at ``theta`` (radians).

    Twists :math:`\pm\pi/2` alternating, no offsets,
    :math:`a = (1, 2/3, 1/2, 7/6, 1, 2/3)`:
    :math:`1 + \frac14 + 1 = \frac49 + \frac{49}{36} + \frac49 = \frac94`.
    ``theta`` runs over about :math:`(-2.1, 2.1)`; the rest as in
    :func:`bricard_6r_line_symmetric`.
    """
    loop = bricard_6r_loop("trihedral", theta)
    return revolute_loop_linkage(loop, hinge=hinge, scale=scale, ground=ground)


def generic_6r(
    seed: int = 0, *, hinge: float = 0.5, scale: float = 1.0, ground: bool = False
) -> Linkage:
    """A generic (rigid) loop of six hinges as rods: :func:`generic_6r_loop` ``(seed)``.

    >>> from linkage_widget import analyze
    >>> analyze(generic_6r()).internal_dof
    0
    """
    return revolute_loop_linkage(generic_6r_loop(seed), hinge=hinge, scale=scale, ground=ground)
