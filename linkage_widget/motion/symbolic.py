r"""A planar linkage and its force elements as a ``sympy.physics.mechanics`` system.

:func:`to_sympy_mechanics` writes down the equations the
:class:`~linkage_widget.motion.Simulator` integrates, so that they can be read,
differentiated and integrated independently:

* **coordinates** :math:`q = (x_v, y_v)` of every joint that is not pinned (a pinned
  joint is a fixed point);
* **particles** as :func:`~linkage_widget.mass.equivalent_particles` puts the mass
  (one home for the mass): a point mass at every moving joint and one on the line of
  every rod, at the fraction ``at`` of the way from its first joint — of
  :math:`2\mu/3` at the middle of a uniform rod of mass :math:`\mu`; where a rod's own
  mass, centre and inertia put it (:class:`~linkage_widget.RodMass`), the same
  particles reproduce the rod's block of :func:`~linkage_widget.mass.mass_matrix`;
* **holonomic constraints** :math:`\phi_r(q) = |p_i - p_j|^2 - \ell_r^2 = 0`, one per rod,
  then one per slider (:math:`n \cdot (p_j - P) = 0`) and per slot
  (:math:`(p_b - p_a) \times (p_c - p_a) = 0`);
* **loads**: gravity :math:`-m g\,\hat y` on every particle, and ``to_loads()`` of the
  actuator each element is in sympy's own classes —
  :class:`~linkage_widget.elements.Spring` a ``DuffingSpring`` (a ``LinearSpring``
  when :math:`\beta = 0`) and a ``LinearDamper`` on a ``LinearPathway``;
  :class:`~linkage_widget.elements.Torque` a ``TorqueActuator`` between the rod's frame
  (turned by :math:`\theta = \operatorname{atan2}(d_y, d_x)`, :math:`d = p_{tip} -
  p_{pivot}`) and its reference's frame or the ground;
  :class:`~linkage_widget.elements.PathForce` a ``ForceActuator``;
  :class:`~linkage_widget.elements.PathFriction` a ``CoulombKineticFriction``;
  :class:`~linkage_widget.elements.Load` a force on its joint.

``LagrangesMethod`` with the constraints as ``hol_coneqs`` gives Lagrange's equations
of the first kind,

.. math:: M \ddot q = f(q, \dot q, t) - \Phi_q^T \lambda, \qquad
          \Phi_q \ddot q = -\dot\Phi_q \dot q,

(:math:`\Phi_q` the Jacobian of the constraints: the rigidity matrix, up to a factor
2), the same equations as the simulator's, where RATTLE keeps :math:`\phi = 0` exactly
at every step. :attr:`MechanicsSystem.rhs` solves them for
:math:`(\dot q, \ddot q, \lambda)` as an ODE in :math:`y = (q, \dot q)` for
:func:`scipy.integrate.solve_ivp` (the constraints are then kept only as well as the
integrator's tolerance allows: index-1 drift). Lagrange's form with multipliers
rather than Kane's with dependent speeds: it needs no choice of independent
coordinates and stays a few seconds to derive for a four-bar.

A force or torque given as a law (a callable) is called once with sympy expressions
— ``force(length, extension_velocity)``, ``torque(time, angle, angular_speed)`` — so
it must be written with operations sympy understands (arithmetic, or
``sympy.cos`` ...; a numpy function fails, naming the element). Motors (rheonomic
constraints), fixed angles and 3-D linkages are not exported.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy as sm
import sympy.physics.mechanics as me

from ..elements import Load, PathForce, PathFriction, Spring, Torque
from ..mass import equivalent_particles
from ..model import Linkage

__all__ = ["MechanicsSystem", "to_sympy_mechanics"]

T = me.dynamicsymbols._t


@dataclass(frozen=True, eq=False)
class MechanicsSystem:
    r"""A linkage as ``sympy.physics.mechanics`` sees it (see the module docstring).

    Attributes
    ----------
    method : LagrangesMethod
        Its equations formed (``mass_matrix_full``, ``forcing_full``, ``lam_vec``).
    frame, origin : ReferenceFrame, Point
        The ground; joint coordinates are measured from ``origin`` along ``frame``.
    points : tuple of Point
        One per joint, in the linkage's order (a pinned one fixed).
    coordinates : tuple of Function
        :math:`q`: ``x3(t), y3(t)`` ... of the moving joints, ``(2 k,)``.
    moving : ndarray of int, shape (k,)
        The joints whose coordinates :math:`q` holds, in that order.
    particles : tuple of Particle
    constraints : tuple of Expr
        :math:`\phi_r(q)`, one per rod, then one per slider and per slot.
    loads : tuple of Force or Torque
        Gravity and ``to_loads()`` of every element.
    equations_of_motion : Matrix
        :math:`M \ddot q - f + \Phi_q^T\lambda`, shape ``(2 k, 1)`` (zero along a motion).
    """

    method: me.LagrangesMethod
    frame: me.ReferenceFrame
    origin: me.Point
    points: tuple[me.Point, ...]
    coordinates: tuple[Any, ...]
    moving: np.ndarray
    particles: tuple[me.Particle, ...]
    constraints: tuple[Any, ...]
    loads: tuple[Any, ...]
    equations_of_motion: sm.Matrix

    def rhs(self) -> Callable[[float, np.ndarray], np.ndarray]:
        r"""``f(t, y) -> dy/dt`` for :func:`scipy.integrate.solve_ivp`, :math:`y = (q, \dot q)`.

        Each call solves :math:`M_{full}(q, \dot q, t)\,(\dot q, \ddot q, \lambda) =
        f_{full}` (lambdified once here) and drops :math:`\lambda`.
        """
        q = list(self.coordinates)
        plain = {x.diff(T): sm.Symbol(f"_v{k}") for k, x in enumerate(q)}
        plain.update({x: sm.Symbol(f"_q{k}") for k, x in enumerate(q)})
        args = (T, [plain[x] for x in q] + [plain[x.diff(T)] for x in q])
        mass = sm.lambdify(args, self.method.mass_matrix_full.xreplace(plain), cse=True)
        forcing = sm.lambdify(args, self.method.forcing_full.xreplace(plain), cse=True)
        size = 2 * len(q)

        def f(t: float, y: np.ndarray) -> np.ndarray:
            a = np.asarray(mass(t, y), dtype=float)
            b = np.asarray(forcing(t, y), dtype=float).reshape(-1)
            return np.linalg.solve(a, b)[:size]

        return f

    def state(self, positions: Any, velocities: Any) -> np.ndarray:
        r""":math:`y = (q, \dot q)` from joint positions and velocities, shapes ``(n, 2)``."""
        p = np.asarray(positions, dtype=float)[self.moving].reshape(-1)
        v = np.asarray(velocities, dtype=float)[self.moving].reshape(-1)
        return np.concatenate([p, v])

    def positions(self, y: np.ndarray, pinned_at: Any) -> np.ndarray:
        """Joint positions ``(n, 2)`` from :math:`y`; the pinned joints from ``pinned_at``."""
        out = np.array(pinned_at, dtype=float).reshape(-1, 2)
        out[self.moving] = np.asarray(y, dtype=float)[: 2 * len(self.moving)].reshape(-1, 2)
        return out


def to_sympy_mechanics(
    linkage: Linkage,
    elements: Sequence[Any] = (),
    *,
    mass_distribution: float = 0.0,
    total_mass: float = 1.0,
    gravity: float = 0.0,
) -> MechanicsSystem:
    r"""The linkage and its force ``elements`` as a ``sympy.physics.mechanics`` system.

    Parameters
    ----------
    linkage : Linkage
        A planar linkage with rods and pinned joints (no fixed angles).
    elements : sequence
        :class:`~linkage_widget.elements.Spring`, ``Torque``, ``PathForce``,
        ``PathFriction`` and ``Load`` values, as
        :meth:`Simulator.add <linkage_widget.motion.Simulator.add>` takes them (a
        spring's ``rest_length`` must be given).
    mass_distribution, total_mass, gravity : float
        As the simulator's: :math:`\alpha`, :math:`m`, :math:`g` (toward :math:`-y`).

    Returns
    -------
    MechanicsSystem
        The frame, points, coordinates, particles, constraints, loads, the
        ``LagrangesMethod`` with its equations formed, and :meth:`~MechanicsSystem.rhs`.

    Raises
    ------
    NotImplementedError
        A 3-D linkage, fixed angles, or a motor (not exported).
    TypeError, ValueError
        An element that is not a force element, or a law sympy cannot evaluate.

    Examples
    --------
    >>> pendulum = Linkage([[0, 0], [1, 0]], rods=[(0, 1)], pinned=[0])
    >>> system = to_sympy_mechanics(pendulum, total_mass=2.0, gravity=9.81)
    >>> system.coordinates, system.constraints
    ((x1(t), y1(t)), (x1(t)**2 + y1(t)**2 - 1,))
    """
    _refuse(linkage, elements)
    frame, origin = me.ReferenceFrame("N"), me.Point("O")
    origin.set_vel(frame, 0)
    pinned = set(linkage.pinned.tolist())
    moving = np.array([v for v in range(linkage.n_vertices) if v not in pinned], dtype=np.int64)
    coordinates, points = _points(linkage, moving, frame, origin)
    particles = _particles(linkage, points, frame, origin, mass_distribution, total_mass)
    constraints = tuple(_rod(points, int(i), int(j), linkage) for i, j in linkage.rods)
    constraints += _guide_rows(linkage, points, frame, origin)
    loads = [(p.point, -p.mass * gravity * frame.y) for p in particles if gravity]
    for e in elements:
        loads += _loads(e, points, frame)
    method = me.LagrangesMethod(
        me.Lagrangian(frame, *particles),
        list(coordinates),
        forcelist=loads,
        frame=frame,
        hol_coneqs=list(constraints) or None,
    )
    eom = method.form_lagranges_equations()
    return MechanicsSystem(
        method, frame, origin, tuple(points), coordinates, moving, particles,
        constraints, tuple(loads), eom,
    )  # fmt: skip


def _refuse(linkage: Linkage, elements: Sequence[Any]) -> None:
    """What the export does not cover, refused with what it is."""
    if linkage.dim != 2:
        raise NotImplementedError("to_sympy_mechanics: a 3-D linkage is not exported")
    if len(linkage.angles):
        raise NotImplementedError("to_sympy_mechanics: fixed angles are not exported")
    for k, e in enumerate(elements):
        if not isinstance(e, Spring | Torque | PathForce | PathFriction | Load):
            what = "a motor (a rheonomic constraint)" if type(e).__name__ == "Motor" else repr(e)
            raise TypeError(f"to_sympy_mechanics: element {k} is {what}, not exported")
        if isinstance(e, Spring) and e.rest_length is None:
            raise ValueError(f"to_sympy_mechanics: spring {e.i}-{e.j} needs its rest_length")


def _points(
    linkage: Linkage, moving: np.ndarray, frame: me.ReferenceFrame, origin: me.Point
) -> tuple[tuple[Any, ...], list[me.Point]]:
    """The coordinates of the moving joints and a point per joint (pinned: fixed)."""
    coordinates: list[Any] = []
    points = []
    free = set(moving.tolist())
    for v, (x, y) in enumerate(linkage.vertices):
        if v in free:
            x, y = me.dynamicsymbols(f"x{v} y{v}")
            coordinates += [x, y]
        else:
            x, y = sm.nsimplify(float(x), rational=True), sm.nsimplify(float(y), rational=True)
        point = origin.locatenew(f"P{v}", x * frame.x + y * frame.y)
        point.set_vel(frame, point.pos_from(origin).dt(frame))
        points.append(point)
    return tuple(coordinates), points


def _particles(
    linkage: Linkage,
    points: list[me.Point],
    frame: me.ReferenceFrame,
    origin: me.Point,
    alpha: float,
    total: float,
) -> tuple[me.Particle, ...]:
    """Particles at the moving joints and on the rods' lines (the pinned ones never move)."""
    vertex, middle, at, _ = equivalent_particles(linkage, alpha, total)
    pinned = set(linkage.pinned.tolist())
    out = [
        me.Particle(f"m{v}", points[v], sm.Float(float(vertex[v])))
        for v in range(linkage.n_vertices)
        if v not in pinned
    ]
    for r, (i, j) in enumerate(linkage.rods):
        if middle[r] == 0.0 or {int(i), int(j)} <= pinned:
            continue
        u = sm.nsimplify(float(at[r]), rational=True)  # 1/2 for a uniform rod
        mid = origin.locatenew(
            f"M{i}_{j}", (1 - u) * points[i].pos_from(origin) + u * points[j].pos_from(origin)
        )
        mid.set_vel(frame, mid.pos_from(origin).dt(frame))
        out.append(me.Particle(f"m{i}_{j}", mid, sm.Float(float(middle[r]))))
    return tuple(out)


def _rod(points: list[me.Point], i: int, j: int, linkage: Linkage) -> Any:
    r""":math:`|p_i - p_j|^2 - \ell^2`, :math:`\ell` the rod's length in ``linkage``."""
    d = points[i].pos_from(points[j])
    square = float(np.sum((linkage.vertices[i] - linkage.vertices[j]) ** 2))
    # a short fraction when there is one (1, 121/25): the equations a student reads
    return sm.expand(d.dot(d)) - sm.nsimplify(square, tolerance=1e-12, rational=True)


def _guide_rows(
    linkage: Linkage, points: list[me.Point], frame: me.ReferenceFrame, origin: me.Point
) -> tuple[Any, ...]:
    r"""Sliders' rows :math:`n \cdot (p_j - P) - h_0` and slots' :math:`e \times w - c_0`.

    :math:`h_0` and :math:`c_0` their values in ``linkage`` (0 for a joint on its line, up
    to the round-off the model accepts), so the rows hold where the linkage is.
    """
    out = []
    for j, point, u in linkage.sliders:
        x, y = _planar(points[j].pos_from(origin), frame)
        h0 = (linkage.vertices[j] - point) @ (-u[1], u[0])
        out.append(-u[1] * (x - point[0]) + u[0] * (y - point[1]) - float(h0))
    for a, b, c in linkage.slots.tolist():
        ex, ey = _planar(points[b].pos_from(points[a]), frame)
        wx, wy = _planar(points[c].pos_from(points[a]), frame)
        e, w = linkage.vertices[b] - linkage.vertices[a], linkage.vertices[c] - linkage.vertices[a]
        out.append(sm.expand(ex * wy - ey * wx) - float(e[0] * w[1] - e[1] * w[0]))
    return tuple(sm.sympify(g) for g in out)


def _loads(e: Any, points: list[me.Point], frame: me.ReferenceFrame) -> list[Any]:
    """``to_loads()`` of the sympy actuator that is the element ``e`` (a load: its force)."""
    if isinstance(e, Load):
        return [(points[e.vertex], e.fx * frame.x + e.fy * frame.y)]
    if isinstance(e, Torque):
        return _torque(e, points, frame).to_loads()
    path = me.LinearPathway(points[e.i], points[e.j])
    if isinstance(e, Spring):
        spring = me.DuffingSpring(e.stiffness, e.nonlinear_stiffness, path, e.rest_length)
        damper = me.LinearDamper(e.damping, path)
        return spring.to_loads() + (damper.to_loads() if e.damping else [])
    if isinstance(e, PathForce):
        force = _law(e.force, (path.length, path.extension_velocity), f"force {e.i}-{e.j}")
        return me.ForceActuator(force, path).to_loads()
    extra = {"v_s": e.v_s, "sigma": e.sigma or None, "mu_s": e.mu_s}
    friction = me.CoulombKineticFriction(e.mu_k, e.normal_force, path, **extra)
    return friction.to_loads()


def _torque(e: Torque, points: list[me.Point], frame: me.ReferenceFrame) -> me.TorqueActuator:
    """The ``TorqueActuator`` between the rod's frame and its reference's (or the ground)."""
    rod = _rod_frame(points, e.pivot, e.tip, frame)
    reaction = frame if e.reference is None else _rod_frame(points, *e.reference, frame)
    angle = sm.atan2(*_planar(rod.x, frame)[::-1])
    speed = rod.ang_vel_in(frame).dot(frame.z)
    if e.reference is not None:
        angle -= sm.atan2(*_planar(reaction.x, frame)[::-1])
        speed -= reaction.ang_vel_in(frame).dot(frame.z)
    torque = _law(e.torque, (T, angle, speed), f"torque on {e.pivot}-{e.tip}")
    return me.TorqueActuator(torque, frame.z, rod, reaction)


def _rod_frame(
    points: list[me.Point], pivot: int, tip: int, frame: me.ReferenceFrame
) -> me.ReferenceFrame:
    r"""A frame turned by the rod's angle :math:`\operatorname{atan2}(d_y, d_x)` about z."""
    dx, dy = _planar(points[tip].pos_from(points[pivot]), frame)
    rod = me.ReferenceFrame(f"R{pivot}_{tip}")
    rod.orient_axis(frame, frame.z, sm.atan2(dy, dx))
    return rod


def _planar(vector: Any, frame: me.ReferenceFrame) -> tuple[Any, Any]:
    return vector.dot(frame.x), vector.dot(frame.y)


def _law(value: Any, args: tuple[Any, ...], what: str) -> Any:
    """A number as it is; a law called with sympy expressions (or a clear error)."""
    if not callable(value):
        return sm.Float(value)
    try:
        return sm.sympify(value(*args))
    except (TypeError, AttributeError, sm.SympifyError) as exc:
        raise TypeError(
            f"to_sympy_mechanics: the law of {what} cannot take sympy expressions ({exc}); "
            "write it with arithmetic or sympy functions"
        ) from None
