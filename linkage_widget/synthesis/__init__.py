r"""Mechanism synthesis: the linkage that does a given thing, in closed form.

Analysis asks what a linkage does; synthesis asks for one that does it. Every result
holds a :class:`FourBar` in the layout of the bundled ``four_bar.txt`` (pivots 0 and 1
pinned, the crank 0 → 2 that ``kinematics(linkage, 0, 2, angles)`` turns):

* :func:`function_synthesis` (:class:`FunctionSynthesis`): the rocker's angle a given
  function of the crank's, by Freudenstein's equation at Chebyshev-spaced precision
  points, with the structural error over the range;
* :func:`motion_synthesis` (:class:`MotionSynthesis`): dyads that carry a body through
  two or three chosen poses, the Burmester curves of four and the Burmester points of
  five (:mod:`~linkage_widget.synthesis.burmester`), paired into four-bars;
* :func:`cognates`: the three Roberts–Chebyshev four-bars that trace one coupler curve,
  and :func:`cognate_candidates`, the same as path candidates on that curve (each with
  its crank, Grashof class and transmission);
* :func:`path_synthesis` (:class:`PathCandidate`): designs whose coupler point traces a
  given curve, by a global search and a least-squares polish over a family of
  mechanisms (:data:`~linkage_widget.synthesis.path.FAMILIES`).

It builds :class:`~linkage_widget.Linkage` objects from the model and nothing else, and
sits with :mod:`linkage_widget.kinematics` in the layers.
"""

from __future__ import annotations

from ._four_bar import FourBar
from .cognate_path import cognate_candidates
from .cognates import cognates
from .function import FunctionSynthesis, chebyshev_points, function_synthesis
from .motion import MotionSynthesis, motion_synthesis
from .path import PathCandidate, path_synthesis

__all__ = [
    "FourBar",
    "FunctionSynthesis",
    "MotionSynthesis",
    "PathCandidate",
    "chebyshev_points",
    "cognate_candidates",
    "cognates",
    "function_synthesis",
    "motion_synthesis",
    "path_synthesis",
]
