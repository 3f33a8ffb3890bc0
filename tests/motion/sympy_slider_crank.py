r"""The slider-crank's Lagrangian in ``sympy.physics.mechanics`` (no ``linkage_widget`` here).

Crank :math:`O A` of length :math:`r` about the pinned origin at angle :math:`\theta`, rod
:math:`A B` of length :math:`l`, piston :math:`B` on the line :math:`y = e`, to the right:

.. math:: x_B = r\cos\theta + \sqrt{l^2 - (r\sin\theta - e)^2}.

One generalised coordinate (:math:`\theta`): :class:`~sympy.physics.mechanics.LagrangesMethod`
with the crank and the rod as uniform ``RigidBody`` s (central inertia :math:`\mu L^2/12`,
the rod's frame turned by :math:`\varphi(\theta)`), point masses at :math:`A` and :math:`B`
(``Particle``), gravity :math:`-g\hat y` on every mass and a constant torque :math:`\tau`
on the crank (a ``TorqueActuator`` against the ground), integrated by
:func:`scipy.integrate.solve_ivp` (``DOP853``, ``rtol = 1e-12``).

Masses as the simulator distributes them (``sympy_models.vertex_masses``: the model of
``linkage_widget/mass.py`` written out independently): :math:`(1-\alpha) m/3` at each of
the three joints (the pinned one never moves) and :math:`\alpha m L/(r + l)` in each rod.
"""

from __future__ import annotations

import functools

import numpy as np
import sympy as sm
import sympy.physics.mechanics as me
from scipy.integrate import solve_ivp
from sympy_models import vertex_masses

__all__ = ["crank_angles", "slider_crank_points"]

T = me.dynamicsymbols._t


@functools.cache
def _equations():
    """``(mass, forcing)`` lambdified as ``f(theta, omega, params)`` for ``y = (theta, omega)``."""
    q, u = me.dynamicsymbols("theta omega")
    r, rod_l, e, m_v, mu1, mu2, g, tau = sm.symbols("r l e m_v mu1 mu2 g tau")
    n, crank, rod = (me.ReferenceFrame(x) for x in ("N", "C", "R"))
    o = me.Point("O")
    o.set_vel(n, 0)
    crank.orient_axis(n, n.z, q)
    a = o.locatenew("A", r * crank.x)
    xb = r * sm.cos(q) + sm.sqrt(rod_l**2 - (r * sm.sin(q) - e) ** 2)
    b = o.locatenew("B", xb * n.x + e * n.y)
    phi = sm.atan2(e - r * sm.sin(q), xb - r * sm.cos(q))
    rod.orient_axis(n, n.z, phi)
    for point in (a, b):
        point.set_vel(n, point.pos_from(o).dt(n))
    c1 = o.locatenew("C1", r / 2 * crank.x)
    c1.set_vel(n, c1.pos_from(o).dt(n))
    c2 = a.locatenew("C2", b.pos_from(a) / 2)
    c2.set_vel(n, c2.pos_from(o).dt(n))
    bodies = [
        me.Particle("A", a, m_v),
        me.Particle("B", b, m_v),
        me.RigidBody("crank", c1, crank, mu1, (me.inertia(crank, 0, 0, mu1 * r**2 / 12), c1)),
        me.RigidBody("rod", c2, rod, mu2, (me.inertia(rod, 0, 0, mu2 * rod_l**2 / 12), c2)),
    ]
    heights = [(m_v, a), (m_v, b), (mu1, c1), (mu2, c2)]
    for body, (mass, point) in zip(bodies, heights, strict=True):
        body.potential_energy = mass * g * point.pos_from(o).dot(n.y)
    lagrangian = me.Lagrangian(n, *bodies)
    loads = me.TorqueActuator(tau, n.z, crank, n).to_loads()
    lm = me.LagrangesMethod(lagrangian, [q], forcelist=loads, frame=n)
    lm.form_lagranges_equations()
    plain = {q.diff(T): u, q: sm.Symbol("th"), u: sm.Symbol("om")}
    params = (r, rod_l, e, m_v, mu1, mu2, g, tau)
    args = (sm.Symbol("th"), sm.Symbol("om"), params)

    def compile_(expr):
        expr = sm.sympify(expr).subs(q.diff(T, 2), 0).xreplace(plain)
        return sm.lambdify(args, expr.xreplace(plain), modules="numpy", cse=True)

    mass = compile_(lm.mass_matrix[0, 0])
    forcing = compile_(lm.forcing[0])
    return mass, forcing


def slider_crank_points(theta: float, r: float, rod: float, e: float) -> np.ndarray:
    """Joints O, A, B at crank angle ``theta``, shape ``(3, 2)``."""
    a = r * np.array([np.cos(theta), np.sin(theta)])
    return np.array([[0.0, 0.0], a, [a[0] + np.sqrt(rod**2 - (a[1] - e) ** 2), e]])


def crank_angles(theta0, omega0, times, *, r, rod, e, alpha, total_mass, g, tau=0.0):
    """The crank angle at ``times`` (shape ``(k,)``) from ``(theta0, omega0)`` at time 0."""
    mass, forcing = _equations()
    point, (mu1, mu2) = vertex_masses(3, [r, rod], alpha, total_mass)
    params = (r, rod, e, point, mu1, mu2, g, tau)

    def rhs(t, y):
        return [y[1], forcing(y[0], y[1], params) / mass(y[0], y[1], params)]

    times = np.asarray(times, dtype=float)
    sol = solve_ivp(
        rhs, (0.0, float(times.max())), [theta0, omega0], method="DOP853",
        rtol=1e-12, atol=1e-14, t_eval=times,
    )  # fmt: skip
    if not sol.success:
        raise RuntimeError(f"solve_ivp failed: {sol.message}")
    return sol.y[0]
