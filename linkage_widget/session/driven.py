"""Motors, loads, forces and the tracks of a session: its public methods and actions.

Part of :class:`~linkage_widget.session.LinkageSession` (a mixin over its state).
What a motor, a load or a force is and how deleting a vertex renumbers them lives
in :mod:`.drives` (values, pure); here each edit validates first (a bad motor or
load raises and changes nothing), then goes through the session's undoable
:meth:`_edit`, so undo and redo cover it through the document snapshot.

What the drawing and the readout show of forces:

* not moving, or kinematic: the statics of the current loads
  (:func:`~linkage_widget.static_forces`, :attr:`statics`): rod tensions and the
  support reactions that balance the loads;
* dynamic mode after a step: the simulator's
  :attr:`~linkage_widget.motion.Simulator.constraint_forces` (rods, pin reactions)
  and, for the selected joint, its velocity and acceleration.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from os import PathLike
from pathlib import Path
from typing import Any

import numpy as np

from ..elements import Load, Motor, PathForce, PathFriction
from ..io import atomic_write
from ..rigidity import StaticsReport, static_forces
from .drives import (
    check_motor,
    joint_motion_lines,
    load_from_drag,
    motor_ends,
    rod_force_lines,
    statics_lines,
    tracks_csv,
)

__all__ = ["STATICS_LIVE_MAX_S", "DrivenMixin", "Statics"]

#: While the linkage moves, statics are recomputed each frame only when the last solve took
#: at most this long (seconds); a slower one keeps showing the last forces until it stops.
STATICS_LIVE_MAX_S = 0.02

JointForces = list[tuple[int, float, float]]


class Statics:
    """The statics of the linkage as it is, solved again only when what it depends on changed.

    ``key`` is ``(structure version, position version, loads)``; the cost of the last
    solve is measured with ``clock`` (the session's), so that a moving linkage whose
    solve is slow keeps showing the last forces instead of solving on every frame.
    """

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self._memo: tuple[Any, StaticsReport] | None = None
        self.cost = 0.0  # seconds the last solve took

    def report(self, key: Any, linkage: Any, loads: Any) -> StaticsReport:
        """:func:`~linkage_widget.static_forces` of ``linkage`` under ``loads``, kept by ``key``."""
        if self._memo is None or self._memo[0] != key:
            t0 = self.clock()
            self._memo = (key, static_forces(linkage, loads))
            self.cost = self.clock() - t0
        return self._memo[1]

    def live(self, key: Any, linkage: Any, loads: Any, running: bool) -> StaticsReport | None:
        """:meth:`report`, or while moving after a slow solve the last one (``None``: stale).

        The last one stays while the structure and the loads are those it was solved
        for (the joints moved since).
        """
        memo = self._memo
        if not running or memo is None or self.cost <= STATICS_LIVE_MAX_S:
            return self.report(key, linkage, loads)
        same = memo[0][0] == key[0] and memo[0][2] == key[2]
        return memo[1] if same else None


class DrivenMixin:
    """The drive, load and track methods of a session (module docstring)."""

    clock: Callable[[], float]  # the session's (injected)

    def _init_driven(self) -> None:
        self._statics = Statics(self.clock)
        self._load_aim: tuple[int, float, float] | None = None  # load-tool drag under way

    # ============================================================ public API
    @property
    def motors(self) -> tuple[Motor, ...]:
        """The motors (:class:`~linkage_widget.io.Motor`: pivot, tip, speed rad/s, reference)."""
        return self.document.drives.motors

    @property
    def loads(self) -> dict[int, tuple[float, float]]:
        """The joint loads, ``{vertex: (fx, fy)}`` (world axes, y up; force units)."""
        return self.document.drives.load_map()

    def add_motor(
        self, pivot: int, tip: int, speed: float = 1.0, *, reference: tuple[int, int] | None = None
    ) -> int:
        """Drive the rod ``pivot``-``tip`` at ``speed`` rad/s (counter-clockwise > 0); undoable.

        ``reference``: measure the angle from that rod instead of the ground x-axis.
        A motor already on the rod is replaced. Returns the motor's index. Raises
        ``ValueError``/``IndexError`` (nothing changed) for an unknown vertex or rod, or
        a rod with both ends pinned. :meth:`toggle_motors` (key o) starts them.
        """
        self._refuse(self._viewer.refusal("motors"))  # planar: refused in space
        check_motor(self.linkage, pivot, tip, reference)
        motor = Motor(pivot, tip, speed, reference)
        drives = self.document.drives.with_motor(motor)
        self._set_drives(drives, f"motor on rod {motor.pivot}-{motor.tip} (o starts it)")
        return len(drives.motors) - 1

    def remove_motor(self, k: int) -> None:
        """Remove motor ``k`` (undoable); ``IndexError`` when there is none."""
        self._set_drives(self.document.drives.without_motor(k), f"motor {k} removed")

    def add_load(self, vertex: int, force: Any = None) -> None:
        """Put the load ``force = (fx, fy)`` on joint ``vertex`` (default: ``load_size`` down).

        Replaces the load there; undoable. Raises for an unknown vertex or a
        non-finite force (nothing changed).
        """
        self._refuse(self._viewer.refusal("loads"))  # planar: refused in space
        self._check_vertex(vertex)
        fx, fy = (0.0, -self.load_size) if force is None else force
        load = Load(vertex, fx, fy)
        self._set_drives(self.document.drives.with_load(load), f"load on vertex {vertex}")

    def remove_load(self, vertex: int) -> None:
        """Remove the load on joint ``vertex`` (undoable); ``ValueError`` when there is none."""
        self._set_drives(self.document.drives.without_load(int(vertex)), "load removed")

    def add_force(self, i: int, j: int, force: float) -> None:
        """A constant force along the pathway ``i``-``j``, expansile > 0 (dynamic; undoable)."""
        self._refuse(self._viewer.refusal("pathway forces"))  # planar: refused in space
        for v in (i, j):
            self._check_vertex(v)
        d = self.document.drives
        self._set_drives(replace(d, forces=(*d.forces, PathForce(i, j, force))), f"force {i}-{j}")

    def add_friction(
        self,
        i: int,
        j: int,
        normal_force: float,
        mu_k: float,
        *,
        mu_s: float | None = None,
        v_s: float | None = None,
        sigma: float = 0.0,
    ) -> None:
        """Coulomb friction along the pathway ``i``-``j`` (dynamic mode; undoable)."""
        self._refuse(self._viewer.refusal("pathway frictions"))  # planar: refused in space
        for v in (i, j):
            self._check_vertex(v)
        fr = PathFriction(i, j, normal_force, mu_k, mu_s, v_s, sigma)
        d = self.document.drives
        self._set_drives(replace(d, frictions=(*d.frictions, fr)), f"friction {i}-{j}")

    def toggle_motors(self) -> bool:
        """Start or stop the motors (key o); return whether they now run."""
        if not self.motors:
            self._message = "no motor: pick the motor tool and click a rod"
            self._request_draw()
            return False
        self.error = ""
        self.motors_running = not self.motors_running
        self._message = "motors on (o stops, n reverses)" if self.motors_running else "motors off"
        self._request_draw()
        return self.motors_running

    def reverse_motors(self) -> None:
        """Turn every motor the other way (key n; undoable)."""
        if not self.motors:
            self._message = "no motor to reverse"
            self._request_draw()
            return
        self._set_drives(self.document.drives.reversed(), "motors reversed")

    @property
    def statics(self) -> StaticsReport:
        """:func:`~linkage_widget.static_forces` of the linkage as it is, under :attr:`loads`."""
        return self._statics.report(self._statics_key(), self.linkage, self.loads)

    def _statics_key(self) -> tuple[int, int, Any]:
        """What the statics depend on: structure, positions and loads."""
        return (self._version, self._pos_version, self.document.drives.loads)

    @property
    def tracks(self) -> dict[int, np.ndarray]:
        """The loci of the tracked joints, ``{vertex: (k, 2) world points}``, oldest first."""
        return {v: pts.copy() for v, pts in self._tracks.as_dict().items()}

    def save_tracks_csv(self, path: str | PathLike[str]) -> Path:
        """Write :attr:`tracks` as CSV (``point,x<v>,y<v>,...``, atomically); return the path."""
        atomic_write(path, tracks_csv(self.tracks))
        return Path(path)

    # ============================================================== actions
    def _do_toggle_motors(self) -> None:
        self._refuse(self._viewer.refusal("motors"))  # planar: refused in space
        self.toggle_motors()

    def _do_reverse_motors(self) -> None:
        self.reverse_motors()

    def _do_motor_at(self, r: int, x: float, y: float) -> None:
        self._refuse(self._viewer.refusal("motors"))  # planar: refused in space
        ends = tuple(int(v) for v in self.linkage.rods[r])
        pivot, tip = motor_ends(
            ends,
            self._view.to_pixel(self.linkage.vertices[list(ends)]).tolist(),
            (self.linkage.is_pinned(ends[0]), self.linkage.is_pinned(ends[1])),
            (x, y),
        )
        self.add_motor(pivot, tip, self.motors[-1].speed if self.motors else 1.0)

    def _do_spring_between(self, i: int, j: int) -> None:
        self.add_spring(i, j)
        self.selected_vertex = j

    def _do_toggle_load(self, v: int) -> None:
        self._refuse(self._viewer.refusal("loads"))  # planar: refused in space
        if v in self.loads:
            self.remove_load(v)
        else:
            self.add_load(v)

    def _do_aim_load(self, v: int, x: float, y: float) -> None:
        self._refuse(self._viewer.refusal("loads"))  # planar: refused in space
        joint = self._view.to_pixel(self.linkage.vertices[v])
        self._load_aim = (v, *load_from_drag(joint, (x, y), self.load_size))
        self._request_draw()

    def _do_set_load(self, v: int, x: float, y: float) -> None:
        self._refuse(self._viewer.refusal("loads"))  # planar: refused in space
        self._load_aim = None
        joint = self._view.to_pixel(self.linkage.vertices[v])
        force = load_from_drag(joint, (x, y), self.load_size)
        if force == (0.0, 0.0):
            self._request_draw()
            return
        self.add_load(v, force)

    def _do_export_tracks(self) -> None:
        if not self.tracked:
            self._message = "track a vertex first (t), move, then export its locus"
            return
        path = self._export(".csv", "text/csv", self.save_tracks_csv)
        self._message = f"tracks saved: {path}"

    # ============================================================ internals
    def _check_vertex(self, v: Any) -> None:
        n = self.linkage.n_vertices
        if isinstance(v, bool) or not isinstance(v, int | np.integer) or not 0 <= v < n:
            raise IndexError(f"vertex {v!r} out of range (there are {n} vertices)")

    def _set_drives(self, drives: Any, message: str) -> None:
        self._edit(lambda: setattr(self.document, "drives", drives), message)

    def _shown_loads(self) -> JointForces:
        """The loads drawn: the document's, with the one being aimed by a drag."""
        shown = {v: (v, fx, fy) for v, (fx, fy) in self.loads.items()}
        if self._load_aim is not None:
            shown[self._load_aim[0]] = self._load_aim
        return list(shown.values())

    def _force_view(self) -> tuple[np.ndarray | None, JointForces, str]:
        """Rod forces, support reactions and their source (``""``: none shown)."""
        drives = self.document.drives
        if not self.show_forces or not (drives.loads or drives.motors):
            return None, [], ""
        sim = self.driver.simulator
        if self.mode == "dynamic" and sim is not None and sim.time > 0:
            cf = sim.constraint_forces
            return cf.rods, _pinned_forces(self.linkage.pinned, cf.pins), "dynamics"
        if not drives.loads:
            return None, [], ""
        report = self._live_statics()
        if report is None:
            return None, [], ""
        return report.rod_forces, _pinned_forces(self.linkage.pinned, report.reactions), "statics"

    def _live_statics(self) -> StaticsReport | None:
        """:attr:`statics`, or while moving after a slow solve the last one (``None``: stale)."""
        return self._statics.live(self._statics_key(), self.linkage, self.loads, self.running)

    def _drive_lines(self) -> list[str]:
        """Readout lines: rod forces (statics or dynamics), motors, the selected joint's motion."""
        forces, _, source = self._force_view()
        lines = rod_force_lines(forces, self.linkage.rods, self.selected_rod, source)
        if source == "statics":
            lines += statics_lines(self._live_statics())
        sim = self.driver.simulator
        if self.motors:
            state = "running" if self.motors_running else "stopped (o starts)"
            lines.append(f"motors: {len(self.motors)} {state}")
            if source == "dynamics" and self.motors_running and sim is not None:
                torques = ", ".join(f"{t:.4g}" for t in sim.motor_torques)
                lines.append(f"motor torques: {torques}")
        v = self.selected_vertex
        if self.mode == "dynamic" and sim is not None and v is not None and sim.time > 0:
            lines += joint_motion_lines(v, sim.velocities[v], sim.accelerations[v])
        return lines


def _pinned_forces(pinned: Any, forces: np.ndarray) -> JointForces:
    """``[(vertex, fx, fy)]`` of per-pin forces ``(q, 2)`` in ``pinned`` order."""
    rows = np.asarray(forces, dtype=np.float64).reshape(-1, 2)
    return [(int(v), float(f[0]), float(f[1])) for v, f in zip(pinned, rows, strict=False)]
