r"""Bennett's linkage (1903) built from rods: four rigid links, four revolute hinges.

The mechanism
-------------
Four bodies in a loop, consecutive ones joined by revolute hinges whose axes
:math:`u_0, \dots, u_3` are skew lines. In Denavit–Hartenberg terms link
:math:`i` carries the common normal of axes :math:`i` and :math:`i+1`, of length
:math:`a_i`, and the twist :math:`\alpha_i` between them; with the hinge angles
:math:`\theta_i`, closing the loop means

.. math:: \prod_{i=0}^{3} R_z(\theta_i)\, T_x(a_i)\, R_x(\alpha_i) = I .

That is six equations on four angles, or six rigid-body degrees of freedom per
moving link against five constraints per hinge: Grübler–Kutzbach gives
:math:`6 \cdot 3 - 5 \cdot 4 = -2`, *rigid*. Bennett's linkage moves all the same,
with one degree of freedom, when (no offsets along the axes and)

.. math:: a_0 = a_2 = a,\quad a_1 = a_3 = b,\quad \alpha_0 = \alpha_2 = \alpha,\quad
          \alpha_1 = \alpha_3 = \beta,\quad \frac{a}{\sin\alpha} = \frac{b}{\sin\beta} .

The hinge angles are then :math:`(\theta, \varphi, -\theta, -\varphi)` with

.. math:: \tan\frac{\theta}{2}\,\tan\frac{\varphi}{2}
          = \frac{\sin\frac{\beta + \alpha}{2}}{\sin\frac{\beta - \alpha}{2}} ,

and the four feet of the common normals form a skew quadrilateral with opposite
sides equal (an *isogram*). With :math:`a = 3, b = 4, \sin\alpha = 3/5,
\sin\beta = 4/5` everything is rational and the right-hand side is 5: the small
sympy Gröbner basis in ``tests/space_examples`` finds exactly the curve
:math:`t_0 t_1 = 5, t_2 = -t_0, t_3 = -t_1` in the half-angle tangents.

From bodies to rods
-------------------
A hinge becomes a rod: two joints :math:`P_i` (the foot of the common normals on
axis :math:`i`) and :math:`Q_i = P_i + h u_i` on the axis, shared by the two
links that meet there. Link :math:`i` is the tetrahedron :math:`P_i Q_i P_{i+1}
Q_{i+1}` (six rods, rigid, non-degenerate because the axes are skew), so a link
can only turn about the rod :math:`P_i Q_i` relative to its neighbour: a revolute
hinge. 8 joints, :math:`4 + 4 \cdot 4 = 20` rods against :math:`3 \cdot 8 - 6 = 18`:
Maxwell's count says rigid with two self-stresses to spare; the rigidity matrix
has rank 17, so there are three self-stresses and one internal motion, which is
finite (Bennett's).
"""

from __future__ import annotations

import numpy as np

from .. import _checks
from ..model import Linkage
from ._space_geometry import as_linkage, dh_transform

__all__ = ["bennett_frames", "bennett_linkage", "bennett_partner_angle"]


def bennett_partner_angle(theta: float, alpha: float, beta: float) -> float:
    r"""The hinge angle :math:`\varphi` that closes Bennett's loop at :math:`\theta` (radians).

    .. math:: \varphi = 2 \arctan \frac{\sin\frac{\beta + \alpha}{2}}
                                       {\sin\frac{\beta - \alpha}{2}\,\tan\frac{\theta}{2}}

    >>> round(float(np.tan(bennett_partner_angle(1.0, np.arcsin(0.6), np.arcsin(0.8)) / 2)
    ...       * np.tan(0.5)), 12)
    5.0
    """
    k = np.sin((beta + alpha) / 2) / np.sin((beta - alpha) / 2)
    return float(2.0 * np.arctan2(k, np.tan(theta / 2)))


