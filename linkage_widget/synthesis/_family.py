r"""What path synthesis needs to know of a kind of mechanism (four-bar, Watt, Stephenson).

Path synthesis (:mod:`~linkage_widget.synthesis.path`) searches one *family* of
mechanisms at a time and knows nothing else of it. A family describes its designs in a
*normalised frame*: the crank's ground pivot at the origin, the crank of length 1, the
other ground pivots placed by the shape parameters. The search then fits the similarity
(scale :math:`s`, turn :math:`\varphi`, shift :math:`t`) that carries the normalised
tracer curve onto the target,

.. math:: x_{\text{target}} \approx t + s\,R(\varphi)\, P(\theta;\, q, \sigma),

where :math:`q` are the family's continuous shape parameters, :math:`\sigma` its assembly
branch signs (each :math:`\pm 1`, held fixed by the local polish) and :math:`\theta` the
crank angle from the x-axis in the normalised frame (so the crank angle in the target's
frame is :math:`\theta + \varphi`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..model import Linkage

__all__ = ["PathFamily"]


@dataclass(frozen=True)
class PathFamily:
    r"""One kind of mechanism that path synthesis can search, as values and pure functions.

    Attributes
    ----------
    name : str
        The ``kind`` the user names: ``"four-bar"``, ``"watt"``, ``"stephenson"``.
    size : int
        The number :math:`p` of continuous shape parameters :math:`q`.
    signs : int
        The number :math:`s` of assembly branch signs :math:`\sigma`.
    sample : callable
        ``sample(rng, count) -> (q (count, p), sigma (count, s))``: random designs for the
        global search, spread over the shapes worth trying (not all need assemble).
    trace : callable
        ``trace(q (b, p), sigma (b, s), theta (k,)) -> (b, k, 2)``: the tracer point of
        each design at each crank angle, in the normalised frame, on the branch the signs
        name; NaN where that design does not assemble. Vectorised over designs and angles.
    build : callable
        ``build(q (p,), sigma (s,), theta) -> (linkage, tracer, motor)``: the design as a
        :class:`~linkage_widget.Linkage` placed at crank angle ``theta`` in the normalised
        frame (ground pivots pinned), the tracer's vertex and the motor ``(pivot, tip)``
        whose rod is the crank (as ``kinematics`` and ``Simulator.add_motor`` take it).
    bounds : callable
        ``bounds(q (p,)) -> bool``: whether a polished design is still one the family
        accepts (lengths positive and not degenerate), checked after the local polish.
    describe : callable or None
        ``describe(q (p,), sigma (s,), theta (k,)) -> (grashof, (mu_min, mu_max))``: what
        a teacher reads off a design over the crank angles it runs through, its Grashof
        class and its transmission angle range in degrees (either None where it does
        not apply); None for a family that says neither.
    """

    name: str
    size: int
    signs: int
    sample: Callable[[np.random.Generator, int], tuple[np.ndarray, np.ndarray]]
    trace: Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]
    build: Callable[[np.ndarray, np.ndarray, float], tuple[Linkage, int, tuple[int, int]]]
    bounds: Callable[[np.ndarray], bool]
    describe: Callable[[np.ndarray, np.ndarray, np.ndarray], tuple] | None = None
