r"""What drives and loads the document's linkage, and the pure policy around it.

:class:`Drives` is the part of the document the 2007 format cannot hold besides
springs and tracked vertices: motors, joint loads, path forces and path friction,
and on sliders linear motors and friction along the slide (value objects of
:mod:`linkage_widget.io.sidecar`, which saves them). Like the rest of the
:class:`~.document.Document` it is a value: every edit returns a new one with the
message to show, so a :class:`~.history.Snapshot` keeps it for undo
for free, and deleting a vertex or a rod keeps its indices consistent.

The helpers below decide, from values only, where a motor tool click puts the
pivot (:func:`motor_ends`), what force a load-tool drag means
(:func:`load_from_drag`), the rows of the tracks CSV (:func:`tracks_csv`) and
the readout lines of forces and of the selected joint's motion.

Signs and units: a motor's ``speed`` is in rad/s, counter-clockwise positive
(world axes, y up); a load ``(fx, fy)`` and every force are in the linkage's force
units (mass x length / s^2); rod forces are tensions (positive pulls the ends
together, negative is compression).

Examples
--------
>>> d = Drives().with_motor(Motor(0, 1, 2.0)).with_load(Load(2, 0.0, -1.0))
>>> d.renumbered(1).motors, d.renumbered(1).loads
((), (Load(vertex=1, fx=0.0, fy=-1.0),))
>>> motor_ends((3, 4), ((0.0, 0.0), (10.0, 0.0)), (False, False), (8.0, 1.0))
(4, 3)
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..elements import (
    LinearMotor,
    Load,
    Motor,
    PathForce,
    PathFriction,
    SliderFriction,
    Torque,
    is_law,
)
from ..io import Extensions
from ..model import Linkage

__all__ = [
    "LOAD_DRAG_PX",
    "Drives",
    "check_law",
    "check_motor",
    "joint_motion_lines",
    "load_from_drag",
    "motor_ends",
    "rod_force_lines",
    "statics_lines",
    "tracks_csv",
]

#: A load-tool drag this many pixels long sets a load of ``load_size`` (longer: more).
LOAD_DRAG_PX = 60.0


@dataclass(frozen=True)
class Drives:
    """Motors, loads (at most one per joint), path forces, path friction and torques.

    ``linear_motors`` and ``slider_frictions`` name their slider by its index in
    :attr:`Linkage.sliders <linkage_widget.Linkage.sliders>` (at most one linear motor per
    slider); :meth:`on_sliders` keeps them on their joints when the sliders change.
    """

    motors: tuple[Motor, ...] = ()
    loads: tuple[Load, ...] = ()
    forces: tuple[PathForce, ...] = ()
    frictions: tuple[PathFriction, ...] = ()
    torques: tuple[Torque, ...] = ()
    linear_motors: tuple[LinearMotor, ...] = ()
    slider_frictions: tuple[SliderFriction, ...] = ()

    @classmethod
    def of(cls, ext: Extensions) -> Drives:
        """The drives a JSON sibling holds."""
        slides = (ext.linear_motors, ext.slider_frictions)
        return cls(ext.motors, ext.loads, ext.forces, ext.frictions, ext.torques, *slides)

    def is_empty(self) -> bool:
        """Whether there is nothing at all."""
        slides = self.linear_motors or self.slider_frictions
        return not (
            self.motors or self.loads or self.forces or self.frictions or self.torques or slides
        )

    def has_motors(self) -> bool:
        """Whether there is a motor to run: on a rod or on a slider."""
        return bool(self.motors or self.linear_motors)

    def motor_count(self) -> int:
        """How many motors there are, on rods and on sliders."""
        return len(self.motors) + len(self.linear_motors)

    def load_map(self) -> dict[int, tuple[float, ...]]:
        """``{vertex: (fx, fy)}`` (in space ``(fx, fy, fz)``), as ``static_forces`` takes them."""
        return {x.vertex: x.force for x in self.loads}

    # ---------------------------------------------------------------- edits
    def with_motor(self, motor: Motor) -> Drives:
        """Add ``motor`` (a motor already on its rod is replaced: one motor per rod)."""
        same = {motor.pivot, motor.tip}
        kept = tuple(m for m in self.motors if {m.pivot, m.tip} != same)
        return replace(self, motors=(*kept, motor))

    def without_motor(self, k: int) -> Drives:
        """Remove motor ``k`` (later ones shift down)."""
        if not 0 <= int(k) < len(self.motors):
            raise IndexError(f"motor {k} out of range (there are {len(self.motors)} motors)")
        return replace(self, motors=self.motors[: int(k)] + self.motors[int(k) + 1 :])

    def without_torque(self, k: int) -> Drives:
        """Remove torque ``k`` (later ones shift down)."""
        if not 0 <= int(k) < len(self.torques):
            raise IndexError(f"torque {k} out of range (there are {len(self.torques)} torques)")
        return replace(self, torques=self.torques[: int(k)] + self.torques[int(k) + 1 :])

    def with_linear_motor(self, motor: LinearMotor) -> Drives:
        """Add ``motor`` (a linear motor already on its slider is replaced: one per slider)."""
        kept = tuple(m for m in self.linear_motors if m.slider != motor.slider)
        return replace(self, linear_motors=(*kept, motor))

    def without_linear_motor(self, k: int) -> Drives:
        """Remove linear motor ``k`` (later ones shift down)."""
        n = len(self.linear_motors)
        if not 0 <= int(k) < n:
            raise IndexError(f"linear motor {k} out of range (there are {n} linear motors)")
        kept = self.linear_motors[: int(k)] + self.linear_motors[int(k) + 1 :]
        return replace(self, linear_motors=kept)

    def reversed(self) -> Drives:
        """Every motor turning (every linear motor pushing) the other way."""
        linear = tuple(m.reversed() for m in self.linear_motors)
        return replace(self, motors=tuple(m.reversed() for m in self.motors), linear_motors=linear)

    def on_sliders(
        self, before: Sequence[Any], after: Sequence[Any], removed: int | None = None
    ) -> Drives:
        """The drives after the sliders went from ``before`` to ``after`` (``Slider`` tuples).

        A linear motor or a slider's friction follows its joint (renumbered when vertex
        ``removed`` was deleted) to that joint's slider in ``after``; a joint that no
        longer slides takes them away.
        """
        where = {int(s.joint): k for k, s in enumerate(after)}

        def follow(items: Sequence[Any]) -> tuple[Any, ...]:
            out = []
            for x in items:
                j = int(before[x.slider].joint)
                if removed is not None and j == removed:
                    continue
                j -= removed is not None and j > removed
                if j in where:
                    out.append(replace(x, slider=where[j]))
            return tuple(out)

        return replace(
            self,
            linear_motors=follow(self.linear_motors),
            slider_frictions=follow(self.slider_frictions),
        )

    def with_load(self, load: Load) -> Drives:
        """Set the load on ``load.vertex`` (replacing the one there)."""
        kept = tuple(x for x in self.loads if x.vertex != load.vertex)
        return replace(self, loads=(*kept, load))

    def without_load(self, v: int) -> Drives:
        """Remove the load on joint ``v`` (none there: ``ValueError``)."""
        if all(x.vertex != v for x in self.loads):
            raise ValueError(f"there is no load on vertex {v}")
        return replace(self, loads=tuple(x for x in self.loads if x.vertex != v))

    def renumbered(self, removed: int) -> Drives:
        """The drives after vertex ``removed`` is deleted: what used it goes, the rest renumbers."""

        def keep(items: Sequence[Any]) -> tuple[Any, ...]:
            return tuple(y for y in (x.renumbered(removed) for x in items) if y is not None)

        return Drives(
            keep(self.motors),
            keep(self.loads),
            keep(self.forces),
            keep(self.frictions),
            keep(self.torques),
            self.linear_motors,  # by slider: the document calls on_sliders after it
            self.slider_frictions,
        )

    def on_rods(self, rods: np.ndarray) -> Drives:
        """Without the motors whose rod (or reference rod) is no longer in ``rods`` ``(m, 2)``."""
        pairs = {frozenset((int(a), int(b))) for a, b in np.asarray(rods).reshape(-1, 2)}

        def ok(m: Motor | Torque) -> bool:
            ref_ok = m.reference is None or frozenset(m.reference) in pairs
            return frozenset((m.pivot, m.tip)) in pairs and ref_ok

        motors, torques = (tuple(m for m in ms if ok(m)) for ms in (self.motors, self.torques))
        return replace(self, motors=motors, torques=torques)


def check_law(value: Any, args: tuple[float, ...], what: str) -> None:
    """A law (callable) must return a finite number at ``args``; else a clear error."""
    if not is_law(value):
        return
    out = value(*args)
    try:
        number = float(out)
    except (TypeError, ValueError):
        raise TypeError(f"{what}: the law returned {out!r}, not a number") from None
    if not math.isfinite(number):
        raise ValueError(f"{what}: the law returned {out!r}; it must be finite")


def check_motor(
    linkage: Linkage, pivot: int, tip: int, reference: tuple[int, int] | None = None
) -> None:
    """Refuse a motor the linkage cannot take (no rod, pinned, own reference): ``ValueError``."""
    n = linkage.n_vertices
    for v in (pivot, tip, *(reference or ())):
        if not 0 <= int(v) < n:
            raise IndexError(f"motor: vertex {v} out of range (there are {n} vertices)")
    for a, b in [(pivot, tip), *([reference] if reference is not None else [])]:
        if linkage.find_rod(int(a), int(b)) is None:
            raise ValueError(f"motor: there is no rod {a}-{b} to turn")
    if reference is None and linkage.is_pinned(int(pivot)) and linkage.is_pinned(int(tip)):
        raise ValueError(f"motor: rod {pivot}-{tip} has both ends pinned; it cannot turn")
    if reference is not None and set(reference) == {int(pivot), int(tip)}:
        raise ValueError(f"motor: rod {pivot}-{tip} cannot turn relative to itself")
    if reference is not None and all(linkage.is_pinned(int(v)) for v in (pivot, tip, *reference)):
        raise ValueError(
            f"motor: rods {pivot}-{tip} and {reference[0]}-{reference[1]} are pinned; "
            "they cannot turn"
        )


def motor_ends(
    ends: tuple[int, int],
    ends_px: Sequence[Sequence[float]],
    pinned: tuple[bool, bool],
    xy: Sequence[float],
) -> tuple[int, int]:
    """``(pivot, tip)`` of a motor on the rod ``ends`` clicked at pixel ``xy``.

    The pinned end is the pivot (a crank turns about its ground joint); when
    neither or both ends are pinned, the end nearer the click.
    """
    if pinned[0] != pinned[1]:
        return (ends[0], ends[1]) if pinned[0] else (ends[1], ends[0])
    d = [float(np.hypot(px[0] - xy[0], px[1] - xy[1])) for px in ends_px]
    return (ends[0], ends[1]) if d[0] <= d[1] else (ends[1], ends[0])


def load_from_drag(
    joint_px: Sequence[float], xy: Sequence[float], load_size: float
) -> tuple[float, float]:
    """The load a drag from the joint (pixel ``joint_px``) to pixel ``xy`` sets (world axes).

    :data:`LOAD_DRAG_PX` pixels of drag are ``load_size`` force units; pixel y is
    down, world y up.

    >>> load_from_drag((100.0, 100.0), (100.0, 160.0), 2.0)
    (0.0, -2.0)
    """
    k = float(load_size) / LOAD_DRAG_PX
    return (k * (xy[0] - joint_px[0]) + 0.0, k * (joint_px[1] - xy[1]) + 0.0)


def tracks_csv(tracks: Mapping[int, np.ndarray]) -> str:
    """The joint loci as CSV text: ``point,x<v>,y<v>,...``, one row per recorded point.

    Every tracked joint gets a point in every frame, so the columns have equal length.

    >>> print(tracks_csv({5: np.array([[0.0, 1.0], [0.5, 2.0]])}), end="")
    point,x5,y5
    0,0.0,1.0
    1,0.5,2.0
    """
    vertices = list(tracks)
    out = io.StringIO()
    out.write(",".join(["point", *(f"{c}{v}" for v in vertices for c in "xy")]) + "\n")
    if not vertices:
        return out.getvalue()
    table = np.column_stack([np.asarray(tracks[v], dtype=np.float64) for v in vertices])
    for k, row in enumerate(table):
        out.write(",".join([str(k), *(repr(float(x)) for x in row)]) + "\n")
    return out.getvalue()


def rod_force_lines(
    forces: np.ndarray | None, rods: np.ndarray, selected_rod: int | None, source: str
) -> list[str]:
    """Readout lines of the rod forces: the selected rod's, else the largest tension/compression.

    ``source`` names where they come from (``"statics"``, ``"dynamics"``).
    """
    if forces is None or len(forces) != len(rods) or len(forces) == 0:
        return []

    def said(r: int) -> str:
        f = float(forces[r])
        kind = "tension" if f > 0 else "compression" if f < 0 else "no force"
        return f"rod {r} ({rods[r][0]}-{rods[r][1]}): {kind} {abs(f):.4g}"

    if selected_rod is not None and 0 <= selected_rod < len(forces):
        return [f"{source}: {said(selected_rod)}"]
    lines = [f"{source}: rod forces (tension > 0), click a rod for its force"]
    hi, lo = int(np.argmax(forces)), int(np.argmin(forces))
    lines += [f"  max {said(r)}" for r in dict.fromkeys((hi, lo)) if forces[r] != 0]
    return lines


def statics_lines(report: Any) -> list[str]:
    """What a :class:`~linkage_widget.rigidity.statics.StaticsReport` says beyond the rod forces.

    Unbalanced: the work on the flex it excites (and which basis motion, when named);
    indeterminate: how many self-stresses the least-squares forces are unique up to.
    """
    lines = []
    if not report.balanced:
        named = "" if report.flex_index is None else f" (motion {report.flex_index})"
        lines.append(
            f"unbalanced: the load excites a flex{named}, work {report.flex_work:.4g}; "
            f"{report.residual:.4g} of it is not carried"
        )
    if not report.determinate:
        s = report.self_stresses
        lines.append(f"indeterminate: least-squares forces, up to {s} self-stress{'es' * (s > 1)}")
    return lines


def joint_motion_lines(vertex: int, velocity: Sequence[float], acceleration: Any) -> list[str]:
    """Readout line of the selected joint's velocity and acceleration (world units, s)."""
    vx, vy = (float(c) for c in velocity)
    line = f"vertex {vertex}: v = ({vx:.4g}, {vy:.4g}) |v| = {np.hypot(vx, vy):.4g}"
    if acceleration is not None:
        ax, ay = (float(c) for c in acceleration)
        line += f"  a = ({ax:.4g}, {ay:.4g}) |a| = {np.hypot(ax, ay):.4g}"
    return [line]
