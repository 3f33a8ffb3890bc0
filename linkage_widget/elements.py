r"""The force elements, one class each: Spring, Motor, Torque, Load, PathForce, PathFriction.

In space: HingeTorque and HingeMotor, about a hinge line. On a slider: LinearMotor and
SliderFriction.

Checked values (every number through :mod:`linkage_widget._checks`, naming the field):
the document holds them, the JSON sibling writes them (:mod:`linkage_widget.io.sidecar`)
and :meth:`Simulator.add <linkage_widget.motion.Simulator.add>` takes them (like
pymunk's ``Space.add``). Each follows a deleted vertex (``renumbered``: ``None`` when
it used it). Units and signs as in the simulator: speeds in rad/s counter-clockwise
positive, forces in mass x length / s^2, a path force expansile positive, torques
force x length counter-clockwise positive. A path force or a torque may be a law (a
Python callable) instead of a number: the simulator calls it at every force
evaluation; the JSON sibling writes numbers only, so a law is not saved.

Spring
    With :math:`d = p_i - p_j`, :math:`\ell = |d|`, :math:`e = d/\ell`, the force on
    ``i`` is

    .. math::

        F_i = -\big(k x + \beta x^3\big)\,e - c\,\big(e \cdot (v_i - v_j)\big)\,e,
        \qquad x = \ell - \ell_0,

    and the opposite on ``j`` (``DuffingSpring``, which is ``LinearSpring`` for
    :math:`\beta = 0`, and ``LinearDamper`` of sympy.physics.mechanics: an expansile
    force :math:`-(k x + \beta x^3)`); the potential energy is
    :math:`\tfrac12 k x^2 + \tfrac14 \beta x^4` (the damper dissipates). A
    ``rest_length`` of ``None`` means "the distance when the spring is attached", which
    the simulator resolves.

>>> Spring(0, 3, stiffness=2.0).renumbered(1)
Spring(i=0, j=2, stiffness=2.0, rest_length=None, damping=0.0, nonlinear_stiffness=0.0)
>>> Spring(0, 0)
Traceback (most recent call last):
...
ValueError: a spring needs two distinct vertices, got 0 twice
>>> Load(3, 0.0, -1.0).renumbered(1)
Load(vertex=2, fx=0.0, fy=-1.0)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import _checks

__all__ = [
    "HingeMotor",
    "HingeTorque",
    "LinearMotor",
    "Load",
    "Motor",
    "PathForce",
    "PathFriction",
    "SliderFriction",
    "Spring",
    "Torque",
    "is_law",
]


def is_law(value: Any) -> bool:
    """Whether a force or torque ``value`` is a law (a callable), not a number."""
    return callable(value)


@dataclass(frozen=True)
class Spring:
    r"""A spring (and optional damper) between vertices ``i`` and ``j``.

    Attributes
    ----------
    i, j : int
        Distinct vertex indices.
    stiffness : float
        Force per unit stretch (>= 0).
    rest_length : float or None
        ``None``: the distance when the spring was attached.
    damping : float
        Force per unit stretching speed (>= 0).
    nonlinear_stiffness : float
        Duffing coefficient :math:`\beta` (force per length cubed, finite; a
        negative value softens the spring).
    """

    i: int
    j: int
    stiffness: float = 1.0
    rest_length: float | None = None
    damping: float = 0.0
    nonlinear_stiffness: float = 0.0

    def __post_init__(self) -> None:
        if int(self.i) == int(self.j):
            raise ValueError(f"a spring needs two distinct vertices, got {self.i} twice")
        # Normalise in place (frozen dataclass): equal springs compare equal whatever
        # numeric types they were built from.
        set_ = object.__setattr__
        set_(self, "i", int(self.i))
        set_(self, "j", int(self.j))
        set_(self, "stiffness", _checks.non_negative(self.stiffness, "spring stiffness"))
        set_(self, "damping", _checks.non_negative(self.damping, "spring damping"))
        beta = _checks.finite(self.nonlinear_stiffness, "spring nonlinear_stiffness")
        set_(self, "nonlinear_stiffness", beta)
        if self.rest_length is not None:
            set_(self, "rest_length", _checks.non_negative(self.rest_length, "spring rest_length"))

    def renumbered(self, removed: int) -> Spring | None:
        """The spring after vertex ``removed`` is deleted (``None`` if it used it)."""
        if removed in (self.i, self.j):
            return None
        return Spring(
            self.i - (self.i > removed),
            self.j - (self.j > removed),
            self.stiffness,
            self.rest_length,
            self.damping,
            self.nonlinear_stiffness,
        )


def _distinct(i: Any, j: Any, what: str) -> tuple[int, int]:
    i, j = int(i), int(j)
    if i == j:
        raise ValueError(f"{what} needs two distinct vertices, got {i} twice")
    return i, j


@dataclass(frozen=True)
class Motor:
    """A motor turning the rod ``pivot``-``tip`` at ``speed`` rad/s (counter-clockwise > 0).

    ``reference``: ``None`` (the angle is measured from the ground x-axis) or the
    rod ``(i, k)`` it is measured from (a motor between two links).

    >>> Motor(0, 1, 2.0).reversed()
    Motor(pivot=0, tip=1, speed=-2.0, reference=None)
    """

    pivot: int
    tip: int
    speed: float = 1.0
    reference: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "pivot", int(self.pivot))
        set_(self, "tip", int(self.tip))
        _distinct(self.pivot, self.tip, "a motor")
        set_(self, "speed", _checks.finite(self.speed, "motor speed"))
        if self.reference is not None:
            set_(self, "reference", _distinct(*self.reference, "a motor's reference rod"))
            if set(self.reference) == {self.pivot, self.tip}:
                raise ValueError(
                    f"a motor on rod {self.pivot}-{self.tip} cannot turn relative to itself"
                )

    def vertices(self) -> tuple[int, ...]:
        """Every vertex the motor uses."""
        return (self.pivot, self.tip, *(self.reference or ()))

    def reversed(self) -> Motor:
        """The same motor turning the other way."""
        return Motor(self.pivot, self.tip, -self.speed, self.reference)

    def renumbered(self, removed: int) -> Motor | None:
        """The motor after vertex ``removed`` is deleted (``None`` if it used it)."""
        if removed in self.vertices():
            return None
        ref = None if self.reference is None else tuple(v - (v > removed) for v in self.reference)
        return Motor(
            self.pivot - (self.pivot > removed), self.tip - (self.tip > removed), self.speed, ref
        )


@dataclass(frozen=True, repr=False)
class Load:
    """A constant force on joint ``vertex``: ``(fx, fy)`` in the plane, ``(fx, fy, fz)`` in space.

    World axes: y up in the plane (``fy < 0`` is down), z up in space (``fz < 0`` is
    down, along gravity). ``fz`` is ``None`` for a planar load; a simulator refuses a
    load whose :attr:`force` has not the linkage's dimension.

    >>> Load(1, 0.0, 0.0, -2.0).force
    (0.0, 0.0, -2.0)
    """

    vertex: int
    fx: float = 0.0
    fy: float = 0.0
    fz: float | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "vertex", int(self.vertex))
        dim = 2 if self.fz is None else 3
        force = _checks.finite_point(self.force, f"load on vertex {self.vertex}", dim)
        for name, value in zip(("fx", "fy", "fz"), force, strict=False):
            object.__setattr__(self, name, float(value))

    @property
    def force(self) -> tuple[float, ...]:
        """The force vector: ``(fx, fy)``, or ``(fx, fy, fz)`` for a load in space."""
        return (self.fx, self.fy) if self.fz is None else (self.fx, self.fy, self.fz)

    def renumbered(self, removed: int) -> Load | None:
        """The load after vertex ``removed`` is deleted (``None`` if it was on it)."""
        if removed == self.vertex:
            return None
        return Load(self.vertex - (self.vertex > removed), *self.force)

    def in_dim(self, dim: int) -> Load:
        """The load itself, when its force has ``dim`` components; a ``ValueError`` saying so else.

        >>> Load(2, 0, -1).in_dim(3)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: load on vertex 2 has 2 components (0.0, -1.0), but the linkage is 3-D: ...
        """
        if len(self.force) != dim:
            want = "3-D: give (fx, fy, fz), z up" if dim == 3 else "planar: give (fx, fy), y up"
            raise ValueError(
                f"load on vertex {self.vertex} has {len(self.force)} components {self.force}, "
                f"but the linkage is {want}"
            )
        return self

    def __repr__(self) -> str:
        z = "" if self.fz is None else f", fz={self.fz!r}"
        return f"Load(vertex={self.vertex!r}, fx={self.fx!r}, fy={self.fy!r}{z})"


@dataclass(frozen=True)
class Torque:
    r"""A torque on the rod ``pivot``-``tip`` about ``pivot`` (TorqueActuator), ccw > 0.

    ``torque``: a number (force x length) or a law ``torque(time, angle, angular_speed)``
    of the rod's angle (radians, relative to ``reference``) and its rate. The simulator
    applies it as the couple :math:`\pm T J d/|d|^2` on tip and pivot; its reaction
    :math:`-T` acts on the ``reference`` rod ``(i, k)``, or on the ground (``None``).

    >>> Torque(0, 3, 1.5).renumbered(1)
    Torque(pivot=0, tip=2, torque=1.5, reference=None)
    """

    pivot: int
    tip: int
    torque: Any = 0.0
    reference: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "pivot", int(self.pivot))
        set_(self, "tip", int(self.tip))
        _distinct(self.pivot, self.tip, "a torque")
        set_(self, "torque", _checks.magnitude(self.torque, "torque"))
        if self.reference is not None:
            set_(self, "reference", _distinct(*self.reference, "a torque's reference rod"))
            if set(self.reference) == {self.pivot, self.tip}:
                raise ValueError(f"a torque on rod {self.pivot}-{self.tip} cannot react on itself")

    def vertices(self) -> tuple[int, ...]:
        """Every vertex the torque uses."""
        return (self.pivot, self.tip, *(self.reference or ()))

    def renumbered(self, removed: int) -> Torque | None:
        """The torque after vertex ``removed`` is deleted (``None`` if it used it)."""
        if removed in self.vertices():
            return None
        ref = None if self.reference is None else tuple(v - (v > removed) for v in self.reference)
        return Torque(
            self.pivot - (self.pivot > removed), self.tip - (self.tip > removed), self.torque, ref
        )


@dataclass(frozen=True)
class PathForce:
    r"""A force along the straight pathway ``i``-``j`` (ForceActuator), expansile > 0.

    ``force``: a number, or a law ``force(length, extension_velocity)`` (the pathway's
    length and :math:`\dot\ell`, positive while the ends separate).
    """

    i: int
    j: int
    force: Any = 0.0

    def __post_init__(self) -> None:
        i, j = _distinct(self.i, self.j, "a path force")
        object.__setattr__(self, "i", i)
        object.__setattr__(self, "j", j)
        object.__setattr__(self, "force", _checks.magnitude(self.force, "path force"))

    def renumbered(self, removed: int) -> PathForce | None:
        """The force after vertex ``removed`` is deleted (``None`` if it used it)."""
        if removed in (self.i, self.j):
            return None
        return PathForce(self.i - (self.i > removed), self.j - (self.j > removed), self.force)


@dataclass(frozen=True)
class PathFriction:
    r"""Coulomb friction along the pathway ``i``-``j`` (CoulombKineticFriction of the seed).

    ``normal_force`` :math:`N \ge 0`, kinetic :math:`\mu_k \ge 0`, static
    :math:`\mu_s \ge \mu_k` (``None``: :math:`\mu_k`), Stribeck speed
    :math:`v_s > 0` (``None``: no Stribeck term), viscous :math:`\sigma \ge 0`.
    """

    i: int
    j: int
    normal_force: float
    mu_k: float
    mu_s: float | None = None
    v_s: float | None = None
    sigma: float = 0.0

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        i, j = _distinct(self.i, self.j, "a friction pathway")
        set_(self, "i", i)
        set_(self, "j", j)
        set_(self, "normal_force", _checks.non_negative(self.normal_force, "friction normal_force"))
        _check_friction_law(self, "friction")

    def renumbered(self, removed: int) -> PathFriction | None:
        """The friction after vertex ``removed`` is deleted (``None`` if it used it)."""
        if removed in (self.i, self.j):
            return None
        i, j = self.i - (self.i > removed), self.j - (self.j > removed)
        return PathFriction(i, j, self.normal_force, self.mu_k, self.mu_s, self.v_s, self.sigma)


def _check_friction_law(element: Any, what: str) -> None:
    r"""Check and set a friction element's law: :math:`\mu_k`, :math:`\mu_s`, ``v_s``, ``sigma``.

    :math:`\mu_k \ge 0`; :math:`\mu_s \ge \mu_k` (``None`` stays: the element's default);
    ``v_s > 0`` or ``None``; :math:`\sigma \ge 0`. ``what`` names the element in messages.
    """
    set_ = object.__setattr__
    set_(element, "mu_k", _checks.non_negative(element.mu_k, f"{what} mu_k"))
    if element.mu_s is not None:
        set_(element, "mu_s", _checks.non_negative(element.mu_s, f"{what} mu_s"))
        if element.mu_s < element.mu_k:
            raise ValueError(f"{what} mu_s ({element.mu_s}) must be at least mu_k ({element.mu_k})")
    if element.v_s is not None:
        set_(element, "v_s", _checks.positive(element.v_s, f"{what} v_s"))
    set_(element, "sigma", _checks.non_negative(element.sigma, f"{what} sigma"))


@dataclass(frozen=True)
class HingeTorque:
    r"""A couple ``torque`` about the hinge axis ``axis = (a0, a1)`` on the body of ``tip`` (space).

    The space counterpart of a torque actuator: sympy's ``TorqueActuator.at_pin_joint``.
    The axis is the line :math:`a_0 \to a_1` (in a linkage of rods, a hinge is the rod
    two bodies share); the couple :math:`T a` acts on the body carrying ``tip`` and
    :math:`-T a` on the body carrying ``reference`` (a vertex), or on the ground
    (``None``: the axis fixed, both ends pinned). ``torque``: a number (force x length,
    right-handed about :math:`a`) or ``torque(time, angle, angular_speed)`` of the
    dihedral angle from the reference's arm to the tip's (radians) and its rate. Its
    power is :math:`T\dot\theta`. Forces: :mod:`linkage_widget.motion._actuators`.

    >>> HingeTorque((0, 1), 2, 1.5, reference=3)
    HingeTorque(axis=(0, 1), tip=2, torque=1.5, reference=3)
    """

    axis: tuple[int, int]
    tip: int
    torque: Any = 0.0
    reference: int | None = None

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "axis", _distinct(*self.axis, "a hinge axis"))
        set_(self, "tip", int(self.tip))
        set_(self, "torque", _checks.magnitude(self.torque, "hinge torque"))
        if self.reference is not None:
            set_(self, "reference", int(self.reference))
        for k in (self.tip, self.reference):
            if k in self.axis:
                raise ValueError(f"hinge torque: vertex {k} is on the axis {self.axis}: no arm")
        if self.tip == self.reference:
            raise ValueError(f"hinge torque: tip and reference are both vertex {self.tip}")


@dataclass(frozen=True)
class HingeMotor:
    r"""A motor turning the hinge ``axis = (a0, a1)`` in space at ``speed`` rad/s.

    The dihedral angle :math:`\theta` about :math:`a_0 \to a_1` from the arm of
    ``reference`` (a vertex of the other body; ``None``: straight down, the axis ends
    pinned) to the arm of ``tip`` follows :math:`\theta_0 + \omega t`: an exact
    rheonomic row, as a planar :class:`Motor`'s angle (right-handed about the axis).

    >>> HingeMotor((0, 1), 2, 0.5).speed
    0.5
    """

    axis: tuple[int, int]
    tip: int
    speed: float = 1.0
    reference: int | None = None

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "axis", _distinct(*self.axis, "a hinge axis"))
        set_(self, "tip", int(self.tip))
        set_(self, "speed", _checks.finite(self.speed, "motor speed"))
        if self.reference is not None:
            set_(self, "reference", int(self.reference))
        if {self.tip, self.reference} & set(self.axis) or self.tip == self.reference:
            raise ValueError(
                f"hinge motor: tip {self.tip} and reference {self.reference} must be two "
                f"vertices off the axis {self.axis}"
            )


@dataclass(frozen=True)
class LinearMotor:
    r"""A linear actuator: slider ``slider``'s joint moves along its line at ``speed``.

    ``slider`` indexes :attr:`Linkage.sliders <linkage_widget.Linkage.sliders>`; the
    joint's place along the line's direction :math:`u` follows :math:`s_0 + v t`
    (``speed`` :math:`v` in length per unit time, positive along :math:`u`): an exact
    rheonomic row, as a :class:`Motor`'s angle.

    >>> LinearMotor(0, -0.5).reversed()
    LinearMotor(slider=0, speed=0.5)
    """

    slider: int
    speed: float = 1.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "slider", int(self.slider))
        object.__setattr__(self, "speed", _checks.finite(self.speed, "linear motor speed"))

    def reversed(self) -> LinearMotor:
        """The same actuator pushing the other way."""
        return LinearMotor(self.slider, -self.speed)


@dataclass(frozen=True)
class SliderFriction:
    r"""Friction along slider ``slider``, pressed by the force its guide carries.

    The law of :class:`PathFriction` (Coulomb :math:`\mu_k`, static :math:`\mu_s \ge
    \mu_k` (default :math:`\mu_k`), Stribeck speed ``v_s``, viscous ``sigma``) along the
    slider's line, with the normal force the guide exerts at each instant (its row's
    multiplier; see :mod:`linkage_widget.motion._slide_friction`). Dynamic mode.

    >>> SliderFriction(0, 0.3).mu_s
    0.3
    """

    slider: int
    mu_k: float
    mu_s: float | None = None
    v_s: float | None = None
    sigma: float = 0.0

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "slider", int(self.slider))
        _check_friction_law(self, "slider friction")
        set_(self, "mu_s", self.mu_k if self.mu_s is None else self.mu_s)
