"""The 2007 program's leftovers: merging a file, counted load/save messages, ``max_step``.

Values in, values out: the :class:`~linkage_widget.session.LinkageSession` reads the file
through :func:`plan_merge`, makes the edit and shows :func:`merged_message`; it keeps
``max_step`` and bounds its step size by :func:`bounded_step`.

* ``merge_file`` adds the linkage of a file to the current one as one undo step.
  Its joints are placed to the right of the current drawing
  (:func:`merge_offset`: bottoms aligned, a gap of a quarter of the
  larger bounding box), so the two never overlap; into an empty session they
  keep the file's coordinates. Its sliders and slots come along, renumbered, the
  sliders' lines moved with its joints (:func:`~.guided.merged_guides`). Key ``L``
  (shift-l) merges the file named in the file box, as ``l`` loads it.
* Load and save messages give the counts: ``loaded peaucellier.txt: 8 joints,
  10 rods, 2 pins, 0 fixed angles``.
* ``max_step`` is the 2007 command line's third argument
  (``python linkage.py <file> <step-size> <max-step>``): here the largest
  kinematic step size, i.e. the upper bound of ``step_size`` in kinematic mode
  (a larger value, from the slider or code, is lowered to it). A keyword of the
  constructors and of ``load``; by default there is no bound
  (:data:`DEFAULT_MAX_STEP` is infinite), so a step size set in code stays exactly
  what was set. Dynamic mode's time step is not bounded by it. It also bounds a
  drag's kinematic steps (:class:`~.motion_driver.SimulatorSpec`: a drag then lags the pointer, as
  in 2007) and lowers the kinematic step slider's upper end
  (:func:`step_slider_range`).
"""

from __future__ import annotations

import math
from os import PathLike
from typing import Any, NamedTuple

import numpy as np

from ..io import Extensions
from ..model import Linkage
from .document import Document, counts_text, merge_mismatch, read_linkage_file
from .motion_driver import STEP_SLIDER

__all__ = [
    "DEFAULT_MAX_STEP",
    "MergeMismatch",
    "MergePlan",
    "bounded_step",
    "file_message",
    "merge_failure",
    "merge_into",
    "merge_offset",
    "merged_message",
    "plan_merge",
    "step_slider_range",
]

#: The default ``max_step``: no bound (a step size set in code is kept as set).
DEFAULT_MAX_STEP = math.inf


# ------------------------------------------------------------------ max_step
def step_slider_range(mode: str, max_step: float) -> tuple[float, float, float]:
    """``(min, max, step)`` of the step-size slider of ``mode``.

    :data:`~.motion_driver.STEP_SLIDER`'s range, the kinematic upper end lowered to
    ``max_step`` (and the lower end with it when ``max_step`` is below it).

    >>> step_slider_range("kinematic", 5.0), step_slider_range("dynamic", 5.0)
    ((0.05, 5.0, 0.05), (0.001, 0.05, 0.001))
    """
    lo, hi, step, *_ = STEP_SLIDER[mode]
    if mode == "kinematic" and max_step < hi:
        hi = max_step
        lo = min(lo, hi)
    return lo, hi, step


def bounded_step(mode: str, step_size: float, max_step: float) -> float:
    """``step_size`` in ``mode``, a kinematic one lowered to ``max_step``.

    >>> bounded_step("kinematic", 5.0, 2.0), bounded_step("dynamic", 5.0, 2.0)
    (2.0, 5.0)
    """
    return min(step_size, max_step) if mode == "kinematic" else step_size


# ------------------------------------------------------------------ messages
def file_message(verb: str, name: Any, linkage: Linkage) -> str:
    """``"<verb> <name>: 8 joints, 10 rods, 2 pins, 0 fixed angles"``."""
    return f"{verb} {name}: {counts_text(linkage)}"


# --------------------------------------------------------------------- merge
class MergeMismatch(ValueError):
    """A planar and a 3-D linkage: no union to draw or move (the message says what to do)."""


class MergePlan(NamedTuple):
    """A file read for a merge: its linkage and extensions, where it goes, its new joints."""

    linkage: Linkage
    ext: Extensions
    offset: np.ndarray  #: the shift of the file's joints, shape (d,)
    added: range  #: the indices its joints will have


def plan_merge(path: str | PathLike[str], current: Linkage) -> MergePlan:
    """Read file ``path`` for a merge into ``current`` (module docstring): where it goes.

    Raises
    ------
    FileNotFoundError, LinkageFormatError
        When the file cannot be read.
    MergeMismatch
        When one linkage is planar and the other 3-D (into an empty one either may come).
    """
    other, ext = read_linkage_file(path)
    n = current.n_vertices
    if n and other.dim != current.dim:
        raise MergeMismatch(f"could not merge {path}: {merge_mismatch(current.dim, other.dim)}")
    offset = merge_offset(current.vertices, other.vertices)
    return MergePlan(other, ext, offset, range(n, n + other.n_vertices))


def merge_failure(path: str | PathLike[str], exc: Exception) -> str:
    """The error shown when :func:`plan_merge` raised ``exc``."""
    return str(exc) if isinstance(exc, MergeMismatch) else f"could not merge {path}: {exc}"


def merge_into(document: Document, path: str | PathLike[str], plan: MergePlan) -> str:
    """Merge ``plan`` into ``document`` (:meth:`.Document.merge`); what the merge says."""
    return merged_message(path, plan, document.merge(plan.linkage, plan.ext, plan.offset))


def merged_message(path: str | PathLike[str], plan: MergePlan, note: str) -> str:
    """What a merge says: the file's counts, the merged joints' indices and ``note``.

    ``note`` is the document's word on what did not come along (motors, loads ...).
    """
    added = plan.added
    where = f" as joints {added.start}-{added.stop - 1}" if len(added) else ""
    return f"merged {path}: {counts_text(plan.linkage)}{where}{note}"


def merge_offset(current: np.ndarray, merged: np.ndarray) -> np.ndarray:
    r"""Where merged joints go: to the right of the current ones, bottoms aligned, shape (d,).

    With bounding boxes :math:`[x_0, x_1] \times [y_0, y_1]` (current) and
    :math:`[x_0', x_1'] \times [y_0', y_1']` (merged), the shift is
    :math:`(x_1 - x_0' + g,\; y_0 - y_0')` with gap :math:`g` a quarter of the
    larger box side (1 when both are points), so the two never overlap; in space
    (``d = 3``) :math:`z` is not shifted. No current joints: no shift (the file's own
    coordinates).

    Parameters
    ----------
    current, merged : (n, d), (m, d) ndarray
        Joint positions, both planar or both in space.
    """
    shift = np.zeros(merged.shape[1] if merged.ndim == 2 else 2)
    if len(current) == 0 or len(merged) == 0:
        return shift
    lo, hi = current.min(axis=0), current.max(axis=0)
    lo2, hi2 = merged.min(axis=0), merged.max(axis=0)
    side = float(max(np.max(hi - lo), np.max(hi2 - lo2)))
    gap = 0.25 * side if side > 0 else 1.0
    shift[:2] = hi[0] - lo2[0] + gap, lo[1] - lo2[1]
    return shift
