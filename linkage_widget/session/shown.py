"""What a frame shows: the analysis (the live one while it is newer) and the scene state.

The session keeps two analyses: the full :class:`~linkage_widget.rigidity.RigidityReport`
(:class:`~.analysis.Analyst`, on edits and when a motion stops) and the live counts
of a drag (:class:`~.live.LiveAnalyst`, on every drawn frame). :func:`shown_analysis`
says which one the drawing and the readout show, as a :class:`ShownAnalysis`: the
live one while the joints move and it is of a newer placement than the full report,
else the full report of the current structure, else nothing yet ("analysing ...").
:func:`scene_state` puts it together with the session's other values into the
:class:`~linkage_widget.draw.SceneState` the drawing is built from.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..draw import SceneState
from ..rigidity import RigidityReport
from .analysis import Analyst, shown_motions
from .document import Document
from .live import LiveAnalyst, LiveState
from .motion_driver import Target
from .words import Readout, plain_words, report_words, stressed_rods

__all__ = ["SCENE_TRAITS", "ShownAnalysis", "scene_state", "shown_analysis"]

#: The SceneState fields that are the session's traits (and ``camera``) of the same name.
SCENE_TRAITS = (
    "selected_vertex", "selected_rod", "attractor", "tracked", "show_velocities",
    "show_vertices", "show_angles", "show_info", "show_stresses", "show_pebbles", "error",
    "show_labels", "joint_names", "pixel_ratio", "camera", "show_plots", "show_centres",
    "show_band",
)  # fmt: skip


@dataclass(frozen=True)
class ShownAnalysis:
    """The analysis the drawing and the readout show at one moment.

    Attributes
    ----------
    report : RigidityReport or None
        The full analysis, when it is of the current structure (``None``: analysing).
    live : LiveState or None
        The live analysis of the drag, when it is newer than ``report`` (or as new and
        the motion runs).
    behind : int
        Frames drawn at another placement since ``live``'s.
    flexes : bool
        Whether ``report``'s velocity basis still points the right way: it is of the
        current placement, or re-analysed during the motion (a stale basis would point
        the wrong way once the linkage moved far).
    """

    report: RigidityReport | None
    live: LiveState | None
    behind: int = 0
    flexes: bool = False

    @property
    def velocity_basis(self) -> np.ndarray | None:
        """Arrows, shape (k, n, d): the flex the drag excites while live, else the flexes."""
        if self.live is not None:
            return None if self.live.excited is None else self.live.excited[None]
        return shown_motions(self.report) if self.flexes else None

    @property
    def rod_stress(self) -> np.ndarray | None:
        """The stress colours, shape (m,): the live ones while live, else the report's."""
        if self.live is not None:
            return self.live.rod_stress
        return None if self.report is None else self.report.rod_stress

    def lines(self) -> list[str]:
        """The readout's technical lines: counts and status, live while dragging.

        While the joints move, the counts are those of the live analysis, with a
        line saying which drawn frame they belong to ("analysis live: frame N") or
        "analysis k frames behind" when throttled; the status and Maxwell lines of
        the full analysis are kept while its counts agree.
        """
        r, now = self.report, self.live
        if now is None:
            return ["analysing ..."] if r is None else list(r.summary_lines())
        lines = now.lines(self.behind)
        if r is not None and (r.dof, r.self_stresses) == (now.dof, now.self_stresses):
            lines[1:1] = [f"status: {r.status}"]
        return lines

    def words(self, held: np.ndarray) -> Readout:
        """The readout in plain words first, then the technical lines (:mod:`.words`).

        While the joints move, from the live analysis ("1 way to move" and its counts,
        :meth:`lines` as the details); ``words`` is empty while the first analysis
        runs. ``held`` (m,) bool: the rods between pinned joints, left out of the counts.
        """
        now, r = self.live, self.report
        if now is not None:
            free = None if now.rod_stress is None else np.where(held, 0.0, now.rod_stress)
            stressed = stressed_rods(free) if now.self_stresses else 0
            words = plain_words(now.internal_dof, now.trivial_dof, "flexible", stressed=stressed)
            return Readout(words, self.lines(), "")
        if r is None:
            return Readout([], ["analysing ..."], "")
        return report_words(r, held if len(held) == len(r.redundant_rods) else None)


def shown_analysis(
    analyst: Analyst, live: LiveAnalyst, at: tuple[int, int], running: bool, n_vertices: int
) -> ShownAnalysis:
    """What to show of ``analyst``'s report and ``live``'s state at versions ``at``.

    ``at``: the structure and position versions; ``running``: the motion runs (a live
    state as new as the report is shown while it does).
    """
    version, pos_version = at
    report = analyst.report if analyst.fresh(version) else None
    now = live.now(version, -1 if report is None else analyst.pos_version, running)
    flexes = analyst.live(n_vertices) or analyst.pos_version == pos_version
    return ShownAnalysis(report, now, live.behind(version) or 0, report is not None and flexes)


def scene_state(
    traits: Mapping[str, Any],
    shown: ShownAnalysis,
    document: Document,
    target: Target | None,
    forces: tuple[np.ndarray | None, Sequence[Any], Sequence[Any]],
    **more: Any,
) -> SceneState:
    """The drawing's :class:`~linkage_widget.draw.SceneState`.

    ``traits``: the session's values of :data:`SCENE_TRAITS`; ``shown``: the analysis
    shown (arrows, stress colours); ``document``: the pebble game's redundant rods, the
    springs and the motors; ``target``: the joint the attractor pulls; ``forces``: the
    rod forces, the loads and the support reactions drawn; ``more``: the other fields
    (``tracks``, ``motors_running``, ``branches``, ``hint``, ``kinematic``).
    """
    rod_forces, loads, reactions = forces
    attracted = target.vertex if target is not None and traits["attractor"] is not None else None
    return SceneState(
        **{**traits, "tracked": tuple(traits["tracked"])},
        attracted_vertex=attracted,
        velocity_basis=shown.velocity_basis,
        rod_stress=shown.rod_stress,
        redundant_rods=document.generic()[1],
        springs=tuple((s.i, s.j) for s in document.springs),
        rod_forces=rod_forces,
        loads=loads,
        reactions=reactions,
        motors=tuple((m.pivot, m.tip, m.speed) for m in document.drives.motors),
        linear_motors=tuple((m.slider, m.speed) for m in document.drives.linear_motors),
        **more,
    )
