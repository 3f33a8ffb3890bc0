r"""Reference dynamics written with ``sympy.physics.mechanics`` only (no ``linkage_widget``).

Each function below builds one planar system with :class:`~sympy.physics.mechanics.KanesMethod`,
the seed-004 force elements (``TorqueActuator``, ``ForceActuator`` on a ``LinearPathway``,
``LinearSpring``, ``LinearDamper``, ``DuffingSpring``, ``CoulombKineticFriction``),
point masses (``Particle``) and uniform rods (``RigidBody``), lambdifies
``mass_matrix_full`` and ``forcing_full`` and integrates them with
:func:`scipy.integrate.solve_ivp` (``DOP853``, ``rtol = 1e-11``). The result is a
:class:`Reference`: the positions (and velocities) of the linkage's vertices, in the
linkage's vertex order, at the requested times, with their accelerations.

Quantities at a state, for the constraint-force tests: :func:`two_link_loads` (rod
tensions from Kane's auxiliary speeds) and :func:`four_bar_driven` (the crank torque
that holds a constant speed, from the same equations with :math:`\ddot q_1 = 0`).

Conventions shared with the simulator under test (and nothing else):

* **Masses** (DESIGN.md, ``linkage_widget/mass.py``): a total mass :math:`m`, a
  distribution :math:`\alpha`; each of the :math:`n` vertices, pinned ones included,
  carries :math:`(1-\alpha) m / n` (all of :math:`m / n` when there are no rods), each
  rod a uniform mass :math:`\mu = \alpha m L / \sum L` with central inertia
  :math:`\mu L^2 / 12`. A pinned vertex's share never moves, so it does not appear.
* **Gravity** :math:`-g\,\hat y` on every mass (:math:`g > 0` pulls toward :math:`-y`).
* **Angles** are measured from the ground :math:`x` axis, counter-clockwise; a torque
  is positive counter-clockwise (about :math:`+\hat z`).
* **Forces along a pathway** are expansile positive (the seed's sign convention).

A force or torque law is given once, as a Python callable with a keyword ``lib``
(``numpy`` by default): the test hands the callable itself to the simulator and the
reference calls it with ``lib=sympy`` on sympy symbols, so both sides evaluate the same
law but nothing else is shared. Example: ``def torque(t, angle, speed, lib=np):
return 0.5 * lib.cos(2 * t) - 0.1 * speed``.

Derivations are cached per structure (:func:`functools.cache`), with every number
a lambdify argument, so a test session derives each system once.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import sympy as sm
import sympy.physics.mechanics as me
from scipy.integrate import solve_ivp

__all__ = [
    "RTOL",
    "Reference",
    "block_with_friction",
    "duffing_mass",
    "force_between_free_points",
    "force_on_pendulum",
    "four_bar_closure",
    "four_bar_driven",
    "four_bar_extension_speed",
    "four_bar_place",
    "four_bar_spring_damper",
    "pendulum_with_torque",
    "two_link_loads",
    "two_link_with_torque",
    "vertex_masses",
]

RTOL, ATOL = 1e-11, 1e-13
T = me.dynamicsymbols._t


@dataclass(frozen=True)
class Reference:
    """A reference trajectory sampled at ``times``.

    Attributes
    ----------
    times : ndarray, shape (k,)
    positions, velocities : ndarray, shape (k, n, 2)
        Every vertex of the matching linkage, in its vertex order (pinned ones included).
    state : ndarray, shape (k, s)
        The integrated state ``(q, u)`` (generalised coordinates, then speeds).
    energy : ndarray, shape (k,) or None
        Kinetic plus potential energy (gravity, springs) where the model defines it.
    accelerations : ndarray, shape (k, n, 2) or None
        Of every vertex, from the equations of motion at each state.
    events : tuple of float
        Friction models only: the times at which the sliding speed reached zero.
    """

    times: np.ndarray
    positions: np.ndarray
    velocities: np.ndarray
    state: np.ndarray
    energy: np.ndarray | None = None
    events: tuple[float, ...] = ()
    accelerations: np.ndarray | None = None


def vertex_masses(n_vertices: int, rod_lengths: Sequence[float], alpha: float, m: float):
    r"""Point masses per vertex and masses per rod, as the simulator distributes them.

    >>> vertex_masses(3, [1.0, 3.0], 0.5, 2.0)
    (0.3333333333333333, [0.25, 0.75])
    """
    if len(rod_lengths) == 0:
        return m / n_vertices, []
    total = float(sum(rod_lengths))
    return (1 - alpha) * m / n_vertices, [alpha * m * L / total for L in rod_lengths]


# ----------------------------------------------------------------- machinery
class _System:
    """A KanesMethod system lambdified: :math:`M(t, y)\\,\\dot y = f(t, y)`, :math:`y = (q, u)`.

    ``points`` are the vertices (in linkage order); ``params`` are the symbols every
    lambdified function takes after ``(t, y)``; ``potential`` (optional) is the
    potential energy, so that ``energy`` is :math:`T + V`. Point accelerations take
    the speeds' rates as a third argument, ``accel(t, y, udot, params)``.
    """

    def __init__(self, kane, bodies, frame, origin, points, params, potential=None):
        q, u = list(kane.q), list(kane.u)
        self.n_q, self.params = len(q), tuple(params)
        self._qdot = kane.kindiffdict()  # q' -> u
        self._udot = {x.diff(T): sm.Symbol(f"_a{k}") for k, x in enumerate(u)}
        self._plain = {x: sm.Symbol(f"_y{k}") for k, x in enumerate(q + u)}
        self.mass = self.compile(kane.mass_matrix_full)
        self.forcing = self.compile(kane.forcing_full)

        def planar(vectors):
            return sm.Matrix([[w.dot(frame.x), w.dot(frame.y)] for w in vectors])

        self.place = self.compile(planar([p.pos_from(origin) for p in points]))
        self.speed = self.compile(planar([p.vel(frame) for p in points]))
        self.accel = self.compile(planar([p.acc(frame) for p in points]), rates=True)
        self.energy = None
        if potential is not None:
            self.energy = self.compile(me.kinetic_energy(frame, *bodies) + potential)

    def compile(self, expr, *, rates=False):
        """Lambdify ``expr`` as ``f(t, y, params)`` (``rates``: ``f(t, y, udot, params)``)."""
        expr = sm.sympify(expr).xreplace(self._udot).xreplace(self._qdot).xreplace(self._plain)
        if expr.has(sm.Derivative):
            raise AssertionError(f"time derivative left in {expr}")
        y = list(self._plain.values())
        args = (T, y, list(self._udot.values()), self.params) if rates else (T, y, self.params)
        return sm.lambdify(args, expr, modules="numpy", cse=True)

    def rhs(self, values):
        """The first-order right-hand side ``f(t, y)`` for numeric parameter ``values``."""

        def f(t, y):
            mm = np.asarray(self.mass(t, y, values), dtype=float)
            ff = np.asarray(self.forcing(t, y, values), dtype=float).reshape(-1)
            return np.linalg.solve(mm, ff)

        return f

    def rates(self, t, y, values):
        """Time derivatives of the speeds at ``(t, y)``, shape ``(n_u,)``."""
        return self.rhs(values)(t, y)[self.n_q :]

    def sample(self, sol, times, values, events=(), *, accelerations=True):
        """Evaluate a dense solution at ``times`` as a :class:`Reference`."""
        states = np.array([sol(t) for t in times]) if callable(sol) else np.asarray(sol)
        pos = np.array([self.place(t, y, values) for t, y in zip(times, states, strict=True)])
        vel = np.array([self.speed(t, y, values) for t, y in zip(times, states, strict=True)])
        energy = None
        if self.energy is not None:
            energy = np.array(
                [self.energy(t, y, values) for t, y in zip(times, states, strict=True)]
            )
        acc = None
        if accelerations:
            acc = np.array(
                [
                    self.accel(t, y, self.rates(t, y, values), values)
                    for t, y in zip(times, states, strict=True)
                ]
            )
        times = np.asarray(times, float)
        return Reference(times, pos, vel, states, energy, tuple(events), acc)


def _integrate(system: _System, values, y0, times, **kw) -> Reference:
    times = np.asarray(times, dtype=float)
    sol = solve_ivp(
        system.rhs(values),
        (0.0, float(times.max())),
        np.asarray(y0, dtype=float),
        method="DOP853",
        rtol=RTOL,
        atol=ATOL,
        dense_output=True,
        **kw,
    )
    if not sol.success:
        raise RuntimeError(f"solve_ivp failed: {sol.message}")
    return system.sample(sol.sol, times, values)


def _rod(name, frame, start, length, mass):
    r"""A uniform rod along ``frame.x`` from ``start``, central inertia :math:`\mu L^2/12`."""
    centre = start.locatenew(f"{name}_centre", length / 2 * frame.x)
    izz = mass * length**2 / 12
    return centre, me.RigidBody(
        name,
        masscenter=centre,
        frame=frame,
        mass=mass,
        inertia=(me.inertia(frame, 0, izz, izz), centre),
    )


def _gravity(frame, g, masses):
    """Loads :math:`-m g \\hat y` on each ``(point, mass)``."""
    return [me.Force(p, -m * g * frame.y) for p, m in masses]


def _height(frame, origin, point):
    return point.pos_from(origin).dot(frame.y)


# ------------------------------------------------ (a) pendulum + TorqueActuator
@functools.cache
def _pendulum_system(torque: Callable | None) -> _System:
    q, u = me.dynamicsymbols("q u")
    length, m_tip, mu, g = sm.symbols("L m_tip mu g", positive=True)
    N, A = me.ReferenceFrame("N"), me.ReferenceFrame("A")
    A.orient_axis(N, N.z, q)
    A.set_ang_vel(N, u * N.z)
    origin = me.Point("O")
    origin.set_vel(N, 0)
    tip = origin.locatenew("tip", length * A.x)
    tip.v2pt_theory(origin, N, A)
    centre, rod = _rod("rod", A, origin, length, mu)
    bodies = [me.Particle("bob", tip, m_tip), rod]
    loads = _gravity(N, g, [(tip, m_tip), (centre, mu)])
    if torque is not None:
        # Acts on the rod's frame about +z, the reaction on the ground N.
        loads += me.TorqueActuator(torque(T, q, u, lib=sm), N.z, A, N).to_loads()
    kane = me.KanesMethod(N, [q], [u], kd_eqs=[q.diff(T) - u])
    kane.kanes_equations(bodies, loads)
    potential = g * (m_tip * _height(N, origin, tip) + mu * _height(N, origin, centre))
    return _System(kane, bodies, N, origin, [origin, tip], (length, m_tip, mu, g), potential)


def pendulum_with_torque(
    length, angle0, times, *, speed0=0.0, alpha=0.0, total_mass=1.0, g=9.81, torque=None
) -> Reference:
    r"""A rod pinned at the origin (vertex 0), tip (vertex 1) at ``length`` and ``angle0``.

    ``torque(t, angle, speed, lib=np)`` acts on the rod about the pivot (a
    ``TorqueActuator`` with the ground as reaction frame); ``None``: free pendulum.
    Equation of motion (the validation tests check it by hand):

    .. math:: (m_1 + \mu/3) L^2 \ddot\theta
              = -(m_1 + \mu/2)\, g L \cos\theta + \tau(t, \theta, \dot\theta).
    """
    point, (mu,) = vertex_masses(2, [length], alpha, total_mass)
    system = _pendulum_system(torque)
    return _integrate(system, (length, point, mu, g), [angle0, speed0], times)


# ------------------------------------- (a') two links, torque between the links
@functools.cache
def _two_link_system(torque: Callable) -> _System:
    q1, q2, u1, u2 = me.dynamicsymbols("q1 q2 u1 u2")
    l1, l2, m_v, mu1, mu2, g = sm.symbols("l1 l2 m_v mu1 mu2 g", positive=True)
    N, A, B = (me.ReferenceFrame(x) for x in "NAB")
    A.orient_axis(N, N.z, q1)
    A.set_ang_vel(N, u1 * N.z)
    B.orient_axis(N, N.z, q2)
    B.set_ang_vel(N, u2 * N.z)
    origin = me.Point("O")
    origin.set_vel(N, 0)
    p1 = origin.locatenew("p1", l1 * A.x)
    p1.v2pt_theory(origin, N, A)
    p2 = p1.locatenew("p2", l2 * B.x)
    p2.v2pt_theory(p1, N, B)
    c1, rod1 = _rod("rod1", A, origin, l1, mu1)
    c2, rod2 = _rod("rod2", B, p1, l2, mu2)
    c2.v2pt_theory(p1, N, B)
    bodies = [me.Particle("b1", p1, m_v), me.Particle("b2", p2, m_v), rod1, rod2]
    loads = _gravity(N, g, [(p1, m_v), (p2, m_v), (c1, mu1), (c2, mu2)])
    # The torque drives rod 1->2 (frame B) relative to rod 0->1 (frame A), reaction on A.
    tau = torque(T, q2 - q1, u2 - u1, lib=sm)
    loads += me.TorqueActuator(tau, N.z, B, A).to_loads()
    kane = me.KanesMethod(N, [q1, q2], [u1, u2], kd_eqs=[q1.diff(T) - u1, q2.diff(T) - u2])
    kane.kanes_equations(bodies, loads)
    heights = [(m_v, p1), (m_v, p2), (mu1, c1), (mu2, c2)]
    potential = g * sum(m * _height(N, origin, p) for m, p in heights)
    return _System(kane, bodies, N, origin, [origin, p1, p2], (l1, l2, m_v, mu1, mu2, g), potential)


def two_link_with_torque(
    lengths, angles0, times, *, torque, alpha=0.0, total_mass=1.0, g=9.81
) -> Reference:
    r"""A double pendulum (vertex 0 pinned at the origin, 1 and 2 free) with an elbow torque.

    ``torque(t, angle, speed, lib)`` acts on rod 1→2 about vertex 1, with ``angle`` the
    angle of rod 1→2 relative to rod 0→1 (:math:`q_2 - q_1`), and its reaction on rod
    0→1: ``TorqueActuator(tau, N.z, B, A)``. Starts at rest at absolute angles ``angles0``.
    """
    point, mus = vertex_masses(3, list(lengths), alpha, total_mass)
    system = _two_link_system(torque)
    return _integrate(system, (*lengths, point, *mus, g), [*angles0, 0.0, 0.0], times)


# -------------------------------------------------------- (b) Duffing spring–mass
@functools.cache
def _duffing_system() -> _System:
    x, y, vx, vy = me.dynamicsymbols("x y v_x v_y")
    m, k, beta, rest, c, g = sm.symbols("m k beta L0 c g")
    N = me.ReferenceFrame("N")
    origin = me.Point("O")
    origin.set_vel(N, 0)
    P = origin.locatenew("P", x * N.x + y * N.y)
    P.set_vel(N, vx * N.x + vy * N.y)
    path = me.LinearPathway(origin, P)
    loads = me.DuffingSpring(k, beta, path, rest).to_loads()
    loads += me.LinearDamper(c, path).to_loads()
    loads += _gravity(N, g, [(P, m)])
    bodies = [me.Particle("mass", P, m)]
    kane = me.KanesMethod(N, [x, y], [vx, vy], kd_eqs=[x.diff(T) - vx, y.diff(T) - vy])
    kane.kanes_equations(bodies, loads)
    stretch = path.length - rest
    potential = k * stretch**2 / 2 + beta * stretch**4 / 4 + m * g * y
    return _System(kane, bodies, N, origin, [origin, P], (m, k, beta, rest, c, g), potential)


def duffing_mass(
    start,
    times,
    *,
    stiffness,
    nonlinear_stiffness,
    rest_length,
    velocity0=(0.0, 0.0),
    damping=0.0,
    total_mass=1.0,
    g=0.0,
) -> Reference:
    r"""A point (vertex 1) tied to a pinned point at the origin (vertex 0) by a Duffing spring.

    No rods: each vertex carries half the mass. The spring force along the line
    0→1 is :math:`-(k x + \beta x^3)`, :math:`x = \ell - \ell_0` (``DuffingSpring``),
    plus a ``LinearDamper`` :math:`-c\,\dot\ell`. With ``velocity0`` along ``start``
    and no gravity the motion stays on that line: the one-dimensional Duffing
    oscillator :math:`m\ddot x = -kx - \beta x^3 - c\dot x`; otherwise it is a planar orbit.
    The energy includes :math:`k x^2/2 + \beta x^4/4` (not the damper).
    """
    values = (total_mass / 2, stiffness, nonlinear_stiffness, rest_length, damping, g)
    return _integrate(_duffing_system(), values, [*start, *velocity0], times)


# -------------------------------------------------------------- (c) ForceActuator
@functools.cache
def _free_points_system(force: Callable) -> _System:
    x1, y1, x2, y2 = me.dynamicsymbols("x1 y1 x2 y2")
    v = me.dynamicsymbols("v1:5")
    m, g = sm.symbols("m g")
    N = me.ReferenceFrame("N")
    origin = me.Point("O")
    origin.set_vel(N, 0)
    P1 = origin.locatenew("P1", x1 * N.x + y1 * N.y)
    P1.set_vel(N, v[0] * N.x + v[1] * N.y)
    P2 = origin.locatenew("P2", x2 * N.x + y2 * N.y)
    P2.set_vel(N, v[2] * N.x + v[3] * N.y)
    path = me.LinearPathway(P1, P2)
    loads = me.ForceActuator(force(path.length, path.extension_velocity, lib=sm), path).to_loads()
    loads += _gravity(N, g, [(P1, m), (P2, m)])
    bodies = [me.Particle("P1", P1, m), me.Particle("P2", P2, m)]
    qs = [x1, y1, x2, y2]
    kane = me.KanesMethod(
        N, qs, list(v), kd_eqs=[a.diff(T) - b for a, b in zip(qs, v, strict=True)]
    )
    kane.kanes_equations(bodies, loads)
    return _System(kane, bodies, N, origin, [P1, P2], (m, g))


def force_between_free_points(points0, velocities0, times, *, force, total_mass=1.0, g=0.0):
    r"""Two free points (vertices 0, 1; no rods, :math:`m/2` each) and a ``ForceActuator``.

    ``force(length, extension_velocity, lib)`` is the expansile force along the
    ``LinearPathway`` 0–1: positive pushes the points apart.
    """
    y0 = [*np.ravel(points0), *np.ravel(velocities0)]
    return _integrate(_free_points_system(force), (total_mass / 2, g), y0, times)


@functools.cache
def _force_pendulum_system(force: Callable) -> _System:
    q, u = me.dynamicsymbols("q u")
    length, ax, ay, m_v, mu, g = sm.symbols("L a_x a_y m_v mu g")
    N, A = me.ReferenceFrame("N"), me.ReferenceFrame("A")
    A.orient_axis(N, N.z, q)
    A.set_ang_vel(N, u * N.z)
    origin = me.Point("O")
    origin.set_vel(N, 0)
    tip = origin.locatenew("tip", length * A.x)
    tip.v2pt_theory(origin, N, A)
    anchor = origin.locatenew("anchor", ax * N.x + ay * N.y)
    anchor.set_vel(N, 0)
    centre, rod = _rod("rod", A, origin, length, mu)
    path = me.LinearPathway(anchor, tip)
    loads = me.ForceActuator(force(path.length, path.extension_velocity, lib=sm), path).to_loads()
    loads += _gravity(N, g, [(tip, m_v), (centre, mu)])
    bodies = [me.Particle("bob", tip, m_v), rod]
    kane = me.KanesMethod(N, [q], [u], kd_eqs=[q.diff(T) - u])
    kane.kanes_equations(bodies, loads)
    return _System(kane, bodies, N, origin, [origin, tip, anchor], (length, ax, ay, m_v, mu, g))


def force_on_pendulum(
    length, angle0, anchor, times, *, force, alpha=0.0, total_mass=1.0, g=9.81
) -> Reference:
    r"""A pendulum (vertex 0 pinned at the origin, tip 1) pushed from a pinned ``anchor`` (2).

    A ``ForceActuator`` ``force(length, extension_velocity, lib)`` acts along the
    ``LinearPathway`` anchor–tip, expansile positive. Three vertices, one rod.
    """
    point, (mu,) = vertex_masses(3, [length], alpha, total_mass)
    values = (length, *anchor, point, mu, g)
    return _integrate(_force_pendulum_system(force), values, [angle0, 0.0], times)


# ------------------------------------------- (d) four-bar with spring and damper
@functools.cache
def _four_bar_system() -> _System:
    q1, q2, q3, u1, u2, u3 = me.dynamicsymbols("q1 q2 q3 u1 u2 u3")
    a, b, c, d, m_v, mu1, mu2, mu3, k, rest, damp, g, tau = sm.symbols(
        "a b c d m_v mu1 mu2 mu3 k L0 c_d g tau"
    )
    N, F1, F2, F3 = (me.ReferenceFrame(x) for x in ("N", "F1", "F2", "F3"))
    for frame, q, u in ((F1, q1, u1), (F2, q2, u2), (F3, q3, u3)):
        frame.orient_axis(N, N.z, q)
        frame.set_ang_vel(N, u * N.z)
    A = me.Point("A")
    A.set_vel(N, 0)
    D = A.locatenew("D", d * N.x)
    D.set_vel(N, 0)
    B = A.locatenew("B", a * F1.x)
    B.v2pt_theory(A, N, F1)
    C = B.locatenew("C", b * F2.x)
    C.v2pt_theory(B, N, F2)
    # Rod DC is the body with frame F3; its centre hangs from D.
    cen1, rod1 = _rod("AB", F1, A, a, mu1)
    cen2, rod2 = _rod("BC", F2, B, b, mu2)
    cen3, rod3 = _rod("DC", F3, D, c, mu3)
    cen2.v2pt_theory(B, N, F2)
    cen3.v2pt_theory(D, N, F3)
    loop = C.pos_from(D) - c * F3.x
    holonomic = [loop.dot(N.x), loop.dot(N.y)]
    velocity = [loop.dt(N).dot(N.x), loop.dt(N).dot(N.y)]
    kde = {x.diff(T): y for x, y in ((q1, u1), (q2, u2), (q3, u3))}
    velocity = [sm.expand(e.xreplace(kde)) for e in velocity]
    path = me.LinearPathway(B, D)
    loads = me.LinearSpring(k, path, rest).to_loads() + me.LinearDamper(damp, path).to_loads()
    # A torque on the crank from the ground: zero except in four_bar_driven (a motor).
    loads += me.TorqueActuator(tau, N.z, F1, N).to_loads()
    loads += _gravity(N, g, [(B, m_v), (C, m_v), (cen1, mu1), (cen2, mu2), (cen3, mu3)])
    bodies = [me.Particle("B", B, m_v), me.Particle("C", C, m_v), rod1, rod2, rod3]
    kane = me.KanesMethod(
        N,
        [q1],
        [u1],
        kd_eqs=[q1.diff(T) - u1, q2.diff(T) - u2, q3.diff(T) - u3],
        q_dependent=[q2, q3],
        configuration_constraints=holonomic,
        u_dependent=[u2, u3],
        velocity_constraints=velocity,
    )
    kane.kanes_equations(bodies, loads)
    heights = [(m_v, B), (m_v, C), (mu1, cen1), (mu2, cen2), (mu3, cen3)]
    potential = g * sum(m * _height(N, A, p) for m, p in heights)
    potential += k * (path.length - rest) ** 2 / 2
    params = (a, b, c, d, m_v, mu1, mu2, mu3, k, rest, damp, g, tau)
    system = _System(kane, bodies, N, A, [A, B, C, D], params, potential)
    system.closure = system.compile(sm.Matrix(holonomic))
    system.extension = system.compile(path.extension_velocity)
    return system


def four_bar_place(theta, a, b, c, d):
    """Vertices A=(0,0), B, C, D=(d,0) of the four-bar at crank angle ``theta`` (C above BD)."""
    pb = a * np.array([np.cos(theta), np.sin(theta)])
    e = np.array([d, 0.0]) - pb
    dist = np.hypot(*e)
    along = (b * b - c * c + dist * dist) / (2 * dist)
    pc = pb + along * e / dist + np.sqrt(b * b - along * along) * np.array([-e[1], e[0]]) / dist
    return np.array([[0.0, 0.0], pb, pc, [d, 0.0]])


def four_bar_spring_damper(
    theta0,
    times,
    *,
    sides=(1.0, 2.2, 1.6, 2.0),
    stiffness,
    rest_length,
    damping,
    alpha=0.0,
    total_mass=1.0,
    g=9.81,
) -> Reference:
    r"""A four-bar A B C D (A, D pinned) released at rest, with a spring and damper B–D.

    Rods AB = a (the crank, angle :math:`q_1`), BC = b (:math:`q_2`), DC = c
    (:math:`q_3`, from D), ground AD = d along :math:`x`; vertices in the order A, B, C, D
    and rods (0, 1), (1, 2), (3, 2). The loop closure :math:`B + b\,e(q_2) = D + c\,e(q_3)`
    enters KanesMethod as two configuration constraints with dependent :math:`q_2, q_3`
    and dependent speeds :math:`u_2, u_3`; the full state is integrated, the closure
    residual stays at the integrator's tolerance (the validation test checks it).
    A ``LinearSpring`` (stiffness, rest length) and ``LinearDamper`` act along B–D.
    """
    a, b, c, d = sides
    place = four_bar_place(theta0, a, b, c, d)
    q2 = np.arctan2(*(place[2] - place[1])[::-1])
    q3 = np.arctan2(*(place[2] - place[3])[::-1])
    point, mus = vertex_masses(4, [a, b, c], alpha, total_mass)
    values = (a, b, c, d, point, *mus, stiffness, rest_length, damping, g, 0.0)
    return _integrate(_four_bar_system(), values, [theta0, q2, q3, 0.0, 0.0, 0.0], times)


def four_bar_closure(ref: Reference, sides, **kw):
    """Loop-closure residual of every state of a four-bar reference, shape ``(k, 2)``."""
    system = _four_bar_system()
    values = (*sides, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    return np.array([np.ravel(system.closure(0.0, y, values)) for y in ref.state])


def four_bar_extension_speed(ref: Reference, sides):
    """:math:`\\dot\\ell` of the spring B–D along a four-bar reference, shape ``(k,)``."""
    system = _four_bar_system()
    values = (*sides, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    return np.array([float(system.extension(0.0, y, values)) for y in ref.state])


def _cross(d, v):
    """Planar cross product :math:`d_x v_y - d_y v_x`."""
    return d[0] * v[1] - d[1] * v[0]


def four_bar_driven(
    theta, omega, *, sides, stiffness, rest_length, damping, alpha=0.0, total_mass=1.0, g=9.81
):
    r"""The torque that turns the crank of the four-bar at the constant speed ``omega``.

    At crank angle ``theta`` with :math:`\dot q_1 = \omega`, :math:`\ddot q_1 = 0`, the
    KanesMethod equations (one dynamic row, two rows of the differentiated loop
    closure) are linear in the unknowns :math:`\dot u_2, \dot u_3` and the crank torque
    :math:`\tau` of a ``TorqueActuator(tau, N.z, crank, ground)``:
    :math:`M(q)\,(0, \dot u_2, \dot u_3) = f_0(q, u) + \tau f_1(q)`.

    Returns
    -------
    tau : float
        Counter-clockwise torque on the crank (what a motor must exert).
    positions, velocities, accelerations : ndarray, shape (4, 2)
        The vertices A, B, C, D in that state.
    """
    a, b, c, d = sides
    place = four_bar_place(theta, a, b, c, d)
    B, C, D = place[1], place[2], place[3]
    v_b = omega * np.array([-B[1], B[0]])
    # C moves on circles about B (rod BC) and about D (rod DC): two linear equations.
    v_c = np.linalg.solve(np.array([C - B, C - D]), np.array([v_b @ (C - B), 0.0]))
    u2 = _cross(C - B, v_c - v_b) / b**2
    u3 = _cross(C - D, v_c) / c**2
    q2 = np.arctan2(*(C - B)[::-1])
    q3 = np.arctan2(*(C - D)[::-1])
    y = np.array([theta, q2, q3, omega, u2, u3])
    system = _four_bar_system()
    point, mus = vertex_masses(4, [a, b, c], alpha, total_mass)
    values = [a, b, c, d, point, *mus, stiffness, rest_length, damping, g, 0.0]
    n = system.n_q
    mass = np.asarray(system.mass(0.0, y, values), float)[n:, n:]
    f0 = np.asarray(system.forcing(0.0, y, values), float).reshape(-1)[n:]
    f1 = np.asarray(system.forcing(0.0, y, values[:-1] + [1.0]), float).reshape(-1)[n:] - f0
    u2dot, u3dot, tau = np.linalg.solve(np.column_stack([mass[:, 1], mass[:, 2], -f1]), f0)
    rates = np.array([0.0, u2dot, u3dot])
    return (
        float(tau),
        np.asarray(system.place(0.0, y, values), float),
        np.asarray(system.speed(0.0, y, values), float),
        np.asarray(system.accel(0.0, y, rates, values), float),
    )


# ------------------------------------------ rod tensions by auxiliary speeds
@functools.cache
def _two_link_tensions(torque: Callable) -> Callable:
    r"""Tensions of the massless rods of :func:`two_link_with_torque`, ``f(t, y, udot, params)``.

    Kane's auxiliary speeds: ``ua1`` lets joint 1 slide along rod 0→1 (carrying
    joint 2 with it), ``ua2`` lets joint 2 slide along rod 1→2. The rods' tensions
    :math:`T_1, T_2` (pulling the ends together) are the non-contributing forces
    those speeds expose: ``kane.auxiliary_eqs``, linear in :math:`T_1, T_2`.
    """
    q1, q2, u1, u2, ua1, ua2 = me.dynamicsymbols("q1 q2 u1 u2 ua1 ua2")
    l1, l2, m_v, g, t1, t2 = sm.symbols("l1 l2 m_v g T1 T2")
    N, A, B = (me.ReferenceFrame(x) for x in "NAB")
    A.orient_axis(N, N.z, q1)
    A.set_ang_vel(N, u1 * N.z)
    B.orient_axis(N, N.z, q2)
    B.set_ang_vel(N, u2 * N.z)
    origin = me.Point("O")
    origin.set_vel(N, 0)
    p1 = origin.locatenew("p1", l1 * A.x)
    p1.set_vel(N, l1 * u1 * A.y + ua1 * A.x)
    p2 = p1.locatenew("p2", l2 * B.x)
    p2.set_vel(N, p1.vel(N) + l2 * u2 * B.y + ua2 * B.x)
    loads = _gravity(N, g, [(p1, m_v), (p2, m_v)])
    loads += me.TorqueActuator(torque(T, q2 - q1, u2 - u1, lib=sm), N.z, B, A).to_loads()
    loads += [me.Force(p1, -t1 * A.x + t2 * B.x), me.Force(p2, -t2 * B.x)]
    kane = me.KanesMethod(
        N, [q1, q2], [u1, u2], kd_eqs=[q1.diff(T) - u1, q2.diff(T) - u2], u_auxiliary=[ua1, ua2]
    )
    kane.kanes_equations([me.Particle("b1", p1, m_v), me.Particle("b2", p2, m_v)], loads)
    found = sm.solve(list(kane.auxiliary_eqs), [t1, t2], dict=True)[0]
    rates = sm.symbols("_a0 _a1")
    plain = sm.symbols("_y0:4")
    sub = {x.diff(T): r for x, r in zip((u1, u2), rates, strict=True)}
    sub |= {x.diff(T): r for x, r in zip((q1, q2), (u1, u2), strict=True)}
    expr = sm.Matrix([found[t1], found[t2]]).xreplace(sub)
    expr = expr.xreplace(dict(zip((q1, q2, u1, u2), plain, strict=True)))
    return sm.lambdify((T, list(plain), list(rates), (l1, l2, m_v, g)), expr, cse=True)


def two_link_loads(times, states, lengths, *, torque, total_mass=1.0, g=9.81):
    """Rod tensions and accelerations of :func:`two_link_with_torque` (``alpha = 0``) at states.

    ``states`` rows are ``(q1, q2, u1, u2)``: absolute rod angles and their rates (any
    states, e.g. a simulator's). Returns tensions of rods 0-1 and 1-2, shape ``(k, 2)``,
    positive pulling, and the vertices' accelerations, shape ``(k, 3, 2)``, both from
    the reference's own equations of motion at each state.
    """
    point, _ = vertex_masses(3, list(lengths), 0.0, total_mass)
    system = _two_link_system(torque)
    values = (*lengths, point, 0.0, 0.0, g)
    tension = _two_link_tensions(torque)
    forces, accelerations = [], []
    for t, y in zip(times, np.asarray(states, float), strict=True):
        rates = system.rates(t, y, values)
        forces.append(np.ravel(tension(t, y, rates, (*lengths, point, g))))
        accelerations.append(system.accel(t, y, rates, values))
    return np.array(forces), np.array(accelerations, dtype=float)


# ---------------------------------------------- (e) CoulombKineticFriction block
@functools.cache
def _block_system() -> _System:
    x, v = me.dynamicsymbols("x v")
    m, f_n, mu_k, mu_s, v_s, sigma, k, rest, s = sm.symbols("m f_n mu_k mu_s v_s sigma k L0 s")
    N = me.ReferenceFrame("N")
    origin = me.Point("O")
    origin.set_vel(N, 0)
    P = origin.locatenew("P", x * N.x)
    P.set_vel(N, v * N.x)
    path = me.LinearPathway(origin, P)
    friction = me.CoulombKineticFriction(mu_k, f_n, path, v_s=v_s, sigma=sigma, mu_s=mu_s)
    # The friction law's sign(extension velocity) is replaced by the sliding direction s
    # of the current phase: the same force while sliding, but smooth within a phase, so
    # that the integrator never meets the discontinuity (events end a phase at v = 0).
    loads = [type(ld)(ld[0], _replace_sign(ld[1], s)) for ld in friction.to_loads()]
    loads += me.LinearSpring(k, path, rest).to_loads()
    bodies = [me.Particle("block", P, m)]
    kane = me.KanesMethod(N, [x], [v], kd_eqs=[x.diff(T) - v])
    kane.kanes_equations(bodies, loads)
    potential = k * (path.length - rest) ** 2 / 2
    params = (m, f_n, mu_k, mu_s, v_s, sigma, k, rest, s)
    return _System(kane, bodies, N, origin, [origin, P], params, potential)


def _replace_sign(vector, s):
    """``vector`` with every ``sign(...)`` of a velocity (a time derivative) set to ``s``."""
    atoms = set()
    for expr, _ in vector.args:
        atoms |= {a for a in expr.atoms(sm.sign) if a.has(sm.Derivative)}
    if not atoms:
        raise AssertionError("no sign(v) in the friction load")
    return vector.xreplace({a: s for a in atoms})


def block_with_friction(
    x0,
    v0,
    times,
    *,
    normal_force,
    mu_k,
    mu_s=None,
    v_s=1.0,
    sigma=0.0,
    stiffness=0.0,
    rest_length=0.0,
    total_mass=1.0,
) -> Reference:
    r"""A block (vertex 1) on the ``x`` axis at ``x0 > 0``, pinned vertex 0 at the origin.

    Loads along the pathway 0–1: ``CoulombKineticFriction(mu_k, normal_force, ...,
    v_s, sigma, mu_s)`` and a ``LinearSpring(stiffness, rest_length)``. The block
    carries :math:`m/2` and must stay at :math:`x > 0` (the pathway's direction).
    ``v_s`` matters only when ``mu_s`` differs from ``mu_k`` (the seed's class always
    has a Stribeck speed; the simulator's ``v_s=None`` means no Stribeck term).

    The seed's law has :math:`\operatorname{sign}(v)` and :math:`F(0) = 0`: a smooth
    integrator can neither stop on it nor stick. So the motion is integrated in
    phases of constant sliding direction :math:`s`, each ended by a ``solve_ivp``
    event at :math:`v = 0`. At rest the driving force :math:`F_d` (the spring) is
    compared with the static limit :math:`\mu_s f_n`: if :math:`|F_d| \le \mu_s f_n`
    the block sticks for good (nothing else changes while it rests), otherwise a new
    phase starts with :math:`s = \operatorname{sign} F_d`. ``events`` are the stop times.
    """
    mu_s = mu_k if mu_s is None else mu_s
    system = _block_system()
    times = np.asarray(times, dtype=float)
    m = total_mass / 2

    def values(s):
        return (m, normal_force, mu_k, mu_s, v_s, sigma, stiffness, rest_length, s)

    t0, y, stops, pieces = 0.0, np.array([x0, v0], float), [], []
    while t0 < times.max():
        if y[1] == 0.0:
            drive = m * system.rhs(values(0.0))(t0, y)[1]  # s = 0, v = 0: no friction
            if abs(drive) <= mu_s * normal_force:
                rest = y.copy()
                pieces.append((t0, np.inf, lambda _t, rest=rest: rest))
                break
            s = float(np.sign(drive))
        else:
            s = float(np.sign(y[1]))

        def stop(_t, z):
            return z[1]

        stop.terminal, stop.direction = True, -s
        sol = solve_ivp(
            system.rhs(values(s)),
            (t0, times.max()),
            y,
            method="DOP853",
            rtol=RTOL,
            atol=ATOL,
            dense_output=True,
            events=stop,
        )
        if not sol.success:
            raise RuntimeError(f"solve_ivp failed: {sol.message}")
        pieces.append((t0, sol.t[-1], sol.sol))
        if sol.status != 1:
            break
        t0, y = float(sol.t_events[0][0]), np.array([sol.y_events[0][0][0], 0.0])
        stops.append(t0)

    def state(t):
        for start, end, f in pieces:
            if start <= t <= end:
                return f(t)
        return pieces[-1][2](t)

    states = np.array([state(t) for t in times])
    # The phase direction s is not part of the state: no accelerations from here.
    return system.sample(states, times, values(0.0), events=stops, accelerations=False)