def bennett_frames(
    a: float, alpha: float, b: float, beta: float, theta: float
) -> tuple[np.ndarray, np.ndarray]:
    """Feet and unit axes of the four hinges, shapes ``(4, 3)`` and ``(4, 3)``.

    The loop's frames are the partial products of
    :func:`._space_geometry.dh_transform` (no offsets); hinge ``i`` sits at the
    origin of frame ``i`` with axis its ``z``-axis.
    """
    phi = bennett_partner_angle(theta, alpha, beta)
    frame = np.eye(4)
    feet, axes = [], []
    for th, length, twist in (
        (theta, a, alpha),
        (phi, b, beta),
        (-theta, a, alpha),
        (-phi, b, beta),
    ):
        feet.append(frame[:3, 3].copy())
        axes.append(frame[:3, 2].copy())
        frame = frame @ dh_transform(th, 0.0, length, twist)
    return np.array(feet), np.array(axes)


def _checked(a: float, alpha: float, b: float | None, beta: float, theta: float) -> tuple:
    a = _checks.positive(a, "a")
    alpha, beta = _checks.finite(alpha, "alpha"), _checks.finite(beta, "beta")
    for name, v in (("alpha", alpha), ("beta", beta)):
        if not 0.0 < v < np.pi:
            raise ValueError(f"{name} must be a twist angle in (0, pi) radians, got {v!r}")
    if abs(alpha - beta) < 1e-9:
        raise ValueError("alpha == beta: Bennett's linkage degenerates (it only folds flat)")
    ratio = a / np.sin(alpha)
    b = ratio * np.sin(beta) if b is None else _checks.positive(b, "b")
    if abs(b / np.sin(beta) - ratio) > 1e-9 * ratio:
        raise ValueError(
            f"Bennett's condition a/sin(alpha) = b/sin(beta) fails: {ratio:.12g} != "
            f"{b / np.sin(beta):.12g}; such a loop of four hinges is rigid"
        )
    theta = _checks.finite(theta, "theta")
    if abs(np.sin(theta)) < 1e-9:
        raise ValueError(
            f"theta must not be a multiple of pi (a folded, singular pose), got {theta!r}"
        )
    return a, alpha, b, beta, theta


def bennett_linkage(
    a: float = 1.0,
    alpha: float = np.radians(45.0),
    b: float | None = None,
    beta: float = np.radians(75.0),
    theta: float = np.radians(100.0),
    *,
    hinge: float = 0.6,
    scale: float = 1.0,
    ground: bool = False,
) -> Linkage:
    r"""Bennett's linkage as a rod framework (see the module notes).

    Parameters
    ----------
    a, b : float
        Lengths of the common normals of links 0, 2 and links 1, 3; ``b=None``
        takes Bennett's :math:`b = a \sin\beta / \sin\alpha`.
    alpha, beta : float
        Twists of links 0, 2 and links 1, 3 (radians, in :math:`(0, \pi)`, unequal).
    theta : float
        The hinge angle at hinge 0 (radians); hinge 1 follows from Bennett's relation.
    hinge : float
        Length of each hinge rod :math:`P_i Q_i`, in units of ``a``.
    scale : float
        Multiplies every coordinate.
    ground : bool
        Pin link 3 (joints :math:`P_3, Q_3, P_0, Q_0`): the ground link.

    Joints ``2 i`` and ``2 i + 1`` are :math:`P_i` and :math:`Q_i`.

    Raises
    ------
    ValueError
        Naming the parameter, or Bennett's condition when ``b`` is given and
        breaks it.

    Examples
    --------
    >>> link = bennett_linkage()
    >>> link.n_vertices, link.n_rods
    (8, 20)
    >>> bennett_linkage(b=2.0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: Bennett's condition a/sin(alpha) = b/sin(beta) fails: ...
    """
    a, alpha, b, beta, theta = _checked(a, alpha, b, beta, theta)
    h = _checks.positive(hinge, "hinge") * a
    feet, axes = bennett_frames(a, alpha, b, beta, theta)
    joints = np.empty((8, 3))
    joints[0::2], joints[1::2] = feet, feet + h * axes
    rods = [(2 * i, 2 * i + 1) for i in range(4)]
    for i in range(4):
        j = (i + 1) % 4
        rods += [(2 * i + s, 2 * j + t) for s in (0, 1) for t in (0, 1)]
    return as_linkage(joints - joints.mean(axis=0), rods, scale, (6, 7, 0, 1) if ground else ())
