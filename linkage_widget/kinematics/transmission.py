r"""How well a driven mechanism transmits: transmission angle and mechanical advantage.

*Transmission angle* :math:`\mu`: at the joint where the coupler drives the output
link, the angle between the two. The coupler pushes along itself (a two-force member),
and only the part of that push perpendicular to the output link turns it, a fraction
:math:`\sin\mu`; the usual rule keeps its worst value :math:`\min \min(\mu, \pi - \mu)`
over the cycle at 40° or more (:math:`\mu` within 50° of 90°). At :math:`\mu = 0` or
:math:`\pi` coupler and output lie in line: a drive on the input (crank) side locks
there (the output would have to turn infinitely fast, :math:`\omega_{out}/\omega_{in}
\to \infty`), while a drive on the output side passes through with the crank standing
still for an instant. When the output is a slider (a piston), the output link is the
normal :math:`n` to its line (a rocker of infinite length): the push along the slide
is :math:`\sin\mu`, and in line :math:`\mu = \pi/2 - \varphi` with
:math:`\sin\varphi = (r/l)\sin\theta`.

*Mechanical advantage*: the output torque over the input torque, from the statics of
:mod:`linkage_widget.rigidity.statics`. With the crank held by a fixed angle (the
motor's reaction), a torque :math:`T_L = -1` loading the output link is carried by the
constraint forces :math:`A^T\lambda = f`, and the fixed angle's torque on the crank is
the input torque :math:`T_{in}` the motor must supply to deliver :math:`T_{out} = 1`:

.. math:: \mathrm{MA} = \frac{T_{out}}{T_{in}} = \frac{\omega_{in}}{\omega_{out}}

by virtual work (:math:`T_{in}\,\omega_{in} = T_{out}\,\omega_{out}` for an ideal
mechanism), which the tests check against the velocities of
:func:`~linkage_widget.kinematics.kinematics`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..model import Linkage
from ..rigidity import static_forces
from .driven import Kinematics

__all__ = ["Transmission", "mechanical_advantage", "transmission_angle"]

DEAD_TORQUE = 1e-10
"""Input torques below this (per unit output torque) count as a dead centre: NaN, not 1e30."""


@dataclass(frozen=True, eq=False)
class Transmission:
    r"""The transmission angle over a cycle.

    Attributes
    ----------
    angles : ndarray, shape (k,)
        :math:`\mu \in [0, \pi]` at each sample (NaN where the sample is not valid).
    minimum : float
        The worst :math:`\min(\mu, \pi - \mu)` over the valid samples (NaN if none).
    at : int
        The sample where it is reached (-1 if none).
    """

    angles: np.ndarray
    minimum: float
    at: int


def _shared(coupler: Any, output: Any) -> tuple[int, int, int]:
    """``(joint, coupler's other end, output's other end)`` of two rods that share one joint."""
    c, o = tuple(int(i) for i in coupler), tuple(int(i) for i in output)
    common = set(c) & set(o)
    if len(c) != 2 or len(o) != 2 or len(common) != 1:
        raise ValueError(
            f"transmission angle: the coupler {c} and the output {o} must be two rods "
            "sharing exactly one joint"
        )
    j = common.pop()
    return j, c[1 - c.index(j)], o[1 - o.index(j)]


def _output_arms(k: Kinematics, coupler: Any, output: Any) -> tuple[np.ndarray, np.ndarray]:
    """The coupler's arm and the output's (a rod, or a slider's normal) at the joint, ``(k, 2)``."""
    p = k.positions
    if hasattr(output, "direction"):  # a Slider: the output link is the normal to its line
        c = tuple(int(i) for i in coupler)
        j = int(output.joint)
        if len(c) != 2 or j not in c or c[0] == c[1]:
            raise ValueError(
                f"transmission angle: the coupler {c} must end at the slider's joint {j}"
            )
        u = np.asarray(output.direction, dtype=np.float64)
        return p[:, c[1 - c.index(j)]] - p[:, j], np.broadcast_to([-u[1], u[0]], (len(p), 2))
    j, a, b = _shared(coupler, output)
    return p[:, a] - p[:, j], p[:, b] - p[:, j]


def transmission_angle(k: Kinematics, coupler: Any, output: Any) -> Transmission:
    r"""The angle :math:`\mu` between the ``coupler`` and the ``output`` over the cycle ``k``.

    Parameters
    ----------
    k : Kinematics
        From :func:`~linkage_widget.kinematics.kinematics`.
    coupler : (int, int)
        The rod that drives the output, ending at the output's joint.
    output : (int, int) or Slider
        A rod sharing that joint (a four-bar ``0-1-2-3`` driven at ``0-1``: coupler
        ``(1, 2)``, output ``(2, 3)``), or a slider of the linkage
        (``linkage.sliders[s]``) whose joint ends the coupler.

    Examples
    --------
    >>> from linkage_widget import Linkage
    >>> from linkage_widget.kinematics import kinematics
    >>> four_bar = Linkage([[0, 0], [1, 0], [1, 3], [4, 0]],
    ...                    rods=[(0, 1), (1, 2), (2, 3)], pinned=[0, 3])
    >>> t = transmission_angle(kinematics(four_bar, 0, 1, [0.0]), (1, 2), (2, 3))
    >>> round(float(np.degrees(t.angles[0])), 9)      # (0, -3) against (3, -3)
    45.0
    """
    u, w = _output_arms(k, coupler, output)
    mu = np.arctan2(np.abs(u[:, 0] * w[:, 1] - u[:, 1] * w[:, 0]), (u * w).sum(axis=1))
    mu = np.where(k.valid, mu, np.nan)
    worst = np.minimum(mu, np.pi - mu)
    if not np.isfinite(worst).any():
        return Transmission(mu, float("nan"), -1)
    at = int(np.nanargmin(worst))
    return Transmission(mu, float(worst[at]), at)


def _held(linkage: Linkage, pivot: int, tip: int) -> tuple[Linkage, int]:
    """The linkage with its crank held by a fixed angle to a new pinned joint; the angle index.

    The fixed angle (ground, pivot, tip) is the crank's absolute angle plus a constant only
    when its vertex stays put, so it is put at the crank's pinned end: a motor named
    ``tip`` first turns the same rod about the same end, with the same torque and speed.
    """
    pinned = set(linkage.pinned.tolist())
    if pivot not in pinned:
        if tip not in pinned:
            raise ValueError(
                f"mechanical advantage: the crank {pivot}-{tip} has no pinned end to hold "
                "its input torque against"
            )
        pivot, tip = tip, pivot
    held = linkage.copy()
    p = held.vertices
    arm = p[tip] - p[pivot]
    ground = held.add_vertex(p[pivot] + np.array([-arm[1], arm[0]]))  # a quarter turn ahead
    held.pin(ground)
    return held, held.add_angle(pivot, ground, tip)


def _output_rod(linkage: Linkage, output: Any) -> tuple[int, int]:
    """The output rod as ``(pinned pivot, tip)``, whichever order it is given in."""
    a, b = (int(i) for i in output)
    if linkage.find_rod(a, b) is None:
        raise ValueError(f"mechanical advantage: there is no output rod {a}-{b}")
    pinned = set(linkage.pinned.tolist())
    if (a in pinned) == (b in pinned):
        raise ValueError(
            f"mechanical advantage: the output rod {a}-{b} must have exactly one pinned end "
            f"to turn about (pinned: {sorted(pinned & {a, b})})"
        )
    return (a, b) if a in pinned else (b, a)


def _output_load(p: np.ndarray, output: Any) -> dict[int, np.ndarray]:
    """The load on the output: a torque -1 on a rod about its pivot, a force -1 on a slider."""
    if hasattr(output, "direction"):
        return {int(output.joint): -np.asarray(output.direction, dtype=np.float64)}
    o_pivot, o_tip = output
    d = p[o_tip] - p[o_pivot]
    return {o_tip: -np.array([-d[1], d[0]]) / (d @ d)}


def mechanical_advantage(linkage: Linkage, k: Kinematics, output: Any) -> np.ndarray:
    r"""Output torque (or force) over input torque at each sample of the cycle ``k``, by statics.

    Parameters
    ----------
    linkage : Linkage
        The mechanism ``k`` was computed for (its rods, angles, pins and guides).
    k : Kinematics
        The cycle, driven by the crank ``k.pivot``→``k.tip``, one of whose ends is
        pinned (either one: the input torque is taken about it).
    output : (int, int) or Slider
        The output rod, turning about its one pinned end (either order); or a slider
        of the linkage (``linkage.sliders[s]``): then the output is the force along its
        direction, and the advantage :math:`F_{out}/T_{in} = 1/(u\cdot p_j')` has the
        units of one over a length.

    Returns
    -------
    ndarray, shape (k,)
        :math:`T_{out}/T_{in}`, signed (negative: the output turns the other way); NaN
        where the sample is not valid or the statics cannot balance the load; large
        near a dead centre, where the input needs no torque, and NaN at one
        (:math:`|T_{in}|` below ``DEAD_TORQUE``, times the crank's length for a slider).

    Raises
    ------
    ValueError
        No output rod, one without exactly one pinned end, a cycle not driven by a
        crank, or a crank with no pinned end.
    """
    slider = hasattr(output, "direction")
    if not slider:
        output = _output_rod(linkage, output)
    if k.tip < 0:
        raise ValueError("mechanical advantage: the cycle must be driven by a crank (kinematics)")
    held, angle = _held(linkage, k.pivot, k.tip)
    # an input torque this small is a dead centre (or the load went to a support):
    # relative to the output's unit torque, or to the crank's length times its unit force
    crank = np.hypot(*(linkage.vertices[k.tip] - linkage.vertices[k.pivot]))
    tol = DEAD_TORQUE * (crank if slider else 1.0)
    out = np.full(len(k), np.nan)
    for i in np.flatnonzero(k.valid):
        p = k.positions[i]
        held.set_positions(np.vstack([p, held.vertices[-1:]]))
        report = static_forces(held, _output_load(p, output))
        torque = report.angle_torques[angle]
        if report.balanced and abs(torque) > tol:
            out[i] = 1.0 / torque
    return out
