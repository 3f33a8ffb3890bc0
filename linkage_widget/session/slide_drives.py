r"""Linear motors and friction along a slide: the session's edits of the drives on sliders.

A slider (:attr:`Linkage.sliders <linkage_widget.Linkage.sliders>`) can carry a
linear motor (:class:`~linkage_widget.elements.LinearMotor`: its joint's place
:math:`s` along the line's unit direction :math:`u` follows :math:`s_0 + v t`) and
friction along its line (:class:`~linkage_widget.elements.SliderFriction`, pressed by
the normal force the slider carries; dynamic mode). Each function here is an
operation of the :class:`~.actuation.Actuation` controller's kind: it takes the
controller and a :class:`~.actuation.Stage` and returns an :class:`~.actuation.Actuated`
(the new drives and the message), which the session applies undoably, so undo, redo,
save and load cover them as they cover the rod motors. The motors button and key o
run linear motors together with the rod motors; key n reverses them too.

The motor tool on a sliding joint, or on its slider's track or block, puts a linear
motor on that slider (:func:`linear_motor_at`); on a rod it stays a rod motor.

Signs and units: ``speed`` is in length per second, positive along the slider's
direction :math:`u`.
"""

from __future__ import annotations

from typing import Any

from .. import _checks
from ..elements import LinearMotor, SliderFriction
from .actuation import Actuated, Actuation, Stage

__all__ = ["add_linear_motor", "add_slider_friction", "linear_motor_at", "remove_linear_motor"]


def _check_slider(stage: Stage, slider: Any, what: str) -> int:
    """``slider`` as an index of the linkage's sliders; ``IndexError`` naming ``what``."""
    return _checks.item_index(slider, len(stage.linkage.sliders), f"{what}: slider", "sliders")


def add_linear_motor(
    actuation: Actuation, stage: Stage, slider: int, speed: float = 1.0
) -> Actuated:
    """Push slider ``slider``'s joint along its line at ``speed`` (length/s, along its direction).

    A linear motor already on the slider is replaced (one per slider). Raises
    ``IndexError`` for an unknown slider, ``ValueError`` for a non-finite speed or a
    3-D linkage; nothing changes then.
    """
    why = stage.viewer.refusal("motors")
    if why:
        raise ValueError(why)
    s = _check_slider(stage, slider, "linear motor")
    motor = LinearMotor(s, speed)
    joint = stage.linkage.sliders[s].joint
    said = f"linear motor on slider {s} (joint {joint}) (o starts it)"
    return Actuated(stage.drives.with_linear_motor(motor), said)


def remove_linear_motor(actuation: Actuation, stage: Stage, k: int) -> Actuated:
    """Remove linear motor ``k`` (later ones shift down); ``IndexError`` when there is none."""
    return Actuated(stage.drives.without_linear_motor(k), f"linear motor {k} removed")


def linear_motor_at(actuation: Actuation, stage: Stage, slider: int) -> Actuated:
    """The motor tool on slider ``slider`` (its joint, track or block): a linear motor on it.

    The speed is the last linear motor's (else 1 length unit per second).
    """
    motors = stage.drives.linear_motors
    return add_linear_motor(actuation, stage, slider, motors[-1].speed if motors else 1.0)


def add_slider_friction(
    actuation: Actuation, stage: Stage, slider: int, mu_k: float, law: dict[str, Any]
) -> Actuated:
    r"""Coulomb friction along slider ``slider``'s line (dynamic mode).

    ``law``: ``mu_s`` (static, :math:`\ge \mu_k`), ``v_s`` (Stribeck speed), ``sigma``
    (viscous), as :class:`~linkage_widget.elements.SliderFriction`. The friction on the
    slider, if any, is replaced. Raises ``IndexError`` (unknown slider), ``ValueError``
    or ``TypeError`` (a bad or unknown parameter).
    """
    s = _check_slider(stage, slider, "slider friction")
    friction = SliderFriction(s, mu_k, **law)
    d = stage.drives
    kept = tuple(f for f in d.slider_frictions if f.slider != s)
    drives = type(d)(**{**vars(d), "slider_frictions": (*kept, friction)})
    return Actuated(drives, f"friction along slider {s}")
