r"""Kinematic analysis of driven mechanisms: the layer a kinematics course reads.

For a planar mechanism driven by a motor (a crank turning the rod pivot → tip, as
:meth:`~linkage_widget.motion.Simulator.add_motor` does):

* :func:`kinematics` — positions, velocities :math:`dp/d\theta` and accelerations
  :math:`d^2p/d\theta^2` of every joint over the crank angles asked for
  (:class:`Kinematics`), on the branch followed from the first angle, with where the
  mechanism assembles and is not at a dead point; :func:`slider_kinematics` the same,
  driven by pushing a slider along its line (a linear actuator); :func:`timed_kinematics`
  by several motors and pushes at once, over time;
* :func:`bodies` (the rigid clusters, the ground first) and :func:`instant_centres`
  (:class:`InstantCentres`: the centre of every pair of bodies, from the velocity field);
* :func:`transmission_angle` (:class:`Transmission`, with its worst value over the cycle)
  and :func:`mechanical_advantage` (output over input torque, from the statics);
* :func:`sensitivity` (:class:`Sensitivity`: a tracked joint's path differentiated in
  each rod length and pin position) and :func:`tolerance_band` (:class:`ToleranceBand`:
  the first-order envelope of the path under length tolerances);
* :func:`stroke` (:class:`Stroke`: a joint's dead centres along a line over a turn, its
  length and the quick-return ratio).

On the package face ``linkage_widget.kinematics`` is the function (the issue's contract),
which shadows this subpackage's name there: take the other names with ``from
linkage_widget.kinematics import ...`` (``import linkage_widget.kinematics as k`` gives
the function).

It sits beside :mod:`linkage_widget.configuration` in the layers: it reads the
constraint rows (:mod:`linkage_widget.constraints`) and the rigidity's rank rule and
statics (:mod:`linkage_widget.rigidity`), never the simulator.
"""

from __future__ import annotations

from .centres import Bodies, InstantCentres, bodies, instant_centres
from .driven import Kinematics, MechanismError, kinematics, slider_kinematics, timed_kinematics
from .sensitivity import Sensitivity, ToleranceBand, sensitivity, tolerance_band
from .stroke import Stroke, stroke
from .transmission import Transmission, mechanical_advantage, transmission_angle

__all__ = [
    "Bodies",
    "InstantCentres",
    "Kinematics",
    "MechanismError",
    "Sensitivity",
    "Stroke",
    "ToleranceBand",
    "Transmission",
    "bodies",
    "instant_centres",
    "kinematics",
    "mechanical_advantage",
    "sensitivity",
    "slider_kinematics",
    "stroke",
    "timed_kinematics",
    "tolerance_band",
    "transmission_angle",
]
