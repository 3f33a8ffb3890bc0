"""Each entry of a JSON sibling, read and checked: a bad one says its key (and what).

:mod:`.sidecar` reads the file and builds :class:`~.sidecar.Extensions` from these;
every reader raises ``ValueError`` naming the key (``"springs: ..."``), which the
sidecar turns into a :class:`~linkage_widget.errors.LinkageFormatError` with the file.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from .. import _checks
from ..element_masses import RodMass
from ..elements import LinearMotor, Load, Motor, SliderFriction, Spring, Torque
from ..errors import quoted

__all__ = [
    "spring_json",
    "on_rod",
    "masses_json",
    "drives_json",
    "entry_index",
    "entry_list",
    "entry_object",
    "read_joint_masses",
    "read_load",
    "read_motor",
    "read_names",
    "read_on_sliders",
    "read_path",
    "read_rod_masses",
    "read_sliders",
    "read_slots",
    "read_spring",
    "read_torque",
    "said",
    "slides_json",
]


def said(exc: Exception) -> str:
    """What went wrong reading an entry, in words (a missing key named)."""
    if isinstance(exc, KeyError):
        return f"missing key {quoted(exc.args[0] if exc.args else '')}"
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    return str(exc)


def read_joint_masses(data: dict[str, Any], n: int) -> tuple[tuple[int, float], ...]:
    """The ``joint_masses`` entries: ``(vertex, mass)``, each joint at most once."""
    out = []
    for x in entry_list(data, "joint_masses"):
        x = entry_object(x, "joint_masses")
        out.append((entry_index(x["vertex"], n, "joint_masses"), x["mass"]))
    if len({v for v, _ in out}) != len(out):
        raise ValueError("joint_masses: a joint has two masses")
    return tuple((v, _checks.non_negative(m, f"joint_masses: joint {v} mass")) for v, m in out)


def read_rod_masses(
    data: dict[str, Any], n: int, rods: Sequence[Sequence[int]] | None
) -> tuple[tuple[int, int, RodMass], ...]:
    """The ``rod_masses`` entries: ``(i, j, RodMass)``, each of a rod of ``rods`` (if given)."""
    pairs = None if rods is None else {frozenset((int(a), int(b))) for a, b in rods}
    out: list[tuple[int, int, RodMass]] = []
    for x in entry_list(data, "rod_masses"):
        x = entry_object(x, "rod_masses")
        i, j = entry_index(x["i"], n, "rod_masses"), entry_index(x["j"], n, "rod_masses")
        if pairs is not None and frozenset((i, j)) not in pairs:
            raise ValueError(f"rod_masses: there is no rod {i}-{j}")
        try:
            value = RodMass(x["mass"], x.get("centre", 0.5), x.get("inertia"))
        except ValueError as exc:
            raise ValueError(f"rod_masses: rod {i}-{j}: {exc}") from None
        out.append((i, j, value))
    if len({frozenset((i, j)) for i, j, _ in out}) != len(out):
        raise ValueError("rod_masses: a rod has two masses")
    return tuple(out)


def read_names(value: list[Any], n: int) -> tuple[str, ...]:
    """The ``names`` list checked: strings only, at most one per vertex."""
    bad = [i for i, x in enumerate(value) if not isinstance(x, str)]
    if bad:
        raise ValueError(f"names: entry {bad[0]} is {quoted(value[bad[0]])}, not a string")
    if len(value) > n:
        raise ValueError(f"names: {len(value)} names for {n} vertices (at most one per vertex)")
    return tuple(value)


def entry_list(data: dict[str, Any], key: str) -> list[Any]:
    """The list under ``key`` (``[]`` when absent)."""
    value = data.get(key, [])
    if not isinstance(value, list):
        raise ValueError(f"{key}: expected a list, got {quoted(value)}")
    return value


def entry_object(data: Any, key: str) -> dict[str, Any]:
    """``data``, checked to be an object (an entry of the list ``key``)."""
    if not isinstance(data, dict):
        raise ValueError(f"{key}: expected an object, got {quoted(data)}")
    return data


def entry_index(value: Any, n: int, what: str) -> int:
    """``value`` checked as a vertex index of ``n`` vertices, the key ``what`` named."""
    try:
        return _checks.vertex_index(value, n, what)
    except ValueError:  # say which key of the file holds it
        raise ValueError(
            f"{what}: {quoted(value)} is not a vertex index (there are {n} vertices)"
        ) from None


def read_spring(data: Any, n: int) -> Spring:
    """A ``springs`` entry."""
    data = entry_object(data, "springs")
    # Spring checks its numbers itself (linkage_widget._checks), naming the field.
    return Spring(
        entry_index(data["i"], n, "springs"),
        entry_index(data["j"], n, "springs"),
        data.get("stiffness", 1.0),
        data.get("rest_length"),
        data.get("damping", 0.0),
        data.get("nonlinear_stiffness", 0.0),
    )


def read_motor(data: Any, n: int, rods: Sequence[Sequence[int]] | None) -> Motor:
    """A ``motors`` entry, its rod (and reference rod) one of ``rods`` (if given)."""
    data = entry_object(data, "motors")
    pivot, tip = entry_index(data["pivot"], n, "motors"), entry_index(data["tip"], n, "motors")
    ref = data.get("reference")
    if ref is not None:
        if not isinstance(ref, list) or len(ref) != 2:
            raise ValueError(f"motors: reference must be null or [i, k], got {quoted(ref)}")
        ref = (entry_index(ref[0], n, "motors"), entry_index(ref[1], n, "motors"))
    motor = Motor(pivot, tip, data.get("speed", 1.0), ref)
    if rods is not None:
        pairs = {frozenset((int(a), int(b))) for a, b in rods}
        for a, b in [(pivot, tip), *([ref] if ref is not None else [])]:
            if frozenset((a, b)) not in pairs:
                raise ValueError(f"motors: there is no rod {a}-{b} to turn")
    return motor


def read_torque(data: Any, n: int, rods: Sequence[Sequence[int]] | None) -> Torque:
    """A torque read as a motor is (its rod checked), with ``torque`` for ``speed``."""
    d = entry_object(data, "torques")
    as_motor = {"pivot": d.get("pivot"), "tip": d.get("tip"), "reference": d.get("reference")}
    try:
        m = read_motor(as_motor, n, rods)
    except ValueError as exc:
        raise ValueError(str(exc).replace("motors", "torques", 1)) from None
    try:
        return Torque(m.pivot, m.tip, _checks.finite(d.get("torque"), "torque"), m.reference)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"torques: {said(exc)}") from None


def read_load(data: Any, n: int, dim: int = 2) -> Load:
    """A ``loads`` entry: ``[fx, fy]``, or ``[fx, fy, fz]`` for a linkage in space."""
    data = entry_object(data, "loads")
    force = data["force"]
    if not isinstance(force, list) or len(force) not in (2, 3):
        raise ValueError(f"loads: force must be [fx, fy] (or [fx, fy, fz]), got {quoted(force)}")
    try:  # a load of the other dimension would fail at every draw: refused on reading
        return Load(entry_index(data["vertex"], n, "loads"), *force).in_dim(dim)
    except ValueError as exc:
        raise ValueError(f"loads: {exc}") from None


def read_path(kind: type, data: Any, n: int, key: str) -> Any:
    """A ``forces`` or ``frictions`` entry: a ``kind`` along the pathway ``i``-``j``."""
    data = dict(entry_object(data, key))
    data["i"], data["j"] = entry_index(data["i"], n, key), entry_index(data["j"], n, key)
    return kind(**data)


def read_sliders(data: dict[str, Any], n: int) -> tuple[tuple[int, tuple, tuple], ...]:
    """The ``sliders`` entries: ``(joint, (x, y), (dx, dy))`` (the model checks the geometry)."""
    out = []
    for k, x in enumerate(entry_list(data, "sliders")):
        x = entry_object(x, "sliders")
        joint = entry_index(x["joint"], n, "sliders")
        point = _checks.finite_point(x["point"], f"sliders: slider {k} point")
        direction = _checks.finite_point(x["direction"], f"sliders: slider {k} direction")
        out.append((joint, tuple(point.tolist()), tuple(direction.tolist())))
    return tuple(out)


def read_slots(data: dict[str, Any], n: int) -> tuple[tuple[int, int, int], ...]:
    """The ``slots`` entries: ``[a, b, c]``, joint ``c`` on the line through ``a`` and ``b``."""
    out = []
    for x in entry_list(data, "slots"):
        if not isinstance(x, list) or len(x) != 3:
            raise ValueError(f"slots: expected three joints [a, b, c], got {x!r}")
        a, b, c = (entry_index(v, n, "slots") for v in x)
        out.append((a, b, c))
    return tuple(out)


def read_on_sliders(
    data: dict[str, Any], n_sliders: int
) -> tuple[tuple[LinearMotor, ...], tuple[SliderFriction, ...]]:
    """The ``linear_motors`` and ``slider_frictions`` entries, each on a slider of the file.

    ``{"slider": s, "speed": v}`` and ``{"slider": s, "mu_k": .., "mu_s": .., "v_s": ..,
    "sigma": ..}``; ``s`` indexes the file's ``sliders`` (``n_sliders`` of them).
    """
    out: list[tuple[Any, ...]] = []
    for key, kind in (("linear_motors", LinearMotor), ("slider_frictions", SliderFriction)):
        items = []
        for x in entry_list(data, key):
            x = dict(entry_object(x, key))
            s = x["slider"]
            if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < n_sliders:
                raise ValueError(f"{key}: slider {s!r} out of range (the file has {n_sliders})")
            known = set(kind.__dataclass_fields__)
            unknown = sorted(set(x) - known)
            if unknown:
                raise ValueError(f"{key}: unknown key {unknown[0]!r} (known: {sorted(known)})")
            items.append(kind(**x))
        twice = [s for s, k in Counter(x.slider for x in items).items() if k > 1]
        if twice:
            raise ValueError(f"{key}: slider {twice[0]} has two (one per slider)")
        out.append(tuple(items))
    return out[0], out[1]


def slides_json(motors: Sequence[LinearMotor], frictions: Sequence[SliderFriction]) -> dict:
    """The ``linear_motors`` and ``slider_frictions`` keys that have something to say."""
    out: dict[str, Any] = {}
    if motors:
        out["linear_motors"] = [{"slider": m.slider, "speed": m.speed} for m in motors]
    if frictions:
        out["slider_frictions"] = [
            {"slider": f.slider, "mu_k": f.mu_k, "mu_s": f.mu_s, "v_s": f.v_s, "sigma": f.sigma}
            for f in frictions
        ]
    return out


# ------------------------------------------------------------------ writing
def spring_json(s: Spring) -> dict[str, Any]:
    """A ``springs`` entry."""
    return {
        "i": int(s.i),
        "j": int(s.j),
        "stiffness": float(s.stiffness),
        "rest_length": None if s.rest_length is None else float(s.rest_length),
        "damping": float(s.damping),
        # written only when set, so files of linear springs stay as they were
        **({"nonlinear_stiffness": float(s.nonlinear_stiffness)} if s.nonlinear_stiffness else {}),
    }


def on_rod(pivot: int, tip: int, reference: Any, **value: Any) -> dict[str, Any]:
    """A motor's or a torque's entry: its rod, its value, its reference rod (or null)."""
    ref = None if reference is None else list(reference)
    return {"pivot": pivot, "tip": tip, **value, "reference": ref}


def drives_json(ext: Any) -> dict[str, Any]:
    """The version-2 keys of ``ext`` (an :class:`~.sidecar.Extensions`) with something to say."""
    out: dict[str, Any] = {}
    if ext.motors:
        out["motors"] = [on_rod(m.pivot, m.tip, m.reference, speed=m.speed) for m in ext.motors]
    if ext.loads:
        out["loads"] = [{"vertex": x.vertex, "force": list(x.force)} for x in ext.loads]
    if ext.forces:
        out["forces"] = [{"i": f.i, "j": f.j, "force": f.force} for f in ext.forces]
    if ext.frictions:
        out["frictions"] = [
            {"i": f.i, "j": f.j, "normal_force": f.normal_force, "mu_k": f.mu_k,
             "mu_s": f.mu_s, "v_s": f.v_s, "sigma": f.sigma}
            for f in ext.frictions
        ]  # fmt: skip
    if ext.table_friction:
        out["table_friction"] = float(ext.table_friction)
    if ext.torques:
        torques = ext.torques
        out["torques"] = [on_rod(t.pivot, t.tip, t.reference, torque=t.torque) for t in torques]
    return out


def masses_json(ext: Any) -> dict[str, Any]:
    """The own masses of ``ext`` (an :class:`~.sidecar.Extensions`), when there are any."""
    out: dict[str, Any] = {}
    if ext.joint_masses:
        out["joint_masses"] = [{"vertex": int(v), "mass": float(m)} for v, m in ext.joint_masses]
    if ext.rod_masses:
        out["rod_masses"] = [
            {"i": int(i), "j": int(j), "mass": x.mass, "centre": x.centre, "inertia": x.inertia}
            for i, j, x in ext.rod_masses
        ]
    return out
