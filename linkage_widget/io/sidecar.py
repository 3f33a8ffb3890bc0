"""What the 2007 file format cannot hold, kept in a JSON file beside it.

The widget saves ``name.txt`` in the 2007 format, which the old program still
reads, and, only when there is something to keep, ``name.txt.json`` with the
extensions: tracked vertices, joint names, springs, the mass distribution and
(version 2) the drives and loads: motors, joint loads, path forces, path friction and the
table friction, and the joints' and rods' own masses. Loading ``name.txt`` reads the
sibling when it exists. The sibling is named after the whole file name (not the
stem), so ``a.txt`` and ``a.dat`` never share one.

Format (``version`` 2; a file without drives or masses is still written as version 1,
byte for byte as before, so older readers keep reading it; version 3 when it holds
sliders or slots, which change the mechanism: an older reader refuses it rather than
move another linkage; version 4 when it holds cables or struts, which an older reader
would move as bars; all four are read)::

    {"linkage_widget_extensions": 2,
     "tracked": [5],
     "names": ["O", "Q", "A", "B", "D", "C"],
     "springs": [{"i": 0, "j": 3, "stiffness": 2.0, "rest_length": null, "damping": 0.0}],
     "mass_distribution": 0.25,
     "motors": [{"pivot": 0, "tip": 1, "speed": 1.0, "reference": null}],
     "loads": [{"vertex": 4, "force": [0.0, -1.0]}],
     "forces": [{"i": 2, "j": 5, "force": 3.0}],
     "frictions": [{"i": 2, "j": 5, "normal_force": 1.0, "mu_k": 0.3,
                    "mu_s": null, "v_s": null, "sigma": 0.0}],
     "table_friction": 0.2,
     "joint_masses": [{"vertex": 1, "mass": 0.5}],
     "rod_masses": [{"i": 0, "j": 1, "mass": 2.0, "centre": 0.25, "inertia": null}],
     "sliders": [{"joint": 3, "point": [4.0, 0.0], "direction": [1.0, 0.0]}],
     "slots": [[0, 1, 4]],
     "linear_motors": [{"slider": 0, "speed": 0.5}],
     "slider_frictions": [{"slider": 0, "mu_k": 0.2, "mu_s": 0.2, "v_s": null, "sigma": 0}],
     "cables": [[0, 1]],
     "struts": [[0, 2]]}

``linear_motors`` and ``slider_frictions`` (version 3) name a slider of ``sliders`` by index.
``cables`` and ``struts`` (version 4) mark rods of the 2007 file by their two joints
(:mod:`.sidecar_kinds`: why pairs, and how parallel rods are told apart).

Sliders and slots (:mod:`linkage_widget.guides`) belong to the linkage, not to a
session: :meth:`linkage_widget.Linkage.load` reads them from the sibling and
:meth:`linkage_widget.Linkage.save` writes them there (:func:`read_guides`,
:func:`save_linkage`), keeping the sibling's other keys; so do the members' kinds.

A rod's own mass names the rod by its joints; ``centre`` is the fraction of the way
from ``i`` to ``j`` (:class:`~linkage_widget.element_masses.RodMass`; ``inertia`` about
the centre, ``null``: a uniform rod's). The masses are version-2 keys: a reader that
ignored them would move the linkage with other masses, so a file with them is version 2.

Every key but the version is optional. ``names`` (joint ``i`` is called
``names[i]``; ``""`` or a missing entry: its index) is a version-1 key: it came
after version 1, but every reader of this module only looks up the keys it knows
(``data.get``) and ignores the others, so an older linkage_widget reads a named file
as before, without the names, and no version bump is needed.

Units are the linkage's: lengths in world units, time in seconds, forces in
mass x length / s^2; signs as in :class:`~linkage_widget.motion.Simulator` (motor
speed counter-clockwise positive, path force expansile positive).

Examples
--------
>>> ext = Extensions(tracked=(5,), mass_distribution=0.25)
>>> Extensions.from_json(ext.to_json(), n_vertices=6) == ext
True
>>> Extensions().is_empty()
True
>>> Extensions(loads=(Load(2, 0.0, -1.0),)).to_json().splitlines()[1]
' "linkage_widget_extensions": 2,'
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from os import PathLike
from pathlib import Path
from typing import Any

from .. import _checks
from ..element_masses import ElementMasses, RodMass
from ..elements import (
    LinearMotor,
    Load,
    Motor,
    PathForce,
    PathFriction,
    SliderFriction,
    Spring,
    Torque,
)
from ..errors import LinkageFormatError
from . import limits
from .atomic import atomic_write, atomic_write_pair
from .bundled import resolve_path
from .json_read import decode_utf8, load_json
from .sidecar_entries import (
    drives_json,
    entry_index,
    entry_list,
    masses_json,
    read_joint_masses,
    read_load,
    read_motor,
    read_names,
    read_on_sliders,
    read_path,
    read_rod_masses,
    read_sliders,
    read_slots,
    read_spring,
    read_torque,
    said,
    slides_json,
    spring_json,
)
from .sidecar_kinds import KIND_KEYS, kinds_json, kinds_of_rods, pairs_of_kinds, read_kind_pairs
from .text2007 import LinkageData, format_linkage

__all__ = [
    "Extensions",
    "apply_masses",
    "mass_entries",
    "read_extensions",
    "read_guides",
    "save_linkage",
    "sibling_path",
    "trimmed_names",
    "write_extensions",
]

VERSION = 2  # written when there are drives; files without them stay version 1
GUIDES_VERSION = 3  # written when there are sliders or slots
KINDS_VERSION = 4  # written when there are cables or struts
VERSIONS = (1, 2, 3, 4)  # read
_KEY = "linkage_widget_extensions"
_DRIVE_KEYS = ("motors", "loads", "forces", "frictions", "table_friction", "torques")
_MASS_KEYS = ("joint_masses", "rod_masses")
_GUIDE_KEYS = ("sliders", "slots", "linear_motors", "slider_frictions")


@dataclass(frozen=True)
class Extensions:
    """The extensions of one linkage file.

    Attributes
    ----------
    tracked : tuple of int
    springs : tuple of Spring
    names : tuple of str
        Joint names by index, at most one per vertex (``""`` or missing: unnamed);
        kept without trailing ``""`` (:func:`trimmed_names`), so an unnamed linkage
        has ``()``.
    mass_distribution : float
        In ``[0, 1]``; 0 (all mass at the joints) is the default.
    motors : tuple of Motor
    loads : tuple of Load
        At most one per vertex.
    forces : tuple of PathForce
    frictions : tuple of PathFriction
    table_friction : float
        Coefficient of the joints' friction against the table (>= 0; 0: none).
    joint_masses : tuple of (int, float)
        Joints with their own point mass ``(vertex, mass)``.
    rod_masses : tuple of (int, int, RodMass)
        Rods with their own mass, by their joints ``(i, j, RodMass)`` (centre from ``i``).
    torques : tuple of Torque
        Constant torques on rods (a torque law, a Python callable, is never written).
    sliders : tuple of (int, (float, float), (float, float))
        The linkage's sliders ``(joint, point, direction)``; slots: ``(a, b, c)``.
    linear_motors, slider_frictions : tuple of LinearMotor, tuple of SliderFriction
        Linear motors and friction along a slide, on sliders of ``sliders`` (by index).
    cables, struts : tuple of (int, int)
        The rods that are cables and struts, by their joints (:mod:`.sidecar_kinds`).
    """

    tracked: tuple[int, ...] = ()
    springs: tuple[Spring, ...] = field(default=())
    mass_distribution: float = 0.0
    motors: tuple[Motor, ...] = ()
    loads: tuple[Load, ...] = ()
    forces: tuple[PathForce, ...] = ()
    frictions: tuple[PathFriction, ...] = ()
    table_friction: float = 0.0
    names: tuple[str, ...] = ()
    joint_masses: tuple[tuple[int, float], ...] = ()
    rod_masses: tuple[tuple[int, int, RodMass], ...] = ()
    torques: tuple[Torque, ...] = ()
    sliders: tuple[Any, ...] = ()
    slots: tuple[Any, ...] = ()
    linear_motors: tuple[LinearMotor, ...] = ()
    slider_frictions: tuple[SliderFriction, ...] = ()
    cables: tuple[tuple[int, int], ...] = ()
    struts: tuple[tuple[int, int], ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "names", trimmed_names(self.names))

    def has_drives(self) -> bool:
        """Whether there is anything only version 2 holds."""
        return bool(self.motors or self.loads or self.forces or self.frictions) or bool(
            self.table_friction or self.torques
        )

    def is_empty(self) -> bool:
        """Whether there is nothing the 2007 file does not say already."""
        return (
            not self.tracked
            and not self.names
            and not self.springs
            and self.mass_distribution == 0.0
            and not self.has_drives()
            and not self.joint_masses
            and not self.rod_masses
            and not (self.sliders or self.slots or self.linear_motors or self.slider_frictions)
            and not (self.cables or self.struts)
        )

    def to_json(self) -> str:
        """The JSON text (stable key order, one trailing newline)."""
        newer = self.has_drives() or self.joint_masses or self.rod_masses
        guided = bool(self.sliders or self.slots or self.linear_motors or self.slider_frictions)
        version = GUIDES_VERSION if guided else VERSION if newer else 1
        data: dict[str, Any] = {_KEY: KINDS_VERSION if self.cables or self.struts else version}
        if self.tracked:
            data["tracked"] = [int(v) for v in self.tracked]
        if self.names:
            data["names"] = list(self.names)
        if self.springs:
            data["springs"] = [spring_json(s) for s in self.springs]
        if self.mass_distribution:
            data["mass_distribution"] = float(self.mass_distribution)
        data.update(drives_json(self))
        data.update(masses_json(self))
        if self.sliders:
            data["sliders"] = [
                {
                    "joint": int(j),
                    "point": [float(v) for v in p],
                    "direction": [float(v) for v in d],
                }
                for j, p, d in self.sliders
            ]
        if self.slots:
            data["slots"] = [[int(v) for v in t] for t in self.slots]
        data.update(slides_json(self.linear_motors, self.slider_frictions))
        data.update(kinds_json(self.cables, self.struts))
        return json.dumps(data, indent=1) + "\n"

    @classmethod
    def from_bytes(
        cls,
        data: bytes,
        *,
        n_vertices: int,
        source: str = "<bytes>",
        rods: Sequence[Sequence[int]] | None = None,
        dim: int = 2,
    ) -> Extensions:
        """Parse the bytes of a sibling file (UTF-8): :meth:`from_json` after decoding.

        Raises
        ------
        LinkageFormatError
            Also when the bytes are not UTF-8 text (naming ``source`` and the line), or
            above the size limit (:mod:`.limits`).
        """
        text = decode_utf8(bytes(data), source, "an extensions file")
        return cls.from_json(text, n_vertices=n_vertices, source=source, rods=rods, dim=dim)

    @classmethod
    def from_json(
        cls,
        text: str,
        *,
        n_vertices: int,
        source: str = "<string>",
        rods: Sequence[Sequence[int]] | None = None,
        dim: int = 2,
    ) -> Extensions:
        """Parse and check against a linkage of ``n_vertices`` vertices (and its ``rods``).

        With ``rods`` (``(m, 2)`` vertex pairs), a motor must turn an existing rod
        (and measure from one); a load has ``dim`` components (the linkage's dimension).

        Raises
        ------
        LinkageFormatError
            On invalid JSON (too deeply nested too), a wrong version, or any value out
            of range (an integer beyond int64 too); the message names the key and
            ``source`` the file. Nothing else escapes.
        """
        data = load_json(text, source)
        return cls.from_dict(data, n_vertices=n_vertices, source=source, rods=rods, dim=dim)

    @classmethod
    def from_dict(
        cls,
        data: Any,
        *,
        n_vertices: int,
        source: str = "<string>",
        rods: Sequence[Sequence[int]] | None = None,
        dim: int = 2,
    ) -> Extensions:
        """Check the parsed JSON object ``data`` (as :meth:`from_json` does after parsing).

        Raises
        ------
        LinkageFormatError
            Not an extensions object, or any value out of range, naming the key.
        """
        if not isinstance(data, dict) or data.get(_KEY) not in VERSIONS:
            raise LinkageFormatError(
                f"not a linkage_widget extensions file (expected {{'{_KEY}': {VERSION}, ...}})",
                source,
            )
        try:
            return _parse(data, n_vertices, rods, dim)
        # ArithmeticError: a number too big for a float or an int (OverflowError);
        # RecursionError: nesting that only a check's recursion meets
        except (TypeError, ValueError, KeyError, ArithmeticError, RecursionError) as exc:
            raise LinkageFormatError(said(exc), source) from None


def _parse(
    data: dict[str, Any], n: int, rods: Sequence[Sequence[int]] | None, dim: int
) -> Extensions:
    if data[_KEY] == 1:
        newer = [k for k in _DRIVE_KEYS + _MASS_KEYS if k in data]
        if newer:
            raise ValueError(f"{newer[0]}: needs version 2 of the file ({_KEY}: 2)")
    guided = [k for k in _GUIDE_KEYS if k in data]
    if guided and data[_KEY] < GUIDES_VERSION:
        raise ValueError(f"{guided[0]}: needs version 3 of the file ({_KEY}: 3)")
    kinds = [k for k in KIND_KEYS if k in data]
    if kinds and data[_KEY] < KINDS_VERSION:
        raise ValueError(f"{kinds[0]}: needs version 4 of the file ({_KEY}: 4)")
    tracked = tuple(entry_index(v, n, "tracked") for v in entry_list(data, "tracked"))
    if len(set(tracked)) != len(tracked):
        raise ValueError("tracked: a vertex is listed twice")
    springs = tuple(read_spring(s, n) for s in entry_list(data, "springs"))
    alpha = _checks.unit_interval(data.get("mass_distribution", 0.0), "mass_distribution")
    motors = tuple(read_motor(m, n, rods) for m in entry_list(data, "motors"))
    loads = tuple(read_load(x, n, dim) for x in entry_list(data, "loads"))
    if len({x.vertex for x in loads}) != len(loads):
        raise ValueError("loads: a vertex has two loads")
    forces = tuple(read_path(PathForce, x, n, "forces") for x in entry_list(data, "forces"))
    frictions = tuple(
        read_path(PathFriction, x, n, "frictions") for x in entry_list(data, "frictions")
    )
    mu = _checks.non_negative(data.get("table_friction", 0.0), "table_friction")
    names = read_names(entry_list(data, "names"), n)
    joints, rod_masses = read_joint_masses(data, n), read_rod_masses(data, n, rods)
    torques = tuple(read_torque(x, n, rods) for x in entry_list(data, "torques"))
    sliders = read_sliders(data, n)
    return Extensions(
        tracked, springs, alpha, motors, loads, forces, frictions, mu, names, joints, rod_masses,
        torques, sliders, read_slots(data, n), *read_on_sliders(data, len(sliders)),
        *read_kind_pairs(data, n, rods),
    )  # fmt: skip


def mass_entries(
    table: ElementMasses, rods: Sequence[Sequence[int]]
) -> tuple[tuple[tuple[int, float], ...], tuple[tuple[int, int, RodMass], ...]]:
    """The ``joint_masses`` and ``rod_masses`` of a linkage's table (``rods``: its ``(m, 2)``)."""
    joints = tuple((i, x) for i in range(table.n_vertices) if (x := table.joint(i)) is not None)
    own = [(r, x) for r in range(table.n_rods) if (x := table.rod(r)) is not None]
    return joints, tuple((int(rods[r][0]), int(rods[r][1]), x) for r, x in own)


def apply_masses(ext: Extensions, table: ElementMasses, rods: Sequence[Sequence[int]]) -> None:
    """Give a freshly read linkage's ``table`` the masses of ``ext`` (its rods: ``rods``).

    ``ext`` was checked against those rods (:meth:`Extensions.from_json` with ``rods``).
    """
    index = {(int(a), int(b)): r for r, (a, b) in enumerate(rods)}
    for v, m in ext.joint_masses:
        table.set_joint(v, m)
    for i, j, x in ext.rod_masses:
        r = index.get((i, j))
        table.set_rod(*((r, x) if r is not None else (index[(j, i)], x.reversed())))


def trimmed_names(names: Sequence[str]) -> tuple[str, ...]:
    """Joint names without trailing ``""`` (unnamed): the one form kept and compared.

    >>> trimmed_names(["O", "", "A", "", ""])
    ('O', '', 'A')
    """
    out = list(names)
    while out and out[-1] == "":
        out.pop()
    return tuple(out)


def sibling_path(path: str | PathLike[str]) -> Path:
    """``path`` with ``.json`` appended: ``a/b.txt`` -> ``a/b.txt.json``."""
    p = Path(path)
    return p.with_name(p.name + ".json")


def read_extensions(
    path: str | PathLike[str],
    n_vertices: int,
    rods: Sequence[Sequence[int]] | None = None,
    dim: int = 2,
) -> Extensions:
    """The extensions beside the linkage file ``path``; empty when there is no sibling."""
    sib = sibling_path(path)
    if not sib.is_file():
        return Extensions()
    return Extensions.from_bytes(
        limits.read_bounded(sib, str(sib)), n_vertices=n_vertices, source=str(sib), rods=rods,
        dim=dim,
    )  # fmt: skip


def write_extensions(path: str | PathLike[str], ext: Extensions) -> None:
    """Write (atomically) or remove the sibling of ``path``.

    An empty :class:`Extensions` removes a stale sibling, so a later load does
    not pick up tracked vertices or springs this linkage no longer has.
    """
    sib = sibling_path(path)
    if ext.is_empty():
        sib.unlink(missing_ok=True)
    else:
        atomic_write(sib, ext.to_json())


def read_guides(path: str | PathLike[str], data: LinkageData) -> tuple[LinkageData, str]:
    """``data`` (read from the linkage file ``path``) with the sibling's sliders, slots and kinds.

    Returns the data and where its guides and kinds come from (the sibling's name, for an
    error the model finds in them; ``path`` when there are none).
    """
    real = resolve_path(path)  # a bundled example's sibling is beside it
    ext = read_extensions(real, len(data.vertices), data.rods, data.dim)
    if not (ext.sliders or ext.slots or ext.cables or ext.struts):
        return data, str(path)
    kinds = kinds_of_rods(data.rods, ext.cables, ext.struts)  # checked by the read
    out = data._replace(sliders=ext.sliders, slots=ext.slots, kinds=kinds)
    return out, str(sibling_path(real))


def save_linkage(data: LinkageData, path: str | PathLike[str]) -> Path:
    """Write ``data`` in the 2007 format, and its sliders, slots and kinds into the sibling.

    The sibling keeps its other keys (tracked joints, springs, drives, ...) when they
    still fit this linkage; a sibling written for another linkage (or unreadable) is
    replaced. Both files change or neither (:func:`.atomic_write_pair`); the sibling is
    not touched when its guides and kinds are those of ``data`` already.
    """
    target = Path(path).expanduser()
    sib = sibling_path(target)
    try:
        old = read_extensions(target, len(data.vertices), data.rods, data.dim)
    except LinkageFormatError:  # written for another linkage: a stale sibling
        old = Extensions()
    cables, struts = pairs_of_kinds(data.rods, data.kinds)
    new = replace(
        old, sliders=tuple(data.sliders), slots=tuple(data.slots), cables=cables, struts=struts
    )
    text = format_linkage(data)
    same = (old.sliders, old.slots, old.cables, old.struts) == (
        new.sliders, new.slots, new.cables, new.struts
    )  # fmt: skip
    if same and (sib.is_file() or new.is_empty()):
        return atomic_write(target, text)
    atomic_write_pair(target, text, sib, None if new.is_empty() else new.to_json())
    return target
