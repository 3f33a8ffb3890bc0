"""The 2007 program's leftovers: merging a file, counted load/save messages, ``max_step``.

Part of :class:`~linkage_widget.session.LinkageSession` (a mixin over its state; it
carries the mixins of :mod:`.keep_in_view`, :mod:`.joint_angle` and :mod:`.joint_names`
into the session's bases, so that the facade's module, at its 500 lines, need not grow).

* :meth:`MergeMixin.merge_file` adds the linkage of a file to the current one as
  one undo step. Its joints are placed to the right of the current drawing
  (:func:`~.document.merge_offset`: bottoms aligned, a gap of a quarter of the
  larger bounding box), so the two never overlap; into an empty session they
  keep the file's coordinates. Key ``L`` (shift-l) merges the file named in the
  file box, as ``l`` loads it.
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
  (:meth:`MergeMixin.step_slider_range`).
"""

from __future__ import annotations

import math
from os import PathLike
from typing import Any

from .. import _checks
from ..errors import LinkageFormatError
from ..model import Linkage
from .document import DEFAULT_FILE, counts_text, merge_mismatch, merge_offset, read_linkage_file
from .joint_angle import JointAngleMixin
from .joint_names import JointNamesMixin
from .keep_in_view import KeepInViewMixin
from .motion_driver import STEP_SLIDER

__all__ = ["DEFAULT_MAX_STEP", "MergeMixin"]

#: The default ``max_step``: no bound (a step size set in code is kept as set).
DEFAULT_MAX_STEP = math.inf


class MergeMixin(KeepInViewMixin, JointAngleMixin, JointNamesMixin):
    """Merge a file, counted file messages and ``max_step`` (module docstring).

    It brings the other 2007 leftovers' mixins into the session too:
    :class:`~.keep_in_view.KeepInViewMixin` (a merged file lands beside the drawing;
    motion and code keep it in view), :class:`~.joint_angle.JointAngleMixin` (a
    fixed angle between joints without rods) and :class:`~.joint_names.JointNamesMixin`
    (the ``joint_names`` trait kept with the document's names).
    """

    def __init__(self, *args: Any, max_step: float | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._max_step = DEFAULT_MAX_STEP
        self.observe(self._bound_step, names=["step_size", "mode"])
        if max_step is not None:
            self.max_step = max_step

    @property
    def max_step(self) -> float:
        """The largest kinematic ``step_size`` (world units; the 2007 ``max-step``)."""
        return self._max_step

    @max_step.setter
    def max_step(self, value: float) -> None:
        self._max_step = _checks.positive(value, "max_step")
        self._bound_step(None)
        self._controls_changed()  # type: ignore[attr-defined]  # the slider's upper end

    def step_slider_range(self, mode: str) -> tuple[float, float, float]:
        """``(min, max, step)`` of the step-size slider of ``mode``.

        :data:`~.motion_driver.STEP_SLIDER`'s range, the kinematic upper end lowered to
        :attr:`max_step` (and the lower end with it when ``max_step`` is below it).

        >>> from linkage_widget.session import LinkageSession
        >>> s = LinkageSession(max_step=5.0)
        >>> s.step_slider_range("kinematic"), s.step_slider_range("dynamic")
        ((0.05, 5.0, 0.05), (0.001, 0.05, 0.001))
        """
        lo, hi, step, *_ = STEP_SLIDER[mode]
        if mode == "kinematic" and self._max_step < hi:
            hi = self._max_step
            lo = min(lo, hi)
        return lo, hi, step

    def _bound_step(self, change: Any) -> None:
        """Lower a kinematic ``step_size`` above :attr:`max_step` to it."""
        if self.mode != "kinematic" or self.step_size <= self._max_step:
            return
        if getattr(self, "_ready", False):
            self.step_size = self._max_step
        else:  # under construction: no observer can run yet (no driver), set it quietly
            self._trait_values["step_size"] = self._max_step

    def _file_message(self, verb: str, name: Any, linkage: Linkage | None = None) -> str:
        """``"<verb> <name>: 8 joints, 10 rods, 2 pins, 0 fixed angles"`` (default: the model)."""
        return f"{verb} {name}: {counts_text(self.linkage if linkage is None else linkage)}"

    def _loaded(self, name: Any, linkage: Linkage) -> str:
        """The message of a load of ``linkage`` from ``name``."""
        return self._file_message("loaded", name, linkage)

    def merge_file(self, path: str | PathLike[str]) -> range:
        """Add the linkage of file ``path`` (and its JSON sibling) to this one, undoably.

        The file's joints, rods, fixed angles and pins are appended (file joint
        ``i`` becomes ``n + i``, ``n`` the current count), shifted to the right of
        the current drawing (module docstring); its tracked joints, springs and
        joint names come along (its names after the current ones), its motors,
        loads and forces do not (the message says so).

        Returns
        -------
        range
            The indices of the merged joints.

        Raises
        ------
        FileNotFoundError, LinkageFormatError
            When the file cannot be read; the linkage is unchanged and
            :attr:`error` says why.
        ValueError
            When one linkage is planar and the other 3-D (into an empty session either
            may come); the linkage is unchanged and :attr:`error` says so.
        """
        try:
            other, ext = read_linkage_file(path)
        except (LinkageFormatError, OSError, ValueError) as exc:
            self.error = f"could not merge {path}: {exc}"
            raise
        n = self.linkage.n_vertices
        if n and other.dim != self.linkage.dim:  # planar and 3-D: no union to draw or move
            self.error = f"could not merge {path}: {merge_mismatch(self.linkage.dim, other.dim)}"
            raise ValueError(self.error)
        offset = merge_offset(self.linkage.vertices, other.vertices)
        note: list[str] = []
        if not self._edit(lambda: note.append(self.document.merge(other, ext, offset))):
            raise ValueError(self.error)
        self.fit()
        added = range(n, n + other.n_vertices)
        where = f" as joints {added.start}-{added.stop - 1}" if len(added) else ""
        self._message = f"merged {path}: {counts_text(other)}{where}{note[0]}"
        return added

    def _do_merge(self) -> None:
        name = self.file_name or DEFAULT_FILE
        try:
            self.merge_file(name)
        except (OSError, ValueError):  # merge_file has put the message into self.error
            return
