"""Motors, loads, forces, friction and the tracks of a session: the actuation controller.

:class:`Actuation` is built by the session and holds no reference to it. Each of its
operations takes a :class:`Stage` (what it reads of the session now: the current
:class:`~.drives.Drives`, the linkage, the view, the load size ...) and returns an
:class:`Actuated` (a new set of drives and the message to show, or what else changed);
the session applies it, a new set of drives through its undoable ``_edit``, so undo
and redo cover it through the document snapshot. A bad motor or load raises and
changes nothing. What a motor, a load or a force is and how deleting a vertex
renumbers them lives in :mod:`.drives` (values, pure).

What the drawing and the readout show of forces (:meth:`Actuation.force_view`):

* not moving, or kinematic: the statics of the current loads
  (:func:`~linkage_widget.static_forces`, kept by :class:`Statics`): rod tensions and
  the support reactions that balance the loads;
* dynamic mode after a step: the simulator's
  :attr:`~linkage_widget.motion.Simulator.constraint_forces` (rods, pin reactions)
  and, for the selected joint, its velocity and acceleration.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from os import PathLike
from pathlib import Path
from typing import Any

import numpy as np

from ..draw import ViewTransform
from ..elements import Load, Motor, PathForce, PathFriction, Torque
from ..io import atomic_write
from ..model import Linkage
from ..motion import Simulator
from ..rigidity import StaticsReport
from .drives import (
    Drives,
    check_law,
    check_motor,
    joint_motion_lines,
    load_from_drag,
    motor_ends,
    rod_force_lines,
    statics_lines,
    tracks_csv,
)
from .space_view import PlaneView, SpaceView
from .statics_memo import Statics

__all__ = ["Actuated", "Actuation", "ForceView", "Stage"]

JointForces = list[tuple[int, float, float]]

#: rod forces ``(m,)`` (or ``None``), support reactions ``[(vertex, fx, fy)]`` and their
#: source (``"statics"``, ``"dynamics"``; ``""``: none shown)
ForceView = tuple[np.ndarray | None, JointForces, str]


@dataclass(frozen=True)
class Stage:
    """What :class:`Actuation` reads of the session, as values (built anew for each call).

    Attributes
    ----------
    drives : Drives
        The document's motors, loads, path forces and friction.
    linkage : Linkage
        The model (read, never changed here).
    viewer : PlaneView or SpaceView
        The view of the linkage: its refusal of planar-only actions (``""`` in the plane).
    view : ViewTransform
        World -> pixel, for the pixels of a click or a drag.
    load_size : float
        A default load's size (force units).
    motors_running : bool
        Whether the motors are on.
    versions : tuple of int
        ``(structure version, position version)``: what the statics memo is kept by.
    show_forces : bool
        Whether forces are shown at all.
    dynamics : Simulator or None
        The simulator in dynamic mode (``None`` in kinematic mode or before there is one).
    running : bool
        Whether the linkage moves (a slow statics solve is then not redone every frame).
    """

    drives: Drives
    linkage: Linkage
    viewer: PlaneView | SpaceView
    view: ViewTransform
    load_size: float
    motors_running: bool
    versions: tuple[int, int]
    show_forces: bool
    dynamics: Simulator | None
    running: bool


@dataclass(frozen=True)
class Actuated:
    """What an operation of :class:`Actuation` asks the session to do.

    Attributes
    ----------
    drives : Drives or None
        The new drives: one undoable edit showing ``message`` (``None``: no edit).
    message : str or None
        The message to show (``None``: the one shown stays).
    running : bool or None
        Whether the motors now run (``None``: unchanged); set with the error cleared.
    """

    drives: Drives | None = None
    message: str | None = None
    running: bool | None = None


class Actuation:
    """The motors, loads, forces, friction and tracks of a session (module docstring).

    Parameters
    ----------
    clock : callable() -> float
        The session's clock: the statics memo measures its solves with it.

    Attributes
    ----------
    memo : Statics
        The statics of the linkage as it is (and the cost of the last solve).
    load_aim : tuple of (int, float, float) or None
        The load a load-tool drag under way aims, ``(vertex, fx, fy)``.
    """

    def __init__(self, clock: Callable[[], float]) -> None:
        self.memo = Statics(clock)
        self.load_aim: tuple[int, float, float] | None = None

    # ================================================================ edits
    def add_motor(
        self,
        stage: Stage,
        pivot: int,
        tip: int,
        speed: float = 1.0,
        reference: tuple[int, int] | None = None,
    ) -> Actuated:
        """Drive the rod ``pivot``-``tip`` at ``speed`` rad/s (counter-clockwise > 0).

        A motor already on the rod is replaced; the new one is the last of the motors.
        :meth:`toggle_motors` (key o) starts them.

        Parameters
        ----------
        stage : Stage
            The session now.
        pivot, tip : int
            The rod's ends; it turns about ``pivot``.
        speed : float
            Angular speed in rad/s, counter-clockwise positive (world axes, y up).
        reference : tuple of int, optional
            Measure the angle from that rod instead of the ground x-axis.

        Returns
        -------
        Actuated
            The drives with the motor, and its message.

        Raises
        ------
        ValueError, IndexError
            An unknown vertex or rod, a rod with both ends pinned, or a 3-D linkage
            (motors are planar).
        """
        _refuse(stage.viewer.refusal("motors"))
        check_motor(stage.linkage, pivot, tip, reference)
        motor = Motor(pivot, tip, speed, reference)
        said = f"motor on rod {motor.pivot}-{motor.tip} (o starts it)"
        return Actuated(stage.drives.with_motor(motor), said)

    def remove_motor(self, stage: Stage, k: int) -> Actuated:
        """Remove motor ``k`` (later ones shift down).

        Raises
        ------
        IndexError
            When there is no motor ``k``.
        """
        return Actuated(stage.drives.without_motor(k), f"motor {k} removed")

    def add_load(self, stage: Stage, vertex: int, force: Any = None) -> Actuated:
        """Put the load ``force = (fx, fy)`` on joint ``vertex``, replacing the load there.

        Parameters
        ----------
        stage : Stage
            The session now.
        vertex : int
            The loaded joint.
        force : (float, float) or, for a 3-D linkage, (float, float, float), optional
            World axes, y up (z up in space), force units. Default: ``stage.load_size`` down.

        Raises
        ------
        IndexError, ValueError
            An unknown vertex, a non-finite force, or one with a component too many or few.
        """
        _check_vertex(stage.linkage, vertex)
        dim = stage.linkage.dim
        down = (0.0,) * (dim - 1) + (-stage.load_size,)
        load = Load(vertex, *(down if force is None else force)).in_dim(dim)
        return Actuated(stage.drives.with_load(load), f"load on vertex {vertex}")

    def remove_load(self, stage: Stage, vertex: int) -> Actuated:
        """Remove the load on joint ``vertex``.

        Raises
        ------
        ValueError
            When there is no load on it.
        """
        return Actuated(stage.drives.without_load(int(vertex)), "load removed")

    def add_force(self, stage: Stage, i: int, j: int, force: Any) -> Actuated:
        """A force along the pathway ``i``-``j``, expansile > 0 (dynamic mode).

        ``force``: a number, or a law ``force(length, extension_velocity)`` (as the
        simulator's ``add_force``), called once now at rest.

        Raises
        ------
        IndexError, ValueError, TypeError
            An unknown vertex, a bad force or law (along the pathway: in the plane or in
            space).
        """
        for v in (i, j):
            _check_vertex(stage.linkage, v)
        pts = stage.linkage.vertices
        check_law(force, (float(np.linalg.norm(pts[i] - pts[j])), 0.0), f"force {i}-{j}")
        d = stage.drives
        return Actuated(replace(d, forces=(*d.forces, PathForce(i, j, force))), f"force {i}-{j}")

    def add_torque(
        self, stage: Stage, pivot: int, tip: int, torque: Any, reference: Any = None
    ) -> Actuated:
        """A torque on the rod ``pivot``-``tip`` about ``pivot``, counter-clockwise > 0 (dynamic).

        ``torque``: force x length, or a law ``torque(time, angle, angular_speed)`` of the
        rod's angle (radians, from the ground x-axis or the rod ``reference``, which
        takes the reaction) and its rate (:class:`~linkage_widget.elements.Torque`),
        called once now at rest. Raises (``IndexError``, ``ValueError``, ``TypeError``)
        as :meth:`add_motor` for the rod, for a bad torque or law, or in 3-D.
        """
        _refuse(stage.viewer.refusal("torques"))
        try:
            check_motor(stage.linkage, pivot, tip, reference)
        except (IndexError, ValueError) as exc:
            raise type(exc)(str(exc).replace("motor", "torque", 1)) from None
        check_law(torque, (0.0, 0.0, 0.0), f"torque on {pivot}-{tip}")
        x, d = Torque(pivot, tip, torque, reference), stage.drives
        return Actuated(replace(d, torques=(*d.torques, x)), f"torque on rod {x.pivot}-{x.tip}")

    def remove_torque(self, stage: Stage, k: int) -> Actuated:
        """Remove torque ``k`` (later ones shift down); ``IndexError`` when there is none."""
        return Actuated(stage.drives.without_torque(k), f"torque {k} removed")

    def add_friction(
        self,
        stage: Stage,
        i: int,
        j: int,
        normal_force: float,
        mu_k: float,
        mu_s: float | None = None,
        v_s: float | None = None,
        sigma: float = 0.0,
    ) -> Actuated:
        """Coulomb friction along the pathway ``i``-``j`` (dynamic mode).

        Parameters
        ----------
        stage : Stage
            The session now.
        i, j : int
            The pathway's joints.
        normal_force : float
            The normal force pressing the sliding surfaces together (force units).
        mu_k : float
            The kinetic friction coefficient.
        mu_s, v_s, sigma : float, optional
            Static coefficient, Stribeck velocity and viscous coefficient
            (:class:`~linkage_widget.elements.PathFriction`).

        Raises
        ------
        IndexError, ValueError
            An unknown vertex or a bad parameter (along the pathway: in the plane or in
            space).
        """
        for v in (i, j):
            _check_vertex(stage.linkage, v)
        fr = PathFriction(i, j, normal_force, mu_k, mu_s, v_s, sigma)
        d = stage.drives
        return Actuated(replace(d, frictions=(*d.frictions, fr)), f"friction {i}-{j}")

    def toggle_motors(self, stage: Stage) -> Actuated:
        """Start or stop the motors (key o): ``running`` says whether they now run.

        Without a motor nothing changes (``running`` is ``None``), the message says how
        to add one.
        """
        if not stage.drives.has_motors():
            return Actuated(message="no motor: pick the motor tool and click a rod (or a slider)")
        on = not stage.motors_running
        return Actuated(
            message="motors on (o stops, n reverses)" if on else "motors off", running=on
        )

    def reverse_motors(self, stage: Stage) -> Actuated:
        """Turn every motor the other way (key n); without a motor, only a message."""
        if not stage.drives.has_motors():
            return Actuated(message="no motor to reverse")
        return Actuated(stage.drives.reversed(), "motors reversed")

    @staticmethod
    def save_tracks_csv(tracks: Mapping[int, np.ndarray], path: str | PathLike[str]) -> Path:
        """Write joint loci as CSV, atomically.

        Parameters
        ----------
        tracks : mapping of int to (k, 2) array
            ``{vertex: world points}``, oldest first (every joint has a point per frame).
        path : str or path-like
            The file to write.

        Returns
        -------
        Path
            ``path``. The columns are ``point,x<v>,y<v>,...`` (:func:`.drives.tracks_csv`).
        """
        atomic_write(path, tracks_csv(tracks))
        return Path(path)

    # ============================================================== actions
    def key_toggle_motors(self, stage: Stage) -> Actuated:
        """Key o: :meth:`toggle_motors`, refused for a 3-D linkage."""
        _refuse(stage.viewer.refusal("motors"))
        return self.toggle_motors(stage)

    def motor_at(self, stage: Stage, r: int, x: float, y: float) -> Actuated:
        """The motor tool's click on rod ``r`` at pixel ``(x, y)``: a motor on it.

        The pivot is the pinned end, else the end nearer the click
        (:func:`.drives.motor_ends`); the speed is the last motor's (1 rad/s without one).
        """
        _refuse(stage.viewer.refusal("motors"))
        link = stage.linkage
        ends = tuple(int(v) for v in link.rods[r])
        pivot, tip = motor_ends(
            ends,
            stage.view.to_pixel(link.vertices[list(ends)]).tolist(),
            (link.is_pinned(ends[0]), link.is_pinned(ends[1])),
            (x, y),
        )
        motors = stage.drives.motors
        return self.add_motor(stage, pivot, tip, motors[-1].speed if motors else 1.0)

    def toggle_load(self, stage: Stage, v: int) -> Actuated:
        """The load tool's click on joint ``v``: its load goes, or a default one comes."""
        _refuse(stage.viewer.refusal("loads"))
        if any(load.vertex == v for load in stage.drives.loads):
            return self.remove_load(stage, v)
        return self.add_load(stage, v)

    def aim_load(self, stage: Stage, v: int, x: float, y: float) -> Actuated:
        """A load-tool drag from joint ``v`` is at pixel ``(x, y)``: aim the load (drawn)."""
        _refuse(stage.viewer.refusal("loads"))
        joint = stage.view.to_pixel(stage.linkage.vertices[v])
        self.load_aim = (v, *load_from_drag(joint, (x, y), stage.load_size))
        return Actuated()

    def set_load(self, stage: Stage, v: int, x: float, y: float) -> Actuated:
        """A load-tool drag from joint ``v`` ended at pixel ``(x, y)``: its load (a click: none)."""
        _refuse(stage.viewer.refusal("loads"))
        self.load_aim = None
        joint = stage.view.to_pixel(stage.linkage.vertices[v])
        force = load_from_drag(joint, (x, y), stage.load_size)
        if force == (0.0, 0.0):
            return Actuated()
        return self.add_load(stage, v, force)

    # ============================================================== readout
    def statics(self, stage: Stage) -> StaticsReport:
        """:func:`~linkage_widget.static_forces` of the linkage as it is, under its loads."""
        d = stage.drives
        return self.memo.report((*stage.versions, d.loads), stage.linkage, d.load_map())

    def live_statics(self, stage: Stage) -> StaticsReport | None:
        """:meth:`statics`, or while moving after a slow solve the last one (``None``: stale)."""
        d = stage.drives
        key = (*stage.versions, d.loads)
        return self.memo.live(key, stage.linkage, d.load_map(), stage.running)

    def shown_loads(self, stage: Stage) -> JointForces:
        """The loads drawn, ``[(vertex, fx, fy)]``: the document's, with the one being aimed.

        None in space: the arrows are drawn in the plane of the drawing.
        """
        if stage.linkage.dim != 2:
            return []
        shown = {x.vertex: (x.vertex, x.fx, x.fy) for x in stage.drives.loads}
        if self.load_aim is not None:
            shown[self.load_aim[0]] = self.load_aim
        return list(shown.values())

    def force_view(self, stage: Stage) -> ForceView:
        """Rod forces, support reactions and their source (``""``: none shown)."""
        drives, sim = stage.drives, stage.dynamics
        if not stage.show_forces or not (drives.loads or drives.has_motors()):
            return None, [], ""
        pinned = stage.linkage.pinned
        if sim is not None and sim.time > 0:
            cf = sim.constraint_forces
            return cf.rods, _pinned_forces(pinned, cf.pins), "dynamics"
        if not drives.loads:
            return None, [], ""
        report = self.live_statics(stage)
        if report is None:
            return None, [], ""
        return report.rod_forces, _pinned_forces(pinned, report.reactions), "statics"

    def drive_lines(
        self, stage: Stage, selected_rod: int | None, selected_vertex: int | None
    ) -> list[str]:
        """Readout lines: rod forces (statics or dynamics), motors, the selected joint's motion."""
        forces, _, source = self.force_view(stage)
        lines = rod_force_lines(forces, stage.linkage.rods, selected_rod, source)
        if source == "statics":
            lines += statics_lines(self.live_statics(stage))
        sim = stage.dynamics
        if stage.drives.has_motors():
            state = "running" if stage.motors_running else "stopped (o starts)"
            lines.append(f"motors: {stage.drives.motor_count()} {state}")
            if source == "dynamics" and stage.motors_running and sim is not None:
                torques = ", ".join(f"{t:.4g}" for t in sim.motor_torques)
                pushes = ", ".join(f"{f:.4g}" for f in sim.constraint_forces.pushes)
                lines += [f"motor torques: {torques}"] * bool(torques)
                lines += [f"linear motor forces (along the line): {pushes}"] * bool(pushes)
        v = selected_vertex
        if sim is not None and v is not None and sim.time > 0:
            lines += joint_motion_lines(v, sim.velocities[v], sim.accelerations[v])
        return lines


def _refuse(why: str) -> None:
    """Refuse what the view does not allow (``why``; ``""``: nothing to refuse)."""
    if why:
        raise ValueError(why)


def _check_vertex(linkage: Linkage, v: Any) -> None:
    n = linkage.n_vertices
    if isinstance(v, bool) or not isinstance(v, int | np.integer) or not 0 <= v < n:
        raise IndexError(f"vertex {v!r} out of range (there are {n} vertices)")


def _pinned_forces(pinned: Any, forces: np.ndarray) -> JointForces:
    """``[(vertex, fx, fy)]`` of per-pin forces ``(q, 2)`` in ``pinned`` order (none in space)."""
    rows = np.asarray(forces, dtype=np.float64)
    if rows.ndim == 2 and rows.shape[1] == 3:  # the arrows are drawn in the plane of the drawing
        return []
    rows = rows.reshape(-1, 2)
    return [(int(v), float(f[0]), float(f[1])) for v, f in zip(pinned, rows, strict=False)]
